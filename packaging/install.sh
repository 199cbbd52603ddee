#!/bin/sh
# Install the unpacked bundle for the current user: a menu entry with its icon,
# and tsume-studio, tsume and tsume-usi in ~/.local/bin.  Run it from the
# folder it sits in; run it again after moving the folder.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
bin="$HOME/.local/bin"
apps="${XDG_DATA_HOME:-$HOME/.local/share}/applications"
icons="${XDG_DATA_HOME:-$HOME/.local/share}/icons/hicolor/scalable/apps"
mkdir -p "$bin" "$apps" "$icons"
for exe in tsume-studio tsume tsume-usi; do
    ln -sf "$here/$exe" "$bin/$exe"
done
sed "s|^Exec=tsume-studio|Exec=\"$here/tsume-studio\"|" "$here/tsume-studio.desktop" > "$apps/tsume-studio.desktop"
cp "$here/tsume-studio.svg" "$icons/tsume-studio.svg"
echo "installed: $bin/tsume-studio, $bin/tsume, $bin/tsume-usi and the menu entry"
echo "USI engine for ShogiHome and other GUIs: $here/tsume-usi"

"""Build the one-folder bundle and its archive: ``make package``.

Runs PyInstaller on packaging/tsume-studio.spec (dist/tsume-studio/ with the
executables ``tsume-studio``, ``tsume`` and ``tsume-usi`` sharing one runtime),
adds the ``.desktop`` entry, the icon and an install script, and writes
dist/tsume-studio-VERSION-linux-ARCH.tar.gz.  Prints the sizes.

Run from the repository root, with the package and PyInstaller installed::

    python packaging/build.py [--dist FOLDER] [--work FOLDER]
"""

from __future__ import annotations

import argparse
import platform
import re
import shutil
import subprocess
import sys
import tarfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def folder_size(path: Path) -> int:
    """Bytes in the files under ``path`` (links not followed)."""
    return sum(p.lstat().st_size for p in path.rglob("*") if p.is_file() and not p.is_symlink())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dist", type=Path, default=ROOT / "dist", help="output folder (default dist/)")
    parser.add_argument("--work", type=Path, default=ROOT / "build" / "pyinstaller",
                        help="PyInstaller's work folder (default build/pyinstaller/)")
    args = parser.parse_args()
    dist, bundle = args.dist.resolve(), args.dist.resolve() / "tsume-studio"
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    version = re.search(r'^version = "([^"]+)"', pyproject, re.MULTILINE).group(1)  # type: ignore[union-attr]
    subprocess.run([sys.executable, "-m", "PyInstaller", "--noconfirm", "--clean", "--log-level", "WARN",
                    "--distpath", str(dist), "--workpath", str(args.work.resolve()),
                    str(ROOT / "packaging" / "tsume-studio.spec")], check=True, cwd=ROOT)
    for name in ("tsume-studio.desktop", "tsume-studio.svg", "install.sh"):
        shutil.copy2(ROOT / "packaging" / name, bundle / name)
    (bundle / "install.sh").chmod(0o755)
    archive = dist / f"tsume-studio-{version}-linux-{platform.machine()}.tar.gz"
    with tarfile.open(archive, "w:gz") as tar:
        tar.add(bundle, arcname=bundle.name)
    print(f"{bundle}: {folder_size(bundle) / 2**20:.0f} MiB")
    print(f"{archive}: {archive.stat().st_size / 2**20:.0f} MiB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

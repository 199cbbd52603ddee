"""Application entry point (``tsume-studio``).

``tsume-studio [FILE] [--sample [NAME]] [--lang ja|en]``: opens FILE (a
position or record), or a bundled sample problem, in the main window.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Sequence
from importlib.resources import as_file
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QLibraryInfo
from PySide6.QtWidgets import QApplication

if TYPE_CHECKING:
    from .mainwindow import MainWindow

DEFAULT_SAMPLE = "02-mate3.kifu"


def sample_names() -> list[str]:
    """File names of the bundled sample problems."""
    from .resources import resource_path

    return sorted(p.name for p in resource_path("samples").iterdir()
                  if p.name.endswith((".kif", ".kifu", ".sfen", ".csa")))


def build_parser() -> argparse.ArgumentParser:
    """The command line of ``tsume-studio``."""
    parser = argparse.ArgumentParser(prog="tsume-studio", description="Compose, solve and study tsume-shogi.")
    parser.add_argument("file", nargs="?", help="a position or record to open (.sfen .kif .kifu .csa ...)")
    parser.add_argument("--sample", nargs="?", const=DEFAULT_SAMPLE, metavar="NAME",
                        help=f"open a bundled sample problem (default {DEFAULT_SAMPLE})")
    parser.add_argument("--lang", choices=("ja", "en"), help="interface language (default: saved, else the locale)")
    return parser


def create_window(args: argparse.Namespace) -> MainWindow:
    """Set up fonts and language, and build the main window with the requested problem."""
    from . import i18n
    from .mainwindow import MainWindow
    from .resources import register_fonts, resource_path
    from .settings import load_language

    app = QApplication.instance()
    try:
        family = register_fonts()
    except RuntimeError:
        family = ""
    if family and isinstance(app, QApplication):
        font = app.font()
        # The system's UI font first, the bundled Japanese font for what it lacks.
        font.setFamilies([font.family(), family])
        app.setFont(font)
    i18n.set_language(args.lang or load_language())
    window = MainWindow()
    if args.file:
        window.open_file(args.file)
    elif args.sample:
        name = args.sample
        if name not in sample_names():
            window.report_error(f"no bundled sample named {name!r}; there are: {', '.join(sample_names())}")
        else:
            with as_file(resource_path("samples", name)) as path:
                window.open_file(str(path), remember=False)   # a new problem, not the bundled file
    return window


# System libraries Qt's X11 platform plugin (xcb) loads, by Debian/Ubuntu package.
# Qt 6.5 and later need libxcb-cursor0, which many desktop installs lack.
XCB_PACKAGES = {
    "libxcb-cursor.so.0": "libxcb-cursor0", "libxcb-icccm.so.4": "libxcb-icccm4",
    "libxcb-image.so.0": "libxcb-image0", "libxcb-keysyms.so.1": "libxcb-keysyms1",
    "libxcb-randr.so.0": "libxcb-randr0", "libxcb-render-util.so.0": "libxcb-render-util0",
    "libxcb-shape.so.0": "libxcb-shape0", "libxcb-xkb.so.1": "libxcb-xkb1",
    "libxcb-xinerama.so.0": "libxcb-xinerama0", "libxcb-util.so.1": "libxcb-util1",
    "libxkbcommon-x11.so.0": "libxkbcommon-x11-0", "libxkbcommon.so.0": "libxkbcommon0",
    "libX11-xcb.so.1": "libx11-xcb1", "libEGL.so.1": "libegl1", "libGL.so.1": "libgl1",
    "libfontconfig.so.1": "libfontconfig1", "libdbus-1.so.3": "libdbus-1-3",
}
_NOT_FOUND_RE = re.compile(r"^\s*(\S+)\s+=>\s+not found", re.MULTILINE)


def _debian_package(soname: str) -> str:
    """The Debian/Ubuntu package that ships ``soname`` (``libxcb-sync.so.1`` -> ``libxcb-sync1``)."""
    if soname in XCB_PACKAGES:
        return XCB_PACKAGES[soname]
    match = re.fullmatch(r"lib(.+)\.so\.(\d+)", soname)
    if match is None:
        return soname
    name, version = match.groups()
    return f"lib{name.lower()}{'-' if name[-1].isdigit() else ''}{version}"


def missing_xcb_libraries(ldd_output: str | None = None) -> list[str]:
    """Shared libraries the xcb platform plugin needs and the system lacks (by ``ldd``); [] if unknown."""
    if ldd_output is None:
        plugin = Path(QLibraryInfo.path(QLibraryInfo.LibraryPath.PluginsPath)) / "platforms" / "libqxcb.so"
        ldd = shutil.which("ldd")
        if ldd is None or not plugin.is_file():
            return []
        try:
            ldd_output = subprocess.run([ldd, str(plugin)], capture_output=True, text=True, timeout=20,
                                        check=False).stdout
        except (OSError, subprocess.SubprocessError):
            return []
    return list(dict.fromkeys(_NOT_FOUND_RE.findall(ldd_output)))


def platform_problem(environ: dict[str, str] | os._Environ[str] = os.environ,
                     ldd_output: str | None = None) -> str | None:
    """What to install when Qt would abort loading its X11 platform plugin; None when all is well.

    Only checked where Qt will use xcb: on Linux, with ``QT_QPA_PLATFORM``
    unset or ``xcb`` and no Wayland session.
    """
    if not sys.platform.startswith("linux"):
        return None
    platform = environ.get("QT_QPA_PLATFORM", "")
    if platform.split(";")[0] not in ("", "xcb") or (not platform and environ.get("WAYLAND_DISPLAY")):
        return None
    missing = missing_xcb_libraries(ldd_output)
    if not missing:
        return None
    packages = " ".join(dict.fromkeys(_debian_package(m) for m in missing))
    return (f"tsume-studio: Qt cannot load its X11 platform plugin (xcb): missing {', '.join(missing)}.\n"
            f"On Debian or Ubuntu install them with:\n    sudo apt-get install {packages}\n"
            "(elsewhere, your distribution's packages of the same libraries).")


def main(argv: Sequence[str] | None = None) -> int:
    """Start the study app."""
    from ..core.cli.main import single_blas_thread

    single_blas_thread()
    arguments = list(argv) if argv is not None else sys.argv[1:]
    args = build_parser().parse_args(arguments)
    problem = platform_problem() if QApplication.instance() is None else None
    if problem is not None:
        # Said before Qt aborts with "could not load the Qt platform plugin".
        print(problem, file=sys.stderr)
        return 1
    app = QApplication.instance() or QApplication([sys.argv[0] if sys.argv else "tsume-studio"])
    app.setApplicationName("Tsume Studio")
    app.setOrganizationName("TsumeStudio")
    window = create_window(args)
    window.show()
    return app.exec()


if __name__ == "__main__":
    sys.exit(main())

"""Application entry point (``tsume-studio``).

``tsume-studio [FILE] [--sample [NAME]] [--lang ja|en]``: opens FILE (a
position or record), or a bundled sample problem, in the main window.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from importlib.resources import as_file
from typing import TYPE_CHECKING

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
                window.open_file(str(path))
    return window


def main(argv: Sequence[str] | None = None) -> int:
    """Start the study app."""
    arguments = list(argv) if argv is not None else sys.argv[1:]
    args = build_parser().parse_args(arguments)
    app = QApplication.instance() or QApplication([sys.argv[0] if sys.argv else "tsume-studio"])
    app.setApplicationName("Tsume Studio")
    app.setOrganizationName("TsumeStudio")
    window = create_window(args)
    window.show()
    return app.exec()


if __name__ == "__main__":
    sys.exit(main())

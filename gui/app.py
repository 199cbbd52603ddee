"""Application entry point (``tsume-studio``)."""

from __future__ import annotations

import sys
from typing import Sequence


def main(argv: Sequence[str] | None = None) -> int:
    """Start the study app."""
    from PySide6.QtWidgets import QApplication, QLabel

    app = QApplication(list(argv) if argv is not None else sys.argv)
    label = QLabel("Tsume Studio")
    label.resize(400, 200)
    label.show()
    return app.exec()

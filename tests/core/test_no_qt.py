"""The headless core never loads Qt: checked in a fresh interpreter, and in the source."""

from __future__ import annotations

import pkgutil
import re
import subprocess
import sys
from pathlib import Path

import tsume_studio.core as core

CORE_DIR = Path(core.__file__).parent


def _core_modules() -> list[str]:
    return sorted(f"tsume_studio.core.{m.name}" for m in pkgutil.iter_modules([str(CORE_DIR)]))


def test_every_core_module_is_listed() -> None:
    names = _core_modules()
    for expected in ("position", "moves", "types", "cli", "cli_position"):
        assert f"tsume_studio.core.{expected}" in names


def test_importing_core_loads_no_qt() -> None:
    modules = ["tsume_studio.core"] + _core_modules()
    code = (
        "import importlib, sys\n"
        f"for name in {modules!r}:\n"
        "    importlib.import_module(name)\n"
        "qt = sorted(m for m in sys.modules if m.split('.')[0] in ('PySide6', 'shiboken6', 'PyQt5', 'PyQt6'))\n"
        "print(len(sys.modules), qt)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                         env={"PYTHONDONTWRITEBYTECODE": "1", "PATH": ""})
    assert out.returncode == 0, out.stderr
    count, qt = out.stdout.split(" ", 1)
    assert int(count) > 20  # the imports really ran
    assert qt.strip() == "[]", f"core modules loaded Qt: {qt}"


_QT_IMPORT = re.compile(r"^\s*(from|import)\s+(PySide6|shiboken6|PyQt5|PyQt6|qtpy)\b", re.MULTILINE)


def test_no_qt_import_in_core_source() -> None:
    offenders = [p.name for p in sorted(CORE_DIR.glob("*.py")) if _QT_IMPORT.search(p.read_text(encoding="utf-8"))]
    assert offenders == []
    # The pattern does find a Qt import when there is one.
    assert _QT_IMPORT.search("import os\nfrom PySide6.QtCore import QObject\n")

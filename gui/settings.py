"""Persistent settings (QSettings) and the solver-limits dialog.

Keys: ``solve/seconds`` (0 = no limit), ``solve/nodes`` (0 = no limit),
``solve/memory_mb``, ``solve/mode`` (``"mate"`` or ``"helpmate"``),
``ui/language`` (``"ja"`` or ``"en"``), ``files/recent`` (the last opened or
saved files, newest first), ``files/folder`` (where the last file dialog was),
``engines/list`` (the registered USI engines, an array of ``name``, ``path``,
``args`` and ``options``) and ``solve/engine`` (the engine Solve runs on: an
engine's name, or "" for the built-in solver).
"""

from __future__ import annotations

import math
import os

from PySide6.QtCore import QLocale, QSettings
from PySide6.QtWidgets import (
    QDialog, QDialogButtonBox, QDoubleSpinBox, QFormLayout, QSpinBox, QWidget,
)

from ..core.search.contract import Limits
from ..core.usi_client import EngineSpec
from .i18n import LANGUAGES, add_translations, tr

ORGANIZATION = "TsumeStudio"
APPLICATION = "tsume-studio"

RECENT_LIMIT = 10
DEFAULT_LIMITS = Limits(nodes=None, seconds=60.0, memory_mb=512)
MODES = ("mate", "helpmate")

add_translations("ja", {
    "Solver limits": "探索の制限",
    "Time limit": "制限時間",
    "Node limit": "探索局面数の上限",
    "Memory for the table": "置換表のメモリ",
    "no limit": "制限なし",
    " s": " 秒",
    " MB": " MB",
})


def settings() -> QSettings:
    """The application's settings store (INI format, per user)."""
    return QSettings(QSettings.Format.IniFormat, QSettings.Scope.UserScope, ORGANIZATION, APPLICATION)


def _number(value: object, default: float) -> float:
    """``value`` as a finite number (INI files store text), else ``default``."""
    if not isinstance(value, (str, int, float)):
        return default
    try:
        number = float(value)
    except ValueError:
        return default
    return number if math.isfinite(number) else default


def load_limits(store: QSettings | None = None) -> Limits:
    """The saved solver limits (defaults where nothing valid is saved)."""
    s = store or settings()
    seconds = _number(s.value("solve/seconds", DEFAULT_LIMITS.seconds), DEFAULT_LIMITS.seconds or 0.0)
    nodes = int(_number(s.value("solve/nodes", 0), 0))
    memory = int(_number(s.value("solve/memory_mb", DEFAULT_LIMITS.memory_mb), DEFAULT_LIMITS.memory_mb))
    return Limits(nodes=nodes if nodes > 0 else None,
                  seconds=seconds if seconds > 0 else None,
                  memory_mb=max(16, memory))


def save_limits(limits: Limits, store: QSettings | None = None) -> None:
    """Save solver limits (``None`` is stored as 0, no limit)."""
    s = store or settings()
    s.setValue("solve/seconds", float(limits.seconds or 0.0))
    s.setValue("solve/nodes", int(limits.nodes or 0))
    s.setValue("solve/memory_mb", int(limits.memory_mb))
    s.sync()


def load_mode(store: QSettings | None = None) -> str:
    """The saved solve mode, ``"mate"`` or ``"helpmate"``."""
    mode = str((store or settings()).value("solve/mode", "mate"))
    return mode if mode in MODES else "mate"


def save_mode(mode: str, store: QSettings | None = None) -> None:
    """Save the solve mode.

    Raises:
        ValueError: ``mode`` is not one of MODES.
    """
    if mode not in MODES:
        raise ValueError(f"solve mode must be one of {', '.join(MODES)}, not {mode!r}")
    s = store or settings()
    s.setValue("solve/mode", mode)
    s.sync()


def load_language(store: QSettings | None = None) -> str:
    """The saved interface language, else Japanese when the system locale is Japanese, else English."""
    lang = (store or settings()).value("ui/language", "")
    if lang in LANGUAGES:
        return str(lang)
    return "ja" if QLocale.system().language() == QLocale.Language.Japanese else "en"


def save_language(lang: str, store: QSettings | None = None) -> None:
    """Save the interface language."""
    if lang not in LANGUAGES:
        raise ValueError(f"language must be one of {', '.join(LANGUAGES)}, not {lang!r}")
    s = store or settings()
    s.setValue("ui/language", lang)
    s.sync()


def load_recent(store: QSettings | None = None) -> list[str]:
    """The recent files, newest first (at most RECENT_LIMIT)."""
    value = (store or settings()).value("files/recent", [])
    if isinstance(value, str):   # an INI file holding a single entry gives a string
        value = [value] if value else []
    if not isinstance(value, list):
        return []
    return [str(v) for v in value if v][:RECENT_LIMIT]


def _save_recent(paths: list[str], store: QSettings | None) -> list[str]:
    s = store or settings()
    s.setValue("files/recent", paths[:RECENT_LIMIT])
    s.sync()
    return paths[:RECENT_LIMIT]


def add_recent(path: str, store: QSettings | None = None) -> list[str]:
    """Put ``path`` (made absolute) first in the recent files; return the new list."""
    path = os.path.abspath(path)
    return _save_recent([path] + [p for p in load_recent(store) if p != path], store)


def remove_recent(path: str, store: QSettings | None = None) -> list[str]:
    """Take ``path`` out of the recent files; return the new list."""
    return _save_recent([p for p in load_recent(store) if p != path], store)


def load_last_folder(store: QSettings | None = None) -> str:
    """The folder of the last file opened or saved through a dialog ("" when none or gone)."""
    folder = str((store or settings()).value("files/folder", "") or "")
    return folder if folder and os.path.isdir(folder) else ""


def save_last_folder(path: str, store: QSettings | None = None) -> None:
    """Remember the folder of ``path`` (a file) for the next file dialog."""
    s = store or settings()
    s.setValue("files/folder", os.path.dirname(os.path.abspath(path)))
    s.sync()


class LimitsDialog(QDialog):
    """Edit the solver limits: seconds, nodes and table memory (0 means no limit)."""

    def __init__(self, limits: Limits, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(tr("Solver limits"))
        self.seconds = QDoubleSpinBox(self)
        self.seconds.setRange(0.0, 24 * 3600.0)
        self.seconds.setDecimals(1)
        self.seconds.setSuffix(tr(" s"))
        self.seconds.setSpecialValueText(tr("no limit"))
        self.seconds.setValue(limits.seconds or 0.0)
        self.nodes = QSpinBox(self)
        self.nodes.setRange(0, 2_000_000_000)
        self.nodes.setSingleStep(100_000)
        self.nodes.setSpecialValueText(tr("no limit"))
        self.nodes.setValue(limits.nodes or 0)
        self.memory = QSpinBox(self)
        self.memory.setRange(16, 64 * 1024)
        self.memory.setSingleStep(64)
        self.memory.setSuffix(tr(" MB"))
        self.memory.setValue(limits.memory_mb)
        form = QFormLayout(self)
        form.addRow(tr("Time limit"), self.seconds)
        form.addRow(tr("Node limit"), self.nodes)
        form.addRow(tr("Memory for the table"), self.memory)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel,
                                   parent=self)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)

    def limits(self) -> Limits:
        """The limits as edited."""
        seconds = self.seconds.value()
        nodes = self.nodes.value()
        return Limits(nodes=nodes or None, seconds=seconds or None, memory_mb=self.memory.value())


def load_engines(store: QSettings | None = None) -> list[EngineSpec]:
    """The registered USI engines, in the order they were added (entries without a name or path skipped)."""
    s = store or settings()
    count = s.beginReadArray("engines/list")
    engines: list[EngineSpec] = []
    for i in range(count):
        s.setArrayIndex(i)
        name = str(s.value("name", "") or "")
        path = str(s.value("path", "") or "")
        args = _strings(s.value("args", []))
        options = []
        for text in _strings(s.value("options", [])):
            key, sep, value = text.partition("=")
            if sep and key:
                options.append((key, value))
        if name and path:
            engines.append(EngineSpec(name, path, tuple(args), tuple(options)))
    s.endArray()
    return engines


def _strings(value: object) -> list[str]:
    """A stored list of strings (an INI file gives a lone string for a one-element list)."""
    if isinstance(value, str):
        return [value] if value else []
    if isinstance(value, list):
        return [str(v) for v in value]
    return []


def save_engines(engines: list[EngineSpec], store: QSettings | None = None) -> None:
    """Replace the registered engines with ``engines``.

    Raises:
        ValueError: two engines share a name (Solve chooses an engine by name).
    """
    names = [e.name for e in engines]
    if len(set(names)) != len(names):
        raise ValueError("two engines have the same name")
    s = store or settings()
    s.remove("engines/list")
    s.beginWriteArray("engines/list", len(engines))
    for i, engine in enumerate(engines):
        s.setArrayIndex(i)
        s.setValue("name", engine.name)
        s.setValue("path", engine.path)
        s.setValue("args", list(engine.args))
        s.setValue("options", [f"{k}={v}" for k, v in engine.options])
    s.endArray()
    s.sync()


def load_engine_choice(store: QSettings | None = None) -> str:
    """The name of the engine Solve runs on; "" (the built-in solver) when none or no longer registered."""
    s = store or settings()
    name = str(s.value("solve/engine", "") or "")
    return name if any(e.name == name for e in load_engines(s)) else ""


def save_engine_choice(name: str, store: QSettings | None = None) -> None:
    """Remember the engine Solve runs on ("" for the built-in solver)."""
    s = store or settings()
    s.setValue("solve/engine", name)
    s.sync()

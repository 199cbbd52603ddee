"""A long solve in the window: the status line and the result panel name the phase,
the time against the limit, and a node count that ends where the result's does."""

from __future__ import annotations

import os
import re
from pathlib import Path
from collections.abc import Iterator

import pytest
from PySide6.QtCore import QTimer
from pytestqt.qtbot import QtBot

from tsume_studio.core.search.contract import Limits, SolveResult
from tsume_studio.core.shogi.position import Position
from tsume_studio.gui.mainwindow import MainWindow
from tsume_studio.gui.settings import save_limits
from tsume_studio.gui.worker import running_workers

DATA = Path(__file__).parent.parent / "data"
SHOTS = os.environ.get("TSUME_SHOTS")   # a folder: the test saves what it saw there

pytestmark = pytest.mark.qt_log_ignore(r"This plugin does not support propagateSizeHints")


def musou(pid: str) -> str:
    for line in (DATA / "musou.tsv").read_text(encoding="utf-8").splitlines():
        fields = line.split("\t")
        if fields[0] == pid:
            return fields[1]
    raise AssertionError(f"{pid} missing from tests/data/musou.tsv")


@pytest.fixture
def window(qtbot: QtBot) -> Iterator[MainWindow]:
    save_limits(Limits(seconds=6.0, memory_mb=128))
    w = MainWindow()
    qtbot.addWidget(w)
    w.resize(1200, 800)
    w.show()
    yield w
    if w.is_searching():
        w.stop()
        qtbot.waitUntil(lambda: not w.is_searching(), timeout=5000)
    qtbot.waitUntil(lambda: running_workers() == 0, timeout=5000)
    save_limits(Limits(seconds=60.0, memory_mb=512))


def _nodes(text: str) -> int | None:
    m = re.search(r"Nodes ([\d,]+)", text)
    return int(m.group(1).replace(",", "")) if m else None


def test_long_solve_names_its_phases_and_one_node_count(qtbot: QtBot, window: MainWindow) -> None:
    # 将棋無双 3番 (39 plies): the proof takes about a second, the shortest the rest of the limit.
    window.editor.set_position(Position.from_sfen(musou("musou-003")))
    seen: list[tuple[str, str]] = []
    notes: list[str] = []

    def look() -> None:
        if window.is_searching():
            seen.append((window.result_panel.summary.text(), window.stats_label.text()))
            note = window.search_panel.phase_note
            notes.append(note.text() if note.isVisible() else "")
            if SHOTS and len(seen) % 20 == 0:
                window.grab().save(str(Path(SHOTS) / f"phases-{len(seen):03d}.png"))

    timer = QTimer()
    timer.timeout.connect(look)
    timer.start(50)
    with qtbot.waitSignal(window.searchFinished, timeout=60000) as blocker:
        window.actions_["solve"].trigger()
    timer.stop()
    result = blocker.args[0]
    assert isinstance(result, SolveResult)
    summaries = [s for s, _ in seen]
    assert any(s.startswith("Proving mate") for s in summaries)
    assert any(s.startswith("Proving the shortest: mate within") for s in summaries)
    # (A look between the result and the end of the search sees the result: only phases count.)
    assert all(re.search(r"\d+\.\d s of 6 s", s) for s in summaries if s.startswith("Proving"))
    assert all(re.search(r"\d+\.\d s of 6 s", t) for _, t in seen if t.startswith(("Proving",)))
    shown = [n for n in (_nodes(t) for _, t in seen) if n is not None]
    assert shown and shown == sorted(shown), "the node count shown went down"
    assert result.nodes >= shown[-1]
    assert f"{result.nodes:,}" in window.stats_label.text()
    # After df-pn's proof the live tree no longer changes: the note under it says what runs.
    during = [n for n, (s, _) in zip(notes, seen) if s.startswith("Proving the shortest")]
    assert during and all(n.startswith("Mate is proved; the tree above is that proof, complete. "
                                       "Now: Proving the shortest") for n in during)
    assert len(set(during)) > 1, "the note did not move"
    assert not any(n for n, (s, _) in zip(notes, seen) if s.startswith("Proving mate"))
    assert not window.search_panel.phase_note.isVisible()
    if SHOTS:
        window.grab().save(str(Path(SHOTS) / "phases-end.png"))

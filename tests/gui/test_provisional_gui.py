"""A result whose shortest is not proved still shows its proof tree and the 無駄合 found, labelled;
Stop during the shortest search keeps the bounds it had proved in view."""

from __future__ import annotations

import threading
from collections.abc import Callable, Generator, Iterator
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from tsume_studio.core.search import builder
from tsume_studio.core.search.length_rule import SearchAborted
from tsume_studio.core.search.contract import Limits, Progress, SearchPhase, SolveResult, SolveStatus
from tsume_studio.core.search.proof import Proof
from tsume_studio.core.shogi.position import Position
from tsume_studio.gui import i18n
from tsume_studio.gui.mainwindow import MainWindow
from tsume_studio.gui.panels import PROVISIONAL_FUTILE_NOTE, PROVISIONAL_NOTE

DATA = Path(__file__).parent.parent / "data"

pytestmark = pytest.mark.qt_log_ignore(r"This plugin does not support propagateSizeHints")


def _sfen(row_id: str) -> str:
    for line in (DATA / "mate.tsv").read_text(encoding="utf-8").splitlines():
        fields = line.split("\t")
        if fields[0] == row_id:
            return fields[1]
    raise AssertionError(row_id)


@pytest.fixture
def japanese() -> Iterator[None]:
    before = i18n.language()
    i18n.set_language("ja")
    yield
    i18n.set_language(before)


def _out_of_time(*_args: object, **_kw: object) -> object:
    raise SearchAborted("deadline")
    yield  # pragma: no cover - a generator like the real one


def test_unproved_shortest_shows_the_proof_tree_and_the_futile_found(
        qtbot: QtBot, open_window: Callable[..., MainWindow], monkeypatch: pytest.MonkeyPatch,
        japanese: None) -> None:
    # The real solver on sugyan-1014, its official answer cut short after the length search
    # (as a time limit would): the window shows df-pn's proof, labelled, and the futile drop found.
    monkeypatch.setattr(builder.AnswerBuilder, "main_line", _out_of_time)
    w = open_window()
    w.editor.set_position(Position.from_sfen(_sfen("sugyan-1014")))
    with qtbot.waitSignal(w.searchFinished, timeout=60000):
        w.solve()
    proof = w.proof_panel.model.proof()   # type: ignore[attr-defined]
    assert isinstance(proof, Proof) and proof.provisional
    assert w.proof_panel.note.isVisibleTo(w) and w.proof_panel.note.text() == i18n.tr(PROVISIONAL_NOTE)
    assert w.proof_panel.model.rowCount() > 0
    rows = w.futile_panel.texts()
    assert len(rows) == 1 and "７九桂打" in rows[0] and "本譜" in rows[0]
    assert w.futile_panel.note.text() == i18n.tr(PROVISIONAL_FUTILE_NOTE)
    summary = w.result_panel.summary.text()
    # The length shown is the one proved from both sides (5), not df-pn's 7-ply line's.
    assert summary == "5手詰（最短と証明済み。本譜は時間内に作れませんでした）"


def _shortest_until_stopped(position: Position, limits: Limits, cancel: threading.Event
                            ) -> Generator[Progress, None, SolveResult]:
    """The shortest search's snapshots ("mate within 39?", proved 37 to 41) until Stop."""
    n = 0
    while not cancel.wait(0.005):
        n += 1
        yield Progress(nodes=n, nps=1000.0, elapsed=n / 1000, root_pn=0, root_dn=10**12,
                       phase=SearchPhase.SHORTEST,
                       stats=(("asking", 39.0), ("at_least", 37.0), ("at_most", 41.0)))
    return SolveResult(SolveStatus.CANCELLED, position.sfen(), nodes=n, extra={"at_least": 37, "at_most": 41})


def test_stop_keeps_the_proved_bounds_in_view(qtbot: QtBot, japanese: None) -> None:
    w = MainWindow(solver_for=lambda mode: _shortest_until_stopped)
    qtbot.addWidget(w)
    w.show()
    w.editor.set_position(Position.from_sfen("7k1/4R4/9/9/9/9/9/9/9 b SNr2b4g3s3n4l18p 1"))
    w.solve()
    qtbot.waitUntil(lambda: "39手以内に詰むか" in w.stats_label.text(), timeout=5000)
    with qtbot.waitSignal(w.searchFinished, timeout=5000):
        w.stop()
    assert "41手以内、37手以上" in w.result_panel.summary.text()
    assert "41手以内、37手以上" in w.stats_label.text()

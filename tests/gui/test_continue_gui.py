"""Continue: a stopped or timed-out search gets more time from where it stopped, its table kept.

Both searches run the real solver (df-pn on the kernel where it is built, else
the Python engine): the first run is stopped (or hits its node limit) before
df-pn proves the mate, Continue proves it, and the node count shown goes on
from the stopped run's instead of starting again from zero.
"""

from __future__ import annotations

import csv
from collections.abc import Callable
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from tsume_studio.core.search.contract import Limits, Progress, SearchPhase, SolveResult, SolveStatus
from tsume_studio.core.shogi.position import Position
from tsume_studio.gui.mainwindow import MainWindow
from tsume_studio.gui.settings import save_limits

pytestmark = pytest.mark.qt_log_ignore(r"This plugin does not support propagateSizeHints")

DATA = Path(__file__).parent.parent / "data"


def _sfen(file: str, row_id: str) -> str:
    with (DATA / file).open(encoding="utf-8") as f:
        for row in csv.DictReader(f, delimiter="\t"):
            if row["id"] == row_id:
                return row["sfen"]
    raise AssertionError(f"{row_id} missing from {file}")


def _watch(w: MainWindow) -> list[Progress]:
    """The snapshots the window's worker sends, from the search just started."""
    seen: list[Progress] = []
    assert w._worker is not None
    w._worker.progress.connect(seen.append)
    return seen


def test_continue_after_a_node_limit(qtbot: QtBot, open_window: Callable[..., MainWindow]) -> None:
    w = open_window()
    # df-pn needs 3,211 nodes on the kernel (more on the Python engine): 1,000 do not prove it.
    save_limits(Limits(nodes=1000, seconds=None, memory_mb=64))
    w.editor.set_position(Position.from_sfen(_sfen("mate.tsv", "mog-1037")))
    assert not w.actions_["continue"].isEnabled()
    with qtbot.waitSignal(w.searchFinished, timeout=30000) as first:
        w.actions_["solve"].trigger()
    stopped = first.args[0]
    assert stopped is not None and stopped.status is SolveStatus.UNKNOWN
    assert 1000 <= stopped.nodes < 2200
    assert w.actions_["continue"].isEnabled()
    # The limit is a setting: more time, no node limit, then Continue.
    save_limits(Limits(seconds=60, memory_mb=64))
    with qtbot.waitSignal(w.searchStarted, timeout=5000):
        w.actions_["continue"].trigger()
    seen = _watch(w)
    qtbot.waitUntil(lambda: not w.is_searching(), timeout=60000)
    result = w.result()
    assert result is not None and result.status is SolveStatus.MATE
    assert result.length == 13 and result.extra["exact"] is True
    # The count went on from the stopped run's: every snapshot and the result are past it.
    assert seen and all(p.nodes >= stopped.nodes for p in seen)
    assert result.nodes > stopped.nodes
    assert not w.actions_["continue"].isEnabled()   # answered: nothing left to continue


def test_continue_after_stop_proves_what_the_first_run_did_not(
        qtbot: QtBot, open_window: Callable[..., MainWindow]) -> None:
    from tsume_studio.core.search import kernel_engine

    if not kernel_engine.available():
        pytest.skip("timed for the kernel: the Python engine needs longer than this test's 8 s limit")
    w = open_window(seconds=60.0)
    # Microcosmos tail 81: about 820,000 nodes of df-pn on the kernel (near 2 CPU s).
    w.editor.set_position(Position.from_sfen(_sfen("microcosmos.tsv", "microcosmos-tail-81")))
    with qtbot.waitSignal(w.searchStarted, timeout=5000):
        w.actions_["solve"].trigger()
    seen = _watch(w)
    qtbot.waitUntil(lambda: any(p.nodes > 0 and p.phase is SearchPhase.MATE for p in seen), timeout=20000)
    with qtbot.waitSignal(w.searchFinished, timeout=5000) as first:
        w.actions_["stop"].trigger()
    assert first.args == [None] and w.result() is None
    stopped_nodes = max(p.nodes for p in seen)
    assert stopped_nodes > 0
    assert w.actions_["continue"].isEnabled()
    assert "Shift+F5" in w.statusBar().currentMessage()   # the stop says how to go on
    # A short limit: the proof is what is asked of these runs, not the 81-ply official answer.  On a
    # loaded machine one run may not finish df-pn: Continue again, the count going on each time.
    save_limits(Limits(seconds=8, memory_mb=64))
    counts = [stopped_nodes]
    result = None
    for _ in range(8):
        assert w.actions_["continue"].isEnabled()
        with qtbot.waitSignal(w.searchStarted, timeout=5000):
            w.actions_["continue"].trigger()
        again = _watch(w)
        qtbot.waitUntil(lambda: not w.is_searching(), timeout=60000)
        result = w.result()
        assert result is not None and result.status in (SolveStatus.MATE, SolveStatus.UNKNOWN)
        assert again and again[0].nodes >= counts[-1]   # from where it stopped, not from zero
        assert result.nodes >= max(p.nodes for p in again) > counts[-1]
        counts.append(result.nodes)
        if result.status is SolveStatus.MATE:
            break
    assert result is not None and result.status is SolveStatus.MATE


def test_a_new_problem_drops_the_kept_search(qtbot: QtBot, open_window: Callable[..., MainWindow]) -> None:
    w = open_window()
    save_limits(Limits(nodes=1000, seconds=None, memory_mb=64))
    w.editor.set_position(Position.from_sfen(_sfen("mate.tsv", "mog-1037")))
    with qtbot.waitSignal(w.searchFinished, timeout=30000):
        w.actions_["solve"].trigger()
    assert w.actions_["continue"].isEnabled()
    w.editor.set_position(Position.from_sfen(_sfen("mate.tsv", "mog-1033")))
    assert not w.actions_["continue"].isEnabled()
    assert w._resume.search is None   # its table freed


def test_continue_checks_on_an_answer_whose_yozume_search_ran_out(
        qtbot: QtBot, open_window: Callable[..., MainWindow]) -> None:
    from tsume_studio.core.search.proof import Proof

    # tanuki-5-83 has 余詰 at plies 3 and 5: a node limit that ends the solve inside its 余詰
    # search (found here with the same solver) leaves an exact answer checked part way.
    w, whole, cut = _solve_cut(qtbot, open_window, "tanuki-5-83", in_tree=False)
    assert isinstance(cut.proof, Proof) and not cut.proof.alternatives_checked
    assert w.actions_["continue"].isEnabled()
    assert "Shift+F5" in w.statusBar().currentMessage()
    tree_nodes = w.search_panel.model.node_count()   # type: ignore[attr-defined]
    assert tree_nodes > 0
    save_limits(Limits(seconds=60, memory_mb=64))
    with qtbot.waitSignal(w.searchFinished, timeout=60000) as second:
        w.actions_["continue"].trigger()
    more = second.args[0]
    assert more is not None and more.status is SolveStatus.MATE and more.length == whole.length
    assert isinstance(more.proof, Proof) and more.proof.alternatives_checked
    assert [(a.path, a.move) for a in more.proof.alternatives] == [(a.path, a.move) for a in whole.proof.alternatives]
    assert w.result() is more and not w.actions_["continue"].isEnabled()
    # The panels show the whole answer: the 余詰 panel no longer says it stopped part way.
    assert w.proof_panel.model.proof() is more.proof   # type: ignore[union-attr]
    # df-pn's search tree from the first run stays in view: the 余詰 search adds no df-pn nodes.
    assert w.search_panel.model.node_count() == tree_nodes   # type: ignore[attr-defined]


def test_continue_measures_on_an_answer_whose_tree_ran_out(
        qtbot: QtBot, open_window: Callable[..., MainWindow]) -> None:
    from tsume_studio.core.search.proof import Proof
    from tsume_studio.gui.i18n import tr
    from tsume_studio.gui.panels import TREE_CUT_NOTE

    # tanuki-9-425: a node limit that ends the solve while its tree measures the variations leaves
    # an exact answer whose panel says so; Continue measures on to the whole answer.
    w, whole, cut = _solve_cut(qtbot, open_window, "tanuki-9-425", in_tree=True)
    assert isinstance(cut.proof, Proof) and not cut.proof.tree_complete
    assert w.proof_panel.note.isVisibleTo(w) and w.proof_panel.note.text() == tr(TREE_CUT_NOTE)
    assert w.actions_["continue"].isEnabled() and "measured" in w.statusBar().currentMessage()
    save_limits(Limits(seconds=60, memory_mb=64))
    with qtbot.waitSignal(w.searchFinished, timeout=60000) as second:
        w.actions_["continue"].trigger()
    more = second.args[0]
    assert more is not None and isinstance(more.proof, Proof) and more.proof.tree_complete
    assert isinstance(whole.proof, Proof) and more.proof.root == whole.proof.root
    assert not w.proof_panel.note.isVisibleTo(w) and not w.actions_["continue"].isEnabled()


def test_stop_while_the_yozume_search_goes_on_keeps_the_answer(
        qtbot: QtBot, open_window: Callable[..., MainWindow], monkeypatch: pytest.MonkeyPatch) -> None:
    import threading
    import time

    from tsume_studio.core.search.length_rule import AnswerSession
    from tsume_studio.core.search.proof import Proof
    from tsume_studio.gui import mainwindow

    position = Position.from_sfen(_sfen("mate.tsv", "tanuki-5-83"))
    whole, limit = _cut_in_yozume_search(position)
    w = open_window()
    save_limits(Limits(nodes=limit, seconds=None, memory_mb=64))
    w.editor.set_position(position)
    with qtbot.waitSignal(w.searchFinished, timeout=30000):
        w.actions_["solve"].trigger()
    cut = w.result()
    assert cut is not None and w.actions_["continue"].isEnabled()

    # The continuation, stopped: one that gives nothing more, then one whose answer is whole by then.
    gives: list[SolveResult] = [SolveResult(SolveStatus.CANCELLED, cut.sfen), whole]

    def stopped_continuation(pos: Position, limits: Limits, cancel: threading.Event, *,
                             session: AnswerSession) -> object:
        while not cancel.is_set():
            time.sleep(0.01)
        return gives.pop(0)
        yield  # pragma: no cover - a generator like the real one

    monkeypatch.setattr(mainwindow, "continue_alternatives", stopped_continuation)
    with qtbot.waitSignal(w.searchStarted, timeout=5000):
        w.actions_["continue"].trigger()
    with qtbot.waitSignal(w.searchFinished, timeout=5000):
        w.actions_["stop"].trigger()
    # Nothing more: the answer before stays in view, and Continue with it.
    assert w.result() is cut and w.actions_["continue"].isEnabled()
    assert w.result_panel.line()
    with qtbot.waitSignal(w.searchStarted, timeout=5000):
        w.actions_["continue"].trigger()
    with qtbot.waitSignal(w.searchFinished, timeout=5000):
        w.actions_["stop"].trigger()
    # The run had checked it all: that answer is shown, nothing left to continue.
    assert w.result() is whole and not w.actions_["continue"].isEnabled()
    assert isinstance(w.proof_panel.model.proof(), Proof)   # type: ignore[union-attr]


def _solve_cut(qtbot: QtBot, open_window: Callable[..., MainWindow], row_id: str, in_tree: bool
               ) -> tuple[MainWindow, SolveResult, SolveResult]:
    """A window that solved mate.tsv's ``row_id`` under a node limit that ends the solve inside its
    tree (``in_tree``) or its 余詰 search, exact; the whole answer, and the cut one."""
    position = Position.from_sfen(_sfen("mate.tsv", row_id))
    whole, limit = _cut_in_yozume_search(position, in_tree)
    w = open_window()
    save_limits(Limits(nodes=limit, seconds=None, memory_mb=64))
    w.editor.set_position(position)
    with qtbot.waitSignal(w.searchFinished, timeout=30000) as first:
        w.actions_["solve"].trigger()
    cut = first.args[0]
    assert cut is not None and cut.status is SolveStatus.MATE and cut.extra["exact"] is True
    return w, whole, cut


def _cut_in_yozume_search(position: Position, in_tree: bool = False) -> tuple[SolveResult, int]:
    """The whole answer of ``position`` (64 MB) and a node limit that ends its solve inside the 余詰 search
    (``in_tree``: inside the tree, once the main line is built)."""
    from tsume_studio.core.search.length_rule import AnswerSession
    from tsume_studio.core.search.proof import Proof
    from tsume_studio.core.search.solver import can_continue_alternatives, solve

    whole = solve(position, Limits(memory_mb=64))
    assert isinstance(whole.proof, Proof) and whole.proof.alternatives_checked
    for n in range(whole.nodes // 3, whole.nodes):
        session = AnswerSession()
        cut = solve(position, Limits(nodes=n, memory_mb=64), session=session)
        if (can_continue_alternatives(cut, session) and isinstance(cut.proof, Proof)
                and cut.proof.tree_complete != in_tree):
            return whole, n
    raise AssertionError("no node limit stopped the solve inside its " + ("tree" if in_tree else "余詰 search"))

"""Honest panels (#16): nothing stale after the position changes, "not solved yet" before a solve,
"not checked" where a search did not look, and helpmate answers with their other solutions."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from pytestqt.qtbot import QtBot

from tsume_studio.core.search.contract import Limits, SolveResult, SolveStatus
from tsume_studio.core.search.proof import Role
from tsume_studio.core.shogi.moves import Move
from tsume_studio.core.shogi.position import Position
from tsume_studio.gui import i18n
from tsume_studio.gui.mainwindow import MainWindow
from tsume_studio.gui.settings import save_limits
from tsume_studio.gui.worker import running_workers

THREE = "7k1/4R4/9/9/9/9/9/9/9 b SNr2b4g3s3n4l18p 1"
OTHER = "8k/6G2/R7P/9/9/9/9/9/9 b r2b3g4s4n4l17p 1"
NO_MATE = "8k/9/9/9/9/9/9/9/9 b G2r2b3g4s4n4l18p 1"
MIRROR = "9/9/9/3bkb3/9/3+R1+R3/9/9/9 b 4g4s4n4l18p 1"

pytestmark = pytest.mark.qt_log_ignore(r"This plugin does not support propagateSizeHints")


@pytest.fixture
def window(qtbot: QtBot) -> Iterator[MainWindow]:
    save_limits(Limits(seconds=60.0, memory_mb=64))
    i18n.set_language("en")
    w = MainWindow()
    qtbot.addWidget(w)
    w.show()
    yield w
    w.set_mode("mate")
    qtbot.waitUntil(lambda: running_workers() == 0, timeout=5000)


def solve(qtbot: QtBot, w: MainWindow, sfen: str) -> Any:
    w.editor.set_position(Position.from_sfen(sfen))
    with qtbot.waitSignal(w.searchFinished, timeout=30000) as blocker:
        w.actions_["solve"].trigger()
    return blocker.args[0]


def notes(w: MainWindow) -> dict[str, str]:
    """The note each panel shows ("" when hidden)."""
    out = {}
    for key, panel in (("futile", w.futile_panel), ("alternatives", w.alternatives_panel),
                       ("proof", w.proof_panel), ("search", w.search_panel)):
        out[key] = panel.note.text() if not panel.note.isHidden() else ""
    return out


def assert_not_solved(w: MainWindow) -> None:
    assert w.result() is None
    assert w.result_panel.summary.text().startswith("Not solved yet.")
    assert notes(w) == dict.fromkeys(("futile", "alternatives", "proof", "search"), "Not solved yet.")
    assert w.futile_panel.count() == w.alternatives_panel.count() == 0
    assert w.proof_panel.model.rowCount() == 0 and w.search_panel.model.node_count() == 0
    assert w.stats_label.text() == ""


def test_panels_say_not_solved_yet_before_any_solve(qtbot: QtBot, window: MainWindow) -> None:
    assert_not_solved(window)
    assert "none" not in " ".join(notes(window).values()).lower()
    i18n.set_language("ja")
    try:
        assert window.futile_panel.note.text() == "まだ解いていません。"
        assert window.proof_panel.note.text() == "まだ解いていません。"
        assert window.result_panel.summary.text().startswith("まだ解いていません。")
    finally:
        i18n.set_language("en")


def test_everything_derived_from_a_position_is_cleared_when_it_changes(qtbot: QtBot, window: MainWindow) -> None:
    result = solve(qtbot, window, OTHER)
    assert result.status is SolveStatus.MATE
    assert window.futile_panel.count() > 0            # this problem has futile interpositions
    assert window.search_panel.model.node_count() > 0
    assert window.proof_panel.model.rowCount() > 0 and window.stats_label.text()
    window.problem_bar.squareActivated.emit(11)       # a problem square marked on this position
    assert window.board.highlights()
    window.editor.set_position(Position.from_sfen(THREE))
    assert_not_solved(window)
    assert not window.board.highlights()


def test_a_stopped_search_leaves_nothing_behind_after_a_change(qtbot: QtBot, standins: Any) -> None:
    w = MainWindow(solver_for=lambda mode: standins.waiting)
    qtbot.addWidget(w)
    w.editor.set_position(Position.from_sfen(THREE))
    w.solve()
    qtbot.waitUntil(lambda: "Nodes" in w.stats_label.text(), timeout=5000)
    with qtbot.waitSignal(w.searchFinished, timeout=5000):
        w.stop()
    w.editor.set_position(Position.from_sfen(OTHER))
    assert w.stats_label.text() == "" and w.search_panel.note.text() == "Not solved yet."
    qtbot.waitUntil(lambda: running_workers() == 0, timeout=5000)


def test_after_stop_the_result_says_stopped_until_a_change(qtbot: QtBot, standins: Any) -> None:
    w = MainWindow(solver_for=lambda mode: standins.waiting)
    qtbot.addWidget(w)
    i18n.set_language("en")
    w.editor.set_position(Position.from_sfen(THREE))
    w.solve()
    qtbot.waitUntil(lambda: "Nodes" in w.stats_label.text(), timeout=5000)
    with qtbot.waitSignal(w.searchFinished, timeout=5000):
        w.stop()
    assert w.result_panel.summary.text().startswith("Stopped: no answer")
    i18n.set_language("ja")
    assert w.result_panel.summary.text().startswith("中止しました")
    i18n.set_language("en")
    w.show_problem()                       # showing the problem again is no change
    assert w.result_panel.summary.text().startswith("Stopped: no answer")
    w.solve()                              # a new search says it is searching
    assert w.result_panel.summary.text() == "Searching…"
    with qtbot.waitSignal(w.searchFinished, timeout=5000):
        w.stop()
    w.editor.set_position(Position.from_sfen(OTHER))
    assert w.result_panel.summary.text().startswith("Not solved yet.")
    qtbot.waitUntil(lambda: running_workers() == 0, timeout=5000)


def _solved_by(qtbot: QtBot, result: Any) -> MainWindow:
    """A window whose solver returns ``result(position)`` at once, after solving THREE."""
    def solver(position: Position, limits: Limits, cancel: Any) -> Any:
        yield from ()
        return result(position)

    w = MainWindow(solver_for=lambda mode: solver)
    qtbot.addWidget(w)
    i18n.set_language("en")
    w.editor.set_position(Position.from_sfen(THREE))
    with qtbot.waitSignal(w.searchFinished, timeout=5000):
        w.solve()
    return w


def test_an_answer_without_proof_tree_says_not_checked(qtbot: QtBot) -> None:
    w = _solved_by(qtbot, lambda p: SolveResult(SolveStatus.MATE, p.sfen(), pv=("G*5b",), length=1,
                                                extra={"exact": False}))
    shown = notes(w)
    for key in ("futile", "alternatives", "proof"):
        assert shown[key].startswith("Not checked"), key
    assert "ended before" in shown["search"]
    qtbot.waitUntil(lambda: running_workers() == 0, timeout=5000)


def test_no_mate_says_so_instead_of_none_found(qtbot: QtBot, window: MainWindow) -> None:
    result = solve(qtbot, window, NO_MATE)
    assert result.status is SolveStatus.NO_MATE
    shown = notes(window)
    assert shown["futile"] == shown["alternatives"] == "No mate was found, so there is nothing to list."


def test_an_undecided_search_says_so_not_no_mate(qtbot: QtBot) -> None:
    w = _solved_by(qtbot, lambda p: SolveResult(SolveStatus.UNKNOWN, p.sfen(), nodes=1000))
    shown = notes(w)
    for key in ("futile", "alternatives", "proof"):
        assert shown[key].startswith("Not decided: the search stopped"), key
        assert "No mate was found" not in shown[key], key
    i18n.set_language("ja")
    assert notes(w)["futile"].startswith("詰みも不詰も証明する前に")
    i18n.set_language("en")
    qtbot.waitUntil(lambda: running_workers() == 0, timeout=5000)


def test_helpmate_alternatives_tree_and_live_path(qtbot: QtBot, window: MainWindow) -> None:
    """The mirror helpmate: two shortest solutions, both shown; the proof and search trees are filled."""
    window.set_mode("helpmate")
    result = solve(qtbot, window, MIRROR)
    assert result.status is SolveStatus.MATE and result.length == 5
    assert window.result_panel.summary.text() == "Helpmate in 5"
    panel = window.alternatives_panel
    assert panel.count() == 1 and not notes(window)["alternatives"]
    lines = {("4f4d", "5d6c", "4d3c", "6c5d", "B*6c"), ("6f6d", "5d4c", "6d7c", "4c5d", "B*4c")}
    assert result.pv in lines
    listed = tuple(panel.list.item(0).toolTip().split())    # the other solution, in full
    assert {result.pv, listed} == lines
    assert panel.texts()[0].startswith("2: ▲") and panel.texts()[0].count("▲") == 3
    panel.select(0)
    assert window.board.last_move() == Move.from_usi(listed[-1])
    # Proof tree: both lines, the other one as a branch marked 余詰.
    model = window.proof_panel.model
    assert model.rowCount() == 2
    roles = {model.index(r, 0).data(Qt_role()) for r in range(2)}
    assert roles == {Role.MAIN, Role.ALTERNATIVE}
    assert window.search_panel.model.node_count() >= 5      # the line found, at least
    assert "futile-interposition" in notes(window)["futile"]


def Qt_role() -> int:  # noqa: N802 - the models' role for a node's Role
    from tsume_studio.gui.models import ROLE_ROLE

    return ROLE_ROLE


def test_helpmate_other_solutions_are_exported_as_variations(qtbot: QtBot, window: MainWindow,
                                                             tmp_path: Any) -> None:
    """Export solution writes both shortest helpmates of the mirror position: the other one is a 変化."""
    from tsume_studio.core.records.formats import read_record

    window.set_mode("helpmate")
    result = solve(qtbot, window, MIRROR)
    assert result.status is SolveStatus.MATE
    path = tmp_path / "mirror.kif"
    window.export_kif(str(path))
    record = read_record(path)
    assert record.start == Position.from_sfen(MIRROR)
    assert record.header["手数"] == "5"

    def lines(node: Any, line: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
        moves = [c for c in node.children if c.move is not None]
        if not moves:
            return [line]
        return [x for c in moves for x in lines(c, line + (c.move.usi(),))]

    found = lines(record.root)
    assert found[0] == result.pv                          # the main line is the answer shown
    assert set(found) == {("4f4d", "5d6c", "4d3c", "6c5d", "B*6c"), ("6f6d", "5d4c", "6d7c", "4c5d", "B*4c")}
    assert len(record.root.children) == 2                 # the other solution branches at the first move
    # The same tree goes into the record on the board, with its 手数, when kept.
    assert window.keep_answer()
    merged = window.editor.full_record()
    assert lines(merged.root) == found and merged.header["手数"] == "5"


def test_the_merged_answer_gives_a_record_without_length_its_length(qtbot: QtBot, window: MainWindow) -> None:
    solve(qtbot, window, THREE)
    assert window.keep_answer()
    record = window.editor.full_record()
    assert record.header["手数"] == "3" and record.root.children
    window.editor.action("undo").trigger()                # the answer and its 手数 go in one step
    record = window.editor.full_record()
    assert "手数" not in record.header and not record.root.children
    # A record that states its length keeps it; an answer not proved shortest sets none.
    window.editor.set_header({"手数": "5"}, [])
    window.actions_["solve"].trigger()
    qtbot.waitUntil(lambda: window.result() is not None, timeout=30000)
    window.keep_answer()
    assert window.editor.full_record().header["手数"] == "5"


def test_an_answer_not_proved_shortest_sets_no_length(qtbot: QtBot) -> None:
    def raw(position: Position, limits: Limits, cancel: Any) -> Any:
        yield from ()
        return SolveResult(SolveStatus.MATE, position.sfen(), pv=("N*3c",), length=1, extra={"exact": False})

    w = MainWindow(solver_for=lambda mode: raw)
    qtbot.addWidget(w)
    w.editor.set_position(Position.from_sfen(THREE))
    with qtbot.waitSignal(w.searchFinished, timeout=5000):
        w.solve()
    assert w.keep_answer()
    record = w.editor.full_record()
    assert record.root.children and "手数" not in record.header
    qtbot.waitUntil(lambda: running_workers() == 0, timeout=5000)


def test_the_status_line_follows_a_language_switch(qtbot: QtBot, window: MainWindow) -> None:
    solve(qtbot, window, THREE)
    assert window.stats_label.text().startswith("Mate in 3, ")
    i18n.set_language("ja")
    try:
        assert window.stats_label.text().startswith("3手詰、") and "局面" in window.stats_label.text()
    finally:
        i18n.set_language("en")
    assert window.stats_label.text().startswith("Mate in 3, ")


def test_the_status_line_counts_one_node_in_the_singular(qtbot: QtBot) -> None:
    """A search decided at its first node says "1 node" (the real solver's count includes the
    official answer's nodes after df-pn, so a one-node result comes from a stand-in)."""

    def one_node(position: Position, limits: Limits, cancel: Any) -> Any:
        yield from ()
        return SolveResult(SolveStatus.MATE, position.sfen(), pv=("N*3c", "2a1a", "S*1b"), length=3, nodes=1)

    save_limits(Limits(seconds=60.0, memory_mb=64))
    i18n.set_language("en")
    w = MainWindow(solver_for=lambda _mode: one_node)
    qtbot.addWidget(w)
    w.show()
    solve(qtbot, w, THREE)
    result = w.result()
    assert result is not None
    assert result.nodes == 1
    assert ", 1 node in " in w.stats_label.text()
    qtbot.waitUntil(lambda: running_workers() == 0, timeout=5000)

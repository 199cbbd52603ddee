"""The window names what an answer holds as composers do (core.answer's classification):
成不成非限定 apart from 余詰, 変同, and the 無駄合 list in ply order, once each, with its branch."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from pytestqt.qtbot import QtBot

from tsume_studio.core.records.formats import read_record
from tsume_studio.core.search.contract import Limits, SolveResult, SolveStatus
from tsume_studio.core.search.proof import Alternative, Proof, ProofNode, Role
from tsume_studio.core.shogi.position import Position
from tsume_studio.gui import i18n
from tsume_studio.gui.mainwindow import MainWindow
from tsume_studio.gui.settings import save_limits
from tsume_studio.gui.worker import running_workers

pytestmark = pytest.mark.qt_log_ignore(r"This plugin does not support propagateSizeHints")

THREE = "7k1/4R4/9/9/9/9/9/9/9 b SNr2b4g3s3n4l18p 1"
# A mate in one with futile interpositions on more than one square (the README's example).
FUTILE = "8k/6G2/R7P/9/9/9/9/9/9 b r2b3g4s4n4l17p 1"


def test_promotion_choice_and_hendou_are_named_in_the_panel_and_the_export(qtbot: QtBot, tmp_path: Path) -> None:
    """Other attacker moves are 余詰, listed once each; the defence △1一玉, as long as the
    main line's and leaving nothing in hand, is 変同, in the panel and in the exported KIF."""
    i18n.set_language("ja")
    leaf = lambda usi, role: ProofNode(usi, role, 0, 10**12, 0)  # noqa: E731
    root = ProofNode(None, Role.MAIN, 0, 10**12, 3, (
        ProofNode("N*3c", Role.MAIN, 0, 10**12, 2, (
            ProofNode("2a3a", Role.MAIN, 0, 10**12, 1, (leaf("S*2b", Role.MAIN),)),
            ProofNode("2a1a", Role.VARIATION, 0, 10**12, 1, (leaf("S*1b", Role.VARIATION),)))),
        ProofNode("5b5a", Role.ALTERNATIVE, 0, 10**12, 4, (), "余詰")))
    # A stand-in answer: the classification reads its moves; the repeated entry is listed once.
    proof = Proof(THREE, root, ("N*3c", "2a3a", "S*2b"), 3, alternatives=(
        Alternative((), "5b5a", 5), Alternative((), "5b4b", 5), Alternative((), "5b5a", 5)))

    def solver(position: Position, limits: Limits, cancel: Any) -> Any:
        yield from ()
        return SolveResult(SolveStatus.MATE, position.sfen(), pv=proof.main_line, length=3, proof=proof)

    w = MainWindow(solver_for=lambda mode: solver)
    qtbot.addWidget(w)
    w.editor.set_position(Position.from_sfen(THREE))
    with qtbot.waitSignal(w.searchFinished, timeout=5000):
        w.solve()
    # The main move ▲3三桂打 has no promotion twin here, so ▲5一飛 is 余詰 like ▲4二飛.
    rows = w.alternatives_panel.texts()
    assert rows == ["1: 余詰  ▲５一飛不成  (5手詰)", "1: 余詰  ▲４二飛不成  (5手詰)", "2: 変同  △１一玉  (1手詰)"]
    path = tmp_path / "answer.kif"
    w.export_kif(str(path))
    comments = [c for n in _nodes(read_record(path).root) for c in n.comments]
    assert "変同（本譜と同手数）" in comments
    qtbot.waitUntil(lambda: running_workers() == 0, timeout=5000)
    i18n.set_language("en")


def test_a_promotion_twin_of_the_main_move_is_not_listed_as_yozume(qtbot: QtBot) -> None:
    i18n.set_language("ja")
    sfen = "4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1"   # stand-in line: ▲5二歩成 beside ▲5二歩不成
    root = ProofNode(None, Role.MAIN, 0, 10**12, 3, (ProofNode("5c5b+", Role.MAIN, 0, 10**12, 2, ()),))
    proof = Proof(sfen, root, ("5c5b+",), 3, alternatives=(Alternative((), "5c5b", 3), Alternative((), "G*4b", 3)))

    def solver(position: Position, limits: Limits, cancel: Any) -> Any:
        yield from ()
        return SolveResult(SolveStatus.MATE, position.sfen(), pv=proof.main_line, length=3, proof=proof)

    w = MainWindow(solver_for=lambda mode: solver)
    qtbot.addWidget(w)
    w.editor.set_position(Position.from_sfen(sfen))
    with qtbot.waitSignal(w.searchFinished, timeout=5000):
        w.solve()
    # The stand-in's main line ends with the gold still in hand: 駒余り, named too.
    assert w.alternatives_panel.texts() == ["1: 成不成非限定  ▲５二歩不成  (3手詰)", "1: 余詰  ▲４二金打  (3手詰)",
                                            "1: 駒余り  ▲５二歩成  (本譜の詰め上がり)"]
    qtbot.waitUntil(lambda: running_workers() == 0, timeout=5000)
    i18n.set_language("en")


def test_futile_interpositions_are_listed_by_ply_once_each_with_their_branch(qtbot: QtBot, tmp_path: Path) -> None:
    i18n.set_language("en")
    save_limits(Limits(seconds=60.0, memory_mb=64))
    w = MainWindow()
    qtbot.addWidget(w)
    w.editor.set_position(Position.from_sfen(FUTILE))
    with qtbot.waitSignal(w.searchFinished, timeout=60000) as blocker:
        w.solve()
    result = blocker.args[0]
    assert result is not None and result.status is SolveStatus.MATE
    rows = w.futile_panel.texts()
    assert rows and len(rows) == len(set(rows))
    plies = [int(r.split(":")[0]) for r in rows]
    assert plies == sorted(plies)
    assert all(r.endswith("[on the main line]") or "[variation " in r for r in rows)
    # The exported KIF says the same: each 無駄合 comment once.
    path = tmp_path / "futile.kif"
    w.export_kif(str(path))
    comments = [c for n in _nodes(read_record(path).root) for c in n.comments if c.startswith("無駄合")]
    assert comments and len(comments) == len(set(comments))
    qtbot.waitUntil(lambda: running_workers() == 0, timeout=5000)


def _nodes(node: Any) -> list[Any]:
    out = [node]
    for c in node.children:
        out.extend(_nodes(c))
    return out

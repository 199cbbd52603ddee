"""SearchTreeModel and ProofTreeModel: structure (qtmodeltester), texts, ranking, path marks."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, Qt

from tsume_studio.core.shogi.position import Position
from tsume_studio.core.search.proof import FutileInterposition, FutileReason, Futility, Proof, ProofNode, Role
from tsume_studio.core.search.contract import INFINITY, ChildInfo, PathEntry
from tsume_studio.gui import i18n
from tsume_studio.gui.models import (
    COL_DN, COL_MOVE, COL_PN, COL_ROLE, ON_PATH_ROLE, ROLE_ROLE, ProofTreeModel, SearchTreeModel,
    move_texts,
)

SFEN = "7k1/4R4/9/9/9/9/9/9/9 b SNr2b4g3s3n4l18p 1"


def texts(model: Any, parent: QModelIndex = QModelIndex(), col: int = COL_MOVE) -> list[str]:
    return [model.data(model.index(r, col, parent)) for r in range(model.rowCount(parent))]


def snapshot(standins: Any, *, root: list[tuple[str, int, int]], path: list[tuple[str, int, int, list]]) -> Any:
    return standins.progress(
        10,
        path=tuple(PathEntry(m, pn, dn, tuple(ChildInfo(*c) for c in kids)) for m, pn, dn, kids in path),
        root=tuple(ChildInfo(*c) for c in root))


def test_move_texts_follow_the_line() -> None:
    assert move_texts(Position.from_sfen(SFEN), ["N*3c", "2a1a", "S*1b"]) == ["▲３三桂打", "△１一玉", "▲１二銀打"]
    # A move that does not fit shows as USI, and so does everything after it.
    assert move_texts(Position.from_sfen(SFEN), ["N*3c", "9i9h", "S*1b"]) == ["▲３三桂打", "9i9h", "S*1b"]


def test_search_tree_grows_and_ranks(qtmodeltester: Any, standins: Any) -> None:
    model = SearchTreeModel()
    model.reset(Position.from_sfen(SFEN))
    qtmodeltester.check(model, force_py=True)
    # The tester stays connected: every change below is checked as it happens.
    model.update(snapshot(standins, root=[("N*3c", 1, 3), ("S*2b", 2, 2)],
                          path=[("N*3c", 1, 3, [("2a1a", 1, 1), ("2a3a", 2, 1)])]))
    assert texts(model) == ["▲３三桂打", "▲２二銀打"]
    first = model.index(0, 0)
    assert texts(model, first) == ["△１一玉", "△３一玉"]
    assert model.data(model.index(0, COL_PN)) == "1" and model.data(model.index(0, COL_DN)) == "3"
    assert model.data(first, ON_PATH_ROLE) is True
    assert model.data(model.index(1, 0), ON_PATH_ROLE) is False
    assert model.data(first, Qt.ItemDataRole.FontRole).bold()

    # The next snapshot ranks the root's children the other way round and goes deeper
    # on the other child; a persistent index follows its node.
    keep = QPersistentModelIndex(model.index(0, 0))
    model.update(snapshot(standins, root=[("S*2b", 1, 2), ("N*3c", 3, 1), ("N*1c", 9, 1)],
                          path=[("S*2b", 1, 2, [("2a1b", 1, 4)]), ("2a1b", 1, 4, [])]))
    assert texts(model) == ["▲２二銀打", "▲３三桂打", "▲１三桂打"]
    assert keep.row() == 1 and model.data(keep) == "▲３三桂打"
    assert model.data(model.index(1, COL_PN)) == "3"
    assert texts(model, model.index(0, 0)) == ["△１二玉"]
    assert model.current_path() == ("S*2b", "2a1b")
    assert model.data(model.index(1, 0), ON_PATH_ROLE) is False   # left the path
    assert model.data(model.index(0, 0, model.index(0, 0)), ON_PATH_ROLE) is True
    assert model.position_at(model.index(0, 0, model.index(0, 0))).sfen().startswith("9/4R2Sk/")
    assert model.node_count() == 6


def test_search_tree_infinity_and_cap(standins: Any) -> None:
    model = SearchTreeModel(max_nodes=2)
    model.reset(Position.from_sfen(SFEN))
    model.update(snapshot(standins, root=[("N*3c", 0, 10**12), ("S*2b", 5, 5), ("G*2b", 6, 6)], path=[]))
    assert model.rowCount() == 2 and model.node_count() == 2
    assert model.data(model.index(0, COL_DN)) == "∞"


def three_ply_proof() -> Proof:
    mate = ProofNode("S*1b", Role.MAIN, 0, 10**12, 0)
    other = ProofNode("2a3a", Role.VARIATION, 0, 10**12, 1, (ProofNode("S*2b", Role.VARIATION, 0, 10**12, 0),))
    first = ProofNode("N*3c", Role.MAIN, 0, 10**12, 2, (ProofNode("2a1a", Role.MAIN, 0, 10**12, 1, (mate,)), other))
    root = ProofNode(None, Role.MAIN, 0, 10**12, 3, (first,))
    return Proof(SFEN, root, ("N*3c", "2a1a", "S*1b"), 3, variations=1)


def futile_proof() -> Proof:
    """Mate in 1 where every drop between the dragon and the king is futile (as the solver reports it)."""
    reason = "futile: captured and returned, still mate in 1"
    futile = tuple(ProofNode(m, Role.FUTILE, 0, INFINITY, None, comment=reason) for m in ("P*2a", "N*2a"))
    root = ProofNode(None, Role.MAIN, 0, 10**12, 1, (ProofNode("9c9a+", Role.MAIN, 0, 10**12, 0, futile),))
    return Proof("8k/6G2/R7P/9/9/9/9/9/9 b r2b3g4s4n4l17p 1", root, ("9c9a+",), 1,
                 futile=(FutileInterposition(("9c9a+",), "P*2a", Futility(FutileReason.CAPTURED_RETURNED, 1),
                                             ("P*2a", "N*2a")),))


def test_proof_tree_model(qtmodeltester: Any) -> None:
    model = ProofTreeModel()
    qtmodeltester.check(model, force_py=True)
    model.set_proof(three_ply_proof())
    assert texts(model) == ["▲３三桂打"]
    defences = model.index(0, 0)
    assert texts(model, defences) == ["△１一玉", "△３一玉"]
    assert texts(model, defences, COL_ROLE) == ["main line", "variation"]
    assert model.data(model.index(1, 0, defences), ROLE_ROLE) is Role.VARIATION
    assert model.data(model.index(0, 0, defences), Qt.ItemDataRole.FontRole).bold()
    assert model.data(model.index(1, COL_PN, defences)) == "0"
    assert model.data(model.index(1, COL_DN, defences)) == "∞"
    answer = model.index(0, 0, model.index(1, 0, defences))
    assert model.data(answer) == "▲２二銀打"
    assert model.path(answer) == ("N*3c", "2a3a", "S*2b")
    third = model.main_line_index(3)
    assert model.data(third) == "▲１二銀打"
    assert model.position_at(third).sfen() == "8k/8S/6N2/9/9/9/9/9/9 w Nr2b4g3s3n4l18p 4".replace(
        "8k/8S/6N2", "8k/4R3S/6N2").replace(" Nr2b", " r2b")
    assert not model.main_line_index(4).isValid()
    model.set_proof(futile_proof())
    mate = model.index(0, 0)
    assert texts(model) == ["▲９一飛成"]
    assert texts(model, mate) == ["△２一歩打", "△２一桂打"]
    assert texts(model, mate, COL_ROLE) == ["futile", "futile"]
    assert model.data(model.index(0, 0, mate), Qt.ItemDataRole.ForegroundRole) is not None
    assert "captured and returned" in model.data(model.index(0, COL_ROLE, mate), Qt.ItemDataRole.ToolTipRole)
    model.set_proof(None)
    assert model.rowCount() == 0


def test_proof_tree_follows_the_language(qtmodeltester: Any) -> None:
    model = ProofTreeModel()
    model.set_proof(three_ply_proof())
    qtmodeltester.check(model, force_py=True)
    defences = model.index(0, 0)
    try:
        i18n.set_language("ja")
        assert model.headerData(COL_ROLE, Qt.Orientation.Horizontal) == "種別"
        assert texts(model, defences, COL_ROLE) == ["本手順", "変化"]
    finally:
        i18n.set_language("en")
    assert texts(model, defences, COL_ROLE) == ["main line", "variation"]


def test_proof_tree_deeper_than_the_recursion_limit() -> None:
    import sys

    # King and rook shuffle: a legal line of 2 * 1200 plies (the moves need not mate here).
    sfen = "4k4/9/9/9/9/9/9/9/R8 b - 1"
    moves = ["9i9h", "5a5b", "9h9i", "5b5a"] * 600
    assert len(moves) > sys.getrecursionlimit()
    node = ProofNode(moves[-1], Role.MAIN, 0, 1, 0)
    for m in reversed(moves[:-1]):
        node = ProofNode(m, Role.MAIN, 0, 1, 0, (node,))
    root = ProofNode(None, Role.MAIN, 0, 1, len(moves), (node,))
    model = ProofTreeModel()
    model.set_proof(Proof(sfen, root, tuple(moves), len(moves)))
    assert model.node_count() == len(moves)
    last = model.main_line_index(len(moves))
    assert model.data(last) == "△５一玉"


def test_promotion_twin_is_not_called_an_alternative() -> None:
    """▲同角不成 beside the main line's ▲同角成 is 成不成非限定; another mating move stays 余詰."""
    mate = ProofNode("5b2b+", Role.MAIN, 0, 10**12, 0)
    twin = ProofNode("5b2b", Role.ALTERNATIVE, 0, 10**12, 0)
    other = ProofNode("S*3b", Role.ALTERNATIVE, 0, 10**12, 0)
    root = ProofNode(None, Role.MAIN, 0, 10**12, 1, (mate, twin, other))
    model = ProofTreeModel()
    model.set_proof(Proof(SFEN, root, ("5b2b+",), 1))
    roles = {model.data(model.index(r, COL_MOVE)): model.data(model.index(r, COL_ROLE)) for r in range(3)}
    assert list(roles.values()) == ["main line", "promotion choice (成不成非限定)", "alternative (余詰)"]
    assert model.data(model.index(1, 0), ROLE_ROLE) is Role.ALTERNATIVE   # the proof's own role is kept
    i18n.set_language("ja")
    try:
        assert [model.data(model.index(r, COL_ROLE)) for r in range(3)] == ["本手順", "成不成非限定", "余詰"]
    finally:
        i18n.set_language("en")

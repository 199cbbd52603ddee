"""The df-pn pieces one at a time: numbers, selection, disproof depth, expansion, backup, chains."""

from __future__ import annotations

from pathlib import Path

import cshogi
from tsume_studio.core.search.dfpn import DfPn, Options, Outcome, attack_cost
from tsume_studio.core.search.hand import pack, unpack
from tsume_studio.core.search.node import (
    NOREP,
    Children,
    disproof_rep,
    node_numbers,
    select_child,
    select_child_grouped,
    select_child_weak,
)
from tsume_studio.core.search.tt import INF, NO_LENGTH

# ---- numbers and selection ---------------------------------------------------------

def _select(cpn: list[int], cdn: list[int], or_node: bool, thpn: int, thdn: int, eps: float,
            pending: int = 0) -> tuple[int, int, int]:
    pn, dn, i, c_thpn, c_thdn = select_child(cpn, cdn, or_node, pending, thpn, thdn, eps)
    assert (pn, dn) == node_numbers(cpn, cdn, or_node, pending)
    return i, c_thpn, c_thdn


def test_or_node_numbers_are_min_pn_and_summed_dn() -> None:
    assert node_numbers([3, 1, 4], [2, 5, 1], True) == (1, 8)
    assert node_numbers([3, 1, 4], [2, 5, 1], False) == (8, 1)


def test_waiting_moves_count_in_the_summed_number() -> None:
    # Two moves wait: an AND node's pn grows by two, its dn (a minimum) does not move.
    assert node_numbers([0, 0], [INF, INF], False, pending=2) == (2, INF)
    assert node_numbers([5, 7], [0, 0], True, pending=1) == (5, 1)


def test_summed_numbers_saturate_at_infinity() -> None:
    # A decided node's summed number is INF; an undecided one's stops just short of it.
    assert node_numbers([0, 2], [INF, INF], True) == (0, INF)
    assert node_numbers([INF, 3], [0, 1], False, pending=4) == (INF, 0)
    assert node_numbers([1, 2], [INF - 5, INF - 5], True) == (1, INF - 1)
    assert node_numbers([INF - 1, 3], [2, 1], False, pending=4) == (INF - 1, 1)


def test_an_undecided_node_under_thresholds_of_infinity_is_searched_on() -> None:
    # A length question searches with thresholds of INF and reads "pn 0" as yes, anything else as
    # no: a disproof number summed up to INF must not end the search (将棋無双 30番 was answered
    # "no mate within 119" with pn 496, and its climb took 157 as exact from such answers).
    big = [INF - 1, INF - 1]   # two undecided children at the largest number they can have
    for select in (select_child, select_child_weak):
        pn, dn, i, c_thpn, c_thdn = select([496, 700], big, True, 0, INF, INF, 1.0)
        assert (pn, dn, i) == (496, INF - 1, 0) and c_thpn > 496 and c_thdn > 0
        pn, dn, i, c_thpn, c_thdn = select(big, [496, 700], False, 0, INF, INF, 1.0)
        assert (pn, dn, i) == (INF - 1, 496, 0) and c_thdn > 496 and c_thpn > 0
    pn, dn, i, _, _ = select_child_grouped([496, 700], big, True, 0, INF, INF, 1.0, [0, 1])
    assert (pn, dn, i) == (496, INF - 1, 0)


def test_select_or_child_threshold_from_second_best() -> None:
    cpn, cdn = [4, 2, 6], [1, 3, 2]
    i, thpn, thdn = _select(cpn, cdn, True, 100, 100, 1.0)
    assert i == 1
    assert thpn == 5              # may grow past the second best (4) by one
    assert thdn == 100 - 6 + 3    # the node's dn threshold less the siblings' dn
    # 1+ε widens the child's pn threshold: int(4 * 1.25) + 1.
    assert _select(cpn, cdn, True, 100, 100, 1.25)[1] == 6
    # The node's own threshold caps it (it is still under it: pn 2 < 3).
    assert _select(cpn, cdn, True, 3, 100, 1.0)[1] == 3
    assert cpn == [4, 2, 6] and cdn == [1, 3, 2]     # the lists are left as they were


def test_no_child_once_decided_or_past_a_threshold() -> None:
    assert _select([0, 3], [INF, 1], True, 100, 100, 1.0)[0] == -1      # proven
    assert _select([2, 3], [1, 1], True, 2, 100, 1.0)[0] == -1           # pn reached its threshold
    assert _select([2, 3], [1, 1], True, 100, 2, 1.0)[0] == -1           # dn (1 + 1) reached its threshold
    assert _select([2, 3], [1, 1], True, 100, 3, 1.0)[0] == 0


def test_select_and_child_mirrors_or() -> None:
    cpn, cdn = [1, 3, 2], [4, 2, 6]
    i, thpn, thdn = _select(cpn, cdn, False, 100, 100, 1.0)
    assert (i, thpn, thdn) == (1, 100 - 6 + 3, 5)


def test_single_child_inherits_thresholds() -> None:
    assert _select([3], [2], True, 50, 40, 1.25) == (0, 50, 40)


def test_disproof_rests_on_shallowest_or_child_and_loosest_and_child() -> None:
    # OR: every child must be disproven; the shallowest repetition binds.
    assert disproof_rep([0, 0], [NOREP, 3], True) == 3
    # AND: one disproven child suffices; the least path-bound one is used.
    assert disproof_rep([0, 5, 0], [2, 0, 7], False) == 7
    assert disproof_rep([0, 0], [NOREP, 1], False) == NOREP
    # A cut by the depth limit (-1) is below every node: never lifted to the root's depth 0.
    assert disproof_rep([0, 5], [-1, 0], False) == -1


# ---- chains ------------------------------------------------------------------------

def test_chain_releases_one_move_at_a_time() -> None:
    c = Children([10, 20], [(1, [30, 40])])
    assert c.pending == 2 and c.chain_of == [-1, 0]
    assert c.release(0) == -1            # nothing waits behind child 0
    j = c.release(1)
    assert j == 2 and c.moves == [10, 20, 30] and c.pending == 1
    assert c.chain_of == [-1, -1, 0]     # the released move now heads the chain
    assert c.pn[j] == 1 and c.dn[j] == 1 and c.new[j] and c.length[j] == NO_LENGTH
    assert c.release(j) == 3 and c.pending == 0 and c.chain_of[3] == -1
    assert all(len(lst) == 4 for lst in (c.key, c.hand, c.zob, c.hc, c.pn, c.dn, c.rep, c.length, c.ph, c.new))


# ---- expansion and backup on a real position ---------------------------------------

MATE3 = "7k1/4R4/9/9/9/9/9/9/9 b SNr2b4g3s3n4l18p 1"   # N*3c mates in three


def test_expansion_gives_initial_numbers_and_mates() -> None:
    board = cshogi.Board(MATE3)
    searcher = DfPn(board.turn)
    _key, hand, _zob, hc = searcher._root_keys(board)
    moves = list(board.check_moves)
    c = Children(list(moves))
    king = board.king_square(1)
    searcher._expand(board, c, True, hand, hc, 0, 0, king)
    assert c.moves == moves and c.pending == 0
    zone = sum(1 << t for t in range(81) if t % 9 <= 2)
    for i, m in enumerate(moves):
        board.push(m)
        evasions = len(list(board.legal_moves))
        assert c.zob[i] == board.zobrist_hash()
        board.pop()
        # An OR child's pn is its evasion count plus its move category's cost.
        assert c.pn[i] == (evasions + attack_cost(m, king, zone) if evasions else 0)
        assert c.dn[i] >= 1
        # A drop takes the piece out of the attacker's hand.
        if (m >> 7) & 0x7F >= 81:
            assert sum(unpack(c.hand[i])) == sum(unpack(hand)) - 1
    assert board.sfen() == cshogi.Board(MATE3).sfen()


def test_and_node_proof_takes_longest_child_and_joined_hands() -> None:
    board = cshogi.Board(MATE3)
    board.push_usi("N*3c")
    searcher = DfPn(1 - board.turn)
    _key, hand, _zob, hc = searcher._root_keys(board)
    c = Children(list(board.legal_moves))
    searcher._expand(board, c, False, hand, hc, 1, 0, board.king_square(1))
    # Every evasion of N*3c is mated in one: proven at expansion, length 1.
    assert all(pn == 0 for pn in c.pn) and all(n == 1 for n in c.length)
    length, ph, move = searcher._prove(board, c, False, hand)
    assert length == 2 and move == 0
    # The proof hand keeps only what the mates use: the silver (knight already dropped).
    assert unpack(ph)[3] == 1 and unpack(ph)[2] == 0
    assert ph != pack([0] * 7)


# ---- the 3-ply mate search at OR nodes ----------------------------------------------

def test_three_ply_mate_search_cuts_nodes_and_keeps_the_line() -> None:
    import shogi

    tail = next(line.split("\t") for line in (Path(__file__).parent.parent / "data" / "microcosmos.tsv")
                .read_text(encoding="utf-8").splitlines() if line.split("\t")[2] == "41")
    counts = {}
    for mate3 in (True, False):
        board = cshogi.Board(tail[1])
        searcher = DfPn(board.turn, 256, Options(mate3=mate3))
        assert searcher.search(board, node_limit=200000) == Outcome.PROVEN
        counts[mate3] = searcher.nodes
        pv = searcher.principal_variation(board)
        # The line read back from the table is a real mate, through nodes proven in C++ too.
        check = shogi.Board(tail[1])
        for usi in pv:
            move = shogi.Move.from_usi(usi if isinstance(usi, str) else cshogi.move_to_usi(usi))
            assert move in check.legal_moves
            check.push(move)
        assert len(pv) >= 41 and check.is_checkmate()
    # 33,927 nodes with the 3-ply search against 54,519 without (when written).
    assert counts[True] < counts[False] * 0.8


def test_three_ply_mate_search_is_off_when_the_attacker_has_a_king() -> None:
    # A defence could check back; cshogi's mate search assumes it cannot.
    with_king = cshogi.Board("7k1/4R4/9/9/9/9/9/9/K8 b SNr2b4g3s3n4l18p 1")
    searcher = DfPn(with_king.turn)
    searcher.search(with_king)
    assert not searcher._mate3
    without = cshogi.Board(MATE3)
    searcher = DfPn(without.turn)
    searcher.search(without)
    assert searcher._mate3

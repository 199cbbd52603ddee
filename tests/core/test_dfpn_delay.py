"""Delayed expansion (core.search.policy): fewer nodes where interpositions abound, same verdicts."""

from __future__ import annotations

import random
from pathlib import Path

import cshogi
import pytest
from tsume_studio.core.search.dfpn import DfPn, Options, Outcome
from tsume_studio.core.search.policy import (
    all_at_once,
    delay_by_hand,
    delay_drops,
    delay_far_drops,
    delay_interpositions,
    delay_non_promotions,
)

DATA = Path(__file__).parent.parent / "data"
# 1手詰 under tsume rules; under raw rules every interposition between the
# rook on 9a and the king on 1a (seven squares, seven kinds in hand) must be
# captured and mated too.
FUTILE = "8k/6G2/R7P/9/9/9/9/9/9 b r2b3g4s4n4l17p 1"


def _rows(name: str) -> list[list[str]]:
    return [line.split("\t") for line in (DATA / name).read_text(encoding="utf-8").splitlines()[1:]]


def _search(sfen: str, policy: object, limit: int, or_node: bool = True) -> tuple[Outcome, int]:
    """Outcome and nodes under ``policy``, without the 3-ply mate search (as the counts were measured)."""
    board = cshogi.Board(sfen)
    attacker = board.turn if or_node else 1 - board.turn
    searcher = DfPn(attacker, 64, Options(mate3=False), policy=policy)  # type: ignore[arg-type]
    return searcher.search(board, or_node=or_node, node_limit=limit), searcher.nodes


def test_same_square_drops_wait_for_the_previous_kind() -> None:
    board = cshogi.Board(FUTILE)
    board.push_usi("9c9a")            # check along the first rank
    moves = list(board.legal_moves)
    active, chains = delay_drops(board, False, moves, board.king_square(1))
    drops = [m for m in moves if (m >> 7) & 0x7F >= 81]
    assert len(drops) == 7 * 7 and len(chains) == 1
    head, waiting = chains[0]
    # One drop is expanded, the rest wait; nothing is lost.
    assert sorted(active[:head] + active[head + 1:] + [active[head]] + waiting) == sorted(moves)
    order = [active[head]] + waiting
    # Nearest square first (2a, next to the king on 1a), and there the pawn before the rook.
    assert [cshogi.move_to_usi(m) for m in order[:7]] == ["P*2a", "L*2a", "N*2a", "S*2a", "G*2a", "B*2a", "R*2a"]
    squares = [m & 0x7F for m in order]
    assert squares == sorted(squares, key=lambda s: abs(s // 9 - 0))   # file distance from 1a grows


def test_delayed_drops_prove_futile_interpositions_with_fewer_nodes() -> None:
    # 3,970 nodes with every drop expanded at once against 667 with the
    # drops chained (measured when this was written).
    plain, plain_nodes = _search(FUTILE, all_at_once, 20000)
    delayed, delayed_nodes = _search(FUTILE, delay_drops, 20000)
    assert plain == delayed == Outcome.PROVEN
    assert delayed_nodes * 3 < plain_nodes


def test_non_promotion_waits_for_its_promotion() -> None:
    # The position once given as 図巧 7番 (mistranscribed; no mate).
    board = cshogi.Board("1nkg5/2s6/3rp4/1B7/r8/1P7/9/9/9 b BG3SN2g2n4l16p 1")
    moves = list(board.check_moves)
    active, chains = delay_non_promotions(board, True, moves, board.king_square(1))
    usi = [cshogi.move_to_usi(m) for m in active]
    assert "8d6b+" in usi and "8d6b" not in usi and "8d9c" not in usi
    waiting = {cshogi.move_to_usi(w[0]): cshogi.move_to_usi(active[h]) for h, w in chains}
    assert waiting == {"8d6b": "8d6b+", "8d9c": "8d9c+"}
    # AND nodes are left alone by this policy, OR nodes by delay_drops.
    assert delay_drops(board, True, moves, 0) == (moves, [])


def _and_positions(count: int, seed: int) -> list[str]:
    """Random AND positions: a few random moves from mate.tsv rows, then a random check."""
    rng = random.Random(seed)
    rows = _rows("mate.tsv")
    out: list[str] = []
    while len(out) < count:
        board = cshogi.Board(rng.choice(rows)[1])
        for _ in range(rng.randrange(0, 4)):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
        if board.is_check() or board.king_square(1 - board.turn) >= 81:   # no king to mate
            continue
        checks = list(board.check_moves)
        if not checks:
            continue
        board.push(rng.choice(checks))
        if any((m >> 7) & 0x7F >= 81 for m in board.legal_moves):
            out.append(board.sfen())
    return out


def test_delayed_policies_keep_every_verdict() -> None:
    """Same proven/disproven answers with and without delay, at random AND nodes with drops."""
    decided = 0
    for sfen in _and_positions(60, 11):
        plain, _ = _search(sfen, all_at_once, 4000, or_node=False)
        for policy in (delay_drops, delay_interpositions):
            delayed, _ = _search(sfen, policy, 4000, or_node=False)
            if plain != Outcome.UNKNOWN and delayed != Outcome.UNKNOWN:
                assert plain == delayed, (sfen, policy)
                decided += 1
    assert decided >= 60


# The lance on 1g checks the king on 1b.  Every interposition on 1c is
# mated, and so are the other evasions, but a pawn on 1d refutes: the
# refutation waits behind the seven drops on 1c.
HIDDEN = "9/6S1k/9/6N2/9/9/8L/3N5/3b5 w N2rb4g3sn3l18p 4"


def test_a_refuting_drop_behind_others_is_not_lost() -> None:
    board = cshogi.Board(HIDDEN)
    moves = list(board.legal_moves)
    active, chains = delay_drops(board, False, moves, board.king_square(board.turn))
    first_waiting = [cshogi.move_to_usi(m) for m in chains[0][1][:7]]
    assert first_waiting == ["L*1c", "N*1c", "S*1c", "G*1c", "B*1c", "R*1c", "P*1d"]
    for m in active:                      # everything expanded at once is mated
        board.push(m)
        assert _search(board.sfen(), all_at_once, 20000)[0] == Outcome.PROVEN
        board.pop()
    # 11,561 nodes with every move at once, 1,246 with the drops chained (when written).
    plain, plain_nodes = _search(HIDDEN, all_at_once, 100000, or_node=False)
    delayed, delayed_nodes = _search(HIDDEN, delay_drops, 100000, or_node=False)
    assert plain == delayed == Outcome.DISPROVEN
    assert delayed_nodes < plain_nodes


def test_progress_snapshot_is_taken_whole() -> None:
    """Moves can join a node's children while the search unwinds after a stop; the snapshot keeps its lengths."""
    board = cshogi.Board(FUTILE)
    mismatched = 0
    for limit in range(20, 700, 7):
        searcher = DfPn(board.turn, 64, Options(), policy=delay_drops)
        searcher.search(board, node_limit=limit)
        for _sel, moves, cpn, cdn, _or in searcher.snapshot_path:
            mismatched += not len(moves) == len(cpn) == len(cdn)
    assert mismatched == 0


def test_far_drops_wait_and_drops_next_to_the_king_do_not() -> None:
    board = cshogi.Board(FUTILE)
    board.push_usi("9c9a")
    moves = list(board.legal_moves)
    active, chains = delay_far_drops(board, False, moves, board.king_square(1))
    near = {m for m in moves if (m >> 7) & 0x7F >= 81 and (m & 0x7F) // 9 == 1}   # drops on 2a
    assert near and near <= set(active)
    head, waiting = chains[0]
    assert cshogi.move_to_usi(active[head]) == "P*3a" and len(waiting) == 6 * 7 - 1   # 3a..8a
    assert sorted(active + waiting) == sorted(moves)
    # 3,970 nodes with every move at once, 728 with the far drops chained (when written).
    plain, plain_nodes = _search(FUTILE, all_at_once, 20000)
    delayed, delayed_nodes = _search(FUTILE, delay_far_drops, 20000)
    assert plain == delayed == Outcome.PROVEN
    assert delayed_nodes * 3 < plain_nodes


def test_by_hand_chains_every_drop_only_where_the_defender_holds_three_kinds() -> None:
    for hand, kinds in (("r2b3g4s4n4l17p", 7), ("rbp", 3), ("rp", 2), ("r", 1)):
        board = cshogi.Board(f"8k/6G2/R7P/9/9/9/9/9/9 b {hand} 1")
        board.push_usi("9c9a")            # check along the first rank: drops on 2a..8a
        moves = list(board.legal_moves)
        king = board.king_square(1)
        expected = delay_drops if kinds >= 3 else delay_far_drops
        assert delay_by_hand(board, False, moves, king) == expected(board, False, moves, king), hand
        assert delay_by_hand(board, True, moves, king) == (moves, [])   # OR nodes: every move at once
    # The whole search: the futile drops of seven kinds are chained as delay_drops chains them.
    assert _search(FUTILE, delay_by_hand, 20000) == _search(FUTILE, delay_drops, 20000)
    assert DfPn(0, 64, Options(delay="hand")).policy is delay_by_hand


def test_unknown_delay_mode_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match="unknown delay mode 'some'"):
        DfPn(0, 64, Options(delay="some"))

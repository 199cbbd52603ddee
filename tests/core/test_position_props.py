"""Property tests: any editor position round-trips through SFEN and gets exactly the right flags.

The flags are recomputed here by plain counting, and "the side not to move
is in check" by python-shogi's attack tables (an independent implementation).
"""

from __future__ import annotations

import pytest
import shogi
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tsume_studio.core import IllegalPositionError, Position, Status
from tsume_studio.core.shogi.types import (
    BLACK, HAND_INDEX, HAND_MAX, KING, KNIGHT, LANCE, PAWN, UNPROMOTE, WHITE, make_piece,
    relative_rank, square,
)

PIECES = [make_piece(c, pt) for c in (BLACK, WHITE) for pt in range(1, 15)]

boards = st.dictionaries(st.integers(0, 80), st.sampled_from(PIECES), max_size=40).map(
    lambda placed: [placed.get(sq, 0) for sq in range(81)])
# Mostly possible counts, sometimes more than exist (up to SFEN's 18).
hands = st.tuples(*(st.one_of(st.integers(0, m), st.integers(0, 18)) for m in HAND_MAX))


def _expected(squares: list[int], hand_b: tuple[int, ...], hand_w: tuple[int, ...], turn: int) -> Status:
    flags = Status.VALID
    defender = 1 - turn
    kings = [sum(1 for pc in squares if pc == make_piece(c, KING)) for c in (BLACK, WHITE)]
    if kings[defender] == 0:
        flags |= Status.NO_DEFENDER_KING
    if max(kings) > 1:
        flags |= Status.TOO_MANY_KINGS
    counts = [b + w for b, w in zip(hand_b, hand_w)]
    for pc in squares:
        if pc and pc & 15 != KING:
            counts[HAND_INDEX[UNPROMOTE.get(pc & 15, pc & 15)]] += 1
    if any(n > m for n, m in zip(counts, HAND_MAX)):
        flags |= Status.TOO_MANY_PIECES
    for c in (BLACK, WHITE):
        for file in range(1, 10):
            if sum(squares[square(file, r)] == make_piece(c, PAWN) for r in range(1, 10)) > 1:
                flags |= Status.NIFU
    for sq, pc in enumerate(squares):
        if pc:
            rr = relative_rank(WHITE if pc >= 16 else BLACK, sq)
            if (pc & 15 in (PAWN, LANCE) and rr == 1) or (pc & 15 == KNIGHT and rr <= 2):
                flags |= Status.DEAD_PIECE
    return flags


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(squares=boards, hand_b=hands, hand_w=hands, turn=st.sampled_from([BLACK, WHITE]))
def test_editor_positions(squares: list[int], hand_b: tuple[int, ...], hand_w: tuple[int, ...],
                          turn: int) -> None:
    pos = Position.empty()
    for sq, pc in enumerate(squares):
        pos.set_piece(sq, pc)
    pos.set_hand(BLACK, hand_b)
    pos.set_hand(WHITE, hand_w)
    pos.turn = turn
    assert Position.from_sfen(pos.sfen()) == pos
    assert Position.from_sfen(pos.sfen()).sfen() == pos.sfen()

    expected = _expected(squares, hand_b, hand_w, turn)
    status = pos.status()
    assert status & ~Status.NOT_TO_MOVE_IN_CHECK == expected
    # Check: defined when each side has at most one king and the defender has one.
    kings = [squares.count(make_piece(c, KING)) for c in (BLACK, WHITE)]
    if kings[1 - turn] == 1 and max(kings) == 1:
        board_part, side = pos.sfen().split()[:2]
        oracle = shogi.Board(f"{board_part} {side} - 1")  # hands play no part in check
        defender_king = oracle.king_squares[1 - turn]
        in_check = oracle.is_attacked_by(turn, defender_king)
        assert bool(status & Status.NOT_TO_MOVE_IN_CHECK) == in_check
    else:
        assert not status & Status.NOT_TO_MOVE_IN_CHECK
    assert pos.is_valid() == (status == Status.VALID)
    assert len({p.flag for p in pos.problems()}) == bin(int(status)).count("1")

    if status & (Status.TOO_MANY_KINGS | Status.TOO_MANY_PIECES):
        with pytest.raises(IllegalPositionError):
            pos.board()
    else:
        assert pos.board().sfen() == pos.sfen()


@pytest.mark.parametrize("sfen", ["9/9/9/9/4k4/4K4/9/9/9 b - 1", "9/9/9/9/4k4/3K5/9/9/9 b - 1",
                                  "9/9/9/9/4k4/9/4K4/9/9 b - 1"])
def test_kings_side_by_side_are_a_check(sfen: str) -> None:
    """Two kings next to each other: the side not to move is in check (python-shogi agrees)."""
    pos = Position.from_sfen(sfen)
    oracle = shogi.Board(sfen)
    expected = oracle.is_attacked_by(shogi.BLACK, oracle.king_squares[shogi.WHITE])
    assert bool(pos.status() & Status.NOT_TO_MOVE_IN_CHECK) == expected
    assert expected == (sfen != "9/9/9/9/4k4/9/4K4/9/9 b - 1")

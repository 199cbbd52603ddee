"""Perft: leaf counts of the project's own move generation from the start position.

The counts are the well-known ones (python-shogi's tests list 30, 900,
25470 and 719731).  Every move is played with :meth:`Position.push`, so the
position's own board and hands are exercised along with generation.
"""

from __future__ import annotations

import pytest

from tsume_studio.core.shogi.moves import legal_moves
from tsume_studio.core.shogi.position import Position

PERFT = {1: 30, 2: 900, 3: 25_470, 4: 719_731}


def perft(pos: Position, depth: int) -> int:
    """Number of move sequences of length ``depth`` from ``pos``."""
    moves = legal_moves(pos)
    if depth == 1:
        return len(moves)
    total = 0
    for move in moves:
        pos.push(move)
        total += perft(pos, depth - 1)
        pos.pop()
    return total


@pytest.mark.parametrize("depth", [1, 2, 3])
def test_perft_start(depth: int) -> None:
    pos = Position.start()
    assert perft(pos, depth) == PERFT[depth]
    assert pos == Position.start() and pos.ply == 0


@pytest.mark.slow
def test_perft_start_depth_4() -> None:
    assert perft(Position.start(), 4) == PERFT[4]


def test_perft_tsume_position() -> None:
    # A tsume position with a full defender hand: the defender's replies
    # include every interposing drop.  Counted with cshogi directly.
    import cshogi

    sfen = "8k/6G2/R7P/9/9/9/9/9/9 b r2b3g4s4n4l17p 1"

    def reference(board: cshogi.Board, depth: int) -> int:
        if depth == 1:
            return len(list(board.legal_moves))
        total = 0
        for m in board.legal_moves:
            board.push(m)
            total += reference(board, depth - 1)
            board.pop()
        return total

    assert perft(Position.from_sfen(sfen), 2) == reference(cshogi.Board(sfen), 2)

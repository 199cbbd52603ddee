"""Perft of the C++ kernel: leaf counts equal to the published ones and to cshogi's and python-shogi's.

The kernel makes and unmakes every move, leaves included.  The start position's
counts to depth 5 are the published ones (30, 900, 25470, 719731, 19861490);
three tsume positions (a full defender hand, a crowded Microcosmos tail, a
将棋無双 problem) are counted by cshogi to depth 3 and by python-shogi to depth 2
(depth 3 of the start position with --runslow).
"""

from __future__ import annotations

import cshogi
import pytest
import shogi

from tsume_studio.core import kernel as kn

pytestmark = pytest.mark.skipif(not kn.AVAILABLE, reason=kn.REASON)

START = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"
PUBLISHED = {1: 30, 2: 900, 3: 25_470, 4: 719_731, 5: 19_861_490}
TSUME = [
    "8k/6G2/R7P/9/9/9/9/9/9 b r2b3g4s4n4l17p 1",
    "3+P+P+P+P+L1/1g7/1n2pppp1/2+Psg+p3/+b+nL4S1/1PP3+P1L/9/4+PsP2/6G1k b G2rbs2nl3p 1525",
    "3g1n1l1/2p1g1r2/5k2S/4p1N+R1/3+p5/7N1/B8/9/9 b 2GSNb2s3l15p 1",
]


def reference(board: cshogi.Board | shogi.Board, depth: int) -> int:
    """Perft by an oracle's own legal moves, push and pop."""
    if depth == 0:
        return 1
    total = 0
    for move in list(board.legal_moves):
        board.push(move)
        total += reference(board, depth - 1)
        board.pop()
    return total


@pytest.mark.parametrize("depth", [1, 2, 3, 4, 5])
def test_start_position_published_counts(depth: int) -> None:
    board = kn.Board()
    assert board.perft(depth) == PUBLISHED[depth]
    assert board.sfen() == START and board.consistent()


def test_bench_perft_counts_what_perft_counts() -> None:
    leaves, seconds = kn.bench_perft(START, 4)
    assert leaves == PUBLISHED[4] and seconds >= 0.0


@pytest.mark.parametrize("sfen", TSUME)
def test_tsume_positions_against_cshogi(sfen: str) -> None:
    board = kn.Board(sfen)
    for depth in (1, 2, 3):
        assert board.perft(depth) == reference(cshogi.Board(sfen), depth), (sfen, depth)
    assert board.sfen() == cshogi.Board(sfen).sfen()


@pytest.mark.parametrize("sfen", TSUME)
def test_tsume_positions_against_python_shogi(sfen: str) -> None:
    board = kn.Board(sfen)
    for depth in (1, 2):
        assert board.perft(depth) == reference(shogi.Board(sfen), depth), (sfen, depth)


def test_start_position_against_python_shogi() -> None:
    assert kn.Board().perft(2) == reference(shogi.Board(START), 2) == PUBLISHED[2]


@pytest.mark.slow
def test_start_position_depth_3_against_python_shogi() -> None:
    assert reference(shogi.Board(START), 3) == kn.Board().perft(3) == PUBLISHED[3]


@pytest.mark.slow
@pytest.mark.parametrize("sfen", TSUME[:2])
def test_tsume_positions_depth_4_against_cshogi(sfen: str) -> None:
    assert kn.Board(sfen).perft(4) == reference(cshogi.Board(sfen), 4)

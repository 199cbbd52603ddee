"""Futile-interposition building blocks: geometry, Kakinoki's test positions, the distance rule."""

from __future__ import annotations

import cshogi

from tsume_studio.core.search.interposition import (
    capture_and_return, distance_threshold, drop_squares, may_omit,
)
from tsume_studio.core.shogi.moves import checker_behind, king_distance as distance
from tsume_studio.core.shogi.types import parse_square

# The classic (seed iterative-deepening-…): ▲9一飛成 and every interposition on
# 8a…2a is captured by the dragon.
CLASSIC = "8k/6G2/R7P/9/9/9/9/9/9 b r2b3g4s4n4l17p 1"


def after(sfen: str, *moves: str) -> cshogi.Board:
    b = cshogi.Board(sfen)
    for m in moves:
        b.push_usi(m)
    return b


def sq(name: str) -> int:
    return parse_square(name)


def test_geometry() -> None:
    b = after(CLASSIC, "9c9a+")
    king = b.king_square(b.turn)
    assert king == sq("1a")
    assert checker_behind(b.pieces, king, sq("5a")) == sq("9a")
    assert checker_behind(b.pieces, king, sq("2a")) == sq("9a")
    assert checker_behind(b.pieces, king, sq("1e")) is None  # nothing beyond on file 1
    assert distance(king, sq("2a")) == 1 and distance(king, sq("8a")) == 7
    # Edge rank: 4; diagonal: 4; a file or rank off the edge: 5.
    assert distance_threshold(king, sq("9a")) == 4
    assert distance_threshold(sq("5e"), sq("1a")) == 4
    assert distance_threshold(sq("5e"), sq("5a")) == 5
    assert distance_threshold(sq("5e"), sq("3d")) == 99  # not on a line


def test_capture_and_return_gives_the_piece_back() -> None:
    b = after(CLASSIC, "9c9a+")
    before = b.sfen()
    tests = capture_and_return(b, b.move_from_usi("G*5a"))
    assert b.sfen() == before  # the board is left as it was
    # The dragon cannot promote further: one test position, dragon on 5a,
    # both hands exactly as before the drop, the defender to move.
    assert [t.sfen().split()[:3] for t in tests] == [
        ["4+R3k/6G2/8P/9/9/9/9/9/9", "w", "r2b3g4s4n4l17p"]]
    # The test position is the same whatever piece is dropped.
    assert [t.sfen() for t in capture_and_return(b, b.move_from_usi("P*5a"))] == [t.sfen() for t in tests]


def test_capture_and_return_offers_both_promotion_choices() -> None:
    # A rook (not yet a dragon) checks along rank a from 9a; capturing on 5a
    # may promote or not.
    b = after("R7k/6G2/8P/9/9/9/9/9/9 w r2b3g4s4n4l17p 1")
    tests = capture_and_return(b, b.move_from_usi("P*5a"))
    boards = sorted(t.sfen().split()[0] for t in tests)
    assert boards == ["4+R3k/6G2/8P/9/9/9/9/9/9", "4R3k/6G2/8P/9/9/9/9/9/9"]


def test_capture_and_return_only_captures_that_check() -> None:
    # A lance checks along file 5; taking the pawn on 5c it may promote, but a promoted lance there
    # no longer reaches the king on 5a: only the capture that checks is a test position.
    b = cshogi.Board("4k4/9/9/9/9/9/9/9/4L4 w r2b4g4s4n3l18p 1")
    assert b.is_check()
    tests = capture_and_return(b, b.move_from_usi("P*5c"))
    assert [t.sfen().split()[0] for t in tests] == ["4k4/9/4L4/9/9/9/9/9/9"]
    assert all(t.is_check() for t in tests)


def test_drop_squares_nearest_first_pawn_first() -> None:
    b = after(CLASSIC, "9c9a+")
    squares = drop_squares(b)
    assert [ds.distance for ds in squares] == [1, 2, 3, 4, 5, 6, 7]
    assert all(cshogi.move_to_usi(ds.moves[0]).startswith("P*") for ds in squares)
    assert all(len(ds.moves) == 7 for ds in squares)
    # 2a..4a are too close for the distance rule; 5a..8a are far enough and
    # no defender piece reaches them.
    assert [ds.omittable for ds in squares] == [False] * 3 + [True] * 4


def test_may_omit_needs_every_closer_square_futile() -> None:
    b = after(CLASSIC, "9c9a+")
    squares = drop_squares(b)
    assert may_omit(squares, 3, lambda j: True)
    assert not may_omit(squares, 3, lambda j: j != 1)
    assert not may_omit(squares, 2, lambda j: True)  # 4a: too close


def test_defended_square_is_not_omittable() -> None:
    # A defender silver on 6b guards 5a (and could interpose there): the
    # distance rule must not skip 5a.
    b = after("8k/3s2G2/R7P/9/9/9/9/9/9 b r2b3g3s4n4l17p 1", "9c9a+")
    by_square = {cshogi.move_to_usi(ds.moves[0])[2:]: ds for ds in drop_squares(b)}
    assert not by_square["5a"].omittable
    assert by_square["6a"].omittable


def test_board_moves_always_count() -> None:
    # 移動合: the silver on 6b may interpose on 5a or 7a by moving; such
    # moves are real defences (the length searches count every board move) and
    # never tested: drop_squares, which the futility tests walk, holds drops only.
    b = after("8k/3s2G2/R7P/9/9/9/9/9/9 b r2b3g3s4n4l17p 1", "9c9a+")
    real = {cshogi.move_to_usi(m) for m in b.legal_moves if not cshogi.move_is_drop(m)}
    assert real == {"6b5a", "6b7a"}
    assert all(cshogi.move_is_drop(m) for ds in drop_squares(b) for m in ds.moves)

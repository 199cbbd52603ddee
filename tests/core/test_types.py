"""Square and piece helpers: numbering shared with cshogi, names, errors."""

from __future__ import annotations

import cshogi
import pytest

from tsume_studio.core.shogi.types import (
    BLACK, KING, PROM_ROOK, ROOK, WHITE, make_piece, opponent, parse_square, piece_color,
    piece_type, relative_rank, square, square_file, square_japanese, square_rank, square_usi,
)


def test_numbering_matches_cshogi() -> None:
    for sq in range(81):
        assert square_usi(sq) == cshogi.SQUARE_NAMES[sq]
        assert parse_square(square_usi(sq)) == sq
        assert square(square_file(sq), square_rank(sq)) == sq
    board = cshogi.Board("4k4/9/9/9/9/9/9/9/4K2R1 b - 1")
    assert board.piece(square(5, 1)) == make_piece(WHITE, KING) == cshogi.WKING
    assert board.piece(square(2, 9)) == make_piece(BLACK, ROOK) == cshogi.BROOK


def test_names_and_pieces() -> None:
    assert square_usi(square(5, 1)) == "5a" and square_japanese(square(5, 1)) == "５一"
    assert square_japanese(parse_square("9i")) == "９九"
    pc = make_piece(WHITE, PROM_ROOK)
    assert (piece_color(pc), piece_type(pc)) == (WHITE, PROM_ROOK)
    assert relative_rank(BLACK, parse_square("3c")) == 3 and relative_rank(WHITE, parse_square("3c")) == 7
    assert opponent(BLACK) == WHITE and opponent(WHITE) == BLACK


@pytest.mark.parametrize("file, rank", [(0, 1), (10, 1), (5, 0), (5, 10)])
def test_square_errors(file: int, rank: int) -> None:
    with pytest.raises(ValueError, match=rf"^square out of range: file {file}, rank {rank}$"):
        square(file, rank)


@pytest.mark.parametrize("text", ["", "5", "5j", "0a", "a5", "55a", "5A"])
def test_parse_square_errors(text: str) -> None:
    with pytest.raises(ValueError, match=rf"^not a square: {text!r}$"):
        parse_square(text)

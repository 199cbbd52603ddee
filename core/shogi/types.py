"""Basic shogi types: colours, piece codes, squares.

The numbering follows cshogi's so that values pass to and from its C++
``Board`` without translation:

* ``Square`` is ``0..80``: ``file_index * 9 + rank_index`` where file ``1`` is
  index 0 and rank ``a``/一 is index 0.  ``square(5, 1)`` is 5一 (USI ``5a``).
* ``Piece`` is ``0`` (empty), ``1..14`` for Black (sente) and ``17..30`` for
  White (gote): ``WHITE_OFFSET + piece_type``.
* ``PieceType`` ``1..14``: pawn, lance, knight, silver, bishop, rook, gold,
  king, then the promoted pawn, lance, knight, silver, bishop (horse) and
  rook (dragon).
* Hands are 7-tuples in cshogi's hand order: pawn, lance, knight, silver,
  gold, bishop, rook.
"""

from __future__ import annotations

from typing import TypeAlias

Color: TypeAlias = int
Square: TypeAlias = int
Piece: TypeAlias = int
PieceType: TypeAlias = int
Hand: TypeAlias = "tuple[int, int, int, int, int, int, int]"

BLACK: Color = 0
WHITE: Color = 1
COLORS = (BLACK, WHITE)

NONE = 0
PAWN, LANCE, KNIGHT, SILVER, BISHOP, ROOK, GOLD, KING = range(1, 9)
PROM_PAWN, PROM_LANCE, PROM_KNIGHT, PROM_SILVER, PROM_BISHOP, PROM_ROOK = range(9, 15)
PIECE_TYPES = tuple(range(1, 15))
WHITE_OFFSET = 16

PROMOTE = {PAWN: PROM_PAWN, LANCE: PROM_LANCE, KNIGHT: PROM_KNIGHT, SILVER: PROM_SILVER,
           BISHOP: PROM_BISHOP, ROOK: PROM_ROOK}
UNPROMOTE = {v: k for k, v in PROMOTE.items()}

# Hand order (cshogi): index -> piece type, and back.
HAND_TYPES = (PAWN, LANCE, KNIGHT, SILVER, GOLD, BISHOP, ROOK)
HAND_INDEX = {pt: i for i, pt in enumerate(HAND_TYPES)}
# How many of each kind exist in a full set, by hand index.
HAND_MAX = (18, 4, 4, 4, 4, 2, 2)
EMPTY_HAND: Hand = (0, 0, 0, 0, 0, 0, 0)

# USI/SFEN letters of piece types (upper case = Black).
PIECE_LETTERS = {PAWN: "P", LANCE: "L", KNIGHT: "N", SILVER: "S", GOLD: "G", BISHOP: "B",
                 ROOK: "R", KING: "K"}
LETTER_TYPES = {v: k for k, v in PIECE_LETTERS.items()}

# Japanese names used in move notation (KIF style) and on the board (BOD).
KANJI_MOVE = {PAWN: "歩", LANCE: "香", KNIGHT: "桂", SILVER: "銀", GOLD: "金", BISHOP: "角",
              ROOK: "飛", KING: "玉", PROM_PAWN: "と", PROM_LANCE: "成香", PROM_KNIGHT: "成桂",
              PROM_SILVER: "成銀", PROM_BISHOP: "馬", PROM_ROOK: "龍"}
KANJI_BOARD = {PAWN: "歩", LANCE: "香", KNIGHT: "桂", SILVER: "銀", GOLD: "金", BISHOP: "角",
               ROOK: "飛", KING: "玉", PROM_PAWN: "と", PROM_LANCE: "杏", PROM_KNIGHT: "圭",
               PROM_SILVER: "全", PROM_BISHOP: "馬", PROM_ROOK: "龍"}
FULLWIDTH_DIGITS = "０１２３４５６７８９"
KANJI_DIGITS = ("", "一", "二", "三", "四", "五", "六", "七", "八", "九")


def square(file: int, rank: int) -> Square:
    """The square on ``file`` 1..9 and ``rank`` 1..9 (1 = 一 = USI ``a``)."""
    if not (1 <= file <= 9 and 1 <= rank <= 9):
        raise ValueError(f"square out of range: file {file!r}, rank {rank!r}")
    return (file - 1) * 9 + (rank - 1)


def square_file(sq: Square) -> int:
    """File 1..9 of a square."""
    return sq // 9 + 1


def square_rank(sq: Square) -> int:
    """Rank 1..9 (一..九) of a square."""
    return sq % 9 + 1


def square_usi(sq: Square) -> str:
    """USI name of a square, e.g. ``'5a'``."""
    return f"{sq // 9 + 1}{chr(ord('a') + sq % 9)}"


def square_japanese(sq: Square) -> str:
    """Japanese name of a square, e.g. ``'５一'``."""
    return FULLWIDTH_DIGITS[square_file(sq)] + KANJI_DIGITS[square_rank(sq)]


def parse_square(text: str) -> Square:
    """Parse a USI square name such as ``'5a'``; raises ``ValueError``."""
    if len(text) != 2 or text[0] not in "123456789" or text[1] not in "abcdefghi":
        raise ValueError(f"not a square: {text!r}")
    return square(int(text[0]), ord(text[1]) - ord("a") + 1)


def piece_color(piece: Piece) -> Color:
    """Owner of a (non-empty) piece code."""
    return WHITE if piece >= WHITE_OFFSET else BLACK


def piece_type(piece: Piece) -> PieceType:
    """Type of a piece code, without colour."""
    return piece & 15


def make_piece(color: Color, pt: PieceType) -> Piece:
    """Piece code of ``pt`` owned by ``color``."""
    return pt + (WHITE_OFFSET if color == WHITE else 0)


def relative_rank(color: Color, sq: Square) -> int:
    """Rank 1..9 seen from ``color``'s side: 1 is the far (promotion) edge."""
    r = square_rank(sq)
    return r if color == BLACK else 10 - r


def opponent(color: Color) -> Color:
    """The other colour."""
    return color ^ 1

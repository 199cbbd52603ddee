"""BOD board diagrams written exactly as Kifu for Windows writes them.

The reader is :mod:`.bod`; this module needs no :class:`~.position.Position`
(any object with ``piece_at``, ``hand`` and ``turn`` will do), so the
position can write its own diagram without an import cycle.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from .types import (
    BISHOP,
    BLACK,
    GOLD,
    HAND_INDEX,
    KANJI_BOARD,
    KNIGHT,
    LANCE,
    PAWN,
    ROOK,
    SILVER,
    WHITE,
    Color,
    Hand,
    Piece,
    Square,
    piece_color,
    piece_type,
    square,
)

__all__ = ["BORDER", "FILE_LINE", "HAND_ORDER", "KANJI_NUMERALS", "DiagramSource", "format_hand",
           "kanji_number", "to_bod"]

HAND_ORDER = (ROOK, BISHOP, GOLD, SILVER, KNIGHT, LANCE, PAWN)
"""Hand pieces in Kakinoki's order: 飛 角 金 銀 桂 香 歩."""

KANJI_NUMERALS = "一二三四五六七八九"
FILE_LINE = "  ９ ８ ７ ６ ５ ４ ３ ２ １"
BORDER = "+---------------------------+"


class DiagramSource(Protocol):
    """What a diagram is drawn from: a :class:`~.position.Position`, for one."""

    @property
    def turn(self) -> Color:
        """The side to move."""
        ...

    def piece_at(self, sq: Square) -> Piece:
        """The piece on ``sq`` (0 for none)."""
        ...

    def hand(self, color: Color) -> Hand:
        """The pieces ``color`` holds, counted in hand order."""
        ...


def kanji_number(n: int) -> str:
    """Kanji numeral for 1..99 as used in hands: 二, 十, 十八."""
    if n < 1:
        raise ValueError(f"kanji numbers start at 1, not {n!r}")
    tens, ones = divmod(n, 10)
    return ("" if tens == 0 else ("十" if tens == 1 else KANJI_NUMERALS[tens - 1] + "十")) \
        + ("" if ones == 0 else KANJI_NUMERALS[ones - 1])


def format_hand(hand: Sequence[int]) -> str:
    """A hand as Kifu for Windows writes it: ``飛　角二　歩十八　``, or ``なし``."""
    items = []
    for pt in HAND_ORDER:
        n = hand[HAND_INDEX[pt]]
        if n:
            items.append(KANJI_BOARD[pt] + (kanji_number(n) if n > 1 else "") + "　")
    return "".join(items) or "なし"


def _cell(piece: Piece) -> str:
    if not piece:
        return " ・"
    return ("v" if piece_color(piece) == WHITE else " ") + KANJI_BOARD[piece_type(piece)]


def to_bod(position: DiagramSource, side_line: bool = True) -> str:
    """The BOD diagram of ``position``, lines joined by ``\\n`` with a final ``\\n``.

    Both hands are written (``なし`` when empty) and, with ``side_line``, the
    side-to-move line ``先手番``/``後手番``.
    """
    lines = ["後手の持駒：" + format_hand(position.hand(WHITE)), FILE_LINE, BORDER]
    for rank in range(1, 10):
        cells = "".join(_cell(position.piece_at(square(f, rank))) for f in range(9, 0, -1))
        lines.append(f"|{cells}|{KANJI_NUMERALS[rank - 1]}")
    lines += [BORDER, "先手の持駒：" + format_hand(position.hand(BLACK))]
    if side_line:
        lines.append("先手番" if position.turn == BLACK else "後手番")
    return "\n".join(lines) + "\n"

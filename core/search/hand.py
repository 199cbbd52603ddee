"""Board-only keys and packed hands, so the table can compare hands.

With the same board, more pieces in the attacker's hand never turns a mate
into a non-mate, and fewer never turns a non-mate into a mate (hand
dominance; [ComShogi ch. 9],
優越関係).  The transposition table is therefore keyed by the board alone and
keeps the attacker's hand beside each entry.

Within one search the defender's hand needs no key of its own: every move
keeps the number of pieces of each kind (board plus both hands) constant, so
the board and the attacker's hand determine it.

Hands are packed into one int, a bit field per piece kind in cshogi's hand
order (P L N S G B R), each with a guard bit on top so that "every count of
``a`` is at least that of ``b``" is one subtraction (:func:`hand_ge`).
"""

from __future__ import annotations

from typing import Final

import cshogi

# Field widths: pawns need 5 bits (0..18), lances..golds 3 (0..4), bishop and
# rook 2 (0..2); one guard bit each on top.
_WIDTHS = (6, 4, 4, 4, 4, 3, 3)
SHIFTS: Final[tuple[int, ...]] = tuple(sum(_WIDTHS[:i]) for i in range(7))
UNIT: Final[tuple[int, ...]] = tuple(1 << s for s in SHIFTS)
_MASKS: Final[tuple[int, ...]] = tuple(((1 << (w - 1)) - 1) << s for w, s in zip(_WIDTHS, SHIFTS))
GUARD: Final[int] = sum(1 << (s + w - 1) for w, s in zip(_WIDTHS, SHIFTS))

# cshogi piece type (1..14) -> hand index of its unpromoted kind (kings: -1).
HAND_OF_PIECE_TYPE: Final[tuple[int, ...]] = (-1, 0, 1, 2, 3, 5, 6, 4, -1, 0, 1, 2, 3, 5, 6)

MASK64: Final = (1 << 64) - 1


def pack(counts: list[int] | tuple[int, ...]) -> int:
    """Pack 7 counts (P L N S G B R) into a hand int."""
    h = 0
    for i in range(7):
        h |= counts[i] << SHIFTS[i]
    return h


def unpack(hand: int) -> tuple[int, ...]:
    """The 7 counts of a packed hand."""
    return tuple((hand & m) >> s for m, s in zip(_MASKS, SHIFTS))


def hand_ge(a: int, b: int) -> bool:
    """True when hand ``a`` holds at least as many of every kind as ``b``."""
    return ((a | GUARD) - b) & GUARD == GUARD


def hand_max(a: int, b: int) -> int:
    """Kind by kind, the larger count of ``a`` and ``b``."""
    out = 0
    for m in _MASKS:
        x, y = a & m, b & m
        out |= x if x >= y else y
    return out


def hand_min(a: int, b: int) -> int:
    """Kind by kind, the smaller count of ``a`` and ``b``."""
    out = 0
    for m in _MASKS:
        x, y = a & m, b & m
        out |= x if x <= y else y
    return out


def count(hand: int, index: int) -> int:
    """How many pieces of hand kind ``index`` (0 = pawn .. 6 = rook) the hand holds."""
    return (hand & _MASKS[index]) >> SHIFTS[index]


def _hand_zobrist() -> tuple[tuple[int, ...], tuple[int, ...]]:
    """What one piece in hand adds to cshogi's Zobrist key, by colour and kind.

    cshogi keys add a fixed amount per piece in hand (mod 2**64); measure it
    once from two positions that differ by one piece.
    """
    base = cshogi.Board("4k4/9/9/9/9/9/9/9/4K4 b - 1").zobrist_hash()
    letters = "PLNSGBR"
    out: list[tuple[int, ...]] = []
    for color in (0, 1):
        row = []
        for letter in letters:
            hand = letter if color == 0 else letter.lower()
            key = cshogi.Board(f"4k4/9/9/9/9/9/9/9/4K4 b {hand} 1").zobrist_hash()
            row.append((key - base) & MASK64)
        out.append(tuple(row))
    return out[0], out[1]


HAND_ZOBRIST: Final[tuple[tuple[int, ...], tuple[int, ...]]] = _hand_zobrist()


def hand_key(counts_black: list[int], counts_white: list[int]) -> int:
    """The part of cshogi's Zobrist key that comes from both hands."""
    k = 0
    for i in range(7):
        k += HAND_ZOBRIST[0][i] * counts_black[i] + HAND_ZOBRIST[1][i] * counts_white[i]
    return k & MASK64


def board_key(board: cshogi.Board) -> int:
    """A key of the board and side to move only, without the hands."""
    b, w = board.pieces_in_hand
    key: int = board.zobrist_hash()
    return (key - hand_key(b, w)) & MASK64


def _self_check() -> None:
    # The additivity the keys rely on, checked once at import.
    two = cshogi.Board("4k4/9/9/9/9/9/9/9/4K4 b 2P 1").zobrist_hash()
    one = cshogi.Board("4k4/9/9/9/9/9/9/9/4K4 b P 1").zobrist_hash()
    zero = cshogi.Board("4k4/9/9/9/9/9/9/9/4K4 b - 1").zobrist_hash()
    if (two - one) & MASK64 != (one - zero) & MASK64:  # pragma: no cover - depends on cshogi
        raise RuntimeError("cshogi's hand keys are not additive; board keys cannot be derived")


_self_check()

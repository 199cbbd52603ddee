"""Futile interpositions (無駄合): which defences do not count under tsume rules.

An interposition (合駒) blocks a ranged check: a drop, or a defender piece
moved onto a square between the checker and the king.  Under tsume rules a
*futile* interposition is still mated but does not count in the length and is
not part of the main line.

The test is Kakinoki's rule ([ComShogi ch. 9], 「柿木のアルゴリズム」):
capture the interposed piece with the checker and give the piece straight back
to the defender's hand; if that position is still mate, the interposition
gained nothing.  For a drop on ``s`` the position tested is simply the
position before the drop with the checker moved to ``s`` and both hands
unchanged.  That position does not depend on which piece was dropped, so
futility is a property of the *square*: every drop on a futile square is
futile.  If the checker may promote on ``s``, either choice that mates will do.

"Still mate" is read as composers read it, "the mate goes on just as
without it": the test position must be mated in ``k`` plies where ``k`` is
0 (the capture mates at once, as in the classic ▲9一飛成 case) or no more
than another defence that counts already lasts.  A drop whose capture only
leads to a *longer* mate gains time and counts (mate.tsv's tanuki-3-454:
after ▲1三香 the pawn drop on 1b, captured and returned, is mate only in 4
more plies, so the problem is a mate in 3, not in 1).  Drop squares are
judged nearest the king first, against the board-move defences and the
nearer drops that count.  :mod:`.exact` applies the rule inside its
depth-bounded search, where every part of it is a bounded, proved question.

Where a published length is shorter, futility is not always the cause.
図巧 7番 (``1nkg5/2s6/3rp4/1B7/r8/1PN6/9/9/9 b BG3SN2gn4l16p 1``, published
13 plies) is answered in 15: after ``S*8b 7a8b N*7d 8b8c S*9d`` the
king's capture ``8c9d`` lasts 9 more plies (``8d9c+ 9d9c S*8b 9c8c B*9b
8c9b 8b9a+ 9b9c G*8d``) where ``9e9d`` and ``8c7d`` last 7.  Every check
from there on touches the king, so no interposition is possible on that
line, and with every interposition counted there is no mate within 13
either (cshogi's depth-limited df-pn): the two plies are a longer defence
(変長), which no reading of Kakinoki's rule removes (even "futile whenever
the capture still mates within the bound" gives 15); the rule is left as
it is (``tests/core/test_zukou7.py``).

Moving interpositions (移動合) are treated as composers do: they always count
as real defences and are never futile, because the board changes beyond the
interposed piece (its origin square is vacated, which can open lines or free
the king) and "returning" a piece that came from the board has no meaning.

Distant drops may be omitted ([LS3600 2010], the
「打ち中合い省略定理」 and 「再帰中合い不要の原理」): drop interpositions are
examined from the king outwards; once every closer drop square on the line
is futile, a drop on a square that no defender piece controls (pinned pieces
excluded) and that lies far enough from the king (4 or more on a diagonal or
along the board's edge, 5 or more otherwise) is omitted as futile without a
search.  Recursive interpositions need no special code here: under
Kakinoki's rule the position after "drop far, capture, drop near, capture"
with the pieces returned *is* the position after "drop near, capture", so a
transposition table answers it.
"""

from __future__ import annotations

from dataclasses import dataclass
from collections.abc import Callable, Iterable

import cshogi

from ..shogi.moves import checker_behind, king_distance, line_step
from ..shogi.types import Square, square_file, square_rank

# ---- geometry (the line itself: core.shogi.moves) -------------------------

def distance_threshold(king: Square, checker: Square) -> int:
    """Smallest distance at which a drop may be omitted on the king–checker line.

    Hoki's measurement quoted in [LS3600 2010]: 4 on a
    diagonal, 4 on a file or rank along the board's edge, 5 otherwise.
    """
    step = line_step(king, checker)
    if step is None:
        return 99
    if step[0] and step[1]:
        return 4
    if step[0] == 0:  # along a file
        return 4 if square_file(king) in (1, 9) else 5
    return 4 if square_rank(king) in (1, 9) else 5


# ---- Kakinoki's test ----------------------------------------------------

_HAND_LETTERS = "PLNSGBR"


def _hand_text(hands: tuple[list[int], list[int]]) -> str:
    out = ""
    for color in (0, 1):
        for i in (6, 5, 4, 3, 2, 1, 0):  # R B G S N L P, as SFEN writes them
            n = hands[color][i]
            if n:
                letter = _HAND_LETTERS[i] if color == 0 else _HAND_LETTERS[i].lower()
                out += (str(n) if n > 1 else "") + letter
    return out or "-"


def capture_and_return(board: cshogi.Board, drop: int) -> list[cshogi.Board]:
    """Kakinoki's test positions for the drop interposition ``drop`` on ``board``.

    ``board`` is the defender to move, in check; ``drop`` is one of its legal
    drops.  Each returned board is the position after the checker captures on
    the drop square (one board per legal promotion choice) with the captured
    piece handed straight back: both hands as they were before the drop, the
    defender to move.  Only captures that give check: the attacker of a mate
    checks with every move, and a lance that promotes as it captures may not.
    Empty when the checker cannot legally capture with check.
    """
    to = cshogi.move_to(drop)
    king = board.king_square(board.turn)
    checker = checker_behind(board.pieces, king, to)
    if checker is None:
        return []
    hands = board.pieces_in_hand
    saved = ([*hands[0]], [*hands[1]])
    out: list[cshogi.Board] = []
    board.push(drop)
    try:
        for m in board.legal_moves:
            if cshogi.move_is_drop(m) or cshogi.move_from(m) != checker or cshogi.move_to(m) != to:
                continue
            board.push(m)
            if not board.is_check():   # a lance that promotes on the capture no longer checks
                board.pop()
                continue
            parts = board.sfen().split()
            board.pop()
            parts[2] = _hand_text(saved)
            out.append(cshogi.Board(" ".join(parts)))
    finally:
        board.pop()
    return out


# ---- the drop squares of one AND node -----------------------------------

@dataclass(slots=True)
class DropSquare:
    """Every drop interposition on one square of the line between checker and king.

    ``moves`` are cshogi move integers, in hand order (pawn first);
    ``omittable`` tells that the distance rule's geometry holds (far enough
    from the king, and no defender piece but the king controls the square);
    whether it may really be omitted also needs every closer drop square on
    the same line to be futile (:func:`may_omit`).
    """

    square: Square
    moves: list[int]
    checker: Square | None
    distance: int
    omittable: bool
    _tests: list[cshogi.Board] | None = None

    def tests(self, board: cshogi.Board) -> list[cshogi.Board]:
        """Kakinoki's test positions (see :func:`capture_and_return`), computed once."""
        if self._tests is None:
            self._tests = capture_and_return(board, self.moves[0])
        return self._tests


def drop_squares(board: cshogi.Board, moves: Iterable[int] | None = None) -> list[DropSquare]:
    """The drop interpositions of ``board`` (defender to move, in check), by square, nearest first."""
    legal = list(board.legal_moves) if moves is None else list(moves)
    by_sq: dict[Square, list[int]] = {}
    for m in legal:
        if cshogi.move_is_drop(m):
            by_sq.setdefault(cshogi.move_to(m), []).append(m)
    if not by_sq:
        return []
    king = board.king_square(board.turn)
    pieces = board.pieces
    out = []
    for sq, ms in by_sq.items():
        ms.sort(key=cshogi.move_drop_hand_piece)
        checker = checker_behind(pieces, king, sq)
        d = king_distance(king, sq)
        omittable = (checker is not None and d >= distance_threshold(king, checker)
                     and not _defender_controls(legal, king, sq))
        out.append(DropSquare(sq, ms, checker, d, omittable))
    out.sort(key=lambda x: x.distance)
    return out


def may_omit(squares: list[DropSquare], index: int, futile: Callable[[int], bool]) -> bool:
    """Whether the distance rule omits ``squares[index]``.

    ``futile(i)`` tells whether the closer square ``squares[i]`` was found
    futile; it is only asked for squares on the same line, nearest first.
    """
    ds = squares[index]
    if not ds.omittable:
        return False
    return all(futile(i) for i in range(index)
               if squares[i].checker == ds.checker and squares[i].distance < ds.distance)


# ---- classification of one AND node -------------------------------------

@dataclass(frozen=True, slots=True)
class FutileSquare:
    """Drop interpositions on one square judged futile (or omitted).

    ``moves`` are the cshogi move integers of every drop on ``square``;
    ``omitted`` is True when the distance rule skipped the test; ``tests``
    are Kakinoki's test positions.
    """

    square: Square
    moves: tuple[int, ...]
    omitted: bool
    tests: tuple[cshogi.Board, ...] = ()


@dataclass(frozen=True, slots=True)
class Defences:
    """The defences of an AND node under tsume rules.

    ``real`` are the moves that count (king moves, captures, moving
    interpositions, non-futile drops); ``futile`` the futile drop squares,
    nearest the king first.
    """

    real: tuple[int, ...]
    futile: tuple[FutileSquare, ...]


def _defender_controls(moves: Iterable[int], king: Square, sq: Square) -> bool:
    """True when a legal non-king board move of the defender reaches ``sq``.

    In check, such a move is a moving interposition; pinned pieces cannot
    make it, so their control does not count (as in the rule of [LS3600 2010]).
    """
    for m in moves:
        if not cshogi.move_is_drop(m) and cshogi.move_to(m) == sq and cshogi.move_from(m) != king:
            return True
    return False


__all__ = [
    "distance_threshold", "capture_and_return", "DropSquare", "drop_squares", "may_omit", "FutileSquare",
    "Defences",
]

"""Moves: a small frozen value, Japanese notation, tsume move generation.

Generation is done by cshogi's C++ ``Board`` (legal moves, legal checks);
this module turns its move integers into :class:`Move` values and adds what a
tsume solver needs on top: which defence is a king move, a capture of the
checker or an interposition (合駒), and how far from the king.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from collections.abc import Sequence

import cshogi

from .position import Position
from .types import (
    BISHOP, BLACK, GOLD, HAND_TYPES, KANJI_MOVE, KING, KNIGHT, LANCE,
    LETTER_TYPES, PAWN, PIECE_LETTERS, PROM_BISHOP, PROM_KNIGHT, PROM_LANCE, PROM_PAWN,
    PROM_ROOK, PROM_SILVER, PROMOTE, ROOK, SILVER, Color, PieceType, Square, parse_square,
    piece_color, piece_type, relative_rank, square_file, square_japanese, square_rank, square_usi,
)


class InvalidMoveError(ValueError):
    """The text is not a well-formed USI move."""


class IllegalMoveError(ValueError):
    """The move is well-formed but not legal in the position."""


@dataclass(frozen=True, slots=True)
class Move:
    """A move: from a square (``None`` for a drop) to a square.

    ``drop`` is the dropped piece type for drops; ``promotion`` is True when
    the piece promotes.  ``Move.from_usi('P*5b')`` and ``Move.from_usi('8h2b+')``
    build one from USI text; :meth:`usi` writes it back.
    """

    from_square: Square | None
    to_square: Square
    promotion: bool = False
    drop: PieceType | None = None

    @classmethod
    def from_usi(cls, text: str) -> Move:
        """Parse USI move text such as ``7g7f``, ``8h2b+`` or ``P*5b``.

        Raises:
            InvalidMoveError: the text is not a USI move.
        """
        if not isinstance(text, str):
            raise InvalidMoveError(f"a USI move is text, not {type(text).__name__}: {text!r}")
        try:
            if len(text) == 4 and text[1] == "*":
                pt = LETTER_TYPES.get(text[0])
                if pt is None or pt == KING:
                    raise ValueError
                return cls(None, parse_square(text[2:4]), False, pt)
            if len(text) in (4, 5):
                if len(text) == 5 and text[4] != "+":
                    raise ValueError
                return cls(parse_square(text[0:2]), parse_square(text[2:4]), len(text) == 5)
        except ValueError:
            pass
        raise InvalidMoveError(f"not a USI move: {text!r}")

    @classmethod
    def from_cshogi(cls, move: int) -> Move:
        """The move of a cshogi move integer."""
        to = cshogi.move_to(move)
        if cshogi.move_is_drop(move):
            return cls(None, to, False, HAND_TYPES[cshogi.move_drop_hand_piece(move)])
        return cls(cshogi.move_from(move), to, bool(cshogi.move_is_promotion(move)))

    def usi(self) -> str:
        """USI text of the move."""
        if self.drop is not None:
            return f"{PIECE_LETTERS[self.drop]}*{square_usi(self.to_square)}"
        assert self.from_square is not None
        return square_usi(self.from_square) + square_usi(self.to_square) + ("+" if self.promotion else "")

    def to_cshogi(self, board: cshogi.Board) -> int:
        """The cshogi move integer of this move on ``board`` (0 if it cannot be encoded)."""
        return int(board.move_from_usi(self.usi()))

    def __str__(self) -> str:
        return self.usi()

    def __repr__(self) -> str:
        return f"Move.from_usi({self.usi()!r})"


def push_usi(position: Position, text: str) -> Move:
    """Parse a USI move, check that it is legal in ``position``, play it and return it.

    Raises:
        InvalidMoveError: not USI move text.
        IllegalMoveError: not legal in this position.
    """
    move = parse_move(position, text)
    position.push(move)
    return move


def parse_move(position: Position, text: str) -> Move:
    """Parse a USI move and check that it is legal in ``position``.

    Raises:
        InvalidMoveError: not USI move text.
        IllegalMoveError: not legal here (a wrong promotion flag included).
        IllegalPositionError: no moves can be generated in ``position`` (see
            :meth:`Position.board`).
    """
    move = Move.from_usi(text)
    if not is_legal(position, move):
        raise IllegalMoveError(f"illegal move {text!r} in position {position.sfen()!r}")
    return move


# ---- generation -----------------------------------------------------

def is_legal(position: Position, move: Move) -> bool:
    """True when ``move`` is legal in ``position``.

    cshogi's ``Board.is_legal`` accepts a promotion flag where none is
    possible (``7g7f+``) and a forced promotion left out (a pawn to the last
    rank), so membership in the legal moves decides.
    """
    board = position.board()
    m = move.to_cshogi(board)
    return bool(m) and board.is_legal(m) and m in board.legal_moves


def legal_moves(position: Position) -> list[Move]:
    """Every legal move (打ち歩詰め excluded; 不成 included)."""
    return [Move.from_cshogi(m) for m in position.board().legal_moves]


def check_moves(position: Position) -> list[Move]:
    """Every legal checking move of the side to move (the OR-node moves).

    Includes 不成 of every piece that may decline promotion and discovered
    checks; excludes 打ち歩詰め.  Empty when the side not to move has no
    king (there is nothing to check; cshogi would answer with garbage).
    """
    if position.king_square(position.defender) is None:
        return []
    return [Move.from_cshogi(m) for m in position.board().check_moves]


def gives_check(position: Position, move: Move) -> bool:
    """True when ``move`` checks the side not to move.

    Raises:
        IllegalMoveError: ``move`` is not legal in ``position``.
    """
    if not is_legal(position, move):
        raise IllegalMoveError(f"illegal move {move.usi()!r} in position {position.sfen()!r}")
    if position.king_square(position.defender) is None:
        return False
    board = position.board()
    m = move.to_cshogi(board)
    board.push(m)
    try:
        return bool(board.is_check())
    finally:
        board.pop()


def evasions(position: Position) -> list[Move]:
    """Every legal reply to check (the AND-node moves); empty when not in check."""
    if not position.is_check():
        return []
    return [Move.from_cshogi(m) for m in position.board().legal_moves]


# ---- attacks ----------------------------------------------------------

_STEP_DIRS = {
    # (file delta, rank delta) seen from Black; rank delta -1 is forward.
    PAWN: ((0, -1),),
    KNIGHT: ((1, -2), (-1, -2)),
    SILVER: ((0, -1), (1, -1), (-1, -1), (1, 1), (-1, 1)),
    GOLD: ((0, -1), (1, -1), (-1, -1), (1, 0), (-1, 0), (0, 1)),
    KING: ((0, -1), (1, -1), (-1, -1), (1, 0), (-1, 0), (0, 1), (1, 1), (-1, 1)),
}
for _pt in (PROM_PAWN, PROM_LANCE, PROM_KNIGHT, PROM_SILVER):
    _STEP_DIRS[_pt] = _STEP_DIRS[GOLD]
_STEP_DIRS[PROM_BISHOP] = ((0, -1), (1, 0), (-1, 0), (0, 1))
_STEP_DIRS[PROM_ROOK] = ((1, -1), (-1, -1), (1, 1), (-1, 1))
_SLIDE_DIRS = {
    LANCE: ((0, -1),),
    BISHOP: ((1, -1), (-1, -1), (1, 1), (-1, 1)),
    ROOK: ((0, -1), (1, 0), (-1, 0), (0, 1)),
}
_SLIDE_DIRS[PROM_BISHOP] = _SLIDE_DIRS[BISHOP]
_SLIDE_DIRS[PROM_ROOK] = _SLIDE_DIRS[ROOK]


def _attack_lines(pc: int, sq: Square, position: Position) -> list[Square]:
    """Squares the piece ``pc`` on ``sq`` attacks in ``position``."""
    color = piece_color(pc)
    pt = piece_type(pc)
    sign = 1 if color == BLACK else -1
    f0, r0 = square_file(sq), square_rank(sq)
    out: list[Square] = []
    for df, dr in _STEP_DIRS.get(pt, ()):
        f, r = f0 + df * sign, r0 + dr * sign
        if 1 <= f <= 9 and 1 <= r <= 9:
            out.append((f - 1) * 9 + r - 1)
    for df, dr in _SLIDE_DIRS.get(pt, ()):
        f, r = f0 + df * sign, r0 + dr * sign
        while 1 <= f <= 9 and 1 <= r <= 9:
            t = (f - 1) * 9 + r - 1
            out.append(t)
            if position.piece_at(t):
                break
            f, r = f + df * sign, r + dr * sign
    return out


_LINES = ((0, -1), (1, -1), (-1, -1), (1, 0), (-1, 0), (0, 1), (1, 1), (-1, 1))


def attackers(position: Position, target: Square, color: Color) -> list[Square]:
    """Squares of ``color``'s pieces that attack ``target``, in square order.

    Only the first piece on each of the eight lines out of ``target``, and
    the two squares a knight would jump from, can attack it.
    """
    f0, r0 = square_file(target), square_rank(target)
    candidates = []
    for df, dr in _LINES:
        f, r = f0 + df, r0 + dr
        while 1 <= f <= 9 and 1 <= r <= 9:
            sq = (f - 1) * 9 + r - 1
            if position.piece_at(sq):
                candidates.append(sq)
                break
            f, r = f + df, r + dr
    back = 2 if color == BLACK else -2  # a knight attacks two ranks forward
    for df in (1, -1):
        f, r = f0 + df, r0 + back
        if 1 <= f <= 9 and 1 <= r <= 9:
            candidates.append((f - 1) * 9 + r - 1)
    out = []
    for sq in candidates:
        pc = position.piece_at(sq)
        if pc and piece_color(pc) == color and target in _attack_lines(pc, sq, position):
            out.append(sq)
    return sorted(out)


def line_step(a: Square, b: Square) -> tuple[int, int] | None:
    """Unit (file, rank) step from ``a`` towards ``b`` if they share a line, else None."""
    df = square_file(b) - square_file(a)
    dr = square_rank(b) - square_rank(a)
    if (df == 0 and dr == 0) or not (df == 0 or dr == 0 or abs(df) == abs(dr)):
        return None
    return ((df > 0) - (df < 0), (dr > 0) - (dr < 0))


def between(a: Square, b: Square) -> list[Square]:
    """Squares strictly between ``a`` and ``b`` on a line (empty if not aligned), from ``a``."""
    step = line_step(a, b)
    if step is None:
        return []
    out = []
    f, r = square_file(a) + step[0], square_rank(a) + step[1]
    while (f, r) != (square_file(b), square_rank(b)):
        out.append((f - 1) * 9 + r - 1)
        f, r = f + step[0], r + step[1]
    return out


def king_distance(king: Square, sq: Square) -> int:
    """Steps from the king to ``sq`` (1 = next to the king): an interposition's distance."""
    return max(abs(square_file(sq) - square_file(king)), abs(square_rank(sq) - square_rank(king)))


def checker_behind(pieces: Sequence[int], king: Square, target: Square) -> Square | None:
    """The first occupied square beyond ``target`` on the line from ``king`` through it.

    ``pieces`` holds a piece (0 for none) per square, as cshogi's
    ``Board.pieces``.  For an interposition on ``target``, this is the
    ranged checker it blocks.
    """
    step = line_step(king, target)
    if step is None:
        return None
    f, r = square_file(target) + step[0], square_rank(target) + step[1]
    while 1 <= f <= 9 and 1 <= r <= 9:
        sq = (f - 1) * 9 + r - 1
        if pieces[sq]:
            return sq
        f, r = f + step[0], r + step[1]
    return None


# ---- classification of defences --------------------------------------

class EvasionKind(enum.Enum):
    """How a defence answers check."""

    KING_MOVE = "king move"
    CAPTURE = "capture"
    INTERPOSITION = "interposition"


@dataclass(frozen=True, slots=True)
class EvasionInfo:
    """What a defence does: its kind, and for interpositions the distance.

    ``checker`` is the square of the checking piece, ``None`` under double
    check (where only king moves answer).  ``distance`` is the number of
    squares from the king to the interposing square (1 = next to the king),
    0 for other kinds; ``is_drop`` tells a drop interposition (合駒打) from a
    moved piece (移動合).  ``captures`` is True when the move takes the
    checker, by the king (``KING_MOVE``) or by another piece (``CAPTURE``).
    """

    kind: EvasionKind
    checker: Square | None
    distance: int = 0
    is_drop: bool = False
    captures: bool = False


def checkers(position: Position) -> list[Square]:
    """Squares of the pieces giving check to the side to move."""
    king = position.king_square(position.turn)
    if king is None:
        return []
    return attackers(position, king, 1 - position.turn)


def classify_evasion(position: Position, move: Move) -> EvasionInfo:
    """Classify ``move``, a legal reply to check in ``position``.

    A king move (capturing the checker or not), a capture of the checker by
    another piece, or an interposition (合駒) on a square between a ranged
    checker and the king, with its distance and whether it is a drop.

    Raises:
        ValueError: the side to move is not in check.
        IllegalMoveError: ``move`` does not answer the check.
    """
    king = position.king_square(position.turn)
    checks = checkers(position)
    if king is None or not checks:
        raise ValueError(f"the side to move is not in check: {position.sfen()!r}")
    checker = checks[0] if len(checks) == 1 else None
    if move.from_square == king:
        return EvasionInfo(EvasionKind.KING_MOVE, checker, captures=move.to_square in checks)
    if checker is not None:
        if move.to_square == checker and move.drop is None:
            return EvasionInfo(EvasionKind.CAPTURE, checker, captures=True)
        if move.to_square in between(king, checker):
            return EvasionInfo(EvasionKind.INTERPOSITION, checker,
                               king_distance(king, move.to_square), move.drop is not None)
    raise IllegalMoveError(f"{move.usi()!r} does not answer the check in {position.sfen()!r}")


# ---- Japanese notation ------------------------------------------------

def _can_promote(color: Color, pt: PieceType, frm: Square, to: Square) -> bool:
    return pt in PROMOTE and (relative_rank(color, frm) <= 3 or relative_rank(color, to) <= 3)


def japanese(position: Position, move: Move, previous_to: Square | None = None,
             marks: bool = True) -> str:
    """Japanese notation of ``move`` in ``position``, e.g. ``▲２三飛打``, ``△同　歩``.

    Drops always carry 打; a move that could promote says 成 or 不成
    (``▲３二銀成``, ``▲３二銀不成``); a piece already promoted uses its own
    name (``龍``, ``成銀``).  When ``previous_to`` equals the destination it
    is written ``同　`` (同 and an ideographic space).  With ``marks`` the
    side's ▲ (Black) or △ (White) comes first.

    Raises:
        IllegalMoveError: there is no piece of the side to move on the
            origin square.
    """
    color = position.turn
    mark = ("▲" if color == BLACK else "△") if marks else ""
    dest = "同　" if previous_to is not None and previous_to == move.to_square else square_japanese(move.to_square)
    if move.drop is not None:
        return f"{mark}{dest}{KANJI_MOVE[move.drop]}打"
    assert move.from_square is not None
    pc = position.piece_at(move.from_square)
    if not pc or piece_color(pc) != color:
        raise IllegalMoveError(f"no piece of the side to move on {square_usi(move.from_square)} "
                               f"for {move.usi()!r}")
    pt = piece_type(pc)
    text = f"{mark}{dest}{KANJI_MOVE[pt]}"
    if move.promotion:
        text += "成"
    elif _can_promote(color, pt, move.from_square, move.to_square):
        text += "不成"
    return text


def japanese_line(position: Position, moves: list[Move], marks: bool = True) -> list[str]:
    """Japanese notation of each move of a line played from ``position``."""
    pos = position.copy()
    out = []
    prev: Square | None = None
    for mv in moves:
        out.append(japanese(pos, mv, prev, marks))
        pos.push(mv)
        prev = mv.to_square
    return out


__all__ = [
    "Move", "InvalidMoveError", "IllegalMoveError", "parse_move", "push_usi", "is_legal", "legal_moves",
    "check_moves", "gives_check", "evasions", "attackers", "line_step", "between", "king_distance",
    "checker_behind", "checkers",
    "classify_evasion", "EvasionKind", "EvasionInfo", "japanese", "japanese_line",
]

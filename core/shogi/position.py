"""Positions: SFEN in and out, editor validation, and a fast board for search.

A :class:`Position` keeps its own board array, hands and side to move, so that
an editor can hold any position, even an impossible one, and :meth:`status`
can name every problem at once.  Move generation and play go through a
cshogi ``Board`` (C++), built on demand; it is available unless a side has
two kings or there are more pieces of a kind than exist (see
:meth:`Position.board`).

The side to move is the *attacker* of a mate problem; the other side is the
*defender*, who must have a king.  The attacker's king is optional.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Protocol

import cshogi

from ..errors import CoreError
from .diagram import to_bod
from .types import (
    BISHOP, BLACK, EMPTY_HAND, GOLD, HAND_INDEX, HAND_MAX, HAND_TYPES, KING, KNIGHT, LANCE,
    LETTER_TYPES, PAWN, PIECE_LETTERS, PROMOTE, ROOK, SILVER, UNPROMOTE, WHITE, Color, Hand, Piece,
    Square, make_piece, opponent, piece_color, piece_type, relative_rank, square,
    square_japanese,
)



class CshogiMove(Protocol):
    """A move that can name itself to cshogi, such as :class:`~.moves.Move`."""

    def to_cshogi(self, board: cshogi.Board) -> int:
        """The cshogi move int of this move on ``board``."""
        ...

STARTING_SFEN = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"

_HAND_RE = re.compile(r"([0-9]*)([PLNSGBRplnsgbr])")
_MAX_MOVE_NUMBER = 10**9
_HAND_COUNT_MAX = 18   # as many as there are pawns; set_hand() holds the same


def _quote(text: str, limit: int = 40) -> str:
    """``text`` quoted for an error message, shortened when it is absurdly long."""
    return repr(text) if len(text) <= limit else repr(text[:limit]) + f"... ({len(text)} characters)"


class SfenError(CoreError):
    """The text is not well-formed SFEN (a ``sfen.…`` code or a plain message)."""


class BodError(ValueError):
    """The text is not a well-formed BOD board diagram."""


class IllegalPositionError(ValueError):
    """An operation needs a valid position and this one is not.

    Attributes:
        problems: every problem found, as :class:`Problem` values.
    """

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = list(problems)
        super().__init__("invalid position: " + "; ".join(p.message for p in self.problems))


class Status(enum.IntFlag):
    """Problems of a parsable position, as flags; ``VALID`` when there are none."""

    VALID = 0
    NO_DEFENDER_KING = enum.auto()
    TOO_MANY_KINGS = enum.auto()
    TOO_MANY_PIECES = enum.auto()
    NIFU = enum.auto()
    DEAD_PIECE = enum.auto()
    NOT_TO_MOVE_IN_CHECK = enum.auto()


@dataclass(frozen=True, slots=True)
class Problem:
    """One problem of a position: its flag, the square concerned (if any), a message."""

    flag: Status
    square: Square | None
    message: str


_SIDE_NAMES = ("Black (sente)", "White (gote)")
_KIND_NAMES = {PAWN: "pawns", LANCE: "lances", KNIGHT: "knights", SILVER: "silvers", GOLD: "golds",
               BISHOP: "bishops", ROOK: "rooks"}

#: The squares of each rank, 一 to 九, as SFEN writes them (file 9 to file 1).
_RANK_ROWS = tuple(tuple((file - 1) * 9 + (rank - 1) for file in range(9, 0, -1)) for rank in range(1, 10))
_SFEN_LETTERS: dict[Piece, str] = {}


def _sfen_letter(pc: Piece) -> str:
    """A piece's SFEN text (``+`` before a promoted one, lower case for White)."""
    got = _SFEN_LETTERS.get(pc)
    if got is None:
        pt = piece_type(pc)
        letter = PIECE_LETTERS[UNPROMOTE.get(pt, pt)]
        if piece_color(pc) == WHITE:
            letter = letter.lower()
        got = _SFEN_LETTERS[pc] = ("+" if pt in UNPROMOTE else "") + letter
    return got


class Position:
    """A shogi position: board, hands, side to move and move number.

    The position is mutable: :meth:`set_piece`, :meth:`set_hand` and
    :attr:`turn` edit it (and forget the moves played), and
    :meth:`push`/:meth:`pop` play and take back moves with exact undo.  Use
    :meth:`copy` to hand a position to another thread.
    """

    __slots__ = ("_squares", "_hands", "_turn", "move_number", "_cboard", "_stack", "_text", "_problems")

    def __init__(self) -> None:
        self._squares: list[Piece] = [0] * 81
        self._hands: list[list[int]] = [list(EMPTY_HAND), list(EMPTY_HAND)]
        self._turn: Color = BLACK
        self.move_number = 1
        self._cboard: cshogi.Board | None = None
        # push/pop snapshots: (squares, hands, turn, move_number)
        self._stack: list[tuple[list[Piece], list[list[int]], Color, int]] = []
        # What sfen() and problems() found, until the position changes (_changed): a solve asks
        # for both several times of one position.
        self._text: str | None = None
        self._problems: list[Problem] | None = None

    # ---- construction -------------------------------------------------

    @classmethod
    def from_sfen(cls, sfen: str) -> Position:
        """Parse SFEN (``board side hands [move-number]``; a leading ``sfen`` is allowed).

        Raises:
            SfenError: the text is not well-formed; the message quotes the bad part.
        """
        pos = cls()
        pos._set_sfen(sfen)
        return pos

    @classmethod
    def empty(cls) -> Position:
        """An empty board, empty hands, Black to move."""
        return cls()

    @classmethod
    def start(cls) -> Position:
        """The initial position of an even game."""
        return cls.from_sfen(STARTING_SFEN)

    def copy(self) -> Position:
        """An independent copy (without the push/pop history)."""
        other = Position()
        other._squares = list(self._squares)
        other._hands = [list(self._hands[0]), list(self._hands[1])]
        other._turn = self._turn
        other.move_number = self.move_number
        other._text = self._text
        return other

    def _set_sfen(self, sfen: str) -> None:
        if not isinstance(sfen, str):
            raise SfenError(f"sfen must be text, not {type(sfen).__name__}")
        text = sfen.strip()
        if text.startswith("sfen "):
            text = text[5:].strip()
        parts = text.split()
        if len(parts) not in (3, 4):
            raise SfenError("sfen.fields", sfen=repr(sfen))
        board_part, side, hands_part = parts[:3]
        ranks = board_part.split("/")
        if len(ranks) != 9:
            raise SfenError(f"expected 9 ranks in board part of sfen, got {len(ranks)}: {board_part!r}")
        squares = [0] * 81
        for r, rank_text in enumerate(ranks):
            file = 9
            promoted = False
            for ch in rank_text:
                if "0" <= ch <= "9":   # ASCII only: '²' or '９' is not a count
                    if promoted:
                        raise SfenError(f"'+' must be followed by a piece in rank {r + 1} of sfen: {rank_text!r}")
                    file -= int(ch)
                    if int(ch) == 0:
                        raise SfenError(f"empty-square count 0 in rank {r + 1} of sfen: {rank_text!r}")
                elif ch == "+":
                    if promoted:
                        raise SfenError(f"double '+' in rank {r + 1} of sfen: {rank_text!r}")
                    promoted = True
                    continue
                elif ch.upper() in LETTER_TYPES:
                    if file < 1:
                        raise SfenError(f"rank {r + 1} of sfen has more than 9 squares: {rank_text!r}")
                    pt = LETTER_TYPES[ch.upper()]
                    if promoted:
                        if pt not in PROMOTE:
                            raise SfenError(f"piece {ch!r} cannot be promoted, in rank {r + 1} of sfen: {rank_text!r}")
                        pt = PROMOTE[pt]
                    color = BLACK if ch.isupper() else WHITE
                    squares[square(file, r + 1)] = make_piece(color, pt)
                    file -= 1
                else:
                    raise SfenError(f"unexpected character {ch!r} in rank {r + 1} of sfen: {rank_text!r}")
                promoted = False
                if file < 0:
                    raise SfenError(f"rank {r + 1} of sfen has more than 9 squares: {rank_text!r}")
            if promoted:
                raise SfenError(f"'+' at the end of rank {r + 1} of sfen: {rank_text!r}")
            if file != 0:
                raise SfenError(f"rank {r + 1} of sfen has {9 - file} squares, expected 9: {rank_text!r}")
        if side not in ("b", "w"):
            raise SfenError(f"side to move must be 'b' or 'w' in sfen, got {side!r}")
        hands = [list(EMPTY_HAND), list(EMPTY_HAND)]
        if hands_part != "-":
            pos = 0
            seen: set[str] = set()
            for m in _HAND_RE.finditer(hands_part):
                if m.start() != pos:
                    break
                pos = m.end()
                digits, letter = m.group(1), m.group(2)
                count = int(digits) if digits and len(digits) <= 2 else 1
                if digits and (len(digits) > 2 or count < 1 or digits.startswith("0")):
                    raise SfenError(f"bad count {_quote(digits)} for {letter!r} in hands of sfen: "
                                    f"{_quote(hands_part)}")
                if letter in seen:
                    raise SfenError(f"{letter!r} appears twice in hands of sfen (give one count): "
                                    f"{_quote(hands_part)}")
                seen.add(letter)
                if count > _HAND_COUNT_MAX:
                    # More of a kind than exist is an editor problem (TOO_MANY_PIECES), but
                    # no hand holds more than 18 of anything.
                    raise SfenError(f"bad count {_quote(digits)} for {letter!r} in hands of sfen: "
                                    f"{_quote(hands_part)}")
                i = HAND_INDEX[LETTER_TYPES[letter.upper()]]
                color = BLACK if letter.isupper() else WHITE
                hands[color][i] += count
            if pos != len(hands_part):
                raise SfenError(f"unexpected text {_quote(hands_part[pos:])} in hands of sfen: "
                                f"{_quote(hands_part)}")
        move_number = 1
        if len(parts) == 4:
            number = parts[3]
            if not (number.isascii() and number.isdigit()) or not number.strip("0"):
                raise SfenError(f"move number must be a positive integer in sfen, got {_quote(number)}")
            if len(number.lstrip("0")) > 10 or int(number) > _MAX_MOVE_NUMBER:
                raise SfenError(f"move number {_quote(number)} in sfen is too large "
                                f"(at most {_MAX_MOVE_NUMBER})")
            move_number = int(number)
        self._squares = squares
        self._hands = hands
        self._turn = BLACK if side == "b" else WHITE
        self.move_number = move_number
        self._edited()

    # ---- output -------------------------------------------------------

    def sfen(self, move_number: bool = True) -> str:
        """SFEN of the position (hands in the usual order R B G S N L P, Black first)."""
        text = self._text
        if text is None:
            text = self._text = self._sfen_text()
        return f"{text} {self.move_number}" if move_number else text

    def _sfen_text(self) -> str:
        """The SFEN's board, side to move and hands."""
        rows = []
        squares = self._squares
        for order in _RANK_ROWS:
            row = ""
            empty = 0
            for sq in order:
                pc = squares[sq]
                if pc == 0:
                    empty += 1
                    continue
                if empty:
                    row += str(empty)
                    empty = 0
                row += _sfen_letter(pc)
            if empty:
                row += str(empty)
            rows.append(row)
        hand = ""
        for color in (BLACK, WHITE):
            for pt in (ROOK, BISHOP, GOLD, SILVER, KNIGHT, LANCE, PAWN):
                n = self._hands[color][HAND_INDEX[pt]]
                if n:
                    letter = PIECE_LETTERS[pt] if color == BLACK else PIECE_LETTERS[pt].lower()
                    hand += (str(n) if n > 1 else "") + letter
        return f"{'/'.join(rows)} {'b' if self._turn == BLACK else 'w'} {hand or '-'}"

    def bod(self) -> str:
        """The BOD board diagram of the position, as Kifu for Windows writes it (``\\n`` line ends)."""
        return to_bod(self)

    def __str__(self) -> str:
        return self.sfen()

    def __repr__(self) -> str:
        return f"Position.from_sfen({self.sfen()!r})"

    def __eq__(self, other: object) -> bool:
        """Same board, hands and side to move (the move number does not count)."""
        if not isinstance(other, Position):
            return NotImplemented
        return (self._squares == other._squares and self._hands == other._hands
                and self._turn == other._turn)

    def __hash__(self) -> int:
        return hash(self.sfen(move_number=False))

    # ---- access and editing ------------------------------------------

    @property
    def turn(self) -> Color:
        """Side to move (the attacker of a mate problem)."""
        return self._turn

    @turn.setter
    def turn(self, color: Color) -> None:
        if color not in (BLACK, WHITE):
            raise ValueError(f"turn must be BLACK (0) or WHITE (1), not {color!r}")
        self._turn = color
        self._edited()

    def piece_at(self, sq: Square) -> Piece:
        """Piece code on ``sq`` (0 when empty)."""
        return self._squares[sq]

    def pieces(self) -> Iterator[tuple[Square, Piece]]:
        """Every occupied square with its piece."""
        for sq, pc in enumerate(self._squares):
            if pc:
                yield sq, pc

    def set_piece(self, sq: Square, piece: Piece) -> None:
        """Put ``piece`` (0 to clear) on ``sq``; this forgets the push/pop history.

        Raises:
            ValueError: ``sq`` is not 0..80 or ``piece`` is not a piece code.
        """
        if not (isinstance(sq, int) and 0 <= sq < 81):
            raise ValueError(f"square out of range 0..80: {sq!r}")
        if not isinstance(piece, int) or (piece and not 1 <= piece_type(piece) <= 14) \
                or not 0 <= piece < 31:
            raise ValueError(f"not a piece code (0, 1..14 or 17..30): {piece!r}")
        self._squares[sq] = piece
        self._edited()

    def hand(self, color: Color) -> Hand:
        """Pieces in ``color``'s hand, in hand order (P L N S G B R)."""
        h = self._hands[color]
        return (h[0], h[1], h[2], h[3], h[4], h[5], h[6])

    def set_hand(self, color: Color, hand: tuple[int, ...] | list[int]) -> None:
        """Replace ``color``'s hand (7 counts in hand order); this forgets the push/pop history.

        Counts up to 18 are accepted for every kind, as in SFEN; more pieces
        of a kind than exist (5 golds) is an editor problem that
        :meth:`status` reports as ``TOO_MANY_PIECES``.

        Raises:
            ValueError: ``color`` is not BLACK/WHITE, or ``hand`` is not 7 counts
                each between 0 and 18.
        """
        if color not in (BLACK, WHITE):
            raise ValueError(f"colour must be BLACK (0) or WHITE (1), not {color!r}")
        if len(hand) != 7 or any((not isinstance(n, int)) or isinstance(n, bool) or n < 0 for n in hand):
            raise ValueError(f"a hand is 7 non-negative counts (P L N S G B R), not {hand!r}")
        for i, n in enumerate(hand):
            if n > 18:
                raise ValueError(f"at most 18 {_KIND_NAMES[HAND_TYPES[i]]} in a hand (as in SFEN), "
                                 f"not {n!r}: {hand!r}")
        self._hands[color] = list(hand)
        self._edited()

    def _edited(self) -> None:
        # The cshogi board and the undo stack no longer describe this position.
        self._cboard = None
        self._stack.clear()
        self._changed()

    def _changed(self) -> None:
        self._text = None
        self._problems = None

    def king_square(self, color: Color) -> Square | None:
        """Square of ``color``'s king (the first one, if there are several)."""
        king = make_piece(color, KING)
        for sq, pc in enumerate(self._squares):
            if pc == king:
                return sq
        return None

    @property
    def attacker(self) -> Color:
        """The side to move."""
        return self._turn

    @property
    def defender(self) -> Color:
        """The side not to move."""
        return opponent(self._turn)

    # ---- validation ---------------------------------------------------

    def problems(self) -> list[Problem]:
        """Every problem of the position, each with its square where it has one."""
        if self._problems is None:
            self._problems = self._find_problems()
        return list(self._problems)

    def _find_problems(self) -> list[Problem]:
        out: list[Problem] = []
        kings: list[list[Square]] = [[], []]
        pawns: dict[tuple[Color, int], list[Square]] = {}   # (side, file) -> its pawns, rank order
        dead: list[Problem] = []
        king_pieces = (make_piece(BLACK, KING), make_piece(WHITE, KING))
        for sq, pc in enumerate(self._squares):   # file by file, rank 1 to 9 in each
            if not pc:
                continue
            if pc in king_pieces:
                kings[piece_color(pc)].append(sq)
                continue
            pt = piece_type(pc)
            if pt == PAWN:
                pawns.setdefault((piece_color(pc), sq // 9 + 1), []).append(sq)
            if pt in (PAWN, LANCE, KNIGHT):
                rr = relative_rank(piece_color(pc), sq)
                if rr == 1 or (pt == KNIGHT and rr == 2):
                    dead.append(Problem(Status.DEAD_PIECE, sq,
                                        f"the {_KIND_NAMES[pt][:-1]} on {square_japanese(sq)} can never move"))
        defender = self.defender
        if not kings[defender]:
            out.append(Problem(Status.NO_DEFENDER_KING, None,
                               f"the defender, {_SIDE_NAMES[defender]}, has no king"))
        out += self._king_and_count_problems(kings)
        for c in (BLACK, WHITE):
            for file in range(1, 10):
                sqs = pawns.get((c, file), [])
                if len(sqs) > 1:
                    out.append(Problem(Status.NIFU, sqs[1],
                                       f"{'two' if len(sqs) == 2 else len(sqs)} pawns of {_SIDE_NAMES[c]} "
                                       f"on file {file} (二歩): " + " and ".join(square_japanese(s) for s in sqs)))
        out += dead
        if len(kings[defender]) == 1 and len(kings[self._turn]) <= 1:
            if self._side_in_check(defender):
                out.append(Problem(Status.NOT_TO_MOVE_IN_CHECK, kings[defender][0],
                                   f"the side not to move is in check (king on {square_japanese(kings[defender][0])})"))
        return out

    def _king_and_count_problems(self, kings: list[list[Square]]) -> list[Problem]:
        """Two kings of a side, or more pieces of a kind than exist: what no board can hold."""
        out: list[Problem] = []
        for c in (BLACK, WHITE):
            if len(kings[c]) > 1:
                out.append(Problem(Status.TOO_MANY_KINGS, kings[c][1],
                                   f"{_SIDE_NAMES[c]} has {len(kings[c])} kings"))
        counts = [0] * 7
        for _, pc in self.pieces():
            pt = piece_type(pc)
            base = UNPROMOTE.get(pt, pt)
            if base != KING:
                counts[HAND_INDEX[base]] += 1
        for c in (BLACK, WHITE):
            for i in range(7):
                counts[i] += self._hands[c][i]
        for i, pt in enumerate(HAND_TYPES):
            if counts[i] > HAND_MAX[i]:
                out.append(Problem(Status.TOO_MANY_PIECES, None,
                                   f"{counts[i]} {_KIND_NAMES[pt]} in all, at most {HAND_MAX[i]}"))
        return out

    def status(self) -> Status:
        """All problems as flags; ``Status.VALID`` when there are none."""
        flags = Status.VALID
        for p in self.problems():
            flags |= p.flag
        return flags

    def is_valid(self) -> bool:
        """True when :meth:`status` finds no problem."""
        return not self.problems()

    def _side_in_check(self, color: Color) -> bool:
        """True when ``color`` has a king and it is attacked (hands play no part)."""
        king = self.king_square(color)
        if king is None:
            return False
        # cshogi does not count the other king among the checkers: two kings side by side are a check.
        other = self.king_square(1 - color)
        if other is not None and max(abs(king // 9 - other // 9), abs(king % 9 - other % 9)) == 1:
            return True
        board_part = self.sfen().split()[0]
        return bool(cshogi.Board(f"{board_part} {'b' if color == BLACK else 'w'} - 1").is_check())

    # ---- play ---------------------------------------------------------

    def board(self) -> cshogi.Board:
        """The cshogi ``Board`` of this position, for move generation and search.

        The returned board belongs to this position and follows :meth:`push`
        and :meth:`pop`; copy it (``board.copy()``) before mutating it yourself.
        A side without a king is fine here (a tsume attacker has none, and
        after the attacker's move it is the side not to move); so are the
        other editor problems (二歩, dead pieces, the side not to move in
        check).  Use :meth:`require_valid` to insist on a valid problem.

        Raises:
            IllegalPositionError: a side has two kings, or there are more
                pieces of a kind than exist (cshogi's packed hands cannot hold
                them).
        """
        if self._cboard is None:
            kings = [[sq for sq, pc in self.pieces() if pc == make_piece(c, KING)] for c in (BLACK, WHITE)]
            bad = self._king_and_count_problems(kings)
            if bad:
                raise IllegalPositionError(bad)
            self._cboard = cshogi.Board(self.sfen())
        return self._cboard

    def require_valid(self) -> None:
        """Raise :class:`IllegalPositionError` listing every problem, if there are any."""
        problems = self.problems()
        if problems:
            raise IllegalPositionError(problems)

    def push(self, move: CshogiMove | int) -> None:
        """Play ``move`` (a :class:`~.moves.Move` or a cshogi move int).

        The move is assumed legal; an ``assert`` checks it (promotion flag
        included, which cshogi's own ``is_legal`` does not check).

        Raises:
            IllegalPositionError: see :meth:`board`.
        """
        b = self.board()
        m = int(move) if isinstance(move, int) else move.to_cshogi(b)
        assert m in b.legal_moves, f"illegal move {cshogi.move_to_usi(m) if m else move!r} in {self.sfen()}"
        self._stack.append((list(self._squares), [list(self._hands[0]), list(self._hands[1])],
                            self._turn, self.move_number))
        color = self._turn
        to = cshogi.move_to(m)
        if cshogi.move_is_drop(m):
            pt = HAND_TYPES[cshogi.move_drop_hand_piece(m)]
            self._hands[color][HAND_INDEX[pt]] -= 1
            self._squares[to] = make_piece(color, pt)
        else:
            frm = cshogi.move_from(m)
            pc = self._squares[frm]
            cap = self._squares[to]
            if cap:
                cpt = piece_type(cap)
                self._hands[color][HAND_INDEX[UNPROMOTE.get(cpt, cpt)]] += 1
            pt = piece_type(pc)
            if cshogi.move_is_promotion(m):
                pt = PROMOTE[pt]
            self._squares[frm] = 0
            self._squares[to] = make_piece(color, pt)
        self._turn = opponent(color)
        self.move_number += 1
        self._changed()
        b.push(m)

    @property
    def ply(self) -> int:
        """How many moves :meth:`push` has played that :meth:`pop` can take back."""
        return len(self._stack)

    def pop(self) -> None:
        """Take back the last move played with :meth:`push`."""
        if not self._stack:
            raise IndexError("pop from a position with no moves played")
        self._squares, self._hands, self._turn, self.move_number = self._stack.pop()
        self._changed()
        if self._cboard is not None:
            self._cboard.pop()

    def is_check(self) -> bool:
        """True when the side to move has a king and it is attacked."""
        if self.king_square(self._turn) is None:
            return False
        return bool(self.board().is_check())

    def is_checkmate(self) -> bool:
        """True when the side to move is in check and has no legal move (詰み)."""
        return self.is_check() and next(iter(self.board().legal_moves), None) is None


def tsume_hands(position: Position) -> Position:
    """The 詰将棋 convention: a copy where the defender holds every remaining piece.

    Pieces not on the board and not in the attacker's hand go to the
    defender's hand (kings excepted); if there are already too many of a
    kind, the defender's hand of that kind is left at zero.
    """
    pos = position.copy()
    counts = [0] * 7
    for _, pc in pos.pieces():
        pt = piece_type(pc)
        base = UNPROMOTE.get(pt, pt)
        if base != KING:
            counts[HAND_INDEX[base]] += 1
    attacker_hand = pos.hand(pos.attacker)
    rest = tuple(max(0, HAND_MAX[i] - counts[i] - attacker_hand[i]) for i in range(7))
    pos.set_hand(pos.defender, rest)
    return pos

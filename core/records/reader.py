"""What the KIF and KI2 readers share: moves as written, their resolution, the record tree.

:class:`RecordReader` takes the lines both formats write the same way
(comments, the board diagram, header lines) and builds the move tree with a
:class:`TreeBuilder`; :func:`parse_move_spec` and :func:`resolve_move` turn
a move as written (``同　歩``, ``２三銀右上成``, ``５五角(33)``) into a legal
:class:`~..shogi.moves.Move`.  Each format's reader walks its own lines and
raises its own ValueError subclass.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from ..errors import CoreError
from ..shogi.bod import BodBuilder, is_bod_line
from ..shogi.moves import Move
from ..shogi.position import Position
from ..shogi.types import (
    BLACK,
    HAND_TYPES,
    KANJI_MOVE,
    KING,
    PROM_KNIGHT,
    PROM_LANCE,
    PROM_ROOK,
    PROM_SILVER,
    PROMOTE,
    Square,
    piece_color,
    piece_type,
    square,
    square_file,
    square_japanese,
    square_rank,
)
from .model import Record, RecordNode

__all__ = [
    "HANDICAPS",
    "MoveSpec",
    "RecordReader",
    "TreeBuilder",
    "check_no_king_capture",
    "filter_relative",
    "one_line",
    "parse_move_spec",
    "resolve_move",
]

# 手合割 names and their start positions (SFENs as in cshogi's KIF parser and tsshogi).
HANDICAPS = {
    "平手": "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
    "香落ち": "lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    "右香落ち": "1nsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    "角落ち": "lnsgkgsnl/1r7/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    "飛車落ち": "lnsgkgsnl/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    "飛香落ち": "lnsgkgsn1/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    "二枚落ち": "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    "三枚落ち": "lnsgkgsn1/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    "四枚落ち": "1nsgkgsn1/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    "五枚落ち": "2sgkgsn1/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    "左五枚落ち": "1nsgkgs2/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    "六枚落ち": "2sgkgs2/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    "左七枚落ち": "2sgkg3/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    "右七枚落ち": "3gkgs2/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    "八枚落ち": "3gkg3/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    "十枚落ち": "4k4/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
}

# Piece names in moves, with the accepted alternatives.
_MOVE_PIECES: dict[str, int] = {v: k for k, v in KANJI_MOVE.items()}
_MOVE_PIECES.update({"王": KING, "竜": PROM_ROOK, "全": PROM_SILVER, "圭": PROM_KNIGHT,
                     "杏": PROM_LANCE})
_DIGITS = {c: i for i, c in enumerate("０１２３４５６７８９")}
_DIGITS.update({str(i): i for i in range(10)})
_RANKS = {c: i + 1 for i, c in enumerate("一二三四五六七八九")}

# Destination, piece, relative words (KI2), promotion, drop, origin.
_MOVE_SPEC_RE = re.compile(
    r"(?P<dest>同[ 　]*|[１-９1-9][一二三四五六七八九１-９1-9])"
    r"(?P<piece>成銀|成桂|成香|[玉王飛龍竜角馬金銀全桂圭香杏歩と])"
    r"(?P<rel>[右左直]?[上引寄行入]?)"
    r"(?P<prom>不成|生|成)?"
    r"(?P<drop>打)?"
    r"(?:\((?P<origin>[0-9０-９]{2})\))?")
_HEADER_RE = re.compile(r"^([^\s：:]+?)\s*[：:](.*)$")


def one_line(text: str) -> str:
    """``text`` on one line: a header value cannot span lines (later lines would be read as something else)."""
    return " ".join(str(text).splitlines())


class MoveSpec:
    """A move as written in KIF or KI2, before it is resolved in a position."""

    __slots__ = ("drop", "end", "origin", "piece", "promote", "rel", "same", "to")

    def __init__(self, to: Square | None, same: bool, piece: int, rel: str, promote: bool,
                 drop: bool, origin: Square | None, end: int) -> None:
        self.to, self.same, self.piece, self.rel = to, same, piece, rel
        self.promote, self.drop, self.origin, self.end = promote, drop, origin, end


def parse_move_spec(text: str, start: int = 0) -> MoveSpec | None:
    """Match a KIF/KI2 move at ``text[start:]``; None if there is none.

    Raises:
        ValueError: a square number is out of range (such as ``(10)`` or ``(00)`` without 打).
    """
    m = _MOVE_SPEC_RE.match(text, start)
    if not m:
        return None
    dest = m.group("dest")
    same = dest[0] == "同"
    to = None
    if not same:
        rank = _RANKS.get(dest[1]) or _DIGITS.get(dest[1], 0)
        if not (1 <= _DIGITS[dest[0]] <= 9 and 1 <= rank <= 9):
            raise CoreError("move.not_a_square", square=repr(dest))
        to = square(_DIGITS[dest[0]], rank)
    origin = None
    drop = m.group("drop") is not None
    if m.group("origin"):
        f, r = _DIGITS[m.group("origin")[0]], _DIGITS[m.group("origin")[1]]
        if f == 0 and r == 0:
            drop = True  # a fake origin on a drop, as the TSEC files write it
        elif 1 <= f <= 9 and 1 <= r <= 9:
            origin = square(f, r)
        else:
            raise CoreError("move.not_a_square", square=f"({m.group('origin')})")
    prom = m.group("prom")
    return MoveSpec(to, same, _MOVE_PIECES[m.group("piece")], m.group("rel") or "",
                    prom == "成", drop, origin, m.end())


def _ahead(color: int, frm: Square, to: Square) -> int:
    """+1 when ``to`` is ahead of ``frm`` for ``color``, -1 behind, 0 on the same rank."""
    d = square_rank(frm) - square_rank(to)
    d = d if color == BLACK else -d
    return (d > 0) - (d < 0)


def filter_relative(position: Position, moves: list[Move], rel: str) -> list[Move]:
    """Keep the candidate moves that the KI2 relative words ``rel`` describe.

    上/行/入 move forward, 引 backward, 寄 sideways; 直 straight forward;
    右/左 the rightmost/leftmost from the mover's side among those left.
    """
    color = position.turn
    out = list(moves)
    for word in rel[::-1]:  # vertical words first, then 右/左/直
        if word in "上行入":
            out = [m for m in out if m.from_square is not None and _ahead(color, m.from_square, m.to_square) > 0]
        elif word == "引":
            out = [m for m in out if m.from_square is not None and _ahead(color, m.from_square, m.to_square) < 0]
        elif word == "寄":
            out = [m for m in out if m.from_square is not None and _ahead(color, m.from_square, m.to_square) == 0]
        elif word == "直":
            out = [m for m in out if m.from_square is not None and _ahead(color, m.from_square, m.to_square) > 0
                   and square_file(m.from_square) == square_file(m.to_square)]
        elif word in "右左":
            files = [square_file(m.from_square) for m in out if m.from_square is not None]
            if not files:
                return []
            # Black's right is file 1; White's right is file 9.
            want = min(files) if (word == "右") == (color == BLACK) else max(files)
            out = [m for m in out if m.from_square is not None and square_file(m.from_square) == want]
    return out


def resolve_move(position: Position, spec: MoveSpec, previous_to: Square | None,
                 legal: list[Move] | None = None) -> Move:
    """The legal move of ``position`` that ``spec`` describes.

    Raises:
        ValueError: no legal move or more than one fits; the message says why.
    """
    to = previous_to if spec.same else spec.to
    if to is None:
        raise CoreError("move.no_previous")
    if legal is None:
        board = position.board()
        legal = [Move.from_cshogi(m) for m in board.legal_moves]
    name = KANJI_MOVE[spec.piece]
    if spec.promote and spec.piece not in PROMOTE:
        raise CoreError("move.cannot_promote", piece=name)
    if spec.origin is not None:
        pc = position.piece_at(spec.origin)
        if not pc or piece_color(pc) != position.turn or piece_type(pc) != spec.piece:
            raise CoreError("move.no_piece", piece=name, square=square_japanese(spec.origin))
        move = Move(spec.origin, to, spec.promote)
        if move not in legal:
            raise CoreError("move.illegal", move=move.usi())
        return move
    drop = Move(None, to, False, spec.piece) if spec.piece in HAND_TYPES else None
    if spec.drop:
        if drop is None or drop not in legal:
            raise CoreError("move.illegal_drop", piece=name, square=square_japanese(to))
        return drop
    cands = [m for m in legal if m.to_square == to and m.from_square is not None
             and m.promotion == spec.promote and piece_type(position.piece_at(m.from_square)) == spec.piece]
    if spec.rel:
        cands = filter_relative(position, cands, spec.rel)
    if not cands:
        if drop is not None and drop in legal and not spec.rel:
            return drop
        raise CoreError("move.no_legal_move", piece=name, square=square_japanese(to))
    if len(cands) > 1:
        raise CoreError("move.ambiguous", count=len(cands), piece=name, square=square_japanese(to))
    return cands[0]


def check_no_king_capture(position: Position, move: Move) -> None:
    """Refuse a move that takes a king (cshogi generates one when the side not to move is in check).

    Raises:
        ValueError: the move captures a king.
    """
    target = position.piece_at(move.to_square)
    if target and piece_type(target) == KING:
        raise CoreError("move.captures_king", move=move.usi(), square=square_japanese(move.to_square))


def line_error(error: type[ValueError], lineno: int, code: str, text: str | None = None,
               **params: str | int | float) -> ValueError:
    """``error`` (a reader's CoreError subclass) for ``code``, placed at line ``lineno`` with its ``text``."""
    if issubclass(error, CoreError):
        exc = error(code, **params)
        exc.at_line(lineno, text)
        return exc
    located = CoreError(code, **params)   # a plain ValueError subclass: the English text only
    located.at_line(lineno, text)
    return error(str(located))


def located(error: type[ValueError], exc: ValueError, lineno: int, text: str) -> ValueError:
    """``exc`` (a move that does not fit, say) as ``error`` at line ``lineno``: its code kept where it has one."""
    if isinstance(exc, CoreError) and exc.code:
        return line_error(error, lineno, exc.code, text, **exc.params)
    return error(f"line {lineno}: {exc}: {text!r}")


def _legal(position: Position) -> list[Move]:
    return [Move.from_cshogi(m) for m in position.board().legal_moves]


class TreeBuilder:
    """Attaches moves to a record tree keyed on ply numbers (shared by KIF and KI2)."""

    def __init__(self, start: Position, error: type[ValueError]) -> None:
        self.root = RecordNode()
        self.line: list[RecordNode] = [self.root]
        self.start = start.copy()
        self.pos = start.copy()
        self.error = error
        self._legal_cache: tuple[int, list[Move]] | None = None

    @property
    def current(self) -> RecordNode:
        return self.line[-1]

    def goto(self, ply: int, lineno: int) -> None:
        """Make the node at ply ``ply - 1`` of the current line the parent of the next move."""
        if ply < 1 or ply > len(self.line):
            raise line_error(self.error, lineno, "record.move_number", ply=ply, previous=len(self.line) - 1)
        while len(self.line) > ply:
            node = self.line.pop()
            if node.move is not None:
                self.pos.pop()
        if self.current.special is not None:
            raise line_error(self.error, lineno, "record.after_terminal", word=repr(self.current.special))

    def add_special(self, word: str) -> RecordNode:
        node = RecordNode(special=word)
        self.current.children.append(node)
        self.line.append(node)
        return node

    def add_move(self, spec: MoveSpec, lineno: int, text: str) -> RecordNode:
        parent = self.current
        prev = parent.move.to_square if parent.move is not None else None
        try:
            move = resolve_move(self.pos, spec, prev, _legal(self.pos))
            check_no_king_capture(self.pos, move)
        except ValueError as exc:
            raise located(self.error, exc, lineno, text) from None
        self.pos.push(move)
        node = RecordNode(move=move)
        parent.children.append(node)
        self.line.append(node)
        return node


def _decode_start(handicap: tuple[int, str] | None, bod: BodBuilder, error: type[ValueError]) -> Position:
    if bod.seen:
        try:
            return bod.position()
        except ValueError as exc:
            raise error(str(exc)) from None
    if handicap is None:
        return Position.start()
    lineno, name = handicap
    if name not in HANDICAPS:
        raise line_error(error, lineno, "record.handicap", name=repr(name))
    return Position.from_sfen(HANDICAPS[name])


class RecordReader:
    """What the KIF and KI2 readers share: header, start position, comments, the move tree.

    Each reader walks the lines itself and hands this the lines both formats
    write the same way; ``error`` is the reader's own ValueError subclass.
    """

    def __init__(self, error: type[ValueError]) -> None:
        self.error = error
        self.preamble: list[str] = []
        self.header: dict[str, str] = {}
        self.root_comments: list[str] = []
        self.bod = BodBuilder()
        self.handicap: tuple[int, str] | None = None
        self.tree: TreeBuilder | None = None
        self.content = False

    def lines(self, text: str) -> Iterator[tuple[int, str, str]]:
        """(line number, raw line, stripped line) of every line that is not blank."""
        for lineno, raw in enumerate(text.lstrip("\ufeff").splitlines(), start=1):
            s = raw.strip()
            if s:
                yield lineno, raw, s

    def comment_line(self, s: str) -> bool:
        """Take a ``#``, ``&`` (bookmark) or ``*`` (comment) line; True when it was one."""
        if s[0] == "#":
            if not self.content and not s.startswith("#KIF"):
                self.preamble.append(s[1:])
            return True
        self.content = True
        if s[0] == "&":
            return True
        if s[0] == "*":
            (self.tree.current.comments if self.tree is not None else self.root_comments).append(s[1:])
            return True
        return False

    def bod_line(self, lineno: int, line: str, s: str) -> bool:
        """Take a line of the board diagram before the moves; True when it was one."""
        if self.tree is not None or not is_bod_line(s):
            return False
        try:
            self.bod.feed(lineno, line)
        except ValueError as exc:
            raise self.error(str(exc)) from None
        return True

    def header_line(self, lineno: int, s: str) -> bool:
        """Take a ``キー：値`` line; True when it was one.  手合割 counts only before the moves."""
        hm = _HEADER_RE.match(s)
        if not hm:
            return False
        key, value = hm.group(1), hm.group(2).strip()
        if key == "手合割":
            if self.tree is None:
                self.handicap = (lineno, value)
        elif key not in self.header or self.tree is None:
            self.header[key] = value
        return True

    def start(self) -> Position:
        """The start position: the board diagram, else the 手合割, else the even game."""
        return _decode_start(self.handicap, self.bod, self.error)

    def move_tree(self) -> TreeBuilder:
        """The move tree, begun from the start position at the first move."""
        if self.tree is None:
            self.tree = TreeBuilder(self.start(), self.error)
            self.tree.root.comments = self.root_comments
        return self.tree

    def record(self) -> Record:
        if self.tree is None:
            return Record(start=self.start(), header=self.header,
                          root=RecordNode(comments=self.root_comments), preamble=self.preamble)
        return Record(start=self.tree.start, header=self.header, root=self.tree.root,
                      preamble=self.preamble)

"""KIF records: a writer that matches Kifu for Windows byte for byte, a tolerant reader.

The exact layout and the reader's tolerance checklist are in docs/kif.md.
:func:`to_kif` is a pure function returning text with ``\\n`` line ends; the
file writer (:func:`.records.write_record`) turns them into CRLF and picks the
encoding (``.kif`` cp932, ``.kifu`` UTF-8).  :func:`parse_kif` builds a
:class:`~.record.Record` tree, checking every move for legality; anything it
cannot read raises :class:`KifError` naming the line.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Callable, Iterator

from ..shogi.bod import BodBuilder, is_bod_line, to_bod
from ..shogi.moves import Move
from ..shogi.position import Position
from .model import Record, RecordNode
from ..shogi.types import (
    BLACK, HAND_TYPES, KANJI_MOVE, KING, PROM_KNIGHT, PROM_LANCE, PROM_ROOK, PROM_SILVER,
    PROMOTE, Square, piece_color, piece_type, square, square_file, square_japanese,
    square_rank,
)

__all__ = ["KifError", "to_kif", "parse_kif", "kif_move_text", "display_width", "pad",
           "SPECIAL_WORDS", "HANDICAPS", "MoveSpec", "parse_move_spec", "resolve_move",
           "result_line", "check_no_king_capture"]


class KifError(ValueError):
    """The text is not a KIF record this reader can accept; the message names the line."""


# Terminal words written as a move line (docs/kif.md section 6).
SPECIAL_WORDS = ("中断", "投了", "持将棋", "千日手", "詰み", "切れ負け", "反則勝ち", "反則負け",
                 "入玉勝ち", "不詰", "不戦勝", "不戦敗", "封じ手", "宣言勝ち")

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

# Header keys Kifu for Windows writes after the start position.
PLAYER_KEYS = ("先手", "後手", "下手", "上手", "先手省略名", "後手省略名")
MOVE_LIST_HEADER = "手数----指手---------消費時間--"
_TIME = "( 0:00/00:00:00)"

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
_MOVE_LINE_RE = re.compile(r"^\s*([0-9]+)(?:\s+|(?=[^\s0-9]))(.*)$")
_HEADER_RE = re.compile(r"^([^\s：:]+?)\s*[：:](.*)$")
_VARIATION_RE = re.compile(r"^変化\s*[：:]\s*([0-9]+)\s*手?")
_MOVE_COUNT_RE = re.compile(r"^手数\s*[＝=]")


def display_width(text: str) -> int:
    """Columns ``text`` takes in a fixed-width Japanese font (full-width = 2)."""
    return sum(2 if unicodedata.east_asian_width(c) in "FWA" else 1 for c in text)


def pad(text: str, width: int) -> str:
    """``text`` followed by spaces up to ``width`` display columns."""
    return text + " " * max(0, width - display_width(text))


def kif_move_text(position: Position, move: Move, previous_to: Square | None) -> str:
    """A move as KIF writes it: ``３三桂打``, ``同　角成(33)``, ``２一龍(23)``; never 不成."""
    dest = "同　" if previous_to == move.to_square else square_japanese(move.to_square)
    if move.drop is not None:
        return f"{dest}{KANJI_MOVE[move.drop]}打"
    assert move.from_square is not None
    pc = position.piece_at(move.from_square)
    if not pc:
        raise ValueError(f"no piece on the origin of {move.usi()!r} in {position.sfen()!r}")
    origin = f"({square_file(move.from_square)}{square_rank(move.from_square)})"
    return f"{dest}{KANJI_MOVE[piece_type(pc)]}{'成' if move.promotion else ''}{origin}"


# ---- writing -----------------------------------------------------------

def _start_lines(start: Position) -> list[str]:
    for name, sfen in HANDICAPS.items():
        if Position.from_sfen(sfen) == start:
            return [f"手合割：{name}"]
    return to_bod(start).rstrip("\n").split("\n")


def _comment_lines(node: RecordNode) -> list[str]:
    return ["*" + part for c in node.comments for part in c.split("\n")]


# A branch point of a written line: parent, child index, position before the child, ply.
BranchPoint = tuple[RecordNode, int, Position, int]


def _emit_line(out: list[str], parent: RecordNode, idx: int, pos: Position, ply: int,
               line_text: Callable[[Position, RecordNode, RecordNode], str]) -> list[BranchPoint]:
    """Write the line starting at ``parent.children[idx]``; return its branch points."""
    entries: list[BranchPoint] = []
    pos = pos.copy()
    while True:
        node = parent.children[idx]
        entries.append((parent, idx, pos.copy(), ply))
        plus = "+" if idx + 1 < len(parent.children) else ""
        out.append(f"{ply:>4} {pad(line_text(pos, parent, node), 12)} {_TIME}{plus}")
        out.extend(_comment_lines(node))
        if node.special is not None or node.move is None or not node.children:
            break
        pos.push(node.move)
        parent, idx, ply = node, 0, ply + 1
    return entries


def _kif_text(pos: Position, parent: RecordNode, node: RecordNode) -> str:
    if node.special is not None or node.move is None:
        return node.special or "中断"
    prev = parent.move.to_square if parent.move is not None else None
    return kif_move_text(pos, node.move, prev)


def _emit_branches(out: list[str], entries: list[BranchPoint]) -> None:
    # Deepest branch point first; each alternative is followed by its own branches
    # (the order of tsshogi's Record.forEach and of Kifu for Windows).  An explicit
    # stack instead of recursion: thousands of alternatives at one move are fine.
    stack = [reversed(entries)]
    while stack:
        for parent, idx, pos, ply in stack[-1]:
            if idx + 1 < len(parent.children):
                out += ["", f"変化：{ply}手"]
                stack.append(reversed(_emit_line(out, parent, idx + 1, pos, ply, _kif_text)))
                break
        else:
            stack.pop()


def result_line(record: Record) -> str | None:
    """The summary after the main line, e.g. ``まで3手で詰み``, or None."""
    node, ply = record.root, 0
    while node.children:
        node, ply = node.children[0], ply + 1
        if node.special is not None:
            break
    if node.special is None:
        return None
    n = ply - 1
    loser = record.start.turn if ply % 2 == 1 else 1 - record.start.turn
    winner = "後手" if loser == BLACK else "先手"
    return {
        "詰み": f"まで{n}手で詰み",
        "投了": f"まで{n}手で{winner}の勝ち",
        "中断": f"まで{n}手で中断",
        "千日手": f"まで{n}手で千日手",
        "持将棋": f"まで{n}手で持将棋",
        "切れ負け": f"まで{n}手で時間切れにより{winner}の勝ち",
        "不詰": f"まで{n}手で不詰",
    }.get(node.special)


def header_lines(record: Record) -> list[str]:
    """Preamble, header keys, start position and player lines, as KIF and KI2 write them."""
    out = ["#" + _one_line(c) for c in record.preamble]
    out += [f"{_one_line(k)}：{_one_line(v)}" for k, v in record.header.items()
            if k not in PLAYER_KEYS and k != "手合割"]
    out += _start_lines(record.start)
    players = [k for k in PLAYER_KEYS if k in record.header]
    if not any(k in players for k in ("先手", "後手", "下手", "上手")):
        players = ["先手", "後手"] + players
    out += [f"{k}：{_one_line(record.header.get(k, ''))}" for k in players]
    return out


def _one_line(text: str) -> str:
    # A header value cannot span lines: later lines would be read as something else.
    return " ".join(str(text).splitlines())


def to_kif(record: Record) -> str:
    """The record as KIF text (``\\n`` line ends), laid out as Kifu for Windows writes it.

    The start position is a ``手合割`` line when it is a standard one and a BOD
    otherwise; move lines are padded to 12 columns with the ``+`` mark on
    moves that have alternatives; 変化 blocks follow depth-first, deepest first.
    """
    out = header_lines(record)
    out.append(MOVE_LIST_HEADER)
    out.extend(_comment_lines(record.root))
    if record.root.children:
        entries = _emit_line(out, record.root, 0, record.start, 1, _kif_text)
        summary = result_line(record)
        if summary:
            out.append(summary)
        _emit_branches(out, entries)
    return "\n".join(out) + "\n"


# ---- reading -----------------------------------------------------------

class MoveSpec:
    """A move as written in KIF or KI2, before it is resolved in a position."""

    __slots__ = ("to", "same", "piece", "rel", "promote", "drop", "origin", "end")

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
            raise ValueError(f"not a square: {dest!r}")
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
            raise ValueError(f"not a square: ({m.group('origin')})")
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
                 legal: "list[Move] | None" = None) -> Move:
    """The legal move of ``position`` that ``spec`` describes.

    Raises:
        ValueError: no legal move or more than one fits; the message says why.
    """
    to = previous_to if spec.same else spec.to
    if to is None:
        raise ValueError("同 with no previous move")
    if legal is None:
        board = position.board()
        legal = [Move.from_cshogi(m) for m in board.legal_moves]
    name = KANJI_MOVE[spec.piece]
    if spec.promote and spec.piece not in PROMOTE:
        raise ValueError(f"{name} cannot promote")
    if spec.origin is not None:
        pc = position.piece_at(spec.origin)
        if not pc or piece_color(pc) != position.turn or piece_type(pc) != spec.piece:
            raise ValueError(f"no {name} of the side to move on {square_japanese(spec.origin)}")
        move = Move(spec.origin, to, spec.promote)
        if move not in legal:
            raise ValueError(f"illegal move {move.usi()}")
        return move
    drop = Move(None, to, False, spec.piece) if spec.piece in HAND_TYPES else None
    if spec.drop:
        if drop is None or drop not in legal:
            raise ValueError(f"illegal drop of {name} on {square_japanese(to)}")
        return drop
    cands = [m for m in legal if m.to_square == to and m.from_square is not None
             and m.promotion == spec.promote and piece_type(position.piece_at(m.from_square)) == spec.piece]
    if spec.rel:
        cands = filter_relative(position, cands, spec.rel)
    if not cands:
        if drop is not None and drop in legal and not spec.rel:
            return drop
        raise ValueError(f"no legal move of {name} to {square_japanese(to)}")
    if len(cands) > 1:
        raise ValueError(f"ambiguous: {len(cands)} {name} can move to {square_japanese(to)}")
    return cands[0]


def check_no_king_capture(position: Position, move: Move) -> None:
    """Refuse a move that takes a king (cshogi generates one when the side not to move is in check).

    Raises:
        ValueError: the move captures a king.
    """
    target = position.piece_at(move.to_square)
    if target and piece_type(target) == KING:
        raise ValueError(f"{move.usi()} captures the king on {square_japanese(move.to_square)}; "
                         "the side not to move is in check")


def _legal(position: Position) -> list[Move]:
    return [Move.from_cshogi(m) for m in position.board().legal_moves]


class _TreeBuilder:
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

    def goto(self, ply: int, where: str) -> None:
        """Make the node at ply ``ply - 1`` of the current line the parent of the next move."""
        if ply < 1 or ply > len(self.line):
            raise self.error(f"{where}: move number {ply} does not follow move {len(self.line) - 1}")
        while len(self.line) > ply:
            node = self.line.pop()
            if node.move is not None:
                self.pos.pop()
        if self.current.special is not None:
            raise self.error(f"{where}: a move after the terminal {self.current.special!r}")

    def add_special(self, word: str) -> RecordNode:
        node = RecordNode(special=word)
        self.current.children.append(node)
        self.line.append(node)
        return node

    def add_move(self, spec: MoveSpec, where: str, text: str) -> RecordNode:
        parent = self.current
        prev = parent.move.to_square if parent.move is not None else None
        try:
            move = resolve_move(self.pos, spec, prev, _legal(self.pos))
            check_no_king_capture(self.pos, move)
        except ValueError as exc:
            raise self.error(f"{where}: {exc}: {text!r}") from None
        self.pos.push(move)
        node = RecordNode(move=move)
        parent.children.append(node)
        self.line.append(node)
        return node


def _decode_start(handicap: tuple[int, str] | None, bod: BodBuilder) -> Position:
    if bod.seen:
        try:
            return bod.position()
        except ValueError as exc:
            raise KifError(str(exc)) from None
    if handicap is None:
        return Position.start()
    lineno, name = handicap
    if name not in HANDICAPS:
        raise KifError(f"line {lineno}: 手合割 {name!r} is not a standard position and no board diagram follows")
    return Position.from_sfen(HANDICAPS[name])


class _RecordReader:
    """What the KIF and KI2 readers share: header, start position, comments, the move tree.

    Each reader walks the lines itself and hands this the lines both formats
    write the same way; ``error`` is the reader's own ValueError subclass.
    """

    def __init__(self, error: "type[ValueError]") -> None:
        self.error = error
        self.preamble: list[str] = []
        self.header: dict[str, str] = {}
        self.root_comments: list[str] = []
        self.bod = BodBuilder()
        self.handicap: tuple[int, str] | None = None
        self.tree: _TreeBuilder | None = None
        self.content = False

    def lines(self, text: str) -> "Iterator[tuple[int, str, str]]":
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
        try:
            return _decode_start(self.handicap, self.bod)
        except KifError as exc:
            if self.error is KifError:
                raise
            raise self.error(str(exc)) from None

    def move_tree(self) -> "_TreeBuilder":
        """The move tree, begun from the start position at the first move."""
        if self.tree is None:
            self.tree = _TreeBuilder(self.start(), self.error)
            self.tree.root.comments = self.root_comments
        return self.tree

    def record(self) -> Record:
        if self.tree is None:
            return Record(start=self.start(), header=self.header,
                          root=RecordNode(comments=self.root_comments), preamble=self.preamble)
        return Record(start=self.tree.start, header=self.header, root=self.tree.root,
                      preamble=self.preamble)


def parse_kif(text: str) -> Record:
    """Read a KIF record into a :class:`Record` tree.

    Accepts everything in docs/kif.md section 9: a BOM and ``#KIF`` lines, ``：``
    or ``:``, 手合割 with a BOD (the BOD wins; unknown 手合割 names are
    accepted), hands with any separators, 王 竜 全 圭 杏 and 不成, ``同`` with
    any spacing, no or two time fields, a trailing ``+``, stray ``変化：``
    lines in the header, ``*`` lines before the move list, half-width digits
    and drops written with a fake ``(00)`` origin.

    Raises:
        KifError: with the line number and the bad text quoted; every move is
            checked for legality in its position.
    """
    if not isinstance(text, str):
        raise KifError(f"a KIF record must be text, not {type(text).__name__}")
    reader = _RecordReader(KifError)
    for lineno, raw, s in reader.lines(text):
        line = raw.rstrip()
        where = f"line {lineno}"
        if reader.comment_line(s):
            continue
        m = _MOVE_LINE_RE.match(line)
        if m:
            _read_move_line(reader.move_tree(), int(m.group(1)), m.group(2), where, raw)
            continue
        if reader.bod_line(lineno, line, s):
            continue
        if (s.startswith("手数") and "指手" in s) or _MOVE_COUNT_RE.match(s):
            continue  # the move-list header, or a BOD's 手数＝N … まで trailer
        if _VARIATION_RE.match(s):
            continue  # keyed on the ply numbers of the move lines instead
        if s.startswith("まで") or s.startswith("　まで"):
            continue  # the summary line
        if reader.header_line(lineno, s):
            continue
        raise KifError(f"{where}: not a KIF line: {raw!r}")
    return reader.record()


def _read_move_line(tree: _TreeBuilder, ply: int, body: str, where: str, raw: str) -> None:
    body = body.strip()
    for word in SPECIAL_WORDS:
        if body.startswith(word):
            tree.goto(ply, where)
            tree.add_special(word)
            return
    try:
        spec = parse_move_spec(body)
    except ValueError as exc:
        raise KifError(f"{where}: {exc}: {raw!r}") from None
    if spec is None:
        raise KifError(f"{where}: not a move: {raw!r}")
    rest = body[spec.end:].strip()
    if rest and rest[0] not in "(+（":
        raise KifError(f"{where}: unexpected text {rest!r} after the move: {raw!r}")
    tree.goto(ply, where)
    tree.add_move(spec, where, raw.strip())

"""KI2 records: moves without origins, disambiguated by relative words.

Header and start position are written as in KIF (docs/kif.md); moves follow
as ``▲３三桂    △３一玉    ▲２二銀``, six to a line, each padded to 12
columns.  Unlike KIF, KI2 writes 不成, and where several pieces of a kind can
reach the square it adds the relative words of the 日本将棋連盟 notation:
上 引 寄 (vertical) first, then 右 左 直, then both; 打 only where a piece
on the board could also move there.  Terminal moves are not written; the
main line ends with a summary such as ``まで3手で詰み``, which the reader
turns back into a terminal node (and a line whose last position is
checkmate gets a ``詰み`` terminal).
"""

from __future__ import annotations

import re

from .kif import BranchPoint, header_lines, pad, result_line
from ..errors import CoreError
from .reader import RecordReader, TreeBuilder, filter_relative, line_error, located, parse_move_spec
from ..shogi.moves import Move
from ..shogi.position import Position
from .model import Record, RecordNode
from ..shogi.types import (
    BLACK, KANJI_MOVE, PROM_BISHOP, PROM_ROOK, PROMOTE, Square, piece_type, relative_rank,
    square_japanese,
)

__all__ = ["Ki2Error", "to_ki2", "parse_ki2", "ki2_move_text"]


class Ki2Error(CoreError):
    """The text is not a KI2 record this reader can accept; the message names the line."""


_MARKS = {"▲": BLACK, "☗": BLACK, "△": 1, "☖": 1, "▽": 1}
_RESULT_RE = re.compile(r"^まで\s*([0-9]+)\s*手で(.*)$")
_VARIATION_RE = re.compile(r"^変化\s*[：:]\s*([0-9]+)\s*手")
_HEADER_RE = re.compile(r"^([^\s：:]+?)\s*[：:](.*)$")
_REL_OPTIONS = ("上", "引", "寄", "直", "右", "左", "右上", "右引", "右寄", "左上", "左引", "左寄")


def ki2_move_text(position: Position, move: Move, previous_to: Square | None,
                  legal: list[Move] | None = None, marks: bool = True) -> str:
    """A move in KI2 notation, e.g. ``▲５八金右``, ``△同　歩``, ``▲２二角不成``, ``▲５五角打``."""
    if legal is None:
        legal = [Move.from_cshogi(m) for m in position.board().legal_moves]
    color = position.turn
    mark = ("▲" if color == BLACK else "△") if marks else ""
    to = move.to_square
    if move.drop is not None:
        name = KANJI_MOVE[move.drop]
        dest = ("同　" if previous_to == to else square_japanese(to))
        board_too = any(m.to_square == to and m.from_square is not None
                        and piece_type(position.piece_at(m.from_square)) == move.drop for m in legal)
        return f"{mark}{dest}{name}{'打' if board_too else ''}"
    assert move.from_square is not None
    pt = piece_type(position.piece_at(move.from_square))
    name = KANJI_MOVE[pt]
    dest = (("同　" if len(name) == 1 else "同") if previous_to == to else square_japanese(to))
    origins = sorted({m.from_square for m in legal if m.to_square == to and m.from_square is not None
                      and piece_type(position.piece_at(m.from_square)) == pt})
    rel = ""
    if len(origins) > 1:
        cands = [Move(frm, to, move.promotion) for frm in origins]
        mover = Move(move.from_square, to, move.promotion)
        for option in _REL_OPTIONS:
            if option == "直" and pt in (PROM_BISHOP, PROM_ROOK):
                continue  # 龍 and 馬 use 右/左 instead of 直
            if filter_relative(position, cands, option) == [mover]:
                rel = option
                break
    promo = ""
    if move.promotion:
        promo = "成"
    elif pt in PROMOTE and (relative_rank(color, move.from_square) <= 3 or relative_rank(color, to) <= 3):
        promo = "不成"
    return f"{mark}{dest}{name}{rel}{promo}"


def _ki2_line(out: list[str], parent: RecordNode, idx: int, pos: Position) -> list[BranchPoint]:
    """Write the line from ``parent.children[idx]``; return its branch points (ply = depth in the line)."""
    entries: list[BranchPoint] = []
    pos = pos.copy()
    row: list[str] = []

    def flush() -> None:
        if row:
            out.append("".join(pad(t, 12) for t in row[:-1]) + row[-1])
            row.clear()

    depth = 0
    while True:
        node = parent.children[idx]
        entries.append((parent, idx, pos.copy(), depth))
        if node.special is not None or node.move is None:
            break
        prev = parent.move.to_square if parent.move is not None else None
        row.append(ki2_move_text(pos, node.move, prev))
        if node.comments or len(row) == 6:
            flush()
            out.extend("*" + part for c in node.comments for part in c.split("\n"))
        if not node.children:
            break
        pos.push(node.move)
        parent, idx, depth = node, 0, depth + 1
    flush()
    return entries


def to_ki2(record: Record) -> str:
    """The record as KI2 text (``\\n`` line ends), variations after the main line."""
    out = header_lines(record)
    out.extend("*" + part for c in record.root.comments for part in c.split("\n"))
    if not record.root.children:
        return "\n".join(out) + "\n"
    entries = _ki2_line(out, record.root, 0, record.start)
    summary = result_line(record)
    if summary:
        out.append(summary)

    # Deepest branch point first, each alternative followed by its own branches;
    # an explicit stack instead of recursion, so any number of alternatives is fine.
    stack = [(reversed(entries), 1)]
    while stack:
        pending, base = stack[-1]
        for parent, idx, pos, depth in pending:
            if idx + 1 < len(parent.children):
                ply = base + depth
                out.extend(["", f"変化：{ply}手"])
                stack.append((reversed(_ki2_line(out, parent, idx + 1, pos)), ply))
                break
        else:
            stack.pop()
    return "\n".join(out) + "\n"


# ---- reading -----------------------------------------------------------

_RESULTS = (("詰み", "詰み"), ("中断", "中断"), ("千日手", "千日手"), ("持将棋", "持将棋"),
            ("不詰", "不詰"), ("時間切れ", "切れ負け"), ("反則", "反則負け"), ("勝ち", "投了"))


def _is_mate(pos: Position) -> bool:
    board = pos.board()
    return bool(board.is_check()) and not any(True for _ in board.legal_moves)


def parse_ki2(text: str) -> Record:
    """Read a KI2 record into a :class:`Record` tree.

    The header and start position are read as in KIF; moves may carry
    ▲/△ (or ☗/☖) marks, half-width digits, relative words, 不成 and 打.

    Raises:
        Ki2Error: with the line number and the bad text quoted; every move is
            resolved to exactly one legal move.
    """
    if not isinstance(text, str):
        raise Ki2Error(f"a KI2 record must be text, not {type(text).__name__}")
    reader = RecordReader(Ki2Error)

    def close_line() -> None:
        tree = reader.tree
        assert tree is not None
        cur = tree.current
        if cur.special is None and not cur.children and cur.move is not None:
            try:
                if _is_mate(tree.pos):
                    tree.add_special("詰み")
            except ValueError:
                pass

    for lineno, raw, s in reader.lines(text):
        if reader.comment_line(s):
            continue
        if s[0] in _MARKS:
            _read_moves(reader.move_tree(), s, lineno, raw)
            continue
        if reader.bod_line(lineno, raw.rstrip(), s):
            continue
        tree = reader.tree
        vm = _VARIATION_RE.match(s)
        if vm:
            if tree is not None:
                close_line()
                tree.goto(int(vm.group(1)), lineno)
            continue
        rm = _RESULT_RE.match(s)
        if rm:
            if tree is not None and len(tree.line) - 1 == int(rm.group(1)) and tree.current.special is None:
                word = next((w for key, w in _RESULTS if key in rm.group(2)), None)
                if word is not None:
                    tree.add_special(word)
            continue
        if s.startswith("手数") and "指手" in s:
            continue
        if reader.header_line(lineno, s):
            continue
        raise line_error(Ki2Error, lineno, "record.not_a_line", raw, format="KI2")
    if reader.tree is not None:
        close_line()
    return reader.record()


def _read_moves(tree: TreeBuilder, s: str, lineno: int, raw: str) -> None:
    i = 0
    while i < len(s):
        ch = s[i]
        if ch in " 　\t":
            i += 1
            continue
        color = _MARKS.get(ch)
        if color is None:
            raise line_error(Ki2Error, lineno, "record.expected_mark", raw, rest=repr(s[i:]))
        if tree.current.special is not None:
            raise line_error(Ki2Error, lineno, "record.after_terminal", raw, word=repr(tree.current.special))
        if color != tree.pos.turn:
            raise line_error(Ki2Error, lineno, "record.out_of_turn", raw, mark=ch, rest=repr(s[i:]))
        try:
            spec = parse_move_spec(s, i + 1)
        except ValueError as exc:
            raise located(Ki2Error, exc, lineno, raw) from None
        if spec is None:
            raise line_error(Ki2Error, lineno, "record.not_a_move_at", raw, rest=repr(s[i:]))
        tree.add_move(spec, lineno, s[i:spec.end])
        i = spec.end

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
from collections.abc import Callable

from ..shogi.diagram import to_bod
from ..shogi.moves import Move
from ..shogi.position import Position
from .model import Record, RecordNode
from ..errors import CoreError
from .reader import HANDICAPS, RecordReader, TreeBuilder, line_error, located, one_line, parse_move_spec
from ..shogi.types import (
    BLACK, KANJI_MOVE, Square, piece_type, square_file, square_japanese, square_rank,
)

__all__ = ["KifError", "to_kif", "parse_kif", "kif_move_text", "display_width", "pad",
           "SPECIAL_WORDS", "result_line"]


class KifError(CoreError):
    """The text is not a KIF record this reader can accept; the message names the line."""


# Terminal words written as a move line (docs/kif.md section 6).
SPECIAL_WORDS = ("中断", "投了", "持将棋", "千日手", "詰み", "切れ負け", "反則勝ち", "反則負け",
                 "入玉勝ち", "不詰", "不戦勝", "不戦敗", "封じ手", "宣言勝ち")

# Header keys Kifu for Windows writes after the start position.
PLAYER_KEYS = ("先手", "後手", "下手", "上手", "先手省略名", "後手省略名")
MOVE_LIST_HEADER = "手数----指手---------消費時間--"
_TIME = "( 0:00/00:00:00)"

_MOVE_LINE_RE = re.compile(r"^\s*([0-9]+)(?:\s+|(?=[^\s0-9]))(.*)$")
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
    out = ["#" + one_line(c) for c in record.preamble]
    out += [f"{one_line(k)}：{one_line(v)}" for k, v in record.header.items()
            if k not in PLAYER_KEYS and k != "手合割"]
    out += _start_lines(record.start)
    players = [k for k in PLAYER_KEYS if k in record.header]
    if not any(k in players for k in ("先手", "後手", "下手", "上手")):
        players = ["先手", "後手"] + players
    out += [f"{k}：{one_line(record.header.get(k, ''))}" for k in players]
    return out


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
    reader = RecordReader(KifError)
    for lineno, raw, s in reader.lines(text):
        line = raw.rstrip()
        if reader.comment_line(s):
            continue
        m = _MOVE_LINE_RE.match(line)
        if m:
            _read_move_line(reader.move_tree(), int(m.group(1)), m.group(2), lineno, raw)
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
        raise line_error(KifError, lineno, "record.not_a_line", raw, format="KIF")
    return reader.record()


def _read_move_line(tree: TreeBuilder, ply: int, body: str, lineno: int, raw: str) -> None:
    body = body.strip()
    for word in SPECIAL_WORDS:
        if body.startswith(word):
            tree.goto(ply, lineno)
            tree.add_special(word)
            return
    try:
        spec = parse_move_spec(body)
    except ValueError as exc:
        raise located(KifError, exc, lineno, raw) from None
    if spec is None:
        raise line_error(KifError, lineno, "record.not_a_move", raw)
    rest = body[spec.end:].strip()
    if rest and rest[0] not in "(+（":
        raise line_error(KifError, lineno, "record.text_after_move", raw, rest=repr(rest))
    tree.goto(ply, lineno)
    tree.add_move(spec, lineno, raw.strip())

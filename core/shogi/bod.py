"""BOD, the KIF board diagram: read tolerantly, write exactly as Kifu for Windows.

Hand lines end in a full-width space (U+3000), as Kifu for Windows writes them.

The layout (docs/kif.md section 3)::

    後手の持駒：飛　角二　金四　銀三　桂三　香四　歩十八\u3000
      ９ ８ ７ ６ ５ ４ ３ ２ １
    +---------------------------+
    | ・ ・ ・ ・ ・ ・ ・v玉 ・|一
    ... (nine rank rows)
    +---------------------------+
    先手の持駒：銀　桂\u3000
    先手番

The KIF and KI2 readers use :func:`BodBuilder` line by line, so that a
diagram may be mixed with header lines; :func:`parse_bod` reads a diagram on
its own (clipboard, blog posts), with an optional ``手数＝N ... まで`` line.
The writer is :func:`.diagram.to_bod`, which :class:`~.position.Position`
uses without importing this reader.
"""

from __future__ import annotations

import re

from .diagram import HAND_ORDER, KANJI_NUMERALS
from .position import BodError, Position
from .types import (
    BLACK, HAND_INDEX, HAND_MAX, HAND_TYPES, KANJI_BOARD, KING, PROM_ROOK, WHITE, Color, Piece, make_piece, square,
)

__all__ = ["BodError", "BodBuilder", "parse_bod", "parse_hand", "is_bod_line"]

# Board letters, with the accepted alternatives 王 and 竜.
_BOARD_PIECES: dict[str, int] = {v: k for k, v in KANJI_BOARD.items()}
_BOARD_PIECES["王"] = KING
_BOARD_PIECES["竜"] = PROM_ROOK

_HAND_PIECES = {KANJI_BOARD[pt]: pt for pt in HAND_ORDER}

_NUM_RE = re.compile(r"十[一二三四五六七八九]?|[一二三四五六七八九]|[0-9０-９]+")
_SEP = " 　\t、,"

_HAND_KEYS = {"先手の持駒": BLACK, "下手の持駒": BLACK, "後手の持駒": WHITE, "上手の持駒": WHITE}
_TURN_LINES = {"先手番": BLACK, "下手番": BLACK, "後手番": WHITE, "上手番": WHITE}
_HAND_LINE_RE = re.compile(r"^(先手の持駒|下手の持駒|後手の持駒|上手の持駒)\s*[：:](.*)$")
_MOVE_COUNT_RE = re.compile(r"^手数\s*[＝=]")
_HEADER_RE = re.compile(r"^[^\s：:|+*#]+[：:]")


def _parse_number(text: str) -> int:
    if text[0] == "十":
        return 10 + (KANJI_NUMERALS.index(text[1]) + 1 if len(text) > 1 else 0)
    if text[0] in KANJI_NUMERALS:
        return KANJI_NUMERALS.index(text[0]) + 1
    return int(text.translate(str.maketrans("０１２３４５６７８９", "0123456789")))


def parse_hand(text: str) -> tuple[int, int, int, int, int, int, int]:
    """Parse a hand value: any order, full-width, half-width or no separators, ``なし``.

    Raises:
        ValueError: the text is not a hand; the message quotes the bad part.
    """
    counts = [0] * 7
    s = text.strip(_SEP)
    if s in ("", "なし"):
        return (0, 0, 0, 0, 0, 0, 0)
    i = 0
    while i < len(s):
        ch = s[i]
        if ch in _SEP:
            i += 1
            continue
        pt = _HAND_PIECES.get(ch)
        if pt is None:
            raise ValueError(f"not a piece in hand: {s[i:]!r} in {text!r}")
        i += 1
        m = _NUM_RE.match(s, i)
        n = 1
        if m:
            n = _parse_number(m.group())
            i = m.end()
        if not 1 <= n <= 18:
            raise ValueError(f"bad count {m.group() if m else n!r} for {ch} in hand {text!r}")
        counts[HAND_INDEX[pt]] += n
    return (counts[0], counts[1], counts[2], counts[3], counts[4], counts[5], counts[6])


def is_bod_line(line: str) -> bool:
    """True when ``line`` belongs to a BOD diagram (hand, file header, border, rank row, side)."""
    s = line.strip()
    return bool(s) and (s[0] == "|" or s.startswith("+--") or s.startswith("９ ８")
                        or s.replace(" ", "").startswith("９８７６５４３２１")
                        or bool(_HAND_LINE_RE.match(s)) or s in _TURN_LINES)


class BodBuilder:
    """Collects the lines of one BOD diagram and builds the :class:`Position`.

    Feed every line for which :func:`is_bod_line` is true to :meth:`feed`
    with its line number, then call :meth:`position`.
    """

    def __init__(self) -> None:
        self._hands: list[tuple[int, ...] | None] = [None, None]
        self._hand_lines = [0, 0]
        self._rows: list[tuple[int, str]] = []
        self._borders = 0
        self._turn: Color | None = None
        self.seen = False
        self.first_line: int | None = None

    def feed(self, lineno: int, line: str) -> None:
        """Take one diagram line.

        Raises:
            BodError: the line is malformed or out of place.
        """
        s = line.strip()
        self.seen = True
        if self.first_line is None:
            self.first_line = lineno
        m = _HAND_LINE_RE.match(s)
        if m:
            color = _HAND_KEYS[m.group(1)]
            try:
                self._hands[color] = parse_hand(m.group(2))
                self._hand_lines[color] = lineno
            except ValueError as exc:
                raise BodError(f"line {lineno}: {exc}") from None
        elif s in _TURN_LINES:
            self._turn = _TURN_LINES[s]
        elif s.startswith("+--"):
            if self._borders >= 2:
                raise BodError(f"line {lineno}: a third board border: {line!r}")
            if self._borders == 1 and len(self._rows) != 9:
                raise BodError(f"line {lineno}: the board has {len(self._rows)} rank rows, expected 9: {line!r}")
            self._borders += 1
        elif s.startswith("|"):
            if self._borders != 1:
                raise BodError(f"line {lineno}: rank row outside the board borders: {line!r}")
            if len(self._rows) >= 9:
                raise BodError(f"line {lineno}: more than 9 rank rows: {line!r}")
            self._rows.append((lineno, line))
        # the file-number line carries no information

    def position(self) -> Position:
        """The position described by the lines fed so far.

        Raises:
            BodError: the diagram is incomplete or a row is malformed.
        """
        where = f"line {self.first_line}" if self.first_line else "diagram"
        if self._borders != 2 or len(self._rows) != 9:
            raise BodError(f"{where}: incomplete board diagram: {len(self._rows)} of 9 rank rows "
                           f"and {self._borders} of 2 borders")
        pos = Position.empty()
        for rank, (lineno, line) in enumerate(self._rows, start=1):
            for file, piece in zip(range(9, 0, -1), _parse_row(lineno, line, rank)):
                pos.set_piece(square(file, rank), piece)
        for color in (BLACK, WHITE):
            hand = self._hands[color]
            if hand is not None:
                for i, n in enumerate(hand):
                    if n > HAND_MAX[i]:
                        side = "先手" if color == BLACK else "後手"
                        raise BodError(f"line {self._hand_lines[color]}: {side} holds {n} "
                                       f"{KANJI_BOARD[HAND_TYPES[i]]}, at most {HAND_MAX[i]} exist")
                try:
                    pos.set_hand(color, hand)
                except ValueError as exc:
                    raise BodError(f"{where}: {exc}") from None
        pos.turn = BLACK if self._turn is None else self._turn
        return pos


_RANK_MARKS = {c: i + 1 for i, c in enumerate(KANJI_NUMERALS)}


def _parse_row(lineno: int, line: str, rank: int) -> list[Piece]:
    s = line.strip()
    end = s.find("|", 1)
    if end < 0:
        raise BodError(f"line {lineno}: rank row without a closing '|': {line!r}")
    body, mark = s[1:end], s[end + 1:].strip()
    if mark and _RANK_MARKS.get(mark[0]) != rank:
        raise BodError(f"line {lineno}: rank row {rank} is marked {mark!r}: {line!r}")
    # Cells are two characters: a colour mark (' ', 'v', '^') and a piece or '・'.
    body = body.replace("　", " ")
    if len(body) != 18:
        raise BodError(f"line {lineno}: a rank row needs 9 cells of 2 characters, got {len(body)} characters: {line!r}")
    out: list[Piece] = []
    for i in range(9):
        mark_ch, ch = body[2 * i], body[2 * i + 1]
        if ch in "・ ":
            if mark_ch not in " ・":
                raise BodError(f"line {lineno}: bad cell {body[2 * i:2 * i + 2]!r}: {line!r}")
            out.append(0)
            continue
        pt = _BOARD_PIECES.get(ch)
        if pt is None or mark_ch not in " v^ｖ":
            raise BodError(f"line {lineno}: bad cell {body[2 * i:2 * i + 2]!r}: {line!r}")
        out.append(make_piece(WHITE if mark_ch in "vｖ" else BLACK, pt))
    return out


def parse_bod(text: str) -> Position:
    """Parse a stand-alone BOD diagram.

    Blank lines, ``#`` comments, ``key：value`` header lines and a trailing
    ``手数＝N  <move>  まで`` line are ignored.  A missing side-to-move line
    means 先手 to move.

    Raises:
        BodError: with the line number and the bad text quoted.
    """
    if not isinstance(text, str):
        raise BodError(f"a BOD diagram must be text, not {type(text).__name__}")
    builder = BodBuilder()
    for lineno, line in enumerate(text.lstrip("\ufeff").splitlines(), start=1):
        s = line.strip()
        if not s or s.startswith("#") or _MOVE_COUNT_RE.match(s):
            continue
        if is_bod_line(s):
            builder.feed(lineno, line)
        elif _HEADER_RE.match(s):
            continue  # a header line such as 先手：name
        elif s.startswith("*") or s.startswith("まで"):
            continue
        else:
            raise BodError(f"line {lineno}: not part of a board diagram: {line!r}")
    if not builder.seen:
        raise BodError("no board diagram found in the text")
    return builder.position()

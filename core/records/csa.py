"""CSA V2.2 records (main line only: CSA has no branches).

Written as tsshogi writes them: ``V2.2``, player names, ``P1``..``P9`` rows
(or ``PI`` for the even-game start), hands listed piece by piece
(``P+00KE00GI``), the side to move, then moves such as ``+0033KE`` each
followed by ``T0``, and a terminal such as ``%TSUMI``.  Comments are ``'*``
lines; header keys without a CSA field are kept as ``'key：value`` comments.
The reader also accepts ``PI`` with removed pieces, ``P+``/``P-`` placements,
``00AL`` (every remaining piece to that hand), several statements per line
separated by commas and the old ``'``-only comments.
"""

from __future__ import annotations

import re

from .reader import check_no_king_capture, one_line
from ..shogi.moves import Move
from ..shogi.position import STARTING_SFEN, Position
from .model import Record, RecordNode
from ..shogi.types import (
    BISHOP, BLACK, GOLD, HAND_INDEX, HAND_MAX, HAND_TYPES, KING, KNIGHT, LANCE, PAWN,
    PROM_BISHOP, PROM_KNIGHT, PROM_LANCE, PROM_PAWN, PROM_ROOK, PROM_SILVER, ROOK, SILVER,
    UNPROMOTE, WHITE, make_piece, piece_color, piece_type, square, square_file, square_rank,
)

__all__ = ["CsaError", "to_csa", "parse_csa"]


class CsaError(ValueError):
    """The text is not a CSA record this reader can accept; the message names the line."""


CSA_PIECES = {PAWN: "FU", LANCE: "KY", KNIGHT: "KE", SILVER: "GI", GOLD: "KI", BISHOP: "KA",
              ROOK: "HI", KING: "OU", PROM_PAWN: "TO", PROM_LANCE: "NY", PROM_KNIGHT: "NK",
              PROM_SILVER: "NG", PROM_BISHOP: "UM", PROM_ROOK: "RY"}
_CSA_TYPES = {v: k for k, v in CSA_PIECES.items()}

# Terminal words: record specials <-> CSA. 反則勝ち/反則負け depend on who moves.
_SPECIAL_TO_CSA = {"詰み": "%TSUMI", "投了": "%TORYO", "中断": "%CHUDAN", "千日手": "%SENNICHITE",
                   "持将棋": "%JISHOGI", "切れ負け": "%TIME_UP", "入玉勝ち": "%KACHI",
                   "宣言勝ち": "%KACHI", "不詰": "%FUZUMI", "反則負け": "%ILLEGAL_MOVE"}
_CSA_TO_SPECIAL = {"%TSUMI": "詰み", "%TORYO": "投了", "%CHUDAN": "中断", "%SENNICHITE": "千日手",
                   "%JISHOGI": "持将棋", "%TIME_UP": "切れ負け", "%KACHI": "入玉勝ち",
                   "%FUZUMI": "不詰", "%ILLEGAL_MOVE": "反則負け", "%HIKIWAKE": "持将棋",
                   "%MATTA": "中断", "%ERROR": "中断"}

# Header keys with a CSA field.
_HEADER_TO_CSA = {"棋戦": "$EVENT", "場所": "$SITE", "開始日時": "$START_TIME",
                  "終了日時": "$END_TIME", "持ち時間": "$TIME_LIMIT", "戦型": "$OPENING"}
_CSA_TO_HEADER = {v[1:]: k for k, v in _HEADER_TO_CSA.items()}

_MOVE_RE = re.compile(r"^([+-])([0-9])([0-9])([1-9])([1-9])([A-Z]{2})$")
_HAND_ORDER = (PAWN, LANCE, KNIGHT, SILVER, GOLD, BISHOP, ROOK)  # as tsshogi lists them


def _csa_row(pos: Position, rank: int) -> str:
    cells = []
    for file in range(9, 0, -1):
        pc = pos.piece_at(square(file, rank))
        cells.append(" * " if not pc else ("+" if piece_color(pc) == BLACK else "-") + CSA_PIECES[piece_type(pc)])
    return f"P{rank}" + "".join(cells)


def to_csa(record: Record) -> str:
    """The main line of ``record`` as CSA V2.2 text (``\\n`` line ends)."""
    out = ["V2.2"]
    h = {one_line(k): one_line(v) for k, v in record.header.items()}
    out.append("N+" + h.get("先手", h.get("下手", "")))
    out.append("N-" + h.get("後手", h.get("上手", "")))
    for key, value in h.items():
        if key in _HEADER_TO_CSA:
            out.append(f"{_HEADER_TO_CSA[key]}:{value}")
        elif re.fullmatch(r"[A-Z_]+", key):
            out.append(f"${key}:{value}")
        elif key not in ("先手", "後手", "下手", "上手", "手合割"):
            out.append(f"'{key}：{value}")
    start = record.start
    if start == Position.from_sfen(STARTING_SFEN):
        out.append("PI")
    else:
        out += [_csa_row(start, r) for r in range(1, 10)]
        for color, sign in ((BLACK, "+"), (WHITE, "-")):
            hand = start.hand(color)
            items = "".join("00" + CSA_PIECES[pt] for pt in _HAND_ORDER for _ in range(hand[HAND_INDEX[pt]]))
            if items:
                out.append(f"P{sign}{items}")
    out.append("+" if start.turn == BLACK else "-")
    out += ["'*" + part for c in record.root.comments for part in c.split("\n")]
    pos = start.copy()
    node = record.root
    while node.children:
        node = node.children[0]
        sign = "+" if pos.turn == BLACK else "-"
        if node.special is not None or node.move is None:
            word = node.special or "中断"
            if word == "反則勝ち":
                out.append("%-ILLEGAL_ACTION" if pos.turn == BLACK else "%+ILLEGAL_ACTION")
            elif word in _SPECIAL_TO_CSA:
                out.append(_SPECIAL_TO_CSA[word])
            break
        mv = node.move
        if mv.drop is not None:
            out.append(f"{sign}00{square_file(mv.to_square)}{square_rank(mv.to_square)}{CSA_PIECES[mv.drop]}")
        else:
            assert mv.from_square is not None
            pt = piece_type(pos.piece_at(mv.from_square))
            if mv.promotion:
                pt = {PAWN: PROM_PAWN, LANCE: PROM_LANCE, KNIGHT: PROM_KNIGHT, SILVER: PROM_SILVER,
                      BISHOP: PROM_BISHOP, ROOK: PROM_ROOK}[pt]
            out.append(f"{sign}{square_file(mv.from_square)}{square_rank(mv.from_square)}"
                       f"{square_file(mv.to_square)}{square_rank(mv.to_square)}{CSA_PIECES[pt]}")
        out.append("T0")
        out += ["'*" + part for c in node.comments for part in c.split("\n")]
        pos.push(mv)
    return "\n".join(out) + "\n"


class _CsaReader:
    def __init__(self) -> None:
        self.header: dict[str, str] = {}
        self.pos = Position.empty()
        self.board_seen = False
        self.al: list[int] = []
        self.started = False  # the side-to-move line has been read
        self.root = RecordNode()
        self.current = self.root
        self.play: Position | None = None
        self.start: Position | None = None
        self.legal: list[Move] | None = None

    def err(self, where: str, msg: str, text: str) -> CsaError:
        return CsaError(f"{where}: {msg}: {text!r}")

    def statement(self, st: str, where: str) -> bool:
        """Handle one statement; False at the end of the record (``/``)."""
        if st == "/":
            return False
        if not st:
            return True
        if st[0] == "V" or st[0] == "T":
            return True
        if st.startswith("N+") or st.startswith("N-"):
            if not self.started:
                self.header["先手" if st[1] == "+" else "後手"] = st[2:]
            return True
        if st[0] == "$":
            key, _, value = st[1:].partition(":")
            self.header[_CSA_TO_HEADER.get(key, key)] = value
            return True
        if st[0] == "P":
            if self.started:
                raise self.err(where, "a position line after the moves began", st)
            self.position_line(st, where)
            return True
        if st in ("+", "-") and not self.started:
            self.begin(BLACK if st == "+" else WHITE, where)
            return True
        if st[0] == "%":
            if not self.started:
                raise self.err(where, "a terminal before the side to move", st)
            word = _CSA_TO_SPECIAL.get(st)
            if st in ("%+ILLEGAL_ACTION", "%-ILLEGAL_ACTION"):
                assert self.play is not None
                offender = BLACK if st[1] == "+" else WHITE
                word = "反則負け" if offender == self.play.turn else "反則勝ち"
            if word is None:
                raise self.err(where, "unknown terminal", st)
            if self.current.special is None:
                node = RecordNode(special=word)
                self.current.children.append(node)
                self.current = node
            return True
        m = _MOVE_RE.match(st)
        if m:
            if not self.started:
                raise self.err(where, "a move before the side to move", st)
            self.move(m, where, st)
            return True
        raise self.err(where, "not a CSA statement", st)

    def position_line(self, st: str, where: str) -> None:
        if st.startswith("PI"):
            self.pos = Position.from_sfen(STARTING_SFEN)
            rest = st[2:]
            if len(rest) % 4:
                raise self.err(where, "PI takes 4-character removals such as 82HI", st)
            for i in range(0, len(rest), 4):
                item = rest[i:i + 4]
                if not (item[0] in "123456789" and item[1] in "123456789" and item[2:] in _CSA_TYPES):
                    raise self.err(where, f"bad removal {item!r}", st)
                sq = square(int(item[0]), int(item[1]))
                if CSA_PIECES.get(piece_type(self.pos.piece_at(sq))) != item[2:]:
                    raise self.err(where, f"no {item[2:]} on {item[:2]} to remove", st)
                self.pos.set_piece(sq, 0)
            self.board_seen = True
        elif len(st) >= 2 and st[1] in "123456789":
            rank = int(st[1])
            body = st[2:].ljust(27)
            if len(body) != 27:
                raise self.err(where, "a board row has 9 cells of 3 characters", st)
            for i, file in enumerate(range(9, 0, -1)):
                cell = body[3 * i:3 * i + 3]
                if cell.strip() in ("*", ""):
                    self.pos.set_piece(square(file, rank), 0)
                elif cell[0] in "+-" and cell[1:] in _CSA_TYPES:
                    self.pos.set_piece(square(file, rank),
                                       make_piece(BLACK if cell[0] == "+" else WHITE, _CSA_TYPES[cell[1:]]))
                else:
                    raise self.err(where, f"bad cell {cell!r}", st)
            self.board_seen = True
        elif st[:2] in ("P+", "P-"):
            color = BLACK if st[1] == "+" else WHITE
            rest = st[2:]
            if len(rest) % 4 or not rest:
                raise self.err(where, "pieces are 4 characters each, such as 00KE or 63FU", st)
            for i in range(0, len(rest), 4):
                item = rest[i:i + 4]
                if item == "00AL":
                    self.al.append(color)
                    continue
                if not (item[0] in "0123456789" and item[1] in "0123456789" and item[2:] in _CSA_TYPES):
                    raise self.err(where, f"bad piece {item!r}", st)
                pt = _CSA_TYPES[item[2:]]
                if item[:2] == "00":
                    if pt not in HAND_TYPES:
                        raise self.err(where, f"{item[2:]} cannot be in hand", st)
                    hand = list(self.pos.hand(color))
                    hand[HAND_INDEX[pt]] += 1
                    try:
                        self.pos.set_hand(color, hand)
                    except ValueError as exc:
                        raise self.err(where, str(exc), st) from None
                elif item[0] != "0" and item[1] != "0":
                    self.pos.set_piece(square(int(item[0]), int(item[1])), make_piece(color, pt))
                else:
                    raise self.err(where, f"bad square in {item!r}", st)
        else:
            raise self.err(where, "not a position line", st)

    def begin(self, turn: int, where: str) -> None:
        for color in self.al:
            counts = [0] * 7
            for _, pc in self.pos.pieces():
                pt = piece_type(pc)
                base = UNPROMOTE.get(pt, pt)
                if base != KING:
                    counts[HAND_INDEX[base]] += 1
            for c in (BLACK, WHITE):
                for i, n in enumerate(self.pos.hand(c)):
                    counts[i] += n
            hand = list(self.pos.hand(color))
            for i in range(7):
                hand[i] += max(0, HAND_MAX[i] - counts[i])
            self.pos.set_hand(color, hand)
        self.pos.turn = turn
        self.started = True
        self.start = self.pos.copy()
        self.play = self.pos.copy()

    def move(self, m: re.Match[str], where: str, st: str) -> None:
        assert self.play is not None
        if self.current.special is not None:
            raise self.err(where, f"a move after the terminal {self.current.special!r}", st)
        color = BLACK if m.group(1) == "+" else WHITE
        if color != self.play.turn:
            raise self.err(where, "a move out of turn", st)
        ff, fr, tf, tr, name = int(m.group(2)), int(m.group(3)), int(m.group(4)), int(m.group(5)), m.group(6)
        pt = _CSA_TYPES.get(name)
        if pt is None:
            raise self.err(where, f"unknown piece {name!r}", st)
        to = square(tf, tr)
        if ff == 0 and fr == 0:
            mv = Move(None, to, False, pt)
        elif ff == 0 or fr == 0:
            raise self.err(where, "bad origin square", st)
        else:
            frm = square(ff, fr)
            pc = self.play.piece_at(frm)
            if not pc:
                raise self.err(where, "no piece on the origin square", st)
            before = piece_type(pc)
            if before == pt:
                mv = Move(frm, to, False)
            elif UNPROMOTE.get(pt) == before:
                mv = Move(frm, to, True)
            else:
                raise self.err(where, f"the piece on {ff}{fr} is not {name}", st)
        try:
            legal = [Move.from_cshogi(x) for x in self.play.board().legal_moves]
        except ValueError as exc:
            raise self.err(where, str(exc), st) from None
        if mv not in legal:
            raise self.err(where, "illegal move", st)
        try:
            check_no_king_capture(self.play, mv)
        except ValueError as exc:
            raise self.err(where, str(exc), st) from None
        self.play.push(mv)
        node = RecordNode(move=mv)
        self.current.children.append(node)
        self.current = node

    def comment(self, text: str) -> None:
        if text.startswith("*"):
            body = text[1:].lstrip("*") if text.startswith("**") else text[1:]
            (self.current if self.started else self.root).comments.append(body)
        elif not self.started and not self.board_seen:
            key, sep, value = text.partition("：")
            if sep and key and " " not in key:
                self.header[key] = value


def parse_csa(text: str) -> Record:
    """Read a CSA record (V2.2, or older without the version line) into a :class:`Record`.

    Only the first record of a multi-record file (``/`` separators) is read.

    Raises:
        CsaError: with the line number and the bad statement quoted; every move
            is checked for legality.
    """
    if not isinstance(text, str):
        raise CsaError(f"a CSA record must be text, not {type(text).__name__}")
    r = _CsaReader()
    for lineno, raw in enumerate(text.lstrip("\ufeff").splitlines(), start=1):
        line = raw.rstrip("\r\n")
        where = f"line {lineno}"
        if line.startswith("'"):
            r.comment(line[1:])
            continue
        if line.startswith("P") and line[1:2] in list("123456789"):
            keep_going = r.statement(line.rstrip(), where)
        else:
            keep_going = True
            for st in line.strip().split(","):
                if not r.statement(st.strip(), where):
                    keep_going = False
                    break
        if not keep_going:
            break
    if not r.started:
        if not r.board_seen:
            raise CsaError("no position (PI or P1..P9) and no side to move (+ or -) in the CSA text")
        raise CsaError("the CSA text has a position but no side-to-move line (+ or -)")
    assert r.start is not None
    return Record(start=r.start, header=r.header, root=r.root)

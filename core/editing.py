"""Editing a position: the rules of a board editor, its presets, and pasted text and files.

A board editor moves pieces between *spots* (:class:`Spot`): the 81 board
squares, each side's hand, the piece box (every piece of a full set that is
neither on the board nor in a hand) and each side's name, which gives that
side the move.  The rules here say what may go where:

* a piece dropped on an occupied square sends the piece there back to the box;
* a piece dropped on a hand joins it unpromoted, owned by that side; kings
  never go into a hand, and a hand never takes more of a kind than a full set
  has (:func:`hand_limit`);
* a piece dropped on the box leaves the position;
* a piece on the board cycles Black, Black promoted, White, White promoted.

Every edit is a pure function that returns a new position, or None when the
edit changes nothing, so an editor can tell a real change (one undo step)
from a no-op, and the original is never modified.  Positions the rules allow
may still be invalid as problems (two pawns on a file, a fifth gold); the
editor shows those from :meth:`Position.problems
<tsume_studio.core.shogi.position.Position.problems>`.

Also here: the 詰将棋 presets, the cursor's path over a board drawn either
way up, and reading positions from pasted text or record files by file name.

May import: ``core.shogi`` and ``core.records``.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from typing import Literal

from .records.formats import FORMATS, RecordError, parse_record_text, read_record, write_record
from .records.model import Record
from .shogi.position import Position
from .shogi.types import (
    BISHOP,
    BLACK,
    GOLD,
    HAND_INDEX,
    HAND_MAX,
    KING,
    KNIGHT,
    LANCE,
    PAWN,
    PROMOTE,
    ROOK,
    SILVER,
    UNPROMOTE,
    WHITE,
    Color,
    Piece,
    PieceType,
    Square,
    make_piece,
    opponent,
    piece_color,
    piece_type,
    square,
)

__all__ = [
    "BOX_ORDER", "STAND_ORDER", "Spot", "SpotKind", "add_to_hand", "board_cell", "box_counts",
    "box_king_color", "cell_square", "check_extension", "clear_spot", "cleared", "cycle_piece",
    "hand_from_stock", "hand_limit", "left_stand", "move_cursor", "move_piece", "parse_position_text",
    "piece_at_spot", "place_from_stock", "place_piece", "read_position_file", "toggle_owner",
    "toggle_promotion", "tsume_preset",
    "two_kings_preset", "suggested_file_name", "with_default_extension", "with_filter_extension", "with_turn",
    "write_position_file",
]

#: Hand-stand order, top to bottom, as on a printed diagram: 飛 角 金 銀 桂 香 歩.
STAND_ORDER: tuple[PieceType, ...] = (ROOK, BISHOP, GOLD, SILVER, KNIGHT, LANCE, PAWN)
#: The piece box's order: the king, then the stand order.
BOX_ORDER: tuple[PieceType, ...] = (KING, *STAND_ORDER)

SpotKind = Literal["board", "hand", "box", "turn"]
_KINDS: tuple[SpotKind, ...] = ("board", "hand", "box", "turn")


# ---------------------------------------------------------------------------
# Spots.


@dataclass(frozen=True, slots=True)
class Spot:
    """A place in the editor: a board square, a hand slot, the piece box, or a side's name.

    ``kind`` is ``"board"`` (with ``square``), ``"hand"`` (with ``color`` and
    ``piece_type``; ``piece_type`` 0 means the stand as a whole), ``"box"``
    (with ``piece_type``, 0 for the box as a whole) or ``"turn"`` (with
    ``color``: the side's name, which gives that side the move).

    Raises:
        ValueError: a field is out of range for the kind (a square outside
            0..80, a colour other than BLACK/WHITE, a hand slot for a king).
    """

    kind: SpotKind
    square: Square = -1
    color: Color = BLACK
    piece_type: PieceType = 0

    def __post_init__(self) -> None:
        if self.kind not in _KINDS:
            raise ValueError(f"a spot is one of {', '.join(_KINDS)}, not {self.kind!r}")
        if self.color not in (BLACK, WHITE):
            raise ValueError(f"colour must be BLACK (0) or WHITE (1), not {self.color!r}")
        if self.kind == "board" and not (isinstance(self.square, int) and 0 <= self.square < 81):
            raise ValueError(f"board square out of range 0..80: {self.square!r}")
        if self.kind == "hand" and self.piece_type not in (0, *STAND_ORDER):
            raise ValueError(f"a hand holds only unpromoted pieces other than the king, "
                             f"not piece type {self.piece_type!r}")
        if self.kind == "box" and self.piece_type not in (0, *BOX_ORDER):
            raise ValueError(f"the box holds only unpromoted pieces, not piece type {self.piece_type!r}")

    @classmethod
    def board(cls, sq: Square) -> Spot:
        """The board square ``sq`` (0..80)."""
        return cls("board", square=sq)

    @classmethod
    def hand(cls, color: Color, pt: PieceType = 0) -> Spot:
        """``color``'s hand slot of ``pt`` (0: the stand as a whole)."""
        return cls("hand", color=color, piece_type=pt)

    @classmethod
    def box(cls, pt: PieceType = 0) -> Spot:
        """The box's slot of ``pt`` (0: the box as a whole)."""
        return cls("box", piece_type=pt)

    @classmethod
    def turn(cls, color: Color) -> Spot:
        """``color``'s name: clicking it gives that side the move."""
        return cls("turn", color=color)


def _base(pt: PieceType) -> PieceType:
    return UNPROMOTE.get(pt, pt)


def hand_limit(pt: PieceType) -> int:
    """How many ``pt`` one hand may hold in the editor: as many as a full set has (18 pawns, 4 golds...).

    Raises:
        KeyError: ``pt`` is not a kind that goes into a hand.
    """
    return HAND_MAX[HAND_INDEX[pt]]


def box_counts(position: Position) -> dict[PieceType, int]:
    """Pieces of each kind left in the box: a full set minus the board and both hands.

    Kings count two in a full set.  A count is never negative, even when the
    position has too many of a kind (the position's problems say so).
    """
    used = dict.fromkeys(BOX_ORDER, 0)
    for _, pc in position.pieces():
        used[_base(piece_type(pc))] += 1
    for color in (BLACK, WHITE):
        hand = position.hand(color)
        for pt in STAND_ORDER:
            used[pt] += hand[HAND_INDEX[pt]]
    full = {KING: 2, **{pt: hand_limit(pt) for pt in STAND_ORDER}}
    return {pt: max(0, full[pt] - used[pt]) for pt in BOX_ORDER}


def box_king_color(position: Position) -> Color:
    """Owner of a king taken from the box: the defender if it has none, else the attacker."""
    defender = position.defender
    return defender if position.king_square(defender) is None else opponent(defender)


def piece_at_spot(position: Position, spot: Spot) -> Piece:
    """The piece a drag from ``spot`` carries (0 when there is none).

    Pieces from the box are Black's, except a king, which goes to
    :func:`box_king_color`; an empty slot, a whole stand or box, and a side's
    name carry nothing.
    """
    if spot.kind == "board":
        return position.piece_at(spot.square)
    if spot.kind == "hand" and spot.piece_type:
        if position.hand(spot.color)[HAND_INDEX[spot.piece_type]] > 0:
            return make_piece(spot.color, spot.piece_type)
        return 0
    if spot.kind == "box" and spot.piece_type:
        if box_counts(position)[spot.piece_type] <= 0:
            return 0
        if spot.piece_type == KING:
            return make_piece(box_king_color(position), KING)
        return make_piece(BLACK, spot.piece_type)
    return 0


# ---------------------------------------------------------------------------
# Edits: each returns a new position, or None when nothing would change.


def _hand_count_after(old: int, n: int, limit: int) -> int:
    """A hand count after adding ``n``: never below 0, never raised past ``limit`` (a count already above stays)."""
    if n >= 0:
        return max(old, min(old + n, limit))
    return max(0, old + n)


def _add_hand(position: Position, color: Color, pt: PieceType, n: int) -> None:
    hand = list(position.hand(color))
    i = HAND_INDEX[pt]
    hand[i] = _hand_count_after(hand[i], n, hand_limit(pt))
    position.set_hand(color, hand)


def move_piece(position: Position, src: Spot, dst: Spot) -> Position | None:
    """The position after dragging the piece at ``src`` to ``dst``; None if nothing changes.

    A piece dropped on an occupied square sends the piece there back to the
    box; a piece dropped on a hand stand joins that hand unpromoted (kings
    cannot go into a hand, nor a piece into a hand that already holds
    :func:`hand_limit` of its kind); a piece dropped on the box leaves the
    position.  Dropping on a side's name, or from the box onto the box,
    does nothing.
    """
    piece = piece_at_spot(position, src)
    if not piece or src == dst or dst.kind == "turn":
        return None
    base = _base(piece_type(piece))
    if dst.kind == "hand":
        if base == KING or (src.kind == "hand" and src.color == dst.color):
            return None
        if position.hand(dst.color)[HAND_INDEX[base]] >= hand_limit(base):
            return None
    if dst.kind == "box" and src.kind == "box":
        return None
    new = position.copy()
    # Take the piece from where it was (from the box: nothing to take).
    if src.kind == "board":
        new.set_piece(src.square, 0)
    elif src.kind == "hand":
        _add_hand(new, src.color, src.piece_type, -1)
    # Put it down (on the box: it leaves the position).
    if dst.kind == "board":
        new.set_piece(dst.square, piece)
    elif dst.kind == "hand":
        _add_hand(new, dst.color, base, +1)
    return None if new == position else new


def place_piece(position: Position, sq: Square, piece: Piece) -> Position | None:
    """``piece`` on ``sq`` (0 empties it); None if that is already so.

    Raises:
        ValueError: ``sq`` is not 0..80 or ``piece`` is not a piece code.
    """
    new = position.copy()
    new.set_piece(sq, piece)
    return None if new == position else new


def _used(position: Position, base: PieceType) -> int:
    """How many pieces of kind ``base`` (promoted ones counted) the board and both hands hold."""
    count = sum(1 for _, pc in position.pieces() if _base(piece_type(pc)) == base)
    if base in HAND_INDEX:
        count += sum(position.hand(color)[HAND_INDEX[base]] for color in (BLACK, WHITE))
    return count


def _full_set(base: PieceType) -> int:
    return 2 if base == KING else hand_limit(base)


def _from_a_hand(new: Position, before: Position, base: PieceType, first: Color) -> Position | None:
    """``new`` with one ``base`` taken from ``first``'s hand, else the other hand, when ``new`` holds
    more of that kind than a full set (and more than ``before`` did); None when no hand has one."""
    used = _used(new, base)
    if base == KING or used <= _full_set(base) or used <= _used(before, base):
        return new
    for color in (first, opponent(first)):
        if new.hand(color)[HAND_INDEX[base]] > 0:
            _add_hand(new, color, base, -1)
            return new
    return None


def place_from_stock(position: Position, sq: Square, piece: Piece) -> Position | None:
    """``piece`` on ``sq`` as a piece key puts it: taken from the box, else from a hand.

    When the box has no piece of that kind (the 詰将棋 preset puts every
    piece in the defender's hand) one is taken from the defender's hand, else
    from the attacker's, so the position never holds more than a full set
    because of a key.  None when nothing changes, or when no piece of that
    kind is left anywhere (kings come only from the box).

    Raises:
        ValueError: ``sq`` is not 0..80 or ``piece`` is not a piece code.
    """
    new = place_piece(position, sq, piece)
    if new is None or not piece:
        return new
    new = _from_a_hand(new, position, _base(piece_type(piece)), position.defender)
    return None if new is None or new == position else new


def hand_from_stock(position: Position, color: Color, pt: PieceType) -> Position | None:
    """One more ``pt`` in ``color``'s hand, taken from the box, else from the other side's hand.

    None when nothing changes: a kind that does not go into a hand, a hand
    already at :func:`hand_limit`, or no piece of that kind left anywhere.
    """
    new = add_to_hand(position, color, pt, 1)
    if new is None:
        return None
    new = _from_a_hand(new, position, pt, opponent(color))
    return None if new is None or new == position else new


def cycle_piece(position: Position, sq: Square) -> Position | None:
    """Cycle the piece on ``sq``: Black, Black promoted, White, White promoted, Black ...

    Pieces that cannot promote (gold, king) just change owner.  None for an
    empty square.
    """
    pc = position.piece_at(sq)
    if not pc:
        return None
    pt, color = piece_type(pc), piece_color(pc)
    base = _base(pt)
    if base in PROMOTE and pt == base:
        return place_piece(position, sq, make_piece(color, PROMOTE[base]))
    return place_piece(position, sq, make_piece(opponent(color), base))


def toggle_promotion(position: Position, sq: Square) -> Position | None:
    """Promote the piece on ``sq``, or unpromote it; None if it cannot promote or there is none."""
    pc = position.piece_at(sq)
    if not pc:
        return None
    pt, color = piece_type(pc), piece_color(pc)
    if pt in PROMOTE:
        return place_piece(position, sq, make_piece(color, PROMOTE[pt]))
    if pt in UNPROMOTE:
        return place_piece(position, sq, make_piece(color, UNPROMOTE[pt]))
    return None


def toggle_owner(position: Position, sq: Square) -> Position | None:
    """Give the piece on ``sq`` to the other side, promotion kept; None for an empty square."""
    pc = position.piece_at(sq)
    if not pc:
        return None
    return place_piece(position, sq, make_piece(opponent(piece_color(pc)), piece_type(pc)))


def add_to_hand(position: Position, color: Color, pt: PieceType, n: int) -> Position | None:
    """Add ``n`` (may be negative) ``pt`` to ``color``'s hand; None if that changes nothing.

    The count stays between 0 and :func:`hand_limit`; a count already above
    the limit (a pasted position may have one) is never raised, only lowered.
    None also for a kind that does not go into a hand.
    """
    if pt not in HAND_INDEX:
        return None
    new = position.copy()
    _add_hand(new, color, pt, n)
    return None if new == position else new


def clear_spot(position: Position, spot: Spot) -> Position | None:
    """Empty a board square or a hand slot; None if it already is empty or is neither."""
    if spot.kind == "board":
        return place_piece(position, spot.square, 0)
    if spot.kind == "hand" and spot.piece_type:
        current = position.hand(spot.color)[HAND_INDEX[spot.piece_type]]
        return add_to_hand(position, spot.color, spot.piece_type, -current)
    return None


def with_turn(position: Position, color: Color) -> Position | None:
    """``position`` with ``color`` to move; None if ``color`` already is.

    Raises:
        ValueError: ``color`` is not BLACK or WHITE.
    """
    if color not in (BLACK, WHITE):
        raise ValueError(f"side to move must be BLACK (0) or WHITE (1), not {color!r}")
    if position.turn == color:
        return None
    new = position.copy()
    new.turn = color
    return new


# ---------------------------------------------------------------------------
# Presets.


def tsume_preset() -> Position:
    """The 詰将棋 preset: Black to move, only White's king on 5一, every other piece in White's hand."""
    pos = Position.empty()
    pos.set_piece(square(5, 1), make_piece(WHITE, KING))
    pos.set_hand(WHITE, HAND_MAX)
    return pos


def two_kings_preset() -> Position:
    """The 双玉 preset: kings on 5一 (White) and 5九 (Black), every other piece in White's hand."""
    pos = tsume_preset()
    pos.set_piece(square(5, 9), make_piece(BLACK, KING))
    return pos


def cleared(position: Position) -> Position:
    """An empty board and empty hands, with ``position``'s side to move."""
    pos = Position.empty()
    pos.turn = position.turn
    return pos


# ---------------------------------------------------------------------------
# The board either way up, and the keyboard cursor's path over it.
#
# Cells are (column, row) from the top left as drawn, 0..8 each.  The right
# way up, 9一 is the top left; flipped (seen from White's side), 1九 is.  The
# stands sit left (top) and right (bottom) of the board: White's on the left
# unless the board is flipped.


def board_cell(sq: Square, flipped: bool) -> tuple[int, int]:
    """(column, row) of ``sq`` as drawn, from the top left."""
    file, rank = sq // 9 + 1, sq % 9 + 1
    return (file - 1, 9 - rank) if flipped else (9 - file, rank - 1)


def cell_square(col: int, row: int, flipped: bool) -> Square:
    """The square drawn at (column, row) from the top left; the inverse of :func:`board_cell`.

    Raises:
        ValueError: ``col`` or ``row`` is not 0..8.
    """
    if not (0 <= col <= 8 and 0 <= row <= 8):
        raise ValueError(f"a board cell is (0..8, 0..8), not ({col!r}, {row!r})")
    return square(col + 1, 9 - row) if flipped else square(9 - col, row + 1)


def left_stand(flipped: bool) -> Color:
    """The side whose stand is drawn left of the board: White's, or Black's when flipped."""
    return BLACK if flipped else WHITE


def move_cursor(spot: Spot, dx: int, dy: int, flipped: bool) -> Spot:
    """Where the keyboard cursor goes from ``spot`` by one arrow key (``dx``/``dy`` -1, 0 or 1).

    On the board it moves one cell as drawn, stops at the top and bottom
    edges, and leaves a side edge for the stand on that side, at the slot of
    the same height.  On a stand, up and down go round its slots, and the
    arrow towards the board goes back to the nearest edge cell.  From
    anywhere else the cursor goes to 5五.
    """
    n = len(STAND_ORDER)
    if spot.kind == "board":
        col, row = board_cell(spot.square, flipped)
        col, row = col + dx, min(8, max(0, row + dy))
        if 0 <= col <= 8:
            return Spot.board(cell_square(col, row, flipped))
        side = left_stand(flipped) if col < 0 else opponent(left_stand(flipped))
        return Spot.hand(side, STAND_ORDER[min(n - 1, row * n // 9)])
    if spot.kind == "hand" and spot.piece_type:
        index = STAND_ORDER.index(spot.piece_type)
        on_left = spot.color == left_stand(flipped)
        if dy:
            return Spot.hand(spot.color, STAND_ORDER[(index + dy) % n])
        if dx and (dx > 0) == on_left:
            return Spot.board(cell_square(0 if on_left else 8, index * 9 // n, flipped))
        return spot
    return Spot.board(square(5, 5))


# ---------------------------------------------------------------------------
# Pasted text and files: the record readers and writers, chosen by file name.


def parse_position_text(text: str) -> tuple[Position, Record]:
    """The start position and record of pasted text: SFEN (or a USI ``position``), BOD, KIF, KI2 or CSA.

    Raises:
        ValueError: the text is none of these; the message says what failed and quotes it
            (a :class:`~tsume_studio.core.shogi.position.SfenError` for one line
            with slashes, a :class:`~tsume_studio.core.records.formats.RecordError`
            or a format's own error otherwise).
    """
    if not isinstance(text, str) or not text.strip():
        raise RecordError("position.empty_text")
    text = text.strip("\r\n")
    try:
        record = parse_record_text(text)
    except RecordError:
        line = text.strip()
        if "\n" in line or "/" not in line:
            raise
        # One line with slashes is meant as SFEN: let the SFEN parser say what is wrong.
        for prefix in ("position ", "sfen "):
            line = line.removeprefix(prefix).lstrip()
        position = Position.from_sfen(line)
        return position, Record(start=position.copy())
    return record.start.copy(), record


def check_extension(path: str) -> None:
    """Check that ``path`` names a record format by its extension (``.kif``, ``.sfen`` ...).

    Raises:
        RecordError: the extension is missing or not one of
            :data:`~tsume_studio.core.records.formats.FORMATS`.
    """
    ext = os.path.splitext(path)[1].lower()
    if ext not in FORMATS:
        raise RecordError("position.unknown_file_type", ext=repr(ext or "(none)"), path=repr(path),
                          known=", ".join(FORMATS))


def with_default_extension(path: str, ext: str = ".sfen") -> str:
    """``path`` with ``ext`` added when it has no extension at all."""
    return path if os.path.splitext(path)[1] else path + ext


def with_filter_extension(path: str, selected_filter: str, default: str = ".kif") -> str:
    """``path`` with the extension of the file dialog's chosen filter when it has no known one.

    ``selected_filter`` is a dialog filter such as ``"KIF (*.kif *.kifu)"``:
    its first pattern gives the extension, or ``default`` when that filter
    lists ``default`` too (the all-formats filter).  A path that already ends
    in a record format's extension is returned unchanged.
    """
    if os.path.splitext(path)[1].lower() in FORMATS:
        return path
    patterns = [str(p).lower() for p in re.findall(r"\*(\.[A-Za-z0-9]+)", selected_filter)]
    patterns = [p for p in patterns if p in FORMATS]
    if not patterns or default in patterns:
        return path + default
    return path + patterns[0]


def suggested_file_name(current: str | None, title: str, ext: str = ".kif") -> str:
    """A save dialog's proposed name: the current file, else the 作品名 ``title``, else ``tsume``.

    Characters that file systems refuse (``/ \\ : * ? " < > |``) become ``_``.
    """
    if current:
        return os.path.basename(current)
    name = re.sub(r'[/\\:*?"<>|\x00-\x1f]', "_", title).strip(" .")
    return (name or "tsume") + ext


def read_position_file(path: str) -> tuple[Position, Record]:
    """Read the start position and record of a record file (``.sfen``, ``.kif``, ``.kifu``, ``.csa`` ...).

    Raises:
        ValueError: unknown extension or bad contents (the message names the file or line).
        OSError: the file cannot be read.
    """
    check_extension(path)
    record = read_record(path)
    return record.start.copy(), record


def write_position_file(path: str, position: Position, record: Record | None = None) -> None:
    """Write ``record`` (or a record of ``position`` alone) in the format of the extension.

    The record is used only when it starts from ``position``.  The file is
    written completely or not at all.

    Raises:
        ValueError: unknown extension, or text the file's encoding cannot hold.
        OSError: the file cannot be written.
    """
    check_extension(path)
    if record is None or record.start != position:
        record = Record(start=position.copy())
    write_record(path, record)

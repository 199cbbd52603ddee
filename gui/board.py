"""The board widget: a shogi board with both hand stands and, in edit mode, a piece box.

:class:`BoardView` draws a :class:`~tsume_studio.core.shogi.position.Position` with
the piece images of ``resources/pieces`` (pentagon pieces with kanji, White's
pieces upside down), coordinates ９…１ across the top and 一…九 down the
side, hand stands with per-type counts, a last-move highlight and extra
square highlights.  Everything is laid out in units of one square, so the
drawing is sharp at any size.

In edit mode the view also edits: drag pieces between the board, both hands
and the piece box (or click a piece, then click where it goes); right-click
or double-click a board piece to cycle promotion and owner; click a stand's
name to give that side the move; and the keyboard does the same (see
:data:`KEYBOARD_HELP`).  The edit rules are pure functions on positions
in :mod:`tsume_studio.core.editing` (:func:`~tsume_studio.core.editing.move_piece`,
:func:`~tsume_studio.core.editing.cycle_piece`, ...), tested without a widget;
this module binds them to the mouse and keys and draws the result.
"""

from __future__ import annotations

import math
import os
import tempfile
from collections.abc import Iterable

from PySide6.QtCore import QByteArray, QEvent, QPointF, QRectF, QSize, Qt, Signal
from PySide6.QtGui import (
    QColor,
    QFont,
    QImage,
    QKeyEvent,
    QLinearGradient,
    QMouseEvent,
    QPainter,
    QPaintEvent,
    QPen,
    QPixmap,
    QWheelEvent,
)
from PySide6.QtSvg import QSvgGenerator, QSvgRenderer
from PySide6.QtWidgets import QApplication, QSizePolicy, QWidget

from ..core.editing import (
    BOX_ORDER,
    STAND_ORDER,
    Spot,
    add_to_hand,
    board_cell,
    box_counts,
    box_king_color,
    cell_square,
    clear_spot,
    cycle_piece,
    hand_from_stock,
    left_stand,
    move_cursor,
    move_piece,
    piece_at_spot,
    place_from_stock,
    place_piece,
    toggle_owner,
    toggle_promotion,
    with_turn,
)
from ..core.shogi.moves import Move
from ..core.shogi.position import Position
from ..core.shogi.types import (
    BISHOP,
    BLACK,
    FULLWIDTH_DIGITS,
    GOLD,
    HAND_INDEX,
    KANJI_DIGITS,
    KING,
    KNIGHT,
    LANCE,
    PAWN,
    PROM_BISHOP,
    PROM_KNIGHT,
    PROM_LANCE,
    PROM_PAWN,
    PROM_ROOK,
    PROM_SILVER,
    ROOK,
    SILVER,
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
from . import i18n
from .i18n import tr
from .resources import piece_svg, register_fonts

__all__ = ["KEYBOARD_HELP", "BoardView"]

# Piece type -> image name (resources/pieces/<name>.svg); kings depend on the owner.
_IMAGE = {PAWN: "FU", LANCE: "KY", KNIGHT: "KE", SILVER: "GI", GOLD: "KI", BISHOP: "KA",
          ROOK: "HI", PROM_PAWN: "TO", PROM_LANCE: "NY", PROM_KNIGHT: "NK", PROM_SILVER: "NG",
          PROM_BISHOP: "UM", PROM_ROOK: "RY"}

# Key tables are keyed by int: QKeyEvent.key() is an int, Qt.Key an IntEnum.
_LETTER_KEYS: dict[int, PieceType] = {Qt.Key.Key_P: PAWN, Qt.Key.Key_L: LANCE, Qt.Key.Key_N: KNIGHT,
                Qt.Key.Key_S: SILVER, Qt.Key.Key_G: GOLD, Qt.Key.Key_B: BISHOP,
                Qt.Key.Key_R: ROOK, Qt.Key.Key_K: KING}

_ARROWS: dict[int, tuple[int, int]] = {Qt.Key.Key_Left: (-1, 0), Qt.Key.Key_Right: (1, 0),
           Qt.Key.Key_Up: (0, -1), Qt.Key.Key_Down: (0, 1)}
_EDIT_KEYS: set[int] = {Qt.Key.Key_Plus, Qt.Key.Key_Equal, Qt.Key.Key_Minus, Qt.Key.Key_Underscore,
              Qt.Key.Key_Space, Qt.Key.Key_Delete, Qt.Key.Key_Backspace}

KEYBOARD_HELP = (
    "Editing with the keyboard:\n"
    "Arrow keys move the cursor over the board and on to the hand stands.\n"
    "P L N S G B R K put a Black piece on the cursor square; with Shift a White one.\n"
    "+ promotes or unpromotes, - changes the owner, Space cycles like a right-click,\n"
    "Delete or Backspace empties the square.\n"
    "On a hand stand: + or the piece letter adds one, - takes one back to the box,\n"
    "Delete empties that slot.\n"
    "Mouse: drag pieces between board, hands and box (or click, then click the target);\n"
    "right-click or double-click a piece to promote and change owner\n"
    "(Shift+right-click only changes the owner);\n"
    "the mouse wheel over a hand piece adds or removes one;\n"
    "click a side's name to give it the move."
)

i18n.add_translations("ja", {
    "Black": "先手",
    "White": "後手",
    "Piece box": "駒箱",
    "Shogi board": "将棋盤",
    KEYBOARD_HELP: (
        "キーボードでの編集:\n"
        "矢印キーでカーソルを盤上と駒台の間で動かします。\n"
        "P L N S G B R K でカーソルの升に先手の駒を置きます（Shift で後手の駒）。\n"
        "+ で成/不成、- で先後の入れ替え、スペースで右クリックと同じ切り替え、\n"
        "Delete か Backspace で升を空にします。\n"
        "駒台では + か駒の文字で一枚増やし、- で一枚駒箱へ戻し、Delete でその駒をなくします。\n"
        "マウス: 盤・駒台・駒箱の間で駒をドラッグ（またはクリックしてから行き先をクリック）。\n"
        "右クリックかダブルクリックで成と先後を切り替え（Shift+右クリックは先後だけ）、\n"
        "駒台の駒の上でホイールを回すと一枚ずつ増減し、\n"
        "手番の名前をクリックするとその側の手番になります。"
    ),
})


# ---------------------------------------------------------------------------
# Geometry: everything in units of one square's width.

_SQ_H = 1.1            # a square is 10% taller than wide, as on real boards
_MARGIN = 0.2
_STAND_W = 2.1
_GAP = 0.35
_FRAME = 0.25          # board edge around the grid
_FILE_LABELS = 0.45    # ９…１ above the board
_RANK_LABELS = 0.5     # 一…九 right of the board
_HEADER = 0.7          # a stand's name
_SLOT_H = 1.1
_STAND_H = _HEADER + len(STAND_ORDER) * _SLOT_H + 0.3
_BOX_GAP = 0.3
_BOX_H = 1.35
_WIDTH = _MARGIN + _STAND_W + _GAP + 2 * _FRAME + 9 + _RANK_LABELS + _GAP + _STAND_W + _MARGIN
_HEIGHT = _MARGIN + _FILE_LABELS + 2 * _FRAME + 9 * _SQ_H + _MARGIN


class _Layout:
    """Rectangles of every part of the view for a given size, flip and mode."""

    def __init__(self, rect: QRectF, flipped: bool, with_box: bool,
                 orders: dict[Color, tuple[PieceType, ...]] | None = None) -> None:
        # Hand kinds shown on each stand, top to bottom (all of them by default).
        self.orders = orders or {BLACK: STAND_ORDER, WHITE: STAND_ORDER}
        height = _HEIGHT + (_BOX_GAP + _BOX_H if with_box else 0.0)
        u = min(rect.width() / _WIDTH, rect.height() / height)
        self.unit = u
        self.flipped = flipped
        self.with_box = with_box
        x0 = rect.x() + (rect.width() - _WIDTH * u) / 2
        y0 = rect.y() + (rect.height() - height * u) / 2
        self.content = QRectF(x0, y0, _WIDTH * u, height * u)
        left_stand_x = x0 + _MARGIN * u
        frame_x = left_stand_x + (_STAND_W + _GAP) * u
        frame_y = y0 + (_MARGIN + _FILE_LABELS) * u
        self.frame = QRectF(frame_x, frame_y, (9 + 2 * _FRAME) * u, (9 * _SQ_H + 2 * _FRAME) * u)
        self.grid = self.frame.adjusted(_FRAME * u, _FRAME * u, -_FRAME * u, -_FRAME * u)
        right_stand_x = self.frame.right() + (_RANK_LABELS + _GAP) * u
        top_stand = QRectF(left_stand_x, self.frame.top(), _STAND_W * u, _STAND_H * u)
        bottom_stand = QRectF(right_stand_x, self.frame.bottom() - _STAND_H * u,
                              _STAND_W * u, _STAND_H * u)
        # White's stand is at the top left unless the board is flipped.
        top_color = left_stand(flipped)
        self.stands = {top_color: top_stand, opponent(top_color): bottom_stand}
        self.box = QRectF(self.frame.left(), self.frame.bottom() + _BOX_GAP * u,
                          self.frame.width(), _BOX_H * u) if with_box else QRectF()

    def square_rect(self, sq: Square) -> QRectF:
        col, row = board_cell(sq, self.flipped)
        u = self.unit
        return QRectF(self.grid.left() + col * u, self.grid.top() + row * _SQ_H * u, u, _SQ_H * u)

    def header_rect(self, color: Color) -> QRectF:
        s = self.stands[color]
        return QRectF(s.left(), s.top(), s.width(), _HEADER * self.unit)

    def slot_rect(self, color: Color, pt: PieceType) -> QRectF:
        s = self.stands[color]
        if pt not in self.orders[color]:
            return QRectF()
        i = self.orders[color].index(pt)
        u = self.unit
        return QRectF(s.left(), s.top() + (_HEADER + i * _SLOT_H) * u, s.width(), _SLOT_H * u)

    def box_slot_rect(self, pt: PieceType) -> QRectF:
        i = BOX_ORDER.index(pt)
        u = self.unit
        label_w = 1.3 * u
        w = (self.box.width() - label_w) / len(BOX_ORDER)
        return QRectF(self.box.left() + label_w + i * w, self.box.top(), w, self.box.height())

    def spot_at(self, p: QPointF) -> Spot | None:
        if self.grid.contains(p):
            col = min(8, int((p.x() - self.grid.left()) / self.unit))
            row = min(8, int((p.y() - self.grid.top()) / (_SQ_H * self.unit)))
            return Spot.board(cell_square(col, row, self.flipped))
        for color, stand in self.stands.items():
            if stand.contains(p):
                if self.header_rect(color).contains(p):
                    return Spot.turn(color)
                for pt in self.orders[color]:
                    if self.slot_rect(color, pt).contains(p):
                        return Spot.hand(color, pt)
                return Spot.hand(color)
        if self.with_box and self.box.contains(p):
            for pt in BOX_ORDER:
                if self.box_slot_rect(pt).contains(p):
                    return Spot.box(pt)
            return Spot.box()
        return None


# ---------------------------------------------------------------------------
# Colours.

_INK = QColor("#2b1d0e")
_BOARD_LIGHT = QColor("#f2d29b")
_BOARD_DARK = QColor("#dcae62")
_STAND_LIGHT = QColor("#d9a45d")
_STAND_DARK = QColor("#b97f3c")
_LAST_TO = QColor(255, 153, 0, 120)
_LAST_FROM = QColor(255, 190, 60, 60)
_HIGHLIGHT = QColor(60, 130, 255, 80)
_ERROR = QColor(220, 30, 30, 110)
_SELECTED = QColor(40, 170, 60, 110)
_CURSOR = QColor(20, 90, 220)


def _with_shadow(image: QImage) -> QImage:
    """``image`` over a soft copy of its silhouette, offset down and to the right."""
    shadow = QImage(image.size(), QImage.Format.Format_ARGB32_Premultiplied)
    shadow.fill(Qt.GlobalColor.transparent)
    p = QPainter(shadow)
    p.drawImage(0, 0, image)
    p.setCompositionMode(QPainter.CompositionMode.CompositionMode_SourceIn)
    p.fillRect(shadow.rect(), QColor(0, 0, 0, 80))
    p.end()
    out = QImage(image.size(), QImage.Format.Format_ARGB32_Premultiplied)
    out.fill(Qt.GlobalColor.transparent)
    p = QPainter(out)
    p.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform)
    p.drawImage(QPointF(image.width() * 0.012, image.height() * 0.018), shadow)
    p.drawImage(0, 0, image)
    p.end()
    return out


def _piece_image(pc: Piece) -> str:
    pt = piece_type(pc)
    if pt == KING:
        return "OU" if piece_color(pc) == BLACK else "GY"
    return _IMAGE[pt]


class BoardView(QWidget):
    """Board with both hand stands (and, in edit mode, a piece box).

    Signals:
        positionEdited(object): a new core ``Position`` after a user edit
            (already applied to the view).
        squareClicked(int): a board square (0..80, core numbering) was clicked.
        moveRequested(object, int): in play mode, a piece (a board or hand
            ``Spot``) was dragged or click-clicked to a board square; the
            position is left as it is (the receiver decides).
    """

    positionEdited = Signal(object)
    squareClicked = Signal(int)
    moveRequested = Signal(object, int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._position = Position.empty()
        self._last_move: Move | None = None
        self._highlights: frozenset[Square] = frozenset()
        self._errors: frozenset[Square] = frozenset()
        self._flipped = False
        self._editable = False
        self._keep_box = False
        self._playable = False
        self._cursor: Spot = Spot.board(square(5, 5))
        self._selected: Spot | None = None
        self._press_spot: Spot | None = None
        self._press_pos = QPointF()
        self._drag_pos: QPointF | None = None
        self._renderers: dict[str, QSvgRenderer] = {}
        self._pixmaps: dict[tuple[str, int, int, bool, float], QPixmap] = {}
        self._backdrop_key: tuple[int, bool, bool, float] | None = None
        self._backdrop_pixmap: QPixmap | None = None
        try:
            self._family = register_fonts()
        except RuntimeError:  # pragma: no cover - the font ships with the package
            self._family = QFont().family()
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self.setFocusPolicy(Qt.FocusPolicy.ClickFocus)
        self.setMinimumSize(320, 240)
        i18n.notifier.language_changed.connect(self._retranslate)
        self._retranslate()

    # ---- public API -----------------------------------------------------

    def set_position(self, position: Position) -> None:
        """Show a copy of ``position``."""
        self._position = position.copy()
        self._selected = None
        self.update()

    def position(self) -> Position:
        """A copy of the position shown."""
        return self._position.copy()

    def set_last_move(self, move: Move | None) -> None:
        """Highlight the from/to squares of ``move`` (None removes the highlight)."""
        self._last_move = move
        self.update()

    def last_move(self) -> Move | None:
        """The move highlighted as the last one."""
        return self._last_move

    def set_highlights(self, squares: Iterable[int]) -> None:
        """Tint these squares (e.g. the squares of a search path)."""
        self._highlights = frozenset(squares)
        self.update()

    def highlights(self) -> frozenset[Square]:
        """The tinted squares."""
        return self._highlights

    def set_error_squares(self, squares: Iterable[int]) -> None:
        """Mark these squares as the places of problems in the position (red)."""
        self._errors = frozenset(squares)
        self.update()

    def set_flipped(self, flipped: bool) -> None:
        """Show the board from White's side when ``flipped``."""
        self._flipped = bool(flipped)
        self.update()

    def is_flipped(self) -> bool:
        """True when the board is shown from White's side."""
        return self._flipped

    def set_editable(self, editable: bool) -> None:
        """Let drag/drop, clicks and keys edit the position (and show the piece box)."""
        self._editable = bool(editable)
        self._selected = None
        self._drag_pos = None
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus if editable else Qt.FocusPolicy.ClickFocus)
        # Hover feedback (an open hand over pieces that can be picked up) needs move events.
        self.setMouseTracking(self._editable)
        self.unsetCursor()
        self._retranslate()
        self.updateGeometry()
        self.update()

    def is_editable(self) -> bool:
        """True in edit mode."""
        return self._editable

    def set_box_kept(self, keep: bool) -> None:
        """Show the piece box outside edit mode too (read-only), so that the board
        keeps its size and place when the mode changes (e.g. while solving)."""
        self._keep_box = bool(keep)
        self.updateGeometry()
        self.update()

    def box_kept(self) -> bool:
        """True when the piece box is shown outside edit mode too."""
        return self._keep_box

    def has_box(self) -> bool:
        """True when the piece box is shown now."""
        return self._editable or self._keep_box
    def set_playable(self, playable: bool) -> None:
        """Play mode: dragging or click-clicking a piece of the board or a hand to a square
        emits ``moveRequested`` instead of editing (edit mode wins when both are on)."""
        self._playable = bool(playable)
        self._selected = None
        self._drag_pos = None
        self.update()

    def is_playable(self) -> bool:
        """True in play mode."""
        return self._playable

    def _plays(self) -> bool:
        return self._playable and not self._editable

    def _request_move(self, src: Spot | None, dst: Spot | None) -> None:
        """Play mode: ask for the move of ``src``'s piece to the board square ``dst``."""
        if (src is not None and dst is not None and dst.kind == "board" and src != dst
                and src.kind in ("board", "hand") and piece_at_spot(self._position, src)):
            self.moveRequested.emit(src, dst.square)

    def cursor_spot(self) -> Spot:
        """Where the keyboard cursor is."""
        return self._cursor

    def set_cursor_spot(self, spot: Spot) -> None:
        """Move the keyboard cursor to a board square or a hand slot."""
        self._cursor = spot
        self.update()

    def square_rect(self, sq: Square) -> QRectF:
        """The rectangle of a board square in widget coordinates."""
        return self._layout().square_rect(sq)

    def hand_rect(self, color: Color, pt: PieceType) -> QRectF:
        """The rectangle of a hand slot in widget coordinates (empty if it is not shown)."""
        return self._layout().slot_rect(color, pt)

    def turn_rect(self, color: Color) -> QRectF:
        """The rectangle of a side's name on its stand."""
        return self._layout().header_rect(color)

    def box_rect(self, pt: PieceType) -> QRectF:
        """The rectangle of a piece-box slot (empty when the box is not shown)."""
        layout = self._layout()
        return layout.box_slot_rect(pt) if layout.with_box else QRectF()

    def spot_at(self, point: QPointF) -> Spot | None:
        """What is under a point in widget coordinates."""
        return self._layout().spot_at(point)

    def render_image(self, path: str, width: int | None = None) -> None:
        """Write the board as a diagram: ``.png`` or ``.svg`` by extension.

        The diagram shows the board, coordinates, both hands and the
        highlights, without the piece box or the keyboard cursor.  ``width``
        is in pixels (default 800); the height follows the board's shape.

        Raises:
            ValueError: the extension is neither ``.png`` nor ``.svg``.
            OSError: the file could not be written.
        """
        ext = os.path.splitext(path)[1].lower()
        if ext not in (".png", ".svg"):
            raise ValueError(f"board images are .png or .svg, not {ext or 'no extension'!r}: {path!r}")
        w = int(width or 800)
        h = round(w * _HEIGHT / _WIDTH)
        folder = os.path.dirname(os.path.abspath(path))
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=".board-", suffix=ext)
        os.close(fd)
        try:
            if ext == ".png":
                image = QImage(w, h, QImage.Format.Format_ARGB32)
                image.fill(QColor("#fbf6ea"))
                painter = QPainter(image)
                self._paint_all(painter, QRectF(0, 0, w, h), diagram=True, vector=False)
                painter.end()
                if not image.save(tmp):  # the temporary name keeps the .png suffix
                    raise OSError(f"could not write PNG image: {path!r}")
            else:
                generator = QSvgGenerator()
                generator.setFileName(tmp)
                generator.setSize(QSize(w, h))
                generator.setViewBox(QRectF(0, 0, w, h))
                generator.setTitle("Tsume Studio board")
                painter = QPainter(generator)
                self._paint_all(painter, QRectF(0, 0, w, h), diagram=True, vector=True)
                painter.end()
                if os.path.getsize(tmp) == 0:
                    raise OSError(f"could not write SVG image: {path!r}")
            os.chmod(tmp, 0o644)
            os.replace(tmp, path)
        except BaseException:
            if os.path.exists(tmp):
                os.unlink(tmp)
            raise

    def sizeHint(self) -> QSize:  # noqa: N802 - Qt API
        return self.size_for_unit(48)

    def size_for_unit(self, unit: float) -> QSize:
        """The widget size at which a square is ``unit`` pixels wide (with the box if it is shown)."""
        height = _HEIGHT + (_BOX_GAP + _BOX_H if self.has_box() else 0.0)
        return QSize(math.ceil(_WIDTH * unit), math.ceil(height * unit))

    def square_size(self) -> float:
        """The width of a square in pixels at the current size."""
        return self._layout().unit

    # ---- editing ----------------------------------------------------------

    def _apply(self, new: Position | None) -> bool:
        """Show an edited position and announce it; False when nothing changed."""
        if new is None or new == self._position:
            return False
        self._position = new
        self.update()
        self.positionEdited.emit(new.copy())
        return True

    def _set_turn(self, color: Color) -> None:
        self._apply(with_turn(self._position, color))

    # ---- mouse ------------------------------------------------------------

    def mousePressEvent(self, event: QMouseEvent) -> None:  # noqa: N802 - Qt API
        pos = event.position()
        spot = self.spot_at(pos)
        if event.button() == Qt.MouseButton.RightButton:
            if self._editable and spot is not None:
                self._selected = None
                if spot.kind == "board":
                    self._cursor = spot
                    if event.modifiers() & Qt.KeyboardModifier.ShiftModifier:
                        self._apply(toggle_owner(self._position, spot.square))
                    else:
                        self._apply(cycle_piece(self._position, spot.square))
                elif spot.kind == "hand" and spot.piece_type:
                    # One piece of this kind goes back to the box.
                    self._apply(add_to_hand(self._position, spot.color, spot.piece_type, -1))
                self.update()
            event.accept()
            return
        if event.button() != Qt.MouseButton.LeftButton:
            super().mousePressEvent(event)
            return
        self._press_spot = spot
        self._press_pos = pos
        self._drag_pos = None
        event.accept()

    def mouseMoveEvent(self, event: QMouseEvent) -> None:  # noqa: N802 - Qt API
        if not (event.buttons() & Qt.MouseButton.LeftButton) or self._press_spot is None:
            if self._editable:
                spot = self.spot_at(event.position())
                grabbable = spot is not None and bool(piece_at_spot(self._position, spot))
                self.setCursor(Qt.CursorShape.OpenHandCursor if grabbable else Qt.CursorShape.ArrowCursor)
            return
        if not (self._editable or self._plays()) or not piece_at_spot(self._position, self._press_spot):
            return
        pos = event.position()
        if self._drag_pos is None:
            distance = (pos - self._press_pos).manhattanLength()
            if distance < QApplication.startDragDistance():
                return
        self._drag_pos = pos
        self.setCursor(Qt.CursorShape.ClosedHandCursor)
        self.update()

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:  # noqa: N802 - Qt API
        if event.button() != Qt.MouseButton.LeftButton:
            return
        src, dragging = self._press_spot, self._drag_pos is not None
        if dragging:
            self.setCursor(Qt.CursorShape.OpenHandCursor)
        self._press_spot, self._drag_pos = None, None
        dst = self.spot_at(event.position())
        if dragging and self._plays():
            self._selected = None
            self._request_move(src, dst)
            self.update()
            return
        if dragging:
            if src is not None and dst is not None:
                self._apply(move_piece(self._position, src, dst))
                if dst.kind in ("board", "hand"):
                    self._cursor = dst
            self._selected = None
            self.update()
            return
        if dst is None or dst != src:
            return
        if dst.kind == "board":
            self.squareClicked.emit(dst.square)
        if self._plays():
            # Click a piece, then the square it goes to (a second click on it drops the choice).
            selected, self._selected = self._selected, None
            if selected is not None and dst.kind == "board" and not (
                    piece_at_spot(self._position, dst) and piece_color(piece_at_spot(self._position, dst))
                    == piece_color(piece_at_spot(self._position, selected))):
                self._request_move(selected, dst)
            elif dst != selected and dst.kind in ("board", "hand") and piece_at_spot(self._position, dst):
                self._selected = dst
            self.update()
            return
        if not self._editable:
            return
        if dst.kind == "turn":
            self._selected = None
            self._set_turn(dst.color)
        elif self._selected is not None:
            # Second click of click-then-click: move the selected piece here.
            if dst != self._selected:
                self._apply(move_piece(self._position, self._selected, dst))
            self._selected = None
        elif piece_at_spot(self._position, dst):
            self._selected = dst
        if dst.kind in ("board", "hand") and (dst.kind == "board" or dst.piece_type):
            self._cursor = dst
        self.update()

    def mouseDoubleClickEvent(self, event: QMouseEvent) -> None:  # noqa: N802 - Qt API
        spot = self.spot_at(event.position())
        if (self._editable and event.button() == Qt.MouseButton.LeftButton
                and spot is not None and spot.kind == "board"):
            self._selected = None
            self._press_spot = None
            self._apply(cycle_piece(self._position, spot.square))
            event.accept()
            return
        super().mouseDoubleClickEvent(event)

    def wheelEvent(self, event: QWheelEvent) -> None:  # noqa: N802 - Qt API
        spot = self.spot_at(event.position())
        if (self._editable and spot is not None and spot.kind == "hand" and spot.piece_type
                and event.angleDelta().y()):
            # Wheel over a hand slot: one more (up) or one less (down).
            step = 1 if event.angleDelta().y() > 0 else -1
            self._apply(add_to_hand(self._position, spot.color, spot.piece_type, step))
            event.accept()
            return
        super().wheelEvent(event)

    # ---- keyboard ---------------------------------------------------------

    def event(self, event: QEvent) -> bool:
        # In edit mode the board's own keys win over window shortcuts that use
        # the same keys (arrows, Home/End, Esc for other purposes).
        if (event.type() == QEvent.Type.ShortcutOverride and self._editable
                and isinstance(event, QKeyEvent) and self._wants_key(event)):
            event.accept()
            return True
        return super().event(event)

    def _wants_key(self, event: QKeyEvent) -> bool:
        """True when :meth:`_handle_key` would use this key."""
        if event.modifiers() & (Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.AltModifier
                                | Qt.KeyboardModifier.MetaModifier):
            return False
        key = event.key()
        if key == Qt.Key.Key_Escape:
            return self._selected is not None
        return key in _ARROWS or key in _LETTER_KEYS or key in _EDIT_KEYS

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 - Qt API
        if not self._editable or not self._handle_key(event):
            super().keyPressEvent(event)

    def _handle_key(self, event: QKeyEvent) -> bool:
        key = event.key()
        shift = bool(event.modifiers() & Qt.KeyboardModifier.ShiftModifier)
        if event.modifiers() & (Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.AltModifier
                                | Qt.KeyboardModifier.MetaModifier):
            return False
        if key in _ARROWS:
            self._move_cursor(*_ARROWS[key])
            return True
        if key == Qt.Key.Key_Escape and self._selected is not None:
            self._selected = None
            self.update()
            return True
        spot = self._cursor
        pos = self._position
        if spot.kind == "board":
            sq = spot.square
            if key in _LETTER_KEYS:
                self._apply(place_from_stock(pos, sq, make_piece(WHITE if shift else BLACK, _LETTER_KEYS[key])))
            elif key in (Qt.Key.Key_Plus, Qt.Key.Key_Equal):
                self._apply(toggle_promotion(pos, sq))
            elif key in (Qt.Key.Key_Minus, Qt.Key.Key_Underscore):
                self._apply(toggle_owner(pos, sq))
            elif key == Qt.Key.Key_Space:
                self._apply(cycle_piece(pos, sq))
            elif key in (Qt.Key.Key_Delete, Qt.Key.Key_Backspace):
                self._apply(place_piece(pos, sq, 0))
            else:
                return False
            return True
        if spot.kind == "hand" and spot.piece_type:
            pt = spot.piece_type
            if key in _LETTER_KEYS and _LETTER_KEYS[key] != KING:
                self._apply(hand_from_stock(pos, spot.color, _LETTER_KEYS[key]))
            elif key in (Qt.Key.Key_Plus, Qt.Key.Key_Equal):
                self._apply(hand_from_stock(pos, spot.color, pt))
            elif key in (Qt.Key.Key_Minus, Qt.Key.Key_Underscore):
                self._apply(add_to_hand(pos, spot.color, pt, -1))
            elif key in (Qt.Key.Key_Delete, Qt.Key.Key_Backspace):
                self._apply(clear_spot(pos, spot))
            else:
                return False
            return True
        return False

    def _move_cursor(self, dx: int, dy: int) -> None:
        self._cursor = move_cursor(self._cursor, dx, dy, self._flipped)
        self.update()

    # ---- painting -------------------------------------------------------

    def _retranslate(self, _lang: str = "") -> None:
        self.setToolTip(tr(KEYBOARD_HELP) if self._editable else "")
        self.setAccessibleName(tr("Shogi board"))
        self.setAccessibleDescription(tr(KEYBOARD_HELP) if self._editable else "")
        self.update()

    def _layout(self, rect: QRectF | None = None, diagram: bool = False) -> _Layout:
        editing = self._editable and not diagram
        orders = None
        if not editing:
            # Outside edit mode each stand lists only the kinds in hand, packed from the top.
            orders = {c: tuple(pt for pt in STAND_ORDER if self._position.hand(c)[HAND_INDEX[pt]])
                      for c in (BLACK, WHITE)}
        with_box = (editing or self._keep_box) and not diagram
        return _Layout(QRectF(self.rect()) if rect is None else rect, self._flipped, with_box, orders)

    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802 - Qt API
        painter = QPainter(self)
        self._paint_all(painter, QRectF(self.rect()), diagram=False)
        painter.end()

    def _font(self, pixel_size: float, bold: bool = False) -> QFont:
        font = QFont(self._family)
        font.setPixelSize(max(1, round(pixel_size)))
        font.setBold(bold)
        return font

    def _renderer(self, name: str) -> QSvgRenderer:
        r = self._renderers.get(name)
        if r is None:
            r = QSvgRenderer(QByteArray(piece_svg(name)))
            self._renderers[name] = r
        return r

    def _draw_piece(self, painter: QPainter, pc: Piece, cell: QRectF, cached: bool,
                    faded: bool = False) -> None:
        """Draw a piece centred in ``cell``, upside down when it faces the viewer."""
        side = min(cell.width(), cell.height())
        target = QRectF(cell.center().x() - side / 2, cell.center().y() - side / 2, side, side)
        upside_down = (piece_color(pc) == WHITE) != self._flipped
        name = _piece_image(pc)
        painter.save()
        if faded:
            painter.setOpacity(0.3)
        if cached:
            dpr = self.devicePixelRatioF()
            px = max(1, round(side * dpr))
            key = (name, px, px, upside_down, dpr)
            pixmap = self._pixmaps.get(key)
            if pixmap is None:
                image = QImage(px, px, QImage.Format.Format_ARGB32_Premultiplied)
                image.fill(Qt.GlobalColor.transparent)
                p = QPainter(image)
                p.setRenderHint(QPainter.RenderHint.Antialiasing)
                if upside_down:
                    p.translate(px, px)
                    p.rotate(180)
                self._renderer(name).render(p, QRectF(0, 0, px, px))
                p.end()
                pixmap = QPixmap.fromImage(_with_shadow(image))
                pixmap.setDevicePixelRatio(dpr)
                if len(self._pixmaps) > 400:
                    self._pixmaps.clear()
                self._pixmaps[key] = pixmap
            painter.drawPixmap(target.topLeft(), pixmap)
        else:
            if upside_down:
                painter.translate(target.center())
                painter.rotate(180)
                painter.translate(-target.center())
            self._renderer(name).render(painter, target)
        painter.restore()

    def _paint_all(self, painter: QPainter, rect: QRectF, diagram: bool, vector: bool = False) -> None:
        """Paint everything; ``diagram`` leaves out the box and edit marks, ``vector`` keeps pieces as paths."""
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setRenderHint(QPainter.RenderHint.TextAntialiasing)
        painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform)
        layout = self._layout(rect, diagram)
        u = layout.unit
        if u <= 0:
            return
        cached = not vector
        dragging = self._drag_pos is not None and self._press_spot is not None and not diagram
        drag_src = self._press_spot if dragging else None

        if not diagram:
            origin, backdrop = self._backdrop(layout)
            painter.drawPixmap(origin, backdrop)
        else:
            self._paint_backdrop(painter, layout)
        self._paint_square_marks(painter, layout, diagram)
        self._paint_grid(painter, layout)
        # Pieces on the board.
        for sq, pc in self._position.pieces():
            if drag_src is not None and drag_src.kind == "board" and drag_src.square == sq:
                self._draw_piece(painter, pc, layout.square_rect(sq), cached, faded=True)
                continue
            self._draw_piece(painter, pc, layout.square_rect(sq).adjusted(
                0.02 * u, 0.02 * u, -0.02 * u, -0.02 * u), cached)
        for color in (BLACK, WHITE):
            self._paint_stand(painter, layout, color, cached, diagram, drag_src)
        if layout.with_box:
            self._paint_box(painter, layout, cached, drag_src)
        if not diagram and (self._editable or self._plays()):
            self._paint_edit_marks(painter, layout)
        if dragging and self._drag_pos is not None and self._press_spot is not None:
            pc = piece_at_spot(self._position, self._press_spot)
            if pc:
                cell = QRectF(0, 0, u * 1.05, _SQ_H * u * 1.05)
                cell.moveCenter(self._drag_pos)
                self._draw_piece(painter, pc, cell, cached)

    def _backdrop(self, layout: _Layout) -> tuple[QPointF, QPixmap]:
        """The wooden parts (board, stands, box) as a pixmap, and where to draw it.

        Antialiased rounded rectangles with gradients are by far the slowest
        part of a paint, and they only change with the square size, flip and
        mode, so the pixmap is kept until one of those changes.
        """
        dpr = self.devicePixelRatioF()
        content = layout.content
        key = (round(layout.unit * 1000), layout.flipped, layout.with_box, dpr)
        if self._backdrop_key != key or self._backdrop_pixmap is None:
            image = QImage(max(1, math.ceil((content.width() + 2) * dpr)),
                           max(1, math.ceil((content.height() + 2) * dpr)),
                           QImage.Format.Format_ARGB32_Premultiplied)
            image.fill(Qt.GlobalColor.transparent)
            p = QPainter(image)
            p.setRenderHint(QPainter.RenderHint.Antialiasing)
            p.scale(dpr, dpr)
            p.translate(-math.floor(content.x()), -math.floor(content.y()))
            self._paint_backdrop(p, layout)
            p.end()
            pixmap = QPixmap.fromImage(image)
            pixmap.setDevicePixelRatio(dpr)
            self._backdrop_pixmap = pixmap
            self._backdrop_key = key
        return QPointF(math.floor(content.x()), math.floor(content.y())), self._backdrop_pixmap

    def _paint_backdrop(self, painter: QPainter, layout: _Layout) -> None:
        u = layout.unit
        for stand in layout.stands.values():
            _wood_panel(painter, stand, u, 0.12, _STAND_LIGHT, _STAND_DARK, "#7a4d1e", 0.03)
        if layout.with_box:
            painter.setPen(QPen(QColor("#7a4d1e"), max(1.0, 0.03 * u)))
            painter.setBrush(QColor("#c9a47a"))
            painter.drawRoundedRect(layout.box, 0.12 * u, 0.12 * u)
        _wood_panel(painter, layout.frame, u, 0.08, _BOARD_LIGHT, _BOARD_DARK, "#8a5a2b", 0.04)

    def _paint_grid(self, painter: QPainter, layout: _Layout) -> None:
        u = layout.unit
        frame = layout.frame
        grid = layout.grid
        pen = QPen(_INK, max(1.0, 0.025 * u))
        pen.setCapStyle(Qt.PenCapStyle.FlatCap)
        painter.setPen(pen)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        for i in range(10):
            x = grid.left() + i * u
            y = grid.top() + i * _SQ_H * u
            painter.drawLine(QPointF(x, grid.top()), QPointF(x, grid.bottom()))
            painter.drawLine(QPointF(grid.left(), y), QPointF(grid.right(), y))
        painter.setPen(QPen(_INK, max(1.5, 0.05 * u)))
        painter.drawRect(grid)
        # Star points (星) where the lines around the central 3x3 cross.
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(_INK)
        r = 0.07 * u
        for i in (3, 6):
            for j in (3, 6):
                painter.drawEllipse(QPointF(grid.left() + i * u, grid.top() + j * _SQ_H * u), r, r)
        # Coordinates: ９…１ across the top, 一…九 down the right side.
        painter.setPen(_INK)
        painter.setFont(self._font(0.34 * u))
        for col in range(9):
            file = col + 1 if layout.flipped else 9 - col
            rect = QRectF(grid.left() + col * u, frame.top() - _FILE_LABELS * u, u, _FILE_LABELS * u)
            painter.drawText(rect, Qt.AlignmentFlag.AlignCenter, FULLWIDTH_DIGITS[file])
        for row in range(9):
            rank = 9 - row if layout.flipped else row + 1
            rect = QRectF(frame.right(), grid.top() + row * _SQ_H * u, _RANK_LABELS * u, _SQ_H * u)
            painter.drawText(rect, Qt.AlignmentFlag.AlignCenter, KANJI_DIGITS[rank])

    def _paint_square_marks(self, painter: QPainter, layout: _Layout, diagram: bool) -> None:
        painter.setPen(Qt.PenStyle.NoPen)
        move = self._last_move
        if move is not None:
            if move.from_square is not None:
                painter.setBrush(_LAST_FROM)
                painter.drawRect(layout.square_rect(move.from_square))
            painter.setBrush(_LAST_TO)
            painter.drawRect(layout.square_rect(move.to_square))
        painter.setBrush(_HIGHLIGHT)
        for sq in self._highlights:
            painter.drawRect(layout.square_rect(sq))
        if not diagram:
            painter.setBrush(_ERROR)
            for sq in self._errors:
                painter.drawRect(layout.square_rect(sq))

    def _paint_stand(self, painter: QPainter, layout: _Layout, color: Color, cached: bool,
                     diagram: bool, drag_src: Spot | None) -> None:
        u = layout.unit
        # The side's name; the side to move is marked with a filled band.
        header = layout.header_rect(color)
        to_move = self._position.turn == color
        if to_move:
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(QColor(255, 255, 255, 90))
            painter.drawRoundedRect(header.adjusted(0.1 * u, 0.1 * u, -0.1 * u, -0.05 * u),
                                    0.1 * u, 0.1 * u)
        painter.setPen(_INK)
        painter.setFont(self._font(0.36 * u, bold=to_move))
        mark = "☗" if color == BLACK else "☖"
        painter.drawText(header, Qt.AlignmentFlag.AlignCenter,
                         f"{mark}{tr('Black') if color == BLACK else tr('White')}")
        hand = self._position.hand(color)
        for pt in layout.orders[color]:
            n = hand[HAND_INDEX[pt]]
            slot = layout.slot_rect(color, pt)
            if drag_src is not None and drag_src == Spot.hand(color, pt):
                n -= 1
            show_empty = self._editable and not diagram
            if n <= 0 and not show_empty:
                continue
            cell = QRectF(slot.left() + 0.1 * u, slot.top(), u, slot.height()).adjusted(
                0, 0.04 * u, 0, -0.04 * u)
            self._draw_piece(painter, make_piece(color, pt), cell, cached, faded=n <= 0)
            if n > 1:
                painter.setPen(_INK)
                painter.setFont(self._font(0.42 * u, bold=True))
                painter.drawText(QRectF(cell.right(), slot.top(), slot.right() - cell.right(),
                                        slot.height()), Qt.AlignmentFlag.AlignCenter, str(n))

    def _paint_box(self, painter: QPainter, layout: _Layout, cached: bool, drag_src: Spot | None) -> None:
        u = layout.unit
        box = layout.box
        painter.setPen(_INK)
        painter.setFont(self._font(0.3 * u, bold=True))
        painter.drawText(QRectF(box.left(), box.top(), 1.3 * u, box.height()),
                         Qt.AlignmentFlag.AlignCenter | Qt.TextFlag.TextWordWrap, tr("Piece box"))
        counts = box_counts(self._position)
        for pt in BOX_ORDER:
            n = counts[pt] - (1 if drag_src == Spot.box(pt) else 0)
            slot = layout.box_slot_rect(pt)
            cell = slot.adjusted(0.05 * u, 0.05 * u, -0.05 * u, -0.3 * u)
            pc = make_piece(box_king_color(self._position) if pt == KING else BLACK, pt)
            self._draw_piece(painter, pc, cell, cached, faded=n <= 0)
            painter.setPen(_INK)
            painter.setFont(self._font(0.26 * u))
            painter.drawText(QRectF(slot.left(), slot.bottom() - 0.32 * u, slot.width(), 0.3 * u),
                             Qt.AlignmentFlag.AlignCenter, f"×{max(0, n)}")

    def _spot_rect(self, layout: _Layout, spot: Spot) -> QRectF | None:
        if spot.kind == "board":
            return layout.square_rect(spot.square)
        if spot.kind == "hand" and spot.piece_type:
            return layout.slot_rect(spot.color, spot.piece_type)
        if spot.kind == "box" and spot.piece_type and layout.with_box:
            return layout.box_slot_rect(spot.piece_type)
        return None

    def _paint_edit_marks(self, painter: QPainter, layout: _Layout) -> None:
        u = layout.unit
        if self._drag_pos is not None:
            # Where the dragged piece would land.
            target = layout.spot_at(self._drag_pos)
            rect = self._spot_rect(layout, target) if target is not None else None
            if rect is not None:
                painter.setPen(QPen(_SELECTED.darker(150), max(2.0, 0.05 * u)))
                painter.setBrush(_SELECTED)
                painter.drawRect(rect)
        if self._selected is not None:
            rect = self._spot_rect(layout, self._selected)
            if rect is not None:
                painter.setPen(Qt.PenStyle.NoPen)
                painter.setBrush(_SELECTED)
                painter.drawRect(rect)
        if self.hasFocus() and self._editable:
            rect = self._spot_rect(layout, self._cursor)
            if rect is not None:
                painter.setPen(QPen(_CURSOR, max(2.0, 0.06 * u)))
                painter.setBrush(Qt.BrushStyle.NoBrush)
                painter.drawRect(rect.adjusted(0.03 * u, 0.03 * u, -0.03 * u, -0.03 * u))


def _wood_panel(painter: QPainter, rect: QRectF, u: float, radius: float, light: QColor, dark: QColor,
                edge: str, edge_width: float) -> None:
    """A rounded wooden panel (board or hand stand): a soft shadow, then the wood with its edge."""
    painter.setPen(Qt.PenStyle.NoPen)
    painter.setBrush(QColor(0, 0, 0, 50))
    painter.drawRoundedRect(rect.translated(0.06 * u, 0.08 * u), radius * u, radius * u)
    gradient = QLinearGradient(rect.topLeft(), rect.bottomRight())
    gradient.setColorAt(0.0, light)
    gradient.setColorAt(1.0, dark)
    painter.setBrush(gradient)
    painter.setPen(QPen(QColor(edge), max(1.0, edge_width * u)))
    painter.drawRoundedRect(rect, radius * u, radius * u)

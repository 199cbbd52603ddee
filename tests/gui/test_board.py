"""BoardView: drawing, and editing by simulated mouse and keys (the rules themselves: tests/core/test_editing.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QAction, QFont, QFontDatabase, QFontMetrics, QImage, QKeySequence, QWheelEvent, qGray
from PySide6.QtWidgets import QApplication
from tsume_studio.core.editing import Spot
from tsume_studio.core.shogi.moves import Move
from tsume_studio.core.shogi.position import Position
from tsume_studio.core.shogi.types import (
    BLACK,
    GOLD,
    KING,
    PAWN,
    ROOK,
    SILVER,
    WHITE,
    square,
)
from tsume_studio.gui import i18n
from tsume_studio.gui.board import BoardView
from tsume_studio.gui.resources import piece_svg, register_fonts, resource_path

TSUME = "4k4/9/9/9/9/9/9/9/9 b 2r2b4g4s4n4l18p 1"


@pytest.fixture
def view(qtbot) -> BoardView:
    v = BoardView()
    qtbot.addWidget(v)
    v.resize(900, 700)
    v.set_position(Position.from_sfen(TSUME))
    v.set_editable(True)
    v.show()
    qtbot.waitExposed(v)
    return v


def centre(rect) -> QPoint:
    return rect.center().toPoint()


def drag(qtbot, view: BoardView, start: QPoint, end: QPoint) -> None:
    qtbot.mousePress(view, Qt.MouseButton.LeftButton, pos=start)
    mid = QPoint((start.x() + end.x()) // 2, (start.y() + end.y()) // 2)
    qtbot.mouseMove(view, mid)
    qtbot.mouseMove(view, end)
    qtbot.mouseRelease(view, Qt.MouseButton.LeftButton, pos=end)


# ---- mouse -------------------------------------------------------------------


def test_drag_from_hand_to_board_and_back(qtbot, view: BoardView) -> None:
    edits: list[Position] = []
    view.positionEdited.connect(edits.append)
    s23 = square(2, 3)
    qtbot.mouseMove(view, centre(view.hand_rect(WHITE, GOLD)))
    assert view.cursor().shape() == Qt.CursorShape.OpenHandCursor
    qtbot.mouseMove(view, centre(view.square_rect(s23)))
    assert view.cursor().shape() == Qt.CursorShape.ArrowCursor
    drag(qtbot, view, centre(view.hand_rect(WHITE, GOLD)), centre(view.square_rect(s23)))
    assert view.position().sfen() == "4k4/9/7g1/9/9/9/9/9/9 b 2r2b3g4s4n4l18p 1"
    assert len(edits) == 1 and edits[0] == view.position()
    # The gold goes to Black's hand.
    drag(qtbot, view, centre(view.square_rect(s23)), centre(view.hand_rect(BLACK, ROOK)))
    assert view.position().sfen() == "4k4/9/9/9/9/9/9/9/9 b G2r2b3g4s4n4l18p 1"
    # And from there to the box: it leaves the position.
    drag(qtbot, view, centre(view.hand_rect(BLACK, GOLD)), centre(view.box_rect(PAWN)))
    assert view.position().sfen() == "4k4/9/9/9/9/9/9/9/9 b 2r2b3g4s4n4l18p 1"
    assert len(edits) == 3


def test_drag_from_box_and_move_on_board(qtbot, view: BoardView) -> None:
    view.set_position(Position.empty())
    drag(qtbot, view, centre(view.box_rect(KING)), centre(view.square_rect(square(5, 1))))
    drag(qtbot, view, centre(view.box_rect(ROOK)), centre(view.square_rect(square(5, 5))))
    drag(qtbot, view, centre(view.square_rect(square(5, 5))), centre(view.square_rect(square(5, 3))))
    assert view.position().sfen() == "4k4/9/4R4/9/9/9/9/9/9 b - 1"


def test_right_click_and_double_click_cycle(qtbot, view: BoardView) -> None:
    view.set_position(Position.from_sfen("4k4/9/4R4/9/9/9/9/9/9 b - 1"))
    at = centre(view.square_rect(square(5, 3)))
    qtbot.mouseClick(view, Qt.MouseButton.RightButton, pos=at)
    assert view.position().sfen() == "4k4/9/4+R4/9/9/9/9/9/9 b - 1"
    qtbot.mouseDClick(view, Qt.MouseButton.LeftButton, pos=at)
    assert view.position().sfen() == "4k4/9/4r4/9/9/9/9/9/9 b - 1"
    qtbot.mouseClick(view, Qt.MouseButton.RightButton, Qt.KeyboardModifier.ShiftModifier, pos=at)
    assert view.position().sfen() == "4k4/9/4R4/9/9/9/9/9/9 b - 1"


def test_click_then_click_moves_and_turn_header(qtbot, view: BoardView) -> None:
    qtbot.mouseClick(view, Qt.MouseButton.LeftButton, pos=centre(view.hand_rect(WHITE, ROOK)))
    qtbot.mouseClick(view, Qt.MouseButton.LeftButton, pos=centre(view.square_rect(square(1, 1))))
    assert view.position().sfen() == "4k3r/9/9/9/9/9/9/9/9 b r2b4g4s4n4l18p 1"
    qtbot.mouseClick(view, Qt.MouseButton.LeftButton, pos=centre(view.turn_rect(WHITE)))
    assert view.position().turn == WHITE


def test_read_only_view_only_reports_clicks(qtbot, view: BoardView) -> None:
    view.set_editable(False)
    before = view.position()
    with qtbot.assertNotEmitted(view.positionEdited):
        drag(qtbot, view, centre(view.hand_rect(WHITE, GOLD)), centre(view.square_rect(0)))
        qtbot.mouseClick(view, Qt.MouseButton.RightButton, pos=centre(view.square_rect(square(5, 1))))
    assert view.position() == before
    with qtbot.waitSignal(view.squareClicked) as blocker:
        qtbot.mouseClick(view, Qt.MouseButton.LeftButton, pos=centre(view.square_rect(square(7, 6))))
    assert blocker.args == [square(7, 6)]


def test_flip_puts_5a_at_the_bottom(qtbot, view: BoardView) -> None:
    top = view.square_rect(square(5, 1)).center().y()
    view.set_flipped(True)
    assert view.is_flipped()
    assert view.square_rect(square(5, 1)).center().y() > top
    # Square 1一 is now at the top left.
    assert view.spot_at(view.square_rect(square(1, 1)).center()) == Spot.board(square(1, 1))
    assert view.square_rect(square(1, 1)).left() < view.square_rect(square(9, 9)).left()
    with qtbot.waitSignal(view.squareClicked) as blocker:
        qtbot.mouseClick(view, Qt.MouseButton.LeftButton, pos=centre(view.square_rect(square(2, 8))))
    assert blocker.args == [square(2, 8)]


# ---- keyboard ------------------------------------------------------------------


def test_keyboard_editing(qtbot, view: BoardView) -> None:
    view.set_position(Position.empty())
    view.setFocus()
    view.set_cursor_spot(Spot.board(square(5, 5)))
    qtbot.keyClick(view, Qt.Key.Key_Up)           # 5四
    qtbot.keyClick(view, Qt.Key.Key_S)            # Black silver
    qtbot.keyClick(view, Qt.Key.Key_Plus)         # promoted
    qtbot.keyClick(view, Qt.Key.Key_Right)        # 4四
    qtbot.keyClick(view, Qt.Key.Key_K, Qt.KeyboardModifier.ShiftModifier)  # White king
    qtbot.keyClick(view, Qt.Key.Key_Down)         # 4五
    qtbot.keyClick(view, Qt.Key.Key_P)
    qtbot.keyClick(view, Qt.Key.Key_Minus)        # now White's
    qtbot.keyClick(view, Qt.Key.Key_Down)         # 4六
    qtbot.keyClick(view, Qt.Key.Key_G)
    qtbot.keyClick(view, Qt.Key.Key_Delete)       # gone again
    assert view.position().sfen() == "9/9/9/4+Sk3/5p3/9/9/9/9 b - 1"
    # Off the right edge of the board: Black's stand (not flipped); add two pawns, take one.
    for _ in range(4):
        qtbot.keyClick(view, Qt.Key.Key_Right)
    spot = view.cursor_spot()
    assert spot.kind == "hand" and spot.color == BLACK
    view.set_cursor_spot(Spot.hand(BLACK, PAWN))
    qtbot.keyClick(view, Qt.Key.Key_Plus)
    qtbot.keyClick(view, Qt.Key.Key_Plus)
    qtbot.keyClick(view, Qt.Key.Key_R)
    qtbot.keyClick(view, Qt.Key.Key_Minus)
    assert view.position().sfen() == "9/9/9/4+Sk3/5p3/9/9/9/9 b RP 1"


def test_keys_do_nothing_when_read_only(qtbot, view: BoardView) -> None:
    view.set_editable(False)
    view.setFocus()
    with qtbot.assertNotEmitted(view.positionEdited):
        qtbot.keyClick(view, Qt.Key.Key_P)
        qtbot.keyClick(view, Qt.Key.Key_Delete)


# ---- drawing -------------------------------------------------------------------


def test_render_png_and_svg(qtbot, view: BoardView, tmp_path: Path) -> None:
    view.set_last_move(Move.from_usi("G*5b"))
    png = tmp_path / "board.png"
    view.render_image(str(png), width=640)
    image = QImage(str(png))
    assert image.width() == 640 and 400 < image.height() < 640
    # Not blank: many different colours (wood, ink, pieces, highlight).
    colours = {image.pixel(x, y) for x in range(0, 640, 7) for y in range(0, image.height(), 7)}
    assert len(colours) > 50
    svg = tmp_path / "board.svg"
    view.render_image(str(svg))
    text = svg.read_text(encoding="utf-8")
    assert text.lstrip().startswith("<?xml") and "<svg" in text and len(text) > 10_000
    with pytest.raises(ValueError, match=r"'\.jpg'"):
        view.render_image(str(tmp_path / "board.jpg"))
    with pytest.raises(OSError):
        view.render_image(str(tmp_path / "missing" / "board.png"))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["board.png", "board.svg"]


def test_white_pieces_are_drawn_upside_down(qtbot, view: BoardView) -> None:
    """The kanji sits below the centre of a piece, so its ink is low for Black, high for White."""
    def ink_centre(sfen: str) -> float:
        view.set_position(Position.from_sfen(sfen))
        image = view.grab(view.square_rect(square(5, 5)).toRect()).toImage()
        m = 4  # stay clear of the grid lines
        ys = [y for x in range(m, image.width() - m) for y in range(m, image.height() - m)
              if qGray(image.pixel(x, y)) < 70]
        assert len(ys) > 30, "no kanji drawn"
        return sum(ys) / len(ys) / image.height()

    black = ink_centre("9/9/9/9/4G4/9/9/9/9 b - 1")
    white = ink_centre("9/9/9/9/4g4/9/9/9/9 b - 1")
    assert black > 0.51 and white < 0.49, (black, white)
    view.set_flipped(True)
    assert ink_centre("9/9/9/9/4g4/9/9/9/9 b - 1") == pytest.approx(black, abs=0.01)


def test_piece_images_and_font_are_bundled(qapp) -> None:
    for name in ("OU", "GY", "HI", "RY", "FU", "TO"):
        assert piece_svg(name).startswith(b"<svg")
    with pytest.raises(ValueError, match=r"'\.\./x'"):
        resource_path("../x")
    family = register_fonts()
    assert family == "Tsume Studio Sans JP"
    assert family in QFontDatabase.families()
    metrics = QFontMetrics(QFont(family))
    for ch in "玉詰飛角歩☗☖":
        assert metrics.inFontUcs4(ord(ch)), ch
    assert (resource_path("fonts", "LICENSE-NotoSansCJK.txt")).is_file()


def test_language_switch(qtbot, view: BoardView) -> None:
    seen: list[str] = []
    i18n.notifier.language_changed.connect(seen.append)
    try:
        i18n.set_language("ja")
        assert i18n.tr("Black") == "先手"
        assert "矢印キー" in view.toolTip()
        i18n.set_language("en")
        assert i18n.tr("Black") == "Black"
        assert view.toolTip().startswith("Editing with the keyboard")
        assert seen == ["ja", "en"]
        with pytest.raises(ValueError, match="'fr'"):
            i18n.set_language("fr")
    finally:
        i18n.notifier.language_changed.disconnect(seen.append)
        i18n.set_language("en")


def test_spot_at_outside_everything(view: BoardView) -> None:
    assert view.spot_at(QPointF(1, 1)) is None


def test_read_only_stands_list_only_pieces_in_hand(view: BoardView) -> None:
    view.set_position(Position.from_sfen("4k4/9/9/9/9/9/9/9/9 b GP 1"))
    edit_gold = view.hand_rect(BLACK, GOLD)
    view.set_editable(False)
    # Packed from the top: the gold moves up into the first slot, absent kinds have no slot.
    assert view.hand_rect(BLACK, GOLD).top() < edit_gold.top()
    assert view.hand_rect(BLACK, PAWN).top() > view.hand_rect(BLACK, GOLD).top()
    assert view.hand_rect(BLACK, ROOK).isEmpty() and view.hand_rect(WHITE, PAWN).isEmpty()
    assert view.spot_at(view.hand_rect(BLACK, GOLD).center()) == Spot.hand(BLACK, GOLD)


def test_board_keys_win_over_window_shortcuts_only_in_edit_mode(qtbot, view: BoardView) -> None:
    fired: list[str] = []
    for key in ("Left", "Delete"):
        act = QAction(key, view)
        act.setShortcut(QKeySequence(key))
        act.triggered.connect(lambda _checked=False, k=key: fired.append(k))
        view.addAction(act)
    view.set_position(Position.from_sfen("9/9/9/9/3G5/9/9/9/9 b - 1"))
    view.setFocus()
    view.set_cursor_spot(Spot.board(square(5, 5)))
    qtbot.keyClick(view, Qt.Key.Key_Left)
    qtbot.keyClick(view, Qt.Key.Key_Delete)
    assert fired == []
    assert view.cursor_spot() == Spot.board(square(6, 5))
    assert view.position().sfen() == "9/9/9/9/9/9/9/9/9 b - 1"
    view.set_editable(False)
    qtbot.keyClick(view, Qt.Key.Key_Left)
    assert fired == ["Left"]


def test_painting_keeps_none_alive(view: BoardView) -> None:
    """PySide6 6.12.0 loses a reference to None per void call; on Python < 3.12 that aborts.

    Painting the board makes hundreds of such calls, so a broken binding shows
    up here as a large drop (pyproject.toml excludes that version).
    """
    import sys

    before = sys.getrefcount(None)
    for _ in range(5):
        view.grab()
    assert sys.getrefcount(None) > before - 100


def test_flipped_stands_swap_and_editing_still_works(qtbot, view: BoardView) -> None:
    white_stand_x = view.hand_rect(WHITE, PAWN).center().x()
    view.set_flipped(True)
    # White's stand moves from the left to the right; 5一 is now near the bottom.
    assert view.hand_rect(WHITE, PAWN).center().x() > white_stand_x
    drag(qtbot, view, centre(view.hand_rect(WHITE, PAWN)), centre(view.square_rect(square(5, 2))))
    assert view.position().sfen() == "4k4/4p4/9/9/9/9/9/9/9 b 2r2b4g4s4n4l17p 1"
    view.setFocus()
    view.set_cursor_spot(Spot.board(square(5, 2)))
    qtbot.keyClick(view, Qt.Key.Key_Up)   # up the screen on a flipped board: towards rank 九
    assert view.cursor_spot() == Spot.board(square(5, 3))
    qtbot.keyClick(view, Qt.Key.Key_Left)  # left on a flipped board: towards file 1
    assert view.cursor_spot() == Spot.board(square(4, 3))


def test_wheel_over_a_hand_slot_adds_and_removes(qtbot, view: BoardView) -> None:
    def wheel(at: QPointF, dy: int) -> None:
        event = QWheelEvent(at, view.mapToGlobal(at), QPoint(0, 0), QPoint(0, dy),
                            Qt.MouseButton.NoButton, Qt.KeyboardModifier.NoModifier,
                            Qt.ScrollPhase.NoScrollPhase, False)
        QApplication.sendEvent(view, event)

    at = view.hand_rect(BLACK, SILVER).center()
    wheel(at, 120)
    wheel(at, 120)
    wheel(view.hand_rect(WHITE, PAWN).center(), -120)
    assert view.position().sfen() == "4k4/9/9/9/9/9/9/9/9 b 2S2r2b4g4s4n4l17p 1"
    wheel(view.square_rect(square(5, 5)).center(), 120)   # not over a hand: nothing
    view.set_editable(False)
    wheel(view.hand_rect(WHITE, PAWN).center(), -120)
    assert view.position().sfen() == "4k4/9/9/9/9/9/9/9/9 b 2S2r2b4g4s4n4l17p 1"


def test_wheel_stops_at_a_full_hand(qtbot, view: BoardView) -> None:
    """White holds all 18 pawns: one more is refused quietly, one fewer works."""
    def wheel(at: QPointF, dy: int) -> None:
        event = QWheelEvent(at, view.mapToGlobal(at), QPoint(0, 0), QPoint(0, dy),
                            Qt.MouseButton.NoButton, Qt.KeyboardModifier.NoModifier,
                            Qt.ScrollPhase.NoScrollPhase, False)
        QApplication.sendEvent(view, event)

    at = view.hand_rect(WHITE, PAWN).center()
    with qtbot.assertNotEmitted(view.positionEdited):
        wheel(at, 120)
        view.setFocus()
        view.set_cursor_spot(Spot.hand(WHITE, PAWN))
        qtbot.keyClick(view, Qt.Key.Key_Plus)
    assert view.position().sfen() == TSUME
    wheel(at, -120)
    assert view.position().sfen() == "4k4/9/9/9/9/9/9/9/9 b 2r2b4g4s4n4l17p 1"

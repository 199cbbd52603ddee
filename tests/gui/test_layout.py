"""Layout and small fixes of the main window: a toolbar that stays put, compact numbers,
the layout at 1024×700 and its reset, the piece box while solving, stale highlights,
texts retranslated after a language switch, the About dialog."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialog
from pytestqt.qtbot import QtBot

from tsume_studio.core.shogi.position import Position
from tsume_studio.gui import i18n
from tsume_studio.gui.mainwindow import MainWindow

pytestmark = pytest.mark.qt_log_ignore(r"This plugin does not support (propagateSizeHints|raise)")

THREE = "7k1/4R4/9/9/9/9/9/9/9 b SNr2b4g3s3n4l18p 1"
TSUME = "4k4/9/9/9/9/9/9/9/9 b 2r2b4g4s4n4l18p 1"


@pytest.fixture(autouse=True)
def english() -> Iterator[None]:
    """The language is global: every test starts and ends in English."""
    i18n.set_language("en")
    yield
    i18n.set_language("en")


def shown_window(qtbot: QtBot, width: int = 1280, height: int = 820, solver=None) -> MainWindow:
    window = MainWindow() if solver is None else MainWindow(solver_for=lambda _mode: solver)
    qtbot.addWidget(window)
    window.resize(width, height)
    window.show()
    qtbot.waitExposed(window)
    return window


def test_undo_redo_buttons_keep_their_text_and_place(qtbot: QtBot) -> None:
    window = shown_window(qtbot)
    editor = window.editor
    undo, redo = editor.action("undo"), editor.action("redo")
    buttons = [window.toolbar.widgetForAction(a) for a in window.toolbar.actions() if not a.isSeparator()]
    before = [b.geometry() for b in buttons]
    undo_button = window.toolbar.widgetForAction(undo)
    assert undo_button.text() == "Undo"
    editor.preset_tsume()
    editor.action("clear").trigger()
    editor.set_position(Position.from_sfen(THREE))
    editor.undo_stack.undo()
    qtbot.wait(10)
    # The step's name is in the menu text and the tooltip, not on the button.
    assert undo.text() == "Undo Clear board"
    assert undo.toolTip() == undo.text()
    assert redo.text() == "Redo Set position"
    assert undo_button.text() == "Undo" and window.toolbar.widgetForAction(redo).text() == "Redo"
    assert [b.geometry() for b in buttons] == before


def test_undo_labels_recorded_before_a_switch_are_retranslated(qtbot: QtBot) -> None:
    window = shown_window(qtbot)
    editor = window.editor
    editor.preset_tsume()
    editor.clear()
    editor.undo_stack.undo()
    i18n.set_language("ja")
    assert editor.undo_stack.undoText() == "詰将棋の初期配置"
    assert editor.action("undo").text() == "元に戻す: 詰将棋の初期配置"
    assert editor.action("redo").text() == "やり直し: 盤面をクリア"
    assert window.toolbar.widgetForAction(editor.action("undo")).text() == "元に戻す"
    i18n.set_language("en")
    assert editor.action("redo").text() == "Redo Clear board"


def test_solve_menu_step_items_have_text(qtbot: QtBot) -> None:
    window = shown_window(qtbot)
    menu = window.menus["solve"]
    texts = [a.text() for a in menu.actions()]
    assert {"First", "Back", "Forward", "Last"} <= set(texts)
    # The toolbar keeps its compact glyphs.
    assert window.toolbar.widgetForAction(window.actions_["first"]).text() == "|◀"
    i18n.set_language("ja")
    assert window.actions_["forward"].text() == "1手進む"
    assert window.toolbar.widgetForAction(window.actions_["forward"]).text() == "▶"


def test_problem_square_highlight_is_cleared_by_the_next_position(qtbot: QtBot) -> None:
    window = shown_window(qtbot)
    window.editor.set_position(Position.from_sfen("P3k4/9/9/9/9/9/9/9/9 b - 1"))   # a dead pawn on 9一
    problem = window.problem_bar.problems()[0]
    assert problem.square is not None
    window.problem_bar.squareActivated.emit(problem.square)
    assert window.board.highlights() == {problem.square}
    window.editor.set_position(Position.from_sfen(TSUME))
    assert window.board.highlights() == frozenset()
    # Undo is a new position too.
    window.problem_bar.squareActivated.emit(40)
    window.editor.undo_stack.undo()
    assert window.board.highlights() == frozenset()


def test_piece_box_stays_while_solving(qtbot: QtBot, standins) -> None:
    window = shown_window(qtbot, solver=standins.waiting)
    window.editor.set_position(Position.from_sfen(THREE))
    board = window.board
    assert board.is_editable() and board.has_box()
    before = board.square_rect(40)
    with qtbot.waitSignal(window.searchStarted):
        window.solve()
    try:
        qtbot.wait(30)
        assert not board.is_editable()
        assert board.has_box() and not board.box_rect(1).isEmpty()   # 1 = PAWN
        assert board.square_rect(40) == before
    finally:
        with qtbot.waitSignal(window.searchFinished, timeout=5000):
            window.stop()
    assert board.is_editable() and board.square_rect(40) == before


def test_board_alone_shows_the_box_only_when_editing(qtbot: QtBot) -> None:
    from tsume_studio.gui.board import BoardView

    view = BoardView()
    qtbot.addWidget(view)
    view.resize(800, 700)
    assert not view.has_box() and view.box_rect(1).isEmpty()
    view.set_box_kept(True)
    assert view.has_box() and not view.box_rect(1).isEmpty()
    assert view.size_for_unit(40).height() > view.size_for_unit(40).width() * 0.8


def test_board_keeps_32_px_squares_at_1024x700(qtbot: QtBot) -> None:
    from tsume_studio.gui.mainwindow import MIN_SQUARE

    window = shown_window(qtbot, 1280, 820)
    # Wide docks (as a user may have left them) give way when the window shrinks.
    window.resizeDocks([window.docks["search"], window.docks["result"]], [500, 600], Qt.Orientation.Horizontal)
    window.resize(1024, 700)
    qtbot.waitUntil(lambda: window.width() == 1024)
    qtbot.wait(20)
    assert window.height() == 700
    assert window.board.square_size() >= MIN_SQUARE
    assert all(d.isVisible() for d in window.docks.values())
    window.reset_layout()
    qtbot.wait(20)
    assert window.board.square_size() >= MIN_SQUARE


def test_reset_layout_restores_docks_and_sizes(qtbot: QtBot) -> None:
    from tsume_studio.gui.mainwindow import default_dock_widths

    window = shown_window(qtbot, 1024, 700)
    window.reset_layout()
    qtbot.wait(20)
    docks = window.docks
    left, right = default_dock_widths(1024)
    default = (docks["search"].width(), docks["result"].width(), window.board.size())
    assert abs(default[0] - left) <= 2 and abs(default[1] - right) <= 2
    # Squash, hide, float and move docks, as a user might.
    window.resizeDocks([docks["search"], docks["result"]], [170, 210], Qt.Orientation.Horizontal)
    docks["futile"].hide()
    docks["result"].setFloating(True)
    window.addDockWidget(Qt.DockWidgetArea.BottomDockWidgetArea, docks["proof"])
    qtbot.wait(20)
    assert docks["search"].width() < default[0]
    window.actions_["reset_layout"].trigger()
    qtbot.wait(20)
    assert all(d.isVisible() and not d.isFloating() for d in docks.values())
    right_area = Qt.DockWidgetArea.RightDockWidgetArea
    assert [window.dockWidgetArea(docks[k]) for k in ("result", "proof", "futile", "alternatives")] == [right_area] * 4
    assert window.dockWidgetArea(docks["search"]) == Qt.DockWidgetArea.LeftDockWidgetArea
    assert set(window.tabifiedDockWidgets(docks["proof"])) == {docks["futile"], docks["alternatives"]}
    assert (docks["search"].width(), docks["result"].width(), window.board.size()) == default
    assert window.actions_["reset_layout"] in window.menus["view"].actions()


@pytest.mark.parametrize("n, text", [(0, "0"), (987, "987"), (1000, "1.0k"), (1234, "1.2k"), (9949, "9.9k"),
                                     (9950, "10k"), (34_000, "34k"), (340_499, "340k"), (999_499, "999k"),
                                     (999_500, "1.0M"), (1_234_567, "1.2M"), (12_345_678, "12M"),
                                     (3_000_000_000, "3.0G")])
def test_compact_number(n: int, text: str) -> None:
    from tsume_studio.gui.models import compact_number

    assert compact_number(n) == text
    assert len(text) <= 4


def test_compact_number_infinity() -> None:
    from tsume_studio.core.search.contract import INFINITY
    from tsume_studio.gui.models import compact_number, exact_number_text

    assert compact_number(INFINITY) == "∞" and exact_number_text(INFINITY) == "∞"
    assert exact_number_text(1_234_567) == "1,234,567"


def test_search_tree_abbreviates_numbers_that_do_not_fit(qtbot: QtBot) -> None:
    from PySide6.QtWidgets import QStyleOptionViewItem

    from tsume_studio.core.search.contract import ChildInfo, PathEntry, Progress
    from tsume_studio.gui.models import COL_DN, COL_MOVE, COL_PN
    from tsume_studio.gui.panels import SearchTreePanel

    panel = SearchTreePanel()
    qtbot.addWidget(panel)
    panel.resize(300, 400)
    panel.show()
    qtbot.waitExposed(panel)
    start = Position.from_sfen(THREE)
    panel.model.reset(start)
    # A deep path: the rook and the king walk to and fro.
    moves = ["5b5a", "2a1b", "5a5b", "1b2a"] * 5
    path = tuple(PathEntry(m, 1_234_567, 12, ()) for m in moves)
    panel.update_progress(Progress(nodes=1, nps=1.0, elapsed=0.1, root_pn=1_234_567, root_dn=12, path=path,
                                   root_children=(ChildInfo("5b5a", 1_234_567, 12),), table_fill=0.1,
                                   table_entries=1))
    view = panel.view
    index = panel.model.index_of_path(moves[:1])
    pn_index = index.siblingAtColumn(COL_PN)
    assert pn_index.data() == "1234567"
    assert pn_index.data(Qt.ItemDataRole.ToolTipRole) == "1,234,567"

    def shown(idx) -> str:
        option = QStyleOptionViewItem()
        view.initViewItemOption(option)
        option.rect = view.visualRect(idx)
        view.itemDelegateForIndex(idx).initStyleOption(option, idx)
        return option.text

    view.header().resizeSection(COL_PN, view.fontMetrics().horizontalAdvance("0000"))
    assert shown(pn_index) == "1.2M"
    assert shown(index.siblingAtColumn(COL_DN)) == "12"          # fits: shown in full
    view.header().resizeSection(COL_PN, view.fontMetrics().horizontalAdvance("0000000") + 20)
    assert shown(pn_index) == "1234567"
    # The move column is as wide as the deepest move shown needs (the view scrolls sideways).
    deep = panel.model.index_of_path(moves)
    assert deep.isValid()
    view.scrollTo(deep)
    qtbot.wait(20)
    need = view.indentation() * len(moves) + view.fontMetrics().horizontalAdvance(deep.data())
    assert view.header().sectionSize(COL_MOVE) >= need
    assert deep.data(Qt.ItemDataRole.ToolTipRole) == deep.data()


def test_paste_error_follows_a_language_switch(qtbot: QtBot) -> None:
    from PySide6.QtGui import QGuiApplication

    window = shown_window(qtbot)
    QGuiApplication.clipboard().setText("9/9 b - 1")
    window.editor.action("paste").trigger()
    message = window.last_error
    assert message.startswith("Cannot paste: ")
    detail = message[len("Cannot paste: "):]
    assert window.statusBar().currentMessage() == message
    assert window.error_box is not None and window.error_box.text() == message
    i18n.set_language("ja")
    assert window.last_error == "貼り付けできません: " + detail
    assert window.statusBar().currentMessage() == window.last_error
    assert window.error_box.text() == window.last_error
    i18n.set_language("en")
    assert window.statusBar().currentMessage() == message
    window.error_box.accept()
    assert window.error_box is None


def test_message_keeps_its_source_and_arguments() -> None:
    message = i18n.Message("Cannot open: %1", "x.kif: %2 is not a move")
    assert message == "Cannot open: x.kif: %2 is not a move"
    i18n.set_language("ja")
    assert message.retranslated() == "開けません: x.kif: %2 is not a move"
    assert message.retranslated().retranslated() == message.retranslated()


def test_about_dialog_opens(qtbot: QtBot) -> None:
    from importlib.metadata import version

    from tsume_studio.gui.about import doc_files

    window = shown_window(qtbot)
    assert window.actions_["about"] in window.menus["help"].actions()
    assert window.menus["help"].title() == "&Help"
    with qtbot.waitSignal(window.actions_["about"].triggered):
        window.actions_["about"].trigger()
    dialogs = [w for w in window.findChildren(QDialog) if w.isVisible()]
    assert len(dialogs) == 1
    text = dialogs[0].text()
    assert "Tsume Studio" in text and f"Version {version('tsume-studio')}" in text
    assert "License: GPL-3.0-or-later" in text
    # In a source checkout the documentation and the references are linked; an
    # installed package (as `make test` uses) has no docs beside it, and no links.
    links = dict(doc_files())
    if links:
        assert links["Published sources of the algorithms"].name == "references.md"
        assert "references.md" in dialogs[0].label.text()
    else:
        assert "references.md" not in dialogs[0].label.text()
    dialogs[0].reject()
    i18n.set_language("ja")
    dialog = window.show_about()
    assert "バージョン" in dialog.text() and "ライセンス" in dialog.text()
    assert ("アルゴリズムの出典" in dialog.text()) == bool(links)
    dialog.reject()


@pytest.fixture
def app_font() -> Iterator[None]:
    """The application's font as ``tsume-studio`` sets it (the bundled Japanese font for the moves)."""
    from PySide6.QtWidgets import QApplication

    from tsume_studio.gui.resources import register_fonts

    app = QApplication.instance()
    assert isinstance(app, QApplication)
    saved = app.font()
    font = app.font()
    font.setFamilies([font.family(), register_fonts()])
    app.setFont(font)
    yield
    app.setFont(saved)


@pytest.mark.usefixtures("app_font")
@pytest.mark.parametrize("size, opened", [((1280, 820), 9), ((1024, 700), 5)])
def test_live_tree_opens_the_path_only_as_deep_as_its_moves_show_whole(qtbot: QtBot, size: tuple[int, int],
                                                                       opened: int) -> None:
    """Every row the live tree opens shows its move whole, beside pn/dn, without scrolling sideways.

    Rows indent 12 px a ply: a 12-ply path opened in the search dock pushed its deepest moves past
    the dock's edge.  The tree now opens the path as deep as a usual long move still fits.
    """
    from PySide6.QtWidgets import QStyleOptionViewItem

    from tsume_studio.core.search.contract import ChildInfo, PathEntry, Progress
    from tsume_studio.gui.models import COL_MOVE

    window = shown_window(qtbot, *size)   # the default size, and a small laptop's
    window.reset_layout()                 # the docks' default widths, whatever an earlier window saved
    qtbot.wait(20)
    panel = window.search_panel
    view = panel.view
    panel.reset(Position.from_sfen("4k4/9/9/9/9/9/9/9/9 b 4G4S4N4L2r2b18p 1"))
    # A 20-ply line of the usual widths: a piece dropped (▲９九金打), the king stepping aside (△４一玉).
    drops = [f"{'GSNL'[k % 4]}*{9 - k}i" for k in range(9)] + ["G*1i"]
    moves = [m for k, drop in enumerate(drops) for m in (drop, "5a4a" if k % 2 == 0 else "4a5a")]

    def snapshot() -> Progress:
        path = tuple(PathEntry(m, 117, 142_000, ()) for m in moves)
        return Progress(nodes=1, nps=1.0, elapsed=0.1, root_pn=117, root_dn=142_000, path=path,
                        root_children=(ChildInfo(moves[0], 117, 142_000), ChildInfo("R*5b", 200, 3)),
                        table_fill=0.1, table_entries=1)

    def shown_rows() -> list[tuple[str, int]]:
        """(move, x of its right end) for every row the tree shows, from the top."""
        option = QStyleOptionViewItem()
        view.initViewItemOption(option)
        out = []
        index = panel.model.index(0, COL_MOVE)
        while index.isValid():
            index = index.siblingAtColumn(COL_MOVE)
            hint = view.itemDelegateForIndex(index).sizeHint(option, index).width()   # bold on the path
            out.append((index.data(), view.visualRect(index).left() + hint))
            index = view.indexBelow(index)
        return out

    panel.update_progress(snapshot())
    qtbot.wait(20)
    view.horizontalScrollBar().setValue(0)
    rows = shown_rows()
    assert len(rows) >= 1 + opened + 1     # the path is still followed, as far as fits
    assert [text for text, _ in rows[:3]] == ["▲９九金打", "△４一玉", "▲８九銀打"]
    cut = [(text, right) for text, right in rows if right > view.viewport().width()]
    assert not cut, f"moves past the tree's right edge ({view.viewport().width()} px): {cut}"
    assert view.horizontalScrollBar().maximum() == 0    # nothing to scroll sideways for

    # Given the room, the tree opens the path as deep as before (12 plies, then the 13th's row).
    window.resize(1600, size[1])
    qtbot.wait(20)
    window.resizeDocks([window.docks["search"]], [420], Qt.Orientation.Horizontal)
    qtbot.wait(20)
    assert window.docks["search"].width() >= 400
    panel.update_progress(snapshot())
    qtbot.wait(20)
    rows = shown_rows()
    assert len(rows) == 1 + 13     # the root's other child, and the path down to ply 13
    assert not [text for text, right in rows if right > view.viewport().width()]

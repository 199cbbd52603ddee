"""The study board: moves played on the board, the record panel, the answer merged into the tree."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, Qt, QTimer
from PySide6.QtWidgets import QApplication, QMenu
from pytestqt.qtbot import QtBot

from tsume_studio.core.search.contract import Limits, SolveStatus
from tsume_studio.core.shogi.moves import Move
from tsume_studio.core.shogi.position import Position
from tsume_studio.core.shogi.types import BLACK, SILVER, square
from tsume_studio.core.study import IllegalReason
from tsume_studio.gui.i18n import tr
from tsume_studio.gui.mainwindow import MainWindow
from tsume_studio.gui.settings import save_limits
from tsume_studio.gui.study import _ask_promotion

# The offscreen platform says so whenever a dock or the board changes its size hint.
pytestmark = pytest.mark.qt_log_ignore(r"This plugin does not support propagateSizeHints")

DATA = Path(__file__).parent.parent / "data"
MATE3 = "7k1/4R4/9/9/9/9/9/9/9 b SNr2b4g3s3n4l18p 1"


@pytest.fixture
def window(qtbot: QtBot) -> Iterator[MainWindow]:
    save_limits(Limits(seconds=60.0, memory_mb=64))
    w = MainWindow()
    qtbot.addWidget(w)
    w.show()
    qtbot.waitExposed(w)
    w.editor.set_position(Position.from_sfen(MATE3))
    qtbot.wait(1)
    yield w
    if w.is_searching():
        w.stop()
        qtbot.waitUntil(lambda: not w.is_searching(), timeout=5000)


def centre_of(rect) -> QPoint:  # type: ignore[no-untyped-def]
    return rect.center().toPoint()


def click(qtbot: QtBot, w: MainWindow, point: QPoint) -> None:
    qtbot.mouseClick(w.board, Qt.MouseButton.LeftButton, pos=point)


def drag(qtbot: QtBot, w: MainWindow, start: QPoint, end: QPoint) -> None:
    qtbot.mousePress(w.board, Qt.MouseButton.LeftButton, pos=start)
    qtbot.mouseMove(w.board, QPoint((start.x() + end.x()) // 2, (start.y() + end.y()) // 2))
    qtbot.mouseMove(w.board, end)
    qtbot.mouseRelease(w.board, Qt.MouseButton.LeftButton, pos=end)


def sq(usi: str) -> int:
    return square(int(usi[0]), ord(usi[1]) - ord("a") + 1)


def key(qtbot: QtBot, w: MainWindow, k: Qt.Key) -> None:
    qtbot.keyClick(w.board, k)


def test_play_a_line_branch_off_the_answer_and_come_back(qtbot: QtBot, window: MainWindow) -> None:
    w = window
    with qtbot.waitSignal(w.searchFinished, timeout=60000):
        w.solve()
    assert w.keep_answer()                                # the answer goes into the record when kept
    tree = w.study.tree()
    record = w.editor.record()
    assert record is tree.record                         # one record holds the moves
    answer = record.main_line()
    assert answer[0] == Move.from_usi("N*3c") and len(answer) == 3
    knight = record.root.children[0]
    assert {c.move.usi() for c in knight.children if c.move} == {"2a3a", "2a1a"}   # every defence

    # Into the answer from the record panel: the board follows, in study mode.
    w.docks["record"].raise_()
    w.record_panel.refresh()
    assert w.record_panel.row_texts()[1].endswith("▲３三桂打")
    item = w.record_panel.moves.item(1)
    qtbot.mouseClick(w.record_panel.moves.viewport(), Qt.MouseButton.LeftButton,
                     pos=w.record_panel.moves.visualItemRect(item).center())
    assert w.is_studying() and w.board.is_playable() and not w.board.is_editable()
    assert w.board.last_move() == Move.from_usi("N*3c")

    # Leave the answer: back to the start, drop the silver on 2二 instead (click, click).
    key(qtbot, w, Qt.Key.Key_Home)
    assert w.study.tree().path() == ()
    with qtbot.waitSignal(w.study.recordChanged):
        click(qtbot, w, centre_of(w.board.hand_rect(BLACK, SILVER)))
        click(qtbot, w, centre_of(w.board.square_rect(sq("2b"))))
    assert w.study.tree().path() == (1,)
    assert w.board.position().piece_at(sq("2b"))
    # ... and go on by dragging the king away.
    drag(qtbot, w, centre_of(w.board.square_rect(sq("2a"))), centre_of(w.board.square_rect(sq("1b"))))
    assert w.study.tree().moves() == [Move.from_usi("S*2b"), Move.from_usi("2a1b")]
    assert w.record_panel.row_texts()[1].endswith("+")     # 変化 at move 1
    assert w.record_panel.row_texts()[2].endswith("△１二玉")

    # Come back to the answer: Left stays in the try, Up switches to the answer's move.
    key(qtbot, w, Qt.Key.Key_Left)
    assert w.study.tree().path() == (1,)
    assert len(w.record_panel.variation_texts()) == 2
    key(qtbot, w, Qt.Key.Key_Up)
    assert w.study.tree().path() == (0,)
    key(qtbot, w, Qt.Key.Key_End)
    assert w.study.tree().moves() == answer
    assert w.board.position() == w.study.tree().position()
    assert w.record_panel.row_texts()[-1].endswith("詰み")
    # Right from the start now follows the answer again; Down goes back to the try.
    key(qtbot, w, Qt.Key.Key_Home)
    key(qtbot, w, Qt.Key.Key_Right)
    key(qtbot, w, Qt.Key.Key_Down)
    key(qtbot, w, Qt.Key.Key_Right)
    assert w.study.tree().moves() == [Move.from_usi("S*2b"), Move.from_usi("2a1b")]


def test_promote_and_delete_a_line(qtbot: QtBot, window: MainWindow) -> None:
    w = window
    w.set_study_mode(True)
    assert w.study.play(Move.from_usi("N*3c"))
    w.study.first()
    assert w.study.play(Move.from_usi("S*2b"))
    assert [m.usi() for m in w.editor.ensure_record().main_line()] == ["N*3c"]
    with qtbot.waitSignal(w.study.recordChanged):
        w.actions_["promote_line"].trigger()
    assert [m.usi() for m in w.editor.ensure_record().main_line()] == ["S*2b"]
    assert w.record_panel.row_texts()[1].endswith("▲２二銀打  +")
    assert w.record_panel.variation_texts() == ["▲２二銀打", "▲３三桂打"]
    with qtbot.waitSignal(w.study.recordChanged):
        w.actions_["delete_line"].trigger()
    assert w.study.tree().path() == ()
    assert [c.move.usi() for c in w.editor.ensure_record().root.children if c.move] == ["N*3c"]
    assert w.board.position() == Position.from_sfen(MATE3)


def test_illegal_move_is_refused_with_its_reason(qtbot: QtBot, window: MainWindow) -> None:
    w = window
    w.set_study_mode(True)
    drag(qtbot, w, centre_of(w.board.square_rect(sq("5b"))), centre_of(w.board.square_rect(sq("4c"))))
    assert w.study.tree().path() == ()
    assert tr(IllegalReason.UNREACHABLE.value) in w.statusBar().currentMessage()
    assert w.last_error.endswith(tr(IllegalReason.UNREACHABLE.value))
    # The defender's pieces cannot be dropped by the attacker.
    click(qtbot, w, centre_of(w.board.hand_rect(1, 7)))   # White's gold
    click(qtbot, w, centre_of(w.board.square_rect(sq("5e"))))
    assert w.last_error.endswith(tr(IllegalReason.NOT_OWN_PIECE.value))
    assert not w.editor.ensure_record().root.children


def test_promotion_is_asked_when_optional(qtbot: QtBot, window: MainWindow) -> None:
    w = window
    w.set_study_mode(True)
    asked: list[Move] = []

    def choose(_position: Position, move: Move) -> bool:
        asked.append(move)
        return True

    w.study.choose_promotion = choose
    drag(qtbot, w, centre_of(w.board.square_rect(sq("5b"))), centre_of(w.board.square_rect(sq("5a"))))
    assert asked == [Move.from_usi("5b5a")]
    assert w.study.tree().last_move() == Move.from_usi("5b5a+")
    assert w.record_panel.row_texts()[1].endswith("▲５一飛成")
    # Not asked where there is no choice (outside the zone).
    w.study.first()
    drag(qtbot, w, centre_of(w.board.square_rect(sq("5b"))), centre_of(w.board.square_rect(sq("5e"))))
    assert len(asked) == 2  # inside the zone on the way out: 5b is in the zone, so asked again
    w.study.first()
    w.study.play(Move.from_usi("5b5e"))
    drag(qtbot, w, centre_of(w.board.square_rect(sq("5e"))), centre_of(w.board.square_rect(sq("5f"))))
    assert len(asked) == 2


def test_opening_a_kif_shows_its_variations_and_comments(qtbot: QtBot, window: MainWindow) -> None:
    w = window
    assert w.open_file(str(DATA / "records" / "example3.kifu"))
    qtbot.wait(10)
    panel = w.record_panel
    rows = panel.row_texts()
    assert [r.split()[1] for r in rows[1:4]] == ["▲３三桂打", "△３一玉", "▲２二銀打"]
    assert rows[2].endswith("+") and rows[4].endswith("詰み")
    assert panel.comment.toPlainText() == "初形へのコメント"
    qtbot.mouseClick(panel.moves.viewport(), Qt.MouseButton.LeftButton,
                     pos=panel.moves.visualItemRect(panel.moves.item(2)).center())
    assert w.is_studying()
    assert panel.variation_texts() == ["△３一玉", "△１一玉"]
    qtbot.mouseClick(panel.variations.viewport(), Qt.MouseButton.LeftButton,
                     pos=panel.variations.visualItemRect(panel.variations.item(1)).center())
    assert "１一玉にも" in panel.comment.toPlainText()
    assert panel.row_texts()[3].split()[1] == "▲１二銀打"
    # Editing the comment edits the record.
    with qtbot.waitSignal(w.study.recordChanged):
        panel.comment.setPlainText("逃げても同じ")
    record = w.editor.record()
    assert record is not None and record.root.children[0].children[1].comments == ["逃げても同じ"]


@pytest.mark.qt_log_ignore(r"This plugin does not support (raise|grabbing the keyboard|propagateSizeHints)")
def test_the_promotion_menu_returns_the_chosen_item(qtbot: QtBot, window: MainWindow) -> None:
    seen: list[list[str]] = []

    def pick(index: int) -> None:
        menu = QApplication.activePopupWidget()
        assert isinstance(menu, QMenu)
        seen.append([a.text() for a in menu.actions()])
        menu.actions()[index].trigger()
        menu.close()

    position = Position.from_sfen(MATE3)
    for index, expected in ((0, True), (1, False)):
        QTimer.singleShot(50, lambda i=index: pick(i))
        assert _ask_promotion(position, Move.from_usi("5b5a")) is expected
    assert seen[0] == [f"{tr('Promote')}  ▲５一飛成", f"{tr('Do not promote')}  ▲５一飛不成"]


def test_a_move_played_in_study_mode_marks_the_problem_modified(qtbot: QtBot, window: MainWindow) -> None:
    """The tree is part of what Save writes: a move played on the board is an unsaved change."""
    window.editor._set_saved(None)          # as after an open or a save
    assert not window.editor.is_modified()
    window.set_study_mode(True)
    assert window.study.play(Move.from_usi("S*2b"))
    assert window.editor.is_modified()
    assert window.isWindowModified()


def test_study_edits_are_undone_and_redone_with_the_edit_menu(qtbot: QtBot, window: MainWindow) -> None:
    """Ctrl+Z takes back the last move played, a deletion, a comment; undoing to the saved state is unmodified."""
    w = window
    w.editor._set_saved(None)
    w.set_study_mode(True)
    undo, redo = w.editor.action("undo"), w.editor.action("redo")
    assert undo.shortcut().toString() == "Ctrl+Z"
    assert w.study.play(Move.from_usi("S*2b"))
    assert w.study.play(Move.from_usi("2a1b"))
    assert w.study.tree().moves() == [Move.from_usi("S*2b"), Move.from_usi("2a1b")]
    undo.trigger()                                       # the last move played goes
    tree = w.study.tree()
    assert tree.path() == (0,) and tree.moves() == [Move.from_usi("S*2b")]
    assert not w.study.tree().record.root.children[0].children
    assert w.board.position() == tree.position() and w.is_studying()
    redo.trigger()
    assert w.study.tree().moves() == [Move.from_usi("S*2b"), Move.from_usi("2a1b")]
    w.study.first()
    w.study.step(1)
    assert w.study.delete()                              # the whole line goes
    assert w.study.tree().record.root.children == []
    undo.trigger()
    assert [c.move for c in w.study.tree().record.root.children] == [Move.from_usi("S*2b")]
    assert w.study.tree().path() == (0,)
    # Typing a comment is one step.
    for text in ("g", "go", "good"):
        w.record_panel.comment.setPlainText(text)
    assert w.study.tree().comment() == "good"
    undo.trigger()
    assert w.study.tree().comment() == "" and w.record_panel.comment.toPlainText() == ""
    # Back to the saved state: unmodified, and the record is the one Save writes.
    while not w.editor.undo_stack.isClean():
        undo.trigger()
    assert w.study.tree().record.root.children == []
    assert w.editor.full_record().root.children == []
    assert not w.editor.is_modified() and not w.isWindowModified()
    assert w.is_studying()
    assert w.editor.undo_stack.redoText() == "Play move"


@pytest.mark.parametrize("command", ["tsume", "clear", "paste", "undo_edit", "fill_hand"])
def test_an_editing_command_in_study_mode_returns_to_the_editor(
        qtbot: QtBot, window: MainWindow, command: str) -> None:
    w = window
    w.editor.set_position(Position.from_sfen("7k1/4R4/9/9/9/9/9/9/9 b SN 1"))   # the defender's hand is empty
    w.set_study_mode(True)
    assert w.study.play(Move.from_usi("S*2b"))
    assert w.board.position() != w.editor.position()
    if command == "paste":
        QApplication.clipboard().setText("8k/6G2/R7P/9/9/9/9/9/9 b r2b3g4s4n4l17p 1")
        w.editor.action("paste").trigger()
    elif command == "undo_edit":
        w.editor.action("undo").trigger()                # the move played
        w.editor.action("undo").trigger()                # the position set above
    else:
        w.editor.action(command).trigger()
    assert w.editor.position().sfen() != "7k1/4R4/9/9/9/9/9/9/9 b SN 1"
    assert not w.is_studying() and not w.actions_["study"].isChecked()
    assert w.board.is_editable() and not w.board.is_playable()
    assert w.board.position() == w.editor.position()
    qtbot.wait(1)
    assert w.study.tree().position() == w.editor.position() and w.study.tree().path() == ()


def test_opening_a_record_with_moves_shows_the_record_panel(qtbot: QtBot, window: MainWindow) -> None:
    w = window
    w.reset_layout()                        # the record panel shares its place with the result, in tabs
    w.docks["result"].raise_()
    qtbot.wait(1)
    assert w.record_panel.visibleRegion().isEmpty() and not w.result_panel.visibleRegion().isEmpty()
    assert w.open_file(str(DATA / "records" / "example3.kifu"))
    qtbot.wait(1)
    assert not w.record_panel.visibleRegion().isEmpty() and w.result_panel.visibleRegion().isEmpty()
    assert "３三桂打" in w.record_panel.row_texts()[1]


def test_the_move_list_keeps_most_of_the_record_panel(qtbot: QtBot, window: MainWindow) -> None:
    """With 変化 and a comment shown, the moves still get most of the panel; the 変化 list fits its rows."""
    w = window
    w.resize(1360, 860)
    w.reset_layout()
    assert w.open_file(str(DATA / "records" / "example3.kifu"))
    qtbot.wait(1)
    w.set_study_mode(True)
    w.study.step(2)                                       # △３一玉, with △１一玉 as its 変化
    qtbot.wait(1)
    panel = w.record_panel
    assert panel.variation_texts() == ["△３一玉", "△１一玉"]
    assert panel.moves.height() >= 2 * panel.variations.height()
    assert panel.moves.height() >= panel.comment.height()
    assert panel.variations.height() <= 3 * panel.variations.sizeHintForRow(0)
    assert panel.comment.height() > 0
    w.study.first()
    assert panel.variations.isHidden()


def test_solve_from_here_solves_the_position_at_the_cursor(qtbot: QtBot, window: MainWindow) -> None:
    """In study mode F5 solves the position on the board at the current move; the answer, when kept,
    goes under that move and the record still starts from the problem."""
    w = window
    w.set_study_mode(True)
    assert w.study.play(Move.from_usi("N*3c")) and w.study.play(Move.from_usi("2a1a"))
    here = w.study.tree().position()
    path = w.study.tree().path()
    # After the attacker's move the defender is to move: nothing to solve from there.
    w.study.step(-1)
    key(qtbot, w, Qt.Key.Key_F5)
    assert not w.is_searching() and "attacker to move" in w.last_error
    w.study.step(1)
    with qtbot.waitSignal(w.searchFinished, timeout=60000) as blocker:
        key(qtbot, w, Qt.Key.Key_F5)
    result = blocker.args[0]
    assert result is not None and result.status is SolveStatus.MATE
    assert Position.from_sfen(result.sfen) == here and result.length == 1
    assert w.is_studying() and w.board.position() == here                    # still studying, at that move
    record = w.editor.record()
    assert record is not None and record.start == Position.from_sfen(MATE3)
    assert not w.study.tree().node(path).children                             # not in the record until kept
    assert w.keep_answer()
    node = w.study.tree().node(path)
    mates = [c.move.usi() for c in node.children if c.move is not None]
    assert result.pv[0] in mates
    assert any(g.special == "詰み" for c in node.children for g in c.children)
    assert w.editor.record() is record and record.start == Position.from_sfen(MATE3)
    assert "手数" not in record.header                                          # a position's answer, not the problem's
    assert len(record.root.children) == 1                                    # nothing added at the start

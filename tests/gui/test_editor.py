"""EditorController and ProblemBar: presets, undo/redo, paste, copy, open/save, problems."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QGuiApplication

from tsume_studio.core.shogi.bod import parse_bod
from tsume_studio.core.shogi.position import Position, Status
from tsume_studio.core.shogi.types import BLACK, GOLD, WHITE, square
from tsume_studio.gui import i18n
from tsume_studio.gui.board import BoardView
from tsume_studio.gui.editor import EditorController, ProblemBar

TSUME = "4k4/9/9/9/9/9/9/9/9 b 2r2b4g4s4n4l18p 1"
# A 1-ply problem: ▲５二金打 mates.
MATE1 = "4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1"

BOD = """後手の持駒：飛二　角二　金三　銀四　桂四　香四　歩十七\u3000
  ９ ８ ７ ６ ５ ４ ３ ２ １
+---------------------------+
| ・ ・ ・ ・v玉 ・ ・ ・ ・|一
| ・ ・ ・ ・ ・ ・ ・ ・ ・|二
| ・ ・ ・ ・ 歩 ・ ・ ・ ・|三
| ・ ・ ・ ・ ・ ・ ・ ・ ・|四
| ・ ・ ・ ・ ・ ・ ・ ・ ・|五
| ・ ・ ・ ・ ・ ・ ・ ・ ・|六
| ・ ・ ・ ・ ・ ・ ・ ・ ・|七
| ・ ・ ・ ・ ・ ・ ・ ・ ・|八
| ・ ・ ・ ・ ・ ・ ・ ・ ・|九
+---------------------------+
先手の持駒：金\u3000
先手番
"""


@pytest.fixture
def editor(qtbot) -> EditorController:
    view = BoardView()
    qtbot.addWidget(view)
    view.resize(900, 700)
    view.set_editable(True)
    view.show()
    qtbot.waitExposed(view)
    return EditorController(view)


def centre(rect) -> QPoint:
    return rect.center().toPoint()


def test_presets(editor: EditorController) -> None:
    editor.preset_tsume()
    assert editor.position().sfen() == TSUME
    assert editor.view().position().sfen() == TSUME
    assert editor.problems() == []
    editor.preset_two_kings()
    assert editor.position().sfen() == "4k4/9/9/9/9/9/9/9/4K4 b 2r2b4g4s4n4l18p 1"
    editor.clear()
    assert editor.position().sfen() == "9/9/9/9/9/9/9/9/9 b - 1"
    assert [p.flag for p in editor.problems()] == [Status.NO_DEFENDER_KING]
    editor.paste_text("4k4/9/9/9/9/9/9/9/9 b 2G 1")
    editor.action("fill_hand").trigger()
    assert editor.position().sfen() == "4k4/9/9/9/9/9/9/9/9 b 2G2r2b2g4s4n4l18p 1"
    editor.set_side_to_move(WHITE)
    assert editor.position().turn == WHITE
    with pytest.raises(ValueError, match="not 7"):
        editor.set_side_to_move(7)


def test_signals_on_every_change(qtbot, editor: EditorController) -> None:
    positions: list[Position] = []
    problems: list[list] = []
    editor.positionChanged.connect(positions.append)
    editor.problemsChanged.connect(problems.append)
    editor.preset_tsume()
    assert [p.sfen() for p in positions] == [TSUME] and problems == [[]]
    with qtbot.waitSignal(editor.positionChanged) as blocker:
        editor.undo_stack.undo()
    assert blocker.args[0] == Position.empty()


def test_mouse_edits_are_undoable(qtbot, editor: EditorController) -> None:
    editor.preset_tsume()
    view = editor.view()
    # Drag a gold from White's hand to Black's, then drop one from Black's hand on 5二.
    qtbot.mousePress(view, Qt.MouseButton.LeftButton, pos=centre(view.hand_rect(WHITE, GOLD)))
    qtbot.mouseMove(view, centre(view.square_rect(square(5, 5))))
    qtbot.mouseMove(view, centre(view.hand_rect(BLACK, GOLD)))
    qtbot.mouseRelease(view, Qt.MouseButton.LeftButton, pos=centre(view.hand_rect(BLACK, GOLD)))
    qtbot.mousePress(view, Qt.MouseButton.LeftButton, pos=centre(view.hand_rect(WHITE, 1)))
    qtbot.mouseMove(view, centre(view.square_rect(square(5, 4))))
    qtbot.mouseMove(view, centre(view.square_rect(square(5, 3))))
    qtbot.mouseRelease(view, Qt.MouseButton.LeftButton, pos=centre(view.square_rect(square(5, 3))))
    # The pawn came from White's hand, so it is White's: make it Black's by two right-clicks.
    assert editor.position().piece_at(square(5, 3)) == 17
    qtbot.mouseClick(view, Qt.MouseButton.RightButton, pos=centre(view.square_rect(square(5, 3))))
    qtbot.mouseClick(view, Qt.MouseButton.RightButton, pos=centre(view.square_rect(square(5, 3))))
    assert editor.position().sfen() == MATE1
    assert editor.undo_stack.count() == 1 + 4
    editor.undo_stack.undo()
    editor.undo_stack.undo()
    assert editor.position().sfen() == "4k4/9/4p4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1"
    assert view.position() == editor.position()
    editor.undo_stack.undo()
    editor.undo_stack.undo()
    assert editor.position().sfen() == TSUME
    for _ in range(4):
        editor.undo_stack.redo()
    assert editor.position().sfen() == MATE1 and view.position().sfen() == MATE1


def test_keyboard_edit_then_undo_redo_actions(qtbot, editor: EditorController) -> None:
    editor.preset_tsume()
    view = editor.view()
    view.setFocus()
    view.set_cursor_spot(view.spot_at(view.square_rect(square(5, 1)).center()))
    qtbot.keyClick(view, Qt.Key.Key_Down)
    qtbot.keyClick(view, Qt.Key.Key_G)
    # The preset put every gold in the defender's hand: the key takes one from there, not a fifth.
    assert editor.position().sfen() == "4k4/4G4/9/9/9/9/9/9/9 b 2r2b3g4s4n4l18p 1"
    assert [p.flag for p in editor.problems()] == [Status.NOT_TO_MOVE_IN_CHECK]
    undo = editor.action("undo")
    assert undo.isEnabled() and undo.text().startswith("Undo")
    undo.trigger()
    assert editor.position().sfen() == TSUME
    editor.action("redo").trigger()
    assert editor.position().piece_at(square(5, 2)) != 0


def test_paste_sfen_bod_kif(editor: EditorController) -> None:
    editor.paste_text(f"sfen {MATE1}")
    assert editor.position().sfen() == MATE1
    editor.paste_text(f"position sfen {TSUME}")
    assert editor.position().sfen() == TSUME
    editor.paste_text(BOD)
    assert editor.position().sfen() == MATE1
    editor.preset_tsume()
    kif = BOD.replace("先手番\n", "先手番\n手数----指手---------消費時間--\n   1 ５二金打     ( 0:00/00:00:00)\n")
    editor.paste_text(kif)
    assert editor.position().sfen() == MATE1
    record = editor.record()
    assert record is not None and [m.usi() for m in record.main_line()] == ["G*5b"]


@pytest.mark.parametrize(("text", "match"), [
    ("4k4/9/9/9/9/9/9 b - 1", "expected 9 ranks"),
    ("4k4/9/9/9/9/9/9/9/9 x - 1", "'x'"),
    ("hello world", "'hello world'"),
    ("", "empty"),
])
def test_paste_bad_text_leaves_position(editor: EditorController, text: str, match: str) -> None:
    editor.preset_tsume()
    depth = editor.undo_stack.count()
    with pytest.raises(ValueError, match=match):
        editor.paste_text(text)
    assert editor.position().sfen() == TSUME
    assert editor.view().position().sfen() == TSUME
    assert editor.undo_stack.count() == depth


def test_paste_action_reports_errors_by_signal(qtbot, editor: EditorController) -> None:
    editor.preset_tsume()
    QGuiApplication.clipboard().setText("9/9 b - 1")
    with qtbot.waitSignal(editor.errorOccurred) as blocker:
        editor.action("paste").trigger()
    assert blocker.args[0].startswith("Cannot paste:") and "'9/9'" in blocker.args[0]
    assert editor.position().sfen() == TSUME
    QGuiApplication.clipboard().setText(MATE1)
    with qtbot.assertNotEmitted(editor.errorOccurred):
        editor.action("paste").trigger()
    assert editor.position().sfen() == MATE1
    # Ctrl+V on the board pastes too.
    QGuiApplication.clipboard().setText(TSUME)
    editor.view().setFocus()
    qtbot.keyClick(editor.view(), Qt.Key.Key_V, Qt.KeyboardModifier.ControlModifier)
    assert editor.position().sfen() == TSUME


def test_copy(editor: EditorController) -> None:
    editor.paste_text(MATE1)
    assert editor.copy_sfen() == MATE1
    assert QGuiApplication.clipboard().text() == MATE1
    bod = editor.copy_bod()
    assert QGuiApplication.clipboard().text() == bod
    assert parse_bod(bod).sfen() == MATE1


@pytest.mark.parametrize("ext", [".sfen", ".kif", ".kifu", ".csa"])
def test_save_and_reopen(editor: EditorController, tmp_path: Path, ext: str) -> None:
    editor.paste_text(MATE1)
    path = tmp_path / f"problem{ext}"
    editor.save_file(str(path))
    editor.preset_tsume()
    editor.open_file(str(path))
    assert editor.position().sfen() == MATE1
    if ext == ".sfen":
        assert path.read_text(encoding="utf-8").split() == ["sfen"] + MATE1.split()
    if ext == ".kif":
        assert "後手の持駒" in path.read_bytes().decode("cp932")
    editor.undo_stack.undo()
    assert editor.position().sfen() == TSUME


def test_open_and_save_errors(editor: EditorController, tmp_path: Path) -> None:
    editor.preset_tsume()
    bad = tmp_path / "bad.sfen"
    bad.write_text("not a position\n", encoding="utf-8")
    with pytest.raises(ValueError):
        editor.open_file(str(bad))
    with pytest.raises(OSError):
        editor.open_file(str(tmp_path / "missing.kif"))
    with pytest.raises(ValueError, match=r"'\.txt'"):
        editor.save_file(str(tmp_path / "problem.txt"))
    assert editor.position().sfen() == TSUME
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.sfen"]


def test_problem_bar_names_problems_and_squares(qtbot, editor: EditorController) -> None:
    bar = ProblemBar()
    qtbot.addWidget(bar)
    editor.attach_problem_bar(bar)
    # An empty board with Black to move: White, the defender, has no king.
    assert "the defender, White (gote), has no king" in bar.text()
    editor.preset_tsume()
    assert "Position OK" in bar.text()
    # 二歩 on file 5 and a pawn on the last rank.
    editor.paste_text("P3k4/9/4P4/9/4P4/9/9/9/9 b - 1")
    text = bar.text()
    assert "５五" in text and "９一" in text and "二歩" in text
    squares = {p.square for p in bar.problems()}
    assert squares == {square(5, 5), square(9, 1)}
    with qtbot.waitSignal(bar.squareActivated) as blocker:
        bar._label.linkActivated.emit(f"sq:{square(5, 5)}")
    assert blocker.args == [square(5, 5)]
    assert editor.view().cursor_spot().square == square(5, 5)
    try:
        i18n.set_language("ja")
        assert "行き所のない駒" in bar.text()
    finally:
        i18n.set_language("en")


def test_edit_actions_list(editor: EditorController) -> None:
    texts = [a.text() for a in editor.edit_actions() if not a.isSeparator()]
    assert texts[:2] == ["Undo", "Redo"]
    assert {"Tsume preset", "Two kings preset", "Clear board", "Flip board", "Black to move",
            "White to move", "Paste position", "Copy SFEN", "Copy BOD"} <= set(texts)
    flip = editor.action("flip")
    flip.trigger()
    assert editor.view().is_flipped()
    editor.action("white").trigger()
    assert editor.position().turn == WHITE and editor.action("white").isChecked()
    editor.undo_stack.undo()
    assert editor.position().turn == BLACK and editor.action("black").isChecked()
    try:
        i18n.set_language("ja")
        assert editor.action("tsume").text() == "詰将棋の初期配置"
    finally:
        i18n.set_language("en")


def test_sample_problems_open_and_are_valid(editor: EditorController, tmp_path: Path) -> None:
    from tsume_studio.gui.resources import sample_problems

    samples = sample_problems()
    assert len(samples) >= 5
    for sample in samples:
        path = tmp_path / sample.name
        path.write_bytes(sample.read_bytes())
        editor.open_file(str(path))
        assert editor.problems() == [], sample.name
        record = editor.record()
        assert record is not None and record.header["作品名"].startswith("サンプル")


def test_file_filter_lists_every_format() -> None:
    from tsume_studio.core.records.formats import FORMATS
    from tsume_studio.gui.editor import POSITION_FILE_FILTER

    first = POSITION_FILE_FILTER.split(";;")[0]
    assert first.startswith("Positions (")
    assert sorted(first[len("Positions ("):-1].split()) == sorted(f"*{ext}" for ext in FORMATS)

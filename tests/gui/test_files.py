"""Work kept safe: the modified marker, the discard question, Save/Save as, recent files,
dropped files, the record header dialog, and records saved and exported in full."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from PySide6.QtCore import QMimeData, QPoint, QPointF, Qt, QUrl
from PySide6.QtGui import QDragEnterEvent, QDropEvent, QGuiApplication
from pytestqt.qtbot import QtBot

from tsume_studio.core.records.formats import read_record
from tsume_studio.core.search.contract import SolveStatus
from tsume_studio.core.shogi.position import Position
from tsume_studio.gui import i18n
from tsume_studio.gui.header import HeaderDialog
from tsume_studio.gui.mainwindow import MainWindow
from tsume_studio.gui.settings import (
    RECENT_LIMIT, add_recent, load_recent, remove_recent, settings,
)

THREE = "7k1/4R4/9/9/9/9/9/9/9 b SNr2b4g3s3n4l18p 1"
OTHER = "4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1"
DATA = Path(__file__).parent.parent / "data"
SAMPLES = Path(__file__).parent.parent.parent / "resources" / "samples"

pytestmark = pytest.mark.qt_log_ignore(r"This plugin does not support propagateSizeHints")


@pytest.fixture
def window(open_window: Callable[..., MainWindow]) -> MainWindow:
    i18n.set_language("en")
    for path in load_recent():
        remove_recent(path)
    settings().remove("files/folder")
    return open_window(seconds=60.0, settle_ms=5000)


@pytest.fixture
def kif(tmp_path: Path) -> Path:
    """A copy of a record with a 変化, comments and a header."""
    path = tmp_path / "example3.kifu"
    shutil.copy(DATA / "records" / "example3.kifu", path)
    return path


def answer(monkeypatch: pytest.MonkeyPatch, w: MainWindow, choice: str) -> list[int]:
    """Make the discard question answer ``choice``; the list counts the questions."""
    asked: list[int] = []

    def ask(_self: MainWindow) -> str:
        asked.append(1)
        return choice
    monkeypatch.setattr(MainWindow, "ask_discard", ask)
    return asked


def save_dialog(monkeypatch: pytest.MonkeyPatch, w: MainWindow, path: str, selected: str
                ) -> list[str]:
    """Make the save dialog answer ``path`` with filter ``selected``; the list gets the suggested names."""
    suggested: list[str] = []

    def ask(title: str, name: str) -> tuple[str, str]:
        suggested.append(name)
        return path, selected
    monkeypatch.setattr(w.editor, "ask_save_path", ask)
    return suggested


def edit(w: MainWindow) -> None:
    """An ordinary edit on the board, as one undo step."""
    w.editor.set_position(Position.from_sfen(OTHER))


# ---- the modified marker ----------------------------------------------------------------

def test_title_shows_file_and_modified_marker(qtbot: QtBot, window: MainWindow, kif: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    w = window
    assert w.windowTitle() == "Untitled[*] — Tsume Studio" and not w.isWindowModified()
    assert w.open_file(str(kif))
    assert w.windowTitle() == "example3.kifu[*] — 例題 3手詰 — Tsume Studio"
    assert not w.isWindowModified() and not w.is_modified()
    edit(w)
    assert w.isWindowModified()
    w.editor.undo_stack.undo()
    assert not w.isWindowModified()          # back to what was opened
    w.mark_modified()                         # a change outside the undo stack (the move tree)
    assert w.isWindowModified() and w.is_modified()
    target = kif.parent / "saved.kifu"
    save_dialog(monkeypatch, w, str(target), "KIF (*.kif *.kifu)")
    w.editor.action("save").trigger()        # Save as
    assert target.is_file() and not w.isWindowModified()
    assert w.windowTitle().startswith("saved.kifu[*]")
    edit(w)
    w.editor.action("save_file").trigger()   # Save writes to the file the problem now is
    assert not w.isWindowModified()
    assert read_record(target).start == Position.from_sfen(OTHER)
    i18n.set_language("ja")
    assert w.windowTitle().startswith("saved.kifu[*] — 例題 3手詰")
    w.editor.new_problem()
    assert w.windowTitle() == "無題[*] — Tsume Studio"
    i18n.set_language("en")


# ---- the discard question ----------------------------------------------------------------

@pytest.mark.parametrize("path", ["open", "new", "clear", "paste", "quit", "close", "recent", "drop"])
def test_discard_question_on_every_path(qtbot: QtBot, window: MainWindow, kif: Path, tmp_path: Path,
                                        monkeypatch: pytest.MonkeyPatch, path: str) -> None:
    w = window
    other = tmp_path / "other.sfen"
    other.write_text(THREE + "\n", encoding="utf-8")
    monkeypatch.setattr(w.editor, "ask_open_path", lambda: str(other))
    QGuiApplication.clipboard().setText(THREE)
    add_recent(str(other))
    w._fill_recent_menu()

    def attempt() -> None:
        if path in ("open", "new", "clear", "paste"):
            w.editor.action(path).trigger()
        elif path == "quit":
            w.actions_["quit"].trigger()
        elif path == "close":
            w.close()
        elif path == "recent":
            recent = [a for a in w.recent_menu.actions() if a.data() == str(other)]
            assert len(recent) == 1
            recent[0].trigger()
        else:
            mime = QMimeData()
            mime.setUrls([QUrl.fromLocalFile(str(other))])
            event = QDropEvent(QPointF(10, 10), Qt.DropAction.CopyAction, mime,
                               Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier)
            w.dropEvent(event)
            assert event.isAccepted()
            qtbot.wait(50)   # the drop opens the file once the event is over

    def gone() -> bool:
        """The edits were replaced (or the window closed)."""
        return not w.isVisible() or w.editor.position() != Position.from_sfen(OTHER)

    assert w.open_file(str(kif))
    # Cancel keeps everything.
    edit(w)
    asked = answer(monkeypatch, w, "cancel")
    attempt()
    assert asked == [1]
    assert w.isVisible() and w.editor.position() == Position.from_sfen(OTHER) and w.is_modified()
    # Save writes the edits first (to the problem's file), then goes on.
    asked = answer(monkeypatch, w, "save")
    attempt()
    assert asked == [1] and gone()
    assert read_record(kif).start == Position.from_sfen(OTHER)
    # Discard goes on without saving.
    w.show()
    fresh = tmp_path / "fresh.kifu"
    shutil.copy(DATA / "records" / "example3.kifu", fresh)
    assert w.open_file(str(fresh))
    edit(w)
    asked = answer(monkeypatch, w, "discard")
    attempt()
    assert asked == [1] and gone()
    assert fresh.read_bytes() == (DATA / "records" / "example3.kifu").read_bytes()
    # Without edits nobody is asked.
    w.show()
    assert w.open_file(str(fresh))
    asked = answer(monkeypatch, w, "cancel")
    attempt()
    assert asked == []


def test_cancelled_save_keeps_the_edits(qtbot: QtBot, window: MainWindow, monkeypatch: pytest.MonkeyPatch) -> None:
    w = window
    edit(w)                                    # a new problem: Save asks for a name
    answer(monkeypatch, w, "save")
    save_dialog(monkeypatch, w, "", "")        # ... and the user cancels that dialog
    w.close()
    assert w.isVisible() and w.is_modified()


# ---- Save as: the filter, the suggested name, the folder -----------------------------------

@pytest.mark.parametrize("selected, ext", [("KIF (*.kif *.kifu)", ".kif"), ("CSA (*.csa)", ".csa"),
                                           ("SFEN (*.sfen)", ".sfen"), ("KI2 (*.ki2 *.ki2u)", ".ki2"),
                                           ("Positions (*.sfen *.kif *.kifu *.ki2 *.csa)", ".kif")])
def test_save_as_honours_the_chosen_filter(window: MainWindow, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                           selected: str, ext: str) -> None:
    w = window
    edit(w)
    save_dialog(monkeypatch, w, str(tmp_path / "name"), selected)
    assert w.editor.save_as()
    assert [p.name for p in tmp_path.iterdir()] == ["name" + ext]
    assert read_record(tmp_path / ("name" + ext)).start == Position.from_sfen(OTHER)
    assert w.editor.path() == str(tmp_path / ("name" + ext))


def test_save_as_suggests_a_name_and_remembers_the_folder(window: MainWindow, tmp_path: Path, kif: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    w = window
    edit(w)
    folder = tmp_path / "out"
    folder.mkdir()
    suggested = save_dialog(monkeypatch, w, str(folder / "first.kif"), "KIF (*.kif *.kifu)")
    assert w.editor.save_as()
    w.editor.new_problem()
    w.editor.set_header({"作品名": "春の/詰"}, [])
    assert w.editor.save_as()
    assert w.open_file(str(kif))
    assert w.editor.save_as()
    # tsume when there is nothing else; then the 作品名 in the folder last used; then the file itself.
    assert suggested == ["tsume.kif", str(folder / "春の_詰.kif"), str(kif)]


# ---- recent files --------------------------------------------------------------------------

def test_recent_files(qtbot: QtBot, window: MainWindow, tmp_path: Path, kif: Path,
                      monkeypatch: pytest.MonkeyPatch) -> None:
    w = window
    paths = []
    for i in range(RECENT_LIMIT + 2):
        p = tmp_path / f"p{i}.sfen"
        p.write_text(THREE + "\n", encoding="utf-8")
        paths.append(str(p))
        assert w.open_file(str(p))
    assert load_recent() == paths[::-1][:RECENT_LIMIT]
    w._fill_recent_menu()
    listed = [a.data() for a in w.recent_menu.actions() if a.data()]
    assert listed == load_recent()
    # Saving puts the saved file first.
    save_dialog(monkeypatch, w, str(tmp_path / "saved"), "KIF (*.kif *.kifu)")
    assert w.editor.save_as()
    assert load_recent()[0] == str(tmp_path / "saved.kif")
    # A file that is gone is taken off the list, with a message.
    Path(paths[-1]).unlink()
    assert not w.open_path(paths[-1])
    assert paths[-1] not in load_recent()
    assert "no longer there" in w.last_error
    assert w.editor.path() == str(tmp_path / "saved.kif")


def test_drop_accepts_only_record_files(window: MainWindow, tmp_path: Path) -> None:
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(tmp_path / "notes.txt")), QUrl.fromLocalFile(str(tmp_path / "p.KIF"))])
    assert MainWindow.dropped_file(mime) == str(tmp_path / "p.KIF")
    text = QMimeData()
    text.setText("hello")
    assert MainWindow.dropped_file(text) is None
    for data, accepted in ((mime, True), (text, False)):
        event = QDragEnterEvent(QPoint(10, 10), Qt.DropAction.CopyAction, data,
                                Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier)
        window.dragEnterEvent(event)
        assert event.isAccepted() is accepted


# ---- the record in full -------------------------------------------------------------------

@pytest.mark.parametrize("source", [DATA / "records" / "example3.kifu", *sorted(SAMPLES.glob("*.kifu"))],
                         ids=lambda p: p.name)
def test_open_and_save_writes_the_record_back_identically(window: MainWindow, tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch, source: Path) -> None:
    w = window
    assert w.open_file(str(source))
    save_dialog(monkeypatch, w, str(tmp_path / "copy"), "KIF (*.kif *.kifu)")
    assert w.editor.save_as()
    written = tmp_path / "copy.kif"   # Shift_JIS
    assert written.read_bytes().decode("cp932") == source.read_bytes().decode("utf-8")
    w.editor.save_file(str(tmp_path / "copy.kifu"))
    assert (tmp_path / "copy.kifu").read_bytes() == source.read_bytes()


def test_header_dialog_edits_are_undoable_saved_and_reopened(window: MainWindow, kif: Path, tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    w = window
    assert w.open_file(str(kif))

    def fill(dialog: HeaderDialog) -> bool:
        assert dialog.fields["作品名"].text() == "例題 3手詰"
        assert dialog.comment.toPlainText() == "初形へのコメント"
        dialog.fields["作品名"].setText("新題　第一番")
        dialog.fields["出典"].setText("詰将棋パラダイス")
        dialog.fields["作者"].setText("")
        dialog.comment.setPlainText("一行目\n二行目")
        return True
    monkeypatch.setattr(w, "run_dialog", fill)
    assert w.edit_header()
    assert w.isWindowModified()
    assert "新題　第一番" in w.windowTitle()
    header = w.editor.full_record().header
    assert header["作品名"] == "新題　第一番" and header["出典"] == "詰将棋パラダイス" and "作者" not in header
    w.editor.undo_stack.undo()
    assert w.editor.full_record().header["作者"] == "（作者名）" and not w.isWindowModified()
    w.editor.undo_stack.redo()
    w.editor.action("save_file").trigger()
    record = read_record(kif)
    assert record.header["作品名"] == "新題　第一番" and record.header["出典"] == "詰将棋パラダイス"
    assert "作者" not in record.header
    assert record.root.comments == ["一行目", "二行目"]
    assert len(record.root.children[0].children) == 2          # the 変化 is still there
    assert record.root.children[0].children[1].comments == ["変化：１一玉にも１二銀打まで"]
    # An unchanged dialog changes nothing.
    monkeypatch.setattr(w, "run_dialog", lambda dialog: True)
    assert not w.edit_header() and not w.isWindowModified()


def test_header_on_a_position_set_up_by_hand(window: MainWindow, tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    w = window
    edit(w)
    assert w.editor.record() is None

    def fill(dialog: HeaderDialog) -> bool:
        dialog.fields["作品名"].setText("手作り")
        dialog.fields["手数"].setText("1")
        return True
    monkeypatch.setattr(w, "run_dialog", fill)
    assert w.edit_header()
    assert w.editor.record() is not None and w.editor.record().start == Position.from_sfen(OTHER)
    w.editor.save_file(str(tmp_path / "hand.kif"))
    record = read_record(tmp_path / "hand.kif")
    assert record.header["作品名"] == "手作り" and record.header["手数"] == "1"
    assert record.start == Position.from_sfen(OTHER)


def test_export_solution_keeps_title_and_source(qtbot: QtBot, window: MainWindow, tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    w = window
    w.editor.set_position(Position.from_sfen(THREE))
    w.editor.set_header({"作品名": "三手詰", "出典": "詰将棋パラダイス", "手数": "99"}, ["初形"])
    with qtbot.waitSignal(w.searchFinished, timeout=30000) as blocker:
        w.actions_["solve"].trigger()
    assert blocker.args[0].status is SolveStatus.MATE
    w.export_kif(str(tmp_path / "answer.kif"))
    record = read_record(tmp_path / "answer.kif")
    assert record.header["作品名"] == "三手詰" and record.header["出典"] == "詰将棋パラダイス"
    assert record.header["手数"] == "3"                        # the answer's length, not the form's
    assert len(record.main_line()) == 3


def test_export_dialogs_honour_the_filter_and_suggest_a_name(qtbot: QtBot, window: MainWindow, tmp_path: Path,
                                                             kif: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    w = window
    assert w.open_file(str(kif))
    with qtbot.waitSignal(w.searchFinished, timeout=30000):
        w.actions_["solve"].trigger()
    asked: list[str] = []

    def ask(title: str, suggested: str, filters: str) -> tuple[str, str]:
        asked.append(suggested)
        return str(tmp_path / "out"), next(f for f in filters.split(";;") if f.startswith(choice))
    monkeypatch.setattr(w, "ask_export_path", ask)
    choice = "CSA"
    w.actions_["export_kif"].trigger()
    exported = read_record(tmp_path / "out.csa")
    assert exported.start == read_record(kif).start and len(exported.main_line()) == 3
    choice = "SVG"
    w.actions_["export_image"].trigger()
    assert (tmp_path / "out.svg").read_text(encoding="utf-8").lstrip().startswith("<")
    assert asked == [str(tmp_path / "example3_answer.kif"), str(tmp_path / "example3.png")]


# ---- another problem never lands in the open file -----------------------------------------

def test_pasting_another_problem_never_overwrites_the_open_file(qtbot: QtBot, window: MainWindow, kif: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """A KIF with header, comments and 変化, opened and saved; a different problem pasted;
    Ctrl+S asks for a new file instead of replacing the KIF; one undo brings the whole record back."""
    w = window
    assert w.open_file(str(kif))
    w.editor.action("save_file").trigger()
    saved = kif.read_bytes()
    opened = read_record(kif)
    assert opened.header["作品名"] == "例題 3手詰" and opened.root.comments
    assert len(opened.root.children[0].children) == 2                         # 2手目 has a 変化
    asked = answer(monkeypatch, w, "cancel")
    QGuiApplication.clipboard().setText(OTHER)
    qtbot.keyClick(w.board, Qt.Key.Key_V, Qt.KeyboardModifier.ControlModifier)
    assert w.editor.position() == Position.from_sfen(OTHER) and not asked    # nothing unsaved: no question
    assert w.editor.path() is None and w.windowTitle().startswith("Untitled[*]") and w.is_modified()
    assert "作品名" not in w.editor.full_record().header                      # the old title is not the new problem's
    suggested = save_dialog(monkeypatch, w, "", "KIF (*.kif *.kifu)")        # the dialog is cancelled
    qtbot.keyClick(w.board, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)
    assert len(suggested) == 1 and kif.read_bytes() == saved                 # asked for a name; the KIF untouched
    assert w.is_modified()
    qtbot.keyClick(w.board, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    back = w.editor.full_record()
    assert (back.start, back.header, back.root) == (opened.start, opened.header, opened.root)
    assert w.editor.path() == str(kif) and not w.is_modified()
    assert w.windowTitle().startswith("example3.kifu[*] — 例題 3手詰")
    w.editor.action("redo").trigger()                                         # the paste again: untitled again
    assert w.editor.path() is None and w.editor.position() == Position.from_sfen(OTHER)


def test_undoing_an_open_gives_back_the_problem_and_its_file(window: MainWindow, kif: Path, tmp_path: Path) -> None:
    w = window
    other = tmp_path / "other.sfen"
    other.write_text(THREE + "\n", encoding="utf-8")
    assert w.open_file(str(kif))
    assert w.open_file(str(other))
    assert w.editor.path() == str(other) and not w.is_modified()
    w.editor.action("undo").trigger()
    assert w.editor.path() == str(kif)                                        # Save writes the KIF to the KIF
    assert w.editor.full_record().header["作品名"] == "例題 3手詰"
    w.editor.action("save_file").trigger()
    assert read_record(other).start == Position.from_sfen(THREE)            # the other file keeps its problem
    assert read_record(kif).header["作品名"] == "例題 3手詰"


def test_a_solved_answer_waits_to_be_kept(qtbot: QtBot, window: MainWindow, kif: Path) -> None:
    """The answer of a solve is shown apart from the record and does not mark the file modified
    until the user keeps it; keeping it is one undoable step."""
    w = window
    text = kif.read_text(encoding="utf-8")
    kif.write_text(text[:text.index("変化：")], encoding="utf-8")   # the main line alone: the answer adds 1一玉
    assert w.open_file(str(kif))
    before = read_record(kif)
    w.set_mode("mate")
    with qtbot.waitSignal(w.searchFinished, timeout=60000):
        w.actions_["solve"].trigger()
    assert w.result() is not None and w.result().status is SolveStatus.MATE
    assert not w.is_modified() and not w.isWindowModified()
    assert w.editor.full_record().root == before.root                         # nothing merged yet
    assert w.pending_answer() is not None and w.record_panel.answer_bar.isVisibleTo(w.record_panel)
    assert w.actions_["keep_answer"].isEnabled()
    w.record_panel.keep_button.click()
    assert w.is_modified() and w.pending_answer() is None
    assert not w.record_panel.answer_bar.isVisibleTo(w.record_panel)
    assert w.editor.full_record().root != before.root                         # the defence 1一玉 added
    w.editor.action("undo").trigger()
    assert w.editor.full_record().root == before.root and not w.is_modified()


def test_export_solution_keeps_the_records_own_comments(qtbot: QtBot, window: MainWindow, kif: Path,
                                                        tmp_path: Path) -> None:
    """The start comment and the comments on moves the answer also plays go into the exported KIF."""
    w = window
    assert w.open_file(str(kif))
    own = read_record(kif)
    defence = own.root.children[0].children[1]
    assert own.root.comments == ["初形へのコメント"] and defence.comments        # the 変化's comment
    with qtbot.waitSignal(w.searchFinished, timeout=30000):
        w.actions_["solve"].trigger()
    w.export_kif(str(tmp_path / "answer.kif"))
    exported = read_record(tmp_path / "answer.kif")
    assert exported.root.comments[0] == "初形へのコメント"
    knight = exported.root.children[0]
    same = next(c for c in knight.children if c.move == defence.move)
    assert same.comments[:len(defence.comments)] == defence.comments

"""A Japanese user's window: Qt's own texts, core errors, shortcuts, KIF on the clipboard, small screens."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QGuiApplication, QKeySequence
from PySide6.QtWidgets import QDialogButtonBox, QMenu, QMessageBox, QTabBar
from pytestqt.qtbot import QtBot

from tsume_studio.core.errors import CoreError
from tsume_studio.core.records.formats import parse_record_text
from tsume_studio.core.shogi.position import Position
from tsume_studio.gui import i18n
from tsume_studio.gui.errors import error_text, untranslated_codes
from tsume_studio.gui.mainwindow import MIN_SQUARE, MainWindow

pytestmark = pytest.mark.qt_log_ignore(r"This plugin does not support propagateSizeHints")


@pytest.fixture(autouse=True)
def _english_after() -> Iterator[None]:
    yield
    i18n.set_language("en")


def test_qt_standard_buttons_follow_the_language(qtbot: QtBot) -> None:
    i18n.set_language("ja")
    box = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
    qtbot.addWidget(box)
    assert box.button(QDialogButtonBox.StandardButton.Cancel).text() == "キャンセル"
    question = QMessageBox(QMessageBox.Icon.Question, "t", "q",
                           QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No)
    qtbot.addWidget(question)
    assert question.button(QMessageBox.StandardButton.Yes).text().startswith("はい")
    i18n.set_language("en")     # open dialogs follow (Qt posts them a LanguageChange event)
    qtbot.waitUntil(lambda: box.button(QDialogButtonBox.StandardButton.Cancel).text() == "Cancel", timeout=2000)


def test_core_errors_are_translated_from_their_code_not_their_text() -> None:
    error = CoreError("engine.illegal_move", ply=3, move="9i9h")
    assert error_text(error) == "the engine's line is wrong: move 3 (9i9h) is not legal there"
    i18n.set_language("ja")
    assert error_text(error) == "エンジンの手順が誤りです: 3 手目 (9i9h) は指せない手です"
    assert error_text(OSError("disk full")) == "disk full"     # no code: shown as it is
    assert untranslated_codes() == []


@pytest.fixture
def window(qtbot: QtBot) -> Iterator[MainWindow]:
    w = MainWindow()
    qtbot.addWidget(w)
    w.resize(1280, 820)
    w.show()
    yield w


def test_the_window_shrinks_to_800x600_with_the_board_usable(qtbot: QtBot, window: MainWindow) -> None:
    window.resize(800, 600)
    qtbot.waitUntil(lambda: window.width() == 800 and window.height() == 600)
    assert window.minimumSizeHint().width() <= 800
    assert window.board.square_size() >= MIN_SQUARE >= 24
    assert all(d.isVisible() for d in window.docks.values())


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_dock_tabs_show_their_whole_titles(qtbot: QtBot, window: MainWindow, lang: str) -> None:
    i18n.set_language(lang)
    qtbot.wait(20)
    bars = [b for b in window.findChildren(QTabBar) if b.parent() is window and b.isVisible()]
    texts = {b.tabText(i) for b in bars for i in range(b.count())}
    titles = {window.docks[k].windowTitle() for k in ("proof", "futile", "alternatives")}
    assert titles <= texts
    assert all(b.elideMode() == Qt.TextElideMode.ElideNone for b in bars)
    window.reset_layout()     # new tab bars after a reset get the same treatment
    qtbot.wait(20)
    bars = [b for b in window.findChildren(QTabBar) if b.parent() is window and b.isVisible()]
    assert bars and all(b.elideMode() == Qt.TextElideMode.ElideNone for b in bars)


def test_keyboard_shortcuts_lists_the_menus_actual_shortcuts(qtbot: QtBot, window: MainWindow) -> None:
    i18n.set_language("ja")
    help_menu = window.menus["help"]
    assert window.actions_["shortcuts"] in help_menu.actions()
    dialog = window.show_shortcuts()
    rows = dict(dialog.rows())
    native = QKeySequence.SequenceFormat.NativeText
    assert rows["解く"] == QKeySequence("F5").toString(native)
    assert rows["KIF 形式でコピー"] == QKeySequence("Ctrl+Alt+C").toString(native)
    # A shortcut changed at run time shows up: the list is read from the actions.
    window.actions_["solve"].setShortcut(QKeySequence("Ctrl+R"))
    dialog.close()
    assert dict(window.show_shortcuts().rows())["解く"] == QKeySequence("Ctrl+R").toString(native)
    with_keys = {a for a in window.findChildren(QAction) if not a.shortcut().isEmpty()}
    in_menus = {a for m in window.menuBar().findChildren(QMenu) for a in m.actions()}
    listed = {command for command, _keys in window.show_shortcuts().rows()}
    assert {a.text().replace("&", "").split("(")[0].rstrip(".") for a in with_keys & in_menus} <= {
        c.split("(")[0] for c in listed}


def test_copy_as_kif_puts_the_whole_record_on_the_clipboard(qtbot: QtBot, window: MainWindow) -> None:
    window.editor.set_position(Position.from_sfen("7k1/4R4/9/9/9/9/9/9/9 b SNr2b4g3s3n4l18p 1"))
    window.editor.set_header({"作品名": "三手詰"}, ["作意の確認"])
    window.actions_["copy_kif"].trigger()
    text = QGuiApplication.clipboard().text()
    assert "作品名：三手詰" in text and "*作意の確認" in text
    assert parse_record_text(text).start.sfen() == "7k1/4R4/9/9/9/9/9/9/9 b SNr2b4g3s3n4l18p 1"
    assert window.actions_["copy_kif"] in window.menus["edit"].actions()


def test_core_errors_reach_a_japanese_user_in_japanese(qtbot: QtBot, window: MainWindow, tmp_path: Path) -> None:
    i18n.set_language("ja")
    odd = tmp_path / "problem.txt"
    odd.write_text("x", encoding="utf-8")
    assert not window.open_file(str(odd))
    assert window.last_error.startswith("開けません: ")
    assert "の種類 '.txt' は扱えません" in window.last_error
    assert "unknown" not in window.last_error
    window.error_box.close()
    QGuiApplication.clipboard().setText("   ")
    window.editor.action("paste").trigger()
    assert "テキストが空です" in window.last_error
    QGuiApplication.clipboard().setText("lnsgkgsnl/9 b")
    window.editor.action("paste").trigger()
    assert "SFEN には 4 つ" in window.last_error


_KIF_HEAD = "手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 ３四歩(33)\n"


@pytest.mark.parametrize(("line", "code", "japanese"), [
    ("   3 ５五飛(88)", "move.no_piece", "5 行目: ８八に手番側の飛がありません: 「3 ５五飛(88)」"),
    ("   3 ほげ", "record.not_a_move", "5 行目: 指し手として読めません: 「3 ほげ」"),
    ("   5 ７六歩(77)", "record.move_number", "5 行目: 手数 5 が直前の 2 手目に続いていません"),
    ("   3 ７六歩(77) 余計", "record.text_after_move", "5 行目: 指し手の後ろに余計な文字 '余計' があります"),
    ("これは何", "record.not_a_line", "5 行目: KIF の行として読めません: 「これは何」"),
])
def test_kif_line_errors_have_codes_and_japanese_texts(line: str, code: str, japanese: str) -> None:
    with pytest.raises(CoreError) as caught:
        parse_record_text(_KIF_HEAD + line + "\n")
    error = caught.value
    assert error.code == code and error.line == 5
    assert str(error).startswith("line 5: ")     # the English text, as the command line shows it
    i18n.set_language("ja")
    assert error_text(error).startswith(japanese)


def test_a_kif_with_an_illegal_move_is_refused_in_japanese(qtbot: QtBot, window: MainWindow, tmp_path: Path) -> None:
    i18n.set_language("ja")
    bad = tmp_path / "bad.kif"
    bad.write_text(_KIF_HEAD + "   3 ５五飛(88)\n", encoding="utf-8")
    assert not window.open_file(str(bad))
    assert "5 行目: ８八に手番側の飛がありません" in window.last_error
    assert "side to move" not in window.last_error


_KI2_HEAD = "手合割：平手\n\n▲７六歩 △３四歩\n"


@pytest.mark.parametrize(("line", "code", "japanese"), [
    ("△２六歩", "record.out_of_turn", "4 行目: △ の手番ではありません: '△２六歩': 「△２六歩」"),
    ("▲２六歩 hello", "record.expected_mark", "4 行目: 'hello' の前に ▲ か △ が必要です"),
    ("▲犬", "record.not_a_move_at", "4 行目: 指し手として読めません: '▲犬'"),
])
def test_ki2_move_errors_have_codes_and_japanese_texts(line: str, code: str, japanese: str) -> None:
    with pytest.raises(CoreError) as caught:
        parse_record_text(_KI2_HEAD + line + "\n")
    error = caught.value
    assert error.code == code and error.line == 4
    assert str(error).startswith("line 4: ")
    i18n.set_language("ja")
    assert error_text(error).startswith(japanese)

"""A Japanese user's window: Qt's own texts, core errors, shortcuts, KIF on the clipboard, small screens."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from PySide6.QtWidgets import QDialogButtonBox, QMessageBox
from pytestqt.qtbot import QtBot

from tsume_studio.core.errors import CoreError
from tsume_studio.gui import i18n
from tsume_studio.gui.errors import error_text, untranslated_codes

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

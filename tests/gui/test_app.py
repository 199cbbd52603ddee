"""The application around the window: command line, sample problems, language, settings, helpmate mode, images."""

from __future__ import annotations

from pathlib import Path
from collections.abc import Iterator

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication
from pytestqt.qtbot import QtBot

from tsume_studio.core.shogi.position import Position
from tsume_studio.core.records.formats import read_record
from tsume_studio.core.search.contract import Limits, SolveStatus
from tsume_studio.gui import i18n
from tsume_studio.gui.app import DEFAULT_SAMPLE, build_parser, create_window, sample_names
from tsume_studio.gui.mainwindow import MainWindow
from tsume_studio.gui.resources import resource_path
from tsume_studio.gui.settings import (
    LimitsDialog, load_language, load_limits, load_mode, save_limits, settings,
)
from tsume_studio.gui.worker import running_workers

pytestmark = pytest.mark.qt_log_ignore(r"This plugin does not support propagateSizeHints")

THREE = "7k1/4R4/9/9/9/9/9/9/9 b SNr2b4g3s3n4l18p 1"


@pytest.fixture(autouse=True)
def english() -> Iterator[None]:
    """The language is global: every test starts and ends in English."""
    i18n.set_language("en")
    yield
    i18n.set_language("en")


def open_window(qtbot: QtBot, *argv: str) -> MainWindow:
    window = create_window(build_parser().parse_args(list(argv)))
    assert isinstance(window, MainWindow)
    qtbot.addWidget(window)
    return window


def test_sample_opens_a_valid_problem(qtbot: QtBot) -> None:
    assert DEFAULT_SAMPLE in sample_names()
    window = open_window(qtbot, "--sample", "--lang", "en")
    expected = read_record(Path(str(resource_path("samples", DEFAULT_SAMPLE)))).start
    assert window.editor.position() == expected
    assert window.editor.problems() == []
    assert window.actions_["solve"].isEnabled()
    # Its 作品名; a bundled sample is a new problem (Save asks for a name), unmodified.
    qtbot.waitUntil(lambda: window.windowTitle() == "Untitled[*] — サンプル3手詰 — Tsume Studio")
    assert window.editor.path() is None and not window.isWindowModified()
    window.editor.set_position(Position.from_sfen(THREE))
    # An edited position keeps the problem's header (the moves go), and is modified.
    qtbot.waitUntil(lambda: window.isWindowModified())
    assert window.windowTitle() == "Untitled[*] — サンプル3手詰 — Tsume Studio"
    assert window.editor.record() is None


def test_unknown_sample_is_reported(qtbot: QtBot) -> None:
    window = open_window(qtbot, "--sample", "nope.kif", "--lang", "en")
    assert "'nope.kif'" in window.last_error and DEFAULT_SAMPLE in window.last_error


def test_file_argument_and_bad_file(qtbot: QtBot, tmp_path: Path) -> None:
    good = tmp_path / "p.sfen"
    good.write_text(THREE + "\n", encoding="utf-8")
    window = open_window(qtbot, str(good), "--lang", "en")
    assert window.editor.position() == Position.from_sfen(THREE)
    bad = tmp_path / "bad.sfen"
    bad.write_text("not a position\n", encoding="utf-8")
    window = open_window(qtbot, str(bad), "--lang", "en")
    assert window.last_error.startswith("Cannot open")
    assert window.editor.position() != Position.from_sfen(THREE)


def test_language_switch_retranslates_and_persists(qtbot: QtBot) -> None:
    window = open_window(qtbot, "--lang", "en")
    assert window.menus["solve"].title() == "&Solve"
    assert window.docks["futile"].windowTitle() == "Futile (無駄合)"
    window.actions_["lang_ja"].trigger()
    assert i18n.language() == "ja"
    assert window.menus["solve"].title() == "解図(&S)"
    assert window.actions_["solve"].text() == "解く"
    assert window.docks["futile"].windowTitle() == "無駄合"
    assert window.search_panel.model.headerData(0, Qt.Orientation.Horizontal) == "指し手"
    assert load_language() == "ja"
    window.set_language("en")
    assert window.actions_["solve"].text() == "Solve"
    assert load_language() == "en"


def test_limits_persist_and_dialog_edits_them(qtbot: QtBot) -> None:
    save_limits(Limits(nodes=123_000, seconds=None, memory_mb=256))
    assert load_limits() == Limits(nodes=123_000, seconds=None, memory_mb=256)
    dialog = LimitsDialog(load_limits())
    qtbot.addWidget(dialog)
    assert dialog.seconds.text() == "no limit"
    dialog.seconds.setValue(12.5)
    dialog.nodes.setValue(0)
    assert dialog.limits() == Limits(nodes=None, seconds=12.5, memory_mb=256)
    settings().setValue("solve/seconds", "garbage")
    assert load_limits().seconds == 60.0    # the default, not a crash
    save_limits(Limits(seconds=60.0, memory_mb=64))


def test_helpmate_mode_solves_with_the_helpmate_solver(qtbot: QtBot) -> None:
    window = open_window(qtbot, "--lang", "en")
    window.set_mode("helpmate")
    assert load_mode() == "helpmate"
    window.editor.set_position(Position.from_sfen(THREE))
    with qtbot.waitSignal(window.searchFinished, timeout=30000) as blocker:
        window.actions_["solve"].trigger()
    result = blocker.args[0]
    assert result.status is SolveStatus.MATE and result.length == 3
    assert window.result_panel.summary.text() == "Helpmate in 3"
    assert len(window.result_panel.move_texts()) == 3
    window.set_mode("mate")
    qtbot.waitUntil(lambda: running_workers() == 0, timeout=5000)


def test_board_image_and_sfen_copy(qtbot: QtBot, tmp_path: Path) -> None:
    window = open_window(qtbot, "--lang", "en")
    window.editor.set_position(Position.from_sfen(THREE))
    png, svg = tmp_path / "board.png", tmp_path / "board.svg"
    window.export_image(str(png))
    window.export_image(str(svg))
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert b"<svg" in svg.read_bytes()[:2000]
    with pytest.raises(ValueError, match=r"board\.gif"):
        window.export_image(str(tmp_path / "board.gif"))
    assert window.copy_sfen() == THREE
    assert QGuiApplication.clipboard().text() == THREE
    with pytest.raises(ValueError, match="solve the problem first"):
        window.export_kif(str(tmp_path / "x.kif"))

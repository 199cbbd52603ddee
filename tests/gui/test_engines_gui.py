"""External USI mate engines in the window: Settings ▸ Engines, Solve ▸ Engine, the answer on the board.

``tsume-usi`` (this package's own engine) is the well-behaved engine;
``tests/data/fake_usi_engine.py`` plays the broken ones.
"""

from __future__ import annotations

import shutil
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from PySide6.QtWidgets import QMessageBox
from pytestqt.qtbot import QtBot

from tsume_studio.core.search.contract import SolveStatus
from tsume_studio.core.shogi.position import Position
from tsume_studio.core.usi_client import EngineSpec
from tsume_studio.gui import i18n
from tsume_studio.gui.engines import EngineEditDialog, EnginesDialog
from tsume_studio.gui.mainwindow import ENGINE_NO_FUTILE, ENGINE_NO_PROOF, MainWindow
from tsume_studio.gui.settings import (
    load_engine_choice, load_engines, save_engine_choice, save_engines,
)

THREE = "7k1/4R4/9/9/9/9/9/9/9 b SNr2b4g3s3n4l18p 1"
LONG = "g1+P1k1+P+P+L/1p3P3/+R+p2pp1pl/1NNsg+p2+R/+b+nL+P1+p3/1P3ssP1/2P1+Ps2N/4+P1P1L/+B5G1g b - 1"
FAKE = str(Path(__file__).parent.parent / "data" / "fake_usi_engine.py")

pytestmark = pytest.mark.qt_log_ignore(r"This plugin does not support propagateSizeHints")


def tsume_usi_path() -> str:
    path = Path(sys.executable).with_name("tsume-usi")
    if path.exists():
        return str(path)
    found = shutil.which("tsume-usi")
    if found is None:
        pytest.skip("tsume-usi is not installed")
    return found


@pytest.fixture(autouse=True)
def _no_engines() -> Iterator[None]:
    save_engines([])
    save_engine_choice("")
    i18n.set_language("en")
    yield
    save_engines([])
    save_engine_choice("")
    i18n.set_language("en")


@pytest.fixture
def window(open_window: Callable[..., MainWindow]) -> MainWindow:
    return open_window(seconds=30.0, settle_ms=15000)


def add_engine(qtbot: QtBot, w: MainWindow, spec: EngineSpec) -> EnginesDialog:
    """Settings ▸ Engines ▸ Add... filled in as a user would, OK pressed; the dialog, accepted."""
    shown: list[EnginesDialog] = []

    def run_editor(dialog: EngineEditDialog) -> bool:
        dialog.name.setText(spec.name)
        dialog.path.setText(spec.path)
        dialog.args.setText(" ".join(spec.args))
        dialog.options.setPlainText("\n".join(f"{k}={v}" for k, v in spec.options))
        dialog.show()
        with qtbot.waitSignal(dialog.tested, timeout=15000):
            dialog.buttons.accepted.emit()          # OK: the handshake runs first
        return dialog.result() == EngineEditDialog.DialogCode.Accepted

    def run_dialog(dialog: EnginesDialog) -> bool:
        dialog.run_editor = run_editor  # type: ignore[method-assign]
        shown.append(dialog)
        dialog.add()
        return True

    w.engine_choice.run_dialog = run_dialog  # type: ignore[method-assign]
    w.engine_choice.configure.trigger()
    return shown[0]


def test_settings_engines_adds_a_tested_engine_and_solve_uses_it(qtbot: QtBot, window: MainWindow) -> None:
    assert window.menus["settings"].actions()[0] is window.engine_choice.configure
    add_engine(qtbot, window, EngineSpec("tsume-usi", tsume_usi_path(), options=(("USI_Hash", "32"),)))
    assert load_engines() == [EngineSpec("tsume-usi", tsume_usi_path(), (), (("USI_Hash", "32"),))]
    # The built-in solver stays the default; the engine is chosen in Solve ▸ Engine.
    assert window.engine() is None and window.engine_choice.actions[""].isChecked()
    window.engine_choice.actions["tsume-usi"].trigger()
    assert load_engine_choice() == "tsume-usi" and window.engine() is not None

    window.editor.set_position(Position.from_sfen(THREE))
    with qtbot.waitSignal(window.searchFinished, timeout=30000) as blocker:
        window.actions_["solve"].trigger()
    result = blocker.args[0]
    assert result.status is SolveStatus.MATE and result.pv == ("N*3c", "2a1a", "S*1b")
    assert result.extra["engine"] == "Tsume Studio" and result.proof is None
    # The main line is on the board's move list, and goes into the record as the answer when kept.
    assert window.result_panel.line() == ("N*3c", "2a1a", "S*1b")
    assert window.result_panel.summary.text() == "Mate in 3 (not proved shortest)"
    assert window.actions_["keep_answer"].isEnabled()
    window.actions_["keep_answer"].trigger()
    record = window.editor.full_record()
    assert [m.usi() for m in record.main_line()] == ["N*3c", "2a1a", "S*1b"]
    window.result_panel.set_ply(3)
    assert window.board.position().is_checkmate()
    # What the engine does not give is said plainly.
    assert window.engine_note.isVisible() and "no 無駄合 reasons" in window.engine_note.text()
    assert window.proof_panel.note.text() == ENGINE_NO_PROOF
    assert window.futile_panel.count() == 0 and window.futile_panel.note.text() == ENGINE_NO_FUTILE
    # Back to the built-in solver: a full answer, and the note goes.
    window.engine_choice.actions[""].trigger()
    with qtbot.waitSignal(window.searchFinished, timeout=30000) as blocker:
        window.actions_["solve"].trigger()
    assert blocker.args[0].proof is not None and not window.engine_note.isVisible()


def test_a_failed_handshake_is_a_clear_error_and_adds_nothing(qtbot: QtBot, window: MainWindow,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    import tsume_studio.core.usi_client as usi_client
    monkeypatch.setattr(usi_client, "HANDSHAKE_SECONDS", 0.5)
    monkeypatch.setattr(usi_client.probe_engine, "__defaults__", (0.5,))
    dialog = EngineEditDialog(None, (), window)
    qtbot.addWidget(dialog)
    dialog.name.setText("silent")
    dialog.path.setText(sys.executable)
    dialog.args.setText(f"{FAKE} silent")
    dialog.show()
    with qtbot.waitSignal(dialog.tested, timeout=10000) as blocker:
        dialog.buttons.accepted.emit()
    assert blocker.args[0].code == "engine.no_usiok"
    assert dialog.isVisible() and dialog.result() != EngineEditDialog.DialogCode.Accepted
    assert "did not answer 'usi' with 'usiok'" in dialog.status.text()
    i18n.set_language("ja")
    dialog.path.setText("/no/such/engine")
    with qtbot.waitSignal(dialog.tested, timeout=10000):
        dialog.test_engine()
    assert dialog.status.text() == "エンジンのテストに失敗しました: エンジンのプログラム /no/such/engine がありません"


def test_a_wrong_line_is_reported_never_shown_as_a_mate(qtbot: QtBot, window: MainWindow) -> None:
    save_engines([EngineSpec("liar", sys.executable, (FAKE, "notmate"))])
    window.engine_choice.rebuild()
    window.engine_choice.actions["liar"].trigger()
    window.editor.set_position(Position.from_sfen(THREE))
    with qtbot.waitSignal(window.searchFinished, timeout=30000) as blocker:
        window.actions_["solve"].trigger()
    assert blocker.args[0] is None and window.result() is None
    assert window.result_panel.line() == ()
    assert window.last_error == ("Solve failed: the engine's line is wrong: it ends after 3 moves without checkmate")
    assert window.editor.full_record().main_line() == []
    box = window.error_box
    assert box is not None and box.icon() == QMessageBox.Icon.Warning
    box.close()


def test_stop_ends_a_hung_engine_and_the_window_stays_responsive(qtbot: QtBot, window: MainWindow,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    import tsume_studio.core.usi_client as usi_client
    monkeypatch.setattr(usi_client, "STOP_GRACE", 0.5)
    monkeypatch.setattr(usi_client.engine_solver, "__defaults__", (usi_client.HANDSHAKE_SECONDS, 0.5))
    save_engines([EngineSpec("hang", sys.executable, (FAKE, "hang"))])
    save_engine_choice("hang")
    window.engine_choice.rebuild()
    window.editor.set_position(Position.from_sfen(THREE))
    window.actions_["solve"].trigger()
    assert window.is_searching()
    # The GUI thread is never blocked: timers fire on time while the engine hangs.
    ticks: list[float] = []
    started = time.monotonic()
    qtbot.waitUntil(lambda: (ticks.append(time.monotonic()) or len(ticks) > 20), timeout=5000)
    assert time.monotonic() - started < 3
    with qtbot.waitSignal(window.searchFinished, timeout=15000) as blocker:
        window.actions_["stop"].trigger()
    assert blocker.args[0] is None and window.result_panel.is_stopped()


def test_stop_on_tsume_usi_answers_quickly(qtbot: QtBot, window: MainWindow) -> None:
    save_engines([EngineSpec("tsume-usi", tsume_usi_path())])
    save_engine_choice("tsume-usi")
    window.engine_choice.rebuild()
    window.editor.set_position(Position.from_sfen(LONG))
    window.actions_["solve"].trigger()
    qtbot.waitUntil(lambda: "Nodes" in window.stats_label.text(), timeout=15000)
    assert window.stats_label.text().startswith("tsume-usi:")
    started = time.monotonic()
    with qtbot.waitSignal(window.searchFinished, timeout=15000) as blocker:
        window.actions_["stop"].trigger()
    assert blocker.args[0] is None and time.monotonic() - started < 5


def test_helpmates_stay_on_the_built_in_solver(qtbot: QtBot, window: MainWindow) -> None:
    save_engines([EngineSpec("liar", sys.executable, (FAKE, "notmate"))])
    save_engine_choice("liar")
    window.engine_choice.rebuild()
    window.set_mode("helpmate")
    try:
        window.editor.set_position(Position.from_sfen(THREE))
        with qtbot.waitSignal(window.searchFinished, timeout=30000) as blocker:
            window.actions_["solve"].trigger()
        assert blocker.args[0] is not None and blocker.args[0].status is SolveStatus.MATE
        assert "engine" not in blocker.args[0].extra
    finally:
        window.set_mode("mate")

"""External USI mate engines: registering them (Settings > Engines) and choosing one for Solve.

:class:`EngineEditDialog` edits one engine (name, program, arguments,
``setoption`` values) and accepts it only after a handshake succeeded
(``usi``/``usiok``, ``isready``/``readyok``); the handshake runs on a thread
of its own, so the window never waits for an engine.  :class:`EnginesDialog`
lists the registered engines.  :class:`EngineChoice` holds the Solve > Engine
menu: the built-in solver (the default) or one of the engines.  The engine
itself runs through :mod:`tsume_studio.core.usi_client`.
"""

from __future__ import annotations

import concurrent.futures
import os
import shlex

from PySide6.QtCore import QObject, Qt, QTimer, Signal, Slot
from PySide6.QtGui import QAction, QActionGroup
from PySide6.QtWidgets import (
    QDialog, QDialogButtonBox, QFileDialog, QFormLayout, QHBoxLayout, QLabel, QLineEdit, QListWidget,
    QListWidgetItem, QMenu, QMessageBox, QPlainTextEdit, QPushButton, QVBoxLayout, QWidget,
)

from ..core.usi_client import EngineInfo, EngineSpec, parse_option_text, probe_engine
from . import i18n
from .errors import error_text
from .i18n import add_translations, tr
from .settings import load_engine_choice, load_engines, save_engine_choice, save_engines

add_translations("ja", {
    "Engines": "エンジン",
    "Engines...": "エンジンの設定...",
    "USI engines": "USI エンジン",
    "&Settings": "設定(&T)",
    "Engine": "エンジン",
    "Built-in solver": "内蔵ソルバー",
    "Add...": "追加...",
    "Edit...": "編集...",
    "Remove": "削除",
    "Name": "名前",
    "Program": "プログラム",
    "Arguments": "引数",
    "Options": "オプション",
    "Browse...": "参照...",
    "Test": "テスト",
    "Add engine": "エンジンの追加",
    "Edit engine": "エンジンの編集",
    "Choose the engine program": "エンジンのプログラムを選ぶ",
    "One option a line: name=value (sent as setoption)": "1 行に 1 つ: 名前=値 (setoption で送ります)",
    "Testing the engine…": "エンジンをテストしています…",
    "Handshake OK: %1": "通信の確認に成功しました: %1",
    "by %1": "作者 %1",
    "Its options: %1": "オプション: %1",
    "none": "なし",
    "The engine failed its test: %1": "エンジンのテストに失敗しました: %1",
    "Give the engine a name.": "エンジンの名前を入れてください。",
    "Choose the engine's program.": "エンジンのプログラムを選んでください。",
    "Another engine is already called %1.": "%1 という名前のエンジンはすでにあります。",
    "The arguments cannot be read: %1": "引数を読み取れません: %1",
    "Any USI engine that answers 'go mate' (KomoringHeights, 脊尾詰, tsume-usi). "
    "Each is tested by a handshake when it is added.":
        "go mate に答える USI エンジン (KomoringHeights、脊尾詰、tsume-usi など) を登録します。"
        "追加するときに通信を確認します。",
    "No engines yet.": "エンジンはまだ登録されていません。",
    "Remove the engine %1?": "エンジン %1 を削除しますか?",
})


class EngineEditDialog(QDialog):
    """Add or edit one engine; OK runs the handshake and accepts only when it succeeds.

    Signals:
        tested(object): the handshake ended: the :class:`EngineInfo`, or the exception.
    """

    tested = Signal(object)

    def __init__(self, spec: EngineSpec | None = None, taken: tuple[str, ...] = (),
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("engine_edit")
        self.setWindowTitle(tr("Edit engine" if spec else "Add engine"))
        self._taken = taken
        self._executor = concurrent.futures.ThreadPoolExecutor(max_workers=1)
        self._future: concurrent.futures.Future[EngineInfo] | None = None
        self._accept_after = False
        self.info: EngineInfo | None = None
        self.error: BaseException | None = None
        self.name = QLineEdit(spec.name if spec else "", self)
        self.path = QLineEdit(spec.path if spec else "", self)
        self.browse = QPushButton(tr("Browse..."), self)
        self.browse.clicked.connect(self._browse)
        self.args = QLineEdit(shlex.join(spec.args) if spec else "", self)
        self.options = QPlainTextEdit(self)
        self.options.setPlaceholderText(tr("One option a line: name=value (sent as setoption)"))
        self.options.setPlainText("\n".join(f"{k}={v}" for k, v in spec.options) if spec else "")
        self.options.setFixedHeight(self.options.fontMetrics().lineSpacing() * 5 + 12)
        self.status = QLabel(self)
        self.status.setObjectName("engine_status")
        self.status.setWordWrap(True)
        self.status.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        path_row = QHBoxLayout()
        path_row.addWidget(self.path, 1)
        path_row.addWidget(self.browse)
        form = QFormLayout()
        form.addRow(tr("Name"), self.name)
        form.addRow(tr("Program"), path_row)
        form.addRow(tr("Arguments"), self.args)
        form.addRow(tr("Options"), self.options)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel,
                                        parent=self)
        self.test_button = self.buttons.addButton(tr("Test"), QDialogButtonBox.ButtonRole.ActionRole)
        self.test_button.clicked.connect(lambda: self.test_engine())
        self.buttons.accepted.connect(self._ok)
        self.buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.status)
        layout.addWidget(self.buttons)
        self.resize(560, self.sizeHint().height())
        self._timer = QTimer(self)
        self._timer.setInterval(30)
        self._timer.timeout.connect(self._poll)

    def ask_program(self) -> str:
        """The program chosen in a file dialog ("" when cancelled; tests replace this)."""
        path, _ = QFileDialog.getOpenFileName(self, tr("Choose the engine program"),
                                              os.path.dirname(self.path.text()))
        return path

    def _browse(self) -> None:
        path = self.ask_program()
        if path:
            self.path.setText(path)
            if not self.name.text().strip():
                self.name.setText(os.path.splitext(os.path.basename(path))[0])

    def spec(self) -> EngineSpec:
        """The engine as edited.

        Raises:
            ValueError: no name or program, a name already taken, unreadable
                arguments, an option line without ``=`` (a :class:`CoreError`).
        """
        name = self.name.text().strip()
        path = self.path.text().strip()
        if not name:
            raise ValueError(tr("Give the engine a name."))
        if name in self._taken:
            raise ValueError(tr("Another engine is already called %1.").replace("%1", name))
        if not path:
            raise ValueError(tr("Choose the engine's program."))
        try:
            args = tuple(shlex.split(self.args.text()))
        except ValueError as e:
            raise ValueError(tr("The arguments cannot be read: %1").replace("%1", str(e))) from e
        return EngineSpec(name, path, args, parse_option_text(self.options.toPlainText()))

    def is_testing(self) -> bool:
        """True while a handshake runs."""
        return self._future is not None

    def test_engine(self, accept: bool = False) -> bool:
        """Start the handshake with the engine as edited (``accept``: accept the dialog if it passes).

        False when the fields are not valid (the dialog says why) or a test already runs.
        """
        if self._future is not None:
            return False
        try:
            spec = self.spec()
        except ValueError as e:
            self._show_error(error_text(e))
            return False
        self.info = None
        self.error = None
        self._accept_after = accept
        self.status.setStyleSheet("")
        self.status.setText(tr("Testing the engine…"))
        for widget in (self.buttons.button(QDialogButtonBox.StandardButton.Ok), self.test_button):
            widget.setEnabled(False)
        self._future = self._executor.submit(probe_engine, spec)
        self._timer.start()
        return True

    @Slot()
    def _poll(self) -> None:
        future = self._future
        if future is None or not future.done():
            return
        self._timer.stop()
        self._future = None
        for widget in (self.buttons.button(QDialogButtonBox.StandardButton.Ok), self.test_button):
            widget.setEnabled(True)
        error = future.exception()
        if error is not None:
            self.error = error
            self._show_error(tr("The engine failed its test: %1").replace("%1", error_text(error)))
            self.tested.emit(error)
            return
        info = future.result()
        self.info = info
        self.status.setStyleSheet("")
        self.status.setText(self.describe(info))
        self.tested.emit(info)
        if self._accept_after:
            self.accept()

    @staticmethod
    def describe(info: EngineInfo) -> str:
        """What the handshake learnt: the engine's name and author, and its options."""
        who = info.name or "?"
        if info.author:
            who += " (" + tr("by %1").replace("%1", info.author) + ")"
        options = []
        for o in info.options:
            bounds = f" {o.min}–{o.max}" if o.min is not None and o.max is not None else ""
            default = f" = {o.default}" if o.default not in (None, "") else ""
            options.append(f"{o.name} ({o.type}{bounds}){default}")
        return (tr("Handshake OK: %1").replace("%1", who) + "\n"
                + tr("Its options: %1").replace("%1", ", ".join(options) or tr("none")))

    def _show_error(self, text: str) -> None:
        self.status.setStyleSheet("color: #b00020;")
        self.status.setText(text)

    def _ok(self) -> None:
        self.test_engine(accept=True)

    def done(self, result: int) -> None:
        """Close the dialog; a handshake still running is left to finish on its thread."""
        self._timer.stop()
        self._executor.shutdown(wait=False)
        super().done(result)


class EnginesDialog(QDialog):
    """The registered engines: add (tested), edit, remove.  OK saves them."""

    def __init__(self, engines: list[EngineSpec], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("engines_dialog")
        self.setWindowTitle(tr("USI engines"))
        self._engines = list(engines)
        intro = QLabel(tr("Any USI engine that answers 'go mate' (KomoringHeights, 脊尾詰, tsume-usi). "
                          "Each is tested by a handshake when it is added."), self)
        intro.setWordWrap(True)
        self.list = QListWidget(self)
        self.list.setObjectName("engine_list")
        self.list.itemDoubleClicked.connect(lambda _item: self.edit_current())
        self.empty = QLabel(tr("No engines yet."), self)
        side = QVBoxLayout()
        self.add_button = QPushButton(tr("Add..."), self)
        self.edit_button = QPushButton(tr("Edit..."), self)
        self.remove_button = QPushButton(tr("Remove"), self)
        self.add_button.clicked.connect(lambda: self.add())
        self.edit_button.clicked.connect(lambda: self.edit_current())
        self.remove_button.clicked.connect(lambda: self.remove_current())
        for button in (self.add_button, self.edit_button, self.remove_button):
            side.addWidget(button)
        side.addStretch(1)
        row = QHBoxLayout()
        row.addWidget(self.list, 1)
        row.addLayout(side)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel,
                                   parent=self)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addLayout(row, 1)
        layout.addWidget(self.empty)
        layout.addWidget(buttons)
        self.list.currentRowChanged.connect(lambda _row: self._update_buttons())
        self.resize(600, 340)
        self._fill()

    def engines(self) -> list[EngineSpec]:
        """The engines as edited."""
        return list(self._engines)

    def _fill(self) -> None:
        row = self.list.currentRow()
        self.list.clear()
        for e in self._engines:
            item = QListWidgetItem(f"{e.name}  —  {shlex.join([e.path, *e.args])}")
            item.setToolTip("\n".join(f"{k}={v}" for k, v in e.options))
            self.list.addItem(item)
        self.empty.setVisible(not self._engines)
        if self._engines:
            self.list.setCurrentRow(max(0, min(row, len(self._engines) - 1)))
        self._update_buttons()

    def _update_buttons(self) -> None:
        chosen = self.list.currentRow() >= 0
        self.edit_button.setEnabled(chosen)
        self.remove_button.setEnabled(chosen)

    def make_editor(self, spec: EngineSpec | None, taken: tuple[str, ...]) -> EngineEditDialog:
        """The dialog that edits one engine (tests replace :meth:`run_editor`)."""
        return EngineEditDialog(spec, taken, self)

    def run_editor(self, dialog: EngineEditDialog) -> bool:
        """Run the edit dialog; True when the engine passed its test and was accepted."""
        return bool(dialog.exec())

    def add(self) -> bool:
        """Add an engine (tested before it is accepted); True when one was added."""
        dialog = self.make_editor(None, tuple(e.name for e in self._engines))
        if not self.run_editor(dialog):
            return False
        self._engines.append(dialog.spec())
        self._fill()
        self.list.setCurrentRow(len(self._engines) - 1)
        return True

    def edit_current(self) -> bool:
        """Edit the chosen engine (tested again); True when it changed."""
        row = self.list.currentRow()
        if row < 0:
            return False
        old = self._engines[row]
        dialog = self.make_editor(old, tuple(e.name for e in self._engines if e is not old))
        if not self.run_editor(dialog):
            return False
        self._engines[row] = dialog.spec()
        self._fill()
        return True

    def confirm_remove(self, name: str) -> bool:
        """Ask before removing an engine (tests replace this)."""
        answer = QMessageBox.question(self, tr("Remove"), tr("Remove the engine %1?").replace("%1", name))
        return answer == QMessageBox.StandardButton.Yes

    def remove_current(self) -> bool:
        """Remove the chosen engine after asking; True when removed."""
        row = self.list.currentRow()
        if row < 0 or not self.confirm_remove(self._engines[row].name):
            return False
        del self._engines[row]
        self._fill()
        return True


class EngineChoice(QObject):
    """The Solve > Engine menu: the built-in solver or a registered engine, remembered.

    Signals:
        changed(str): the chosen engine's name ("" for the built-in solver).
    """

    changed = Signal(str)

    def __init__(self, parent: QWidget) -> None:
        super().__init__(parent)
        self._parent = parent
        self.menu = QMenu(parent)
        self.menu.setObjectName("engine_menu")
        self.configure = QAction(parent)
        self.configure.setObjectName("action_engines")
        self.configure.triggered.connect(lambda _checked=False: self.edit_engines())
        self._group = QActionGroup(self)
        self.actions: dict[str, QAction] = {}
        self.rebuild()
        i18n.notifier.language_changed.connect(self.retranslate)
        self.retranslate()

    def rebuild(self) -> None:
        """Fill the menu from the registered engines, the saved choice checked."""
        for act in self.actions.values():
            self._group.removeAction(act)
        self.menu.clear()
        self.actions = {}
        chosen = load_engine_choice()
        for name in ["", *(e.name for e in load_engines())]:
            act = QAction(name or tr("Built-in solver"), self.menu)
            act.setObjectName(f"engine_{name}" if name else "engine_builtin")
            act.setCheckable(True)
            act.setChecked(name == chosen)
            act.triggered.connect(lambda _checked=False, n=name: self.choose(n))
            self._group.addAction(act)
            self.menu.addAction(act)
            self.actions[name] = act
            if not name:
                self.menu.addSeparator()
        self.menu.addSeparator()
        self.menu.addAction(self.configure)

    def retranslate(self, _lang: str = "") -> None:
        """Texts in the current language."""
        self.menu.setTitle(tr("Engine"))
        self.configure.setText(tr("Engines..."))
        if "" in self.actions:
            self.actions[""].setText(tr("Built-in solver"))

    def current(self) -> EngineSpec | None:
        """The engine Solve runs on, or None for the built-in solver."""
        name = load_engine_choice()
        return next((e for e in load_engines() if e.name == name), None) if name else None

    def choose(self, name: str) -> None:
        """Run Solve on the engine called ``name`` ("" for the built-in solver)."""
        if name and not any(e.name == name for e in load_engines()):
            name = ""
        save_engine_choice(name)
        self.rebuild()
        self.changed.emit(name)

    def make_dialog(self) -> EnginesDialog:
        """The engines dialog (tests drive it through :meth:`run_dialog`)."""
        return EnginesDialog(load_engines(), self._parent)

    def run_dialog(self, dialog: EnginesDialog) -> bool:
        """Run the engines dialog modally; True when accepted (tests replace this)."""
        return bool(dialog.exec())

    def edit_engines(self) -> bool:
        """Settings > Engines: edit the registered engines; True when saved."""
        dialog = self.make_dialog()
        if not self.run_dialog(dialog):
            return False
        save_engines(dialog.engines())
        self.rebuild()
        self.changed.emit(load_engine_choice())
        return True


__all__ = ["EngineChoice", "EngineEditDialog", "EnginesDialog"]

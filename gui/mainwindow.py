"""The main window: the board editor in the centre, Solve on a worker thread, panels around.

The window owns the solver thread (through :class:`~.worker.SolverWorker`)
and connects signals to widgets; it holds no solver logic.  The board shows
either the problem being edited (editable) or a position being looked at
(a ply of the main line, a node of a tree, a futile interposition); Ctrl+Home or
the start row of the move list goes back to the problem.
"""

from __future__ import annotations

import functools
import os
import time
from collections.abc import Callable

from PySide6.QtCore import QByteArray, Qt, QTimer, Signal, Slot
from PySide6.QtGui import QAction, QActionGroup, QCloseEvent, QKeySequence
from PySide6.QtWidgets import (
    QDockWidget, QFileDialog, QLabel, QMainWindow, QMessageBox, QToolBar, QVBoxLayout, QWidget,
)

from ..core.answer import solution_record
from ..core.shogi.moves import Move
from ..core.shogi.position import Position, Problem
from ..core.search.proof import Proof
from ..core.search.contract import Progress, SolveResult, SolveStatus
from ..core.search.helpmate import solve_iter as helpmate_solve_iter
from ..core.search.solver import solve_iter
from . import i18n
from .board import BoardView
from .editor import EditorController, ProblemBar
from .export import SOLUTION_FILE_FILTER, export_solution
from .i18n import add_translations, tr
from .models import number_text
from .panels import (
    AlternativesPanel, FutilePanel, ProofTreePanel, ResultPanel, SearchTreePanel, status_text,
)
from .study import RecordPanel, StudyController
from .settings import (
    LimitsDialog, load_limits, load_mode, save_language, save_limits, save_mode, settings,
)
from .worker import SolveFunction, SolverWorker

add_translations("ja", {
    "&File": "ファイル(&F)",
    "&Edit": "編集(&E)",
    "&Solve": "解図(&S)",
    "&View": "表示(&V)",
    "Solve": "解く",
    "Stop": "中止",
    "Direct mate": "詰将棋",
    "Helpmate": "協力詰",
    "Limits...": "探索の制限...",
    "Export solution (KIF)...": "解答を書き出す (KIF)...",
    "Export board image...": "盤面図を書き出す...",
    "Copy SFEN": "SFEN をコピー",
    "Quit": "終了",
    "Back to the problem": "問題に戻る",
    "Language": "言語",
    "Nodes %1": "局面数 %1",
    "%1 nodes/s": "%1 局面/秒",
    "%1 s": "%1 秒",
    "table %1%": "置換表 %1%",
    "Searching": "探索中",
    "%1, %2 nodes in %3 s": "%1、%2 局面、%3 秒",
    "The position has problems; Solve is disabled.": "局面に問題があるため解けません。",
    "Solve failed: %1": "解図に失敗しました: %1",
    "Cannot export: %1": "書き出せません: %1",
    "Exported %1": "%1 に書き出しました",
    "Copied SFEN to the clipboard": "SFEN をクリップボードにコピーしました",
    "The %1 solver is not available in this build.": "この版では%1ソルバーを使えません。",
    "direct-mate": "詰将棋",
    "helpmate": "協力詰",
    "Search stopped": "探索を中止しました",
    "Answer added to the record": "解答を棋譜に加えました",
})

IMAGE_FILE_FILTER = "PNG (*.png);;SVG (*.svg)"


def default_solver(mode: str) -> SolveFunction:
    """The core's solver generator for ``mode`` (``"mate"`` or ``"helpmate"``)."""
    if mode == "helpmate":
        return helpmate_solve_iter
    return solve_iter


class MainWindow(QMainWindow):
    """Tsume Studio's main window.

    Args:
        solver_for: returns the solver generator of a mode; the default uses
            the core's (tests pass stand-ins).

    Signals:
        searchStarted(): a search began.
        searchFinished(object): a search ended; its SolveResult, or None if it
            was stopped or failed.
    """

    searchStarted = Signal()
    searchFinished = Signal(object)

    def __init__(self, solver_for: Callable[[str], SolveFunction] = default_solver,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._solver_for = solver_for
        self._worker: SolverWorker | None = None
        self._result: SolveResult | None = None
        self._result_start: Position | None = None
        self._viewing = False
        self._search_mode = "mate"
        self.last_error = ""
        self.setObjectName("MainWindow")
        self.setWindowTitle("Tsume Studio")

        # ---- centre: problem bar over the board
        self.board = BoardView(self)
        self.board.setObjectName("board")
        self.editor = EditorController(self.board, self)
        self.problem_bar = ProblemBar(self)
        centre = QWidget(self)
        column = QVBoxLayout(centre)
        column.setContentsMargins(0, 0, 0, 0)
        column.setSpacing(0)
        column.addWidget(self.problem_bar)
        column.addWidget(self.board, 1)
        self.setCentralWidget(centre)

        # ---- panels
        self.result_panel = ResultPanel(self)
        self.proof_panel = ProofTreePanel(self)
        self.futile_panel = FutilePanel(self)
        self.alternatives_panel = AlternativesPanel(self)
        self.search_panel = SearchTreePanel(self)
        self.study = StudyController(self.editor.ensure_record, self)
        self.record_panel = RecordPanel(self.study, self)
        self.docks: dict[str, QDockWidget] = {}
        right = Qt.DockWidgetArea.RightDockWidgetArea
        for key, widget, area in (("result", self.result_panel, right),
                                  ("proof", self.proof_panel, right),
                                  ("futile", self.futile_panel, right),
                                  ("alternatives", self.alternatives_panel, right),
                                  ("search", self.search_panel, Qt.DockWidgetArea.LeftDockWidgetArea)):
            dock = QDockWidget(self)
            dock.setObjectName(f"dock_{key}")
            dock.setWidget(widget)
            self.addDockWidget(area, dock)
            self.docks[key] = dock
        self.tabifyDockWidget(self.docks["proof"], self.docks["futile"])
        self.tabifyDockWidget(self.docks["futile"], self.docks["alternatives"])
        record_dock = self.docks["record"] = QDockWidget(self)
        record_dock.setObjectName("dock_record")
        record_dock.setWidget(self.record_panel)
        self.tabifyDockWidget(self.docks["result"], record_dock)
        self.docks["result"].raise_()
        self.resizeDocks([self.docks["search"], self.docks["result"]], [290, 400], Qt.Orientation.Horizontal)
        self.docks["proof"].raise_()

        # ---- status line
        self.stats_label = QLabel(self)
        self.stats_label.setObjectName("stats")
        self.statusBar().addPermanentWidget(self.stats_label)

        self._build_actions()
        self._build_menus()
        self._connect()
        i18n.notifier.language_changed.connect(self._retranslate)
        self._retranslate()

        self.board.set_editable(True)
        self.problem_bar.set_problems(self.editor.problems())
        self._update_actions()
        self._restore_geometry()

    # ---- building ------------------------------------------------------------

    def _build_actions(self) -> None:
        self.actions_: dict[str, QAction] = {}
        a = self.actions_

        def make(key: str, slot: Callable[[], object],
                 shortcut: QKeySequence | QKeySequence.StandardKey | str | None = None) -> QAction:
            act = QAction(self)
            act.setObjectName(f"action_{key}")
            act.triggered.connect(lambda _checked=False: slot())
            if shortcut is not None:
                act.setShortcut(QKeySequence(shortcut))
            self.addAction(act)
            a[key] = act
            return act

        make("solve", self.solve, "F5")
        make("stop", self.stop, "Esc")
        make("limits", self.edit_limits)
        make("export_kif", self._export_kif_dialog, "Ctrl+E")
        make("export_image", self._export_image_dialog)
        make("copy_sfen", self.copy_sfen)
        make("quit", self.close, QKeySequence.StandardKey.Quit)
        make("problem", self.show_problem, "Ctrl+Home")
        make("first", lambda: self._step(-10**6), "Home")
        make("back", lambda: self._step(-1), "Left")
        make("forward", lambda: self._step(1), "Right")
        make("last", lambda: self._step(10**6), "End")
        make("variation_up", lambda: self.study.switch(-1), "Up")
        make("variation_down", lambda: self.study.switch(1), "Down")
        make("study", lambda: self.set_study_mode(a["study"].isChecked()), "Ctrl+M").setCheckable(True)
        make("promote_line", self.study.promote)
        make("delete_line", self.study.delete)
        a["first"].setText("|◀")
        a["back"].setText("◀")
        a["forward"].setText("▶")
        a["last"].setText("▶|")
        group = QActionGroup(self)
        mode = load_mode()
        for key in ("mate", "helpmate"):
            act = make(key, functools.partial(self.set_mode, key))
            act.setCheckable(True)
            act.setChecked(key == mode)
            group.addAction(act)
        lang_group = QActionGroup(self)
        for lang, label in (("ja", "日本語"), ("en", "English")):
            act = make(f"lang_{lang}", functools.partial(self.set_language, lang))
            act.setText(label)
            act.setCheckable(True)
            act.setChecked(i18n.language() == lang)
            lang_group.addAction(act)

    def _build_menus(self) -> None:
        a = self.actions_
        bar = self.menuBar()
        self.menus = {key: bar.addMenu("") for key in ("file", "edit", "solve", "view")}
        file_menu = self.menus["file"]
        file_menu.addActions(self.editor.file_actions())
        file_menu.addSeparator()
        file_menu.addActions([a["export_kif"], a["export_image"], a["copy_sfen"]])
        file_menu.addSeparator()
        file_menu.addAction(a["quit"])
        self.menus["edit"].addActions(self.editor.edit_actions())
        self.menus["edit"].addSeparator()
        self.menus["edit"].addAction(a["study"])
        solve_menu = self.menus["solve"]
        solve_menu.addActions([a["solve"], a["stop"]])
        solve_menu.addSeparator()
        solve_menu.addActions([a["mate"], a["helpmate"]])
        solve_menu.addSeparator()
        solve_menu.addActions([a["first"], a["back"], a["forward"], a["last"], a["problem"]])
        solve_menu.addActions([a["variation_up"], a["variation_down"], a["promote_line"], a["delete_line"]])
        solve_menu.addSeparator()
        solve_menu.addAction(a["limits"])
        view_menu = self.menus["view"]
        view_menu.addAction(self.editor.action("flip"))
        view_menu.addSeparator()
        for dock in self.docks.values():
            view_menu.addAction(dock.toggleViewAction())
        view_menu.addSeparator()
        self.language_menu = view_menu.addMenu("")
        self.language_menu.addActions([a["lang_ja"], a["lang_en"]])

        tools = QToolBar(self)
        tools.setObjectName("toolbar")
        tools.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
        tools.addActions(self.editor.file_actions())
        tools.addSeparator()
        tools.addActions([self.editor.action(k) for k in ("undo", "redo", "tsume", "clear", "flip")])
        tools.addAction(a["study"])
        tools.addSeparator()
        tools.addActions([a["solve"], a["stop"], a["mate"], a["helpmate"]])
        tools.addSeparator()
        tools.addActions([a["first"], a["back"], a["forward"], a["last"]])
        self.addToolBar(tools)
        self.toolbar = tools

    def _connect(self) -> None:
        self.editor.positionChanged.connect(self._on_position_changed)
        self.editor.problemsChanged.connect(self._on_problems_changed)
        self.editor.errorOccurred.connect(self.report_error)
        self.problem_bar.squareActivated.connect(lambda sq: self.board.set_highlights([sq]))
        self.result_panel.plyChanged.connect(self._on_ply_changed)
        for panel in (self.proof_panel, self.futile_panel, self.alternatives_panel, self.search_panel):
            panel.positionRequested.connect(self.show_position)
        self.board.moveRequested.connect(self.study.request)
        self.study.cursorChanged.connect(self._show_study)
        self.study.moveRefused.connect(lambda text: self.report_error(text, box=False))
        self.record_panel.moveActivated.connect(lambda: self.set_study_mode(True))
        # The editor sets an opened record just after announcing its position.
        self.editor.positionChanged.connect(lambda _p: QTimer.singleShot(0, self.study.reset))
        self.editor.recordReplaced.connect(self.study.reset)

    def _retranslate(self, _lang: str = "") -> None:
        a = self.actions_
        for key, text in (("solve", "Solve"), ("stop", "Stop"), ("limits", "Limits..."),
                          ("export_kif", "Export solution (KIF)..."),
                          ("export_image", "Export board image..."), ("copy_sfen", "Copy SFEN"),
                          ("quit", "Quit"), ("problem", "Back to the problem"),
                          ("mate", "Direct mate"), ("helpmate", "Helpmate"), ("study", "Study mode"),
                          ("variation_up", "Previous variation"), ("variation_down", "Next variation"),
                          ("promote_line", "Promote to main line"), ("delete_line", "Delete from here")):
            a[key].setText(tr(text))
        a["study"].setToolTip(tr("Play moves on the board to try lines; the record panel shows them"))
        for key, text in (("first", "First"), ("back", "Back"), ("forward", "Forward"), ("last", "Last")):
            a[key].setToolTip(tr(text))
        for key, text in (("file", "&File"), ("edit", "&Edit"), ("solve", "&Solve"), ("view", "&View")):
            self.menus[key].setTitle(tr(text))
        self.language_menu.setTitle(tr("Language"))
        for key, text in (("result", "Result"), ("proof", "Proof tree"), ("futile", "Futile interpositions"),
                          ("alternatives", "Alternative mates (余詰)"), ("search", "Search tree"),
                          ("record", "Record")):
            self.docks[key].setWindowTitle(tr(text))
        a["lang_ja"].setChecked(i18n.language() == "ja")
        a["lang_en"].setChecked(i18n.language() == "en")

    # ---- state -----------------------------------------------------------------

    def is_searching(self) -> bool:
        """True while a search runs."""
        return self._worker is not None

    def result(self) -> SolveResult | None:
        """The last search's result (None before one ends, or after the problem changed)."""
        return self._result

    def mode(self) -> str:
        """``"mate"`` or ``"helpmate"``."""
        return "helpmate" if self.actions_["helpmate"].isChecked() else "mate"

    def _update_actions(self) -> None:
        a = self.actions_
        searching = self.is_searching()
        valid = not self.editor.problems()
        a["solve"].setEnabled(not searching and valid)
        a["stop"].setEnabled(searching)
        a["mate"].setEnabled(not searching)
        a["helpmate"].setEnabled(not searching)
        a["limits"].setEnabled(not searching)
        has_line = bool(self.result_panel.line()) or self.is_studying()
        for key in ("first", "back", "forward", "last"):
            a[key].setEnabled(has_line)
        a["study"].setEnabled(not searching)
        for key in ("variation_up", "variation_down", "promote_line", "delete_line"):
            a[key].setEnabled(self.is_studying())
        a["export_kif"].setEnabled(self._result is not None and self._result.status is SolveStatus.MATE)
        # The problem cannot change while it is being searched: editing commands
        # wait (copying does not); undo/redo get their state back from the stack.
        editor = self.editor
        always = (editor.action("flip"), editor.action("copy_sfen"), editor.action("copy_bod"))
        for act in editor.edit_actions() + editor.file_actions():
            if act.isSeparator() or act in always:
                continue
            if act is editor.action("undo"):
                act.setEnabled(not searching and editor.undo_stack.canUndo())
            elif act is editor.action("redo"):
                act.setEnabled(not searching and editor.undo_stack.canRedo())
            else:
                act.setEnabled(not searching)

    # ---- solving -------------------------------------------------------------

    def set_mode(self, mode: str) -> None:
        """Solve direct mates (``"mate"``) or helpmates (``"helpmate"``)."""
        save_mode(mode)
        self.actions_[mode].setChecked(True)

    def solve(self) -> None:
        """Start a search of the problem on the board (does nothing while one runs)."""
        if self._worker is not None:
            return
        problems = self.editor.problems()
        if problems:
            self.report_error(tr("The position has problems; Solve is disabled.") + " "
                              + "; ".join(p.message for p in problems), box=False)
            return
        mode = self.mode()
        try:
            function = self._solver_for(mode)
        except LookupError:
            name = tr("helpmate" if mode == "helpmate" else "direct-mate")
            self.report_error(tr("The %1 solver is not available in this build.").replace("%1", name))
            return
        start = self.editor.position()
        self.show_problem()
        self._clear_result()
        self.result_panel.set_searching(start)
        self.search_panel.model.reset(start)   # type: ignore[union-attr]
        self._result_start = start
        self._search_mode = mode
        worker = SolverWorker(function, start, load_limits(), parent=None)
        worker.progress.connect(self._on_progress)
        worker.returned.connect(self._on_returned)
        worker.errored.connect(self._on_errored)
        worker.aborted.connect(self._on_aborted)
        worker.finished.connect(self._on_finished)
        self._worker = worker
        self._search_started = time.monotonic()
        self.board.set_editable(False)
        self.statusBar().clearMessage()
        self.docks["search"].raise_()
        self._update_actions()
        self.stats_label.setText(tr("Searching"))
        worker.start()
        self.searchStarted.emit()

    def stop(self) -> None:
        """Ask the running search to stop; ``searchFinished(None)`` follows."""
        if self._worker is not None:
            self._worker.quit()

    def edit_limits(self) -> None:
        """Open the limits dialog and save what the user accepts."""
        dialog = LimitsDialog(load_limits(), self)
        if dialog.exec():
            save_limits(dialog.limits())

    @Slot(object)
    def _on_progress(self, progress: Progress) -> None:
        self.search_panel.update_progress(progress)
        self.stats_label.setText(self.progress_text(progress))

    @staticmethod
    def progress_text(p: Progress) -> str:
        """The status line of a snapshot: nodes, nps, elapsed, root pn/dn, table fill."""
        return "   ".join((tr("Nodes %1").replace("%1", f"{p.nodes:,}"),
                           tr("%1 nodes/s").replace("%1", f"{p.nps:,.0f}"),
                           tr("%1 s").replace("%1", f"{p.elapsed:.1f}"),
                           f"pn/dn {number_text(p.root_pn)}/{number_text(p.root_dn)}",
                           tr("table %1%").replace("%1", f"{100 * p.table_fill:.0f}")))

    @Slot(object)
    def _on_returned(self, result: SolveResult) -> None:
        start = self._result_start or Position.from_sfen(result.sfen)
        self._result = result
        helpmate = self._search_mode == "helpmate"
        self.result_panel.set_result(start, result, helpmate)
        proof = result.proof if isinstance(result.proof, Proof) else None
        self.proof_panel.set_proof(proof)
        self.futile_panel.set_proof(proof)
        self.alternatives_panel.set_alternatives(start if proof else None, proof.alternatives if proof else (),
                                                 proof.alternatives_checked if proof else True)
        self.docks["result"].raise_()
        self._merge_answer(result)
        if self.result_panel.line():
            # Arrow keys step the answer from here (on the editable board they move its cursor).
            self.result_panel.moves.setFocus()
        if proof is not None:
            self.docks["proof"].raise_()
        summary = tr("%1, %2 nodes in %3 s").replace("%1", status_text(result, helpmate)) \
            .replace("%2", f"{result.nodes:,}").replace("%3", f"{result.seconds:.2f}")
        self.stats_label.setText(summary)

    @Slot(object)
    def _on_errored(self, error: BaseException) -> None:
        self.result_panel.set_result(self._result_start or Position.empty(), None)
        self.report_error(tr("Solve failed: %1").replace("%1", str(error)))

    @Slot()
    def _on_aborted(self) -> None:
        self.result_panel.set_result(self._result_start or Position.empty(), None)
        self.statusBar().showMessage(tr("Search stopped"), 5000)
        self.stats_label.setText(tr("Search stopped"))

    @Slot()
    def _on_finished(self) -> None:
        self._worker = None
        if not self._viewing:
            self.board.set_editable(True)
        self._update_actions()
        self.searchFinished.emit(self._result)

    def _clear_result(self) -> None:
        self._result = None
        self.result_panel.set_result(self.editor.position(), None)
        self.proof_panel.set_proof(None)
        self.futile_panel.set_proof(None)
        self.alternatives_panel.set_alternatives(None, ())

    # ---- what the board shows --------------------------------------------------

    @Slot(object, object)
    def show_position(self, position: Position, last_move: Move | None = None) -> None:
        """Show ``position`` for study (not editable) with ``last_move`` highlighted."""
        self._viewing = True
        self.board.set_editable(False)
        self.board.set_position(position)
        self.board.set_last_move(last_move)
        self.board.set_highlights([])

    def is_studying(self) -> bool:
        """True in study mode (moves played on the board go into the record)."""
        return self.actions_["study"].isChecked()

    def set_study_mode(self, on: bool) -> None:
        """Study mode (play moves from the record's cursor) or back to editing the problem."""
        if on and self._worker is not None:
            on = False
        self.actions_["study"].setChecked(on)
        self.board.set_playable(on)
        if on:
            self.docks["record"].raise_()
            self._show_study()
        else:
            self.show_problem()
        self._update_actions()

    @Slot()
    def _show_study(self) -> None:
        """Show the position at the study cursor (in study mode)."""
        if not self.is_studying():
            return
        tree = self.study.tree()
        self.show_position(tree.position(), tree.last_move())

    def _step(self, delta: int) -> None:
        """Home/Left/Right/End: along the study line in study mode, else along the answer."""
        if not self.is_studying():
            self.result_panel.step(delta)
        elif abs(delta) > 1:
            if delta < 0:
                self.study.first()
            else:
                self.study.last()
        else:
            self.study.step(delta)

    def _merge_answer(self, result: SolveResult) -> None:
        """Put the solver's answer (main line and every defence) into the record's tree."""
        if result.status is not SolveStatus.MATE:
            return
        try:
            added = self.study.merge(solution_record(result))
        except ValueError as e:
            self.report_error(str(e), box=False)
            return
        if added:
            self.statusBar().showMessage(tr("Answer added to the record"), 5000)

    def show_problem(self) -> None:
        """Show the problem being edited again (editable unless a search runs)."""
        if self.is_studying():
            self.actions_["study"].setChecked(False)
            self.board.set_playable(False)
            self._update_actions()
        self._viewing = False
        self.board.set_position(self.editor.position())
        self.board.set_last_move(None)
        self.board.set_highlights([])
        self.board.set_editable(self._worker is None)
        if self.result_panel.ply() != 0:
            self.result_panel.set_ply(0)   # the move list shows the start again

    @Slot(int)
    def _on_ply_changed(self, ply: int) -> None:
        if ply == 0:
            self.show_problem()
            return
        try:
            position, last = self.result_panel.position_at(ply)
        except ValueError as e:
            self.report_error(str(e), box=False)
            return
        self.show_position(position, last)

    @Slot(object)
    def _on_position_changed(self, position: Position) -> None:
        # The editor keeps an opened record only after announcing its position.
        QTimer.singleShot(0, self._update_title)
        self._viewing = False
        self.board.set_editable(self._worker is None)
        if self._result_start is not None and position != self._result_start and self._worker is None:
            self._result_start = None
            self._clear_result()
        self._update_actions()

    @Slot()
    def _update_title(self) -> None:
        """The window title names the problem (作品名) when it came from a record."""
        record = self.editor.record()
        name = record.header.get("作品名", "") if record is not None else ""
        self.setWindowTitle(f"Tsume Studio — {name}" if name else "Tsume Studio")

    @Slot(list)
    def _on_problems_changed(self, problems: list[Problem]) -> None:
        self.problem_bar.set_problems(problems)
        self._update_actions()

    # ---- export ------------------------------------------------------------------

    def export_kif(self, path: str) -> None:
        """Write the solution (main line, variations, futile interpositions as comments).

        Raises:
            ValueError: nothing to export, or an unknown extension.
            OSError: the file cannot be written.
        """
        if self._result is None:
            raise ValueError("no solution to export: solve the problem first")
        export_solution(path, self._result)

    def export_image(self, path: str) -> None:
        """Write the board as shown to a ``.png`` or ``.svg`` diagram."""
        self.board.render_image(path)

    def copy_sfen(self) -> str:
        """Put the problem's SFEN on the clipboard and return it."""
        text = self.editor.copy_sfen()
        self.statusBar().showMessage(tr("Copied SFEN to the clipboard"), 5000)
        return text

    def _export_kif_dialog(self) -> None:
        path, _selected = QFileDialog.getSaveFileName(self, tr("Export solution (KIF)..."), "", SOLUTION_FILE_FILTER)
        if not path:
            return
        if not os.path.splitext(path)[1]:
            path += ".kif"
        try:
            self.export_kif(path)
        except (ValueError, OSError) as e:
            self.report_error(tr("Cannot export: %1").replace("%1", str(e)))
        else:
            self.statusBar().showMessage(tr("Exported %1").replace("%1", path), 5000)

    def _export_image_dialog(self) -> None:
        path, _ = QFileDialog.getSaveFileName(self, tr("Export board image..."), "", IMAGE_FILE_FILTER)
        if not path:
            return
        if not os.path.splitext(path)[1]:
            path += ".png"
        try:
            self.export_image(path)
        except (ValueError, OSError) as e:
            self.report_error(tr("Cannot export: %1").replace("%1", str(e)))
        else:
            self.statusBar().showMessage(tr("Exported %1").replace("%1", path), 5000)

    # ---- files, language, errors ---------------------------------------------------

    def open_file(self, path: str) -> bool:
        """Open a position or record file; errors are reported, not raised. True on success."""
        try:
            self.editor.open_file(path)
        except (ValueError, OSError) as e:
            self.report_error(tr("Cannot open: %1").replace("%1", str(e)))
            return False
        return True

    def set_language(self, lang: str) -> None:
        """Switch the interface language and remember it."""
        i18n.set_language(lang)
        save_language(lang)
        self._retranslate()

    def report_error(self, message: str, box: bool = True) -> None:
        """Show an error on the status line and, with ``box``, in a (non-blocking) message box."""
        self.last_error = message
        self.statusBar().showMessage(message, 10000)
        if box:
            dialog = QMessageBox(QMessageBox.Icon.Warning, "Tsume Studio", message,
                                 QMessageBox.StandardButton.Ok, self)
            dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
            dialog.open()

    # ---- window life ------------------------------------------------------------------

    def _restore_geometry(self) -> None:
        s = settings()
        geometry = s.value("ui/geometry")
        state = s.value("ui/state")
        if isinstance(geometry, QByteArray):
            self.restoreGeometry(geometry)
        else:
            self.resize(1280, 820)
        if isinstance(state, QByteArray):
            self.restoreState(state)

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802 - Qt API
        """Stop a running search (waiting for its thread) and save the layout."""
        worker = self._worker
        if worker is not None:
            worker.quit()
            worker.wait(5000)
        s = settings()
        s.setValue("ui/geometry", self.saveGeometry())
        s.setValue("ui/state", self.saveState())
        s.sync()
        event.accept()


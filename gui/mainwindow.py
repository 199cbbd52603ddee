"""The main window: the board editor in the centre, Solve on a worker thread, panels around.

The window owns the solver thread (through :class:`~.worker.SolverWorker`)
and connects signals to widgets; it holds no solver logic.  The board shows
either the problem being edited (editable) or a position being looked at
(a ply of the main line, a node of a tree, a futile interposition); Ctrl+Home or
the start row of the move list goes back to the problem.
"""

from __future__ import annotations

import functools
import inspect
import os
import time
from collections.abc import Callable
from typing import Any, cast

from PySide6.QtCore import QByteArray, QMimeData, Qt, QTimer, Signal, Slot
from PySide6.QtGui import QAction, QActionGroup, QCloseEvent, QDragEnterEvent, QDropEvent, QGuiApplication, QKeySequence
from PySide6.QtWidgets import (
    QDockWidget, QFileDialog, QLabel, QMainWindow, QMenu, QMessageBox, QTabBar, QToolBar, QVBoxLayout, QWidget,
)

from ..core.editing import suggested_file_name, with_filter_extension
from ..core.records.formats import FORMATS
from ..core.answer import Finding, classify_alternatives, classify_variations, proved_length, solution_record
from ..core.check import CheckResult, discrepancy_comment, verdict_comment
from ..core.records.kif import to_kif
from ..core.records.model import Record
from ..core.shogi.moves import Move
from ..core.study import StudyTree
from ..core.shogi.position import Position, Problem
from ..core.search.proof import HelpmateAnswer, Proof, helpmate_proof
from ..core.search.contract import Progress, SolveResult, SolveStatus
from ..core.search.helpmate import solve_iter as helpmate_solve_iter
from ..core.search.length_rule import AnswerSession
from ..core.search.solver import SearchSession, can_continue_alternatives, continue_alternatives, solve_iter
from ..core.usi_client import EngineSpec, engine_solver
from . import i18n
from .about import AboutDialog
from .board import BoardView
from .editor import EditorController, ProblemBar
from .checkworker import check_worker
from .engines import EngineChoice
from .errors import error_text
from .export import SOLUTION_FILE_FILTER, export_solution
from .shortcuts import ShortcutsDialog
from .header import HeaderDialog
from .i18n import add_translations, tr
from .models import number_text
from .panels import (
    NO_MATE_NOTE, NO_PROOF_NOTE, UNDECIDED_NOTE, AlternativesPanel, CheckPanel, FutilePanel, ProofTreePanel,
    ResultPanel, SearchTreePanel, bounds_text, phase_text, progress_bounds, status_text, time_text,
)
from .study import RecordPanel, StudyController
from .settings import (
    LimitsDialog, add_recent, load_last_folder, load_limits, load_mode, load_recent, remove_recent,
    save_language, save_last_folder, save_limits, save_mode, settings,
)
from .worker import SolveFunction, SolverWorker

add_translations("ja", {
    "&File": "ファイル(&F)",
    "&Edit": "編集(&E)",
    "&Solve": "解図(&S)",
    "&View": "表示(&V)",
    "Solve": "解く",
    "Stop": "中止",
    "Continue": "続けて探す",
    "Search stopped: Continue (Shift+F5) searches on from where it stopped":
        "探索を中止しました。「続けて探す」(Shift+F5) で止まったところから探索を続けます",
    "The 余詰 search stopped before it was done: Continue (Shift+F5) checks on from where it stopped":
        "余詰の検討は途中で止まりました。「続けて探す」(Shift+F5) で止まったところから検討を続けます",
    "The variations' lengths were not all measured in time: Continue (Shift+F5) measures on from where it stopped":
        "変化の手数は時間内に一部しか計測できませんでした。「続けて探す」(Shift+F5) で止まったところから続けます",
    "The exact length is %1 plies; nothing was found against the main line by then.":
        "正解の手数は%1手です。それまでに本譜との相違は見つかっていません。",
    "The check stopped at its limits: Check the main line (Ctrl+F5) again goes on from where it stopped":
        "作意の検討は制限で止まりました。もう一度「本譜を検討」(Ctrl+F5) で止まったところから続けます",
    "Give the stopped search more time, from where it stopped (its table kept)":
        "中止・時間切れの探索を、止まったところから続けます（置換表はそのまま）",
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
    "%1, %2 node in %3 s": "%1、%2 局面、%3 秒",
    "The position has problems; Solve is disabled.": "局面に問題があるため解けません。",
    "Solve failed: %1": "解図に失敗しました: %1",
    "Cannot export: %1": "書き出せません: %1",
    "Exported %1": "%1 に書き出しました",
    "Copied SFEN to the clipboard": "SFEN をクリップボードにコピーしました",
    "The %1 solver is not available in this build.": "この版では%1ソルバーを使えません。",
    "direct-mate": "詰将棋",
    "helpmate": "協力詰",
    "Search stopped": "探索を中止しました",
    "Untitled": "無題",
    "Open recent": "最近使ったファイル",
    "Clear the list": "一覧を消去",
    "%1 is no longer there; it was taken off the recent files.":
        "%1 が見つからないため、最近使ったファイルから外しました。",
    "The problem has unsaved changes.": "問題に保存していない変更があります。",
    "Save them before going on?": "続ける前に保存しますか?",
    "Discard": "破棄",
    "Cancel": "キャンセル",
    "Reset layout": "レイアウトを元に戻す",
    "Helpmates have no futile-interposition rule: nothing to list.":
        "協力詰には無駄合の規則がないため、一覧はありません。",
    "The search ended before its first snapshot.": "最初の途中経過の前に探索が終わりました。",
    "Answer added to the record": "解答を棋譜に加えました",
    "Keep answer in record": "解答を棋譜に残す",
    "The record has no main line to check: play or open one first.":
        "検討する本譜がありません。棋譜を開くか、指し手を入力してください。",
    "Cannot check: %1": "検討できません: %1",
    "The check was written into the record": "検討結果を棋譜に記入しました",
    "Solve from here needs a position with the attacker to move: step to a move of the defender.":
        "この局面からは解けません（攻め方の手番の局面で解いてください。玉方の指し手に移動してください）。",
    "Answer ready: Keep answer in record (Ctrl+K) adds it":
        "解答が出ました。「解答を棋譜に残す」(Ctrl+K) で棋譜に加えます",
    "&Settings": "設定(&T)",
    "Copy as KIF": "KIF 形式でコピー",
    "Copied the record as KIF to the clipboard": "棋譜を KIF 形式でクリップボードにコピーしました",
    "Keyboard shortcuts...": "キーボードショートカット...",
    "Futile (無駄合)": "無駄合",
    "Alternatives (余詰)": "余詰",
    "Built-in solver": "内蔵ソルバー",
    "Solve with %1": "%1 で解く",
    "%1: searching": "%1: 探索中",
    "%1: %2 in %3 s": "%1: %2 (%3 秒)",
    "USI engines search direct mates only: the built-in solver solves this helpmate.":
        "USI エンジンは詰将棋 (王手で詰める問題) だけを探索します。この協力詰は内蔵ソルバーで解きます。",
    "An external USI engine gives only its main line: no proof tree.":
        "外部 USI エンジンは本手順しか返さないため、証明木はありません。",
    "An external USI engine gives no 無駄合 (futile interposition) reasons.":
        "外部 USI エンジンは無駄合の理由を返しません。",
    "An external USI engine's answer is not checked for 余詰 (alternative mates).":
        "外部 USI エンジンの解答は余詰を調べていません。",
    "An external USI engine does not show its search tree: the status line shows what it reports.":
        "外部 USI エンジンの探索木は表示できません。エンジンの報告はステータス行に表示します。",
    "Answer of the USI engine %1: its main line only, replayed and checked (every move legal, "
    "every attacker's move a check, mate at the end). No proof tree, no 無駄合 reasons, no 余詰 "
    "check, and the length is not proved shortest: solve with the built-in solver for those.":
        "USI エンジン %1 の解答: 本手順のみです (すべての手が合法で、攻方の手はすべて王手、最後は詰みであることを"
        "再生して確かめました)。証明木、無駄合の理由、余詰の検討はなく、手数が最短であることも証明されていません。"
        "それらは内蔵ソルバーで解くと得られます。",
    "The USI engine %1 says there is no mate. That is the engine's claim; the built-in solver "
    "did not check it.":
        "USI エンジン %1 は不詰と答えました。これはエンジンの主張で、内蔵ソルバーでは確かめていません。",
    "The USI engine %1 found no answer in the time it had (checkmate timeout): neither a mate "
    "nor a proof that there is none.":
        "USI エンジン %1 は制限時間内に答えを出せませんでした (checkmate timeout)。詰みも不詰も示されていません。",
})

#: What the panels say after an external engine's answer (untranslated).
ENGINE_NO_PROOF = "An external USI engine gives only its main line: no proof tree."
ENGINE_NO_FUTILE = "An external USI engine gives no 無駄合 (futile interposition) reasons."
ENGINE_NO_ALTERNATIVES = "An external USI engine's answer is not checked for 余詰 (alternative mates)."
ENGINE_NO_TREE = "An external USI engine does not show its search tree: the status line shows what it reports."
ENGINE_MATE_NOTE = ("Answer of the USI engine %1: its main line only, replayed and checked (every move legal, "
                    "every attacker's move a check, mate at the end). No proof tree, no 無駄合 reasons, no 余詰 "
                    "check, and the length is not proved shortest: solve with the built-in solver for those.")
ENGINE_NO_MATE_NOTE = ("The USI engine %1 says there is no mate. That is the engine's claim; the built-in solver "
                       "did not check it.")
ENGINE_UNKNOWN_NOTE = ("The USI engine %1 found no answer in the time it had (checkmate timeout): neither a mate "
                       "nor a proof that there is none.")

#: What the 無駄合 panel says after a helpmate search (untranslated).
HELPMATE_NO_FUTILE = "Helpmates have no futile-interposition rule: nothing to list."
#: What the search-tree panel says when a search ended before it reported a node.
SEARCH_TOO_QUICK = "The search ended before its first snapshot."

IMAGE_FILE_FILTER = "PNG (*.png);;SVG (*.svg)"

MIN_SQUARE = 26   # px: the smallest square the board gives way to (800×600 fits); the docks shrink first
# Dock widths: (share of the window's width by default, minimum, maximum) in px.
DOCK_WIDTHS = {"search": (0.24, 130, 560), "right": (0.30, 210, 640)}
_RIGHT_DOCKS = ("result", "proof", "futile", "alternatives")


def default_dock_widths(window_width: int) -> tuple[int, int]:
    """The default widths of the left (search tree) and right docks in a window this wide."""
    out = []
    for key in ("search", "right"):
        share, low, high = DOCK_WIDTHS[key]
        out.append(max(low, min(high, round(share * window_width))))
    return out[0], out[1]


def _takes_resume(function: Callable[..., object]) -> bool:
    """True when a solver function takes ``resume`` (core.search.solver.solve_iter does; stand-ins may not)."""
    try:
        return "resume" in inspect.signature(function).parameters
    except (TypeError, ValueError):
        return False


def default_solver(mode: str) -> SolveFunction:
    """The core's solver generator for ``mode`` (``"mate"`` or ``"helpmate"``)."""
    if mode == "helpmate":
        # Every shortest helpmate, so that the 余詰 panel can list the others.
        return functools.partial(helpmate_solve_iter, all_solutions=True)
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
        checkFinished(object): a check of the main line ended; its CheckResult,
            or None if it was stopped or failed.
    """

    _engine: EngineSpec | None   # the USI engine of the running search (None: the built-in solver)

    searchStarted = Signal()
    searchFinished = Signal(object)
    checkFinished = Signal(object)

    def __init__(self, solver_for: Callable[[str], SolveFunction] = default_solver,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._solver_for = solver_for
        self._worker: SolverWorker | None = None
        self._result: SolveResult | None = None
        self._result_start: Position | None = None
        self._session: AnswerSession | None = None   # the last solve's answer, for a check to reuse
        self._stopped_answer: SolveResult | None = None   # the answer a stopped 余詰 search still gives
        # A check waiting for the solve of its start (the start and the main line to check).
        self._check_next: tuple[Position, tuple[str, ...]] | None = None
        self._check_next_stopped = False   # Stop came while it waited (the solve may have ended already)
        self._check_progress: Progress | None = None   # the running check's latest snapshot
        self._check_partial: tuple[Position, CheckResult] | None = None   # what a stopped check had proved
        self._last_progress: Progress | None = None   # the running search's latest snapshot
        self._limits = load_limits()   # the running search's, for its time against the limit
        self._shown_limit: float | None = self._limits.seconds   # the limit shown against the elapsed time
        # df-pn's search kept after a stop or a limit, for Continue; with where it was searched
        # from (the start position and its path in the record's tree).
        self._resume = SearchSession()
        self._continue_from: tuple[Position, tuple[int, ...]] | None = None
        # Where the last answer was searched from in the record's tree (() is the start),
        # and the answer waiting for "Keep answer in record".
        self._answer_path: tuple[int, ...] = ()
        self._pending: tuple[Record, int | None, tuple[int, ...]] | None = None
        self._viewing = False
        self._search_mode = "mate"
        self.last_error = ""
        self.error_box: QMessageBox | None = None   # the error message box while it is open
        self.setObjectName("MainWindow")
        self.setWindowTitle("Tsume Studio")

        # ---- centre: problem bar over the board
        self.board = BoardView(self)
        self.board.setObjectName("board")
        self.board.set_box_kept(True)   # the board stays put while solving and stepping
        self.board.setMinimumSize(self.board.size_for_unit(MIN_SQUARE))
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
        self.study = StudyController(self.editor.ensure_record, self, self.editor.undo_stack,
                                     self.editor.adopt_record)
        self.record_panel = RecordPanel(self.study, self)
        self.docks: dict[str, QDockWidget] = {}
        for key, widget in (("result", self.result_panel), ("proof", self.proof_panel),
                            ("futile", self.futile_panel), ("alternatives", self.alternatives_panel),
                            ("search", self.search_panel)):
            dock = QDockWidget(self)
            dock.setObjectName(f"dock_{key}")
            dock.setWidget(widget)
            _share, low, high = DOCK_WIDTHS["search" if key == "search" else "right"]
            dock.setMinimumWidth(low)
            dock.setMaximumWidth(high)
            self.docks[key] = dock
        record_dock = self.docks["record"] = QDockWidget(self)
        record_dock.setObjectName("dock_record")
        record_dock.setWidget(self.record_panel)
        _share, low, high = DOCK_WIDTHS["right"]
        record_dock.setMinimumWidth(low)
        record_dock.setMaximumWidth(high)
        self._add_check_dock()
        self._arrange_docks()

        # ---- status line
        self.stats_label = QLabel(self)
        self.stats_label.setObjectName("stats")
        # As tall empty as with text: the status line must not grow when a search starts.
        self.stats_label.setText("0")
        self.stats_label.setMinimumHeight(self.stats_label.sizeHint().height())
        self.stats_label.setText("")
        self._stats_text: Callable[[], str] = str
        self.statusBar().addPermanentWidget(self.stats_label)

        self._build_actions()
        self._build_menus()
        self._build_engine_menus()
        self._build_help_and_copy_menus()
        self._connect()
        self.setAcceptDrops(True)
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
        make("keep_answer", self.keep_answer, "Ctrl+K")
        make("check", self.check_main_line, "Ctrl+F5")
        make("stop", self.stop, "Esc")
        make("continue", self.continue_search, "Shift+F5")
        make("limits", self.edit_limits)
        make("export_kif", self._export_kif_dialog, "Ctrl+E")
        make("header", self.edit_header, "Ctrl+I")
        make("export_image", self._export_image_dialog)
        make("copy_sfen", self.copy_sfen)
        make("reset_layout", self.reset_layout)
        make("about", self.show_about)
        make("quit", self.close, QKeySequence.StandardKey.Quit)
        make("problem", self.show_problem, "Ctrl+Home")
        make("first", lambda: self._step(-10**6), "Home")
        make("back", lambda: self._step(-1), "Left")
        make("forward", lambda: self._step(1), "Right")
        make("last", lambda: self._step(10**6), "End")
        # The toolbar shows the glyphs; menus show the names (set in _retranslate).
        for key, glyph in (("first", "|◀"), ("back", "◀"), ("forward", "▶"), ("last", "▶|")):
            a[key].setIconText(glyph)
        make("variation_up", lambda: self.study.switch(-1), "Up")
        make("variation_down", lambda: self.study.switch(1), "Down")
        make("study", lambda: self.set_study_mode(a["study"].isChecked()), "Ctrl+M").setCheckable(True)
        make("promote_line", self.study.promote)
        make("delete_line", self.study.delete)
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
        self.menus = {key: bar.addMenu("") for key in ("file", "edit", "solve", "view", "help")}
        self.menus["help"].addAction(a["about"])
        file_menu = self.menus["file"]
        file_menu.addActions(self.editor.file_actions()[:2])
        self.recent_menu = file_menu.addMenu("")
        self.recent_menu.setObjectName("recent_menu")
        self.recent_menu.aboutToShow.connect(self._fill_recent_menu)
        self._fill_recent_menu()
        file_menu.addActions(self.editor.file_actions()[2:])
        file_menu.addSeparator()
        file_menu.addActions([a["export_kif"], a["export_image"], a["copy_sfen"]])
        file_menu.addSeparator()
        file_menu.addAction(a["quit"])
        self.menus["edit"].addActions(self.editor.edit_actions())
        self.menus["edit"].addSeparator()
        self.menus["edit"].addAction(a["header"])
        self.menus["edit"].addAction(a["study"])
        solve_menu = self.menus["solve"]
        solve_menu.addActions([a["solve"], a["stop"], a["continue"], a["keep_answer"], a["check"]])
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
        view_menu.addAction(a["reset_layout"])
        view_menu.addSeparator()
        self.language_menu = view_menu.addMenu("")
        self.language_menu.addActions([a["lang_ja"], a["lang_en"]])

        tools = QToolBar(self)
        tools.setObjectName("toolbar")
        tools.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
        tools.addActions(self.editor.file_actions()[:3])   # New, Open, Save: Save as is in the menu
        tools.addSeparator()
        tools.addActions([self.editor.action(k) for k in ("undo", "redo", "tsume", "clear", "flip")])
        tools.addAction(a["study"])
        tools.addSeparator()
        tools.addActions([a["solve"], a["stop"], a["continue"], a["mate"], a["helpmate"]])
        tools.addSeparator()
        tools.addActions([a["first"], a["back"], a["forward"], a["last"]])
        self.addToolBar(tools)
        self.toolbar = tools

    def _connect(self) -> None:
        self.editor.positionChanged.connect(self._on_position_changed)
        self.editor.problemsChanged.connect(self._on_problems_changed)
        self.editor.errorOccurred.connect(self.report_error)
        self.editor.confirm_discard = self.maybe_keep_edits
        self.editor.modifiedChanged.connect(self.setWindowModified)
        self.editor.recordChanged.connect(self._update_title)
        self.editor.fileChanged.connect(self._on_file_changed)
        self.problem_bar.squareActivated.connect(lambda sq: self.board.set_highlights([sq]))
        self.result_panel.plyChanged.connect(self._on_ply_changed)
        for panel in (self.proof_panel, self.futile_panel, self.alternatives_panel, self.search_panel):
            panel.positionRequested.connect(self.show_position)
        self.board.moveRequested.connect(self.study.request)
        self.study.cursorChanged.connect(self._show_study)
        self.study.moveRefused.connect(lambda text: self.report_error(text, box=False))
        # Moves, comments and a merged answer are part of what Save writes.
        self.record_panel.moveActivated.connect(lambda: self.set_study_mode(True))
        self.record_panel.keepRequested.connect(self.keep_answer)
        # The editor sets an opened record just after announcing its position.
        self.editor.positionChanged.connect(lambda _p: QTimer.singleShot(0, self.study.reset))
        self.editor.recordReplaced.connect(self.study.reset)

    def _set_stats(self, text: Callable[[], str]) -> None:
        """Show ``text()`` in the status line, again in the new language after a switch."""
        self._stats_text = text
        self.stats_label.setText(text())

    def _retranslate(self, _lang: str = "") -> None:
        a = self.actions_
        for key, text in (("solve", "Solve"), ("stop", "Stop"), ("continue", "Continue"), ("limits", "Limits..."),
                          ("keep_answer", "Keep answer in record"), ("check", "Check the main line"),
                          ("export_kif", "Export solution (KIF)..."),
                          ("export_image", "Export board image..."), ("copy_sfen", "Copy SFEN"),
                          ("quit", "Quit"), ("problem", "Back to the problem"), ("header", "Record header..."),
                          ("reset_layout", "Reset layout"), ("about", "About Tsume Studio"),
                          ("mate", "Direct mate"), ("helpmate", "Helpmate"), ("study", "Study mode"),
                          ("variation_up", "Previous variation"), ("variation_down", "Next variation"),
                          ("promote_line", "Promote to main line"), ("delete_line", "Delete from here")):
            a[key].setText(tr(text))
        a["study"].setToolTip(tr("Play moves on the board to try lines; the record panel shows them"))
        a["continue"].setToolTip(tr("Give the stopped search more time, from where it stopped (its table kept)"))
        for key, text in (("first", "First"), ("back", "Back"), ("forward", "Forward"), ("last", "Last")):
            a[key].setText(tr(text))
            a[key].setToolTip(tr(text))
        for key, text in (("file", "&File"), ("edit", "&Edit"), ("solve", "&Solve"), ("view", "&View"),
                          ("help", "&Help")):
            self.menus[key].setTitle(tr(text))
        self.language_menu.setTitle(tr("Language"))
        self.recent_menu.setTitle(tr("Open recent"))
        self._update_title()
        for key, text in (("result", "Result"), ("proof", "Proof tree"), ("futile", "Futile (無駄合)"),
                          ("alternatives", "Alternatives (余詰)"), ("search", "Search tree"),
                          ("record", "Record"), ("check", "Check (作意)")):
            self.docks[key].setWindowTitle(tr(text))
        self._retranslate_error()
        self.stats_label.setText(self._stats_text())
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
        a["continue"].setEnabled(not searching and self.can_continue())
        a["mate"].setEnabled(not searching)
        a["helpmate"].setEnabled(not searching)
        a["limits"].setEnabled(not searching)
        has_line = bool(self.result_panel.line()) or self.is_studying()
        for key in ("first", "back", "forward", "last"):
            a[key].setEnabled(has_line)
        a["study"].setEnabled(not searching)
        for key in ("variation_up", "variation_down", "promote_line", "delete_line"):
            a[key].setEnabled(self.is_studying())
        a["keep_answer"].setEnabled(self._pending is not None and not searching)
        a["check"].setEnabled(not searching and valid)
        self.check_panel.check_button.setEnabled(not searching and valid)
        self.check_panel.write_button.setEnabled(not searching and self._check is not None
                                                 and self.check_panel.writable(self._check[1]))
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
        if mode != "mate":
            self._forget_continue()

    def solve(self) -> None:
        """Start a search of the problem on the board (does nothing while one runs).

        In study mode the search starts from the position at the record's cursor
        ("solve from here"); its answer is offered for the tree at that move.
        """
        if self._worker is not None:
            return
        problems = self.editor.problems()
        if problems:
            self.report_error(tr("The position has problems; Solve is disabled.") + " "
                              + "; ".join(p.message for p in problems), box=False)
            return
        mode = self.mode()
        try:
            function = self._solve_function(mode)
        except LookupError:
            name = tr("helpmate" if mode == "helpmate" else "direct-mate")
            self.report_error(tr("The %1 solver is not available in this build.").replace("%1", name))
            return
        start = self._solve_start()
        if start is None:
            return
        # A new search: a search kept for Continue goes (its table may be large).
        self._forget_continue()
        self._run_search(mode, function, start)

    def can_continue(self) -> bool:
        """True when a stopped or timed-out search of the direct-mate solver is kept to continue:
        df-pn's before its answer, or the official answer's whose 余詰 search ran out."""
        return self._can_continue_dfpn() or self._can_continue_alternatives()

    def _can_continue_dfpn(self) -> bool:
        return self._continue_from is not None and self._resume.holds(self._continue_from[0].sfen())

    def _can_continue_alternatives(self) -> bool:
        return (self._result is not None and self._result_start is not None and self._search_mode == "mate"
                and can_continue_alternatives(self._result, self._session))

    def continue_search(self) -> None:
        """Give the stopped or timed-out search more time, from where it stopped.

        df-pn before its answer goes on with its table and node count; an
        answer whose 余詰 search ran out asks its kept search again, which
        answers what it proved from its table and searches on.  The time limit
        (Limits...) applies to this run afresh.  Does nothing when no such
        search is kept.
        """
        if self._worker is not None or not self.can_continue():
            return
        if not self._can_continue_dfpn():
            start, session, answer = self._result_start, self._session, self._result
            assert start is not None and session is not None   # _can_continue_alternatives
            self._engine = None
            self._show_engine_note(None)
            function = cast(SolveFunction, functools.partial(continue_alternatives, session=session))
            self._run_search("mate", function, start, session=session)
            self._stopped_answer = answer   # what Stop leaves in view unless the run gives more
            return
        assert self._continue_from is not None   # _can_continue_dfpn
        start, path = self._continue_from
        self._answer_path = path
        self._engine = None   # the kept search is the built-in solver's
        self._show_engine_note(None)
        self._run_search("mate", self._solver_for("mate"), start, continuing=True)

    def _forget_continue(self) -> None:
        """Let the search kept for Continue go."""
        self._resume.release()
        self._continue_from = None
        act = getattr(self, "actions_", {}).get("continue")
        if act is not None:
            act.setEnabled(False)

    def _run_search(self, mode: str, function: SolveFunction, start: Position, continuing: bool = False,
                    session: AnswerSession | None = None) -> None:
        """Start ``function`` on ``start`` on a worker thread (``continuing``: resume the kept search;
        ``session``: the answer's search ``function`` goes on with, kept through the new run)."""
        builtin = function is solve_iter
        if mode == "mate" and self._engine is None and _takes_resume(function):
            # The built-in solver keeps its df-pn search here when it stops before its answer.
            function = cast(SolveFunction, functools.partial(cast(Any, function), resume=self._resume))
            self._continue_from = (start, self._answer_path)
        if session is not None:
            self._session = None   # not released with the last result: the new run goes on with it
        # Going on with an answer's search: df-pn's tree stays in view (the run adds none).
        self._clear_result(keep_search_tree=session is not None)
        if session is not None:
            self._session = session
        if builtin:
            # The built-in solver keeps its official answer's search for a check of this position.
            self._session = AnswerSession()
            function = cast(SolveFunction, functools.partial(cast(Any, function), session=self._session))
        self.result_panel.set_searching(start)
        if session is None:
            self.search_panel.reset(start, "Searching…")
        self._result_start = start
        self._search_mode = mode
        self._last_progress = None
        self._limits = load_limits()
        self._shown_limit = self._limits.seconds
        if continuing and self._shown_limit is not None:
            # Elapsed time counts on from the stopped run's; the limit is this run's more.
            self._shown_limit = round(self._shown_limit + self._resume.elapsed, 1)
        worker = SolverWorker(function, start, self._limits, parent=None)
        worker.progress.connect(self._on_progress)
        worker.returned.connect(self._on_returned)
        worker.errored.connect(self._on_errored)
        worker.aborted.connect(self._on_aborted)
        worker.finished.connect(self._on_finished)
        self._stopped_answer = None
        if session is not None:
            # Stopped while it checks on, the answer still stands, checked as far as it got.
            worker.stopped.connect(self._keep_stopped_answer)
        self._worker = worker
        self._search_started = time.monotonic()
        self.board.set_editable(False)
        self.statusBar().clearMessage()
        self.docks["search"].raise_()
        self._update_actions()
        self._set_stats(lambda: tr("Searching"))
        self._watch_engine(worker)
        worker.start()
        self.searchStarted.emit()

    def stop(self) -> None:
        """Ask the running search to stop; ``searchFinished(None)`` follows."""
        if self._worker is not None:
            self._worker.quit()
            # A check waiting for this solve is stopped too: the solve may have ended on its thread
            # before the quit, and its answer must not start the check the user stopped.
            self._check_next_stopped = self._check_next is not None

    def edit_limits(self) -> None:
        """Open the limits dialog and save what the user accepts."""
        dialog = LimitsDialog(load_limits(), self)
        if dialog.exec():
            save_limits(dialog.limits())

    @Slot(object)
    def _on_progress(self, progress: Progress) -> None:
        self._last_progress = progress
        self.search_panel.update_progress(progress)
        limit = self._shown_limit
        self.result_panel.set_progress(progress, limit)
        self._set_stats(lambda: self.progress_text(progress, limit))

    @staticmethod
    def progress_text(p: Progress, limit: float | None = None) -> str:
        """The status line of a snapshot: phase, nodes, nps, elapsed against ``limit``, root pn/dn, table fill."""
        parts = (phase_text(p),
                 tr("Nodes %1").replace("%1", f"{p.nodes:,}"),
                 tr("%1 nodes/s").replace("%1", f"{p.nps:,.0f}"),
                 time_text(p.elapsed, limit),
                 f"pn/dn {number_text(p.root_pn)}/{number_text(p.root_dn)}",
                 tr("table %1%").replace("%1", f"{100 * p.table_fill:.0f}"))
        return "   ".join(part for part in parts if part)

    @Slot(object)
    def _on_returned(self, result: SolveResult) -> None:
        start = self._result_start or Position.from_sfen(result.sfen)
        self._result = result
        helpmate = self._search_mode == "helpmate"
        self.result_panel.set_result(start, result, helpmate)
        self._show_answer(start, result, helpmate)
        proof = self.proof_panel.model.proof()   # type: ignore[union-attr]
        self.docks["result"].raise_()
        self._merge_answer(result)
        if self.result_panel.line():
            # Arrow keys step the answer from here (on the editable board they move its cursor).
            self.result_panel.moves.setFocus()
        if proof is not None:
            self.docks["proof"].raise_()
        # One node: the root decided at once (a 1- or 3-ply mate test).
        nodes_text = "%1, %2 node in %3 s" if result.nodes == 1 else "%1, %2 nodes in %3 s"
        self._set_stats(lambda: tr(nodes_text).replace("%1", status_text(result, helpmate))
                        .replace("%2", f"{result.nodes:,}").replace("%3", f"{result.seconds:.2f}"))
        if self._can_continue_alternatives():
            cut = isinstance(result.proof, Proof) and not result.proof.tree_complete
            self.statusBar().showMessage(
                tr("The variations' lengths were not all measured in time: Continue (Shift+F5) measures on from "
                   "where it stopped") if cut else
                tr("The 余詰 search stopped before it was done: Continue (Shift+F5) checks on from where it stopped"),
                10000)

    def _show_answer(self, start: Position, result: SolveResult, helpmate: bool) -> None:
        """Fill the proof, 無駄合 and 余詰 panels from ``result``, each saying what it did not check."""
        answer = result.proof
        why = {SolveStatus.MATE: NO_PROOF_NOTE, SolveStatus.NO_MATE: NO_MATE_NOTE}.get(result.status, UNDECIDED_NOTE)
        if isinstance(answer, HelpmateAnswer):
            proof: Proof | None = helpmate_proof(answer)
            self.alternatives_panel.set_helpmates(start, answer)
        else:
            proof = answer if isinstance(answer, Proof) else None
            if proof is not None:
                self.alternatives_panel.set_alternatives(start, self._findings(proof), proof.alternatives_checked,
                                                         checked_to=proof.alternatives_checked_to)
            else:
                self.alternatives_panel.set_alternatives(None, (), note=why)
        self.proof_panel.set_proof(proof, why)
        self.futile_panel.set_proof(None if helpmate else proof, HELPMATE_NO_FUTILE if helpmate else why)
        self.search_panel.search_ended()
        if self.search_panel.model.node_count() == 0:
            self.search_panel.set_note(SEARCH_TOO_QUICK)

    def _findings(self, proof: Proof) -> tuple[Finding, ...]:
        """What the 余詰 panel lists: 余詰 and 成不成非限定, then 変同 and 駒余り (core.answer's names)."""
        try:
            return classify_alternatives(proof) + classify_variations(proof)
        except ValueError as e:   # a move of the proof that does not fit: list the alternatives alone
            self.report_error(str(e), box=False)
            return classify_alternatives(proof)

    @Slot(object)
    def _on_errored(self, error: BaseException) -> None:
        if self._check_next is not None:
            self.check_panel.clear()
        self.result_panel.set_result(self._result_start or Position.empty(), None)
        self.report_error(tr("Solve failed: %1").replace("%1", error_text(error)))

    @Slot(object)
    def _keep_stopped_answer(self, result: object) -> None:
        """A stopped continuation's answer (its 余詰 checked further), kept in view by the abort."""
        if isinstance(result, SolveResult) and result.status is SolveStatus.MATE and isinstance(result.proof, Proof):
            self._stopped_answer = result

    @Slot()
    def _on_aborted(self) -> None:
        answer, self._stopped_answer = self._stopped_answer, None
        if answer is not None:
            # The 余詰 search stopped: its answer is shown, and Continue goes on with it again.
            self._on_returned(answer)
            return
        if self._check_next is not None:
            self.check_panel.set_stopped()
        # The shortest search's last snapshot holds the bounds it had proved: Stop keeps them in view.
        at_least, at_most = progress_bounds(self._last_progress)
        self.result_panel.set_stopped(self._result_start or Position.empty(), at_least, at_most)
        self.search_panel.search_ended()
        if self.can_continue():
            self.statusBar().showMessage(tr("Search stopped: Continue (Shift+F5) searches on from where it stopped"),
                                         8000)
        else:
            self.statusBar().showMessage(tr("Search stopped"), 5000)
        self._set_stats(lambda: " ".join(t for t in (tr("Search stopped"), bounds_text(at_least, at_most)) if t))

    @Slot()
    def _on_finished(self) -> None:
        self._worker = None
        if not self._viewing:
            self.board.set_editable(True)
        self._update_actions()
        self.searchFinished.emit(self._result)
        pending, self._check_next = self._check_next, None
        stopped, self._check_next_stopped = self._check_next_stopped, False
        if pending is None:
            return
        if self._result is None or stopped:   # the solve was stopped or failed: no check (the panel says which)
            if self._result is not None:       # the solve had ended when Stop came
                self.check_panel.set_stopped()
            self.checkFinished.emit(None)
        elif self._worker is None:
            start, given = pending
            self._start_check(start, given, self._session, self._result)

    def _clear_result(self, keep_search_tree: bool = False) -> None:
        """Forget everything derived from the last search: every panel says "not solved yet" (the
        search tree's stays with ``keep_search_tree``)."""
        self._result = None
        if self._session is not None:
            self._session.release()   # its table may hold hundreds of megabytes
            self._session = None
        self._set_pending(None)
        self.result_panel.set_result(self.editor.position(), None)
        self.proof_panel.set_proof(None)
        self.futile_panel.set_proof(None)
        self.alternatives_panel.set_alternatives(None, ())
        if not keep_search_tree:
            self.search_panel.reset(self.editor.position())
        self._set_stats(str)

    # ---- checking the main line (作意) ---------------------------------------------

    def _add_check_dock(self) -> None:
        """The 作意 check panel, in a dock beside the record."""
        self._check: tuple[Position, CheckResult] | None = None
        self.check_panel = CheckPanel(self)
        self.check_panel.checkRequested.connect(self.check_main_line)
        self.check_panel.writeRequested.connect(self.write_check)
        self.check_panel.positionRequested.connect(self.show_position)
        self.editor.recordReplaced.connect(self._forget_check)
        dock = self.docks["check"] = QDockWidget(self)
        dock.setObjectName("dock_check")
        dock.setWidget(self.check_panel)
        _share, low, high = DOCK_WIDTHS["right"]
        dock.setMinimumWidth(low)
        dock.setMaximumWidth(high)

    def _forget_check(self) -> None:
        self._check = None
        self.check_panel.clear()
        self._update_actions()

    def check_result(self) -> CheckResult | None:
        """The last check of the main line (None before one ends, or after the record changed)."""
        return self._check[1] if self._check is not None else None

    def check_main_line(self) -> bool:
        """Check the record's main line against the official answer on a worker thread
        (what ``tsume check`` does); ``checkFinished`` follows.  False when it cannot start."""
        if self._worker is not None:
            return False
        if self.editor.problems():
            self.report_error(tr("The position has problems; Solve is disabled."), box=False)
            return False
        record = self.editor.full_record()
        given = tuple(m.usi() for m in record.main_line())
        if not given:
            self.report_error(tr("The record has no main line to check: play or open one first."), box=False)
            return False
        self.show_problem()
        self._check = None
        self.docks["check"].raise_()
        self.check_panel.set_checking()
        sfen = record.start.sfen()
        session = self._session
        if session is not None and (session.usable_for(sfen) or session.resumable_for(sfen)):
            # The answer solved for this start is asked again (or its stopped search goes on), not solved again.
            solved = self._result if self._result is not None and self._result.sfen == sfen else None
            self._start_check(record.start, given, session, solved)
        else:
            # No answer of this start yet: it is solved first, in view as Solve shows it (the search
            # tree growing, then the result, proof and 無駄合 panels), and the check asks that answer.
            self._check_next = (record.start.copy(), given)
            self._check_next_stopped = False
            self._forget_continue()
            self._engine = None   # the check's answer is the built-in solver's
            self._answer_path = ()
            self._run_search("mate", self._solver_for("mate"), record.start)
        return True

    def _start_check(self, start: Position, given: tuple[str, ...], session: AnswerSession | None,
                     solved: SolveResult | None) -> None:
        """Check ``given`` from ``start`` on a worker thread, asking ``session`` (``solved``: its solve's result)."""
        self.docks["check"].raise_()   # after a solve in view, its result dock was raised
        worker = check_worker(start, given, load_limits(), session, solved)
        self._check_progress = None
        self._check_partial = None
        worker.progress.connect(self._on_check_progress)
        worker.returned.connect(functools.partial(self._on_check_returned, start.copy()))
        worker.stopped.connect(functools.partial(self._on_check_stopped, start.copy()))
        worker.errored.connect(self._on_check_errored)
        worker.aborted.connect(self._on_check_aborted)
        worker.finished.connect(self._on_check_finished)
        self._worker = worker
        self.board.set_editable(False)
        self._update_actions()
        self._set_stats(lambda: tr("Checking the main line against the official answer…"))
        worker.start()

    @Slot(object)
    def _on_check_progress(self, progress: Progress) -> None:
        # What the check asks now (the ply of the line, or the length search it goes on with), in
        # the panel and on the status line; the check's limits are its own, so no time against them.
        self._check_progress = progress
        self.check_panel.set_progress(phase_text(progress) + "…")
        # A callable: the status line is drawn again, translated, when the language changes.
        self._set_stats(lambda: "   ".join((phase_text(progress), tr("Nodes %1").replace("%1", f"{progress.nodes:,}"),
                                            tr("%1 nodes/s").replace("%1", f"{progress.nps:,.0f}"))))

    def _on_check_stopped(self, start: Position, result: object) -> None:
        if isinstance(result, CheckResult):
            self._check_partial = (start, result)

    @Slot()
    def _on_check_aborted(self) -> None:
        partial, self._check_partial = self._check_partial, None
        if partial is not None and (partial[1].discrepancies or partial[1].too_short):
            # What the stopped check had proved stays in view, and may be written into the record.
            self._check = partial
            self.check_panel.set_result(*partial, stopped=True)
            self._set_stats(lambda: self.check_panel.verdict().split("\n")[0])
            return
        if partial is not None and partial[1].length is not None:
            self.check_panel.set_stopped(tr("The exact length is %1 plies; nothing was found against the main "
                                            "line by then.").replace("%1", str(partial[1].length)))
            return
        # Stopped with nothing proved against the line: the bounds of the length search stay in view.
        at_least, at_most = progress_bounds(self._check_progress)
        if partial is not None and partial[1].at_least is not None:
            at_least, at_most = partial[1].at_least, partial[1].at_most
        self.check_panel.set_stopped(bounds_text(at_least, at_most))

    def _on_check_returned(self, start: Position, result: CheckResult) -> None:
        self._check = (start, result)
        self.check_panel.set_result(start, result)
        self._set_stats(lambda: self.check_panel.verdict().split("\n")[0])
        if result.length is None and self._session is not None and self._session.resumable_for(start.sfen()):
            # The length search stopped at the limits is kept: another check goes on with it.
            self.statusBar().showMessage(tr("The check stopped at its limits: Check the main line (Ctrl+F5) "
                                            "again goes on from where it stopped"), 8000)

    def _on_check_errored(self, error: BaseException) -> None:
        self.check_panel.clear()
        self.report_error(tr("Cannot check: %1").replace("%1", str(error)))

    def _on_check_finished(self) -> None:
        self._worker = None
        if not self._viewing:
            self.board.set_editable(True)
        self._update_actions()
        if self._check is None:   # stopped or failed: no verdict, and its progress no longer runs
            self._set_stats(str)
        self.checkFinished.emit(self.check_result())

    def write_check(self) -> bool:
        """Write the last check into the record (one undoable step): each discrepancy's line
        as a 変化 with its name as a comment, and the verdict on the start.  True when it changed."""
        if self._check is None or self._worker is not None:
            return False
        start, result = self._check
        if self.editor.full_record().start != start:
            return False
        lines = [(tuple(d.line), discrepancy_comment(d)) for d in result.discrepancies]
        lines.append(((), verdict_comment(result)))
        try:
            changed = self.study.add_lines(lines)
        except ValueError as e:
            self.report_error(str(e), box=False)
            return False
        if changed:
            self.docks["record"].raise_()
            self.statusBar().showMessage(tr("The check was written into the record"), 5000)
        return changed

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
        self.board.set_playable(True)
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

    def _solve_start(self) -> Position | None:
        """The position Solve searches: in study mode the one at the record's cursor
        (its answer goes under that move), else the problem (shown again).

        None (and the reason on the status line) when the cursor is on a move
        after which the attacker (the side to move at the start) is not to move.
        """
        if self.is_studying():
            tree = self.study.tree()
            position = tree.position()
            if position.turn != tree.record.start.turn:   # direct mates and helpmates alike
                self.report_error(tr("Solve from here needs a position with the attacker to move: "
                                     "step to a move of the defender."), box=False)
                return None
            self._answer_path = tree.path()
            return position
        self._answer_path = ()
        self.show_problem()
        return self.editor.position()

    def _merge_answer(self, result: SolveResult) -> None:
        """Offer the solver's answer (main line and every defence) for the record's tree.

        The answer is kept apart from the user's edits: the record panel shows
        it with "Keep answer in record", and the record (and the modified
        marker) change only when the user keeps it (:meth:`keep_answer`).
        """
        self._set_pending(None)
        if result.status is not SolveStatus.MATE:
            return
        path = self._answer_path
        try:
            answer = solution_record(result)
        except ValueError as e:
            self.report_error(str(e), box=False)
            return
        length = proved_length(result) if not path else None
        if not self.study.would_change(answer, length, path):
            return
        self._set_pending((answer, length, path))
        if self.is_studying():
            self.docks["record"].raise_()   # the answer's bar, beside the move it belongs to
        self.statusBar().showMessage(tr("Answer ready: Keep answer in record (Ctrl+K) adds it"), 8000)

    def _set_pending(self, pending: tuple[Record, int | None, tuple[int, ...]] | None) -> None:
        """Hold (or drop) the answer waiting to be kept, and show it in the record panel."""
        self._pending = pending
        if pending is None:
            self.record_panel.set_pending("", "")
        else:
            answer, _length, path = pending
            tree = self.study.tree()
            where = ""
            if path:
                try:
                    where = f"{len(path)} {tree.japanese(path)[-1]}"
                except (IndexError, ValueError):
                    where = str(len(path))
            line = StudyTree(answer).japanese(StudyTree(answer).line())
            self.record_panel.set_pending(where, " ".join(line))
        self._update_actions()

    def pending_answer(self) -> Record | None:
        """The solver's answer waiting for "Keep answer in record" (None when there is none)."""
        return self._pending[0] if self._pending is not None else None

    def keep_answer(self) -> bool:
        """Merge the waiting answer into the record at the move it was searched from
        (one undoable step, which marks the problem modified); True when merged."""
        if self._pending is None or self._worker is not None:
            return False
        answer, length, path = self._pending
        try:
            added = self.study.merge(answer, length, path)
        except ValueError as e:
            self.report_error(str(e), box=False)
            return False
        self._set_pending(None)
        self.docks["record"].raise_()
        if added:
            self.statusBar().showMessage(tr("Answer added to the record"), 5000)
        return True

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
        if self.is_studying():
            # An answer searched from the record's cursor: its start is the study position,
            # where moves can be played; the answer's later positions are only looked at.
            self.board.set_playable(ply == 0)
            if ply == 0:
                self._show_study()
                return
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
        if self.is_studying():
            # An edit (preset, paste, clear, undo of an edit...) makes the board the editor again:
            # study mode only ever shows the record's start and the moves after it.
            self.set_study_mode(False)
        self._viewing = False
        self.board.set_editable(self._worker is None)
        self.board.set_highlights([])   # a problem square marked on the old position
        if self._continue_from is not None and position != self._continue_from[0] and self._worker is None:
            self._forget_continue()   # another problem: the kept search is not its
        if self._result_start is not None and position != self._result_start and self._worker is None:
            self._result_start = None
            self._clear_result()
        self._update_actions()

    @Slot()
    def _update_title(self) -> None:
        """The title: file name with the modified marker, the problem's 作品名, the program."""
        path = self.editor.path()
        name = self.editor.full_record().header.get("作品名", "")
        parts = [(os.path.basename(path) if path else tr("Untitled")) + "[*]"]
        parts += [name] if name else []
        self.setWindowTitle(" — ".join(parts + ["Tsume Studio"]))
        self.setWindowModified(self.editor.is_modified())

    @Slot()
    def mark_modified(self) -> None:
        """Count a change made outside the editor's undo stack (the move tree, say) as unsaved."""
        self.editor.mark_modified()

    def is_modified(self) -> bool:
        """True when the problem has edits that were not saved."""
        return self.editor.is_modified()

    @Slot(str)
    def _on_file_changed(self, path: str) -> None:
        if path:
            add_recent(path)
            self._fill_recent_menu()
        self._update_title()

    @Slot(list)
    def _on_problems_changed(self, problems: list[Problem]) -> None:
        self.problem_bar.set_problems(problems)
        self._update_actions()

    # ---- export ------------------------------------------------------------------

    def export_kif(self, path: str) -> None:
        """Write the solution (main line, variations, futile interpositions as comments),
        keeping the record's own comments on the start and on the moves the solution plays.

        Raises:
            ValueError: nothing to export, or an unknown extension.
            OSError: the file cannot be written.
        """
        if self._result is None:
            raise ValueError("no solution to export: solve the problem first")
        own = self.editor.full_record()
        export_solution(path, self._result, self.export_header(), own if not self._answer_path else None)

    def export_header(self) -> dict[str, str]:
        """The problem's header for an exported solution: all but 手数, which the answer gives."""
        return {k: v for k, v in self.editor.full_record().header.items() if k != "手数"}

    def export_image(self, path: str) -> None:
        """Write the board as shown to a ``.png`` or ``.svg`` diagram."""
        self.board.render_image(path)

    def copy_sfen(self) -> str:
        """Put the problem's SFEN on the clipboard and return it."""
        text = self.editor.copy_sfen()
        self.statusBar().showMessage(tr("Copied SFEN to the clipboard"), 5000)
        return text

    def ask_export_path(self, title: str, suggested: str, filters: str) -> tuple[str, str]:
        """The export dialog: the chosen path ("" when cancelled) and filter (tests replace this)."""
        path, selected = QFileDialog.getSaveFileName(self, title, suggested, filters)
        return path, selected

    def _export_name(self, suffix: str, ext: str) -> str:
        """A suggested export path: the problem's file name, 作品名 or tsume, plus ``suffix``, in the last folder."""
        name = suggested_file_name(self.editor.path(), self.editor.full_record().header.get("作品名", ""))
        name = os.path.splitext(name)[0] + suffix + ext
        folder = os.path.dirname(self.editor.path() or "") or load_last_folder()
        return os.path.join(folder, name) if folder else name

    def _export_kif_dialog(self) -> None:
        path, selected = self.ask_export_path(tr("Export solution (KIF)..."), self._export_name("_answer", ".kif"),
                                              SOLUTION_FILE_FILTER)
        if not path:
            return
        path = with_filter_extension(path, selected)
        save_last_folder(path)
        try:
            self.export_kif(path)
        except (ValueError, OSError) as e:
            self.report_error(tr("Cannot export: %1").replace("%1", error_text(e)))
        else:
            self.statusBar().showMessage(tr("Exported %1").replace("%1", path), 5000)

    def _export_image_dialog(self) -> None:
        path, selected = self.ask_export_path(tr("Export board image..."), self._export_name("", ".png"),
                                              IMAGE_FILE_FILTER)
        if not path:
            return
        if os.path.splitext(path)[1].lower() not in (".png", ".svg"):
            path += ".svg" if selected.startswith("SVG") else ".png"
        save_last_folder(path)
        try:
            self.export_image(path)
        except (ValueError, OSError) as e:
            self.report_error(tr("Cannot export: %1").replace("%1", error_text(e)))
        else:
            self.statusBar().showMessage(tr("Exported %1").replace("%1", path), 5000)

    # ---- files, language, errors ---------------------------------------------------

    def open_file(self, path: str, remember: bool = True) -> bool:
        """Open a position or record file; errors are reported, not raised. True on success.

        Unsaved edits are not asked about here (:meth:`open_path` does); with
        ``remember`` the file joins the recent files and Save writes to it.
        """
        try:
            self.editor.open_file(path, remember)
        except (ValueError, OSError) as e:
            self.report_error(tr("Cannot open: %1").replace("%1", error_text(e)))
            return False
        record = self.editor.record()
        if record is not None and record.root.children:
            self.docks["record"].raise_()     # a record with moves: show them, as a record viewer does
        return True

    def open_path(self, path: str) -> bool:
        """Open ``path`` as the user asked (recent files, a drop): unsaved edits are asked about first."""
        if not os.path.isfile(path):
            remove_recent(path)
            self._fill_recent_menu()
            self.report_error(tr("%1 is no longer there; it was taken off the recent files.").replace("%1", path))
            return False
        if not self.maybe_keep_edits():
            return False
        return self.open_file(path)

    def _fill_recent_menu(self) -> None:
        menu = self.recent_menu
        menu.clear()
        paths = load_recent()
        for i, path in enumerate(paths, 1):
            act = menu.addAction(f"&{i % 10} {os.path.basename(path)}")
            act.setToolTip(path)
            act.setStatusTip(path)
            act.setData(path)
            act.triggered.connect(functools.partial(self._open_recent, path))
        if paths:
            menu.addSeparator()
        clear = menu.addAction(tr("Clear the list"))
        clear.setEnabled(bool(paths))
        clear.triggered.connect(self._clear_recent)
        menu.setEnabled(self._worker is None)

    def _open_recent(self, path: str, _checked: bool = False) -> None:
        self.open_path(path)

    def _clear_recent(self, _checked: bool = False) -> None:
        for path in load_recent():
            remove_recent(path)
        self._fill_recent_menu()

    # ---- unsaved edits ----------------------------------------------------------------

    def ask_discard(self) -> str:
        """Ask what to do with unsaved edits: ``"save"``, ``"discard"`` or ``"cancel"`` (tests replace this)."""
        buttons = QMessageBox.StandardButton
        box = QMessageBox(QMessageBox.Icon.Question, "Tsume Studio", tr("The problem has unsaved changes."),
                          buttons.Save | buttons.Discard | buttons.Cancel, self)
        box.setInformativeText(tr("Save them before going on?"))
        for button, text in ((buttons.Save, "Save"), (buttons.Discard, "Discard"), (buttons.Cancel, "Cancel")):
            box.button(button).setText(tr(text))
        box.setDefaultButton(buttons.Save)
        box.setEscapeButton(buttons.Cancel)
        answer = box.exec()
        return {buttons.Save: "save", buttons.Discard: "discard"}.get(buttons(answer), "cancel")

    def maybe_keep_edits(self) -> bool:
        """Before the problem is replaced: True when it may go (no edits, saved, or discarded)."""
        if not self.editor.is_modified():
            return True
        choice = self.ask_discard()
        if choice == "save":
            return self.editor.save()
        return choice == "discard"

    def edit_header(self) -> bool:
        """Edit the record's header and start comment in a dialog; True when something changed."""
        record = self.editor.full_record()
        dialog = HeaderDialog(record.header, record.root.comments, self)
        if not self.run_dialog(dialog):
            return False
        before = (dict(record.header), list(record.root.comments))
        self.editor.set_header(dialog.header(), dialog.comments())
        after = self.editor.full_record()
        return before != (after.header, after.root.comments)

    def run_dialog(self, dialog: HeaderDialog) -> bool:
        """Run a modal dialog; True when accepted (tests replace this)."""
        return bool(dialog.exec())

    # ---- dropped files ----------------------------------------------------------------

    @staticmethod
    def dropped_file(mime: QMimeData) -> str | None:
        """The first local record or position file in dropped data, or None."""
        for url in mime.urls() if mime.hasUrls() else []:
            path = url.toLocalFile()
            if path and os.path.splitext(path)[1].lower() in FORMATS:
                return path
        return None

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:  # noqa: N802 - Qt API
        """Accept a dragged record or position file."""
        if self._worker is None and self.dropped_file(event.mimeData()) is not None:
            event.acceptProposedAction()
        else:
            event.ignore()

    def dropEvent(self, event: QDropEvent) -> None:  # noqa: N802 - Qt API
        """Open a dropped record or position file (asking about unsaved edits first)."""
        path = self.dropped_file(event.mimeData())
        if path is None or self._worker is not None:
            event.ignore()
            return
        event.acceptProposedAction()
        # Open after the drop returns: the question must not run inside the drag.
        QTimer.singleShot(0, functools.partial(self.open_path, path))

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
            self.error_box = dialog
            dialog.finished.connect(functools.partial(self._forget_error_box, dialog))
            dialog.open()

    def _forget_error_box(self, dialog: QMessageBox, _result: int = 0) -> None:
        if self.error_box is dialog:
            self.error_box = None

    def _retranslate_error(self) -> None:
        """Show an error still on screen (status line, message box) in the new language."""
        old = self.last_error
        if not isinstance(old, i18n.Message):
            return
        new = old.retranslated()
        self.last_error = new
        if self.statusBar().currentMessage() == old:
            self.statusBar().showMessage(new, 10000)
        if self.error_box is not None and self.error_box.text() == old:
            self.error_box.setText(new)

    # ---- window life ------------------------------------------------------------------

    def _arrange_docks(self) -> None:
        """Put every dock in its default place: the search tree on the left; on the
        right the result over the proof tree, 無駄合 and 余詰 as tabs."""
        left, right = Qt.DockWidgetArea.LeftDockWidgetArea, Qt.DockWidgetArea.RightDockWidgetArea
        for dock in self.docks.values():
            dock.setFloating(False)
            self.removeDockWidget(dock)   # out of old tab groups and splits
        for key, dock in self.docks.items():
            self.addDockWidget(left if key == "search" else right, dock)
        self.splitDockWidget(self.docks["result"], self.docks["proof"], Qt.Orientation.Vertical)
        self.tabifyDockWidget(self.docks["proof"], self.docks["futile"])
        self.tabifyDockWidget(self.docks["futile"], self.docks["alternatives"])
        self.tabifyDockWidget(self.docks["result"], self.docks["record"])
        self.tabifyDockWidget(self.docks["record"], self.docks["check"])
        for dock in self.docks.values():
            dock.show()
        self.docks["result"].raise_()
        self.docks["proof"].raise_()
        self._size_docks()

    def _size_docks(self) -> None:
        left, right = default_dock_widths(self.width())
        self.resizeDocks([self.docks["search"], self.docks["result"]], [left, right], Qt.Orientation.Horizontal)
        height = self.height() - 120   # less the menu, toolbar and status bars
        self.resizeDocks([self.docks["result"], self.docks["proof"]], [height * 2 // 5, height * 3 // 5],
                         Qt.Orientation.Vertical)

    def show_about(self) -> AboutDialog:
        """Open the About dialog (not blocking) and return it."""
        dialog = AboutDialog(self)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.open()
        return dialog

    def reset_layout(self) -> None:
        """Restore the default docks (all shown, docked in their places) and their sizes."""
        self._arrange_docks()

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
        else:
            self._size_docks()

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802 - Qt API
        """Ask about unsaved edits (Cancel keeps the window), stop a running search, save the layout."""
        if not self.maybe_keep_edits():
            event.ignore()
            return
        worker = self._worker
        if worker is not None:
            worker.quit()
            worker.wait(5000)
        s = settings()
        s.setValue("ui/geometry", self.saveGeometry())
        s.setValue("ui/state", self.saveState())
        s.sync()
        event.accept()


    # ---- external engines (Settings > Engines, Solve > Engine) --------------------------

    def _build_engine_menus(self) -> None:
        """Solve > Engine (the built-in solver or a USI engine) and the Settings menu."""
        self._engine = None
        self.engine_choice = EngineChoice(self)
        self.engine_choice.changed.connect(lambda _name: self._update_engine_status())
        solve_menu = self.menus["solve"]
        actions = solve_menu.actions()
        after = actions.index(self.actions_["helpmate"]) + 1
        if after < len(actions):
            solve_menu.insertMenu(actions[after], self.engine_choice.menu)
        else:
            solve_menu.addMenu(self.engine_choice.menu)
        settings_menu = QMenu(self)
        settings_menu.setObjectName("settings_menu")
        settings_menu.addAction(self.engine_choice.configure)
        settings_menu.addAction(self.actions_["limits"])
        self.menuBar().insertMenu(self.menus["help"].menuAction(), settings_menu)
        self.menus["settings"] = settings_menu
        self.engine_note = QLabel(self.result_panel)
        self.engine_note.setObjectName("engine_note")
        self.engine_note.setWordWrap(True)
        self.engine_note.setStyleSheet("QLabel { background: #fff4d6; border: 1px solid #e0c070; padding: 4px; }")
        self.engine_note.hide()
        self._engine_note: i18n.Message | None = None
        layout = self.result_panel.layout()
        if isinstance(layout, QVBoxLayout):
            layout.insertWidget(1, self.engine_note)
        # Queued: after the window has dropped the result of the old problem.
        self.editor.positionChanged.connect(self._forget_engine_note, Qt.ConnectionType.QueuedConnection)
        for dock in self.docks.values():
            dock.dockLocationChanged.connect(lambda _area: QTimer.singleShot(0, self.fit_dock_tabs))
        self.fit_dock_tabs()
        i18n.notifier.language_changed.connect(self._retranslate_engines)
        self._retranslate_engines()

    def fit_dock_tabs(self) -> None:
        """Tabs of docked panels show their whole title: no eliding; scroll buttons when the row is too long."""
        for bar in self.findChildren(QTabBar):
            if bar.parent() is self:
                bar.setElideMode(Qt.TextElideMode.ElideNone)
                bar.setUsesScrollButtons(True)
                bar.setExpanding(False)

    def _retranslate_engines(self, _lang: str = "") -> None:
        self.menus["settings"].setTitle(tr("&Settings"))
        if self._engine_note is not None:
            self._show_engine_note(self._engine_note.retranslated())
        self._update_engine_status()

    def _update_engine_status(self) -> None:
        """The Solve action's tooltip names the engine it runs on."""
        spec = self.engine_choice.current()
        name = spec.name if spec is not None else tr("Built-in solver")
        self.actions_["solve"].setToolTip(tr("Solve with %1").replace("%1", name))

    def engine(self) -> EngineSpec | None:
        """The USI engine Solve runs on (None: the built-in solver)."""
        return self.engine_choice.current()

    def _solve_function(self, mode: str) -> SolveFunction:
        """The solver of this search: the chosen USI engine for a direct mate, else the built-in one."""
        spec = self.engine_choice.current()
        self._engine = spec if mode == "mate" else None
        if spec is not None and mode != "mate":
            self.statusBar().showMessage(tr("USI engines search direct mates only: the built-in solver "
                                            "solves this helpmate."), 8000)
        if self._engine is not None:
            return engine_solver(self._engine)
        return self._solver_for(mode)

    def _watch_engine(self, worker: SolverWorker) -> None:
        """A search began: on an external engine, say so and show what it reports."""
        self._show_engine_note(None)
        spec = self._engine
        if spec is None:
            return
        self.search_panel.set_note(ENGINE_NO_TREE)
        worker.progress.connect(self._on_engine_progress)
        worker.returned.connect(self._on_engine_returned)
        name = spec.name
        self._set_stats(lambda: tr("%1: searching").replace("%1", name))

    @Slot(object)
    def _forget_engine_note(self, _position: object = None) -> None:
        """The problem changed and its result went: so does the note about the engine's answer."""
        if self._result is None:
            self._show_engine_note(None)

    def _show_engine_note(self, note: i18n.Message | None) -> None:
        self._engine_note = note
        self.engine_note.setText(note or "")
        self.engine_note.setVisible(note is not None)

    @Slot(object)
    def _on_engine_progress(self, progress: Progress) -> None:
        # The search tree stays empty: an engine reports numbers, not its tree.
        self.search_panel.set_note(ENGINE_NO_TREE)
        name = self._engine.name if self._engine is not None else ""

        def text() -> str:
            parts = [f"{name}:", tr("Nodes %1").replace("%1", f"{progress.nodes:,}"),
                     tr("%1 nodes/s").replace("%1", f"{progress.nps:,.0f}"),
                     tr("%1 s").replace("%1", f"{progress.elapsed:.1f}")]
            if progress.root_pn or progress.root_dn:
                parts.append(f"pn/dn {number_text(progress.root_pn)}/{number_text(progress.root_dn)}")
            parts.append(tr("table %1%").replace("%1", f"{100 * progress.table_fill:.0f}"))
            return "   ".join(parts)
        self._set_stats(text)

    @Slot(object)
    def _on_engine_returned(self, result: SolveResult) -> None:
        """An engine's answer is shown: say plainly what such an answer does not give."""
        name = self._engine.name if self._engine is not None else str(result.extra.get("engine", ""))
        if result.status is SolveStatus.MATE:
            note = i18n.Message(ENGINE_MATE_NOTE, name)
        elif result.status is SolveStatus.NO_MATE:
            note = i18n.Message(ENGINE_NO_MATE_NOTE, name)
        else:
            note = i18n.Message(ENGINE_UNKNOWN_NOTE, name)
        self._show_engine_note(note)
        self.proof_panel.set_proof(None, ENGINE_NO_PROOF)
        self.futile_panel.set_proof(None, ENGINE_NO_FUTILE)
        self.alternatives_panel.set_alternatives(None, (), note=ENGINE_NO_ALTERNATIVES)
        self.search_panel.set_note(ENGINE_NO_TREE)
        self.docks["result"].raise_()
        seconds = result.seconds
        self._set_stats(lambda: tr("%1: %2 in %3 s").replace("%1", name)
                        .replace("%2", status_text(result)).replace("%3", f"{seconds:.2f}"))

    # ---- Help > Keyboard shortcuts, Edit > Copy as KIF ---------------------------------

    def _build_help_and_copy_menus(self) -> None:
        a = self.actions_
        for key, slot, shortcut in (("copy_kif", self.copy_kif, "Ctrl+Alt+C"),
                                    ("shortcuts", self.show_shortcuts, "F1")):
            act = QAction(self)
            act.setObjectName(f"action_{key}")
            act.setShortcut(QKeySequence(shortcut))
            act.triggered.connect(lambda _checked=False, f=slot: f())
            self.addAction(act)
            a[key] = act
        edit_menu = self.menus["edit"]
        copy_bod = self.editor.action("copy_bod")
        actions = edit_menu.actions()
        if copy_bod in actions and actions.index(copy_bod) + 1 < len(actions):
            edit_menu.insertAction(actions[actions.index(copy_bod) + 1], a["copy_kif"])
        else:
            edit_menu.addAction(a["copy_kif"])
        help_menu = self.menus["help"]
        help_menu.insertAction(a["about"], a["shortcuts"])
        help_menu.insertSeparator(a["about"])
        i18n.notifier.language_changed.connect(self._retranslate_help_and_copy)
        self._retranslate_help_and_copy()

    def _retranslate_help_and_copy(self, _lang: str = "") -> None:
        self.actions_["copy_kif"].setText(tr("Copy as KIF"))
        self.actions_["shortcuts"].setText(tr("Keyboard shortcuts..."))

    def copy_kif(self) -> str:
        """Put the whole record (header, comments, moves with 変化) on the clipboard as KIF; return it."""
        text = to_kif(self.editor.full_record())
        QGuiApplication.clipboard().setText(text)
        self.statusBar().showMessage(tr("Copied the record as KIF to the clipboard"), 5000)
        return text

    def show_shortcuts(self) -> ShortcutsDialog:
        """Open the keyboard shortcuts (not blocking) and return the dialog."""
        dialog = ShortcutsDialog(self.menuBar(), self)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.open()
        return dialog

"""The panels around the board: result and stepping, proof tree, futile interpositions, 余詰, search tree.

Each panel shows data and reports what the user picked as a position to
show (``positionRequested(position, last_move)``); the main window decides
what the board does with it.  No solver logic here.
"""

from __future__ import annotations

from PySide6.QtCore import QItemSelection, QModelIndex, QPersistentModelIndex, Qt, Signal, Slot
from PySide6.QtGui import QFont, QFontMetrics
from PySide6.QtWidgets import (
    QAbstractItemView, QApplication, QHBoxLayout, QHeaderView, QLabel, QListWidget, QListWidgetItem, QStyle,
    QPushButton, QStyledItemDelegate, QStyleOptionViewItem, QToolButton, QTreeView, QVBoxLayout, QWidget,
)

from collections.abc import Sequence

from ..core.answer import Finding, bounds_meet, branch_of, ordered_futile
from ..core.check import CheckResult
from ..core.shogi.moves import Move, parse_move
from ..core.shogi.position import Position
from ..core.search.proof import Alternative, FutileInterposition, Futility, HelpmateAnswer, Proof
from ..core.search.contract import Progress, SearchPhase, SolveResult, SolveStatus
from ..core.shogi.types import KANJI_MOVE, LETTER_TYPES
from . import i18n
from .i18n import add_translations, tr
from .models import (COL_DN, COL_MOVE, COL_PN, COL_ROLE, ProofTreeModel, SearchTreeModel, common_move_texts,
                     common_role_texts, compact_number, move_texts)

add_translations("ja", {
    "Result": "結果",
    "Mate in %1": "%1手詰",
    "Mate (proved; the line is incomplete, its length unknown)": "詰み（証明済み。手順が途中までで、手数は不明）",
    "Mate in %1 (not proved shortest)": "%1手詰（最短は未証明）",
    "Mate in %1 (proved shortest; its main line was not built in time)":
        "%1手詰（最短と証明済み。本譜は時間内に作れませんでした）",
    "proved: %1": "証明済み: %1",
    "at most %1 plies": "%1手以内",
    "at least %1": "%1手以上",
    "the length %1 (its line was not built in time)": "%1手（その手順は時間内に作れませんでした）",
    "Stopped: no answer. The shortest search had proved: %1.":
        "中止しました（答えはありません）。最短の探索で証明済み: %1。",
    "Not finished in time: this is df-pn's proof, its line and every defence, with the futile "
    "interpositions found so far, not the official answer.":
        "時間内に完成せず：df-pnの証明（その手順とすべての受け）と、ここまでに見つかった無駄合です。"
        "正式な解答ではありません。",
    "Found so far (the official answer was not finished): the futile interpositions the search had judged.":
        "ここまでに見つかった無駄合です（正式な解答は未完成）。",
    "The main line is exact; the variations' lengths were not all measured in time: one without its length "
    "shows the bound proved and df-pn's line.":
        "本譜は正解です。変化の手数は時間内に一部しか計測できず、手数のない変化には証明済みの上限とdf-pnの手順を示します。",
    "No mate": "不詰",
    "Helpmate in %1": "協力詰 %1手",
    "No helpmate": "協力詰なし",
    "Unknown (limit reached)": "不明（制限に達しました）",
    "Stopped": "中断",
    "Searching…": "探索中…",
    "Proving mate": "詰みを証明中",
    "Proving the shortest": "最短手順を証明中",
    "Proving the shortest: mate within %1 plies? (proved: %2 to %3 plies)":
        "最短手順を証明中: %1手以内に詰むか（証明済み: %2〜%3手）",
    "Proving the shortest: mate within %1 plies? (no mate in fewer than %2)":
        "最短手順を証明中: %1手以内に詰むか（%2手未満の詰みはない）",
    "Building the proof tree": "証明木を作成中",
    "Looking for 余詰 (alternative mates)": "余詰を探索中",
    "Checking the main line": "作意を検討中",
    "Checking the main line: ply %1 of %2": "作意を検討中: %2手の%1手目",
    "%1 s of %2 s": "%1 秒／制限 %2 秒",
    "%1 s (no time limit)": "%1 秒（時間制限なし）",
    "Nodes %1": "局面数 %1",
    "Mate is proved; the tree above is that proof, complete. Now: %1. %2, %3.":
        "詰みは証明済みです（上の木はその証明で、完了しています）。現在: %1。%2、%3。",
    "Not solved yet. Press Solve to search.": "まだ解いていません。「解く」で探索します。",
    "Not solved yet.": "まだ解いていません。",
    "Stopped: no answer. Press Solve to search again.": "中止しました（答えはありません）。「解く」で再び探索します。",
    "No mate was found, so there is nothing to list.": "詰みが見つからなかったので、一覧はありません。",
    "Not decided: the search stopped before it proved a mate or no mate, so there is nothing to list.":
        "詰みも不詰も証明する前に探索が止まったので、一覧はありません。",
    "Not checked: the answer is the search's own line, without a proof tree.":
        "未検討：解答は探索の手順のみで、証明木がありません。",
    "First": "最初へ",
    "Back": "1手戻る",
    "Forward": "1手進む",
    "Last": "最後へ",
    "Start position": "開始局面",
    "Futile interpositions": "無駄合",
    "Alternative mates (余詰)": "余詰",
    "Proof tree": "証明木",
    "Search tree": "探索木",
    "No futile interpositions were pruned.": "無駄合はありません。",
    "No alternative mates found.": "余詰は見つかりませんでした。",
    "Not checked: the search for alternative mates ran out of time.": "未検討：余詰の探索が時間切れになりました。",
    "Not checked: the search for alternative mates was skipped or ran out of time.":
        "未検討：余詰の探索を省いたか、時間切れになりました。",
    "Checked up to ply %1 of the main line: the search for alternative mates ran out of time after that.":
        "本譜%1手目まで検討済み：その先は余詰の探索が時間切れになりました。",
    "mate in %1": "%1手詰",
    "Not checked: other helpmates of this length were not searched for.":
        "未検討：同じ手数の別の協力詰は探していません。",
    "More helpmates of this length exist than are listed.": "同じ手数の協力詰は、一覧より多くあります。",
    "Not checked completely: the search for other helpmates stopped at a limit.":
        "一部未検討：別の協力詰の探索が制限に達しました。",
    "No other helpmate of this length.": "同じ手数の別の協力詰はありません。",
    "Helpmate in %1 (not proved shortest)": "協力詰 %1手（最短は未証明）",
    "on the main line": "本譜",
    "variation %1": "変化 %1",
    "the main line's mate": "本譜の詰め上がり",
})

#: The names of what an answer holds (untranslated).
FINDING_LABELS = {"alternative": "余詰", "promotion_choice": "成不成非限定", "same_length": "変同",
                  "pieces_left": "駒余り"}

#: What a panel says before any solve (untranslated; panels translate it when shown).
NOT_SOLVED = "Not solved yet."
#: What a panel of a proof's details says when the answer has no proof tree, or there is no mate.
NO_PROOF_NOTE = "Not checked: the answer is the search's own line, without a proof tree."
NO_MATE_NOTE = "No mate was found, so there is nothing to list."
#: The same when the search stopped (a limit, Stop) before deciding.
UNDECIDED_NOTE = "Not decided: the search stopped before it proved a mate or no mate, so there is nothing to list."
#: The notes of the proof-tree and 無駄合 panels for an answer not finished in time (core.search.provisional):
#: its length may be proved or only bounded, which the result's summary says.
PROVISIONAL_NOTE = ("Not finished in time: this is df-pn's proof, its line and every defence, with the futile "
                    "interpositions found so far, not the official answer.")
#: The note of the proof-tree panel when the variations were not all measured (Proof.tree_complete False).
TREE_CUT_NOTE = ("The main line is exact; the variations' lengths were not all measured in time: one without its "
                 "length shows the bound proved and df-pn's line.")
PROVISIONAL_FUTILE_NOTE = ("Found so far (the official answer was not finished): the futile interpositions the "
                           "search had judged.")
#: The note of the 余詰 panel when its search was skipped or cut short.
NOT_CHECKED_ALTERNATIVES = "Not checked: the search for alternative mates was skipped or ran out of time."
#: The same when it examined the main line's first moves before it stopped (%1: the last ply examined).
CHECKED_TO_ALTERNATIVES = ("Checked up to ply %1 of the main line: the search for alternative mates ran out of "
                           "time after that.")


def _play(start: Position, line: tuple[str, ...] | list[str]) -> tuple[Position, Move | None]:
    """The position after ``line`` and its last move.

    Raises:
        ValueError: a move is not USI text, or not legal where it stands
            (:class:`~tsume_studio.core.shogi.moves.IllegalMoveError`).
    """
    pos = start.copy()
    last: Move | None = None
    for usi in line:
        last = parse_move(pos, usi)
        pos.push(last)
    return pos, last


def phase_text(progress: Progress) -> str:
    """What a running direct-mate search is doing, for people ("" when the solver has no phases)."""
    phase = progress.phase
    if phase is None:
        return ""
    if phase is SearchPhase.SHORTEST:
        stats = dict(progress.stats)
        asking, lower, upper = (int(stats.get(k, 0)) for k in ("asking", "at_least", "at_most"))
        if asking and upper:
            return (tr("Proving the shortest: mate within %1 plies? (proved: %2 to %3 plies)")
                    .replace("%1", str(asking)).replace("%2", str(max(lower, 1))).replace("%3", str(upper)))
        if asking:
            return (tr("Proving the shortest: mate within %1 plies? (no mate in fewer than %2)")
                    .replace("%1", str(asking)).replace("%2", str(max(lower, 1))))
    if phase is SearchPhase.CHECK:
        stats = dict(progress.stats)
        ply, plies = int(stats.get("check_ply", 0)), int(stats.get("check_plies", 0))
        if ply and plies:
            return tr("Checking the main line: ply %1 of %2").replace("%1", str(ply)).replace("%2", str(plies))
    return tr({SearchPhase.MATE: "Proving mate", SearchPhase.SHORTEST: "Proving the shortest",
               SearchPhase.TREE: "Building the proof tree",
               SearchPhase.ALTERNATIVES: "Looking for 余詰 (alternative mates)",
               SearchPhase.CHECK: "Checking the main line"}[phase])


def time_text(elapsed: float, limit: float | None) -> str:
    """Elapsed time against the time limit: ``12.3 秒／制限 60 秒``."""
    if limit is None:
        return tr("%1 s (no time limit)").replace("%1", f"{elapsed:.1f}")
    return tr("%1 s of %2 s").replace("%1", f"{elapsed:.1f}").replace("%2", f"{limit:g}")


def bounds_list(at_least: int | None, at_most: int | None) -> str:
    """``at most 41 plies, at least 37`` (translated): what is proved of a length, or ``""``."""
    if bounds_meet(at_least, at_most) is not None:
        return tr("the length %1 (its line was not built in time)").replace("%1", str(at_most))
    parts = []
    if at_most is not None:
        parts.append(tr("at most %1 plies").replace("%1", str(at_most)))
    if at_least is not None and at_least > 1:
        parts.append(tr("at least %1").replace("%1", str(at_least)))
    return ("、" if i18n.language() == "ja" else ", ").join(parts)


def bounds_text(at_least: int | None, at_most: int | None) -> str:
    """``proved: at most 41 plies, at least 37`` (translated) for a length not proved, or ``""``."""
    parts = bounds_list(at_least, at_most)
    return tr("proved: %1").replace("%1", parts) if parts else ""


def progress_bounds(progress: Progress | None) -> tuple[int | None, int | None]:
    """The root's proved bounds (at least, at most) a snapshot of the shortest search carries."""
    if progress is None or progress.phase is not SearchPhase.SHORTEST:
        return None, None
    stats = dict(progress.stats)
    lo, hi = stats.get("at_least"), stats.get("at_most")
    return (int(lo) if lo is not None else None), (int(hi) if hi is not None else None)


def status_text(result: SolveResult | None, helpmate: bool = False) -> str:
    """What the search found, for people: ``3手詰``, ``協力詰 3手``, ``不詰``, ``unknown (limit reached)``."""
    if result is None:
        return ""
    if result.status is SolveStatus.MATE and not helpmate and result.length is None:
        return tr("Mate (proved; the line is incomplete, its length unknown)")
    if result.status is SolveStatus.MATE:
        n = result.length if result.length is not None else len(result.pv)
        exact = result.extra.get("exact", True) if isinstance(result.extra, dict) else True
        if helpmate:
            return tr("Helpmate in %1" if exact else "Helpmate in %1 (not proved shortest)").replace("%1", str(n))
        extra = result.extra if isinstance(result.extra, dict) else {}
        lo, hi = extra.get("at_least"), extra.get("at_most")
        if not exact and bounds_meet(lo, hi) == n:
            # Proved from both sides before the official answer's main line was built.
            return tr("Mate in %1 (proved shortest; its main line was not built in time)").replace("%1", str(n))
        text = tr("Mate in %1" if exact else "Mate in %1 (not proved shortest)").replace("%1", str(n))
        bounds = "" if exact else bounds_text(lo if isinstance(lo, int) else None, hi if isinstance(hi, int) else None)
        return f"{text} {bounds}" if bounds else text
    if result.status is SolveStatus.NO_MATE:
        return tr("No helpmate" if helpmate else "No mate")
    if result.status is SolveStatus.UNKNOWN:
        return tr("Unknown (limit reached)")
    return tr("Stopped")


class ResultPanel(QWidget):
    """The search's answer and the main line, with stepping.

    Row 0 of the move list is the start position, row ``n`` the position after
    the ``n``-th move.  Step with the buttons or by clicking a move; the
    window adds arrow keys and Home/End through :meth:`step`.

    Signals:
        plyChanged(int): the ply shown changed (0 = start position).
    """

    plyChanged = Signal(int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._start = Position.empty()
        self._line: tuple[str, ...] = ()
        self._result: SolveResult | None = None
        self._searching = False
        self._stopped = False
        self._stopped_bounds: tuple[int | None, int | None] = (None, None)
        self._helpmate = False
        self._sfens: list[str] = []
        self._progress: Progress | None = None
        self._limit: float | None = None
        self.summary = QLabel(self)
        self.summary.setObjectName("summary")
        font = self.summary.font()
        font.setPointSizeF(font.pointSizeF() * 1.4)
        font.setBold(True)
        self.summary.setFont(font)
        self.summary.setWordWrap(True)
        self.moves = QListWidget(self)
        self.moves.setObjectName("moves")
        self.moves.currentRowChanged.connect(self._on_row_changed)
        self.buttons: dict[str, QToolButton] = {}
        row = QHBoxLayout()
        for key, glyph, delta in (("first", "|◀", -10**6), ("back", "◀", -1), ("forward", "▶", 1),
                                  ("last", "▶|", 10**6)):
            button = QToolButton(self)
            button.setText(glyph)
            button.setObjectName(key)
            button.clicked.connect(lambda _c=False, d=delta: self.step(d))
            row.addWidget(button)
            self.buttons[key] = button
        row.addStretch(1)
        layout = QVBoxLayout(self)
        layout.addWidget(self.summary)
        layout.addLayout(row)
        layout.addWidget(self.moves, 1)
        i18n.notifier.language_changed.connect(self._retranslate)
        self._retranslate()

    # ---- state -------------------------------------------------------------

    def result(self) -> SolveResult | None:
        """The result shown (None before a search ends)."""
        return self._result

    def line(self) -> tuple[str, ...]:
        """The main line shown, USI."""
        return self._line

    def ply(self) -> int:
        """The ply shown (0 = start)."""
        return max(0, self.moves.currentRow())

    def move_texts(self) -> list[str]:
        """The move list's texts after the start row."""
        return [self.moves.item(i).text() for i in range(1, self.moves.count())]

    def position_at(self, ply: int) -> tuple[Position, Move | None]:
        """The position after ``ply`` moves of the main line, and the last move.

        Raises:
            ValueError: a move of the line does not fit its position.
        """
        if 0 <= ply < len(self._sfens):
            last = Move.from_usi(self._line[ply - 1]) if ply else None
            return Position.from_sfen(self._sfens[ply]), last
        return _play(self._start, self._line[:ply])

    # ---- commands -----------------------------------------------------------

    def set_searching(self, start: Position) -> None:
        """A search from ``start`` began: no result yet."""
        self._start = start.copy()
        self._result = None
        self._line = ()
        self._searching = True
        self._stopped = False
        self._progress = None
        self._fill()

    def set_progress(self, progress: Progress, limit: float | None) -> None:
        """A running search's snapshot: the summary names its phase, time against ``limit``, nodes."""
        if self._searching:
            self._progress, self._limit = progress, limit
            self._update_summary()

    def set_stopped(self, start: Position, at_least: int | None = None, at_most: int | None = None) -> None:
        """The search from ``start`` was stopped: no answer, and the panel says so (not "not solved"),
        with the bounds of the length the shortest search had proved, when it had."""
        self.set_result(start, None)
        self._stopped = True
        self._stopped_bounds = (at_least, at_most)
        self._update_summary()

    def is_stopped(self) -> bool:
        """True while the panel shows a stopped search."""
        return self._stopped

    def set_result(self, start: Position, result: SolveResult | None, helpmate: bool = False) -> None:
        """Show ``result`` of a search from ``start`` (None clears the panel)."""
        self._start = start.copy()
        self._result = result
        self._helpmate = helpmate
        self._searching = False
        self._stopped = False
        self._line = tuple(result.pv) if result is not None and result.status is SolveStatus.MATE else ()
        self._fill()

    def set_ply(self, ply: int) -> None:
        """Show the position after ``ply`` moves (clamped to the line)."""
        if not self._line:
            return
        ply = max(0, min(ply, len(self._line)))
        if ply != self.moves.currentRow():
            self.moves.setCurrentRow(ply)

    def step(self, delta: int) -> None:
        """Step ``delta`` plies along the main line (large values go to an end)."""
        self.set_ply(self.ply() + delta)

    # ---- internals --------------------------------------------------------

    def _fill(self) -> None:
        self.moves.blockSignals(True)
        self.moves.clear()
        self._sfens = []
        if self._line:
            self.moves.addItem(QListWidgetItem(tr("Start position")))
            for n, text in enumerate(move_texts(self._start, self._line), start=1):
                self.moves.addItem(QListWidgetItem(f"{n:>3}  {text}"))
            self._sfens = self._line_sfens()
            self.moves.setCurrentRow(0)
        self.moves.blockSignals(False)
        for button in self.buttons.values():
            button.setEnabled(bool(self._line))
        self._update_summary()

    def _line_sfens(self) -> list[str]:
        """SFEN after each ply of the line, from one replay (stepping long lines stays quick)."""
        pos = self._start.copy()
        out = [pos.sfen()]
        try:
            for usi in self._line:
                pos.push(parse_move(pos, usi))
                out.append(pos.sfen())
        except ValueError:
            pass   # position_at replays (and reports) from the first move that does not fit
        return out

    def _update_summary(self) -> None:
        if self._searching:
            p = self._progress
            if p is None:
                self.summary.setText(tr("Searching…"))
                return
            lines = [phase_text(p) or tr("Searching…"), time_text(p.elapsed, self._limit),
                     tr("Nodes %1").replace("%1", f"{p.nodes:,}")]
            self.summary.setText("\n".join(lines))
        elif self._stopped:
            bounds = bounds_list(*self._stopped_bounds)
            self.summary.setText(tr("Stopped: no answer. The shortest search had proved: %1.").replace("%1", bounds)
                                 if bounds else tr("Stopped: no answer. Press Solve to search again."))
        elif self._result is None:
            self.summary.setText(tr("Not solved yet. Press Solve to search."))
        else:
            self.summary.setText(status_text(self._result, self._helpmate))

    @Slot(int)
    def _on_row_changed(self, row: int) -> None:
        if row >= 0:
            self.plyChanged.emit(row)

    def _retranslate(self, _lang: str = "") -> None:
        for key, text in (("first", "First"), ("back", "Back"), ("forward", "Forward"), ("last", "Last")):
            self.buttons[key].setToolTip(tr(text))
        if self._line and self.moves.count():
            self.moves.item(0).setText(tr("Start position"))
        self._update_summary()


class _PositionList(QWidget):
    """A list of positions to look at; clicking one asks to show it.

    Signals:
        positionRequested(object, object): a Position and the Move to highlight (or None).
    """

    positionRequested = Signal(object, object)

    def __init__(self, empty_text: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._empty_text = empty_text
        self._note_key: str | None = NOT_SOLVED   # shown whatever the rows; None: the empty text if no rows
        self._start = Position.empty()
        self._lines: list[tuple[str, ...]] = []
        self.list = QListWidget(self)
        self.list.setWordWrap(True)
        self.list.currentRowChanged.connect(self._on_row)
        self.list.itemClicked.connect(lambda item: self._on_row(self.list.row(item)))
        self.note = QLabel(self)
        self.note.setWordWrap(True)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(2, 2, 2, 2)
        layout.addWidget(self.note)
        layout.addWidget(self.list, 1)
        i18n.notifier.language_changed.connect(self._retranslate)
        self._retranslate()

    def count(self) -> int:
        return self.list.count()

    def texts(self) -> list[str]:
        return [self.list.item(i).text() for i in range(self.list.count())]

    def _set_rows(self, start: Position, rows: list[tuple[tuple[str, ...], str, str]],
                  note: str | None = None) -> None:
        """Rows of (line to show, text, tooltip), and a note (untranslated) to show above them."""
        self._note_key = note
        self._start = start.copy()
        self._lines = [line for line, _t, _tip in rows]
        self.list.blockSignals(True)
        self.list.clear()
        for _line, text, tip in rows:
            item = QListWidgetItem(text)
            item.setToolTip(tip)
            self.list.addItem(item)
        self.list.blockSignals(False)
        self._retranslate()

    def select(self, row: int) -> None:
        """Pick row ``row`` as a click would."""
        self.list.setCurrentRow(row)
        self._on_row(row)

    @Slot(int)
    def _on_row(self, row: int) -> None:
        if 0 <= row < len(self._lines):
            try:
                pos, last = _play(self._start, self._lines[row])
            except ValueError:
                return
            self.positionRequested.emit(pos, last)

    def _retranslate(self, _lang: str = "") -> None:
        key = self._note_key if self._note_key is not None else (self._empty_text if not self._lines else None)
        self.note.setText(tr(key) if key is not None else "")
        self.note.setVisible(key is not None)


class FutilePanel(_PositionList):
    """The futile interpositions (無駄合) the proof pruned, each with its reason.

    Clicking one shows the position after the interposition, the
    interposed piece highlighted.
    """

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__("No futile interpositions were pruned.", parent)
        self._proof: Proof | None = None
        self._none_note = NOT_SOLVED
        i18n.notifier.language_changed.connect(self._refill)

    @Slot(str)
    def _refill(self, _lang: str = "") -> None:
        row = self.list.currentRow()
        self.set_proof(self._proof, self._none_note)
        self.list.blockSignals(True)
        self.list.setCurrentRow(row)
        self.list.blockSignals(False)

    def set_proof(self, proof: Proof | None, note: str = NOT_SOLVED) -> None:
        """List the futile interpositions of ``proof``.

        None empties the list and shows ``note`` (untranslated; it says why
        there is nothing: not solved yet, no mate, no proof tree).
        """
        self._proof = proof
        self._none_note = note
        if proof is None:
            self._set_rows(Position.empty(), [], note)
            return
        start = Position.from_sfen(proof.sfen)
        rows = []
        for f in ordered_futile(proof):   # in ply order, each once
            rows.append(self._row(start, f, proof))
        self._set_rows(start, rows, PROVISIONAL_FUTILE_NOTE if proof.provisional else None)

    @staticmethod
    def _row(start: Position, f: FutileInterposition, proof: Proof) -> tuple[tuple[str, ...], str, str]:
        texts = move_texts(start, list(f.path) + [f.move])
        moves = [f.move] + [m for m in f.moves if m != f.move]
        head = texts[-1]
        if len(moves) > 1 and all("*" in m and m[2:] == f.move[2:] for m in moves):
            # Every drop on one square: name the square once, then the pieces.
            pieces = "・".join(KANJI_MOVE[LETTER_TYPES[m[0]]] for m in moves)
            head = f"{head[:3]}{pieces}打" if head[:1] in "▲△" else head
        text = f"{len(f.path) + 1}: {head}  —  {reason_text(f.reason)}  [{branch_text(start, proof, f.path)}]"
        tip = " ".join(f.path + (f.move,)) + "\n" + f.reason.english()
        return (tuple(f.path) + (f.move,), text, tip)


def branch_text(start: Position, proof: Proof, path: tuple[str, ...]) -> str:
    """Which line ``path`` is on: the main line, or the variation from its first move off it."""
    off = branch_of(proof, tuple(path))
    if off is None:
        return tr("on the main line")
    ply, _usi = off
    try:
        move = move_texts(start, list(path[:ply]))[-1]
    except ValueError:
        move = path[ply - 1]
    return tr("variation %1").replace("%1", f"{ply} {move}")


def reason_text(reason: Futility) -> str:
    """A futile interposition's reason in the interface language (the core renders both)."""
    return reason.japanese() if i18n.language() == "ja" else reason.english()


class AlternativesPanel(_PositionList):
    """余詰 candidates: other attacker moves that also mate within the stated length.

    For a helpmate (:meth:`set_helpmates`) it lists the other shortest
    helpmates, each as its whole line; clicking one shows its mate.
    """

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__("No alternative mates found.", parent)
        self._shown: tuple[Position | None, tuple[Alternative | Finding, ...], bool, str, int] = (
            None, (), True, NOT_SOLVED, 0)
        self._helpmates: tuple[Position, HelpmateAnswer] | None = None
        i18n.notifier.language_changed.connect(self._refill)

    @Slot(str)
    def _refill(self, _lang: str = "") -> None:
        if self._helpmates is not None:
            self.set_helpmates(*self._helpmates)
        else:
            self.set_alternatives(*self._shown)

    def set_alternatives(self, start: Position | None, alternatives: Sequence[Alternative | Finding],
                         checked: bool = True, note: str = NOT_SOLVED, checked_to: int = 0) -> None:
        """List ``alternatives`` found from ``start``.

        :class:`~tsume_studio.core.answer.Finding` rows (from
        :func:`~tsume_studio.core.answer.classify_alternatives` and
        :func:`~tsume_studio.core.answer.classify_variations`) are named as
        composers name them: 余詰, 成不成非限定, 変同, 駒余り.

        ``checked`` False says the search for them was skipped or did not
        finish, so the list may be incomplete; ``checked_to`` then names the
        ply of the main line up to which it is complete (0: none).  ``start``
        None empties the list and shows ``note`` (untranslated; by default
        "not solved yet").
        """
        self._shown = (start, tuple(alternatives), checked, note, checked_to)
        self._helpmates = None
        if start is None:
            self._set_rows(Position.empty(), [], note)
            return
        rows = []
        for a in alternatives:
            text = move_texts(start, list(a.path) + [a.move])[-1]
            length = tr("mate in %1").replace("%1", str(a.length)) if a.length is not None else "?"
            name = tr(FINDING_LABELS.get(a.kind, a.kind)) + "  " if isinstance(a, Finding) else ""
            if isinstance(a, Finding) and a.kind == "pieces_left" and a.length == 0:
                length = tr("the main line's mate")
            rows.append((tuple(a.path) + (a.move,), f"{len(a.path) + 1}: {name}{text}  ({length})",
                         " ".join(a.path + (a.move,))))
        unchecked = (i18n.Message(CHECKED_TO_ALTERNATIVES, str(checked_to)) if checked_to > 0
                     else NOT_CHECKED_ALTERNATIVES)
        self._set_rows(start, rows, None if checked else unchecked)

    def set_helpmates(self, start: Position, answer: HelpmateAnswer) -> None:
        """List the shortest helpmates of ``answer`` other than its first (the main line)."""
        self._helpmates = (start, answer)
        rows = []
        for k, line in enumerate(answer.solutions[1:], start=2):
            try:
                text = " ".join(move_texts(start, line))
            except ValueError:
                text = " ".join(line)
            rows.append((tuple(line), f"{k}: {text}", " ".join(line)))
        self._set_rows(start, rows, helpmate_note(answer))


def helpmate_note(answer: HelpmateAnswer) -> str | None:
    """What the 余詰 panel says about a helpmate's other solutions (untranslated), or None."""
    if not answer.checked:
        return "Not checked: other helpmates of this length were not searched for."
    if answer.capped:
        return "More helpmates of this length exist than are listed."
    if not answer.complete:
        return "Not checked completely: the search for other helpmates stopped at a limit."
    if len(answer.solutions) <= 1:
        return "No other helpmate of this length."
    return None


class CompactNumberDelegate(QStyledItemDelegate):
    """Shows a number that does not fit its cell compactly (``1.2M``, ``34k``).

    The model's tooltip keeps the exact value.
    """

    def initStyleOption(self, option: QStyleOptionViewItem,  # noqa: N802 - Qt API
                        index: QModelIndex | QPersistentModelIndex) -> None:
        super().initStyleOption(option, index)
        text = option.text
        if not text.isdigit():
            return
        widget = option.widget
        style = widget.style() if widget is not None else QApplication.style()
        margin = style.pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin, None, widget) + 1
        if option.fontMetrics.horizontalAdvance(text) > option.rect.width() - 2 * margin:
            option.text = compact_number(int(text))


class _TreePanel(QWidget):
    """A tree view over one of the models; selecting a node asks to show its position.

    Signals:
        positionRequested(object, object): a Position and the Move to highlight (or None).
    """

    positionRequested = Signal(object, object)
    # Digits the pn and dn columns show before a number is written compactly ("12k").
    NUMBER_DIGITS = 6

    def __init__(self, model: SearchTreeModel | ProofTreeModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.model = model
        self.view = QTreeView(self)
        self.view.setModel(model)
        self.view.setUniformRowHeights(True)
        self.view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.view.setAlternatingRowColors(False)
        self.numbers = CompactNumberDelegate(self.view)
        for col in (COL_PN, COL_DN):
            self.view.setItemDelegateForColumn(col, self.numbers)
        header = self.view.header()
        # Numbers first, the moves last: deep nodes indent to the right without
        # pushing pn/dn out of sight (the view scrolls sideways instead).  Only
        # the move column sizes to its contents.
        self.view.setIndentation(12)
        header.setStretchLastSection(False)
        header.setSectionResizeMode(COL_MOVE, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionsMovable(False)
        width = self.fontMetrics().horizontalAdvance("0" * self.NUMBER_DIGITS)
        for col in range(1, model.columnCount()):
            header.setSectionResizeMode(col, QHeaderView.ResizeMode.Interactive)
        self._fit_number_columns()
        i18n.notifier.language_changed.connect(self._fit_number_columns)
        header.moveSection(header.visualIndex(COL_MOVE), model.columnCount() - 1)
        self.view.setTreePosition(COL_MOVE)
        header.setMinimumSectionSize(width)
        self.view.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAsNeeded)
        self.view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.view.selectionModel().selectionChanged.connect(self._on_selection)
        self.note = QLabel(self)
        self.note.setWordWrap(True)
        self._note_key: str | None = NOT_SOLVED
        layout = QVBoxLayout(self)
        layout.setContentsMargins(2, 2, 2, 2)
        layout.addWidget(self.note)
        layout.addWidget(self.view, 1)
        i18n.notifier.language_changed.connect(self._show_note)
        self._show_note()

    def set_note(self, key: str | None) -> None:
        """Show ``key`` (untranslated) above the tree, or no note for None."""
        self._note_key = key
        self._show_note()

    @Slot(str)
    def _show_note(self, _lang: str = "") -> None:
        self.note.setText(tr(self._note_key) if self._note_key is not None else "")
        self.note.setVisible(self._note_key is not None)

    @Slot(str)
    def _fit_number_columns(self, _lang: str = "") -> None:
        """Width of NUMBER_DIGITS digits (the usual roles' words for the role), or of the header's text if wider."""
        header = self.view.header()
        metrics = header.fontMetrics()
        digits = metrics.horizontalAdvance("0" * self.NUMBER_DIGITS)
        # The usual roles in full; a rarer, longer one (余詰, 成不成) is elided, its tooltip whole.
        role = max(metrics.horizontalAdvance(text) for text in common_role_texts()) + 16
        for col in range(1, self.model.columnCount()):
            title = str(self.model.headerData(col, Qt.Orientation.Horizontal) or "")
            base = role if col == COL_ROLE else digits
            header.resizeSection(col, max(base, metrics.horizontalAdvance(title) + 16))

    def select(self, index: QModelIndex) -> None:
        """Select (and show) the node of ``index``."""
        self.view.setCurrentIndex(index)
        self.view.scrollTo(index)

    @Slot(QItemSelection, QItemSelection)
    def _on_selection(self, selected: QItemSelection, _deselected: QItemSelection) -> None:
        indexes = selected.indexes()
        if not indexes:
            return
        path = self.model.path(indexes[0])
        try:
            pos, last = _play(self.model.start_position(), path)
        except ValueError:
            return
        self.positionRequested.emit(pos, last)


class ProofTreePanel(_TreePanel):
    """The proof-tree browser: every defence with its answer, pn/dn, role."""

    # A proof's pn/dn are mostly 0 and ∞: narrow columns leave the moves their room.
    NUMBER_DIGITS = 3

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(ProofTreeModel(), parent)

    def set_proof(self, proof: Proof | None, note: str | None = NOT_SOLVED) -> None:
        """Show ``proof`` with its main line opened.

        None empties the view and shows ``note`` (untranslated) saying why.
        """
        model: ProofTreeModel = self.model  # type: ignore[assignment]
        model.set_proof(proof)
        self.set_note(note if proof is None else PROVISIONAL_NOTE if proof.provisional
                      else TREE_CUT_NOTE if not proof.tree_complete else None)
        if proof is not None:
            for ply in range(1, min(len(proof.main_line), 40) + 1):
                self.view.expand(model.main_line_index(ply))


class SearchTreePanel(_TreePanel):
    """The live pn/dn tree of a running search."""

    # Plies of the current path kept open at most, and at least however narrow the panel.
    FOLLOW_DEPTH = 12
    MIN_FOLLOW_DEPTH = 2

    def __init__(self, parent: QWidget | None = None) -> None:
        self._after_proof: Progress | None = None
        super().__init__(SearchTreeModel(), parent)
        self.follow = True   # keep the current path expanded
        # Below the tree: what the search does once df-pn's proof (the tree) is done.
        self.phase_note = QLabel(self)
        self.phase_note.setObjectName("phase_note")
        self.phase_note.setWordWrap(True)
        self.phase_note.setVisible(False)
        layout = self.layout()
        assert layout is not None
        layout.addWidget(self.phase_note)
        i18n.notifier.language_changed.connect(self._show_phase)

    def reset(self, start: Position, note: str | None = NOT_SOLVED) -> None:
        """Empty the tree for a search from ``start`` (``note`` says why it is empty)."""
        model: SearchTreeModel = self.model  # type: ignore[assignment]
        model.reset(start)
        self.set_note(note)
        self._after_proof = None
        self._show_phase()

    def update_progress(self, progress: Progress) -> None:
        """Merge a snapshot; with ``follow`` the current path stays open (as deep as :meth:`follow_depth`).

        After df-pn's proof the tree no longer changes: the note below it says
        what runs instead (the phase, its question and bounds, nodes, time).
        """
        if progress.phase not in (None, SearchPhase.MATE):
            self._after_proof = progress
            self._show_phase()
            return
        model: SearchTreeModel = self.model  # type: ignore[assignment]
        model.update(progress)
        if self._note_key is not None and model.node_count():
            self.set_note(None)
        if self.follow:
            path = model.current_path()
            for n in range(1, min(len(path), self.follow_depth()) + 1):
                self.view.expand(model.index_of_path(path[:n]))

    def follow_depth(self) -> int:
        """Plies of the current path to open: as many as leave its deepest row's move readable.

        Each ply indents a row; past the depth where a usual long move
        (``common_move_texts``, bold as on the path) no longer fits between
        pn/dn and the panel's right edge, the moves would be cut there.  So
        the tree opens the path that deep (FOLLOW_DEPTH at most, MIN_FOLLOW_DEPTH
        at least); deeper nodes are one click away.  A few font measurements a
        snapshot: the move column itself still sizes to its contents.
        """
        view = self.view
        font = QFont(view.font())
        font.setBold(True)
        metrics = QFontMetrics(font)
        margin = view.style().pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin, None, view) + 1
        move = max(metrics.horizontalAdvance(text) for text in common_move_texts()) + 2 * margin
        # The width the rows get once the path is open: a long tree shows its vertical scroll bar
        # then, even when the rows before the expansion did not need it.
        width = view.viewport().width()
        bar = view.verticalScrollBar()
        if not bar.isVisible():
            width -= view.style().pixelMetric(QStyle.PixelMetric.PM_ScrollBarExtent, None, bar)
        # A row at depth d (the root's children at 1) starts d indents into the move column.
        room = width - view.header().sectionPosition(COL_MOVE) - move
        deepest_row = room // max(view.indentation(), 1)
        return max(self.MIN_FOLLOW_DEPTH, min(self.FOLLOW_DEPTH, deepest_row - 1))

    def search_ended(self) -> None:
        """The search ended: no note of what it is doing any more."""
        self._after_proof = None
        self._show_phase()

    @Slot(str)
    def _show_phase(self, _lang: str = "") -> None:
        p = self._after_proof
        if p is not None:
            self.phase_note.setText(tr("Mate is proved; the tree above is that proof, complete. Now: %1. %2, %3.")
                                    .replace("%1", phase_text(p))
                                    .replace("%2", tr("Nodes %1").replace("%1", f"{p.nodes:,}"))
                                    .replace("%3", tr("%1 s").replace("%1", f"{p.elapsed:.1f}")))
        self.phase_note.setVisible(p is not None)


# ---- the check of a record's main line (作意) ---------------------------------------

add_translations("ja", {
    "Check (作意)": "作意の検討",
    "Check the main line": "本譜を検討",
    "Write into record": "棋譜に記入",
    "Checking the main line against the official answer…": "本譜を正解手順と照合しています…",
    "Open or write a record with a main line, then check it against the official answer.":
        "本譜のある棋譜を開くか作ってから、正解手順と照合します。",
    "Confirmed: the main line is the official answer, mate in %1.": "作意どおり：本譜は正解手順です（%1手詰）。",
    "Not confirmed: %1 (the official answer is mate in %2; the main line has %3 plies).":
        "作意と相違：%1（正解は%2手詰、本譜は%3手）。",
    "Unknown: the exact length was not proved within the limits.": "不明：制限時間内に手数を確定できませんでした。",
    "Unknown: the exact length was not proved within the limits (%1).":
        "不明：制限時間内に手数を確定できませんでした（%1）。",
    "Not confirmed: the main line mates too soon. No mate within its %1 plies exists (%2), so a defence "
    "it misses lasts longer (変長); where was not found within the limits.":
        "作意と相違：本譜は早く詰みすぎています。%1手以内の詰みはない（%2）ので、本譜が見落とした受けで"
        "長く逃れられます（変長）。その箇所は制限内に特定できませんでした。",
    "Not confirmed: %1. The exact length was not proved (%2); the main line has %3 plies, "
    "and the other plies were not examined.":
        "作意と相違：%1（手数は未確定、%2。本譜は%3手、ほかの手は未検討）。",
    "Not confirmed: the main line mates too soon. No mate within its %1 plies exists (%2), so a defence "
    "it misses lasts longer (変長); where was not found before the check was stopped.":
        "作意と相違：本譜は早く詰みすぎています。%1手以内の詰みはない（%2）ので、本譜が見落とした受けで"
        "長く逃れられます（変長）。その箇所は中止までに特定できませんでした。",
    "Stopped: what is listed is proved; the rest was not examined.":
        "中止しました。一覧は証明済みのもので、残りは未検討です。",
    "Cut short by the limits: what is listed is proved; the rest was not examined.":
        "制限で打ち切り：一覧は証明済みですが、残りは未検討です。",
    "Stopped before the check ended.": "検討を中止しました。",
    "ply %1": "%1手目",
    "the main line": "本譜",
    "Shorter mate (早詰)": "早詰",
    "Alternative mate (余詰)": "余詰",
    "Either promotion (成不成非限定)": "成不成非限定",
    "Longer defence (変長)": "変長",
    "Futile-interposition judgement (無駄合)": "無駄合の判定",
    "Pieces left in hand (駒余り)": "駒余り",
    "the attacker can mate sooner": "より短い詰みがあります",
    "another move also mates in time": "別の手でも詰みます",
    "the same move with the other promotion choice also mates in time": "成・不成のどちらでも詰みます",
    "this defence lasts longer": "この応手のほうが長く逃れます",
    "the line counts a futile interposition, or a counted defence remains": "無駄合の扱いが正解と異なります",
    "the mate leaves pieces in the attacker's hand": "詰め上がりで攻め方の持駒が余ります",
})

#: The name of each kind of discrepancy (untranslated).
KIND_LABELS = {
    "shorter_mate": "Shorter mate (早詰)",
    "alternative": "Alternative mate (余詰)",
    "promotion_choice": "Either promotion (成不成非限定)",
    "longer_defence": "Longer defence (変長)",
    "futile_judgement": "Futile-interposition judgement (無駄合)",
    "pieces_left": "Pieces left in hand (駒余り)",
}
#: What each kind of discrepancy means (untranslated; shown in the row's tooltip and after its name).
KIND_HELP = {
    "shorter_mate": "the attacker can mate sooner",
    "alternative": "another move also mates in time",
    "promotion_choice": "the same move with the other promotion choice also mates in time",
    "longer_defence": "this defence lasts longer",
    "futile_judgement": "the line counts a futile interposition, or a counted defence remains",
    "pieces_left": "the mate leaves pieces in the attacker's hand",
}
CHECK_EMPTY = "Open or write a record with a main line, then check it against the official answer."


class CheckPanel(_PositionList):
    """The check of a record's main line against the official answer (作意の検討).

    The verdict on top; one row per discrepancy (its kind, the ply, the
    move), clicking it shows its line on the board.  "Check the main line"
    asks for a check; "Write into record" asks to put the lines and their
    names into the record.

    Signals:
        checkRequested(): the user asked for a check.
        writeRequested(): the user asked to write the result into the record.
    """

    checkRequested = Signal()
    writeRequested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        self._shown: tuple[Position | None, CheckResult | None, str | None] = (None, None, CHECK_EMPTY)
        self._stopped = False
        super().__init__(CHECK_EMPTY, parent)
        self._note_key = CHECK_EMPTY
        self.check_button = QPushButton(self)
        self.write_button = QPushButton(self)
        self.check_button.setObjectName("check_main_line")
        self.write_button.setObjectName("write_check")
        self.check_button.clicked.connect(lambda _c=False: self.checkRequested.emit())
        self.write_button.clicked.connect(lambda _c=False: self.writeRequested.emit())
        self.write_button.setEnabled(False)
        buttons = QHBoxLayout()
        buttons.addWidget(self.check_button)
        buttons.addWidget(self.write_button)
        buttons.addStretch(1)
        layout = self.layout()
        assert isinstance(layout, QVBoxLayout)
        layout.insertLayout(0, buttons)
        i18n.notifier.language_changed.connect(self._refill)
        self._retranslate()

    def set_checking(self) -> None:
        """Say that a check runs (the list empties)."""
        self.write_button.setEnabled(False)
        self._shown = (None, None, "Checking the main line against the official answer…")
        self._set_rows(Position.empty(), [], self._shown[2])

    def set_progress(self, text: str) -> None:
        """Say what the running check does (``text``: translated already, e.g. :func:`phase_text`'s)."""
        self._shown = (None, None, text)
        self._set_rows(Position.empty(), [], text)

    def set_stopped(self, detail: str = "") -> None:
        """Say that the check was stopped (``detail``, translated: what it had proved by then)."""
        note = "Stopped before the check ended."
        if detail:   # within the sentence, before its full stop: "... ended (proved: ...)."
            head = tr(note)
            japanese = head.endswith("。")
            opened, closed = ("（", "）") if japanese else (" (", ")")
            note = f"{head[:-1]}{opened}{detail}{closed}{head[-1]}"
        self._shown = (None, None, note)
        self._set_rows(Position.empty(), [], self._shown[2])

    def clear(self) -> None:
        """Back to the empty panel (the record changed)."""
        self.write_button.setEnabled(False)
        self._shown = (None, None, CHECK_EMPTY)
        self._set_rows(Position.empty(), [], CHECK_EMPTY)

    def set_result(self, start: Position, result: CheckResult, stopped: bool = False) -> None:
        """Show a :class:`~tsume_studio.core.check.CheckResult` of a line from ``start`` (``stopped``:
        what a check stopped by the user had proved)."""
        self._stopped = stopped
        self._shown = (start, result, None)
        rows = []
        for d in result.discrepancies:
            texts = move_texts(start, list(d.line))
            name = tr(KIND_LABELS.get(d.kind, d.kind))
            where = tr("ply %1").replace("%1", str(d.ply))
            rows.append((tuple(d.line), f"{where}  {name}: {texts[-1]}",
                         tr(KIND_HELP.get(d.kind, d.kind)) + "\n" + " ".join(d.line)))
        self._set_rows(start, rows, None)
        self.write_button.setEnabled(self.writable(result))

    @staticmethod
    def writable(result: CheckResult) -> bool:
        """True when ``result`` has something to write into the record: a verdict on a proved
        length, or discrepancies a bound proved."""
        return result.length is not None or bool(result.discrepancies) or result.too_short

    def verdict(self) -> str:
        """The verdict line as shown (translated)."""
        return self.note.text()

    @Slot(str)
    def _refill(self, _lang: str = "") -> None:
        start, result, note = self._shown
        if start is not None and result is not None:
            self.set_result(start, result, self._stopped)
        else:
            self._set_rows(Position.empty(), [], note)

    def _retranslate(self, _lang: str = "") -> None:
        if hasattr(self, "check_button"):
            self.check_button.setText(tr("Check the main line"))
            self.write_button.setText(tr("Write into record"))
        start, result, _note = self._shown
        if start is None or result is None:
            super()._retranslate()
            return
        self.note.setText(self._verdict_text(result, self._stopped))
        self.note.setVisible(True)

    @staticmethod
    def _kinds_text(result: CheckResult) -> str:
        """The kinds of ``result``'s discrepancies, each once, in the interface language."""
        sep = "・" if i18n.language() == "ja" else ", "
        return sep.join(dict.fromkeys(tr(KIND_LABELS.get(d.kind, d.kind)) for d in result.discrepancies))

    @staticmethod
    def _verdict_text(result: CheckResult, stopped: bool = False) -> str:
        if result.length is None:
            if not result.discrepancies and result.too_short:
                text = (tr("Not confirmed: the main line mates too soon. No mate within its %1 plies exists "
                           "(%2), so a defence it misses lasts longer (変長); where was not found within the "
                           "limits.") if not stopped else
                        tr("Not confirmed: the main line mates too soon. No mate within its %1 plies exists "
                           "(%2), so a defence it misses lasts longer (変長); where was not found before the "
                           "check was stopped."))
                return text.replace("%1", str(len(result.given))).replace("%2", bounds_text(result.at_least,
                                                                                             result.at_most))
            if not result.discrepancies:
                bounds = bounds_text(result.at_least, result.at_most)
                if bounds:
                    return tr("Unknown: the exact length was not proved within the limits (%1).").replace("%1", bounds)
                return tr("Unknown: the exact length was not proved within the limits.")
            # A proved bound refuted the main line all the same.
            kinds = CheckPanel._kinds_text(result)
            return (tr("Not confirmed: %1. The exact length was not proved (%2); the main line has %3 plies, "
                       "and the other plies were not examined.")
                    .replace("%1", kinds).replace("%2", bounds_text(result.at_least, result.at_most))
                    .replace("%3", str(len(result.given))))
        if result.confirmed:
            return tr("Confirmed: the main line is the official answer, mate in %1.").replace(
                "%1", str(result.length))
        kinds = CheckPanel._kinds_text(result) or "—"
        text = (tr("Not confirmed: %1 (the official answer is mate in %2; the main line has %3 plies).")
                .replace("%1", kinds).replace("%2", str(result.length)).replace("%3", str(len(result.given))))
        if not result.complete:
            text += "\n" + (tr("Stopped: what is listed is proved; the rest was not examined.") if stopped else
                            tr("Cut short by the limits: what is listed is proved; the rest was not examined."))
        return text

"""The study board: moves played on the board build a tree of lines, shown in the record panel.

:class:`StudyController` turns the board's move requests into moves of a
:class:`~tsume_studio.core.study.StudyTree` over the editor's record (the one
opened from a file, or a new one for the position on the board), asking 成/不成
when promotion is optional and naming the rule an illegal move breaks.
:class:`RecordPanel` shows the current line (numbered, Japanese move texts,
``+`` where a move has 変化), the variations of the current move, and the
comment of the current move, which it edits.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import TypeVar

from PySide6.QtCore import QObject, QPoint, Qt, Signal
from PySide6.QtGui import QAction, QCursor, QUndoCommand, QUndoStack
from PySide6.QtWidgets import (
    QFrame, QLabel, QListWidget, QListWidgetItem, QMenu, QPlainTextEdit, QPushButton, QSplitter, QVBoxLayout,
    QWidget,
)

from ..core.editing import Spot
from ..core.records.model import Record, RecordNode
from ..core.shogi.moves import Move, japanese
from ..core.shogi.position import Position
from ..core.study import (
    IllegalReason, Path, StudyMoveError, StudyTree, add_line, illegal_reason, line_rows, merge_record,
    promotion_choices,
    terminal,
)
from . import i18n
from .i18n import tr

__all__ = ["RecordPanel", "StudyController"]

i18n.add_translations("ja", {
    "Study mode": "検討モード",
    "Play moves on the board to try lines; the record panel shows them":
        "盤上で指して変化を検討します。棋譜欄に表示されます",
    "Record": "棋譜",
    "Start": "開始局面",
    "Variations": "変化",
    "Comment": "コメント",
    "Promote to main line": "本譜にする",
    "Delete from here": "ここから削除",
    "Previous variation": "前の変化",
    "Next variation": "次の変化",
    "Promote": "成",
    "Do not promote": "不成",
    "Illegal move: %1": "指せない手です: %1",
    "Cannot play here: %1": "指せません: %1",
    IllegalReason.INVALID_POSITION.value: "この局面では指せません",
    IllegalReason.NO_PIECE.value: "そのマスに駒がありません",
    IllegalReason.NOT_OWN_PIECE.value: "手番でない側の駒です",
    IllegalReason.NOT_IN_HAND.value: "その駒を持っていません",
    IllegalReason.OCCUPIED.value: "駒は空いたマスにしか打てません",
    IllegalReason.OWN_PIECE_ON_TARGET.value: "自分の駒があるマスです",
    IllegalReason.UNREACHABLE.value: "その駒はそのマスに行けません",
    IllegalReason.CANNOT_PROMOTE.value: "この手では成れません",
    IllegalReason.MUST_PROMOTE.value: "成らないと行き所のない駒になります",
    IllegalReason.DEAD_DROP.value: "そこに打つと行き所のない駒になります",
    IllegalReason.NIFU.value: "二歩です",
    IllegalReason.PAWN_DROP_MATE.value: "打ち歩詰めです",
    IllegalReason.SELF_CHECK.value: "自玉が取られる手です（王手放置・自殺手）",
    "Play move": "着手",
    "Promote variation": "変化を本譜に",
    "Delete moves": "指し手の削除",
    "Edit comment": "コメント編集",
    "Add answer": "解答の追加",
    "Write check": "作意の検討結果を記入",
    "Keep answer in record": "解答を棋譜に残す",
    "Solver's answer (not in the record yet):": "解図の解答（棋譜にはまだ入っていません）:",
    "Solver's answer after %1 (not in the record yet):": "%1 からの解答（棋譜にはまだ入っていません）:",
})

_T = TypeVar("_T")
_Snapshot = tuple[RecordNode, dict[str, str], Path]

# Asked when promotion is optional: the move without the flag; True to promote,
# False not to, None to cancel.
PromotionChooser = Callable[[Position, Move], "bool | None"]


def _ask_promotion(position: Position, move: Move) -> bool | None:
    """A small menu at the mouse: 成 or 不成 (Esc cancels)."""
    menu = QMenu()
    promote = menu.addAction(f"{tr('Promote')}  {japanese(position, Move(move.from_square, move.to_square, True))}")
    keep = menu.addAction(f"{tr('Do not promote')}  {japanese(position, move)}")
    choice: list[bool] = []
    promote.triggered.connect(lambda _c=False: choice.append(True))
    keep.triggered.connect(lambda _c=False: choice.append(False))
    menu.exec(QCursor.pos())
    return choice[0] if choice else None


class _StudyStep(QUndoCommand):
    """One edit of the move tree, undone and redone by putting back copies of the tree and header, and the cursor.

    ``source`` is the step's English name (the editor retranslates it).
    Consecutive comment edits of one move merge into one step.
    """

    COMMENT_ID = 0x5717

    def __init__(self, study: StudyController, record: Record, before: _Snapshot, after: _Snapshot,
                 source: str) -> None:
        super().__init__(tr(source))
        self.source = source
        self._study, self._record = study, record
        self._before, self._after = before, after
        self._pushed = False

    def id(self) -> int:
        return self.COMMENT_ID if self.source == "Edit comment" else -1

    def mergeWith(self, other: QUndoCommand) -> bool:  # noqa: N802 - Qt API
        if not (isinstance(other, _StudyStep) and other._record is self._record
                and other._before[2] == self._after[2]):
            return False
        self._after = other._after
        return True

    def redo(self) -> None:
        if self._pushed:       # the first redo is the edit itself, already made
            self._study._restore(self._record, *self._after)
        self._pushed = True

    def undo(self) -> None:
        self._study._restore(self._record, *self._before)


class StudyController(QObject):
    """The study tree of the editor's record and the moves the user plays.

    ``record_source`` returns the record to study (the editor's, made when
    there is none); the controller edits it in place and says so.  With an
    ``undo_stack`` every edit of the tree is an undoable step there;
    ``adopt_record`` makes an undone step's record the editor's again.

    Signals:
        recordChanged(): the user changed the tree (a move added, a line
            promoted or deleted, a comment edited) or an answer was merged.
        cursorChanged(): the cursor moved (or the tree changed).
        moveRefused(str): a move was refused; the translated reason.
    """

    recordChanged = Signal()
    cursorChanged = Signal()
    moveRefused = Signal(str)

    def __init__(self, record_source: Callable[[], Record], parent: QObject | None = None,
                 undo_stack: QUndoStack | None = None,
                 adopt_record: Callable[[Record], None] | None = None) -> None:
        super().__init__(parent)
        self._source = record_source
        self._stack = undo_stack
        self._adopt = adopt_record
        self._tree: StudyTree | None = None
        self.choose_promotion: PromotionChooser = _ask_promotion

    def tree(self) -> StudyTree:
        """The tree over the current record (a new cursor when the record was replaced)."""
        record = self._source()
        if self._tree is None or self._tree.record is not record:
            self._tree = StudyTree(record)
        return self._tree

    def _edit(self, source: str, change: Callable[[StudyTree], _T]) -> _T:
        """Make ``change`` to the tree; when it changed something, push it as an undoable step."""
        tree = self.tree()
        before = self._snapshot(tree) if self._stack is not None else None
        done = change(tree)
        if done and self._stack is not None and before is not None:
            after = self._snapshot(tree)
            self._stack.push(_StudyStep(self, tree.record, before, after, source))
        return done

    @staticmethod
    def _snapshot(tree: StudyTree) -> _Snapshot:
        return copy.deepcopy(tree.record.root), dict(tree.record.header), tree.path()

    def _restore(self, record: Record, root: RecordNode, header: dict[str, str], path: Path) -> None:
        """Put back copies of ``root`` and ``header`` into ``record`` with the cursor on ``path`` (undo/redo)."""
        if self._adopt is not None:
            self._adopt(record)
        record.root = copy.deepcopy(root)
        record.header = dict(header)
        self._tree = StudyTree(record)
        self._tree.go_to(path)
        self.recordChanged.emit()
        self.cursorChanged.emit()

    def reset(self) -> None:
        """Forget the cursor (the record changed under it) and redraw."""
        self._tree = None
        self.cursorChanged.emit()

    # ---- moves -----------------------------------------------------------------

    def request(self, source: Spot, to: int) -> bool:
        """Play the piece of ``source`` (a board square or a hand slot) to ``to``; False if refused."""
        tree = self.tree()
        pos = tree.position()
        if source.kind == "hand":
            if source.color != pos.turn:
                return self._refuse(IllegalReason.NOT_OWN_PIECE)
            return self.play(Move(None, to, False, source.piece_type))
        choices = promotion_choices(pos, source.square, to)
        move = Move(source.square, to, False)
        if len(choices) == 2:
            answer = self.choose_promotion(pos, move)
            if answer is None:
                return False
            move = Move(source.square, to, answer)
        elif choices:
            move = Move(source.square, to, choices[0])
        return self.play(move)

    def play(self, move: Move) -> bool:
        """Play ``move`` at the cursor (reusing a line that has it); False if it is illegal."""
        try:
            added = self._edit("Play move", lambda t: t.play(move))
        except StudyMoveError as e:
            return self._refuse(e.reason)
        if added:
            self.recordChanged.emit()
        self.cursorChanged.emit()
        return True

    def _refuse(self, reason: IllegalReason) -> bool:
        self.moveRefused.emit(tr("Illegal move: %1").replace("%1", tr(reason.value)))
        return False

    def reason(self, move: Move) -> IllegalReason | None:
        """Why ``move`` is illegal at the cursor (None when it is legal)."""
        return illegal_reason(self.tree().position(), move)

    # ---- the cursor ----------------------------------------------------------------

    def _moved(self, changed: bool) -> bool:
        if changed:
            self.cursorChanged.emit()
        return changed

    def go_to(self, path: Path) -> None:
        """Put the cursor on ``path`` (a path of the tree)."""
        self.tree().go_to(path)
        self.cursorChanged.emit()

    def step(self, delta: int) -> bool:
        """``delta`` moves forward (positive) or back along the current line."""
        tree, before = self.tree(), self.tree().path()
        for _ in range(abs(delta)):
            if not (tree.forward() if delta > 0 else tree.back()):
                break
        return self._moved(tree.path() != before)

    def first(self) -> bool:
        """The start position."""
        before = self.tree().path()
        self.tree().go_start()
        return self._moved(before != ())

    def last(self) -> bool:
        """The end of the current line."""
        before = self.tree().path()
        self.tree().go_end()
        return self._moved(before != self.tree().path())

    def switch(self, delta: int) -> bool:
        """The previous (-1) or next (+1) variation of the current move."""
        return self._moved(self.tree().switch(delta))

    # ---- editing the tree -------------------------------------------------------------

    def promote(self) -> bool:
        """Make the current line the main line."""
        if self._edit("Promote variation", StudyTree.promote):
            self.recordChanged.emit()
            self.cursorChanged.emit()
            return True
        return False

    def delete(self) -> bool:
        """Delete the current move and what follows it."""
        if self._edit("Delete moves", StudyTree.delete):
            self.recordChanged.emit()
            self.cursorChanged.emit()
            return True
        return False

    def set_comment(self, text: str) -> bool:
        """Replace the comment of the current move (or of the start)."""
        if self._edit("Edit comment", lambda t: t.set_comment(text)):
            self.recordChanged.emit()
            return True
        return False

    def merge(self, answer: Record, length: int | None = None, path: Path = ()) -> int:
        """Merge a solver's answer into the tree at ``path`` (the user's lines stay); nodes added.

        With ``length`` (the proved length of the answer) a record without
        手数 gets it, in the same step, when the answer is the start's.

        Raises:
            ValueError: the answer does not start from the position at ``path``.
        """
        counted: list[int] = []

        def change(tree: StudyTree) -> bool:
            counted.append(tree.merge(answer, path))
            if length is not None and not path and not tree.record.header.get("手数", "").strip():
                tree.record.header["手数"] = str(length)
                return True
            return counted[0] > 0

        changed = self._edit("Add answer", change)
        added = counted[0]
        if changed:
            self.recordChanged.emit()
            self.cursorChanged.emit()
        return added

    def add_lines(self, lines: list[tuple[tuple[str, ...], str]], source: str = "Write check") -> bool:
        """Add each (USI line from the start, comment for its last node) to the tree, as one
        undoable step; True when the record changed.

        Raises:
            ValueError: a move of a line is not legal where it is played (nothing is changed).
        """
        record = self.tree().record
        trial = copy.deepcopy(record.root)
        probe = Record(start=record.start, root=trial)
        for line, comment in lines:
            add_line(probe, line, comment)   # raises before the record is touched

        def change(tree: StudyTree) -> bool:
            changed = False
            for line, comment in lines:
                changed = add_line(tree.record, line, comment) or changed
            return changed

        if self._edit(source, change):
            self.recordChanged.emit()
            self.cursorChanged.emit()
            return True
        return False

    def would_change(self, answer: Record, length: int | None = None, path: Path = ()) -> bool:
        """True when :meth:`merge` would change the record (a move, a comment or 手数 to add)."""
        record = self.tree().record
        trial = Record(start=record.start, header=dict(record.header), root=copy.deepcopy(record.root))
        before = copy.deepcopy(trial.root)
        try:
            merge_record(trial, answer, path)
        except ValueError:
            return False
        if trial.root != before:
            return True
        return length is not None and not path and not record.header.get("手数", "").strip()


class RecordPanel(QWidget):
    """The move tree of a :class:`StudyController`: the current line, its 変化, the comment.

    Clicking a row goes to that move; the context menu promotes the line or
    deletes from the move.

    Signals:
        moveActivated(): the user picked a move or a variation (the cursor moved).
    """

    moveActivated = Signal()
    keepRequested = Signal()

    def __init__(self, study: StudyController, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.study = study
        self._pending = ""
        self._pending_where = ""
        # The solver's answer until the user keeps it: shown here, not yet in the record.
        self.answer_bar = QFrame(self)
        self.answer_bar.setObjectName("answer_bar")
        self.answer_bar.setFrameShape(QFrame.Shape.StyledPanel)
        self.answer_bar.setStyleSheet("QFrame#answer_bar { background: #fff6d8; }")
        self.answer_label = QLabel(self.answer_bar)
        self.answer_label.setWordWrap(True)
        self.keep_button = QPushButton(self.answer_bar)
        self.keep_button.setObjectName("keep_answer")
        self.keep_button.clicked.connect(lambda _c=False: self.keepRequested.emit())
        bar_layout = QVBoxLayout(self.answer_bar)
        bar_layout.setContentsMargins(6, 4, 6, 4)
        bar_layout.addWidget(self.answer_label)
        bar_layout.addWidget(self.keep_button, 0, Qt.AlignmentFlag.AlignRight)
        self.answer_bar.hide()
        self._rows: list[Path] = []
        self._variation_paths: list[Path] = []
        self._updating = False
        self.moves = QListWidget(self)
        self.moves.setObjectName("record_moves")
        self.moves.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.moves.customContextMenuRequested.connect(self._context_menu)
        self.moves.itemClicked.connect(self._on_row)
        self.variations_label = QLabel(self)
        self.variations = QListWidget(self)
        self.variations.setObjectName("record_variations")
        self.variations.itemClicked.connect(self._on_variation)
        self.comment_label = QLabel(self)
        self.comment = QPlainTextEdit(self)
        self.comment.setObjectName("record_comment")
        self.comment.textChanged.connect(self._on_comment)
        self.promote_action = QAction(self)
        self.promote_action.triggered.connect(lambda _c=False: self.study.promote())
        self.delete_action = QAction(self)
        self.delete_action.triggered.connect(lambda _c=False: self.study.delete())
        # The move list takes what the variations (sized to their rows) and the comment leave.
        upper = QWidget(self)
        upper_layout = QVBoxLayout(upper)
        upper_layout.setContentsMargins(0, 0, 0, 0)
        upper_layout.addWidget(self.moves, 1)
        upper_layout.addWidget(self.variations_label)
        upper_layout.addWidget(self.variations)
        lower = QWidget(self)
        lower_layout = QVBoxLayout(lower)
        lower_layout.setContentsMargins(0, 0, 0, 0)
        lower_layout.addWidget(self.comment_label)
        lower_layout.addWidget(self.comment)
        rows = self.fontMetrics().lineSpacing()
        self.comment.setMinimumHeight(rows * 2 + 8)
        self.comment.setMaximumHeight(rows * 5 + 8)
        split = QSplitter(Qt.Orientation.Vertical, self)
        split.addWidget(upper)
        split.addWidget(lower)
        split.setStretchFactor(0, 1)
        split.setStretchFactor(1, 0)
        split.setChildrenCollapsible(False)
        split.setSizes([rows * 12, rows * 3])
        layout = QVBoxLayout(self)
        layout.setContentsMargins(2, 2, 2, 2)
        layout.addWidget(self.answer_bar)
        layout.addWidget(split)
        study.cursorChanged.connect(self.refresh)
        i18n.notifier.language_changed.connect(self._retranslate)
        self._retranslate()

    def set_pending(self, where: str, line: str) -> None:
        """Show a solver's answer not yet in the record: ``where`` it starts (a move, or ""
        for the start), its main ``line``; an empty ``line`` hides the bar."""
        self._pending = line
        self._pending_where = where
        self.answer_bar.setVisible(bool(line))
        self._retranslate_pending()

    def pending(self) -> str:
        """The main line of the answer waiting to be kept ("" when none)."""
        return self._pending

    def _retranslate_pending(self) -> None:
        if not self._pending:
            return
        where = self._pending_where
        head = (tr("Solver's answer after %1 (not in the record yet):").replace("%1", where) if where
                else tr("Solver's answer (not in the record yet):"))
        self.answer_label.setText(f"{head}\n{self._pending}")

    def row_texts(self) -> list[str]:
        """The texts of the move rows, as shown."""
        return [self.moves.item(i).text() for i in range(self.moves.count())]

    def variation_texts(self) -> list[str]:
        """The texts of the variations of the current move, as shown."""
        return [self.variations.item(i).text() for i in range(self.variations.count())]

    def refresh(self) -> None:
        """Show the tree and the cursor again."""
        tree = self.study.tree()
        self._updating = True
        try:
            rows = line_rows(tree)
            self._rows = [r.path for r in rows]
            self.moves.clear()
            for r in rows:
                text = tr("Start") if r.ply == 0 else r.text
                self.moves.addItem(f"{r.ply:>3}  {text}{'  +' if r.branched else ''}")
            end = terminal(tree)
            if end is not None:
                item = QListWidgetItem(f"{len(rows):>3}  {end}")
                item.setFlags(Qt.ItemFlag.NoItemFlags)
                self.moves.addItem(item)
            current = self._rows.index(tree.path()) if tree.path() in self._rows else 0
            self.moves.setCurrentRow(current)
            self.moves.scrollToItem(self.moves.item(current))
            self.variations.clear()
            self._variation_paths = []
            path = tree.path()
            kids = tree.variations()
            if len(kids) > 1:
                texts = []
                for i in kids:
                    p = path[:-1] + (i,)
                    texts.append(tree.japanese(p)[-1])
                    self._variation_paths.append(p)
                self.variations.addItems(texts)
                self.variations.setCurrentRow(kids.index(path[-1]))
            shown = min(max(len(kids), 1), 4)
            self.variations.setFixedHeight(shown * self.variations.sizeHintForRow(0) + 2 * self.variations.frameWidth()
                                           if len(kids) > 1 else 0)
            self.variations_label.setVisible(len(kids) > 1)
            self.variations.setVisible(len(kids) > 1)
            text = tree.comment()
            if self.comment.toPlainText() != text:
                self.comment.setPlainText(text)
            self.promote_action.setEnabled(any(i != 0 for i in path))
            self.delete_action.setEnabled(bool(path))
        finally:
            self._updating = False

    def _on_row(self, item: QListWidgetItem) -> None:
        row = self.moves.row(item)
        if 0 <= row < len(self._rows):
            self.study.go_to(self._rows[row])
            self.moveActivated.emit()

    def _on_variation(self, item: QListWidgetItem) -> None:
        row = self.variations.row(item)
        if 0 <= row < len(self._variation_paths):
            self.study.go_to(self._variation_paths[row])
            self.moveActivated.emit()

    def _on_comment(self) -> None:
        if not self._updating:
            self.study.set_comment(self.comment.toPlainText())

    def _context_menu(self, point: QPoint) -> None:
        item = self.moves.itemAt(point)
        if item is not None:
            self._on_row(item)
        menu = QMenu(self)
        menu.addActions([self.promote_action, self.delete_action])
        menu.exec(self.moves.viewport().mapToGlobal(point))

    def _retranslate(self, _lang: str = "") -> None:
        self.variations_label.setText(tr("Variations"))
        self.comment_label.setText(tr("Comment"))
        self.promote_action.setText(tr("Promote to main line"))
        self.delete_action.setText(tr("Delete from here"))
        self.keep_button.setText(tr("Keep answer in record"))
        self._retranslate_pending()
        if not self._updating:
            self.refresh()

"""The position editor: undo/redo, presets, paste/copy, open/save, and the problem bar.

:class:`EditorController` owns the undo stack of a :class:`~.board.BoardView`:
every edit made on the board (by mouse or keyboard) and every command here
(presets, clear, side to move, paste, open) is one undoable step.
:class:`ProblemBar` lists what is wrong with the position, square by square.
The presets, pasted text and files themselves are :mod:`tsume_studio.core.editing`'s
work; this module adds the undo stack, actions, dialogs and the clipboard.
"""

from __future__ import annotations

import html
import os
import re
from collections.abc import Callable
from functools import partial

from PySide6.QtCore import SIGNAL, QObject, Qt, Signal, Slot
from PySide6.QtGui import QAction, QActionGroup, QGuiApplication, QKeySequence, QUndoCommand, QUndoStack
from PySide6.QtWidgets import QFileDialog, QHBoxLayout, QLabel, QMessageBox, QWidget

from ..core.editing import (
    Spot,
    cleared,
    parse_position_text,
    read_position_file,
    suggested_file_name,
    tsume_preset,
    two_kings_preset,
    with_filter_extension,
    with_turn,
    write_position_file,
)
from ..core.records.formats import FORMATS
from ..core.records.model import Record, RecordNode
from ..core.shogi.position import Position, Problem, Status, tsume_hands
from ..core.shogi.types import BLACK, WHITE, Color, square_japanese
from . import i18n
from .errors import error_text
from .board import KEYBOARD_HELP, BoardView
from .i18n import tr
from .settings import load_last_folder, save_last_folder

__all__ = ["POSITION_FILE_FILTER", "EditorController", "ProblemBar"]

POSITION_FILE_FILTER = ("Positions (*.sfen *.kif *.kifu *.ki2 *.ki2u *.csa *.bod *.usi);;"
                        "SFEN (*.sfen);;KIF (*.kif *.kifu);;KI2 (*.ki2 *.ki2u);;CSA (*.csa)")

i18n.add_translations("ja", {
    "Undo": "元に戻す",
    "Redo": "やり直し",
    "Undo %1": "元に戻す: %1",
    "Redo %1": "やり直し: %1",
    "Tsume preset": "詰将棋の初期配置",
    "Two kings preset": "双玉の初期配置",
    "Clear board": "盤面をクリア",
    "Remaining pieces to the defender's hand": "残り駒を玉方の持駒にする",
    "Flip board": "盤面を反転",
    "Black to move": "先手番",
    "White to move": "後手番",
    "Paste position": "局面を貼り付け",
    "Copy SFEN": "SFEN をコピー",
    "Copy BOD": "BOD をコピー",
    "Open position...": "局面を開く...",
    "Save position as...": "局面を保存...",
    "Save": "保存",
    "Save as...": "名前を付けて保存...",
    "New": "新規",
    "Edit record header": "棋譜情報の編集",
    "Set position": "局面の設定",
    "Edit": "編集",
    "Open": "開く",
    "Paste": "貼り付け",
    "Side to move": "手番",
    "Positions": "局面ファイル",
    "Position OK": "局面に問題はありません",
    "Cannot paste: %1": "貼り付けできません: %1",
    "Cannot open: %1": "開けません: %1",
    "Cannot save: %1": "保存できません: %1",
    "the defender has no king": "受け方の玉がありません",
    "too many kings": "玉が多すぎます",
    "too many pieces of one kind": "駒の数が多すぎます",
    "two pawns on one file (nifu)": "二歩",
    "a piece that can never move": "行き所のない駒",
    "the side not to move is in check": "手番でない側に王手がかかっています",
})

# Short names of problems, translated; the core's message (English, with the
# details) is the tooltip.
_PROBLEM_NAMES = {
    Status.NO_DEFENDER_KING: "the defender has no king",
    Status.TOO_MANY_KINGS: "too many kings",
    Status.TOO_MANY_PIECES: "too many pieces of one kind",
    Status.NIFU: "two pawns on one file (nifu)",
    Status.DEAD_PIECE: "a piece that can never move",
    Status.NOT_TO_MOVE_IN_CHECK: "the side not to move is in check",
}


def _file_filter() -> str:
    """The file dialog's filter, with its first name translated."""
    return tr("Positions") + POSITION_FILE_FILTER[len("Positions"):]


def _kif_filter() -> str:
    """The filter a save dialog starts with: KIF keeps the whole record."""
    return next(f for f in POSITION_FILE_FILTER.split(";;") if f.startswith("KIF"))


# ---------------------------------------------------------------------------
# Undo/redo.


class _SetPosition(QUndoCommand):
    """Replace the position shown; undo puts the old one back.

    ``source`` is the step's English name; the shown text is its translation,
    set again when the language changes.
    """

    def __init__(self, controller: EditorController, old: Position, new: Position, source: str) -> None:
        super().__init__(tr(source))
        self.source = source
        self._controller = controller
        self._old = old.copy()
        self._new = new.copy()

    def redo(self) -> None:
        self._controller._show(self._new)

    def undo(self) -> None:
        self._controller._show(self._old)


class _SetHeader(QUndoCommand):
    """Replace the record's header and start comment; undo puts the old ones back."""

    def __init__(self, controller: EditorController, record: Record,
                 header: dict[str, str], comments: list[str]) -> None:
        super().__init__(tr("Edit record header"))
        self._controller = controller
        self._record = record
        self._old_record = controller._record
        self._old = (dict(record.header), list(record.root.comments))
        self._new = (dict(header), list(comments))

    def redo(self) -> None:
        self._record.header, self._record.root.comments = dict(self._new[0]), list(self._new[1])
        self._controller._record = self._record
        self._controller.recordChanged.emit()

    def undo(self) -> None:
        self._record.header, self._record.root.comments = dict(self._old[0]), list(self._old[1])
        self._controller._record = self._old_record
        self._controller.recordChanged.emit()


class _ReplaceProblem(QUndoCommand):
    """Put another problem in place (paste, open): its position, record and file go together.

    Undo puts back the whole problem that was there: position, record (header,
    comments, moves) and the file it belongs to, so that Save after an undo
    writes the old problem to its own file, and Save after the paste never
    writes the pasted problem into the old one.
    """

    def __init__(self, controller: EditorController, new: Position, record: Record | None,
                 path: str | None, source: str) -> None:
        super().__init__(tr(source))
        self.source = source
        self._controller = controller
        self._old = (controller._position.copy(), controller._record, controller._path)
        self._new = (new.copy(), record, path)

    def redo(self) -> None:
        self._controller._replace(*self._new)

    def undo(self) -> None:
        self._controller._replace(*self._old)


class EditorController(QObject):
    """Undo/redo and editing commands for a :class:`BoardView`.

    Edits made on the view (it must be editable, ``view.set_editable(True)``)
    arrive through ``positionEdited`` and become undoable steps.

    Signals:
        positionChanged(object): the Position after any change (edit, undo,
            paste, preset, open).
        problemsChanged(list): ``list[Problem]`` of the current position.
        errorOccurred(object): a command failed (bad paste, unreadable file):
            an :class:`~.i18n.Message` (a ``str``, already translated, that can
            be retranslated); when nothing is connected a message box shows it.
        recordChanged(): the record's header or start comment changed.
        modifiedChanged(bool): the problem became modified or unmodified
            (the undo stack left or reached its clean state, or
            :meth:`mark_modified`).
        fileChanged(str): the problem's file after an open or save ("" for none).
        recordReplaced(): a record was opened or pasted (even when its start
            is the position already shown).

    Attributes:
        undo_stack: the ``QUndoStack`` of edits; its clean state is the last open or save.
        confirm_discard: called before a command of the menus replaces the
            problem (Open, New, Clear, Paste); it returns False to keep it.
            The window sets it to its Save / Discard / Cancel question.
    """

    positionChanged = Signal(object)
    problemsChanged = Signal(list)
    errorOccurred = Signal(object)
    recordChanged = Signal()
    modifiedChanged = Signal(bool)
    fileChanged = Signal(str)
    recordReplaced = Signal()

    def __init__(self, view: BoardView, parent: QObject | None = None) -> None:
        # Without a parent the controller lives and dies with its view (never answering
        # a language switch for a view that is gone).
        super().__init__(parent if parent is not None else view)
        self._view = view
        self._position = view.position()
        self._record: Record | None = None
        self._path: str | None = None
        self._dirty = False
        self.confirm_discard: Callable[[], bool] = lambda: True
        self._problems: list[Problem] = self._position.problems()
        self.undo_stack = QUndoStack(self)
        self.undo_stack.cleanChanged.connect(self._on_clean_changed)
        self._actions: dict[str, QAction] = {}
        view.positionEdited.connect(self._on_edited)
        self._build_actions()
        i18n.notifier.language_changed.connect(self._retranslate_steps)
        i18n.notifier.language_changed.connect(self._retranslate)
        self._retranslate()
        view.set_error_squares(p.square for p in self._problems if p.square is not None)

    # ---- state ------------------------------------------------------------

    def view(self) -> BoardView:
        """The board this controller edits."""
        return self._view

    def position(self) -> Position:
        """A copy of the current position."""
        return self._position.copy()

    def problems(self) -> list[Problem]:
        """Problems of the current position (empty when it is valid)."""
        return list(self._problems)

    def record(self) -> Record | None:
        """The record last opened or pasted, while the position is still its start."""
        if self._record is not None and self._record.start == self._position:
            return self._record
        return None

    def full_record(self) -> Record:
        """What Save writes: the record while the position is its start, else the
        position alone with the record's header and start comment."""
        record = self.record()
        if record is not None:
            return record
        old = self._record
        if old is None:
            return Record(start=self.position())
        return Record(start=self.position(), header=dict(old.header),
                      root=RecordNode(comments=list(old.root.comments)), preamble=list(old.preamble))

    def set_header(self, header: dict[str, str], comments: list[str]) -> None:
        """Set the record's header and start comment (the root's comments) as one undoable step.

        A position set up by hand gets a record of its own.  Nothing happens
        when both are unchanged.
        """
        record = self.full_record()
        if record.header == header and record.root.comments == comments:
            return
        self.undo_stack.push(_SetHeader(self, record, header, comments))

    def path(self) -> str | None:
        """The file the problem was last opened from or saved to (None for a new one)."""
        return self._path

    def is_modified(self) -> bool:
        """True when there are edits since the last open or save."""
        return self._dirty or not self.undo_stack.isClean()

    @Slot()
    def mark_modified(self) -> None:
        """Count a change made outside the undo stack (a move tree, say) as unsaved."""
        if not self._dirty:
            self._dirty = True
            self.modifiedChanged.emit(True)

    @Slot(bool)
    def _on_clean_changed(self, clean: bool) -> None:
        # The stack also says so while it is being destroyed: use the argument, not the stack.
        self.modifiedChanged.emit(self._dirty or not clean)

    def _set_saved(self, path: str | None) -> None:
        """The problem is now the file at ``path``: unmodified, its name known."""
        self._path = path
        self._dirty = False
        self.undo_stack.setClean()
        self.modifiedChanged.emit(False)
        self.fileChanged.emit(path or "")

    def ensure_record(self) -> Record:
        """The record of the current position; one is made (keeping the header and
        start comment of the last record) when the position is not a record's start.

        The study board edits this record in place (its moves, 変化 and comments).
        """
        record = self.record()
        if record is None:
            record = self._record = self.full_record()
        return record

    def adopt_record(self, record: Record) -> None:
        """Make ``record`` the problem's record again (a move-tree step undone); its start is the position."""
        if record.start == self._position:
            self._record = record

    def attach_problem_bar(self, bar: ProblemBar) -> None:
        """Keep ``bar`` showing this position's problems; clicking a square puts the cursor there."""
        self.problemsChanged.connect(bar.set_problems)
        bar.set_problems(self.problems())
        bar.squareActivated.connect(self._on_problem_square)

    def _on_problem_square(self, sq: int) -> None:
        self._view.set_cursor_spot(Spot.board(sq))
        self._view.setFocus()

    def _show(self, position: Position) -> None:
        """Make ``position`` current: view, problem squares, signals (used by the undo stack)."""
        self._position = position.copy()
        self._view.set_position(position)
        self._view.set_last_move(None)
        self._view.set_highlights([])   # marks of the old position (a problem's square) go with it
        self._problems = position.problems()
        self._view.set_error_squares(p.square for p in self._problems if p.square is not None)
        self._actions["black"].setChecked(position.turn == BLACK)
        self._actions["white"].setChecked(position.turn == WHITE)
        self.positionChanged.emit(position.copy())
        self.problemsChanged.emit(list(self._problems))

    def _replace(self, position: Position, record: Record | None, path: str | None) -> None:
        """Make another problem current: position, record and file (used by the undo stack)."""
        self._record = record
        self._show(position)
        if path != self._path:
            self._path = path
            self.fileChanged.emit(path or "")
        self.recordReplaced.emit()
        self.recordChanged.emit()

    def _on_edited(self, position: Position) -> None:
        if position != self._position:
            self.undo_stack.push(_SetPosition(self, self._position, position, "Set position"))

    # ---- commands -------------------------------------------------------

    def set_position(self, position: Position, text: str = "Set position") -> None:
        """Make ``position`` current as one undoable step (nothing happens if it is already)."""
        if position == self._position and position.move_number == self._position.move_number:
            return
        self.undo_stack.push(_SetPosition(self, self._position, position, text))

    def preset_tsume(self) -> None:
        """The 詰将棋 preset: only the defender's king on 5一, every other piece in its hand."""
        self.set_position(tsume_preset(), "Tsume preset")

    def preset_two_kings(self) -> None:
        """Both kings (5一 and 5九), every other piece in the defender's hand."""
        self.set_position(two_kings_preset(), "Two kings preset")

    def clear(self) -> None:
        """Empty board and hands; the side to move stays."""
        self.set_position(cleared(self._position), "Clear board")

    def set_side_to_move(self, color: Color) -> None:
        """Give the move to ``color`` (BLACK or WHITE).

        Raises:
            ValueError: ``color`` is neither.
        """
        pos = with_turn(self._position, color)
        if pos is not None:
            self.set_position(pos, "Black to move" if color == BLACK else "White to move")

    def fill_defender_hand(self) -> None:
        """Give the defender every piece that is neither on the board nor in the attacker's hand."""
        self.set_position(tsume_hands(self._position), "Remaining pieces to the defender's hand")

    def paste_text(self, text: str) -> None:
        """Set the position from SFEN, BOD or KIF text (one undoable step).

        Pasted text is a problem of its own: it starts an untitled document
        (Save asks for a file), unless it is the very position already shown,
        which is left as it is.  Undo brings back the whole problem that was
        there (position, header, comments, moves, file).

        Raises:
            ValueError: the text is not a position; the current position is unchanged.
        """
        position, record = parse_position_text(text)
        bare = not (record.header or record.root.comments or record.root.children)
        if bare and position == self._position and position.move_number == self._position.move_number:
            return   # the position already shown, and nothing else: nothing to replace
        self.undo_stack.push(_ReplaceProblem(self, position, record, None, "Paste position"))

    def copy_sfen(self) -> str:
        """SFEN of the position, also put on the clipboard."""
        text: str = self._position.sfen()
        QGuiApplication.clipboard().setText(text)
        return text

    def copy_bod(self) -> str:
        """BOD diagram of the position, also put on the clipboard."""
        text: str = self._position.bod()
        QGuiApplication.clipboard().setText(text)
        return text

    def open_file(self, path: str, remember: bool = True) -> None:
        """Set the position from a ``.sfen``, ``.kif``, ``.kifu`` or ``.csa`` file (undoable).

        The problem is unmodified afterwards; with ``remember`` it is the file's
        (Save writes there), else it is new (a bundled sample, say).

        Raises:
            ValueError: bad contents or unknown extension; the position is unchanged.
            OSError: the file cannot be read.
        """
        position, record = read_position_file(path)
        self.undo_stack.push(_ReplaceProblem(self, position, record, path if remember else None, "Open"))
        self._set_saved(path if remember else None)

    def save_file(self, path: str) -> None:
        """Write the whole record (header, start comment, moves with 変化) to a file.

        Afterwards the problem is that file's and unmodified.

        Raises:
            ValueError: unknown extension.
            OSError: the file cannot be written.
        """
        write_position_file(path, self._position, self.full_record())
        self._set_saved(path)

    def new_problem(self) -> None:
        """Start a new problem: an empty board (undoable), no header, no file."""
        self.undo_stack.push(_ReplaceProblem(self, cleared(self._position), None, None, "New"))
        self._set_saved(None)

    def save(self) -> bool:
        """Save to the problem's file, or ask for one; errors are reported. True when saved."""
        path = self._path
        if path is None or os.path.splitext(path)[1].lower() not in FORMATS:
            return self.save_as()
        try:
            self.save_file(path)
        except (ValueError, OSError) as e:
            self._report("Cannot save: %1", e)
            return False
        return True

    def ask_save_path(self, title: str, suggested: str) -> tuple[str, str]:
        """The save dialog: the chosen path ("" when cancelled) and filter (tests replace this)."""
        path, selected = QFileDialog.getSaveFileName(self._view.window(), title, suggested, _file_filter(),
                                                     _kif_filter())
        return path, selected

    def save_as(self) -> bool:
        """Ask for a file name (the chosen filter gives a missing extension) and save. True when saved."""
        title = self.full_record().header.get("作品名", "")
        name = suggested_file_name(self._path, title)
        folder = os.path.dirname(self._path) if self._path else load_last_folder()
        path, selected = self.ask_save_path(tr("Save as..."), os.path.join(folder, name) if folder else name)
        if not path:
            return False
        path = with_filter_extension(path, selected)
        try:
            self.save_file(path)
        except (ValueError, OSError) as e:
            self._report("Cannot save: %1", e)
            return False
        save_last_folder(path)
        return True

    # ---- actions ----------------------------------------------------------

    def edit_actions(self) -> list[QAction]:
        """Actions for menus and toolbars: undo, redo, presets, clear, flip, side to move, paste, copy."""
        keys = ["undo", "redo", None, "tsume", "two_kings", "fill_hand", "clear", None, "black", "white",
                "flip", None, "paste", "copy_sfen", "copy_bod"]
        out: list[QAction] = []
        for key in keys:
            if key is None:
                sep = QAction(self)
                sep.setSeparator(True)
                out.append(sep)
            else:
                out.append(self._actions[key])
        return out

    def file_actions(self) -> list[QAction]:
        """New, Open, Save and Save As."""
        return [self._actions[k] for k in ("new", "open", "save_file", "save")]

    def action(self, key: str) -> QAction:
        """One action by key: undo redo tsume two_kings fill_hand clear black white flip paste copy_sfen
        copy_bod new open save_file save (Save as)."""
        return self._actions[key]

    def _build_actions(self) -> None:
        a = self._actions
        def make(key: str, slot: Callable[..., object], shortcut: str | None = None) -> QAction:
            act = QAction(self)
            act.triggered.connect(slot)
            if shortcut:
                act.setShortcut(QKeySequence(shortcut))
            a[key] = act
            return act

        stack = self.undo_stack
        undo = make("undo", stack.undo)
        undo.setShortcut(QKeySequence.StandardKey.Undo)
        redo = make("redo", stack.redo)
        redo.setShortcut(QKeySequence.StandardKey.Redo)
        undo.setEnabled(False)
        redo.setEnabled(False)
        stack.canUndoChanged.connect(undo.setEnabled)
        stack.canRedoChanged.connect(redo.setEnabled)
        stack.undoTextChanged.connect(self._retranslate)
        stack.redoTextChanged.connect(self._retranslate)
        make("tsume", self.preset_tsume, "Ctrl+Shift+T")
        make("two_kings", self.preset_two_kings, "Ctrl+Shift+K")
        make("fill_hand", self.fill_defender_hand)
        make("clear", self._clear_action, "Ctrl+Shift+Delete")
        flip = make("flip", lambda: self._view.set_flipped(a["flip"].isChecked()), "Ctrl+R")
        flip.setCheckable(True)
        group = QActionGroup(self)
        for key, color, shortcut in (("black", BLACK, "Ctrl+Shift+B"), ("white", WHITE, "Ctrl+Shift+W")):
            act = make(key, partial(self._on_side_action, color), shortcut)
            act.setCheckable(True)
            act.setChecked(self._position.turn == color)
            group.addAction(act)
        paste = make("paste", self._paste_clipboard)
        # Ctrl+V as in other shogi GUIs; a focused text field still takes its own paste.
        paste.setShortcuts([QKeySequence(QKeySequence.StandardKey.Paste), QKeySequence("Ctrl+Shift+V")])
        make("copy_sfen", self.copy_sfen, "Ctrl+Shift+C")
        make("copy_bod", self.copy_bod)
        make("new", self._new_action, "Ctrl+N")
        make("open", self._open_dialog, "Ctrl+O")
        make("save_file", self.save, "Ctrl+S")
        make("save", self.save_as, "Ctrl+Shift+S")
        for act in a.values():
            act.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
        # Shortcuts work as soon as the board is in a window, menus or not.
        self._view.addActions(list(a.values()))

    def _on_side_action(self, color: Color, _checked: bool = False) -> None:
        self.set_side_to_move(color)

    @Slot()
    @Slot(str)
    def _retranslate(self, _text: str = "") -> None:
        a = self._actions
        for key, text in (("tsume", "Tsume preset"), ("two_kings", "Two kings preset"),
                          ("clear", "Clear board"), ("flip", "Flip board"),
                          ("fill_hand", "Remaining pieces to the defender's hand"),
                          ("black", "Black to move"), ("white", "White to move"),
                          ("paste", "Paste position"), ("copy_sfen", "Copy SFEN"),
                          ("copy_bod", "Copy BOD"), ("open", "Open position..."),
                          ("new", "New"), ("save_file", "Save"), ("save", "Save as...")):
            a[key].setText(tr(text))
        # The toolbar shows the fixed icon text, so its buttons never move; the
        # step's name goes into the menu text and the tooltip.
        for key, text, stack_text in (("undo", "Undo", self.undo_stack.undoText()),
                                      ("redo", "Redo", self.undo_stack.redoText())):
            full = tr(text + " %1").replace("%1", stack_text) if stack_text else tr(text)
            a[key].setText(full)
            a[key].setIconText(tr(text))
            a[key].setToolTip(full)
        a["paste"].setToolTip(tr("Paste position") + " (SFEN / BOD / KIF)")
        self._view.setToolTip(tr(KEYBOARD_HELP) if self._view.is_editable() else "")

    @Slot(str)
    def _retranslate_steps(self, _lang: str = "") -> None:
        """Give the steps recorded so far their names in the new language."""
        stack = self.undo_stack
        for i in range(stack.count()):
            command = stack.command(i)
            source = getattr(command, "source", None)
            if isinstance(source, str):
                command.setText(tr(source))

    def _report(self, template: str, error: Exception) -> None:
        message = i18n.Message(template, error_text(error))
        if self.receivers(SIGNAL("errorOccurred(PyObject)")) > 0:
            self.errorOccurred.emit(message)
        else:
            QMessageBox.warning(self._view.window(), "Tsume Studio", message)

    def _paste_clipboard(self) -> None:
        text = QGuiApplication.clipboard().text()
        try:
            parse_position_text(text)
        except ValueError as e:
            self._report("Cannot paste: %1", e)
            return
        if self.confirm_discard():
            self.paste_text(text)

    def _clear_action(self) -> None:
        if self.confirm_discard():
            self.clear()

    def _new_action(self) -> None:
        if self.confirm_discard():
            self.new_problem()

    def ask_open_path(self) -> str:
        """The open dialog: the chosen path, "" when cancelled (tests replace this)."""
        path, _ = QFileDialog.getOpenFileName(self._view.window(), tr("Open position..."),
                                              load_last_folder(), _file_filter())
        return path

    def _open_dialog(self) -> None:
        if not self.confirm_discard():
            return
        path = self.ask_open_path()
        if path:
            try:
                self.open_file(path)
            except (ValueError, OSError) as e:
                self._report("Cannot open: %1", e)
            else:
                save_last_folder(path)


# ---------------------------------------------------------------------------
# The problem bar.


class ProblemBar(QWidget):
    """A bar that names every problem of the position, each with its square.

    Signals:
        squareActivated(int): the user clicked the square of a problem.
    """

    squareActivated = Signal(int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._problems: list[Problem] = []
        self._label = QLabel(self)
        self._label.setWordWrap(True)
        self._label.setTextFormat(Qt.TextFormat.RichText)
        self._label.linkActivated.connect(self._on_link)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(6, 3, 6, 3)
        layout.addWidget(self._label)
        self.setAutoFillBackground(True)
        i18n.notifier.language_changed.connect(self._update)
        self._update()

    def problems(self) -> list[Problem]:
        """The problems shown."""
        return list(self._problems)

    def set_problems(self, problems: list[Problem]) -> None:
        """Show these problems (an empty list shows that the position is fine)."""
        self._problems = list(problems)
        self._update()

    def text(self) -> str:
        """The bar's text without markup."""
        return re.sub(r"<[^>]+>", "", self._label.text()).replace("&nbsp;", " ")

    def _on_link(self, link: str) -> None:
        if link.startswith("sq:"):
            self.squareActivated.emit(int(link[3:]))

    def _update(self, _lang: str = "") -> None:
        if not self._problems:
            self._label.setText(f"<span style='color:#1e6b2a'>✓ {tr('Position OK')}</span>")
            self._label.setToolTip("")
            self.setStyleSheet("ProblemBar { background: #e6f4e6; }")
            return
        parts = []
        for p in self._problems:
            name = tr(_PROBLEM_NAMES.get(p.flag, p.message))
            if i18n.language() == "en":
                name = p.message
            where = (f"<a href='sq:{p.square}'>{square_japanese(p.square)}</a> "
                     if p.square is not None else "")
            parts.append(f"⚠ {where}{html.escape(name, quote=False)}")
        self._label.setText("&nbsp;&nbsp;".join(parts))
        self._label.setToolTip("\n".join(p.message for p in self._problems))
        self.setStyleSheet("ProblemBar { background: #fbe3e3; }")


"""The record-header dialog: 作品名, 作者, 出典, 発表誌, 手数 and the start comment.

The dialog edits a copy; :meth:`HeaderDialog.header` and
:meth:`HeaderDialog.comments` give the result, which the editor applies as
one undoable step (:meth:`~.editor.EditorController.set_header`).  Header
keys the form does not show (先手, 後手, 場所 ...) are kept as they were.
"""

from __future__ import annotations

from PySide6.QtGui import QRegularExpressionValidator
from PySide6.QtCore import QRegularExpression
from PySide6.QtWidgets import (
    QDialog, QDialogButtonBox, QFormLayout, QLineEdit, QPlainTextEdit, QWidget,
)

from .i18n import add_translations, tr

__all__ = ["HEADER_FIELDS", "HeaderDialog"]

#: The header keys the form edits, with their English labels, in form order.
HEADER_FIELDS: tuple[tuple[str, str], ...] = (
    ("作品名", "Title"), ("作者", "Author"), ("出典", "Source"),
    ("発表誌", "Published in"), ("手数", "Length (plies)"),
)

add_translations("ja", {
    "Record header": "棋譜情報",
    "Record header...": "棋譜情報...",
    "Title": "作品名",
    "Author": "作者",
    "Source": "出典",
    "Published in": "発表誌",
    "Length (plies)": "手数",
    "Start comment": "初形のコメント",
    "Cancel": "キャンセル",
})


class HeaderDialog(QDialog):
    """Edit a record's header fields and its start comment.

    Args:
        header: the record's header (not modified).
        comments: the root node's comments (not modified).
    """

    def __init__(self, header: dict[str, str], comments: list[str], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("header_dialog")
        self.setWindowTitle(tr("Record header"))
        self._header = dict(header)
        self._comments = list(comments)
        form = QFormLayout(self)
        self.fields: dict[str, QLineEdit] = {}
        for key, label in HEADER_FIELDS:
            edit = QLineEdit(header.get(key, ""), self)
            edit.setObjectName(f"header_{key}")
            edit.setMinimumWidth(320)
            if key == "手数":
                edit.setValidator(QRegularExpressionValidator(QRegularExpression("[0-9]{0,4}"), edit))
            form.addRow(tr(label), edit)
            self.fields[key] = edit
        self.comment = QPlainTextEdit("\n".join(comments), self)
        self.comment.setObjectName("header_comment")
        form.addRow(tr("Start comment"), self.comment)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel,
                                   parent=self)
        cancel = buttons.button(QDialogButtonBox.StandardButton.Cancel)
        cancel.setText(tr("Cancel"))
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)

    def header(self) -> dict[str, str]:
        """The header as edited: keys in their old order, new ones after, empty fields removed."""
        out = dict(self._header)
        for key, edit in self.fields.items():
            value = edit.text().strip()
            if value and value == out.get(key, "").strip():
                continue   # unchanged: keep the text exactly as it was
            if value:
                out[key] = value
            else:
                out.pop(key, None)
        return out

    def comments(self) -> list[str]:
        """The start comment as edited (the old list when the text is unchanged)."""
        text = self.comment.toPlainText().rstrip("\n")
        if text == "\n".join(self._comments).rstrip("\n"):
            return list(self._comments)
        return text.split("\n") if text else []

"""Help > Keyboard shortcuts: a list made from the window's own menus, so it always tells the truth.

Every menu action with a shortcut is listed under its menu with the key in
the platform's notation; the board editor's keys (not menu actions) follow,
from the board's own help text.
"""

from __future__ import annotations

from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QDialog, QDialogButtonBox, QLabel, QMenu, QMenuBar, QTreeWidget, QTreeWidgetItem, QVBoxLayout, QWidget,
)

from .board import KEYBOARD_HELP
from .i18n import add_translations, tr

add_translations("ja", {
    "Keyboard shortcuts": "キーボードショートカット",
    "Command": "コマンド",
    "Key": "キー",
})


def _plain(text: str) -> str:
    """A menu text without its ``&`` mnemonic marker and trailing dots."""
    return text.replace("&&", "\0").replace("&", "").replace("\0", "&").rstrip(".")


def shortcut_rows(menu_bar: QMenuBar) -> list[tuple[str, list[tuple[str, str]]]]:
    """(menu title, [(command, keys)]) for every menu action with a shortcut, in menu order.

    A submenu's actions are listed under ``Menu > Submenu``; an action in two
    menus is listed once, under the first.
    """
    out: list[tuple[str, list[tuple[str, str]]]] = []
    seen: set[int] = set()

    def walk(title: str, actions: list[QAction]) -> None:
        rows: list[tuple[str, str]] = []
        subs: list[tuple[str, list[QAction]]] = []
        for act in actions:
            menu = act.menu()
            if isinstance(menu, QMenu):
                subs.append((f"{title} > {_plain(act.text())}", menu.actions()))
                continue
            keys = [k for k in act.shortcuts() if not k.isEmpty()]
            if act.isSeparator() or not keys or id(act) in seen:
                continue
            seen.add(id(act))
            rows.append((_plain(act.text()),
                         ", ".join(k.toString(QKeySequence.SequenceFormat.NativeText) for k in keys)))
        if rows:
            out.append((title, rows))
        for sub_title, sub_actions in subs:
            walk(sub_title, sub_actions)

    for top in menu_bar.actions():
        menu = top.menu()
        if isinstance(menu, QMenu):
            walk(_plain(top.text()), menu.actions())
    return out


class ShortcutsDialog(QDialog):
    """The keyboard shortcuts of the window's menus, then the board editor's keys."""

    def __init__(self, menu_bar: QMenuBar, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("shortcuts_dialog")
        self.setWindowTitle(tr("Keyboard shortcuts"))
        self.tree = QTreeWidget(self)
        self.tree.setColumnCount(2)
        self.tree.setHeaderLabels([tr("Command"), tr("Key")])
        self.tree.setRootIsDecorated(False)
        for title, rows in shortcut_rows(menu_bar):
            group = QTreeWidgetItem([title, ""])
            font = group.font(0)
            font.setBold(True)
            group.setFont(0, font)
            self.tree.addTopLevelItem(group)
            for command, keys in rows:
                group.addChild(QTreeWidgetItem([command, keys]))
            group.setExpanded(True)
        self.tree.resizeColumnToContents(0)
        self.board_keys = QLabel(tr(KEYBOARD_HELP), self)
        self.board_keys.setWordWrap(True)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, parent=self)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.tree, 1)
        layout.addWidget(self.board_keys)
        layout.addWidget(buttons)
        self.resize(560, 640)

    def rows(self) -> list[tuple[str, str]]:
        """Every (command, keys) row shown, groups left out."""
        out = []
        for i in range(self.tree.topLevelItemCount()):
            group = self.tree.topLevelItem(i)
            if group is None:
                continue
            for j in range(group.childCount()):
                child = group.child(j)
                if child is not None:
                    out.append((child.text(0), child.text(1)))
        return out


__all__ = ["ShortcutsDialog", "shortcut_rows"]

"""Help > About: the program's name, version, license and where its documentation is."""

from __future__ import annotations

import html
import re
from importlib.metadata import PackageNotFoundError, metadata
from pathlib import Path

from PySide6.QtCore import QUrl, Qt
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QLabel, QVBoxLayout, QWidget

from .i18n import add_translations, tr

__all__ = ["AboutDialog", "app_version", "app_license", "doc_files"]

DISTRIBUTION = "tsume-studio"

add_translations("ja", {
    "About Tsume Studio": "Tsume Studio について",
    "&Help": "ヘルプ(&H)",
    "Version %1": "バージョン %1",
    "License: %1": "ライセンス: %1",
    "Compose, solve and study tsume-shogi (詰将棋).": "詰将棋を作り、解き、調べるためのソフトです。",
    "Documentation": "説明書",
    "Published sources of the algorithms": "アルゴリズムの出典",
    "Piece kanji and font: Noto CJK (SIL Open Font License 1.1).":
        "駒の文字とフォント: Noto CJK（SIL Open Font License 1.1）。",
    "unknown": "不明",
    "Close": "閉じる",
})

# Documents of a source checkout, by link text (the installed package ships none).
_DOCS = (("Documentation", "README.md"), ("Published sources of the algorithms", "docs/references.md"))


def app_version() -> str:
    """The installed package's version ("unknown" when it is not installed)."""
    try:
        return metadata(DISTRIBUTION)["Version"] or tr("unknown")
    except PackageNotFoundError:
        return tr("unknown")


def app_license() -> str:
    """The package's license (SPDX expression from its metadata)."""
    try:
        meta = metadata(DISTRIBUTION)
    except PackageNotFoundError:
        return "GPL-3.0-or-later"
    for field in ("License-Expression", "License"):
        value = meta.get_all(field)
        if value:
            return str(value[0])
    return "GPL-3.0-or-later"


def doc_files(root: Path | None = None) -> list[tuple[str, Path]]:
    """(link text, path) of the documents found next to the package (a source checkout)."""
    base = root if root is not None else Path(__file__).resolve().parent.parent
    return [(text, base / rel) for text, rel in _DOCS if (base / rel).is_file()]


class AboutDialog(QDialog):
    """Name, version, license and links to the documentation."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(tr("About Tsume Studio"))
        lines = [
            "<h2>Tsume Studio</h2>",
            f"<p>{html.escape(tr('Version %1').replace('%1', app_version()))}</p>",
            f"<p>{html.escape(tr('Compose, solve and study tsume-shogi (詰将棋).'))}</p>",
            f"<p>{html.escape(tr('License: %1').replace('%1', app_license()))}</p>",
            f"<p>{html.escape(tr('Piece kanji and font: Noto CJK (SIL Open Font License 1.1).'))}</p>",
        ]
        links = [f"<a href='{QUrl.fromLocalFile(str(path)).toString()}'>{html.escape(tr(text))}</a>"
                 for text, path in doc_files()]
        if links:
            lines.append("<p>" + "<br>".join(links) + "</p>")
        self.label = QLabel("".join(lines), self)
        self.label.setTextFormat(Qt.TextFormat.RichText)
        self.label.setOpenExternalLinks(True)
        self.label.setWordWrap(True)
        self.label.setTextInteractionFlags(Qt.TextInteractionFlag.TextBrowserInteraction)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        buttons.button(QDialogButtonBox.StandardButton.Close).setText(tr("Close"))
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.label)
        layout.addWidget(buttons)

    def text(self) -> str:
        """The dialog's text without markup."""
        text = re.sub(r"<br>|</p>|</h2>", "\n", self.label.text())
        return html.unescape(re.sub(r"<[^>]+>", "", text)).strip()

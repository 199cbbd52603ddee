"""Japanese and English interface text, switchable at run time.

Source strings are English.  Each GUI module registers its own Japanese table
with :func:`add_translations`; :func:`tr` looks a string up in the current
language and falls back to the English text.  Widgets connect to
``notifier.language_changed`` and set their texts again when it fires.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Signal

LANGUAGES = ("ja", "en")

_tables: dict[str, dict[str, str]] = {lang: {} for lang in LANGUAGES}
_language = "en"


class _Notifier(QObject):
    """Announces language changes.

    Signals:
        language_changed(str): the new language code, after the switch.
    """

    language_changed = Signal(str)


notifier = _Notifier()


def tr(text: str) -> str:
    """``text`` (English source text) in the current language."""
    return _tables[_language].get(text, text)


class Message(str):
    """A text shown in the interface language that can be shown again in another.

    It is the translated text (a ``str``) and keeps its English source with
    ``%1``, ``%2``... placeholders and their arguments (not translated, e.g.
    a file name or the core's English detail), so that a message still on
    screen after a language switch can be replaced by :meth:`retranslated`.
    """

    source: str
    args: tuple[str, ...]

    def __new__(cls, source: str, *args: str) -> Message:
        text = tr(source)
        for n in range(len(args), 0, -1):   # %10 before %1
            text = text.replace(f"%{n}", args[n - 1])
        obj = super().__new__(cls, text)
        obj.source = source
        obj.args = args
        return obj

    def retranslated(self) -> Message:
        """The same message in the current language."""
        return Message(self.source, *self.args)


def add_translations(lang: str, table: dict[str, str]) -> None:
    """Register translations of English source strings into ``lang``."""
    if lang not in _tables:
        raise ValueError(f"unknown language {lang!r}; expected one of {', '.join(LANGUAGES)}")
    _tables[lang].update(table)


def set_language(lang: str) -> None:
    """Switch the interface to ``lang`` ("ja" or "en") and tell every listener."""
    global _language
    if lang not in _tables:
        raise ValueError(f"unknown language {lang!r}; expected one of {', '.join(LANGUAGES)}")
    changed = lang != _language
    _language = lang
    if changed:
        notifier.language_changed.emit(lang)


def language() -> str:
    """The current language code."""
    return _language

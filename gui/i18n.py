"""Japanese and English interface text, switchable at run time.

Source strings are English.  Each GUI module registers its own Japanese table
with :func:`add_translations`; :func:`tr` looks a string up in the current
language and falls back to the English text.  Widgets connect to
``notifier.language_changed`` and set their texts again when it fires.

Qt's own texts (the buttons of standard dialogs, a line edit's context menu,
the file dialog) come from Qt's translations for the language
(``qtbase_ja.qm`` in Qt's translations folder), installed on the application
by :func:`set_language` through a ``QTranslator``.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QLibraryInfo, QObject, QTranslator, Signal

LANGUAGES = ("ja", "en")

_tables: dict[str, dict[str, str]] = {lang: {} for lang in LANGUAGES}
_language = "en"
_qt_translator: QTranslator | None = None
_qt_language = "en"


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
    install_qt_translations(lang)
    if changed:
        notifier.language_changed.emit(lang)


def language() -> str:
    """The current language code."""
    return _language


def install_qt_translations(lang: str) -> bool:
    """Install Qt's own translations for ``lang`` on the application (English: none).

    True when Qt's texts are now in ``lang``; False without an application
    (the next :func:`set_language` installs them) or when Qt has no
    translations for it.
    """
    global _qt_translator, _qt_language
    app = QCoreApplication.instance()
    if app is None:
        return False
    if lang == _qt_language and (lang == "en" or _qt_translator is not None):
        return True
    if _qt_translator is not None:
        app.removeTranslator(_qt_translator)
        _qt_translator = None
    _qt_language = lang
    if lang == "en":
        return True
    translator = QTranslator(app)
    if not translator.load(f"qtbase_{lang}", QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)):
        return False
    app.installTranslator(translator)
    _qt_translator = translator
    return True

"""The bundled font covers every character the interface and the notation use."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtGui import QFont, QRawFont

from tsume_studio.gui.resources import FONT_FILE, read_bytes, register_fonts

ROOT = Path(__file__).resolve().parents[2]


def test_font_covers_interface_text(qapp) -> None:
    raw = QRawFont(read_bytes("fonts", FONT_FILE), 16.0)
    assert raw.isValid() and raw.familyName() == register_fonts()
    # The GUI's own text, and the core's notation and messages that the GUI shows
    # (command-line front ends and benchmarks print to a terminal instead).
    core = [p for p in sorted((ROOT / "core").glob("*.py"))
            if not p.name.startswith(("cli", "bench", "usi"))]
    sources = sorted((ROOT / "gui").glob("*.py")) + core
    assert sources, "no sources found next to the tests"
    missing: dict[str, str] = {}
    for path in sources:
        for ch in path.read_text(encoding="utf-8"):
            if ord(ch) > 0x7E and ch not in "\ufeff\u3000" and not raw.supportsCharacter(ord(ch)):
                missing.setdefault(ch, path.name)
    assert not missing, (
        "characters missing from the bundled font (run packaging/make_font_subset.py): "
        + ", ".join(f"{ch!r} in {name}" for ch, name in sorted(missing.items())))


def test_font_covers_kana_and_level1_kanji(qapp) -> None:
    raw = QRawFont(read_bytes("fonts", FONT_FILE), 16.0)
    for ch in "あいうえおアイウエオ一二三四五六七八九十１２３☗☖▲△詰将棋玉飛角金銀桂香歩龍馬と同成打":
        assert raw.supportsCharacter(ord(ch)), ch
    # A few JIS level-1 kanji that names and comments often use.
    for ch in "藤井聡太羽生善治谷川浩司":
        assert raw.supportsCharacter(ord(ch)), ch
    assert QFont(register_fonts()).family() == "Tsume Studio Sans JP"

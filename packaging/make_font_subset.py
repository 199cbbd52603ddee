"""Build the bundled Japanese font: a subset of Noto Sans CJK JP.

Collects every non-ASCII character used in the GUI sources (gui/*.py), the
core's notation and messages (core/*.py), and resources/ text files, adds
kana, full-width digits and letters, kanji digits, CJK punctuation and the
JIS X 0208 level-1 kanji (so names and comments typed by users render too),
and writes resources/fonts/NotoSansCJKjp-Subset.otf with the font's licence.

Noto Sans CJK is under the SIL Open Font License 1.1 (Reserved Font Name
"Source"); the subset is renamed "Tsume Studio Sans JP" as a modified version.  Source:
Debian package ``fonts-noto-cjk``.

Run from the repository root (needs fontTools, a development tool only)::

    python packaging/make_font_subset.py [--font PATH]
"""

from __future__ import annotations

import argparse
import os
import shutil
import tempfile
from pathlib import Path

from fontTools import subset
from fontTools.ttLib import TTCollection, TTFont

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "resources" / "fonts"
FONT_NAME = "NotoSansCJKjp-Subset.otf"
# A family name of its own, so the bundled subset never collides with (or is
# mistaken for) an installed Noto Sans CJK JP.
FAMILY = "Tsume Studio Sans JP"
DEFAULT_FONT = "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc"
LICENSE_CANDIDATES = ("/usr/share/doc/fonts-noto-cjk/copyright",)
TEXT_SUFFIXES = {".py", ".kif", ".kifu", ".sfen", ".csa", ".txt", ".md", ".json", ".desktop", ".svg"}


def source_characters() -> set[str]:
    """Every non-ASCII character in the project's GUI, core and resource text."""
    chars: set[str] = set()
    paths = list((ROOT / "gui").glob("*.py")) + list((ROOT / "core").glob("*.py"))
    paths += [p for p in (ROOT / "resources").rglob("*")
              if p.is_file() and p.suffix in TEXT_SUFFIXES and "pieces" not in p.parts]
    for path in paths:
        text = path.read_text(encoding="utf-8", errors="ignore")
        chars.update(ch for ch in text if ord(ch) > 0x7E)
    return chars


def standard_characters() -> set[str]:
    """Kana, punctuation, full-width forms, shogi symbols and JIS level-1 kanji."""
    chars: set[str] = set()
    for lo, hi in ((0x3000, 0x303F), (0x3040, 0x309F), (0x30A0, 0x30FF), (0xFF01, 0xFF9F),
                   (0x2190, 0x21FF), (0x25A0, 0x25FF), (0x2600, 0x2617), (0x2460, 0x2473)):
        chars.update(chr(c) for c in range(lo, hi + 1))
    chars.update("一二三四五六七八九十百千万零〇☗☖▲△▼▽・…‥―＝")
    # JIS X 0208 level-1 kanji are rows 16..47 (lead bytes 0x88 9F .. 0x98 72 in Shift_JIS).
    for lead in range(0x88, 0x99):
        for trail in list(range(0x40, 0x7F)) + list(range(0x80, 0xFD)):
            try:
                ch = bytes((lead, trail)).decode("cp932")
            except UnicodeDecodeError:
                continue
            if "\u4e00" <= ch <= "\u9fff":
                chars.add(ch)
    chars.update(chr(c) for c in range(0x20, 0x7F))
    return chars


def load_font(path: str) -> TTFont:
    """The Japanese face of a font file or collection."""
    if path.endswith(".ttc"):
        for font in TTCollection(path, lazy=False).fonts:
            if font["name"].getDebugName(1) == "Noto Sans CJK JP":
                return font
        raise ValueError(f"no 'Noto Sans CJK JP' face in {path!r}")
    return TTFont(path)


def rename(font: TTFont) -> None:
    """Give the subset its own family and PostScript names."""
    ps = FAMILY.replace(" ", "") + "-Regular"
    for rec in font["name"].names:
        if rec.nameID in (1, 16):
            rec.string = FAMILY
        elif rec.nameID in (3, 4):
            rec.string = FAMILY + (" Regular" if rec.nameID == 3 else "")
        elif rec.nameID == 6:
            rec.string = ps
        elif rec.nameID == 17:
            rec.string = "Regular"
    cff = font["CFF "].cff
    cff.fontNames = [ps]
    top = cff.topDictIndex[0]
    top.FullName = FAMILY
    top.FamilyName = FAMILY


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--font", default=DEFAULT_FONT, help="Noto Sans CJK JP (.otf/.ttc)")
    args = parser.parse_args()
    chars = source_characters() | standard_characters()
    font = load_font(args.font)
    cmap = font.getBestCmap()
    missing = sorted(ch for ch in chars if ord(ch) not in cmap and ord(ch) > 0x7E)
    options = subset.Options()
    options.layout_features = ["*"]
    options.name_IDs = ["*"]
    options.name_languages = ["*"]
    options.notdef_outline = True
    options.hinting = False
    options.desubroutinize = False
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=[ord(c) for c in chars if ord(c) in cmap])
    subsetter.subset(font)
    rename(font)
    OUT.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=OUT, suffix=".tmp")
    os.close(fd)
    try:
        font.save(tmp)
        os.chmod(tmp, 0o644)
        os.replace(tmp, OUT / FONT_NAME)
    except BaseException:
        os.unlink(tmp)
        raise
    for lic in LICENSE_CANDIDATES:
        if os.path.exists(lic):
            shutil.copyfile(lic, OUT / "LICENSE-NotoSansCJK.txt")
            break
    size = (OUT / FONT_NAME).stat().st_size
    print(f"{len(chars)} characters requested, {len(missing)} not in the font; "
          f"wrote {OUT / FONT_NAME} ({size // 1024} KiB)")


if __name__ == "__main__":
    main()

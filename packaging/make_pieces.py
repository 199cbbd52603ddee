"""Generate the piece images in resources/pieces/ (and the app icon) as self-contained SVG.

Each piece is a traditional pentagon (駒) in light boxwood with its kanji
engraved in black, or in red for promoted pieces.  The kanji are converted to
outline paths, so the SVGs need no font at run time.  The outlines come from
Noto Serif CJK JP Bold (SIL Open Font License 1.1; Debian package
``fonts-noto-cjk``); the OFL allows using glyphs in images.

Pieces are drawn from Black's side (pointing up); the board rotates them by
180 degrees for White and adds the drop shadow itself, so that the light
falls from the same side on both players' pieces.  Piece sizes follow real sets: the king is the largest
piece and the pawn the smallest.

Run from the repository root (needs fontTools, a development tool only)::

    python packaging/make_pieces.py [--font PATH]
"""

from __future__ import annotations

import argparse
import os
import tempfile
from pathlib import Path

from fontTools.pens.svgPathPen import SVGPathPen
from fontTools.pens.transformPen import TransformPen
from fontTools.ttLib import TTCollection, TTFont

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "resources" / "pieces"
DEFAULT_FONT = "/usr/share/fonts/opentype/noto/NotoSerifCJK-Bold.ttc"

# file name -> (kanji, relative size, promoted)
PIECES: dict[str, tuple[str, float, bool]] = {
    "OU": ("王", 1.00, False),   # Black's king
    "GY": ("玉", 1.00, False),   # White's king
    "HI": ("飛", 0.97, False),
    "KA": ("角", 0.97, False),
    "KI": ("金", 0.94, False),
    "GI": ("銀", 0.94, False),
    "KE": ("桂", 0.91, False),
    "KY": ("香", 0.88, False),
    "FU": ("歩", 0.86, False),
    "RY": ("龍", 0.97, True),
    "UM": ("馬", 0.97, True),
    "NG": ("全", 0.94, True),
    "NK": ("圭", 0.91, True),
    "NY": ("杏", 0.88, True),
    "TO": ("と", 0.86, True),
}

VIEW = 100.0           # the SVG viewBox is VIEW x VIEW
INK = "#1a1209"
RED = "#b3001b"


def load_font(path: str) -> TTFont:
    """The Japanese face of a font file or collection."""
    if path.endswith(".ttc"):
        for font in TTCollection(path).fonts:
            if font["name"].getDebugName(1).endswith("JP"):
                return font
        raise ValueError(f"no JP face in {path!r}")
    return TTFont(path)


def glyph_path(font: TTFont, char: str, x: float, y: float, size: float) -> str:
    """SVG path data of ``char`` with its em box at (x, y), ``size`` units wide."""
    cmap = font.getBestCmap()
    if ord(char) not in cmap:
        raise ValueError(f"font has no glyph for {char!r}")
    glyphs = font.getGlyphSet()
    upem = font["head"].unitsPerEm
    ascent = font["hhea"].ascent
    descent = -font["hhea"].descent
    scale = size / upem
    # Centre the em box vertically on the ascent/descent box (font y points up).
    baseline = y + size * ascent / (ascent + descent)
    pen = SVGPathPen(glyphs, ntos=lambda v: f"{v:.2f}".rstrip("0").rstrip("."))
    tpen = TransformPen(pen, (scale, 0, 0, -scale, x, baseline))
    glyphs[cmap[ord(char)]].draw(tpen)
    return pen.getCommands()


def pentagon(size: float) -> list[tuple[float, float]]:
    """Corners of a piece outline of relative ``size``, centred in the view box."""
    w = 84.0 * size
    h = 94.0 * size
    cx = VIEW / 2
    top = (VIEW - h) / 2 + 1.5
    bottom = top + h
    shoulder = top + h * 0.25
    return [(cx, top), (cx + w * 0.40, shoulder), (cx + w * 0.5, bottom),
            (cx - w * 0.5, bottom), (cx - w * 0.40, shoulder)]


def piece_svg(font: TTFont, kanji: str, size: float, promoted: bool) -> str:
    """One piece as an SVG document."""
    pts = pentagon(size)
    poly = " ".join(f"{x:.2f},{y:.2f}" for x, y in pts)
    bottom = pts[2][1]
    top = pts[0][1]
    glyph = 58.0 * size
    gx = (VIEW - glyph) / 2
    # The kanji sits a little below the centre of the pentagon, as on real pieces.
    gy = top + (bottom - top) * 0.58 - glyph / 2
    path = glyph_path(font, kanji, gx, gy, glyph)
    colour = RED if promoted else INK
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {VIEW:g} {VIEW:g}" '
        f'width="{VIEW:g}" height="{VIEW:g}">\n'
        "<defs>\n"
        '<linearGradient id="wood" x1="0" y1="0" x2="1" y2="1">\n'
        '<stop offset="0" stop-color="#fbe6b4"/><stop offset="0.55" stop-color="#f1cf8a"/>'
        '<stop offset="1" stop-color="#dfb46a"/>\n'
        "</linearGradient>\n"
        "</defs>\n"
        f'<polygon points="{poly}" fill="url(#wood)" stroke="#6b4a1e" stroke-width="1.6" '
        'stroke-linejoin="round"/>\n'
        f'<path d="{path}" fill="{colour}"/>\n'
        "</svg>\n"
    )


def icon_svg(font: TTFont) -> str:
    """The application icon: a king-sized piece engraved with 詰 on a board square."""
    pts = pentagon(0.96)
    poly = " ".join(f"{x:.2f},{y:.2f}" for x, y in pts)
    glyph = 56.0
    path = glyph_path(font, "詰", (VIEW - glyph) / 2, pts[0][1] + (pts[2][1] - pts[0][1]) * 0.58 - glyph / 2,
                      glyph)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {VIEW:g} {VIEW:g}" '
        'width="256" height="256">\n'
        '<defs><linearGradient id="wood" x1="0" y1="0" x2="1" y2="1">'
        '<stop offset="0" stop-color="#fbe6b4"/><stop offset="1" stop-color="#dfb46a"/>'
        '</linearGradient></defs>\n'
        '<rect x="2" y="2" width="96" height="96" rx="14" fill="#d9a656" stroke="#8a5a2b" stroke-width="2"/>\n'
        f'<polygon points="{poly}" fill="url(#wood)" stroke="#6b4a1e" stroke-width="2" '
        'stroke-linejoin="round"/>\n'
        f'<path d="{path}" fill="{RED}"/>\n'
        "</svg>\n"
    )


def write_atomic(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` completely or not at all."""
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--font", default=DEFAULT_FONT, help="serif CJK font (.otf/.ttc)")
    args = parser.parse_args()
    font = load_font(args.font)
    OUT.mkdir(parents=True, exist_ok=True)
    for name, (kanji, size, promoted) in PIECES.items():
        write_atomic(OUT / f"{name}.svg", piece_svg(font, kanji, size, promoted))
    icons = ROOT / "resources" / "icons"
    icons.mkdir(parents=True, exist_ok=True)
    write_atomic(icons / "tsume-studio.svg", icon_svg(font))
    print(f"wrote {len(PIECES)} pieces to {OUT} and the icon to {icons}")


if __name__ == "__main__":
    main()

"""Bundled resources: piece images, the Japanese font, icons, sample problems.

Files are found through ``importlib.resources`` so that they load the same way
from a checkout, an installed wheel or a PyInstaller bundle.
"""

from __future__ import annotations

import sys
from functools import cache, lru_cache
from importlib.resources import files
from pathlib import PurePosixPath
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    # importlib.resources.abc is new in Python 3.11; only annotations use it.
    if sys.version_info >= (3, 11):
        from importlib.resources.abc import Traversable
    else:
        from importlib.abc import Traversable

FONT_FILE = "NotoSansCJKjp-Subset.otf"


def resource_path(*parts: str) -> Traversable:
    """The resource at ``parts`` below ``tsume_studio/resources``.

    Raises:
        ValueError: a part is absolute or climbs out with ``..``.
    """
    for part in parts:
        p = PurePosixPath(part)
        if p.is_absolute() or ".." in p.parts:
            raise ValueError(f"resource path must be relative and inside resources/: {part!r}")
    node = files("tsume_studio.resources")
    for part in parts:
        node = node.joinpath(part)
    return node


def read_bytes(*parts: str) -> bytes:
    """Contents of a bundled resource file."""
    return resource_path(*parts).read_bytes()


@lru_cache(maxsize=1)
def register_fonts() -> str:
    """Register the bundled Japanese font with Qt and return its family name.

    Needs a ``QGuiApplication``.  Returns the family of the bundled font, so
    that Japanese text and piece names render on a machine with no Japanese
    fonts installed.

    Raises:
        RuntimeError: Qt could not load the font file.
    """
    from PySide6.QtGui import QFontDatabase

    data = read_bytes("fonts", FONT_FILE)
    font_id = QFontDatabase.addApplicationFontFromData(data)
    families = QFontDatabase.applicationFontFamilies(font_id) if font_id >= 0 else []
    if not families:
        raise RuntimeError(f"Qt could not load the bundled font {FONT_FILE!r}")
    return families[0]


@cache
def piece_svg(name: str) -> bytes:
    """SVG source of the piece image ``resources/pieces/<name>.svg`` (e.g. ``"FU"``)."""
    return read_bytes("pieces", f"{name}.svg")


def sample_problems() -> list[Traversable]:
    """The bundled sample problems (``resources/samples/*.kifu``), sorted by name."""
    folder = resource_path("samples")
    return sorted((f for f in folder.iterdir() if f.name.endswith(".kifu")), key=lambda f: f.name)

"""Tsume Studio's headless core: positions, moves, solvers, records.

Nothing under this package imports Qt.  The names below are loaded on first
use, so that importing a submodule (the command line's entry point) does not
pull in cshogi before it has set up its signal handlers.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .shogi.moves import (
        EvasionInfo, EvasionKind, IllegalMoveError, InvalidMoveError, Move, check_moves,
        classify_evasion, evasions, gives_check, is_legal, japanese, japanese_line, legal_moves,
        parse_move,
    )
    from .shogi.position import (
        STARTING_SFEN, BodError, IllegalPositionError, Position, Problem, SfenError, Status,
        tsume_hands,
    )
    from .shogi.types import BLACK, WHITE

_HOMES = {
    ".shogi.moves": (
        "EvasionInfo", "EvasionKind", "IllegalMoveError", "InvalidMoveError", "Move", "check_moves",
        "classify_evasion", "evasions", "gives_check", "is_legal", "japanese", "japanese_line",
        "legal_moves", "parse_move"),
    ".shogi.position": (
        "STARTING_SFEN", "BodError", "IllegalPositionError", "Position", "Problem", "SfenError",
        "Status", "tsume_hands"),
    ".shogi.types": ("BLACK", "WHITE"),
}
_HOME_OF = {name: module for module, names in _HOMES.items() for name in names}

__all__ = [
    "BLACK", "WHITE", "STARTING_SFEN", "Position", "Problem", "Status", "SfenError", "BodError",
    "IllegalPositionError", "tsume_hands", "Move", "InvalidMoveError", "IllegalMoveError",
    "parse_move", "is_legal", "legal_moves", "check_moves", "gives_check", "evasions",
    "classify_evasion", "EvasionKind", "EvasionInfo", "japanese", "japanese_line",
]


def __getattr__(name: str) -> object:
    home = _HOME_OF.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(home, __name__), name)
    globals()[name] = value
    return value

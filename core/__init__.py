"""Tsume Studio's headless core: positions, moves, solvers, records.

Nothing under this package imports Qt.
"""

from .position import (
    BodError, IllegalPositionError, Position, Problem, SfenError, Status, tsume_hands,
)
from .moves import IllegalMoveError, InvalidMoveError, Move
from .types import BLACK, WHITE

__all__ = [
    "BLACK", "WHITE", "Position", "Problem", "Status", "SfenError", "BodError",
    "IllegalPositionError", "tsume_hands", "Move", "InvalidMoveError", "IllegalMoveError",
]

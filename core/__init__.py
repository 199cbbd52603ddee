"""Tsume Studio's headless core: positions, moves, solvers, records.

Nothing under this package imports Qt.
"""

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

__all__ = [
    "BLACK", "WHITE", "STARTING_SFEN", "Position", "Problem", "Status", "SfenError", "BodError",
    "IllegalPositionError", "tsume_hands", "Move", "InvalidMoveError", "IllegalMoveError",
    "parse_move", "is_legal", "legal_moves", "check_moves", "gives_check", "evasions",
    "classify_evasion", "EvasionKind", "EvasionInfo", "japanese", "japanese_line",
]

"""Shogi basics: squares and pieces, the position, moves and their notation, board diagrams.

Modules: ``types`` (colours, piece types, squares, kanji), ``position`` (SFEN
parsing, validation, a wrapper of cshogi's board), ``moves`` (the move value,
check and evasion generation, Japanese notation), ``bod`` (board diagrams).

May import: the standard library and cshogi only; nothing else in the core.
"""

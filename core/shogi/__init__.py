"""Shogi basics: squares and pieces, the position, moves and their notation, board diagrams.

Modules: ``types`` (colours, piece types, squares, kanji), ``position`` (SFEN
parsing, validation, a wrapper of cshogi's board), ``moves`` (the move value,
check and evasion generation, the geometry of interpositions, Japanese
notation), ``diagram`` (writing board diagrams), ``bod`` (reading them).
``position`` imports only ``types`` and ``diagram``; ``moves`` and ``bod``
build on ``position``.

May import: the standard library and cshogi only; nothing else in the core.
"""

"""The re-proofs' own depth-bounded df-pn (``musou_reproof.BoundedMate``) checked against plain minimax.

Its "no mate within n" is what the 変長 re-proofs rest on, so it is compared,
both ways (at the length and two plies short of it), with minimax that plays
every move: under raw rules with ``bruteforce.BruteForce(False)``, and with
the defender not dropping with the small minimax below.  The game with counted
drops gives the defender fewer moves than tsume rules count, so it mates
wherever tsume rules mate: within the file's length on every row.
"""

from __future__ import annotations

import csv

import cshogi
import pytest

import bruteforce
from musou_reproof import DATA, BoundedMate, CountedDrops, RawMate

pytestmark = pytest.mark.slow


def _rows() -> list[tuple[str, str, int]]:
    with (DATA / "mate.tsv").open(encoding="utf-8") as f:
        rows = [(r["id"], r["sfen"], int(r["length"])) for r in csv.DictReader(f, delimiter="\t")]
    short = [r for r in rows if 3 <= r[2] <= 7]
    return short[::12]


def _no_drop_minimax(b: cshogi.Board, d: int, or_node: bool) -> bool:
    if or_node:
        if d < 1:
            return False
        for m in list(b.legal_moves):
            b.push(m)
            ok = b.is_check() and _no_drop_minimax(b, d - 1, False)
            b.pop()
            if ok:
                return True
        return False
    moves = [m for m in b.legal_moves if not cshogi.move_is_drop(m)]
    if not moves:
        return True
    if d < 2:
        return False
    for m in moves:
        b.push(m)
        ok = _no_drop_minimax(b, d - 1, True)
        b.pop()
        if not ok:
            return False
    return True


@pytest.mark.parametrize("row", _rows(), ids=lambda r: r[0])
def test_bounded_mate_agrees_with_minimax(row: tuple[str, str, int]) -> None:
    _id, sfen, length = row
    board = cshogi.Board(sfen)
    for n in (length - 2, length):
        assert RawMate().mates(board, n) == bruteforce.BruteForce(False).mates(board, n), n
        assert BoundedMate().mates(board, n) == _no_drop_minimax(board.copy(), n, True), n
    assert CountedDrops().mates(board, length) is True

"""将棋無双 rows whose length the official answer does not prove within a minute, but whose published
line it refutes from a proved bound alone.

On 1番 (published 11) and 65番 (published 9) ``tsume batch --seconds 60`` proves no mate within 15
and 17 plies ("at least 17", "at least 19"), not the exact length; on 40番 (published 33, 41 plies
with every interposition counted) no mate within 33 ("at least 35", 2026-12-07).  The published line then mates
too soon: somewhere it misses a defence.  ``check_above_bound`` finds one, and each is re-proved
here without the tool's searches: the line replayed by cshogi, then no mate within the plies the
published line has left after that defence, under tsume rules by the brute force
(``bruteforce.py``) and under raw rules by cshogi's depth-limited df-pn.
"""

from __future__ import annotations

import cshogi
import pytest

import bruteforce  # tests/core is on sys.path
from musou_reproof import musou_rows, raw_mate_within, replay

from tsume_studio.core.check import check_above_bound
from tsume_studio.core.search.contract import Limits
from tsume_studio.core.shogi.position import Position

pytestmark = pytest.mark.slow


# (row, the lower bound `tsume batch tests/data/musou.tsv --cpu-time --seconds 60` proved on
# 2026-11-28, 40番's on 2026-12-07; about 42, 23 and 40 CPU s each for the check)
@pytest.mark.parametrize(("row_id", "at_least"), [("musou-001", 17), ("musou-065", 19), ("musou-040", 35)])
def test_the_published_line_misses_a_defence(row_id: str, at_least: int) -> None:
    row = musou_rows()[row_id]
    line = row["pv"].split()
    assert at_least > len(line)
    result = check_above_bound(Position.from_sfen(row["sfen"]), line, at_least,
                               Limits(seconds=300, cpu_time=True))
    assert result.discrepancies, "the check ran out of its limits"
    for d in result.discrepancies:
        assert d.kind == "longer_defence"
        assert d.line[:d.ply - 1] == tuple(line[:d.ply - 1]) and d.line[-1] != line[d.ply - 1]
        board = replay(row["sfen"], d.line)
        left = len(line) - d.ply   # plies the published line has left after its defence
        assert bruteforce.BruteForce(True).mates(board, left) is False
        assert raw_mate_within(cshogi.Board(board.sfen()), left) is False

"""将棋無双: every discrepancy the official answer reports on a published solution, re-proved by other means.

``CLAIMS`` lists what ``tsume batch tests/data/musou.tsv`` reports (see
docs/benchmarks.md for the run and the rows it did not decide).  Each claim
is re-proved without the tool's searches (``musou_reproof``: the line
replayed by cshogi, cshogi's depth-limited df-pn under raw rules, the brute
force under tsume rules where short), and a second test asks the tool again,
so that the list stays the tool's.
"""

from __future__ import annotations

import pytest

from musou_reproof import BRUTE_MAX, Claim, musou_rows, replay, reprove
from tsume_studio.core.check import check_solution
from tsume_studio.core.search.contract import Limits
from tsume_studio.core.shogi.position import Position

pytestmark = pytest.mark.slow


def _c(row: str, kind: str, ply: int, line: str) -> Claim:
    return Claim(row, kind, ply, tuple(line.split()))


CLAIMS: tuple[Claim, ...] = (
    # 21番 (published 21; the tool: 25)
    _c("musou-021", "longer_defence", 4, "S*7b 6a7b 4b5b N*6b"),
    _c("musou-021", "longer_defence", 4, "S*7b 6a7b 4b5b S*6b"),
    _c("musou-021", "longer_defence", 6, "S*7b 6a7b 4b5b P*6b 7d7c 7b8b"),
    _c("musou-021", "longer_defence", 10, "S*7b 6a7b 4b5b P*6b 7d7c 7b8a 8b9a+ 8a9a S*8b 9a8b"),
    _c("musou-021", "longer_defence", 14, "S*7b 6a7b 4b5b P*6b 7d7c 7b8a 8b9a+ 8a9a S*8b 9a9b P*9c 9b8b 5b6b L*7b"),
    _c("musou-021", "longer_defence", 14, "S*7b 6a7b 4b5b P*6b 7d7c 7b8a 8b9a+ 8a9a S*8b 9a9b P*9c 9b8b 5b6b N*7b"),
    _c("musou-021", "longer_defence", 14, "S*7b 6a7b 4b5b P*6b 7d7c 7b8a 8b9a+ 8a9a S*8b 9a9b P*9c 9b8b 5b6b S*7b"),
    _c("musou-021", "longer_defence", 14, "S*7b 6a7b 4b5b P*6b 7d7c 7b8a 8b9a+ 8a9a S*8b 9a9b P*9c 9b8b 5b6b B*7b"),
    _c("musou-021", "longer_defence", 18,
       "S*7b 6a7b 4b5b P*6b 7d7c 7b8a 8b9a+ 8a9a S*8b 9a9b P*9c 9b8b 5b6b 8b9c P*9d 9c9d 6b6d 9d8e"),
    # 38番 (published 13; the tool: 15)
    _c("musou-038", "longer_defence", 12, "S*2e 1d2e 4f3e 3f3e N*4f 3e4f 7a3e+ 2c3e 1e2e 3d2c 2e3d 2c1c"),
    # 55番 (published 11; the tool: 13)
    _c("musou-055", "longer_defence", 4, "9h9g 9f8e 9g9f 8e9d"),
    _c("musou-055", "longer_defence", 10, "9h9g 9f8e 9g9f 8e9f 6e7d 7c7d N*8h 9f8e 7g7e 8e9d"),
)


@pytest.mark.parametrize("claim", CLAIMS, ids=lambda c: f"{c.row}-{c.kind}-{c.ply}-{c.line[-1]}")
def test_each_claim_is_reproved_independently(claim: Claim) -> None:
    row = musou_rows()[claim.row]
    published = int(row["length"])
    # The published line and the claim's line both replay legally (cshogi alone).
    replay(row["sfen"], row["pv"].split())
    assert claim.line[:claim.ply - 1] == tuple(row["pv"].split()[:claim.ply - 1])
    got = reprove(claim, published)
    assert not got.contradicted, got.summary()
    if claim.kind == "longer_defence":
        # Raw rules, every interposition counted: no mate within the plies the line has left
        # (cshogi's df-pn, a complete search below its node budget).
        assert got.raw is False, got.summary()
        if got.bound <= BRUTE_MAX:
            # Tsume rules, futile interpositions not counted (the brute force's own judgement).
            assert got.tsume_brute is False, got.summary()
    else:
        assert got.raw is True or got.tsume_brute is True, got.summary()


@pytest.mark.parametrize("row_id", sorted({c.row for c in CLAIMS}))
def test_the_tool_reports_exactly_these(row_id: str) -> None:
    row = musou_rows()[row_id]
    result = check_solution(Position.from_sfen(row["sfen"]), row["pv"].split(), Limits(seconds=300, cpu_time=True))
    assert result.complete and result.length is not None
    found = {(d.kind, d.ply, d.line) for d in result.discrepancies}
    assert found == {(c.kind, c.ply, c.line) for c in CLAIMS if c.row == row_id}

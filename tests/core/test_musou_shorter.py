"""将棋無双 57番 and 31番: mates shorter than the published solutions (早詰), re-proved by cshogi.

The official answer does not finish 57番 within a minute (it proves "at most
23 plies" under tsume rules, not the exact length), so the check of the
published line looks for that shorter mate alone.  It stands without the exact
length: cshogi's df-pn, with every interposition counted (raw rules) and a
depth limit of 23, mates, and a raw mate within n is a tsume-rule mate within
n (the tsume rules only take defences away).  With a depth limit of 19 it
proves no raw mate (36 CPU s, so that half is slow).  31番 likewise: at most 25
plies proved (published 107; the source's own note says a shorter mate exists).
"""

from __future__ import annotations

import cshogi
import pytest

from musou_reproof import musou_rows, raw_mate_within, replay  # tests/core is on sys.path


def _row(row_id: str) -> tuple[str, int]:
    row = musou_rows()[row_id]
    return row["sfen"], int(row["length"])


# (row, the tool's proved bound): 57番 (published 29) and 31番 (published 107, the source notes a
# shorter mate), both reported 早詰 by `tsume batch` from the bound alone.
@pytest.mark.parametrize(("row_id", "bound"), [("musou-057", 23), ("musou-031", 25)])
def test_a_raw_mate_within_the_bound(row_id: str, bound: int) -> None:
    sfen, published = _row(row_id)
    assert bound < published
    board = cshogi.Board(sfen)
    dfpn = cshogi.DfPn(bound, 2_000_000)
    assert dfpn.search(board)   # a mate within `bound` plies, every interposition counted
    line = [cshogi.move_to_usi(m) for m in dfpn.get_pv(board)]
    end = replay(sfen, line)   # its line (read from its table) is legal, every attacker move a check
    assert end.is_game_over() and end.is_check()
    if row_id == "musou-057":
        assert len(line) <= bound


@pytest.mark.slow
def test_57_has_no_raw_mate_within_19() -> None:
    sfen, _published = _row("musou-057")
    assert raw_mate_within(cshogi.Board(sfen), 19, nodes=20_000_000) is False

"""将棋無双 57番: a mate within 23 plies where the published solution takes 29 (早詰), re-proved by cshogi.

The official answer does not finish 57番 within a minute (it proves "at most
23 plies" under tsume rules, not the exact length), so its check of the
published line does not run.  The shorter mate stands without the exact
length: cshogi's df-pn, with every interposition counted (raw rules) and a
depth limit of 23, mates, and a raw mate within n is a tsume-rule mate within
n (the tsume rules only take defences away).  With a depth limit of 19 it
proves no raw mate (36 CPU s, so that half is slow).
"""

from __future__ import annotations

import cshogi
import pytest

from musou_reproof import musou_rows, raw_mate_within, replay  # tests/core is on sys.path


def _row() -> tuple[str, int]:
    row = musou_rows()["musou-057"]
    return row["sfen"], int(row["length"])


def test_57_mates_within_23_under_raw_rules() -> None:
    sfen, published = _row()
    assert published == 29
    board = cshogi.Board(sfen)
    dfpn = cshogi.DfPn(23, 2_000_000)
    assert dfpn.search(board)
    line = [cshogi.move_to_usi(m) for m in dfpn.get_pv(board)]
    assert len(line) <= 23 < published
    end = replay(sfen, line)   # legal, every attacker move a check
    assert end.is_game_over() and end.is_check()


@pytest.mark.slow
def test_57_has_no_raw_mate_within_19() -> None:
    sfen, _published = _row()
    assert raw_mate_within(cshogi.Board(sfen), 19, nodes=20_000_000) is False

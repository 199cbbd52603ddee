"""図巧 7番: why the official answer is 15 plies where the book gives 13.

The answer's main line is ``S*8b 7a8b N*7d 8b8c S*9d 8c9d 8d9c+ 9d9c S*8b
9c8c B*9b 8c9b 8b9a+ 9b9c G*8d``: after ``S*9d`` the king's capture
``8c9d`` lasts 9 more plies, two more than the other defences there
(``9e9d`` and ``8c7d``, 7 each, 13 in all).  From ``8c9d`` on every check is
a contact check, so no interposition is possible on that line and no reading
of futile interpositions can shorten it: the difference is a longer defence
(変長), not a 無駄合.  These tests prove it by means that share no code with
the tool's searches (the brute force of ``bruteforce.py``, cshogi's df-pn
with a depth limit) and that the tool's answer agrees.
"""

from __future__ import annotations

import cshogi
import pytest

import bruteforce  # tests/core is on sys.path
from tsume_studio.core.search.contract import Limits, SolveStatus
from tsume_studio.core.search.solver import solve
from tsume_studio.core.shogi.position import Position

ZUKOU7 = "1nkg5/2s6/3rp4/1B7/r8/1PN6/9/9/9 b BG3SN2gn4l16p 1"
MAIN = "S*8b 7a8b N*7d 8b8c S*9d 8c9d 8d9c+ 9d9c S*8b 9c8c B*9b 8c9b 8b9a+ 9b9c G*8d".split()


def _after(moves: list[str]) -> cshogi.Board:
    b = cshogi.Board(ZUKOU7)
    for u in moves:
        b.push_usi(u)
    return b


def test_the_longer_defence_has_no_interposition() -> None:
    """After ``8c9d`` the mate takes 9 plies under tsume rules (none in 7); every later check touches the king."""
    after = _after(MAIN[:6]).sfen()
    assert bruteforce.tsume_length(after, 7) is None
    assert bruteforce.tsume_length(after, 9) == 9
    b = _after(MAIN[:6])
    for i, u in enumerate(MAIN[6:]):
        b.push_usi(u)
        if i % 2 == 0:   # an attacker's check: the defender has no drop (no square between checker and king)
            assert b.is_check()
            assert not any(cshogi.move_is_drop(m) for m in b.legal_moves)
    assert b.is_game_over()


def test_the_other_defences_at_ply_6_last_13() -> None:
    """``9e9d`` and ``8c7d`` after ``S*9d`` are mated in 7 more plies (brute force, tsume rules)."""
    for defence in ("9e9d", "8c7d"):
        after = _after(MAIN[:5] + [defence]).sfen()
        assert bruteforce.tsume_length(after, 5) is None
        assert bruteforce.tsume_length(after, 7) == 7


@pytest.mark.slow
def test_no_raw_mate_within_13_by_cshogi() -> None:
    """With every interposition counted there is no mate within 13 either (cshogi's df-pn, depth 13).

    cshogi leaves out some defences (non-promoting captures by rook, bishop or
    pawn), which only makes a mate easier: its "no mate" stands.  About 40 s
    (1.6 million nodes).
    """
    b = cshogi.Board(ZUKOU7)
    budget = 5_000_000
    dfpn = cshogi.DfPn(depth=13, nodes=budget)
    assert not dfpn.search(b)
    assert dfpn.searched_node < budget   # refuted, not out of nodes
    dfpn = cshogi.DfPn(depth=15, nodes=budget)
    assert dfpn.search(cshogi.Board(ZUKOU7))


@pytest.mark.slow
def test_official_answer_is_15_exact() -> None:
    """The tool's official answer: 15 plies, exact, on the line above (about 8 CPU s)."""
    r = solve(Position.from_sfen(ZUKOU7), Limits(seconds=120, cpu_time=True))
    assert r.status == SolveStatus.MATE
    assert r.length == 15
    assert r.extra["exact"] is True
    assert list(r.pv[:8]) == MAIN[:8]   # the king's replies at ply 14 tie (変同)


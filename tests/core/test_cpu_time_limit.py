"""``Limits.cpu_time``: the time limit counted on the process's CPU clock.

A benchmark on a shared machine gives every problem the same work only when
its limit is CPU time; these tests drive the solvers with a stand-in clock,
so they do not depend on how loaded the machine is.
"""

from __future__ import annotations

import itertools
import time

import cshogi
import pytest

from tsume_studio.core.cli.main import build_parser
from tsume_studio.core.cli.running import limits_from_args
from tsume_studio.core.search.contract import Limits, SolveStatus
from tsume_studio.core.search.dfpn import DfPn, Outcome
from tsume_studio.core.search.helpmate import solve as helpmate_solve
from tsume_studio.core.search.solver import solve
from tsume_studio.core.shogi.position import Position

# The position once given as 図巧 7番 (mistranscribed; no mate): df-pn does not settle it in the
# first thousand nodes.
HARD = "1nkg5/2s6/3rp4/1B7/r8/1P7/9/9/9 b BG3SN2g2n4l16p 1"
# A 49,909-ply helpmate (tests/data/helpmate.tsv, fmrs-jugemu3_49909).
LONG_HELPMATE = "rBKp1r1ss/GL3p1bL/L3klpp1/2G2n2P/1gnnng1P1/P1s1s1P2/1P1P1P3/2P1P4/9 b 5p 1"


def test_limits_pick_their_clock() -> None:
    assert Limits().clock() is time.monotonic
    assert Limits(cpu_time=True).clock() is time.process_time


def test_dfpn_stops_on_the_given_clock() -> None:
    """A clock past the deadline stops the search at its first check (after 1024 nodes)."""
    board = cshogi.Board(HARD)
    ticks = itertools.count(100.0, 50.0)
    searcher = DfPn(board.turn, memory_mb=16)
    assert searcher.search(board, deadline=120.0, clock=lambda: next(ticks)) == Outcome.UNKNOWN
    assert searcher.nodes <= 1025
    # With the wall clock and a deadline an hour ahead, the same search runs on to its node limit.
    other = DfPn(board.turn, memory_mb=16)
    assert other.search(cshogi.Board(HARD), deadline=time.monotonic() + 3600, node_limit=5000) == Outcome.UNKNOWN
    assert other.nodes >= 5000


def test_solver_reads_the_cpu_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    """With ``cpu_time`` the solvers' limit follows ``time.process_time``, here a clock that races ahead.

    The stand-in clock drives Python code only: the kernel reads its thread's CPU clock in C++
    (test_kernel_cpu_limit below).
    """
    monkeypatch.setenv("TSUME_ENGINE", "python")
    ticks = itertools.count(0.0, 10.0)
    monkeypatch.setattr(time, "process_time", lambda: next(ticks))
    result = solve(Position.from_sfen(HARD), Limits(seconds=30, cpu_time=True))
    assert result.status is SolveStatus.UNKNOWN
    assert result.nodes <= 4 * 1024
    helpmate = helpmate_solve(Position.from_sfen(LONG_HELPMATE), Limits(seconds=30, cpu_time=True))
    assert helpmate.status is SolveStatus.UNKNOWN
    assert helpmate.nodes < 50_000   # a few checks of the racing clock, not 30 s of search


def test_kernel_cpu_limit() -> None:
    """The default solve on the kernel stops on a CPU-time limit (the kernel's own clock)."""
    from tsume_studio.core.search import kernel_engine

    if not kernel_engine.available():
        pytest.skip("the C++ kernel is not built in this install")
    cpu0 = time.process_time()
    result = solve(Position.from_sfen(HARD), Limits(seconds=0.5, cpu_time=True))
    spent = time.process_time() - cpu0
    assert result.status is SolveStatus.UNKNOWN and result.extra["engine"] == "kernel"
    assert result.nodes > 10_000
    assert 0.4 <= spent < 3.0


def test_cli_flag_sets_cpu_time() -> None:
    parser = build_parser()
    args = parser.parse_args(["solve", "--seconds", "2", "--cpu-time", "9/9/9/9/9/9/9/9/9 b - 1"])
    assert limits_from_args(args) == Limits(seconds=2.0, cpu_time=True)
    args = parser.parse_args(["bench", "--cpu-time", "x.tsv"])
    assert args.cpu_time is True
    args = parser.parse_args(["solve", "9/9/9/9/9/9/9/9/9 b - 1"])
    assert limits_from_args(args).cpu_time is False

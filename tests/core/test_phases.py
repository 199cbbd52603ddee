"""The direct-mate solver names its phase, and its node count is one quantity from start to end."""

from __future__ import annotations

import pytest

import csv
from pathlib import Path

from tsume_studio.core.search.contract import Limits, Progress, SearchPhase, SolveResult
from tsume_studio.core.search.solver import solve, solve_iter
from tsume_studio.core.shogi.position import Position

# Every test here runs on both df-pn engines (the official answer asks either's table).
pytestmark = pytest.mark.usefixtures("engine")

DATA = Path(__file__).resolve().parents[1] / "data"


def _sfen(name: str, pid: str = "", length: str = "") -> str:
    """The first problem of ``name`` with id ``pid`` (or of ``length`` plies)."""
    with (DATA / name).open(encoding="utf-8") as f:
        return next(r["sfen"] for r in csv.DictReader(f, delimiter="\t")
                    if r["id"] == pid or r.get("length") == length)


def _run(position: Position, limits: Limits) -> tuple[list[Progress], SolveResult]:
    seen: list[Progress] = []
    gen = solve_iter(position, limits)
    while True:
        try:
            seen.append(next(gen))
        except StopIteration as stop:
            return seen, stop.value


def test_long_problem_reports_proof_then_shortest_with_one_count() -> None:
    # 将棋無双 3番 (39 plies): df-pn proves mate in about a second, then the
    # official search works on the length until the limit.
    position = Position.from_sfen(_sfen("musou.tsv", "musou-003"))
    seen, result = _run(position, Limits(seconds=4.0, cpu_time=True))
    phases = [p.phase for p in seen]
    assert phases[0] is SearchPhase.MATE
    assert SearchPhase.SHORTEST in phases
    # The phases run in order: no snapshot of the proof after the length's search began.
    first = phases.index(SearchPhase.SHORTEST)
    assert all(ph is not SearchPhase.MATE for ph in phases[first:])
    counts = [p.nodes for p in seen]
    assert counts == sorted(counts), "the count shown went down between snapshots"
    assert result.nodes >= counts[-1]
    times = [p.elapsed for p in seen]
    assert times == sorted(times)
    asked = [dict(p.stats) for p in seen if p.phase is SearchPhase.SHORTEST and "asking" in dict(p.stats)]
    assert asked, "the length's search never said what it asks"
    assert all(s["at_least"] <= s["asking"] < s["at_most"] for s in asked if "at_most" in s)


def test_result_counts_the_exact_search_nodes() -> None:
    # A 9-ply problem: the same df-pn proof, with and without the official answer after it.
    position = Position.from_sfen(_sfen("mate.tsv", length="9"))
    proof_only = solve(position, exact=False)
    answered = solve(position)
    assert answered.proof is not None and answered.proof.exact
    assert answered.nodes > proof_only.nodes


def test_usi_info_names_the_phase() -> None:
    from tsume_studio.core.cli.usi import _info_line
    line = _info_line(Progress(nodes=10, nps=100.0, elapsed=0.1, root_pn=0, root_dn=5,
                               phase=SearchPhase.ALTERNATIVES))
    assert line.endswith(" phase=alternatives")
    assert "phase=" not in _info_line(Progress(nodes=10, nps=100.0, elapsed=0.1, root_pn=1, root_dn=1))

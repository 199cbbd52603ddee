"""The root's lower bound from tsume-rule questions asked from below (``KernelLengthSearch._rule_floor``).

When the refutation of "mate within L - 2" does not answer soon, the exactness step asks "mate
within 1? 3? 5? ..." under the tsume rules, each with a bounded number of nodes: every "no" is a
proved lower bound, the one a stopped answer reports, and a "yes" is the exact length.  Checked
here: the climb ends at the exact length; the whole answer does not change when the climb always
runs first; and on 将棋無双 84番, whose refutation does not finish within minutes, the bound it
reports is the climb's, which cshogi's raw df-pn does not contradict.  The questions are asked
of a tsume-rule search with a table of its own, so the refutation's table stays as it was.
"""

from __future__ import annotations

import csv
import random
from pathlib import Path

import pytest

from tsume_studio.core.search import kernel_length
from tsume_studio.core.search.contract import Limits
from tsume_studio.core.search.kernel_length import KernelLengthSearch
from tsume_studio.core.search.solver import solve
from tsume_studio.core.shogi.position import Position

import cshogi

from musou_reproof import raw_mate_within  # tests/core is on sys.path
from test_kernel_lower import _run

pytestmark = pytest.mark.skipif(not kernel_length.available(), reason="the kernel's length search is not built")

DATA = Path(__file__).resolve().parents[2] / "tests" / "data"


def _rows(name: str) -> dict[str, dict[str, str]]:
    with (DATA / name).open(encoding="utf-8") as f:
        return {r["id"]: r for r in csv.DictReader(f, delimiter="\t")}


def _search(sfen: str, node_limit: int | None = None) -> KernelLengthSearch:
    s = KernelLengthSearch(cshogi.Board(sfen), deadline=None, cancel=None, node_limit=node_limit,
                           distance_rule=True, memory_mb=64)
    assert _run(s.settle_root()) == "proven"
    return s


def test_the_climb_stops_at_the_exact_length(monkeypatch: pytest.MonkeyPatch) -> None:
    # With nodes enough, every question below the exact length E answers no and "within E" yes:
    # the root's bounds meet at E, the length the refutation from above proves.
    monkeypatch.setattr(kernel_length, "RULE_FLOOR_NODES", 10_000_000)
    rows = _rows("mate.tsv")
    for rid in ("tanuki-3-454", "tanuki-7-15", "tanuki-5-38", "tanuki-11-29"):
        sfen = rows[rid]["sfen"]
        length = _run(_search(sfen).exact(True))
        assert length is not None
        s = _search(sfen)
        _run(s._rule_floor(length + 2))
        assert s.bounds(s.board).lo == s.root_lo == length, (rid, s.root_lo, length)
        # Asked of a search of its own: its table has the mate, the refutation's table is untouched.
        lo, hi, _best = s.climb_k.bounds(sfen)
        assert (lo, hi) == (length, length), (rid, lo, hi, length)
        assert s.k.nodes == 0


def test_the_whole_answer_is_the_same_when_the_climb_runs_first(monkeypatch: pytest.MonkeyPatch) -> None:
    # The climb starts after one node of the refutation: the answer (length, main line, 余詰,
    # variations, 無駄合 with their reasons) is the one without it, on a sample of mate.tsv.
    monkeypatch.setenv(kernel_length.CHOICE_ENV, "kernel")
    rows = [r for r in _rows("mate.tsv").values() if int(r["length"]) >= 5]
    sample = random.Random(27).sample(rows, 60)

    def answer(sfen: str):   # type: ignore[no-untyped-def]
        result = solve(Position.from_sfen(sfen), Limits(seconds=60), force=True)
        proof = result.proof
        assert proof is not None and result.extra["exact"]
        return (proof.length, proof.main_line, proof.alternatives, proof.variations,
                [(f.path, f.move, f.reason.english(), f.moves) for f in proof.futile])

    climbs = []
    floor = KernelLengthSearch._rule_floor

    def counted(self: KernelLengthSearch, cap: int):   # type: ignore[no-untyped-def]
        climbs.append(cap)
        return floor(self, cap)

    monkeypatch.setattr(KernelLengthSearch, "_rule_floor", counted)
    for r in sample:
        monkeypatch.setenv(kernel_length.RULE_FLOOR_ENV, "0")
        before = answer(r["sfen"])
        monkeypatch.setenv(kernel_length.RULE_FLOOR_ENV, "1")
        monkeypatch.setattr(kernel_length, "RULE_FLOOR_AFTER", 1)
        assert answer(r["sfen"]) == before, r["id"]
    # Rows whose refutation the restricted game answers, or that have no refutation to make,
    # never reach the climb: about one in five do.
    assert len(climbs) >= 6, len(climbs)


def test_switched_off_the_floor_is_not_climbed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(kernel_length.RULE_FLOOR_ENV, "0")
    assert not kernel_length.rule_floor()
    monkeypatch.setenv(kernel_length.RULE_FLOOR_ENV, "")
    assert kernel_length.rule_floor()


@pytest.mark.slow
def test_musou_84_reports_the_climbed_bound() -> None:
    # 将棋無双 84番 (published 29): df-pn bounds it by 29 at once, and "mate within 27?" is not
    # answered in minutes (docs/benchmarks.md); within a node budget the climb proves no mate
    # within 15 or more, where the restricted game alone proves 3.  cshogi's df-pn with every
    # interposition counted must find no mate within that bound (a raw mate within n is a
    # tsume-rule mate within n).
    sfen = _rows("musou.tsv")["musou-084"]["sfen"]
    s = _search(sfen, node_limit=3_000_000)
    with pytest.raises(kernel_length.SearchAborted):
        _run(s.exact(True))
    assert 15 <= s.root_lo <= 29 and s.root_hi == 29, (s.root_lo, s.root_hi)
    assert raw_mate_within(cshogi.Board(sfen), s.root_lo - 2) is not True, s.root_lo

"""The root's exact length climbed from below (``KernelLengthSearch._climb``).

The length search asks the root "mate within lo? lo + 2? ..." under the tsume rules, every
question in its one table, up to df-pn's bound: each "no" is a proved lower bound, the one a
stopped answer reports, and the first "yes" is the length.  Checked here: the questions asked
are exactly those; the answer (the length, the mating first moves, and at every defender node of
the tree its counted defences and futile squares with their reasons) is the Python reference
search's, which narrows the root from above, on every row of mate.tsv whose tsume-rule length is
shorter than df-pn's line and a sample of the others; and on 将棋無双
84番, stopped by a node limit, the bound it reports is one cshogi's raw df-pn does not contradict.
"""

from __future__ import annotations

import csv
import random
from pathlib import Path

import pytest

from tsume_studio.core.search import kernel_length
from tsume_studio.core.search.kernel_length import MAX_LENGTH, KernelLengthSearch

import cshogi

from musou_reproof import raw_mate_within  # tests/core is on sys.path
from test_kernel_length import SHORTER_THAN_RAW, _compare_tool
from test_kernel_lower import _run

pytestmark = pytest.mark.skipif(not kernel_length.available(), reason="the kernel's length search is not built")

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data"


def _rows(name: str) -> dict[str, dict[str, str]]:
    with (DATA / name).open(encoding="utf-8") as f:
        return {r["id"]: r for r in csv.DictReader(f, delimiter="\t")}


def _search(sfen: str, node_limit: int | None = None) -> KernelLengthSearch:
    s = KernelLengthSearch(cshogi.Board(sfen), deadline=None, cancel=None, node_limit=node_limit,
                           distance_rule=True, memory_mb=64)
    assert _run(s.settle_root()) == "proven"
    return s


def _asked(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The bounds of the root questions the length search asks from now on."""
    asked: list[int] = []
    ask = KernelLengthSearch._ask

    def counted(self: KernelLengthSearch, or_node: bool, d: int):   # type: ignore[no-untyped-def]
        if or_node and self.phase == "search":
            asked.append(d)
        return ask(self, or_node, d)

    monkeypatch.setattr(KernelLengthSearch, "_ask", counted)
    return asked


def test_the_roots_raw_proof_is_sliced_by_counts(monkeypatch: pytest.MonkeyPatch) -> None:
    # settle_root proves the root by the raw df-pn in slices; each slice ends at a node count
    # (doubling from 1024 up to _ROOT_SLICE_NODES), never at a time, so the proof takes the same
    # nodes each run.  Microcosmos tail 101: about 309,000 nodes, so several slices of the largest size.
    sfen = _rows("microcosmos.tsv")["microcosmos-tail-101"]["sfen"]
    run_on_thread = kernel_length.kernel_engine.run_on_thread

    def proved() -> tuple[int, list[int]]:
        asked: list[int] = []

        def recorded(search, call, args, *rest):   # type: ignore[no-untyped-def]
            if call == "prove_root":
                asked.append(args[0] - int(search.oracle_nodes))
            return run_on_thread(search, call, args, *rest)

        monkeypatch.setattr(kernel_length.kernel_engine, "run_on_thread", recorded)
        s = _search(sfen)
        return int(s.k.oracle_nodes), asked

    first = proved()
    assert first[1][:4] == [1024, 2048, 4096, 8192]
    assert first[1].count(kernel_length._ROOT_SLICE_NODES) >= 2 and max(first[1]) == kernel_length._ROOT_SLICE_NODES
    assert proved() == first


def test_the_climb_asks_from_below_up_to_the_length(monkeypatch: pytest.MonkeyPatch) -> None:
    rows = _rows("mate.tsv")
    asked = _asked(monkeypatch)
    # df-pn proves tanuki-3-204 by a 9-ply line; its tsume-rule length is 3.  The first question,
    # a mate within the cap at all, is answered by df-pn's proof, which bounds the root by 9; then
    # "within 1?" no, "within 3?" yes, and nothing between 3 and 9 is asked.
    s = _search(rows["tanuki-3-204"]["sfen"])
    assert _run(s.exact(True)) == 3
    assert asked == [MAX_LENGTH, 1, 3]
    assert s.root_lo == s.root_hi == 3
    # Where df-pn's line has the tsume-rule length L, every question up to L - 2 answers no and
    # "within L?" is never asked: df-pn's proof answers it.  Each refutation stays in the one table.
    asked.clear()
    s = _search(rows["tanuki-11-29"]["sfen"])
    assert _run(s.exact(True)) == 11
    assert asked == [MAX_LENGTH, 1, 3, 5, 7, 9]
    lo, hi, _best = s.k.bounds(s.board.sfen())
    assert (lo, hi) == (11, 11), (lo, hi)


def test_only_the_root_is_climbed(monkeypatch: pytest.MonkeyPatch) -> None:
    # Any other position (the tree's variations) is narrowed from above: its raw bound is nearly
    # always its length, so one refutation settles it.
    asked = _asked(monkeypatch)
    s = _search(_rows("mate.tsv")["tanuki-11-29"]["sfen"])
    s.phase = "tree"
    assert _run(s.exact(True)) == 11
    assert asked == []


def test_the_answer_is_the_python_reference_searchs(monkeypatch: pytest.MonkeyPatch) -> None:
    # The Python reference search asks the root from above; both answers must be the same.
    monkeypatch.setenv(kernel_length.CHOICE_ENV, "kernel")
    rows = _rows("mate.tsv")
    longer = [r for r in rows.values() if int(r["length"]) >= 7 and r["id"] not in SHORTER_THAN_RAW]
    sample = [rows[rid] for rid in SHORTER_THAN_RAW] + random.Random(27).sample(longer, 24)
    tool = _compare_tool()
    problems = [p for r in sample for p in tool.compare_row(r["id"], r["sfen"], 60.0, 40)]
    assert problems == []


@pytest.mark.slow
def test_musou_84_reports_the_climbed_bound() -> None:
    # 将棋無双 84番: its published line mates in 29 (the tool proves that too), so no proved lower
    # bound may pass 29.  Within this node limit the climb proves no mate within 15 or more before
    # it stops (the whole answer takes about 0.5 M nodes since the raw looks grow with a node's
    # cost; 300,000 stop it at "at least 23").  cshogi's df-pn with every interposition counted must
    # find no mate within that bound (a raw mate within n is a tsume-rule mate within n).
    sfen = _rows("musou.tsv")["musou-084"]["sfen"]
    s = _search(sfen, node_limit=300_000)
    with pytest.raises(kernel_length.SearchAborted):
        _run(s.exact(True))
    assert 15 <= s.root_lo <= 29 and s.root_lo <= s.root_hi, (s.root_lo, s.root_hi)
    assert raw_mate_within(cshogi.Board(sfen), s.root_lo - 2) is not True, s.root_lo

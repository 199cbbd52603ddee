"""The kernel's length search is watched while a call runs (core.search.kernel_length).

A question pauses for Python only between its outermost nodes; its futility tests and raw looks
run to their end.  Once an answer has run a moment its calls run on the search thread, and the
generator reports from the counts the kernel publishes meanwhile.
"""

from __future__ import annotations

import itertools
import threading
import time

import cshogi
import pytest

from tsume_studio.core.search import kernel_engine, kernel_length
from tsume_studio.core.search.contract import Limits, Progress

pytestmark = pytest.mark.skipif(not kernel_length.available(), reason="the kernel's length search is not built")

# 将棋無双 24番 (tests/data/musou.tsv): "mate within 29?" takes minutes under the tsume rules.
MUSOU_24 = "3Bss3/4P4/2n1k1+P2/Nn3+r3/3Bs4/Lpr6/9/2N6/3L5 b 2G2gs2l15p 1"
NO_PAUSE = (0, 0)   # pause_nodes, pause_work: the call never pauses for Python


def _search(cancel: threading.Event | None = None) -> kernel_length.KernelLengthSearch:
    return kernel_length.KernelLengthSearch(cshogi.Board(MUSOU_24), deadline=None, cancel=cancel, node_limit=None,
                                            distance_rule=True, memory_mb=64, oracle_mb=64)


def test_the_counts_are_read_while_a_call_runs() -> None:
    search = _search()
    k = search.k
    answer: list[str] = []
    worker = threading.Thread(target=lambda: answer.append(k.question(MUSOU_24, True, 29, 0, 1.5, *NO_PAUSE)))
    worker.start()
    seen: list[tuple[int, int, int, int, int]] = []
    while worker.is_alive():
        seen.append((int(k.nodes), int(k.oracle_nodes), int(k.futility_tests), int(k.entries), int(k.capacity)))
        time.sleep(0.05)
    worker.join()
    assert answer == ["stopped"]
    assert len(seen) >= 10
    for column in range(3):   # nodes, the raw df-pn's nodes and the futility tests only grow
        values = [row[column] for row in seen]
        assert values == sorted(values)
    assert seen[-1][0] + seen[-1][1] > seen[0][0] + seen[0][1]   # the search went on meanwhile
    assert all(0 < row[3] <= row[4] for row in seen[1:])
    # Between calls the exact counts: at least what was published.
    assert int(k.nodes) >= seen[-1][0] and int(k.futility_tests) >= seen[-1][2]


def test_a_call_that_does_not_pause_is_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(kernel_length, "_INLINE_FOR", 0.0)   # as in an answer that has run a moment
    search = _search()
    gen = search._call(lambda: search.k.question(MUSOU_24, True, 29, 0, 1.5, *NO_PAUSE))
    reports: list[tuple[float, Progress]] = []
    t0 = time.monotonic()
    try:
        while True:
            reports.append((time.monotonic() - t0, next(gen)))
    except StopIteration as stop:
        assert stop.value == "stopped"
    # Inline, the call would have returned after its 1.5 s with no report at all.
    assert len(reports) >= 8
    times = [0.0] + [t for t, _p in reports]
    assert max(b - a for a, b in itertools.pairwise(times)) < 0.5
    nodes = [p.nodes for _t, p in reports]
    assert nodes == sorted(nodes) and nodes[-1] > 0


def test_closing_the_report_stops_the_call_and_the_search_goes_on(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(kernel_length, "_INLINE_FOR", 0.0)
    search = _search()
    gen = search._call(lambda: search.k.question(MUSOU_24, True, 29, 0, 60.0, *NO_PAUSE))
    next(gen)   # the first report, about 0.1 s into the call
    t0 = time.monotonic()
    gen.close()   # waits for the call, which the close cancelled
    assert time.monotonic() - t0 < 2.0   # without the cancel: the 60 s stop
    search.budget(Limits(), None, time.monotonic)   # a later question of the same search (a check, Continue)
    assert search.k.question(MUSOU_24, True, 3, 0, 30.0, *NO_PAUSE) == "no"   # 24番 is no mate in 3


def test_a_failure_on_the_search_thread_is_raised_to_the_caller() -> None:
    def fail() -> None:
        time.sleep(0.1)
        raise ValueError("bad position")

    ticks: list[int] = []

    def tick() -> Progress | None:
        ticks.append(1)
        return None

    with pytest.raises(ValueError, match="bad position"):
        list(kernel_engine.call_on_thread(fail, tick, 0.02, lambda: None))
    assert ticks   # looked at while it ran

"""The df-pn proof runs on its own thread while the solver generator reports on it.

Before, the search returned to the root for every report (ten times a
second) and lost what it knew only on its path; on Microcosmos' 93-ply tail
that took 1,774,499 nodes against 301,551 for a search never interrupted.
Now a reported search is the same search as an uninterrupted one.
"""

from __future__ import annotations

import os
import sys
import threading
import time
from pathlib import Path

import cshogi
import pytest

from tsume_studio.core.search import background
from tsume_studio.core.search.background import in_background
from tsume_studio.core.search.contract import Cancel, Limits, Progress, SolveStatus, drive
from tsume_studio.core.search.dfpn import DfPn, Outcome
from tsume_studio.core.search.solver import solve_iter
from tsume_studio.core.shogi.position import Position

def _tail_41() -> str:
    """Microcosmos' 41-ply tail, proved in about 38,000 nodes."""
    for line in (Path(__file__).parents[1] / "data" / "microcosmos.tsv").read_text(encoding="utf-8").splitlines():
        cells = line.split("\t")
        if cells[0] == "microcosmos-tail-41":
            return cells[1]
    raise AssertionError("microcosmos-tail-41 missing from tests/data/microcosmos.tsv")


def _quick(_flag: object) -> Progress:
    return Progress(nodes=0, nps=0.0, elapsed=0.0, root_pn=1, root_dn=1)


def test_reports_do_not_change_the_search(monkeypatch: pytest.MonkeyPatch) -> None:
    """Reported every 10 ms, the proof takes exactly the nodes of a search left alone."""
    monkeypatch.setenv("TSUME_ENGINE", "python")   # compared with the Python engine's own count
    sfen = _tail_41()
    board = cshogi.Board(sfen)
    alone = DfPn(board.turn, memory_mb=256)
    assert alone.search(board) == Outcome.PROVEN
    snapshots: list[Progress] = []
    result = drive(solve_iter(Position.from_sfen(sfen), Limits(memory_mb=256), exact=False,
                              progress_interval=0.01), snapshots.append)
    assert result.status is SolveStatus.MATE
    assert result.nodes == alone.nodes
    assert len(snapshots) >= 3
    assert any(s.path for s in snapshots)     # reports read the path while the search runs


def test_closing_the_generator_stops_the_work() -> None:
    started = threading.Event()

    def work(flag: Cancel) -> int:
        started.set()
        while not flag.is_set():
            time.sleep(0.001)
        return 1

    gen = in_background(work, lambda: _quick(None), 0.01)
    next(gen)
    assert started.wait(1.0)
    t = time.monotonic()
    gen.close()
    assert time.monotonic() - t < 0.5
    assert not any(t.name == "tsume-search" and t.is_alive() for t in threading.enumerate())


def test_the_works_exception_reaches_the_caller() -> None:
    def work(_flag: Cancel) -> int:
        raise MemoryError("table")

    with pytest.raises(MemoryError, match="table"):
        drive(in_background(work, lambda: _quick(None), 0.01))


def test_cancel_reaches_the_work() -> None:
    cancel = threading.Event()
    seen: list[bool] = []

    def work(flag: Cancel) -> int:
        while not flag.is_set():
            time.sleep(0.001)
        seen.append(True)
        return 7

    gen = in_background(work, lambda: _quick(None), 0.01, cancel)
    next(gen)
    cancel.set()
    assert drive(gen) == 7
    assert seen == [True]


@pytest.mark.skipif(sys.platform != "linux", reason="a nice value per thread is Linux's")
def test_the_search_threads_run_below_the_window(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(background, "_search_nice", 0)
    here = os.getpriority(os.PRIO_PROCESS, threading.get_native_id())
    seen: list[int] = []
    done = threading.Event()

    def job() -> None:
        seen.append(os.getpriority(os.PRIO_PROCESS, threading.get_native_id()))
        done.set()

    def run_on_a_new_thread() -> None:
        done.clear()
        t = background.SearchThread()   # not from the pool, which the other tests share
        t.submit(job)
        t._jobs.put(None)   # the thread ends after the job
        assert done.wait(10)

    run_on_a_new_thread()
    background.lower_search_priority(3)
    run_on_a_new_thread()
    background.lower_search_priority(1)   # a lower level asked later takes nothing back
    run_on_a_new_thread()
    assert seen == [here, min(19, here + 3), min(19, here + 3)]
    assert os.getpriority(os.PRIO_PROCESS, threading.get_native_id()) == here   # the caller's own is untouched


class _FakeKernel32:
    """kernel32's two thread-priority calls, recorded."""

    def __init__(self) -> None:
        self.calls: list[tuple[object, int]] = []

    def GetCurrentThread(self) -> object:  # noqa: N802 (Windows' name)
        return "this thread"

    def SetThreadPriority(self, handle: object, priority: int) -> int:  # noqa: N802
        self.calls.append((handle, priority))
        return 1


def test_on_windows_the_search_threads_go_below_normal(monkeypatch: pytest.MonkeyPatch) -> None:
    fake = _FakeKernel32()
    monkeypatch.setattr(background.sys, "platform", "win32")
    monkeypatch.setattr(background, "_kernel32", lambda: fake)
    background._lower_this_thread(5, 5)
    background._lower_this_thread(7, 12)
    assert fake.calls == [("this thread", background.THREAD_PRIORITY_BELOW_NORMAL),
                          ("this thread", background.THREAD_PRIORITY_LOWEST)]


def test_a_refused_priority_leaves_the_search_as_it_was(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse() -> object:
        raise OSError("no kernel32 here")

    monkeypatch.setattr(background.sys, "platform", "win32")
    monkeypatch.setattr(background, "_kernel32", refuse)
    background._lower_this_thread(5, 5)   # no exception: a hint only
    monkeypatch.setattr(background.sys, "platform", "darwin")
    monkeypatch.setattr(background, "_kernel32", lambda: pytest.fail("kernel32 asked on macOS"))
    background._lower_this_thread(5, 5)

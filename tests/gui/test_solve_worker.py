"""SolverWorker: signals in order, throttled progress, cancel never returns, errors reported."""

from __future__ import annotations

import itertools
import time
from typing import Any

import pytest
from pytestqt.qtbot import QtBot

from tsume_studio.core.shogi.position import Position
from tsume_studio.core.search.contract import Limits, Progress, SolveResult, SolveStatus
from tsume_studio.core.search import background
from tsume_studio.gui import worker as worker_module
from tsume_studio.gui.worker import SolverWorker, running_workers



def test_quick_search_emits_in_order(qtbot: QtBot, sample_position: Position, standins: Any) -> None:
    worker = SolverWorker(standins.quick, sample_position, Limits(), interval=0.0)
    results: list[SolveResult] = []
    snapshots: list[Progress] = []
    worker.returned.connect(results.append)
    worker.progress.connect(snapshots.append)
    with qtbot.waitSignals([worker.started, worker.returned, worker.finished],
                           order="strict", timeout=5000):
        worker.start()
    assert results[0].status is SolveStatus.MATE and results[0].pv == ("G*5b",)
    assert [p.nodes for p in snapshots] == [1, 2, 3]
    qtbot.waitUntil(lambda: not worker.is_running, timeout=5000)
    assert running_workers() == 0


def test_progress_is_throttled(qtbot: QtBot, sample_position: Position, standins: Any) -> None:
    worker = SolverWorker(standins.waiting, sample_position, Limits(), interval=0.1)
    snapshots: list[Progress] = []
    worker.progress.connect(snapshots.append)
    with qtbot.waitSignal(worker.started, timeout=5000):
        worker.start()
    t0 = time.monotonic()
    qtbot.waitUntil(lambda: len(snapshots) >= 5, timeout=5000)
    elapsed = time.monotonic() - t0
    with qtbot.waitSignal(worker.finished, timeout=5000):
        worker.quit()
    # The stand-in yields every 5 ms (about 20 per 100 ms); at most ~10 a second get
    # through, and the ones in between are dropped.
    assert elapsed >= 0.35
    nodes = [p.nodes for p in snapshots]
    steps = [b - a for a, b in itertools.pairwise(nodes)]
    assert sum(steps) / len(steps) >= 3, f"snapshots were not thinned out: {nodes}"


def test_abort_does_not_return(qtbot: QtBot, sample_position: Position, standins: Any) -> None:
    worker = SolverWorker(standins.waiting, sample_position, Limits())
    with qtbot.waitSignal(worker.progress, timeout=5000):
        worker.start()
    got: list[Any] = []
    worker.stopped.connect(got.append)
    with qtbot.assert_not_emitted(worker.returned), \
            qtbot.waitSignals([worker.stopped, worker.aborted, worker.finished], order="strict", timeout=2000):
        worker.quit()
    assert worker.abort_requested
    # What the generator returned after the stop comes with `stopped`, for a caller that shows it.
    assert len(got) == 1 and got[0].status is SolveStatus.CANCELLED
    qtbot.waitUntil(lambda: running_workers() == 0, timeout=5000)


def test_error_is_reported(qtbot: QtBot, sample_position: Position, standins: Any) -> None:
    worker = SolverWorker(standins.failing, sample_position, Limits())
    errors: list[BaseException] = []
    worker.errored.connect(errors.append)
    with qtbot.assert_not_emitted(worker.returned), \
            qtbot.waitSignals([worker.errored, worker.finished], order="strict", timeout=5000):
        worker.start()
    assert isinstance(errors[0], RuntimeError) and "solver broke" in str(errors[0])


def test_wait_blocks_until_stopped(qtbot: QtBot, sample_position: Position, standins: Any) -> None:
    """The window's close path: set the flag, then block on the thread without an event loop."""
    worker = SolverWorker(standins.waiting, sample_position, Limits())
    with qtbot.waitSignal(worker.progress, timeout=5000):
        worker.start()
    worker.quit()
    t0 = time.monotonic()
    assert worker.wait(3000)
    assert time.monotonic() - t0 < 1.0
    qtbot.waitUntil(lambda: running_workers() == 0, timeout=5000)


def test_a_phase_s_last_snapshot_is_sent(qtbot: QtBot, sample_position: Position) -> None:
    """df-pn's finished tree (the last proving-mate snapshot) reaches the window even when the
    official answer's first snapshot follows it within the throttle interval."""
    from dataclasses import replace

    from tsume_studio.core.search.contract import SearchPhase

    def solver(position: Position, limits: Limits, cancel: Any) -> Any:
        base = Progress(nodes=0, nps=0.0, elapsed=0.0, root_pn=1, root_dn=1, phase=SearchPhase.MATE)
        yield base
        yield replace(base, nodes=1, root_pn=0, root_dn=10**12)        # the proof, at once
        yield replace(base, nodes=2, root_pn=0, root_dn=10**12, phase=SearchPhase.SHORTEST)
        return SolveResult(SolveStatus.MATE, position.sfen(), pv=("G*5b",), length=1, nodes=2)

    worker = SolverWorker(solver, sample_position, Limits(), interval=10.0)
    snapshots: list[Progress] = []
    worker.progress.connect(snapshots.append)
    with qtbot.waitSignal(worker.finished, timeout=5000):
        worker.start()
    mate = [p for p in snapshots if p.phase is SearchPhase.MATE]
    assert mate and mate[-1].nodes == 1 and mate[-1].root_pn == 0


def test_a_solve_lowers_the_search_threads(qtbot: QtBot, sample_position: Position, standins: Any,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(background, "_search_nice", 0)
    worker = SolverWorker(standins.quick, sample_position, Limits(), interval=0.0)
    with qtbot.waitSignal(worker.finished, timeout=5000):
        worker.start()
    assert background._search_nice == worker_module.SEARCH_NICE > 0

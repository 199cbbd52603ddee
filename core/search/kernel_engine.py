"""df-pn in the C++ kernel behind the solvers' contract (core.search.contract).

The kernel's df-pn (``core/kernel/c++/dfpn.h``) has the Python engine's
meaning (core.search.dfpn): the same table with hand dominance, loops,
initial estimates and delayed interpositions.  Here it runs on a thread of
its own with the interpreter lock released for the whole search, while the
generator :func:`solve_iter` wakes about ten times a second and yields a
:class:`~.contract.Progress` built from the snapshot the search publishes.

Which engine runs the raw df-pn is chosen here, as rapidfuzz chooses its
implementation: the kernel where it is built, else the Python engine;
``TSUME_ENGINE=python`` or ``TSUME_ENGINE=kernel`` in the environment forces
one (:func:`engine_choice`).
"""

from __future__ import annotations

import os
import threading
import time
import weakref
from dataclasses import replace
from collections.abc import Callable, Generator, Sequence
from typing import Any, Protocol, TypeVar

from .background import search_thread
from .contract import (
    Cancel, ChildInfo, INFINITY, Limits, PathEntry, Progress, SearchPhase, SolveResult, SolveStatus,
)

ENGINE_ENV = "TSUME_ENGINE"
ENGINES = ("kernel", "python")

_PATH_LEVELS = 64        # deepest level a progress snapshot describes
_PATH_CHILDREN = 24      # children listed per level
POLL = 0.02              # seconds between looks at a Python cancel flag while a kernel search runs
T = TypeVar("T")


class CancelWatched(Protocol):
    """What :class:`CancelWatch` watches: something that passes its set cancel flag on to its kernel calls."""

    def pass_cancel(self) -> None:
        """Called every :data:`POLL` seconds on the watcher's thread: call the kernel's ``cancel()``
        once the Python flag is set; let go of the watch (:meth:`CancelWatch.discard`) when done."""


class CancelWatch:
    """Passes a set cancel flag on to the kernel calls of the live objects registered with it.

    A kernel call runs with the interpreter lock released and cannot look at a Python flag; a
    call that returns to Python only now and then (a length question pauses only between its
    outermost nodes; a raw df-pn slice runs up to 0.1 s) would see a Stop late.  One daemon
    thread, made at the first registration, looks every :data:`POLL` seconds while a registered
    object is alive (a few microseconds a look) and calls its :meth:`~CancelWatched.pass_cancel`;
    the kernel's ``cancel()`` is seen within 1,024 nodes.  The set holds weak references: an
    object let go leaves it.
    """

    def __init__(self) -> None:
        self._searches: weakref.WeakSet[CancelWatched] = weakref.WeakSet()
        self._cond = threading.Condition()
        self._thread: threading.Thread | None = None

    def add(self, search: CancelWatched) -> None:
        with self._cond:
            self._searches.add(search)
            if self._thread is None:
                self._thread = threading.Thread(target=self._loop, name="tsume-kernel-cancel", daemon=True)
                self._thread.start()
            self._cond.notify()

    def discard(self, search: CancelWatched) -> None:
        with self._cond:
            self._searches.discard(search)

    def _loop(self) -> None:
        while True:
            self._look()   # its references end with it
            time.sleep(POLL)

    def _look(self) -> None:
        with self._cond:
            while not self._searches:
                self._cond.wait()
            live = list(self._searches)
        for search in live:
            search.pass_cancel()


CANCEL_WATCH = CancelWatch()
"""The one watch of the process (its thread is made at the first registration)."""


class EngineChoiceError(ValueError):
    """``TSUME_ENGINE`` names an unknown engine, or the kernel it asks for is not built."""


def _load() -> type | None:
    from .. import kernel

    if not kernel.AVAILABLE:   # not built, or TSUME_PURE set
        return None
    return kernel.DfPnSearch


_KERNEL = _load()


def available() -> bool:
    """True when the compiled kernel with its df-pn is importable."""
    return _KERNEL is not None


def engine_choice() -> str:
    """The engine the raw df-pn runs on: ``"kernel"`` or ``"python"``.

    ``TSUME_ENGINE`` forces one; unset or empty, the kernel runs where it is built.

    Raises:
        EngineChoiceError: an unknown name, or ``kernel`` without a built kernel.
    """
    wanted = os.environ.get(ENGINE_ENV, "").strip().lower()
    if wanted and wanted not in ENGINES:
        raise EngineChoiceError(f"{ENGINE_ENV} must be one of {', '.join(ENGINES)}, got {wanted!r}")
    if wanted == "kernel" and _KERNEL is None:
        raise EngineChoiceError(f"{ENGINE_ENV}=kernel, but the compiled kernel is not built in this install "
                                "(reinstall with a C++ compiler at hand)")
    if wanted:
        return wanted
    return "kernel" if _KERNEL is not None else "python"


def supports(options: Any) -> bool:
    """True when the kernel implements df-pn ``options`` (core.search.dfpn.Options; None: defaults).

    The kernel sums children plainly; the double-counting modes stay with the Python engine.
    """
    return options is None or getattr(options, "summing", "sum") == "sum"


def _clip(x: int) -> int:
    return INFINITY if x >= INFINITY else x


def _ranked(level: tuple[int, bool, Sequence[tuple[str, int, int]]]) -> tuple[ChildInfo, ...]:
    _sel, or_node, children = level
    order = sorted(range(len(children)),
                   key=(lambda j: (children[j][1], -children[j][2])) if or_node
                   else (lambda j: (children[j][2], -children[j][1])))
    return tuple(ChildInfo(children[j][0], _clip(children[j][1]), _clip(children[j][2]))
                 for j in order[:_PATH_CHILDREN])


def progress_from_snapshot(snap: tuple[Any, ...], elapsed: float) -> Progress:
    """A :class:`Progress` from the kernel's snapshot tuple (see ``DfPnSearch.snapshot``)."""
    nodes, root_pn, root_dn, entries, fill, cpu, levels = snap
    levels = levels[:_PATH_LEVELS]
    path = []
    for k, (sel, _or, children) in enumerate(levels):
        if sel < 0 or sel >= len(children):
            break
        below = _ranked(levels[k + 1]) if k + 1 < len(levels) else ()
        usi, pn, dn = children[sel]
        path.append(PathEntry(usi, _clip(pn), _clip(dn), below))
    return Progress(nodes=nodes, nps=nodes / elapsed if elapsed > 0 else 0.0, elapsed=elapsed,
                    root_pn=_clip(root_pn), root_dn=_clip(root_dn), path=tuple(path),
                    root_children=_ranked(levels[0]) if levels else (), table_fill=fill,
                    table_entries=entries, stats=(("cpu_seconds", round(cpu, 3)),))


def call_on_thread(call: Callable[[], T], tick: Callable[[], Progress | None], every: float,
                   stop: Callable[[], object]) -> Generator[Progress, None, T]:
    """Run ``call()`` on a search thread; every ``every`` seconds until it returns, call ``tick()``
    and yield the progress it gives (None: nothing to report).

    Closing the generator early, or an exception while it waits (Ctrl-C), calls ``stop()``, which
    must make the call return soon, and waits for it.
    """
    outcome: list[T] = []
    failure: list[BaseException] = []
    done = threading.Event()

    def run() -> None:
        try:
            outcome.append(call())
        except BaseException as exc:  # handed to the generator, which raises it
            failure.append(exc)
        finally:
            done.set()

    worker = search_thread()
    worker.submit(run)
    try:
        while not done.wait(every):
            p = tick()
            if p is not None:
                yield p
    finally:
        if not done.is_set():
            stop()
        done.wait()
        worker.release()
    if failure:
        raise failure[0]
    return outcome[0]


def run_on_thread(search: Any, call: str, args: tuple[Any, ...], cancel: Cancel | None, interval: float,
                  start: float, phase: SearchPhase | None = None) -> Generator[Progress, None, Any]:
    """Call ``search.<call>(*args)`` on a search thread; yield its progress until it returns.

    The snapshots carry ``phase`` (None: none) and ``elapsed`` from ``start``
    (``time.monotonic``).

    The kernel cannot look at a Python cancel flag, so this generator does,
    every :data:`POLL` seconds, and passes it on with ``search.cancel()``; so does
    closing the generator early, which then waits for the call to return.
    """
    next_report = time.monotonic() + interval

    def tick() -> Progress | None:
        nonlocal next_report
        if cancel is not None and cancel.is_set():
            search.cancel()
        now = time.monotonic()
        if now < next_report:
            return None
        next_report = now + interval
        p = progress_from_snapshot(search.snapshot(), now - start)
        return p if phase is None else replace(p, phase=phase)

    return (yield from call_on_thread(lambda: getattr(search, call)(*args), tick, POLL, search.cancel))


INLINE_NODES = 1_024
INLINE_SECONDS = 0.02
"""The first slice of a df-pn call, run on the calling thread: most problems end within it (1,033
of mate.tsv's 1,040 proofs), and each hand-over to the search thread and back costs about 0.1 ms
of CPU, as much as a short problem's whole search.  The slice is no longer than the thread's poll
of the cancel flag, and it recurses no deeper than its nodes (each level of the recursion is a
node counted, the node limit exact): df-pn takes under 820 bytes of C++ stack a ply
(Microcosmos' tail 301, proved with a 321-ply line on a thread of 256 KB; 96 KB overflowed), so
1,024 plies fit any thread's stack, where the search thread's 256 MB holds 4,000."""


def _inline_clock(cpu_time: bool) -> Callable[[], float]:
    return time.thread_time if cpu_time else time.monotonic   # the kernel's own clocks for a call


def prove(search: Any, nodes: int, seconds: float, cpu_time: bool, cancel: Cancel | None, interval: float,
          start: float, phase: SearchPhase | None = None) -> Generator[Progress, None, str]:
    """``search.run(nodes, seconds, cpu_time)``: 'proven', 'disproven' or 'unknown', its
    progress yielded as :func:`run_on_thread`'s.  ``nodes`` is the search's node count to stop
    at (0: none), ``seconds`` a limit from now (negative: none).  The first
    :data:`INLINE_NODES` run on the calling thread, the rest on a search thread: a new search
    that the slice does not finish is searched there afresh, the slice's nodes counted."""
    if cancel is None or not cancel.is_set():
        clock = _inline_clock(cpu_time)
        fresh = int(search.nodes) == 0
        cap = int(search.nodes) + INLINE_NODES
        t0 = clock()
        got = str(search.run(min(cap, nodes) if nodes else cap,
                             INLINE_SECONDS if seconds < 0 else min(seconds, INLINE_SECONDS), cpu_time))
        if got != "unknown" or (nodes and int(search.nodes) >= nodes):
            return got
        if seconds >= 0:
            seconds -= clock() - t0
            if seconds <= 0:
                return got
        if fresh:
            # A search the slice began starts again on the thread from an empty table, so that what
            # it searches is one uninterrupted run's, wherever the slice ends: run again from the
            # root over the slice's table, it took another path (Microcosmos' tails 101-1501: from
            # 0.81 to 1.77 times the nodes; docs/benchmarks.md, 2026-12-01 22:37 UTC section).  The slice's
            # nodes stay counted.
            search.clear_table()
    return str((yield from run_on_thread(search, "run", (nodes, seconds, cpu_time), cancel, interval, start, phase)))


def proof_line(search: Any, nodes: int, seconds: float, cpu_time: bool, cancel: Cancel | None, interval: float,
               start: float, phase: SearchPhase | None = None) -> Generator[Progress, None, tuple[list[str], bool]]:
    """``search.principal_variation(nodes, seconds, cpu_time)``: (the proof line in USI, whether
    it replays to mate), searched on where the table stops short; ``nodes`` a budget from now (0:
    none), ``seconds`` as :func:`prove`'s, a first slice on the calling thread as there."""
    if cancel is None or not cancel.is_set():
        clock = _inline_clock(cpu_time)
        before = int(search.nodes)
        t0 = clock()
        line, complete = search.principal_variation(min(nodes, INLINE_NODES) if nodes else INLINE_NODES,
                                                    INLINE_SECONDS if seconds < 0 else min(seconds, INLINE_SECONDS),
                                                    cpu_time)
        if complete:
            return list(line), True
        if nodes:
            nodes -= int(search.nodes) - before
            if nodes <= 0:
                return list(line), False
        if seconds >= 0:
            seconds -= clock() - t0
            if seconds <= 0:
                return list(line), False
    line, complete = yield from run_on_thread(search, "principal_variation", (nodes, seconds, cpu_time), cancel,
                                              interval, start, phase)
    return list(line), bool(complete)


def new_search(sfen: str, memory_mb: int, options: Any = None, *, mate3: bool | None = None,
               play_checks: bool = False) -> Any:
    """A kernel ``DfPnSearch`` of ``sfen`` with df-pn ``options`` (core.search.dfpn.Options or None).

    ``play_checks`` makes the kernel play each new check as its node expands and count its
    evasions for its proof number, as the Python engine does; by default a check's numbers are
    estimated from the board and it is played only when searched (faster: docs/benchmarks.md,
    2026-11-28 16:40 UTC).  The length search's raw oracle asks for it (make_oracle): with the
    estimate there, the builder's choice between equal moves, which takes the oracle's move first,
    changed on two problems of the tests, and the length search's figures were measured with it.

    ``mate3`` switches the kernel's 3-ply mate test, which runs only where the kernel plays each
    new check as its node expands (``play_checks``, not the default); off unless asked for
    (``Options.mate3`` is the Python engine's cshogi search and does not turn it on).  Where it
    runs, the solve's answer builder reads this table: the test stores its nodes with the whole
    hand as proof hand and nothing below them, and the builder's questions then search those
    again (mog-1033's solve: 216,167 nodes with it, 35,778 without).
    """
    if _KERNEL is None:
        raise EngineChoiceError("the compiled kernel is not built in this install")
    kw: dict[str, Any] = {}
    if options is not None:
        kw = {"mate1": options.mate1, "dominance": options.dominance, "tca": options.tca, "rps": options.rps,
              "epsilon": options.epsilon, "max_ply": options.max_ply, "delay": options.delay}
    kw["mate3"] = bool(mate3)
    kw["play_checks"] = play_checks
    return _KERNEL(sfen, memory_mb, **kw)


def solve_iter(sfen: str, limits: Limits = Limits(), cancel: Cancel | None = None, *,
               options: Any = None, progress_interval: float = 0.1,
               search: Any = None) -> Generator[Progress, None, SolveResult]:
    """df-pn alone on the kernel (what ``tsume solve --raw`` runs); yields Progress, returns SolveResult.

    ``search`` is a ``DfPnSearch`` of ``sfen`` made by :func:`new_search`
    (made here when None).  The result has the Python engine's raw result's
    fields; ``extra`` adds ``engine`` ("kernel"), ``cpu_seconds`` (the
    search thread's CPU time) and ``moves`` (moves played, the unit in which
    YaneuraOu-based engines report nodes).

    Raises:
        ValueError: the kernel refuses ``sfen`` (a message says why).
    """
    if search is None:
        search = new_search(sfen, limits.memory_mb, options)
    start = time.monotonic()
    nodes = limits.nodes or 0
    seconds = -1.0 if limits.seconds is None else float(limits.seconds)
    outcome = yield from prove(search, nodes, seconds, limits.cpu_time, cancel, progress_interval, start,
                               SearchPhase.MATE)

    def finish(status: SolveStatus, **kw: Any) -> SolveResult:
        extra = kw.pop("extra", {})
        extra.update(engine="kernel", cpu_seconds=round(search.cpu_seconds, 4), moves=search.moves)
        return SolveResult(status, sfen, nodes=search.nodes, seconds=time.monotonic() - start,
                           table_entries=search.entries,
                           peak_memory_mb=search.peak_entries * search.bytes_per_entry / 2**20, extra=extra, **kw)

    if cancel is not None and cancel.is_set() and outcome == "unknown":
        return finish(SolveStatus.CANCELLED)
    if outcome == "disproven":
        return finish(SolveStatus.NO_MATE)
    if outcome != "proven":
        return finish(SolveStatus.UNKNOWN)
    # The line, searched on where the table does not answer it to mate (same limits, from now).
    line, complete = yield from proof_line(search, nodes, seconds, limits.cpu_time, cancel, progress_interval,
                                           start, SearchPhase.MATE)
    pv = tuple(line)
    extra: dict[str, Any] = {"exact": False, "dfpn_pv": pv}
    if not complete:
        extra["pv_complete"] = False
    yield replace(progress_from_snapshot(search.snapshot(), time.monotonic() - start), phase=SearchPhase.MATE)
    return finish(SolveStatus.MATE, pv=pv, length=len(pv) if complete else None, extra=extra)


__all__ = ["ENGINES", "ENGINE_ENV", "EngineChoiceError", "POLL", "available", "engine_choice", "new_search",
           "progress_from_snapshot", "proof_line", "prove", "run_on_thread", "solve_iter", "supports"]

"""Run a core solver generator on a worker thread (the superqt worker shape).

The core's solvers are generators, ``solve_iter(position, limits, cancel)``,
that yield frozen :class:`~tsume_studio.core.search.contract.Progress` snapshots and
return a :class:`~tsume_studio.core.search.contract.SolveResult`.  :class:`SolverWorker`
is a thin adapter: it drives such a generator in a ``QThread``, re-emits what
it yields as signals (throttled), cancels by setting a ``threading.Event``
that the generator polls, and never touches a widget.
"""

from __future__ import annotations

import gc
import sys
import threading
import time
from typing import Any
from collections.abc import Callable, Generator

from PySide6.QtCore import QObject, QThread, Qt, Signal, Slot

from ..core.shogi.position import Position
from ..core.search.background import lower_search_priority, wait_released
from ..core.search.contract import Limits, Progress, drive

SolveFunction = Callable[[Position, Limits, threading.Event], Generator[Progress, None, Any]]

# Stack of a solver thread (address space only; pages are used as the search goes deep).
STACK_SIZE = 512 * 1024 * 1024

# Interpreter switch interval while a search runs (seconds; Python's default is 0.005).
SWITCH_INTERVAL = 0.001

# Longest the search waits for the window to apply one snapshot (seconds).
GIVE_WAY_MAX = 0.05

# Nice levels the kernel's search threads run below the window (Linux; on Windows one priority
# step: background.lower_search_priority).  With a CPU-bound program beside a solve, two CPUs: the
# window's longest gap in 8 s was over 50 ms in 6 of 12 runs at the same level, 2 of 12 at 5 below
# (median 50.5 -> 40.1 ms, docs/benchmarks.md).
SEARCH_NICE = 5


class _CancelFlag(threading.Event):
    """The cancel flag handed to the solver; it also makes the search give way to the window.

    A search in Python (the Python df-pn engine, the official answer's search)
    holds the interpreter lock and offers it only now and then (df-pn every
    millisecond, when it looks at this flag), and the window's Python
    code runs only while it holds the lock: applying one snapshot to the
    live tree, a few milliseconds of CPU, took ten times that in wall time
    as the two threads took turns.  While :attr:`busy` is set, a search
    thread that looks at the flag waits (the lock released) until the window
    is done, at most ``GIVE_WAY_MAX``.  Only the time changes: the search
    visits the same nodes.
    """

    def __init__(self) -> None:
        super().__init__()
        self.idle = threading.Event()
        self.idle.set()
        self._home = threading.get_ident()

    def is_set(self) -> bool:
        if not self.idle.is_set() and threading.get_ident() != self._home:
            self.idle.wait(GIVE_WAY_MAX)
        return super().is_set()


_paused = 0
_paused_lock = threading.Lock()
_was_collecting = True


def _pause_collection() -> None:
    """Pause cyclic garbage collection while at least one search runs (counted, so searches may overlap)."""
    global _paused, _was_collecting
    with _paused_lock:
        if _paused == 0:
            _was_collecting = gc.isenabled()
            gc.disable()
        _paused += 1


def _resume_collection() -> None:
    global _paused
    with _paused_lock:
        _paused -= 1
        if _paused == 0 and _was_collecting:
            gc.enable()


# Workers whose thread is still running: Python must keep their wrappers
# alive until the thread has finished, whoever else drops them.
_RUNNING: set[SolverWorker] = set()


class _Runner(QObject):
    """The part that lives in the worker thread and drives the generator."""

    started = Signal()
    progress = Signal(object)
    returned = Signal(object)
    stopped = Signal(object)
    errored = Signal(object)
    aborted = Signal()
    finished = Signal()

    def __init__(self, function: SolveFunction, position: Position, limits: Limits,
                 cancel: threading.Event, interval: float, responsive: bool) -> None:
        super().__init__()
        self._responsive = responsive
        self._function = function
        self._position = position
        self._limits = limits
        self._cancel = cancel
        self._interval = interval

    @Slot()
    def run(self) -> None:
        self.started.emit()
        # The solver's table holds millions of small containers; a cyclic
        # collection walks them all while holding the interpreter lock, which
        # freezes the window for hundreds of milliseconds.  Reference counting
        # still frees memory; collection resumes when the search ends and its
        # tables are freed.
        # A thread waiting for the lock gets it after the switch interval; the
        # GUI thread waits once per call into Python, so keep it short.
        interval = sys.getswitchinterval()
        if self._responsive:
            _pause_collection()
            sys.setswitchinterval(min(interval, SWITCH_INTERVAL))
        try:
            result = self._drive()
        except Exception as exc:  # reported, never raised into Qt
            self.errored.emit(exc)
        else:
            if self._cancel.is_set():
                self.stopped.emit(result)
                self.aborted.emit()
            else:
                self.returned.emit(result)
        finally:
            if self._responsive:
                sys.setswitchinterval(interval)
            # The runner stays with this thread; the starting thread lets it go (Python owns it)
            # once the thread has finished.  It is not moved back: moveToThread here would take
            # Qt's locks while this thread holds the interpreter lock, and the GUI thread, deleting
            # a widget, can hold one of those locks while it waits for the interpreter lock.
            self.finished.emit()
            if self._responsive:
                # After the window has its answer: a stopped search's tables are
                # freed on a thread of their own (core.search.background), and a
                # collection resumed before that would walk them all.
                wait_released()
                _resume_collection()

    def _drive(self) -> Any:
        last_sent = 0.0
        pending: Progress | None = None

        def throttled(snapshot: Progress) -> None:
            nonlocal last_sent, pending
            now = time.monotonic()
            if pending is not None and pending.phase != snapshot.phase:
                # A phase's last snapshot (df-pn's finished tree) is always sent, not replaced.
                self.progress.emit(pending)
                pending = None
            if now - last_sent >= self._interval:
                self.progress.emit(snapshot)
                last_sent = now
                pending = None
            else:
                pending = snapshot

        try:
            return drive(self._function(self._position, self._limits, self._cancel), throttled)
        finally:
            if pending is not None and not self._cancel.is_set():
                self.progress.emit(pending)


class SolverWorker(QObject):
    """Drive ``function(position, limits, cancel)`` on its own ``QThread``.

    The worker object itself stays in the thread that created it (the GUI
    thread) and re-emits there what an inner runner in the ``QThread``
    reports, so any slot or callable may listen.  Progress snapshots are
    sent at most once per ``interval`` seconds (the latest one wins; the last
    snapshot before the end is always sent).  The result is emitted only if
    the search was not aborted.

    With ``responsive`` (the default) the search runs with cyclic garbage
    collection paused and a short interpreter switch interval, both restored
    afterwards, so that the GUI thread never waits long for the interpreter
    lock (the solver is pure Python and holds it while it computes).

    Signals:
        started(): the generator is about to run.
        progress(object): a frozen Progress snapshot.
        returned(object): the generator's return value (a SolveResult); never after quit().
        stopped(object): after quit(), just before aborted(): what the generator returned all the same
            (a cancelled result, with what it had proved by then).
        errored(object): the exception the generator raised.
        aborted(): the search stopped because quit() was called.
        finished(): always last, whatever happened.
    """

    started = Signal()
    progress = Signal(object)
    returned = Signal(object)
    stopped = Signal(object)
    errored = Signal(object)
    aborted = Signal()
    finished = Signal()

    def __init__(self, function: SolveFunction, position: Position, limits: Limits,
                 interval: float = 0.1, parent: QObject | None = None, responsive: bool = True) -> None:
        super().__init__(parent)
        self._cancel = _CancelFlag()
        # The runner owns its copy of the position; the GUI keeps editing its own.
        self._runner: _Runner | None = _Runner(function, position.copy(), limits, self._cancel, interval,
                                                responsive)
        self._thread: QThread | None = None
        self._running = False

    # ---- control ---------------------------------------------------------

    @property
    def cancel_event(self) -> threading.Event:
        """The flag the generator polls; set by :meth:`quit`."""
        return self._cancel

    @property
    def abort_requested(self) -> bool:
        """True once :meth:`quit` was called."""
        return self._cancel.is_set()

    @property
    def is_running(self) -> bool:
        """True from :meth:`start` until the thread has finished."""
        return self._running

    def start(self) -> None:
        """Start the search on a new ``QThread``; returns at once."""
        runner = self._runner
        if runner is None or self._thread is not None:
            raise RuntimeError("a SolverWorker runs only once")
        lower_search_priority(SEARCH_NICE)
        thread = QThread()
        thread.setObjectName("solver")
        # The df-pn search recurses once per ply (thousands deep on long
        # problems); a secondary thread's default stack is too small for that.
        thread.setStackSize(STACK_SIZE)
        self._thread = thread
        runner.moveToThread(thread)
        for name in ("started", "returned", "stopped", "errored", "aborted", "finished"):
            getattr(runner, name).connect(getattr(self, name))   # queued into this thread
        runner.progress.connect(self._on_progress)
        thread.started.connect(runner.run)
        # Direct: QThread.quit is thread-safe, and a queued quit would never be
        # delivered while this thread blocks in wait() (window closing).
        runner.finished.connect(thread.quit, Qt.ConnectionType.DirectConnection)
        thread.finished.connect(self._on_thread_finished)
        thread.finished.connect(thread.deleteLater)
        self._running = True
        _RUNNING.add(self)
        thread.start()

    def quit(self) -> None:
        """Ask the search to stop (thread-safe; returns at once)."""
        self._cancel.set()

    def wait(self, msecs: int = 5000) -> bool:
        """Block until the thread has finished, at most ``msecs``; True if it has."""
        thread = self._thread
        if thread is None or not self._running:
            return True
        try:
            return bool(thread.wait(msecs))
        except RuntimeError:   # the QThread was already deleted: it has finished
            return True

    @Slot(object)
    def _on_progress(self, snapshot: Progress) -> None:
        # The search gives way while the listeners apply the snapshot (see _CancelFlag).
        self._cancel.idle.clear()
        try:
            self.progress.emit(snapshot)
        finally:
            self._cancel.idle.set()

    @Slot()
    def _on_thread_finished(self) -> None:
        self._running = False
        self._runner = None
        _RUNNING.discard(self)


def running_workers() -> int:
    """How many worker threads are still running (for tests and shutdown)."""
    return len(_RUNNING)

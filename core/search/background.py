"""Run a long search on its own thread while a solver generator reports its progress.

A solver is a generator that yields :class:`~.contract.Progress` about ten
times a second (see :mod:`.contract`).  Pausing a recursive search to yield
unwinds its whole path, and what it knew only on that path is lost: df-pn's
disproofs that rest on a repetition, and the interposition chains released
so far, have to be found again after every pause.  On the Microcosmos tails
that made some searches several times longer.  :func:`in_background` lets
the search run without pauses on a thread of its own while the generator
sleeps, wakes at each interval and yields what ``report`` reads off the
search.  The search owns its board; the report only reads numbers and
lists the search replaces whole, so the two never share a mutable board.
"""

from __future__ import annotations

import os
import queue
import sys
import threading
import time
from collections.abc import Callable, Generator
from typing import Any, TypeVar

from .contract import Cancel, Progress

T = TypeVar("T")

STACK_BYTES = 256 * 2**20
"""A search thread's stack: the Python search's recursion, up to thousands of plies, also takes C
stack, and the kernel's df-pn recurses one C++ frame a ply, up to 4000 plies."""

_IDLE_THREADS = 2        # search threads kept for the next call (a thread costs ~0.1 ms to start)


class SearchThread:
    """A daemon thread with a search's stack that runs one call after another.

    The kernel's many short calls (a batch of short problems makes two a problem; the official
    answer one a slice) take one from :func:`search_thread` and :meth:`release` it when the call
    has returned: starting a thread for each was a tenth of the CPU time of ``tsume batch --raw``
    on mate.tsv.  Up to two idle ones wait for the next call.
    """

    def __init__(self) -> None:
        self._jobs: queue.SimpleQueue[Callable[[], None] | None] = queue.SimpleQueue()
        old_size = threading.stack_size()
        threading.stack_size(STACK_BYTES)
        try:
            threading.Thread(target=self._loop, name="tsume-kernel-search", daemon=True).start()
        finally:
            threading.stack_size(old_size)

    def _loop(self) -> None:
        nice = 0
        while True:
            job = self._jobs.get()
            if job is None:
                return
            if _search_nice > nice:
                _lower_this_thread(_search_nice - nice, _search_nice)
                nice = _search_nice
            job()

    def submit(self, job: Callable[[], None]) -> None:
        """Run ``job`` (which must not raise) once the thread's earlier jobs have returned."""
        self._jobs.put(job)

    def release(self) -> None:
        """Back to the idle ones once its call has returned (when they are enough: the thread ends)."""
        with _idle_lock:
            if len(_idle) < _IDLE_THREADS:
                _idle.append(self)
                return
        self._jobs.put(None)


_idle: list[SearchThread] = []
_idle_lock = threading.Lock()
_search_nice = 0   # nice levels the search threads run below the process (lower_search_priority)


def lower_search_priority(levels: int) -> None:
    """Run the search threads ``levels`` nice levels below the rest of the process, from their
    next call on.

    The window asks for it: when every CPU is busy (a CPU-bound search and another program), its
    own thread then gets a CPU before the search does.  On Linux a nice value is per thread; on
    Windows the thread's priority goes one step below normal (``THREAD_PRIORITY_BELOW_NORMAL``,
    two steps from ten levels on); elsewhere nothing changes (macOS has no per-thread nice value,
    and its lower service classes move a thread to the slower cores).  Levels given up are not
    taken back (raising a thread's priority again needs a privilege on Linux).
    """
    global _search_nice
    _search_nice = max(_search_nice, levels)


THREAD_PRIORITY_BELOW_NORMAL = -1
THREAD_PRIORITY_LOWEST = -2


def _windows_priority(level: int) -> int:
    """The Windows thread priority that stands for ``level`` nice levels (1 or more)."""
    return THREAD_PRIORITY_LOWEST if level >= 10 else THREAD_PRIORITY_BELOW_NORMAL


def _kernel32() -> Any:
    """Windows' kernel32 through ctypes, its two thread-priority calls typed (a HANDLE is a
    pointer: left untyped, ctypes would pass the pseudo-handle as a 32-bit int)."""
    import ctypes
    k32 = ctypes.WinDLL("kernel32")   # type: ignore[attr-defined, unused-ignore]
    k32.GetCurrentThread.restype = ctypes.c_void_p
    k32.GetCurrentThread.argtypes = []
    k32.SetThreadPriority.restype = ctypes.c_int
    k32.SetThreadPriority.argtypes = [ctypes.c_void_p, ctypes.c_int]
    return k32


def _lower_this_thread(by: int, level: int) -> None:
    """Lower the calling thread's priority by ``by`` nice levels, to ``level`` below the process,
    where the system allows it."""
    try:
        if sys.platform == "linux":
            tid = threading.get_native_id()
            os.setpriority(os.PRIO_PROCESS, tid, min(19, os.getpriority(os.PRIO_PROCESS, tid) + by))
        elif sys.platform == "win32":
            k32 = _kernel32()
            k32.SetThreadPriority(k32.GetCurrentThread(), _windows_priority(level))
    except (OSError, AttributeError):
        pass   # a hint: the search runs as it would


def search_thread() -> SearchThread:
    """An idle search thread, or a new one; :meth:`SearchThread.release` it after its call."""
    with _idle_lock:
        if _idle:
            return _idle.pop()
    return SearchThread()


def _forget_after_fork() -> None:
    # A forked child has none of the parent's threads: it must not hand out their queues.
    global _idle_lock
    _idle.clear()
    _idle_lock = threading.Lock()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_after_fork)


class _Either:
    """A cancel flag set when either of two is (the caller's, or the generator's own stop)."""

    def __init__(self, first: Cancel | None, second: threading.Event) -> None:
        self.first = first
        self.second = second

    def is_set(self) -> bool:
        return self.second.is_set() or (self.first is not None and self.first.is_set())


def in_background(work: Callable[[Cancel], T], report: Callable[[], Progress], interval: float,
                  cancel: Cancel | None = None) -> Generator[Progress, None, T]:
    """Run ``work`` on a new thread; yield ``report()`` every ``interval`` seconds until it returns.

    ``work`` gets a cancel flag that is set when ``cancel`` is, or when this
    generator is closed before the work is done (the thread is then stopped
    and joined, so no search outlives its generator).  The work's result is
    returned; an exception raised by it is raised here.
    """
    stop = threading.Event()
    flag = _Either(cancel, stop)
    outcome: list[T] = []
    failure: list[BaseException] = []
    done = threading.Event()

    def run() -> None:
        try:
            outcome.append(work(flag))
        except BaseException as exc:  # handed to the generator, which raises it
            failure.append(exc)
        finally:
            done.set()

    old_size = threading.stack_size()
    threading.stack_size(STACK_BYTES)
    try:
        thread = threading.Thread(target=run, name="tsume-search", daemon=True)
        thread.start()
    finally:
        threading.stack_size(old_size)
    try:
        while not done.wait(interval):
            yield report()
    finally:
        if not done.is_set():
            stop.set()
        thread.join()
    if failure:
        raise failure[0]
    return outcome[0]


def release_later(release: Callable[[Callable[[], None]], None]) -> None:
    """Run ``release(breathe)`` on a thread of its own, ``breathe`` offering the interpreter lock.

    A stopped search answers at once and its table (millions of small
    objects) is freed afterwards, beside whatever runs next, without holding
    the lock for long.
    """
    def breathe() -> None:
        time.sleep(0)

    thread = threading.Thread(target=release, args=(breathe,), name="tsume-release", daemon=True)
    with _releasing_lock:
        _releasing.append(thread)
    thread.start()


_releasing: list[threading.Thread] = []
_releasing_lock = threading.Lock()


def wait_released(timeout: float = 10.0) -> bool:
    """Wait until the tables handed to :func:`release_later` are freed; False if ``timeout`` passed first.

    A caller that paused cyclic garbage collection during a search waits here
    before resuming it: a collection would otherwise walk the millions of
    objects still being freed, holding the interpreter lock all along.
    """
    end = time.monotonic() + timeout
    with _releasing_lock:
        threads = list(_releasing)
    for thread in threads:
        thread.join(max(0.0, end - time.monotonic()))
        if thread.is_alive():
            return False
        with _releasing_lock:
            if thread in _releasing:
                _releasing.remove(thread)
    return True


__all__ = ["STACK_BYTES", "in_background", "release_later", "wait_released"]

"""The kernel's df-pn as the official answer's oracle: the Python engine's ``DfPn`` seam, on the C++ table.

The Python length search (core.search.length_search) asks four
things of df-pn once the root is proved (``MateOracle`` there):

* ``entry(board)``: the table entry answering a position (pn, dn, the proof
  length, an OR node's proving move), read to bound lengths from above, to
  drop positions proved to have no mate, and to try proven moves first;
* ``lookup(board)``: the same entry's (pn, dn);
* ``search(board, or_node=...)``: a bounded raw search of a sub-position into
  the same table (short disproof looks; the root when no proof was given);
* ``nodes``: the nodes searched, so that a solve's count adds up.

:class:`KernelOracle` answers them from a kernel ``DfPnSearch``
(``probe`` and ``search_position`` of core/kernel/c++/bind_search.cpp), with
moves in cshogi's encoding as the Python engine gives them.  :data:`Oracle`
is either engine.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

import cshogi

from . import kernel_engine
from .background import search_thread
from .dfpn import DfPn, Outcome
from .tt import Entry

_SLICE = 0.1
"""Longest single call into the kernel (seconds) when the caller's cancel flag or pause must be seen."""

_DECIDED_MAX = 1 << 20
"""Decided entries remembered on the Python side before the memo starts again."""

_SLICED_NODES = 100_000
"""A search with at most this many nodes to go runs in slices; a longer one on a watched thread."""

_OUTCOMES = {"proven": Outcome.PROVEN, "disproven": Outcome.DISPROVEN, "unknown": Outcome.UNKNOWN}


class _TableFigures:
    """What the solver reads of a table: its entries and how full the memory bound is."""

    def __init__(self, search: Any) -> None:
        self._search = search

    @property
    def entries(self) -> int:
        return int(self._search.entries)

    @property
    def fill(self) -> float:
        capacity = int(self._search.capacity)
        return self._search.entries / capacity if capacity else 0.0


class _CancelPass:
    """A search's cancel flag, passed on to the kernel by :data:`.kernel_engine.CANCEL_WATCH` while it runs.

    The kernel call itself cannot look at a Python flag: without the watch a Stop would wait for
    the running slice to end (up to :data:`_SLICE`), or for the watched search's own poll.
    """

    def __init__(self, kernel: Any, cancel: Any) -> None:
        self._kernel = kernel
        self._cancel = cancel
        self._lock = threading.Lock()
        self._live = True
        self._passed = False

    def pass_cancel(self) -> None:
        with self._lock:
            if not self._live or self._passed or not self._cancel.is_set():
                return
            self._passed = True
            self._kernel.cancel()
        kernel_engine.CANCEL_WATCH.discard(self)

    def end(self) -> None:
        """The search has returned: stop watching, and forget a cancel passed on (the table stays usable)."""
        kernel_engine.CANCEL_WATCH.discard(self)
        with self._lock:   # a look in progress on the watcher's thread ends before this
            self._live = False
            if self._passed:
                self._kernel.clear_cancel()


class KernelOracle:
    """A kernel ``DfPnSearch`` behind the Python ``DfPn``'s oracle methods (see the module docstring).

    Args:
        search: the kernel search; its table and node count are shared, not copied.
        attacker: the attacker's colour (0 Black, 1 White), the root's side to move.
    """

    engine = "kernel"

    def __init__(self, search: Any, attacker: int) -> None:
        self.kernel = search
        self.attacker = attacker
        self.tt = _TableFigures(search)
        self._paused = False
        # Decided entries already read, by cshogi's key (the SFEN and the kernel call cost more).
        self._decided: dict[int, Entry] = {}

    @property
    def nodes(self) -> int:
        """Nodes the kernel has searched, every call counted."""
        return int(self.kernel.nodes)

    @property
    def paused(self) -> bool:
        """True when the last :meth:`search` returned at its ``pause_at``."""
        return self._paused

    def search(self, board: cshogi.Board, *, or_node: bool = True, node_limit: int | None = None,
               deadline: float | None = None, cancel: Any = None, pause_at: float | None = None,
               clock: Callable[[], float] = time.monotonic, report_every: float | None = None) -> Outcome:
        """Search ``board`` into the kernel's table until decided or a limit; ``DfPn.search``'s contract.

        ``node_limit`` counts :attr:`nodes` in total.  A long search runs on
        a thread of its own; a short one or one with ``pause_at`` runs here
        in slices of at most 0.1 s (the table kept between them).  Either
        way the kernel cannot look at ``cancel``: the flag is passed on to
        it by :data:`.kernel_engine.CANCEL_WATCH` while the search runs.  A
        position the kernel refuses counts as undecided.
        """
        del report_every   # the kernel publishes its own snapshots
        self._paused = False
        sfen = board.sfen()
        watched = pause_at is None and (node_limit is None or node_limit - self.kernel.nodes > _SLICED_NODES)
        watch = None
        if cancel is not None:
            watch = _CancelPass(self.kernel, cancel)
            kernel_engine.CANCEL_WATCH.add(watch)
        try:
            if watched:
                return self._watched(sfen, or_node, node_limit, deadline, clock)
            return self._sliced(sfen, or_node, node_limit, deadline, cancel, pause_at, clock)
        finally:
            if watch is not None:
                watch.end()

    def _sliced(self, sfen: str, or_node: bool, node_limit: int | None, deadline: float | None, cancel: Any,
                pause_at: float | None, clock: Callable[[], float]) -> Outcome:
        """Kernel searches of at most :data:`_SLICE` seconds until decided or a limit."""
        while True:
            if cancel is not None and cancel.is_set():
                return Outcome.UNKNOWN
            if node_limit is not None and self.kernel.nodes >= node_limit:
                return Outcome.UNKNOWN
            seconds = _SLICE
            if deadline is not None:
                left = deadline - clock()
                if left <= 0:
                    return Outcome.UNKNOWN
                seconds = min(seconds, left)
            if pause_at is not None:
                until = pause_at - time.monotonic()
                if until <= 0:
                    self._paused = True
                    return Outcome.UNKNOWN
                seconds = min(seconds, until)
            try:
                got = self.kernel.search_position(sfen, or_node, node_limit or 0, seconds, False)
            except ValueError:
                return Outcome.UNKNOWN
            outcome = _OUTCOMES[got]
            if outcome != Outcome.UNKNOWN:
                return outcome

    def _watched(self, sfen: str, or_node: bool, node_limit: int | None, deadline: float | None,
                 clock: Callable[[], float]) -> Outcome:
        """One uninterrupted kernel search on its own thread.

        A long search in slices would start again from the root at each one and
        lose what it knew only on its path; this one runs to its end.
        """
        seconds = -1.0
        if deadline is not None:
            seconds = deadline - clock()
            if seconds <= 0:
                return Outcome.UNKNOWN
        cpu_time = clock is time.process_time
        got: list[str] = []
        failure: list[BaseException] = []

        done = threading.Event()

        def run() -> None:
            try:
                got.append(self.kernel.search_position(sfen, or_node, node_limit or 0, seconds, cpu_time))
            except BaseException as exc:  # raised again below, on the caller's thread
                failure.append(exc)
            finally:
                done.set()

        worker = search_thread()
        worker.submit(run)
        try:
            while not done.wait(kernel_engine.POLL):   # timed waits: Ctrl-C reaches this thread on Windows too
                pass
        finally:
            if not done.is_set():   # this thread interrupted (a signal): the search must not outlive the call
                self.kernel.cancel()
                done.wait()
                self.kernel.clear_cancel()   # the table stays usable for what the caller asks next
            worker.release()
        if failure:
            if isinstance(failure[0], ValueError):
                return Outcome.UNKNOWN
            raise failure[0]
        return _OUTCOMES[got[0]]

    def entry(self, board: cshogi.Board) -> Entry | None:
        """The table entry answering ``board`` in the Python table's layout (core.search.tt), or None.

        Only pn, dn, the proof length and the move are the kernel's; hand,
        depth and amount are 0.  A mate in one's move is cshogi's, as the
        Python engine's is.
        """
        key = board.zobrist_hash()
        known = self._decided.get(key)
        if known is not None:
            return known
        try:
            got = self.kernel.probe(board.sfen())
        except ValueError:
            return None
        if got is None:
            return None
        pn, dn, length, usi = got
        move = board.move_from_usi(usi) if usi else 0
        if move and length == 1 and not board.is_check():
            # Both engines prove a mate in one with the first mating check they find, in their
            # own generators' order; cshogi's (the Python engine's) is taken, so that the
            # official answer breaks ties between equal mates alike on either engine.
            move = board.mate_move_in_1ply() or move
        entry = (0, pn, dn, 0, 0, length, move)
        if pn == 0 or dn == 0:
            # A proof or a disproof stays true whatever the table later collects or learns.
            if len(self._decided) >= _DECIDED_MAX:
                self._decided.clear()
            self._decided[key] = entry
        return entry

    def lookup(self, board: cshogi.Board, or_node: bool = True) -> tuple[int, int]:
        """(pn, dn) of ``board`` from the table; ``(1, 1)`` when it holds nothing."""
        e = self.entry(board)
        return (1, 1) if e is None else (e[1], e[2])

    def release(self, breathe: Callable[[], None]) -> None:
        """Nothing to free piecemeal: the kernel's table goes with its search object."""
        del breathe


Oracle = DfPn | KernelOracle
"""A df-pn the official answer may ask: the Python engine or the kernel."""


def engine_of(oracle: Oracle | None) -> str:
    """``"kernel"`` or ``"python"``: which engine ``oracle`` is ("" for none)."""
    if oracle is None:
        return ""
    return "kernel" if isinstance(oracle, KernelOracle) else "python"


def make_oracle(board: cshogi.Board, memory_mb: int) -> Oracle:
    """A fresh df-pn for the attacker to move in ``board``: the kernel's where it runs and takes the position.

    The engine is :func:`.kernel_engine.engine_choice`'s; a position the
    kernel refuses (二歩 tolerated by ``force``) gets the Python engine.
    """
    if kernel_engine.engine_choice() == "kernel":
        try:
            search = kernel_engine.new_search(board.sfen(), memory_mb, mate3=False, play_checks=True)
            return KernelOracle(search, board.turn)
        except ValueError:
            pass
    return DfPn(board.turn, memory_mb=memory_mb)


__all__ = ["KernelOracle", "Oracle", "engine_of", "make_oracle"]

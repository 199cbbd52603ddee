"""What the solvers, the command line, the GUI and the tests share.

A solver is a generator: it yields frozen :class:`Progress` snapshots about
ten times a second and returns a :class:`SolveResult`.  It takes
:class:`Limits` and a :class:`Cancel` flag, and :func:`drive` runs it to its
result; no threads here, the caller owns them.  :data:`INFINITY` is the one
proof/disproof number that stands for infinity in every value below.

Extend these values, do not rename their fields: the GUI, the JSON output of
the command line and the USI engine read them.
"""

from __future__ import annotations

import enum
import time
from collections.abc import Callable, Generator
from dataclasses import dataclass, field
from typing import Protocol, TypeVar

from .proof import HelpmateAnswer, Proof

INFINITY: int = 10**12
"""pn or dn of a decided node: a proof number this large means "no mate", a disproof number "mate"."""


class SolveStatus(str, enum.Enum):
    """How a search ended."""

    MATE = "mate"
    NO_MATE = "no_mate"        # proved: there is no mate
    UNKNOWN = "unknown"        # a limit was hit before a proof
    CANCELLED = "cancelled"


@dataclass(frozen=True, slots=True)
class Limits:
    """Search limits; ``None`` means no limit.

    ``memory_mb`` bounds the memory of the whole search: each solver turns it
    into a number of table entries from its own cost per entry.  ``seconds``
    is wall-clock time, or with ``cpu_time`` this process's CPU time, so that
    a benchmark on a loaded machine gives each problem the same work.
    """

    nodes: int | None = None
    seconds: float | None = None
    memory_mb: int = 1024
    cpu_time: bool = False

    def clock(self) -> Callable[[], float]:
        """The clock ``seconds`` is measured on: ``time.process_time`` or ``time.monotonic``."""
        return time.process_time if self.cpu_time else time.monotonic


class Cancel(Protocol):
    """A cancel flag, such as a ``threading.Event``.

    Every solver looks at ``is_set()`` often enough to stop within 100 ms of
    it turning true, and then returns :attr:`SolveStatus.CANCELLED` (or None
    from a search that returns no :class:`SolveResult`).
    """

    def is_set(self) -> bool:
        """True once the caller wants the search to stop."""
        ...


class SearchPhase(str, enum.Enum):
    """What a direct-mate search is doing, in the order the phases run."""

    MATE = "mate"                  # df-pn: is there a mate at all?
    SHORTEST = "shortest"          # the official answer's search: proving the length shortest
    TREE = "tree"                  # building the main line and the proof tree
    ALTERNATIVES = "alternatives"  # looking for 余詰 along the main line
    CHECK = "check"                # checking a given line (a record's 作意) against the answer


@dataclass(frozen=True, slots=True)
class ChildInfo:
    """A child of the root (or of any reported node): move (USI), pn, dn."""

    move: str
    pn: int
    dn: int


@dataclass(frozen=True, slots=True)
class PathEntry:
    """One level of the current search path.

    ``move`` (USI) reached this node, ``pn``/``dn`` are its numbers, and
    ``children`` are the node's children with their pn/dn, in the order the
    search ranks them (best first), when the searcher reports them.
    """

    move: str
    pn: int
    dn: int
    children: tuple[ChildInfo, ...] = ()


@dataclass(frozen=True, slots=True)
class Progress:
    """A frozen snapshot of a running search.

    ``stats`` holds solver-specific figures by name, e.g.
    ``(("depth", 7), ("stored", 1234))`` for the helpmate solver's iteration
    depth and stored positions.  ``phase`` is what the direct-mate solver is
    doing (None from searches without phases); its ``nodes`` and ``elapsed``
    count the whole solve, every phase included, as ``SolveResult`` does.
    """

    nodes: int
    nps: float
    elapsed: float
    root_pn: int
    root_dn: int
    path: tuple[PathEntry, ...] = ()
    root_children: tuple[ChildInfo, ...] = ()
    table_fill: float = 0.0          # 0.0 .. 1.0 of the memory bound
    table_entries: int = 0
    stats: tuple[tuple[str, float], ...] = ()
    phase: SearchPhase | None = None


Answer = Proof | HelpmateAnswer
"""What ``SolveResult.proof`` holds: a direct mate's proof tree, or the helpmates found."""

ExtraValue = bool | int | float | str | tuple[str, ...]
"""A value of ``SolveResult.extra``: plain data that JSON can carry."""


@dataclass(frozen=True, slots=True)
class SolveResult:
    """What a finished search found.

    ``pv`` is the main line in USI; ``length`` its number of plies (None
    unless mate).  ``proof`` is the browsable answer when one was built.
    ``extra`` holds solver-specific facts by name: the direct-mate solver's
    ``exact`` (the length is proved shortest) and ``dfpn_pv`` (df-pn's own
    line); the helpmate solver's table figures and ``reason`` (why it stopped).
    """

    status: SolveStatus
    sfen: str
    pv: tuple[str, ...] = ()
    length: int | None = None
    nodes: int = 0
    seconds: float = 0.0
    table_entries: int = 0
    peak_memory_mb: float = 0.0
    proof: Answer | None = None
    extra: dict[str, ExtraValue] = field(default_factory=dict)


T = TypeVar("T")


def drive(gen: Generator[Progress, None, T],
          on_progress: Callable[[Progress], object] | None = None) -> T:
    """Run the solver generator ``gen`` to the end and return what it returns.

    Every snapshot it yields goes to ``on_progress`` when one is given.  The
    generator is closed whatever happens, so that an exception raised by
    ``on_progress`` (or a ``KeyboardInterrupt``) still runs its clean-up.
    """
    try:
        while True:
            try:
                snapshot = next(gen)
            except StopIteration as stop:
                result: T = stop.value
                return result
            if on_progress is not None:
                on_progress(snapshot)
    finally:
        gen.close()


__all__ = [
    "INFINITY",
    "Answer",
    "Cancel",
    "ChildInfo",
    "ExtraValue",
    "Limits",
    "PathEntry",
    "Progress",
    "SearchPhase",
    "SolveResult",
    "SolveStatus",
    "drive",
]

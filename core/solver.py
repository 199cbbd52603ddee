"""The solver API: one entry point for the command line, the tests and the GUI.

``solve_iter(position, limits, cancel)`` is a generator that yields frozen
:class:`Progress` snapshots and returns a :class:`SolveResult`;
:func:`solve` runs it to the end.  No threads here: the caller owns them and
cancels by setting ``cancel`` (anything with ``is_set()``, such as a
``threading.Event``).

CONTRACT (the values below are shared by the CLI, the GUI and the helpmate
solver; extend them, do not rename fields).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field


class SolveStatus(str, enum.Enum):
    """How a search ended."""

    MATE = "mate"
    NO_MATE = "no_mate"        # proved: there is no mate
    UNKNOWN = "unknown"        # a limit was hit before a proof
    CANCELLED = "cancelled"


@dataclass(frozen=True, slots=True)
class Limits:
    """Search limits; ``None`` means no limit."""

    nodes: int | None = None
    seconds: float | None = None
    memory_mb: int = 1024


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
    """A frozen snapshot of a running search."""

    nodes: int
    nps: float
    elapsed: float
    root_pn: int
    root_dn: int
    path: tuple[PathEntry, ...] = ()
    root_children: tuple[ChildInfo, ...] = ()
    table_fill: float = 0.0          # 0.0 .. 1.0 of the memory bound
    table_entries: int = 0
    # Solver-specific figures by name, e.g. (("depth", 7), ("stored", 1234)) for
    # the helpmate solver's iteration depth and stored positions.
    stats: tuple[tuple[str, float], ...] = ()


@dataclass(frozen=True, slots=True)
class SolveResult:
    """What a finished search found.

    ``pv`` is the main line in USI; ``length`` its number of plies (None unless mate).
    ``proof`` is the browsable proof tree when one was built: a
    :class:`core.proof.Proof` (direct mate) or the helpmate solver's answer.
    """

    status: SolveStatus
    sfen: str
    pv: tuple[str, ...] = ()
    length: int | None = None
    nodes: int = 0
    seconds: float = 0.0
    table_entries: int = 0
    peak_memory_mb: float = 0.0
    proof: object | None = None
    extra: dict = field(default_factory=dict)

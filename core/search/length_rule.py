"""The rule of length: what the official answer measures, and the questions a length search answers.

Tsume-rule length.  For an attacker position P, ``M(P) = 1 + min D(P·c)`` over
checks ``c``; for a defender position Q, ``D(Q) = 0`` when Q has no defence
that counts (mated, or every defence a futile interposition) and otherwise
``1 + max M(Q·e)`` over the defences that count.  Which interpositions do not
count is the judgement of futility (:mod:`.interposition`: Kakinoki's rule
read as "the mate goes on just as without it", the distance rule, drop
squares judged nearest the king first).  Futility is judged with the bound
being asked ("is Q mated within n?"), so a futile square's test position is
mated within n; a bound proved that way is recorded as n itself.  Lengths
keep their parity: odd at attacker nodes, even at defender nodes.

Bounds.  A length search keeps, per position, what it has proved:
``lo <= length <= hi`` (a mate within ``hi``; none within ``lo - 2``), of
that position only: hand dominance (優越関係 [ComShogi ch. 9]) does not hold
for the tsume-rule length, which a piece more in the attacker's hand can
lengthen (a drop that another drop made futile counts once the defender no
longer holds that other piece; :mod:`.length_search`).  A raw df-pn proof (every
interposition counted) bounds the length from above, since futile
interpositions only ever remove defences; a raw disproof means no mate at all.

Exactness.  The length is L once "mate within L?" is proved and "mate within
L - 2?" refuted.  From an upper bound ``L`` (df-pn's proof) the search asks
"mate within L - 2?" until it is refuted; the last success is the exact
length.  The kernel's search climbs the root from below instead ("mate within
lo? lo + 2? ...", :mod:`.kernel_length`): the same proofs, asked in the order
that lets each refutation build on the last.

Lower bounds without futility.  Only drop interpositions are ever judged
futile; every board move counts.  In the restricted game where the defender
makes no drop (or only drops already judged to count at that node and bound),
its defences are a subset of those that count under the tsume rules and the
attacker's moves are the same, so its length is at most the tsume-rule
length: "no mate within n" proved there holds here, with no judgement of
futility at all.  The kernel's search can ask that game first
(:mod:`.kernel_length`, ``TSUME_LOWER_GAME``, 'effective' by default; the argument in
full beside ``Drops`` in core/kernel/c++/length_search.h) and the tsume-rule
question only when the restricted game mates within n.  Its table is its own: only its
``lo`` bounds are read as the tsume-rule length's.

:class:`BoundedSearch` is what every length search offers the builder
(:mod:`.builder`) and the check of a given line (:mod:`..check`): the
Python search (:mod:`.length_search`, the reference and the fallback) and the
kernel's (:mod:`.kernel_length`).  :class:`AnswerSession` keeps the search an
answer was built with, for a later check to reuse.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Generator
from typing import Any, Protocol

import cshogi

from .contract import INFINITY as INF
from .contract import Cancel, Limits, Progress, SearchPhase
from .interposition import Defences

MAX_LENGTH = 2001
"""Longest bound a question may carry; the answer gives up beyond it."""


class SearchAborted(Exception):
    """Cancelled, out of time, out of nodes, or beyond the longest bound."""


class Bounds(Protocol):
    """What a length search's table proves of one position: ``lo <= length <= hi``, and a best move."""

    lo: int
    hi: int
    best: int


class BoundsTable(Protocol):
    """``tt[zobrist]``: the bounds of the search's current board (its key)."""

    def __getitem__(self, zob: int) -> Bounds: ...


class RawView(Protocol):
    """The raw df-pn (every interposition counted) as the length search asks it."""

    oracle: Any
    """The df-pn itself (its ``nodes``), or None."""

    def lookup(self, board: cshogi.Board, or_node: bool) -> tuple[int, int] | None:
        """(pn, dn) from the df-pn's table, or None without one."""

    def probe(self, board: cshogi.Board, or_node: bool) -> tuple[int, int, int, int] | None:
        """(pn, dn, proof length or -1, proving move or 0) from the df-pn's table, or None without one."""


class BoundedSearch:
    """What the length searches share: the board, the budget, the questions and progress snapshots.

    The budget is a cancel flag, a deadline and a node limit; :meth:`check_stop`
    raises :class:`SearchAborted` when one of them is spent.  Subclasses count
    ``nodes``, answer the questions below and say how full their table is
    (:meth:`table_size`).  ``tt[zobrist]`` gives the bounds (``lo``, ``hi``,
    ``best``) of the current board and ``mate.lookup``/``mate.probe`` the raw
    df-pn's view of a position.
    """

    # The raw df-pn's view and the table of bounds (each search's own kind).
    mate: RawView
    tt: BoundsTable
    # Builder steps between budget checks, and seconds between progress reports (:meth:`_tick`).
    tick_every = 256
    report_every = 0.1

    def __init__(self, root: cshogi.Board, *, deadline: float | None, cancel: Cancel | None,
                 node_limit: int | None, distance_rule: bool,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.board = root
        self.attacker = root.turn
        self.deadline = deadline
        self.clock = clock
        self.cancel = cancel
        self.node_limit = node_limit
        self.distance_rule = distance_rule
        self.nodes = 0
        self.futility_tests = 0
        self._ticks = 0   # builder steps counted by _tick
        self.start = time.monotonic()
        self.last_yield = self.start
        self.depth = 0
        self.phase = "search"
        # What the root's length search has proved so far: no mate within
        # ``root_lo - 2``, a mate within ``root_hi`` (INF: none yet), and the
        # question being asked, "mate within ``asking``?" (0: none).
        self.root_lo, self.root_hi, self.asking = 1, INF, 0
        self.root_pn, self.root_dn = 1, 1
        # A check of a given line (core.check, phase "check"): the ply it examines and the line's plies.
        self.checking: tuple[int, int] | None = None

    def budget(self, limits: Limits, cancel: Cancel | None, clock: Callable[[], float]) -> None:
        """A budget of its own from now: ``limits`` on ``clock``, on top of the nodes already searched."""
        self.deadline = clock() + limits.seconds if limits.seconds is not None else None
        self.cancel, self.clock = cancel, clock
        self.node_limit = None if limits.nodes is None else self.nodes + limits.nodes

    def check_stop(self) -> float:
        """Raise :class:`SearchAborted` when cancelled or out of budget; else the seconds left
        before the deadline (-1.0: no deadline)."""
        if self.cancel is not None and self.cancel.is_set():
            raise SearchAborted("cancelled")
        left = -1.0
        if self.deadline is not None:
            left = self.deadline - self.clock()
            if left <= 0.0:
                raise SearchAborted("deadline")
        if self.node_limit is not None and self.nodes >= self.node_limit:
            raise SearchAborted("node limit")
        return left

    def table_size(self) -> tuple[int, float]:
        """Entries in the search's table and how full it is (0.0 .. 1.0)."""
        return 0, 0.0

    # ---- the questions ---------------------------------------------------

    def or_within(self, d: int) -> Generator[Progress, None, bool]:
        """Does the attacker to move in :attr:`board` mate within ``d`` plies (tsume rules)?"""
        raise NotImplementedError

    def and_within(self, d: int) -> Generator[Progress, None, bool]:
        """Is the defender to move in :attr:`board` mated within ``d`` plies (tsume rules)?"""
        raise NotImplementedError

    def exact(self, or_node: bool, cap: int = MAX_LENGTH) -> Generator[Progress, None, int | None]:
        """Exact tsume-rule length of :attr:`board`, or None beyond ``cap``."""
        raise NotImplementedError

    def defences(self, value: int) -> Generator[Progress, None, Defences]:
        """The defences of :attr:`board` that count at bound ``value``, and its futile drop squares."""
        raise NotImplementedError

    def _tick(self) -> Generator[Progress, None, None]:
        """Count one step of the builder as a node; every ``tick_every`` steps check the budget,
        and report when ``report_every`` seconds have passed since the last report."""
        self.nodes += 1
        self._ticks += 1
        if self._ticks % self.tick_every:
            return
        self.check_stop()
        yield from self._report()

    def _report_due(self) -> bool:
        """True when :attr:`report_every` seconds have passed since the last snapshot (a caller
        that asks first spares itself the generator of :meth:`_report`)."""
        return time.monotonic() - self.last_yield >= self.report_every

    def _report(self) -> Generator[Progress, None, None]:
        """A snapshot when :attr:`report_every` seconds have passed since the last, then the
        budget again: its consumer may have asked to stop."""
        if self._report_due():
            self.last_yield = time.monotonic()
            yield self.progress()
            self.check_stop()

    def freeze(self, frozen: bool) -> None:
        """Keep every entry of the table while the builder reads it by key (``frozen``), or let the
        search collect its cheapest entries again when full."""

    def futile_known(self, board: cshogi.Board, square: int, bound: int) -> bool:
        """True when this search proved the drop square ``square`` of ``board`` futile at ``bound``.

        Only what was judged already: no search.  Futility grows with the
        bound, so a verdict at a bound up to ``bound`` counts.
        """
        return False

    # ---- progress --------------------------------------------------------

    def progress(self) -> Progress:
        """A frozen snapshot for the progress report."""
        elapsed = time.monotonic() - self.start
        entries, fill = self.table_size()
        phase = {"tree": SearchPhase.TREE, "alternatives": SearchPhase.ALTERNATIVES,
                 "check": SearchPhase.CHECK}.get(self.phase, SearchPhase.SHORTEST)
        checking: tuple[tuple[str, float], ...] = ()
        if phase is SearchPhase.CHECK and self.checking is not None:
            checking = (("check_ply", float(self.checking[0])), ("check_plies", float(self.checking[1])))
        return Progress(nodes=self.nodes, nps=self.nodes / elapsed if elapsed > 0 else 0.0,
                        elapsed=elapsed, root_pn=self.root_pn, root_dn=self.root_dn,
                        table_fill=fill, table_entries=entries, phase=phase,
                        stats=(("depth", float(self.depth)), ("futility_tests", float(self.futility_tests)),
                               ("tree", 0.0 if phase is SearchPhase.SHORTEST else 1.0)) + self.bounds_stats()
                        + checking)

    def bounds_stats(self) -> tuple[tuple[str, float], ...]:
        """``asking`` ("mate within n?"), ``at_least`` and ``at_most`` (the root's proved bounds), when known."""
        out: list[tuple[str, float]] = []
        if self.asking:
            out.append(("asking", float(self.asking)))
        out.append(("at_least", float(self.root_lo)))
        if self.root_hi < INF:
            out.append(("at_most", float(self.root_hi)))
        return tuple(out)


class AnswerSession:
    """The search an official answer was built with, kept so that a later check reuses it.

    The official answer (:func:`.builder.answer`, for either search)
    fills it in once the root's exact length is proved: ``search`` (its table
    of proved bounds and its df-pn oracle), ``length`` and the root's ``sfen``.
    A check of a given line (:func:`tsume_studio.core.check.check_solution`)
    then asks its questions of that table instead of solving the problem again.
    A search stopped by the limits while it asked the root's length is kept
    as ``paused``, with the bounds it had proved: the check may go on with it.
    """

    __slots__ = ("search", "length", "sfen", "at_least", "at_most", "paused")

    def __init__(self) -> None:
        self.search: BoundedSearch | None = None
        self.length: int | None = None
        self.sfen: str | None = None
        # A search stopped before the length was proved: the bounds it had proved.
        self.at_least: int | None = None
        self.at_most: int | None = None
        self.paused: BoundedSearch | None = None

    def stopped(self, search: BoundedSearch, sfen: str | None = None) -> None:
        """Record the root's proved bounds of a search stopped before its length was proved;
        with ``sfen`` (the root settled as a mate, its length being asked), keep the search too."""
        self.at_least = search.root_lo
        self.at_most = search.root_hi if search.root_hi < INF else None
        if sfen is not None:
            self.paused, self.sfen = search, sfen

    def resumable_for(self, sfen: str) -> bool:
        """True when a search of exactly this position, stopped while asking its length, is kept."""
        return self.paused is not None and self.length is None and self.sfen == sfen

    def keep(self, search: BoundedSearch, length: int, sfen: str) -> None:
        """Record the search of ``sfen`` whose exact length ``length`` is proved (no longer paused)."""
        self.search, self.length, self.sfen, self.paused = search, length, sfen, None

    def usable_for(self, sfen: str) -> bool:
        """True when a search of exactly this position, with its length proved, is kept."""
        return self.search is not None and self.length is not None and self.sfen == sfen

    def release(self) -> None:
        """Let the table go (it may hold hundreds of megabytes)."""
        self.search = self.paused = None


__all__ = ["AnswerSession", "Bounds", "BoundsTable", "BoundedSearch", "RawView", "INF", "MAX_LENGTH", "SearchAborted"]

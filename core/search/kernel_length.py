"""The official answer on the C++ kernel's length-aware tsume-rule search.

The kernel's ``LengthSearch`` (``core/kernel/c++/length_search.h``) is the
search of :mod:`.length_search` in C++: a depth-bounded df-pn whose table keeps,
per board and attacker hand, the proved bounds of the tsume-rule length (a
mate within ``hi``, no mate within ``lo - 2``; no hand dominance, see
:mod:`.length_search`), futile interpositions judged inside it by the same rules (Kakinoki's rule
read as "the mate goes on just as without it", the distance rule, drop
squares delayed nearest-first), and its own raw df-pn as the oracle.

:class:`KernelLengthSearch` offers the questions :mod:`.builder`'s
:class:`~.builder.AnswerBuilder` asks (``or_within``, ``and_within``, ``exact``,
``defences``, ``tt[...]``, ``mate.lookup``), so the main line, the variations,
the 余詰 candidates, the 駒余り tie-break and each 無駄合's reason are built by
the same Python code whatever search answered.  Each call runs in the kernel
with the interpreter lock released, in slices between which the deadline and
the node limit are looked at (the kernel checks them itself too); once the
answer has run a moment, on the search thread, while progress is yielded about
every 0.1 s from the counts the kernel publishes.  A Stop reaches a running call
through the cancel watch (``kernel_engine.CancelWatch``).

:func:`engine_choice` picks the search: the kernel where it is built,
``TSUME_ENGINE=python`` forces the Python search (:mod:`.length_search`).
"""

from __future__ import annotations

import os
import threading
import time
import weakref
from collections.abc import Callable, Generator
from typing import Any, TypeVar

import cshogi

from . import kernel_engine
from .contract import INFINITY as INF
from .contract import Cancel, Limits, Progress
from . import builder
from .length_rule import AnswerSession, BoundedSearch, SearchAborted
from .interposition import Defences, FutileSquare
from .proof import Proof
from ..shogi.position import Position

MAX_LENGTH = 2001
"""Longest bound a question may carry (as :data:`.length_rule.MAX_LENGTH`)."""

_ROOT_SLICE_NODES = 1 << 17   # the largest slice of the raw df-pn of the root (settle_root)
# A question pauses to report after _SLICE_NODES nodes (about 0.07 s at this search's 450k nodes
# a second), or after _SLICE_WORK nodes of the search and its raw df-pn together, where a few outer
# nodes run long raw looks and futility tests.  A pause unwinds the question, which searches on
# from its root, so pauses come by counts only, never by the clock: the answer and its nodes are
# then the same each run (a pause after one second made 将棋図巧 7番 take 3.05–3.12 M nodes;
# the slice sizes measured in docs/benchmarks.md, 2026-12-07).  A call that runs long still reports
# (it runs on the search thread, _call) and a Stop reaches it through the cancel watch.
_SLICE_NODES = 1 << 15
_SLICE_WORK = 1 << 18
_PAUSE = (_SLICE_NODES, _SLICE_WORK)   # a question's pause_nodes, pause_work
_INLINE_FOR = 0.25        # seconds of an answer whose kernel calls run on the caller's thread (_call)
_DEFAULT_ORACLE_MB = 64
_SFEN_MEMO = 1 << 16      # positions whose SFEN a search keeps (KernelLengthSearch.sfen_of)
T = TypeVar("T")

LOOKS = (10, 64, 10, 3000)
"""The kernel search's short raw df-pn looks at defender nodes (``LengthSearch``'s keywords):
from how many plies asked inside a question, with how many nodes, and the same for a question
from outside (one per 余詰 candidate).  From 10 plies: below that a look costs more than it saves
(mate.tsv: 2.4 CPU s for all 1,040 answers, 13.9 s with looks from 4 plies as the Python search has).
Inside a question the kernel looks at a node only once it has been refuted at some depth or has
cost 64 nodes (``RawLooks::after`` in ``length_search.h``)."""

LOWER_ENV = "TSUME_LOWER_GAME"
LOWER_GAMES = ("none", "effective", "off")


def lower_game() -> str:
    """The restricted game asked before each refutation of the tsume-rule search (``LengthSearch``'s
    ``drops``): 'effective' (the default: only the drops the tsume-rule search has judged to count,
    in the exactness step), 'none' (no drop interposition, also before the builder's questions) or
    'off'; ``TSUME_LOWER_GAME`` chooses.

    'effective' by default, not 'none': where the attacker's hand is full, a check that mates only
    past the plies left is refuted far more cheaply with the defender's drops than without them
    (将棋図巧 7番: its 余詰 questions' refutations in the 'none' game took 10 of the answer's 15 CPU s,
    5.61 M nodes in all against 3.11 M), and on 将棋無双 both exact the same 84 rows with as many
    nodes (docs/benchmarks.md, 2026-12-07)."""
    got = os.environ.get(LOWER_ENV, "").strip().lower()
    return got if got in LOWER_GAMES else "effective"


NESTED_ENV = "TSUME_NESTED_LOWER"


def nested_lower() -> bool:
    """Whether the tsume-rule search answers its futility tests' "no" questions by a restricted
    game of its own first (``LengthSearch``'s ``nested_lower_mb``): off by default (on 将棋無双
    it made no row exact that was not, docs/benchmarks.md), ``TSUME_NESTED_LOWER=1`` switches it on."""
    return os.environ.get(NESTED_ENV, "").strip().lower() in ("1", "on", "yes", "true")


LOWER_RETRY_NODES = 20_000
"""Nodes of a tsume-rule question between two tries of the 'effective' restricted game."""

LOWER_AFTER_NODES = 1_000
"""Nodes a builder's question gets under the tsume rules before the 'none' restricted game (when
``TSUME_LOWER_GAME`` chooses it) is tried on it.  Most of them end well within this (on mate.tsv
12,967 questions of the 余詰 search took 30 nodes each on average), and asking the restricted game
first cost those more than it saved; a question still open after this many nodes is one where a
refutation without drops can pay (docs/benchmarks.md, 2026-11-29)."""

BYTES_PER_ENTRY = 40
"""Bytes of one entry of the kernel's length table (``LEntry`` in length_search.h)."""


def _load() -> Any:
    from .. import kernel

    if not kernel.AVAILABLE:
        return None
    return getattr(kernel, "LengthSearch", None)


_KERNEL = _load()
_MAX_QUESTION = int(_KERNEL.max_question) if _KERNEL is not None else 0   # the deepest bound a question takes


def available() -> bool:
    """True when the kernel's length-aware search is built and not switched off (``TSUME_ENGINE``)."""
    return _KERNEL is not None and kernel_engine.engine_choice() == "kernel"


CHOICE_ENV = "TSUME_LENGTH_SEARCH"


def chosen() -> bool:
    """True when the solver's official answer runs on this search: built and not switched off.

    ``TSUME_LENGTH_SEARCH=python`` (or ``TSUME_ENGINE=python``) keeps the Python length searches
    (core.search.length_search), the reference of the tests.
    """
    return os.environ.get(CHOICE_ENV, "").strip().lower() != "python" and available()


class _Bounds:
    """What the table proves of one position: ``lo <= length <= hi`` and a best move (cshogi int)."""

    __slots__ = ("lo", "hi", "best")

    def __init__(self, lo: int, hi: int, best: int) -> None:
        self.lo, self.hi, self.best = lo, hi, best


class _BoundsView:
    """``tt[zobrist]`` for the builder: the bounds of the search's current board (the key is not needed)."""

    def __init__(self, search: KernelLengthSearch) -> None:
        # A proxy, not a reference: no cycle keeps the search (and its tables) alive after its last use.
        self.s = weakref.proxy(search)

    def __getitem__(self, zob: int) -> _Bounds:
        bounds: _Bounds = self.s.bounds(self.s.board)
        return bounds

    def __len__(self) -> int:
        return int(self.s.k.entries)


# A question pauses for Python only between its outermost nodes, and the futility tests inside one
# do not pause (将棋無双 24番 on a 2 GHz guest beside a test run: a Stop seen 0.2–2.8 s late
# without the watch).  A search is registered when it is made or given a budget with a cancel
# flag, and let go when its answer is built, its flag has been passed on, or it is gone.
_WATCH = kernel_engine.CANCEL_WATCH


class _OracleView:
    """The kernel's raw df-pn as far as callers look at it (its node count)."""

    def __init__(self, k: Any) -> None:
        self.k = k

    @property
    def nodes(self) -> int:
        return int(self.k.oracle_nodes)


class _KernelMate:
    """The raw df-pn oracle's table, as :class:`.length_search.MateOracle` offers it to the builder."""

    def __init__(self, search: KernelLengthSearch) -> None:
        self.s = weakref.proxy(search)   # no cycle (see _BoundsView)
        self.oracle = _OracleView(search.k)

    def lookup(self, board: cshogi.Board, or_node: bool) -> tuple[int, int]:
        pn, dn, _length, _move = self.s.k.oracle_probe(self.s.sfen_of(board))
        return int(pn), int(dn)

    def probe(self, board: cshogi.Board, or_node: bool) -> tuple[int, int, int, int]:
        pn, dn, length, move = self.s.k.oracle_probe(self.s.sfen_of(board))
        return int(pn), int(dn), int(length), board.move_from_usi(move) if move else 0


class KernelLengthSearch(BoundedSearch):
    """The kernel's length-aware search behind the interface :mod:`.builder` uses."""

    def __init__(self, root: cshogi.Board, *, deadline: float | None, cancel: Cancel | None,
                 node_limit: int | None, distance_rule: bool, memory_mb: int = 256,
                 oracle_mb: int = _DEFAULT_ORACLE_MB, clock: Callable[[], float] = time.monotonic,
                 oracle: Any = None, lower: str | None = None, nested: bool | None = None) -> None:
        if _KERNEL is None:
            raise RuntimeError("the kernel's length search is not built in this install")
        super().__init__(root, deadline=deadline, cancel=cancel, node_limit=node_limit,
                         distance_rule=distance_rule, clock=clock)
        self._root_sfen = root.sfen()
        self._lower_spent = 0   # nodes of the restricted game's searches let go
        self.lower_game = lower_game() if lower is None else lower
        if self.lower_game not in LOWER_GAMES:
            raise ValueError(f"lower must be one of {LOWER_GAMES}, got {self.lower_game!r}")
        # The restricted game's table takes a quarter of the memory (none when it is off).
        self._lower_mb = 0 if self.lower_game == "off" else max(1, memory_mb // 4)
        # The futility tests' own restricted game (length_search.h, nested_lower): an eighth.
        nested_mb = max(1, memory_mb // 8) if (nested_lower() if nested is None else nested) else 0
        look_from, look_nodes, root_look_from, root_look_nodes = LOOKS
        self._looks = dict(look_from=look_from, look_nodes=look_nodes, root_look_from=root_look_from,
                           root_look_nodes=root_look_nodes)
        self.k = _KERNEL(root.sfen(), max(1, memory_mb - self._lower_mb - nested_mb), max(1, oracle_mb),
                         distance_rule, oracle=oracle, nested_lower_mb=nested_mb, **self._looks)
        # The restricted game's search (made at its first question; see lower_refutes) and the
        # futility verdicts of self.k it was made with (an 'effective' game is made anew when they grew).
        self.lower_k: Any = None
        self._lower_made_at = -1
        self.lower_questions = self.lower_refutations = 0
        self.kmate = _KernelMate(self)
        self.mate = self.kmate
        self.tt = _BoundsView(self)
        self.outcome = "unknown"   # the raw df-pn's verdict on the root, once settle_root ran
        self._sfens: dict[int, str] = {}   # sfen_of's memo
        self._kernel_cancelled = False     # the cancel flag passed on to the kernel (pass_cancel)
        self._cancel_lock = threading.Lock()
        if cancel is not None:
            _WATCH.add(self)

    def budget(self, limits: Limits, cancel: Cancel | None, clock: Callable[[], float]) -> None:
        with self._cancel_lock:
            super().budget(limits, cancel, clock)
            if self._kernel_cancelled:   # a search stopped by a cancel, asked again: its tables stay
                self._kernel_cancelled = False
                for k in self._kernels():
                    k.clear_cancel()
        if cancel is not None:
            _WATCH.add(self)

    def pass_cancel(self) -> None:
        """The watcher's look (another thread): once the cancel flag is set, cancel the kernel's
        calls (the running one stops within 1,024 nodes, later ones at once) until :meth:`budget`."""
        if self._cancel_kernels(flag_set=True):
            _WATCH.discard(self)

    def _cancel_kernels(self, flag_set: bool = False) -> bool:
        """Cancel the kernel's calls until :meth:`budget` (``flag_set``: only if the cancel flag is
        set); True when they are cancelled."""
        with self._cancel_lock:
            cancel = self.cancel
            if flag_set and (cancel is None or not cancel.is_set()):
                return False
            if not self._kernel_cancelled:
                self._kernel_cancelled = True
                for k in self._kernels():
                    k.cancel()
            return True

    def _kernels(self) -> list[Any]:
        """The kernel searches of this search: its own and the restricted game's, once made."""
        return [self.k] if self.lower_k is None else [self.k, self.lower_k]

    def sfen_of(self, board: cshogi.Board) -> str:
        """``board``'s SFEN, as the kernel's calls take it.  The builder asks about the same
        positions again and again (a question, then its bounds, its raw pn/dn, its defences), and
        making the string is a good part of a short question's cost: memoised by the position's key
        (the builder's own memos use the same key)."""
        key = board.zobrist_hash()
        got = self._sfens.get(key)
        if got is None:
            if len(self._sfens) >= _SFEN_MEMO:
                self._sfens.clear()
            got = self._sfens[key] = board.sfen()
        return got

    # ---- budget and progress ------------------------------------------

    def table_size(self) -> tuple[int, float]:
        entries = int(self.k.entries)
        return entries, min(1.0, entries / max(1, int(self.k.capacity)))

    def _sync(self) -> None:
        self.nodes = int(self.k.nodes) + self._ticks + self._side_nodes()
        self.futility_tests = int(self.k.futility_tests)

    def _side_nodes(self) -> int:
        """Nodes of the search beside self.k: the restricted game's."""
        return self._lower_spent + (int(self.lower_k.nodes) if self.lower_k is not None else 0)

    def _limits(self, k: Any = None) -> tuple[int, float]:
        """The node limit (absolute, of kernel search ``k``: self.k by default) and hard stop
        (seconds from now) for the next call."""
        stop = self.check_stop()
        nodes = 0
        if self.node_limit is not None:
            nodes = int((self.k if k is None else k).nodes) + max(1, self.node_limit - self.nodes)
        return nodes, stop

    def _call(self, call: Callable[..., T], *args: Any) -> Generator[Progress, None, T]:
        """One kernel call of this search, ``call(*args)``.

        In the answer's first :data:`_INLINE_FOR` seconds it runs here: most answers end within
        them, and a hand-over to the search thread and back costs about 50 µs.  Later calls run on
        the search thread while this generator reports every :attr:`report_every` seconds, from
        the counts the kernel publishes: a question pauses only between its outermost nodes, and
        its futility tests and raw looks run to their end (将棋無双 24番: 12.6 s without a report).
        A Stop reaches the call through the cancel watch, as an inline one's does.
        """
        if time.monotonic() - self.start < _INLINE_FOR:
            return call(*args)

        def tick() -> Progress | None:
            if not self._report_due():
                return None
            self._sync()
            self.last_yield = time.monotonic()
            return self.progress()

        return (yield from kernel_engine.call_on_thread(lambda: call(*args), tick, kernel_engine.POLL,
                                                        self._cancel_kernels))

    def _run(self, call: Callable[[int, float, int, int], Any], k: Any = None) -> Generator[Progress, None, Any]:
        """Call kernel search ``k`` (self.k by default) with (node limit, stop seconds, pause nodes,
        pause work) in slices of :data:`_PAUSE`, yielding progress between them."""
        k = self.k if k is None else k
        while True:
            nodes, stop = self._limits(k)
            before = int(k.nodes)
            got = yield from self._call(call, nodes, stop, *_PAUSE)
            self._sync()
            status = got if isinstance(got, str) else got[0]
            if status == "paused":
                self.last_yield = time.monotonic()
                yield self.progress()
                continue
            if status == "stopped":
                # The kernel stops on the wall clock; a deadline on another clock (CPU time on a
                # loaded machine) may not have come yet: then the question goes on.
                self.check_stop()
                if int(k.nodes) == before:
                    raise SearchAborted("stopped")
                self.last_yield = time.monotonic()
                yield self.progress()
                continue
            if self._report_due():
                yield from self._report()   # a run of short questions, none pausing, is seen too
            return got

    # ---- the root ------------------------------------------------------

    def _root_view(self, _p: Progress) -> Progress:
        # The root's raw proof here is part of the official answer (the solve's df-pn proved it
        # already, on its own table): it is reported as the length search's phase, so the
        # phases shown never go back to "proving mate" and the live tree keeps df-pn's proof.
        return self.progress()

    def settle_root(self) -> Generator[Progress, None, str]:
        """The raw df-pn of the root, in slices: 'proven', 'disproven' or 'unknown' (a limit first).

        Slices start at 1024 nodes and double up to :data:`_ROOT_SLICE_NODES`, so a
        deadline on the caller's clock is seen within the first thousand nodes.  They end by
        counts (or at the deadline), never by the clock, so the search is the same each run.
        """
        self.phase = "mate"
        chunk = 1024
        try:
            pn, dn = self.kmate.lookup(self.board, True)
            if pn == 0 or dn == 0:
                # Settled already: the solve's df-pn, whose table this one is, proved it (no
                # hand-over to the search thread for a call that would return at once).
                self.root_pn, self.root_dn = pn, dn
                self.outcome = "proven" if pn == 0 else "disproven"
                return self.outcome
            while True:
                stop = self.check_stop()
                nodes = int(self.k.oracle_nodes) + chunk
                if self.node_limit is not None:
                    nodes = min(nodes, self.node_limit)
                # The slice runs on a thread of its own, so that its snapshots, which carry df-pn's
                # path only while it runs, are read meanwhile (the window's search tree).
                seen = yield from _relay(kernel_engine.run_on_thread(
                    self.k, "prove_root", (nodes, stop), self.cancel, self.report_every / 2, self.start),
                    self._root_view)
                outcome = str(seen)
                chunk = min(chunk * 2, _ROOT_SLICE_NODES)
                self.root_pn, self.root_dn = self.kmate.lookup(self.board, True)
                yield self.progress()
                if outcome != "unknown":
                    self.outcome = outcome
                    return outcome
                if self.node_limit is not None and int(self.k.oracle_nodes) >= self.node_limit:
                    return outcome
        finally:
            self.phase = "search"

    # ---- questions ----------------------------------------------------

    def futile_known(self, board: cshogi.Board, square: int, bound: int) -> bool:
        """True when the kernel judged drop square ``square`` of ``board`` futile at a bound up to ``bound``."""
        n = int(self.k.futile_from(self.sfen_of(board), square))
        return 0 <= n <= bound

    def bounds(self, board: cshogi.Board) -> _Bounds:
        """The table's bounds of ``board``; ``lo`` also from the restricted game's table, whose
        "no mate within n" holds under the tsume rules (its ``hi`` never counts here)."""
        sfen = self.sfen_of(board)
        lo, hi, best = self.k.bounds(sfen)
        lo = INF if lo < 0 else int(lo)
        if self.lower_k is not None and lo < INF:
            other_lo = int(self.lower_k.bounds(sfen)[0])
            lo = INF if other_lo < 0 else max(lo, other_lo)
        return _Bounds(lo, INF if hi < 0 else int(hi), board.move_from_usi(best) if best else 0)

    def _lower_search(self) -> Any:
        """The restricted game's kernel search, sharing self.k's raw df-pn (made when first needed;
        an 'effective' one made anew whenever self.k has judged more drops since)."""
        tests = int(self.k.futility_tests)
        if self.lower_k is not None and (self.lower_game != "effective" or tests == self._lower_made_at):
            return self.lower_k
        if self.lower_k is not None:
            self._lower_spent += int(self.lower_k.nodes)
            self.lower_k = None   # its mates (hi) may be stale now: the new game lets more drops count
        self.lower_k = _KERNEL(self._root_sfen, self._lower_mb, 1, self.distance_rule, oracle=self.k,
                               drops=self.lower_game, **self._looks)
        self._lower_made_at = tests
        return self.lower_k

    def lower_refutes(self, or_node: bool, d: int, budget: int = 0) -> Generator[Progress, None, bool]:
        """True when the restricted game (:func:`lower_game`) proves that :attr:`board` has no mate
        within ``d`` plies: then neither has it under the tsume rules (length_search.h, ``Drops``).
        False when it mates there (the tsume-rule question must be asked), when ``budget`` nodes
        (0: no budget of its own) ran out first, or when the game is off.  Counted in
        :attr:`lower_questions` and :attr:`lower_refutations`."""
        if self.lower_game == "off" or d < (1 if or_node else 0) or d > _MAX_QUESTION:
            return False
        k = self._lower_search()
        sfen = self.sfen_of(self.board)
        self.lower_questions += 1
        if budget <= 0:
            got = yield from self._run(lambda *limits: k.question(sfen, or_node, d, *limits), k)
        else:
            mates = yield from self._ask_within(or_node, d, budget, k)
            got = "no" if mates is False else "yes"   # out of nodes: not refuted
        if got == "no":
            self.lower_refutations += 1
            return True
        return False

    def _refute(self, or_node: bool, d: int) -> Generator[Progress, None, bool]:
        """Mate within ``d`` under the tsume rules?  With the 'effective' restricted game, that game
        is tried again between the question's slices, on the drops judged to count so far, with
        as many nodes as the question has spent since the last try: a refutation there answers no."""
        if self.lower_game != "effective":
            return (yield from self._ask(or_node, d))
        if d < (1 if or_node else 0):
            return False
        if d > _MAX_QUESTION:
            raise SearchAborted("too deep")
        sfen = self.sfen_of(self.board)
        k = self.k
        last = int(k.nodes)
        while True:
            nodes, stop = self._limits()
            before = int(k.nodes)
            got = yield from self._call(k.question, sfen, or_node, d, nodes, stop, *_PAUSE)
            self._sync()
            if got == "yes" or got == "no":
                yield from self._report()
                return bool(got == "yes")
            if got == "stopped":
                self.check_stop()
                if int(k.nodes) == before:
                    raise SearchAborted("stopped")
            self.last_yield = time.monotonic()
            yield self.progress()
            spent = int(k.nodes) - last
            if spent >= LOWER_RETRY_NODES and int(k.futility_tests) != self._lower_made_at:
                if (yield from self.lower_refutes(or_node, d, budget=spent)):
                    return False
                last = int(k.nodes)

    def _ask_within(self, or_node: bool, d: int, budget: int, k: Any = None) -> Generator[Progress, None, bool | None]:
        """Mate within ``d`` under the tsume rules, asked with ``budget`` nodes of kernel search ``k``
        (self.k by default): True or False, or None when they ran out first (the question's pn/dn
        stay in its table)."""
        k = self.k if k is None else k
        if d > _MAX_QUESTION:
            raise SearchAborted("too deep")
        sfen = self.sfen_of(self.board)
        before = int(k.nodes)
        until = before + budget
        while True:
            nodes, stop = self._limits(k)
            got = yield from self._call(k.question, sfen, or_node, d, min(nodes, until) if nodes else until, stop,
                                        *_PAUSE)
            self._sync()
            if got == "yes" or got == "no":
                if self._report_due():
                    yield from self._report()
                return bool(got == "yes")
            if got == "stopped":
                self.check_stop()
                if int(k.nodes) >= until:
                    return None
                if int(k.nodes) == before:
                    raise SearchAborted("stopped")
            self.last_yield = time.monotonic()
            yield self.progress()
            before = int(k.nodes)

    def _ask(self, or_node: bool, d: int) -> Generator[Progress, None, bool]:
        if d < (1 if or_node else 0):
            return False
        if d > _MAX_QUESTION:
            raise SearchAborted("too deep")
        sfen = self.sfen_of(self.board)
        got = yield from self._run(lambda *limits: self.k.question(sfen, or_node, d, *limits))
        return bool(got == "yes")

    def _within(self, or_node: bool, d: int) -> Generator[Progress, None, bool]:
        """The builder's questions (a check that mates in time? a defence shorter than the longest?),
        many of them answered no: the tsume-rule question with :data:`LOWER_AFTER_NODES` nodes
        (the kernel answers from its table first), then, when :func:`lower_game` is 'none', that
        restricted game, then the question again."""
        if self.lower_game == "none" and d >= (1 if or_node else 0):
            quick = yield from self._ask_within(or_node, d, LOWER_AFTER_NODES)
            if quick is not None:
                return quick
            if (yield from self.lower_refutes(or_node, d)):
                return False
        return (yield from self._ask(or_node, d))

    def or_within(self, d: int) -> Generator[Progress, None, bool]:
        """Does the attacker to move in :attr:`board` mate within ``d`` plies (tsume rules)?"""
        return (yield from self._within(True, d))

    def and_within(self, d: int) -> Generator[Progress, None, bool]:
        """Is the defender to move in :attr:`board` mated within ``d`` plies (tsume rules)?"""
        return (yield from self._within(False, d))

    def exact(self, or_node: bool, cap: int = MAX_LENGTH) -> Generator[Progress, None, int | None]:
        """Exact tsume-rule length of :attr:`board`, or None beyond ``cap`` (as the Python search's).

        The root's (the length search's own question) is climbed from below
        (:meth:`_climb`); any other position's is narrowed from above, "mate
        within hi - 2?" until refuted: there the bound the table holds when
        asked is nearly always the length (mate.tsv: 6,089 of 6,092 calls).
        """
        b = self.board
        e = self.bounds(b)
        if e.lo < e.hi and e.hi >= INF:   # no bound yet: is there a mate within the cap at all?
            if self.phase == "search":
                self.asking = cap
            if not (yield from self._ask(or_node, cap)):
                return None
            e = self.bounds(b)
        if self.phase == "search" and or_node:
            return (yield from self._climb(e.lo, e.hi, cap))
        while e.lo < e.hi:
            d = e.hi - 2
            if d > cap:
                d = cap if (cap - e.hi) % 2 == 0 else cap - 1
            if (yield from self.lower_refutes(or_node, d)):
                e = self.bounds(b)   # lo = d + 2 now, from the restricted game's table
                break
            if not (yield from self._refute(or_node, d)):
                e = self.bounds(b)
                if e.hi > cap:
                    return None
                break
            e = self.bounds(b)
        return e.hi if e.hi <= cap else None

    def _climb(self, lo: int, hi: int, cap: int) -> Generator[Progress, None, int | None]:
        """The root's exact length, from its bounds ``lo`` and ``hi`` (df-pn's), asked from below:
        "mate within lo? lo + 2? ...", each question in the one table.  Each "no" leaves its
        refutation in the table, where the next, 2 plies deeper, finds every position it refuted
        bounded already, and is the "at least" a stopped answer reports; the first "yes" is the
        length.  A refutation of "mate within L - 2" asked cold, from above, costs far more: on
        将棋無双 at 60 CPU s a row, 67 rows exact against 64, and a higher lower bound on 29 of
        the 30 others (docs/benchmarks.md)."""
        d = lo + 1 - lo % 2   # the attacker's lengths are odd
        while d < hi:
            if d > cap:
                return None
            self.root_lo, self.root_hi, self.asking = d, hi, d
            if (yield from self._ask(True, d)):
                hi = d
                break
            e = self.bounds(self.board)
            d = max(d + 2, e.lo + 1 - e.lo % 2)
            hi = min(hi, e.hi)
        self.root_lo = self.root_hi = hi
        return hi if hi <= cap else None

    def defences(self, value: int) -> Generator[Progress, None, Defences]:
        """The defences of :attr:`board` that count at bound ``value``, and its futile drop squares."""
        b = self.board
        sfen = self.sfen_of(b)
        value = max(0, min(value, _MAX_QUESTION))
        _status, real, futile = yield from self._run(
            lambda *limits: self.k.defences(sfen, value, *limits))
        squares = tuple(
            FutileSquare(int(square), tuple(b.move_from_usi(u) for u in drops), bool(omitted),
                         tuple(cshogi.Board(t) for t in tests))
            for square, drops, omitted, tests in futile)
        return Defences(tuple(b.move_from_usi(u) for u in real), squares)


def build_proof(position: Position, *, deadline: float | None = None, cancel: Cancel | None = None,
                node_limit: int | None = None, distance_rule: bool = True, max_length: int = MAX_LENGTH,
                alternatives: bool = True, memory_mb: int = 256, oracle_mb: int = _DEFAULT_ORACLE_MB,
                clock: Callable[[], float] = time.monotonic, session: AnswerSession | None = None,
                observe: Callable[[BoundedSearch], object] | None = None, oracle: Any = None,
                ) -> Generator[Progress, None, Proof | None]:
    """The official answer of ``position`` by the kernel's length-aware search.

    The contract of :func:`.length_search.build_proof`: yields progress about every
    0.1 s and returns the :class:`~.proof.Proof`, or None for no mate, cancel
    or a limit reached before the length was proved.  The raw df-pn proves the
    root first; its proof length is the first upper bound.  ``oracle``, a
    kernel ``DfPnSearch`` of ``position`` (the solve's, which proved it), is
    that raw df-pn, its table shared: the root is then not searched again.
    Without it the length search has a raw df-pn of its own (``oracle_mb``).
    """
    root = position.board().copy()
    search = KernelLengthSearch(root, deadline=deadline, cancel=cancel, node_limit=node_limit,
                                distance_rule=distance_rule, memory_mb=memory_mb, oracle_mb=oracle_mb, clock=clock,
                                oracle=oracle)
    if observe is not None:
        observe(search)
    try:
        yield search.progress()
        if (yield from search.settle_root()) != "proven":
            return None
    except SearchAborted:
        return None
    else:   # the answer's own SearchAborted is the builder's to handle
        return (yield from builder.answer(search, position, max_length=max_length, alternatives=alternatives,
                                          session=session))
    finally:
        _WATCH.discard(search)   # a search kept for a check is watched again by its budget()


def _relay(gen: Generator[Progress, None, T], whole: Callable[[Progress], Progress]) -> Generator[Progress, None, T]:
    """Run ``gen``, yielding its snapshots as ``whole`` makes them (the whole solve's count and time)."""
    try:
        while True:
            try:
                p = next(gen)
            except StopIteration as stop:
                value: T = stop.value
                return value
            yield whole(p)
    finally:
        gen.close()


__all__ = ["CHOICE_ENV", "KernelLengthSearch", "MAX_LENGTH", "available", "build_proof", "chosen"]

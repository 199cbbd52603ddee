"""The length search in Python: a length-aware, tsume-rule df-pn (the reference and the fallback).

The official answer asks "mate within n plies?" under the rule of length
(:mod:`.length_rule`) of a length search.  The kernel's ``LengthSearch``
(``core/kernel/c++/length_search.h``, :mod:`.kernel_length`) is the one the
solver runs where the kernel is built; this module is the same search in
Python: the readable reference the tests compare the kernel with
(``tools/compare_length_search.py``), and the fallback where no compiler
was at hand (``TSUME_ENGINE=python``, ``TSUME_LENGTH_SEARCH=python``).

It is a depth-bounded df-pn (proof and disproof numbers, thresholds from the
second-best sibling) whose table keeps, per board and attacker hand, what is
proved about the tsume-rule length:

* ``hi``: a mate within ``hi`` plies is proved (with the move that does it);
* ``lo``: no mate within ``lo - 2`` plies is proved;
* pn/dn of the last unresolved question ``n`` asked of the position.

No hand dominance (seed iterative-deepening-mate-futile-interposition-hand-
dominance, 優越関係): under the tsume rules the length is not monotone in the
attacker's hand, since a piece the defender no longer holds can no longer make
another drop futile (将棋無双 27番 after 6f6e 9e6e 4e5e 6d6c 6i6e: mated in 10
with a rook in hand, in 12 with a rook and a lance), so an entry answers only
its own position.
The table is bounded by memory like the df-pn table: when full, the entries
that cost the least search go first.

The length is the tsume-rule length of :mod:`.length_rule` (which
defines ``M``/``D``): a drop interposition is futile by Kakinoki's rule read
as "the mate goes on just as without it", judged with the bound being asked,
and distant drops are omitted by the distance rule (:mod:`.interposition`).
Inside the df-pn a defender node's children are its board moves; drop
squares wait, nearest the king first, until every counted child is proved
(KomoringHeights' delayed expansion of interpositions is the precedent);
only then is a square judged, by bounded questions on the same table, and
either dropped (futile) or its drops become children.  Pending squares add
one each to the node's proof number, so a parent never takes such a node for
cheaper than it is.

The project's df-pn (the oracle) helps in three ways, all under raw rules,
where every interposition counts: its table's proof of a position bounds
the tsume-rule length from above, its disproof means no mate at all, and a
short search of its own (:data:`LOOKS`: 64 nodes at defender nodes asked
for 10 plies or more, a few thousand for such a question asked from
outside, such as one 余詰 candidate)
settles positions that do not mate at all before they are refuted depth by
depth.  At the horizon (one ply left) a check is tried without a table
entry: it mates, leaves only drops to judge, or fails.

Exactness: df-pn's own proof (raw rules) bounds the length from above, since
futile interpositions only ever remove defences.  From that bound ``L`` the
search asks "mate within L - 2?" on the same table until it is refuted; the
last success is exact.  The main line, variations and 余詰 are built by
:mod:`.builder`, which asks its bounded questions of this search.

Memory.  Nothing here refers back to the search (the oracle's view and the
builder's view of the table hold it by a weak proxy), so a search dropped
is freed at once, without a cyclic collection; :meth:`LengthSearch.release`
empties its tables a slice at a time, beside other work.
"""

from __future__ import annotations

import sys
import time
import weakref
from typing import Any
from collections.abc import Callable, Generator

import cshogi

from .builder import answer
from .contract import INFINITY as INF
from .contract import Cancel, Progress, drive
from .dfpn import Outcome
from .kernel_oracle import Oracle, make_oracle
from .hand import MASK64, hand_key, pack
from .node import select_child
from .interposition import (
    Defences, DropSquare, FutileSquare, drop_squares,
)
from .length_rule import MAX_LENGTH, AnswerSession, BoundedSearch, SearchAborted
from .proof import Proof
from ..shogi.position import Position

BYTES_PER_ENTRY = 400
"""Estimated bytes of one table entry (the object, its key slots, its list share)."""

_CHECK_EVERY = 1024          # nodes between budget checks
_YIELD_SECONDS = 0.1         # progress and cancel granularity
_EPSILON = 1.25              # 1+ε thresholds for the best child
_DEFAULT_ORACLE_MB = 64

LOOKS = (10, 64, 10, 3000)
"""The short raw df-pn looks at defender nodes, as the kernel's (:data:`.kernel_length.LOOKS`): from
how many plies asked inside a question, with how many nodes, and the same for a question from
outside (one per 余詰 candidate).  Below 10 plies a look costs more than it saves."""
_DISPROVE_FROM, _DISPROVE_NODES, _ROOT_DISPROVE_FROM, _ROOT_DISPROVE_NODES = LOOKS
_MOST_LOOKS = 13


def _look_nodes(k: int) -> int:
    """The size of the k-th raw look at a defender node: the first (k = 0) is made at once, each
    later one once the node has cost as many nodes.  A node that goes on costing is looked at again,
    the looks growing fourfold (they resume on the raw table), so a position whose only escape is a
    drop interposition deep in the line is settled as soon as the raw search can show it.  The
    kernel grows its looks by the same rule (``RawLooks`` in ``length_search.h``), its first look
    waiting until the node has cost 64 nodes or been refuted."""
    return _DISPROVE_NODES << (2 * k)


class MateOracle:
    """Unbounded mate questions: is there a mate at all (raw rules decide that)?

    The df-pn oracle answers when there is one (its table by ``lookup``, its
    search by ``search``); without one nothing is known (``lookup`` and
    ``probe`` give None).
    """

    def __init__(self, oracle: Oracle | None, search: BoundedSearch) -> None:
        self.oracle = oracle
        # A proxy, not a reference: the search holds this view, and no cycle keeps either alive.
        self.search: BoundedSearch = weakref.proxy(search)
        self.cache: dict[int, tuple[int, int, int, int]] = {}


    def settle_root(self, board: cshogi.Board, nodes: int | None
                    ) -> Generator[Progress, None, tuple[int, int] | None]:
        """Let the oracle prove or disprove ``board``, pausing every 0.1 s; its (pn, dn) when known."""
        pd = self.lookup(board, True)
        while pd is None or (pd[0] != 0 and pd[1] != 0):
            paused = yield from self.prove_root(board, nodes)
            self.cache.clear()
            pd = self.lookup(board, True)
            if not paused:
                break
        return pd

    def prove_root(self, board: cshogi.Board, nodes: int | None) -> Generator[Progress, None, bool]:
        """One slice (about 0.1 s) of the oracle's search of ``board``; True when it paused."""
        assert self.oracle is not None
        s = self.search
        self.oracle.search(board, or_node=True, node_limit=nodes, deadline=s.deadline,
                           cancel=s.cancel, pause_at=time.monotonic() + _YIELD_SECONDS, clock=s.clock)
        paused = bool(self.oracle.paused)
        yield s.progress()
        s.check_stop()
        return paused


    def lookup(self, board: cshogi.Board, or_node: bool) -> tuple[int, int] | None:
        """(pn, dn) from the oracle's table, or None without an oracle."""
        got = self.probe(board, or_node)
        return None if got is None else (got[0], got[1])

    def probe(self, board: cshogi.Board, or_node: bool) -> tuple[int, int, int, int] | None:
        """(pn, dn, proof length or -1, proving move or 0) from the oracle's table.

        None without an oracle.

        A df-pn proof's length is that of one mating tree under raw rules,
        so it bounds the tsume-rule length from above (futile interpositions
        only ever drop defences).  Answers are cached; the short disproof
        searches that add to the oracle's table drop what they decide.
        """
        if self.oracle is None:
            return None
        key = board.zobrist_hash()
        got = self.cache.get(key)
        if got is None:
            e = self.oracle.entry(board)
            if e is None:
                got = (1, 1, -1, 0)
            elif e[1] == 0:
                got = (0, e[2], e[5], e[6] if or_node else 0)
            else:
                got = (e[1], e[2], -1, 0)
            self.cache[key] = got
        return got


class _Pause(Exception):
    """Unwind to the question's root so the caller can report progress."""


class Entry:
    """What is proved about one (board, attacker hand): ``lo <= length <= hi``.

    ``best`` is a move proving ``hi`` (attacker) or the last refutation
    (defender); ``pn``/``dn`` belong to the unresolved question ``n``;
    ``amount`` counts the nodes spent on the entry (the collector keeps the
    costly ones); ``busy`` counts its places on the search path (the
    collector never drops it then: the search writes its result there).
    """

    __slots__ = ("hand", "zob", "bkey", "lo", "hi", "best", "pn", "dn", "n", "amount", "seen", "looks",
                 "busy")

    def __init__(self, hand: int, zob: int, bkey: int, lo: int) -> None:
        self.hand = hand
        self.zob = zob
        self.bkey = bkey
        self.lo = lo
        self.hi = INF
        self.best = 0
        self.pn = 1
        self.dn = 1
        self.n = -1
        self.amount = 0
        self.seen = False   # the df-pn oracle's table was read for this position
        self.looks = 0      # raw df-pn looks made for a disproof (:func:`_look_nodes`)
        self.busy = 0


class LengthTable:
    """Length bounds per (board key, attacker hand), bounded in memory.

    ``get(board)`` returns the entry of that exact position (made on first
    use); entries of the same board are kept together for the collector.
    """

    def __init__(self, attacker: int, memory_mb: int = 256) -> None:
        if memory_mb < 1:
            raise ValueError(f"memory must be at least 1 MB, got {memory_mb!r}")
        self.attacker = attacker
        self.by_zob: dict[int, Entry] = {}
        self.by_board: dict[int, list[Entry]] = {}
        self.max_entries = max(1000, memory_mb * 1024 * 1024 // BYTES_PER_ENTRY)
        self.collections = 0
        self.frozen = False   # no collection while a caller holds entries by key

    def __len__(self) -> int:
        return len(self.by_zob)

    def get(self, board: cshogi.Board, zob: int | None = None) -> Entry:
        """The entry of ``board`` (defender to move when the attacker just moved)."""
        if zob is None:
            zob = board.zobrist_hash()
        e = self.by_zob.get(zob)
        if e is not None:
            return e
        hands = board.pieces_in_hand
        bkey = (zob - hand_key(hands[0], hands[1])) & MASK64
        e = Entry(pack(hands[self.attacker]), zob, bkey, 1 if board.turn == self.attacker else 0)
        self.by_zob[zob] = e
        lst = self.by_board.get(bkey)
        if lst is None:
            self.by_board[bkey] = [e]
        else:
            lst.append(e)
        return e

    def over_limit(self) -> bool:
        return len(self.by_zob) > self.max_entries

    def collect(self, target: float = 0.7) -> int:
        """Drop the cheapest entries (unresolved ones before bounded ones) down to ``target``,
        never one on the search path."""
        if self.frozen:
            return 0
        goal = int(self.max_entries * target)
        n = len(self.by_zob)
        if n <= goal:
            return 0

        def cost(e: Entry) -> int:
            return e.amount * (2 if (e.hi < INF or e.lo > 1) else 1)

        cutoff = sorted(cost(e) for e in self.by_zob.values())[n - goal - 1]
        removed = 0
        for bkey in list(self.by_board):
            lst = self.by_board[bkey]
            keep: list[Entry] = []
            gone: list[Entry] = []
            for e in lst:
                (keep if e.busy or cost(e) > cutoff else gone).append(e)
            if gone:
                for e in gone:
                    del self.by_zob[e.zob]
                removed += len(gone)
                if keep:
                    self.by_board[bkey] = keep
                else:
                    del self.by_board[bkey]
        self.collections += 1
        return removed


class _ZobView:
    """``tt[zobrist]`` for the builder (:mod:`.builder`): the entry of the search's current board."""

    def __init__(self, search: LengthSearch) -> None:
        self.s: LengthSearch = weakref.proxy(search)   # no cycle (see MateOracle)

    def __getitem__(self, zob: int) -> Entry:
        e = self.s.table.by_zob.get(zob)
        if e is None:
            e = self.s.table.get(self.s.board, zob)
        return e

    def get(self, zob: int) -> Entry | None:
        return self.s.table.by_zob.get(zob)

    def __len__(self) -> int:
        return len(self.s.table)


class LengthSearch(BoundedSearch):
    """Depth-bounded df-pn under tsume rules, with the questions :mod:`.builder` asks.

    ``or_within(d)`` / ``and_within(d)`` answer "mate within d plies?" for
    :attr:`board` (generators that yield progress about every 0.1 s);
    :meth:`exact` gives a position's exact length; :meth:`defences` its
    defences that count and its futile drop squares.
    """

    tick_every = _CHECK_EVERY
    report_every = _YIELD_SECONDS

    def __init__(self, root: cshogi.Board, oracle: Oracle | None, *, deadline: float | None,
                 cancel: Cancel | None, node_limit: int | None, distance_rule: bool,
                 memory_mb: int = 256, clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__(root, deadline=deadline, cancel=cancel, node_limit=node_limit,
                         distance_rule=distance_rule, clock=clock)
        self.mate: MateOracle = MateOracle(oracle, self)
        self.table = LengthTable(self.attacker, memory_mb)
        self.tt: _ZobView = _ZobView(self)
        self.squares: dict[int, list[DropSquare]] = {}
        # Futility of a drop square by bound: (position key, square) -> (futile from, counts up to).
        self.futility: dict[tuple[int, int], list[int]] = {}
        self.questions = 0
        self.cpu_start = time.process_time()
        self._next_check = _CHECK_EVERY
        self._pause_at: float | None = None
        self._nested = 0

    # ---- budget and progress ------------------------------------------

    def _budget(self) -> None:
        self._next_check = self.nodes + _CHECK_EVERY
        self.check_stop()
        if self.table.over_limit():
            self.table.collect()
        # Only the outermost question pauses: a nested one (a futility
        # test) would lose its place and start again after every pause.
        if self._pause_at is not None and self._nested == 1 and time.monotonic() >= self._pause_at:
            raise _Pause()

    def table_size(self) -> tuple[int, float]:
        return len(self.table), min(1.0, len(self.table) / self.table.max_entries)

    def freeze(self, frozen: bool) -> None:
        self.table.frozen = frozen

    def release(self, breathe: Callable[[], None] = lambda: None) -> None:
        """Empty the tables a slice at a time, calling ``breathe`` between slices (to offer the
        interpreter lock when freed on a thread of its own, :func:`.background.release_later`)."""
        tables: tuple[dict[Any, Any], ...] = (self.table.by_zob, self.table.by_board, self.squares,
                                               self.futility, self.mate.cache)
        for d in tables:
            while d:
                for _ in range(min(len(d), 4096)):
                    d.popitem()
                breathe()

    def futile_known(self, board: cshogi.Board, square: int, bound: int) -> bool:
        memo = self.futility.get((board.zobrist_hash(), square))
        return memo is not None and memo[0] <= bound

    # ---- questions ----------------------------------------------------

    def or_within(self, d: int) -> Generator[Progress, None, bool]:
        """Does the attacker to move in :attr:`board` mate within ``d`` plies (tsume rules)?"""
        return (yield from self._ask(True, d))

    def and_within(self, d: int) -> Generator[Progress, None, bool]:
        """Is the defender to move in :attr:`board` mated within ``d`` plies (tsume rules)?"""
        return (yield from self._ask(False, d))

    def _ask(self, or_node: bool, d: int) -> Generator[Progress, None, bool]:
        while True:
            self.check_stop()   # a short question may end before its first budget check
            self._pause_at = time.monotonic() + _YIELD_SECONDS
            b = self.board.copy()
            try:
                return self.question(b, or_node, d)
            except _Pause:
                self.last_yield = time.monotonic()
                yield self.progress()
                self.check_stop()
            finally:
                self._pause_at = None

    def question(self, b: cshogi.Board, or_node: bool, n: int) -> bool:
        """Mate within ``n`` plies of ``b``? A full df-pn search to a decision (no progress)."""
        self.questions += 1
        if n < (1 if or_node else 0):
            return False
        e = self.table.get(b)
        if e.hi <= n:
            return True
        if e.lo > n:
            return False
        if self._nested == 0 and not or_node and e.hi >= INF and n >= _ROOT_DISPROVE_FROM and e.looks == 0:
            # A question from outside (the 余詰 search asks one per check) is
            # worth a longer raw df-pn look: a check that does not mate at
            # all is settled by it outright.  The looks inside the search go
            # on from the first larger than this one.
            while e.looks < _MOST_LOOKS and _look_nodes(e.looks) <= _ROOT_DISPROVE_NODES:
                e.looks += 1
            if self._raw_disproof(b, _ROOT_DISPROVE_NODES):
                e.lo = INF
                return False
        old_limit = sys.getrecursionlimit()
        if old_limit < 4 * n + 4000:
            sys.setrecursionlimit(4 * n + 4000)
        self._nested += 1
        try:
            # Until decided: with thresholds of INF a search returns undecided only where a node's
            # numbers reach INF, which select_child prevents (node._summed).
            pn, dn = self._search(b, or_node, n, e, INF, INF)
            while pn != 0 and dn != 0:
                pn, dn = self._search(b, or_node, n, self.table.get(b), INF, INF)
        finally:
            self._nested -= 1
            sys.setrecursionlimit(old_limit)
        return pn == 0

    def exact(self, or_node: bool, cap: int = MAX_LENGTH) -> Generator[Progress, None, int | None]:
        """Exact tsume-rule length of :attr:`board`, or None when it is beyond ``cap``.

        A mate within ``cap`` first (when no bound is known), then "within
        hi - 2?" until refuted.
        """
        b = self.board
        e = self.table.get(b)
        root = self.phase == "search"   # the root's length search: its bounds are progress to report
        while e.lo < e.hi:
            if root:
                self.root_lo, self.root_hi = e.lo, e.hi
                self.asking = cap if e.hi >= INF else min(e.hi - 2, cap)
            if e.hi >= INF:
                if not (yield from self._ask(or_node, cap)):
                    return None
                e = self.table.get(b)
                continue
            d = e.hi - 2
            if d > cap:
                d = cap if (cap - e.hi) % 2 == 0 else cap - 1
            if root:
                self.asking = d
            if not (yield from self._ask(or_node, d)):
                e = self.table.get(b)
                if e.lo < d + 2:
                    e.lo = d + 2
                if e.hi > cap:
                    return None
                break
            e = self.table.get(b)
        return e.hi if e.hi <= cap else None

    # ---- the df-pn ----------------------------------------------------

    def _first_look(self, b: cshogi.Board, or_node: bool, e: Entry) -> None:
        """Bounds from the df-pn oracle (raw proof: upper bound; raw disproof: no mate) and mate in 1."""
        e.seen = True
        if len(self.mate.cache) > 200_000:
            self.mate.cache.clear()
        pd = self.mate.probe(b, or_node)
        if pd is not None:
            if pd[1] == 0 and pd[0] != 0:
                e.lo = INF
                return
            if pd[0] == 0 and 0 <= pd[2] < e.hi:
                e.hi = pd[2]
                if or_node and pd[3]:
                    e.best = pd[3]
        if or_node and e.hi > 1 and not b.is_check():
            m1 = b.mate_move_in_1ply()
            if m1:
                e.hi, e.best = 1, m1

    def _search(self, b: cshogi.Board, or_node: bool, n: int, e: Entry, thpn: int, thdn: int
                ) -> tuple[int, int]:
        """One df-pn node: "mate within ``n``?" for ``b``; returns (pn, dn) and records bounds."""
        self.nodes += 1
        if self.nodes >= self._next_check:
            self._budget()
        if not e.seen:
            self._first_look(b, or_node, e)
        if e.hi <= n:
            return 0, INF
        if e.lo > n:
            return INF, 0
        if not or_node and n >= _DISPROVE_FROM and e.hi >= INF and e.looks < _MOST_LOOKS \
                and (e.looks == 0 or e.amount >= _look_nodes(e.looks)):
            # Deep questions are worth a raw df-pn look: a position that is
            # no mate at all is then never refuted depth by depth.  A node
            # that goes on costing is looked at again, the looks growing.
            look = _look_nodes(e.looks)
            e.looks += 1
            if self._raw_disproof(b, look):
                e.lo = INF
                return INF, 0
        start = self.nodes
        e.busy += 1
        try:
            if or_node:
                return self._or(b, n, e, thpn, thdn)
            return self._and(b, n, e, thpn, thdn)
        finally:
            # Also when a pause or a stop unwinds the path: a question asked in slices
            # would otherwise leave its long-searched nodes looking cheap to the collector.
            e.busy -= 1
            e.amount += self.nodes - start + 1

    def _child(self, b: cshogi.Board, or_child: bool, n: int) -> tuple[Entry, int, int]:
        """The entry of the current (just pushed) position and its (pn, dn) for question ``n``."""
        e = self.table.get(b)
        if e.hi <= n:
            return e, 0, INF
        if e.lo > n:
            return e, INF, 0
        if e.n == n:
            return e, e.pn, e.dn
        if not e.seen:
            self._first_look(b, or_child, e)
            if not or_child and e.hi > 0:
                nm = len(b.legal_moves)
                if nm == 0:
                    e.lo = e.hi = 0
                e.pn = max(1, nm)
            if e.hi <= n:
                return e, 0, INF
            if e.lo > n:
                return e, INF, 0
        return e, e.pn, 1

    def _raw_disproof(self, b: cshogi.Board, nodes: int = _DISPROVE_NODES) -> bool:
        """A short raw df-pn search of a defender-to-move position: True when it proves no mate."""
        oracle = self.mate.oracle
        if oracle is None:
            return False
        outcome = oracle.search(b.copy(), or_node=False, node_limit=oracle.nodes + nodes,
                                deadline=self.deadline, cancel=self.cancel, clock=self.clock)
        self.check_stop()
        # The search decided positions the probe cache may hold as unknown.
        self.mate.cache.clear()
        return outcome == Outcome.DISPROVEN

    def _or(self, b: cshogi.Board, n: int, e: Entry, thpn: int, thdn: int) -> tuple[int, int]:
        moves = list(b.check_moves)
        if not moves:
            e.lo = INF
            return INF, 0
        if n == 1:
            # The horizon: a check mates, leaves only drops to judge, or fails.
            drops_only = []
            for m in moves:
                b.push(m)
                legal = b.legal_moves
                if not legal:
                    b.pop()
                    e.hi, e.best = 1, m
                    return 0, INF
                if not any(not cshogi.move_is_drop(x) for x in legal):
                    drops_only.append(m)
                b.pop()
            if not drops_only:
                if e.lo < 3:
                    e.lo = 3
                return INF, 0
            moves = drops_only
        k = len(moves)
        ents: list[Entry] = []
        cpn = [0] * k
        cdn = [0] * k
        best = e.best
        for i, m in enumerate(moves):
            b.push(m)
            c, pn, dn = self._child(b, False, n - 1)
            b.pop()
            ents.append(c)
            if m == best and pn:
                pn = max(1, pn // 2)   # the last proving move first
            cpn[i] = pn
            cdn[i] = dn
        while True:
            pn, dn, i1, c_thpn, c_thdn = select_child(cpn, cdn, True, 0, thpn, thdn, _EPSILON)
            if i1 < 0:
                break
            b.push(moves[i1])
            cpn[i1], cdn[i1] = self._search(b, False, n - 1, ents[i1], c_thpn, c_thdn)
            b.pop()
        if pn == 0:
            bi, bh = -1, INF
            for j in range(k):
                if cpn[j] == 0 and ents[j].hi < bh:
                    bi, bh = j, ents[j].hi
            if bh + 1 < e.hi:
                e.hi, e.best = bh + 1, moves[bi]
            return 0, INF
        if dn == 0:
            if n + 2 > e.lo:
                e.lo = n + 2
            return INF, 0
        e.pn, e.dn, e.n = pn, dn, n
        return pn, dn

    def _and(self, b: cshogi.Board, n: int, e: Entry, thpn: int, thdn: int) -> tuple[int, int]:
        legal = list(b.legal_moves)
        if not legal:
            e.lo = e.hi = 0
            return 0, INF
        moves = [m for m in legal if not cshogi.move_is_drop(m)]
        if moves and n < 2:
            if n + 2 > e.lo:
                e.lo = n + 2
            return INF, 0
        squares = self._squares(b, e.zob) if len(moves) != len(legal) else []
        pending = list(range(len(squares)))   # indices into squares, nearest first
        futile_at: set[int] = set()
        used_futile = False
        ents: list[Entry] = []
        cpn: list[int] = []
        cdn: list[int] = []
        best = e.best

        def add(m: int) -> None:
            b.push(m)
            c, pn, dn = self._child(b, True, n - 1)
            b.pop()
            if m == best and dn:
                dn = max(1, dn // 2)   # the last refutation first
            ents.append(c)
            cpn.append(pn)
            cdn.append(dn)

        for m in moves:
            add(m)
        while True:
            if pending and all(p == 0 for p in cpn):
                # Every counted child is proved: judge the nearest waiting square.
                i = pending.pop(0)
                ds = squares[i]
                if self.distance_rule and ds.omittable and all(
                        j in futile_at for j in range(i)
                        if squares[j].checker == ds.checker and squares[j].distance < ds.distance):
                    futile_at.add(i)
                    used_futile = True
                    continue
                # Every counted defence is proved: none lasts more than its
                # bound, and a futile square's capture may last no longer.
                longest = 0
                for c in ents:
                    if c.hi + 1 > longest:
                        longest = c.hi + 1
                if self._futile(b, e.zob, ds, n, moves, longest):
                    futile_at.add(i)
                    used_futile = True
                    continue
                for m in ds.moves:
                    moves.append(m)
                    add(m)
                continue
            if not cpn:
                pn, dn = 0, INF   # every defence was a futile drop
                break
            pn, dn, i1, c_thpn, c_thdn = select_child(cpn, cdn, False, len(pending), thpn, thdn, _EPSILON)
            if i1 < 0:
                break
            b.push(moves[i1])
            cpn[i1], cdn[i1] = self._search(b, True, n - 1, ents[i1], c_thpn, c_thdn)
            b.pop()
        if pn == 0:
            worst = 0
            for c in ents:
                if c.hi + 1 > worst:
                    worst = c.hi + 1
            if used_futile and worst < n:
                worst = n   # futility was judged with ``n``: only ``n`` itself is proved
            if worst < e.hi:
                e.hi = worst
            return 0, INF
        if dn == 0:
            e.best = moves[cdn.index(0)]
            if n + 2 > e.lo:
                e.lo = n + 2
            return INF, 0
        e.pn, e.dn, e.n = pn, dn, n
        return pn, dn

    def _squares(self, b: cshogi.Board, zob: int) -> list[DropSquare]:
        got = self.squares.get(zob)
        if got is None:
            if len(self.squares) > 200_000:
                self.squares.clear()
            got = drop_squares(b)
            self.squares[zob] = got
        return got

    def _futile(self, b: cshogi.Board, zob: int, ds: DropSquare, n: int, others: list[int],
                longest: int = INF) -> bool:
        """Is the drop square ``ds`` futile at bound ``n`` (:mod:`.interposition`'s rule)?

        The capture with the piece handed back (either promotion choice)
        must be mated in ``k <= n`` plies, and ``k`` must be 0 or no more
        than one of ``others`` (the defences that count) lasts anyway.
        Futility only grows with the bound, so verdicts are kept per square
        as "futile from" / "counts up to".  ``longest`` bounds the others'
        lengths from above (0 when there are none), so the capture's mate is
        only sought within it.
        """
        memo = self.futility.get((zob, ds.square))
        if memo is not None:
            if n >= memo[0]:
                return True
            if n <= memo[1]:
                return False
        self.futility_tests += 1
        verdict = False
        cap = min(n, longest)
        for t in ds.tests(b):
            t = t.copy()
            if not self.question(t, False, cap):
                continue
            k = self._exact_now(t, False, cap)
            if k is None:
                continue
            if k == 0:
                verdict = True
                break
            for m in others:
                b.push(m)
                shorter = self.question(b, True, k - 3)
                b.pop()
                if not shorter:
                    verdict = True
                    break
            if verdict:
                break
        if memo is None:
            memo = [INF, -1]
            if len(self.futility) > 200_000:
                self.futility.clear()
            self.futility[(zob, ds.square)] = memo
        if verdict:
            memo[0] = min(memo[0], n)
        else:
            memo[1] = max(memo[1], n)
        return verdict

    def _exact_now(self, b: cshogi.Board, or_node: bool, cap: int) -> int | None:
        """:meth:`exact` without progress, for positions proved to mate within ``cap``."""
        e = self.table.get(b)
        while e.lo < e.hi:
            if e.hi > cap:
                if not self.question(b, or_node, cap):
                    return None
                e = self.table.get(b)
                continue
            d = e.hi - 2
            if not self.question(b, or_node, d):
                e = self.table.get(b)
                if e.lo < d + 2:
                    e.lo = d + 2
                break
            e = self.table.get(b)
        return e.hi if e.hi <= cap else None

    def defences(self, value: int) -> Generator[Progress, None, Defences]:
        """The defences of :attr:`board` that count at bound ``value``, and its futile drop squares."""
        b = self.board
        zob = b.zobrist_hash()
        real = [m for m in b.legal_moves if not cshogi.move_is_drop(m)]
        squares = self._squares(b, zob)
        counted: list[int] = []
        futile: list[FutileSquare] = []
        futile_at: set[int] = set()
        for i, ds in enumerate(squares):
            yield from self._tick()
            if self.distance_rule and ds.omittable and all(
                    j in futile_at for j in range(i)
                    if squares[j].checker == ds.checker and squares[j].distance < ds.distance):
                futile_at.add(i)
                futile.append(FutileSquare(ds.square, tuple(ds.moves), True))
                continue
            verdict = yield from self._futile_gen(ds, value, real + counted)
            if verdict:
                futile_at.add(i)
                futile.append(FutileSquare(ds.square, tuple(ds.moves), False, tuple(ds.tests(b))))
            else:
                counted.extend(ds.moves)
        return Defences(tuple(real + counted), tuple(futile))

    def _futile_gen(self, ds: DropSquare, n: int, others: list[int]) -> Generator[Progress, None, bool]:
        while True:
            self._pause_at = time.monotonic() + _YIELD_SECONDS
            b = self.board.copy()
            try:
                return self._futile(b, b.zobrist_hash(), ds, n, others)
            except _Pause:
                self.last_yield = time.monotonic()
                yield self.progress()
                self.check_stop()
            finally:
                self._pause_at = None


def build_proof(position: Position, oracle: Oracle | None = None, *, deadline: float | None = None,
                cancel: Cancel | None = None, node_limit: int | None = None,
                distance_rule: bool = True, max_length: int = MAX_LENGTH,
                alternatives: bool = True, memory_mb: int = 256,
                clock: Callable[[], float] = time.monotonic,
                session: AnswerSession | None = None,
                observe: Callable[[BoundedSearch], object] | None = None,
                ) -> Generator[Progress, None, Proof | None]:
    """The official answer of the direct-mate problem ``position`` by this search (:func:`.builder.answer`).

    A generator: it yields :class:`~.contract.Progress` about every 0.1 s of
    work and returns the :class:`~.proof.Proof`, or None when there is no
    mate, when ``cancel`` was set, or when ``deadline`` (a value of
    ``clock``), ``node_limit`` (nodes of this search), ``max_length`` plies
    or the table's share of ``memory_mb`` ran out before the length was proved.

    Args:
        position: the problem; the side to move attacks.
        oracle: a df-pn searcher (the kernel's or the Python engine's,
            :mod:`.kernel_oracle`): its ``search`` first settles whether the
            root mates at all, its proof length is the first upper bound, and
            its table answers raw no-mates inside the search.  When None, one
            with a small table is made here (:func:`.kernel_oracle.make_oracle`).
        distance_rule: omit distant drop interpositions by the omission rule
            (see :mod:`.interposition`); False tests every drop square.
        alternatives: look for 余詰 along the main line.  This proves, for
            every other check on the main line, that it does not mate within
            the length (or finds that it does), which on long problems costs
            more than the length itself; False skips it (no alternatives,
            and ties between equally short attacker moves are not broken).
            When the limits run out during that search, the answer without
            it is returned, with ``Proof.alternatives_checked`` False.
        memory_mb: the bound of this search's own table.
        session: when given, receives the search once the length is proved,
            for a check of a given line to reuse (:class:`.length_rule.AnswerSession`).
        observe: called with the search object before it starts, for a
            caller that wants its figures (``nodes``) after it returns.
    """
    root = position.board().copy()
    if oracle is None:
        oracle = make_oracle(root, _DEFAULT_ORACLE_MB)
    search = LengthSearch(root, oracle, deadline=deadline, cancel=cancel, node_limit=node_limit,
                          distance_rule=distance_rule, memory_mb=memory_mb, clock=clock)
    if observe is not None:
        observe(search)   # e.g. to read its node count when it returns
    try:
        yield search.progress()
        search.check_stop()
        pd = yield from search.mate.settle_root(root, node_limit)
        if pd is not None:
            search.root_pn, search.root_dn = pd
            if pd[0] != 0:
                return None   # no mate (proved), or df-pn ran out first
        yield search.progress()
    except SearchAborted:
        if session is not None:
            session.stopped(search)
        return None
    return (yield from answer(search, position, max_length=max_length, alternatives=alternatives,
                              session=session))


def solve_official(position: Position, oracle: Oracle | None = None, **kwargs: Any) -> Proof | None:
    """Run :func:`build_proof` to the end (no progress)."""
    result: Proof | None = drive(build_proof(position, oracle, **kwargs))
    return result


__all__ = ["Entry", "LOOKS", "LengthSearch", "LengthTable", "MateOracle", "build_proof", "solve_official"]

"""The official answer of a direct-mate problem: exact length, main line, proof tree, 余詰.

df-pn proves *that* a position is mate, but neither gives the shortest mate
([Qhapaq 2020]: df-pn follows small proof numbers, not short
lines) nor applies tsume rules to futile interpositions.  This module does
both with an iterative-deepening mate search ([ComShogi ch. 9]): depth
1, 3, 5, … plies, each a depth-bounded AND/OR search that answers "mate
within d plies?", with

* a transposition table of bounds per position (``lo <= length <= hi``), so
  each iteration reuses what the previous ones proved;
* hand dominance both ways (same board: an attacker with at least these
  pieces in hand, and a defender with at most these, mates at least as fast);
* futile interpositions removed from the defences by Kakinoki's rule, read
  as "the mate goes on just as without it" (:mod:`.interposition`); they
  are still mate, but do not count;
* the df-pn table (``oracle.lookup``) to drop positions df-pn proved to be no
  mate and to try proven moves first, and ``oracle.search`` to settle first
  whether the root mates at all (the kernel's df-pn or the Python engine's,
  :mod:`.kernel_oracle`, made here when the caller gives none).

Memory.  The table holds one entry per position met (bounds, both hands
packed as in :mod:`.hand`, the best move); its size is bounded by
``memory_mb``: :data:`TABLE_SHARE` of it, at :data:`BYTES_PER_ENTRY` bytes an
entry (df-pn's table takes a larger share of the same bound, see
:mod:`.tt`).  When the table is full the search stops as if out of time: no
answer, and the caller keeps df-pn's own line, not proved shortest.

Tsume-rule length.  For an attacker position P, ``M(P) = 1 + min D(P·c)`` over
checks ``c``; for a defender position Q, ``D(Q) = 0`` when Q has no defence
that counts (mated, or every defence a futile interposition) and otherwise
``1 + max M(Q·e)`` over the defences that count.  Futility is judged with
the bound being asked ("is Q mated within d?"), so a futile square's test
position is mated within d; a bound proved that way is recorded as d itself.
Iterative deepening makes the length exact: when "mate within d" first
succeeds, "mate within d - 2" has been refuted.

The main line takes the defender's longest resistance and, among equally
long ones, the one that leaves the attacker the fewest pieces in hand at the
end (駒余り tie-break); along the main line every attacker move that mates in
time is found, the same tie-break picks one and the others are 余詰
candidates.  Off the main line the attacker's answer is the first shortest
mate found.  Each counted defence in the tree carries its exact length.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any
from collections.abc import Callable, Generator

import cshogi

from .contract import INFINITY as INF, Cancel, Progress, SearchPhase, drive
from .dfpn import Outcome
from .kernel_oracle import Oracle, make_oracle
from .hand import MASK64, hand_ge, hand_key, pack
from .interposition import Defences, DropSquare, FutileSquare, drop_squares, may_omit
from ..shogi.position import Position
from .proof import (
    Alternative, FutileInterposition, FutileReason, Futility, Proof, ProofNode, Role,
)

TABLE_SHARE = 0.25
"""Part of ``memory_mb`` this search's table may take."""

BYTES_PER_ENTRY = 400
"""Estimated bytes per table entry: the entry, its slot in two dicts and a list, its ints.

Measured with tracemalloc on mate.tsv's mog-1033 (13 plies, 19,890
entries): everything this module allocates comes to 330 bytes an entry;
the rest is headroom for the proof tree built afterwards.
"""

MAX_DEPTH = 255
"""Deepest iteration tried; longer mates are out of this search's reach."""

MAX_TREE_NODES = 20_000
"""Beyond this many nodes the proof tree keeps variations' lengths but not their moves."""

_CHECK_EVERY = 256          # nodes between clock checks
_YIELD_SECONDS = 0.1        # progress and cancel granularity
# cshogi's df-pn cannot be paused: one call stays within about 0.1 s.
_ROOT_DFPN_NODES = 30_000
_DEFAULT_ORACLE_MB = 64     # table of the df-pn made when the caller gives none
_DISPROVE_FROM = 10         # plies asked of a defender node that make it worth a df-pn look
_DISPROVE_NODES = 300       # that look's node budget


class SearchAborted(Exception):
    """Cancelled, out of time or out of nodes."""


class BoundedSearch:
    """What the official-answer searches share: the board, the budget and progress snapshots.

    The budget is a cancel flag, a deadline and a node limit; :meth:`check_stop`
    raises :class:`SearchAborted` when one of them is spent.  Subclasses count
    ``nodes`` and say how full their table is (:meth:`table_size`).
    """

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
        self.start = time.monotonic()
        self.last_yield = self.start
        self.depth = 0
        self.phase = "search"
        # What the root's length search has proved so far: no mate within
        # ``root_lo - 2``, a mate within ``root_hi`` (INF: none yet), and the
        # question being asked, "mate within ``asking``?" (0: none).
        self.root_lo, self.root_hi, self.asking = 1, INF, 0
        self.root_pn, self.root_dn = 1, 1

    def check_stop(self) -> None:
        """Raise :class:`SearchAborted` when cancelled or out of budget."""
        if self.cancel is not None and self.cancel.is_set():
            raise SearchAborted("cancelled")
        if self.deadline is not None and self.clock() >= self.deadline:
            raise SearchAborted("deadline")
        if self.node_limit is not None and self.nodes >= self.node_limit:
            raise SearchAborted("node limit")

    def table_size(self) -> tuple[int, float]:
        """Entries in the search's table and how full it is (0.0 .. 1.0)."""
        return 0, 0.0

    # The questions both searches answer (a check of a given line asks them of either).
    mate: MateOracle

    def or_within(self, d: int) -> Generator[Progress, None, bool]:
        """Does the attacker to move in :attr:`board` mate within ``d`` plies (tsume rules)?"""
        raise NotImplementedError

    def and_within(self, d: int) -> Generator[Progress, None, bool]:
        """Is the defender to move in :attr:`board` mated within ``d`` plies (tsume rules)?"""
        raise NotImplementedError

    def exact(self, or_node: bool, cap: int = MAX_DEPTH) -> Generator[Progress, None, int | None]:
        """Exact tsume-rule length of :attr:`board`, or None beyond ``cap``."""
        raise NotImplementedError

    def defences(self, value: int) -> Generator[Progress, None, Defences]:
        """The defences of :attr:`board` that count at bound ``value``, and its futile drop squares."""
        raise NotImplementedError

    def futile_known(self, board: cshogi.Board, square: int, bound: int) -> bool:
        """True when this search proved the drop square ``square`` of ``board`` futile at ``bound``.

        Only what was judged already: no search.  Futility grows with the
        bound, so a verdict at a bound up to ``bound`` counts.
        """
        return False

    def progress(self) -> Progress:
        """A frozen snapshot for the progress report."""
        elapsed = time.monotonic() - self.start
        entries, fill = self.table_size()
        phase = {"tree": SearchPhase.TREE, "alternatives": SearchPhase.ALTERNATIVES}.get(
            self.phase, SearchPhase.SHORTEST)
        return Progress(nodes=self.nodes, nps=self.nodes / elapsed if elapsed > 0 else 0.0,
                        elapsed=elapsed, root_pn=self.root_pn, root_dn=self.root_dn,
                        table_fill=fill, table_entries=entries, phase=phase,
                        stats=(("depth", float(self.depth)), ("futility_tests", float(self.futility_tests)),
                               ("tree", 0.0 if phase is SearchPhase.SHORTEST else 1.0)) + self.bounds_stats())

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

    :func:`build_proof` (here and in :mod:`.official`) fills it in once the
    root's exact length is proved: ``search`` (its table of proved bounds and
    its df-pn oracle), ``length`` and the root's ``sfen``.  A check of a given
    line (:func:`tsume_studio.core.check.check_solution`) then asks its
    questions of that table instead of solving the problem again.
    """

    __slots__ = ("search", "length", "sfen", "at_least", "at_most")

    def __init__(self) -> None:
        self.search: BoundedSearch | None = None
        self.length: int | None = None
        self.sfen: str | None = None
        # A search stopped before the length was proved: the bounds it had proved.
        self.at_least: int | None = None
        self.at_most: int | None = None

    def stopped(self, search: BoundedSearch) -> None:
        """Record the root's proved bounds of a search stopped before its length was proved."""
        self.at_least = search.root_lo
        self.at_most = search.root_hi if search.root_hi < INF else None

    def keep(self, search: BoundedSearch, length: int, sfen: str) -> None:
        """Record the search of ``sfen`` whose exact length ``length`` is proved."""
        self.search, self.length, self.sfen = search, length, sfen

    def usable_for(self, sfen: str) -> bool:
        """True when a search of exactly this position, with its length proved, is kept."""
        return self.search is not None and self.length is not None and self.sfen == sfen

    def release(self) -> None:
        """Let the table go (it may hold hundreds of megabytes)."""
        self.search = None


class MateOracle:
    """Unbounded mate questions: is there a mate at all (raw rules decide that)?

    The df-pn oracle answers when there is one (its table by ``lookup``, its
    search by ``search``); otherwise cshogi's C++ df-pn, which cannot tell
    "no mate" from "out of nodes", so its False counts as a disproof only
    when it stopped short of its budget.
    """

    def __init__(self, oracle: Oracle | None, search: BoundedSearch) -> None:
        self.oracle = oracle
        self.search = search
        self.cache: dict[int, tuple[int, int, int, int]] = {}

    def or_node(self, board: cshogi.Board, nodes: int | None) -> bool | None:
        """Whether the attacker to move mates (None: unknown), by the oracle or cshogi."""
        if self.oracle is not None:
            s = self.search
            outcome = self.oracle.search(board.copy(), or_node=True, node_limit=nodes,
                                         deadline=s.deadline, cancel=s.cancel,
                                         clock=s.clock)
            s.check_stop()
            return True if outcome == Outcome.PROVEN else False if outcome == Outcome.DISPROVEN else None
        limit = min(nodes or _ROOT_DFPN_NODES, _ROOT_DFPN_NODES)
        dfpn = cshogi.DfPn(nodes=limit)
        if dfpn.search(board):
            return True
        return False if dfpn.searched_node < limit else None

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

    def disproved(self, board: cshogi.Board) -> bool:
        """A short df-pn search of a defender-to-move position: True when it proves no mate."""
        if self.oracle is None:
            return False
        s = self.search
        outcome = self.oracle.search(board.copy(), or_node=False,
                                     node_limit=self.oracle.nodes + _DISPROVE_NODES,
                                     deadline=s.deadline, cancel=s.cancel,
                                         clock=s.clock)
        s.check_stop()
        # The search has decided positions the cache may hold as unknown.
        self.cache.clear()
        return bool(outcome == Outcome.DISPROVEN)

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


@dataclass(slots=True)
class _Entry:
    """Proved bounds of one position's tsume-rule length: ``lo <= length <= hi``."""

    ah: int               # attacker's hand, packed (core.search.hand)
    dh: int               # defender's hand, packed
    lo: int
    hi: int
    best: int = 0         # OR: a move proving ``hi``; AND: the last refutation


class _Search(BoundedSearch):
    """Depth-bounded tsume-rule mate search with bounds, dominance and futility.

    ``or_within(d)`` / ``and_within(d)`` answer "mate within d plies?" for the
    current position of :attr:`board`; both answers are proofs and go into
    the table as bounds.
    """

    def __init__(self, root: cshogi.Board, oracle: Oracle | None, *, deadline: float | None,
                 cancel: Cancel | None, node_limit: int | None, distance_rule: bool,
                 memory_mb: int = 1024, clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__(root, deadline=deadline, cancel=cancel, node_limit=node_limit,
                         distance_rule=distance_rule, clock=clock)
        self.max_entries = max(1000, int(memory_mb * TABLE_SHARE * 2**20) // BYTES_PER_ENTRY)
        self.mate = MateOracle(oracle, self)
        self.tt: dict[int, _Entry] = {}
        self.by_board: dict[int, list[_Entry]] = {}
        self.squares: dict[int, list[DropSquare]] = {}
        self.disproof_tried: set[int] = set()
        # (position key, square) -> the smallest bound at which the square was judged futile.
        self.futile_from: dict[tuple[int, int], int] = {}

    # ---- budget and progress ------------------------------------------

    def table_size(self) -> tuple[int, float]:
        return len(self.tt), 0.0

    def futile_known(self, board: cshogi.Board, square: int, bound: int) -> bool:
        got = self.futile_from.get((board.zobrist_hash(), square))
        return got is not None and got <= bound

    def _tick(self) -> Generator[Progress, None, None]:
        """Count a node; every so often check the budget and hand out a snapshot."""
        self.nodes += 1
        if self.nodes % _CHECK_EVERY:
            return
        self.check_stop()
        now = time.monotonic()
        if now - self.last_yield >= _YIELD_SECONDS:
            self.last_yield = now
            yield self.progress()
            self.check_stop()

    # ---- the table ----------------------------------------------------

    def _entry(self, b: cshogi.Board, key: int, or_node: bool) -> _Entry:
        e = self.tt.get(key)
        if e is not None:
            return e
        if len(self.tt) >= self.max_entries:
            raise SearchAborted("memory limit")
        h = b.pieces_in_hand
        ah, dh = pack(h[self.attacker]), pack(h[1 - self.attacker])
        lo, hi = (1, INF) if or_node else (0, INF)
        bkey = (key - hand_key(h[0], h[1])) & MASK64   # the board alone (core.hand)
        same = self.by_board.setdefault(bkey, [])
        # Hand dominance ([ComShogi ch. 9]: 優越関係): with the same board, an attacker
        # holding at least these pieces against a defender holding at most
        # these mates at least as fast, and the other way round.
        for o in same:
            if o.hi < hi and hand_ge(ah, o.ah) and hand_ge(o.dh, dh):
                hi = o.hi
            if o.lo > lo and hand_ge(o.ah, ah) and hand_ge(dh, o.dh):
                lo = o.lo
        e = _Entry(ah, dh, lo, hi)
        same.append(e)
        self.tt[key] = e
        return e

    @staticmethod
    def _fail(e: _Entry, d: int) -> None:
        """Record "no mate within ``d``" (lengths keep their parity: OR odd, AND even)."""
        if d + 2 > e.lo:
            e.lo = d + 2

    # ---- bounded search -----------------------------------------------

    def or_within(self, d: int) -> Generator[Progress, None, bool]:
        """Does the attacker to move mate within ``d`` plies (tsume rules)?"""
        b = self.board
        yield from self._tick()
        key = b.zobrist_hash()
        e = self._entry(b, key, True)
        if e.hi <= d:
            return True
        if e.lo > d:
            return False
        if e.lo == 1 and e.hi == INF:
            pd = self.mate.probe(b, True)
            if pd is not None:
                if pd[1] == 0 and pd[0] != 0:  # df-pn: no mate at all
                    e.lo = INF
                    return False
            # cshogi's 1-ply mate finder assumes the attacker is not in check.
            m1 = 0 if b.is_check() else b.mate_move_in_1ply()
            if m1:
                e.hi, e.best = 1, m1
                return True
            if pd is not None and pd[0] == 0 and pd[2] > 0:  # df-pn's proof: mate within its length
                e.hi, e.best = pd[2], pd[3]
                if e.hi <= d:
                    return True
        checks = list(b.check_moves)
        if d >= 3:  # at d == 1 every check is tried anyway
            checks.sort(key=lambda m: self._or_order(m, e, d))
        for c in checks:
            b.push(c)
            r = yield from self.and_within(d - 1)
            child_hi = self.tt[b.zobrist_hash()].hi if r else INF
            b.pop()
            if r:
                if child_hi + 1 < e.hi:
                    e.hi, e.best = child_hi + 1, c
                return True
        self._fail(e, d)
        return False

    def _or_order(self, m: int, e: _Entry, d: int) -> tuple[int, int]:
        """Sort key of a check: the last proving move, then short known mates, then df-pn's pn."""
        if m == e.best:
            return (0, 0)
        b = self.board
        b.push(m)
        try:
            c = self.tt.get(b.zobrist_hash())
            if c is not None and c.hi < INF:
                return (1, c.hi)
            if d >= 3:  # df-pn's view only where a mate is still being sought deep
                pd = self.mate.lookup(b, False)
                if pd is not None:
                    return (2, pd[0]) if pd[0] < INF else (4, 0)
            if c is not None:
                return (3, c.lo)
        finally:
            b.pop()
        return (3, 0)

    def _and_order(self, m: int, e: _Entry, d: int) -> int:
        """Sort key of a defence: likely refutations first, known mates in time last."""
        if m == e.best:
            return 0
        b = self.board
        b.push(m)
        try:
            c = self.tt.get(b.zobrist_hash())
            if c is not None:
                if c.lo > d - 1:
                    return 1
                if c.hi <= d - 1:
                    return 5
            pd = self.mate.probe(b, True)
            if pd is None:
                return 3
            if pd[1] == 0:
                return 1              # no mate at all
            if pd[0] == 0 and pd[2] <= d - 1:
                return 5
            return 3
        finally:
            b.pop()

    def drop_squares_of(self, key: int) -> list[DropSquare]:
        got = self.squares.get(key)
        if got is None:
            got = drop_squares(self.board)
            self.squares[key] = got
        return got

    def is_futile(self, ds: DropSquare, d: int, others: list[int]) -> Generator[Progress, None, bool]:
        """Is the drop square ``ds`` of the current position futile, ``d`` plies being asked?

        Kakinoki's rule with its "the mate goes on just as without it" made
        exact: the capture with the piece handed back (either promotion
        choice) must be mated in ``k <= d`` plies, and ``k`` must be no more
        than the defender gets anyway: ``k == 0`` (the capture mates at
        once), or one of ``others`` (the defences that count) lasts at least
        ``k`` plies too.  Both questions are bounded, so they are proved.
        """
        b = self.board
        self.futility_tests += 1
        for t in ds.tests(b):
            self.board = t.copy()
            try:
                within = yield from self.and_within(d)
                k = (yield from self.exact(False, cap=d)) if within else None
            finally:
                self.board = b
            if k is None:
                continue
            if k == 0:
                return True
            for e in others:
                b.push(e)
                shorter = yield from self.or_within(k - 3)
                b.pop()
                if not shorter:
                    return True
        return False

    def drop_defences(self, key: int, d: int, board_moves: list[int], check: bool
                      ) -> Generator[Progress, None, tuple[list[int], list[tuple[DropSquare, bool]], int | None]]:
        """Walk the drop squares nearest first and sort them into counted and futile.

        Returns the counted drops, the futile squares (with True where the
        distance rule omitted them) and, when ``check`` is set, the largest
        proved bound of the counted drops' lines, or None as soon as one of
        them does not mate within ``d``.
        """
        squares = self.drop_squares_of(key)
        counted: list[int] = []
        futile: list[tuple[DropSquare, bool]] = []
        futile_at: set[int] = set()
        worst = 0
        for i, ds in enumerate(squares):
            if self.distance_rule and may_omit(squares, i, futile_at.__contains__):
                futile.append((ds, True))
                futile_at.add(i)
                continue
            if (yield from self.is_futile(ds, d, board_moves + counted)):
                at = (key, ds.square)
                self.futile_from[at] = min(d, self.futile_from.get(at, d))
                futile.append((ds, False))
                futile_at.add(i)
                continue
            if check:
                for m in ds.moves:
                    r, hi = yield from self._defence(m, d)
                    if not r:
                        self.tt[key].best = m
                        return counted, futile, None
                    worst = max(worst, hi)
            counted.extend(ds.moves)
        return counted, futile, worst

    def and_within(self, d: int) -> Generator[Progress, None, bool]:
        """Is the defender to move mated within ``d`` plies (tsume rules)?"""
        b = self.board
        yield from self._tick()
        moves = list(b.legal_moves)
        board_moves = [m for m in moves if not cshogi.move_is_drop(m)]
        if board_moves and d < 2:
            return False  # a defence that counts needs two more plies (too cheap to store)
        key = b.zobrist_hash()
        e = self._entry(b, key, False)
        if e.hi <= d:
            return True
        if e.lo > d:
            return False
        if not moves:
            e.lo = e.hi = 0
            return True
        if e.lo == 0 and e.hi == INF:
            pd = self.mate.probe(b, False)
            if pd is not None:
                if pd[1] == 0 and pd[0] != 0:  # df-pn: no mate at all
                    e.lo = INF
                    return False
                if pd[0] == 0 and pd[2] >= 0:  # df-pn's proof: mate within its length
                    e.hi = pd[2]
                    if e.hi <= d:
                        return True
        if d >= _DISPROVE_FROM and e.hi == INF and key not in self.disproof_tried:
            # Deep searches are worth a short df-pn look: a position that is
            # no mate at all need not be refuted again at every depth.
            self.disproof_tried.add(key)
            if self.mate.disproved(b):
                e.lo = INF
                return False
            pd = self.mate.probe(b, False)
            if pd is not None and pd[0] == 0 and pd[2] >= 0 and pd[2] < e.hi:
                e.hi = pd[2]
                if e.hi <= d:
                    return True
        worst = 0
        # Board moves always count; try them (last refutation first) before
        # paying for the futility tests of the drops.
        if len(board_moves) > 1:
            board_moves.sort(key=lambda m: self._and_order(m, e, d))
        for m in board_moves:
            r, hi = yield from self._defence(m, d)
            if not r:
                e.best = m
                self._fail(e, d)
                return False
            worst = max(worst, hi)
        if len(board_moves) != len(moves):
            _, futile, drops_hi = yield from self.drop_defences(key, d, board_moves, True)
            if drops_hi is None:
                self._fail(e, d)
                return False
            worst = max(worst, drops_hi)
            # Futility depends on the bound: a square futile here may count
            # at a smaller one, so only ``d`` itself is proved then.
            if futile:
                worst = d
        if worst < e.hi:
            e.hi = worst
        return True

    def _defence(self, m: int, d: int) -> Generator[Progress, None, tuple[bool, int]]:
        b = self.board
        b.push(m)
        r = yield from self.or_within(d - 1)
        hi = self.tt[b.zobrist_hash()].hi + 1 if r else INF
        b.pop()
        return r, hi

    def defences(self, value: int) -> Generator[Progress, None, Defences]:
        """The defences of the current position that count, and its futile drop squares."""
        b = self.board
        key = b.zobrist_hash()
        real = [m for m in b.legal_moves if not cshogi.move_is_drop(m)]
        counted, futile, _ = yield from self.drop_defences(key, value, real, False)
        return Defences(tuple(real + counted),
                        tuple(FutileSquare(ds.square, tuple(ds.moves), omitted,
                                           () if omitted else tuple(ds.tests(b)))
                              for ds, omitted in futile))

    # ---- exact values -------------------------------------------------

    def exact(self, or_node: bool, cap: int = MAX_DEPTH) -> Generator[Progress, None, int | None]:
        """Exact tsume-rule length of the current position, or None beyond ``cap``.

        Iterative deepening from the proved lower bound: the first bound that
        mates is the length, the one before it having been refuted.
        """
        b = self.board
        e = self._entry(b, b.zobrist_hash(), or_node)
        d = e.lo
        while e.lo < e.hi:
            d = max(d, e.lo)
            if d > cap:
                return None
            if (yield from (self.or_within(d) if or_node else self.and_within(d))):
                e.lo = e.hi = d
                return d
            d += 2
        return e.hi


# ---- the proof tree -------------------------------------------------------

@dataclass(slots=True)
class _Line:
    """The main line below a position: its moves and the attacker's pieces left at the end."""

    moves: tuple[int, ...]
    leftover: int


class AnswerBuilder:
    """Builds the main line and the proof tree once the search knows the root's length.

    The main line is walked from the root: at attacker nodes every mating
    move is found (they are the 余詰 candidates) and the one whose line
    leaves the fewest pieces in hand is taken; at defender nodes the longest
    defences that count are found and the same tie-break picks one.  Off the
    main line the attacker's answer is the first shortest mate found.
    """

    def __init__(self, search: _Search, sfen: str, find_alternatives: bool = True) -> None:
        self.s = search
        self.sfen = sfen
        self.find_alternatives = find_alternatives
        self.lines: dict[int, _Line] = {}
        self.main: dict[int, int] = {}                 # main-line node -> its move
        self.mates: dict[int, list[int]] = {}          # main-line OR node -> every mating move
        self.futile: list[FutileInterposition] = []
        self.alternatives: list[Alternative] = []
        self.variations = 0
        self.tree_nodes = 0
        self.futile_lengths: dict[int, int | None] = {}
        self.defs: dict[int, Defences] = {}

    def share(self, other: AnswerBuilder) -> None:
        """Reuse what ``other`` (a builder on the same search) worked out."""
        self.lines = other.lines
        self.defs = other.defs
        self.futile_lengths = other.futile_lengths

    def _leftover(self) -> int:
        return sum(self.s.board.pieces_in_hand[self.s.attacker])

    def _value(self, or_node: bool) -> Generator[Progress, None, int]:
        v = yield from self.s.exact(or_node)
        if v is None:
            raise SearchAborted("too deep")
        return v

    def _hi(self) -> int:
        return self.s.tt[self.s.board.zobrist_hash()].hi

    # ---- choosing moves ------------------------------------------------

    def first_mate(self, value: int) -> Generator[Progress, None, int]:
        """An attacker move of the current position that mates within ``value`` plies."""
        b = self.s.board
        first = self.s.tt[b.zobrist_hash()].best
        checks = list(b.check_moves)
        checks.sort(key=lambda m: m != first)
        c: int
        for c in checks:
            b.push(c)
            ok = yield from self.s.and_within(value - 1)
            b.pop()
            if ok:
                return c
        raise AssertionError(f"no mate within {value} in {b.sfen()}")

    def mating_moves(self, value: int) -> Generator[Progress, None, list[int]]:
        """Every attacker move of the current position that mates within ``value`` plies."""
        b = self.s.board
        out = []
        first = self.s.tt[b.zobrist_hash()].best
        checks = list(b.check_moves)
        checks.sort(key=lambda m: m != first)
        for c in checks:
            b.push(c)
            ok = yield from self.s.and_within(value - 1)
            b.pop()
            if ok:
                out.append(c)
        return out

    def longest_defences(self, value: int) -> Generator[Progress, None, list[int]]:
        """The defences that count and last ``value - 1`` more plies (the longest)."""
        b = self.s.board
        out = []
        for m in (yield from self.defences(value)).real:
            b.push(m)
            # Every defence mates within value - 1 (proved); it is one of the
            # longest unless it also mates within value - 3.
            shorter = yield from self.s.or_within(value - 3)
            b.pop()
            if not shorter:
                out.append(m)
        return out

    def line(self, or_node: bool, value: int) -> Generator[Progress, None, _Line]:
        """A line from the current position of length ``value`` (memoised) and its leftover."""
        s = self.s
        b = s.board
        key = b.zobrist_hash()
        got = self.lines.get(key)
        if got is not None:
            return got
        yield from s._tick()
        if value == 0:
            got = _Line((), self._leftover())
        elif or_node:
            c = yield from self.first_mate(value)
            b.push(c)
            sub = yield from self.line(False, value - 1)
            b.pop()
            got = _Line((c,) + sub.moves, sub.leftover)
        else:
            got = yield from self._pick(value, (yield from self.longest_defences(value)), True)
        self.lines[key] = got
        return got

    def _pick(self, value: int, moves: list[int], child_or: bool) -> Generator[Progress, None, _Line]:
        """Of ``moves`` (all of length ``value``), the one whose line leaves the fewest pieces."""
        b = self.s.board
        best: _Line | None = None
        for m in moves:
            b.push(m)
            sub = yield from self.line(child_or, value - 1)
            b.pop()
            if best is None or sub.leftover < best.leftover:
                best = _Line((m,) + sub.moves, sub.leftover)
            if best.leftover == 0:
                break
        if best is None:
            raise AssertionError(f"no line of length {value} in {b.sfen()}")
        return best

    def main_line(self, value: int) -> Generator[Progress, None, tuple[int, ...]]:
        """Walk the official main line from the root, recording its moves and 余詰 candidates."""
        b = self.s.board
        moves: list[int] = []
        or_node = True
        while value > 0:
            key = b.zobrist_hash()
            if or_node:
                if self.find_alternatives:
                    cands = yield from self.mating_moves(value)
                    self.mates[key] = cands
                else:
                    cands = [(yield from self.first_mate(value))]
            else:
                cands = yield from self.longest_defences(value)
                if not cands:
                    break
            ln = yield from self._pick(value, cands, not or_node)
            self.main[key] = ln.moves[0]
            moves.append(ln.moves[0])
            b.push(ln.moves[0])
            value -= 1
            or_node = not or_node
        for _ in moves:
            b.pop()
        return tuple(moves)

    def defences(self, value: int) -> Generator[Progress, None, Defences]:
        """The current position's defences under tsume rules (memoised)."""
        key = self.s.board.zobrist_hash()
        got = self.defs.get(key)
        if got is None:
            got = yield from self.s.defences(value)
            self.defs[key] = got
        return got

    # ---- the tree --------------------------------------------------------

    def node_pn_dn(self, or_node: bool) -> tuple[int, int]:
        pd = self.s.mate.lookup(self.s.board, or_node)
        if pd is not None and pd[0] == 0:
            return pd
        return (0, INF)

    def or_node(self, path: tuple[str, ...], role: Role, value: int
                ) -> Generator[Progress, None, tuple[ProofNode, ...]]:
        """Children of an attacker-to-move node: its answer (and 余詰 candidates on the main line)."""
        b = self.s.board
        key = b.zobrist_hash()
        main = role is Role.MAIN and key in self.main
        mv = self.main[key] if main else (yield from self.line(True, value)).moves[0]
        usi = cshogi.move_to_usi(mv)
        b.push(mv)
        pn, dn = self.node_pn_dn(False)
        kids = yield from self.and_node(path + (usi,), role if main else Role.VARIATION, value - 1)
        b.pop()
        self.tree_nodes += 1
        out = [ProofNode(usi, role, pn, dn, value - 1, kids)]
        if main:
            for c in self.mates.get(key, ()):
                if c == mv or (value == 1 and _promotion_twins(c, mv)):
                    continue
                b.push(c)
                pn, dn = self.node_pn_dn(False)
                hi = min(self._hi(), value - 1)  # proved: mates within this
                b.pop()
                cu = cshogi.move_to_usi(c)
                self.alternatives.append(Alternative(path, cu, hi + 1))
                out.append(ProofNode(cu, Role.ALTERNATIVE, pn, dn, hi, (), "余詰"))
        return tuple(out)

    def and_node(self, path: tuple[str, ...], role: Role, value: int
                 ) -> Generator[Progress, None, tuple[ProofNode, ...]]:
        """Children of a defender-to-move node: every defence, main first, then futile ones."""
        b = self.s.board
        key = b.zobrist_hash()
        defs = yield from self.defences(value)
        main_move = self.main.get(key) if role is Role.MAIN else None
        out: list[ProofNode] = []
        order = sorted(defs.real, key=lambda m: m != main_move)
        for m in order:
            r = Role.MAIN if m == main_move else Role.VARIATION
            usi = cshogi.move_to_usi(m)
            b.push(m)
            v = yield from self._value(True)
            pn, dn = self.node_pn_dn(True)
            if r is Role.VARIATION:
                self.variations += 1
            if self.tree_nodes < MAX_TREE_NODES:
                kids = yield from self.or_node(path + (usi,), r, v)
            else:
                kids = ()
            b.pop()
            self.tree_nodes += 1
            out.append(ProofNode(usi, r, pn, dn, v, kids))
        for fs in defs.futile:
            reason = Futility(FutileReason.DISTANCE_RULE) if fs.omitted else Futility(
                FutileReason.CAPTURED_RETURNED, (yield from self.futile_length(fs, value)))
            usis = tuple(cshogi.move_to_usi(m) for m in fs.moves)
            self.futile.append(FutileInterposition(path, usis[0], reason, usis))
            for u in usis:
                out.append(ProofNode(u, Role.FUTILE, 0, INF, None, (), reason.english()))
        return tuple(out)

    def futile_length(self, fs: FutileSquare, value: int) -> Generator[Progress, None, int | None]:
        """Plies from the capture to mate in Kakinoki's test (the shortest of its promotion choices)."""
        s = self.s
        best: int | None = None
        for t in fs.tests:
            key = t.zobrist_hash()
            if key not in self.futile_lengths:
                saved = s.board
                s.board = t.copy()
                try:
                    self.futile_lengths[key] = yield from s.exact(False, cap=value)
                finally:
                    s.board = saved
            v = self.futile_lengths[key]
            if v is not None and (best is None or v + 1 < best):
                best = v + 1
        return best


def assemble_proof(builder: AnswerBuilder, position: Position, length: int, search: _Search
              ) -> Generator[Progress, None, Proof]:
    """The :class:`Proof` of a root whose tsume-rule length is known to be ``length``."""
    line = yield from builder.main_line(length)
    kids = yield from builder.or_node((), Role.MAIN, length)
    pn, dn = (search.root_pn, search.root_dn) if search.root_pn == 0 else (0, INF)
    tree = ProofNode(None, Role.MAIN, pn, dn, length, kids)
    return Proof(
        sfen=position.sfen(),
        root=tree,
        main_line=tuple(cshogi.move_to_usi(m) for m in line),
        length=length,
        futile=tuple(builder.futile),
        alternatives=tuple(builder.alternatives),
        variations=builder.variations,
        exact=True,
        alternatives_checked=builder.find_alternatives,
    )


def _promotion_twins(a: int, b: int) -> bool:
    """Two moves that differ only in promoting."""
    return (not cshogi.move_is_drop(a) and not cshogi.move_is_drop(b)
            and cshogi.move_from(a) == cshogi.move_from(b) and cshogi.move_to(a) == cshogi.move_to(b)
            and cshogi.move_is_promotion(a) != cshogi.move_is_promotion(b))


def build_proof(position: Position, oracle: Oracle | None = None, *, deadline: float | None = None,
                cancel: Cancel | None = None, node_limit: int | None = None,
                distance_rule: bool = True, max_depth: int = MAX_DEPTH,
                alternatives: bool = True, memory_mb: int = 1024,
                clock: Callable[[], float] = time.monotonic,
                session: AnswerSession | None = None,
                observe: Callable[[BoundedSearch], object] | None = None,
                ) -> Generator[Progress, None, Proof | None]:
    """Compute the official answer of the direct-mate problem ``position``.

    A generator: it yields :class:`~.contract.Progress` about every 0.1 s of
    work and returns the :class:`~.proof.Proof`, or None when there is no
    mate, when ``cancel`` was set, or when ``deadline`` (a value of
    ``clock``, by default ``time.monotonic``), ``node_limit`` (nodes of this search),
    ``max_depth`` plies or the table's share of ``memory_mb`` ran out first.

    Args:
        position: the problem; the side to move attacks.
        oracle: a df-pn searcher: its ``search`` first settles whether the
            root mates at all (None is returned at once for a proved no-mate)
            and its table (``lookup``) prunes and orders the search.  When
            None, one with a small table is made here (:func:`.kernel_oracle.make_oracle`).
        distance_rule: omit distant drop interpositions by the omission rule
            (see :mod:`.interposition`); False tests every drop square.
        alternatives: look for 余詰 along the main line.  This proves, for
            every other check on the main line, that it does not mate within
            the length (or finds that it does), which on long problems costs
            more than the length itself; False skips it (no alternatives,
            and ties between equally short attacker moves are not broken).
            When the limits run out during that search, the answer without
            it is returned, with ``Proof.alternatives_checked`` False.
        session: when given, receives the search once the length is proved,
            for a check of a given line to reuse (:class:`AnswerSession`).
        observe: called with the search object before it starts, for a
            caller that wants its figures (``nodes``) after it returns.

    ``Proof.exact`` is True when the depth before the length was refuted by
    proof, which this search always does; it stays a field so that answers
    from other sources can say otherwise.
    """
    root = position.board().copy()
    if oracle is None:
        oracle = make_oracle(root, _DEFAULT_ORACLE_MB)
    search = _Search(root, oracle, deadline=deadline, cancel=cancel, node_limit=node_limit,
                     distance_rule=distance_rule, memory_mb=memory_mb, clock=clock)
    if observe is not None:
        observe(search)   # e.g. to read its node count when it returns
    try:
        yield search.progress()
        search.check_stop()
        # The oracle (df-pn) settles first whether the root mates at all.
        pd = yield from search.mate.settle_root(root, node_limit)
        if pd is not None:
            search.root_pn, search.root_dn = pd
            if pd[1] == 0 and pd[0] != 0:
                return None
        yield search.progress()
        # Iterative deepening: the first depth that mates is the length (the
        # depth before it was refuted by proof).
        length = None
        d = 1
        probe = search.mate.probe(root, True)
        if probe is not None and probe[0] == 0 and probe[2] > 0:
            search.root_hi = probe[2]   # df-pn's proof (raw rules) bounds the length from above
        while d <= max_depth:
            search.depth = search.asking = search.root_lo = d
            if (yield from search.or_within(d)):
                length = d
                break
            d += 2
        if length is None:
            return None
        e = search.tt[root.zobrist_hash()]
        e.lo = e.hi = length
        search.root_lo = search.root_hi = length
        search.asking = 0
        search.phase = "tree"
        if session is not None:
            session.keep(search, length, position.sfen())
        # The main line and the tree first, without the 余詰 search, which
        # asks more of every other check on the main line than the length
        # did; should that search run out of time, this answer stands.
        base = AnswerBuilder(search, position.sfen(), False)
        answer = yield from assemble_proof(base, position, length, search)
        if not alternatives:
            return answer
        full = AnswerBuilder(search, position.sfen(), True)
        full.share(base)
        search.phase = "alternatives"
        try:
            return (yield from assemble_proof(full, position, length, search))
        except SearchAborted:
            return answer
    except SearchAborted:
        if session is not None:
            session.stopped(search)
        return None


def solve_exact(position: Position, oracle: Oracle | None = None, **kwargs: Any) -> Proof | None:
    """Run :func:`build_proof` to the end (no progress)."""
    return drive(build_proof(position, oracle, **kwargs))


__all__ = ["AnswerSession", "build_proof", "solve_exact", "INF", "MAX_DEPTH", "MAX_TREE_NODES"]

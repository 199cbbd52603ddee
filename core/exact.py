"""The official answer of a direct-mate problem: exact length, main line, proof tree, 余詰.

df-pn proves *that* a position is mate, but neither gives the shortest mate
(seed dfpn-hash-table-tca: df-pn follows small proof numbers, not short
lines) nor applies tsume rules to futile interpositions.  This module does
both with an iterative-deepening mate search (seed
iterative-deepening-mate-futile-interposition-hand-dominance): depth
1, 3, 5, … plies, each a depth-bounded AND/OR search that answers "mate
within d plies?", with

* a transposition table of bounds per position (``lo <= length <= hi``), so
  each iteration reuses what the previous ones proved;
* hand dominance both ways (same board: an attacker with at least these
  pieces in hand, and a defender with at most these, mates at least as fast);
* futile interpositions removed from the defences by Kakinoki's rule
  (:mod:`.interposition`); they are still mate, but do not count;
* the df-pn table (``oracle.lookup``) to drop positions df-pn proved to be no
  mate and to try proven moves first, and ``oracle.search`` (or cshogi's C++
  df-pn when no oracle is given) to decide Kakinoki's test positions.

Tsume-rule length.  For an attacker position P, ``M(P) = 1 + min D(P·c)`` over
checks ``c``; for a defender position Q, ``D(Q) = 0`` when Q has no defence
that counts (mated, or every defence a futile interposition) and otherwise
``1 + max M(Q·e)`` over the defences that count.  Iterative deepening makes
the length exact: when "mate within d" first succeeds, "mate within d - 2"
has been refuted.  The main line takes the defender's longest resistance and,
among equally long ones, the one that leaves the attacker the fewest pieces
in hand at the end (駒余り tie-break); the attacker's equally short choices are
ordered the same way, and the others are 余詰 candidates.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generator, Protocol

import cshogi

from .interposition import (
    OMITTED_REASON, Defences, DropSquare, FutileSquare, drop_squares, futile_reason,
)
from .position import Position
from .proof import Alternative, FutileInterposition, Proof, ProofNode, Role
from .solver import Progress

if TYPE_CHECKING:  # pragma: no cover
    from .dfpn import DfPn

INF = 2**31 - 1
"""Proof/disproof number standing for infinity in the nodes this module builds."""

MAX_DEPTH = 255
"""Deepest iteration tried; longer mates are out of this search's reach."""

MAX_TREE_NODES = 20_000
"""Beyond this many nodes the proof tree keeps variations' lengths but not their moves."""

_CHECK_EVERY = 256          # nodes between clock checks
_YIELD_SECONDS = 0.1        # progress and cancel granularity


class Cancel(Protocol):
    """Anything with ``is_set()``, such as a ``threading.Event``."""

    def is_set(self) -> bool: ...


class _Abort(Exception):
    """Cancelled, out of time or out of nodes."""


def _outcome_name(outcome: object) -> str:
    """'PROVEN' / 'DISPROVEN' / 'UNKNOWN' from an Outcome enum member (or its value)."""
    name = getattr(outcome, "name", None) or str(outcome)
    return str(name).upper().rsplit(".", 1)[-1]


class _Mate:
    """Unbounded mate questions: is there a mate at all (raw rules decide that)?

    The df-pn oracle answers when there is one (its table by ``lookup``, its
    search by ``search``); otherwise cshogi's C++ df-pn, which cannot tell
    "no mate" from "out of nodes", so its False counts as a disproof only
    when it stopped short of its budget.
    """

    def __init__(self, oracle: "DfPn | None", search: "_Search") -> None:
        self.oracle = oracle
        self.search = search

    def or_node(self, board: cshogi.Board, nodes: int | None) -> bool | None:
        """Whether the attacker to move mates (None: unknown), by the oracle or cshogi."""
        if self.oracle is not None:
            s = self.search
            outcome = self.oracle.search(board.copy(), or_node=True, node_limit=nodes,
                                         deadline=s.deadline, cancel=s.cancel)
            name = _outcome_name(outcome)
            s.check_stop()
            return True if name == "PROVEN" else False if name == "DISPROVEN" else None
        limit = nodes or 2_000_000
        dfpn = cshogi.DfPn(nodes=limit)
        if dfpn.search(board):
            return True
        return False if dfpn.searched_node < limit else None

    def lookup(self, board: cshogi.Board, or_node: bool) -> tuple[int, int] | None:
        """(pn, dn) from the oracle's table, or None without an oracle."""
        if self.oracle is None:
            return None
        return self.oracle.lookup(board, or_node)


@dataclass(slots=True)
class _Entry:
    """Proved bounds of one position's tsume-rule length: ``lo <= length <= hi``."""

    ah: tuple[int, ...]   # attacker's hand
    dh: tuple[int, ...]   # defender's hand
    lo: int
    hi: int
    best: int = 0         # OR: a move proving ``hi``; AND: the last refutation


def _ge(a: tuple[int, ...], b: tuple[int, ...]) -> bool:
    return a[0] >= b[0] and a[1] >= b[1] and a[2] >= b[2] and a[3] >= b[3] and \
        a[4] >= b[4] and a[5] >= b[5] and a[6] >= b[6]


class _Search:
    """Depth-bounded tsume-rule mate search with bounds, dominance and futility.

    ``or_within(d)`` / ``and_within(d)`` answer "mate within d plies?" for the
    current position of :attr:`board` with True, False (proved: no mate within
    d) or None (not found, but only because a Kakinoki test was undecided).
    Only proved answers go into the table.
    """

    def __init__(self, root: cshogi.Board, oracle: "DfPn | None", *, deadline: float | None,
                 cancel: Cancel | None, node_limit: int | None, distance_rule: bool) -> None:
        self.board = root
        self.attacker = root.turn
        self.deadline = deadline
        self.cancel = cancel
        self.node_limit = node_limit
        self.distance_rule = distance_rule
        self.mate = _Mate(oracle, self)
        self.tt: dict[int, _Entry] = {}
        self.by_board: dict[bytes, list[_Entry]] = {}
        self.squares: dict[int, list[DropSquare]] = {}
        self.nodes = 0
        self.futility_tests = 0
        self.start = time.monotonic()
        self.last_yield = self.start
        self.depth = 0
        self.phase = "search"
        self.root_pn, self.root_dn = 1, 1

    # ---- budget and progress ------------------------------------------

    def check_stop(self) -> None:
        if self.cancel is not None and self.cancel.is_set():
            raise _Abort("cancelled")
        if self.deadline is not None and time.monotonic() >= self.deadline:
            raise _Abort("deadline")
        if self.node_limit is not None and self.nodes >= self.node_limit:
            raise _Abort("node limit")

    def progress(self) -> Progress:
        elapsed = time.monotonic() - self.start
        return Progress(nodes=self.nodes, nps=self.nodes / elapsed if elapsed > 0 else 0.0,
                        elapsed=elapsed, root_pn=self.root_pn, root_dn=self.root_dn,
                        table_entries=len(self.tt),
                        stats=(("depth", float(self.depth)), ("futility_tests", float(self.futility_tests)),
                               ("tree", 1.0 if self.phase == "tree" else 0.0)))

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
        h = b.pieces_in_hand
        ah, dh = tuple(h[self.attacker]), tuple(h[1 - self.attacker])
        lo, hi = (1, INF) if or_node else (0, INF)
        bkey = bytes(b.pieces) + (b"\x01" if b.turn else b"\x00")
        same = self.by_board.setdefault(bkey, [])
        # Hand dominance (seed: 優越関係): with the same board, an attacker
        # holding at least these pieces against a defender holding at most
        # these mates at least as fast, and the other way round.
        for o in same:
            if o.hi < hi and _ge(ah, o.ah) and _ge(o.dh, dh):
                hi = o.hi
            if o.lo > lo and _ge(o.ah, ah) and _ge(dh, o.dh):
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

    def or_within(self, d: int) -> Generator[Progress, None, bool | None]:
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
            pd = self.mate.lookup(b, True)
            if pd is not None and pd[1] == 0 and pd[0] != 0:  # df-pn: no mate at all
                e.lo = INF
                return False
            # cshogi's 1-ply mate finder assumes the attacker is not in check.
            m1 = 0 if b.is_check() else b.mate_move_in_1ply()
            if m1:
                e.hi, e.best = 1, m1
                return True
        checks = list(b.check_moves)
        checks.sort(key=lambda m: self._or_order(m, e))
        unsure = False
        for c in checks:
            b.push(c)
            r = yield from self.and_within(d - 1)
            child_hi = self.tt[b.zobrist_hash()].hi if r else INF
            b.pop()
            if r:
                if child_hi + 1 < e.hi:
                    e.hi, e.best = child_hi + 1, c
                return True
            if r is None:
                unsure = True
        if unsure:
            return None
        self._fail(e, d)
        return False

    def _or_order(self, m: int, e: _Entry) -> tuple[int, int]:
        """Sort key of a check: the last proving move, then short known mates, then df-pn's pn."""
        if m == e.best:
            return (0, 0)
        b = self.board
        b.push(m)
        try:
            c = self.tt.get(b.zobrist_hash())
            if c is not None and c.hi < INF:
                return (1, c.hi)
            pd = self.mate.lookup(b, False)
            if pd is not None:
                return (2, pd[0]) if pd[0] < INF else (4, 0)
            if c is not None:
                return (3, c.lo)
        finally:
            b.pop()
        return (3, 0)

    def drop_squares_of(self, key: int) -> list[DropSquare]:
        got = self.squares.get(key)
        if got is None:
            got = drop_squares(self.board)
            self.squares[key] = got
        return got

    def verdict(self, ds: DropSquare, d: int) -> Generator[Progress, None, bool | None]:
        """Is the drop square ``ds`` of the current position futile when ``d`` plies are allowed?

        Kakinoki's rule with the length made explicit: the capture with the
        piece handed back must still mate within ``d`` plies, the length asked
        of this position (see :mod:`.interposition`).  This is the same kind
        of bounded question as the search's own, so it is answered by proof.
        """
        unknown = False
        self.futility_tests += 1
        for t in ds.tests(self.board):
            saved = self.board
            self.board = t.copy()
            try:
                r = yield from self.and_within(d)
            finally:
                self.board = saved
            if r:
                return True
            unknown = unknown or r is None
        return None if unknown else False

    def omitted(self, squares: list[DropSquare], i: int, d: int) -> Generator[Progress, None, bool]:
        """Whether the distance rule omits ``squares[i]`` (closer squares on its line all futile)."""
        ds = squares[i]
        if not (self.distance_rule and ds.omittable):
            return False
        for j in range(i):
            o = squares[j]
            if o.checker == ds.checker and o.distance < ds.distance:
                if (yield from self.verdict(o, d)) is not True:
                    return False
        return True

    def and_within(self, d: int) -> Generator[Progress, None, bool | None]:
        """Is the defender to move mated within ``d`` plies (tsume rules)?"""
        b = self.board
        yield from self._tick()
        key = b.zobrist_hash()
        e = self._entry(b, key, False)
        if e.hi <= d:
            return True
        if e.lo > d:
            return False
        moves = list(b.legal_moves)
        if not moves:
            e.lo = e.hi = 0
            return True
        board_moves = [m for m in moves if not cshogi.move_is_drop(m)]
        if board_moves and d < 2:
            self._fail(e, d)  # a defence that counts needs at least two more plies
            return False
        unsure = False
        worst = 0
        # Board moves always count; try them (last refutation first) before
        # paying for the futility tests of the drops.
        board_moves.sort(key=lambda m: m != e.best)
        for m in board_moves:
            r, hi = yield from self._defence(m, d)
            if r is False:
                e.best = m
                self._fail(e, d)
                return False
            if r is None:
                unsure = True
            worst = max(worst, hi)
        if len(board_moves) != len(moves):
            squares = self.drop_squares_of(key)
            for i, ds in enumerate(squares):
                if (yield from self.omitted(squares, i, d)):
                    continue
                for m in ds.moves:
                    if d >= 2:
                        r, hi = yield from self._defence(m, d)
                        if r:
                            worst = max(worst, hi)
                            continue
                    else:
                        r = False
                    # This drop would refute "within d", unless it is futile.
                    v = yield from self.verdict(ds, d)
                    if v is True:
                        break
                    if v is False and r is False:
                        e.best = m
                        self._fail(e, d)
                        return False
                    unsure = True
                    break
        if unsure:
            return None
        if worst < e.hi:
            e.hi = worst
        return True

    def _defence(self, m: int, d: int) -> Generator[Progress, None, tuple[bool | None, int]]:
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
        futile: list[FutileSquare] = []
        undecided = 0
        squares = self.drop_squares_of(key)
        for i, ds in enumerate(squares):
            if (yield from self.omitted(squares, i, value)):
                futile.append(FutileSquare(ds.square, tuple(ds.moves), True))
                continue
            v = yield from self.verdict(ds, value)
            if v is True:
                futile.append(FutileSquare(ds.square, tuple(ds.moves), False, tuple(ds.tests(b))))
                continue
            undecided += v is None
            real.extend(ds.moves)
        return Defences(tuple(real), tuple(futile), undecided)

    # ---- exact values -------------------------------------------------

    def exact(self, or_node: bool, cap: int = MAX_DEPTH) -> Generator[Progress, None, int | None]:
        """Exact tsume-rule length of the current position, or None beyond ``cap``.

        Iterative deepening from the proved lower bound; an unsure failure
        moves on as if proved, so the value is exact only when none occurred.
        """
        b = self.board
        e = self._entry(b, b.zobrist_hash(), or_node)
        d = e.lo
        while e.lo < e.hi:
            d = max(d, e.lo)
            if d > cap:
                return None
            r = yield from (self.or_within(d) if or_node else self.and_within(d))
            if r:
                if d == e.lo:
                    e.hi = d
                return min(e.hi, d)
            d += 2
        return e.hi


# ---- the proof tree -------------------------------------------------------

@dataclass(slots=True)
class _Line:
    """The main line below a position: its moves and the attacker's pieces left at the end."""

    moves: tuple[int, ...]
    leftover: int


class _Builder:
    """Builds the main line and the proof tree once the search knows the lengths."""

    def __init__(self, search: _Search, sfen: str) -> None:
        self.s = search
        self.sfen = sfen
        self.lines: dict[int, _Line] = {}
        self.futile: list[FutileInterposition] = []
        self.alternatives: list[Alternative] = []
        self.variations = 0
        self.tree_nodes = 0
        self.futile_lengths: dict[int, int | None] = {}
        self.defs: dict[int, Defences] = {}

    def _leftover(self) -> int:
        return sum(self.s.board.pieces_in_hand[self.s.attacker])

    def _value(self, or_node: bool) -> Generator[Progress, None, int]:
        v = yield from self.s.exact(or_node)
        if v is None:
            raise _Abort("too deep")
        return v

    def line(self, or_node: bool) -> Generator[Progress, None, _Line]:
        """The official line from the current position (memoised)."""
        s = self.s
        b = s.board
        key = b.zobrist_hash()
        got = self.lines.get(key)
        if got is not None:
            return got
        yield from s._tick()
        value = yield from self._value(or_node)
        best: tuple[tuple[int, ...], int] | None = None
        if or_node:
            for c in (yield from self.mating_moves(value)):
                b.push(c)
                sub = yield from self.line(False)
                b.pop()
                if best is None or sub.leftover < best[1]:
                    best = ((c,) + sub.moves, sub.leftover)
                if best[1] == 0:
                    break
        else:
            # The defender's longest resistance that counts; among equally
            # long ones the fewest attacker pieces left at the end (駒余り).
            rank: tuple[int, int] | None = None
            for m in (yield from self.defences(value)).real:
                b.push(m)
                v = yield from self._value(True)
                sub = yield from self.line(True)
                b.pop()
                r = (v + 1, -sub.leftover)
                if rank is None or r > rank:
                    rank, best = r, ((m,) + sub.moves, sub.leftover)
            if best is None:
                best = ((), self._leftover())
        assert best is not None, "a proven length has a line"
        got = _Line(best[0], best[1])
        self.lines[key] = got
        return got

    def defences(self, value: int) -> Generator[Progress, None, Defences]:
        """The current position's defences under tsume rules (memoised)."""
        key = self.s.board.zobrist_hash()
        got = self.defs.get(key)
        if got is None:
            got = yield from self.s.defences(value)
            self.defs[key] = got
        return got

    def mating_moves(self, value: int) -> Generator[Progress, None, list[int]]:
        """The checks of the current position that mate in exactly ``value`` plies."""
        b = self.s.board
        out = []
        checks = list(b.check_moves)
        first = self.s.tt[b.zobrist_hash()].best
        checks.sort(key=lambda m: m != first)
        for c in checks:
            b.push(c)
            ok = yield from self.s.and_within(value - 1)
            b.pop()
            if ok:
                out.append(c)
        return out

    def node_pn_dn(self, or_node: bool) -> tuple[int, int]:
        pd = self.s.mate.lookup(self.s.board, or_node)
        if pd is not None and pd[0] == 0:
            return pd
        return (0, INF)

    def or_node(self, path: tuple[str, ...], role: Role, main: bool
                ) -> Generator[Progress, None, tuple[ProofNode, ...]]:
        """Children of an attacker-to-move node: its answer (and 余詰 candidates on the main line)."""
        s = self.s
        b = s.board
        value = yield from self._value(True)
        ln = yield from self.line(True)
        mv = ln.moves[0]
        usi = cshogi.move_to_usi(mv)
        b.push(mv)
        pn, dn = self.node_pn_dn(False)
        kids = yield from self.and_node(path + (usi,), role, main, value - 1)
        b.pop()
        self.tree_nodes += 1
        out = [ProofNode(usi, role, pn, dn, value - 1, kids)]
        if main:
            for c in (yield from self.mating_moves(value)):
                if c == mv or (value == 1 and _promotion_twins(c, mv)):
                    continue
                b.push(c)
                pn, dn = self.node_pn_dn(False)
                v = yield from self._value(False)
                b.pop()
                cu = cshogi.move_to_usi(c)
                self.alternatives.append(Alternative(path, cu, v + 1))
                out.append(ProofNode(cu, Role.ALTERNATIVE, pn, dn, v, (), "余詰"))
        return tuple(out)

    def and_node(self, path: tuple[str, ...], role: Role, main: bool, value: int
                 ) -> Generator[Progress, None, tuple[ProofNode, ...]]:
        """Children of a defender-to-move node: every defence, main first, then futile ones."""
        s = self.s
        b = s.board
        defs = yield from self.defences(value)
        ln = yield from self.line(False)
        main_move = ln.moves[0] if ln.moves else None
        out: list[ProofNode] = []
        order = sorted(defs.real, key=lambda m: m != main_move)
        for m in order:
            is_main = main and m == main_move
            r = Role.MAIN if is_main else Role.VARIATION
            usi = cshogi.move_to_usi(m)
            b.push(m)
            v = yield from self._value(True)
            pn, dn = self.node_pn_dn(True)
            if m != main_move:
                self.variations += 1
            if self.tree_nodes < MAX_TREE_NODES:
                kids = yield from self.or_node(path + (usi,), r, is_main)
            else:
                kids = ()
            b.pop()
            self.tree_nodes += 1
            out.append(ProofNode(usi, r, pn, dn, v, kids))
        for fs in defs.futile:
            reason = OMITTED_REASON if fs.omitted else futile_reason(
                (yield from self.futile_length(fs, value)))
            usis = tuple(cshogi.move_to_usi(m) for m in fs.moves)
            self.futile.append(FutileInterposition(path, usis[0], reason, usis))
            for u in usis:
                out.append(ProofNode(u, Role.FUTILE, 0, INF, None, (), reason))
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


def _promotion_twins(a: int, b: int) -> bool:
    """Two moves that differ only in promoting."""
    return (not cshogi.move_is_drop(a) and not cshogi.move_is_drop(b)
            and cshogi.move_from(a) == cshogi.move_from(b) and cshogi.move_to(a) == cshogi.move_to(b)
            and cshogi.move_is_promotion(a) != cshogi.move_is_promotion(b))


def build_proof(position: Position, oracle: "DfPn | None" = None, *, deadline: float | None = None,
                cancel: Cancel | None = None, node_limit: int | None = None,
                distance_rule: bool = True, max_depth: int = MAX_DEPTH
                ) -> Generator[Progress, None, Proof | None]:
    """Compute the official answer of the direct-mate problem ``position``.

    A generator: it yields :class:`~.solver.Progress` about every 0.1 s of
    work and returns the :class:`~.proof.Proof`, or None when there is no
    mate, when ``cancel`` was set, or when ``deadline`` (a
    ``time.monotonic()`` value), ``node_limit`` (nodes of this search) or
    ``max_depth`` plies ran out first.

    Args:
        position: the problem; the side to move attacks.
        oracle: a df-pn searcher whose table (``lookup``) prunes and orders the
            search and whose ``search`` decides Kakinoki's tests; without one,
            cshogi's C++ df-pn decides those.
        distance_rule: omit distant drop interpositions by the omission rule
            (see :mod:`.interposition`); False tests every drop square.

    The length is exact (``Proof.exact``) unless a Kakinoki test that mattered
    could not be decided (neither this search nor df-pn's small budget found
    the answer); such an interposition counts as a real defence.
    """
    root = position.board().copy()
    search = _Search(root, oracle, deadline=deadline, cancel=cancel, node_limit=node_limit,
                     distance_rule=distance_rule)
    try:
        yield search.progress()
        search.check_stop()
        if root.is_check():
            return None  # the attacker to move is in check: not a direct-mate problem
        if oracle is not None:
            pd = search.mate.lookup(root, True)
            if pd is None or (pd[0] != 0 and pd[1] != 0):
                search.mate.or_node(root, node_limit)
                pd = search.mate.lookup(root, True)
            if pd is not None:
                search.root_pn, search.root_dn = pd
                if pd[1] == 0 and pd[0] != 0:
                    return None
        else:
            verdict = search.mate.or_node(root, None)
            if verdict is False:
                return None
            search.root_pn, search.root_dn = (0, INF) if verdict else (1, 1)
        yield search.progress()
        # Iterative deepening: the first depth that mates is the length,
        # exact when the depth before it was refuted by proof (not "unsure").
        length = None
        exact = True
        d = 1
        while d <= max_depth:
            search.depth = d
            ok = yield from search.or_within(d)
            if ok:
                length = d
                break
            exact = ok is False
            d += 2
        if length is None:
            return None
        e = search.tt[root.zobrist_hash()]
        e.lo = e.hi = length
        search.phase = "tree"
        builder = _Builder(search, position.sfen())
        line = yield from builder.line(True)
        kids = yield from builder.or_node((), Role.MAIN, True)
        pn, dn = (search.root_pn, search.root_dn) if search.root_pn == 0 else (0, INF)
        tree = ProofNode(None, Role.MAIN, pn, dn, length, kids)
        return Proof(
            sfen=position.sfen(),
            root=tree,
            main_line=tuple(cshogi.move_to_usi(m) for m in line.moves),
            length=length,
            futile=tuple(builder.futile),
            alternatives=tuple(builder.alternatives),
            variations=builder.variations,
            exact=exact,
        )
    except _Abort:
        return None


def solve_exact(position: Position, oracle: "DfPn | None" = None, **kwargs: Any) -> Proof | None:
    """Run :func:`build_proof` to the end (no progress)."""
    gen = build_proof(position, oracle, **kwargs)
    while True:
        try:
            next(gen)
        except StopIteration as stop:
            return stop.value


__all__ = ["build_proof", "solve_exact", "INF", "MAX_DEPTH", "MAX_TREE_NODES"]

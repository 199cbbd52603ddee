"""The official answer's builder: main line, variations with their lengths, 余詰, 駒余り, 無駄合.

A length search (:class:`~.length_rule.BoundedSearch`: the kernel's,
:mod:`.kernel_length`, or the Python reference, :mod:`.length_search`)
answers bounded questions under the rule of length (:mod:`.length_rule`);
this module turns its answers into the :class:`~.proof.Proof`, the same way
whichever search answered:

* the main line takes the defender's longest resistance and, among equally
  long ones, the one that leaves the attacker the fewest pieces in hand at
  the end (駒余り tie-break);
* along the main line every attacker move that mates in time is found; the
  same tie-break picks one and the others are 余詰 candidates (the same move
  with the other promotion choice on the last move excepted);
* off the main line the attacker's answer is the first shortest mate found;
* each counted defence in the tree carries its exact length, and each futile
  drop square its reason (Kakinoki's test with the length of the capture's
  mate, or the distance rule) for the 無駄合 panel and the KIF comments.

:func:`answer` is the whole official answer once the root is known to mate:
the exact length, then the tree without the 余詰 search, then with it (when
the limits run out in that last part, the answer without it stands).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from collections.abc import Generator
from typing import Any, TypeVar

import cshogi

from .contract import INFINITY as INF
from .contract import Progress
from .interposition import Defences, FutileSquare
from .length_rule import MAX_LENGTH, AnswerSession, BoundedSearch, SearchAborted
from .proof import Alternative, FutileInterposition, FutileReason, Futility, Proof, ProofNode, Role
from .provisional import table_line
from ..shogi.position import Position

MAX_TREE_NODES = 20_000
"""Beyond this many nodes the proof tree keeps variations' lengths but not their moves."""


T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class _Call:
    """A call the builder's walk makes of itself (a line below a line, a subtree below a node),
    yielded to :func:`_walk` instead of made with ``yield from``: a line or a tree may be
    a thousand plies and more, beyond Python's recursion limit and the C stack of a thread."""

    gen: Generator[Progress | _Call, Any, Any]


_Walk = Generator[Progress | _Call, Any, T]
"""A generator of the builder's walk: it yields progress, and :class:`_Call` for its own calls."""


def _walk(gen: _Walk[T]) -> Generator[Progress, None, T]:
    """Run ``gen`` and every call it makes (:class:`_Call`) on a stack of its own, passing
    progress up; an exception goes to the caller that made the call, as with ``yield from``,
    and closing this closes every call still open."""
    stack: list[Generator[Progress | _Call, Any, Any]] = [gen]
    sent: Any = None
    error: BaseException | None = None
    try:
        while True:
            top = stack[-1]
            try:
                item = top.throw(error) if error is not None else top.send(sent)
            except StopIteration as stop:
                stack.pop()
                sent, error = stop.value, None
                if not stack:
                    result: T = sent
                    return result
                continue
            except BaseException as exc:
                stack.pop()
                if not stack:
                    raise
                sent, error = None, exc
                continue
            sent, error = None, None
            if isinstance(item, _Call):
                stack.append(item.gen)
            else:
                yield item
    finally:
        while stack:
            stack.pop().close()


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

    def __init__(self, search: BoundedSearch, sfen: str, find_alternatives: bool = True) -> None:
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
        self.walked: tuple[int, ...] | None = None     # the main line, once walked
        self.longest: dict[int, list[int]] = {}        # main-line AND node -> its longest defences
        # The main line's variations built whole, by path: the node, the variations and the
        # 無駄合 it holds (what the answer keeps when the limits end the tree; see main_line_answer).
        self.done: dict[tuple[str, ...], tuple[ProofNode, int, tuple[FutileInterposition, ...]]] = {}

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

    def line(self, or_node: bool, value: int) -> _Walk[_Line]:
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
            sub: _Line = yield _Call(self.line(False, value - 1))
            b.pop()
            got = _Line((c,) + sub.moves, sub.leftover)
        else:
            got = yield _Call(self._pick(value, (yield from self.longest_defences(value)), True))
        self.lines[key] = got
        return got

    def _pick(self, value: int, moves: list[int], child_or: bool) -> _Walk[_Line]:
        """Of ``moves`` (all of length ``value``), the one whose line leaves the fewest pieces."""
        b = self.s.board
        best: _Line | None = None
        for m in moves:
            b.push(m)
            sub: _Line = yield _Call(self.line(child_or, value - 1))
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
                cands = self.longest[key] = yield from self.longest_defences(value)
                if not cands:
                    break
            ln = yield from _walk(self._pick(value, cands, not or_node))
            self.main[key] = ln.moves[0]
            moves.append(ln.moves[0])
            b.push(ln.moves[0])
            value -= 1
            or_node = not or_node
        for _ in moves:
            b.pop()
        self.walked = tuple(moves)
        return self.walked

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

    def or_node(self, path: tuple[str, ...], role: Role, value: int) -> _Walk[tuple[ProofNode, ...]]:
        """Children of an attacker-to-move node: its answer (and 余詰 candidates on the main line)."""
        b = self.s.board
        key = b.zobrist_hash()
        main = role is Role.MAIN and key in self.main
        if main:
            mv = self.main[key]
        else:
            below: _Line = yield _Call(self.line(True, value))
            mv = below.moves[0]
        usi = cshogi.move_to_usi(mv)
        b.push(mv)
        pn, dn = self.node_pn_dn(False)
        kids: tuple[ProofNode, ...] = yield _Call(self.and_node(path + (usi,), role if main else Role.VARIATION,
                                                                value - 1))
        b.pop()
        self.tree_nodes += 1
        out = [ProofNode(usi, role, pn, dn, value - 1, kids)]
        if main:
            found, nodes = _alternatives_at(path, self._other_mates(value, mv))
            self.alternatives += found
            out += nodes
        return tuple(out)

    def _other_mates(self, value: int, mv: int) -> list[tuple[int, int, int, int]]:
        """The current main-line node's mating moves other than ``mv`` (its main move; the same
        move with the other promotion on the last move is no 余詰): (move, plies its child is
        proved to mate within, the child's pn, dn)."""
        b = self.s.board
        out = []
        for c in self.mates.get(b.zobrist_hash(), ()):
            if c == mv or (value == 1 and _promotion_twins(c, mv)):
                continue
            b.push(c)
            pn, dn = self.node_pn_dn(False)
            hi = min(self._hi(), value - 1)  # proved: mates within this
            b.pop()
            out.append((c, hi, pn, dn))
        return out

    def and_node(self, path: tuple[str, ...], role: Role, value: int) -> _Walk[tuple[ProofNode, ...]]:
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
            variations, futile = self.variations, len(self.futile)
            b.push(m)
            v = yield from self._value(True)
            pn, dn = self.node_pn_dn(True)
            if r is Role.VARIATION:
                self.variations += 1
            kids: tuple[ProofNode, ...] = ()
            if self.tree_nodes < MAX_TREE_NODES:
                kids = yield _Call(self.or_node(path + (usi,), r, v))
            b.pop()
            self.tree_nodes += 1
            out.append(ProofNode(usi, r, pn, dn, v, kids))
            if role is Role.MAIN and r is Role.VARIATION:
                self.done[path + (usi,)] = (out[-1], self.variations - variations, tuple(self.futile[futile:]))
        for fs in defs.futile:
            reason = Futility(FutileReason.DISTANCE_RULE) if fs.omitted else Futility(
                FutileReason.CAPTURED_RETURNED, (yield from self.futile_length(fs, value)))
            out += self._futile_nodes(path, fs, reason)
        return tuple(out)

    def _futile_nodes(self, path: tuple[str, ...], fs: FutileSquare, reason: Futility) -> list[ProofNode]:
        """The futile drops of ``fs`` at ``path``: listed in ``self.futile``, returned as tree nodes."""
        usis = tuple(cshogi.move_to_usi(m) for m in fs.moves)
        self.futile.append(FutileInterposition(path, usis[0], reason, usis))
        return [ProofNode(u, Role.FUTILE, 0, INF, None, (), reason.english()) for u in usis]

    def futile_length(self, fs: FutileSquare, value: int) -> Generator[Progress, None, int | None]:
        """Plies from the capture to mate in Kakinoki's test (the shortest of its promotion choices)."""
        s = self.s
        for t in fs.tests:
            key = t.zobrist_hash()
            if key not in self.futile_lengths:
                saved = s.board
                s.board = t.copy()
                try:
                    self.futile_lengths[key] = yield from s.exact(False, cap=value)
                finally:
                    s.board = saved
        return self._futile_length_known(fs)

    def _futile_length_known(self, fs: FutileSquare) -> int | None:
        """:meth:`futile_length` from what it measured before (None when some test was not)."""
        best: int | None = None
        for t in fs.tests:
            key = t.zobrist_hash()
            if key not in self.futile_lengths:
                return None
            v = self.futile_lengths[key]
            if v is not None and (best is None or v + 1 < best):
                best = v + 1
        return best


def assemble_proof(builder: AnswerBuilder, length: int, search: BoundedSearch
              ) -> Generator[Progress, None, Proof]:
    """The :class:`Proof` of a root whose tsume-rule length is known to be ``length``."""
    line = builder.walked if builder.walked is not None else (yield from builder.main_line(length))
    kids = yield from _walk(builder.or_node((), Role.MAIN, length))
    pn, dn = (search.root_pn, search.root_dn) if search.root_pn == 0 else (0, INF)
    tree = ProofNode(None, Role.MAIN, pn, dn, length, kids)
    return Proof(
        sfen=builder.sfen,
        root=tree,
        main_line=tuple(cshogi.move_to_usi(m) for m in line),
        length=length,
        futile=tuple(builder.futile),
        alternatives=tuple(builder.alternatives),
        variations=builder.variations,
        exact=True,
        alternatives_checked=builder.find_alternatives,
    )


def main_line_answer(builder: AnswerBuilder, length: int, search: BoundedSearch, root: cshogi.Board) -> Proof:
    """The answer of a root whose tree ran out of time after its main line was walked
    (``builder.walked``), from what ``builder`` established, without searching.

    The length and the main line are exact.  At each defence of the main line every defence
    that counts is listed: a variation built whole before the limits ran out as it was built
    (exact lengths, 無駄合 and all); one as long as the main line (it was measured so to choose
    the main line) with its length and the line the tie-break built, or df-pn's; any other with
    the bound proved (it mates in at least two plies fewer) and df-pn's line after it.  The
    main line's 無駄合 keep the lengths measured.  ``tree_complete`` and
    ``alternatives_checked`` are False.
    """
    assert builder.walked is not None
    b = search.board = root.copy()
    line = builder.walked
    usi_line = tuple(cshogi.move_to_usi(m) for m in line)
    builder.futile = []
    variations = 0
    budget = [MAX_TREE_NODES]

    def proved(p: cshogi.Board, or_node: bool) -> int:
        got = search.mate.probe(p, or_node)
        return got[2] if got is not None and got[0] == 0 else -1

    def chain(moves: list[int] | tuple[int, ...], lengths: bool) -> tuple[ProofNode, ...]:
        """``moves`` from ``b`` as a chain of variation nodes, each with its plies left when
        ``lengths`` (the line is a tsume-rule line of exact length), else only at mate."""
        moves = moves[:max(0, budget[0])]
        budget[0] -= len(moves)
        out: tuple[ProofNode, ...] = ()
        for k in range(len(moves) - 1, -1, -1):
            left = len(moves) - k - 1
            out = (ProofNode(cshogi.move_to_usi(moves[k]), Role.VARIATION, 0, INF,
                             left if lengths or left == 0 else None, out),)
        return out

    siblings: list[list[ProofNode]] = []
    numbers: list[tuple[int, int]] = []   # each main-line move's pn and dn
    for k, move in enumerate(line):
        kids: list[ProofNode] = []
        if k % 2:   # the defender to move, the main line mating in `value` plies from here
            value, key, path = length - k, b.zobrist_hash(), usi_line[:k]
            defs = builder.defs[key]
            longest = builder.longest.get(key, [])
            for d in defs.real:
                if d == move:
                    continue
                usi = cshogi.move_to_usi(d)
                whole = builder.done.get(path + (usi,))
                if whole is not None:
                    kids.append(whole[0])
                    variations += whole[1]
                    builder.futile += whole[2]
                    continue
                variations += 1
                b.push(d)
                pn, dn = builder.node_pn_dn(True)
                after: tuple[ProofNode, ...] | None = None
                plies: int | None
                if d in longest:   # as long as the main line's: its length known, its line the tie-break's
                    known = builder.lines.get(b.zobrist_hash())
                    after = chain(known.moves, True) if known is not None else None
                    plies, comment = value - 1, ""
                else:
                    plies = None
                    comment = f"≤ {min(builder._hi(), value - 3)}: its exact length not measured in time (df-pn's line)"
                if after is None:
                    after = chain(table_line(b, True, proved), False) if budget[0] > 0 else ()
                kids.append(ProofNode(usi, Role.VARIATION, pn, dn, plies, after, comment))
                b.pop()
            for fs in defs.futile:
                reason = Futility(FutileReason.DISTANCE_RULE) if fs.omitted else Futility(
                    FutileReason.CAPTURED_RETURNED, builder._futile_length_known(fs))
                kids += builder._futile_nodes(path, fs, reason)
        siblings.append(kids)
        b.push(move)
        numbers.append(builder.node_pn_dn(k % 2 == 1))
    search.board = root.copy()
    below: tuple[ProofNode, ...] = ()
    for k in range(len(line) - 1, -1, -1):
        pn, dn = numbers[k]
        below = (ProofNode(usi_line[k], Role.MAIN, pn, dn, length - k - 1, below),) + tuple(siblings[k])
    pn, dn = (search.root_pn, search.root_dn) if search.root_pn == 0 else (0, INF)
    return Proof(sfen=builder.sfen, root=ProofNode(None, Role.MAIN, pn, dn, length, below), main_line=usi_line,
                 length=length, futile=tuple(builder.futile), variations=variations, exact=True,
                 alternatives_checked=False, tree_complete=False)


def _cut_short(proof: Proof, full: AnswerBuilder, root: cshogi.Board) -> Proof:
    """``proof`` (the answer without the 余詰 search) with what ``full``'s search, stopped part way,
    established: the other mates at each attacker move of ``proof``'s main line that its walk
    finished (``full.main`` holds a node once all its mates are known).  The walk goes no further
    than where it took another move: at a node with several mates it takes the one that leaves
    the fewest pieces, ``proof`` the first found."""
    b = full.s.board = root.copy()
    found: list[Alternative] = []
    nodes: dict[int, list[ProofNode]] = {}   # ply -> the 余詰 nodes beside its main move
    to = 0
    for ply, usi in enumerate(proof.main_line, start=1):
        move = b.move_from_usi(usi)
        if full.main.get(b.zobrist_hash()) != move:
            break
        if ply % 2:
            mates = full._other_mates(proof.length - ply + 1, move)
            at, nodes[ply] = _alternatives_at(proof.main_line[:ply - 1], mates)
            found += at
            to = ply
        b.push(move)
    if not to:
        return proof
    return replace(proof, root=_with_alternatives(proof.root, nodes, 1), alternatives=tuple(found),
                   alternatives_checked_to=to)


def _alternatives_at(path: tuple[str, ...], mates: list[tuple[int, int, int, int]]
                     ) -> tuple[list[Alternative], list[ProofNode]]:
    """The 余詰 ``mates`` (:meth:`AnswerBuilder._other_mates`) of the main-line node reached by
    ``path``: as the answer lists them and as nodes of its tree."""
    found, nodes = [], []
    for c, hi, pn, dn in mates:
        cu = cshogi.move_to_usi(c)
        found.append(Alternative(path, cu, hi + 1))
        nodes.append(ProofNode(cu, Role.ALTERNATIVE, pn, dn, hi, (), "余詰"))
    return found, nodes


def _with_alternatives(node: ProofNode, nodes: dict[int, list[ProofNode]], ply: int) -> ProofNode:
    """``node`` (an attacker-to-move node of the main line, its move at ``ply``) with the 余詰
    ``nodes`` of each ply added beside the main line's move there, as the whole answer's tree has them.

    Walked down the main line, then rebuilt from its end: no recursion, as a main line may be
    more than a thousand plies."""
    # Each node down the main line: the node, its ply, its main move's index, that move's main defence's.
    chain: list[tuple[ProofNode, int, int | None, int | None]] = []
    while True:
        i = next((k for k, c in enumerate(node.children) if c.role is Role.MAIN), None)
        j = None if i is None else next(
            (k for k, c in enumerate(node.children[i].children) if c.role is Role.MAIN), None)
        chain.append((node, ply, i, j))
        if i is None or j is None:
            break
        node, ply = node.children[i].children[j], ply + 2
    below: ProofNode | None = None
    for node, ply, i, j in reversed(chain):
        kids = list(node.children)
        if i is not None:
            defences = list(kids[i].children)
            if j is not None and below is not None:
                defences[j] = below
            kids[i] = replace(kids[i], children=tuple(defences))
            kids[i + 1:i + 1] = nodes.get(ply, [])
        below = replace(node, children=tuple(kids))
    assert below is not None
    return below


def _promotion_twins(a: int, b: int) -> bool:
    """Two moves that differ only in promoting."""
    return (not cshogi.move_is_drop(a) and not cshogi.move_is_drop(b)
            and cshogi.move_from(a) == cshogi.move_from(b) and cshogi.move_to(a) == cshogi.move_to(b)
            and cshogi.move_is_promotion(a) != cshogi.move_is_promotion(b))



def answer(search: BoundedSearch, position: Position, *, max_length: int = MAX_LENGTH,
           alternatives: bool = True, session: AnswerSession | None = None
           ) -> Generator[Progress, None, Proof | None]:
    """The official answer of ``position``, whose root ``search`` has settled as a mate.

    Its exact length first (:meth:`~.length_rule.BoundedSearch.exact`), then
    the tree without the 余詰 search, then with it when ``alternatives`` is
    set.  Returns None when the length is beyond ``max_length`` or the
    limits ran out before it was proved (``session`` then records the bounds
    proved); once it is proved ``session`` keeps the search.
    """
    root = position.board().copy()
    sfen = position.sfen()
    try:
        search.board = root.copy()
        length = yield from search.exact(True, max_length)
        if length is None:
            return None
        search.depth = search.root_lo = search.root_hi = length
        search.asking = 0
        search.phase = "tree"
        if session is not None:
            session.keep(search, length, sfen)
        search.freeze(True)
        # The main line and the tree first, without the 余詰 search, which asks more of every
        # other check on the main line than the length did; should it run out of time, this stands.
        base = AnswerBuilder(search, sfen, False)
        yield from base.main_line(length)
        try:
            proof = yield from assemble_proof(base, length, search)
        except SearchAborted:
            # The main line is built: it stands, with the variations measured so far.
            return main_line_answer(base, length, search, root)
        if not alternatives:
            return proof
        full = AnswerBuilder(search, sfen, True)
        full.share(base)
        search.phase = "alternatives"
        try:
            return (yield from assemble_proof(full, length, search))
        except SearchAborted:
            return _cut_short(proof, full, root)
    except SearchAborted:
        if session is not None:
            if search.phase == "search":
                # The table may have tightened the root's bounds inside the stopped question.
                search.board = root.copy()
                e = search.tt[root.zobrist_hash()]
                search.root_lo, search.root_hi = max(search.root_lo, e.lo), min(search.root_hi, e.hi)
            # Stopped while asking the root's length: kept, so that a check can go on with it.
            session.stopped(search, sfen if search.phase == "search" else None)
        return None


__all__ = ["AnswerBuilder", "MAX_TREE_NODES", "answer", "assemble_proof", "main_line_answer"]

"""Re-proofs of the official answer's discrepancy claims by other means than the tool's search.

Each claim is a :class:`~tsume_studio.core.check.Discrepancy` the check reports
on a published solution: its kind, its 1-based ply and its line (USI moves
from the problem).  The re-proofs here share no code with the tool's
searches:

* the line is replayed with cshogi alone (every move legal, every attacker
  move a check);
* cshogi's C++ df-pn with a depth limit (``cshogi.DfPn(depth, nodes)``)
  decides "mate within n plies" under raw rules, where every interposition
  counts.  Its "no mate" is taken only when the search stopped short of its
  node budget;
* the brute force of ``bruteforce.py`` (plain minimax) decides it under tsume
  rules where the depth is small enough;
* the C++ kernel's raw df-pn with its depth bound (``DfPnSearch(max_ply=n)``),
  which generates every legal move (its move generation is checked against
  cshogi's and python-shogi's in the kernel's tests).  Only its "disproven"
  is used, as "no raw mate within n": its bound is not exact for proofs (on
  21番 after ply 6 it proves with ``max_ply=15`` a position cshogi mates only
  within 17), so a proof of it says nothing of n.  Without a bound, its proof
  after each reply to an attacker's alternative, replayed to mate, shows that
  the alternative mates at all with every defence tried (:func:`kernel_mated`);
  the length is cshogi's;
* where a 変長 rests on interpositions from hand, the tool's reference search
  under tsume rules, the Python length search of
  :mod:`tsume_studio.core.search.length_search` on the Python df-pn, is asked
  too.  It is not the search that made the claim (the check asks the
  kernel's ``LengthSearch``): it is the same algorithm written apart, on
  another df-pn's table, and it shares the reading of futility
  (:mod:`~tsume_studio.core.search.interposition`).  Where its raw looks on
  the Python df-pn are out of reach, it runs on the kernel's raw df-pn instead
  (:func:`reference_on_kernel_mated_within`): the tsume-rule search is still
  the Python one.

cshogi's df-pn does not generate every move: a defender's capture by rook,
bishop or pawn that could promote is tried promoted only (its evasion
generator leaves the non-promotion out).  Its "mate within n" then misses a
defence; on 無双71番 that defence is ``8i6i`` (the rook not promoting, so
that ``P*7h`` becomes a pawn-drop mate, which is illegal), and cshogi reports a
mate that is not one.  A "mate" from cshogi is therefore only taken where the
brute force, which plays every legal move, agrees or where the claim is an
attacker-side one whose defences :func:`raw_mated_within` lists itself.

What each proves.  Tsume rules only ever remove defences (futile drop
interpositions) from the raw ones, so the tsume-rule length is at most the
raw length:

* a raw mate within n is a tsume-rule mate within n: this settles 余詰,
  成不成非限定 and 早詰 claims outright;
* a raw "no mate within n" is necessary for a 変長 (longer defence) claim
  but does not prove it when the defence relies on a drop that tsume rules
  could judge futile.

A 変長 is a tsume-rule "no mate within n", so what must be shown is a
defence that lasts using only moves the rules count.  A game in which the
defender has *fewer* moves than tsume rules count gives a sound bound: if the
attacker cannot mate within n there, the same defence works under tsume rules
(by induction on n: every move it plays counts, and where it has none, tsume
rules have none either or only futile drops, which it treats alike).  Two such
games are searched here by :class:`BoundedMate`, a depth-bounded df-pn of this
module over cshogi's legal moves (every promotion choice; attacker moves are
the legal moves that check):

* the defender may not drop at all (:func:`no_drop_mate_within`);
* the defender may drop only on squares shown to count
  (:func:`counted_drops_mate_within`): every Kakinoki test position (the
  checker captures, the piece goes back to the defender's hand) is shown, in
  the no-drop game, not mated within the bound asked; squares 4 or more from
  the king only behind a nearer square that counts, so that no distance rule
  omits them.  Under any reading of futility that calls a drop futile only
  when its test position is mated within the bound (Kakinoki's rule as the
  tool reads it does), such a drop counts.

Emptying the defender's hand at the claim's node is *not* such a game: the
defender may still drop pieces it captures later, and those drops may be
futile.  On 無双71番 after ``9f9g 8h7h`` the raw df-pn finds no mate within 23
with the hand emptied, yet with no drops at all there is a mate within 23
(it begins ``R*9h``): that defence needs drops.
"""

from __future__ import annotations

import csv
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cshogi

import bruteforce

DATA = Path(__file__).resolve().parents[1] / "data"
NODES = 20_000_000
"""cshogi df-pn node budget: a "no mate" below it is a complete search."""
BRUTE_MAX = 9
"""Deepest tsume-rule question put to the brute force."""


@dataclass(frozen=True)
class Claim:
    """One discrepancy of a published solution: ``row``'s line ``line``, ``kind`` at ``ply``."""

    row: str
    kind: str
    ply: int
    line: tuple[str, ...]


def musou_rows() -> dict[str, dict[str, str]]:
    with (DATA / "musou.tsv").open(encoding="utf-8") as f:
        return {r["id"]: r for r in csv.DictReader(f, delimiter="\t")}


def replay(sfen: str, line: tuple[str, ...] | list[str]) -> cshogi.Board:
    """The board after ``line``; AssertionError when a move is illegal or an attacker move no check."""
    b = cshogi.Board(sfen)
    attacker = b.turn
    for i, usi in enumerate(line):
        legal = {cshogi.move_to_usi(m): m for m in b.legal_moves}
        assert usi in legal, f"move {i + 1} {usi} is not legal in {b.sfen()}"
        mover = b.turn
        b.push(legal[usi])
        if mover == attacker:
            assert b.is_check(), f"move {i + 1} {usi} is not a check"
    return b


def raw_mate_within(board: cshogi.Board, n: int, nodes: int = NODES) -> bool | None:
    """cshogi's df-pn, attacker to move: mate within ``n`` plies (raw rules); None when out of nodes."""
    if n < 1:
        return False
    dfpn = cshogi.DfPn(n, nodes)
    if dfpn.search(board):
        return True
    return False if dfpn.searched_node < nodes else None


def raw_mated_within(board: cshogi.Board, n: int) -> bool | None:
    """Defender to move: every reply is met by a raw mate within ``n - 1`` (mated now when none)."""
    replies = list(board.legal_moves)
    if not replies:
        return True
    verdict: bool | None = True
    for r in replies:
        board.push(r)
        got = raw_mate_within(board, n - 1)
        board.pop()
        if got is False:
            return False
        if got is None:
            verdict = None
    return verdict


@dataclass
class Reproof:
    """What the other methods found for one claim (None: not decided within their budget)."""

    claim: Claim
    bound: int                         # the n of "mate within n" the claim is about
    raw: bool | None                   # the raw question's answer
    tsume_brute: bool | None = None    # the brute force under tsume rules (None: too deep, not asked)
    no_drop: bool | None = None        # 変長 only: a mate within ``bound`` when the defender may not drop

    @property
    def contradicted(self) -> bool:
        """A method shows the claim false."""
        if self.claim.kind == "longer_defence":
            return self.raw is True or self.tsume_brute is True
        # A raw "no" does not contradict a mate: tsume rules may mate where raw rules do not (futile drops).
        return self.tsume_brute is False

    def summary(self) -> str:
        """How the claim was re-proved, in words (for docs/benchmarks.md)."""
        n = self.bound
        if self.claim.kind == "longer_defence":
            parts = [f"raw df-pn: {'no mate' if self.raw is False else 'MATE' if self.raw else 'undecided'} "
                     f"within {n}"]
            if self.no_drop is not None:
                parts.append("the defender not dropping: "
                             + ("still no mate (a tsume-rule re-proof)" if self.no_drop is False else
                                "mate (the defence needs drops)" if self.no_drop else "undecided"))
        else:
            what = "mated" if self.claim.kind != "shorter_mate" else "mate"
            parts = [f"raw df-pn: {what} within {n}: "
                     + ("yes" if self.raw else "NO" if self.raw is False else "undecided")]
        if self.tsume_brute is not None:
            parts.append(f"brute force, tsume rules: {'mate' if self.tsume_brute else 'no mate'} within {n}")
        return "; ".join(parts)


def reprove(claim: Claim, published: int) -> Reproof:
    """Re-prove ``claim`` about a published solution of ``published`` plies."""
    sfen = musou_rows()[claim.row]["sfen"]
    board = replay(sfen, claim.line)
    left = published - (claim.ply - 1)   # plies the published line takes from the claim's node
    if claim.kind == "longer_defence":
        # After the defender's other move the attacker must not mate within the plies the line has left.
        n = left - 1
        raw = raw_mate_within(board, n)
        out = Reproof(claim, n, raw)
        if n <= BRUTE_MAX:
            out.tsume_brute = bruteforce.BruteForce(True).mates(board, n)
        if raw is False:
            out.no_drop = no_drop_mate_within(board, n)
        return out
    if claim.kind in ("alternative", "promotion_choice"):
        # The other attacker move mates within the plies the line has left.
        n = left - 1
        out = Reproof(claim, n, raw_mated_within(board, n))
        if n <= BRUTE_MAX:
            out.tsume_brute = bruteforce.BruteForce(True).mated(board, n)
        return out
    if claim.kind == "shorter_mate":
        before = replay(sfen, claim.line[:-1])
        n = left - 2
        out = Reproof(claim, n, raw_mate_within(before, n))
        if n <= BRUTE_MAX:
            out.tsume_brute = bruteforce.BruteForce(True).mates(before, n)
        return out
    raise ValueError(f"no re-proof for {claim.kind}")


def kernel_no_mate_within(board: cshogi.Board, n: int, nodes: int = 30_000_000) -> bool | None:
    """The kernel under raw rules (``LengthSearch`` with ``drops='all'``: every legal move, cshogi's
    non-promoting moves included, every drop counted, no futility), attacker to move: True when it
    proves no mate within ``n`` plies, False when it finds one, None out of nodes.  Its table keeps
    proved bounds per position, so its "no" is a proof; the raw df-pn's depth bound gives none (a
    line cut by the bound is no disproof)."""
    from tsume_studio.core.kernel import LengthSearch

    search = LengthSearch(board.sfen(), memory_mb=512, oracle_mb=64, drops="all")
    got = search.question(board.sfen(), True, n, nodes=nodes)
    return True if got == "no" else False if got == "yes" else None


def kernel_mated(board: cshogi.Board, seconds: float = 120.0) -> bool | None:
    """Defender to move: the kernel's raw df-pn (every legal move generated, cshogi's non-promoting
    captures included) proves a mate after every reply, each proof line replayed to mate by cshogi.
    True: mated (at some length), False: a reply is proved no mate, None: undecided in time.  It
    says nothing of the length: that is cshogi's depth-limited answer (:func:`raw_mated_within`)."""
    from tsume_studio.core.kernel import DfPnSearch

    verdict: bool | None = True
    for reply in list(board.legal_moves):
        board.push(reply)
        try:
            search = DfPnSearch(board.sfen(), memory_mb=512)
            got = search.run(0, seconds, True)
            if got == "disproven":
                return False
            if got != "proven":
                verdict = None
                continue
            line, complete = search.principal_variation(0, seconds, True)
            assert complete and replay(board.sfen(), line).is_game_over(), f"the kernel's line {line} does not mate"
        finally:
            board.pop()
    return verdict


def reference_mate_within(board: cshogi.Board, n: int) -> bool:
    """Tsume rules, attacker to move: a mate within ``n`` plies, by the Python length search (the reference)."""
    return _reference_within(board, None, n)


def reference_mated_within(before: cshogi.Board, move: str, n: int) -> bool:
    """Tsume rules: after the attacker's ``move`` from ``before``, the defender is mated within ``n`` plies
    (the Python length search, asked as the builder asks it)."""
    return _reference_within(before, move, n)


def reference_on_kernel_mated_within(before: cshogi.Board, move: str, n: int) -> bool:
    """As :func:`reference_mated_within`, but the one question "mated within ``n``?" asked of the Python
    length search on the kernel's raw df-pn (``make_oracle``, as ``TSUME_LENGTH_SEARCH=python`` runs
    it), where the Python df-pn's raw looks are out of reach.  The tsume-rule search, its reading of
    futility included, is still the Python one, not the kernel's ``LengthSearch`` that made the claim;
    the raw df-pn it consults is the kernel's, which the kernel's tests check against cshogi."""
    import pytest

    from tsume_studio.core.search import kernel_engine
    from tsume_studio.core.search.contract import drive
    from tsume_studio.core.search.kernel_oracle import KernelOracle

    if not kernel_engine.available():
        pytest.skip("the C++ kernel is not built in this install")
    # make_oracle's kernel search, whichever engine TSUME_ENGINE names.
    oracle = KernelOracle(kernel_engine.new_search(before.sfen(), 2048, mate3=False, play_checks=True), before.turn)
    return bool(drive(_reference_search(before, oracle, 8192, move).and_within(n)))


def _reference_within(root: cshogi.Board, move: str | None, n: int) -> bool:
    from tsume_studio.core.search.contract import drive
    from tsume_studio.core.search.dfpn import DfPn

    search = _reference_search(root, DfPn(root.turn, memory_mb=256), 4096, move)
    length = drive(search.exact(move is None, cap=n))
    return length is not None and length <= n


def _reference_search(root: cshogi.Board, oracle: Any, memory_mb: int, move: str | None) -> Any:
    """The Python length search of ``root`` on the raw df-pn ``oracle``, ``move`` played on its board."""
    from tsume_studio.core.search.length_search import LengthSearch

    search = LengthSearch(root.copy(), oracle, deadline=None, cancel=None, node_limit=None, distance_rule=True,
                          memory_mb=memory_mb)
    if move is not None:
        search.board.push_usi(move)
    return search


INF = 10**9


class BoundedMate:
    """"Mate within n plies?" by a depth-bounded df-pn; the defender plays its board moves only.

    Written for these tests, apart from the tool's searches: cshogi's legal
    moves (every promotion choice), the attacker's moves those that check,
    and a table per position of the least bound a mate is proved within and
    the greatest bound no mate is proved within (a mate within n is one within
    every larger bound), with proof and disproof numbers per (position,
    bound).  Positions repeated on a path are searched as any other: the bound
    falls at every ply, so the search ends, and a repetition the real rules
    forbid could only take attacker moves away, which no "no mate" rests on.
    Subclasses add drops (:meth:`drops`).
    """

    def __init__(self, node_limit: int = 20_000_000) -> None:
        self.node_limit = node_limit
        self.nodes = 0
        self.numbers: dict[tuple[int, int], tuple[int, int]] = {}
        self.proved: dict[int, int] = {}
        self.refuted: dict[int, int] = {}

    def checks(self, b: cshogi.Board) -> list[int]:
        out = []
        for m in b.legal_moves:
            b.push(m)
            if b.is_check():
                out.append(m)
            b.pop()
        return out

    def defences(self, b: cshogi.Board, n: int) -> list[int]:
        legal = list(b.legal_moves)
        return [m for m in legal if not cshogi.move_is_drop(m)] + self.drops(b, n, legal)

    def drops(self, b: cshogi.Board, n: int, legal: list[int]) -> list[int]:
        """The drops the defender may play with ``n`` plies asked (none here)."""
        return []

    def mates(self, b: cshogi.Board, n: int) -> bool | None:
        """Attacker to move: a mate within ``n``; None when the node budget ran out."""
        return self._ask(b, True, n)

    def mated(self, b: cshogi.Board, n: int) -> bool | None:
        """Defender to move: mated within ``n``; None when the node budget ran out."""
        return self._ask(b, False, n)

    def _ask(self, b: cshogi.Board, or_node: bool, n: int) -> bool | None:
        old = sys.getrecursionlimit()
        sys.setrecursionlimit(max(old, 20 * n + 2000))
        try:
            pn, dn = self._mid(b.copy(), or_node, n, INF, INF)
        finally:
            sys.setrecursionlimit(old)
        return True if pn == 0 else False if dn == 0 else None

    def _look(self, b: cshogi.Board, n: int) -> tuple[int, int]:
        z = b.zobrist_hash()
        if self.proved.get(z, INF) <= n:
            return 0, INF
        if self.refuted.get(z, -1) >= n:
            return INF, 0
        return self.numbers.get((z, n), (1, 1))

    def _mid(self, b: cshogi.Board, or_node: bool, n: int, thpn: int, thdn: int) -> tuple[int, int]:
        self.nodes += 1
        z = b.zobrist_hash()
        got = self._look(b, n)
        if got[0] == 0 or got[1] == 0:
            return got
        if or_node:
            moves = self.checks(b) if n >= 1 else []
            if not moves:
                return self._refute(z, n)
        else:
            moves = self.defences(b, n)
            if not moves:
                return self._prove(z, n)
            if n < 2:
                return self._refute(z, n)
        cpn: list[int] = []
        cdn: list[int] = []
        for m in moves:
            b.push(m)
            pn, dn = self._look(b, n - 1)
            b.pop()
            cpn.append(pn)
            cdn.append(dn)
        while True:
            if or_node:
                pn, dn, least = min(cpn), min(INF, sum(cdn)), cpn
            else:
                pn, dn, least = min(INF, sum(cpn)), min(cdn), cdn
            if pn == 0:
                return self._prove(z, n)
            if dn == 0:
                return self._refute(z, n)
            if pn >= thpn or dn >= thdn or self.nodes >= self.node_limit:
                self.numbers[(z, n)] = (pn, dn)
                return pn, dn
            i1 = min(range(len(least)), key=least.__getitem__)
            second = min((least[j] for j in range(len(least)) if j != i1), default=INF)
            if or_node:
                c_thpn, c_thdn = min(thpn, second + 1), min(INF, thdn - dn + cdn[i1])
            else:
                c_thpn, c_thdn = min(INF, thpn - pn + cpn[i1]), min(thdn, second + 1)
            b.push(moves[i1])
            cpn[i1], cdn[i1] = self._mid(b, not or_node, n - 1, c_thpn, c_thdn)
            b.pop()

    def _prove(self, z: int, n: int) -> tuple[int, int]:
        if n < self.proved.get(z, INF):
            self.proved[z] = n
        return 0, INF

    def _refute(self, z: int, n: int) -> tuple[int, int]:
        if n > self.refuted.get(z, -1):
            self.refuted[z] = n
        return INF, 0


class CountedDrops(BoundedMate):
    """:class:`BoundedMate` where the defender also drops on squares shown to count (module docstring)."""

    def __init__(self, node_limit: int = 20_000_000) -> None:
        super().__init__(node_limit)
        self.no_drop = BoundedMate(node_limit)
        self.verdicts: dict[tuple[int, int], tuple[int, int]] = {}

    def drops(self, b: cshogi.Board, n: int, legal: list[int]) -> list[int]:
        by_square: dict[int, list[int]] = {}
        for m in legal:
            if cshogi.move_is_drop(m):
                by_square.setdefault(cshogi.move_to(m), []).append(m)
        kf, kr = divmod(b.king_square(b.turn), 9)

        def dist(sq: int) -> int:
            f, r = divmod(sq, 9)
            return max(abs(f - kf), abs(r - kr))

        out: list[int] = []
        for sq in sorted(by_square, key=dist):
            if dist(sq) >= 4 and not out:
                break
            if self.counts(b, by_square[sq][0], n):
                out.extend(by_square[sq])
        return out

    def counts(self, b: cshogi.Board, drop: int, n: int) -> bool:
        """Every Kakinoki test position of ``drop`` is not mated within ``n`` (no drops: a sound bound)."""
        key = (b.zobrist_hash(), cshogi.move_to(drop))
        lo, hi = self.verdicts.get(key, (-1, INF))
        if n <= lo:
            return True
        if n >= hi:
            return False
        tests = bruteforce.kakinoki_tests(b, drop)
        verdict = all(self.no_drop.mated(t, n) is False for t in tests)
        self.verdicts[key] = (max(lo, n), hi) if verdict else (lo, min(hi, n))
        return verdict


def no_drop_mate_within(board: cshogi.Board, n: int, nodes: int = 5_000_000) -> bool | None:
    """Attacker to move: a mate within ``n`` when the defender may not drop (None: out of nodes)."""
    return BoundedMate(nodes).mates(board, n)


def counted_drops_mate_within(board: cshogi.Board, n: int, nodes: int = 5_000_000) -> bool | None:
    """Attacker to move: a mate within ``n`` when the defender drops only where the drop counts."""
    return CountedDrops(nodes).mates(board, n)


class RawMate(BoundedMate):
    """:class:`BoundedMate` under raw rules: the defender plays every drop (to check the search itself)."""

    def drops(self, b: cshogi.Board, n: int, legal: list[int]) -> list[int]:
        return [m for m in legal if cshogi.move_is_drop(m)]

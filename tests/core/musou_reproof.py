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
  within 17), so a proof of it says nothing of n;
* where a 変長 rests on interpositions from hand, the tool's reference search
  under tsume rules, the Python length search of
  :mod:`tsume_studio.core.search.length_search` on the Python df-pn, is asked
  too.  It is not the search that made the claim (the check asks the
  kernel's ``LengthSearch``): it is the same algorithm written apart, on
  another df-pn's table, and it shares the reading of futility
  (:mod:`~tsume_studio.core.search.interposition`).

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
raw length, and at least the length when the defender may drop nothing:

* a raw mate within n is a tsume-rule mate within n: this settles 余詰,
  成不成非限定 and 早詰 claims outright;
* a raw "no mate within n" is necessary for a 変長 (longer defence) claim
  but does not prove it when the defence relies on an interposition that
  tsume rules could judge futile.  :func:`survives_without_hand` tells
  whether it does (the same search with the defender's hand emptied), and
  the brute force settles the claim under tsume rules where it can.
"""

from __future__ import annotations

import csv
from dataclasses import dataclass
from pathlib import Path

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


def without_defender_hand(board: cshogi.Board) -> cshogi.Board:
    """The same position with the defender holding nothing."""
    parts = board.sfen().split()
    hand = parts[2]
    defender_upper = board.turn == cshogi.WHITE   # the attacker is to move: the defender is the other side
    kept, count = "", ""
    for ch in hand if hand != "-" else "":
        if ch.isdigit():
            count += ch
            continue
        if ch.isupper() != defender_upper:
            kept += count + ch
        count = ""
    parts[2] = kept or "-"
    return cshogi.Board(" ".join(parts))


@dataclass
class Reproof:
    """What the other methods found for one claim (None: not decided within their budget)."""

    claim: Claim
    bound: int                         # the n of "mate within n" the claim is about
    raw: bool | None                   # the raw question's answer
    tsume_brute: bool | None = None    # the brute force under tsume rules (None: too deep, not asked)
    without_hand: bool | None = None   # 変長 only: raw mate within ``bound`` with the defender's hand emptied

    @property
    def contradicted(self) -> bool:
        """A method shows the claim false."""
        if self.claim.kind == "longer_defence":
            return self.raw is True or self.tsume_brute is True
        return self.tsume_brute is False or (self.raw is False and self.tsume_brute is None
                                             and self.claim.kind != "shorter_mate")

    def summary(self) -> str:
        """How the claim was re-proved, in words (for docs/benchmarks.md)."""
        n = self.bound
        if self.claim.kind == "longer_defence":
            parts = [f"raw df-pn: {'no mate' if self.raw is False else 'MATE' if self.raw else 'undecided'} "
                     f"within {n}"]
            if self.without_hand is not None:
                parts.append("with the defender's hand emptied: "
                             + ("still no mate" if self.without_hand is False else
                                "mate (the defence needs interpositions from hand)" if self.without_hand
                                else "undecided"))
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
            out.without_hand = raw_mate_within(without_defender_hand(board), n)
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
    """The kernel's raw df-pn, attacker to move, depth bound ``n`` (odd, at least 3): True when it
    proves no mate within ``n`` plies, False when it finds one (within its loose bound), None out of nodes."""
    from tsume_studio.core.kernel import DfPnSearch

    if n < 3 or n % 2 == 0:
        raise ValueError(f"the kernel's depth bound is used for odd n >= 3, got {n}")
    search = DfPnSearch(board.sfen(), memory_mb=512, max_ply=n)
    got = search.run(nodes=nodes)
    return True if got == "disproven" else False if got == "proven" else None


def reference_mate_within(board: cshogi.Board, n: int) -> bool:
    """Tsume rules, attacker to move: a mate within ``n`` plies, by the Python length search (the reference)."""
    from tsume_studio.core.search.contract import drive
    from tsume_studio.core.search.dfpn import DfPn
    from tsume_studio.core.search.length_search import LengthSearch

    search = LengthSearch(board.copy(), DfPn(board.turn, memory_mb=256), deadline=None, cancel=None,
                          node_limit=None, distance_rule=True, memory_mb=4096)
    length = drive(search.exact(True, cap=n))
    return length is not None and length <= n

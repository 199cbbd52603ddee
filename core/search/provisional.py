"""The answer of a mate whose shortest length was not proved in time: df-pn's proof as a tree.

When the official answer's length search (:mod:`.exact`, :mod:`.official`)
runs out of time, mate is still proved: df-pn's table holds a raw-rule
mating tree.  :func:`provisional_proof` reads it, without searching, into a
:class:`~.proof.Proof` marked not exact, so that the proof tree, the 無駄合
list and the KIF export show what is known:

* the main line is df-pn's line (attacker: the shortest proof it stored,
  defender: the longest by the lengths stored, which need not be the longest
  defence: on 将棋無双 92番 the line is 31 plies and the proof 57), so the
  ``length`` given is ``at_most``, the bound proved, not the line's length;
* at each defence of the main line every legal defence is listed: the drop
  squares the length search had already judged futile at the bound that
  line needs (and the distant ones the distance rule then omits) as 無駄合,
  every other defence as a variation with df-pn's line after it;
* lengths are left unset (None) except at mate: df-pn's numbers bound the
  tsume-rule length from above but are not the official length; the
  variations' comments say what df-pn proved (``≤ n``);
* ``at_least`` / ``at_most`` carry the length search's proved bounds.

No 余詰 search is made (``alternatives_checked`` is False).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import cshogi

from .contract import INFINITY
from .kernel_oracle import Oracle
from .interposition import drop_squares, may_omit
from .proof import FutileInterposition, FutileReason, Futility, Proof, ProofNode, Role
from .tt import LENGTH, NO_LENGTH, PN

MAX_NODES = 20_000
"""Nodes of the provisional tree at most (variations' lines are cut beyond)."""

FutileKnown = Callable[[cshogi.Board, int, int], bool]
"""``(position, square, bound) -> True`` when the length search proved the drop square futile there."""


def provisional_proof(sfen: str, oracle: Oracle, line: Sequence[int], *,
                      futile_known: FutileKnown | None = None, distance_rule: bool = True,
                      at_least: int | None = None, at_most: int | None = None) -> Proof:
    """df-pn's proof of ``sfen`` along its line ``line`` (a complete mate) as a not-exact :class:`Proof`.

    Its ``length`` is ``at_most`` when given (the line's own length otherwise).

    ``futile_known`` answers which drop squares the length search judged
    futile; without it every interposition is listed as a defence.
    """
    board = cshogi.Board(sfen)
    budget = [MAX_NODES]
    futile: list[FutileInterposition] = []
    variations = 0
    usi_line = tuple(cshogi.move_to_usi(m) for m in line)

    def chain(b: cshogi.Board, or_node: bool) -> tuple[ProofNode, ...]:
        """df-pn's line from ``b`` as a chain of variation nodes (no branches)."""
        pv = table_line(b, or_node, _entry_length(oracle))
        nodes: list[tuple[str, int | None]] = []
        c = b.copy()
        for m in pv:
            c.push(m)
            nodes.append((cshogi.move_to_usi(m), 0 if not c.legal_moves else None))
        out: tuple[ProofNode, ...] = ()
        for usi, length in reversed(nodes[:max(0, budget[0])]):
            out = (ProofNode(usi, Role.VARIATION, 0, INFINITY, length, out),)
        budget[0] -= len(nodes)
        return out

    def bound_comment(b: cshogi.Board, below: tuple[ProofNode, ...]) -> str:
        """What df-pn proved of the attacker-to-move ``b``: a mate within its proof's length."""
        e = oracle.entry(b)
        if e is not None and e[PN] == 0 and e[LENGTH] != NO_LENGTH:
            return f"≤ {e[LENGTH]} (df-pn, not proved shortest)"
        if len(below) == 1 and below[0].length == 0:
            return "≤ 1"   # a mate in one (df-pn keeps no entry for it)
        return "not proved shortest"

    def others(b: cshogi.Board, k: int) -> list[ProofNode]:
        """The defences of ``b`` (defender to move) but the main line's ``line[k]``, in move order."""
        nonlocal variations
        main = line[k]
        left = len(line) - k        # plies the main line takes from here (the bound it needs)
        path = usi_line[:k]
        reasons: dict[int, str] = {}
        if futile_known is not None:
            squares = drop_squares(b)
            futile_at: set[int] = set()
            for i, ds in enumerate(squares):
                omitted = distance_rule and may_omit(squares, i, futile_at.__contains__)
                if main in ds.moves or not (omitted or futile_known(b, ds.square, left)):
                    continue   # counted (or df-pn's line plays it: it stays the main line)
                futile_at.add(i)
                reason = Futility(FutileReason.DISTANCE_RULE if omitted else FutileReason.CAPTURED_RETURNED)
                usis = tuple(cshogi.move_to_usi(m) for m in ds.moves)
                futile.append(FutileInterposition(path, usis[0], reason, usis))
                reasons.update((m, reason.english()) for m in ds.moves)
        out: list[ProofNode] = []
        kept: list[ProofNode] = []
        for m in b.legal_moves:
            if m == main:
                continue
            usi = cshogi.move_to_usi(m)
            if m in reasons:
                out.append(ProofNode(usi, Role.FUTILE, 0, INFINITY, None, (), reasons[m]))
                continue
            variations += 1
            b.push(m)
            below = chain(b, True) if budget[0] > 0 else ()
            kept.append(ProofNode(usi, Role.VARIATION, 0, INFINITY, None, below, bound_comment(b, below)))
            b.pop()
        return kept + out

    # Walk the main line forward, noting each defence's siblings; then build the tree from the mate back.
    b = board.copy()
    siblings: list[list[ProofNode]] = []
    for k, m in enumerate(line):
        siblings.append(others(b, k) if k % 2 == 1 else [])
        b.push(m)
    below: tuple[ProofNode, ...] = ()
    for k in range(len(line) - 1, -1, -1):
        usi = usi_line[k]
        length = 0 if k == len(line) - 1 else None
        below = (ProofNode(usi, Role.MAIN, 0, INFINITY, length, below),) + tuple(siblings[k])
    root = ProofNode(None, Role.MAIN, 0, INFINITY, None, below)
    return Proof(sfen=sfen, root=root, main_line=usi_line, length=at_most if at_most is not None else len(line),
                 futile=tuple(futile),
                 alternatives=(), variations=variations, exact=False, alternatives_checked=False, provisional=True,
                 at_least=at_least, at_most=at_most)


def table_line(board: cshogi.Board, or_node: bool, proved: Callable[[cshogi.Board, bool], int],
               limit: int = 1000) -> list[int]:
    """A line of a raw-rule proof read from a table, without searching: ``proved(position, or_node)``
    gives the length of the proof the table stores for a position (-1: none).  The attacker takes
    its shortest stored proof, the defender its longest; the line ends where the table does."""
    b = board.copy()
    line: list[int] = []
    seen: set[int] = set()
    while len(line) < limit and b.zobrist_hash() not in seen:
        seen.add(b.zobrist_hash())
        moves = list(b.check_moves) if or_node else list(b.legal_moves)
        best, best_len = 0, -1
        for m in moves:
            b.push(m)
            if or_node and not b.legal_moves:
                length = 0
            elif not or_node and not b.is_check() and b.mate_move_in_1ply():
                length = 1
            else:
                length = proved(b, not or_node)
            b.pop()
            if length < 0:
                if not or_node:
                    return line   # a defence the table does not answer
                continue
            if best_len < 0 or (length < best_len if or_node else length > best_len):
                best, best_len = m, length
        if best_len < 0:
            break
        line.append(best)
        b.push(best)
        or_node = not or_node
    return line


def _entry_length(oracle: Oracle) -> Callable[[cshogi.Board, bool], int]:
    """:func:`table_line`'s ``proved`` from an oracle's entries (either engine's table)."""
    def proved(b: cshogi.Board, _or_node: bool) -> int:
        e = oracle.entry(b)
        return e[LENGTH] if e is not None and e[PN] == 0 and e[LENGTH] != NO_LENGTH else -1
    return proved


__all__ = ["MAX_NODES", "provisional_proof", "table_line"]

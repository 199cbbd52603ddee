"""Move-list policies: which of a node's moves df-pn expands now and which wait.

A policy takes a node's legal moves (checks at an OR node, evasions at an
AND node) and returns the moves to expand now plus *chains* of moves held
back: ``(head, waiting)`` pairs where ``head`` indexes an expanded move and
``waiting`` lists the moves released one by one, each once the one before it
is decided against the node (proven at an AND node, disproven at an OR
node).  Every move is either expanded or waiting, so no refutation is lost:
the node is decided for the side to move only after all of them joined
(core.search.node counts waiting moves in the node's numbers).

Delaying interpositions this way follows the delayed expansion of
[KomoringHeights]; the order of drop squares rests on [LS3600 2010].
"""

from __future__ import annotations

from typing import Final, Protocol

import cshogi

Chains = list[tuple[int, list[int]]]


class MovePolicy(Protocol):
    """Splits a node's moves into the ones expanded now and chains that wait."""

    def __call__(self, board: cshogi.Board, or_node: bool, moves: list[int],
                 king: int) -> tuple[list[int], Chains]:
        ...


def all_at_once(board: cshogi.Board, or_node: bool, moves: list[int], king: int) -> tuple[list[int], Chains]:
    """Plain df-pn: every move is expanded at once."""
    return moves, []


# Drop kinds (cshogi's from-square minus 80: 1 pawn .. 7 rook) from the weakest
# interposer to the strongest.  A proof after the weakest interposition is
# captured rarely needs the captured piece, so its proof hand also answers the
# stronger ones through hand dominance.
_DROP_RANK: Final = {1: 0, 2: 1, 3: 2, 4: 3, 7: 4, 5: 5, 6: 6}   # P L N S G B R
# Pieces that lose nothing by promoting (pawn, bishop, rook; cshogi piece types).
_PROMOTE_ALWAYS: Final = frozenset((1, 5, 6))


def _king_distance(a: int, b: int) -> int:
    return max(abs(a // 9 - b // 9), abs(a % 9 - b % 9))


def delay_drops(board: cshogi.Board, or_node: bool, moves: list[int], king: int) -> tuple[list[int], Chains]:
    """Delayed expansion of drop interpositions at AND nodes (OR nodes: every move at once).

    With the defender in check, drops can only interpose; they form one
    chain: nearest square to the king first, and on one square the weakest
    piece first, each waiting until the one before it is proven.  So a
    same-square drop is searched only once the previous kind is mated, when
    its own proof usually comes from the table through hand dominance; a
    farther square only once every nearer one is mated, the order the
    interposition omission theorem and the "recursive interposition is
    unnecessary" principle rest on ([LS3600 2010]): a
    capture of a far interposition followed by a nearer one is then answered
    by the table.
    """
    if or_node:
        return moves, []
    drops = [m for m in moves if (m >> 7) & 0x7F >= 81]
    if len(drops) < 2:
        return moves, []
    drops.sort(key=lambda m: (_king_distance(m & 0x7F, king), _DROP_RANK[((m >> 7) & 0x7F) - 80]))
    active = [m for m in moves if (m >> 7) & 0x7F < 81]
    active.append(drops[0])
    return active, [(len(active) - 1, drops[1:])]


def delay_far_drops(board: cshogi.Board, or_node: bool, moves: list[int], king: int) -> tuple[list[int], Chains]:
    """:func:`delay_drops` for the drops beyond the squares next to the king.

    Drops next to the king are expanded at once (they are the defences
    that most often matter); the farther ones, the usual futile
    interpositions, form the chain, nearest square and weakest piece first.
    """
    if or_node:
        return moves, []
    far = [m for m in moves if (m >> 7) & 0x7F >= 81 and _king_distance(m & 0x7F, king) >= 2]
    if len(far) < 2:
        return moves, []
    far.sort(key=lambda m: (_king_distance(m & 0x7F, king), _DROP_RANK[((m >> 7) & 0x7F) - 80]))
    waiting = set(far[1:])
    active = [m for m in moves if m not in waiting]
    return active, [(active.index(far[0]), far[1:])]


#: delay_by_hand chains every drop where the defender holds at least this many kinds of piece.
CROWDED_HAND_KINDS: Final = 3


def delay_by_hand(board: cshogi.Board, or_node: bool, moves: list[int], king: int) -> tuple[list[int], Chains]:
    """:func:`delay_drops` where the defender's hand is crowded, else :func:`delay_far_drops`.

    With :data:`CROWDED_HAND_KINDS` kinds or more in hand the drops next to
    the king are many (kinds times squares), most of them as futile as the far
    ones, and chaining them all pays; with fewer the near drops are the few
    defences that matter and are expanded at once (docs/benchmarks.md,
    2026-12-07 23:30 UTC: the Edo classics and Microcosmos' long tails).
    """
    if or_node:
        return moves, []
    hand = board.pieces_in_hand[board.turn]
    if sum(1 for n in hand if n) >= CROWDED_HAND_KINDS:
        return delay_drops(board, or_node, moves, king)
    return delay_far_drops(board, or_node, moves, king)


def delay_non_promotions(board: cshogi.Board, or_node: bool, moves: list[int],
                         king: int) -> tuple[list[int], Chains]:
    """At OR nodes, a pawn, bishop or rook move that could promote waits until its promotion is disproven.

    It very rarely mates where the promotion does not; it stays in the search
    for the cases where it does (such as avoiding 打ち歩詰め).  AND nodes: every
    move at once.
    """
    if not or_node:
        return moves, []
    promoting = {m & 0x7FFF for m in moves if m & 0x4000}   # from, to and the promotion flag
    if not promoting:
        return moves, []
    active: list[int] = []
    waiting: list[tuple[int, int]] = []
    for m in moves:
        twin = (m & 0x3FFF) | 0x4000
        if not m & 0x4000 and (m >> 16) & 0xF in _PROMOTE_ALWAYS and twin in promoting:
            waiting.append((twin, m))
        else:
            active.append(m)
    if not waiting:
        return moves, []
    pos = {m & 0x7FFF: i for i, m in enumerate(active)}
    return active, [(pos[twin], [m]) for twin, m in waiting]


def delay_interpositions(board: cshogi.Board, or_node: bool, moves: list[int],
                         king: int) -> tuple[list[int], Chains]:
    """:func:`delay_drops` at AND nodes and :func:`delay_non_promotions` at OR nodes."""
    if or_node:
        return delay_non_promotions(board, or_node, moves, king)
    return delay_drops(board, or_node, moves, king)

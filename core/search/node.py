"""One df-pn node's children and the pure arithmetic on them: numbers, selection, disproof depth.

:class:`Children` holds a node's expanded children as parallel lists (moves,
keys, hands, pn/dn, repetition depth, proof length, proof hand), plus the
moves a move-list policy (core.search.policy) holds back in *chains*: a
waiting move joins the children only once the chain's last released move is
decided against the node (proven at an AND node, disproven at an OR node).

The functions here follow [Qhapaq 2020]: an OR node's pn is the
smallest child pn and its dn the sum of the children's dn (AND: the other way
round); the best child is searched with thresholds derived from the second
best sibling, widened by the 1+ε factor.  Waiting moves count as one each in
the summed number (pn at an AND node, dn at an OR node): a node never looks
decided, or cheaper than its known children, while moves still wait.
"""

from __future__ import annotations

from typing import Final

from .tt import INF, NO_LENGTH

NOREP: Final = 1 << 30            # "this value does not depend on a repetition"
_NO_CHAINS: list[list[int]] = []
_NO_HEADS: list[int] = []


class Children:
    """A node's children as parallel lists, indexed like :attr:`moves`.

    Attributes:
        moves: the children's moves (cshogi move ints), in expansion order.
        key, hand, zob, hc: each child's board key, attacker hand, full
            Zobrist key and the hands' part of that key.
        pn, dn: each child's proof and disproof numbers.
        rep: the shallowest path depth a child's disproof rests on (``NOREP``: none).
        length: a decided child's proof length (``NO_LENGTH`` otherwise).
        ph: a decided child's proof/disproof hand (-1: derive it when needed).
        new: the child is in neither the table nor the search yet: its first visit spends a
            pending TCA raise.
        old: some child repeats a position of the current path (it adds a TCA raise).
        chains: per chain, the moves still waiting, in release order.
        chain_of: per child, the chain whose next move it releases (-1: none;
            empty when the node has no chains).
        pending: how many moves wait in all chains.
    """

    __slots__ = (
        "chain_of",
        "chains",
        "dn",
        "hand",
        "hc",
        "key",
        "length",
        "moves",
        "new",
        "old",
        "pending",
        "ph",
        "pn",
        "rep",
        "zob",
    )

    def __init__(self, moves: list[int], chains: list[tuple[int, list[int]]] | None = None) -> None:
        n = len(moves)
        self.moves = moves
        self.key = [0] * n
        self.hand = [0] * n
        self.zob = [0] * n
        self.hc = [0] * n
        self.pn = [1] * n
        self.dn = [1] * n
        self.rep = [NOREP] * n
        self.length = [NO_LENGTH] * n
        self.ph = [-1] * n
        self.new = [True] * n
        self.old = False
        self.chains: list[list[int]] = _NO_CHAINS     # shared and never written while empty
        self.chain_of: list[int] = _NO_HEADS
        self.pending = 0
        if chains:
            self.chains = []
            self.chain_of = [-1] * n
            for head, waiting in chains:
                if waiting:
                    self.chain_of[head] = len(self.chains)
                    self.chains.append(list(waiting))
                    self.pending += len(waiting)

    def __len__(self) -> int:
        return len(self.moves)

    def release(self, i: int) -> int:
        """Append the move waiting behind child ``i``; returns its index (-1 if none waits)."""
        if not self.pending:
            return -1
        ch = self.chain_of[i]
        if ch < 0:
            return -1
        self.chain_of[i] = -1
        chain = self.chains[ch]
        move = chain.pop(0)
        self.pending -= 1
        self.moves.append(move)
        for lst, value in ((self.key, 0), (self.hand, 0), (self.zob, 0), (self.hc, 0), (self.pn, 1),
                           (self.dn, 1), (self.rep, NOREP), (self.length, NO_LENGTH), (self.ph, -1)):
            lst.append(value)
        self.new.append(True)
        self.chain_of.append(ch if chain else -1)
        return len(self.moves) - 1


def _summed(total: int, least: int) -> int:
    """A node's summed number from its children's ``total`` and its other number ``least``.

    ``INF`` is a decided node's number: a sum that reaches it stays ``INF`` only
    when the node is decided (``least`` 0), and stops at ``INF - 1`` otherwise, so
    that a search with thresholds of ``INF`` (a length question) never ends on an
    undecided node as though it were decided.
    """
    if total < INF:
        return total
    return INF if least == 0 else INF - 1


def node_numbers(cpn: list[int], cdn: list[int], or_node: bool, pending: int = 0) -> tuple[int, int]:
    """(pn, dn) of a node from its children's numbers and its waiting moves."""
    if or_node:
        pn = min(cpn)
        return pn, _summed(sum(cdn) + pending, pn)
    dn = min(cdn)
    return _summed(sum(cpn) + pending, dn), dn


def _group_tops(nums: list[int], group: list[int]) -> dict[int, int]:
    """Each group's largest number."""
    best: dict[int, int] = {}
    for j, v in enumerate(nums):
        g = group[j]
        if v > best.get(g, -1):
            best[g] = v
    return best


def grouped_sum(nums: list[int], group: list[int]) -> int:
    """Sum of ``nums`` where children of one group count once, by their largest number.

    ``group[j]`` names the source node child ``j``'s number comes from
    ([Kishimoto 2010]): two children whose numbers both rest on the same
    merged position would count it twice in a plain sum.  The result is 0 only
    when every number is 0, and ``INF`` when any is, so a node is decided
    exactly when the plain sum would decide it.
    """
    s = sum(_group_tops(nums, group).values())
    return s if s < INF else INF


def _with_total(cpn: list[int], cdn: list[int], or_node: bool, total: int) -> tuple[int, int]:
    """(pn, dn) of a node whose summed number is ``total`` (capped as :func:`_summed` says)."""
    if or_node:
        pn = min(cpn)
        return pn, _summed(total, pn)
    dn = min(cdn)
    return _summed(total, dn), dn


def _lifted(pn: int, dn: int, thpn: int, thdn: int) -> tuple[int, int]:
    """Thresholds just past an undecided node's numbers, never below the given ones (TCA)."""
    if pn and dn:
        return max(thpn, pn + 1), max(thdn, dn + 1)
    return thpn, thdn


def _select_by_total(cpn: list[int], cdn: list[int], or_node: bool, total: int, others: int, thpn: int,
                     thdn: int, eps: float, lift: bool) -> tuple[int, int, int, int, int]:
    """:func:`select_child` for a node whose summed number is ``total``.

    ``others`` is what the node's summed number holds besides the chosen
    child's share: the child's threshold on it is the node's less ``others``.
    """
    pn, dn = _with_total(cpn, cdn, or_node, total)
    if lift:
        thpn, thdn = _lifted(pn, dn, thpn, thdn)
    if pn == 0 or dn == 0 or pn >= thpn or dn >= thdn:
        return pn, dn, -1, 0, 0
    least = cpn if or_node else cdn
    m = pn if or_node else dn
    i1 = least.index(m)
    least[i1] = INF
    second = min(least)
    least[i1] = m
    if or_node:
        c_thpn = thpn if second >= INF else min(thpn, int(second * eps) + 1)
        c_thdn = thdn - others
        return pn, dn, i1, c_thpn, (c_thdn if c_thdn < INF else INF)
    c_thdn = thdn if second >= INF else min(thdn, int(second * eps) + 1)
    c_thpn = thpn - others
    return pn, dn, i1, (c_thpn if c_thpn < INF else INF), c_thdn


def node_numbers_grouped(cpn: list[int], cdn: list[int], or_node: bool, pending: int,
                         group: list[int]) -> tuple[int, int]:
    """:func:`node_numbers` with the summed number taken by :func:`grouped_sum`."""
    return _with_total(cpn, cdn, or_node, grouped_sum(cdn if or_node else cpn, group) + pending)


def select_child_grouped(cpn: list[int], cdn: list[int], or_node: bool, pending: int, thpn: int,
                         thdn: int, eps: float, group: list[int], lift: bool = False
                         ) -> tuple[int, int, int, int, int]:
    """:func:`select_child` with the summed number taken by :func:`grouped_sum`.

    The chosen child's threshold on the summed number is the node's less
    what the *other groups* hold: within its own group the child may grow up
    to the group's largest number without moving the node at all, and past it
    the node grows one for one.  The threshold stays above the child's number
    whenever the node's number is under its own threshold.
    """
    best = _group_tops(cdn if or_node else cpn, group)
    total = sum(best.values()) + pending
    least = cpn if or_node else cdn
    if total < INF and min(least) != 0:
        # The chosen child is the first with the least number; its group's share is not "other".
        i1 = least.index(min(least))
        others = total - best[group[i1]]
    else:
        others = 0
    return _select_by_total(cpn, cdn, or_node, total, others, thpn, thdn, eps, lift)


def weak_sum(nums: list[int]) -> int:
    """The largest number plus one for each other undecided child ([Ueda 2008]'s weak numbers).

    Two children rarely need wholly separate work where positions merge, so
    the node counts its hardest child in full and every other undecided one
    as one.  0 only when every number is 0, ``INF`` when any is.
    """
    top, k = _top_and_count(nums)
    if not k:
        return 0
    s = top + k - 1
    return s if s < INF else INF


def _top_and_count(nums: list[int]) -> tuple[int, int]:
    """The largest number and how many are not 0."""
    top = 0
    k = 0
    for v in nums:
        if v:
            k += 1
            if v > top:
                top = v
    return top, k


def node_numbers_weak(cpn: list[int], cdn: list[int], or_node: bool, pending: int) -> tuple[int, int]:
    """:func:`node_numbers` with the summed number taken by :func:`weak_sum`."""
    return _with_total(cpn, cdn, or_node, weak_sum(cdn if or_node else cpn) + pending)


def select_child_weak(cpn: list[int], cdn: list[int], or_node: bool, pending: int, thpn: int, thdn: int,
                      eps: float, lift: bool = False) -> tuple[int, int, int, int, int]:
    """:func:`select_child` with the summed number taken by :func:`weak_sum`.

    The chosen child (undecided) may grow until the largest number reaches
    the node's threshold less the other undecided children and waiting moves.
    """
    top, k = _top_and_count(cdn if or_node else cpn)
    total = top + k - 1 + pending if k else pending
    return _select_by_total(cpn, cdn, or_node, total, k - 1 + pending, thpn, thdn, eps, lift)


def select_child(cpn: list[int], cdn: list[int], or_node: bool, pending: int, thpn: int, thdn: int,
                 eps: float, lift: bool = False) -> tuple[int, int, int, int, int]:
    """The node's (pn, dn), then the child to search (-1: none) and its (pn, dn) thresholds.

    No child is searched once the node is decided or one of its numbers
    reached its threshold.  Otherwise the best child (smallest pn at an OR
    node, smallest dn at an AND node; the first of equals) may grow until it
    passes the second best, times ``eps`` (the 1+ε trick), and the node's
    other threshold less what its siblings already hold.  With ``lift`` (TCA
    raises pending) the node's thresholds are first lifted just past its
    numbers.
    """
    # One pass: the best child (the first of equals), the second best, and the sum.
    best, second, i1, total = INF + 1, INF + 1, -1, pending
    if or_node:
        for i in range(len(cpn)):
            v = cpn[i]
            if v < best:
                second = best
                best = v
                i1 = i
            elif v < second:
                second = v
            total += cdn[i]
        pn, dn = best, _summed(total, best)
        if lift:
            thpn, thdn = _lifted(pn, dn, thpn, thdn)
        if pn == 0 or dn == 0 or pn >= thpn or dn >= thdn:
            return pn, dn, -1, 0, 0
        c_thpn = thpn if second >= INF else min(thpn, int(second * eps) + 1)
        c_thdn = thdn - dn + cdn[i1]
        return pn, dn, i1, c_thpn, (c_thdn if c_thdn < INF else INF)
    for i in range(len(cdn)):
        v = cdn[i]
        if v < best:
            second = best
            best = v
            i1 = i
        elif v < second:
            second = v
        total += cpn[i]
    pn, dn = _summed(total, best), best
    if lift:
        thpn, thdn = _lifted(pn, dn, thpn, thdn)
    if pn == 0 or dn == 0 or pn >= thpn or dn >= thdn:
        return pn, dn, -1, 0, 0
    c_thdn = thdn if second >= INF else min(thdn, int(second * eps) + 1)
    c_thpn = thpn - pn + cpn[i1]
    return pn, dn, i1, (c_thpn if c_thpn < INF else INF), c_thdn


def disproof_rep(cdn: list[int], crep: list[int], or_node: bool) -> int:
    """The repetition depth a node's disproof rests on (``NOREP``: none).

    An OR node is disproven through every child, so the shallowest repetition
    of any child counts; an AND node through any one disproven child, so the
    deepest (least path-bound) of those is enough.
    """
    if or_node:
        return min(crep)
    # From below every depth: a cut by the depth limit (-1) stays below the node, never a true disproof.
    rep = -NOREP
    for j in range(len(cdn)):
        if cdn[j] == 0 and crep[j] > rep:
            rep = crep[j]
    return rep

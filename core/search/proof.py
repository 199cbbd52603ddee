"""The answers of the solvers as frozen values: the proof tree of a direct mate, the helpmates.

Shared by the solvers, the command line, the record writers and the GUI:
:class:`Proof` is what ``SolveResult.proof`` (:mod:`.contract`) holds after a
direct-mate search proves mate, :class:`HelpmateAnswer` what the helpmate
solver lists.  Why a futile interposition was pruned is a
:class:`Futility` (a :class:`FutileReason` and the length where measured),
rendered to text here, once per language.  Every move is USI text, so the values cross threads and
processes as plain data; the position of any node is the start position with
the path's moves played.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass


_INFINITY = 10**12   # contract.INFINITY (the contract imports this module)


class Role(str, enum.Enum):
    """What a node of the proof tree is to a reader of the solution."""

    MAIN = "main"                # on the official main line (作意)
    VARIATION = "variation"      # another defence, or the attacker's answer to it
    FUTILE = "futile"            # a futile interposition (無駄合), pruned from the count
    ALTERNATIVE = "alternative"  # another attacker move that also mates in time (余詰)


class FutileReason(str, enum.Enum):
    """Why an interposition was pruned as futile (無駄合)."""

    CAPTURED_RETURNED = "captured_returned"  # Kakinoki's test: captured, handed back, still mate
    DISTANCE_RULE = "distance_rule"          # a distant drop omitted by the omission theorem


@dataclass(frozen=True, slots=True)
class Futility:
    """The reason of one futile interposition: its kind and, where measured, the length.

    ``length`` counts the plies from the capture to mate (the capture
    included) in Kakinoki's test; None when it was not measured (always for
    :attr:`FutileReason.DISTANCE_RULE`).
    """

    kind: FutileReason
    length: int | None = None

    def english(self) -> str:
        """The reason in English, as the command line and its JSON print it."""
        if self.kind is FutileReason.DISTANCE_RULE:
            return "omitted: distance rule"
        if self.length is None:
            return "futile: captured and returned, still mate"
        return f"futile: captured and returned, still mate in {self.length}"

    def japanese(self) -> str:
        """The reason in Japanese, as records (KIF comments) and the Japanese interface show it."""
        if self.kind is FutileReason.DISTANCE_RULE:
            return "遠い合駒の省略"
        if self.length is None:
            return "取って返しても詰み"
        return f"取って返しても{self.length}手詰"


@dataclass(frozen=True, slots=True)
class ProofNode:
    """One move of the proof tree and what follows it.

    ``move`` is None at the root.  ``length`` is the number of plies to mate
    from the position *after* this move under tsume rules (0 when the move
    mates), or None where it was not established.  ``children`` hold the
    attacker's mating move after a defence (one child; alternatives after it)
    or every defence after an attacker move (main-line defence first).
    """

    move: str | None
    role: Role
    pn: int = 0
    dn: int = 0
    length: int | None = None
    children: tuple[ProofNode, ...] = ()
    comment: str = ""


@dataclass(frozen=True, slots=True)
class FutileInterposition:
    """A pruned futile interposition: where, which move, and why it was pruned.

    ``path`` is the USI line from the start position to the position where
    the interposition was possible; ``reason`` says why it was pruned
    (:meth:`Futility.english` reads like ``"futile: captured and returned,
    still mate in 1"`` or ``"omitted: distance rule"``).  Futility of a drop depends only on its
    square (Kakinoki's test returns the piece), so one entry stands for every
    drop on that square: ``move`` is the first of them and ``moves`` lists
    them all.
    """

    path: tuple[str, ...]
    move: str
    reason: Futility
    moves: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Alternative:
    """An 余詰 candidate: at ``path``, attacker move ``move`` also mates within ``length`` plies."""

    path: tuple[str, ...]
    move: str
    length: int | None


@dataclass(frozen=True, slots=True)
class Proof:
    """The solution of a direct-mate problem.

    Attributes:
        sfen: the start position.
        root: the proof tree's root (``move`` None, role MAIN).
        main_line: the official main line in USI.
        length: its length in plies under tsume rules.
        futile: every futile interposition pruned, with its reason.
        alternatives: 余詰 candidates.
        variations: how many non-main defences the tree holds.
        exact: True when ``length`` is proved to be the shortest.
        alternatives_checked: True when every other attacker move along the
            main line was proved not to mate in time, so ``alternatives`` is
            complete; False when that search was skipped or ran out of time
            (the length and the main line are still exact).
        alternatives_checked_to: when ``alternatives_checked`` is False, the
            ply of the main line up to which every other attacker move was
            examined before the search stopped (``alternatives`` lists what
            those moves have); 0 when none was, and when it is True.
        tree_complete: False when the limits ran out while the tree's variations were
            measured, after the main line was built: the length and the main line are
            still exact, and so are the defences as long as the main line's; a
            variation without a ``length`` was not measured (its comment gives the
            bound proved).  Always True for a provisional answer, whose tree is df-pn's.
        provisional: True when the tree is df-pn's proof read back because
            the length search ran out of time (:mod:`.provisional`): its main
            line is df-pn's, not the official one, and it is not ``exact``.
        at_least, at_most: for a provisional answer, what the length search
            had proved of the tsume-rule length when it stopped: no mate in
            fewer than ``at_least`` plies, a mate within ``at_most``; None
            when unknown.
    """

    sfen: str
    root: ProofNode
    main_line: tuple[str, ...]
    length: int
    futile: tuple[FutileInterposition, ...] = ()
    alternatives: tuple[Alternative, ...] = ()
    variations: int = 0
    exact: bool = False
    alternatives_checked: bool = True
    alternatives_checked_to: int = 0
    tree_complete: bool = True
    provisional: bool = False
    at_least: int | None = None
    at_most: int | None = None


@dataclass(frozen=True, slots=True)
class HelpmateAnswer:
    """The shortest helpmates of a position, for 余詰 checks.

    Attributes:
        sfen: the start position.
        length: the shortest helpmate's length in plies.
        solutions: shortest solutions as USI lines, the search's own line
            first, at most the cap asked for.
        complete: True when ``solutions`` is every shortest solution.
        checked: False when other solutions were not looked for at all
            (``solutions`` holds the search's line only).
        capped: True when more shortest solutions exist than the cap let
            ``solutions`` hold (so the helpmate is certainly not unique).
        exact: True when ``length`` is proved to be the shortest.
    """

    sfen: str
    length: int
    solutions: tuple[tuple[str, ...], ...]
    complete: bool
    checked: bool = True
    capped: bool = False
    exact: bool = True

    @property
    def unique(self) -> bool:
        """True when the shortest helpmate is proved unique (no 余詰 of that length)."""
        return self.complete and len(self.solutions) == 1

    @property
    def alternatives_checked(self) -> bool:
        """True when the other solutions were looked for to the end (listed in full or up to the cap)."""
        return self.checked and (self.complete or self.capped)


def helpmate_tree(answer: HelpmateAnswer) -> ProofNode:
    """The solutions of ``answer`` as one tree: the first line MAIN, the others branching off as ALTERNATIVE.

    Each node's ``length`` is the plies left to mate after its move; every
    node is on a mating line, so pn is 0 and dn infinite throughout.
    """
    root: dict[str, _Trie] = {}
    for k, line in enumerate(answer.solutions):
        level = root
        for move in line:
            node = level.get(move)
            if node is None:
                node = level[move] = _Trie(k == 0)
            level = node.children
    return ProofNode(None, Role.MAIN, 0, _INFINITY, answer.length, _nodes(root, answer.length - 1))


class _Trie:
    """A node of :func:`helpmate_tree`'s trie (internal)."""

    __slots__ = ("children", "main")

    def __init__(self, main: bool) -> None:
        self.main = main
        self.children: dict[str, _Trie] = {}


def _nodes(level: dict[str, _Trie], left: int) -> tuple[ProofNode, ...]:
    # Recursion depth is the helpmate's length (a few dozen plies at most in practice).
    return tuple(ProofNode(move, Role.MAIN if t.main else Role.ALTERNATIVE, 0, _INFINITY, left,
                           _nodes(t.children, left - 1))
                 for move, t in level.items())


def helpmate_proof(answer: HelpmateAnswer) -> Proof:
    """``answer`` as a :class:`Proof` (for viewers of proof trees): main line, the other solutions as branches.

    ``alternatives`` lists where each other solution leaves the main line's
    tree, with the plies left from there.
    """
    main = answer.solutions[0] if answer.solutions else ()
    alternatives: list[Alternative] = []
    seen: set[tuple[str, ...]] = set()
    for line in answer.solutions[1:]:
        k = 0
        while k < len(main) and line[k] == main[k]:
            k += 1
        key = line[:k + 1]
        if key not in seen:
            seen.add(key)
            alternatives.append(Alternative(tuple(line[:k]), line[k], answer.length - k))
    return Proof(answer.sfen, helpmate_tree(answer), tuple(main), answer.length,
                 alternatives=tuple(alternatives), variations=0, exact=answer.exact,
                 alternatives_checked=answer.alternatives_checked)

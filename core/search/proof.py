"""The proof of a mate as a browsable, frozen tree.

CONTRACT shared by the solver, the command line, the record writers and the
GUI: :class:`Proof` is what ``SolveResult.proof`` holds after a direct-mate
search proves mate.  Every move is USI text, so the values cross threads and
processes as plain data; the position of any node is the start position with
the path's moves played.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass


class Role(str, enum.Enum):
    """What a node of the proof tree is to a reader of the solution."""

    MAIN = "main"                # on the official main line (作意)
    VARIATION = "variation"      # another defence, or the attacker's answer to it
    FUTILE = "futile"            # a futile interposition (無駄合), pruned from the count
    ALTERNATIVE = "alternative"  # another attacker move that also mates in time (余詰)


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
    children: tuple["ProofNode", ...] = ()
    comment: str = ""


@dataclass(frozen=True, slots=True)
class FutileInterposition:
    """A pruned futile interposition: where, which move, and why it was pruned.

    ``path`` is the USI line from the start position to the position where
    the interposition was possible; ``reason`` reads like
    ``"futile: captured and returned, still mate in 1"`` or
    ``"omitted: distance rule"``.  Futility of a drop depends only on its
    square (Kakinoki's test returns the piece), so one entry stands for every
    drop on that square: ``move`` is the first of them and ``moves`` lists
    them all.
    """

    path: tuple[str, ...]
    move: str
    reason: str
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

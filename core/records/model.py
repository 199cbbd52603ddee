"""A game record as a tree: start position, header, moves with comments and branches.

Shared by the KIF/KI2/CSA readers and writers, the solutions of the solvers
(:func:`tsume_studio.core.answer.record_from_proof` makes a Record of a proof)
and the GUI.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..shogi.moves import Move, parse_move
from ..shogi.position import Position


@dataclass
class RecordNode:
    """A move and what follows it; ``children[0]`` is the main continuation.

    The root node has ``move=None``; its comments belong to the start position.
    ``special`` names a terminal word instead of a move (``"詰み"``, ``"投了"`` ...).
    """

    move: Move | None = None
    comments: list[str] = field(default_factory=list)
    children: list[RecordNode] = field(default_factory=list)
    special: str | None = None


@dataclass
class Record:
    """A record: header keys (``作品名``, ``作者``, ``手数`` ...), start position, move tree.

    ``preamble`` holds the ``#`` comment lines that open a KIF file (without
    the ``#``; ``#KIF version=…`` lines are not kept), so they round-trip.
    """

    start: Position
    header: dict[str, str] = field(default_factory=dict)
    root: RecordNode = field(default_factory=RecordNode)
    preamble: list[str] = field(default_factory=list)

    def grow(self, line: tuple[str, ...] | list[str]) -> tuple[RecordNode, Position, bool]:
        """Walk ``line`` (USI moves from the start) through the tree, reusing the moves there and
        adding the others as the last variation of their parent (the main line stays).

        Returns the line's last node, the position there, and whether a node was added.

        Raises:
            ValueError: a move of ``line`` is not legal where it is played.
        """
        pos, node, added = self.start.copy(), self.root, False
        for usi in line:
            move = parse_move(pos, usi)
            child = next((c for c in node.children if c.move == move), None)
            if child is None:
                child = RecordNode(move=move)
                node.children.append(child)
                added = True
            node = child
            pos.push(move)
        return node, pos, added

    def main_line(self) -> list[Move]:
        """The moves of the main line (first children), specials excluded."""
        out = []
        node = self.root
        while node.children:
            node = node.children[0]
            if node.move is not None:
                out.append(node.move)
        return out

"""A game record as a tree: start position, header, moves with comments and branches.

CONTRACT shared by the KIF/KI2/CSA readers and writers, the proof tree
(which converts itself into a Record with :func:`record_from_proof`) and the GUI.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..search.interposition import reason_japanese
from ..shogi.moves import Move, japanese, parse_move
from ..shogi.position import Position
from ..shogi.types import KANJI_MOVE

if TYPE_CHECKING:
    from ..search.proof import Proof, ProofNode


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

    def main_line(self) -> list[Move]:
        """The moves of the main line (first children), specials excluded."""
        out = []
        node = self.root
        while node.children:
            node = node.children[0]
            if node.move is not None:
                out.append(node.move)
        return out


# ---- from a proof -------------------------------------------------------

_ORDER = {"main": 0, "variation": 1, "alternative": 2, "futile": 3}


def _line_japanese(start: Position, path: tuple[str, ...], moves: tuple[str, ...]) -> str:
    pos = start.copy()
    prev = None
    for usi in path:
        mv = Move.from_usi(usi)
        pos.push(mv)
        prev = mv.to_square
    out = []
    for usi in moves:
        mv = parse_move(pos, usi)
        out.append(japanese(pos, mv, prev))
        pos.push(mv)
        prev = mv.to_square
    return " ".join(out)


def _futile_text(start: Position, path: tuple[str, ...], moves: tuple[str, ...], reason: str) -> str:
    """``無駄合：△１四合（歩・香・桂）（reason）`` for drops on one square, else the moves listed."""
    drops = [Move.from_usi(m) for m in moves]
    if len(drops) > 1 and all(d.drop is not None for d in drops) and len({d.to_square for d in drops}) == 1:
        first = _line_japanese(start, path, (moves[0],))
        text = first[:3] + "合（" + "・".join(KANJI_MOVE[d.drop] for d in drops if d.drop is not None) + "）"
    else:
        text = "、".join(_line_japanese(start, path, (m,)) for m in moves)
    return f"無駄合：{text}" + (f"（{reason}）" if reason else "")


def _is_mate(pos: Position) -> bool:
    board = pos.board()
    return bool(board.is_check()) and not any(True for _ in board.legal_moves)


def _convert(pnode: ProofNode, pos: Position, rnode: RecordNode,
             futile_keys: set[tuple[tuple[str, ...], str]], path: tuple[str, ...],
             start: Position) -> None:
    """Copy the children of ``pnode`` (played from ``pos``) under ``rnode``."""
    from ..search.proof import Role

    kids = sorted(pnode.children, key=lambda c: _ORDER.get(Role(c.role).value, 9))
    # Futile interpositions are pruned from the count: a comment on the position,
    # unless Proof.futile reports them (then record_from_proof writes it).
    futile = [c for c in kids if Role(c.role) == Role.FUTILE and (path, c.move) not in futile_keys]
    by_square: dict[tuple[int, bool], list[ProofNode]] = {}
    for c in futile:
        assert c.move is not None
        mv = Move.from_usi(c.move)
        by_square.setdefault((mv.to_square, mv.drop is not None), []).append(c)
    for group in by_square.values():
        rnode.comments.append(_futile_text(start, path, tuple(c.move for c in group if c.move is not None),
                                           group[0].comment))
    for child in kids:
        assert child.move is not None
        if Role(child.role) == Role.FUTILE:
            continue
        move = parse_move(pos, child.move)
        node = RecordNode(move=move)
        if Role(child.role) == Role.ALTERNATIVE:
            node.comments.append(f"余詰：{child.length + 1}手で詰み" if child.length is not None else "余詰")
        if child.comment and not any(child.comment in c for c in node.comments):
            node.comments.append(child.comment)
        rnode.children.append(node)
        pos.push(move)
        if child.children:
            _convert(child, pos, node, futile_keys, path + (child.move,), start)
        # Mate: the proof says so (length 0), or every defence left is a futile
        # interposition (tsume rules), or there is no legal reply.
        only_futile = all(Role(c.role) == Role.FUTILE for c in child.children) and (
            bool(child.children) or any(p == path + (child.move,) for p, _ in futile_keys))
        if not node.children and (child.length == 0 or only_futile or _is_mate(pos)):
            node.children.append(RecordNode(special="詰み"))
        pos.pop()


def _find(root: RecordNode, start: Position, path: tuple[str, ...]) -> tuple[RecordNode, int]:
    """The deepest node along ``path`` and how many of its moves were found."""
    node, depth = root, 0
    for usi in path:
        nxt = next((c for c in node.children if c.move is not None and c.move.usi() == usi), None)
        if nxt is None:
            break
        node, depth = nxt, depth + 1
    return node, depth


def record_from_proof(proof: Proof, header: dict[str, str] | None = None) -> Record:
    """The solution of a direct-mate problem as a :class:`Record` for KIF export.

    The main line is the chain of first (MAIN) children; every other non-futile
    defence appears with its answer as a variation; an alternative mate (余詰)
    is a variation on the attacker's ply with a ``余詰`` comment; each futile
    interposition (無駄合) of ``proof.futile`` becomes a comment on the position
    where it was pruned, e.g. ``無駄合：△２三歩打（futile: captured and returned,
    still mate in 1）``.  Lines ending in checkmate get a ``詰み`` terminal.
    ``header`` keys come first; ``手数`` defaults to the proof's length.

    Raises:
        ValueError: a move of the proof is not legal where it stands.
    """
    start = Position.from_sfen(proof.sfen)
    record = Record(start=start.copy(), header=dict(header or {}))
    record.header.setdefault("手数", str(proof.length))
    futile_keys = {(tuple(f.path), m) for f in proof.futile for m in (getattr(f, "moves", ()) or (f.move,))}
    if proof.root.children:
        _convert(proof.root, start.copy(), record.root, futile_keys, (), start)
    elif proof.main_line:
        pos, node = start.copy(), record.root
        for usi in proof.main_line:
            mv = parse_move(pos, usi)
            child = RecordNode(move=mv)
            node.children.append(child)
            node = child
            pos.push(mv)
        if _is_mate(pos):
            node.children.append(RecordNode(special="詰み"))
    for f in proof.futile:
        node, depth = _find(record.root, start, tuple(f.path))
        moves = tuple(getattr(f, "moves", ()) or (f.move,))
        if depth < len(f.path):  # off the tree: name the whole line
            text = _line_japanese(start, tuple(f.path[:depth]), tuple(f.path[depth:]) + (f.move,))
            node.comments.append(f"無駄合：{text}" + (f"（{reason_japanese(f.reason)}）" if f.reason else ""))
        else:
            node.comments.append(_futile_text(start, tuple(f.path), moves, reason_japanese(f.reason)))
    for alt in proof.alternatives:
        node, depth = _find(record.root, start, tuple(alt.path))
        if depth < len(alt.path) or any(c.move is not None and c.move.usi() == alt.move for c in node.children):
            continue  # off the tree, or already shown as a variation
        pos = start.copy()
        for usi in alt.path:
            pos.push(Move.from_usi(usi))
        child = RecordNode(move=parse_move(pos, alt.move))
        child.comments.append(f"余詰：{alt.length}手以内で詰み" if alt.length is not None else "余詰")
        node.children.append(child)
    if not getattr(proof, "alternatives_checked", True):
        record.root.comments.append("余詰は未検討（探索の時間切れ）")
    return record

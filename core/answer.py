"""The solution of a problem as a record: the proof tree, or a main line, as a :class:`Record`.

The one place where the solvers' answers (:mod:`.search.proof`) meet the
record model (:mod:`.records.model`): the command line and the GUI both
export through :func:`solution_record`.  May import ``core.shogi``,
``core.records`` and ``core.search``.
"""

from __future__ import annotations

from .records.model import Record, RecordNode
from .search.contract import SolveResult, SolveStatus
from .search.proof import HelpmateAnswer, Proof, ProofNode, Role
from .shogi.moves import Move, japanese, parse_move
from .shogi.position import Position
from .shogi.types import KANJI_MOVE

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
    where it was pruned, e.g. ``無駄合：△２三歩打（取って返しても1手詰）``.  Lines ending in
    checkmate get a ``詰み`` terminal.
    ``header`` keys come first; ``手数`` defaults to the proof's length.

    Raises:
        ValueError: a move of the proof is not legal where it stands.
    """
    start = Position.from_sfen(proof.sfen)
    record = Record(start=start.copy(), header=dict(header or {}))
    record.header.setdefault("手数", str(proof.length))
    futile_keys = {(tuple(f.path), m) for f in proof.futile for m in (f.moves or (f.move,))}
    if proof.root.children:
        _convert(proof.root, start.copy(), record.root, futile_keys, (), start)
    elif proof.main_line:
        _append_line(record, proof.main_line)
    for f in proof.futile:
        node, depth = _find(record.root, start, tuple(f.path))
        moves = f.moves or (f.move,)
        if depth < len(f.path):  # off the tree: name the whole line
            text = _line_japanese(start, tuple(f.path[:depth]), tuple(f.path[depth:]) + (f.move,))
            node.comments.append(f"無駄合：{text}（{f.reason.japanese()}）")
        else:
            node.comments.append(_futile_text(start, tuple(f.path), moves, f.reason.japanese()))
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
    if not proof.alternatives_checked:
        record.root.comments.append("余詰は未検討（探索の時間切れ）")
    return record


def _append_line(record: Record, line: tuple[str, ...]) -> None:
    """Play the USI moves of ``line`` from the record's start as its main line (詰み when mated)."""
    pos, node = record.start.copy(), record.root
    for usi in line:
        mv = parse_move(pos, usi)
        child = RecordNode(move=mv)
        node.children.append(child)
        node = child
        pos.push(mv)
    if _is_mate(pos):
        node.children.append(RecordNode(special="詰み"))


def record_from_line(sfen: str, line: tuple[str, ...], header: dict[str, str] | None = None) -> Record:
    """A record of the start position ``sfen`` and the main line ``line`` (USI), no variations.

    ``手数`` defaults to the line's length; a line that ends in checkmate gets
    a ``詰み`` terminal.

    Raises:
        ValueError: the SFEN is malformed or a move is not legal where it stands.
    """
    record = Record(start=Position.from_sfen(sfen), header=dict(header or {}))
    record.header.setdefault("手数", str(len(line)))
    _append_line(record, line)
    return record


def record_from_helpmate(answer: HelpmateAnswer, header: dict[str, str] | None = None) -> Record:
    """The shortest helpmates of ``answer`` as a :class:`Record`: the first solution is the
    main line, every other one a variation (変化) from the ply where it leaves the lines before it.

    ``手数`` defaults to the helpmate's length.  The start's comment says when
    other solutions were not looked for, or when there are more than listed.

    Raises:
        ValueError: the SFEN is malformed or a move is not legal where it stands.
    """
    record = Record(start=Position.from_sfen(answer.sfen), header=dict(header or {}))
    record.header.setdefault("手数", str(answer.length))
    for line in answer.solutions:
        pos, node = record.start.copy(), record.root
        for usi in line:
            mv = parse_move(pos, usi)
            child = next((c for c in node.children if c.move == mv), None)
            if child is None:
                child = RecordNode(move=mv)
                node.children.append(child)
            node = child
            pos.push(mv)
        if _is_mate(pos) and not node.children:
            node.children.append(RecordNode(special="詰み"))
    if not answer.alternatives_checked:
        record.root.comments.append("別解は未検討（探索の時間切れ）")
    elif answer.capped:
        record.root.comments.append(f"同手数の解は{len(answer.solutions)}通り以上（一部のみ記載）")
    return record


def proved_length(result: SolveResult) -> int | None:
    """The mate's length in plies when the search proved it the shortest; None otherwise (or no mate)."""
    if result.status is not SolveStatus.MATE:
        return None
    proof = result.proof
    exact = isinstance(proof, (Proof, HelpmateAnswer)) and proof.exact
    if isinstance(result.extra, dict):
        exact = bool(result.extra.get("exact", exact))
    if not exact:
        return None
    return result.length if result.length is not None else len(result.pv)


def solution_record(result: SolveResult, header: dict[str, str] | None = None) -> Record:
    """The record of a solved problem: the proof tree when there is one (a helpmate's
    other shortest solutions as variations), else the main line.

    Raises:
        ValueError: the search found no mate; or a move of the answer is not legal.
    """
    if result.status is not SolveStatus.MATE:
        raise ValueError(f"no solution: the search ended with {result.status.value!r}")
    if isinstance(result.proof, Proof):
        return record_from_proof(result.proof, header)
    if isinstance(result.proof, HelpmateAnswer) and result.proof.solutions:
        return record_from_helpmate(result.proof, header)
    return record_from_line(result.sfen, result.pv, header)


__all__ = ["proved_length", "record_from_helpmate", "record_from_line", "record_from_proof", "solution_record"]

"""The solution of a problem as a record: the proof tree, or a main line, as a :class:`Record`.

The one place where the solvers' answers (:mod:`.search.proof`) meet the
record model (:mod:`.records.model`): the command line and the GUI both
export through :func:`solution_record`.  May import ``core.shogi``,
``core.records`` and ``core.search``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import cast

from .records.model import Record, RecordNode
from .search.contract import SolveResult, SolveStatus
from .search.proof import FutileInterposition, HelpmateAnswer, Proof, ProofNode, Role
from .shogi.moves import Move, japanese, parse_move
from .shogi.position import Position
from .shogi.types import KANJI_MOVE

_ORDER = {"main": 0, "variation": 1, "alternative": 2, "futile": 3}


# ---- how composers name what the answer holds ----------------------------------------

#: The names composers give each kind of :class:`Finding`.
FINDING_NAMES = {"alternative": "余詰", "promotion_choice": "成不成非限定", "same_length": "変同",
                 "pieces_left": "駒余り"}


@dataclass(frozen=True, slots=True)
class Finding:
    """Something a composer names in a solution, at the move ``path`` + ``move`` (USI from the start).

    ``kind`` is one of :data:`FINDING_NAMES`:

    * ``alternative`` (余詰): another attacker move, not the main move with the
      other promotion choice, also mates within the plies left;
    * ``promotion_choice`` (成不成非限定): the main move with the other
      promotion choice also mates within them;
    * ``same_length`` (変同): a defence off the main line lasts as long as the
      main line's and ends with nothing in the attacker's hand;
    * ``pieces_left`` (駒余り): a line that ends with pieces in the attacker's
      hand: the main line itself (``move`` its last move), or a defence as long
      as the main line's (so not 変同).

    ``length`` is the plies to mate after ``move`` where known.
    """

    kind: str
    path: tuple[str, ...]
    move: str
    length: int | None = None

    def japanese(self) -> str:
        """The composer's name of the finding: ``余詰``, ``成不成非限定``, ``変同``, ``駒余り``."""
        return FINDING_NAMES.get(self.kind, self.kind)


def promotion_twins(a: str, b: str) -> bool:
    """True when USI moves ``a`` and ``b`` are the same board move with the other promotion choice."""
    return a != b and "*" not in a and a.rstrip("+") == b.rstrip("+")


def _main_move(proof: Proof, path: tuple[str, ...]) -> str | None:
    """The main line's move after ``path`` when ``path`` is a main-line prefix, else None."""
    line = proof.main_line
    return line[len(path)] if tuple(line[:len(path)]) == path and len(path) < len(line) else None


def classify_alternatives(proof: Proof) -> tuple[Finding, ...]:
    """Each of ``proof.alternatives`` as 余詰 or 成不成非限定, in ply order, without repeats."""
    out: dict[tuple[tuple[str, ...], str], Finding] = {}
    for a in proof.alternatives:
        main = _main_move(proof, tuple(a.path))
        kind = "promotion_choice" if main is not None and promotion_twins(a.move, main) else "alternative"
        out.setdefault((tuple(a.path), a.move), Finding(kind, tuple(a.path), a.move, a.length))
    return tuple(sorted(out.values(), key=lambda f: len(f.path)))   # stable: the search's order within a ply


def _pieces_left_after(start: Position, line: tuple[str, ...]) -> bool:
    """True when the attacker (the side to move at ``start``) still holds pieces after ``line``."""
    pos = start.copy()
    for usi in line:
        pos.push(parse_move(pos, usi))
    return any(pos.hand(start.turn))


def _leaf_line(node: ProofNode) -> tuple[str, ...]:
    """The moves of ``node``'s first-child line (its own answer), ``node.move`` first."""
    out: list[str] = [node.move] if node.move is not None else []
    while True:
        kids = [c for c in node.children if Role(c.role) in (Role.MAIN, Role.VARIATION)]
        if not kids:
            return tuple(out)
        node = kids[0]
        assert node.move is not None
        out.append(node.move)


def classify_variations(proof: Proof) -> tuple[Finding, ...]:
    """変同 and 駒余り along the main line, in ply order.

    At each defence of the main line, another defence whose line is as long
    as the main line's is 変同 when it ends with nothing in the attacker's
    hand, 駒余り when it does not; and the main line itself is 駒余り when it
    ends with pieces in the attacker's hand.  Longer searches of variations
    within variations are not made: what the proof tree holds is read.

    Raises:
        ValueError: a move of the proof is not legal where it stands.
    """
    start = Position.from_sfen(proof.sfen)
    out: list[Finding] = []
    node, path = proof.root, cast(tuple[str, ...], ())
    while True:
        kids = [c for c in node.children if Role(c.role) in (Role.MAIN, Role.VARIATION)]
        main = next((c for c in kids if Role(c.role) is Role.MAIN), None)
        if main is None or main.move is None:
            break
        if len(path) % 2 == 1 and main.length is not None:   # a defence: the defender is to move
            for other in kids:
                if other is main or other.move is None or other.length != main.length:
                    continue
                line = path + _leaf_line(other)
                kind = "pieces_left" if _pieces_left_after(start, line) else "same_length"
                out.append(Finding(kind, path, other.move, other.length))
        node, path = main, path + (main.move,)
    # An unproved line's leftover pieces say nothing of the problem's main line.
    if not proof.provisional and proof.main_line and _pieces_left_after(start, tuple(proof.main_line)):
        out.append(Finding("pieces_left", tuple(proof.main_line[:-1]), proof.main_line[-1], 0))
    return tuple(sorted(out, key=lambda f: (len(f.path), f.path, f.move)))


def ordered_futile(proof: Proof) -> tuple[FutileInterposition, ...]:
    """``proof.futile`` in ply order (the main line's first at each ply), each square's
    interpositions once per position."""
    seen: dict[tuple[tuple[str, ...], frozenset[str]], FutileInterposition] = {}
    for f in proof.futile:
        seen.setdefault((tuple(f.path), frozenset(f.moves or (f.move,))), f)
    main = tuple(proof.main_line)
    # A stable sort: at one position the interpositions keep the order the search found them in.
    return tuple(sorted(seen.values(), key=lambda f: (len(f.path), tuple(main[:len(f.path)]) != tuple(f.path))))


def branch_of(proof: Proof, path: tuple[str, ...]) -> tuple[int, str] | None:
    """Where ``path`` leaves the main line: (1-based ply, USI move) of its first move off it,
    or None when ``path`` follows the main line."""
    for i, usi in enumerate(path):
        if i >= len(proof.main_line) or proof.main_line[i] != usi:
            return i + 1, usi
    return None


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
    """Copy the children of ``pnode`` (played from ``pos``) under ``rnode``, and theirs below.

    Walked with a work list, not recursion: a proof may be more than a thousand plies deep.
    """
    # Work items: (a node to copy the children of, its record node, its path, its move to play first),
    # or None: take that move back once its subtree is done.
    work: list[tuple[ProofNode, RecordNode, tuple[str, ...], Move | None] | None] = [(pnode, rnode, path, None)]
    while work:
        item = work.pop()
        if item is None:
            pos.pop()
            continue
        pnode, rnode, path, played = item
        if played is not None:
            pos.push(played)
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
        main_move = next((c.move for c in kids if Role(c.role) == Role.MAIN), None)
        below: list[tuple[ProofNode, RecordNode, tuple[str, ...], Move | None]] = []
        for child in kids:
            assert child.move is not None
            if Role(child.role) == Role.FUTILE:
                continue
            move = parse_move(pos, child.move)
            node = RecordNode(move=move)
            own = child.comment
            if Role(child.role) == Role.ALTERNATIVE:
                # The main move with the other promotion choice is 成不成非限定, not 余詰.
                name = "成不成非限定" if main_move is not None and promotion_twins(child.move, main_move) else "余詰"
                node.comments.append(f"{name}：{child.length + 1}手で詰み" if child.length is not None else name)
                own = "" if own == "余詰" else own
            if own and not any(own in c for c in node.comments):
                node.comments.append(own)
            rnode.children.append(node)
            # Mate: the proof says so (length 0), or every defence left is a futile
            # interposition (tsume rules), or there is no legal reply.
            counted = any(Role(c.role) != Role.FUTILE for c in child.children)
            only_futile = not counted and (
                bool(child.children) or any(p == path + (child.move,) for p, _ in futile_keys))
            if not counted:
                pos.push(move)
                if child.length == 0 or only_futile or _is_mate(pos):
                    node.children.append(RecordNode(special="詰み"))
                pos.pop()
            if child.children:
                below.append((child, node, path + (child.move,), move))
        for entry in reversed(below):   # the first child's subtree next: the list is taken from its end
            work.append(None)
            work.append(entry)


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
    is a variation on the attacker's ply with a ``余詰`` comment, or
    ``成不成非限定`` for the main move with the other promotion choice; a
    defence as long as the main line's is marked ``変同`` (or ``駒余り`` when
    it ends with pieces in the attacker's hand), and so is a main line that
    ends with pieces in hand (:func:`classify_variations`); each futile
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
    for f in ordered_futile(proof):
        node, depth = _find(record.root, start, tuple(f.path))
        moves = f.moves or (f.move,)
        if depth < len(f.path):  # off the tree: name the whole line
            text = _line_japanese(start, tuple(f.path[:depth]), tuple(f.path[depth:]) + (f.move,))
            node.comments.append(f"無駄合：{text}（{f.reason.japanese()}）")
        else:
            node.comments.append(_futile_text(start, tuple(f.path), moves, f.reason.japanese()))
    for alt in classify_alternatives(proof):
        node, depth = _find(record.root, start, tuple(alt.path))
        if depth < len(alt.path) or any(c.move is not None and c.move.usi() == alt.move for c in node.children):
            continue  # off the tree, or already shown as a variation
        pos = start.copy()
        for usi in alt.path:
            pos.push(Move.from_usi(usi))
        child = RecordNode(move=parse_move(pos, alt.move))
        name = alt.japanese()
        child.comments.append(f"{name}：{alt.length}手以内で詰み" if alt.length is not None else name)
        node.children.append(child)
    for finding in classify_variations(proof):
        node, depth = _find(record.root, start, tuple(finding.path) + (finding.move,))
        if depth == len(finding.path) + 1:
            text = ("駒余り（詰め上がりで攻方の持駒が余る）" if finding.length == 0
                    else f"{finding.japanese()}（本譜と同手数）")
            if text not in node.comments:
                node.comments.append(text)
    if proof.provisional:
        record.root.comments.append(unproved_note_japanese(proof))
    if not proof.tree_complete:
        record.root.comments.append(TREE_CUT_JAPANESE)
    if not proof.alternatives_checked:
        record.root.comments.append(alternatives_unchecked_japanese(proof))
    return record


TREE_CUT_ENGLISH = ("variations: not all measured (the time ran out after the main line was built); "
                    "one without its length shows the bound proved and df-pn's line")
"""What the CLI says of an answer whose tree was cut short (``proof.tree_complete`` False)."""
TREE_CUT_JAPANESE = "変化の手数は一部未計測（本譜を作った後で時間切れ）：未計測の変化には証明済みの上限とdf-pnの手順"
"""The same for a record's comment."""


def alternatives_unchecked_english(proof: Proof) -> str:
    """What a 余詰 search cut short established, for the CLI (``proof.alternatives_checked`` False)."""
    if proof.alternatives_checked_to > 0:
        return (f"余詰: checked up to ply {proof.alternatives_checked_to} of {proof.length} "
                "(the search for alternative mates ran out of time after that)")
    return "余詰: not checked (the search for alternative mates ran out of time)"


def alternatives_unchecked_japanese(proof: Proof) -> str:
    """The same for a record's comment."""
    if proof.alternatives_checked_to > 0:
        return f"余詰は{proof.alternatives_checked_to}手目まで検討（以降は探索の時間切れで未検討）"
    return "余詰は未検討（探索の時間切れ）"


def bounds_meet(at_least: object, at_most: object) -> int | None:
    """The length a stopped length search proved from both sides (its bounds met), else None."""
    return at_most if isinstance(at_most, int) and at_least == at_most else None


def bounds_japanese(at_least: int | None, at_most: int | None) -> str:
    """``証明済み: 41手以内、37手以上`` (the proved bounds of a length not proved shortest), or ``""``."""
    if bounds_meet(at_least, at_most) is not None:
        return f"証明済み: {at_most}手（その手順は時間内に作れず）"
    parts = []
    if at_most is not None:
        parts.append(f"{at_most}手以内")
    if at_least is not None and at_least > 1:
        parts.append(f"{at_least}手以上")
    return "証明済み: " + "、".join(parts) if parts else ""


def bounds_english(at_least: int | None, at_most: int | None) -> str:
    """``proved: at most 41 plies, at least 37`` (as :func:`bounds_japanese`), or ``""``."""
    if bounds_meet(at_least, at_most) is not None:
        return f"proved: the length {at_most} (its line was not built in time)"
    parts = []
    if at_most is not None:
        parts.append(f"at most {at_most} plies")
    if at_least is not None and at_least > 1:
        parts.append(f"at least {at_least}")
    return "proved: " + ", ".join(parts) if parts else ""


def unproved_note_japanese(proof: Proof) -> str:
    """The KIF comment of an answer not finished in time (:mod:`.search.provisional`): its length
    proved shortest or only bounded, its line df-pn's."""
    line = f"本譜はdf-pnの手順（{len(proof.main_line)}手、受けが最長とは限らない）、無駄合は見つかったもののみ"
    proved = bounds_meet(proof.at_least, proof.at_most)
    if proved is not None:
        return f"{proved}手が最短と証明済み、正式な本譜は時間内に作れず：" + line
    bounds = bounds_japanese(proof.at_least, proof.at_most)
    return "最短は未証明：" + line + (f"（{bounds}）" if bounds else "")


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
        node, pos, _added = record.grow(line)
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


def with_comments(solution: Record, own: Record) -> Record:
    """``solution`` with the comments of the user's record ``own`` (same start) kept.

    The start comment, and the comment of every move of ``own`` that the
    solution also plays along the same line, come first; the solution's own
    comments (余詰, 無駄合...) follow, each once.  ``own``'s header is not read
    (the caller gives the exported header).  A record from another start is
    ignored.
    """
    if own.start != solution.start:
        return solution
    stack = [(solution.root, own.root)]
    while stack:
        mine, theirs = stack.pop()
        mine.comments = list(dict.fromkeys(list(theirs.comments) + list(mine.comments)))
        for child in theirs.children:
            if child.move is None:
                continue
            same = next((c for c in mine.children if c.move == child.move), None)
            if same is not None:
                stack.append((same, child))
    return solution


__all__ = ["FINDING_NAMES", "Finding", "alternatives_unchecked_english", "alternatives_unchecked_japanese",
           "branch_of", "classify_alternatives", "classify_variations", "ordered_futile",
           "promotion_twins", "proved_length", "record_from_helpmate", "record_from_line", "record_from_proof",
           "solution_record", "with_comments", "bounds_english", "bounds_japanese", "bounds_meet",
           "unproved_note_japanese"]

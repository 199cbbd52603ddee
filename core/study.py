"""The study board without Qt: a cursor over a record's move tree, and why a move is illegal.

:class:`StudyTree` walks and grows the same :class:`~.records.model.Record`
the KIF reader returns, so 変化 and comments written by the user round-trip
through the record formats.  :func:`illegal_reason` names the rule a refused
move breaks.  :func:`merge_record` places a solver's answer (a record made by
:mod:`.answer`) into a tree without losing the lines already there.
May import ``core.shogi`` and ``core.records``.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from .records.model import Record, RecordNode
from .shogi.moves import Move, attackers, is_legal, japanese
from .shogi.position import IllegalPositionError, Position
from .shogi.types import (
    HAND_INDEX, KING, KNIGHT, LANCE, PAWN, PROMOTE, make_piece, opponent, piece_color, piece_type,
    relative_rank, square_file,
)


class IllegalReason(enum.Enum):
    """Why a move is refused; the value is the English text shown to the user."""

    INVALID_POSITION = "no moves can be played in this position"
    NO_PIECE = "there is no piece on that square"
    NOT_OWN_PIECE = "that piece belongs to the side not to move"
    NOT_IN_HAND = "that piece is not in hand"
    OCCUPIED = "a piece can only be dropped on an empty square"
    OWN_PIECE_ON_TARGET = "the square holds a piece of the side to move"
    UNREACHABLE = "the piece cannot reach that square"
    CANNOT_PROMOTE = "the piece cannot promote on this move"
    MUST_PROMOTE = "the piece must promote: it could never move again"
    DEAD_DROP = "a piece dropped there could never move"
    NIFU = "two pawns on one file (nifu)"
    PAWN_DROP_MATE = "checkmate by a pawn drop (uchifuzume)"
    SELF_CHECK = "the move leaves the own king in check"


def _dead_rank(pt: int, rank: int) -> bool:
    """True when a piece of type ``pt`` on relative ``rank`` could never move."""
    return (pt in (PAWN, LANCE) and rank == 1) or (pt == KNIGHT and rank <= 2)


def illegal_reason(position: Position, move: Move) -> IllegalReason | None:
    """Why ``move`` is illegal in ``position``, or None when it is legal.

    The rules are checked in the order a player would think of them: the
    piece (on the square, of the side to move, in hand), the target square,
    the piece's reach, promotion, 二歩, then the king (打ち歩詰, own king left
    in check).  Legality itself is cshogi's (:func:`~.shogi.moves.is_legal`).
    """
    try:
        if is_legal(position, move) and not (move.drop is not None and move.promotion):
            return None
    except IllegalPositionError:
        return IllegalReason.INVALID_POSITION
    color = position.turn
    to = move.to_square
    target = position.piece_at(to)
    if move.drop is not None:
        pt = move.drop
        if pt == KING or position.hand(color)[HAND_INDEX[pt]] == 0:
            return IllegalReason.NOT_IN_HAND
        if target:
            return IllegalReason.OCCUPIED
        if move.promotion:
            return IllegalReason.CANNOT_PROMOTE
        if _dead_rank(pt, relative_rank(color, to)):
            return IllegalReason.DEAD_DROP
        if pt == PAWN and any(
                position.piece_at((square_file(to) - 1) * 9 + r) == make_piece(color, PAWN)
                for r in range(9)):
            return IllegalReason.NIFU
        if pt == PAWN and _mates_by_pawn_drop(position, move):
            return IllegalReason.PAWN_DROP_MATE
        return IllegalReason.SELF_CHECK
    assert move.from_square is not None
    frm = move.from_square
    piece = position.piece_at(frm)
    if not piece:
        return IllegalReason.NO_PIECE
    if piece_color(piece) != color:
        return IllegalReason.NOT_OWN_PIECE
    if target and piece_color(target) == color:
        return IllegalReason.OWN_PIECE_ON_TARGET
    if frm not in attackers(position, to, color):
        return IllegalReason.UNREACHABLE
    pt = piece_type(piece)
    in_zone = relative_rank(color, frm) <= 3 or relative_rank(color, to) <= 3
    if move.promotion and (pt not in PROMOTE or not in_zone):
        return IllegalReason.CANNOT_PROMOTE
    if not move.promotion and _dead_rank(pt, relative_rank(color, to)):
        return IllegalReason.MUST_PROMOTE
    return IllegalReason.SELF_CHECK


def _mates_by_pawn_drop(position: Position, move: Move) -> bool:
    """True when the pawn drop ``move`` gives check and leaves the opponent no legal move."""
    board = position.board().copy()
    m = board.drop_move(move.to_square, PAWN)  # cshogi's piece types are the core's
    board.push(m)
    king = position.king_square(opponent(position.turn))
    if king is None:
        return False
    return bool(board.is_check()) and not any(True for _ in board.legal_moves)


def promotion_choices(position: Position, frm: int, to: int) -> list[bool]:
    """The legal promotion flags of the board move ``frm`` → ``to``: ``[]``, ``[False]``,
    ``[True]`` or ``[True, False]`` (the user must choose)."""
    return [p for p in (True, False) if is_legal(position, Move(frm, to, p))]


# ---- the tree ---------------------------------------------------------------

Path = tuple[int, ...]


class StudyMoveError(ValueError):
    """A move refused by :meth:`StudyTree.play`, with its :class:`IllegalReason`."""

    def __init__(self, move: Move, reason: IllegalReason) -> None:
        self.move = move
        self.reason = reason
        super().__init__(f"illegal move {move.usi()}: {reason.value}")


def _move_children(node: RecordNode) -> list[int]:
    """Indexes of the children that are moves (terminal words such as 詰み excluded)."""
    return [i for i, c in enumerate(node.children) if c.move is not None]


class StudyTree:
    """A cursor over the move tree of ``record``, which it edits in place.

    The cursor is a path of child indexes from the root (``()`` is the start
    position).  The *line* is the path the cursor last went down, kept while
    stepping back so that stepping forward again stays in a variation.
    """

    def __init__(self, record: Record) -> None:
        self.record = record
        self._path: list[int] = []
        self._line: list[int] = []

    # ---- where the cursor is -------------------------------------------------

    def path(self) -> Path:
        """The cursor: child indexes from the root."""
        return tuple(self._path)

    def ply(self) -> int:
        """Moves from the start to the cursor."""
        return len(self._path)

    def node(self, path: Path | None = None) -> RecordNode:
        """The node at ``path`` (the cursor by default).

        Raises:
            IndexError: no such node.
        """
        node = self.record.root
        for i in self._path if path is None else path:
            node = node.children[i]
        return node

    def nodes(self, path: Path | None = None) -> list[RecordNode]:
        """The nodes along ``path`` (the cursor by default), root excluded."""
        node, out = self.record.root, []
        for i in self._path if path is None else path:
            node = node.children[i]
            out.append(node)
        return out

    def moves(self, path: Path | None = None) -> list[Move]:
        """The moves from the start to ``path`` (the cursor by default)."""
        return [n.move for n in self.nodes(path) if n.move is not None]

    def position(self, path: Path | None = None) -> Position:
        """The position at ``path`` (the cursor by default)."""
        pos = self.record.start.copy()
        for mv in self.moves(path):
            pos.push(mv)
        return pos

    def last_move(self) -> Move | None:
        """The move that led to the cursor (None at the start)."""
        return self.node().move if self._path else None

    def line(self) -> Path:
        """The whole current line: the cursor's path continued to its end."""
        path = list(self._line) if self._line[:len(self._path)] == self._path else list(self._path)
        node = self.node(tuple(path))
        while True:
            kids = _move_children(node)
            if not kids:
                return tuple(path)
            path.append(kids[0])
            node = node.children[kids[0]]

    def variations(self) -> list[int]:
        """Indexes of the moves among which the cursor's move was chosen (itself included)."""
        if not self._path:
            return []
        return _move_children(self.node(tuple(self._path[:-1])))

    def japanese(self, path: Path | None = None) -> list[str]:
        """Japanese text (``▲２三飛打``, ``△同　玉``) of each move to ``path``."""
        pos, out, prev = self.record.start.copy(), [], None
        for mv in self.moves(path):
            out.append(japanese(pos, mv, prev))
            pos.push(mv)
            prev = mv.to_square
        return out

    # ---- moving the cursor ----------------------------------------------------

    def go_to(self, path: Path) -> None:
        """Put the cursor on ``path``.

        Raises:
            IndexError: ``path`` names no move of the tree.
        """
        node = self.record.root
        for i in path:
            if not 0 <= i < len(node.children) or node.children[i].move is None:
                raise IndexError(f"no move at path {path!r}")
            node = node.children[i]
        self._path = list(path)
        if self._line[:len(path)] != self._path:
            self._line = list(path)

    def go_start(self) -> None:
        """The start position (the line is kept for stepping forward)."""
        self._path = []

    def go_end(self) -> None:
        """The last move of the current line."""
        self.go_to(self.line())

    def go_ply(self, ply: int) -> None:
        """Move ``ply`` of the current line (clamped to the line)."""
        self.go_to(self.line()[:max(0, ply)])

    def forward(self) -> bool:
        """One move on along the current line; False at its end."""
        line = self.line()
        if len(line) <= len(self._path):
            return False
        self.go_to(line[:len(self._path) + 1])
        return True

    def back(self) -> bool:
        """One move back (staying on the line); False at the start."""
        if not self._path:
            return False
        self._path.pop()
        return True

    def switch(self, delta: int) -> bool:
        """The previous (``-1``) or next (``+1``) variation of the cursor's move; False if none."""
        kids = self.variations()
        if not kids:
            return False
        k = kids.index(self._path[-1]) + delta
        if not 0 <= k < len(kids):
            return False
        self._path[-1] = kids[k]
        self._line = list(self._path)
        return True

    # ---- changing the tree ----------------------------------------------------

    def play(self, move: Move) -> bool:
        """Play ``move`` at the cursor: go to the child with that move, or add it as
        the last variation.  True when a node was added.

        Raises:
            StudyMoveError: the move is illegal here (with the reason).
        """
        pos = self.position()
        reason = illegal_reason(pos, move)
        if reason is not None:
            raise StudyMoveError(move, reason)
        node = self.node()
        for i, child in enumerate(node.children):
            if child.move == move:
                self.go_to(self.path() + (i,))
                return False
        node.children.append(RecordNode(move=move))
        self.go_to(self.path() + (len(node.children) - 1,))
        return True

    def promote(self) -> bool:
        """Make the cursor's line the main line (first child at every branch); False if it is."""
        changed, node = False, self.record.root
        for depth, i in enumerate(self._path):
            if i != 0:
                node.children.insert(0, node.children.pop(i))
                changed = True
                if self._line[:depth + 1] == self._path[:depth + 1]:
                    self._line[depth] = 0
                self._path[depth] = 0
            node = node.children[0]
        return changed

    def delete(self) -> bool:
        """Delete the cursor's move and everything after it; the cursor goes back one move.

        False at the start (the start position cannot be deleted).
        """
        if not self._path:
            return False
        i = self._path.pop()
        del self.node().children[i]
        self._line = list(self._path)
        return True

    def comment(self) -> str:
        """The comment at the cursor (lines joined by newlines)."""
        return "\n".join(self.node().comments)

    def set_comment(self, text: str) -> bool:
        """Replace the comment at the cursor (an empty text removes it); True if it changed."""
        new = [text.rstrip("\n")] if text.strip() else []
        node = self.node()
        if node.comments == new or (not new and not node.comments):
            return False
        node.comments = new
        return True

    def merge(self, other: Record, path: Path = ()) -> int:
        """Merge ``other`` into this tree at ``path`` (its start is the position there);
        see :func:`merge_record`."""
        return merge_record(self.record, other, path)


def merge_record(record: Record, other: Record, path: Path = ()) -> int:
    """Add every line of ``other`` to ``record``'s tree at ``path``; return how many nodes were added.

    ``other`` starts from the position at ``path`` (the record's start by
    default): an answer found from a position reached in the record goes
    under that move.  ``other``'s header is not merged.

    Moves already present are reused (their comments gain ``other``'s
    comments that they lack); new moves and terminal words become the last
    variations of their parent, so the user's lines keep their order and the
    main line stays the main line when there was one.

    Raises:
        ValueError: ``other`` does not start from the position at ``path``, or
            ``path`` names no move of the record.
    """
    try:
        tree = StudyTree(record)
        tree.go_to(path)
    except IndexError as e:
        raise ValueError(f"the record has no move at {path!r}") from e
    if tree.position() != other.start:
        raise ValueError("the answer starts from another position than the record")
    added = 0
    stack = [(tree.node(), other.root)]
    while stack:
        mine, theirs = stack.pop()
        for c in theirs.comments:
            if c not in mine.comments:
                mine.comments.append(c)
        for child in theirs.children:
            same = next((m for m in mine.children
                         if m.move == child.move and m.special == child.special), None)
            if same is None:
                same = RecordNode(move=child.move, special=child.special)
                mine.children.append(same)
                added += 1
                added += _count(child) - 1
                _copy_into(same, child)
                continue
            stack.append((same, child))
    return added


def _count(node: RecordNode) -> int:
    n, stack = 0, [node]
    while stack:
        x = stack.pop()
        n += 1
        stack.extend(x.children)
    return n


def _copy_into(dst: RecordNode, src: RecordNode) -> None:
    """Copy ``src``'s comments and subtree into the empty ``dst``."""
    stack = [(dst, src)]
    while stack:
        d, s = stack.pop()
        d.comments = list(s.comments)
        for c in s.children:
            n = RecordNode(move=c.move, special=c.special)
            d.children.append(n)
            stack.append((n, c))


def add_line(record: Record, line: tuple[str, ...] | list[str], comment: str = "") -> bool:
    """Add ``line`` (USI moves from the record's start) to the tree, reusing the moves there,
    and ``comment`` on its last node (the start for an empty line); True when the record changed.

    New moves become the last variation of their parent, so the main line stays.

    Raises:
        ValueError: a move of ``line`` is not legal where it is played.
    """
    node, _pos, changed = record.grow(line)
    if comment and comment not in node.comments:
        node.comments.append(comment)
        changed = True
    return changed


@dataclass(frozen=True)
class Row:
    """One row of a record panel: the path of a move, its ply, its text, whether it has 変化."""

    path: Path
    ply: int
    text: str
    branched: bool


def line_rows(tree: StudyTree) -> list[Row]:
    """The rows of the current line: the start, then each move with its Japanese text.

    ``branched`` marks a move that has other variations beside it.
    """
    line = tree.line()
    texts = tree.japanese(line)
    rows = [Row((), 0, "", False)]
    node = tree.record.root
    for ply, (i, text) in enumerate(zip(line, texts), start=1):
        branched = len(_move_children(node)) > 1
        node = node.children[i]
        rows.append(Row(line[:ply], ply, text, branched))
    return rows


def terminal(tree: StudyTree) -> str | None:
    """The terminal word (``詰み``, ``投了``...) at the end of the current line, if any."""
    node = tree.node(tree.line())
    return next((c.special for c in node.children if c.special is not None), None)


__all__ = [
    "IllegalReason", "Path", "Row", "StudyMoveError", "StudyTree", "add_line", "illegal_reason", "line_rows",
    "merge_record", "promotion_choices", "terminal",
]

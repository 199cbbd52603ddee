"""Item models for the search and its answer: the live pn/dn tree and the proof tree.

Models only, no widgets (qutebrowser's habit): :class:`SearchTreeModel`
grows from the solver's frozen Progress snapshots while a search runs;
:class:`ProofTreeModel` shows a finished :class:`~tsume_studio.core.search.proof.Proof`.
Both show each move in Japanese notation, computed from the start position.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, overload

from PySide6.QtCore import QAbstractItemModel, QModelIndex, QObject, QPersistentModelIndex, Qt, Slot
from PySide6.QtGui import QBrush, QColor, QFont, QStandardItem, QStandardItemModel

from ..core.answer import promotion_twins
from ..core.shogi.moves import Move, japanese, parse_move
from ..core.shogi.position import Position
from ..core.search.proof import Proof, ProofNode, Role
from ..core.search.contract import INFINITY, ChildInfo, Progress
from . import i18n
from .i18n import add_translations, tr

COL_MOVE, COL_PN, COL_DN = 0, 1, 2
COL_ROLE = 3          # proof tree only
COL_LENGTH = 4        # proof tree only

# Extra data roles.
PATH_ROLE = Qt.ItemDataRole.UserRole + 1        # tuple[str, ...]: USI moves from the start
ON_PATH_ROLE = Qt.ItemDataRole.UserRole + 2     # bool: on the current search path / main line
ROLE_ROLE = Qt.ItemDataRole.UserRole + 3        # core.proof.Role of a proof node
MOVE_ROLE = Qt.ItemDataRole.UserRole + 4        # str: the node's USI move (search tree)
RANK_ROLE = Qt.ItemDataRole.UserRole + 5        # int: the search's ranking among siblings

_UNRANKED = 1_000_000   # rank of children no snapshot has ranked yet
_RIGHT = Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter

_PATH_BRUSH = QBrush(QColor("#ffe9a8"))
_MAIN_BRUSH = QBrush(QColor("#e3f0ff"))
_FUTILE_BRUSH = QBrush(QColor("#888888"))

add_translations("ja", {
    "Move": "指し手",
    "Role": "種別",
    "To mate": "残り手数",
    "main line": "本手順",
    "variation": "変化",
    "futile": "無駄合",
    "alternative (余詰)": "余詰",
    "promotion choice (成不成非限定)": "成不成非限定",
    "Start": "開始局面",
})

_ROLE_TEXT = {Role.MAIN: "main line", Role.VARIATION: "variation", Role.FUTILE: "futile",
              Role.ALTERNATIVE: "alternative (余詰)"}
# An alternative that is the main move with the other promotion choice (core.answer.promotion_twins).
_TWIN_TEXT = "promotion choice (成不成非限定)"


def common_role_texts() -> list[str]:
    """The role column's usual words (main line, variation, futile), translated: what it is sized to."""
    return [tr(_ROLE_TEXT[r]) for r in (Role.MAIN, Role.VARIATION, Role.FUTILE)]


def common_move_texts() -> list[str]:
    """The usual longest moves (a promotion, a drop, 同 with a two-character piece): what the live tree keeps room for.

    A rarer, longer one (``▲３二銀不成``) may be cut at the tree's edge; its tooltip has it whole.
    """
    return ["▲９一飛成", "▲９九金打", "△同　成銀"]


def number_text(n: int) -> str:
    """pn/dn for display: ``∞`` for the solver's infinity."""
    return "∞" if n >= INFINITY else str(n)


def compact_number(n: int) -> str:
    """A number in at most four characters for a narrow column: ``987``, ``1.2k``, ``34k``, ``1.2M``.

    Three significant figures at most, rounded; ``∞`` for the solver's infinity.
    """
    if n >= INFINITY:
        return "∞"
    if n < 0:
        return "-" + compact_number(-n)
    if n < 1000:
        return str(n)
    value = float(n)
    for suffix in ("k", "M", "G", "T", "P"):
        value /= 1000
        if value < 9.95:
            return f"{value:.1f}{suffix}"
        if value < 999.5:
            return f"{round(value)}{suffix}"
    return f"{n:.1e}"


def exact_number_text(n: int) -> str:
    """pn/dn or a count in full with thousands separators (``1,234,567``); ``∞`` for infinity."""
    return "∞" if n >= INFINITY else f"{n:,}"


def move_texts(start: Position, line: Iterable[str]) -> list[str]:
    """Japanese notation of a USI line played from ``start`` (USI text where a move does not fit)."""
    pos = start.copy()
    out: list[str] = []
    prev = None
    ok = True
    for usi in line:
        if ok:
            try:
                mv = parse_move(pos, usi)
                text = japanese(pos, mv, prev)
                pos.push(mv)
            except ValueError:
                ok = False   # from here on the positions are unknown
            else:
                out.append(text)
                prev = mv.to_square
                continue
        out.append(usi)
    return out


class _Node:
    """One node of an item-model tree: a move, its numbers and its children."""

    __slots__ = ("parent", "move", "pn", "dn", "children", "by_move", "on_path", "text",
                 "role", "length", "comment", "twin")

    def __init__(self, parent: _Node | None, move: str | None) -> None:
        self.parent = parent
        self.move = move
        self.pn = 1
        self.dn = 1
        self.children: list[_Node] = []
        self.by_move: dict[str, _Node] = {}
        self.on_path = False
        self.text: str | None = None
        self.role: Role | None = None
        self.length: int | None = None
        self.comment = ""
        self.twin = False   # proof tree: an alternative that only changes the main move's promotion

    def row(self) -> int:
        return self.parent.children.index(self) if self.parent is not None else 0

    def path(self) -> tuple[str, ...]:
        out: list[str] = []
        node: _Node | None = self
        while node is not None and node.move is not None:
            out.append(node.move)
            node = node.parent
        return tuple(reversed(out))

    def add(self, move: str) -> _Node:
        child = _Node(self, move)
        self.children.append(child)
        self.by_move[move] = child
        return child


class _TreeModel(QAbstractItemModel):
    """Shared plumbing: a ``_Node`` tree under an invisible root."""

    HEADERS: tuple[str, ...] = ("Move", "pn", "dn")

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._root = _Node(None, None)
        self._start = Position.empty()

    # ---- helpers for users of the model ----------------------------------

    def start_position(self) -> Position:
        """The position the moves are played from."""
        return self._start.copy()

    def path(self, index: QModelIndex) -> tuple[str, ...]:
        """USI moves from the start position to the node of ``index`` (``()`` for the root)."""
        return self._node(index).path() if index.isValid() else ()

    def position_at(self, index: QModelIndex) -> Position:
        """The position after the node's move (the start position for an invalid index).

        Raises:
            ValueError: a move on the way is not legal (it should not happen).
        """
        pos = self._start.copy()
        for usi in self.path(index):
            pos.push(parse_move(pos, usi))
        return pos

    def index_of_path(self, path: Iterable[str]) -> QModelIndex:
        """The index of the node reached by ``path`` (invalid if there is none)."""
        node = self._root
        for usi in path:
            child = node.by_move.get(usi)
            if child is None:
                return QModelIndex()
            node = child
        return self._index(node)

    def node_count(self) -> int:
        """Nodes in the tree (the invisible root excluded)."""
        count, stack = 0, list(self._root.children)
        while stack:
            node = stack.pop()
            count += 1
            stack.extend(node.children)
        return count

    # ---- QAbstractItemModel ----------------------------------------------

    def _node(self, index: QModelIndex | QPersistentModelIndex) -> _Node:
        if index.isValid():
            node = index.internalPointer()
            assert isinstance(node, _Node)
            return node
        return self._root

    def _index(self, node: _Node, column: int = 0) -> QModelIndex:
        if node is self._root or node.parent is None:
            return QModelIndex()
        return self.createIndex(node.row(), column, node)

    def index(self, row: int, column: int,
              parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> QModelIndex:
        if column < 0 or column >= self.columnCount() or row < 0:
            return QModelIndex()
        node = self._node(parent)
        if row >= len(node.children):
            return QModelIndex()
        return self.createIndex(row, column, node.children[row])

    @overload
    def parent(self, /) -> QObject | None: ...
    @overload
    def parent(self, index: QModelIndex | QPersistentModelIndex, /) -> QModelIndex: ...

    def parent(self, index: QModelIndex | QPersistentModelIndex | None = None, /) -> QModelIndex | QObject | None:
        """The parent of the item at ``index``; with no argument, the model's QObject parent."""
        if index is None:
            return super().parent()
        if not index.isValid():
            return QModelIndex()
        node = self._node(index)
        if node.parent is None or node.parent is self._root:
            return QModelIndex()
        return self._index(node.parent)

    def rowCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: N802
        if parent.isValid() and parent.column() != 0:
            return 0
        return len(self._node(parent).children)

    def columnCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: N802
        return len(self.HEADERS)

    def hasChildren(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> bool:  # noqa: N802
        return self.rowCount(parent) > 0

    def headerData(self, section: int, orientation: Qt.Orientation,  # noqa: N802
                   role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if (orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole
                and 0 <= section < len(self.HEADERS)):
            return tr(self.HEADERS[section])
        return None

    def flags(self, index: QModelIndex | QPersistentModelIndex) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        return Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable

    def _move_text(self, node: _Node) -> str:
        if node.text is None:
            path = node.path()
            node.text = move_texts(self._start, path)[-1] if path else tr("Start")
        return node.text

    def data(self, index: QModelIndex | QPersistentModelIndex,
             role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        node = self._node(index)
        col = index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            if col == COL_MOVE:
                return self._move_text(node)
            if col == COL_PN:
                return number_text(node.pn)
            if col == COL_DN:
                return number_text(node.dn)
            return self._extra_display(node, col)
        if role == Qt.ItemDataRole.ToolTipRole and col == COL_MOVE:
            return " ".join(node.path())
        if role == Qt.ItemDataRole.ToolTipRole and col in (COL_PN, COL_DN):
            return exact_number_text(node.pn if col == COL_PN else node.dn)
        if role == Qt.ItemDataRole.TextAlignmentRole and col in (COL_PN, COL_DN, COL_LENGTH):
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if role == PATH_ROLE:
            return node.path()
        if role == ON_PATH_ROLE:
            return node.on_path
        return self._extra_data(node, col, role)

    def _extra_display(self, node: _Node, col: int) -> str | None:
        return None

    def _extra_data(self, node: _Node, col: int, role: int) -> object:
        return None


class SearchTreeModel(QStandardItemModel):
    """The df-pn search tree as the progress snapshots reveal it.

    Each :meth:`update` adds the nodes of the current path and the ranked
    children the snapshot lists at each level, refreshes their pn/dn, marks
    the current path (``ON_PATH_ROLE``, bold, tinted) and puts each reported
    node's children in the order the search ranks them (best first).  Nodes
    seen earlier but not in the latest report keep their last numbers and go
    after the ranked ones.  At most ``max_nodes`` nodes are kept, and paths
    are followed ``max_depth`` plies deep; beyond that only known nodes are
    updated (a person browses the top of the tree; the status line has the rest).

    The items live in C++ (a ``QStandardItemModel``): while the solver thread
    runs Python, views read the tree without waiting for the interpreter lock,
    which keeps the window responsive.
    """

    def __init__(self, parent: QObject | None = None, max_nodes: int = 20000, max_depth: int = 48) -> None:
        super().__init__(0, 3, parent)
        self.max_nodes = max_nodes
        self.max_depth = max_depth
        self.setSortRole(RANK_ROLE)
        self._start = Position.empty()
        self._items: dict[tuple[str, ...], QStandardItem] = {}
        self._path: list[tuple[str, ...]] = []
        self.root_pn = 1
        self.root_dn = 1
        self._set_headers()
        i18n.notifier.language_changed.connect(self._set_headers)

    @Slot(str)
    def _set_headers(self, _lang: str = "") -> None:
        self.setHorizontalHeaderLabels([tr(h) for h in _TreeModel.HEADERS])

    # ---- queries -------------------------------------------------------------

    def start_position(self) -> Position:
        """The position the moves are played from."""
        return self._start.copy()

    def path(self, index: QModelIndex) -> tuple[str, ...]:
        """USI moves from the start position to the node of ``index`` (``()`` for the root)."""
        if not index.isValid():
            return ()
        # Typed optional: the stubs say QStandardItem, but a top-level item's parent() is None.
        item: QStandardItem | None = self.itemFromIndex(index.siblingAtColumn(0))
        out: list[str] = []
        while item is not None:
            out.append(item.data(MOVE_ROLE))
            item = item.parent()
        return tuple(reversed(out))

    def position_at(self, index: QModelIndex) -> Position:
        """The position after the node's move (the start position for an invalid index).

        Raises:
            ValueError: a move on the way is not legal (it should not happen).
        """
        pos = self._start.copy()
        for usi in self.path(index):
            pos.push(parse_move(pos, usi))
        return pos

    def index_of_path(self, path: Iterable[str]) -> QModelIndex:
        """The index of the node reached by ``path`` (invalid if there is none)."""
        item = self._items.get(tuple(path))
        return item.index() if item is not None else QModelIndex()

    def node_count(self) -> int:
        """Nodes in the tree."""
        return len(self._items)

    def current_path(self) -> tuple[str, ...]:
        """The USI moves of the current search path (as far as the tree holds it)."""
        return self._path[-1] if self._path else ()

    # ---- feeding ---------------------------------------------------------------

    def reset(self, start: Position) -> None:
        """Empty the tree for a new search from ``start``."""
        self.removeRows(0, self.rowCount())
        self._items.clear()
        self._start = start.copy()
        self._path = []
        self.root_pn = self.root_dn = 1

    def update(self, progress: Progress) -> None:
        """Merge one snapshot into the tree."""
        self.root_pn, self.root_dn = progress.root_pn, progress.root_dn
        # Walk down the current path with its position, so that every level's
        # new children get their Japanese text from the position they are played in.
        pos = self._start.copy()
        prev: int | None = None
        prefix: tuple[str, ...] = ()
        new_path: list[tuple[str, ...]] = []
        self._merge_level(prefix, pos, prev, progress.root_children)
        for entry in progress.path[:self.max_depth]:
            child = prefix + (entry.move,)
            if child not in self._items and not self._insert(prefix, [entry.move], pos, prev):
                break
            self._set_numbers(self._items[child], entry.pn, entry.dn)
            new_path.append(child)
            try:
                move = parse_move(pos, entry.move)
                pos.push(move)
            except ValueError:
                break
            prev = move.to_square
            prefix = child
            self._merge_level(prefix, pos, prev, entry.children)
        self._mark_path(new_path)

    # ---- steps of update ---------------------------------------------------------

    def _parent_item(self, parent: tuple[str, ...]) -> QStandardItem:
        return self._items[parent] if parent else self.invisibleRootItem()

    def _merge_level(self, parent: tuple[str, ...], pos: Position, prev: int | None,
                     ranked: tuple[ChildInfo, ...]) -> None:
        if not ranked:
            return
        missing = [c.move for c in ranked if parent + (c.move,) not in self._items]
        if missing:
            self._insert(parent, missing, pos, prev)
        for c in ranked:
            item = self._items.get(parent + (c.move,))
            if item is not None:
                self._set_numbers(item, c.pn, c.dn)
        self._rank(parent, [c.move for c in ranked])

    def _insert(self, parent: tuple[str, ...], moves: list[str], pos: Position, prev: int | None) -> bool:
        moves = moves[:max(self.max_nodes - len(self._items), 0)]
        if not moves:
            return False
        holder = self._parent_item(parent)
        base = holder.rowCount()
        for k, usi in enumerate(moves):
            try:
                text = japanese(pos, Move.from_usi(usi), prev)
            except ValueError:
                text = usi
            first = QStandardItem(text)
            first.setToolTip(text)   # for a move elided in a narrow column
            first.setData(usi, MOVE_ROLE)
            first.setData(False, ON_PATH_ROLE)
            first.setData(base + k + _UNRANKED, RANK_ROLE)
            pn, dn = QStandardItem("1"), QStandardItem("1")
            pn.setTextAlignment(_RIGHT)
            dn.setTextAlignment(_RIGHT)
            holder.appendRow([first, pn, dn])
            self._items[parent + (usi,)] = first
        return True

    def _set_numbers(self, first: QStandardItem, pn: int, dn: int) -> None:
        holder = first.parent() or self.invisibleRootItem()
        row = first.row()
        for col, value in ((COL_PN, pn), (COL_DN, dn)):
            cell = holder.child(row, col)
            text = number_text(value)
            if cell.text() != text:
                cell.setText(text)
                cell.setToolTip(exact_number_text(value))

    def _rank(self, parent: tuple[str, ...], ranked: list[str]) -> None:
        """Sort the children of ``parent``: reported ones in report order, then the rest as they were."""
        holder = self._parent_item(parent)
        order = {usi: k for k, usi in enumerate(ranked)}
        current = [holder.child(r, 0) for r in range(holder.rowCount())]
        wanted = sorted(range(len(current)),
                        key=lambda r: (order.get(current[r].data(MOVE_ROLE), len(order) + r)))
        if wanted == list(range(len(current))):
            return
        for rank, r in enumerate(wanted):
            current[r].setData(rank, RANK_ROLE)
        holder.sortChildren(COL_MOVE)   # by RANK_ROLE; Qt moves persistent indexes along

    def _mark_path(self, new_path: list[tuple[str, ...]]) -> None:
        old, new = set(self._path), set(new_path)
        changed = [(p, False) for p in self._path if p not in new] + [(p, True) for p in new_path if p not in old]
        for path, on in changed:
            first = self._items.get(path)
            if first is None:
                continue
            holder = first.parent() or self.invisibleRootItem()
            first.setData(on, ON_PATH_ROLE)
            for col in range(self.columnCount()):
                cell = holder.child(first.row(), col)
                font = cell.font()
                font.setBold(on)
                cell.setFont(font)
                cell.setBackground(_PATH_BRUSH if on else QBrush())
        self._path = new_path


class ProofTreeModel(_TreeModel):
    """A finished proof: every attacker move and every defence, with pn/dn and role.

    Children are in the proof's order (main line first).  The main line is
    bold and tinted; futile interpositions are grey.  Columns: move, pn, dn,
    role, plies to mate after the move.
    """

    HEADERS = ("Move", "pn", "dn", "Role", "To mate")

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._proof: Proof | None = None
        i18n.notifier.language_changed.connect(self._retranslate)

    @Slot(str)
    def _retranslate(self, _lang: str = "") -> None:
        """Headers and role names follow the interface language (no structural change)."""
        self.headerDataChanged.emit(Qt.Orientation.Horizontal, 0, self.columnCount() - 1)
        self.layoutAboutToBeChanged.emit()
        self.layoutChanged.emit()

    def proof(self) -> Proof | None:
        """The proof shown (None when empty)."""
        return self._proof

    def set_proof(self, proof: Proof | None) -> None:
        """Show ``proof`` (None empties the model)."""
        self.beginResetModel()
        self._proof = proof
        self._root = _Node(None, None)
        if proof is not None:
            self._start = Position.from_sfen(proof.sfen)
            self._build(self._root, proof.root)
        self.endResetModel()

    def _build(self, node: _Node, pnode: ProofNode) -> None:
        # Iterative: a proof is as deep as its main line (Microcosmos: 1525 plies).
        stack = [(node, pnode)]
        while stack:
            node, pnode = stack.pop()
            node.role = pnode.role
            node.pn, node.dn = pnode.pn, pnode.dn
            node.length = pnode.length
            node.comment = pnode.comment
            node.on_path = pnode.role is Role.MAIN
            main = next((c.move for c in pnode.children if c.role is Role.MAIN), None)
            for pchild in pnode.children:
                assert pchild.move is not None
                if pchild.move in node.by_move:   # a repeated move: keep the first
                    continue
                child = node.add(pchild.move)
                # Composers call the main move with the other promotion choice 成不成非限定, not 余詰.
                child.twin = (pchild.role is Role.ALTERNATIVE and main is not None
                              and promotion_twins(pchild.move, main))
                stack.append((child, pchild))

    def main_line_index(self, ply: int) -> QModelIndex:
        """The index of the main line's ``ply``-th move (1-based; invalid if out of range)."""
        if self._proof is None or not 1 <= ply <= len(self._proof.main_line):
            return QModelIndex()
        return self.index_of_path(self._proof.main_line[:ply])

    def _extra_display(self, node: _Node, col: int) -> str | None:
        if col == COL_ROLE:
            if node.twin:
                return tr(_TWIN_TEXT)
            return tr(_ROLE_TEXT[node.role]) if node.role is not None else ""
        if col == COL_LENGTH:
            return "" if node.length is None else str(node.length)
        return None

    def _extra_data(self, node: _Node, col: int, role: int) -> object:
        if role == ROLE_ROLE:
            return node.role
        if role == Qt.ItemDataRole.ToolTipRole and col == COL_ROLE:   # the role in full where it is elided
            return " — ".join(t for t in (self._extra_display(node, col), node.comment) if t)
        if role == Qt.ItemDataRole.ToolTipRole and node.comment:
            return node.comment
        if node.role is Role.MAIN:
            if role == Qt.ItemDataRole.BackgroundRole:
                return _MAIN_BRUSH
            if role == Qt.ItemDataRole.FontRole:
                font = QFont()
                font.setBold(True)
                return font
        if node.role is Role.FUTILE and role == Qt.ItemDataRole.ForegroundRole:
            return _FUTILE_BRUSH
        return None

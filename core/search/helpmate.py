"""The helpmate (協力詰) solver: the shortest cooperative mate, or proof that none exists.

In a helpmate the attacker (the side to move) checks on every move, the
defender answers with any legal move, and both cooperate to mate the
defender in as few plies as possible; there is no futile-interposition rule.
The search space is an OR tree.

The algorithm is the one of 星・野下・柳井「反復深化探索に基づく協力詰将棋の解法」
(Hoshi, Noshita, Yanai; [Hoshi-Noshita-Yanai]):

* depth-first iterative deepening with depth step δ=2 (§3.4, IDWFS): new
  positions of each side are first reached in breadth-first order, so the
  first mate found is the shortest one;
* a table keeping the shallowest copy of each position (§3.2, §3.4), so a
  deeper (or equally deep, later) copy is a known position (既知局面) and is
  pruned;
* decided positions (確定局面, §3.5): a position whose children are all
  leaves, decided or known holds nothing new; it is recorded and pruned;
* ProtectGC (§3.6): the positions below a newly decided one become
  unprotected; the table may overwrite them when it needs room, and
  referencing one protects it again;
* the single candidate move kept in the table (§3.7).

Each technique can be switched off with :class:`HelpmateOptions` to measure
it.  The table's size follows ``Limits.memory_mb``.  Repetition (including
連続王手の千日手) never needs special handling: a repeated position is a
known position, since its first occurrence is shallower.  打ち歩詰め is never
generated (cshogi leaves it out of the legal and checking moves).

The public entry points have the same shape as the direct-mate solver's:
:func:`solve_iter` (a generator of :class:`~.contract.Progress` snapshots that
returns a :class:`~.contract.SolveResult`) and :func:`solve`.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Generator
from dataclasses import dataclass

import cshogi

from ..shogi.position import Position
from .contract import INFINITY, Cancel, ExtraValue, Limits, PathEntry, Progress, SolveResult, SolveStatus, drive
from .proof import HelpmateAnswer

__all__ = [
    "HelpmateOptions", "solve_iter", "solve", "BYTES_PER_ENTRY",
]

#: Estimated memory per table entry (dict slot, key and packed value, plus the
#: bookkeeping lists of ProtectGC), used to turn ``Limits.memory_mb`` into a
#: number of entries.  Checked against the resident size of a 寿限無 search:
#: 2.83 million positions in 632 MB.
BYTES_PER_ENTRY = 220

# A table entry is one int: ply | stamp << 20 | flags | cached move << 43.
_PLY_MASK = (1 << 20) - 1
_STAMP_SHIFT = 20
_STAMP_MASK = ((1 << 20) - 1) << _STAMP_SHIFT
_DECIDED = 1 << 40
_UNPROT = 1 << 41
_HASMOVE = 1 << 42
_MOVE_SHIFT = 43
_LOW_MASK = (1 << _MOVE_SHIFT) - 1

_CHECK_EVERY = 512        # nodes between looks at the clock and the cancel flag
_PROGRESS_SECONDS = 0.1   # at most ~10 progress snapshots a second
_PATH_REPORTED = 256      # plies of the current path put in a snapshot


@dataclass(frozen=True, slots=True)
class HelpmateOptions:
    """Which techniques of the search are on; every one defaults to on.

    Attributes:
        table: keep a position table at all (off: plain depth-first
            iterative deepening, nothing remembered between iterations).
        known: prune known positions (既知局面), copies no shallower than the
            one in the table (§3.4).
        decided: record decided positions (確定局面) and prune them (§3.5).
        protect_gc: ProtectGC, let the table overwrite positions below a
            decided one (§3.6); needs ``decided``.
        move_cache: keep the single candidate move of a position in the
            table (§3.7).
        delta: the iterative-deepening step, 2 (IDWFS as in §3.4) or 1.
        max_plies: stop with UNKNOWN after the iteration of this depth
            (None: no bound).
        max_solutions: with ``all_solutions``, how many shortest solutions
            are listed at most.
        table_entries: the table's size in positions, as in the paper's
            Table 1; None derives it from ``Limits.memory_mb``.
    """

    table: bool = True
    known: bool = True
    decided: bool = True
    protect_gc: bool = True
    move_cache: bool = True
    delta: int = 2
    max_plies: int | None = None
    max_solutions: int = 100
    table_entries: int | None = None

    def __post_init__(self) -> None:
        if self.delta not in (1, 2):
            raise ValueError(f"delta must be 1 or 2, not {self.delta!r}")
        if not self.table and (self.known or self.decided or self.protect_gc or self.move_cache):
            raise ValueError("known, decided, protect_gc and move_cache need table=True")
        if self.protect_gc and not self.decided:
            raise ValueError("protect_gc needs decided=True: it unprotects what lies below decided positions")
        if self.max_plies is not None and self.max_plies < 1:
            raise ValueError(f"max_plies must be at least 1, not {self.max_plies!r}")
        if self.table_entries is not None and self.table_entries < 1:
            raise ValueError(f"table_entries must be at least 1, not {self.table_entries!r}")
        if self.max_solutions < 1:
            raise ValueError(f"max_solutions must be at least 1, not {self.max_solutions!r}")

    @classmethod
    def plain(cls) -> HelpmateOptions:
        """Plain depth-first iterative deepening (δ=2) with no table: the baseline."""
        return cls(table=False, known=False, decided=False, protect_gc=False, move_cache=False)


class _Stop(Exception):
    """A limit was hit or the search was cancelled (internal)."""

    def __init__(self, status: SolveStatus, reason: str) -> None:
        super().__init__(reason)
        self.status = status
        self.reason = reason


class _Search:
    """The state of one helpmate search: board, table and counters."""

    def __init__(self, board: cshogi.Board, options: HelpmateOptions, limits: Limits,
                 cancel: Cancel | None) -> None:
        self.board = board
        self.opt = options
        self.limits = limits
        self.cancel = cancel
        if options.table_entries is not None:
            self.capacity = options.table_entries
        else:
            self.capacity = max(1024, limits.memory_mb * 2**20 // BYTES_PER_ENTRY)
        self.table: dict[int, int] = {}
        self.unprot_fifo: deque[int] = deque()   # candidates for overwriting, oldest first
        self.unprot_count = 0
        self.visited: list[int] = []             # keys referenced this iteration, not yet below a decided one
        self.nodes = 0
        self.registered = 0                      # positions stored, overwritten ones counted again
        self.evicted = 0
        self.unstored = 0                        # positions not stored because the table was full
        self.generated = 0                       # move generations (the single-move cache saves some)
        self.max_protected = 0
        self.limit = 0
        self.start = time.monotonic()
        self.clock = self.limits.clock()
        self.clock_start = self.clock()
        self.last_progress = self.start
        self.next_check = _CHECK_EVERY
        self.path: list[int] = []                # the current line, cshogi moves

    # ---- limits and progress -------------------------------------------

    def _check(self) -> Progress | None:
        """Look at cancel and limits; a progress snapshot when one is due."""
        self.next_check = self.nodes + _CHECK_EVERY
        if self.cancel is not None and self.cancel.is_set():
            raise _Stop(SolveStatus.CANCELLED, "cancelled")
        now = time.monotonic()
        lim = self.limits
        if lim.nodes is not None and self.nodes >= lim.nodes:
            raise _Stop(SolveStatus.UNKNOWN, f"node limit {lim.nodes} reached")
        if lim.seconds is not None and self.clock() - self.clock_start >= lim.seconds:
            raise _Stop(SolveStatus.UNKNOWN, f"time limit {lim.seconds} s reached")
        if now - self.last_progress >= _PROGRESS_SECONDS:
            self.last_progress = now
            return self.progress()
        return None

    def stats(self) -> tuple[tuple[str, float], ...]:
        stored = len(self.table)
        return (("depth", self.limit), ("scanned", self.nodes), ("stored", stored),
                ("protected", stored - self.unprot_count), ("registered", self.registered),
                ("evicted", self.evicted), ("unstored", self.unstored),
                ("generated", self.generated))

    def progress(self, solved: bool = False) -> Progress:
        """A snapshot; the path's pn/dn are 1/1 while searching, 0/∞ on a mating line (``solved``)."""
        elapsed = time.monotonic() - self.start
        pn, dn = (0, INFINITY) if solved else (1, 1)
        path = tuple(PathEntry(cshogi.move_to_usi(m), pn, dn) for m in self.path[:_PATH_REPORTED])
        return Progress(nodes=self.nodes, nps=self.nodes / elapsed if elapsed > 0 else 0.0,
                        elapsed=elapsed, root_pn=pn, root_dn=dn, path=path,
                        table_fill=len(self.table) / self.capacity, table_entries=len(self.table),
                        stats=self.stats())

    # ---- the table ----------------------------------------------------------

    def _make_room(self) -> bool:
        """Overwrite the oldest unprotected position; False when every position is protected."""
        table = self.table
        fifo = self.unprot_fifo
        while fifo:
            k = fifo.popleft()
            e = table.get(k)
            if e is not None and e & _UNPROT:
                del table[k]
                self.unprot_count -= 1
                self.evicted += 1
                return True
        return False

    def _unprotect_below(self, mark: int) -> None:
        """ProtectGC (§3.6): the positions referenced below a newly decided one lose protection."""
        visited = self.visited
        table = self.table
        fifo = self.unprot_fifo
        for i in range(mark + 1, len(visited)):
            k = visited[i]
            e = table.get(k)
            if e is not None and not e & _UNPROT:
                table[k] = e | _UNPROT
                self.unprot_count += 1
                fifo.append(k)
        del visited[mark + 1:]
        if len(fifo) > 2 * len(table) + 1024:
            # Keys reprotected and unprotected again pile up: rebuild the queue.
            self.unprot_fifo = deque(k for k in fifo if table.get(k, 0) & _UNPROT)

    # ---- one iteration ----------------------------------------------------------

    def iteration(self, limit: int) -> Generator[Progress, None, tuple[list[int] | None, bool]]:
        """Depth-first search to ``limit`` plies.

        Returns ``(mate line, root resolved)``: the mating line in cshogi
        moves if one was found, and whether the whole tree is resolved
        (every leaf reached, decided or known: no mate at any depth).
        """
        self.limit = limit
        board = self.board
        table = self.table
        opt = self.opt
        use_table, known, decided, protect, cache = opt.table, opt.known, opt.decided, opt.protect_gc, opt.move_cache
        capacity = self.capacity
        stamp_bits = limit << _STAMP_SHIFT
        visited = self.visited
        visited.clear()
        path = self.path
        path.clear()

        # Frame stacks; the top frame is the node at ply len(st_moves) - 1.
        st_moves: list[list[int]] = []
        st_idx: list[int] = []
        st_key: list[int] = []
        st_res: list[bool] = []
        st_mark: list[int] = []
        st_stored: list[bool] = []

        # The root: always searched (it is never known or decided while searching).
        key = board.zobrist_hash()
        moves = list(board.check_moves)
        self.nodes += 1
        if not moves:
            return None, True
        if use_table:
            e = table.get(key)
            cached = _HASMOVE if (cache and len(moves) == 1) else 0
            table[key] = (0 | stamp_bits | cached | ((moves[0] << _MOVE_SHIFT) if cached else 0))
            if e is None:
                self.registered += 1
        st_moves.append(moves)
        st_idx.append(0)
        st_key.append(key)
        st_res.append(True)
        st_mark.append(len(visited))
        st_stored.append(use_table)
        if protect:
            visited.append(key)

        nodes = self.nodes          # kept local in the loop, written back before leaving it
        next_check = self.next_check
        while st_moves:
            top = len(st_moves) - 1
            moves = st_moves[top]
            i = st_idx[top]
            if i == len(moves):
                # ---- the node is finished --------------------------------------------
                st_moves.pop()
                st_idx.pop()
                k = st_key.pop()
                resolved = st_res.pop()
                mark = st_mark.pop()
                stored = st_stored.pop()
                if resolved and stored and decided:
                    e = table.get(k)
                    if e is not None:
                        table[k] = e | _DECIDED
                    if protect:
                        self._unprotect_below(mark)
                if top == 0:
                    self.nodes = nodes
                    return None, resolved
                board.pop()
                path.pop()
                if not resolved:
                    st_res[top - 1] = False
                continue

            m = moves[i]
            st_idx[top] = i + 1
            board.push(m)
            path.append(m)
            ply = top + 1
            nodes += 1
            if nodes >= next_check:
                self.nodes = nodes
                snap = self._check()
                next_check = self.next_check
                if snap is not None:
                    yield snap
            defender = ply & 1

            if ply == limit:
                # ---- the horizon (打ち切り局面): only the mate test ----------------
                if defender and board.is_game_over():
                    self.nodes = nodes
                    return list(path), False
                resolved = False
                if use_table:
                    key = board.zobrist_hash()
                    e = table.get(key)
                    if e is not None:
                        eply = e & _PLY_MASK
                        if (known and eply < ply) or (decided and e & _DECIDED and eply <= ply):
                            resolved = True
                            if e & _UNPROT:
                                table[key] = e & ~_UNPROT
                                self.unprot_count -= 1
                                if protect:
                                    visited.append(key)
                board.pop()
                path.pop()
                if not resolved:
                    st_res[top] = False
                continue

            # ---- an inner node -------------------------------------------------------
            stored = use_table
            cached_move = 0
            if use_table:
                key = board.zobrist_hash()
                e = table.get(key)
                if e is not None:
                    eply = e & _PLY_MASK
                    prune = False
                    if known and (eply < ply or (eply == ply and e & _STAMP_MASK == stamp_bits)):
                        prune = True         # 既知局面: a shallower (or earlier) copy is searched
                    elif decided and e & _DECIDED and eply <= ply:
                        prune = True         # 確定局面
                    if prune:
                        if e & _UNPROT:      # referencing it protects it again
                            table[key] = e & ~_UNPROT
                            self.unprot_count -= 1
                            if protect:
                                visited.append(key)
                        elif protect and eply == ply and e & _DECIDED:
                            visited.append(key)   # its own copy: unprotected with an ancestor
                        board.pop()
                        path.pop()
                        continue
                    if e & _UNPROT:
                        self.unprot_count -= 1
                    if eply > ply:
                        # A shallower copy than the stored one (possible after an overwrite):
                        # what was decided deeper no longer holds.
                        e = (e & ~(_PLY_MASK | _DECIDED)) | ply
                    e = (e & ~(_STAMP_MASK | _UNPROT)) | stamp_bits
                    table[key] = e
                    if cache and e & _HASMOVE:
                        cached_move = e >> _MOVE_SHIFT
                else:
                    if len(table) >= capacity and not self._make_room():
                        stored = False
                        self.unstored += 1
                    else:
                        table[key] = ply | stamp_bits
                        self.registered += 1
            else:
                key = 0

            if cached_move:
                moves = [cached_move]
            else:
                self.generated += 1
                moves = list(board.legal_moves) if defender else list(board.check_moves)
            if not moves:
                if defender:
                    self.nodes = nodes
                    return list(path), False      # mate before the horizon
                # The attacker cannot check: a leaf with no mate, decided.
                if stored and decided:
                    table[key] = table[key] | _DECIDED
                board.pop()
                path.pop()
                continue
            if cache and stored and not cached_move and len(moves) == 1:
                table[key] = (table[key] & _LOW_MASK) | _HASMOVE | (moves[0] << _MOVE_SHIFT)
            st_moves.append(moves)
            st_idx.append(0)
            st_key.append(key)
            st_res.append(True)
            st_mark.append(len(visited))
            st_stored.append(stored)
            if protect and stored:
                visited.append(key)
        return None, False   # not reached: the root frame returns above

    def end_iteration(self) -> None:
        protected = len(self.table) - self.unprot_count
        if protected > self.max_protected:
            self.max_protected = protected


def _usi(line: list[int]) -> tuple[str, ...]:
    return tuple(cshogi.move_to_usi(m) for m in line)


def solve_iter(position: Position, limits: Limits = Limits(), cancel: Cancel | None = None, *,
               options: HelpmateOptions = HelpmateOptions(), all_solutions: bool = False,
               ) -> Generator[Progress, None, SolveResult]:
    """Search the shortest helpmate of ``position``, yielding progress snapshots.

    The side to move is the attacker.  Iterations run to depth 1, 3, 5, …
    (δ=2, IDWFS of Hoshi, Noshita and Yanai §3.4), so the first mate found is
    a shortest one.  ``Progress.stats`` carries ``depth`` (the iteration's
    ply bound), ``scanned``, ``stored``, ``protected`` and more.

    Args:
        position: the problem; not modified.
        limits: nodes, seconds and the table's memory.
        cancel: anything with ``is_set()``; looked at every few hundred nodes.
        options: which techniques are on.
        all_solutions: list every shortest solution (余詰 check, at most
            ``options.max_solutions``) in ``SolveResult.proof``, a
            :class:`HelpmateAnswer`; without it that answer holds the line
            found only, with ``checked`` False.

    Returns:
        MATE with ``pv``, ``length`` and ``extra["exact"]`` True (every
        shorter depth was exhausted first); NO_MATE when the whole tree is
        exhausted without a mate (proved 不詰); UNKNOWN when a limit or
        ``max_plies`` was hit; CANCELLED.

    Raises:
        IllegalPositionError: the position is not valid.
    """
    position.require_valid()
    sfen = position.sfen()
    board = cshogi.Board(sfen)
    search = _Search(board, options, limits, cancel)
    delta = options.delta
    limit = 1
    status = SolveStatus.UNKNOWN
    line: list[int] | None = None
    reason = ""
    try:
        yield search.progress()
        while True:
            if options.max_plies is not None and limit > options.max_plies:
                reason = f"no helpmate within {options.max_plies} plies"
                break
            line, resolved = yield from search.iteration(limit)
            search.end_iteration()
            if line is not None:
                status = SolveStatus.MATE
                break
            if resolved:
                status = SolveStatus.NO_MATE
                break
            limit += delta
    except _Stop as stop:
        status, reason = stop.status, stop.reason
        # The board is left mid-line: it is this search's own copy.
    proof: HelpmateAnswer | None = None
    if status is SolveStatus.MATE and line is not None:
        # The line found, as the last snapshot's path: a quick search may not have shown any.
        search.path = list(line)
        yield search.progress(solved=True)
        if all_solutions:
            proof, note = yield from _enumerate(cshogi.Board(sfen), sfen, line, search)
            if note:
                reason = note
        else:
            proof = HelpmateAnswer(sfen, len(line), (_usi(line),), complete=False, checked=False)
    return _result(search, status, sfen, line, proof, reason)


def _result(search: _Search, status: SolveStatus, sfen: str, line: list[int] | None,
            proof: HelpmateAnswer | None, reason: str) -> SolveResult:
    seconds = time.monotonic() - search.start
    extra: dict[str, ExtraValue] = dict(search.stats())
    extra["max_protected"] = max(search.max_protected, len(search.table) - search.unprot_count)
    extra["capacity"] = search.capacity
    if reason:
        extra["reason"] = reason
    if status is SolveStatus.MATE:
        # Iterative deepening exhausted every shorter depth before this mate.
        extra["exact"] = True
    pv = _usi(line) if (status is SolveStatus.MATE and line is not None) else ()
    return SolveResult(status=status, sfen=sfen, pv=pv, length=len(pv) if pv else None,
                       nodes=search.nodes, seconds=seconds, table_entries=len(search.table),
                       peak_memory_mb=min(search.registered, search.capacity) * BYTES_PER_ENTRY / 2**20,
                       proof=proof, extra=extra)


class _Frame:
    """One level of :func:`_enumerate`'s depth-first search."""

    __slots__ = ("found", "index", "key", "moves")

    def __init__(self, key: int, moves: list[int]) -> None:
        self.key = key
        self.moves = moves
        self.index = 0                                   # the next move to try
        self.found: list[tuple[int, int | None]] = []    # (move, child key or None at mate) on a solution


def _enumerate(board: cshogi.Board, sfen: str, line: list[int], search: _Search,
               ) -> Generator[Progress, None, tuple[HelpmateAnswer, str]]:
    """Every shortest solution, given that ``line`` is a shortest one.

    A depth-first search to exactly ``len(line)`` plies, with a memo per
    position: on a shortest solution every position stands at its shallowest
    ply (otherwise a shorter solution would exist), so a copy deeper than one
    already met, or deeper than the main search's table says, is skipped.
    """
    length = len(line)
    cap = search.opt.max_solutions
    table = search.table
    memo: dict[int, tuple[int, bool]] = {}       # key -> (ply, has a mate in exactly length - ply)
    edges: dict[int, list[tuple[int, int | None]]] = {}
    root_key = board.zobrist_hash()
    note = ""
    # Iterative DFS, one frame a ply.
    st: list[_Frame] = []
    memo[root_key] = (0, False)
    st.append(_Frame(root_key, list(board.check_moves)))
    try:
        while st:
            frame = st[-1]
            key, moves, i, found = frame.key, frame.moves, frame.index, frame.found
            ply = len(st) - 1
            if i == len(moves):
                st.pop()
                memo[key] = (ply, bool(found))
                if found:
                    edges[key] = found
                if st:
                    board.pop()
                    if found:
                        parent = st[-1]
                        parent.found.append((parent.moves[parent.index - 1], key))
                continue
            m = moves[i]
            frame.index = i + 1
            board.push(m)
            child_ply = ply + 1
            search.nodes += 1
            if search.nodes >= search.next_check:
                snap = search._check()
                if snap is not None:
                    yield snap
            if child_ply == length:
                if board.is_game_over():
                    found.append((m, None))
                board.pop()
                continue
            ckey = board.zobrist_hash()
            e = table.get(ckey)
            if e is not None and (e & _PLY_MASK) < child_ply:
                board.pop()
                continue
            seen = memo.get(ckey)
            if seen is not None and seen[0] <= child_ply:
                if seen[0] == child_ply and seen[1]:
                    found.append((m, ckey))
                board.pop()
                continue
            if len(memo) >= search.capacity:
                raise _Stop(SolveStatus.UNKNOWN, f"memory limit: {search.capacity} positions")
            memo[ckey] = (child_ply, False)
            cmoves = list(board.legal_moves) if child_ply & 1 else list(board.check_moves)
            st.append(_Frame(ckey, cmoves))
    except _Stop as stop:
        note = f"solution list incomplete: {stop.reason}"
        main = _usi(line)
        return HelpmateAnswer(sfen, length, (main,), False), note

    # Walk the solution graph; the main search's line is listed first.
    main = _usi(line)
    found_lines: list[tuple[str, ...]] = []
    complete = True
    walk: list[tuple[int | None, tuple[int, ...]]] = [(root_key, ())]
    while walk:
        at, prefix = walk.pop()
        if at is None:
            if len(found_lines) > cap:
                complete = False
                break
            found_lines.append(_usi(list(prefix)))
            continue
        for mv, child in reversed(edges.get(at, [])):
            walk.append((child, prefix + (mv,)))
    if main not in found_lines:
        # The walk stopped at the cap before reaching it.
        found_lines.insert(0, main)
    else:
        found_lines.remove(main)
        found_lines.insert(0, main)
    if len(found_lines) > cap:
        complete = False
        del found_lines[cap:]
    return HelpmateAnswer(sfen, length, tuple(found_lines), complete, capped=not complete), note


def solve(position: Position, limits: Limits = Limits(), cancel: Cancel | None = None, *,
          options: HelpmateOptions = HelpmateOptions(), all_solutions: bool = False) -> SolveResult:
    """Run :func:`solve_iter` to the end and return its result."""
    return drive(solve_iter(position, limits, cancel, options=options, all_solutions=all_solutions))

"""The direct-mate driver: df-pn's proof, then the official answer.

``solve_iter(position, limits, cancel)`` is a generator that yields frozen
:class:`~.contract.Progress` snapshots and returns a
:class:`~.contract.SolveResult` (the shared values live in :mod:`.contract`);
:func:`solve` runs it to the end.  No threads here: the caller owns them and
cancels by setting ``cancel``.
"""

from __future__ import annotations

import time
from dataclasses import replace
from typing import Any
from collections.abc import Callable, Generator

import cshogi

from .contract import (
    INFINITY, Cancel, ChildInfo, Limits, PathEntry, Progress, SearchPhase, SolveResult, SolveStatus, drive,
)
from . import kernel_engine
from .background import in_background, release_later
from .dfpn import DfPn, Options as DfPnOptions, Outcome
from .exact import AnswerSession, BoundedSearch, build_proof
from .official import build_proof as official_proof
from .proof import Proof
from .tt import BYTES_PER_ENTRY, LENGTH, PN
from ..shogi.position import IllegalPositionError, Position, Status

Frame = tuple[int, list[int], list[int], list[int], bool]
"""One level of df-pn's current path: selected child, moves, their pn and dn, OR node."""


# ---- the direct-mate solver ---------------------------------------------------

def _progress(searcher: DfPn, board: cshogi.Board, start: float, nodes0: int = 0,
              stats: tuple[tuple[str, float], ...] = ()) -> Progress:
    """A frozen snapshot of ``searcher`` for the progress report."""
    elapsed = time.monotonic() - start
    nodes = searcher.nodes - nodes0
    pn, dn = searcher.lookup(board)
    frames = searcher.snapshot_path
    levels = frames[:_PATH_LEVELS]

    def ranked(frame: Frame) -> tuple[ChildInfo, ...]:
        _sel, moves, cpn, cdn, or_node = frame
        order = sorted(range(len(moves)), key=(lambda j: (cpn[j], -cdn[j])) if or_node
                       else (lambda j: (cdn[j], -cpn[j])))
        return tuple(ChildInfo(cshogi.move_to_usi(moves[j]), _clip(cpn[j]), _clip(cdn[j]))
                     for j in order[:_PATH_CHILDREN])

    path = []
    for k, frame in enumerate(levels):
        sel, moves, cpn, cdn, _or = frame
        if sel < 0:
            break
        below = ranked(levels[k + 1]) if k + 1 < len(levels) else ()
        path.append(PathEntry(cshogi.move_to_usi(moves[sel]), _clip(cpn[sel]), _clip(cdn[sel]), below))
    root_children = ranked(frames[0]) if frames else ()
    if frames and pn != 0 and dn != 0:
        # The table holds the root's numbers only from its last return, which for the
        # root is the end of the search: while it runs, take them from its children.
        _sel, _moves, cpn, cdn, or_node = frames[0]
        if cpn:
            pn, dn = (min(cpn), sum(cdn)) if or_node else (sum(cpn), min(cdn))
    return Progress(nodes=nodes, nps=nodes / elapsed if elapsed > 0 else 0.0, elapsed=elapsed,
                    root_pn=_clip(pn), root_dn=_clip(dn), path=tuple(path),
                    root_children=root_children, table_fill=searcher.tt.fill,
                    table_entries=searcher.tt.entries, stats=stats, phase=SearchPhase.MATE)


def _whole_solve(gen: Generator[Progress, None, Proof | None], searcher: DfPn, start: float,
                 exact_nodes: Callable[[], int]) -> Generator[Progress, None, Proof | None]:
    """The official-answer search ``gen`` with its snapshots counting the whole solve.

    Its own snapshots count its own nodes from its own start; these add
    df-pn's nodes (the proof, and the oracle's work since) and the time from
    the solve's start, so that the count shown grows as the result's does
    and ends where it ends.
    """
    try:
        while True:
            try:
                p = next(gen)
            except StopIteration as stop:
                answer: Proof | None = stop.value
                return answer
            nodes = searcher.nodes + exact_nodes()
            elapsed = time.monotonic() - start
            yield replace(p, nodes=nodes, elapsed=elapsed, nps=nodes / elapsed if elapsed > 0 else 0.0)
    finally:
        gen.close()


def _table_path(searcher: DfPn, board: cshogi.Board, line: list[int]) -> list[Frame]:
    """Progress frames along ``line``, each node's children read from the table."""
    b = board.copy()
    frames = []
    or_node = True
    for move in line[:_PATH_LEVELS] + [0]:
        moves = list(b.check_moves) if or_node else list(b.legal_moves)
        cpn, cdn = [], []
        for m in moves:
            b.push(m)
            pn, dn = searcher.lookup(b)
            if pn != 0 and dn != 0:
                # Decided at expansion without a table entry: mated, or mate in one.
                if (not b.legal_moves) if or_node else (not b.is_check() and b.mate_move_in_1ply()):
                    pn, dn = 0, INFINITY
            b.pop()
            cpn.append(pn)
            cdn.append(dn)
        sel = moves.index(move) if move in moves else -1
        frames.append((sel, moves, cpn, cdn, or_node))
        if sel < 0:
            break
        b.push(move)
        or_node = not or_node
    return frames


_PATH_LEVELS = 64        # deepest level a progress snapshot describes
EXACT_MIN_SECONDS = 30.0  # the exact search's budget when no time limit is set ...
EXACT_FACTOR = 5.0        # ... or this many times the proof's time, if more
_PATH_CHILDREN = 24      # children listed per level


def _clip(x: int) -> int:
    """pn/dn for display: the table's infinity becomes ``INFINITY``."""
    return INFINITY if x >= INFINITY else x


def solve_iter(position: Position, limits: Limits = Limits(), cancel: Cancel | None = None, *,
               options: DfPnOptions | None = None, exact: bool = True,
               progress_interval: float = 0.1, force: bool = False,
               session: AnswerSession | None = None) -> Generator[Progress, None, SolveResult]:
    """Solve a direct-mate problem; yields :class:`Progress`, returns :class:`SolveResult`.

    The side to move is the attacker.  df-pn (core.dfpn) proves or disproves
    mate; after a proof, core.exact (short problems) or core.official (from
    ``OFFICIAL_FROM`` plies of df-pn's proof) computes the official main line
    and its exact length under tsume rules when ``exact`` is true.  That search
    shares the time limit; with none it gets ``max(EXACT_MIN_SECONDS,
    EXACT_FACTOR × the proof's time)``, and past that the result carries
    df-pn's own line with ``extra["exact"]`` False, and what the length
    search had proved by then: ``extra["at_least"]`` and ``extra["at_most"]``
    (plies, tsume rules).  While it runs, its progress ``stats`` say which
    question it asks (``asking``: "mate within n?") and those bounds.

    Args:
        position: the problem (not modified).
        limits: nodes, seconds and memory.
        cancel: anything with ``is_set()``; honoured within 100 ms.
        options: df-pn enhancements (core.dfpn.Options).
        exact: compute the official answer after the proof.
        progress_interval: seconds between progress snapshots.
        force: solve despite editor problems that leave the position
            searchable (二歩 on the board, a piece that can never move);
            some published problem sets contain such positions.
        session: receives the official answer's search once the exact
            length is proved, so that a check of a given line reuses it
            (:func:`tsume_studio.core.check.check_solution`).

    Raises:
        IllegalPositionError: the position is not a valid problem; the
            message lists every problem.
    """
    tolerated = (Status.NIFU | Status.DEAD_PIECE) if force else Status.VALID
    blocking = [p for p in position.problems() if not p.flag & tolerated]
    if blocking:
        raise IllegalPositionError(blocking)
    if not exact and kernel_engine.engine_choice() == "kernel" and kernel_engine.supports(options):
        # df-pn alone: the C++ kernel's, on its own thread (core.search.kernel_engine).  The
        # kernel's board refuses what ``force`` tolerates (二歩, a dead piece): the Python engine
        # searches those, and its result says so ("engine").
        try:
            kernel_search = kernel_engine.new_search(position.sfen(), limits.memory_mb, options)
        except ValueError:
            kernel_search = None
        if kernel_search is not None:
            return (yield from kernel_engine.solve_iter(position.sfen(), limits, cancel, options=options,
                                                        progress_interval=progress_interval, search=kernel_search))
    board = position.board().copy()
    searcher = DfPn(position.turn, limits.memory_mb, options or DfPnOptions())
    cpu0 = time.process_time()
    start = time.monotonic()
    clock = limits.clock()
    deadline = clock() + limits.seconds if limits.seconds is not None else None
    peak_entries = 0
    sfen = position.sfen()

    exact_search: list[BoundedSearch] = []   # the official-answer search, once it runs

    def nodes_after_proof() -> int:
        return exact_search[0].nodes if exact_search else 0

    def finish(status: SolveStatus, **kw: Any) -> SolveResult:
        # The process's CPU time: the search thread's and this one's.
        kw["extra"] = {**kw.get("extra", {}), "engine": "python",
                       "cpu_seconds": round(time.process_time() - cpu0, 4)}
        return SolveResult(status, sfen, nodes=searcher.nodes + nodes_after_proof(),
                           seconds=time.monotonic() - start,
                           table_entries=searcher.tt.entries,
                           peak_memory_mb=peak_entries * BYTES_PER_ENTRY / 2**20, **kw)

    def prove(flag: Cancel) -> Outcome:
        # The search runs on its own copy of the board: the reports read ``board``.
        return searcher.search(board.copy(), node_limit=limits.nodes, deadline=deadline, cancel=flag,
                               # The first snapshot half an interval in, so the first report has a path.
                               pause_at=time.monotonic() + progress_interval / 2, clock=clock,
                               report_every=progress_interval)

    def report() -> Progress:
        nonlocal peak_entries
        peak_entries = max(peak_entries, searcher.tt.entries)
        return _progress(searcher, board, start)

    outcome = yield from in_background(prove, report, progress_interval, cancel)
    peak_entries = max(peak_entries, searcher.tt.entries)
    if cancel is not None and cancel.is_set() and outcome == Outcome.UNKNOWN:
        # Stop answers now; the tables are freed beside what comes next.
        stopped = finish(SolveStatus.CANCELLED)
        release_later(searcher.release)
        return stopped
    if outcome == Outcome.DISPROVEN:
        return finish(SolveStatus.NO_MATE)
    if outcome == Outcome.UNKNOWN:
        return finish(SolveStatus.UNKNOWN)

    pv_moves = _dfpn_line(searcher, board)
    raw_pv = tuple(cshogi.move_to_usi(m) for m in pv_moves)
    # The line ends where the table no longer answers a defence (its entries may
    # have been collected): then mate is proved but df-pn's line and length are not known.
    raw_complete = _ends_in_mate(board, pv_moves)
    raw_length = len(raw_pv) if raw_complete else None
    raw_extra: dict[str, Any] = {"exact": False, "dfpn_pv": raw_pv}
    if not raw_complete:
        raw_extra["pv_complete"] = False
    # One last snapshot of the finished tree (a quick proof may not have had any).
    searcher.snapshot_path = _table_path(searcher, board, pv_moves)
    yield _progress(searcher, board, start)
    proof: Proof | None = None
    if session is None:
        session = AnswerSession()   # for the proved bounds of a stopped length search
    if exact:
        # Without a time limit the exact search still gets a budget: several
        # times what the proof took, at least EXACT_MIN_SECONDS; past it the
        # answer is df-pn's line, marked as not proved shortest.
        exact_deadline = deadline
        if exact_deadline is None:
            spent = time.monotonic() - start
            exact_deadline = clock() + max(EXACT_MIN_SECONDS, EXACT_FACTOR * spent)
        proved = searcher.entry(board)
        if proved is not None and proved[PN] == 0 and proved[LENGTH] >= OFFICIAL_FROM:
            answer = official_proof(position, searcher, deadline=exact_deadline, cancel=cancel, clock=clock,
                                    node_limit=limits.nodes, memory_mb=max(16, limits.memory_mb // 4),
                                    session=session, observe=exact_search.append)
        else:
            answer = build_proof(position, searcher, deadline=exact_deadline, cancel=cancel, clock=clock,
                                 node_limit=limits.nodes, memory_mb=limits.memory_mb, session=session,
                                 observe=exact_search.append)
        proof = yield from _whole_solve(answer, searcher, start, nodes_after_proof)
        if proof is None:
            # Stopped before the length was proved: keep what was proved of it.
            if session.at_least is not None:
                raw_extra["at_least"] = session.at_least
            if session.at_most is not None:
                raw_extra["at_most"] = session.at_most
        if cancel is not None and cancel.is_set() and proof is None:
            return finish(SolveStatus.CANCELLED, pv=raw_pv, length=raw_length,
                          extra={k: v for k, v in raw_extra.items() if k != "dfpn_pv"})
    if proof is not None:
        pv = tuple(proof.main_line)
        return finish(SolveStatus.MATE, pv=pv, length=proof.length, proof=proof,
                      extra={"exact": proof.exact, "dfpn_pv": raw_pv})
    return finish(SolveStatus.MATE, pv=raw_pv, length=raw_length, extra=raw_extra)


def _dfpn_line(searcher: DfPn, board: cshogi.Board) -> list[int]:
    """df-pn's line from its table (a seam for the tests: df-pn itself may be compiled)."""
    return searcher.principal_variation(board)


def _ends_in_mate(board: cshogi.Board, moves: list[int]) -> bool:
    """True when ``moves`` (attacker first) end with the defender mated."""
    b = board.copy()
    for m in moves:
        b.push(m)
    return len(moves) % 2 == 1 and not b.legal_moves


OFFICIAL_FROM = 15
"""df-pn proof length (plies) from which the length-aware df-pn (core.search.official)
gives the official answer instead of core.exact's iterative deepening, which is as
fast or faster on shorter problems (CPU time on mate.tsv and the Microcosmos tails)."""


def solve(position: Position, limits: Limits = Limits(), cancel: Cancel | None = None,
          **kw: Any) -> SolveResult:
    """Run :func:`solve_iter` to the end and return its result."""
    return drive(solve_iter(position, limits, cancel, **kw))

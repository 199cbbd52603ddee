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
from . import builder, kernel_engine, kernel_length
from .background import in_background, release_later
from .dfpn import DfPn, Options as DfPnOptions, Outcome
from .kernel_oracle import KernelOracle, Oracle
from .length_rule import AnswerSession, BoundedSearch
from .length_search import LengthSearch, build_proof as python_proof
from .proof import Proof
from .provisional import provisional_proof
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


def _whole_solve(gen: Generator[Progress, None, Proof | None], searcher: Oracle, start: float,
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


class SearchSession:
    """df-pn's search of one problem, kept after a stop or a limit so that more time continues it.

    Give the same session to :func:`solve_iter` on the same position: df-pn
    resumes with its table and its node count where it stopped (the kernel's
    search, or the Python engine's ``DfPn``), and the result's ``nodes`` go
    on from the stopped run's.  A solve that stops before its answer is
    complete (cancelled, or a limit in the proof or in the official answer)
    keeps its search here; one that ends with an answer lets it go.  The
    table may hold hundreds of megabytes: :meth:`release` when the search
    will not be continued.
    """

    __slots__ = ("sfen", "engine", "search", "elapsed", "cpu_seconds")

    def __init__(self) -> None:
        self.sfen: str | None = None
        self.engine: str | None = None
        self.search: Any = None          # a kernel DfPnSearch or a Python DfPn
        self.elapsed = 0.0               # wall seconds of the runs so far
        self.cpu_seconds = 0.0           # CPU seconds of the runs so far

    def holds(self, sfen: str) -> bool:
        """True when a stopped search of ``sfen`` is kept here."""
        return self.search is not None and self.sfen == sfen

    @property
    def nodes(self) -> int:
        """Nodes df-pn has searched so far in this session (0 when none is kept)."""
        return 0 if self.search is None else int(self.search.nodes)

    def keep(self, sfen: str, engine: str, search: Any, elapsed: float, cpu_seconds: float) -> None:
        self.sfen, self.engine, self.search = sfen, engine, search
        self.elapsed, self.cpu_seconds = elapsed, cpu_seconds

    def release(self) -> None:
        """Let the kept search and its table go."""
        self.search = None
        self.sfen = self.engine = None
        self.elapsed = self.cpu_seconds = 0.0


def _kernel_search(position: Position, limits: Limits, options: DfPnOptions | None,
                   resume: SearchSession | None) -> Any:
    """The kernel search for this solve (resumed from ``resume`` when it holds one), or None for Python.

    The same df-pn for df-pn alone and for the official answer: checks estimated, not played as
    their node expands, so the kernel's 3-ply mate test (which would store nodes the answer's
    builder searches again) does not run.
    """
    if kernel_engine.engine_choice() != "kernel" or not kernel_engine.supports(options):
        return None
    sfen = position.sfen()
    if resume is not None and resume.holds(sfen):
        if resume.engine != "kernel":
            return None
        search = resume.search
        search.clear_cancel()
        return search
    try:
        return kernel_engine.new_search(sfen, limits.memory_mb, options)
    except ValueError:
        # The kernel's board refuses what ``force`` tolerates (二歩, a dead piece): the
        # Python engine searches those, and the result says so ("engine").
        return None


def solve_iter(position: Position, limits: Limits = Limits(), cancel: Cancel | None = None, *,
               options: DfPnOptions | None = None, exact: bool = True,
               progress_interval: float = 0.1, force: bool = False,
               session: AnswerSession | None = None,
               resume: SearchSession | None = None) -> Generator[Progress, None, SolveResult]:
    """Solve a direct-mate problem; yields :class:`Progress`, returns :class:`SolveResult`.

    The side to move is the attacker.  df-pn proves or disproves mate: the
    C++ kernel's (core.search.kernel_engine) where it is built and takes the
    position, else the Python engine's (core.search.dfpn); ``TSUME_ENGINE``
    forces one, and ``extra["engine"]`` says which ran.  After a proof, when
    ``exact`` is true, the official answer (main line, exact length under
    tsume rules, tree, 余詰) is built by core.search.builder over a length
    search: the kernel's (core.search.kernel_length) where the kernel took
    the position, else the Python one (core.search.length_search), which
    asks df-pn's table (core.search.kernel_oracle) as it goes.  That search shares the time
    limit; with none it gets ``max(EXACT_MIN_SECONDS, EXACT_FACTOR × the
    proof's time)``, and past that the result carries df-pn's own line with
    ``extra["exact"]`` False, and what the length search had proved by then:
    ``extra["at_least"]`` and ``extra["at_most"]`` (plies, tsume rules); its
    ``proof`` is then df-pn's proof read as a tree (:mod:`.provisional`: not
    exact, with the 無駄合 the length search found), and its ``length`` the
    bound proved, not the length of df-pn's line.
    While it runs, its progress ``stats`` say which question it asks
    (``asking``: "mate within n?") and those bounds.

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
        resume: a :class:`SearchSession`: a stopped search of this position
            kept there is continued (its table and node count), and this
            solve's search is kept there when it stops before its answer.
            ``limits`` apply to this run; nodes and elapsed time count on.

    Raises:
        IllegalPositionError: the position is not a valid problem; the
            message lists every problem.
    """
    tolerated = (Status.NIFU | Status.DEAD_PIECE) if force else Status.VALID
    blocking = [p for p in position.problems() if not p.flag & tolerated]
    if blocking:
        raise IllegalPositionError(blocking)
    sfen = position.sfen()
    if resume is not None and not resume.holds(sfen):
        resume.release()   # a search of another position: not this one's to continue
    kernel_search = _kernel_search(position, limits, options, resume)
    if kernel_search is not None and not exact and resume is None:
        # df-pn alone, as fast as it goes: the kernel's own driver (core.search.kernel_engine).
        return (yield from kernel_engine.solve_iter(sfen, limits, cancel, options=options,
                                                    progress_interval=progress_interval, search=kernel_search))
    board = position.board().copy()
    resumed = resume is not None and resume.holds(sfen)
    before_elapsed = resume.elapsed if resume is not None and resumed else 0.0
    before_cpu = resume.cpu_seconds if resume is not None and resumed else 0.0
    cpu0 = time.process_time()
    start = time.monotonic() - before_elapsed
    clock = limits.clock()
    deadline = clock() + limits.seconds if limits.seconds is not None else None
    peak_entries = 0
    engine = "kernel" if kernel_search is not None else "python"
    searcher: DfPn | None = None
    oracle: Oracle
    if kernel_search is not None:
        oracle = KernelOracle(kernel_search, position.turn)
    else:
        if resumed and resume is not None and isinstance(resume.search, DfPn):
            searcher = resume.search
        else:
            searcher = DfPn(position.turn, limits.memory_mb, options or DfPnOptions())
        oracle = searcher
    node_limit = limits.nodes
    if node_limit is not None and resumed:
        node_limit += oracle.nodes   # this run's budget, on top of what the stopped run searched

    exact_search: list[BoundedSearch] = []   # the official-answer search, once it runs

    def nodes_after_proof() -> int:
        return exact_search[0].nodes if exact_search else 0

    def cpu_seconds() -> float:
        # The process's CPU time: the search thread's and this one's.
        return before_cpu + time.process_time() - cpu0

    def finish(status: SolveStatus, **kw: Any) -> SolveResult:
        kw["extra"] = {**kw.get("extra", {}), "engine": engine, "cpu_seconds": round(cpu_seconds(), 4)}
        if kernel_search is not None:
            entries = int(kernel_search.entries)
            peak_mb = kernel_search.peak_entries * kernel_search.bytes_per_entry / 2**20
        else:
            entries = oracle.tt.entries
            peak_mb = peak_entries * BYTES_PER_ENTRY / 2**20
        return SolveResult(status, sfen, nodes=oracle.nodes + nodes_after_proof(),
                           seconds=time.monotonic() - start, table_entries=entries,
                           peak_memory_mb=peak_mb, **kw)

    def stopped(status: SolveStatus, **kw: Any) -> SolveResult:
        """The result of a run stopped before its answer; its search kept for more time when asked."""
        result = finish(status, **kw)
        if resume is not None:
            resume.keep(sfen, engine, kernel_search if kernel_search is not None else searcher,
                        time.monotonic() - start, cpu_seconds())
        elif searcher is not None and status == SolveStatus.CANCELLED:
            release_later(searcher.release)   # Stop answers now; the tables are freed beside what comes next
        return result

    def done(result: SolveResult) -> SolveResult:
        if resume is not None:
            resume.release()
        return result

    if kernel_search is not None:
        outcome = yield from _prove_on_kernel(kernel_search, limits, node_limit, cancel, progress_interval, start)
    else:
        assert searcher is not None
        dfpn = searcher

        def prove(flag: Cancel) -> Outcome:
            # The search runs on its own copy of the board: the reports read ``board``.
            return dfpn.search(board.copy(), node_limit=node_limit, deadline=deadline, cancel=flag,
                               # The first snapshot half an interval in, so the first report has a path.
                               pause_at=time.monotonic() + progress_interval / 2, clock=clock,
                               report_every=progress_interval)

        def report() -> Progress:
            nonlocal peak_entries
            peak_entries = max(peak_entries, dfpn.tt.entries)
            return _progress(dfpn, board, start)

        outcome = yield from in_background(prove, report, progress_interval, cancel)
        peak_entries = max(peak_entries, dfpn.tt.entries)
    if cancel is not None and cancel.is_set() and outcome == Outcome.UNKNOWN:
        return stopped(SolveStatus.CANCELLED)
    if outcome == Outcome.DISPROVEN:
        return done(finish(SolveStatus.NO_MATE))
    if outcome == Outcome.UNKNOWN:
        return stopped(SolveStatus.UNKNOWN)

    if kernel_search is not None:
        seconds_left = None if deadline is None else max(0.0, deadline - clock())
        line, raw_complete = yield from kernel_engine.proof_line(
            kernel_search, limits.nodes or 0, -1.0 if seconds_left is None else seconds_left, limits.cpu_time,
            cancel, progress_interval, start)
        pv_moves = _usi_line(board, line)
        raw_complete = raw_complete and _ends_in_mate(board, pv_moves)
    else:
        assert searcher is not None
        pv_moves = _dfpn_line(searcher, board)
        # The line ends where the table no longer answers a defence (its entries may
        # have been collected): then mate is proved but df-pn's line and length are not known.
        raw_complete = _ends_in_mate(board, pv_moves)
    raw_pv = tuple(cshogi.move_to_usi(m) for m in pv_moves)
    raw_length = len(raw_pv) if raw_complete else None
    raw_extra: dict[str, Any] = {"exact": False, "dfpn_pv": raw_pv}
    if not raw_complete:
        raw_extra["pv_complete"] = False
    # One last snapshot of the finished tree (a quick proof may not have had any).
    if kernel_search is not None:
        yield _kernel_progress(kernel_search, start)
    else:
        assert searcher is not None
        searcher.snapshot_path = _table_path(searcher, board, pv_moves)
        yield _progress(searcher, board, start)
    if not exact:
        return done(finish(SolveStatus.MATE, pv=raw_pv, length=raw_length, extra=raw_extra))
    if session is None:
        session = AnswerSession()   # for the proved bounds of a stopped length search
    # Without a time limit the exact search still gets a budget: several
    # times what the proof took, at least EXACT_MIN_SECONDS; past it the
    # answer is df-pn's line, marked as not proved shortest.
    exact_deadline = deadline
    if exact_deadline is None:
        spent = time.monotonic() - start
        exact_deadline = clock() + max(EXACT_MIN_SECONDS, EXACT_FACTOR * spent)
    answer: Generator[Progress, None, Proof | None]
    if kernel_search is not None and kernel_length.chosen() and (options is None or options == DfPnOptions()):
        # The length-aware search in the kernel (core.search.kernel_length), the builder on top;
        # the kernel's df-pn above is its raw oracle, table and all: the root's proof is not
        # searched again.
        answer = kernel_length.build_proof(position, deadline=exact_deadline, cancel=cancel, clock=clock,
                                           node_limit=limits.nodes, memory_mb=max(16, limits.memory_mb // 4),
                                           session=session, observe=exact_search.append, oracle=kernel_search)
    else:
        # The same search in Python (core.search.length_search), asking df-pn's table above.
        answer = python_proof(position, oracle, deadline=exact_deadline, cancel=cancel, clock=clock,
                              node_limit=limits.nodes, memory_mb=max(16, limits.memory_mb // 4),
                              session=session, observe=exact_search.append)
    proof = yield from _whole_solve(answer, oracle, start, nodes_after_proof)
    if proof is None:
        # Stopped before the length was proved: keep what was proved of it.
        if session.at_least is not None:
            raw_extra["at_least"] = session.at_least
        if session.at_most is not None:
            raw_extra["at_most"] = session.at_most
    if cancel is not None and cancel.is_set() and proof is None:
        session.paused = None   # stopped on request: nothing goes on with it
        if exact_search and isinstance(exact_search[0], LengthSearch) and session.search is not exact_search[0]:
            # Stop answers now; the length table is freed beside what comes next (unless the
            # session keeps it: the length was proved before the stop, for a check to reuse).
            release_later(exact_search[0].release)
        return stopped(SolveStatus.CANCELLED, pv=raw_pv, length=raw_length,
                       extra={k: v for k, v in raw_extra.items() if k != "dfpn_pv"})
    if proof is not None:
        pv = tuple(proof.main_line)
        return done(finish(SolveStatus.MATE, pv=pv, length=proof.length, proof=proof,
                           extra={"exact": proof.exact, "dfpn_pv": raw_pv}))
    if raw_complete:
        # The length was not proved in time: df-pn's proof as the tree, with the
        # 無駄合 the length search had found, marked not exact (core.search.provisional).
        # df-pn's line need not follow the longest defence, so its length bounds
        # nothing: the length given is the bound proved (df-pn's proof length at least).
        at_most = raw_extra.get("at_most")
        if at_most is None:
            root = oracle.entry(board)
            if root is not None and root[PN] == 0 and root[LENGTH] >= 0:
                at_most = raw_extra["at_most"] = root[LENGTH]
        if at_most is not None:
            raw_length = at_most
        judged = exact_search[0] if exact_search else None
        proof = provisional_proof(sfen, oracle, pv_moves,
                                  futile_known=judged.futile_known if judged is not None else None,
                                  at_least=raw_extra.get("at_least"), at_most=at_most)
    # The length search ran out of its budget: df-pn's line stands, and more time may prove it.
    return stopped(SolveStatus.MATE, pv=raw_pv, length=raw_length, extra=raw_extra, proof=proof)


def _prove_on_kernel(search: Any, limits: Limits, node_limit: int | None, cancel: Cancel | None,
                     interval: float, start: float) -> Generator[Progress, None, Outcome]:
    """The kernel's df-pn of the root (:func:`.kernel_engine.prove`: a first slice on this thread, the
    rest on a search thread), its progress yielded as the Python engine's."""
    seconds = -1.0 if limits.seconds is None else float(limits.seconds)
    got = yield from kernel_engine.prove(search, node_limit or 0, seconds, limits.cpu_time, cancel, interval, start,
                                         SearchPhase.MATE)
    return {"proven": Outcome.PROVEN, "disproven": Outcome.DISPROVEN}.get(got, Outcome.UNKNOWN)


def _kernel_progress(search: Any, start: float) -> Progress:
    return replace(kernel_engine.progress_from_snapshot(search.snapshot(), time.monotonic() - start),
                   phase=SearchPhase.MATE)


def _dfpn_line(searcher: DfPn, board: cshogi.Board) -> list[int]:
    """df-pn's line from its table (a seam for the tests)."""
    return searcher.principal_variation(board)


def _usi_line(board: cshogi.Board, line: list[str]) -> list[int]:
    """The USI moves of ``line``, played from ``board``, in cshogi's encoding (cut at an illegal one)."""
    b = board.copy()
    out = []
    for usi in line:
        move = b.move_from_usi(usi)
        if not move or not b.is_legal(move):
            break
        out.append(move)
        b.push(move)
    return out


def _ends_in_mate(board: cshogi.Board, moves: list[int]) -> bool:
    """True when ``moves`` (attacker first) end with the defender mated."""
    b = board.copy()
    for m in moves:
        b.push(m)
    return len(moves) % 2 == 1 and not b.legal_moves


def can_continue_alternatives(result: SolveResult, session: AnswerSession | None) -> bool:
    """True when ``result`` is an official answer whose 余詰 search ran out of its limits and
    ``session`` keeps the search it was built with (:func:`continue_alternatives` goes on)."""
    proof = result.proof
    return (isinstance(proof, Proof) and proof.exact and not proof.alternatives_checked
            and session is not None and session.usable_for(result.sfen))


def continue_alternatives(position: Position, limits: Limits = Limits(), cancel: Cancel | None = None, *,
                          session: AnswerSession) -> Generator[Progress, None, SolveResult]:
    """More time for an official answer whose 余詰 search ran out: the search ``session`` kept is
    asked again, within ``limits`` afresh (:func:`can_continue_alternatives` says when).

    Its table holds every answer the run before proved and the numbers of the questions it
    left open, so the length, the tree and the 余詰 found so far come back from it, and the
    search goes on where it stopped.  Returns the answer, the 余詰 search whole or again cut
    short (``alternatives_checked_to`` then as far as it reached), or a ``cancelled`` /
    ``unknown`` result when the limits end even the rebuilding of the answer.

    Raises:
        ValueError: ``session`` keeps no search of ``position`` with its length proved.
    """
    sfen = position.sfen()
    search = session.search
    if search is None or not session.usable_for(sfen):
        raise ValueError("no official answer of this position is kept to continue")
    start = time.monotonic()
    cpu0 = time.process_time()
    nodes0 = search.nodes
    search.budget(limits, cancel, limits.clock())
    proof = yield from builder.answer(search, position, session=session)
    engine = "kernel" if isinstance(search, kernel_length.KernelLengthSearch) else "python"
    extra: dict[str, Any] = {"engine": engine, "cpu_seconds": round(time.process_time() - cpu0, 4)}
    entries, _fill = search.table_size()
    nodes, seconds = search.nodes - nodes0, time.monotonic() - start
    if proof is None:
        status = SolveStatus.CANCELLED if cancel is not None and cancel.is_set() else SolveStatus.UNKNOWN
        return SolveResult(status, sfen, nodes=nodes, seconds=seconds, table_entries=entries, extra=extra)
    extra["exact"] = proof.exact
    return SolveResult(SolveStatus.MATE, sfen, pv=tuple(proof.main_line), length=proof.length, nodes=nodes,
                       seconds=seconds, table_entries=entries, proof=proof, extra=extra)


def solve(position: Position, limits: Limits = Limits(), cancel: Cancel | None = None,
          **kw: Any) -> SolveResult:
    """Run :func:`solve_iter` to the end and return its result."""
    return drive(solve_iter(position, limits, cancel, **kw))

"""Check a given solution (a record's 作意) against the exact official answer.

The given line (USI moves from the problem's position) is replayed and, at
each of its moves, compared with what the official answer's length search
proves about that position (the solver's: the kernel's where it is built,
:mod:`.search.kernel_length`, else :mod:`.search.length_search`):

* ``shorter_mate`` (早詰): the attacker can mate sooner than the line does;
* ``alternative`` (余詰): another attacker move, not the same move with the
  other promotion choice, also mates within the plies the line has left;
* ``promotion_choice`` (成不成非限定): the line's move with the other promotion
  choice also mates within them (the last move excepted: a mate either way
  there is not a flaw);
* ``longer_defence`` (変長 or a defence the line misses): a defence that
  counts lasts longer than the line's;
* ``futile_judgement``: the line plays a drop interposition that tsume rules
  judge futile (無駄合), or ends where a counted defence remains;
* ``pieces_left`` (駒余り): the line ends in mate with pieces still in the
  attacker's hand.

Each discrepancy carries a replayable line: USI moves from the start
position.  The line is ``confirmed`` when it has none and its length is the
exact length.  A check that runs out of its limits (or is cancelled) says so
(``complete`` false); the discrepancies it found before that are proved all
the same.  ``tsume check``, ``tsume batch`` and the window's check all run
:func:`check_solution`, or :func:`check_iter`, which yields its progress: the
solve's phases first, then :attr:`~.search.contract.SearchPhase.CHECK` with
the ply of the line examined (``check_ply`` of ``check_plies`` in ``stats``).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any
from collections.abc import Callable, Generator

import cshogi

from .search import kernel_length
from .search.contract import Cancel, Limits, Progress, SolveResult, SolveStatus, drive
from .search.dfpn import Outcome
from .search.kernel_length import KernelLengthSearch
from .search.kernel_oracle import engine_of, make_oracle
from .search.length_rule import AnswerSession, BoundedSearch, SearchAborted
from .search.builder import answer
from .search.length_search import LengthSearch
from .search.solver import solve_iter
from .shogi.position import IllegalPositionError, Position


NO_MATE = "this position has no mate (proved), so no solution can hold"


class CheckError(ValueError):
    """The given solution cannot be checked: a move that is not legal where it is played,
    an even number of plies, or a position proved to have no mate."""


@dataclass(frozen=True, slots=True)
class Discrepancy:
    """One way the given line differs from the official answer, at 1-based ``ply``."""

    kind: str
    ply: int
    line: tuple[str, ...]


KINDS = ("shorter_mate", "alternative", "promotion_choice", "longer_defence", "futile_judgement",
         "pieces_left")
"""The kinds of :class:`Discrepancy`, in the order summaries list them."""


@dataclass(frozen=True, slots=True)
class CheckResult:
    """The verdict on a given line: ``length`` is the exact length (None: not proved in time).

    ``complete`` is False when the limits ran out before every move of the
    line was examined; the discrepancies found by then are proved.
    """

    confirmed: bool
    length: int | None
    given: tuple[str, ...]
    discrepancies: tuple[Discrepancy, ...] = field(default=())
    complete: bool = True
    nodes: int = 0
    """Nodes the check searched (its own, and its df-pn oracle's)."""
    reused: bool = False
    """The check asked its questions of a solve's search (:class:`AnswerSession`) instead of solving again."""
    engine: str = ""
    """The df-pn its questions of raw mate went to: ``"kernel"`` or ``"python"``."""
    at_least: int | None = None
    """With ``length`` None: the lower bound of the length the solve had proved (plies), if any."""
    at_most: int | None = None
    """With ``length`` None: the upper bound the solve had proved, if any."""

    @property
    def too_short(self) -> bool:
        """With the length not proved: the lower bound proved lies above the line's length, so the
        line mates sooner than any mate can be forced; a defence it misses lasts longer (変長),
        whether or not the check found where within its limits."""
        return self.length is None and self.at_least is not None and self.at_least > len(self.given)

    def check_json(self) -> dict[str, Any]:
        """The ``check`` object: ``confirmed``, ``discrepancies``, ``complete: false`` when cut short,
        and ``too_short: true`` when a lower bound refutes the line (:attr:`too_short`)."""
        out: dict[str, Any] = {"confirmed": self.confirmed,
                               "discrepancies": [{"kind": d.kind, "ply": d.ply, "line": list(d.line)}
                                                 for d in self.discrepancies]}
        if not self.complete:
            out["complete"] = False
        if self.too_short:
            out["too_short"] = True
        return out

    def as_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"length": self.length, "given_length": len(self.given), "exact": self.length is not None,
               "check": self.check_json()}
        if self.engine:
            out["engine"] = self.engine
        if self.length is None:
            for key, value in (("at_least", self.at_least), ("at_most", self.at_most)):
                if value is not None:
                    out[key] = value
        return out


Check = Generator[Progress, None, CheckResult]
"""A check that yields the progress of its searches and returns its verdict."""


def _promotion_twins(a: int, b: int) -> bool:
    return (not cshogi.move_is_drop(a) and not cshogi.move_is_drop(b)
            and cshogi.move_from(a) == cshogi.move_from(b) and cshogi.move_to(a) == cshogi.move_to(b))


def check_solution(position: Position, given: list[str] | tuple[str, ...],
                   limits: Limits = Limits(seconds=60), cancel: Cancel | None = None,
                   session: AnswerSession | None = None, solved: SolveResult | None = None) -> CheckResult:
    """Run :func:`check_iter` to the end and return its verdict."""
    return drive(check_iter(position, given, limits, cancel, session, solved))


def check_iter(position: Position, given: list[str] | tuple[str, ...],
               limits: Limits = Limits(seconds=60), cancel: Cancel | None = None,
               session: AnswerSession | None = None, solved: SolveResult | None = None) -> Check:
    """Compare ``given`` (USI moves from ``position``) with the exact answer; yields progress.

    When ``limits`` run out, or ``cancel`` is set, the result is not
    ``complete`` (its ``length`` is None when the exact length was not proved
    by then).  ``session``, filled in by a solve of the same position
    (:func:`~.search.solver.solve_iter`), lends its search: the length it
    proved and the table behind it answer the check's questions, so the
    problem is not solved a second time; ``limits`` then bound the check's
    own work.  Without one the check solves the position first, as ``tsume
    batch`` does, within ``limits``, and asks that answer's search within
    ``limits`` over again.  A solve that proves only bounds of the length
    still checks the line where a bound refutes it (:func:`check_from_bounds_iter`);
    otherwise its answer, stopped while it asked the root's length
    (``session.paused``), goes on within the check's limits, and the line is
    compared once the length is proved (``reused`` when the session was
    given).  ``solved``, with the ``session`` its solve filled, is a solve of
    ``position`` already done (the window's, whose progress the user has
    watched): the check starts from it as from its own solve, and its nodes
    are not counted again.

    Raises:
        CheckError: a move of ``given`` is not legal where it is played (or an
            attacker move is not a check), or the position is proved no mate.
    """
    root = position.board().copy()
    attacker = root.turn
    # Replay first: a bad line is the user's mistake, whatever the search finds.
    moves = _replay(root, given)
    clock = limits.clock()
    sfen = position.sfen()
    reused = session is not None and (session.usable_for(sfen) or session.resumable_for(sfen))
    solve_nodes = 0
    if not reused:
        # No solve to reuse: solve first, as `batch` does, and ask that answer's search.  The answer's
        # builder leaves in its table what the line's questions need; asked cold, along a line off the
        # answer's, they can cost far more (将棋無双 70番: 140 M nodes unfinished, against a 14 s solve).
        if solved is None or session is None:
            session = AnswerSession()
            try:
                solved = yield from solve_iter(position, limits, cancel, session=session, force=True)
            except IllegalPositionError as exc:
                raise CheckError(f"the position is not a valid problem: {exc}") from exc
            solve_nodes = solved.nodes   # the check's nodes count its solve's
        elif solved.sfen != sfen:
            raise ValueError("the solve given is not of the position checked")
        if solved.status == SolveStatus.NO_MATE:
            raise CheckError(NO_MATE)
        if not session.usable_for(sfen):
            # Only bounds proved: one that refutes the line checks it; else the stopped search goes on.
            at_least, at_most = _plies(solved.extra.get("at_least")), _plies(solved.extra.get("at_most"))
            refuted = yield from check_from_bounds_iter(position, given, at_least, at_most, limits, cancel, session)
            if refuted is not None:
                return replace(refuted, nodes=refuted.nodes + solve_nodes, at_least=at_least, at_most=at_most)
            if not session.resumable_for(sfen):
                return CheckResult(False, None, tuple(given), complete=False, nodes=solve_nodes,
                                   engine=str(solved.extra.get("engine", "python")), at_least=at_least,
                                   at_most=at_most)
    assert session is not None
    s = session.search if session.usable_for(sfen) else session.paused
    assert s is not None
    s.budget(limits, cancel, clock)   # the check's own, as `batch` gives it: the limits over again
    start = _nodes(s) - solve_nodes
    if session.length is None:
        # A search stopped while it asked the root's length: the answer goes on (its tree without the
        # 余詰 search, which fills the table the line's questions ask), within the check's limits.
        s.phase = "search"
        yield from answer(s, position, alternatives=False, session=session)
        if not session.usable_for(sfen):
            return CheckResult(False, None, tuple(given), complete=False, nodes=_nodes(s) - start, reused=reused,
                               engine=_engine(s), at_least=session.at_least, at_most=session.at_most)
    s.board = root.copy()
    s.freeze(False)   # the builder is done: its entries may be collected again
    length = session.length
    assert length is not None
    s.phase = "check"   # questions about other positions than the root
    out: list[Discrepancy] = []
    try:
        yield from _compare(s, root, attacker, given, moves, out)
    except SearchAborted:
        return CheckResult(False, length, tuple(given), tuple(out), complete=False, nodes=_nodes(s) - start,
                           reused=reused, engine=_engine(s))
    return CheckResult(not out and len(moves) == length, length, tuple(given), tuple(out),
                       nodes=_nodes(s) - start, reused=reused, engine=_engine(s))


def check_from_bounds_iter(position: Position, given: list[str] | tuple[str, ...], at_least: int | None,
                           at_most: int | None, limits: Limits = Limits(seconds=60), cancel: Cancel | None = None,
                           session: AnswerSession | None = None) -> Generator[Progress, None, CheckResult | None]:
    """The check of a line whose exact length is not proved, from the bounds that are; yields progress.

    An upper bound below the line's length is checked by
    :func:`check_below_bound` (早詰), a lower bound above it by
    :func:`check_above_bound` (a missed defence), within ``limits``; None
    when neither bound refutes the line.
    """
    if at_most is not None and at_most < len(given):
        return (yield from _below_bound(position, given, at_most, limits, cancel, session))
    if at_least is not None and at_least > len(given):
        return (yield from _above_bound(position, given, at_least, limits, cancel, session))
    return None


def _plies(value: Any) -> int | None:
    """A bound from a result's ``extra`` (None when absent)."""
    return value if isinstance(value, int) else None


def check_below_bound(position: Position, given: list[str] | tuple[str, ...], at_most: int,
                      limits: Limits = Limits(seconds=60), cancel: Cancel | None = None,
                      session: AnswerSession | None = None) -> CheckResult:
    """The check of a line where only an upper bound ``at_most`` of the length is proved.

    Without the exact length the line cannot be compared move by move, but a
    mate within ``at_most`` plies, fewer than the line's, is a shorter mate
    (早詰) all the same: the result carries it at ply 1, with an attacker move
    that mates within the bound (asked of a length search of its own, or of
    the stopped solve's that ``session`` keeps, within ``limits``), and is not
    ``complete``; with no discrepancy when the limits run out first.

    Raises:
        CheckError: as :func:`check_solution` (a bad line, or no mate).
        ValueError: ``at_most`` is not below the line's length.
    """
    return drive(_below_bound(position, given, at_most, limits, cancel, session))


def _below_bound(position: Position, given: list[str] | tuple[str, ...], at_most: int, limits: Limits,
                 cancel: Cancel | None, session: AnswerSession | None) -> Check:
    """:func:`check_below_bound`, yielding progress."""
    if at_most >= len(given):
        raise ValueError(f"a bound of {at_most} plies is not below the line's {len(given)}")
    _root, _moves, fresh, start = yield from _bound_search(position, given, limits, cancel, session)
    if isinstance(fresh, CheckResult):
        return fresh
    fresh.phase = "check"
    fresh.checking = (1, len(given))
    try:
        first = yield from _first_mate(fresh, at_most)
    except SearchAborted:
        return CheckResult(False, None, tuple(given), complete=False, nodes=_nodes(fresh) - start,
                           engine=_engine(fresh))
    return CheckResult(False, None, tuple(given), (Discrepancy("shorter_mate", 1, (cshogi.move_to_usi(first),)),),
                       complete=False, nodes=_nodes(fresh) - start, engine=_engine(fresh))


def check_above_bound(position: Position, given: list[str] | tuple[str, ...], at_least: int,
                      limits: Limits = Limits(seconds=60), cancel: Cancel | None = None,
                      session: AnswerSession | None = None) -> CheckResult:
    """The check of a line where only a lower bound ``at_least`` of the length is proved, above the line's.

    No mate within the line's length exists, so somewhere the line misses a
    defence: at some defender move of the line another defence that counts
    lasts longer than the plies the line has left (変長), or the line ends
    where a counted defence remains.  The line's end is looked at first (as
    :func:`check_solution` does); then a defender position of the line that
    is not mated within the plies the line has left, whose next position on
    the line is, is found by bisection (the root's position is not, the end
    is), and every counted defence there that outlasts the line is reported.
    Other plies may hold more: the result is not ``complete``, and has no
    discrepancy when the limits run out first.  The questions go to the
    stopped solve's search that ``session`` keeps, else to one of its own.
    The discrepancies proved before the limits run out are kept.

    Raises:
        CheckError: as :func:`check_solution` (a bad line, or no mate).
        ValueError: ``at_least`` is not above the line's length.
    """
    return drive(_above_bound(position, given, at_least, limits, cancel, session))


def _above_bound(position: Position, given: list[str] | tuple[str, ...], at_least: int, limits: Limits,
                 cancel: Cancel | None, session: AnswerSession | None) -> Check:
    """:func:`check_above_bound`, yielding progress."""
    if at_least <= len(given):
        raise ValueError(f"a bound of {at_least} plies is not above the line's {len(given)}")
    root, moves, s, start = yield from _bound_search(position, given, limits, cancel, session)
    if isinstance(s, CheckResult):
        return replace(s, at_least=at_least)
    s.phase = "check"
    out: list[Discrepancy] = []
    try:
        yield from _missed_defence(s, root, tuple(given), moves, out)
    except SearchAborted:
        pass   # each discrepancy found by then was proved: kept, as check_solution keeps them
    return CheckResult(False, None, tuple(given), tuple(out), complete=False, nodes=_nodes(s) - start,
                       engine=_engine(s), at_least=at_least)


def _bound_search(position: Position, given: list[str] | tuple[str, ...], limits: Limits, cancel: Cancel | None,
                  session: AnswerSession | None) -> Generator[
                      Progress, None, tuple[cshogi.Board, list[int], BoundedSearch | CheckResult, int]]:
    """The root, the moves of ``given`` (replayed first: CheckError for a bad line), the length search
    a check from a bound asks and its node count before the check: the stopped solve's search that
    ``session`` keeps (its table holds what the solve proved), else one of the root's own; an
    incomplete result when the limits ran out first."""
    root = position.board().copy()
    moves = _replay(root, given)
    clock = limits.clock()
    if session is not None and session.resumable_for(position.sfen()):
        s = session.paused
        assert s is not None
        s.budget(limits, cancel, clock)
        s.board = root.copy()
        return root, moves, s, _nodes(s)
    deadline = clock() + limits.seconds if limits.seconds is not None else None
    fresh = yield from _fresh_search(root, limits, deadline, cancel, clock)
    if not isinstance(fresh, BoundedSearch):
        return root, moves, CheckResult(False, None, tuple(given), complete=False, nodes=fresh[0],
                                        engine=fresh[1]), 0
    fresh.board = root.copy()
    return root, moves, fresh, 0


def _missed_defence(s: BoundedSearch, root: cshogi.Board, given: tuple[str, ...], moves: list[int],
                    out: list[Discrepancy]) -> Generator[Progress, None, None]:
    """Append to ``out`` the defences a line that mates too soon misses (:func:`check_above_bound`)."""
    n = len(moves)
    boards = [root.copy()]
    for mv in moves:
        b = boards[-1].copy()
        b.push(mv)
        boards.append(b)
    s.checking = (n, n)
    if (yield from _end_discrepancies(s, boards[n], given, out)):
        return
    # Defender positions of the line (index i: after i moves).  "Mated within n - i?" is no at i = 1
    # (the root has no mate within n) and yes at the end; where it turns from no to yes, at i and
    # i + 2, the line's defence at i is mated within n - i - 1 and another defence is not.
    if n < 3:
        return   # a one-move line that is no mate: the end above has said so
    low, high = 1, n
    while high - low > 2:
        mid = low + ((high - low) // 4) * 2   # defender positions have odd indices
        s.board = boards[mid].copy()
        s.checking = (mid, n)
        if (yield from s.and_within(n - mid)):
            high = mid
        else:
            low = mid
    s.checking = (low + 1, n)
    yield from _defender_discrepancies(s, boards[low], low, n - low, n - low + 1, given, moves[low], out)


def _replay(root: cshogi.Board, given: list[str] | tuple[str, ...]) -> list[int]:
    """The moves of ``given`` from ``root``; CheckError for an illegal move, a non-check or an even length."""
    attacker = root.turn
    b = root.copy()
    moves: list[int] = []
    for i, text in enumerate(given):
        legal = {cshogi.move_to_usi(m): m for m in (b.check_moves if b.turn == attacker else b.legal_moves)}
        if text not in legal:
            what = "a check" if b.turn == attacker else "a legal reply"
            raise CheckError(f"move {i + 1} of the solution, {text!r}, is not {what} in {b.sfen()!r}")
        moves.append(legal[text])
        b.push(legal[text])
    if len(given) % 2 == 0:
        raise CheckError(f"the solution has {len(given)} plies: a mate ends with the attacker's move")
    return moves


def _fresh_search(root: cshogi.Board, limits: Limits, deadline: float | None, cancel: Cancel | None,
                  clock: Callable[[], float]) -> Generator[Progress, None, BoundedSearch | tuple[int, str]]:
    """The length search of a check from a bound (no answer built), its root proved a mate by its df-pn.

    The solver's: the kernel's length search where it is built and takes the position, else the
    Python one on a df-pn of its own.  (nodes, engine) when the limits ran out before the proof.

    Raises:
        CheckError: the root is proved to have no mate.
    """
    if kernel_length.chosen():
        try:
            ks = KernelLengthSearch(root.copy(), deadline=deadline, cancel=cancel, node_limit=limits.nodes,
                                    distance_rule=True, memory_mb=max(16, limits.memory_mb // 4),
                                    oracle_mb=max(16, limits.memory_mb // 4), clock=clock)
        except ValueError:
            pass   # a position the kernel refuses (二歩 tolerated by ``force``): the Python search's
        else:
            try:
                outcome = yield from ks.settle_root()
            except SearchAborted:
                outcome = "unknown"
            if outcome == "disproven":
                raise CheckError(NO_MATE)
            if outcome != "proven":
                return _nodes(ks), "kernel"
            return ks
    oracle = make_oracle(root, max(16, limits.memory_mb // 2))
    got = oracle.search(root.copy(), deadline=deadline, cancel=cancel, node_limit=limits.nodes, clock=clock)
    if got == Outcome.DISPROVEN:
        raise CheckError(NO_MATE)
    if got != Outcome.PROVEN:
        return oracle.nodes, engine_of(oracle)
    return LengthSearch(root.copy(), oracle, deadline=deadline, cancel=cancel, node_limit=limits.nodes,
                        distance_rule=True, memory_mb=max(16, limits.memory_mb // 4), clock=clock)


def _engine(s: BoundedSearch) -> str:
    """The df-pn ``s`` asks of raw mate: ``"kernel"`` or ``"python"``."""
    return "kernel" if isinstance(s, KernelLengthSearch) else engine_of(s.mate.oracle)


def _nodes(s: BoundedSearch) -> int:
    """Nodes ``s`` and its df-pn oracle have searched so far."""
    oracle = s.mate.oracle
    return s.nodes + (oracle.nodes if oracle is not None else 0)


def _compare(s: BoundedSearch, root: cshogi.Board, attacker: int, given: list[str] | tuple[str, ...],
             moves: list[int], out: list[Discrepancy]) -> Generator[Progress, None, None]:
    """Append to ``out`` every discrepancy of the line ``moves`` (``given`` in USI) from ``root``."""
    b = root.copy()
    n = len(moves)
    for i, mv in enumerate(moves):
        left = n - i          # plies the given line takes from here
        prefix = tuple(given[:i])
        s.checking = (i + 1, n)
        s.board = b.copy()
        if b.turn == attacker:
            value = yield from s.exact(True, left)
            if value is not None and value < left:
                first = yield from _first_mate(s, value)
                out.append(Discrepancy("shorter_mate", i + 1, prefix + (cshogi.move_to_usi(first),)))
            for c in b.check_moves:
                twin = _promotion_twins(c, mv)
                if c == mv or (left == 1 and twin):
                    continue
                s.board = b.copy()
                s.board.push(c)
                if (yield from s.and_within(left - 1)):
                    out.append(Discrepancy("promotion_choice" if twin else "alternative", i + 1,
                                           prefix + (cshogi.move_to_usi(c),)))
        else:
            value = yield from s.exact(False, left + 1)
            yield from _defender_discrepancies(s, b, i, left, value if value is not None else left + 1, given, mv, out)
        b.push(mv)
    # The end: mated under tsume rules, with no counted defence left, and nothing left in hand.
    s.checking = (n, n)
    real = yield from _end_discrepancies(s, b, given, out)
    if not real and any(b.pieces_in_hand[attacker]):
        out.append(Discrepancy("pieces_left", n, tuple(given)))


def _defender_discrepancies(s: BoundedSearch, b: cshogi.Board, i: int, left: int, bound: int,
                            given: list[str] | tuple[str, ...], mv: int,
                            out: list[Discrepancy]) -> Generator[Progress, None, None]:
    """At the defender's move ``mv`` (index ``i`` of ``given``, ``left`` plies to the line's end) from
    ``b``: the line's move judged futile at ``bound``, and every counted defence that outlasts the line."""
    s.board = b.copy()
    defs = yield from s.defences(bound)
    if mv in {m for fs in defs.futile for m in fs.moves}:
        out.append(Discrepancy("futile_judgement", i + 1, tuple(given[:i + 1])))
    for e in defs.real:
        if e == mv:
            continue
        s.board = b.copy()
        s.board.push(e)
        if not (yield from s.or_within(left - 1)):
            out.append(Discrepancy("longer_defence", i + 1, tuple(given[:i]) + (cshogi.move_to_usi(e),)))


def _end_discrepancies(s: BoundedSearch, end: cshogi.Board, given: list[str] | tuple[str, ...],
                       out: list[Discrepancy]) -> Generator[Progress, None, list[int]]:
    """The counted defences left where the line ends (none when it ends in mate under tsume rules),
    each appended to ``out``."""
    s.board = end.copy()
    if not any(True for _ in end.legal_moves):
        return []
    real = list((yield from s.defences(0)).real)
    for e in real:
        out.append(Discrepancy("futile_judgement" if cshogi.move_is_drop(e) else "longer_defence",
                               len(given) + 1, tuple(given) + (cshogi.move_to_usi(e),)))
    return real


def _first_mate(s: BoundedSearch, value: int) -> Generator[Progress, None, int]:
    """An attacker move of ``s.board`` that mates within ``value`` plies."""
    b = s.board.copy()
    for c in b.check_moves:
        s.board = b.copy()
        s.board.push(c)
        if (yield from s.and_within(value - 1)):
            s.board = b
            return int(c)
    raise AssertionError(f"no mate within {value} in {b.sfen()}")  # pragma: no cover


#: What composers call each kind of discrepancy.
KIND_NAMES = {"shorter_mate": "早詰", "alternative": "余詰", "promotion_choice": "成不成非限定",
              "longer_defence": "変長", "futile_judgement": "無駄合の判定", "pieces_left": "駒余り"}


def discrepancy_comment(d: Discrepancy) -> str:
    """The record comment for ``d``, written on the last move of its line: ``余詰（作意の検討）``."""
    return f"{KIND_NAMES.get(d.kind, d.kind)}（作意の検討）"


def verdict_comment(result: CheckResult) -> str:
    """The record comment on the start position that sums up ``result``."""
    kinds = "・".join(dict.fromkeys(KIND_NAMES.get(d.kind, d.kind) for d in result.discrepancies))
    if result.length is None:
        if not result.discrepancies and result.too_short:
            # The bound refutes the line though the check did not find where: 変長 somewhere.
            return f"作意の検討：変長あり（{result.at_least}手以上、変化の箇所は未特定、手数は未確定）"
        if not result.discrepancies:
            return "作意の検討：時間内に手数を確定できず"
        # A proved bound refuted the line: what it found, with the bounds.
        bounds = [f"{result.at_most}手以内"] if result.at_most is not None else []
        if result.at_least is not None and result.at_least > 1:
            bounds.append(f"{result.at_least}手以上")
        return f"作意の検討：{kinds}あり（{'、'.join([*bounds, '手数は未確定'])}）"
    if result.confirmed:
        return f"作意の検討：{result.length}手詰で正解（早詰・余詰・変長なし）"
    cut = "（時間内に全手順を検討できず）" if not result.complete else ""
    if not kinds:
        return f"作意の検討：正解は{result.length}手詰、作意は{len(result.given)}手{cut}"
    return f"作意の検討：{kinds}あり（正解は{result.length}手詰）{cut}"


__all__ = ["KINDS", "KIND_NAMES", "Check", "CheckError", "CheckResult", "Discrepancy",
           "check_from_bounds_iter", "check_iter", "check_solution",
           "discrepancy_comment", "verdict_comment"]

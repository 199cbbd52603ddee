"""``tsume check``: compare a given solution with the exact official answer.

The given line (USI moves from the problem's position) is replayed and, at
each of its moves, compared with what the length-aware df-pn
(:mod:`..search.official`) proves about that position:

* ``shorter_mate`` (早詰): the attacker can mate sooner than the line does;
* ``alternative`` (余詰): another attacker move also mates within the plies
  the line has left (the last move's promotion choice excepted);
* ``longer_defence`` (変長 or a defence the line misses): a defence that
  counts lasts longer than the line's;
* ``futile_judgement``: the line plays a drop interposition that tsume rules
  judge futile (無駄合), or ends where a counted defence remains.

Each discrepancy carries a replayable line: USI moves from the start
position.  The line is ``confirmed`` when it has none and its length is the
exact length.  A check that runs out of its limits says so (``complete``
false); the discrepancies it found before that are proved all the same.

``tsume batch`` and ``tsume bench --official`` check a problem file's ``pv``
column (or a record's main line) through :func:`check_fields`, and count the
verdicts with :class:`CheckTally`.
"""

from __future__ import annotations

import argparse
import json
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any
from collections.abc import Generator

import cshogi

from .errors import UserError
from ..search.dfpn import DfPn, Outcome
from ..search.exact import SearchAborted
from ..search.official import OfficialSearch
from ..search.contract import Limits
from ..shogi.position import Position


@dataclass(frozen=True, slots=True)
class Discrepancy:
    """One way the given line differs from the official answer, at 1-based ``ply``."""

    kind: str
    ply: int
    line: tuple[str, ...]


KINDS = ("shorter_mate", "alternative", "longer_defence", "futile_judgement")
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

    def check_json(self) -> dict[str, Any]:
        """The ``check`` object: ``confirmed``, ``discrepancies``, and ``complete: false`` when cut short."""
        out: dict[str, Any] = {"confirmed": self.confirmed,
                               "discrepancies": [{"kind": d.kind, "ply": d.ply, "line": list(d.line)}
                                                 for d in self.discrepancies]}
        if not self.complete:
            out["complete"] = False
        return out

    def as_json(self) -> dict[str, Any]:
        return {"length": self.length, "given_length": len(self.given), "exact": self.length is not None,
                "check": self.check_json()}


def _run(gen: Generator[Any, None, Any]) -> Any:
    while True:
        try:
            next(gen)
        except StopIteration as stop:
            return stop.value


def _promotion_twins(a: int, b: int) -> bool:
    return (not cshogi.move_is_drop(a) and not cshogi.move_is_drop(b)
            and cshogi.move_from(a) == cshogi.move_from(b) and cshogi.move_to(a) == cshogi.move_to(b))


def check_solution(position: Position, given: list[str] | tuple[str, ...],
                   limits: Limits = Limits(seconds=60)) -> CheckResult:
    """Compare ``given`` (USI moves from ``position``) with the exact answer.

    When ``limits`` run out the result is not ``complete`` (its ``length`` is
    None when the exact length was not proved by then).

    Raises:
        UserError: a move of ``given`` is not legal where it is played (or an
            attacker move is not a check), or the position is proved no mate.
    """
    root = position.board().copy()
    attacker = root.turn
    # Replay first: a bad line is the user's mistake, whatever the search finds.
    b = root.copy()
    moves: list[int] = []
    for i, text in enumerate(given):
        legal = {cshogi.move_to_usi(m): m for m in (b.check_moves if b.turn == attacker else b.legal_moves)}
        if text not in legal:
            what = "a check" if b.turn == attacker else "a legal reply"
            raise UserError(f"move {i + 1} of the solution, {text!r}, is not {what} in {b.sfen()!r}")
        moves.append(legal[text])
        b.push(legal[text])
    if len(given) % 2 == 0:
        raise UserError(f"the solution has {len(given)} plies: a mate ends with the attacker's move")
    clock = limits.clock()
    deadline = clock() + limits.seconds if limits.seconds is not None else None
    oracle = DfPn(attacker, max(16, limits.memory_mb // 2))
    outcome = oracle.search(root.copy(), deadline=deadline, node_limit=limits.nodes, clock=clock)
    if outcome == Outcome.DISPROVEN:
        raise UserError("this position has no mate (proved), so no solution can hold")
    if outcome != Outcome.PROVEN:
        return CheckResult(False, None, tuple(given), complete=False)
    s = OfficialSearch(root.copy(), oracle, deadline=deadline, cancel=None, node_limit=limits.nodes,
                       distance_rule=True, memory_mb=max(16, limits.memory_mb // 4), clock=clock)
    try:
        length = _run(s.exact(True))
    except SearchAborted:
        length = None
    if length is None:
        return CheckResult(False, None, tuple(given), complete=False)
    out: list[Discrepancy] = []
    try:
        _compare(s, root, attacker, given, moves, out)
    except SearchAborted:
        return CheckResult(False, length, tuple(given), tuple(out), complete=False)
    return CheckResult(not out and len(moves) == length, length, tuple(given), tuple(out))


def _compare(s: OfficialSearch, root: cshogi.Board, attacker: int, given: list[str] | tuple[str, ...],
             moves: list[int], out: list[Discrepancy]) -> None:
    """Append to ``out`` every discrepancy of the line ``moves`` (``given`` in USI) from ``root``."""
    b = root.copy()
    n = len(moves)
    for i, mv in enumerate(moves):
        left = n - i          # plies the given line takes from here
        prefix = tuple(given[:i])
        s.board = b.copy()
        if b.turn == attacker:
            value = _run(s.exact(True, left))
            if value is not None and value < left:
                first = _first_mate(s, value)
                out.append(Discrepancy("shorter_mate", i + 1, prefix + (cshogi.move_to_usi(first),)))
            for c in b.check_moves:
                if c == mv or (left == 1 and _promotion_twins(c, mv)):
                    continue
                s.board = b.copy()
                s.board.push(c)
                if _run(s.and_within(left - 1)):
                    out.append(Discrepancy("alternative", i + 1, prefix + (cshogi.move_to_usi(c),)))
        else:
            value = _run(s.exact(False, left + 1))
            bound = value if value is not None else left + 1
            defs = _run(s.defences(bound))
            futile = {m for fs in defs.futile for m in fs.moves}
            if mv in futile:
                out.append(Discrepancy("futile_judgement", i + 1, prefix + (given[i],)))
            for e in defs.real:
                if e == mv:
                    continue
                s.board = b.copy()
                s.board.push(e)
                if not _run(s.or_within(left - 1)):
                    out.append(Discrepancy("longer_defence", i + 1, prefix + (cshogi.move_to_usi(e),)))
        b.push(mv)
    # The end: mated under tsume rules, with no counted defence left.
    s.board = b.copy()
    if any(True for _ in b.legal_moves):
        defs = _run(s.defences(0))
        for e in defs.real:
            out.append(Discrepancy("futile_judgement" if cshogi.move_is_drop(e) else "longer_defence",
                                   n + 1, tuple(given) + (cshogi.move_to_usi(e),)))


def _first_mate(s: OfficialSearch, value: int) -> int:
    """An attacker move of ``s.board`` that mates within ``value`` plies."""
    b = s.board.copy()
    for c in b.check_moves:
        s.board = b.copy()
        s.board.push(c)
        if _run(s.and_within(value - 1)):
            s.board = b
            return int(c)
    raise AssertionError(f"no mate within {value} in {b.sfen()}")  # pragma: no cover


# ---- problem files: the pv column ------------------------------------------------

def skip_reason(pv: str, *, status: str, exact: bool, raw: bool = False, helpmate: bool = False) -> str | None:
    """Why a row's given solution ``pv`` is not checked, or None when it is.

    ``status`` and ``exact`` are the row's answer (``tsume solve --json``'s
    fields): the check compares with an exact answer, so a row without one
    is not checked.
    """
    if helpmate:
        return "a helpmate: the check compares direct-mate solutions"
    if raw:
        return "--raw: no exact answer to compare with"
    if not pv.strip():
        return "no given solution (empty pv)"
    if status != "mate":
        return "no mate proved" if status == "no_mate" else f"no mate found within the limits ({status})"
    if not exact:
        return "the exact length was not proved within the limits"
    return None


def check_fields(position: Position, pv: str, limits: Limits) -> dict[str, Any]:
    """A problem row's check of its given solution ``pv`` (USI moves separated by spaces).

    Returns ``check`` (:meth:`CheckResult.check_json`), ``check_length`` (the
    exact length the check proved, None if not in time), ``check_seconds``
    and ``check_cpu``; or ``check_error`` alone when ``pv`` cannot be replayed
    (a move that is not legal, an even number of plies) or the position is
    proved no mate.
    """
    start, cpu = time.monotonic(), time.process_time()
    try:
        result = check_solution(position, pv.split(), limits)
    except UserError as exc:
        return {"check_error": str(exc)}
    return {"check": result.check_json(), "check_length": result.length,
            "check_seconds": round(time.monotonic() - start, 4), "check_cpu": round(time.process_time() - cpu, 4)}


class CheckTally:
    """Counts of a run's checks, from the rows :func:`check_fields` and :func:`skip_reason` filled in.

    ``confirmed``: the given line is an official main line; ``not_confirmed``: a
    discrepancy was proved; ``unknown``: the limits ran out first;
    ``errors``: the given line did not replay; ``skipped``: not checked
    (a row without an exact answer, ``--raw``, an empty pv).  ``kinds``
    counts rows by each kind of discrepancy they have.
    """

    def __init__(self) -> None:
        self.confirmed = self.not_confirmed = self.unknown = self.errors = self.skipped = 0
        self.kinds: Counter[str] = Counter()

    def add(self, row: dict[str, Any]) -> None:
        """Count one row (rows with no check field at all are not counted)."""
        if "check_error" in row:
            self.errors += 1
        elif "check_skipped" in row:
            self.skipped += 1
        elif "check" in row:
            check = row["check"]
            kinds = {d["kind"] for d in check["discrepancies"]}
            self.kinds.update(kinds)
            if check["confirmed"]:
                self.confirmed += 1
            elif kinds or check.get("complete", True):
                self.not_confirmed += 1
            else:
                self.unknown += 1

    @property
    def rows(self) -> int:
        """Rows that had a given solution (checked or not)."""
        return self.confirmed + self.not_confirmed + self.unknown + self.errors + self.skipped

    def as_json(self) -> dict[str, Any]:
        """``{"confirmed", "not_confirmed", "unknown", "errors", "skipped", "discrepancies": {kind: rows}}``."""
        return {"confirmed": self.confirmed, "not_confirmed": self.not_confirmed, "unknown": self.unknown,
                "errors": self.errors, "skipped": self.skipped,
                "discrepancies": {k: self.kinds[k] for k in KINDS if self.kinds[k]}}

    def text(self) -> str:
        """One line: ``confirmed 5, not confirmed 2 (longer_defence 2), unknown 0, errors 0, skipped 1``."""
        kinds = ", ".join(f"{k} {self.kinds[k]}" for k in KINDS if self.kinds[k])
        return (f"confirmed {self.confirmed}, not confirmed {self.not_confirmed}{f' ({kinds})' if kinds else ''}, "
                f"unknown {self.unknown}, errors {self.errors}, skipped {self.skipped}")


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``check`` subcommand."""
    p = sub.add_parser("check", help="check a given solution against the exact answer",
                       description="Replay a solution (USI moves) and report 早詰, 余詰, 変長 and "
                                   "futile-interposition discrepancies, each with a replayable line.")
    p.add_argument("sfen", nargs="+", help="the position as SFEN (quote it, or give its words)")
    p.add_argument("--pv", required=True, help="the solution: USI moves separated by spaces")
    p.add_argument("--seconds", type=float, default=60.0, metavar="S", help="time limit (default 60)")
    p.add_argument("--memory", type=int, default=1024, metavar="MB", help="memory bound (default 1024)")
    p.add_argument("--cpu-time", action="store_true",
                   help="count --seconds in this process's CPU time instead of wall-clock time "
                        "(fair limits on a loaded machine)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=_check)


def _check(args: argparse.Namespace) -> int:
    if args.seconds <= 0:
        raise UserError(f"--seconds must be positive, got {args.seconds!r}")
    if args.memory < 1:
        raise UserError(f"--memory must be at least 1 MB, got {args.memory!r}")
    position = Position.from_sfen(" ".join(args.sfen))
    given = args.pv.split()
    if not given:
        raise UserError("--pv is empty: give the solution's moves in USI")
    result = check_solution(position, given, Limits(seconds=args.seconds, memory_mb=args.memory,
                                                            cpu_time=args.cpu_time))
    if args.json:
        print(json.dumps(result.as_json(), ensure_ascii=False))
        return 0
    if result.length is None:
        print("unknown: the exact length was not proved within the limits")
        return 0
    if not result.complete:
        verdict = f"cut short by the limits, {len(result.discrepancies)} discrepancies found by then"
    else:
        verdict = "confirmed" if result.confirmed else f"{len(result.discrepancies)} discrepancies"
    print(f"exact length {result.length}, given {len(result.given)}: {verdict}")
    for d in result.discrepancies:
        print(f"  {d.kind} at ply {d.ply}: {' '.join(d.line)}")
    return 0


__all__ = ["KINDS", "CheckResult", "CheckTally", "Discrepancy", "check_fields", "check_solution", "register",
           "skip_reason"]

"""``tsume check``: compare a given solution with the exact official answer.

The comparison itself (早詰, 余詰, 成不成非限定, 変長, 無駄合 judgements, 駒余り,
each with a replayable line) is :mod:`tsume_studio.core.check`'s, shared with
the window's check of a record's main line; this module adds the subcommand.

``tsume batch`` and ``tsume bench --official`` check a problem file's ``pv``
column (or a record's main line) through :func:`check_fields`, and count the
verdicts with :class:`CheckTally`.
"""

from __future__ import annotations

import argparse
import json
import threading
import time
from collections import Counter
from collections.abc import Callable
from typing import Any

from . import signals
from .errors import EXIT_INTERRUPTED, EXIT_OK, UserError
from .files import names_a_file, read_position_file
from .. import check as _check_core
from ..answer import bounds_english
from .running import ProgressLine
from ..check import KINDS, CheckError, CheckResult, Discrepancy
from ..search.contract import Cancel, Limits, Progress, drive
from ..search.length_rule import AnswerSession
from ..shogi.position import Position


def check_solution(position: Position, given: list[str] | tuple[str, ...],
                   limits: Limits = Limits(seconds=60), session: AnswerSession | None = None,
                   cancel: Cancel | None = None,
                   on_progress: Callable[[Progress], object] | None = None) -> CheckResult:
    """:func:`tsume_studio.core.check.check_iter` run to the end (each snapshot to ``on_progress``),
    with its :class:`CheckError` as a :class:`UserError`."""
    try:
        return drive(_check_core.check_iter(position, given, limits, cancel, session=session), on_progress)
    except CheckError as exc:
        raise UserError(str(exc)) from exc


# ---- problem files: the pv column ------------------------------------------------

def skip_reason(pv: str, *, status: str, exact: bool, raw: bool = False, helpmate: bool = False,
                at_most: int | None = None, at_least: int | None = None, resumable: bool = False) -> str | None:
    """Why a row's given solution ``pv`` is not checked, or None when it is.

    ``status``, ``exact``, ``at_most`` and ``at_least`` are the row's answer
    (``tsume solve --json``'s fields): the check compares with an exact
    answer, so a row without one is not checked, unless a proved bound lies
    outside the given line's length: ``at_most`` below it (a shorter mate) or
    ``at_least`` above it (a defence the line misses; :func:`check_fields`),
    or the row's search stopped while it asked the length and the check goes
    on with it (``resumable``: :meth:`AnswerSession.resumable_for`).
    """
    if helpmate:
        return "a helpmate: the check compares direct-mate solutions"
    if raw:
        return "--raw: no exact answer to compare with"
    if not pv.strip():
        return "no given solution (empty pv)"
    if status != "mate":
        return "no mate proved" if status == "no_mate" else f"no mate found within the limits ({status})"
    plies = len(pv.split())
    if not exact and not resumable and (at_most is None or at_most >= plies) and (at_least is None
                                                                                  or at_least <= plies):
        return "the exact length was not proved within the limits"
    return None


def check_fields(position: Position, pv: str, limits: Limits,
                 session: AnswerSession | None = None, cancel: Cancel | None = None,
                 at_most: int | None = None, at_least: int | None = None,
                 on_progress: Callable[[Progress], object] | None = None) -> dict[str, Any]:
    """A problem row's check of its given solution ``pv`` (USI moves separated by spaces).

    ``session`` is the row's solve (:class:`AnswerSession`): the check asks
    its questions of that search instead of solving again; setting ``cancel``
    cuts the check short (``complete: false``).  Returns ``check``
    (:meth:`CheckResult.check_json`), ``check_length`` (the exact length the
    check worked with, None if not proved in time), ``check_seconds``,
    ``check_cpu``, ``check_nodes`` (the check's own nodes) and
    ``check_reused`` (the solve's search answered it), and ``check_at_least`` /
    ``check_at_most`` when the length was not proved (the bounds the check's
    search had proved by then); or ``check_error``
    alone when ``pv`` cannot be replayed (a move that is not legal, an even
    number of plies) or the position is proved no mate.  ``at_most`` and
    ``at_least``: the solve proved only these bounds, not the length.  Below
    the line's length, ``at_most`` makes the check look for that shorter mate
    alone (:func:`tsume_studio.core.check.check_below_bound`); above it,
    ``at_least`` for a defence the line misses
    (:func:`tsume_studio.core.check.check_above_bound`).  ``on_progress``
    receives the check's snapshots (the solve's phases, then the ply checked).
    """
    start, cpu = time.monotonic(), time.process_time()
    try:
        # A bound that refutes the line (a shorter mate, a missed defence), else the whole check.
        result = (drive(_check_core.check_from_bounds_iter(position, pv.split(), at_least, at_most, limits, cancel,
                                                           session), on_progress)
                  or check_solution(position, pv.split(), limits, session, cancel, on_progress))
    except (UserError, CheckError) as exc:
        return {"check_error": str(exc)}
    out: dict[str, Any] = {"check": result.check_json(), "check_length": result.length,
                           "check_seconds": round(time.monotonic() - start, 4),
                           "check_cpu": round(time.process_time() - cpu, 4),
                           "check_nodes": result.nodes, "check_reused": result.reused}
    if result.length is None:
        # What the check's own search proved of the length (it may have gone on from the solve's bounds).
        for key, value in (("check_at_least", result.at_least), ("check_at_most", result.at_most)):
            if value is not None:
                out[key] = value
    return out


def check_row(position: Position, pv: str, answer: dict[str, Any], limits: Limits,
              session: AnswerSession | None = None, cancel: Cancel | None = None, *, raw: bool = False,
              helpmate: bool = False, on_progress: Callable[[Progress], object] | None = None) -> dict[str, Any]:
    """The check fields of a problem row whose answer is ``answer`` (``tsume solve --json``'s fields,
    its solve's ``session``): ``check_skipped`` with :func:`skip_reason`'s reason, or
    :func:`check_fields`' (``batch`` and ``bench --official`` both)."""
    exact = bool(answer.get("exact"))
    at_most = answer.get("at_most") if not exact else None
    at_least = answer.get("at_least") if not exact else None
    reason = skip_reason(pv, status=answer["status"], exact=exact, raw=raw, helpmate=helpmate, at_most=at_most,
                         at_least=at_least,
                         resumable=session is not None and session.resumable_for(position.sfen()))
    if reason is not None:
        return {"check_skipped": reason}
    return check_fields(position, pv, limits, session, cancel, at_most=at_most, at_least=at_least,
                        on_progress=on_progress)


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
            if check.get("too_short"):
                kinds.add("longer_defence")   # a defence the line misses, not located
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
                       description="Replay a solution (USI moves) and report 早詰, 余詰, 成不成非限定, 変長, "
                                   "futile-interposition and 駒余り discrepancies, each with a replayable line.")
    p.add_argument("sfen", nargs="+", help="the position as SFEN (quote it, or give its words), or a record "
                   "file (.kif, .kifu, .ki2, .csa ...) whose main line is the solution to check")
    p.add_argument("--pv", help="the solution: USI moves separated by spaces (needed with SFEN; with a record "
                   "file it replaces the record's main line)")
    p.add_argument("--seconds", type=float, default=60.0, metavar="S",
                   help="time limit of the solve, and again of the check (default 60)")
    p.add_argument("--memory", type=int, default=1024, metavar="MB", help="memory bound (default 1024)")
    p.add_argument("--cpu-time", action="store_true",
                   help="count --seconds in this process's CPU time instead of wall-clock time "
                        "(fair limits on a loaded machine)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--progress", action="store_true",
                   help="print what runs on standard error each time it changes (the solve's phases, then "
                        "the ply of the line checked); on a terminal a redrawn line shows it anyway")
    p.set_defaults(func=_check)


def _problem(args: argparse.Namespace) -> tuple[Position, list[str]]:
    """The position and the solution to check: SFEN and --pv, or a record file and its main line."""
    if names_a_file(args.sfen):
        position, record = read_position_file(args.sfen[0])
        if args.pv is not None:
            given = args.pv.split()
        else:
            given = [m.usi() for m in record.main_line()]
            if not given:
                raise UserError(f"{args.sfen[0]!r} has no moves: give the solution with --pv")
    else:
        if args.pv is None:
            raise UserError("--pv is needed with SFEN: give the solution's moves in USI (or a record file "
                            "holding them)")
        position = Position.from_sfen(" ".join(args.sfen))
        given = args.pv.split()
    if not given:
        raise UserError("--pv is empty: give the solution's moves in USI")
    return position, given


def _check(args: argparse.Namespace) -> int:
    if args.seconds <= 0:
        raise UserError(f"--seconds must be positive, got {args.seconds!r}")
    if args.memory < 1:
        raise UserError(f"--memory must be at least 1 MB, got {args.memory!r}")
    position, given = _problem(args)
    cpu = time.process_time()
    shown = ProgressLine(lines=args.progress)
    # Ctrl-C (or SIGTERM) stops the check, which then reports what it had proved: the bounds, the
    # discrepancies found so far; the exit status says it was interrupted.
    with signals.cancelling(threading.Event()) as cancel:
        try:
            result = check_solution(position, given, Limits(seconds=args.seconds, memory_mb=args.memory,
                                                            cpu_time=args.cpu_time),
                                    cancel=cancel, on_progress=shown if shown.active else None)
        finally:
            shown.close()
    stopped = cancel.is_set() and not result.complete
    code = EXIT_INTERRUPTED if stopped else EXIT_OK
    if args.json:
        out = {**result.as_json(), "cpu_seconds": round(time.process_time() - cpu, 4)}
        if stopped:
            out["interrupted"] = True
        print(json.dumps(out, ensure_ascii=False))
        return code
    cut = "stopped" if stopped else "cut short by the limits"
    if result.length is None:
        bounds = bounds_english(result.at_least, result.at_most)
        if not result.discrepancies and result.too_short:
            print(f"exact length not proved ({bounds}), given {len(result.given)}: the line mates too soon "
                  f"(no mate within {len(result.given)} plies exists), a defence it misses lasts longer; where was "
                  f"not found within the limits" + (" (stopped)" if stopped else ""))
            return code
        if not result.discrepancies:
            head = "stopped: the exact length was not proved" if stopped else \
                "unknown: the exact length was not proved within the limits"
            print(head + (f" ({bounds})" if bounds else ""))
            return code
        # A proved bound refutes the line all the same.
        print(f"exact length not proved ({bounds}), given {len(result.given)}: "
              f"{len(result.discrepancies)} discrepancies proved from the bound, other plies not examined"
              + (" (stopped)" if stopped else ""))
    else:
        if not result.complete:
            verdict = f"{cut}, {len(result.discrepancies)} discrepancies found by then"
        else:
            verdict = "confirmed" if result.confirmed else f"{len(result.discrepancies)} discrepancies"
        print(f"exact length {result.length}, given {len(result.given)}: {verdict}")
    for d in result.discrepancies:
        print(f"  {d.kind} at ply {d.ply}: {' '.join(d.line)}")
    return code


__all__ = ["KINDS", "CheckResult", "CheckTally", "Discrepancy", "check_fields", "check_row", "check_solution",
           "register",
           "skip_reason"]

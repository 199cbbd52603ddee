"""``tsume batch``: solve a collection, one JSON line a problem, then a summary.

Input is any mix of problem sets (``.tsv`` with a header line naming ``id``,
``sfen`` and ``length``), record files (``.kif``, ``.kifu``, ``.ki2``,
``.ki2u``, ``.csa``; the expected length is the ``手数`` header, else the
length of the recorded main line) and folders, searched recursively for
both, in name order.

A given solution is checked against the exact answer as ``tsume check``
does (:func:`.check.check_fields`): a problem set's ``pv`` column (USI moves
separated by spaces), a record's main line.  The row then carries ``check``
(``confirmed``, ``discrepancies``), or ``check_skipped`` with the reason
(``--raw``, no exact answer within the limits, an empty cell), or
``check_error`` when the line does not replay; ``--no-check`` leaves it out.
The check asks its questions of the search that built the row's answer
(the same table: the problem is not solved again) and gets the row's limits
over again for its own work.

``--jobs N`` solves N problems at a time in separate processes (the solver is
pure Python, so threads would share one core).  Lines still come out in input
order, and each row's answer is the one ``--jobs 1`` gives: every problem is
solved on its own, with its own limits (its node count is the same each run, since the
searches pause by node count, unless a time limit ends it; its times vary).  On a terminal a progress bar runs on
standard error.  Ctrl-C or SIGTERM ends the run with the summary of the rows
finished so far and exit code 130.  A fault of the program on one row (a bug)
is that row's ``error`` line with ``internal_error: true``; the run goes on,
and ends with exit code 3 and ``internal_errors`` in the summary.
"""

from __future__ import annotations

import argparse
import functools
import json
import multiprocessing
import os
import signal
import statistics
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from . import signals
from ..search.contract import Limits, Progress
from ..search.length_rule import AnswerSession
from ..shogi.position import Position
from .check import CheckTally, check_row
from .errors import EXIT_INTERNAL, EXIT_INTERRUPTED, EXIT_OK, UserError
from .problemset import expected_length, read_problems
from .running import RESULT_EXTRAS, add_limits, limits_from_args, phase_line, result_json, run_solver

RECORD_EXTENSIONS = (".kif", ".kifu", ".ki2", ".ki2u", ".csa")
PROBLEM_EXTENSIONS = (".tsv",)
MAX_JOBS = 256


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``batch`` subcommand."""
    b = sub.add_parser("batch", help="solve a collection: problem sets (.tsv), record files, folders",
                       description="Solve every problem of TSV problem sets (columns id, sfen, length), "
                                   "record files (.kif .kifu .ki2 .ki2u .csa) and folders of them; "
                                   "one JSON line a problem, in input order, then a summary.")
    b.add_argument("inputs", nargs="+", metavar="PATH",
                   help="a .tsv problem set with a header line (id, sfen, length, ...), a record file, or a folder")
    add_limits(b, default_seconds=10.0)
    b.add_argument("--jobs", "-j", type=int, default=1, metavar="N",
                   help="solve N problems at a time, in separate processes (0: one per processor)")
    b.add_argument("--helpmate", action="store_true", help="solve as helpmates (協力詰)")
    b.add_argument("--json", action="store_true",
                   help="JSON lines only (no text summary on a terminal's standard error)")
    b.add_argument("--raw", action="store_true", help="skip the exact main-line search (and the check)")
    b.add_argument("--no-check", action="store_true",
                   help="do not check a given solution (a pv column, a record's main line) against the exact answer")
    b.add_argument("--only", metavar="ID", nargs="+", help="solve only these ids")
    b.add_argument("--first", type=int, metavar="N", help="solve only the first N rows")
    b.add_argument("--every", type=int, default=1, metavar="K", help="solve only every K-th row")
    b.set_defaults(func=run)


# ---- input ------------------------------------------------------------------

def collect(paths: list[str]) -> list[dict[str, str]]:
    """Rows of every problem set, record file and folder in ``paths``, in order.

    Raises:
        UserError: a path that does not exist, a file of another kind, or a
            folder holding no problem at all.
    """
    rows: list[dict[str, str]] = []
    for text in paths:
        path = Path(text)
        if path.is_dir():
            files = sorted((p for p in path.rglob("*")
                            if p.is_file() and p.suffix.lower() in PROBLEM_EXTENSIONS + RECORD_EXTENSIONS),
                           key=lambda p: p.relative_to(path).parts)
            if not files:
                raise UserError(f"no problem files (.tsv, {', '.join(RECORD_EXTENSIONS)}) in folder {text!r}")
            for file in files:
                rows += _rows_of(file, str(file))
        elif path.is_file():
            rows += _rows_of(path, text)
        else:
            raise UserError(f"no such file or folder: {text!r}")
    return rows


def _rows_of(path: Path, name: str) -> list[dict[str, str]]:
    suffix = path.suffix.lower()
    if suffix in RECORD_EXTENSIONS:
        return [_record_row(path, name)]
    rows = read_problems(str(path))
    if len(rows) > 1 or name != str(path):
        for row in rows:
            row.setdefault("source", name)
    return rows


def _record_row(path: Path, name: str) -> dict[str, str]:
    """One row for a record file: its start position and expected length; unreadable files become error rows."""
    from ..records.formats import read_record

    row = {"id": name, "sfen": ""}
    try:
        record = read_record(path)
    except (ValueError, OSError) as exc:
        row["error"] = str(exc)
        return row
    row["sfen"] = record.start.sfen()
    main_line = record.main_line()
    length = record.header.get("手数", "").strip()
    if not (length.isascii() and length.isdigit()):
        length = str(len(main_line)) if main_line else ""
    row["length"] = length
    if main_line:
        row["pv"] = " ".join(m.usi() for m in main_line)
    return row


def select(rows: list[dict[str, str]], args: argparse.Namespace) -> list[dict[str, str]]:
    """The rows ``--only``, ``--every`` and ``--first`` leave."""
    if args.only:
        wanted = set(args.only)
        rows = [r for r in rows if r["id"] in wanted]
        missing = wanted - {r["id"] for r in rows}
        if missing:
            raise UserError(f"no such ids: {', '.join(sorted(missing))}")
    if args.every > 1:
        rows = rows[:: args.every]
    if args.first is not None:
        rows = rows[: args.first]
    return rows


# ---- one problem ------------------------------------------------------------------

def solve_row(row: dict[str, str], options: dict[str, Any],
              cancel: threading.Event | None = None,
              on_progress: Callable[[Progress], object] | None = None) -> dict[str, Any]:
    """Solve one row; the JSON line of ``tsume batch`` (with ``seconds`` kept for the summary).

    ``on_progress`` receives the solver's snapshots (the progress bar's phase and question).
    A fault of the program itself on one row (a bug) becomes that row's ``internal_error``
    line, so that the rest of a long run is not lost; the run then ends with exit code 3.
    """
    try:
        return _solve_row(row, options, cancel, on_progress)
    except Exception as exc:   # reported in the row, in the summary and by the exit code
        return {"id": row["id"], "status": "error", "expected": expected_length(row),
                "error": f"internal error: {type(exc).__name__}: {exc} (please report this bug with the row)",
                "internal_error": True, "_no_length_column": "length" not in row}


def _solve_row(row: dict[str, str], options: dict[str, Any], cancel: threading.Event | None,
               on_progress: Callable[[Progress], object] | None) -> dict[str, Any]:
    line: dict[str, Any] = {"id": row["id"]}
    expected = expected_length(row)
    if "error" in row:
        line.update(status="error", error=row["error"], expected=expected)
        return line
    try:
        position = Position.from_sfen(row["sfen"])
        warnings = [p.message for p in position.problems()]
        if warnings:
            line["warnings"] = warnings
        # Collections hold a few positions with 二歩 and the like: solve them as given.
        # The check of a given solution reuses the answer's search (solve once).
        session = AnswerSession() if "pv" in row and options.get("check", True) else None
        result = run_solver(position, Limits(**options["limits"]), options["helpmate"], options["raw"],
                            force=True, cancel=cancel, session=session, on_progress=on_progress)
    except ValueError as exc:
        line.update(status="error", error=str(exc), expected=expected)
        return line
    data = result_json(result)
    line.update(status=data["status"], length=data["length"], expected=expected,
                nodes=data["nodes"], seconds=data["seconds"])
    # at_least / at_most: what a length search stopped by the limits had proved.
    for key in ("exact", "at_least", "at_most", "alternatives_checked", "alternatives_checked_to", "tree_complete",
                *RESULT_EXTRAS):
        if key in data:
            line[key] = data[key]
    # A length not proved shortest is a bound: it contradicts the expected one only when shorter.
    if data["status"] == "mate" and expected is not None and data["length"] is not None and (
            data["length"] < expected if data.get("exact") is False else data["length"] != expected):
        line["mismatch"] = True
    if "pv" in row and options.get("check", True):
        line.update(check_row(position, row["pv"], data, Limits(**options["limits"]), session, cancel,
                              raw=options["raw"], helpmate=options["helpmate"], on_progress=on_progress))
    line["_no_length_column"] = "length" not in row
    return line


def _worker_init() -> None:
    # The parent owns Ctrl-C: it stops the run and ends the workers itself.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def _solve_indexed(job: tuple[dict[str, str], dict[str, Any]]) -> dict[str, Any]:
    return solve_row(*job)


# ---- the run ------------------------------------------------------------------

def run(args: argparse.Namespace) -> int:
    """``tsume batch``: print every row's JSON line, then the summary; returns the exit code."""
    if args.jobs < 0 or args.jobs > MAX_JOBS:
        raise UserError(f"--jobs must be between 0 (one per processor) and {MAX_JOBS}, got {args.jobs}")
    jobs = args.jobs or default_jobs()
    if args.every < 1:
        raise UserError(f"--every must be at least 1, got {args.every}")
    if args.first is not None and args.first < 0:
        raise UserError(f"--first must not be negative, got {args.first}")
    limits = limits_from_args(args)
    rows = select(collect(args.inputs), args)
    options = {"limits": {"nodes": limits.nodes, "seconds": limits.seconds, "memory_mb": limits.memory_mb,
                          "cpu_time": limits.cpu_time},
               "helpmate": args.helpmate, "raw": args.raw, "check": not args.no_check}
    summary = _Summary(len(rows))
    bar = ProgressBar(len(rows)) if sys.stderr.isatty() else None
    try:
        return _run_rows(args, rows, options, jobs, summary, bar)
    finally:
        if bar is not None:
            bar.close()


def _run_rows(args: argparse.Namespace, rows: list[dict[str, str]], options: dict[str, Any], jobs: int,
              summary: _Summary, bar: ProgressBar | None) -> int:
    with signals.cancelling(threading.Event()) as cancel:
        for line in _lines(rows, options, min(jobs, max(1, len(rows))), cancel, bar):
            if line["status"] == "cancelled":
                break
            summary.add(line)
            if bar is not None:
                bar.clear()
            line.pop("_no_length_column", None)
            print(json.dumps(line, ensure_ascii=False), flush=True)
            if bar is not None:
                bar.step(line["status"])
        interrupted = cancel.is_set()
    if bar is not None:
        bar.close()
    print(json.dumps(summary.as_json(interrupted), ensure_ascii=False), flush=True)
    if not args.json and sys.stderr.isatty():
        # For the reader at a terminal; standard output stays JSON lines.
        sys.stderr.write(summary.text(interrupted) + "\n")
    if interrupted:
        return EXIT_INTERRUPTED
    return EXIT_INTERNAL if summary.internal_errors else EXIT_OK


def _lines(rows: list[dict[str, str]], options: dict[str, Any], jobs: int,
           cancel: threading.Event, bar: ProgressBar | None = None) -> Iterator[dict[str, Any]]:
    """Each row's line, in input order; stops early once ``cancel`` is set.

    With one job the rows run in this process and ``bar`` shows what the current one's
    search is doing (its phase, the question asked, the bounds proved).
    """
    if jobs == 1:
        for row in rows:
            if cancel.is_set():
                return
            watch = None if bar is None else functools.partial(bar.working, row["id"])
            yield solve_row(row, options, cancel, watch)
        return
    context = multiprocessing.get_context("spawn")
    pool = context.Pool(jobs, initializer=_worker_init)
    try:
        pending = pool.imap(_solve_indexed, ((row, options) for row in rows), chunksize=1)
        while True:
            try:
                # Wake up now and then to notice a signal while a long row runs.
                line = _next_or_wait(pending, cancel)
            except StopIteration:
                return
            if line is None:
                return
            yield line
    finally:
        pool.terminate()
        pool.join()


def _next_or_wait(pending: Any, cancel: threading.Event) -> dict[str, Any] | None:
    """The next line from ``pending``, or None once ``cancel`` is set."""
    while not cancel.is_set():
        try:
            line: dict[str, Any] = pending.next(timeout=0.2)
        except multiprocessing.TimeoutError:
            continue
        return line
    return None


class _Summary:
    """Counts for the summary line."""

    def __init__(self, problems: int) -> None:
        self.problems = problems
        self.done = self.solved = self.wrong = self.unsolved = 0
        self.exact = self.matches = self.internal_errors = 0
        self.times: list[float] = []
        self.checks = CheckTally()

    def add(self, line: dict[str, Any]) -> None:
        self.done += 1
        self.checks.add(line)
        status = line["status"]
        if status == "error":
            self.unsolved += 1
            self.internal_errors += bool(line.get("internal_error"))
            return
        self.times.append(line["seconds"])
        if status == "mate":
            self.solved += 1
            self.wrong += bool(line.get("mismatch"))
            self.exact += bool(line.get("exact"))
            self.matches += line["expected"] is not None and line["length"] == line["expected"]
        elif status == "no_mate" and line.get("_no_length_column"):
            self.solved += 1   # a no-mate file: proving no mate is the answer
        else:
            self.unsolved += 1

    def as_json(self, interrupted: bool) -> dict[str, Any]:
        out: dict[str, Any] = {
            "summary": True, "problems": self.problems, "solved": self.solved,
            "wrong_length": self.wrong, "unsolved": self.unsolved,
            "exact": self.exact, "length_matches": self.matches,
            "median_seconds": round(statistics.median(self.times), 4) if self.times else None,
            "total_seconds": round(sum(self.times), 3)}
        if self.checks.rows:
            out["checks"] = self.checks.as_json()
        if self.internal_errors:
            out["internal_errors"] = self.internal_errors
        if interrupted:
            out.update(interrupted=True, done=self.done)
        return out

    def text(self, interrupted: bool) -> str:
        """The summary for a reader: answers, then the checks of given solutions."""
        done = f"{self.done} of {self.problems} problems (interrupted)" if interrupted else f"{self.problems} problems"
        out = (f"{done}: solved {self.solved}, exact {self.exact}, length = published {self.matches}, "
               f"wrong length {self.wrong}, unsolved {self.unsolved}")
        if self.internal_errors:
            out += f" ({self.internal_errors} by an internal error: please report it)"
        if self.times:
            out += f"; median {statistics.median(self.times):.3f} s, total {sum(self.times):.1f} s"
        if self.checks.rows:
            out += f"\nchecks of the given solutions: {self.checks.text()}"
        return out


class ProgressBar:
    """A one-line progress bar on standard error: done/total, elapsed time, an estimate of the rest.

    It is redrawn every ``TICK`` seconds by a thread of its own, so its clock
    keeps running during a long search, and after every problem.
    """

    TICK = 0.5

    def __init__(self, total: int) -> None:
        self.total = max(1, total)
        self.done = 0
        self.status = ""
        self.current = ""   # the running row's phase and question
        self.start = time.monotonic()
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._shown = True
        self._ticker = threading.Thread(target=self._tick, name="progress-bar", daemon=True)
        self._ticker.start()

    def _tick(self) -> None:
        while not self._stop.wait(self.TICK):
            with self._lock:
                if self._shown:
                    self._draw()

    def _draw(self) -> None:
        width = 30
        filled = width * self.done // self.total
        elapsed = time.monotonic() - self.start
        left = f"~{elapsed / self.done * (self.total - self.done):.0f}s left" if self.done else "…"
        sys.stderr.write(f"\r\x1b[K[{'#' * filled}{'.' * (width - filled)}] {self.done}/{self.total} "
                         f"{elapsed:7.1f}s, {left}  {self.status:<10}{self.current}")
        sys.stderr.flush()

    def working(self, row_id: str, p: Progress) -> None:
        """What the current row's search does (``--jobs 1``): shown until the row ends."""
        with self._lock:
            self.current = f" {row_id}: {phase_line(p)}"

    def step(self, status: str) -> None:
        """Count one more problem and redraw."""
        with self._lock:
            self.done += 1
            self.status = status
            self.current = ""
            self._shown = True
            self._draw()

    def clear(self) -> None:
        """Erase the bar (before a line goes to standard output); the next step draws it again."""
        with self._lock:
            self._shown = False
            sys.stderr.write("\r\x1b[K")
            sys.stderr.flush()

    def close(self) -> None:
        """Stop redrawing and erase the bar."""
        self._stop.set()
        self._ticker.join()
        self.clear()


def default_jobs() -> int:
    """The processors this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)

"""What ``solve`` and ``batch`` share: the limit options, running a solver, a result as JSON."""

from __future__ import annotations

import argparse
import sys
import threading
import time
from collections.abc import Callable
from typing import Any, TextIO

from ..answer import bounds_english, classify_alternatives, ordered_futile
from ..search.length_rule import AnswerSession
from ..search.contract import Limits, Progress, SearchPhase, SolveResult, SolveStatus, drive
from ..search.helpmate import HelpmateOptions, solve_iter as helpmate_solve_iter
from ..search.proof import HelpmateAnswer, Proof
from ..search.solver import solve_iter
from ..shogi.position import Position
from .errors import UserError


def add_limits(p: argparse.ArgumentParser, default_seconds: float | None = None) -> None:
    """Add ``--seconds``, ``--nodes`` and ``--memory`` to a subcommand."""
    p.add_argument("--seconds", type=float, default=default_seconds, metavar="S", help="time limit")
    p.add_argument("--nodes", type=int, metavar="N", help="node limit")
    p.add_argument("--memory", type=int, default=1024, metavar="MB", help="table memory bound (default 1024)")
    p.add_argument("--cpu-time", action="store_true",
                   help="count --seconds in this process's CPU time instead of wall-clock time "
                        "(fair limits on a loaded machine)")


def limits_from_args(args: argparse.Namespace) -> Limits:
    """The limits a subcommand's arguments ask for.

    Raises:
        UserError: a limit out of range.
    """
    if args.seconds is not None and args.seconds <= 0:
        raise UserError(f"--seconds must be positive, got {args.seconds!r}")
    if args.nodes is not None and args.nodes <= 0:
        raise UserError(f"--nodes must be positive, got {args.nodes!r}")
    if args.memory < 1:
        raise UserError(f"--memory must be at least 1 MB, got {args.memory!r}")
    return Limits(nodes=args.nodes, seconds=args.seconds, memory_mb=args.memory,
                  cpu_time=bool(getattr(args, "cpu_time", False)))


def run_solver(position: Position, limits: Limits, helpmate: bool, raw: bool, force: bool = False,
         on_progress: Callable[[Progress], object] | None = None,
         cancel: threading.Event | None = None, max_solutions: int | None = None,
         session: AnswerSession | None = None) -> SolveResult:
    """Run a solver to the end; setting ``cancel`` stops it with a ``cancelled`` result.

    ``max_solutions`` (helpmates only) lists up to that many shortest
    helpmates (余詰 check); None lists the line found only.  ``session``
    (direct mates) keeps the official answer's search for a check to reuse.
    """
    if cancel is None:
        cancel = threading.Event()
    if helpmate:
        options = HelpmateOptions(max_solutions=max_solutions) if max_solutions is not None else HelpmateOptions()
        gen = helpmate_solve_iter(position, limits, cancel, options=options, all_solutions=max_solutions is not None)
    else:
        gen = solve_iter(position, limits, cancel, exact=not raw, force=force, session=session)
    return drive(gen, on_progress)


#: What a result's ``extra`` adds to its JSON as it is, where it has it: the engine that ran, the
#: search's CPU seconds, and the moves the kernel's df-pn played.
RESULT_EXTRAS = ("engine", "cpu_seconds", "moves")


def result_json(result: SolveResult) -> dict[str, Any]:
    """The JSON object of a result (``tsume solve --json``)."""
    out: dict[str, Any] = {
        "status": result.status.value,
        "sfen": result.sfen,
        "length": result.length,
        "pv": list(result.pv),
        "nodes": result.nodes,
        "seconds": round(result.seconds, 4),
        "table_entries": result.table_entries,
    }
    for key in RESULT_EXTRAS:
        if key in result.extra:
            out[key] = result.extra[key]
    proof = result.proof
    if isinstance(proof, Proof):
        out["exact"] = bool(proof.exact)
        out["futile_interpositions"] = [{"path": list(f.path), "move": f.move, "reason": f.reason.english(),
                                         "reason_code": f.reason.kind.value}
                                        for f in ordered_futile(proof)]
        # kind: "alternative" (余詰) or "promotion_choice" (成不成非限定), as core.answer names them.
        out["alternatives"] = [{"path": list(a.path), "move": a.move, "length": a.length, "kind": a.kind}
                               for a in classify_alternatives(proof)]
        out["alternatives_checked"] = proof.alternatives_checked
        if not proof.alternatives_checked:
            # The ply up to which the 余詰 search had examined the main line (0: none).
            out["alternatives_checked_to"] = proof.alternatives_checked_to
        out["variations"] = proof.variations
        # False: the variations' lengths were not all measured in time (the main line is exact).
        out["tree_complete"] = proof.tree_complete
    elif isinstance(proof, HelpmateAnswer):
        out["exact"] = proof.exact
        out["solutions"] = [list(line) for line in proof.solutions]
        out["solutions_complete"] = proof.complete
        out["solutions_capped"] = proof.capped
        out["alternatives_checked"] = proof.alternatives_checked
    elif result.status == SolveStatus.MATE:
        out["exact"] = bool(result.extra.get("exact", False))
        # df-pn's line stopped short of mate (its end was dropped from the table): length null.
        out["pv_complete"] = bool(result.extra.get("pv_complete", True))
    # A length search stopped before the end: the tsume-rule length it had proved bounds of.
    for key in ("at_least", "at_most"):
        if key in result.extra:
            out[key] = result.extra[key]
    return out


def phase_line(p: Progress) -> str:
    """What a direct-mate search is doing, in one line: the phase and, while the shortest is
    proved, the question asked and the bounds proved (``mate within 37? proved: at most 41 plies``)."""
    stats = dict(p.stats)
    if p.phase is SearchPhase.MATE:
        return "proving mate"
    if p.phase is SearchPhase.SHORTEST:
        asking = int(stats.get("asking", 0))
        lo = int(stats["at_least"]) if "at_least" in stats else None
        hi = int(stats["at_most"]) if "at_most" in stats else None
        bounds = bounds_english(lo, hi)
        head = f"proving the shortest: mate within {asking}?" if asking else "proving the shortest"
        return f"{head} ({bounds})" if bounds else head
    if p.phase is SearchPhase.TREE:
        return "building the proof tree"
    if p.phase is SearchPhase.ALTERNATIVES:
        return "looking for 余詰 (alternative mates)"
    if p.phase is SearchPhase.CHECK:
        ply, plies = int(stats.get("check_ply", 0)), int(stats.get("check_plies", 0))
        return f"checking the given line: ply {ply} of {plies}" if ply and plies else "checking the given line"
    return "searching"


class ProgressLine:
    """The search's progress on ``stream`` (standard error): on a terminal one line redrawn
    (phase, question and bounds, nodes, time); otherwise, with ``lines``, a line each time
    the phase or the question changes, for logs."""

    REDRAW = 0.25

    def __init__(self, stream: TextIO | None = None, lines: bool = False) -> None:
        self.stream = stream if stream is not None else sys.stderr
        self.tty = self.stream.isatty()
        self.lines = lines
        self.last_text = ""
        self.last_draw = 0.0
        self.drawn = False

    @property
    def active(self) -> bool:
        """True when it shows anything at all."""
        return self.tty or self.lines

    def __call__(self, p: Progress) -> None:
        text = phase_line(p)
        if self.tty:
            now = time.monotonic()
            if text == self.last_text and now - self.last_draw < self.REDRAW:
                return
            self.last_draw = now
            self.stream.write(f"\r\x1b[K{text}   nodes {p.nodes:,}  {p.elapsed:.1f}s")
            self.drawn = True
        elif text != self.last_text:
            self.stream.write(f"{p.elapsed:8.1f}s  {text}\n")
        self.last_text = text
        self.stream.flush()

    def close(self) -> None:
        """Erase the redrawn line (before the result is printed)."""
        if self.tty and self.drawn:
            self.stream.write("\r\x1b[K")
            self.stream.flush()

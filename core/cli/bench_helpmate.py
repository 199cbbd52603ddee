"""Benchmark of the helpmate solver, in the manner of Tables 5–7 of Hoshi, Noshita, Yanai.

For each problem of a TSV file (columns ``id``, ``sfen``, ``length``) and each
configuration of :class:`~.helpmate.HelpmateOptions`, it records whether the
exact length was found, the scanned positions (走査局面数, every node
visited), the stored positions (探索局面数, distinct positions put in the
table), the largest number of protected positions at the end of an
iteration (最大保護局面数) and the time.

Run it as ``python -m tsume_studio.core.bench_helpmate FILE`` or through
``tsume helpmate-bench FILE``.
"""

from __future__ import annotations

import argparse
import csv
import os
import sys
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from ..search.helpmate import HelpmateOptions, solve_iter
from ..shogi.position import Position
from ..search.contract import ExtraValue, Limits, Progress, SolveResult, SolveStatus, drive

#: Named configurations, after the paper's Table 1 (programs A–G).
CONFIGS: dict[str, HelpmateOptions] = {
    "all": HelpmateOptions(),                                            # A with the move cache (D)
    "no-cache": HelpmateOptions(move_cache=False),                       # A
    "no-gc": HelpmateOptions(protect_gc=False),                          # B (+ cache)
    "no-decided": HelpmateOptions(decided=False, protect_gc=False),      # known positions only
    "no-known": HelpmateOptions(known=False),                            # decided positions only (G-like)
    "delta1": HelpmateOptions(delta=1),                                  # IDWFS with δ=1
    "plain": HelpmateOptions.plain(),                                    # plain DFID, δ=2, no table
}


@dataclass(frozen=True, slots=True)
class Problem:
    """One row of a problem file."""

    id: str
    sfen: str
    length: int | None          # None where the file says ``?``


@dataclass(frozen=True, slots=True)
class Measurement:
    """One problem solved under one configuration."""

    problem: Problem
    config: str
    status: SolveStatus
    length: int | None
    scanned: int
    stored: int
    max_protected: int
    depth: int
    seconds: float

    @property
    def exact(self) -> bool:
        """True when the solver found a mate of the file's length."""
        return self.status is SolveStatus.MATE and self.length == self.problem.length


class ProblemFileError(ValueError):
    """A problem file row that cannot be read."""


def read_problems(path: str | os.PathLike[str]) -> list[Problem]:
    """The rows of a helpmate TSV file (header ``id sfen length …``)."""
    out: list[Problem] = []
    with open(path, encoding="utf-8", newline="") as fh:
        reader = csv.DictReader(fh, delimiter="\t")
        for row in reader:
            text = (row.get("length") or "").strip()
            if text == "?":
                length = None
            else:
                try:
                    length = int(text)
                except ValueError:
                    raise ProblemFileError(f"{path}: bad length {text!r} in row {row.get('id')!r}") from None
            sfen = (row.get("sfen") or "").strip()
            if not sfen:
                raise ProblemFileError(f"{path}: row {row.get('id')!r} has no sfen")
            out.append(Problem(row.get("id") or "", sfen, length))
    return out


class CpuBudget:
    """A cancel flag that is set once this process has used ``seconds`` of CPU time.

    On a shared machine wall-clock limits measure the neighbours as much as the
    solver; the benchmark therefore limits and reports CPU time.
    """

    def __init__(self, seconds: float | None) -> None:
        self.start = time.process_time()
        self.seconds = seconds

    def used(self) -> float:
        return time.process_time() - self.start

    def is_set(self) -> bool:
        return self.seconds is not None and self.used() >= self.seconds


def measure(problem: Problem, config: str, seconds: float | None, memory_mb: int = 1024,
            progress: TextIO | None = None) -> Measurement:
    """Solve ``problem`` under the named configuration within ``seconds`` of CPU time.

    A search stopped by the budget reports status UNKNOWN; ``seconds`` in the
    measurement is CPU time.
    """
    options = CONFIGS[config]
    budget = CpuBudget(seconds)
    gen = solve_iter(Position.from_sfen(problem.sfen), Limits(memory_mb=memory_mb), budget, options=options)
    last_report = time.monotonic()

    def report(snap: Progress) -> None:
        nonlocal last_report
        if progress is not None and snap.elapsed and time.monotonic() - last_report >= 30:
            last_report = time.monotonic()
            stats = dict(snap.stats)
            print(f"  {problem.id} {config}: {budget.used():.0f} s CPU ({snap.elapsed:.0f} s wall), "
                  f"depth {stats['depth']:.0f}, scanned {snap.nodes}, stored {stats['stored']:.0f}, "
                  f"protected {stats['protected']:.0f}",
                  file=progress, flush=True)

    result: SolveResult = drive(gen, report)
    extra = result.extra
    status = SolveStatus.UNKNOWN if result.status is SolveStatus.CANCELLED else result.status
    return Measurement(problem, config, status, result.length, result.nodes,
                       _count(extra, "registered"), _count(extra, "max_protected"),
                       _count(extra, "depth"), budget.used())


def _count(extra: dict[str, ExtraValue], key: str) -> int:
    """A count the helpmate solver reports in ``SolveResult.extra`` (0 when absent)."""
    value = extra.get(key, 0)
    return int(value) if isinstance(value, (int, float)) else 0


def _fmt(m: Measurement) -> str:
    got = m.length if m.status is SolveStatus.MATE else m.status.value
    mark = "" if m.problem.length is None or m.exact else " ✗"
    return (f"| {m.problem.id} | {m.problem.length if m.problem.length is not None else '?'} | {m.config} | "
            f"{got}{mark} | {m.scanned} | {m.stored} | {m.max_protected} | {m.depth} | {m.seconds:.2f} |")


HEADER = ("| problem | length | config | found | scanned | stored | max protected | depth | CPU s |\n"
          "|---|---:|---|---:|---:|---:|---:|---:|---:|")


def run(problems: Iterable[Problem], configs: Sequence[str], seconds: float | None, memory_mb: int,
        out: TextIO, progress: TextIO | None = None) -> list[Measurement]:
    """Measure every problem under every configuration, writing a Markdown table to ``out``."""
    print(HEADER, file=out, flush=True)
    results: list[Measurement] = []
    for problem in problems:
        for config in configs:
            m = measure(problem, config, seconds, memory_mb, progress)
            results.append(m)
            print(_fmt(m), file=out, flush=True)
    return results


def summary(results: Sequence[Measurement]) -> str:
    """Per configuration: rows solved with the exact length, total and slowest time."""
    lines = ["| config | exact | rows | total CPU s | slowest CPU s | longest exact |",
             "|---|---:|---:|---:|---:|---:|"]
    for config in dict.fromkeys(m.config for m in results):
        ms = [m for m in results if m.config == config]
        exact = [m for m in ms if m.exact]
        longest = max((m.length or 0 for m in exact), default=0)
        lines.append(f"| {config} | {len(exact)} | {len(ms)} | {sum(m.seconds for m in ms):.1f} | "
                     f"{max((m.seconds for m in ms), default=0):.2f} | {longest} |")
    return "\n".join(lines)


def build_parser(parser: argparse.ArgumentParser | None = None) -> argparse.ArgumentParser:
    """The benchmark's arguments (shared with ``tsume helpmate-bench``)."""
    p = parser or argparse.ArgumentParser(prog="bench_helpmate", description=__doc__.splitlines()[0])
    p.add_argument("files", nargs="+", metavar="FILE", help="TSV problem files (id, sfen, length)")
    p.add_argument("--config", action="append", choices=sorted(CONFIGS),
                   help="configuration to run (repeatable; default: all)")
    p.add_argument("--seconds", type=float, default=60.0,
                   help="CPU-time limit per problem and configuration")
    p.add_argument("--memory-mb", type=int, default=1024, help="table memory per search")
    p.add_argument("--min-length", type=int, default=0, help="skip rows shorter than this")
    p.add_argument("--max-length", type=int, default=None, help="skip rows longer than this")
    p.add_argument("--id", action="append", dest="ids", help="only this row id (repeatable)")
    p.add_argument("--quiet", action="store_true", help="no progress lines on stderr")
    return p


def run_args(args: argparse.Namespace) -> int:
    """Run the benchmark for parsed arguments; returns the exit code."""
    problems: list[Problem] = []
    for f in args.files:
        if not Path(f).is_file():
            raise ProblemFileError(f"no such problem file: {f!r}")
        problems.extend(read_problems(f))
    selected = [p for p in problems
                if (args.ids is None or p.id in args.ids)
                and (p.length is None or p.length >= args.min_length)
                and (args.max_length is None or (p.length is not None and p.length <= args.max_length))]
    if not selected:
        raise ProblemFileError("no problem matches the selection")
    configs = args.config or list(CONFIGS)
    from .bench import machine

    print(f"Machine: {machine()}", flush=True)
    print(f"Limit: {args.seconds} s of CPU time and {args.memory_mb} MB per search; "
          f"{len(selected)} problems\n", flush=True)
    results = run(selected, configs, args.seconds, args.memory_mb, sys.stdout,
                  None if args.quiet else sys.stderr)
    print("\n" + summary(results), flush=True)
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Command-line entry: ``python -m tsume_studio.core.bench_helpmate FILE …``."""
    args = build_parser().parse_args(argv)
    try:
        return run_args(args)
    except ValueError as exc:
        print(f"bench_helpmate: error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())

"""``tsume bench``: this solver and cshogi's C++ df-pn on the same problems, in one run.

Figures per problem set: solved, median and total seconds, nodes per second,
peak table memory, and the time ratio to cshogi on the rows both solved.
cshogi's ``DfPn`` cannot be stopped by a clock (it holds the interpreter
lock), so it gets a node limit worth the same time at its measured speed.

``--official`` adds the official answer's view per set: how many rows it
answered exact, how many at the published length, and, for a set with a
``pv`` column, how many published solutions the check (:mod:`.check`)
confirmed or found discrepancies in; with the median and longest CPU time of
the answer and of the check.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import statistics
import time
from dataclasses import dataclass, field
from typing import Any

import cshogi

from .check import CheckTally, check_row
from .errors import UserError
from .problemset import expected_length, iter_rows
from ..kernel import AVAILABLE, REASON
from ..search import kernel_engine
from ..search.dfpn import Options
from .running import result_json
from ..shogi.position import Position
from ..search.contract import Limits, SolveStatus
from ..search.length_rule import AnswerSession
from ..search.solver import solve

# cshogi's df-pn speed on this kind of machine, measured on the Microcosmos
# tails (20 million nodes in about 160 s); used to turn seconds into nodes.
CSHOGI_NPS = 125_000


@dataclass
class SetFigures:
    """What one problem set measured, for one solver."""

    solved: int = 0
    wrong: int = 0
    times: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)
    nodes: int = 0
    peak_mb: float = 0.0
    longest: int | None = None

    def line(self, name: str, rows: int) -> str:
        med = statistics.median(self.times) if self.times else 0.0
        total = sum(self.times)
        cpu = sum(self.cpu)
        nps = self.nodes / cpu if cpu > 0 else 0.0
        longest = f"  longest proven {self.longest}" if self.longest is not None else ""
        return (f"  {name:<8} solved {self.solved}/{rows}  wrong length {self.wrong}  "
                f"median {med * 1000:8.1f} ms  total {total:8.2f} s (cpu {cpu:8.2f} s)  "
                f"nps(cpu) {nps:10,.0f}  peak table {self.peak_mb:7.1f} MB{longest}")


@dataclass
class OfficialFigures:
    """The official answer's figures for one problem set (``--official``)."""

    exact: int = 0
    matches: int = 0
    cpu: list[float] = field(default_factory=list)
    check_cpu: list[float] = field(default_factory=list)
    checks: CheckTally = field(default_factory=CheckTally)

    def add(self, rec: dict[str, Any]) -> None:
        """Count one row of the bench (its JSON record)."""
        self.exact += bool(rec["exact"])
        self.matches += bool(rec.get("length_matches"))
        self.cpu.append(rec["cpu"])
        if "check_cpu" in rec:
            self.check_cpu.append(rec["check_cpu"])
        self.checks.add(rec)

    def lines(self, rows: int) -> list[str]:
        """The set's official view, as text."""
        def times(xs: list[float]) -> str:
            return f"median {statistics.median(xs):.3f} s, max {max(xs):.3f} s" if xs else "none"

        out = [f"  official exact {self.exact}/{rows}  length = published {self.matches}/{rows}  "
               f"cpu {times(self.cpu)}"]
        if self.checks.rows:
            out.append(f"  published solutions: {self.checks.text()}; check cpu {times(self.check_cpu)}")
        return out


def _cshogi_solve(sfen: str, seconds: float, max_depth: int) -> tuple[bool, float, float, int, int]:
    board = cshogi.Board(sfen)
    dfpn = cshogi.DfPn()
    dfpn.set_max_depth(max_depth)
    dfpn.set_max_search_node(max(1000, int(seconds * CSHOGI_NPS)))
    start = time.perf_counter()
    cpu = time.process_time()
    ok = dfpn.search(board)
    cpu = time.process_time() - cpu
    elapsed = time.perf_counter() - start
    length = len(dfpn.get_pv(board)) if ok else 0
    return bool(ok), elapsed, cpu, int(dfpn.searched_node), length


def machine() -> str:
    """A one-line description of this machine."""
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    try:
        from importlib.metadata import version

        cshogi_version = version("cshogi")
    except Exception:  # pragma: no cover - metadata missing
        cshogi_version = "?"
    return (f"{cpu}, {os.cpu_count()} cores, Python {platform.python_version()}, "
            f"cshogi {cshogi_version}, {platform.system()} {platform.release()}")


def run_bench(args: argparse.Namespace) -> int:
    """Run the benchmark described by the ``tsume bench`` arguments."""
    off = {w.strip() for w in args.options.split(",") if w.strip()}
    unknown = off - {"mate1", "mate3", "dominance", "tca", "rps", "epsilon"}
    if unknown:
        raise ValueError(f"unknown df-pn switch in --options: {', '.join(sorted(unknown))}")
    official = getattr(args, "official", False)
    if official and args.raw:
        raise UserError("--official and --raw exclude each other: --raw has no exact answer")
    options = Options(mate1="mate1" not in off, mate3="mate3" not in off, dominance="dominance" not in off,
                      tca="tca" not in off,
                      rps="rps" not in off, epsilon=0.0 if "epsilon" in off else Options().epsilon,
                      delay=getattr(args, "delay", None) or Options().delay)
    print(f"machine: {machine()}")
    print(f"C++ kernel: {'loaded' if AVAILABLE else REASON}")
    print(f"df-pn engine: {kernel_engine.engine_choice()}")
    clock = "CPU" if args.cpu_time else "wall-clock"
    print(f"limit {args.seconds:g} s {clock} per problem; df-pn switches off: {', '.join(sorted(off)) or 'none'}; "
          f"delayed drops: {options.delay}; "
          f"{'df-pn only' if args.raw else 'with the exact main-line search'}"
          f"{'; official view: published solutions checked' if official else ''}")
    limits = Limits(seconds=args.seconds, memory_mb=args.memory, cpu_time=args.cpu_time)
    records: list[dict[str, Any]] = []
    for path, rows in iter_rows(args.files, every=args.every, first=args.first):
        ours, theirs = SetFigures(), SetFigures()
        view = OfficialFigures()
        both_ours = both_theirs = 0.0
        misses = 0
        done = 0
        for row in rows:
            if args.stop_after is not None and misses >= args.stop_after:
                print(f"  (left {os.path.basename(path)} after {misses} unsolved rows in a row)")
                break
            done += 1
            expected = expected_length(row)
            position = Position.from_sfen(row["sfen"])
            session = AnswerSession() if official and "pv" in row else None
            cpu = time.process_time()
            result = solve(position, limits,
                           options=options, exact=not args.raw, force=True, session=session)
            cpu = time.process_time() - cpu
            ok = result.status in (SolveStatus.MATE, SolveStatus.NO_MATE)
            rec: dict[str, Any] = {"file": os.path.basename(path), "id": row["id"], "expected": expected,
                                   "status": result.status.value, "length": result.length,
                                   "seconds": round(result.seconds, 4), "cpu": round(cpu, 4),
                                   "nodes": result.nodes,
                                   "exact": bool(result.extra.get("exact", False)),
                                   "engine": result.extra.get("engine", "python"),
                                   "cpu_seconds": result.extra.get("cpu_seconds", round(cpu, 4))}
            if official:
                data = result_json(result)
                for key in ("alternatives_checked", "alternatives_checked_to", "tree_complete"):
                    if key in data:
                        rec[key] = data[key]
                rec["length_matches"] = (result.status == SolveStatus.MATE and expected is not None
                                         and result.length == expected)
                if "pv" in row:
                    rec.update(check_row(position, row["pv"], data, limits, session))
                view.add(rec)
            misses = 0 if ok else misses + 1
            if ok:
                ours.solved += 1
                ours.times.append(result.seconds)
                ours.cpu.append(cpu)
                ours.nodes += result.nodes
                if result.status == SolveStatus.MATE and expected is not None:
                    if result.length != expected:
                        ours.wrong += 1
                    ours.longest = max(ours.longest or 0, expected)
            ours.peak_mb = max(ours.peak_mb, result.peak_memory_mb)
            if not args.no_cshogi:
                depth = max(31, (expected or 0) + 10)
                c_ok, c_sec, c_cpu, c_nodes, c_len = _cshogi_solve(row["sfen"], args.seconds, depth)
                mate_row = expected is not None
                c_solved = c_ok if mate_row else not c_ok and c_nodes < args.seconds * CSHOGI_NPS
                rec.update(cshogi_solved=c_solved, cshogi_seconds=round(c_sec, 4), cshogi_cpu=round(c_cpu, 4),
                           cshogi_nodes=c_nodes, cshogi_length=c_len)
                if c_solved:
                    theirs.solved += 1
                    theirs.times.append(c_sec)
                    theirs.cpu.append(c_cpu)
                    theirs.nodes += c_nodes
                    if mate_row:
                        theirs.longest = max(theirs.longest or 0, expected or 0)
                        if c_len != expected:
                            theirs.wrong += 1
                    if ok:
                        both_ours += cpu
                        both_theirs += c_cpu
            records.append(rec)
            print(json.dumps(rec, ensure_ascii=False), flush=True)
        print(f"{os.path.basename(path)}: {done} of {len(rows)} problems run")
        print(ours.line("tsume", done))
        if official:
            for text in view.lines(done):
                print(text)
        if not args.no_cshogi:
            print(theirs.line("cshogi", done))
            if both_theirs > 0:
                print(f"  CPU-time ratio tsume/cshogi on rows both solved: {both_ours / both_theirs:,.1f}x")
        rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        print(f"  process peak RSS so far: {rss:.0f} MB", flush=True)
    if args.json:
        from .files import write_atomic

        write_atomic(args.json, json.dumps({"machine": machine(), "kernel": "loaded" if AVAILABLE else REASON,
                                            "engine": kernel_engine.engine_choice(), "rows": records},
                                           ensure_ascii=False, indent=1).encode("utf-8"))
    return 0

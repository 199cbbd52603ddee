"""Measure how the window responds while it solves: event-loop gaps, Stop latency, and their causes.

    QT_QPA_PLATFORM=offscreen .venv/bin/python scripts/responsiveness.py [--tail 301] [--seconds 8]
        [--hogs 1] [--runs 3] [--memory 256] [--raw] [--probe] [--trace] [--json OUT]

Each run opens the real main window (offscreen), solves a Microcosmos tail
(tests/data/microcosmos.tsv) with ``--hogs`` CPU-bound processes running
beside it, waits until the first progress snapshot is shown, then for
``--seconds`` records the gaps between the ticks of a 10 ms timer, and last
presses Stop and times it until the window says the search has finished.

Beside the gaps it records what each candidate cause costs:

- the window's work per snapshot (live tree, status line): wall and CPU
  time of every progress slot, and the snapshot's size (path levels and
  listed children);
- the operating system's scheduling: a separate process (no interpreter
  lock shared) sleeps 10 ms at a time and records how late it wakes;
- with ``--probe``, the interpreter lock: a thread of this process sleeps
  2 ms at a time and records how late it runs again, which is the wake-up
  latency plus the wait for the lock the search thread holds;
- with ``--trace``, what each long gap (over ``--trace-over`` ms) overlapped:
  every time the df-pn thread offers the lock (its ``time.sleep(0)``) is
  logged with its thread CPU time, nodes, table entries and keys, table
  collections and minor page faults, beside the window's progress slots
  and the interpreter's garbage collections; the longest stretch the
  search held the lock inside the gap, and what changed during it, is
  printed per gap.

The figures in docs/benchmarks.md ("The window while it solves") come from
this script; it measures, it asserts nothing.
"""

from __future__ import annotations

import argparse
import itertools
import json
import multiprocessing
import os
import platform
import resource
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def _tail(n: int) -> str:
    for line in (ROOT / "tests" / "data" / "microcosmos.tsv").read_text(encoding="utf-8").splitlines():
        cells = line.split("\t")
        if cells[0] == f"microcosmos-tail-{n}":
            return cells[1]
    raise SystemExit(f"no microcosmos-tail-{n} in tests/data/microcosmos.tsv")


def _hog(stop: Any) -> None:
    """CPU-bound work with some memory traffic (a 64 MB list walked over and over)."""
    data = list(range(8_000_000))
    k = 0
    while not stop.is_set():
        for i in range(0, len(data), 4099):
            data[i] = (data[i] * 31 + k) & 0xFFFF
        k += 1


def _sleeper(stop: Any, out: Any) -> None:
    """Sleep 10 ms at a time and record how late each wake-up is (ms): the OS's part."""
    late: list[float] = []
    while not stop.is_set():
        t = time.perf_counter()
        time.sleep(0.010)
        late.append((time.perf_counter() - t - 0.010) * 1000)
    out.put(late)


def _summary(values: list[float]) -> dict[str, float]:
    if not values:
        return {}
    ordered = sorted(values)
    return {"n": len(values), "max": round(ordered[-1], 1),
            "p99": round(ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))], 1),
            "median": round(statistics.median(ordered), 2), "mean": round(statistics.fmean(ordered), 2)}


def _schedstat(tid: int) -> tuple[float, float]:
    """A thread's CPU time and its time waiting on the run queue (ms), from Linux's schedstat."""
    try:
        with open(f"/proc/self/task/{tid}/schedstat", encoding="ascii") as f:
            run, wait, _ = f.read().split()
        return int(run) / 1e6, int(wait) / 1e6
    except (OSError, ValueError):
        return 0.0, 0.0


class _Trace:
    """Timestamps of the search's lock offers, the window's slots and the collections (``--trace``)."""

    def __init__(self) -> None:
        import gc

        from tsume_studio.core.search import solver

        self.searchers: list[Any] = []
        # (before the offer, after it, run-queue wait ms, nodes, entries, keys, collections, minor faults)
        self.offers: list[tuple[float, float, float, int, int, int, int, int]] = []
        # the window's thread at each tick: (time, CPU ms, run-queue wait ms)
        self.gui: list[tuple[float, float, float]] = []
        self.slots: list[tuple[float, float]] = []
        self.gcs: list[tuple[float, str, int]] = []
        self._solver = solver
        self._dfpn = solver.DfPn
        self._sleep = time.sleep
        self._gc = gc

        def make(*a: Any, **k: Any) -> Any:
            searcher = self._dfpn(*a, **k)
            self.searchers.append(searcher)
            return searcher

        def sleep(seconds: float) -> None:
            if seconds == 0 and threading.current_thread().name == "tsume-search" and self.searchers:
                s = self.searchers[-1]
                before = time.perf_counter()
                self._sleep(seconds)
                after = time.perf_counter()
                self.offers.append((before, after, _schedstat(threading.get_native_id())[1], s.nodes,
                                    s.tt.entries, len(s.tt.table), s.tt.collections,
                                    resource.getrusage(resource.RUSAGE_THREAD).ru_minflt))
                return
            self._sleep(seconds)

        def on_gc(phase: str, info: dict[str, int]) -> None:
            self.gcs.append((time.perf_counter(), phase, info.get("generation", -1)))

        solver.DfPn = make   # solver.py looks the class up at each solve
        time.sleep = sleep   # df-pn looks time.sleep up at each offer
        gc.callbacks.append(on_gc)
        self._on_gc = on_gc

    def close(self) -> None:
        self._solver.DfPn = self._dfpn
        time.sleep = self._sleep
        self._gc.callbacks.remove(self._on_gc)

    def explain(self, ticks: list[float], over_ms: float) -> list[dict[str, Any]]:
        """What each gap longer than ``over_ms`` was made of.

        ``gui_cpu``/``gui_runq``: the window's thread computing / ready but
        not given a CPU by the OS; ``search_hold``: the search holding the
        lock (from an offer's return to the next offer) inside the gap, its
        longest stretch, and that stretch's run-queue wait (the search
        preempted while it holds the lock); what the table did meanwhile.
        """
        gui = {t: (c, w) for t, c, w in self.gui}
        out = []
        for prev, t in itertools.pairwise(ticks):
            gap = (t - prev) * 1000
            if gap <= over_ms:
                continue
            row: dict[str, Any] = {"gap": round(gap, 1)}
            if prev in gui and t in gui:
                row["gui_cpu"] = round(gui[t][0] - gui[prev][0], 1)
                row["gui_runq"] = round(gui[t][1] - gui[prev][1], 1)
            inside = [o for o in self.offers if prev - 0.3 <= o[0] <= t + 0.3]
            held = 0.0
            longest: tuple[Any, Any] | None = None
            for a, b in itertools.pairwise(inside):
                lo, hi = max(a[1], prev), min(b[0], t)   # from the offer's return to the next offer
                if hi > lo:
                    held += hi - lo
                    if longest is None or b[0] - a[1] > longest[1][0] - longest[0][1]:
                        longest = (a, b)
            row["search_hold"] = round(held * 1000, 1)
            if longest is not None:
                a, b = longest
                row.update(longest_hold=round((b[0] - a[1]) * 1000, 1), its_runq=round(b[2] - a[2], 1),
                           nodes=b[3] - a[3], keys=(a[5], b[5]), collected=b[6] - a[6], minflt=b[7] - a[7])
            row["slots"] = [round((e - s) * 1000, 1) for s, e in self.slots if s < t and e > prev]
            row["gc"] = [g for when, p, g in self.gcs if prev <= when <= t and p == "start"]
            out.append(row)
        return out


def one_run(sfen: str, seconds: float, probe: bool, trace: _Trace | None = None,
            trace_over: float = 40.0, memory_mb: int = 256, raw: bool = False) -> dict[str, Any]:
    from PySide6.QtCore import QElapsedTimer, QEventLoop, QTimer
    from PySide6.QtWidgets import QApplication

    from tsume_studio.core.search.contract import Limits, Progress
    from tsume_studio.core.shogi.position import Position
    from tsume_studio.gui.mainwindow import MainWindow
    from tsume_studio.gui.settings import save_limits

    app = QApplication.instance() or QApplication([])
    save_limits(Limits(seconds=600.0, memory_mb=memory_mb))
    if raw:
        import functools

        from tsume_studio.core.search.solver import solve_iter

        # df-pn alone, as `tsume solve --raw` runs it (on the C++ kernel where TSUME_ENGINE allows).
        w = MainWindow(solver_for=lambda mode: functools.partial(solve_iter, exact=False))
    else:
        w = MainWindow()
    w.ask_discard = lambda: "discard"  # type: ignore[method-assign]   # no modal question at close
    w.show()
    w.editor.set_position(Position.from_sfen(sfen))

    slot_wall: list[float] = []
    slot_cpu: list[float] = []
    sizes: list[tuple[int, int]] = []
    nodes: list[int] = []
    phases: list[str] = []   # the phase of each snapshot shown (Stop in which part)
    original = w._on_progress

    def timed(progress: Progress) -> None:
        t, c = time.perf_counter(), time.thread_time()
        original(progress)
        if trace is not None:
            trace.slots.append((t, time.perf_counter()))
        slot_wall.append((time.perf_counter() - t) * 1000)
        slot_cpu.append((time.thread_time() - c) * 1000)
        sizes.append((len(progress.path), len(progress.root_children) + sum(len(e.children) for e in progress.path)))
        nodes.append(progress.nodes)
        phases.append(progress.phase.value)

    w._on_progress = timed  # type: ignore[method-assign]   # connected by solve(), read then

    def spin(until: Any, timeout: float) -> bool:
        end = time.monotonic() + timeout
        while not until():
            if time.monotonic() > end:
                return False
            app.processEvents(QEventLoop.ProcessEventsFlag.AllEvents, 5)
        return True

    w.solve()
    if not spin(lambda: len(slot_wall) >= 1, 20):
        raise SystemExit("no progress snapshot within 20 s")

    probe_late: list[float] = []
    probe_stop = threading.Event()

    def gil_probe() -> None:
        while not probe_stop.is_set():
            t = time.perf_counter()
            time.sleep(0.002)
            probe_late.append((time.perf_counter() - t - 0.002) * 1000)

    if probe:
        threading.Thread(target=gil_probe, daemon=True).start()

    gaps: list[float] = []
    ticks: list[float] = []
    clock = QElapsedTimer()
    clock.start()
    timer = QTimer()
    timer.setInterval(10)

    gui_tid = threading.get_native_id()

    def tick() -> None:
        gaps.append(clock.nsecsElapsed() / 1e6)
        clock.restart()
        now = time.perf_counter()
        ticks.append(now)
        if trace is not None:
            trace.gui.append((now, *_schedstat(gui_tid)))

    timer.timeout.connect(tick)
    cpu0 = time.process_time()
    timer.start()
    spin(lambda: False, seconds)
    timer.stop()
    cpu = time.process_time() - cpu0
    probe_stop.set()
    searching = w.is_searching()

    finished: list[float] = []
    w.searchFinished.connect(lambda _r: finished.append(time.perf_counter()))
    t0 = time.perf_counter()
    w.stop()
    spin(lambda: bool(finished), 10)
    stop_ms = (finished[0] - t0) * 1000 if finished else float("nan")
    w.close()
    w.deleteLater()
    app.processEvents()
    return {"gaps_ms": _summary([g - 0 for g in gaps]), "stop_ms": round(stop_ms, 1),
            "still_searching_before_stop": searching,
            "process_cpu_s": round(cpu, 2),
            "progress_slot_wall_ms": _summary(slot_wall), "progress_slot_cpu_ms": _summary(slot_cpu),
            "snapshot_levels": _summary([float(s[0]) for s in sizes]),
            "snapshot_children": _summary([float(s[1]) for s in sizes]),
            "nodes_at_last_snapshot": nodes[-1] if nodes else 0,
            "phase_at_stop": phases[-1] if phases else "",
            "gil_probe_late_ms": _summary(probe_late) if probe else None,
            "long_gaps": trace.explain(ticks, trace_over) if trace is not None else None,
            "lock_hold_ms": _summary([(b[0] - a[1]) * 1000 for a, b in zip(trace.offers, trace.offers[1:])
                                      if ticks and ticks[0] <= a[0] <= ticks[-1]])
            if trace is not None else None}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("--tail", type=int, default=301)
    ap.add_argument("--seconds", type=float, default=8.0)
    ap.add_argument("--hogs", type=int, default=1, help="CPU-bound processes beside the window")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--probe", action="store_true", help="also time a 2 ms sleeper thread (the lock's part)")
    ap.add_argument("--memory", type=int, default=256, help="the search's memory bound (MB)")
    ap.add_argument("--raw", action="store_true",
                    help="df-pn alone (no official answer); with TSUME_ENGINE=kernel, the C++ kernel's")
    ap.add_argument("--trace", action="store_true", help="log what the search did during each long gap")
    ap.add_argument("--trace-over", type=float, default=40.0, help="gaps longer than this are explained (ms)")
    ap.add_argument("--json", help="write the runs here")
    args = ap.parse_args()
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtCore import QSettings

    QSettings.setDefaultFormat(QSettings.Format.IniFormat)
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, tempfile.mkdtemp())
    from tsume_studio.core.search.kernel_engine import engine_choice

    sfen = _tail(args.tail)
    ctx = multiprocessing.get_context("spawn")
    runs = []
    for k in range(args.runs):
        stop = ctx.Event()
        hogs = [ctx.Process(target=_hog, args=(stop,), daemon=True) for _ in range(args.hogs)]
        queue = ctx.Queue()
        sleeper = ctx.Process(target=_sleeper, args=(stop, queue), daemon=True)
        for p in [*hogs, sleeper]:
            p.start()
        time.sleep(1.0)   # the hogs at work before the search starts
        load = os.getloadavg()[0]
        try:
            trace = _Trace() if args.trace else None
            try:
                run = one_run(sfen, args.seconds, args.probe, trace, args.trace_over, args.memory, args.raw)
            finally:
                if trace is not None:
                    trace.close()
        finally:
            stop.set()
        run["os_sleep_late_ms"] = _summary(queue.get(timeout=10))
        for p in [*hogs, sleeper]:
            p.join(10)
        run["load_1min"] = round(load, 2)
        runs.append(run)
        print(f"run {k + 1}: gaps {run['gaps_ms']}  stop {run['stop_ms']} ms ({run['phase_at_stop']})  "
              f"load {run['load_1min']}")
        print(f"    progress slot wall {run['progress_slot_wall_ms']}  cpu {run['progress_slot_cpu_ms']}")
        print(f"    snapshot levels {run['snapshot_levels']}  children {run['snapshot_children']}")
        print(f"    OS sleep lateness {run['os_sleep_late_ms']}")
        if args.probe:
            print(f"    lock probe lateness {run['gil_probe_late_ms']}")
        if args.trace:
            print(f"    search's holds of the lock between offers {run['lock_hold_ms']}")
            for row in run["long_gaps"]:
                print(f"    long gap {row}")
    head = {"date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "python": platform.python_version(),
            "cpus": os.cpu_count(), "machine": platform.processor() or platform.machine(),
            "tail": args.tail, "hogs": args.hogs, "seconds": args.seconds,
            "memory_mb": args.memory, "raw": args.raw, "engine": engine_choice()}
    print(json.dumps(head))
    print("max gap, median of runs:", statistics.median(r["gaps_ms"]["max"] for r in runs), "ms;",
          "stop, median of runs:", statistics.median(r["stop_ms"] for r in runs), "ms")
    if args.json:
        Path(args.json).write_text(json.dumps({"setup": head, "runs": runs}, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())

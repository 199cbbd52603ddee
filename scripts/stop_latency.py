"""Stop during the official answer on the Python path, headless, as the window's worker runs a solve.

    .venv/bin/python scripts/stop_latency.py TAIL AFTER RUNS
    (e.g. 41 3 4: Microcosmos tail 41, Stop 3 s after the official answer's first snapshot, 4 runs)

Cyclic collection is paused during the search and the solve gets a ``SearchSession`` and an
``AnswerSession``, as the window's worker does.  Each run times ``cancel.set()`` to the solve's
return, the wait for tables freed on their own thread, and the generation-0 collection that
follows resuming collection (everything allocated during the search is in that generation):
its CPU time and the objects it frees.  It measures, it asserts nothing.
"""

from __future__ import annotations

import csv
import gc
import json
import os
import statistics
import sys
import threading
import time
from pathlib import Path

os.environ["TSUME_ENGINE"] = "python"   # before the package reads it
from tsume_studio.core.search.solver import solve_iter, SearchSession
from tsume_studio.core.search.contract import Limits, Progress, SearchPhase, drive
from tsume_studio.core.search.background import wait_released
from tsume_studio.core.shogi.position import Position
try:
    from tsume_studio.core.search.length_rule import AnswerSession
except ImportError:   # an install from before the official answer had one path
    from tsume_studio.core.search.exact import AnswerSession

DATA = Path(__file__).resolve().parent.parent / "tests" / "data" / "microcosmos.tsv"


def one_run(sfen: str, after: float) -> dict[str, object] | None:
    """One solve stopped ``after`` seconds into the official answer; its timings, or None if it ended first."""
    cancel = threading.Event()
    first_official: list[float] = []
    t_cancel: list[float] = []

    def watch(p: Progress) -> None:
        if p.phase is not SearchPhase.MATE and not first_official:
            first_official.append(time.perf_counter())
        if first_official and not t_cancel and time.perf_counter() - first_official[0] >= after:
            t_cancel.append(time.perf_counter())
            cancel.set()

    gc.collect()
    gc.disable()
    resume, session = SearchSession(), AnswerSession()
    result = drive(solve_iter(Position.from_sfen(sfen), Limits(seconds=120, memory_mb=256), cancel,
                              resume=resume, session=session), watch)
    t_ret = time.perf_counter()
    status = result.status.name
    del result
    wait_released()
    t_rel = time.perf_counter()
    gc.enable()
    c0 = time.process_time()
    n = gc.collect(0)   # the first automatic collection after the pause: everything allocated since is in it
    t_gc = time.perf_counter()
    gc_cpu = time.process_time() - c0
    resume.release()
    session.release()
    if not t_cancel:
        print("ended before the Stop:", status)
        return None
    return {"return_ms": (t_ret - t_cancel[0]) * 1000, "release_wait_ms": (t_rel - t_ret) * 1000,
            "collect_ms": (t_gc - t_rel) * 1000, "collect_cpu_ms": gc_cpu * 1000, "collected": n,
            "stop_ms": (t_gc - t_cancel[0]) * 1000, "status": status, "load": os.getloadavg()[0]}


def main() -> int:
    tail, after, runs = int(sys.argv[1]), float(sys.argv[2]), int(sys.argv[3])
    with DATA.open(encoding="utf-8") as f:
        sfen = next(r["sfen"] for r in csv.DictReader(f, delimiter="\t") if r["id"] == f"microcosmos-tail-{tail}")
    out = []
    for _ in range(runs):
        row = one_run(sfen, after)
        if row is None:
            continue
        out.append(row)
        print(json.dumps({k: (round(v, 1) if isinstance(v, float) else v) for k, v in row.items()}), flush=True)
    if not out:
        return 1
    for key in ("return_ms", "release_wait_ms", "collect_ms", "collect_cpu_ms", "collected", "stop_ms"):
        values = [float(str(r[key])) for r in out]
        print(key, "median", round(statistics.median(values), 1), "range", round(min(values), 1), "-",
              round(max(values), 1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

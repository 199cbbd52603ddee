"""df-pn alone on three engines in one run: the C++ kernel, the Python engine and cshogi's ``DfPn``.

Usage: ``python tools/bench_engines.py FILE.tsv [--rows ID,ID,...] [--every N] [--seconds S]
[--engines kernel,python,cshogi] [--kernel-options epsilon=0.5,mate3=off]``.  One JSON line per
problem and engine: status, nodes, CPU seconds (the kernel's search thread; the process for the
others, which search on the calling thread or beside an idle one), nodes per CPU second.  The
limit is CPU time for the kernel and the Python engine; cshogi's search cannot be stopped by a
clock, so it gets a node limit worth the limit at its measured speed (``CSHOGI_NPS`` of ``tsume
bench``).  ``--kernel-options`` sets the kernel's df-pn switches (``DfPnSearch``'s keyword
arguments), so a setting can be measured against the defaults without a build of its own; the
first line records them.
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import platform
import sys
import time
from collections.abc import Callable

import cshogi

from tsume_studio.core.cli.bench import CSHOGI_NPS
from tsume_studio.core.search.contract import Limits
from tsume_studio.core.search.solver import solve
from tsume_studio.core.shogi.position import Position


# DfPnSearch's df-pn switches and how each is read from the command line.
KERNEL_SWITCHES: dict[str, type] = {"mate1": bool, "mate3": bool, "dominance": bool, "tca": bool, "rps": bool,
                                    "epsilon": float, "max_ply": int, "delay": str}
_TRUTH = {"on": True, "true": True, "1": True, "off": False, "false": False, "0": False}
_KIND_NAMES = {float: "number", int: "whole number", str: "word"}


def parse_kernel_options(text: str) -> dict[str, object]:
    """``"epsilon=0.5,mate3=off"`` as DfPnSearch's keyword arguments; ValueError names what is wrong."""
    options: dict[str, object] = {}
    for item in filter(None, (part.strip() for part in text.split(","))):
        name, sep, value = (x.strip() for x in item.partition("="))
        if not sep or not value:
            raise ValueError(f"kernel option {item!r} is not NAME=VALUE")
        kind = KERNEL_SWITCHES.get(name)
        if kind is None:
            raise ValueError(f"unknown kernel option {name!r} (known: {', '.join(KERNEL_SWITCHES)})")
        if kind is bool:
            if value.lower() not in _TRUTH:
                raise ValueError(f"kernel option {name} takes on or off, not {value!r}")
            options[name] = _TRUTH[value.lower()]
        else:
            try:
                options[name] = kind(value)
            except ValueError:
                raise ValueError(f"kernel option {name} takes a {_KIND_NAMES[kind]}, not {value!r}") from None
    return options


def run_kernel(sfen: str, seconds: float, memory: int, options: dict[str, object] | None = None) -> dict[str, object]:
    from tsume_studio.core.kernel import DfPnSearch

    search = DfPnSearch(sfen, memory, **(options or {}))  # type: ignore[arg-type]
    outcome = search.run(0, seconds, True)
    out: dict[str, object] = {"status": outcome, "nodes": search.nodes, "cpu": round(search.cpu_seconds, 3)}
    if outcome == "proven":
        line, complete = search.principal_variation(0, seconds, True)
        out.update(pv_length=len(line), pv_complete=complete, cpu_with_line=round(search.cpu_seconds, 3))
    return out


def run_python(sfen: str, seconds: float, memory: int) -> dict[str, object]:
    os.environ["TSUME_ENGINE"] = "python"
    cpu = time.process_time()
    result = solve(Position.from_sfen(sfen), Limits(seconds=seconds, cpu_time=True, memory_mb=memory),
                   exact=False, force=True)
    cpu = time.process_time() - cpu
    status = {"mate": "proven", "no_mate": "disproven"}.get(result.status.value, "unknown")
    return {"status": status, "nodes": result.nodes, "cpu": round(cpu, 3), "pv_length": len(result.pv),
            "pv_complete": bool(result.extra.get("pv_complete", True))}


def run_cshogi(sfen: str, seconds: float, memory: int) -> dict[str, object]:
    board = cshogi.Board(sfen)
    limit = int(seconds * CSHOGI_NPS)
    dfpn = cshogi.DfPn()
    dfpn.set_max_depth(255)
    dfpn.set_max_search_node(limit)
    cpu = time.process_time()
    mate = dfpn.search(board)
    cpu = time.process_time() - cpu
    nodes = dfpn.searched_node
    status = "proven" if mate else ("disproven" if nodes < limit else "unknown")
    return {"status": status, "nodes": nodes, "cpu": round(cpu, 3)}


RUNNERS = {"kernel": run_kernel, "python": run_python, "cshogi": run_cshogi}


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("file")
    p.add_argument("--rows", help="comma-separated ids")
    p.add_argument("--every", type=int, default=1)
    p.add_argument("--seconds", type=float, default=60.0)
    p.add_argument("--memory", type=int, default=1024)
    p.add_argument("--engines", default="kernel,python,cshogi")
    p.add_argument("--kernel-options", default="", metavar="NAME=VALUE,...",
                   help=f"the kernel's df-pn switches ({', '.join(KERNEL_SWITCHES)}), e.g. epsilon=0.5,mate3=off")
    args = p.parse_args()
    try:
        kernel_options = parse_kernel_options(args.kernel_options)
    except ValueError as e:
        p.error(str(e))
    runners: dict[str, Callable[[str, float, int], dict[str, object]]] = dict(RUNNERS)
    runners["kernel"] = functools.partial(run_kernel, options=kernel_options)
    engines = args.engines.split(",")
    unknown = [name for name in engines if name not in runners]
    if unknown:
        p.error(f"unknown engine {unknown[0]!r} (known: {', '.join(runners)})")
    lines = open(args.file, encoding="utf-8").read().splitlines()
    header = lines[0].split("\t")
    rows = [dict(zip(header, line.split("\t"))) for line in lines[1:]]
    if args.rows:
        wanted = args.rows.split(",")
        rows = [r for r in rows if r["id"] in wanted]
    rows = rows[::args.every]
    if rows and "kernel" in engines:
        # The values' ranges are the binding's to check: ask it before the first line is printed.
        from tsume_studio.core.kernel import DfPnSearch

        try:
            DfPnSearch(rows[0]["sfen"], 1, **kernel_options)  # type: ignore[arg-type]
        except ValueError as e:
            p.error(f"kernel options: {e}")
    print(json.dumps({"machine": platform.processor() or platform.machine(), "python": platform.python_version(),
                      "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "seconds": args.seconds,
                      "kernel_options": kernel_options}))
    for row in rows:
        for name in engines:
            rec = runners[name](row["sfen"], args.seconds, args.memory)
            cpu = float(rec["cpu"])  # type: ignore[arg-type]
            rec.update(id=row["id"], engine=name, nps=int(int(rec["nodes"]) / cpu) if cpu > 0 else 0)  # type: ignore[call-overload]
            print(json.dumps(rec), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

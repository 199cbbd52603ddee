"""Move generation speed of the C++ kernel (docs/benchmarks.md, "The C++ kernel"): ``make bench-kernel``.

Prints, as medians of ``--runs`` runs, in CPU seconds of one core:

* perft(5) from the start position, every move made and unmade (leaves too), and its
  leaves per CPU second;
* the checks of every problem position of mate.tsv and microcosmos.tsv (the attacker to
  move) and the evasions after each of those checks, each generated ``--rounds`` times,
  timed inside C++ (``bench_generation``);
* with ``--cshogi BINARY`` (tools/cshogi_movegen_bench.cpp built against cshogi's C++
  sources), cshogi's generation of the same moves on the same positions, timed the same way.
"""

from __future__ import annotations

import argparse
import datetime
import json
import platform
import statistics
import subprocess
import tempfile
from pathlib import Path

from tsume_studio.core import kernel

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data"
START = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"


def problem_sfens(names: tuple[str, ...] = ("mate.tsv", "microcosmos.tsv")) -> list[str]:
    out = []
    for name in names:
        lines = (DATA / name).read_text(encoding="utf-8").splitlines()
        column = lines[0].split("\t").index("sfen")
        out += [line.split("\t")[column] for line in lines[1:] if line.strip()]
    return out


def machine() -> str:
    cpu = next((line.split(":", 1)[1].strip() for line in Path("/proc/cpuinfo").read_text().splitlines()
                if line.startswith("model name")), platform.processor()) if Path("/proc/cpuinfo").exists() else ""
    return f"{cpu}, {platform.python_implementation()} {platform.python_version()}, {platform.system()}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--rounds", type=int, default=1000)
    parser.add_argument("--cshogi", type=Path, help="a built tools/cshogi_movegen_bench.cpp")
    args = parser.parse_args()
    if not kernel.AVAILABLE:
        raise SystemExit(kernel.REASON)
    print(f"machine: {machine()}; date: {datetime.date.today().isoformat()}")
    perft = [kernel.bench_perft(START, 5) for _ in range(args.runs)]
    assert all(leaves == 19_861_490 for leaves, _ in perft)
    seconds = statistics.median(s for _, s in perft)
    print(f"perft(5) from the start: 19,861,490 leaves in {seconds:.3f} CPU s (median of {args.runs}), "
          f"{19_861_490 / seconds / 1e6:.1f} million leaves per CPU second")
    sfens = problem_sfens()
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
        f.write("\n".join(sfens) + "\n")
    # Kernel and cshogi alternate, run by run, so that both see the same load.
    runs, theirs = [], []
    for _ in range(args.runs):
        runs.append(kernel.bench_generation(sfens, args.rounds))
        if args.cshogi:
            theirs.append(json.loads(subprocess.run([str(args.cshogi), f.name, str(args.rounds)], capture_output=True,
                                                    text=True, check=True).stdout))
    Path(f.name).unlink()
    first = runs[0]
    check_s = statistics.median(r["check_seconds"] for r in runs)
    evasion_s = statistics.median(r["evasion_seconds"] for r in runs)
    n_or, n_and = int(first["check_positions"]), int(first["evasion_positions"])
    print(f"kernel: {n_or} positions, checks x{args.rounds}: {int(first['checks'])} moves in {check_s:.4f} s "
          f"({check_s / n_or / args.rounds * 1e9:.0f} ns a position); "
          f"{n_and} positions in check, evasions x{args.rounds}: {int(first['evasions'])} moves in {evasion_s:.4f} s "
          f"({evasion_s / n_and / args.rounds * 1e9:.0f} ns a position)")
    if theirs:
        t = theirs[0]
        assert t["legal_checks"] == first["checks"] and t["legalall_in_check_moves"] == first["evasions"], t

        def med(key: str) -> float:
            return statistics.median(r[key] for r in theirs)

        print(f"cshogi: checks CheckAll {t['checkall_moves']} moves in {med('checkall_seconds'):.4f} s, "
              f"with its legality filter {t['legal_checks']} moves in {med('checkall_legal_seconds'):.4f} s; "
              f"evasions Evasion {t['evasion_moves']} moves in {med('evasion_seconds'):.4f} s, "
              f"LegalAll in check {t['legalall_in_check_moves']} moves in {med('legalall_in_check_seconds'):.4f} s")
        print(f"kernel / cshogi, the same moves: checks {check_s / med('checkall_legal_seconds'):.2f}, "
              f"evasions {evasion_s / med('legalall_in_check_seconds'):.2f} (below 1: the kernel is faster)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

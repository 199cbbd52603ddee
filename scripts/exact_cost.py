"""Measure what the exact answer costs against the df-pn proof on the Microcosmos tails.

    .venv/bin/python scripts/exact_cost.py [--seconds 180] [--tails 1-29] [--cshogi-tails 21-41]

For each tail (CPU seconds, one run each): the df-pn proof; the exact search
up to the moment the length is proved shortest (the exactness check); the
whole official answer (main line, proof tree, 余詰 search); the length.
Then, for comparison, cshogi's C++ df-pn on the same tails: nodes to prove
mate with its depth limit at the length, and nodes to answer "no mate within
length - 2" under raw rules, the question the exactness check answers under
tsume rules.  The figures in docs/benchmarks.md come from this script.
"""

from __future__ import annotations

import argparse
import csv
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import cshogi  # noqa: E402

from core.search import builder, length_search  # noqa: E402
from core.search.dfpn import DfPn  # noqa: E402
from core.shogi.position import Position  # noqa: E402


def _tails(spec: str) -> list[int]:
    lo, _, hi = spec.partition("-")
    return list(range(int(lo), int(hi or lo) + 1, 2))


def _rows() -> dict[int, str]:
    with (ROOT / "tests" / "data" / "microcosmos.tsv").open(encoding="utf-8") as f:
        return {int(r["id"].rsplit("-", 1)[1]): r["sfen"] for r in csv.DictReader(f, delimiter="\t")
                if r["id"].startswith("microcosmos-tail-")}


def ours(sfen: str, seconds: float) -> tuple[float, float | None, float, int | None, bool | None]:
    pos = Position.from_sfen(sfen)
    board = pos.board().copy()
    oracle = DfPn(board.turn, memory_mb=512)
    t0 = time.process_time()
    oracle.search(board.copy(), or_node=True)
    proof_s = time.process_time() - t0
    proved: list[float] = []
    assemble = builder.assemble_proof

    def timed(*args, **kwargs):  # the answer is assembled once the length is proved
        if not proved:
            proved.append(time.process_time() - t1)
        return assemble(*args, **kwargs)

    builder.assemble_proof = timed
    try:
        t1 = time.process_time()
        answer = length_search.solve_official(pos, oracle, deadline=time.monotonic() + seconds)
        total = time.process_time() - t1
    finally:
        builder.assemble_proof = assemble
    return (proof_s, proved[0] if proved else None, total,
            answer.length if answer else None, answer.alternatives_checked if answer else None)


def theirs(sfen: str, length: int) -> tuple[int, int, float]:
    board = cshogi.Board(sfen)
    prove = cshogi.DfPn(depth=length, nodes=20_000_000)
    assert prove.search(board)
    refute = cshogi.DfPn(depth=length - 2, nodes=20_000_000)
    t = time.process_time()
    mated = refute.search(board)
    return prove.searched_node, refute.searched_node if not mated else -1, time.process_time() - t


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seconds", type=float, default=180.0, help="limit of each exact search")
    ap.add_argument("--tails", default="1-29", help="tails for this solver, e.g. 1-29")
    ap.add_argument("--cshogi-tails", default="21-41", help="tails for cshogi's depth-limited df-pn")
    args = ap.parse_args()
    rows = _rows()
    print("tail\tproof s\tlength proved s\tratio\twhole answer s\tlength\t余詰 checked")
    for n in _tails(args.tails):
        p, proved, total, length, checked = ours(rows[n], args.seconds)
        ratio = f"{proved / p:.1f}" if proved is not None and p > 0 else "-"
        print(f"{n}\t{p:.2f}\t{'-' if proved is None else f'{proved:.2f}'}\t{ratio}\t{total:.2f}"
              f"\t{length}\t{checked}", flush=True)
    print("\ntail\tcshogi prove nodes\tcshogi refute length-2 nodes\tratio\trefute CPU s")
    for n in _tails(args.cshogi_tails):
        pn, rn, rs = theirs(rows[n], n)
        print(f"{n}\t{pn}\t{rn}\t{rn / pn:.1f}\t{rs:.2f}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

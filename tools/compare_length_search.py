"""Check the kernel's length-aware search against the Python one (core.search.length_search), row by row.

For each row of a problem file (TSV with ``id`` and ``sfen`` columns) both
searches build the official answer; then:

* the exact lengths must agree;
* on every defender node of either answer's tree (the first ``--nodes`` of
  each), both searches must give the same exact length, the same defences
  that count and the same futile drop squares with the same reason
  (Kakinoki's test or the distance rule), and the same length of the
  capture's mate in Kakinoki's test;
* the attacker's mating first moves (main move and 余詰 candidates) must be
  the same set.

Where several moves are equally good the two searches may pick different
main lines (each breaks ties by its own move order); the checks above do not
depend on that choice.  Prints one line per disagreement and a summary; exits
1 when any row disagrees.

    python tools/compare_length_search.py tests/data/mate.tsv [--only id,id] [--seconds 120]
"""

from __future__ import annotations

import argparse
import csv
import sys
import time
from collections.abc import Generator
from typing import Any

import cshogi

from tsume_studio.core.search import kernel_length, length_search
from tsume_studio.core.search.contract import drive
from tsume_studio.core.search.dfpn import DfPn, Outcome
from tsume_studio.core.search.length_rule import BoundedSearch
from tsume_studio.core.search.proof import Proof, ProofNode, Role
from tsume_studio.core.shogi.position import Position


def _run(gen: Generator[Any, None, Any]) -> Any:
    return drive(gen)


def _defender_nodes(proof: Proof, limit: int) -> list[tuple[str, int]]:
    """(SFEN, value) of the defender nodes of ``proof``'s tree, breadth first, at most ``limit``."""
    out: list[tuple[str, int]] = []
    root = cshogi.Board(proof.sfen)
    queue: list[tuple[tuple[str, ...], ProofNode, bool]] = [((), proof.root, True)]
    while queue and len(out) < limit:
        path, node, or_node = queue.pop(0)
        if not or_node:
            b = root.copy()
            for u in path:
                b.push_usi(u)
            out.append((b.sfen(), node.length if node.length is not None else 0))
        for child in node.children:
            if child.role in (Role.FUTILE, Role.ALTERNATIVE) or child.move is None:
                continue
            queue.append((path + (child.move,), child, not or_node))
    return out


def _judge(s: BoundedSearch, sfen: str, value: int) -> tuple[Any, ...]:
    """What ``s`` says of a defender position: exact length, defences, futile squares with reasons."""
    s.board = cshogi.Board(sfen)
    length = _run(s.exact(False, value))
    defs = _run(s.defences(value))
    futile = []
    for fs in defs.futile:
        capture = None
        if not fs.omitted:
            lengths = []
            for t in fs.tests:
                s.board = t.copy()
                lengths.append(_run(s.exact(False, value)))
            known = [v + 1 for v in lengths if v is not None]
            capture = min(known) if known else None
        futile.append((fs.square, fs.omitted, capture, tuple(sorted(cshogi.move_to_usi(m) for m in fs.moves))))
    return (length, tuple(sorted(cshogi.move_to_usi(m) for m in defs.real)), tuple(sorted(futile)))


def _first_moves(p: Proof) -> set[str]:
    return {p.main_line[0]} | {a.move for a in p.alternatives if not a.path} if p.main_line else set()


def compare_row(rid: str, sfen: str, seconds: float, nodes: int) -> list[str]:
    pos = Position.from_sfen(sfen)
    deadline = time.monotonic() + seconds
    kp = drive(kernel_length.build_proof(pos, deadline=deadline))
    pp = length_search.solve_official(pos, deadline=time.monotonic() + seconds)
    if kp is None or pp is None:
        return [] if kp is None and pp is None else [f"{rid}: answered by one only (kernel {kp is not None})"]
    problems = []
    if kp.length != pp.length:
        return [f"{rid}: length kernel {kp.length} python {pp.length}"]
    if _first_moves(kp) != _first_moves(pp):
        problems.append(f"{rid}: mating first moves kernel {sorted(_first_moves(kp))} python {sorted(_first_moves(pp))}")
    root = pos.board().copy()
    oracle = DfPn(root.turn, memory_mb=64)
    if oracle.search(root.copy()) != Outcome.PROVEN:
        return problems + [f"{rid}: the Python df-pn did not prove the root"]
    ps = length_search.LengthSearch(root.copy(), oracle, deadline=None, cancel=None, node_limit=None,
                                      distance_rule=True)
    ks = kernel_length.KernelLengthSearch(root.copy(), deadline=None, cancel=None, node_limit=None,
                                          distance_rule=True)
    _run(ks.settle_root())
    seen: set[str] = set()
    for proof in (kp, pp):
        for node_sfen, value in _defender_nodes(proof, nodes):
            if node_sfen in seen:
                continue
            seen.add(node_sfen)
            a, b = _judge(ks, node_sfen, value), _judge(ps, node_sfen, value)
            if a != b:
                problems.append(f"{rid}: at {node_sfen} (value {value}) kernel {a} python {b}")
    return problems


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("file")
    ap.add_argument("--only", default="", help="comma-separated row ids")
    ap.add_argument("--seconds", type=float, default=120.0, help="each answer's wall-clock budget")
    ap.add_argument("--nodes", type=int, default=60, help="defender nodes compared per answer tree")
    ap.add_argument("--limit", type=int, default=0, help="rows to compare (0: all)")
    args = ap.parse_args(argv)
    with open(args.file, encoding="utf-8") as f:
        rows = list(csv.DictReader(f, delimiter="\t"))
    if args.only:
        wanted = set(args.only.split(","))
        rows = [r for r in rows if r["id"] in wanted]
    if args.limit:
        rows = rows[:args.limit]
    bad = 0
    for r in rows:
        problems = compare_row(r["id"], r["sfen"], args.seconds, args.nodes)
        for p in problems:
            print(p, flush=True)
        bad += bool(problems)
    print(f"{len(rows)} rows, {bad} disagreeing")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())

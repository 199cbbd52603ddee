"""Measure df-pn's move-category costs on solved problems, and compare cost tables by search.

The costs in ``core/search/dfpn.py`` (``ATTACK_COST``, ``DEFENCE_COST``) are
realization-probability costs [Gekisashi RPS]: ``-log2`` of how likely a move
of a category is to be the right one, relative to the likeliest category, and
rounded.  This script measures those likelihoods instead of guessing them.

``fit``: solve problems with the costs switched off (``Options(rps=False)``,
so the proofs are not steered by the table being measured) and walk each
proof tree read back from the table:

* at an OR node (attacker to move) with two or more checks, every check
  counts as *generated* in its category, and the proof's move (the one the
  table stores for the node) as *chosen*;
* at an AND node with two or more defences, every defence counts as
  generated, and the hardest one (longest stored proof; ties share one count,
  and a node where every defence ties is skipped) as chosen.

A category's probability is chosen / generated; its cost is
``round(log2(p_best / p))``.  Rows are split: the calibration half (even
rows of mate.tsv and musou.tsv) fixes the costs; the other half (odd rows)
is read the same way and scored, with the average ``-log2`` probability of
the chosen move when each move weighs ``2**-cost`` (lower is better), for
the table in the code and the measured one.

``measure``: run problem sets with a given table (``code``, ``off`` or a
``name=cost,...`` list) and print nodes and CPU seconds per set.  The table is
set by rebinding the module's cost constants, for this measurement only.

Usage::

    .venv/bin/python tools/calibrate_costs.py fit --seconds 3
    .venv/bin/python tools/calibrate_costs.py measure tests/data/mate.tsv --costs off
    .venv/bin/python tools/calibrate_costs.py measure tests/data/musou.tsv --every 4 --seconds 10 \\
        --costs "a:near=0,capture=0,...;d:king=0,..."
"""

from __future__ import annotations

import argparse
import csv
import math
import time
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path

import cshogi

from tsume_studio.core.search import dfpn
from tsume_studio.core.search.dfpn import DfPn, Options, Outcome, attack_category, defence_category
from tsume_studio.core.search.tt import NO_LENGTH

DATA = Path(__file__).resolve().parent.parent / "tests" / "data"
_ZONE = (sum(1 << t for t in range(81) if t % 9 <= 2), sum(1 << t for t in range(81) if t % 9 >= 6))

Counts = dict[str, list[float]]          # category -> [generated, chosen]


def rows(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8") as f:
        return list(csv.DictReader(f, delimiter="\t"))


def _child_length(searcher: DfPn, board: cshogi.Board, or_child: bool) -> int | None:
    """Stored proof length of the position on ``board`` (None: not proven in the table)."""
    if not or_child and not board.legal_moves:
        return 0
    if or_child and not board.is_check() and board.mate_move_in_1ply():
        return 1
    e = searcher.entry(board)
    if e is None or e[1] != 0 or e[5] == NO_LENGTH:
        return None
    return int(e[5])


def walk(searcher: DfPn, board: cshogi.Board, attack: Counts, defence: Counts,
         nodes: list[tuple[bool, list[str], dict[str, float]]], limit: int = 20000) -> None:
    """Walk the proof tree below ``board`` (attacker to move), adding to the counts.

    ``nodes`` collects each informative node as (or_node, categories of its
    moves, chosen share per category), for scoring a table afterwards.
    """
    attacker = board.turn
    seen: set[int] = set()
    stack: list[tuple[list[int], bool]] = [([], True)]
    root = board.copy()
    while stack and len(seen) < limit:
        path, or_node = stack.pop()
        b = root.copy()
        for m in path:
            b.push(m)
        z = b.zobrist_hash()
        if z in seen:
            continue
        seen.add(z)
        king = b.king_square(1 - attacker)
        if or_node:
            moves = list(b.check_moves)
            e = searcher.entry(b)
            best = 0
            if not b.is_check():
                best = b.mate_move_in_1ply()
            if not best and e is not None and e[1] == 0 and e[6] in moves:
                best = e[6]
            if not best:
                continue            # not proven here (or proven by a path-bound verdict)
            cats = [attack_category(m, king, _ZONE[attacker]) for m in moves]
            if len(moves) > 1:
                for c in cats:
                    attack[c][0] += 1
                chosen = attack_category(best, king, _ZONE[attacker])
                attack[chosen][1] += 1
                nodes.append((True, cats, {chosen: 1.0}))
            stack.append((path + [best], False))
            continue
        moves = list(b.legal_moves)
        if not moves:
            continue                # mated
        lengths: list[int] = []
        for m in moves:
            b.push(m)
            n = _child_length(searcher, b, True)
            b.pop()
            if n is None:
                break
            lengths.append(n)
        if len(lengths) != len(moves):
            continue
        cats = [defence_category(m, king) for m in moves]
        longest = max(lengths)
        hardest = [c for c, n in zip(cats, lengths, strict=True) if n == longest]
        if 1 < len(moves) and len(hardest) < len(moves):
            share: dict[str, float] = defaultdict(float)
            for c in hardest:
                share[c] += 1 / len(hardest)
            for c in cats:
                defence[c][0] += 1
            for c, v in share.items():
                defence[c][1] += v
            nodes.append((False, cats, dict(share)))
        for m, n in zip(moves, lengths, strict=True):
            if n > 0:
                stack.append((path + [m], True))


def prove(sfen: str, seconds: float, options: Options) -> tuple[DfPn, cshogi.Board] | None:
    board = cshogi.Board(sfen)
    searcher = DfPn(board.turn, memory_mb=512, options=options)
    out = searcher.search(board, deadline=time.monotonic() + seconds)
    return (searcher, board) if out == Outcome.PROVEN else None


def costs(counts: Counts) -> dict[str, int]:
    """Rounded ``log2(p_best / p)`` per category (categories never generated are left out)."""
    p = {c: (v[1] + 0.5) / (v[0] + 1.0) for c, v in counts.items() if v[0] > 0}
    best = max(p.values())
    return {c: round(math.log2(best / q)) for c, q in sorted(p.items())}


def score(nodes: list[tuple[bool, list[str], dict[str, float]]], attack: dict[str, int],
          defence: dict[str, int]) -> tuple[float, float]:
    """Average -log2 probability of the chosen moves at OR and AND nodes under a table."""
    total = [0.0, 0.0]
    count = [0, 0]
    for or_node, cats, share in nodes:
        table = attack if or_node else defence
        weights = [2.0 ** -table.get(c, 0) for c in cats]
        z = sum(weights)
        side = 0 if or_node else 1
        for c, v in share.items():
            # The share of a category goes to one of its moves: probability weight / z.
            total[side] += v * -math.log2(2.0 ** -table.get(c, 0) / z)
        count[side] += 1
    return total[0] / max(1, count[0]), total[1] / max(1, count[1])


def collect(selection: list[tuple[str, list[dict[str, str]]]], seconds: float
            ) -> tuple[Counts, Counts, list[tuple[bool, list[str], dict[str, float]]], int]:
    attack: Counts = defaultdict(lambda: [0.0, 0.0])
    defence: Counts = defaultdict(lambda: [0.0, 0.0])
    nodes: list[tuple[bool, list[str], dict[str, float]]] = []
    solved = 0
    for _name, rs in selection:
        for r in rs:
            got = prove(r["sfen"], seconds, Options(rps=False, mate3=False))
            if got is None:
                continue
            solved += 1
            walk(got[0], got[1], attack, defence, nodes)
    return attack, defence, nodes, solved


def show(title: str, counts: Counts) -> None:
    print(f"  {title}: " + ", ".join(f"{c} {int(v[1])}/{int(v[0])} ({v[1] / v[0]:.3f})"
                                     for c, v in sorted(counts.items()) if v[0]))


def fit(args: argparse.Namespace) -> None:
    mate = rows(DATA / "mate.tsv")
    musou = rows(DATA / "musou.tsv")
    halves = {
        "calibration": [("mate", mate[0::2]), ("musou", musou[0::2])],
        "evaluation": [("mate", mate[1::2]), ("musou", musou[1::2])],
    }
    measured: tuple[dict[str, int], dict[str, int]] | None = None
    for half, selection in halves.items():
        cpu = time.process_time()
        attack, defence, nodes, solved = collect(selection, args.seconds)
        print(f"{half}: {solved} proofs read, {len(nodes)} informative nodes, "
              f"{time.process_time() - cpu:.1f} s CPU")
        show("OR (chosen/generated)", attack)
        show("AND (hardest/generated)", defence)
        a, d = costs(attack), costs(defence)
        print(f"  costs measured on this half: ATTACK {a}  DEFENCE {d}")
        if measured is None:
            measured = (a, d)
        tables = {"code": (dfpn.ATTACK_COST, dfpn.DEFENCE_COST), "measured on calibration": measured,
                  "uniform": ({}, {})}
        for name, (ta, td) in tables.items():
            s_or, s_and = score(nodes, ta, td)
            print(f"  score of the {name} table: OR {s_or:.3f} bits, AND {s_and:.3f} bits")


def parse_costs(text: str) -> tuple[dict[str, int], dict[str, int]] | None:
    if text == "code":
        return dict(dfpn.ATTACK_COST), dict(dfpn.DEFENCE_COST)
    if text == "off":
        return None
    a, d = dict(dfpn.ATTACK_COST), dict(dfpn.DEFENCE_COST)
    for part in text.split(";"):
        side, _, items = part.partition(":")
        table = a if side.strip() == "a" else d
        for item in items.split(","):
            name, _, value = item.partition("=")
            if name.strip() not in table:
                raise SystemExit(f"unknown category {name!r}")
            table[name.strip()] = int(value)
    return a, d


def set_costs(a: dict[str, int], d: dict[str, int]) -> None:
    """Rebind the module constants the expansion reads (measurement only)."""
    dfpn.ATTACK_COST.update(a)
    dfpn.DEFENCE_COST.update(d)
    dfpn._A_NEAR, dfpn._A_CAPTURE, dfpn._A_PROMOTE = a["near"], a["capture"], a["promote"]
    dfpn._A_FAR, dfpn._A_DROP_FAR, dfpn._A_NO_PROMOTE = a["far"], a["drop_far"], a["no_promote"]
    dfpn._D_KING, dfpn._D_CAPTURE = d["king"], d["capture"]
    dfpn._D_MOVE, dfpn._D_NEAR, dfpn._D_FAR = d["interpose_move"], d["interpose_near"], d["interpose_far"]


def selected(paths: list[str], every: int, offset: int, first: int | None
             ) -> Iterator[tuple[str, dict[str, str]]]:
    for p in paths:
        for i, r in enumerate(rows(Path(p))[:first]):
            if i % every == offset:
                yield Path(p).name, r


def measure(args: argparse.Namespace) -> None:
    table = parse_costs(args.costs)
    if table is not None:
        set_costs(*table)
    options = Options(rps=table is not None, summing=args.summing)
    per_set: dict[str, list[float]] = defaultdict(lambda: [0, 0, 0.0, 0.0, 0.0])
    for name, r in selected(args.files, args.every, args.offset, args.first):
        board = cshogi.Board(r["sfen"])
        searcher = DfPn(board.turn, memory_mb=args.memory, options=options)
        cpu = time.process_time()
        out = searcher.search(board, deadline=time.monotonic() + args.seconds, node_limit=args.nodes)
        cpu = time.process_time() - cpu
        f = per_set[name]
        f[0] += 1
        if out != Outcome.UNKNOWN:
            f[1] += 1
            f[2] += searcher.nodes
            f[3] += cpu
        f[4] += cpu
        if args.verbose:
            print(f"{r['id']}\t{out.name}\t{searcher.nodes}\t{cpu:.3f}", flush=True)
    for name, f in per_set.items():
        print(f"{name}: decided {int(f[1])}/{int(f[0])}, nodes (decided) {int(f[2])}, "
              f"CPU s (decided) {f[3]:.2f}, CPU s (all) {f[4]:.2f}")


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    f = sub.add_parser("fit", help="measure the categories' probabilities and costs")
    f.add_argument("--seconds", type=float, default=3.0, help="time limit per proof")
    f.set_defaults(func=fit)
    m = sub.add_parser("measure", help="run problem sets with a cost table")
    m.add_argument("files", nargs="+")
    m.add_argument("--costs", default="code", help="'code', 'off' or 'a:near=0,...;d:king=0,...'")
    m.add_argument("--seconds", type=float, default=10.0)
    m.add_argument("--every", type=int, default=1)
    m.add_argument("--offset", type=int, default=0)
    m.add_argument("--first", type=int, default=None, help="only the first N rows of each file")
    m.add_argument("--memory", type=int, default=512)
    m.add_argument("--nodes", type=int, default=None, help="node limit per problem (deterministic runs)")
    m.add_argument("--summing", default="sum", choices=("sum", "source", "weak"),
                   help="how summed numbers are taken (Options.summing)")
    m.add_argument("--verbose", action="store_true")
    m.set_defaults(func=measure)
    args = ap.parse_args(argv)
    args.func(args)


if __name__ == "__main__":
    main()

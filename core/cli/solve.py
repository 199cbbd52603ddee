"""``tsume solve`` and ``tsume bench``: the solvers from the command line."""

from __future__ import annotations

import argparse
import json
import sys
import threading
from typing import Any

from . import signals
from .errors import EXIT_INTERRUPTED, EXIT_NEGATIVE, EXIT_OK, UserError
from .files import check_writable, names_a_file, read_position_file
from .running import ProgressLine, add_limits, limits_from_args, result_json, run_solver
from ..shogi.position import Position
from ..search.contract import SolveResult, SolveStatus
from ..answer import (
    TREE_CUT_ENGLISH, alternatives_unchecked_english, bounds_english, bounds_meet, classify_alternatives,
    classify_variations, ordered_futile, promotion_twins, solution_record,
)
from ..records.formats import write_record
from ..records.model import Record
from ..search.proof import HelpmateAnswer, Proof

#: How many shortest helpmates ``tsume solve --helpmate`` lists at most by default.
HELPMATE_SOLUTIONS = 100


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``solve`` and ``bench`` subcommands (``batch`` is :mod:`.batch`'s)."""
    p = sub.add_parser("solve", help="solve one problem (direct mate, or --helpmate)",
                       description="Solve a mate problem given as SFEN or in a file.")
    p.add_argument("sfen", nargs="*", help="the position as SFEN (quote it, or give its words), or a file name")
    p.add_argument("--file", "-f", help="read the position from a file (.sfen, .kif, .kifu, .ki2, .csa, .bod); "
                   "a lone file name in place of SFEN is read the same way")
    add_limits(p)
    p.add_argument("--helpmate", action="store_true", help="solve as a helpmate (協力詰)")
    p.add_argument("--max-solutions", type=int, default=HELPMATE_SOLUTIONS, metavar="N",
                   help=f"with --helpmate, list up to N shortest helpmates (余詰 check; default "
                        f"{HELPMATE_SOLUTIONS}; --raw lists the line found only)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--progress", action="store_true",
                   help="print the search's phase on standard error each time it changes (the question "
                        "'mate within n?' and the bounds proved while the shortest is sought); on a "
                        "terminal a redrawn line shows it anyway")
    p.add_argument("--kif", metavar="OUT", help="write the solution to a record file (.kif, .kifu, .ki2, .csa ...)")
    p.add_argument("--raw", action="store_true",
                   help="report df-pn's own line; skip the exact main-line search")
    p.add_argument("--force", action="store_true",
                   help="solve despite 二歩 or a piece that can never move (searchable, but not a legal problem)")
    p.set_defaults(func=_solve)

    c = sub.add_parser("bench", help="benchmark the solver against cshogi's C++ df-pn",
                       description="Run problem files through this solver and through cshogi's "
                                   "DfPn in the same run, and print per-set figures.")
    c.add_argument("files", nargs="+", help="problem files (.tsv)")
    c.add_argument("--seconds", type=float, default=60.0, help="time limit per problem (default 60)")
    c.add_argument("--memory", type=int, default=1024, metavar="MB", help="table memory (default 1024)")
    c.add_argument("--cpu-time", action="store_true",
                   help="count --seconds in this process's CPU time instead of wall-clock time "
                        "(fair limits on a loaded machine)")
    c.add_argument("--first", type=int, metavar="N", help="only the first N rows of each file")
    c.add_argument("--every", type=int, default=1, metavar="K", help="only every K-th row")
    c.add_argument("--no-cshogi", action="store_true", help="skip the cshogi comparison")
    c.add_argument("--stop-after", type=int, metavar="K",
                   help="leave a set after K rows in a row that this solver did not solve")
    c.add_argument("--raw", action="store_true", help="df-pn only (no exact main-line search)")
    c.add_argument("--official", action="store_true",
                   help="the official (exact, tsume-rule) answer per row: exact, length = published, "
                        "and the published solution (pv column) checked against it")
    c.add_argument("--options", default="", metavar="LIST",
                   help="df-pn switches off, e.g. 'rps,tca' (mate1 mate3 dominance tca rps epsilon)")
    c.add_argument("--delay", choices=("far", "all", "hand", "off"),
                   help="delayed expansion of drop interpositions: the drops beyond the squares "
                        "next to the king (far), every drop (all), every drop where the defender holds "
                        "three kinds or more and the far ones elsewhere (hand, the default), none (off)")
    c.add_argument("--json", metavar="OUT", help="also write every row's figures to this JSON file")
    c.set_defaults(func=_bench)


# ---- solve ------------------------------------------------------------------

def _read_position(args: argparse.Namespace) -> tuple[Position, Record | None]:
    """The position to solve and, when it came from a record, that record."""
    if args.file and args.sfen:
        raise UserError("give either SFEN or --file, not both")
    # A lone file name in place of SFEN (`tsume solve problem.kif`) is read as with --file.
    name = args.file or (args.sfen[0] if names_a_file(args.sfen) else None)
    if name:
        return read_position_file(name)
    if not args.sfen:
        raise UserError("no position: give SFEN or --file")
    return Position.from_sfen(" ".join(args.sfen)), None


def _japanese(sfen: str, usi: list[str] | tuple[str, ...]) -> list[str]:
    from ..shogi.moves import Move, japanese_line

    return japanese_line(Position.from_sfen(sfen), [Move.from_usi(m) for m in usi])


def _print_tree(position: Position, node: Any, depth: int, prev_to: Any, out: list[str]) -> None:
    """Indented text of a proof tree: the main defence first, others beneath.

    Walked with a work list, not recursion: a proof may be more than a thousand plies deep.
    """
    from ..shogi.moves import Move, japanese

    # Work items: (a node, its line of text, its move, the indent of its children), its children
    # printed and walked after it; None takes the move back once its subtree is done.
    work: list[tuple[Any, str | None, Any, int] | None] = [(node, None, None, depth)]
    while work:
        item = work.pop()
        if item is None:
            position.pop()
            continue
        node, text, move, depth = item
        if text is not None:
            out.append(text)
            position.push(move)
            prev_to = move.to_square
        below: list[tuple[Any, str | None, Any, int]] = []
        for k, child in enumerate(node.children):
            if child.role.value == "futile":
                continue
            mv = Move.from_usi(child.move)
            mark = {"main": "", "variation": "", "alternative": " (余詰)"}.get(child.role.value, "")
            main = node.children[0].move if node.children else None
            if child.role.value == "alternative" and main is not None and promotion_twins(child.move, main):
                mark = " (成不成非限定)"
            if child.role.value == "variation" and child.length is None and child.comment:
                mark += f" — {child.comment}"   # what is known of a length not measured
            level = depth if k == 0 else depth + 1   # other defences and 余詰 one step in
            below.append((child, "  " * level + japanese(position, mv, prev_to) + mark, mv, level))
        for entry in reversed(below):   # the first child's subtree next: the list is taken from its end
            work.append(None)
            work.append(entry)


def _exit_code(result: SolveResult) -> int:
    """0 for a mate, 130 when cancelled, 1 for any other answer (no mate, or none found in the limits)."""
    if result.status == SolveStatus.MATE:
        return EXIT_OK
    if result.status == SolveStatus.CANCELLED:
        return EXIT_INTERRUPTED
    return EXIT_NEGATIVE


def _solve(args: argparse.Namespace) -> int:
    position, record = _read_position(args)
    limits = limits_from_args(args)
    if args.max_solutions < 1:
        raise UserError(f"--max-solutions must be at least 1, got {args.max_solutions!r}")
    if args.kif:
        check_writable(args.kif)   # before a search that may take hours
    shown = ProgressLine(lines=args.progress)
    with signals.cancelling(threading.Event()) as cancel:
        try:
            result = run_solver(position, limits, args.helpmate, args.raw, args.force, cancel=cancel,
                                max_solutions=None if args.raw else args.max_solutions,
                                on_progress=shown if shown.active else None)
        finally:
            shown.close()
    if args.kif and result.status == SolveStatus.MATE:
        _write_solution(args.kif, position, result, record)
    elif args.kif:
        print(f"tsume: nothing to write to {args.kif!r}: {_status_text(result)}", file=sys.stderr)
    if args.json:
        print(json.dumps(result_json(result), ensure_ascii=False))
        return _exit_code(result)
    print(_status_text(result))
    if result.status == SolveStatus.MATE and result.pv:
        exact = result.extra.get("exact", isinstance(result.proof, Proof) and result.proof.exact)
        # Not exact: df-pn's line, whose defences need not be the longest (its length bounds nothing).
        print(("main line: " if exact else f"df-pn's line ({len(result.pv)} plies): ")
              + " ".join(_japanese(result.sfen, result.pv)))
        print("usi:       " + " ".join(result.pv))
        proof = result.proof
        if isinstance(proof, Proof):
            if proof.provisional:
                print("the tree below is df-pn's proof and the 無駄合 the ones found so far: "
                      + ("the official line was not built in time" if _length_proved(result)
                         else "the shortest was not proved in time"))
            if proof.variations:
                lines: list[str] = []
                _print_tree(Position.from_sfen(result.sfen), proof.root, 0, None, lines)
                print("proof tree (main line, defences indented):")
                for line in lines:
                    print("  " + line)
            futile = ordered_futile(proof)
            if futile:
                print(f"futile interpositions (無駄合): {len(futile)}")
                for f in futile:
                    path = " ".join(f.path)
                    print(f"  after {path or '(start)'}: {f.move} — {f.reason.english()}")
            if not proof.tree_complete:
                print(TREE_CUT_ENGLISH)
            if not proof.alternatives_checked:
                print(alternatives_unchecked_english(proof))
            alternatives = classify_alternatives(proof)
            if alternatives:
                print(f"余詰 candidates: {len(alternatives)}")
                for a in alternatives:
                    twin = " (成不成非限定: the main move's other promotion)" if a.kind == "promotion_choice" else ""
                    print(f"  after {' '.join(a.path) or '(start)'}: {a.move} mates in {a.length}{twin}")
            for v in classify_variations(proof):
                print(f"{v.japanese()}: after {' '.join(v.path) or '(start)'}: {v.move}")
        elif isinstance(proof, HelpmateAnswer):
            _print_helpmates(proof, str(result.extra.get("reason", "")))
    nps = result.nodes / result.seconds if result.seconds > 0 else 0.0
    print(f"nodes {result.nodes}  time {result.seconds:.3f}s  nps {nps:,.0f}  "
          f"table {result.table_entries} entries")
    return _exit_code(result)


def _print_helpmates(answer: HelpmateAnswer, reason: str) -> None:
    """The other shortest helpmates (余詰), each in full, and how far they were checked."""
    others = answer.solutions[1:]
    if not answer.checked:
        print("other helpmates of this length (余詰): not checked (--raw)")
    elif answer.capped:
        print(f"other helpmates of this length (余詰): more shortest helpmates exist than the "
              f"{len(answer.solutions)} listed (--max-solutions)")
    elif not answer.complete:
        print(f"other helpmates of this length (余詰): not checked completely ({reason or 'a limit was reached'})")
    elif not others:
        print("other helpmates of this length (余詰): none (the helpmate is unique)")
    else:
        print(f"other helpmates of this length (余詰): {len(others)}")
    for k, line in enumerate(others, start=2):
        print(f"  {k}: " + " ".join(_japanese(answer.sfen, line)))
        print("     usi: " + " ".join(line))


def _status_text(result: SolveResult) -> str:
    if result.status == SolveStatus.MATE and isinstance(result.proof, HelpmateAnswer):
        n = result.length
        caveat = "" if result.proof.exact else ", length not proved shortest"
        return f"helpmate in {n} (協力詰{n}手{caveat})"
    if result.status == SolveStatus.MATE and result.length is None:
        return (f"mate (proved; the line below stops after {len(result.pv)} plies, where the table no longer "
                "held its end, so its length is not known)")
    if result.status == SolveStatus.MATE:
        n = result.length
        if result.extra.get("exact", isinstance(result.proof, Proof) and result.proof.exact):
            return f"mate in {n} ({n}手詰)"
        if _length_proved(result):
            return f"mate in {n} ({n}手詰, proved shortest; its main line was not built in time)"
        return f"mate in {n} ({n}手詰, length not proved shortest)" + _bounds_text(result)
    if result.status == SolveStatus.NO_MATE:
        return "no mate (不詰, proved)"
    if result.status == SolveStatus.CANCELLED:
        return "cancelled" + _bounds_text(result)
    return "unknown (limit reached)"


def _length_proved(result: SolveResult) -> bool:
    """True when a stopped length search proved the length from both sides (the answer's length)
    but the official answer, its main line and variations, was not built in time."""
    return bounds_meet(result.extra.get("at_least"), result.extra.get("at_most")) == result.length


def _bounds_text(result: SolveResult) -> str:
    """``; proved: at most 41 plies, at least 37`` for a length search stopped early, else ``""``."""
    lo, hi = result.extra.get("at_least"), result.extra.get("at_most")
    text = bounds_english(lo if isinstance(lo, int) else None, hi if isinstance(hi, int) else None)
    return f"; {text}" if text else ""


def _write_solution(path: str, position: Position, result: SolveResult, record: Record | None) -> None:
    if result.status != SolveStatus.MATE:
        raise UserError(f"nothing to write: {_status_text(result)}")
    header = dict(record.header) if record is not None else {}
    if result.length is not None:
        header.setdefault("手数", str(result.length))
    write_record(path, solution_record(result, header))


# ---- bench ------------------------------------------------------------------------

def _bench(args: argparse.Namespace) -> int:
    from .bench import run_bench

    if args.json:
        check_writable(args.json, {".json": None})   # before the long run
    return run_bench(args)

"""``tsume solve``, ``tsume batch`` and ``tsume bench``: the solvers from the command line."""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import threading
import time
from pathlib import Path
from typing import Any, Callable, Iterator

from .errors import UserError
from ..shogi.position import Position
from ..search.solver import Limits, SolveResult, SolveStatus


def register(sub: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    """Add the ``solve``, ``batch`` and ``bench`` subcommands."""
    p = sub.add_parser("solve", help="solve one problem (direct mate, or --helpmate)",
                       description="Solve a mate problem given as SFEN or in a file.")
    p.add_argument("sfen", nargs="*", help="the position as SFEN (quote it, or give its words)")
    p.add_argument("--file", "-f", help="read the position from a file (.sfen, .kif, .kifu, .ki2, .csa, .bod)")
    _add_limits(p)
    p.add_argument("--helpmate", action="store_true", help="solve as a helpmate (協力詰)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--kif", metavar="OUT", help="write the solution to a record file (.kif, .kifu, .ki2, .csa ...)")
    p.add_argument("--raw", action="store_true",
                   help="report df-pn's own line; skip the exact main-line search")
    p.add_argument("--force", action="store_true",
                   help="solve despite 二歩 or a piece that can never move (searchable, but not a legal problem)")
    p.set_defaults(func=_solve)

    b = sub.add_parser("batch", help="solve every row of a problem file (.tsv)",
                       description="Solve each row of a TSV problem file with columns id, sfen, length.")
    b.add_argument("file", help="tab-separated file with a header line: id, sfen, length, ...")
    _add_limits(b, default_seconds=10.0)
    b.add_argument("--helpmate", action="store_true", help="solve as helpmates (協力詰)")
    b.add_argument("--json", action="store_true", help="JSON lines only (no text summary)")
    b.add_argument("--raw", action="store_true", help="skip the exact main-line search")
    b.add_argument("--only", metavar="ID", nargs="+", help="solve only these ids")
    b.add_argument("--first", type=int, metavar="N", help="solve only the first N rows")
    b.add_argument("--every", type=int, default=1, metavar="K", help="solve only every K-th row")
    b.set_defaults(func=_batch)

    c = sub.add_parser("bench", help="benchmark the solver against cshogi's C++ df-pn",
                       description="Run problem files through this solver and through cshogi's "
                                   "DfPn in the same run, and print per-set figures.")
    c.add_argument("files", nargs="+", help="problem files (.tsv)")
    c.add_argument("--seconds", type=float, default=60.0, help="time limit per problem (default 60)")
    c.add_argument("--memory", type=int, default=1024, metavar="MB", help="table memory (default 1024)")
    c.add_argument("--first", type=int, metavar="N", help="only the first N rows of each file")
    c.add_argument("--every", type=int, default=1, metavar="K", help="only every K-th row")
    c.add_argument("--no-cshogi", action="store_true", help="skip the cshogi comparison")
    c.add_argument("--stop-after", type=int, metavar="K",
                   help="leave a set after K rows in a row that this solver did not solve")
    c.add_argument("--raw", action="store_true", help="df-pn only (no exact main-line search)")
    c.add_argument("--options", default="", metavar="LIST",
                   help="df-pn switches off, e.g. 'rps,tca' (mate1 mate3 dominance tca rps epsilon)")
    c.add_argument("--delay", choices=("far", "all", "off"),
                   help="delayed expansion of drop interpositions: the drops beyond the squares "
                        "next to the king (far, the default), every drop (all), none (off)")
    c.add_argument("--json", metavar="OUT", help="also write every row's figures to this JSON file")
    c.set_defaults(func=_bench)


def _add_limits(p: argparse.ArgumentParser, default_seconds: float | None = None) -> None:
    p.add_argument("--seconds", type=float, default=default_seconds, metavar="S", help="time limit")
    p.add_argument("--nodes", type=int, metavar="N", help="node limit")
    p.add_argument("--memory", type=int, default=1024, metavar="MB", help="table memory bound (default 1024)")


def _limits(args: argparse.Namespace) -> Limits:
    if args.seconds is not None and args.seconds <= 0:
        raise UserError(f"--seconds must be positive, got {args.seconds!r}")
    if args.nodes is not None and args.nodes <= 0:
        raise UserError(f"--nodes must be positive, got {args.nodes!r}")
    if args.memory < 1:
        raise UserError(f"--memory must be at least 1 MB, got {args.memory!r}")
    return Limits(nodes=args.nodes, seconds=args.seconds, memory_mb=args.memory)


# ---- solve ------------------------------------------------------------------

def _read_position(args: argparse.Namespace) -> tuple[Position, Any]:
    """The position to solve and, when it came from a record, that record."""
    if args.file and args.sfen:
        raise UserError("give either SFEN or --file, not both")
    if args.file:
        path = Path(args.file)
        if not path.is_file():
            raise UserError(f"no such file: {args.file!r}")
        try:
            from ..records.formats import read_record
        except ImportError:
            read_record = None
        if read_record is not None and path.suffix.lower() != ".sfen":
            record = read_record(str(path))
            return record.start, record
        text = path.read_text(encoding="utf-8-sig").strip()
        line = next((ln for ln in text.splitlines() if ln.strip() and not ln.startswith("#")), "")
        return Position.from_sfen(line), None
    if not args.sfen:
        raise UserError("no position: give SFEN or --file")
    return Position.from_sfen(" ".join(args.sfen)), None


def _solver(helpmate: bool) -> Callable[..., Any]:
    if helpmate:
        try:
            from ..search.helpmate import solve_iter as helpmate_iter
        except ImportError as exc:
            raise UserError("the helpmate solver is not available in this build") from exc
        return helpmate_iter
    from ..search.solver import solve_iter
    return solve_iter


def _run(position: Position, limits: Limits, helpmate: bool, raw: bool, force: bool = False,
         on_progress: Callable[[Any], None] | None = None) -> SolveResult:
    """Run a solver to the end; Ctrl-C cancels it cleanly."""
    cancel = threading.Event()
    solve_iter = _solver(helpmate)
    if helpmate:
        gen = solve_iter(position, limits, cancel)
    else:
        gen = solve_iter(position, limits, cancel, exact=not raw, force=force)
    while True:
        try:
            progress = gen.send(None)
        except StopIteration as stop:
            return stop.value
        except KeyboardInterrupt:
            cancel.set()
            continue
        if on_progress is not None:
            on_progress(progress)


def result_json(result: SolveResult) -> dict[str, Any]:
    """The JSON object of a result (``tsume solve --json``)."""
    out: dict[str, Any] = {
        "status": result.status.value,
        "sfen": result.sfen,
        "length": result.length,
        "pv": list(result.pv),
        "nodes": result.nodes,
        "seconds": round(result.seconds, 4),
        "table_entries": result.table_entries,
    }
    proof = result.proof
    if proof is not None and hasattr(proof, "futile"):
        out["exact"] = bool(proof.exact)
        out["futile_interpositions"] = [{"path": list(f.path), "move": f.move, "reason": f.reason}
                                        for f in proof.futile]
        out["alternatives"] = [{"path": list(a.path), "move": a.move, "length": a.length}
                               for a in proof.alternatives]
        out["alternatives_checked"] = bool(getattr(proof, "alternatives_checked", True))
        out["variations"] = proof.variations
    elif result.status == SolveStatus.MATE:
        out["exact"] = bool(result.extra.get("exact", False))
    return out


def _japanese(sfen: str, usi: "list[str] | tuple[str, ...]") -> list[str]:
    from ..shogi.moves import Move, japanese_line

    return japanese_line(Position.from_sfen(sfen), [Move.from_usi(m) for m in usi])


def _print_tree(position: Position, node: Any, depth: int, prev_to: Any, out: list[str]) -> None:
    """Indented text of a proof tree: the main defence first, others beneath."""
    from ..shogi.moves import Move, japanese

    for k, child in enumerate(node.children):
        if child.role.value == "futile":
            continue
        move = Move.from_usi(child.move)
        mark = {"main": "", "variation": "", "alternative": " (余詰)"}.get(child.role.value, "")
        text = japanese(position, move, prev_to)
        level = depth if k == 0 else depth + 1   # other defences and 余詰 one step in
        out.append("  " * level + text + mark)
        position.push(move)
        _print_tree(position, child, level, move.to_square, out)
        position.pop()


def _solve(args: argparse.Namespace) -> int:
    position, record = _read_position(args)
    limits = _limits(args)
    result = _run(position, limits, args.helpmate, args.raw, args.force)
    if args.kif:
        _write_solution(args.kif, position, result, record)
    if args.json:
        print(json.dumps(result_json(result), ensure_ascii=False))
        return 0
    print(_status_text(result))
    if result.status == SolveStatus.MATE and result.pv:
        print("main line: " + " ".join(_japanese(result.sfen, result.pv)))
        print("usi:       " + " ".join(result.pv))
        proof = result.proof
        if proof is not None and hasattr(proof, "root") and proof.variations:
            lines: list[str] = []
            _print_tree(Position.from_sfen(result.sfen), proof.root, 0, None, lines)
            print("proof tree (main line, defences indented):")
            for line in lines:
                print("  " + line)
        if proof is not None and getattr(proof, "futile", ()):
            print(f"futile interpositions (無駄合): {len(proof.futile)}")
            for f in proof.futile:
                path = " ".join(f.path)
                print(f"  after {path or '(start)'}: {f.move} — {f.reason}")
        if proof is not None and not getattr(proof, "alternatives_checked", True):
            print("余詰: not checked (the search for alternative mates ran out of time)")
        if proof is not None and getattr(proof, "alternatives", ()):
            print(f"余詰 candidates: {len(proof.alternatives)}")
            for a in proof.alternatives:
                print(f"  after {' '.join(a.path) or '(start)'}: {a.move} mates in {a.length}")
    nps = result.nodes / result.seconds if result.seconds > 0 else 0.0
    print(f"nodes {result.nodes}  time {result.seconds:.3f}s  nps {nps:,.0f}  "
          f"table {result.table_entries} entries")
    return 0


def _status_text(result: SolveResult) -> str:
    if result.status == SolveStatus.MATE:
        exact = result.extra.get("exact", getattr(result.proof, "exact", False))
        return f"mate in {result.length} ({result.length}手詰{'' if exact else ', length not proved shortest'})"
    if result.status == SolveStatus.NO_MATE:
        return "no mate (不詰, proved)"
    if result.status == SolveStatus.CANCELLED:
        return "cancelled"
    return "unknown (limit reached)"


def _write_solution(path: str, position: Position, result: SolveResult, record: Any) -> None:
    try:
        from ..records.model import Record, RecordNode, record_from_proof
        from ..records.formats import write_record
    except ImportError as exc:
        raise UserError("record writing is not available in this build") from exc
    if result.status != SolveStatus.MATE:
        raise UserError(f"nothing to write: {_status_text(result)}")
    header = dict(record.header) if record is not None else {}
    header.setdefault("手数", str(result.length))
    if result.proof is not None and hasattr(result.proof, "root"):
        rec = record_from_proof(result.proof, header)
    else:
        from ..shogi.moves import Move

        rec = Record(start=position.copy(), header=header)
        node = rec.root
        for usi in result.pv:
            child = RecordNode(move=Move.from_usi(usi))
            node.children.append(child)
            node = child
    write_record(path, rec)


# ---- batch ----------------------------------------------------------------------

def read_problems(path: str) -> list[dict[str, str]]:
    """Rows of a problem file (TSV with a header line naming id, sfen and length)."""
    file = Path(path)
    if not file.is_file():
        raise UserError(f"no such file: {path!r}")
    lines = file.read_text(encoding="utf-8-sig").splitlines()
    if not lines:
        raise UserError(f"empty problem file: {path!r}")
    header = lines[0].split("\t")
    if "sfen" not in header:
        raise UserError(f"problem file {path!r} has no 'sfen' column in its header line: {lines[0]!r}")
    rows = []
    for number, line in enumerate(lines[1:], start=2):
        if not line.strip() or line.startswith("#"):
            continue
        cells = line.split("\t")
        if len(cells) < len(header):
            cells += [""] * (len(header) - len(cells))
        row = dict(zip(header, cells))
        row.setdefault("id", f"line-{number}")
        rows.append(row)
    return rows


def _select(rows: list[dict[str, str]], args: argparse.Namespace) -> list[dict[str, str]]:
    if getattr(args, "only", None):
        wanted = set(args.only)
        rows = [r for r in rows if r["id"] in wanted]
        missing = wanted - {r["id"] for r in rows}
        if missing:
            raise UserError(f"no such ids in {args.file!r}: {', '.join(sorted(missing))}")
    if getattr(args, "every", 1) > 1:
        rows = rows[:: args.every]
    if args.first is not None:
        rows = rows[: args.first]
    return rows


def _expected(row: dict[str, str]) -> int | None:
    text = row.get("length", "").strip()
    return int(text) if text.isdigit() else None


def _batch(args: argparse.Namespace) -> int:
    rows = _select(read_problems(args.file), args)
    limits = _limits(args)
    times: list[float] = []
    solved = wrong = failed = 0
    bar = _ProgressBar(len(rows)) if sys.stderr.isatty() and not args.json else None
    for row in rows:
        line: dict[str, Any] = {"id": row["id"]}
        expected = _expected(row)
        try:
            position = Position.from_sfen(row["sfen"])
            warnings = [p.message for p in position.problems()]
            if warnings:
                line["warnings"] = warnings
            # Collections hold a few positions with 二歩 and the like: solve them as given.
            result = _run(position, limits, args.helpmate, args.raw, force=True)
        except ValueError as exc:
            line.update(status="error", error=str(exc), expected=expected)
            failed += 1
        else:
            line.update(status=result.status.value, length=result.length, expected=expected,
                        nodes=result.nodes, seconds=round(result.seconds, 4))
            times.append(result.seconds)
            if result.status == SolveStatus.MATE:
                solved += 1
                if expected is not None and result.length != expected:
                    wrong += 1
                    line["mismatch"] = True
            elif result.status == SolveStatus.NO_MATE and "length" not in row:
                solved += 1   # a no-mate file: proving no mate is the answer
            else:
                failed += 1
        if bar is not None:
            bar.clear()
        print(json.dumps(line, ensure_ascii=False), flush=True)
        if bar is not None:
            bar.step(line["status"])
    if bar is not None:
        bar.clear()
    summary = {"summary": True, "problems": len(rows), "solved": solved, "wrong_length": wrong,
               "unsolved": failed,
               "median_seconds": round(statistics.median(times), 4) if times else None,
               "total_seconds": round(sum(times), 3)}
    print(json.dumps(summary, ensure_ascii=False))
    return 0


class _ProgressBar:
    """A one-line progress bar on standard error."""

    def __init__(self, total: int) -> None:
        self.total = max(1, total)
        self.done = 0
        self.start = time.monotonic()

    def step(self, status: str) -> None:
        self.done += 1
        width = 30
        filled = width * self.done // self.total
        elapsed = time.monotonic() - self.start
        sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {self.done}/{self.total} "
                         f"{elapsed:6.1f}s {status:<10}")
        sys.stderr.flush()

    def clear(self) -> None:
        sys.stderr.write("\r" + " " * 70 + "\r")
        sys.stderr.flush()


# ---- bench ------------------------------------------------------------------------

def _bench(args: argparse.Namespace) -> int:
    from .bench import run_bench

    return run_bench(args)


def iter_rows(paths: list[str], args: argparse.Namespace) -> Iterator[tuple[str, list[dict[str, str]]]]:
    """Each file's selected rows."""
    for path in paths:
        args.file = path
        yield path, _select(read_problems(path), args)

"""df-pn beside another USI mate engine, in CPU time, one problem at a time, in one run.

Usage::

    python tools/peer_bench.py [--engine PATH] [--option NAME=VALUE ...] [--peer-nodes-are-moves]
        [--seconds S] [--memory MB]
        [--cshogi] [--no-kernel] [--json FILE] [--tsv FILE [--only ID ...] [--every K]] [--sfen ID SFEN ...]

For each problem, in turn (never two searches at once):

* the peer engine given by path (KomoringHeights, or any program that answers ``go mate``): a new
  process, ``usi``, ``Threads 1`` and ``USI_Hash`` = ``--memory`` where it offers them, the
  ``--option`` values, ``isready``, ``go mate infinite``; ``stop`` when the process has spent
  ``--seconds`` of CPU time since ``go``.  Read back: the ``checkmate`` answer (a line is replayed
  and must end in mate), the last ``info nodes``, the process's CPU time from ``go`` to the answer
  (the search; Linux ``/proc``) and over its whole life (the table's allocation and clearing too);
* this project's kernel: ``tsume batch --raw --cpu-time --json`` in a process of its own on the
  problem alone; its ``nodes`` and ``cpu_seconds`` (the search), and the whole process's CPU time;
* with ``--cshogi``, cshogi's ``DfPn`` in this process; its search cannot be stopped by a clock, so
  it gets a node limit worth ``--seconds`` at ``--cshogi-nps`` nodes a second (500,000 by default,
  above its speed measured here, so that the node limit comes after the CPU limit), and a mate it
  proves with more CPU time than ``--seconds`` counts as not decided (``over_limit``).

Every mate line (the peer's and cshogi's) is replayed with the project's rules: each move legal,
each attacker's move a check, the last position mate; a line that is not is reported ``wrong``.
A line's length is that of the line given: a df-pn line mates, but its defences need not be the
longest, so it says nothing of the problem's length.

Nodes per CPU second are nodes over the search's CPU time.  Engines count nodes differently: this
project's kernel counts the nodes its df-pn enters, an engine built on YaneuraOu (KomoringHeights)
reports as ``nodes`` the moves it has played (``do_move`` calls, expansions included), and cshogi's
figure is its ``searched_node`` as it reports it.  So the table has a second speed, moves played
per CPU second: the kernel's own count of moves played (``moves`` in its JSON) and, with
``--peer-nodes-are-moves``, the peer's ``nodes``.  Compare like with like.  The machine's load
average is noted beside each problem: on a shared machine, CPU time is the fair measure, not
wall-clock time.
The peer engine is optional and never needed by the project; a path that does not exist is a
clear error.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import platform
import queue
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

#: Seconds an engine gets to answer ``usi`` and ``isready`` (a large table is cleared at ``isready``).
HANDSHAKE_SECONDS = 120.0
#: Seconds an engine gets to answer ``stop`` before it is killed.
STOP_GRACE = 10.0
#: How often the CPU clock of the engine is read (seconds).
POLL = 0.05


class BenchError(Exception):
    """A user mistake or an engine that does not behave: printed as one line, exit status 2."""


# ---- problems ---------------------------------------------------------------------

@dataclass(frozen=True)
class Problem:
    """One position to solve: its id, its SFEN and, where known, the published length."""

    id: str
    sfen: str
    length: int | None = None


def read_problems(path: str, only: Sequence[str] = (), every: int = 1) -> list[Problem]:
    """Rows of a problem set (a TSV with a header naming ``id``, ``sfen`` and maybe ``length``).

    ``only`` keeps the rows with these ids, in the file's order; ``every`` keeps rows 1, 1+K, 1+2K, …
    (as ``tsume batch --every``).
    """
    try:
        with open(path, encoding="utf-8", newline="") as f:
            rows = list(csv.DictReader(f, delimiter="\t"))
    except OSError as e:
        raise BenchError(f"cannot read {path}: {e.strerror or e}") from e
    if rows and not {"id", "sfen"} <= set(rows[0]):
        raise BenchError(f"{path}: the header must name the columns id and sfen")
    if only:
        wanted = set(only)
        missing = wanted - {r["id"] for r in rows}
        if missing:
            raise BenchError(f"{path}: no row with id {', '.join(sorted(missing))}")
        rows = [r for r in rows if r["id"] in wanted]
    rows = rows[::every]
    problems = []
    for r in rows:
        length = (r.get("length") or "").strip()
        problems.append(Problem(r["id"], r["sfen"].strip(), int(length) if length.isdigit() else None))
    return problems


# ---- the USI side ------------------------------------------------------------------

@dataclass
class InfoState:
    """What the engine's ``info`` lines said last (fields it does not print stay as they are)."""

    nodes: int | None = None
    nps: int | None = None
    time_ms: int | None = None
    hashfull: int | None = None


def parse_info(line: str, state: InfoState) -> None:
    """Fold one ``info`` line into ``state``: ``nodes``, ``nps``, ``time``, ``hashfull``.

    Everything after ``string`` or ``pv`` is text or moves, not fields; a malformed number is
    skipped, never an error.
    """
    words = line.split()
    if not words or words[0] != "info":
        return
    i = 1
    while i < len(words):
        key = words[i]
        if key in ("string", "pv"):
            return
        if key == "score" and i + 2 < len(words):  # score cp N / score mate N
            i += 3
            continue
        value = words[i + 1] if i + 1 < len(words) else ""
        if key in ("nodes", "nps", "time", "hashfull"):
            try:
                number = int(value)
            except ValueError:
                i += 2
                continue
            if key == "nodes":
                state.nodes = number
            elif key == "nps":
                state.nps = number
            elif key == "time":
                state.time_ms = number
            else:
                state.hashfull = number
            i += 2
            continue
        i += 1


def parse_checkmate(line: str) -> tuple[str, list[str]] | None:
    """A ``checkmate …`` answer as (``mate`` with its moves | ``nomate`` | ``timeout`` |
    ``notimplemented``, moves); None for any other line."""
    words = line.split()
    if not words or words[0] != "checkmate":
        return None
    rest = words[1:]
    if rest in (["nomate"], ["timeout"], ["notimplemented"]):
        return rest[0], []
    if not rest:
        raise BenchError(f"the engine answered an empty checkmate line: {line!r}")
    return "mate", rest


def parse_option_names(lines: Sequence[str]) -> set[str]:
    """The option names (lower case) of the ``option name <id> type …`` lines."""
    names = set()
    for line in lines:
        words = line.split()
        if len(words) >= 3 and words[0] == "option" and words[1] == "name" and "type" in words[2:]:
            names.add(" ".join(words[2:words.index("type", 2)]).lower())
    return names


def cpu_of(pid: int) -> float | None:
    """CPU seconds (user + system) a live process has spent, from Linux ``/proc``; None elsewhere."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None
    # After the name: state is field 3, utime field 14, stime field 15 (proc(5)).
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def reap(proc: subprocess.Popen[bytes], timeout: float) -> float | None:
    """Wait for ``proc`` to exit; its whole CPU time (user + system) where the system tells it."""
    deadline = time.monotonic() + timeout
    if hasattr(os, "wait4"):
        while time.monotonic() < deadline:
            pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
            if pid == proc.pid:
                proc.returncode = os.waitstatus_to_exitcode(status)
                return usage.ru_utime + usage.ru_stime
            time.sleep(0.02)
        proc.kill()
        _, status, usage = os.wait4(proc.pid, 0)
        proc.returncode = os.waitstatus_to_exitcode(status)
        return None
    try:
        proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
    return None


@dataclass
class Engine:
    """A USI engine process, read by a thread of its own."""

    command: list[str]
    proc: subprocess.Popen[bytes] = field(init=False)
    reader: threading.Thread = field(init=False)
    lines: queue.Queue[str | None] = field(init=False, default_factory=queue.Queue)

    def __post_init__(self) -> None:
        try:
            self.proc = subprocess.Popen(self.command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         stderr=subprocess.DEVNULL, cwd=os.path.dirname(self.command[0]) or None)
        except OSError as e:
            raise BenchError(f"cannot start {self.command[0]}: {e.strerror or e}") from e
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for raw in self.proc.stdout:
            self.lines.put(raw.decode("utf-8", errors="replace").strip())
        self.lines.put(None)

    def send(self, text: str) -> None:
        assert self.proc.stdin is not None
        try:
            self.proc.stdin.write(text.encode() + b"\n")
            self.proc.stdin.flush()
        except OSError as e:
            raise BenchError(f"the engine stopped reading its input ({text!r}): {e}") from e

    def read(self, timeout: float) -> str | None:
        """The next line; '' when none came within ``timeout``; None once the engine has exited."""
        try:
            return self.lines.get(timeout=timeout)
        except queue.Empty:
            return ""

    def wait_for(self, word: str, seconds: float) -> list[str]:
        """The lines before the line ``word``."""
        seen: list[str] = []
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            line = self.read(POLL)
            if line is None:
                raise BenchError(f"the engine exited while waiting for {word}")
            if line == word:
                return seen
            if line:
                seen.append(line)
        raise BenchError(f"no {word} from the engine within {seconds:g} s")

    def close(self) -> float | None:
        """``quit``; the process's whole CPU time once it has exited."""
        if self.proc.poll() is None:
            try:
                self.send("quit")
            except BenchError:
                pass
        cpu = reap(self.proc, 10.0)
        self.reader.join(timeout=2.0)
        for stream in (self.proc.stdin, self.proc.stdout):
            if stream is not None:
                try:
                    stream.close()
                except OSError:
                    pass
        return cpu


def engine_options(offered: set[str], memory: int, options: Sequence[tuple[str, str]]) -> list[tuple[str, str]]:
    """``Threads`` 1 and ``USI_Hash`` ``memory`` where offered, then ``options`` (which override)."""
    chosen: dict[str, tuple[str, str]] = {}
    if "threads" in offered:
        chosen["threads"] = ("Threads", "1")
    if "usi_hash" in offered:
        chosen["usi_hash"] = ("USI_Hash", str(memory))
    for name, value in options:
        chosen[name.lower()] = (name, value)
    return list(chosen.values())


def run_peer(command: list[str], problem: Problem, seconds: float, memory: int,
             options: Sequence[tuple[str, str]], check: Callable[[str, list[str]], str | None] | None,
             ) -> dict[str, Any]:
    """One ``go mate`` on a new process of the engine; see the module's docstring."""
    engine = Engine(command)
    try:
        engine.send("usi")
        said = engine.wait_for("usiok", HANDSHAKE_SECONDS)
        name = next((line[len("id name "):].strip() for line in said if line.startswith("id name ")), "")
        chosen = engine_options(parse_option_names(said), memory, options)
        for key, value in chosen:
            engine.send(f"setoption name {key} value {value}")
        engine.send("isready")
        engine.wait_for("readyok", HANDSHAKE_SECONDS)
        engine.send("usinewgame")
        engine.send(f"position sfen {problem.sfen}")
        pid = engine.proc.pid
        cpu_start = cpu_of(pid)
        wall_start = time.monotonic()
        # Without /proc the limit falls back to the engine's own (wall-clock) go mate limit.
        engine.send("go mate infinite" if cpu_start is not None else f"go mate {round(seconds * 1000)}")
        info = InfoState()
        answer: tuple[str, list[str]] | None = None
        stop_sent: float | None = None
        cpu_search: float | None = None
        while answer is None:
            line = engine.read(POLL)
            if line is None:
                raise BenchError(f"the engine exited during the search (status {engine.proc.poll()})")
            if line.startswith("info"):
                parse_info(line, info)
            elif line.startswith("checkmate"):
                answer = parse_checkmate(line)
                now = cpu_of(pid)
                if now is not None and cpu_start is not None:
                    cpu_search = now - cpu_start
                break
            elif line.startswith("bestmove"):
                raise BenchError(f"the engine answered {line!r} to go mate")
            now = cpu_of(pid)
            if stop_sent is None and now is not None and cpu_start is not None and now - cpu_start >= seconds:
                engine.send("stop")
                stop_sent = time.monotonic()
            if stop_sent is not None and time.monotonic() - stop_sent > STOP_GRACE:
                raise BenchError(f"the engine did not answer stop within {STOP_GRACE:g} s")
        wall = time.monotonic() - wall_start
    except BaseException:
        engine.proc.kill()
        engine.close()
        raise
    cpu_process = engine.close()
    assert answer is not None
    status, moves = answer
    out: dict[str, Any] = {"engine": name or os.path.basename(command[0]), "status": status,
                           "nodes": info.nodes, "cpu": _round(cpu_search), "cpu_process": _round(cpu_process),
                           "wall": round(wall, 3), "hashfull": info.hashfull,
                           "options": {k: v for k, v in chosen}}
    if status == "mate":
        out["length"] = len(moves)
        if check is not None:
            error = check(problem.sfen, moves)
            if error is not None:
                out["status"] = "wrong"
                out["error"] = error
    return out


def line_checker() -> Callable[[str, list[str]], str | None] | None:
    """Replays an engine's line with the project's rules (None when the package is not installed)."""
    try:
        from tsume_studio.core.errors import CoreError
        from tsume_studio.core.shogi.position import Position
        from tsume_studio.core.usi_client import check_mate_line
    except ImportError:
        return None

    def check(sfen: str, moves: list[str]) -> str | None:
        try:
            check_mate_line(Position.from_sfen(sfen), moves)
        except CoreError as e:
            return str(e)
        return None
    return check


# ---- this project's kernel ---------------------------------------------------------------

def tsume_command(given: str | None) -> list[str]:
    """The ``tsume`` CLI to run: ``given``, the one beside this interpreter, or the one on PATH."""
    if given:
        return [given]
    beside = Path(sys.executable).with_name("tsume")
    if beside.exists():
        return [str(beside)]
    found = shutil.which("tsume")
    if found is None:
        raise BenchError("no tsume command: install the project (make install) or pass --tsume")
    return [found]


def run_kernel(tsume: list[str], problem: Problem, seconds: float, memory: int) -> dict[str, Any]:
    """``tsume batch --raw --cpu-time --json`` on ``problem`` alone, in a process of its own."""
    with tempfile.TemporaryDirectory() as folder:
        tsv = Path(folder) / "problem.tsv"
        length = "" if problem.length is None else str(problem.length)
        tsv.write_text(f"id\tsfen\tlength\n{problem.id}\t{problem.sfen}\t{length}\n", encoding="utf-8")
        command = [*tsume, "batch", "--raw", "--cpu-time", "--json", "--seconds", f"{seconds:g}",
                   "--memory", str(memory), str(tsv)]
        # Output to files, not pipes: the process is reaped by wait4, which gives its CPU time.
        out_path, err_path = Path(folder) / "out", Path(folder) / "err"
        start = time.monotonic()
        with open(out_path, "wb") as out_file, open(err_path, "wb") as err_file:
            proc = subprocess.Popen(command, stdout=out_file, stderr=err_file)
            cpu_process = reap(proc, seconds * 4 + 600)
        wall = time.monotonic() - start
        out, err = out_path.read_text(encoding="utf-8"), err_path.read_text(encoding="utf-8", errors="replace")
    rows = [json.loads(line) for line in out.splitlines() if line.startswith("{")]
    row = next((r for r in rows if r.get("id") == problem.id), None)
    if row is None:
        raise BenchError(f"tsume batch gave no result for {problem.id}: {err.strip()[-300:]}")
    return {"engine": f"tsume ({row.get('engine', '?')})", "status": row["status"], "nodes": row.get("nodes"),
            "moves": row.get("moves"), "cpu": row.get("cpu_seconds"), "cpu_process": _round(cpu_process),
            "wall": round(wall, 3), "length": row.get("length")}


# ---- cshogi ---------------------------------------------------------------------------

def run_cshogi(problem: Problem, seconds: float, nps: int,
               check: Callable[[str, list[str]], str | None] | None = None) -> dict[str, Any]:
    """cshogi's ``DfPn`` in this process, with a node limit worth ``seconds`` at ``nps``; its line
    replayed by ``check`` where given."""
    import cshogi

    board = cshogi.Board(problem.sfen)
    dfpn = cshogi.DfPn()
    dfpn.set_max_depth(255)
    limit = int(seconds * nps)
    dfpn.set_max_search_node(limit)
    cpu = time.process_time()
    mate = dfpn.search(board)
    cpu = time.process_time() - cpu
    nodes = int(dfpn.searched_node)
    status = "mate" if mate else ("unknown" if nodes >= limit else "nomate")
    out: dict[str, Any] = {"engine": "cshogi DfPn", "status": status, "nodes": nodes, "cpu": round(cpu, 3),
                           "node_limit": limit}
    if mate:
        moves = [cshogi.move_to_usi(m) for m in dfpn.get_pv(board)]
        out["length"] = len(moves)
        error = check(problem.sfen, moves) if check is not None else None
        if error is not None:
            out.update(status="wrong", error=error)
        elif cpu > seconds:
            out.update(status="unknown", over_limit=True)
    return out


# ---- the report ---------------------------------------------------------------------

def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 3)


def verdict(status: str) -> str:
    """A result in words: proved, no mate, or not decided."""
    return {"mate": "proved", "nomate": "no mate", "no_mate": "no mate", "wrong": "WRONG LINE"}.get(
        status, "not decided")


def table(rows: Sequence[dict[str, Any]]) -> str:
    """The results as a Markdown table, one line per problem and engine."""
    head = ("| problem | engine | result | plies | nodes | search CPU s | process CPU s | nodes / CPU s "
            "| moves played / CPU s | load |\n|---|---|---|---|---|---|---|---|---|---|")
    lines = [head]
    for r in rows:
        nodes, moves, cpu = r.get("nodes"), r.get("moves"), r.get("cpu")
        speed = f"{nodes / cpu:,.0f}" if nodes and cpu else "—"
        move_speed = f"{moves / cpu:,.0f}" if moves and cpu else "—"
        result = verdict(r["status"]) + (" (proved over the limit)" if r.get("over_limit") else "")
        lines.append("| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |".format(
            r["problem"], r["engine"], result, r.get("length") or "—",
            f"{nodes:,}" if nodes is not None else "—", f"{cpu:.2f}" if cpu is not None else "—",
            f"{r['cpu_process']:.2f}" if r.get("cpu_process") is not None else "—", speed, move_speed,
            r.get("load", "—")))
    return "\n".join(lines)


def load() -> str:
    """The one-minute load average, where the system tells it."""
    try:
        return f"{os.getloadavg()[0]:.2f}"
    except (OSError, AttributeError):
        return "—"


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    p.add_argument("--engine", help="path of the peer USI mate engine (optional)")
    p.add_argument("--engine-arg", action="append", default=[], metavar="ARG",
                   help="an argument for the engine's command line (repeatable)")
    p.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                   help="a setoption for the engine (repeatable; after Threads=1 and USI_Hash=--memory)")
    p.add_argument("--peer-nodes-are-moves", action="store_true",
                   help="the peer's info nodes count moves played (YaneuraOu-based engines: KomoringHeights)")
    p.add_argument("--seconds", type=float, default=60.0, help="CPU-time limit a search (default 60)")
    p.add_argument("--memory", type=int, default=1024, help="table size in MB for both (default 1024)")
    p.add_argument("--tsv", help="a problem set (columns id, sfen, length)")
    p.add_argument("--only", nargs="+", default=[], metavar="ID", help="only these ids of --tsv")
    p.add_argument("--every", type=int, default=1, metavar="K", help="only every K-th row of --tsv")
    p.add_argument("--sfen", nargs=2, action="append", default=[], metavar=("ID", "SFEN"),
                   help="a position of its own (repeatable)")
    p.add_argument("--no-kernel", action="store_true", help="do not run this project's solver")
    p.add_argument("--tsume", help="the tsume command (default: beside this Python, else on PATH)")
    p.add_argument("--cshogi", action="store_true", help="run cshogi's DfPn too")
    p.add_argument("--cshogi-nps", type=int, default=500_000, metavar="N",
                   help="cshogi's node limit is --seconds times N (default 500000)")
    p.add_argument("--json", metavar="FILE", help="append one JSON line per problem and engine to FILE")
    p.add_argument("--table", metavar="FILE", help="only print the table of the JSON lines in FILE")
    args = p.parse_args(argv)
    if args.table:
        return args
    if args.every < 1:
        p.error("--every must be at least 1")
    if args.seconds <= 0 or args.memory < 1:
        p.error("--seconds and --memory must be positive")
    if not args.tsv and not args.sfen:
        p.error("give problems: --tsv FILE and/or --sfen ID SFEN")
    if (args.only or args.every > 1) and not args.tsv:
        p.error("--only and --every select rows of --tsv")
    return args


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    try:
        return run(args)
    except BenchError as e:
        print(f"peer_bench: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


def cpu_model() -> str:
    """The processor's name (Linux ``/proc/cpuinfo``), else what the platform module says."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def run(args: argparse.Namespace) -> int:
    if args.table:
        try:
            with open(args.table, encoding="utf-8") as f:
                print(table([json.loads(line) for line in f if line.strip()]))
        except (OSError, ValueError) as e:
            raise BenchError(f"cannot read {args.table}: {e}") from e
        return 0
    command: list[str] | None = None
    if args.engine:
        if not os.path.exists(args.engine):
            raise BenchError(f"no engine at {args.engine}: build one (KomoringHeights: "
                             "https://github.com/komori-n/KomoringHeights) and pass its path")
        if not os.access(args.engine, os.X_OK):
            raise BenchError(f"{args.engine} is not executable")
        command = [os.path.abspath(args.engine), *args.engine_arg]
    options = []
    for text in args.option:
        name, sep, value = text.partition("=")
        if not sep or not name.strip():
            raise BenchError(f"--option wants NAME=VALUE, got {text!r}")
        options.append((name.strip(), value.strip()))
    problems = read_problems(args.tsv, args.only, args.every) if args.tsv else []
    problems += [Problem(pid, sfen) for pid, sfen in args.sfen]
    tsume = None if args.no_kernel else tsume_command(args.tsume)
    check = line_checker()
    print(f"# {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, {cpu_model()},"
          f" {os.cpu_count()} CPUs, Python {platform.python_version()}; limit {args.seconds:g} CPU s a search,"
          f" table {args.memory} MB; load at start {load()}", flush=True)
    if check is None:
        print("# the engines' lines are not replayed: tsume_studio is not installed here", flush=True)
    results: list[dict[str, Any]] = []
    sink = open(args.json, "a", encoding="utf-8") if args.json else None
    try:
        for problem in problems:
            names = (["peer"] if command is not None else []) + (["kernel"] if tsume is not None else []) + (
                ["cshogi"] if args.cshogi else [])
            for name in names:
                before = load()
                if name == "peer":
                    assert command is not None
                    result = run_peer(command, problem, args.seconds, args.memory, options, check)
                    if args.peer_nodes_are_moves:
                        result["moves"] = result.get("nodes")
                elif name == "kernel":
                    assert tsume is not None
                    result = run_kernel(tsume, problem, args.seconds, args.memory)
                else:
                    result = run_cshogi(problem, args.seconds, args.cshogi_nps, check)
                result.update(problem=problem.id, expected=problem.length, load=f"{before}–{load()}",
                              date=time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()))
                results.append(result)
                print(json.dumps(result, ensure_ascii=False), flush=True)
                if sink is not None:
                    sink.write(json.dumps(result, ensure_ascii=False) + "\n")
                    sink.flush()
    finally:
        if sink is not None:
            sink.close()
    print()
    print(table(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""A USI mate engine (``go mate``/``checkmate``) for other shogi GUIs.

The engine answers every ``go mate`` with exactly one ``checkmate`` line:
the tsume main line when mate is proved, ``nomate`` only when no mate is
*proved*, and ``timeout`` when the search was stopped or hit a limit, so that
an unproven "no mate" never reaches a composer.

The search runs on a worker thread so that ``stop``, ``quit`` and ``isready``
are answered while it runs; the solver itself stays thread-free and is
cancelled by a flag.  A ``go`` that arrives while a search still runs stops
that search first: its own ``checkmate`` line (``timeout``, unless it
finished meanwhile) goes out before the new search starts, so a GUI that
moves on to the next position never waits for a stale answer, and every
``go`` still gets exactly one.  ``quit`` and the end of input stop a running
search the same way.

Input is read as bytes: a line that is not UTF-8 is ignored with an ``info
string`` (whatever the locale).  Every reply is printable ASCII (input quoted
in one is escaped) and an ``info string`` is at most 200 characters, so a
client that decodes Shift_JIS, or reads lines into a fixed buffer, reads every
reply.
"""

from __future__ import annotations

import argparse
import io
import sys
import threading
import time
from collections.abc import Callable, Generator
from typing import BinaryIO, TextIO

from ..search.contract import Limits, Progress, SolveResult, SolveStatus, drive
from ..search.solver import solve_iter as default_solve_iter
from ..shogi.moves import parse_move
from ..shogi.position import STARTING_SFEN, Position

ENGINE_NAME = "Tsume Studio"
ENGINE_AUTHOR = "Tsume Studio developers"

SolveIter = Callable[[Position, Limits, threading.Event], Generator[Progress, None, SolveResult]]

_INFO_INTERVAL = 1.0  # seconds between info lines during a search
_HASH_MAX = 65536     # MB, the USI_Hash option's advertised maximum
_NODES_MAX = 2_000_000_000
_INFO_MAX = 200       # characters of an ``info string`` reply's text, at most


def _wire(line: str) -> str:
    """``line`` as it goes out: printable ASCII only, and an ``info string`` at most ``_INFO_MAX`` long.

    Anything else (non-ASCII text, control characters from the input) is
    written as Python escapes, so that a client decoding Shift_JIS or ASCII
    reads every reply and a reply is always one line.
    """
    out = "".join(c if " " <= c <= "~" else c.encode("unicode_escape").decode("ascii") for c in line)
    if out.startswith("info string ") and len(out) > len("info string ") + _INFO_MAX:
        out = out[:len("info string ") + _INFO_MAX - 4] + " ..."
    return out


def _usi_int(text: str) -> int:
    """A non-negative decimal number in ASCII digits (at most 18 of them)."""
    if not (text.isascii() and text.isdigit()) or len(text) > 18:
        raise ValueError(f"not a number: {text[:40]!a}")
    return int(text)


class UsiEngine:
    """The protocol state machine; feed it lines with :meth:`handle`.

    Args:
        out: where replies go (flushed after every line).
        solve_iter: the solver generator (``core.search.solver.solve_iter`` by default).
    """

    def __init__(self, out: TextIO, solve_iter: SolveIter | None = None) -> None:
        self._out = out
        self._out_lock = threading.Lock()
        self._solve_iter = solve_iter
        self._position: Position | None = None
        self._hash_mb = 256
        self._node_limit = 0
        self._cancel = threading.Event()
        self._thread: threading.Thread | None = None
        self.closed = False

    # ---- output -------------------------------------------------------

    def send(self, line: str) -> None:
        """Write one protocol line; a closed output (the GUI went away) is remembered, not raised."""
        with self._out_lock:
            if self.closed:
                return
            try:
                self._out.write(_wire(line) + "\n")
                self._out.flush()
            except (OSError, ValueError):
                self.closed = True

    # ---- input --------------------------------------------------------

    def handle(self, line: str) -> bool:
        """Handle one input line; returns False when the engine should exit."""
        words = line.strip().split()
        if not words:
            return True
        cmd, args = words[0], words[1:]
        if cmd == "usi":
            self.send(f"id name {ENGINE_NAME}")
            self.send(f"id author {ENGINE_AUTHOR}")
            self.send("option name USI_Hash type spin default 256 min 16 max 65536")
            self.send("option name MateNodes type spin default 0 min 0 max 2000000000")
            self.send("usiok")
        elif cmd == "isready":
            self.send("readyok")
        elif cmd == "setoption":
            self._setoption(args)
        elif cmd in ("usinewgame", "gameover", "ponderhit"):
            pass
        elif cmd == "position":
            self._set_position(args)
        elif cmd == "go":
            self._go(args)
        elif cmd == "stop":
            self._cancel.set()
            self.wait()
        elif cmd == "quit":
            self._cancel.set()
            self.wait()
            return False
        else:
            # Quoted in ASCII: some clients decode engine output as Shift_JIS.
            self.send(f"info string unknown command: {cmd[:40]!a}")
        return not self.closed

    def _setoption(self, args: list[str]) -> None:
        # setoption name <id> [value <x>]
        try:
            name = args[args.index("name") + 1]
            value = args[args.index("value") + 1] if "value" in args else ""
        except (ValueError, IndexError):
            self.send("info string malformed setoption")
            return
        try:
            if name == "USI_Hash":
                self._hash_mb = min(_HASH_MAX, max(16, _usi_int(value)))
            elif name == "MateNodes":
                self._node_limit = min(_NODES_MAX, max(0, _usi_int(value)))
        except ValueError:
            self.send(f"info string bad value for {name[:40]!a}: {value[:40]!a}")

    def _set_position(self, args: list[str]) -> None:
        try:
            if args and args[0] == "startpos":
                sfen, rest = STARTING_SFEN, args[1:]
            elif args and args[0] == "sfen":
                end = args.index("moves") if "moves" in args else len(args)
                sfen, rest = " ".join(args[1:end]), args[end:]
            else:
                raise ValueError("expected 'startpos' or 'sfen'")
            pos = Position.from_sfen(sfen)
            if rest:
                if rest[0] != "moves":
                    raise ValueError(f"expected 'moves', got {rest[0]!r}")
                for text in rest[1:]:
                    pos.push(parse_move(pos, text))
            self._position = Position.from_sfen(pos.sfen())
        except ValueError as exc:
            self._position = None
            self.send(f"info string bad position: {exc}")

    def _go(self, args: list[str]) -> None:
        # A search still running (or just sending its answer) is stopped and
        # answers first: one checkmate line per go, in order.
        self._cancel.set()
        self.wait()
        if not args or args[0] != "mate":
            # Only mate search is offered; answer a normal `go` at once.
            self.send("info string only 'go mate' is supported")
            self.send("bestmove resign")
            return
        if self._position is None:
            self.send("info string no valid position")
            self.send("checkmate timeout")
            return
        seconds: float | None = None
        if len(args) > 1 and args[1] != "infinite":
            try:
                seconds = max(0.0, _usi_int(args[1]) / 1000.0)
            except ValueError:
                self.send(f"info string bad time: {args[1][:40]!a}")
                self.send("checkmate timeout")
                return
        limits = Limits(nodes=self._node_limit or None, seconds=seconds, memory_mb=self._hash_mb)
        self._cancel = threading.Event()
        position = self._position.copy()
        self._thread = threading.Thread(target=self._search, args=(position, limits, self._cancel),
                                        name="usi-mate", daemon=True)
        self._thread.start()

    def wait(self) -> None:
        """Wait for a running search to finish (it has been told to stop)."""
        if self._thread is not None:
            self._thread.join()
            self._thread = None

    # ---- search -----------------------------------------------------------

    def _search(self, position: Position, limits: Limits, cancel: threading.Event) -> None:
        solve_iter = self._solve_iter or default_solve_iter
        try:
            if not position.is_valid():
                problems = "; ".join(p.message for p in position.problems())
                self.send(f"info string invalid position: {problems}")
                self.send("checkmate timeout")
                return
            last_info = 0.0

            def report(progress: Progress) -> None:
                nonlocal last_info
                now = time.monotonic()
                if now - last_info >= _INFO_INTERVAL:
                    last_info = now
                    self.send(_info_line(progress))

            result: SolveResult | None = drive(solve_iter(position, limits, cancel), report)
            self.send(_checkmate_line(result))
        except Exception as exc:
            self.send(f"info string internal error: {exc!r}")
            self.send("checkmate timeout")


def _info_line(p: Progress) -> str:
    best = min(p.root_children, key=lambda c: (c.pn, -c.dn), default=None)
    root = f" root={best.move}" if best is not None else ""
    phase = f" phase={p.phase.value}" if p.phase is not None else ""
    return (f"info nodes {p.nodes} nps {int(p.nps)} time {int(p.elapsed * 1000)} "
            f"hashfull {min(1000, int(p.table_fill * 1000))} string pn={p.root_pn} dn={p.root_dn}{root}{phase}")


def _checkmate_line(result: SolveResult | None) -> str:
    if result is None:
        return "checkmate timeout"
    if result.status == SolveStatus.MATE and result.pv:
        return "checkmate " + " ".join(result.pv)
    if result.status == SolveStatus.NO_MATE:
        return "checkmate nomate"
    return "checkmate timeout"


def run(stdin: BinaryIO | None = None, stdout: TextIO | None = None) -> int:
    """Read commands from ``stdin`` (bytes) until ``quit`` or end of input; returns the exit code.

    Lines that are not UTF-8 are ignored with an ``info string``.  Ctrl-C
    ends the engine like ``quit`` (a running search still answers), exit code 130.
    """
    if stdin is None:
        stdin = sys.stdin.buffer
    if stdout is None:
        stdout = sys.stdout
        if isinstance(stdout, io.TextIOWrapper):
            stdout.reconfigure(encoding="utf-8", errors="replace", newline="\n")
    engine = UsiEngine(stdout)
    try:
        for raw in stdin:
            try:
                line = raw.decode("utf-8")
            except UnicodeDecodeError:
                engine.send("info string ignored a line that is not UTF-8")
                continue
            if not engine.handle(line):
                return 0
    except KeyboardInterrupt:
        engine.handle("quit")
        return 130
    engine.handle("quit")
    return 0


__all__ = ["UsiEngine", "main", "register", "run"]


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``usi`` subcommand."""
    p = sub.add_parser("usi", help="run as a USI mate engine (go mate / checkmate) for shogi GUIs")
    p.set_defaults(func=lambda args: run())


def main() -> int:
    """Entry point of ``tsume-usi`` (for GUIs that register an executable without arguments)."""
    return run()

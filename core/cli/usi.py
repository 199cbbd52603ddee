"""A USI mate engine (``go mate``/``checkmate``) for other shogi GUIs.

The protocol is described in docs/usi-mate.md.  The engine answers ``go mate``
with exactly one ``checkmate`` line: the tsume main line when mate is proved,
``nomate`` only when no mate is *proved*, and ``timeout`` when the search was
stopped or hit a limit, so that an unproven "no mate" never reaches a
composer.

The search runs on a worker thread so that ``stop``, ``quit`` and ``isready``
are answered while it runs; the solver itself stays thread-free and is
cancelled by a flag.
"""

from __future__ import annotations

import argparse
import sys
import threading
import time
from typing import Callable, Generator, TextIO

from ..shogi.moves import parse_move
from ..shogi.position import Position, STARTING_SFEN
from ..search.contract import Limits, Progress, SolveResult, SolveStatus, drive
from ..search.solver import solve_iter as default_solve_iter

ENGINE_NAME = "Tsume Studio"
ENGINE_AUTHOR = "Tsume Studio developers"

_INFO_INTERVAL = 1.0  # seconds between info lines during a search

SolveIter = Callable[[Position, Limits, threading.Event], Generator[Progress, None, SolveResult]]


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
        self._deadline_cancel = False

    # ---- output -------------------------------------------------------

    def send(self, line: str) -> None:
        """Write one protocol line."""
        with self._out_lock:
            self._out.write(line + "\n")
            self._out.flush()

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
            self.send(f"info string unknown command: {cmd}")
        return True

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
                self._hash_mb = max(16, int(value))
            elif name == "MateNodes":
                self._node_limit = max(0, int(value))
        except ValueError:
            self.send(f"info string bad value for {name}: {value!r}")

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
        if self._thread is not None and self._thread.is_alive():
            self.send("info string a search is already running")
            return
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
                seconds = max(0.0, int(args[1]) / 1000.0)
            except ValueError:
                self.send(f"info string bad time: {args[1]!r}")
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
        except Exception as exc:  # never leave the GUI without an answer
            self.send(f"info string internal error: {exc!r}")
            self.send("checkmate timeout")


def _info_line(p: Progress) -> str:
    best = min(p.root_children, key=lambda c: (c.pn, -c.dn), default=None)
    root = f" root={best.move}" if best is not None else ""
    return (f"info nodes {p.nodes} nps {int(p.nps)} time {int(p.elapsed * 1000)} "
            f"hashfull {min(1000, int(p.table_fill * 1000))} string pn={p.root_pn} dn={p.root_dn}{root}")


def _checkmate_line(result: SolveResult | None) -> str:
    if result is None:
        return "checkmate timeout"
    if result.status == SolveStatus.MATE and result.pv:
        return "checkmate " + " ".join(result.pv)
    if result.status == SolveStatus.NO_MATE:
        return "checkmate nomate"
    return "checkmate timeout"


def run(stdin: TextIO = sys.stdin, stdout: TextIO = sys.stdout) -> int:
    """Read commands from ``stdin`` until ``quit`` or end of input."""
    engine = UsiEngine(stdout)
    for line in stdin:
        if not engine.handle(line):
            return 0
    engine.handle("quit")
    return 0


__all__ = ["UsiEngine", "run", "register", "main"]


def register(sub: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    """Add the ``usi`` subcommand."""
    p = sub.add_parser("usi", help="run as a USI mate engine (go mate / checkmate) for shogi GUIs")
    p.set_defaults(func=lambda args: run())


def main() -> int:
    """Entry point of ``tsume-usi`` (for GUIs that register an executable without arguments)."""
    return run()

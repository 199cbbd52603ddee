"""Driving an external USI mate engine (``go mate``) as a solver.

An engine is a program that speaks USI on its standard input and output
(KomoringHeights, 脊尾詰, Tsume Studio's own ``tsume-usi``).  This module
starts it, checks it with the handshake (``usi``/``usiok``,
``isready``/``readyok``), sets its options, asks ``go mate`` and reads the
one ``checkmate …`` line that ends the search (see ``docs/usi-mate.md``).

* :class:`EngineSpec` is what a user registers: a name, the program, its
  arguments and ``setoption`` values.
* :func:`probe_engine` runs the handshake and returns the engine's
  :class:`EngineInfo` (name, author, options), or raises :class:`CoreError`.
* :func:`engine_solver` returns a solver generator with the same shape as the
  built-in one (``solve(position, limits, cancel)`` yields
  :class:`Progress`, returns :class:`SolveResult`), so any caller that runs
  the core's solvers runs an engine the same way.
* :func:`check_mate_line` replays an engine's line: an engine can be wrong,
  and an illegal or non-mating line is an error, never a mate.

The process is read by a thread of its own, so no call blocks for longer
than its timeout; ``stop`` goes out when the caller cancels or the time
limit passes, and an engine that does not answer ``stop`` in time is killed.
What an engine does not give is never invented: its result carries no proof
tree, no 無駄合 reasons, and its length is not proved shortest
(``extra["exact"]`` is False).

May import: ``core.shogi``, ``core.search`` (the solver contract) and ``core.errors``.
"""

from __future__ import annotations

import os
import queue
import subprocess
import threading
import time
from collections.abc import Generator, Sequence
from dataclasses import dataclass, field

from .errors import CoreError
from .search.contract import Cancel, Limits, Progress, SolveResult, SolveStatus
from .shogi.moves import IllegalMoveError, InvalidMoveError, parse_move
from .shogi.position import IllegalPositionError, Position

#: Seconds an engine gets to answer ``usi`` and ``isready`` (ShogiHome's default wait is 10 s).
HANDSHAKE_SECONDS = 10.0
#: Seconds an engine gets to send its ``checkmate`` line after ``stop`` before it is killed.
STOP_GRACE = 5.0
#: Seconds past ``go mate <ms>``'s own limit before ``stop`` is sent for it.
LIMIT_GRACE = 2.0
#: Seconds an engine gets to exit after ``quit`` before it is killed.
QUIT_GRACE = 2.0
#: How often the search loop looks at the cancel flag (seconds).
POLL = 0.05


@dataclass(frozen=True, slots=True)
class EngineSpec:
    """A registered engine: a display name, the program, its arguments and ``setoption`` values."""

    name: str
    path: str
    args: tuple[str, ...] = ()
    options: tuple[tuple[str, str], ...] = ()

    def command(self) -> list[str]:
        """The command line that starts the engine (the program's path made absolute)."""
        return [os.path.abspath(self.path), *self.args]


@dataclass(frozen=True, slots=True)
class EngineOption:
    """One ``option`` line of an engine: its name, type and, where given, default, bounds and choices."""

    name: str
    type: str
    default: str | None = None
    min: int | None = None
    max: int | None = None
    choices: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class EngineInfo:
    """What an engine says of itself in answer to ``usi``."""

    name: str = ""
    author: str = ""
    options: tuple[EngineOption, ...] = ()

    def option(self, name: str) -> EngineOption | None:
        """The option called ``name`` (USI option names are case-insensitive), or None."""
        return next((o for o in self.options if o.name.lower() == name.lower()), None)


@dataclass(slots=True)
class _Stats:
    nodes: int = 0
    nps: float = 0.0
    hashfull: int = 0
    depth: int = 0
    text: str = ""
    extra: list[str] = field(default_factory=list)


def parse_option(line: str) -> EngineOption | None:
    """An ``option name <id> type <t> [default <x>] [min <n>] [max <n>] [var <v>]…`` line, or None."""
    words = line.split()
    if len(words) < 5 or words[0] != "option" or words[1] != "name" or "type" not in words[2:]:
        return None
    t = words.index("type", 2)
    name = " ".join(words[2:t])
    fields: dict[str, list[str]] = {}
    key = ""
    for word in words[t:]:
        if word in ("type", "default", "min", "max", "var"):
            key = word
            fields.setdefault(key, [])
            if key == "var":
                fields[key].append("")
        elif key == "var":
            fields[key][-1] = (fields[key][-1] + " " + word).strip()
        elif key:
            fields[key].append(word)

    def number(key: str) -> int | None:
        try:
            return int(fields[key][0]) if fields.get(key) else None
        except ValueError:
            return None

    if not name or not fields.get("type"):
        return None
    default = " ".join(fields["default"]) if "default" in fields else None
    return EngineOption(name, fields["type"][0], default, number("min"), number("max"), tuple(fields.get("var", ())))


def parse_option_text(text: str) -> tuple[tuple[str, str], ...]:
    """``name=value`` lines (blank lines skipped) as ``setoption`` pairs.

    Raises:
        CoreError: ``engine.bad_option`` for a line without ``=`` or without a name.
    """
    pairs = []
    for raw in text.splitlines():
        line = raw.strip()
        if not line:
            continue
        name, sep, value = line.partition("=")
        if not sep or not name.strip():
            raise CoreError("engine.bad_option", text=line)
        pairs.append((name.strip(), value.strip()))
    return tuple(pairs)


_EOF = object()


class UsiProcess:
    """A running engine: send lines, read lines with a timeout, close (quit, then kill).

    Raises (from the constructor):
        CoreError: ``engine.not_found`` or ``engine.not_executable``.
    """

    def __init__(self, spec: EngineSpec) -> None:
        self.spec = spec
        if not os.path.exists(spec.path):
            raise CoreError("engine.not_found", path=spec.path)
        folder = os.path.dirname(os.path.abspath(spec.path))
        try:
            # The engine's own folder as working directory: many engines read
            # their evaluation or book files from there.
            self._proc = subprocess.Popen(spec.command(), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                          stderr=subprocess.DEVNULL, cwd=folder)
        except OSError as e:
            raise CoreError("engine.not_executable", path=spec.path, reason=e.strerror or str(e)) from e
        self._lines: queue.Queue[object] = queue.Queue()
        self._reader = threading.Thread(target=self._read_all, name="usi-reader", daemon=True)
        self._reader.start()
        self.eof = False

    def _read_all(self) -> None:
        stdout = self._proc.stdout
        assert stdout is not None
        try:
            for raw in stdout:
                # Engines on Windows may write Shift_JIS: a wrong byte must not end the session.
                self._lines.put(raw.decode("utf-8", errors="replace").strip())
        except (OSError, ValueError):
            pass
        finally:
            self._lines.put(_EOF)

    def send(self, line: str) -> bool:
        """Write one command line; False when the engine no longer reads (it exited)."""
        stdin = self._proc.stdin
        if stdin is None:
            return False
        try:
            stdin.write(line.encode("utf-8") + b"\n")
            stdin.flush()
        except (OSError, ValueError):
            return False
        return True

    def read(self, timeout: float) -> str | None:
        """The next line, or None when none came within ``timeout`` seconds; EOF sets :attr:`eof`."""
        if self.eof:
            return None
        try:
            item = self._lines.get(timeout=max(0.0, timeout))
        except queue.Empty:
            return None
        if item is _EOF:
            self.eof = True
            return None
        assert isinstance(item, str)
        return item

    def exit_code(self) -> int | None:
        """The engine's exit code once it has exited (waiting briefly for it), else None."""
        try:
            return self._proc.wait(timeout=0.5)
        except subprocess.TimeoutExpired:
            return None

    def wait_for(self, word: str, seconds: float, command: str, error: str) -> list[str]:
        """Read until a line that is ``word``; return the lines before it.

        Raises:
            CoreError: ``error`` (with ``seconds``) when it does not come in
                time, ``engine.exited`` when the engine exits first.
        """
        lines: list[str] = []
        deadline = time.monotonic() + seconds
        while True:
            line = self.read(deadline - time.monotonic())
            if line is None:
                if self.eof:
                    raise CoreError("engine.exited", status=str(self.exit_code()), command=command)
                if time.monotonic() >= deadline:
                    raise CoreError(error, seconds=f"{seconds:g}")
                continue
            if line == word:
                return lines
            lines.append(line)

    def kill(self) -> None:
        """End the engine at once."""
        if self._proc.poll() is None:
            self._proc.kill()
        try:
            self._proc.wait(timeout=QUIT_GRACE)
        except subprocess.TimeoutExpired:
            pass

    def close(self) -> None:
        """``quit``, then kill the engine if it has not exited within :data:`QUIT_GRACE`."""
        if self._proc.poll() is None:
            self.send("quit")
            try:
                self._proc.wait(timeout=QUIT_GRACE)
            except subprocess.TimeoutExpired:
                self.kill()
        for stream in (self._proc.stdin, self._proc.stdout):
            if stream is not None:
                try:
                    stream.close()
                except OSError:
                    pass
        self._reader.join(timeout=1.0)

    def handshake(self, options: Sequence[tuple[str, str]] = (), seconds: float = HANDSHAKE_SECONDS,
                  memory_mb: int | None = None) -> EngineInfo:
        """``usi`` → ``usiok``, the options, ``isready`` → ``readyok``; the engine's own description.

        ``USI_Hash`` gets ``memory_mb`` (within the engine's bounds) unless
        ``options`` sets it.

        Raises:
            CoreError: ``engine.no_usiok``, ``engine.no_readyok`` or ``engine.exited``.
        """
        self.send("usi")
        info = _engine_info(self.wait_for("usiok", seconds, "usi", "engine.no_usiok"))
        chosen = list(options)
        hash_option = info.option("USI_Hash")
        if memory_mb is not None and hash_option is not None and not any(
                n.lower() == "usi_hash" for n, _ in chosen):
            megabytes = memory_mb
            if hash_option.max is not None:
                megabytes = min(megabytes, hash_option.max)
            if hash_option.min is not None:
                megabytes = max(megabytes, hash_option.min)
            chosen.insert(0, ("USI_Hash", str(megabytes)))
        for name, value in chosen:
            self.send(f"setoption name {name} value {value}" if value != "" else f"setoption name {name}")
        self.send("isready")
        self.wait_for("readyok", seconds, "isready", "engine.no_readyok")
        return info


def _engine_info(lines: list[str]) -> EngineInfo:
    name = author = ""
    options = []
    for line in lines:
        if line.startswith("id name "):
            name = line[len("id name "):].strip()
        elif line.startswith("id author "):
            author = line[len("id author "):].strip()
        else:
            option = parse_option(line)
            if option is not None:
                options.append(option)
    return EngineInfo(name, author, tuple(options))


def probe_engine(spec: EngineSpec, seconds: float = HANDSHAKE_SECONDS) -> EngineInfo:
    """Start the engine, run the handshake with its options, quit it; what it says of itself.

    Raises:
        CoreError: the program is missing or cannot run, or the handshake failed.
    """
    process = UsiProcess(spec)
    try:
        return process.handshake(spec.options, seconds)
    finally:
        process.close()


def check_mate_line(position: Position, moves: Sequence[str]) -> None:
    """Replay an engine's line from ``position``: every move legal, every attacker's move
    a check, an odd number of moves, and the defender checkmated at the end.

    Raises:
        CoreError: ``engine.illegal_move``, ``engine.no_check``,
            ``engine.even_line`` or ``engine.not_mate``.
    """
    board = position.copy()
    for ply, text in enumerate(moves, 1):
        try:
            move = parse_move(board, text)
        except (InvalidMoveError, IllegalMoveError, IllegalPositionError) as e:
            raise CoreError("engine.illegal_move", ply=ply, move=text) from e
        board.push(move)
        if ply % 2 == 1 and not board.is_check():
            raise CoreError("engine.no_check", ply=ply, move=text)
    if len(moves) % 2 == 0:
        raise CoreError("engine.even_line", plies=len(moves))
    if not board.is_checkmate():
        raise CoreError("engine.not_mate", plies=len(moves))


def _read_info(words: list[str], stats: _Stats) -> None:
    """Fold an ``info`` line into ``stats`` (unknown or malformed fields are skipped)."""
    i = 1
    while i < len(words):
        key = words[i]
        if key in ("string", "pv"):
            rest = " ".join(words[i + 1:])
            if key == "string":
                stats.text = rest
            break
        value = words[i + 1] if i + 1 < len(words) else ""
        try:
            if key == "nodes":
                stats.nodes = int(value)
            elif key == "nps":
                stats.nps = float(value)
            elif key == "hashfull":
                stats.hashfull = int(value)
            elif key == "depth":
                stats.depth = int(value)
        except ValueError:
            pass
        i += 2


def _pn_dn(text: str) -> tuple[int, int]:
    """The root's pn/dn from an ``info string pn=… dn=…`` text (0, 0 when absent)."""
    pn = dn = 0
    for word in text.split():
        name, _, value = word.partition("=")
        if name in ("pn", "dn") and value.isdigit():
            if name == "pn":
                pn = int(value)
            else:
                dn = int(value)
    return pn, dn


def engine_solver(spec: EngineSpec, handshake_seconds: float = HANDSHAKE_SECONDS,
                  stop_grace: float = STOP_GRACE) -> EngineSolve:
    """A solver generator that asks the engine of ``spec`` for a mate (see :class:`EngineSolve`)."""
    return EngineSolve(spec, handshake_seconds, stop_grace)


class EngineSolve:
    """``solve(position, limits, cancel)`` on an external engine, shaped like the core's solvers.

    Yields a :class:`Progress` for each ``info`` line (nodes, nps, elapsed,
    the table fill from ``hashfull``, pn/dn when the engine prints them as
    ``string pn=… dn=…``) and returns a :class:`SolveResult`: ``MATE`` with
    the engine's line (checked by :func:`check_mate_line`), ``NO_MATE`` for
    ``checkmate nomate``, ``UNKNOWN`` for ``checkmate timeout``, or
    ``CANCELLED`` after the caller's cancel.  ``extra`` names the engine
    (``engine``), marks the answer as external (``external``) and not proved
    shortest (``exact`` False).

    Raises (from the generator):
        CoreError: the engine cannot start, fails its handshake, exits,
            does not answer ``stop``, answers ``notimplemented`` or
            ``bestmove``, or gives a line that is not a mate.
    """

    def __init__(self, spec: EngineSpec, handshake_seconds: float, stop_grace: float) -> None:
        self.spec = spec
        self.handshake_seconds = handshake_seconds
        self.stop_grace = stop_grace

    def __call__(self, position: Position, limits: Limits,
                 cancel: Cancel) -> Generator[Progress, None, SolveResult]:
        """Run one ``go mate`` on a fresh engine process (see the class)."""
        return self._solve(position.copy(), limits, cancel)

    def _solve(self, position: Position, limits: Limits,
               cancel: Cancel) -> Generator[Progress, None, SolveResult]:
        process = UsiProcess(self.spec)
        try:
            info = process.handshake(self.spec.options, self.handshake_seconds, limits.memory_mb)
            engine = info.name or self.spec.name
            sfen = position.sfen()
            process.send("usinewgame")
            process.send(f"position sfen {sfen}")
            asked = time.monotonic()
            if limits.seconds:
                process.send(f"go mate {max(1, round(limits.seconds * 1000))}")
                deadline: float | None = asked + limits.seconds + LIMIT_GRACE
            else:
                process.send("go mate infinite")
                deadline = None
            stats = _Stats()
            stop_sent: float | None = None

            def result(status: SolveStatus, pv: tuple[str, ...] = (), **extra: str | bool) -> SolveResult:
                return SolveResult(status, sfen, pv, len(pv) if pv else None, nodes=stats.nodes,
                                   seconds=time.monotonic() - asked,
                                   extra={"engine": engine, "external": True, "exact": False, **extra})

            while True:
                now = time.monotonic()
                if stop_sent is None and (cancel.is_set() or (deadline is not None and now > deadline)):
                    process.send("stop")
                    stop_sent = now
                if stop_sent is not None and now - stop_sent > self.stop_grace:
                    process.kill()
                    if cancel.is_set():
                        return result(SolveStatus.CANCELLED, reason="killed")
                    raise CoreError("engine.no_answer", seconds=f"{self.stop_grace:g}")
                line = process.read(POLL)
                if line is None:
                    if process.eof:
                        if cancel.is_set():
                            return result(SolveStatus.CANCELLED)
                        raise CoreError("engine.exited", status=str(process.exit_code()), command="go mate")
                    continue
                words = line.split()
                if not words:
                    continue
                if words[0] == "info":
                    _read_info(words, stats)
                    pn, dn = _pn_dn(stats.text)
                    elapsed = time.monotonic() - asked
                    yield Progress(nodes=stats.nodes, nps=stats.nps, elapsed=elapsed, root_pn=pn, root_dn=dn,
                                   table_fill=min(1.0, stats.hashfull / 1000),
                                   stats=(("depth", float(stats.depth)),))
                elif words[0] == "checkmate":
                    answer = words[1:]
                    if cancel.is_set():
                        return result(SolveStatus.CANCELLED)
                    if answer == ["nomate"]:
                        return result(SolveStatus.NO_MATE)
                    if answer == ["timeout"]:
                        return result(SolveStatus.UNKNOWN, reason="timeout")
                    if answer == ["notimplemented"]:
                        raise CoreError("engine.not_implemented")
                    if not answer:
                        raise CoreError("engine.bad_answer", line=line)
                    check_mate_line(position, answer)
                    return result(SolveStatus.MATE, tuple(answer))
                elif words[0] == "bestmove":
                    if cancel.is_set():
                        return result(SolveStatus.CANCELLED)
                    raise CoreError("engine.bestmove")
                # Anything else (id lines, readyok, text an engine prints) is not an answer: skipped.
        finally:
            process.close()


__all__ = [
    "HANDSHAKE_SECONDS", "LIMIT_GRACE", "QUIT_GRACE", "STOP_GRACE", "EngineInfo", "EngineOption", "EngineSolve",
    "EngineSpec", "UsiProcess", "check_mate_line", "engine_solver", "parse_option", "parse_option_text",
    "probe_engine",
]

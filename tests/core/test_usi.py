"""The USI mate engine: protocol replies, stop/quit, and a real search."""

from __future__ import annotations

import io
import itertools
import subprocess
import sys
import threading
from collections.abc import Generator

import pytest

from tsume_studio.core.shogi.moves import parse_move
from tsume_studio.core.shogi.position import Position
from tsume_studio.core.search.contract import Limits, Progress, SolveResult, SolveStatus
from tsume_studio.core.cli.usi import UsiEngine

THREE_PLY = "7k1/4R4/9/9/9/9/9/9/9 b SNr2b4g3s3n4l18p 1"


def _lines(out: io.StringIO) -> list[str]:
    return out.getvalue().splitlines()


def _fake(status: SolveStatus, pv: tuple[str, ...] = (), wait_cancel: bool = False):
    """A stand-in solver that ends with ``status`` (protocol tests only)."""

    def solve_iter(position: Position, limits: Limits, cancel: threading.Event
                   ) -> Generator[Progress, None, SolveResult]:
        yield Progress(nodes=1, nps=1.0, elapsed=0.0, root_pn=1, root_dn=1)
        if wait_cancel:
            while not cancel.wait(0.01):
                yield Progress(nodes=2, nps=1.0, elapsed=0.0, root_pn=1, root_dn=1)
            return SolveResult(SolveStatus.CANCELLED, position.sfen())
        return SolveResult(status, position.sfen(), pv=pv, length=len(pv) or None)

    return solve_iter


def test_handshake() -> None:
    out = io.StringIO()
    engine = UsiEngine(out)
    assert engine.handle("usi")
    assert engine.handle("isready")
    lines = _lines(out)
    assert lines[0].startswith("id name ")
    assert "usiok" in lines and lines[-1] == "readyok"


@pytest.mark.parametrize("status, pv, expected", [
    (SolveStatus.MATE, ("N*3c", "2a3a", "S*2b"), "checkmate N*3c 2a3a S*2b"),
    (SolveStatus.NO_MATE, (), "checkmate nomate"),
    (SolveStatus.UNKNOWN, (), "checkmate timeout"),
])
def test_checkmate_line(status: SolveStatus, pv: tuple[str, ...], expected: str) -> None:
    out = io.StringIO()
    engine = UsiEngine(out, solve_iter=_fake(status, pv))
    engine.handle(f"position sfen {THREE_PLY}")
    engine.handle("go mate 1000")
    engine.wait()
    assert [ln for ln in _lines(out) if ln.startswith("checkmate")] == [expected]


def test_stop_answers_timeout_never_nomate() -> None:
    out = io.StringIO()
    engine = UsiEngine(out, solve_iter=_fake(SolveStatus.MATE, wait_cancel=True))
    engine.handle(f"position sfen {THREE_PLY}")
    engine.handle("go mate infinite")
    engine.handle("stop")
    assert [ln for ln in _lines(out) if ln.startswith("checkmate")] == ["checkmate timeout"]


def test_bad_position_is_reported_not_crashed() -> None:
    out = io.StringIO()
    engine = UsiEngine(out, solve_iter=_fake(SolveStatus.MATE, ("x",)))
    engine.handle("position sfen not/a/position b - 1")
    engine.handle("go mate 100")
    engine.wait()
    lines = _lines(out)
    assert any(ln.startswith("info string bad position") for ln in lines)
    assert lines[-1] == "checkmate timeout"


def test_position_with_moves() -> None:
    out = io.StringIO()
    engine = UsiEngine(out, solve_iter=_fake(SolveStatus.NO_MATE))
    engine.handle("position startpos moves 7g7f 3c3d")
    assert engine._position is not None
    assert engine._position.sfen().startswith("lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/")
    engine.handle("position startpos moves 7g7f 7g7f")
    assert engine._position is None
    assert "bad position" in _lines(out)[-1]


def test_real_engine_over_stdin() -> None:
    pytest.importorskip("tsume_studio.core.search.dfpn")
    with subprocess.Popen([sys.executable, "-m", "tsume_studio.core.cli.main", "usi"], stdin=subprocess.PIPE,
                          stdout=subprocess.PIPE, text=True) as proc:
        assert proc.stdin is not None and proc.stdout is not None
        try:
            proc.stdin.write(f"usi\nisready\nposition sfen {THREE_PLY}\ngo mate 20000\n")
            proc.stdin.flush()
            mate = ""
            for line in proc.stdout:
                if line.startswith("checkmate"):
                    mate = line.strip()
                    break
            proc.stdin.write("quit\n")
            proc.stdin.flush()
            assert proc.wait(timeout=30) == 0
        finally:
            proc.kill()
    moves = mate.split()[1:]
    assert len(moves) == 3 and moves[0] == "N*3c"
    # The line must replay legally and end in mate.
    pos = Position.from_sfen(THREE_PLY)
    for m in moves:
        pos.push(parse_move(pos, m))
    assert pos.board().is_game_over()


def _tail(n: int) -> str:
    from pathlib import Path
    for line in (Path(__file__).parents[1] / "data" / "microcosmos.tsv").read_text(encoding="utf-8").splitlines():
        cells = line.split("\t")
        if cells[0] == f"microcosmos-tail-{n}":
            return cells[1]
    raise AssertionError(f"microcosmos-tail-{n} missing")


def test_every_reply_is_ascii_and_bounded() -> None:
    """Junk, text that is not UTF-8, non-ASCII text and a 100 kB line: every reply is short printable ASCII."""
    junk = [
        "position sfen あいう".encode(),
        b"position sfen \xff\xfe\x81\x40 b - 1",
        "setoption name ハッシュ value 十".encode(),
        "命令 です".encode(),
        b"go mate \x00\x01\x7f",
        b"position sfen " + b"9/" * 50_000 + b" b - 1",
        b"position sfen " + "歩".encode() * 35_000,
        b"position startpos moves " + b"7g7f " * 20_000,
        b"\x1b[31mred\x1b[0m",
        b"go mate abc",
    ]
    lines = b"usi\n" + b"\n".join(junk) + b"\nisready\nquit\n"
    proc = subprocess.run([sys.executable, "-m", "tsume_studio.core.cli.main", "usi"], input=lines,
                          capture_output=True, timeout=120)
    assert proc.returncode == 0
    replies = proc.stdout.split(b"\n")
    assert replies[-1] == b""
    replies = replies[:-1]
    assert b"readyok" in replies and b"usiok" in replies
    for reply in replies:
        assert all(0x20 <= c < 0x7f for c in reply), reply[:80]
        if reply.startswith(b"info string"):
            assert len(reply) <= 12 + 200, len(reply)
        else:
            assert len(reply) <= 200, reply[:80]
    bad = [r for r in replies if r.startswith(b"info string bad position")]
    assert len(bad) >= 4   # the line that is not UTF-8 is ignored with its own reply
    assert any(b"\\u3042" in r for r in bad)   # あ, escaped


# Stops timed per run of the stop test; their median must be within STOP_MS.  One stop's wall
# time on a busy machine is mostly the operating system's: at load 15-20 on 2 cores, single
# stops of the real engine took 39-572 ms (median 74 of 8), its search thread kept waiting up
# to 183 ms for a CPU within one of them, and one stop in 2 of 5 runs of this test went over
# 100 ms (104, 122 ms).  The median of several stops is what the engine answers for; an engine
# that looks at the flag too seldom is late every time (the double below).
STOPS = 5
STOP_MS = 100.0
INFO_LINES = 5


def _stop_latencies(argv: list[str], sfen: str) -> tuple[list[float], list[float]]:
    """Run the engine ``argv``; returns the gaps between its first INFO_LINES info lines (s) and STOPS stop times (ms).

    Each of STOPS searches of ``sfen`` (``go mate infinite``) is stopped once it has reported (the
    first after INFO_LINES info lines) and must answer ``checkmate timeout``.
    """
    import queue
    import time

    lines: queue.Queue[tuple[float, str]] = queue.Queue()
    with subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1) as proc:
        assert proc.stdin is not None and proc.stdout is not None
        out = proc.stdout

        def read() -> None:
            for line in out:
                lines.put((time.monotonic(), line))

        threading.Thread(target=read, daemon=True).start()

        def next_line(prefix: str) -> tuple[float, str]:
            while True:
                at, line = lines.get(timeout=30)   # a search that never reports or never answers fails here
                if line.startswith(prefix):
                    return at, line.strip()
                assert not line.startswith("checkmate"), line

        try:
            proc.stdin.write(f"usi\nisready\nposition sfen {sfen}\n")
            proc.stdin.flush()
            next_line("readyok")
            gaps: list[float] = []
            stops: list[float] = []
            for k in range(STOPS):
                proc.stdin.write("go mate infinite\n")
                proc.stdin.flush()
                times = [next_line("info nodes")[0] for _ in range(INFO_LINES if k == 0 else 1)]
                gaps = gaps or [b - a for a, b in itertools.pairwise(times)]
                t0 = time.monotonic()
                proc.stdin.write("stop\n")
                proc.stdin.flush()
                at, answer = next_line("checkmate")
                assert answer == "checkmate timeout"
                stops.append((at - t0) * 1000)
            proc.stdin.write("quit\n")
            proc.stdin.flush()
            assert proc.wait(timeout=30) == 0
        finally:
            proc.kill()
    return gaps, stops


def test_info_lines_keep_coming_and_stop_is_answered_at_once() -> None:
    """A long real search: an info line about every second, and checkmate within 100 ms of stop."""
    import statistics

    gaps, stops = _stop_latencies([sys.executable, "-m", "tsume_studio.core.cli.main", "usi"], _tail(301))
    print(f"info gaps {[round(g, 2) for g in gaps]} s; stops {[round(ms) for ms in stops]} ms")
    assert len(gaps) == INFO_LINES - 1 and max(gaps) < 1.5, gaps
    assert statistics.median(stops) < STOP_MS, f"stop answered after {[round(ms) for ms in stops]} ms"


# An engine whose search looks at the stop flag only every 0.3 s (the info lines still come).
_LATE_STOP = """
import time
from tsume_studio.core.cli import usi
from tsume_studio.core.search.contract import Progress, SolveResult, SolveStatus

def solve_iter(position, limits, cancel):
    while True:
        yield Progress(nodes=1, nps=1.0, elapsed=0.0, root_pn=1, root_dn=1)
        time.sleep(0.3)
        if cancel.is_set():
            return SolveResult(SolveStatus.CANCELLED, position.sfen())

usi.default_solve_iter = solve_iter
raise SystemExit(usi.run())
"""


def test_the_stop_measure_catches_an_engine_that_stops_late() -> None:
    import statistics

    _gaps, stops = _stop_latencies([sys.executable, "-c", _LATE_STOP], THREE_PLY)
    assert statistics.median(stops) >= STOP_MS, stops

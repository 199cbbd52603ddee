"""``tsume-usi`` driven by a real USI client (cshogi's ``cshogi.usi.Engine``), as a GUI drives it.

Each session runs in a child process with a time limit: cshogi's client
blocks forever when an answer never comes, and the limit turns that into a
failure instead of a hung test run.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import cshogi
import pytest
from tsume_studio.core.cli.usi import UsiEngine

THREE_PLY = "7k1/4R4/9/9/9/9/9/9/9 b SNr2b4g3s3n4l18p 1"
ONE_PLY = "8k/6G2/R7P/9/9/9/9/9/9 b r2b3g4s4n4l17p 1"
NO_MATE = "4k4/9/9/9/9/9/9/9/9 b P 1"
# Microcosmos (1525 plies): no search finishes it within these tests.
LONG = "g1+P1k1+P+P+L/1p3P3/+R+p2pp1pl/1NNsg+p2+R/+b+nL+P1+p3/1P3ssP1/2P1+Ps2N/4+P1P1L/+B5G1g b - 1"


def _mates(sfen: str, answer: str, plies: int) -> bool:
    """True when ``answer`` is a line of ``plies`` checks ending in checkmate."""
    board = cshogi.Board(sfen)
    moves = answer.split()
    for k, usi in enumerate(moves):
        move = board.move_from_usi(usi)
        if not board.is_legal(move):
            return False
        board.push(move)
        if k % 2 == 0 and not board.is_check():
            return False
    return len(moves) == plies and board.is_game_over()


def _engine_path() -> str:
    path = Path(sys.executable).with_name("tsume-usi")
    if not path.exists():
        found = shutil.which("tsume-usi")
        if found is None:
            pytest.skip("tsume-usi is not installed")
        return found
    return str(path)


def _client(body: str, timeout: float = 60.0) -> Any:
    """Run ``body`` with ``engine`` connected to tsume-usi; it sets ``result``, returned as JSON."""
    script = "import json, threading, time\nimport cshogi.usi\n" \
             f"engine = cshogi.usi.Engine({_engine_path()!r})\n" \
             + textwrap.dedent(body) + "\nprint(json.dumps(result))\n"
    # A strict UTF-8 locale, as on a desktop: the one in which undecodable input used to be fatal.
    env = dict(os.environ, LC_ALL="C.UTF-8", LANG="C.UTF-8")
    env.pop("PYTHONIOENCODING", None)
    proc = subprocess.run([sys.executable, "-c", script], check=False, capture_output=True, text=True,
                          timeout=timeout, env=env)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout.strip().splitlines()[-1])


def test_hundred_back_to_back_searches_each_get_their_answer() -> None:
    answers = _client(f"""
        engine.isready()
        result = []
        for k in range(100):
            sfen = {THREE_PLY!r} if k % 2 == 0 else {NO_MATE!r}
            engine.position(sfen="sfen " + sfen)
            result.append(engine.go_mate(byoyomi=10000))
        engine.quit()
    """)
    assert len(answers) == 100
    assert all(_mates(THREE_PLY, a, 3) for a in answers[::2]), answers[::2]
    assert answers[1::2] == ["nomate"] * 50


def test_stop_answers_timeout() -> None:
    result = _client(f"""
        engine.isready()
        engine.position(sfen="sfen " + {LONG!r})
        answers = []
        searching = threading.Thread(target=lambda: answers.append(engine.go_mate()))
        searching.start()
        time.sleep(1.0)
        engine.stop()
        searching.join()
        engine.position(sfen="sfen " + {ONE_PLY!r})
        answers.append(engine.go_mate(byoyomi=10000))
        engine.quit()
        result = answers
    """)
    assert result == ["timeout", "9c9a+"]


def test_quit_during_a_search_answers_then_exits() -> None:
    result = _client(f"""
        engine.isready()
        engine.position(sfen="sfen " + {LONG!r})
        answers = []
        proc = engine.proc
        searching = threading.Thread(target=lambda: answers.append(engine.go_mate()))
        searching.start()
        time.sleep(1.0)
        engine.quit()          # waits for the process to exit
        searching.join()
        result = [answers, proc.returncode]
    """)
    assert result == [["timeout"], 0]


def test_new_go_during_a_search_stops_it_and_both_are_answered() -> None:
    # Raw protocol: the second go arrives while the first search runs.
    result = _client(f"""
        engine.isready()
        engine.position(sfen="sfen " + {LONG!r})
        engine.proc.stdin.write(b"go mate infinite\\n")
        engine.proc.stdin.flush()
        time.sleep(0.5)
        engine.position(sfen="sfen " + {ONE_PLY!r})
        engine.proc.stdin.write(b"go mate 10000\\n")
        engine.proc.stdin.flush()
        result = []
        while len(result) < 2:
            line = engine.proc.stdout.readline().decode().strip()
            if line.startswith("checkmate"):
                result.append(line)
        engine.quit()
    """)
    assert result == ["checkmate timeout", "checkmate 9c9a+"]


def test_garbage_and_bytes_that_are_not_utf8_are_ignored() -> None:
    result = _client(f"""
        seen = []
        garbage = [b"\\xff\\xfe\\x80 not utf-8", b"\\x00\\x01\\x02", b"", b"   ", b"go", b"go mate",
                   b"go mate soon", b"position", b"position sfen", b"position sfen 9/9 b - 1",
                   b"position sfen 4k4/9/9/9/9/9/9/9/\\xc2\\xb2 b - 1",
                   b"setoption", b"setoption name USI_Hash value " + b"9" * 5000,
                   b"setoption name MateNodes value -3", "\\u8a70\\u307f".encode("utf-8"),
                   b"stop", b"gameover win", b"usinewgame", b"position startpos moves 7g7f 9z9z",
                   b"go mate " + b"9" * 5000]
        for raw in garbage:
            engine.proc.stdin.write(raw + b"\\n")
        engine.proc.stdin.flush()
        engine.isready(listener=seen.append)
        engine.position(sfen="sfen " + {THREE_PLY!r})
        answer = engine.go_mate(byoyomi=10000)
        engine.quit()
        result = [answer, seen]
    """)
    answer, seen = result
    assert _mates(THREE_PLY, answer, 3), answer
    assert "info string ignored a line that is not UTF-8" in seen
    assert seen[-1] == "readyok"


def test_engine_survives_a_closed_output() -> None:
    class Closed:
        def write(self, text: str) -> int:
            raise BrokenPipeError

        def flush(self) -> None:
            raise BrokenPipeError

    engine = UsiEngine(Closed())  # type: ignore[arg-type]
    assert engine.handle("isready") is False   # the GUI went away: time to exit
    assert engine.closed

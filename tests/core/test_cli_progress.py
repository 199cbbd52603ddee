"""The official answer's progress on the command line: ``tsume solve`` and ``tsume batch`` say which
question the shortest search asks ("mate within 29?") and the bounds it has proved, and keep those
bounds in the result when the limits stop it."""

from __future__ import annotations

import csv
import itertools
import json
import os
import re
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tsume_studio.core.cli.main import main
from tsume_studio.core.cli.running import phase_line
from tsume_studio.core.search.contract import Progress, SearchPhase

DATA = Path(__file__).resolve().parents[1] / "data"


def _row(name: str, row_id: str) -> str:
    with (DATA / name).open(encoding="utf-8") as f:
        return next(r for r in csv.DictReader(f, delimiter="\t") if r["id"] == row_id)["sfen"]


def _musou(row_id: str) -> str:
    return _row("musou.tsv", row_id)


def _micro(row_id: str) -> str:
    return _row("microcosmos.tsv", row_id)


def _snapshot(phase: SearchPhase, **stats: float) -> Progress:
    return Progress(nodes=1, nps=1.0, elapsed=1.0, root_pn=0, root_dn=1, phase=phase, stats=tuple(stats.items()))


def test_the_phase_line_names_the_question_and_the_bounds() -> None:
    assert phase_line(_snapshot(SearchPhase.MATE)) == "proving mate"
    assert (phase_line(_snapshot(SearchPhase.SHORTEST, asking=37, at_least=37, at_most=41))
            == "proving the shortest: mate within 37? (proved: at most 41 plies, at least 37)")
    assert (phase_line(_snapshot(SearchPhase.SHORTEST, asking=29, at_least=1, at_most=31))
            == "proving the shortest: mate within 29? (proved: at most 31 plies)")
    assert phase_line(_snapshot(SearchPhase.TREE)) == "building the proof tree"
    assert (phase_line(_snapshot(SearchPhase.CHECK, check_ply=12, check_plies=37))
            == "checking the given line: ply 12 of 37")
    assert phase_line(_snapshot(SearchPhase.CHECK)) == "checking the given line"


def test_the_status_line_says_what_was_proved() -> None:
    # A length search stopped once it had proved the length from both sides, before the answer's
    # main line was built (将棋無双 23番 at 60 CPU s): the length is the shortest, the line df-pn's.
    from tsume_studio.core.cli.solve import _status_text
    from tsume_studio.core.search.contract import SolveResult, SolveStatus

    def result(length: int, **extra: bool | int) -> SolveResult:
        return SolveResult(SolveStatus.MATE, "4k4/9/9/9/9/9/9/9/9 b - 1", pv=("G*5b",), length=length, extra=extra)

    assert _status_text(result(25, exact=True)) == "mate in 25 (25手詰)"
    assert (_status_text(result(25, exact=False, at_least=25, at_most=25))
            == "mate in 25 (25手詰, proved shortest; its main line was not built in time)")
    assert (_status_text(result(29, exact=False, at_least=25, at_most=29))
            == "mate in 29 (29手詰, length not proved shortest); proved: at most 29 plies, at least 25")


def test_check_prints_what_it_asks(capsys: pytest.CaptureFixture[str]) -> None:
    # 将棋無双 23番 within 3 CPU s: the solve proves bounds of the length only, and the check goes on
    # with that stopped search for its own 3 s; each question it asks is printed as the solve's are.
    # (90番, used before, is answered exactly in about 3.5 s since paused questions keep their work.)
    with (DATA / "musou.tsv").open(encoding="utf-8") as f:
        row = next(r for r in csv.DictReader(f, delimiter="\t") if r["id"] == "musou-023")
    code = main(["check", "--progress", "--seconds", "3", "--cpu-time", row["sfen"], "--pv", row["pv"]])
    out, err = capsys.readouterr()
    assert code == 0
    lines = [line.split("s  ", 1)[1] for line in err.splitlines() if "s  " in line]
    assert lines[0] == "proving mate"
    asked = [line for line in lines if line.startswith("proving the shortest: mate within")]
    assert len(asked) >= 2, lines
    assert out.startswith(("unknown: the exact length was not proved", "exact length")), out


def test_plain_solve_prints_each_question_and_the_result_keeps_the_bounds(
        capsys: pytest.CaptureFixture[str]) -> None:
    # 将棋無双 23番: df-pn's proof is 29 plies at once; the exact length is climbed from below
    # ("mate within 11? 13? ...", each printed with the bound proved below it) and takes far more
    # than 3 CPU s (about a minute here; 90番, used before, about 3.5 s).
    code = main(["solve", "--progress", "--seconds", "3", "--cpu-time", _musou("musou-023")])
    out, err = capsys.readouterr()
    assert code == 0
    lines = [line.split("s  ", 1)[1] for line in err.splitlines() if "s  " in line]
    assert lines[0] == "proving mate"
    pattern = r"proving the shortest: mate within (\d+)\? \(proved: at most 29 plies, at least (\d+)\)"
    asked = [re.fullmatch(pattern, line) for line in lines]
    questions = [(int(m[1]), int(m[2])) for m in asked if m is not None]
    assert len(questions) >= 2 and all(n == lo for n, lo in questions), lines
    assert all(a[0] < b[0] for a, b in itertools.pairwise(questions)), lines
    status = out.splitlines()[0]
    assert "not proved shortest" in status and "; proved: at most 29" in status, status
    assert "df-pn's proof" in out       # the provisional tree is printed, labelled


def test_batch_lines_carry_the_bounds_of_a_length_not_proved(tmp_path: Path) -> None:
    problems = tmp_path / "one.tsv"
    # Microcosmos tail 61: df-pn proves it in well under a second, its shortest takes far longer
    # than this test waits (将棋無双 91番, used before, is now answered exactly in 0.4 s).
    problems.write_text("id\tsfen\tlength\nm61\t" + _micro("microcosmos-tail-61") + "\t61\n", encoding="utf-8")
    run = subprocess.run([sys.executable, "-m", "tsume_studio.core.cli.main", "batch", str(problems),
                          "--seconds", "1.5", "--cpu-time", "--jobs", "1"],
                         capture_output=True, text=True, timeout=120, check=True)
    line = json.loads(run.stdout.splitlines()[0])
    assert line["status"] == "mate" and line["exact"] is False
    # The tail's length is 61: the bounds proved in 1.5 s hold it.
    assert 1 <= line["at_least"] <= 61 <= line["at_most"]


def test_the_batch_bar_shows_the_question_being_asked(tmp_path: Path) -> None:
    pty = pytest.importorskip("pty")
    problems = tmp_path / "one.tsv"
    # Microcosmos tail 61: df-pn proves it in well under a second, its shortest takes far longer
    # than this test waits (将棋無双 91番, used before, is now answered exactly in 0.4 s).
    problems.write_text("id\tsfen\tlength\nm61\t" + _micro("microcosmos-tail-61") + "\t61\n", encoding="utf-8")
    master, slave = pty.openpty()
    with subprocess.Popen([sys.executable, "-m", "tsume_studio.core.cli.main", "batch", str(problems),
                           "--seconds", "30", "--jobs", "1"],
                          stdout=subprocess.DEVNULL, stderr=slave, stdin=subprocess.DEVNULL) as proc:
        os.close(slave)
        seen = b""
        try:
            end = time.monotonic() + 60.0
            while time.monotonic() < end and b"mate within" not in seen:
                ready, _, _ = select.select([master], [], [], 0.1)
                if ready:
                    try:
                        seen += os.read(master, 4096)
                    except OSError:
                        break
        finally:
            proc.terminate()
            proc.wait(timeout=30)
            os.close(master)
    asked = re.search(
        rb"m61: proving the shortest: mate within (\d+)\? \(proved: at most (\d+) plies(?:, at least (\d+))?\)", seen)
    assert asked is not None, seen[-400:]
    assert int(asked[1]) < int(asked[2])
    assert asked[3] is None or 1 < int(asked[3]) <= 61   # the tail's length is 61

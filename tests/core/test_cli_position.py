"""``tsume validate`` and ``tsume moves``: output, exit codes, one-line errors."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tsume_studio.core.cli.main import main

TSUME = "8k/6G2/R7P/9/9/9/9/9/9 b r2b3g4s4n4l17p 1"
START = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_validate_valid(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "validate", TSUME)
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert lines[0] == "後手の持駒：飛　角二　金三　銀四　桂四　香四　歩十七　"
    assert "| ・ ・ ・ ・ ・ ・ ・ ・v玉|一" in lines
    assert "| 飛 ・ ・ ・ ・ ・ ・ ・ 歩|三" in lines
    assert lines[-2:] == ["先手番", "valid"]


def test_validate_words_of_the_sfen(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "validate", *TSUME.split())
    assert code == 0 and out.endswith("valid\n")
    code, out, _ = run(capsys, "validate", "sfen", *TSUME.split())
    assert code == 0


def test_validate_and_moves_read_a_record_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    problem = tmp_path / "problem.sfen"
    problem.write_text(TSUME + "\n", encoding="utf-8")
    code, out, _ = run(capsys, "validate", str(problem))
    assert code == 0 and "| 飛 ・ ・ ・ ・ ・ ・ ・ 歩|三" in out and out.endswith("valid\n")
    assert run(capsys, "moves", "--checks", str(problem))[1] == run(capsys, "moves", "--checks", TSUME)[1]
    code, _, err = run(capsys, "validate", str(tmp_path / "none.kif"))
    assert code == 2 and "no such file" in err and "Traceback" not in err


def test_validate_lists_every_problem(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "validate", "P8/9/9/9/9/9/4P4/4P4/G3K4 b 4G 1")
    assert code == 1 and err == ""
    tail = out.splitlines()[-5:]
    assert tail == [
        "invalid: 4 problems",
        "  no-defender-king: the defender, White (gote), has no king",
        "  too-many-pieces: 5 golds in all, at most 4",
        "  nifu at 5h (５八): two pawns of Black (sente) on file 5 (二歩): ５七 and ５八",
        "  dead-piece at 9a (９一): the pawn on ９一 can never move",
    ]


def test_validate_check_problem(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "validate", "4k4/9/4R4/9/9/9/9/9/9 b - 1")
    assert code == 1
    assert out.splitlines()[-2:] == [
        "invalid: 1 problem",
        "  not-to-move-in-check at 5a (５一): the side not to move is in check (king on ５一)",
    ]


def test_moves_checks(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "moves", "--checks", TSUME)
    assert code == 0 and err == ""
    assert out.splitlines() == [
        "1c1b\t▲１二歩不成", "1c1b+\t▲１二歩成", "3b2a\t▲２一金", "3b2b\t▲２二金",
        "9c9a\t▲９一飛不成", "9c9a+\t▲９一飛成",
    ]


def test_moves_all_and_evasions(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "moves", START)
    assert code == 0 and len(out.splitlines()) == 30 and "7g7f\t▲７六歩" in out.splitlines()
    code, out, _ = run(capsys, "moves", "--evasions", "4k4/9/5N3/9/9/9/9/9/4R4 w g 1")
    assert code == 0
    assert out.splitlines() == ["5a4a\t△４一玉", "5a4b\t△４二玉", "5a6a\t△６一玉", "5a6b\t△６二玉"]
    code, out, err = run(capsys, "moves", "--evasions", START)
    assert code == 0 and out == ""
    assert err == "tsume: the side to move is not in check: no evasions\n"


@pytest.mark.parametrize("argv, message", [
    (["validate", "9/9 b - 1"], "expected 9 ranks in board part of sfen, got 2: '9/9'"),
    (["moves", "k8/9/9/9/9/9/9/9/9 b 19P 1"], "bad count '19' for 'P' in hands of sfen: '19P'"),
    (["moves", "--checks", "hello"], "expected 3 or 4 fields (board, side, hands, move number) in sfen: 'hello'"),
    (["moves", "4k4/9/9/9/9/9/9/9/9 b 8G 1"], "invalid position: 8 golds in all, at most 4"),
    (["moves", "--checks", "3kk4/9/9/9/9/9/9/9/9 b - 1"], "invalid position: White (gote) has 2 kings"),
    (["validate", " "], "no position given: expected SFEN such as "
                        f"'{START}'"),
])
def test_bad_input_is_one_line(capsys: pytest.CaptureFixture[str], argv: list[str], message: str) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert err == f"tsume: error: {message}\n"


@pytest.mark.parametrize("argv, message", [
    (["moves"], "the following arguments are required: sfen (see 'tsume moves --help')"),
    (["moves", "--checks", "--evasions", START],
     "argument --evasions: not allowed with argument --checks (see 'tsume moves --help')"),
    (["validate", "--frob", START], "unrecognized arguments: --frob (see 'tsume --help')"),
])
def test_usage_errors_are_one_line(capsys: pytest.CaptureFixture[str], argv: list[str], message: str) -> None:
    with pytest.raises(SystemExit) as info:
        main(argv)
    assert info.value.code == 2
    assert capsys.readouterr() == ("", f"tsume: error: {message}\n")


def test_installed_script() -> None:
    script = Path(sys.executable).with_name("tsume")
    if not script.exists():
        pytest.skip(f"no installed tsume script beside {sys.executable}")
    ok = subprocess.run([str(script), "moves", "--checks", TSUME], capture_output=True, text=True,
                        encoding="utf-8", timeout=60)
    assert ok.returncode == 0 and ok.stdout.splitlines()[0] == "1c1b\t▲１二歩不成"
    bad = subprocess.run([str(script), "validate", "9/9 b - 1"], capture_output=True, text=True,
                         encoding="utf-8", timeout=60)
    assert bad.returncode == 2 and bad.stdout == ""
    assert bad.stderr == "tsume: error: expected 9 ranks in board part of sfen, got 2: '9/9'\n"
    invalid = subprocess.run([str(script), "validate", "4k4/9/4R4/9/9/9/9/9/9", "b", "-", "1"],
                             capture_output=True, text=True, encoding="utf-8", timeout=60)
    assert invalid.returncode == 1 and "not-to-move-in-check" in invalid.stdout


def test_closed_pipe_is_not_an_error() -> None:
    """`tsume moves ... | head -1`: the reader leaving early is no error."""
    script = Path(sys.executable).with_name("tsume")
    if not script.exists():
        pytest.skip(f"no installed tsume script beside {sys.executable}")
    proc = subprocess.Popen([str(script), "moves", START], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()  # before reading anything
    try:
        err = proc.stderr.read()
        assert proc.wait(timeout=60) == 0
    finally:
        proc.stderr.close()
        proc.kill()
    assert err == b""

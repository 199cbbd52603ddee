"""The command line at its edges: signals, exit codes, internal errors, output files, batch at scale."""

from __future__ import annotations

import argparse
import json
import os
import pty
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from conftest import DATA
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tsume_studio.core.cli import main as cli_main
from tsume_studio.core.cli.main import main
from tsume_studio.core.records.formats import read_record, write_record
from tsume_studio.core.records.model import Record, RecordNode
from tsume_studio.core.shogi.moves import Move

THREE_PLY = "7k1/4R4/9/9/9/9/9/9/9 b SNr2b4g3s3n4l18p 1"
NO_MATE = "4k4/9/4P4/9/9/9/9/9/9 b 2r2b4g4s4n4l17p 1"
# Microcosmos (1525 plies): no search here finishes it.
LONG = (DATA / "microcosmos.tsv").read_text(encoding="utf-8").splitlines()[-1].split("\t")[1]


def _tsume() -> str:
    path = Path(sys.executable).with_name("tsume")
    if not path.exists():
        pytest.skip("the tsume script is not installed")
    return str(path)


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def _signal_after(argv: list[str], sig: int, wait_for: str | None = None, delay: float = 0.0,
                  cwd: Path | None = None) -> tuple[int, str, str]:
    """Start ``tsume argv``, send ``sig`` once ``wait_for`` appears on stdout (or after ``delay``)."""
    proc = subprocess.Popen([_tsume(), *argv], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, cwd=cwd)
    assert proc.stdout is not None and proc.stderr is not None
    seen = ""
    if wait_for is not None:
        while wait_for not in seen:
            line = proc.stdout.readline()
            assert line, "the command ended before it could be interrupted"
            seen += line
    time.sleep(delay)
    proc.send_signal(sig)
    try:
        out, err = proc.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        proc.kill()
        raise
    return proc.returncode, seen + out, err


# ---- Ctrl-C and SIGTERM ------------------------------------------------------------

@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_signal_cancels_solve_with_a_cancelled_result(sig: int) -> None:
    code, out, err = _signal_after(["solve", "--json", LONG], sig, delay=2.0)
    assert "Traceback" not in err and "Error" not in err
    assert code == 130
    assert json.loads(out)["status"] == "cancelled"


def test_ctrl_c_cancels_text_solve() -> None:
    code, out, err = _signal_after(["solve", LONG], signal.SIGINT, delay=2.0)
    assert code == 130 and out.splitlines()[0] == "cancelled"
    assert "Traceback" not in err


def _musou_row(row_id: str) -> list[str]:
    for line in (DATA / "musou.tsv").read_text(encoding="utf-8").splitlines():
        fields = line.split("\t")
        if fields[0] == row_id:
            return fields
    raise AssertionError(row_id)


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_a_signal_stops_check_with_what_it_had_proved(sig: int) -> None:
    # 将棋無双 23番 (published 25): df-pn proves it at once, the length search then climbs for minutes.
    _id, sfen, _length, pv, *_ = _musou_row("musou-023")
    code, out, err = _signal_after(["check", "--json", sfen, "--pv", pv, "--seconds", "120"], sig, delay=3.0)
    assert "Traceback" not in err and code == 130
    got = json.loads(out)
    assert got["interrupted"] is True and got["length"] is None and got["check"]["complete"] is False
    assert 1 <= got["at_least"] <= got["at_most"]          # the bounds proved by then, kept


def test_ctrl_c_stops_text_check_with_its_bounds() -> None:
    _id, sfen, _length, pv, *_ = _musou_row("musou-023")
    code, out, err = _signal_after(["check", sfen, "--pv", pv, "--seconds", "120"], signal.SIGINT, delay=3.0)
    assert code == 130 and "Traceback" not in err
    assert out.startswith("stopped: the exact length was not proved (proved: at most "), out


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_ctrl_c_ends_batch_with_its_summary_so_far(tmp_path: Path, jobs: str) -> None:
    tsv = tmp_path / "set.tsv"
    tsv.write_text(f"id\tsfen\tlength\nthree\t{THREE_PLY}\t3\nlong\t{LONG}\t1525\nnever\t{THREE_PLY}\t3\n",
                   encoding="utf-8")
    code, out, err = _signal_after(["batch", "--jobs", jobs, "--seconds", "120", str(tsv)],
                                   signal.SIGINT, wait_for='"three"', delay=1.0)
    assert "Traceback" not in err
    assert code == 130
    lines = [json.loads(line) for line in out.splitlines()]
    assert [ln.get("id") for ln in lines[:-1]] == ["three"]
    summary = lines[-1]
    assert summary["summary"] and summary["interrupted"] is True
    assert summary["done"] == 1 and summary["solved"] == 1 and summary["problems"] == 3


def test_ctrl_c_while_the_subcommands_load_is_quiet(capsys: pytest.CaptureFixture[str],
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    # The subcommand modules (and cshogi, the bulk of start-up) load inside
    # build_parser, after the handlers are set: Ctrl-C there is an ordinary interruption.
    def interrupted() -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(cli_main, "build_parser", interrupted)
    code, out, err = _run(capsys, "check", THREE_PLY)
    assert code == 130 and out == "" and err == "tsume: interrupted\n"


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_a_signal_before_the_search_starts_still_gives_the_cancelled_json(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, sig: int) -> None:
    """The signal lands while the subcommands load (most of the first 0.3 s): solve still prints its result."""
    real = cli_main.build_parser

    def loading() -> argparse.ArgumentParser:
        os.kill(os.getpid(), sig)   # handled before the next line runs
        return real()

    monkeypatch.setattr(cli_main, "build_parser", loading)
    code, out, err = _run(capsys, "solve", "--json", LONG)
    assert code == 130 and "Traceback" not in err
    result = json.loads(out)
    assert result["status"] == "cancelled" and result["sfen"] == LONG


def test_a_deferred_signal_still_interrupts_a_solve_that_ends_before_searching(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    real = cli_main.build_parser

    def loading() -> argparse.ArgumentParser:
        os.kill(os.getpid(), signal.SIGINT)
        return real()

    monkeypatch.setattr(cli_main, "build_parser", loading)
    code, out, err = _run(capsys, "solve", "--json", "not an sfen")
    assert code == 130 and out == "" and err.endswith("tsume: interrupted\n") and "error" in err


def test_a_signal_that_surfaces_as_another_error_is_still_an_interruption(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    # Ctrl-C while cshogi loads numpy comes out of the import as ImportError.
    def loading() -> None:
        try:
            os.kill(os.getpid(), signal.SIGTERM)
            time.sleep(5)
        except KeyboardInterrupt as exc:
            raise ImportError("numpy.core.multiarray failed to import") from exc

    monkeypatch.setattr(cli_main, "build_parser", loading)
    code, out, err = _run(capsys, "check", THREE_PLY)
    assert code == 130 and out == "" and err == "tsume: interrupted\n"


def test_start_up_loads_no_solver_before_the_handlers() -> None:
    # What the entry point imports before main() runs must stay small: cshogi (and
    # numpy) only after the signal handlers are in place.
    probe = ("import sys; import tsume_studio.core.cli.main; "
             "print(sorted(m for m in ('cshogi', 'numpy', 'tsume_studio.core.shogi.position') if m in sys.modules))")
    proc = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60, check=True)
    assert proc.stdout.strip() == "[]"


# ---- exit codes and internal errors ------------------------------------------------------------

def test_exit_codes(capsys: pytest.CaptureFixture[str]) -> None:
    assert _run(capsys, "validate", THREE_PLY)[0] == 0
    assert _run(capsys, "validate", "P8/9/9/9/9/9/9/9/9 b - 1")[0] == 1
    assert _run(capsys, "solve", THREE_PLY)[0] == 0
    assert _run(capsys, "solve", NO_MATE)[0] == 1
    assert _run(capsys, "validate", "9/9 b - 1")[0] == 2


def _broken(args: object) -> int:
    raise RuntimeError("a bug")


@pytest.mark.parametrize("debug", [False, True])
def test_internal_error_is_one_line_asking_for_a_report(capsys: pytest.CaptureFixture[str],
                                                        monkeypatch: pytest.MonkeyPatch, debug: bool) -> None:
    build = cli_main.build_parser

    def broken_parser():  # type: ignore[no-untyped-def]
        parser = build()
        parser.set_defaults(func=_broken)
        for action in parser._subparsers._group_actions:  # type: ignore[union-attr]
            for sub in action.choices.values():  # type: ignore[union-attr]
                sub.set_defaults(func=_broken)
        return parser

    monkeypatch.setattr(cli_main, "build_parser", broken_parser)
    code, _, err = _run(capsys, *(["--debug"] if debug else []), "validate", THREE_PLY)
    assert code == 3
    last = err.strip().splitlines()[-1]
    assert "internal error" in last and "RuntimeError: a bug" in last and "report this bug" in last
    if debug:
        assert "Traceback" in err
    else:
        assert "Traceback" not in err and len(err.strip().splitlines()) == 1 and "--debug" in last


def test_a_bug_on_one_row_does_not_lose_the_rest_of_a_batch(capsys: pytest.CaptureFixture[str],
                                                             monkeypatch: pytest.MonkeyPatch,
                                                             tmp_path: Path) -> None:
    from tsume_studio.core.cli import batch

    solve = batch.run_solver
    calls = []

    def broken_on_the_first(*args, **kw):  # type: ignore[no-untyped-def]
        calls.append(1)
        if len(calls) == 1:
            raise AssertionError("no line of length 12")
        return solve(*args, **kw)

    monkeypatch.setattr(batch, "run_solver", broken_on_the_first)
    tsv = tmp_path / "two.tsv"
    one_ply = "8k/9/8P/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1"
    tsv.write_text(f"id\tsfen\tlength\nbroken\t{THREE_PLY}\t3\nfine\t{one_ply}\t1\n", encoding="utf-8")
    code, out, _ = _run(capsys, "batch", "--jobs", "1", "--json", str(tsv))
    lines = [json.loads(x) for x in out.splitlines()]
    assert code == 3 and len(lines) == 3
    assert lines[0]["id"] == "broken" and lines[0]["status"] == "error" and lines[0]["internal_error"] is True
    assert "AssertionError: no line of length 12" in lines[0]["error"] and "report" in lines[0]["error"]
    assert lines[1]["id"] == "fine" and lines[1]["status"] == "mate" and lines[1]["length"] == 1
    assert lines[2]["summary"] and lines[2]["internal_errors"] == 1 and lines[2]["solved"] == 1


# ---- output files ------------------------------------------------------------------

def test_read_only_target_is_refused_before_solving(tmp_path: Path) -> None:
    target = tmp_path / "answer.kifu"
    target.write_text("keep me", encoding="utf-8")
    target.chmod(0o444)
    start = time.process_time()
    proc = subprocess.run([_tsume(), "solve", "--kif", str(target), LONG], capture_output=True, text=True,
                          timeout=60, check=False)
    assert proc.returncode == 2
    assert f"cannot write {str(target)!r}: the file is read-only" in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1
    assert target.read_text(encoding="utf-8") == "keep me"
    assert time.process_time() - start < 30   # refused at once, not after a search


@pytest.mark.parametrize("name, message", [
    ("missing/answer.kif", "no such folder"),
    ("answer.txt", "unknown extension '.txt'"),
    ("folder.kif", "it is a folder"),
])
def test_unwritable_targets_name_the_users_path(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch, name: str, message: str) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "folder.kif").mkdir()
    code, out, err = _run(capsys, "solve", "--kif", name, THREE_PLY)
    assert code == 2 and out == ""
    assert f"cannot write {name!r}" in err and message in err
    assert not list(tmp_path.glob(".*.tmp"))


def test_convert_refuses_a_read_only_target(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    source = tmp_path / "in.sfen"
    source.write_text(THREE_PLY + "\n", encoding="utf-8")
    target = tmp_path / "out.kifu"
    target.write_text("keep me", encoding="utf-8")
    target.chmod(0o444)
    code, _, err = _run(capsys, "convert", str(source), str(target))
    assert code == 2 and "read-only" in err and repr(str(target)) in err
    assert target.read_text(encoding="utf-8") == "keep me"


def test_write_errors_name_the_users_file_not_the_temporary_one(tmp_path: Path) -> None:
    folder = tmp_path / "gone"
    with pytest.raises(OSError) as info:
        write_record(folder / "x.kifu", read_record_for_test(tmp_path))
    assert info.value.filename == str(folder / "x.kifu")


def read_record_for_test(tmp_path: Path) -> Record:
    path = tmp_path / "p.sfen"
    path.write_text(THREE_PLY + "\n", encoding="utf-8")
    return read_record(path)


def test_sigterm_while_writing_leaves_no_temporary_file(tmp_path: Path) -> None:
    # A record big enough that converting it takes a while; SIGTERM at several moments.
    record = read_record_for_test(tmp_path)
    record.root.children.extend(RecordNode(move=Move.from_usi("N*3c")) for _ in range(3000))
    big = tmp_path / "big.kifu"
    write_record(big, record)
    for delay in (0.1, 0.2, 0.3, 0.5, 0.8, 1.2):
        code, _, err = _signal_after(["convert", str(big), "out.kif"], signal.SIGTERM, delay=delay, cwd=tmp_path)
        assert "Traceback" not in err and "internal error" not in err
        # -SIGTERM: the signal came after the handlers were gone, as the process ended.
        assert code in (0, 130, -signal.SIGTERM)
        assert not list(tmp_path.glob(".*.tmp")), delay


def test_a_signal_inside_a_weakref_callback_is_delivered_after_it_silently(
        capsys: pytest.CaptureFixture[str]) -> None:
    """The import system runs weak-reference callbacks; an interrupt there must not print or vanish."""
    import weakref

    from tsume_studio.core.cli import signals

    class Thing:
        pass

    ran: list[bool] = []

    def callback(dead: object) -> None:
        signal.raise_signal(signal.SIGTERM)
        for _ in range(100_000):              # the handler runs here, inside the callback, at the latest
            pass
        ran.append(True)                      # not reached: the interrupt ends the callback

    interrupted = False
    with signals.handled():
        thing = Thing()
        ref = weakref.ref(thing, callback)
        try:
            del thing                              # the callback runs here
            deadline = time.monotonic() + 5.0
            while time.monotonic() < deadline:     # the interrupt comes back within 5 ms or so
                time.sleep(0.001)
        except KeyboardInterrupt:
            interrupted = True
        assert ref() is None
    assert interrupted and not ran
    assert signals.received() == signal.SIGTERM
    _, err = capsys.readouterr()
    assert "Exception ignored" not in err and "Traceback" not in err


@pytest.mark.parametrize("writer", ["record", "json"])
def test_interrupted_just_after_the_temporary_file_is_made_leaves_nothing(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, writer: str) -> None:
    """Ctrl-C or SIGTERM landing just after the temporary file was created (the test above, under load)."""
    from tsume_studio.core.cli.files import write_atomic

    record = read_record_for_test(tmp_path)
    real_open = os.open

    def open_then_interrupted(path: Any, flags: int, *args: Any, **kw: Any) -> int:
        fd = real_open(path, flags, *args, **kw)
        if flags & os.O_CREAT:
            os.close(fd)
            raise KeyboardInterrupt   # as the signal handler raises it at the next bytecode
        return fd

    monkeypatch.setattr(os, "open", open_then_interrupted)
    with pytest.raises(KeyboardInterrupt):
        if writer == "record":
            write_record(tmp_path / "out.kif", record)
        else:
            write_atomic(str(tmp_path / "out.json"), b"{}")
    monkeypatch.undo()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["p.sfen"]


# ---- batch ---------------------------------------------------------------------------

def _rows(out: str) -> list[dict[str, object]]:
    lines = [json.loads(line) for line in out.splitlines()]
    assert lines[-1]["summary"] is True
    # Times and node counts vary from run to run (the solver pauses on a clock); answers do not.
    return [{k: v for k, v in ln.items() if k not in ("seconds", "cpu_seconds", "nodes")} for ln in lines[:-1]]


def test_batch_jobs_give_the_same_rows_in_input_order(capsys: pytest.CaptureFixture[str]) -> None:
    one = _rows(_run(capsys, "batch", "--first", "12", "--raw", str(DATA / "mate.tsv"))[1])
    three = _rows(_run(capsys, "batch", "--first", "12", "--raw", "--jobs", "3", str(DATA / "mate.tsv"))[1])
    assert len(one) == 12 and one == three
    ids = [r.split("\t")[0] for r in (DATA / "mate.tsv").read_text(encoding="utf-8").splitlines()[1:13]]
    assert [r["id"] for r in three] == ids


def test_batch_rows_say_whether_the_answer_is_exact(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    tsv = tmp_path / "set.tsv"
    tsv.write_text(f"id\tsfen\tlength\nthree\t{THREE_PLY}\t3\n", encoding="utf-8")
    row = _rows(_run(capsys, "batch", str(tsv))[1])[0]
    assert row["exact"] is True and row["alternatives_checked"] is True


def test_batch_reads_record_files_and_folders(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    folder = tmp_path / "problems"
    (folder / "more").mkdir(parents=True)
    record = read_record_for_test(tmp_path)
    record.header["手数"] = "3"
    for name in ("a.kif", "b.kifu", "more/c.ki2", "more/d.csa"):
        write_record(folder / name, record)
    (folder / "notes.txt").write_text("not a problem", encoding="utf-8")
    (folder / "bad.kifu").write_text("this is not a record", encoding="utf-8")
    tsv = tmp_path / "set.tsv"
    tsv.write_text(f"id\tsfen\tlength\nthree\t{THREE_PLY}\t3\n", encoding="utf-8")
    code, out, _ = _run(capsys, "batch", str(tsv), str(folder), str(folder / "a.kif"))
    assert code == 0
    rows = _rows(out)
    assert [r["id"] for r in rows] == ["three", *(str(folder / n) for n in
                                                  ("a.kif", "b.kifu", "bad.kifu", "more/c.ki2", "more/d.csa")),
                                       str(folder / "a.kif")]
    assert all(r["status"] == "mate" and r["length"] == 3 and r["expected"] == 3
               for r in rows if r["id"] != str(folder / "bad.kifu"))
    assert rows[3]["status"] == "error"


@pytest.mark.parametrize("argv, message", [
    (["batch", "/nonexistent"], "no such file or folder: '/nonexistent'"),
    (["batch", "--jobs", "-1", str(DATA / "mate.tsv")], "--jobs must be between"),
])
def test_batch_mistakes(capsys: pytest.CaptureFixture[str], argv: list[str], message: str) -> None:
    code, _, err = _run(capsys, *argv)
    assert code == 2 and message in err and len(err.strip().splitlines()) == 1


def test_batch_empty_folder(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, _, err = _run(capsys, "batch", str(tmp_path))
    assert code == 2 and "no problem files" in err


def test_batch_progress_bar_on_a_terminal_only(tmp_path: Path) -> None:
    tsv = tmp_path / "set.tsv"
    tsv.write_text(f"id\tsfen\tlength\na\t{THREE_PLY}\t3\nb\t{THREE_PLY}\t3\n", encoding="utf-8")
    master, slave = pty.openpty()
    try:
        proc = subprocess.run([_tsume(), "batch", str(tsv)], stdout=subprocess.PIPE, stderr=slave,
                              timeout=60, check=False)
        os.close(slave)
        slave = -1
        chunks = b""
        while True:
            try:
                data = os.read(master, 4096)
            except OSError:
                break
            if not data:
                break
            chunks += data
    finally:
        os.close(master)
        if slave >= 0:
            os.close(slave)
    assert proc.returncode == 0
    bar = chunks.decode("utf-8", "replace")
    assert "2/2" in bar and "[" in bar
    assert b"2/2" not in proc.stdout   # the bar never reaches standard output
    piped = subprocess.run([_tsume(), "batch", str(tsv)], capture_output=True, timeout=60, check=False)
    assert piped.stderr == b""


# ---- fuzzed input through the command line ------------------------------------------------------

CLI_ALPHABET = "0123456789²１+/ -bwPLNSGBRKplnsgbrk\u3000"


@settings(max_examples=150, deadline=None, database=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(st.lists(st.text(CLI_ALPHABET, min_size=1, max_size=30), min_size=1, max_size=5),
       st.sampled_from([["validate"], ["moves", "--checks"], ["solve", "--nodes", "200", "--raw"]]))
def test_fuzzed_positions_never_crash_the_command_line(capsys: pytest.CaptureFixture[str], words: list[str],
                                                       command: list[str]) -> None:
    code = main([*command, "--", *words])
    _, err = capsys.readouterr()
    assert code in (0, 1, 2), err
    assert "Traceback" not in err and "internal error" not in err
    if code == 2:
        assert len(err.strip().splitlines()) == 1 and err.startswith("tsume: error: ")


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="counts threads through Linux's /proc")
def test_the_command_line_starts_no_blas_threads() -> None:
    # cshogi imports numpy, whose OpenBLAS would start a thread per core; nothing here uses them.
    code = ("import os\nfrom tsume_studio.core.cli.main import main\n"
            "main(['moves', '" + THREE_PLY + "'])\nprint(len(os.listdir('/proc/self/task')))\n")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENBLAS", "OMP_"))}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True).stdout
    assert int(out.splitlines()[-1]) == 1

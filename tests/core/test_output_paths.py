"""One check for every command that writes: FIFOs and folders refused, symbolic links written through."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tsume_studio.core.records.formats import read_record
from tsume_studio.core.shogi.position import Position

THREE = "7k1/4R4/9/9/9/9/9/9/9 b SNr2b4g3s3n4l18p 1"


def tsume(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "tsume_studio.core.cli.main", *args], cwd=cwd,
                          capture_output=True, text=True, timeout=120)


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    (tmp_path / "p.sfen").write_text(THREE + "\n", encoding="utf-8")
    return tmp_path


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
@pytest.mark.parametrize("command", [["convert", "p.sfen"], ["solve", "--file", "p.sfen", "--kif"]])
def test_a_fifo_is_refused_and_left_alone(folder: Path, command: list[str]) -> None:
    os.mkfifo(folder / "out.kif")
    proc = tsume(*command, "out.kif", cwd=folder)
    assert proc.returncode != 0 and "Traceback" not in proc.stderr
    assert "not a regular file" in proc.stderr
    assert (folder / "out.kif").is_fifo()


@pytest.mark.parametrize("command", [["convert", "p.sfen"], ["solve", "--file", "p.sfen", "--kif"]])
def test_a_symbolic_link_is_written_through(folder: Path, command: list[str]) -> None:
    (folder / "real.kif").write_text("old", encoding="utf-8")
    (folder / "link.kif").symlink_to("real.kif")
    proc = tsume(*command, "link.kif", cwd=folder)
    assert proc.returncode == 0, proc.stderr
    assert (folder / "link.kif").is_symlink()
    assert read_record(folder / "real.kif").start == Position.from_sfen(THREE)


@pytest.mark.parametrize("command", [["convert", "p.sfen"], ["solve", "--file", "p.sfen", "--kif"]])
def test_a_link_to_nothing_is_refused(folder: Path, command: list[str]) -> None:
    (folder / "dangling.kif").symlink_to("nothing.kif")
    proc = tsume(*command, "dangling.kif", cwd=folder)
    assert proc.returncode != 0 and "symbolic link to nothing" in proc.stderr
    assert not (folder / "nothing.kif").exists()


def test_bench_json_is_checked_before_the_run(folder: Path) -> None:
    (folder / "out.json").mkdir()
    proc = tsume("bench", "p.sfen", "--json", "out.json", cwd=folder)
    assert proc.returncode != 0 and "folder" in proc.stderr and "Traceback" not in proc.stderr


def test_solve_file_that_is_a_folder_says_so(folder: Path) -> None:
    (folder / "d").mkdir()
    proc = tsume("solve", "--file", "d", cwd=folder)
    assert proc.returncode != 0 and "is a folder" in proc.stderr and "no such file" not in proc.stderr

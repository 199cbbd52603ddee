"""tools/bench_engines.py: the kernel's df-pn switches from the command line reach the search."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]
TOOL = ROOT / "tools" / "bench_engines.py"
THREE_PLY = "7k1/4R4/9/9/9/9/9/9/9 b SNr2b4g3s3n4l18p 1"


def load_tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_engines", TOOL)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


be = load_tool()


def test_options_are_read_as_the_binding_takes_them() -> None:
    assert be.parse_kernel_options("") == {}
    assert be.parse_kernel_options(" epsilon=0.5 , mate3=off,tca=ON,max_ply=80,delay=all") == {
        "epsilon": 0.5, "mate3": False, "tca": True, "max_ply": 80, "delay": "all"}


@pytest.mark.parametrize(("text", "says"), [
    ("speed=2", "unknown kernel option 'speed'"),
    ("mate3=maybe", "takes on or off"),
    ("epsilon=wide", "takes a number"),
    ("max_ply=1.5", "takes a whole number"),
    ("epsilon", "is not NAME=VALUE"),
    ("epsilon=", "is not NAME=VALUE"),
])
def test_a_wrong_option_is_named(text: str, says: str) -> None:
    with pytest.raises(ValueError, match=says):
        be.parse_kernel_options(text)


def _run(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    problems = tmp_path / "three.tsv"
    problems.write_text(f"id\tsfen\tlength\tsource\nthree\t{THREE_PLY}\t3\ttest\n", encoding="utf-8")
    return subprocess.run([sys.executable, str(TOOL), str(problems), "--engines", "kernel", "--seconds", "10", *args],
                          capture_output=True, text=True, timeout=120)


def test_the_options_reach_the_kernels_search(tmp_path: Path) -> None:
    default = _run(tmp_path)
    assert default.returncode == 0, default.stderr
    header, row = (json.loads(line) for line in default.stdout.splitlines())
    assert header["kernel_options"] == {} and row["status"] == "proven" and row["pv_length"] == 3
    # A mate in three is not proved by a search that stops one ply deep: the limit was the search's.
    shallow = _run(tmp_path, "--kernel-options", "max_ply=1")
    assert shallow.returncode == 0, shallow.stderr
    header, row = (json.loads(line) for line in shallow.stdout.splitlines())
    assert header["kernel_options"] == {"max_ply": 1} and row["status"] != "proven"


def test_bad_options_and_engines_are_usage_errors(tmp_path: Path) -> None:
    for args, says in ((("--kernel-options", "mate3=maybe"), "takes on or off"),
                       (("--kernel-options", "epsilon=-1"), "epsilon must be between 0 and 100"),
                       (("--kernel-options", "delay=sometimes"), "kernel options:"),
                       (("--engines", "kernel,fast"), "unknown engine 'fast'")):
        done = _run(tmp_path, *args)
        assert done.returncode == 2 and says in done.stderr and "Traceback" not in done.stderr
        assert done.stdout == ""

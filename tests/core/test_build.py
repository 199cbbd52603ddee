"""The install with and without the C++ kernel: both run, and answer alike.

``pip install .`` compiles the kernel where a C++ compiler is at hand and
installs without it otherwise (setup.py); ``TSUME_PURE=1`` leaves it out of a
build and unloaded at run time.  Without it df-pn runs on the pure-Python
engine, which must give the same answers.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from tsume_studio.core import kernel

ROOT = Path(__file__).resolve().parents[2]
# mog-1033 of tests/data/mate.tsv, mate in 13: the official answer in about a second on either engine.
SFEN = "4RB1k1/5s3/7n1/5s1LP/9/7r1/9/9/6K2 b b4g2s3n3l17p 1"


def _tsume(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "tsume_studio.core.cli.main", *args], capture_output=True,
                          text=True, timeout=300, env=env, check=False)


def _solve(env: dict[str, str]) -> dict[str, object]:
    proc = _tsume("solve", "--json", "--seconds", "120", SFEN, env=env)
    assert proc.returncode == 0, proc.stderr
    result: dict[str, object] = json.loads(proc.stdout)
    return result


def _answer(result: dict[str, object]) -> tuple[object, ...]:
    """What both engines must agree on (the line may differ where a move may promote or not: 成不成非限定)."""
    return result["status"], result["length"], result["exact"], result["variations"], len(result["pv"])


def _without(env: dict[str, str], *names: str) -> dict[str, str]:
    return {k: v for k, v in env.items() if k not in names}


def test_pure_switch_leaves_the_kernel_unloaded_and_the_python_engine_answers() -> None:
    env = _without(dict(os.environ), "TSUME_ENGINE", "TSUME_PURE")
    pure_env = {**env, "TSUME_PURE": "1"}
    version = _tsume("--version", env=pure_env)
    assert version.returncode == 0, version.stderr
    assert "the C++ kernel is not loaded: TSUME_PURE is set" in version.stdout
    assert version.stdout.rstrip().endswith("df-pn on: python")
    pure = _solve(pure_env)
    assert pure["engine"] == "python" and pure["status"] == "mate"
    default = _solve(env)
    assert default["engine"] == ("kernel" if kernel.AVAILABLE else "python")
    assert _answer(default) == _answer(pure) == ("mate", 13, True, 52, 13)


@pytest.mark.slow
@pytest.mark.parametrize("cxx", ["", "false", "no-such-compiler"],
                         ids=["with-compiler", "compiler-fails", "no-compiler"])
def test_wheel_builds_the_kernel_or_installs_without_it(tmp_path: Path, cxx: str) -> None:
    """``pip wheel .`` compiles the kernel, or builds a pure Python wheel that says why and still solves."""
    env = _without(dict(os.environ), "TSUME_PURE", "TSUME_ENGINE", "CXX")
    if cxx:
        env["CXX"] = cxx
    # A copy of the sources, so that no earlier build's output in build/ is reused.
    src = tmp_path / "src"
    for name in ("core", "gui", "resources"):
        shutil.copytree(ROOT / name, src / name, ignore=shutil.ignore_patterns("__pycache__", "*.so", "*.pyd"))
    for name in ("pyproject.toml", "setup.py", "README.md", "LICENSE"):
        shutil.copy(ROOT / name, src / name)
    build = subprocess.run([sys.executable, "-m", "pip", "wheel", "-v", "--no-deps", "-w", str(tmp_path / "wheel"),
                            str(src)], capture_output=True, text=True, env=env, timeout=1800, check=False)
    assert build.returncode == 0, build.stderr[-4000:]
    (wheel,) = (tmp_path / "wheel").glob("*.whl")
    compiled = [n for n in zipfile.ZipFile(wheel).namelist() if n.endswith((".so", ".pyd"))]
    if cxx:
        assert compiled == []
        said = "no C++ compiler" if cxx == "no-such-compiler" else "the C++ kernel did not compile"
        assert f"tsume-studio: {said}" in build.stdout + build.stderr
    else:
        assert len(compiled) == 1 and compiled[0].startswith("tsume_studio/core/kernel/_kernel.")
    target = tmp_path / "site"
    subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target", str(target),
                    str(wheel)], check=True, timeout=300)
    installed = {**env, "PYTHONPATH": str(target)}
    version = _tsume("--version", env=installed)
    assert version.returncode == 0, version.stderr
    assert ("C++ kernel loaded" in version.stdout) == (not cxx), version.stdout
    result = _solve(installed)
    assert result["engine"] == ("python" if cxx else "kernel")
    reference = _solve({**env, "TSUME_ENGINE": "python"})
    assert _answer(result) == _answer(reference) == ("mate", 13, True, 52, 13)

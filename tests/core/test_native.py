"""df-pn's hot modules compiled with mypyc or not: the pure Python ones must import and solve alike.

The package may be installed with the hot modules compiled (setup.py); these
tests load the pure Python sources in a fresh interpreter, with the compiled
modules out of reach, and check that they solve with exactly the nodes and
line of the modules this process loaded, whichever those are.
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

from tsume_studio.core.search import native

ROOT = Path(__file__).resolve().parents[2]
# The 29-ply Microcosmos tail: proved in some 30,000 nodes.
SFEN = "g2+P+P+P+P1+L/1p5k1/+Rn2ppppl/2+Psg+p+R2/+b+nL6/1PP+B1ssP1/4+Ps2N/4+P1P1L/6G1g b Np 1497"

# Runs in a fresh interpreter: a deterministic search (node limit, no clock), as JSON.
SOLVE = f"""
import json, cshogi
from tsume_studio.core.search import dfpn, native
board = cshogi.Board({SFEN!r})
searcher = dfpn.DfPn(board.turn)
outcome = searcher.search(board, node_limit=300_000)
print(json.dumps({{"outcome": outcome.name, "nodes": searcher.nodes,
                  "pv": searcher.principal_variation(board), "compiled": native.compiled_modules(),
                  "describe": native.describe()}}))
"""

# Before SOLVE: the package folder core.search is read through a finder that knows
# only source files, so no compiled module can be found there.
PURE_ONLY = """
import importlib.machinery as machinery, sys
import tsume_studio.core.search as search
for folder in search.__path__:
    sys.path_importer_cache[folder] = machinery.FileFinder(
        folder, (machinery.SourceFileLoader, machinery.SOURCE_SUFFIXES))
"""


def _run(code: str, env: dict[str, str] | None = None) -> dict[str, object]:
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300,
                         env=env, check=True)
    result: dict[str, object] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def test_pure_python_modules_import_and_solve_like_the_loaded_ones() -> None:
    pure = _run(PURE_ONLY + SOLVE)
    assert pure["compiled"] == []
    assert pure["describe"] == "no (pure Python)"
    assert pure["outcome"] == "PROVEN"
    loaded = _run(SOLVE)
    assert loaded["compiled"] == list(native.compiled_modules())
    # Same source, same search: the compiled form may only be faster.
    assert (loaded["outcome"], loaded["nodes"], loaded["pv"]) == (pure["outcome"], pure["nodes"], pure["pv"])


def test_describe_names_the_compiled_modules() -> None:
    done = native.compiled_modules()
    assert set(done) <= set(native.HOT_MODULES)
    text = native.describe()
    if done:
        assert text.startswith("yes" if len(done) == len(native.HOT_MODULES) else "partly")
        assert all(name in text for name in done)
    else:
        assert text == "no (pure Python)"


@pytest.mark.slow
@pytest.mark.parametrize("compiler", ["", "false"], ids=["with-compiler", "compiler-fails"])
def test_install_compiles_or_falls_back(tmp_path: Path, compiler: str) -> None:
    """``pip wheel .`` compiles the hot modules, or builds a pure Python wheel when the compiler fails."""
    env = dict(os.environ)
    env.pop("TSUME_PURE", None)
    if compiler:
        env["CC"] = compiler
    # A copy of the sources, so that no earlier build's output in build/ is reused.
    src = tmp_path / "src"
    for name in ("core", "gui", "resources"):
        shutil.copytree(ROOT / name, src / name, ignore=shutil.ignore_patterns("__pycache__", "*.so"))
    for name in ("pyproject.toml", "setup.py", "README.md", "LICENSE"):
        shutil.copy(ROOT / name, src / name)
    subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(tmp_path / "wheel"),
                    str(src)], check=True, env=env, timeout=900)
    (wheel,) = (tmp_path / "wheel").glob("*.whl")
    compiled = [n for n in zipfile.ZipFile(wheel).namelist() if n.endswith((".so", ".pyd"))]
    assert bool(compiled) == (not compiler)
    target = tmp_path / "site"
    subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target", str(target),
                    str(wheel)], check=True, timeout=300)
    result = _run(SOLVE, env={**os.environ, "PYTHONPATH": str(target)})
    pure = _run(PURE_ONLY + SOLVE)
    assert result["describe"] == ("no (pure Python)" if compiler else
                                  f"yes (mypyc: {', '.join(native.HOT_MODULES)})")
    assert (result["nodes"], result["pv"]) == (pure["nodes"], pure["pv"])

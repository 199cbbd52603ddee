"""``make package``'s bundle: built, started, and used as a USI engine (slow: --runslow)."""

from __future__ import annotations

import os
import subprocess
import sys
import tarfile
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
THREE_PLY = "7k1/4R4/9/9/9/9/9/9/9 b SNr2b4g3s3n4l18p 1"


@pytest.fixture(scope="module")
def bundle(tmp_path_factory: pytest.TempPathFactory) -> Path:
    pytest.importorskip("PyInstaller")
    out = tmp_path_factory.mktemp("package")
    subprocess.run([sys.executable, str(ROOT / "packaging" / "build.py"), "--dist", str(out / "dist"),
                    "--work", str(out / "work")], check=True, cwd=ROOT, timeout=1800)
    return out / "dist"


@pytest.mark.slow
def test_archive_holds_three_executables_the_desktop_entry_and_the_icon(bundle: Path) -> None:
    [archive] = bundle.glob("tsume-studio-*.tar.gz")
    with tarfile.open(archive) as tar:
        names = set(tar.getnames())
    for name in ("tsume-studio", "tsume", "tsume-usi", "tsume-studio.desktop", "tsume-studio.svg", "install.sh"):
        assert f"tsume-studio/{name}" in names
    # One shared runtime, and none of the Qt modules the app does not use.
    assert not any("QtNetwork" in n or "QtQml" in n or "QtWebEngine" in n for n in names)


@pytest.mark.slow
def test_bundled_command_line_loads_the_kernel(bundle: Path) -> None:
    """The bundle carries the C++ kernel that `pip install .` built (where it was built)."""
    from tsume_studio.core import kernel

    proc = subprocess.run([str(bundle / "tsume-studio" / "tsume"), "--version"], capture_output=True, text=True,
                          timeout=120, check=False)
    assert proc.returncode == 0, proc.stderr
    assert ("C++ kernel loaded" in proc.stdout) == kernel.AVAILABLE, proc.stdout


@pytest.mark.slow
def test_bundled_app_starts(bundle: Path) -> None:
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    proc = subprocess.Popen([str(bundle / "tsume-studio" / "tsume-studio"), "--sample"], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    time.sleep(4)
    running = proc.poll() is None
    proc.terminate()
    _, err = proc.communicate(timeout=30)
    assert running, err.decode(errors="replace")
    assert b"Traceback" not in err


@pytest.mark.slow
def test_bundled_engine_answers_go_mate(bundle: Path) -> None:
    cshogi_usi = pytest.importorskip("cshogi.usi")
    engine = cshogi_usi.Engine(str(bundle / "tsume-studio" / "tsume-usi"))
    proc = engine.proc
    try:
        engine.isready()
        engine.position(sfen="sfen " + THREE_PLY)
        answer = engine.go_mate(byoyomi=30000)
    finally:
        engine.quit()
        for pipe in (proc.stdin, proc.stdout, proc.stderr):
            pipe.close()
    assert proc.returncode == 0
    moves = answer.split()
    assert len(moves) == 3 and moves[0] == "N*3c"


@pytest.mark.slow
def test_bundled_command_line_solves_in_parallel(bundle: Path, tmp_path: Path) -> None:
    tsv = tmp_path / "set.tsv"
    tsv.write_text(f"id\tsfen\tlength\na\t{THREE_PLY}\t3\nb\t{THREE_PLY}\t3\n", encoding="utf-8")
    proc = subprocess.run([str(bundle / "tsume-studio" / "tsume"), "batch", "--jobs", "2", str(tsv)],
                          capture_output=True, text=True, timeout=120, check=False)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.count('"status": "mate"') == 2

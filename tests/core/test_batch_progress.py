"""batch's progress bar keeps its clock running during a long search (on a terminal)."""

from __future__ import annotations

import itertools
import os
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest

pty = pytest.importorskip("pty")


def test_the_bar_is_redrawn_while_a_long_search_runs(tmp_path: Path) -> None:
    rows = (Path(__file__).parents[1] / "data" / "microcosmos.tsv").read_text(encoding="utf-8").splitlines()
    tail = next(r for r in rows if r.startswith("microcosmos-tail-301\t"))
    problems = tmp_path / "long.tsv"
    problems.write_text(rows[0] + "\n" + tail + "\n", encoding="utf-8")
    master, slave = pty.openpty()
    with subprocess.Popen([sys.executable, "-m", "tsume_studio.core.cli.main", "batch", str(problems),
                           "--seconds", "30", "--jobs", "1"],
                          stdout=subprocess.DEVNULL, stderr=slave, stdin=subprocess.DEVNULL) as proc:
        os.close(slave)
        try:
            # The window of 4 s opens at the first redraw: how long the interpreter takes to start
            # and read the problems (seconds on a loaded machine) is not what this test measures.
            seen: list[float] = []
            start = time.monotonic()
            end = start + 60.0
            while time.monotonic() < end:
                ready, _, _ = select.select([master], [], [], 0.1)
                if ready:
                    chunk = os.read(master, 4096)
                    redraws = chunk.count(b"\r\x1b[K[")
                    if redraws and not seen:
                        end = time.monotonic() + 4.0
                    seen.extend(time.monotonic() for _ in range(redraws))
        finally:
            proc.terminate()
            proc.wait(timeout=30)
            os.close(master)
    assert seen, f"no progress bar within {end - start:.0f} s"
    assert len(seen) >= 4, seen
    gaps = [b - a for a, b in itertools.pairwise(seen)]
    assert max(gaps) < 1.5, gaps

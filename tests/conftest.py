"""Shared test setup: GUI auto-marking, data paths, the --runslow option."""

from __future__ import annotations

import gc
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

DATA = Path(__file__).parent / "data"


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--runslow", action="store_true", default=False, help="run slow tests")
    parser.addoption("--random-positions", type=int, default=10_000,
                     help="how many random positions the move-generation differential tests use")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    skip_slow = pytest.mark.skip(reason="slow: use --runslow")
    for item in items:
        # Any test that uses a Qt fixture, or lives under tests/gui, is a GUI test.
        fixtures = getattr(item, "fixturenames", ())
        if "qtbot" in fixtures or "qapp" in fixtures or "tests/gui/" in str(item.fspath).replace(os.sep, "/"):
            item.add_marker(pytest.mark.gui)
        if "slow" in item.keywords and not config.getoption("--runslow"):
            item.add_marker(skip_slow)


@pytest.fixture
def data_dir() -> Path:
    return DATA


@pytest.fixture(params=["python", "kernel"])
def engine(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Run the test once on each df-pn engine (``TSUME_ENGINE``); the kernel's run skips where it is not built."""
    from tsume_studio.core.search import kernel_engine

    if request.param == "kernel" and not kernel_engine.available():
        pytest.skip("the C++ kernel is not built in this install")
    monkeypatch.setenv("TSUME_ENGINE", request.param)
    return str(request.param)


@pytest.fixture
def collector_paused() -> Iterator[None]:
    """Cyclic garbage collection paused for the test, as the GUI's worker pauses it while a search runs.

    For tests that time a Stop to the millisecond: a full collection of the test process's
    objects (about 195,000 after the core tests before it) takes up to 200 ms (a median of
    127) on a 2 GHz guest and may fall inside the measured window; the window measures the
    search, not the collector.
    """
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()

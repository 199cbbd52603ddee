"""Shared test setup: GUI auto-marking, data paths, the --runslow option."""

from __future__ import annotations

import os
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

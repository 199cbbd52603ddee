"""GUI test setup: settings kept in a temporary folder, stand-in solver generators.

The stand-ins have the shape of ``core.solver.solve_iter`` (a generator that
yields Progress and returns SolveResult, polling ``cancel``) so that the
worker can be tested on exactly the behaviour a test needs: a quick answer,
a search that runs until cancelled, a failure.
"""

from __future__ import annotations

import threading
from pathlib import Path
from collections.abc import Callable, Generator, Iterator

import pytest
from pytestqt.qtbot import QtBot
from PySide6.QtCore import QSettings

from tsume_studio.core.shogi.position import Position
from tsume_studio.core.search.contract import ChildInfo, Limits, PathEntry, Progress, SolveResult, SolveStatus
from tsume_studio.gui.mainwindow import MainWindow
from tsume_studio.gui.settings import save_limits
from tsume_studio.gui.worker import running_workers


@pytest.fixture(autouse=True, scope="session")
def _isolated_settings(tmp_path_factory: pytest.TempPathFactory) -> None:
    """Never read or write the user's own settings."""
    folder = tmp_path_factory.mktemp("settings")
    QSettings.setDefaultFormat(QSettings.Format.IniFormat)
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, str(folder))


@pytest.fixture(autouse=True)
def _no_blocking_question(monkeypatch: pytest.MonkeyPatch) -> None:
    """Unsaved edits are discarded without the modal question, so that closing a window never blocks.

    Tests of the question patch ``MainWindow.ask_discard`` themselves.
    """
    from tsume_studio.gui.mainwindow import MainWindow
    monkeypatch.setattr(MainWindow, "ask_discard", lambda self: "discard")


def progress(nodes: int, path: tuple[PathEntry, ...] = (), root: tuple[ChildInfo, ...] = ()) -> Progress:
    return Progress(nodes=nodes, nps=1000.0, elapsed=nodes / 1000, root_pn=3, root_dn=1,
                    path=path, root_children=root, table_fill=0.25, table_entries=nodes)


def quick_solver(position: Position, limits: Limits, cancel: threading.Event
                 ) -> Generator[Progress, None, SolveResult]:
    """Yields three snapshots and returns a mate in 1 of the given line."""
    for n in (1, 2, 3):
        yield progress(n)
    return SolveResult(SolveStatus.MATE, position.sfen(), pv=("G*5b",), length=1, nodes=3)


def waiting_solver(position: Position, limits: Limits, cancel: threading.Event
                   ) -> Generator[Progress, None, SolveResult]:
    """Runs until cancelled, yielding a snapshot every 5 ms, as a long search would."""
    n = 0
    while not cancel.wait(0.005):
        n += 1
        yield progress(n)
    return SolveResult(SolveStatus.CANCELLED, position.sfen(), nodes=n)


def failing_solver(position: Position, limits: Limits, cancel: threading.Event
                   ) -> Generator[Progress, None, SolveResult]:
    yield progress(1)
    raise RuntimeError("solver broke")


class Standins:
    """The stand-in solvers, handed to tests through the ``standins`` fixture."""

    quick = staticmethod(quick_solver)
    waiting = staticmethod(waiting_solver)
    failing = staticmethod(failing_solver)
    progress = staticmethod(progress)


@pytest.fixture
def standins() -> type[Standins]:
    return Standins


@pytest.fixture
def sample_position() -> Position:
    return Position.from_sfen("7k1/4R4/9/9/9/9/9/9/9 b SNr2b4g3s3n4l18p 1")


DATA = Path(__file__).parent.parent / "data"


@pytest.fixture
def open_window(qtbot: QtBot) -> Iterator[Callable[..., MainWindow]]:
    """Make shown main windows (time limit ``seconds``, a 64 MB table); after the test each one's
    search is stopped and its worker waited for, up to ``settle_ms``."""
    made: list[tuple[MainWindow, int]] = []

    def make(seconds: float = 60.0, settle_ms: int = 5000) -> MainWindow:
        save_limits(Limits(seconds=seconds, memory_mb=64))
        w = MainWindow()
        qtbot.addWidget(w)
        w.show()
        made.append((w, settle_ms))
        return w

    yield make
    for w, settle_ms in made:
        if w.is_searching():
            w.stop()
            qtbot.waitUntil(lambda: not w.is_searching(), timeout=settle_ms)  # noqa: B023
        qtbot.waitUntil(lambda: running_workers() == 0, timeout=settle_ms)

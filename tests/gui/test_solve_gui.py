"""Solving through the main window: result shown, stepping, stop, responsiveness, export, close.

The short problems use the real df-pn solver; the long search is the full
Microcosmos (1525 plies), which no limit here lets finish.
"""

from __future__ import annotations

import itertools
import subprocess
import sys
import time
from pathlib import Path
from typing import Any
from collections.abc import Callable, Iterator

import pytest
from PySide6.QtCore import Qt, QTimer
from pytestqt.qtbot import QtBot

from tsume_studio.core.shogi.moves import Move
from tsume_studio.core.shogi.position import Position
from tsume_studio.core.records.formats import read_record
from tsume_studio.core.search.background import in_background
from tsume_studio.core.search.contract import ChildInfo, Limits, Progress, SolveResult, SolveStatus
from tsume_studio.gui import i18n
from tsume_studio.gui.mainwindow import MainWindow, default_solver
from tsume_studio.gui.settings import save_limits
from tsume_studio.gui.worker import running_workers

THREE = "7k1/4R4/9/9/9/9/9/9/9 b SNr2b4g3s3n4l18p 1"
FUTILE = "8k/6G2/R7P/9/9/9/9/9/9 b r2b3g4s4n4l17p 1"
DATA = Path(__file__).parent.parent / "data"

# The offscreen platform says so whenever a main window with docks is shown.
pytestmark = pytest.mark.qt_log_ignore(r"This plugin does not support propagateSizeHints")


def microcosmos() -> str:
    for line in (DATA / "microcosmos.tsv").read_text(encoding="utf-8").splitlines():
        fields = line.split("\t")
        if fields[0] == "microcosmos":
            return fields[1]
    raise AssertionError("microcosmos row missing from tests/data/microcosmos.tsv")


@pytest.fixture
def window(open_window: Callable[..., MainWindow]) -> MainWindow:
    return open_window(seconds=60.0, settle_ms=5000)


def solve(qtbot: QtBot, w: MainWindow, sfen: str, timeout: int = 30000) -> Any:
    w.editor.set_position(Position.from_sfen(sfen))
    assert w.actions_["solve"].isEnabled()
    with qtbot.waitSignal(w.searchFinished, timeout=timeout) as blocker:
        w.actions_["solve"].trigger()
    return blocker.args[0]


def test_solve_three_plies_shows_main_line(qtbot: QtBot, window: MainWindow) -> None:
    result = solve(qtbot, window, THREE)
    assert result.status is SolveStatus.MATE
    assert window.result_panel.summary.text() == "Mate in 3"
    assert [t.split(maxsplit=1)[1] for t in window.result_panel.move_texts()] == \
        ["▲３三桂打", "△１一玉", "▲１二銀打"]
    # The proof tree holds the other defence too.
    model = window.proof_panel.model
    first = model.index(0, 0)
    assert [model.data(model.index(r, 0, first)) for r in range(model.rowCount(first))] == ["△１一玉", "△３一玉"]
    assert window.actions_["solve"].isEnabled() and not window.actions_["stop"].isEnabled()
    assert window.board.is_editable()


def test_step_through_the_proof(qtbot: QtBot, window: MainWindow) -> None:
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow, timeout=5000)
    solve(qtbot, window, THREE)
    start = Position.from_sfen(THREE)
    keys = window.result_panel.moves
    assert keys.hasFocus()
    qtbot.keyClick(keys, Qt.Key.Key_Right)
    after1 = start.copy()
    after1.push(Move.from_usi("N*3c"))
    assert window.board.position() == after1
    assert window.board.last_move() == Move.from_usi("N*3c")
    assert not window.board.is_editable()
    qtbot.keyClick(keys, Qt.Key.Key_End)
    assert window.result_panel.ply() == 3
    assert window.board.last_move() == Move.from_usi("S*1b")
    assert window.board.position().is_check()
    qtbot.keyClick(window.board, Qt.Key.Key_Left)   # the board, not editable now, leaves arrows to the window
    assert window.board.last_move() == Move.from_usi("2a1a")
    qtbot.mouseClick(window.result_panel.buttons["first"], Qt.MouseButton.LeftButton)
    assert window.board.position() == start and window.board.is_editable()
    # Clicking a move in the list shows the position after it.
    moves = window.result_panel.moves
    rect = moves.visualItemRect(moves.item(2))
    qtbot.mouseClick(moves.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert window.board.last_move() == Move.from_usi("2a1a")
    # Selecting a node of the proof tree shows its position.
    tree = window.proof_panel
    other = tree.model.index(1, 0, tree.model.index(0, 0))
    tree.select(other)
    assert window.board.last_move() == Move.from_usi("2a3a")


def test_futile_interpositions_listed_and_shown(qtbot: QtBot, window: MainWindow) -> None:
    result = solve(qtbot, window, FUTILE)
    assert result.length == 1
    panel = window.futile_panel
    assert panel.count() == len(result.proof.futile) > 0
    assert "captured and returned" in panel.texts()[0]
    assert "△２一歩・香・桂・銀・金・角・飛打" in panel.texts()[0]   # one square, every piece
    panel.select(0)
    futile = result.proof.futile[0]
    assert window.board.last_move() == Move.from_usi(futile.move)
    assert window.board.position().piece_at(Move.from_usi(futile.move).to_square) != 0


def test_export_kif_and_read_it_back(qtbot: QtBot, window: MainWindow, tmp_path: Path) -> None:
    result = solve(qtbot, window, FUTILE)
    assert window.actions_["export_kif"].isEnabled()
    path = tmp_path / "solution.kif"
    window.export_kif(str(path))
    record = read_record(path)
    assert record.start == Position.from_sfen(FUTILE)
    assert [m.usi() for m in record.main_line()] == list(result.pv)
    text = path.read_bytes().decode("cp932")
    assert "無駄合" in text
    # A three-ply solution with a variation, as UTF-8.
    solve(qtbot, window, THREE)
    path = tmp_path / "solution.kifu"
    window.export_kif(str(path))
    record = read_record(path)
    assert [m.usi() for m in record.main_line()] == ["N*3c", "2a1a", "S*1b"]
    assert len(record.root.children[0].children) == 2   # 2a1a and the 変化 2a3a


def test_stop_a_long_search_returns_nothing(qtbot: QtBot, window: MainWindow) -> None:
    window.editor.set_position(Position.from_sfen(microcosmos()))
    with qtbot.waitSignal(window.searchStarted, timeout=5000):
        window.actions_["solve"].trigger()
    worker = window._worker
    assert worker is not None
    # The live tree grows and the status line follows the search (the first
    # snapshot may be in flight, so wait for what it shows, not for the signal).
    qtbot.waitUntil(lambda: window.search_panel.model.rowCount() > 0, timeout=10000)
    qtbot.waitUntil(lambda: "pn/dn" in window.stats_label.text(), timeout=10000)
    # A snapshot can catch the search near the root; wait for one from deeper down.
    qtbot.waitUntil(lambda: len(window.search_panel.model.current_path()) >= 3, timeout=10000)
    path = window.search_panel.model.current_path()[:3]
    with qtbot.assert_not_emitted(worker.returned), \
            qtbot.waitSignal(window.searchFinished, timeout=2000) as blocker:
        t0 = time.monotonic()
        window.actions_["stop"].trigger()
    assert time.monotonic() - t0 < 1.0
    assert blocker.args == [None]
    assert window.result() is None
    assert window.actions_["solve"].isEnabled()
    # The tree stays to be browsed: selecting a node shows its position.
    model = window.search_panel.model
    assert len(path) == 3
    index = model.index_of_path(path)
    window.search_panel.select(index)
    assert window.board.position() == model.position_at(index)
    assert window.board.last_move() == Move.from_usi(path[-1])
    assert not window.board.is_editable()
    window.show_problem()
    assert window.board.is_editable()


# CPU-bound work with memory traffic: it walks a 256 MB buffer, evicting the
# caches the search and the window share.  Pure CPU loops alone did not
# reproduce the stalls seen on a busy machine; this does, with a full suite before it.
_HOG = """
import sys
data = bytearray(256 * 2**20)
view = memoryview(data)
k = 0
while True:
    for i in range(0, len(data), 4096):
        data[i] = (data[i] + k) & 255
    view[k % 1000::1000] = bytes(len(view[k % 1000::1000]))
    k += 1
"""

# Longest event-loop gap and Stop time the test accepts (ms).  The benchmark
# (scripts/responsiveness.py) measures the 50 ms / 100 ms targets.  A gap is
# counted without the time the operating system kept the window's thread
# waiting for a CPU (Linux's schedstat; elsewhere the whole gap counts): on a
# machine at load 12-13 (2 cores), 20 runs in a row of this test beside the
# fixture's load gave whole gaps of 106-652 ms, and the benchmark's trace put
# 84 % of the time of every gap over 50 ms in that wait, which no code of
# this program removes.  What remains is what the program is answerable for:
# the window's own work and its waits for the interpreter lock.  A search
# that keeps the lock 1 s at a time (the double below) gives gaps over 1 s
# either way.
MAX_GAP_MS = 500
MAX_STOP_MS = 500


def _cpu_wait_ms() -> float | None:
    """This thread's time spent ready to run but not given a CPU (ms), or None where unknown."""
    try:
        with open("/proc/thread-self/schedstat", encoding="ascii") as f:
            return int(f.read().split()[1]) / 1e6
    except (OSError, ValueError, IndexError):
        return None


@pytest.fixture
def busy_machine() -> Iterator[None]:
    """One CPU-bound process with heavy memory traffic beside the test, ended after it."""
    hog = subprocess.Popen([sys.executable, "-c", _HOG], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(0.5)   # at work before the search starts
    try:
        yield
    finally:
        hog.kill()
        hog.wait()


def measure_responsiveness(qtbot: QtBot, w: MainWindow, sfen: str, ticks: int = 200) -> tuple[float, float, float]:
    """Solve ``sfen``; once the first snapshot is shown, time a 10 ms timer's gaps, then Stop.

    Returns the longest gap (ms), the longest gap less the time the window's
    thread waited for a CPU within it (ms; the whole gap where the operating
    system does not say), and the time from Stop to ``searchFinished`` (ms).
    """
    w.editor.set_position(Position.from_sfen(sfen))
    with qtbot.waitSignal(w.searchStarted, timeout=5000):
        w.actions_["solve"].trigger()
    # Measure once the search is under way and the window shows it (the
    # start, with both threads setting up, is not the concern).
    qtbot.waitUntil(lambda: w.search_panel.model.rowCount() > 0, timeout=30000)
    stamps: list[tuple[float, float | None]] = []
    timer = QTimer()
    timer.setInterval(10)

    def tick() -> None:
        stamps.append((time.perf_counter(), _cpu_wait_ms()))

    timer.timeout.connect(tick)
    timer.start()
    qtbot.waitUntil(lambda: len(stamps) >= ticks + 1, timeout=60000)
    timer.stop()
    assert w.is_searching()
    finished: list[float] = []
    w.searchFinished.connect(lambda _r: finished.append(time.perf_counter()))
    t0 = time.perf_counter()
    w.stop()
    qtbot.waitUntil(lambda: bool(finished), timeout=10000)
    # The first gap runs from the timer's start, not from a tick: left out.
    pairs = list(itertools.pairwise(stamps[1:]))
    gaps = [(b[0] - a[0]) * 1000 for a, b in pairs]
    net = [g - ((b[1] - a[1]) if a[1] is not None and b[1] is not None else 0.0)
           for g, (a, b) in zip(gaps, pairs)]
    return max(gaps), max(net), (finished[0] - t0) * 1000


def test_event_loop_stays_responsive(qtbot: QtBot, window: MainWindow, busy_machine: None) -> None:
    gap, net, stop_ms = measure_responsiveness(qtbot, window, microcosmos())
    print(f"longest gap {gap:.0f} ms, {net:.0f} ms without the wait for a CPU; Stop {stop_ms:.0f} ms")
    assert net < MAX_GAP_MS, f"event loop stalled: {net:.0f} ms without the wait for a CPU ({gap:.0f} ms in all)"
    assert stop_ms < MAX_STOP_MS, f"Stop took {stop_ms:.0f} ms"


def _lock_holding_solver(position: Position, limits: Limits, cancel: Any) -> Any:
    """A search double that keeps the interpreter lock about 1 s at a time.

    It spins in Python with a 1 s switch interval: a thread waiting for the
    lock gets it only when the interval has passed, as with a compiled search
    that never offers it.  Between two holds it lets the lock go for a while
    (``FREE_S``), so that the window still shows its snapshots and the measure
    runs at all.
    """
    def work(flag: Any) -> None:
        old = sys.getswitchinterval()
        # Bounded, so that a failing test cannot leave it holding the lock for the tests after it.
        give_up = time.perf_counter() + HOLD_LIMIT_S
        try:
            while not flag.is_set() and time.perf_counter() < give_up:
                sys.setswitchinterval(HOLD_S)
                end = time.perf_counter() + HOLD_S
                while time.perf_counter() < end:
                    pass
                sys.setswitchinterval(old)
                time.sleep(FREE_S)
        finally:
            sys.setswitchinterval(old)

    def report() -> Progress:
        return Progress(nodes=1, nps=1.0, elapsed=0.1, root_pn=1, root_dn=1,
                        root_children=(ChildInfo("G*5b", 1, 1),))

    yield from in_background(work, report, 0.1, cancel)
    return SolveResult(SolveStatus.CANCELLED, position.sfen())


HOLD_S = 1.0
HOLD_LIMIT_S = 60.0
FREE_S = 0.3


def test_the_measure_catches_a_search_that_keeps_the_lock(qtbot: QtBot) -> None:
    """The responsiveness measure fails a search double that holds the lock for long."""
    w = MainWindow(solver_for=lambda mode: _lock_holding_solver)
    qtbot.addWidget(w)
    w.show()
    assert HOLD_S * 1000 > MAX_GAP_MS
    try:
        gap, net, _stop_ms = measure_responsiveness(qtbot, w, THREE, ticks=100)
    finally:
        w.stop()   # also when the measure failed: the double must not outlive the test
        qtbot.waitUntil(lambda: running_workers() == 0, timeout=int(HOLD_LIMIT_S * 1000))
    print(f"lock held {HOLD_S:.1f} s at a time: longest gap {gap:.0f} ms, {net:.0f} ms without the wait for a CPU")
    assert net >= MAX_GAP_MS, f"a {HOLD_S:.1f} s lock hold went unseen: longest gap {net:.0f} ms"


def test_close_during_search_stops_it(qtbot: QtBot, window: MainWindow) -> None:
    window.editor.set_position(Position.from_sfen(microcosmos()))
    with qtbot.waitSignal(window.searchStarted, timeout=5000):
        window.actions_["solve"].trigger()
    worker = window._worker
    assert worker is not None
    with qtbot.waitSignal(worker.progress, timeout=5000):
        pass
    t0 = time.monotonic()
    with qtbot.assert_not_emitted(worker.returned):
        window.close()
        assert time.monotonic() - t0 < 2.0
        assert not worker.is_running or worker.wait(0)
        qtbot.waitUntil(lambda: running_workers() == 0, timeout=5000)


def test_solve_disabled_while_invalid(qtbot: QtBot, window: MainWindow) -> None:
    window.editor.set_position(Position.from_sfen("9/9/9/9/9/9/9/9/9 b - 1"))
    assert not window.actions_["solve"].isEnabled()
    assert window.problem_bar.problems()
    window.solve()   # even when called directly
    assert not window.is_searching()
    window.editor.set_position(Position.from_sfen(THREE))
    assert window.actions_["solve"].isEnabled()


def test_worker_error_is_reported(qtbot: QtBot, standins: Any) -> None:
    w = MainWindow(solver_for=lambda mode: standins.failing)
    qtbot.addWidget(w)
    w.editor.set_position(Position.from_sfen(THREE))
    with qtbot.waitSignal(w.searchFinished, timeout=5000) as blocker:
        w.solve()
    assert blocker.args == [None]
    assert "solver broke" in w.last_error
    qtbot.waitUntil(lambda: not w.is_searching(), timeout=5000)


def test_default_solvers_exist() -> None:
    assert callable(default_solver("mate"))
    assert callable(default_solver("helpmate"))


def test_no_mate_and_limit_reached_are_shown(qtbot: QtBot, window: MainWindow, tmp_path: Path) -> None:
    result = solve(qtbot, window, "4k4/9/4P4/9/9/9/9/9/9 b 2r2b4g4s4n4l17p 1")
    assert result.status is SolveStatus.NO_MATE
    assert window.result_panel.summary.text() == "No mate"
    assert window.result_panel.move_texts() == []
    assert not window.actions_["export_kif"].isEnabled()
    with pytest.raises(ValueError, match="no solution to export"):
        window.export_kif(str(tmp_path / "none.kif"))
    save_limits(Limits(nodes=3000, seconds=None, memory_mb=64))
    result = solve(qtbot, window, microcosmos())
    assert result.status is SolveStatus.UNKNOWN
    assert window.result_panel.summary.text() == "Unknown (limit reached)"
    assert "Unknown (limit reached)" in window.stats_label.text()


def test_editing_waits_while_searching(qtbot: QtBot, window: MainWindow) -> None:
    window.editor.set_position(Position.from_sfen(microcosmos()))
    with qtbot.waitSignal(window.searchStarted, timeout=5000):
        window.actions_["solve"].trigger()
    editor = window.editor
    assert not editor.action("tsume").isEnabled() and not editor.action("undo").isEnabled()
    assert not editor.action("open").isEnabled()
    assert editor.action("copy_sfen").isEnabled() and not window.board.is_editable()
    with qtbot.waitSignal(window.searchFinished, timeout=2000):
        window.stop()
    assert editor.action("tsume").isEnabled() and editor.action("undo").isEnabled()
    assert window.board.is_editable()


def test_alternative_mates_are_listed_and_shown(qtbot: QtBot, standins: Any) -> None:
    from tsume_studio.core.search.proof import Alternative, Proof, ProofNode, Role
    from tsume_studio.core.search.contract import SolveResult

    mate = ProofNode("S*1b", Role.MAIN, 0, 10**12, 0)
    root = ProofNode(None, Role.MAIN, 0, 10**12, 3, (
        ProofNode("N*3c", Role.MAIN, 0, 10**12, 2, (ProofNode("2a1a", Role.MAIN, 0, 10**12, 1, (mate,)),)),))
    proof = Proof(THREE, root, ("N*3c", "2a1a", "S*1b"), 3,
                  alternatives=(Alternative(("N*3c", "2a1a"), "S*2b", 1),))

    def solver(position: Position, limits: Limits, cancel: Any) -> Any:
        yield standins.progress(1)
        return SolveResult(SolveStatus.MATE, position.sfen(), pv=proof.main_line, length=3, proof=proof)

    w = MainWindow(solver_for=lambda mode: solver)
    qtbot.addWidget(w)
    w.editor.set_position(Position.from_sfen(THREE))
    with qtbot.waitSignal(w.searchFinished, timeout=5000):
        w.solve()
    panel = w.alternatives_panel
    assert panel.texts() == ["3: 余詰  ▲２二銀打  (mate in 1)"]
    panel.select(0)
    assert w.board.last_move() == Move.from_usi("S*2b")
    qtbot.waitUntil(lambda: running_workers() == 0, timeout=5000)


def test_unchecked_alternatives_are_said_to_be_unchecked(qtbot: QtBot) -> None:
    from tsume_studio.core.search.proof import Alternative
    from tsume_studio.gui.panels import AlternativesPanel

    panel = AlternativesPanel()
    qtbot.addWidget(panel)
    start = Position.from_sfen(THREE)
    panel.set_alternatives(start, ())
    assert panel.note.text() == "No alternative mates found."
    panel.set_alternatives(start, (), checked=False)
    assert "ran out of time" in panel.note.text() and not panel.note.isHidden()
    panel.set_alternatives(start, (Alternative(("N*3c", "2a1a"), "S*2b", 1),), checked=False)
    assert panel.count() == 1 and "ran out of time" in panel.note.text()
    panel.set_alternatives(start, (Alternative(("N*3c", "2a1a"), "S*2b", 1),), checked=False, checked_to=1)
    assert panel.count() == 1 and panel.note.text() == (
        "Checked up to ply 1 of the main line: the search for alternative mates ran out of time after that.")
    i18n.set_language("ja")
    try:   # the panel says it again in the new language
        assert panel.note.text() == "本譜1手目まで検討済み：その先は余詰の探索が時間切れになりました。"
    finally:
        i18n.set_language("en")
    assert panel.note.text().startswith("Checked up to ply 1")
    panel.set_alternatives(None, ())   # nothing solved: not "none found" (#16)
    assert panel.count() == 0 and panel.note.text() == "Not solved yet."


def test_whole_loop_by_keyboard(qtbot: QtBot, window: MainWindow) -> None:
    """Paste a problem, solve it with F5, step with the arrows, go back with Ctrl+Home."""
    from PySide6.QtGui import QGuiApplication

    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow, timeout=5000)
    QGuiApplication.clipboard().setText(THREE)
    qtbot.keyClick(window, Qt.Key.Key_V, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    assert window.editor.position() == Position.from_sfen(THREE)
    with qtbot.waitSignal(window.searchFinished, timeout=30000):
        qtbot.keyClick(window, Qt.Key.Key_F5)
    focus = QGuiApplication.focusObject()
    for _ in range(3):
        qtbot.keyClick(focus, Qt.Key.Key_Right)
    assert window.result_panel.ply() == 3
    assert window.board.last_move() == Move.from_usi("S*1b")
    qtbot.keyClick(focus, Qt.Key.Key_Home, Qt.KeyboardModifier.ControlModifier)
    assert window.board.position() == Position.from_sfen(THREE) and window.board.is_editable()
    assert window.result_panel.ply() == 0

"""Solve once: the window's check of a record it has just solved asks the answer's table again
instead of solving the problem a second time (as ``tsume check``, ``batch`` and ``bench`` do)."""

from __future__ import annotations

import csv
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from pytestqt.qtbot import QtBot

from tsume_studio.core import check as core_check
from tsume_studio.core.check import CheckResult, check_solution
from tsume_studio.core.records.formats import write_record
from tsume_studio.core.records.model import Record, RecordNode
from tsume_studio.core.search import kernel_length
from tsume_studio.core.search.contract import Limits, SolveStatus
from tsume_studio.core.search.dfpn import DfPn
from tsume_studio.core.search.length_search import LengthSearch
from tsume_studio.core.shogi.moves import parse_move
from tsume_studio.core.shogi.position import Position
from tsume_studio.gui import i18n
from tsume_studio.gui.mainwindow import MainWindow

pytestmark = pytest.mark.qt_log_ignore(r"This plugin does not support propagateSizeHints")
DATA = Path(__file__).parent.parent / "data"
# tanuki-5-5's 5-ply line, which counts a futile drop: the tsume-rule answer is 3 plies.
LINE = ["3a3d+", "1d1e", "3d2d", "1e1f", "2d2f"]


def _record(tmp_path: Path) -> tuple[Path, str]:
    with (DATA / "mate.tsv").open(encoding="utf-8") as f:
        sfen = next(r for r in csv.DictReader(f, delimiter="\t") if r["id"] == "tanuki-5-5")["sfen"]
    record = Record(start=Position.from_sfen(sfen))
    pos, node = record.start.copy(), record.root
    for usi in LINE:
        mv = parse_move(pos, usi)
        child = RecordNode(move=mv)
        node.children.append(child)
        node = child
        pos.push(mv)
    path = tmp_path / "line.kif"
    write_record(path, record)
    return path, sfen


def _count_new_searches(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Record every Python df-pn or length search made while the check runs (a check that solves
    makes the kernel's length search, or the Python df-pn and length search)."""
    made: list[str] = []
    real_kernel = core_check.KernelLengthSearch.__init__

    def kernel_init(self: Any, *args: Any, **kw: Any) -> None:
        made.append("KernelLengthSearch")
        real_kernel(self, *args, **kw)
    monkeypatch.setattr(core_check.KernelLengthSearch, "__init__", kernel_init)
    real_dfpn = DfPn.__init__

    def dfpn_init(self: DfPn, *args: Any, **kw: Any) -> None:
        made.append("DfPn")
        real_dfpn(self, *args, **kw)
    monkeypatch.setattr(DfPn, "__init__", dfpn_init)   # the Python df-pn, whoever makes it
    real_init = LengthSearch.__init__

    def init(self: LengthSearch, *args: Any, **kw: Any) -> None:
        made.append("LengthSearch")
        real_init(self, *args, **kw)
    monkeypatch.setattr(LengthSearch, "__init__", init)
    return made


def _check(qtbot: QtBot, w: MainWindow) -> CheckResult:
    with qtbot.waitSignal(w.checkFinished, timeout=60000) as blocker:
        assert w.check_main_line()
    result = blocker.args[0]
    assert isinstance(result, CheckResult), w.last_error
    return result


@pytest.mark.parametrize("engine", ["kernel", "python"])
def test_a_check_after_a_solve_of_the_same_position_does_not_solve_again(
        qtbot: QtBot, open_window: Callable[..., MainWindow], tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch, engine: str) -> None:
    monkeypatch.setenv("TSUME_ENGINE", engine)
    if engine == "kernel" and not kernel_length.chosen():
        pytest.skip("the kernel's length search is not built")
    # A check that solves makes the solver's searches: the kernel's length search (with its own
    # df-pn), or the Python df-pn and the Python length search.
    solving = ["KernelLengthSearch"] if engine == "kernel" else ["DfPn", "LengthSearch"]
    i18n.set_language("en")
    path, sfen = _record(tmp_path)
    w = open_window(seconds=60.0, settle_ms=10000)
    assert w.open_file(str(path))
    # Without a solve first, the window solves in view (as Solve does: its answer fills the result
    # panel), then the check asks that answer: one solve in all.
    made = _count_new_searches(monkeypatch)
    solved: list[Any] = []
    w.searchFinished.connect(solved.append)
    fresh = _check(qtbot, w)
    assert made == solving and fresh.reused and fresh.engine == engine
    assert len(solved) == 1 and solved[0] is w.result() and w.result() is not None
    assert w.result().status is SolveStatus.MATE and w.result().length == 3
    assert len(w.result_panel.line()) == 3 and tuple(w.result_panel.line()) == tuple(w.result().pv)
    made.clear()
    again = _check(qtbot, w)
    assert again.reused and made == []          # the solve's table answered: nothing solved again
    assert again.engine == engine and len(solved) == 1
    # The same verdict either way, and the same as tsume check's, which solves for itself.
    assert (again.confirmed, again.length, again.discrepancies) == (fresh.confirmed, fresh.length,
                                                                    fresh.discrepancies)
    cli = check_solution(Position.from_sfen(sfen), LINE, Limits(seconds=60))
    assert again.discrepancies == cli.discrepancies and not cli.reused and again.nodes < cli.nodes
    # Once the problem changes, its answer is let go and a check solves again.
    w.editor.set_position(Position.from_sfen("7k1/4R4/9/9/9/9/9/9/9 b SNr2b4g3s3n4l18p 1"))
    assert w.open_file(str(path))
    made.clear()
    assert _check(qtbot, w).reused and made == solving and len(solved) == 2

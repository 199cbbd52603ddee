"""Check the 作意 in the window: a record's main line against the official answer, on a worker thread."""

from __future__ import annotations

import csv
import re
import shutil
import threading
from dataclasses import replace
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QTimer
from pytestqt.qtbot import QtBot

from tsume_studio.core import check as check_module
from tsume_studio.core.check import Check, CheckResult, check_solution
from tsume_studio.core.records.formats import write_record
from tsume_studio.core.records.model import Record, RecordNode
from tsume_studio.core.search.contract import Limits, Progress, SearchPhase
from tsume_studio.core.search.length_search import solve_official
from tsume_studio.core.shogi.moves import parse_move
from tsume_studio.core.shogi.position import Position
from tsume_studio.gui import checkworker, i18n
from tsume_studio.gui.mainwindow import MainWindow

pytestmark = pytest.mark.qt_log_ignore(r"This plugin does not support propagateSizeHints")
DATA = Path(__file__).parent.parent / "data"


@pytest.fixture
def window(open_window: Callable[..., MainWindow]) -> MainWindow:
    i18n.set_language("en")
    return open_window(seconds=60.0, settle_ms=10000)


def flawed_record(tmp_path: Path) -> tuple[Path, list[str]]:
    """A KIF whose main line counts a futile drop (tanuki-5-5): 早詰, 余詰, 成不成非限定, 無駄合, 駒余り."""
    with (DATA / "mate.tsv").open(encoding="utf-8") as f:
        sfen = next(r for r in csv.DictReader(f, delimiter="\t") if r["id"] == "tanuki-5-5")["sfen"]
    proof = solve_official(Position.from_sfen(sfen))
    assert proof is not None
    line = list(proof.main_line) + ["P*1d", "1a1d"]
    record = Record(start=Position.from_sfen(sfen), header={"作品名": "検討用"})
    pos, node = record.start.copy(), record.root
    for usi in line:
        mv = parse_move(pos, usi)
        child = RecordNode(move=mv)
        node.children.append(child)
        node, _ = child, pos.push(mv)
    path = tmp_path / "flawed.kif"
    write_record(path, record)
    return path, line


def check(qtbot: QtBot, w: MainWindow) -> Any:
    with qtbot.waitSignal(w.checkFinished, timeout=60000) as blocker:
        w.check_panel.check_button.click()
    return blocker.args[0]


def test_a_right_main_line_is_confirmed(qtbot: QtBot, window: MainWindow, tmp_path: Path) -> None:
    path = tmp_path / "example3.kifu"
    shutil.copy(DATA / "records" / "example3.kifu", path)
    assert window.open_file(str(path))
    result = check(qtbot, window)
    assert isinstance(result, CheckResult) and result.confirmed and result.length == 3
    assert window.check_panel.verdict() == "Confirmed: the main line is the official answer, mate in 3."
    assert window.check_panel.count() == 0
    assert not window.is_modified()
    assert window.write_check()                                     # the verdict on the start, on request
    assert "作意の検討：3手詰で正解（早詰・余詰・変長なし）" in window.editor.full_record().root.comments


def test_each_discrepancy_is_listed_shown_and_written_into_the_record(qtbot: QtBot, window: MainWindow,
                                                                      tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    path, line = flawed_record(tmp_path)
    threads: list[threading.Thread] = []
    real = checkworker.check_iter

    def spy(*args: Any, **kwargs: Any) -> Check:
        threads.append(threading.current_thread())
        return (yield from real(*args, **kwargs))
    monkeypatch.setattr(checkworker, "check_iter", spy)
    w = window
    assert w.open_file(str(path))
    result = check(qtbot, w)
    assert threads and threads[0] is not threading.main_thread()     # never on the GUI thread
    # The same verdict as tsume check (one implementation); the window solved first, in view, and the
    # check asked that answer (so its own nodes are fewer than a check that solves).
    cli = check_solution(Position.from_sfen(w.editor.position().sfen()), line, Limits(seconds=60))
    assert replace(result, nodes=0, reused=False) == replace(cli, nodes=0)
    assert result.reused and not cli.reused and result.nodes < cli.nodes
    rows = w.check_panel.texts()
    assert len(rows) == len(result.discrepancies) >= 5
    kinds = {d.kind for d in result.discrepancies}
    assert {"shorter_mate", "alternative", "promotion_choice", "futile_judgement", "pieces_left"} <= kinds
    assert "ply 3  Either promotion (成不成非限定): ▲１一飛不成" in rows            # ▲1一飛成 is the line's move
    assert "ply 5  Pieces left in hand (駒余り): ▲同\u3000龍" in rows
    assert not any("Alternative" in r and "１一飛" in r for r in rows)       # not called 余詰
    assert w.check_panel.verdict().startswith("Not confirmed:")
    # A row shows its line on the board: the position after it, its last move marked.
    k = next(i for i, d in enumerate(result.discrepancies) if d.kind == "promotion_choice")
    d = result.discrepancies[k]
    w.check_panel.select(k)
    expected = Position.from_sfen(w.editor.position().sfen())
    for usi in d.line:
        expected.push(parse_move(expected, usi))
    assert w.board.position() == expected
    assert w.board.last_move() is not None and w.board.last_move().usi() == d.line[-1]
    # On request, each line goes into the record as a 変化 with its name; one undo takes it out.
    before = w.editor.full_record()
    root_before = repr(before.root)
    assert not w.is_modified()
    assert w.write_check()
    record = w.editor.full_record()
    assert w.is_modified() and record.main_line() == before.main_line()
    node = record.root
    for usi in d.line:
        node = next(c for c in node.children if c.move is not None and c.move.usi() == usi)
    assert "成不成非限定（作意の検討）" in node.comments
    assert any(c.startswith("作意の検討：") and "駒余り" in c for c in record.root.comments)
    w.editor.action("undo").trigger()
    assert repr(w.editor.full_record().root) == root_before and not w.is_modified()


def checked_as(qtbot: QtBot, w: MainWindow, monkeypatch: pytest.MonkeyPatch, path: Path, result: CheckResult) -> None:
    """Open ``path`` and check its main line, the check answering ``result`` (its display alone is tested)."""
    def fake(*args: Any, **kwargs: Any) -> Check:
        yield from ()
        return result
    monkeypatch.setattr(checkworker, "check_iter", fake)
    assert w.open_file(str(path))
    assert check(qtbot, w) == result


def test_a_record_without_moves_is_not_checked(qtbot: QtBot, window: MainWindow) -> None:
    window.editor.set_position(Position.from_sfen("7k1/4R4/9/9/9/9/9/9/9 b SNr2b4g3s3n4l18p 1"))
    assert not window.check_main_line()
    assert "no main line" in window.last_error and not window.is_searching()


def test_stop_after_the_solve_ended_stops_the_check_waiting_for_it(qtbot: QtBot, window: MainWindow,
                                                                   tmp_path: Path) -> None:
    """Stop pressed when the solve a check waits for has ended on its thread but its answer is not
    yet delivered: the check the user stopped does not start."""
    path, _line = flawed_record(tmp_path)
    assert window.open_file(str(path))
    with qtbot.waitSignal(window.checkFinished, timeout=20000) as blocker:
        assert window.check_main_line()
        worker = window._worker
        assert worker is not None and worker.wait(10000)   # ended; its signals wait for the event loop
        window.actions_["stop"].trigger()
    assert blocker.args[0] is None and window.check_result() is None
    assert window.check_panel.verdict() == "Stopped before the check ended."
    assert not window.is_searching() and window.actions_["check"].isEnabled()


def test_a_check_can_be_stopped(qtbot: QtBot, window: MainWindow, tmp_path: Path) -> None:
    path, _line = flawed_record(tmp_path)
    assert window.open_file(str(path))
    with qtbot.waitSignal(window.checkFinished, timeout=20000) as blocker:
        assert window.check_main_line()
        window.actions_["stop"].trigger()
    assert blocker.args[0] is None and window.check_result() is None       # stopped: no verdict
    assert window.check_panel.verdict() == "Stopped before the check ended."
    assert not window.is_searching() and window.actions_["check"].isEnabled()


def test_a_line_refuted_by_a_bound_alone(qtbot: QtBot, window: MainWindow, tmp_path: Path,
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """A solve that proved only bounds of the length, one of them refuting the main line: the panel
    lists what the bound proved, says the length is not proved, and writes it into the record."""
    path, line = flawed_record(tmp_path)
    found = CheckResult(False, None, tuple(line), (check_module.Discrepancy("shorter_mate", 1, (line[0],)),),
                        complete=False, at_least=3, at_most=5)
    w = window
    checked_as(qtbot, w, monkeypatch, path, found)
    assert len(w.check_panel.texts()) == 1 and "Shorter mate (早詰)" in w.check_panel.texts()[0]
    assert w.check_panel.verdict() == (
        "Not confirmed: Shorter mate (早詰). The exact length was not proved (proved: at most 5 plies, "
        f"at least 3); the main line has {len(line)} plies, and the other plies were not examined.")
    assert w.check_panel.write_button.isEnabled()
    assert w.write_check()
    assert "作意の検討：早詰あり（5手以内、3手以上、手数は未確定）" in w.editor.full_record().root.comments


def test_a_line_shorter_than_the_proved_bound(qtbot: QtBot, window: MainWindow, tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """A lower bound above the main line's length, the defence it misses not found in time: the verdict
    says the line mates too soon (変長 somewhere), in English and Japanese, and writes it into the record."""
    path, line = flawed_record(tmp_path)
    short = CheckResult(False, None, tuple(line), complete=False, at_least=len(line) + 2, at_most=len(line) + 6)
    assert short.too_short
    w = window
    checked_as(qtbot, w, monkeypatch, path, short)
    assert w.check_panel.texts() == []
    n = len(line)
    assert w.check_panel.verdict() == (
        f"Not confirmed: the main line mates too soon. No mate within its {n} plies exists (proved: at most "
        f"{n + 6} plies, at least {n + 2}), so a defence it misses lasts longer (変長); where was not found "
        "within the limits.")
    i18n.set_language("ja")
    assert w.check_panel.verdict().startswith(f"作意と相違：本譜は早く詰みすぎています。{n}手以内の詰みはない")
    i18n.set_language("en")
    assert w.check_panel.write_button.isEnabled() and w.write_check()
    assert (f"作意の検討：変長あり（{n + 2}手以上、変化の箇所は未特定、手数は未確定）"
            in w.editor.full_record().root.comments)


def test_a_check_shows_what_it_asks_while_it_runs(qtbot: QtBot, open_window: Callable[..., MainWindow],
                                                  tmp_path: Path) -> None:
    """将棋無双 23番 within 3 s (its length takes minutes): the window's solve proves only bounds of the
    length; the check goes on with that stopped search, its question and bounds in the check panel and on
    the status line, then says it could not prove the length (no verdict on the line is made up)."""
    w = open_window(seconds=3.0, settle_ms=10000)
    assert w.open_file(str(_musou_record(tmp_path, "musou-023")))
    notes: list[str] = []
    real = w.check_panel.set_progress

    def shown(text: str) -> None:
        notes.append(text)
        real(text)
        assert w.check_panel.verdict() == text
    w.check_panel.set_progress = shown   # type: ignore[method-assign]
    result = check(qtbot, w)
    assert isinstance(result, CheckResult) and w.result() is not None
    assert w.result().extra["exact"] is False                   # the solve proved bounds only
    asked = [n for n in notes if n.startswith("Proving the shortest: mate within")]
    assert asked, notes                                        # the stopped search went on, in view
    assert result.reused and result.length is None and not result.complete and not result.discrepancies
    assert result.at_least is not None and result.at_most is not None
    assert w.check_panel.verdict() == ("Unknown: the exact length was not proved within the limits (proved: at "
                                       f"most {result.at_most} plies, at least {result.at_least}).")
    assert "again goes on from where it stopped" in w.statusBar().currentMessage()
    # Checked again, it goes on with the same search: the bounds it proved stand, and may close in.
    solved = w.result()
    again = check(qtbot, w)
    assert isinstance(again, CheckResult) and again.reused and w.result() is solved   # not solved again
    assert again.at_least is not None and again.at_most is not None
    assert result.at_least <= again.at_least <= 25 <= again.at_most <= result.at_most   # 23番: 25 plies


def _musou_record(tmp_path: Path, row_id: str) -> Path:
    """A record of a 将棋無双 row with its published solution as the main line."""
    i18n.set_language("en")
    with (DATA / "musou.tsv").open(encoding="utf-8") as f:
        row = next(r for r in csv.DictReader(f, delimiter="\t") if r["id"] == row_id)
    record = Record(start=Position.from_sfen(row["sfen"]))
    pos, node = record.start.copy(), record.root
    for usi in row["pv"].split():
        child = RecordNode(move=parse_move(pos, usi))
        node.children.append(child)
        node = child
        pos.push(child.move)
    path = tmp_path / f"{row_id}.kif"
    write_record(path, record)
    return path


def test_stop_during_the_check_keeps_the_bounds_in_view(qtbot: QtBot, open_window: Callable[..., MainWindow],
                                                         tmp_path: Path) -> None:
    """将棋無双 23番 (published 25): the window's 3 s solve proves bounds only; stopped while the check's
    length search goes on, the panel says so with the bounds proved by then."""
    w = open_window(seconds=3.0, settle_ms=10000)
    assert w.open_file(str(_musou_record(tmp_path, "musou-023")))
    real = w.check_panel.set_progress

    def shown(text: str) -> None:
        real(text)
        if text.startswith("Proving the shortest: mate within"):
            QTimer.singleShot(0, w.stop)
    w.check_panel.set_progress = shown   # type: ignore[method-assign]
    assert check(qtbot, w) is None and w.check_result() is None
    verdict = w.check_panel.verdict()
    match = re.fullmatch(r"Stopped before the check ended \(proved: at most (\d+) plies, at least (\d+)\)\.", verdict)
    assert match is not None, verdict
    assert int(match[2]) <= 25 <= int(match[1])          # 23番's length (25) lies within them
    assert not w.is_searching() and w.actions_["check"].isEnabled()


@pytest.mark.parametrize("found", ["shorter_mate", "too_short"])
def test_stop_during_the_comparison_keeps_what_it_had_proved(qtbot: QtBot, window: MainWindow, tmp_path: Path,
                                                             monkeypatch: pytest.MonkeyPatch, found: str) -> None:
    """Stopped while it works, the check returns what it had proved (here a stand-in check that found a
    早詰, or only a lower bound above the line, and then waits): the panel shows it, says it was
    stopped, and it may be written into the record."""
    path, line = flawed_record(tmp_path)
    if found == "shorter_mate":
        partial = CheckResult(False, 3, tuple(line), (check_module.Discrepancy("shorter_mate", 1, (line[0],)),),
                              complete=False)
    else:
        partial = CheckResult(False, None, tuple(line), complete=False, at_least=len(line) + 2)

    def comparing(position: Position, given: Any, limits: Limits, cancel: threading.Event,
                  *args: Any) -> Check:
        yield Progress(nodes=1, nps=1.0, elapsed=0.1, root_pn=0, root_dn=1, phase=SearchPhase.CHECK,
                       stats=(("check_ply", 3.0), ("check_plies", float(len(given)))))
        while not cancel.wait(0.01):
            pass
        return partial
    monkeypatch.setattr(checkworker, "check_iter", comparing)
    w = window
    assert w.open_file(str(path))
    real = w.check_panel.set_progress

    def shown(text: str) -> None:
        real(text)
        if text.startswith(f"Checking the main line: ply 3 of {len(line)}"):
            QTimer.singleShot(0, w.stop)
    w.check_panel.set_progress = shown   # type: ignore[method-assign]
    assert check(qtbot, w) == partial and w.check_result() == partial
    if found == "shorter_mate":
        assert len(w.check_panel.texts()) == 1 and "Shorter mate (早詰)" in w.check_panel.texts()[0]
        assert w.check_panel.verdict().endswith("\nStopped: what is listed is proved; the rest was not examined.")
    else:
        assert w.check_panel.texts() == []
        assert w.check_panel.verdict().startswith("Not confirmed: the main line mates too soon.")
        assert w.check_panel.verdict().endswith("where was not found before the check was stopped.")
    assert w.check_panel.write_button.isEnabled() and w.write_check()

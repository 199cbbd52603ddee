"""``tsume batch`` and ``tsume bench --official`` check a given solution (a ``pv`` column, a record's main line)."""

from __future__ import annotations

import csv
import json
import sys
from pathlib import Path
from typing import Any

import cshogi
import pytest

from tsume_studio.core import check as check_module
from tsume_studio.core import kernel
from tsume_studio.core.cli import batch as batch_module
from tsume_studio.core.cli.batch import solve_row
from tsume_studio.core.cli.check import CheckTally, check_fields, check_solution
from tsume_studio.core.cli.main import main
from tsume_studio.core.search import kernel_engine
from tsume_studio.core.search.contract import Limits, Progress, SearchPhase
from tsume_studio.core.search.length_rule import SearchAborted
from tsume_studio.core.search.length_search import solve_official
from tsume_studio.core.shogi.position import Position

import bruteforce  # tests/core is on sys.path

DATA = Path(__file__).resolve().parents[1] / "data"
THREE_PLY = "7k1/4R4/9/9/9/9/9/9/9 b SNr2b4g3s3n4l18p 1"
OPTIONS: dict[str, Any] = {"limits": {"nodes": None, "seconds": 20.0, "memory_mb": 256},
                           "helpmate": False, "raw": False, "check": True}


def _mate_row(row_id: str) -> dict[str, str]:
    with (DATA / "mate.tsv").open(encoding="utf-8") as f:
        return next(r for r in csv.DictReader(f, delimiter="\t") if r["id"] == row_id)


def _official_line(sfen: str) -> list[str]:
    proof = solve_official(Position.from_sfen(sfen))
    assert proof is not None
    return list(proof.main_line)


@pytest.fixture(scope="module")
def problem_set(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A set with a pv column: a right solution, a cut-short one, one counting a futile drop, two bad cells."""
    five = _mate_row("tanuki-5-1")["sfen"]           # 5 plies under either rule
    futile = _mate_row("tanuki-5-5")["sfen"]         # 5 plies raw, 3 under tsume rules
    right = _official_line(five)
    assert len(right) == 5
    short = right[:3]                                # the defender's longest reply is missed
    counted = _official_line(futile) + ["P*1d", "1a1d"]  # a futile drop counted as a defence
    rows = [("right", five, "5", " ".join(right)), ("short", five, "3", " ".join(short)),
            ("futile", futile, "5", " ".join(counted)), ("bad", five, "5", f"{right[0]} zz"),
            ("empty", five, "5", "")]
    path = tmp_path_factory.mktemp("set") / "set.tsv"
    path.write_text("id\tsfen\tlength\tpv\n" + "".join("\t".join(r) + "\n" for r in rows), encoding="utf-8")
    return path


def _rows(path: Path) -> dict[str, dict[str, str]]:
    with path.open(encoding="utf-8") as f:
        return {r["id"]: r for r in csv.DictReader(f, delimiter="\t")}


def _replays(sfen: str, line: list[str]) -> bool:
    b = cshogi.Board(sfen)
    for m in line:
        if m not in {cshogi.move_to_usi(x) for x in b.legal_moves}:
            return False
        b.push_usi(m)
    return True


def test_solve_row_checks_the_pv_column(problem_set: Path) -> None:
    rows = _rows(problem_set)
    lines = {name: solve_row(row, OPTIONS) for name, row in rows.items()}
    right, short, futile = lines["right"], lines["short"], lines["futile"]
    assert right["check"] == {"confirmed": True, "discrepancies": []} and right["exact"] is True
    # Solve once: the check asked the row's own search, not a second solve.
    assert all(line["check_reused"] for line in (right, short, futile))
    # The check proves the same exact length as the row's answer.
    for line in (right, short, futile):
        assert line["check_length"] == line["length"]
    assert not short["check"]["confirmed"]
    assert {(d["kind"], d["ply"]) for d in short["check"]["discrepancies"]} == {("longer_defence", 4)}
    kinds = {(d["kind"], d["ply"]) for d in futile["check"]["discrepancies"]}
    assert ("shorter_mate", 1) in kinds and ("futile_judgement", 4) in kinds
    for name in ("short", "futile"):
        for d in lines[name]["check"]["discrepancies"]:
            assert _replays(rows[name]["sfen"], d["line"])
    # Re-proved by the brute force: the cut-short line does not mate (under tsume
    # rules no mate within 3 exists at all); the exact answer takes 5.
    after = cshogi.Board(rows["short"]["sfen"])
    for m in rows["short"]["pv"].split():
        after.push_usi(m)
    assert not bruteforce.BruteForce(True).mated(after, 0)
    assert bruteforce.tsume_length(rows["short"]["sfen"], 3) is None
    assert bruteforce.tsume_length(rows["short"]["sfen"], 5) == 5
    # A cell that does not replay is the row's field, not a lost row.
    assert lines["bad"]["status"] == "mate" and "check" not in lines["bad"]
    assert "move 2 of the solution, 'zz', is not a legal reply" in lines["bad"]["check_error"]
    assert lines["empty"]["check_skipped"] == "no given solution (empty pv)"


def test_batch_summary_counts_answers_and_checks(problem_set: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["batch", str(problem_set)]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    summary = lines[-1]
    assert [ln["id"] for ln in lines[:-1]] == ["right", "short", "futile", "bad", "empty"]
    assert summary["exact"] == 5 and summary["solved"] == 5
    assert summary["length_matches"] == 3 and summary["wrong_length"] == 2   # short: 5 not 3; futile: 3 not 5
    assert summary["checks"] == {"confirmed": 1, "not_confirmed": 2, "unknown": 0, "errors": 1, "skipped": 1,
                                 "discrepancies": {"shorter_mate": 1, "alternative": 1, "promotion_choice": 1,
                                                   "longer_defence": 1, "futile_judgement": 1, "pieces_left": 1}}


def test_batch_text_summary_on_a_terminal(problem_set: Path, capsys: pytest.CaptureFixture[str],
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    assert main(["batch", str(problem_set), "--only", "right", "short"]) == 0
    err = capsys.readouterr().err
    assert "2 problems: solved 2, exact 2, length = published 1, wrong length 1" in err
    assert "checks of the given solutions: confirmed 1, not confirmed 1 (longer_defence 1)" in err
    assert main(["batch", "--json", str(problem_set), "--only", "right"]) == 0
    assert "checks of the given solutions" not in capsys.readouterr().err


def test_batch_no_check_and_raw(problem_set: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["batch", "--no-check", str(problem_set)]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert not any(k.startswith("check") for ln in lines for k in ln)
    assert main(["batch", "--raw", str(problem_set)]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert all(ln["check_skipped"].startswith("--raw") and "check" not in ln for ln in lines[:-1])
    assert lines[-1]["exact"] == 0 and lines[-1]["checks"]["skipped"] == 5


def test_batch_checks_a_records_main_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    kif = tmp_path / "three.kifu"
    assert main(["solve", "--kif", str(kif), THREE_PLY]) == 0
    capsys.readouterr()
    assert main(["batch", str(kif)]) == 0
    row, summary = (json.loads(line) for line in capsys.readouterr().out.splitlines())
    assert row["check"] == {"confirmed": True, "discrepancies": []}
    assert summary["checks"]["confirmed"] == 1


def test_a_check_cut_short_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    sfen = _mate_row("tanuki-5-1")["sfen"]
    line = _official_line(sfen)
    unknown = check_solution(Position.from_sfen(sfen), line, Limits(nodes=1))
    assert unknown.length is None and not unknown.complete and not unknown.confirmed
    assert unknown.check_json()["complete"] is False
    tally = CheckTally()
    tally.add(check_fields(Position.from_sfen(sfen), " ".join(line), Limits(nodes=1)))
    assert (tally.unknown, tally.confirmed, tally.not_confirmed) == (1, 0, 0)

    def found_one_then_ran_out(s: Any, root: Any, attacker: int, given: Any, moves: Any, out: list[Any]) -> None:
        out.append(check_module.Discrepancy("alternative", 1, (given[0],)))
        raise SearchAborted("deadline")

    monkeypatch.setattr(check_module, "_compare", found_one_then_ran_out)
    partial = check_solution(Position.from_sfen(sfen), line)
    assert partial.length == 5 and not partial.complete and not partial.confirmed
    assert len(partial.discrepancies) == 1
    tally.add({"check": partial.check_json()})
    assert tally.not_confirmed == 1 and tally.kinds["alternative"] == 1


def test_bench_official(problem_set: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "bench.json"
    assert main(["bench", "--official", "--no-cshogi", "--first", "3", "--seconds", "20",
                 "--json", str(out), str(problem_set)]) == 0
    text = capsys.readouterr().out
    assert "official exact 3/3  length = published 1/3" in text
    assert "published solutions: confirmed 1, not confirmed 2" in text
    # The header and the JSON say whether the kernel is loaded and which engine ran df-pn.
    assert ("C++ kernel: loaded" in text) == kernel.AVAILABLE
    assert f"df-pn engine: {kernel_engine.engine_choice()}" in text
    report = json.loads(out.read_text(encoding="utf-8"))
    assert (report["kernel"] == "loaded") == kernel.AVAILABLE and report["engine"] == kernel_engine.engine_choice()
    rows = {r["id"]: r for r in report["rows"]}
    assert rows["right"]["check"]["confirmed"] is True and rows["right"]["length_matches"] is True
    assert rows["short"]["length_matches"] is False and rows["short"]["check"]["confirmed"] is False
    assert all(r["exact"] is True and r["check_cpu"] >= 0 and "alternatives_checked" in r for r in rows.values())
    assert main(["bench", "--official", "--raw", str(problem_set)]) == 2
    assert "--official and --raw exclude each other" in capsys.readouterr().err


def test_a_rows_check_reports_its_progress(monkeypatch: pytest.MonkeyPatch) -> None:
    """将棋無双 23番 within 3 CPU s: the row's solve proves bounds of the length only, and its check goes
    on with that stopped search; the batch's progress bar gets the check's snapshots as the solve's.
    (90番, used before, has its length proved within 3 s here since paused questions keep their work.)"""
    with (DATA / "musou.tsv").open(encoding="utf-8") as f:
        row = next(r for r in csv.DictReader(f, delimiter="\t") if r["id"] == "musou-023")
    checking = [False]
    real = batch_module.check_row

    def spy(*args: Any, **kwargs: Any) -> dict[str, Any]:
        checking[0] = True
        return real(*args, **kwargs)
    monkeypatch.setattr(batch_module, "check_row", spy)
    seen: list[tuple[bool, Progress]] = []
    options = {**OPTIONS, "limits": {"nodes": None, "seconds": 3.0, "memory_mb": 256, "cpu_time": True}}
    line = solve_row(row, options, on_progress=lambda p: seen.append((checking[0], p)))
    assert line["status"] == "mate" and "check" in line and checking[0], line
    if line.get("exact") is not False:
        pytest.skip("this machine proved 23番's length within 3 CPU s: its check has nothing to go on with")
    assert line["check_reused"]
    solving = [p.phase for during, p in seen if not during]
    checked = [p.phase for during, p in seen if during]
    assert solving[0] is SearchPhase.MATE and SearchPhase.SHORTEST in solving
    assert checked and SearchPhase.SHORTEST in checked and SearchPhase.MATE not in checked   # the search going on


def test_a_rows_check_gives_the_bounds_its_search_proved() -> None:
    """将棋無双 23番 (published 25; its length takes minutes): within 2 CPU s the solve proves bounds, the
    check goes on with that search for 2 s more, and the row carries what it proved by then."""
    with (DATA / "musou.tsv").open(encoding="utf-8") as f:
        row = next(r for r in csv.DictReader(f, delimiter="\t") if r["id"] == "musou-023")
    options = {**OPTIONS, "limits": {"nodes": None, "seconds": 2.0, "memory_mb": 256, "cpu_time": True}}
    line = solve_row(row, options)
    assert line["exact"] is False and line["check_reused"] and line["check_length"] is None
    assert line["check"] == {"confirmed": False, "discrepancies": [], "complete": False}
    assert line["at_least"] <= line["check_at_least"] <= 25 <= line["check_at_most"] <= line["at_most"]

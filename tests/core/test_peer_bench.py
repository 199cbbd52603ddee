"""tools/peer_bench.py: reading a USI mate engine's output, its CPU limit, the kernel's figures.

A stand-in engine (``tests/data/stand_in_mate_engine.py``) prints what KomoringHeights prints;
no real peer engine is needed.
"""

from __future__ import annotations

import importlib.util
import json
import os
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]
STAND_IN = str(ROOT / "tests" / "data" / "stand_in_mate_engine.py")
THREE_PLY = "7k1/4R4/9/9/9/9/9/9/9 b SNr2b4g3s3n4l18p 1"


def load_tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location("peer_bench", ROOT / "tools" / "peer_bench.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["peer_bench"] = module  # dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


pb = load_tool()


def test_info_lines_as_komoringheights_prints_them() -> None:
    state = pb.InfoState()
    pb.parse_info("info time 62 nodes 24272 nps 391483 hashfull 1 depth 0 seldepth 18 score mate 15 "
                  "string # 1st result: mate in 15 nodes 7", state)
    assert (state.nodes, state.nps, state.time_ms, state.hashfull) == (24272, 391483, 62, 1)
    # Numbers after pv are moves' text, not fields; score takes two words after it.
    pb.parse_info("info time 90 nodes 30000 score cp -100 hashfull 2 pv 1a1b nodes 5", state)
    assert (state.nodes, state.time_ms, state.hashfull) == (30000, 90, 2)
    # A malformed number is skipped and the last good value kept; other lines are ignored.
    pb.parse_info("info nodes xx nps 12", state)
    pb.parse_info("checkmate nodes 1", state)
    assert (state.nodes, state.nps) == (30000, 12)


def test_checkmate_answers() -> None:
    assert pb.parse_checkmate("checkmate N*3c 2a1a S*1b") == ("mate", ["N*3c", "2a1a", "S*1b"])
    assert pb.parse_checkmate("checkmate nomate") == ("nomate", [])
    assert pb.parse_checkmate("checkmate timeout") == ("timeout", [])
    assert pb.parse_checkmate("info string checkmate") is None
    with pytest.raises(pb.BenchError):
        pb.parse_checkmate("checkmate")


def test_options_threads_and_hash_where_offered_then_the_users() -> None:
    offered = pb.parse_option_names(["option name Threads type spin default 4",
                                     "option name Post Search Level type combo default a var a",
                                     "id name X", "option name USI_Hash type spin default 16"])
    assert offered == {"threads", "post search level", "usi_hash"}
    assert pb.engine_options(offered, 256, [("threads", "2")]) == [("threads", "2"), ("USI_Hash", "256")]
    assert pb.engine_options({"usi_hash"}, 64, []) == [("USI_Hash", "64")]


def test_rows_every_and_only(tmp_path: Path) -> None:
    tsv = tmp_path / "p.tsv"
    tsv.write_text("id\tsfen\tlength\n" + "".join(f"p{i}\t{THREE_PLY}\t{i}\n" for i in range(1, 13)),
                   encoding="utf-8")
    assert [p.id for p in pb.read_problems(str(tsv), every=5)] == ["p1", "p6", "p11"]
    assert [(p.id, p.length) for p in pb.read_problems(str(tsv), only=["p9", "p2"])] == [("p2", 2), ("p9", 9)]
    with pytest.raises(pb.BenchError, match="p99"):
        pb.read_problems(str(tsv), only=["p99"])


def bench(tmp_path: Path, *args: str) -> tuple[int, list[dict[str, object]]]:
    out = tmp_path / "out.jsonl"
    code = pb.main([*args, "--json", str(out), "--memory", "32"])
    rows = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()] if out.exists() else []
    return code, rows


def stand_in(behaviour: str) -> list[str]:
    return ["--engine", sys.executable, "--engine-arg", STAND_IN, "--engine-arg", behaviour]


def test_a_mate_its_nodes_and_the_options_sent(tmp_path: Path) -> None:
    code, rows = bench(tmp_path, *stand_in("mate"), "--no-kernel", "--option", "Post Search Level=None",
                       "--sfen", "three", THREE_PLY)
    assert code == 0 and len(rows) == 1
    row = rows[0]
    # The last info line's nodes; the stand-in answers notimplemented unless Threads is 1.
    assert (row["engine"], row["status"], row["length"], row["nodes"]) == ("Stand In 1.0", "mate", 3, 2345)
    assert row["options"] == {"Threads": "1", "USI_Hash": "32", "Post Search Level": "None"}
    assert isinstance(row["cpu_process"], float) and row["cpu_process"] > 0
    # Its nodes are moves played only when told so (the table's column of moves played a second).
    def moves_cell(r: dict[str, object]) -> str:
        return pb.table([{**r, "cpu": 1.0}]).splitlines()[-1].split("|")[9].strip()

    assert "moves" not in row and moves_cell(row) == "—"
    code, rows = bench(tmp_path, *stand_in("mate"), "--no-kernel", "--peer-nodes-are-moves", "--sfen", "three",
                       THREE_PLY)
    assert code == 0 and rows[-1]["moves"] == 2345 and moves_cell(rows[-1]) == "2,345"


def test_a_line_that_does_not_mate_is_reported_wrong(tmp_path: Path) -> None:
    code, rows = bench(tmp_path, *stand_in("wrong"), "--no-kernel", "--sfen", "three", THREE_PLY)
    assert code == 0 and rows[0]["status"] == "wrong" and rows[0]["error"]
    assert "WRONG" in pb.table(rows)


@pytest.mark.skipif(not os.path.exists("/proc/self/stat"), reason="the CPU limit reads Linux /proc")
def test_the_cpu_limit_stops_the_engine(tmp_path: Path) -> None:
    code, rows = bench(tmp_path, *stand_in("spin"), "--no-kernel", "--seconds", "0.3", "--sfen", "three", THREE_PLY)
    row = rows[0]
    assert code == 0 and row["status"] == "timeout"
    assert isinstance(row["cpu"], float) and 0.3 <= row["cpu"] < 5
    assert isinstance(row["nodes"], int) and row["nodes"] > 0


def test_a_missing_engine_is_a_clear_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, rows = bench(tmp_path, "--engine", str(tmp_path / "nothing"), "--sfen", "three", THREE_PLY)
    assert code == 2 and rows == []
    assert "no engine at" in capsys.readouterr().err


def test_the_kernel_figures_come_from_tsume_batch(tmp_path: Path) -> None:
    try:
        pb.tsume_command(None)
    except pb.BenchError:
        pytest.skip("tsume is not installed")
    code, rows = bench(tmp_path, "--seconds", "20", "--sfen", "three", THREE_PLY)
    assert code == 0 and len(rows) == 1
    row = rows[0]
    assert row["status"] == "mate" and row["length"] == 3
    assert isinstance(row["nodes"], int) and row["nodes"] > 0
    assert isinstance(row["cpu"], float) and isinstance(row["cpu_process"], float)
    assert str(row["engine"]).startswith("tsume (")
    if row["engine"] == "tsume (kernel)":
        assert isinstance(row["moves"], int) and row["moves"] >= row["nodes"] - 1


ZUKOU_7 = "1nkg5/2s6/3rp4/1B7/r8/1PN6/9/9/9 b BG3SN2gn4l16p 1"


def test_cshogi_a_mate_after_the_cpu_limit_is_not_decided_a_node_limit_is_not_a_mate() -> None:
    problem = pb.Problem("zukou-7", ZUKOU_7)
    within = pb.run_cshogi(problem, 60, 500_000, pb.line_checker())
    assert within["status"] == "mate" and within["length"] % 2 == 1 and "over_limit" not in within
    # A line that does not replay to mate is wrong, never a mate.
    refuse = pb.run_cshogi(problem, 60, 500_000, lambda sfen, moves: "not mate")
    assert refuse["status"] == "wrong" and refuse["error"] == "not mate"
    # About 27,000 nodes: far more than a millisecond, far fewer than the node limit.
    late = pb.run_cshogi(problem, 0.001, 10**9)
    assert late["status"] == "unknown" and late["over_limit"] is True and late["nodes"] < late["node_limit"]
    starved = pb.run_cshogi(problem, 1, 100)
    assert starved["status"] == "unknown" and "over_limit" not in starved
    assert "over the limit" in pb.table([{**late, "problem": "z"}]) and "over" not in pb.table(
        [{**starved, "problem": "z"}])

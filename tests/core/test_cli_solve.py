"""``tsume solve`` and ``tsume batch`` from the command line."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tsume_studio.core.cli.main import main

# Every test here runs on both df-pn engines (the official answer asks either's table).
pytestmark = pytest.mark.usefixtures("engine")

THREE_PLY = "7k1/4R4/9/9/9/9/9/9/9 b SNr2b4g3s3n4l18p 1"
CLASSIC = "8k/6G2/R7P/9/9/9/9/9/9 b r2b3g4s4n4l17p 1"


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_solve_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(capsys, "solve", "--json", THREE_PLY)
    assert code == 0
    data = json.loads(out)
    assert data["status"] == "mate" and data["length"] == 3
    assert data["pv"][0] == "N*3c" and len(data["pv"]) == 3
    assert data["nodes"] > 0 and data["seconds"] >= 0
    assert data["exact"] is True and data["variations"] >= 1
    assert data["futile_interpositions"] == [] and isinstance(data["alternatives"], list)
    assert data["alternatives_checked"] is True and data["tree_complete"] is True


def test_solve_says_when_the_variations_were_not_all_measured(capsys: pytest.CaptureFixture[str],
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    # tanuki-9-425 (9 plies), its tree stopped (as a time limit would) after three variations'
    # lengths: the answer is exact; the text and the JSON say the tree is not whole, and a
    # variation not measured shows its bound.
    from tsume_studio.core.search import builder
    from tsume_studio.core.search.length_rule import SearchAborted

    measure = builder.AnswerBuilder._value
    asked = [0]

    def three_then_out_of_time(self: builder.AnswerBuilder, or_node: bool) -> object:
        asked[0] += 1
        if asked[0] > 3:
            raise SearchAborted("deadline")
        return (yield from measure(self, or_node))

    monkeypatch.setattr(builder.AnswerBuilder, "_value", three_then_out_of_time)
    sfen = "7G1/8k/7Rs/6S2/9/9/9/9/9 b Lr2b3g2s4n3l18p 1"
    code, out, _ = _run(capsys, "solve", "--json", sfen)
    data = json.loads(out)
    assert code == 0 and data["length"] == 9 and data["exact"] is True
    assert data["tree_complete"] is False and data["alternatives_checked"] is False
    asked[0] = 0
    code, out, _ = _run(capsys, "solve", sfen)
    assert code == 0 and out.startswith("mate in 9 (9手詰)")
    assert "variations: not all measured" in out and " — ≤ " in out


def test_solve_classic_futile_case(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(capsys, "solve", "--json", CLASSIC)
    data = json.loads(out)
    assert code == 0 and data["length"] == 1 and data["pv"] == ["9c9a+"]
    squares = {f["move"][2:] for f in data["futile_interpositions"]}
    assert squares == {"2a", "3a", "4a", "5a", "6a", "7a", "8a"}
    assert all(f["path"] == ["9c9a+"] and f["reason"] for f in data["futile_interpositions"])


def test_solve_text_shows_line_and_defences(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(capsys, "solve", THREE_PLY)
    assert code == 0
    assert "mate in 3" in out and "▲３三桂打" in out and "N*3c" in out
    assert "proof tree" in out and "△３一玉" in out   # the other defence, indented


def test_solve_no_mate(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(capsys, "solve", "--json", "4k4/9/4P4/9/9/9/9/9/9 b 2r2b4g4s4n4l17p 1")
    assert code == 1 and json.loads(out)["status"] == "no_mate"   # a negative answer


def test_solve_limit_is_unknown(capsys: pytest.CaptureFixture[str]) -> None:
    microcosmos = (Path(__file__).parent.parent / "data" / "microcosmos.tsv").read_text(encoding="utf-8")
    sfen = microcosmos.splitlines()[-1].split("\t")[1]
    code, out, _ = _run(capsys, "solve", "--json", "--nodes", "2000", sfen)
    assert code == 1 and json.loads(out)["status"] == "unknown"   # no mate found


@pytest.mark.parametrize("argv, message", [
    (("solve", "9/9 b - 1"), "expected 9 ranks"),
    (("solve", "P8/9/9/9/9/9/9/9/9 b - 1"), "no king"),
    (("solve", "--file", "/nonexistent/problem.kif"), "no such file"),
    (("solve", "/nonexistent/problem.kif"), "no such file: '/nonexistent/problem.kif'"),
    (("solve", "problem.kif", "--file", "other.kif"), "not both"),
    (("solve",), "no position"),
    (("solve", "--seconds", "-1", THREE_PLY), "--seconds must be positive"),
    (("batch", "/nonexistent.tsv"), "no such file"),
])
def test_user_mistakes_are_one_line(capsys: pytest.CaptureFixture[str], argv: tuple[str, ...],
                                    message: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    code, _, err = _run(capsys, *argv)
    assert code == 2
    assert message in err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "out.kif").exists()


def test_no_mate_writes_no_record(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    code, _, err = _run(capsys, "solve", "--kif", "out.kif", "4k4/9/4P4/9/9/9/9/9/9 b 2r2b4g4s4n4l17p 1")
    assert code == 1   # a negative answer, not a user error
    assert "nothing to write" in err and "'out.kif'" in err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "out.kif").exists()


def test_solve_writes_kif(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from tsume_studio.core.records.formats import read_record

    out = tmp_path / "answer.kifu"
    code, _, _ = _run(capsys, "solve", "--kif", str(out), THREE_PLY)
    assert code == 0
    record = read_record(str(out))
    assert [m.usi() for m in record.main_line()] == ["N*3c", "2a1a", "S*1b"]
    assert record.start.sfen() == THREE_PLY
    assert len(record.root.children[0].children) == 2   # both defences


def test_solve_from_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    problem = tmp_path / "p.sfen"
    problem.write_text(THREE_PLY + "\n", encoding="utf-8")
    code, out, _ = _run(capsys, "solve", "--json", "--file", str(problem))
    assert code == 0 and json.loads(out)["length"] == 3


def test_a_lone_file_name_is_read_as_with_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    problem = tmp_path / "p.sfen"
    problem.write_text(THREE_PLY + "\n", encoding="utf-8")
    code, out, _ = _run(capsys, "solve", "--json", str(problem))
    assert code == 0 and json.loads(out)["length"] == 3
    named = tmp_path / "problem"   # an existing file without an extension: the record reader's own error
    named.write_text(THREE_PLY + "\n", encoding="utf-8")
    code, _, err = _run(capsys, "solve", str(named))
    assert code == 2 and "unknown record extension" in err
    # SFEN given in words is still SFEN
    code, out, _ = _run(capsys, "solve", "--json", *THREE_PLY.split())
    assert code == 0 and json.loads(out)["length"] == 3


def test_batch_reports_every_row_and_a_summary(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    tsv = tmp_path / "set.tsv"
    tsv.write_text("id\tsfen\tlength\n"
                   f"three\t{THREE_PLY}\t3\n"
                   f"classic\t{CLASSIC}\t15\n"          # raw-rule length: shorter under tsume rules
                   "bad\t9/9 b - 1\t1\n", encoding="utf-8")
    code, out, _ = _run(capsys, "batch", str(tsv))
    assert code == 0
    lines = [json.loads(line) for line in out.splitlines()]
    rows = {r["id"]: r for r in lines if "id" in r}
    assert rows["three"]["status"] == "mate" and rows["three"]["length"] == 3 and "mismatch" not in rows["three"]
    assert rows["classic"]["length"] == 1 and rows["classic"]["mismatch"] is True
    assert rows["bad"]["status"] == "error" and "ranks" in rows["bad"]["error"]
    summary = lines[-1]
    assert summary["summary"] and summary["problems"] == 3 and summary["solved"] == 2
    assert summary["wrong_length"] == 1 and summary["unsolved"] == 1


def test_batch_helpmate(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rows = (Path(__file__).parent.parent / "data" / "helpmate.tsv").read_text(encoding="utf-8").splitlines()
    # Short rows, leaving out fmrs-ofm-139_5 (5 plies, but 27 million positions wide).
    header, body = rows[0], [r for r in rows[1:] if r.split("\t")[2] in ("3", "5") and "ofm-139" not in r][:3]
    tsv = tmp_path / "help.tsv"
    tsv.write_text("\n".join([header] + body) + "\n", encoding="utf-8")
    code, out, _ = _run(capsys, "batch", "--helpmate", str(tsv))
    assert code == 0
    summary = json.loads(out.splitlines()[-1])
    assert summary["solved"] == 3 and summary["wrong_length"] == 0


def test_installed_script_has_no_traceback() -> None:
    proc = subprocess.run([sys.executable, "-m", "tsume_studio.core.cli.main", "solve", "not an sfen"],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2
    assert proc.stderr.startswith("tsume: error:") and "Traceback" not in proc.stderr


MIRROR_HELPMATE = "9/9/9/3bkb3/9/3+R1+R3/9/9/9 b 4g4s4n4l18p 1"


def test_solve_helpmate_lists_the_other_shortest_helpmates(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(capsys, "solve", "--helpmate", MIRROR_HELPMATE)
    assert code == 0
    assert out.startswith("helpmate in 5 (協力詰5手)\n")          # proved shortest: no caveat
    assert "other helpmates of this length (余詰): 1\n" in out
    usi = [line.split("usi:", 1)[1].split() for line in out.splitlines() if "usi:" in line]
    assert len(usi) == 2 and usi[0] != usi[1] and all(len(line) == 5 for line in usi)
    code, out, _ = _run(capsys, "solve", "--helpmate", "--json", MIRROR_HELPMATE)
    data = json.loads(out)
    assert data["exact"] is True and data["alternatives_checked"] is True and data["solutions_complete"] is True
    assert len(data["solutions"]) == 2 and data["solutions"][0] == data["pv"]
    assert sorted(data["solutions"]) == sorted(usi)


def test_solve_helpmate_says_what_it_did_not_check(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = _run(capsys, "solve", "--helpmate", "--raw", MIRROR_HELPMATE)
    assert "余詰): not checked" in out
    _, out, _ = _run(capsys, "solve", "--helpmate", "--raw", "--json", MIRROR_HELPMATE)
    data = json.loads(out)
    assert data["alternatives_checked"] is False and data["solutions"] == [data["pv"]]
    _, out, _ = _run(capsys, "solve", "--helpmate", "--max-solutions", "1", MIRROR_HELPMATE)
    assert "more shortest helpmates exist than the 1 listed" in out
    code, _, err = _run(capsys, "solve", "--helpmate", "--max-solutions", "0", MIRROR_HELPMATE)
    assert code == 2 and "--max-solutions" in err

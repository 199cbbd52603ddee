"""core.check: the comparison of a given line with the official answer that the CLI and the window share."""

from __future__ import annotations

import csv
import threading
from pathlib import Path

import pytest

from tsume_studio.core.check import KINDS, CheckError, check_solution
from tsume_studio.core.search.contract import Limits
from tsume_studio.core.search.official import solve_official
from tsume_studio.core.shogi.position import Position

DATA = Path(__file__).resolve().parents[1] / "data"


def _sfen(row_id: str) -> str:
    with (DATA / "mate.tsv").open(encoding="utf-8") as f:
        return next(r for r in csv.DictReader(f, delimiter="\t") if r["id"] == row_id)["sfen"]


def _official(sfen: str) -> list[str]:
    proof = solve_official(Position.from_sfen(sfen))
    assert proof is not None
    return list(proof.main_line)


def test_a_promotion_choice_is_not_an_alternative_mate() -> None:
    """▲1一飛成 and ▲1一飛 (不成) both mate in time on ply 3 of this line: 成不成非限定, not 余詰;
    the line counts a futile drop and so ends with a pawn in the attacker's hand: 駒余り."""
    sfen = _sfen("tanuki-5-5")
    line = _official(sfen) + ["P*1d", "1a1d"]
    assert line[2] == "3a1a+"
    result = check_solution(Position.from_sfen(sfen), line)
    found = {(d.kind, d.ply, d.line[-1]) for d in result.discrepancies}
    assert ("promotion_choice", 3, "3a1a") in found
    assert not any(kind == "alternative" and last == "3a1a" for kind, _ply, last in found)
    assert ("pieces_left", 5, "1a1d") in found
    assert not result.confirmed
    assert all(d.kind in KINDS for d in result.discrepancies)


def test_the_official_line_is_confirmed_with_nothing_left_in_hand() -> None:
    sfen = _sfen("tanuki-5-1")
    result = check_solution(Position.from_sfen(sfen), _official(sfen))
    assert result.confirmed and result.complete and not result.discrepancies


def test_a_cancelled_check_is_not_complete() -> None:
    cancel = threading.Event()
    cancel.set()
    sfen = _sfen("tanuki-5-1")
    result = check_solution(Position.from_sfen(sfen), _official(sfen), Limits(seconds=30), cancel=cancel)
    assert not result.complete and not result.confirmed


def test_a_line_that_does_not_replay_is_a_check_error() -> None:
    with pytest.raises(CheckError, match="is not a check"):
        check_solution(Position.from_sfen(_sfen("tanuki-5-1")), ["9i9h"])

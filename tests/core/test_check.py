"""core.check: the comparison of a given line with the official answer that the CLI and the window share."""

from __future__ import annotations

import csv
import threading
from collections.abc import Callable, Generator
from pathlib import Path
from typing import Any

import pytest

from tsume_studio.core import check as check_module
from tsume_studio.core.check import KINDS, CheckError, check_iter, check_solution
from tsume_studio.core.search.contract import Limits, Progress, SearchPhase, SolveResult, SolveStatus, drive
from tsume_studio.core.search.kernel_length import KernelLengthSearch
from tsume_studio.core.search.length_search import LengthSearch
from tsume_studio.core.search.length_rule import AnswerSession, BoundedSearch
from tsume_studio.core.search.solver import solve
from tsume_studio.core.search.length_search import solve_official
from tsume_studio.core.shogi.position import Position

# Every test here runs on both df-pn engines (the official answer asks either's table).
pytestmark = pytest.mark.usefixtures("engine")

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


# ---- solve once: the check asks the solve's own search -----------------------------

@pytest.mark.parametrize("row_id, extra", [
    ("tanuki-5-5", ["P*1d", "1a1d"]),   # short; a futile drop counted, a promotion choice
    ("mog-1033", []),                   # df-pn's proof 19 plies; 成不成非限定
])
def test_a_check_reuses_the_solve_and_finds_the_same(row_id: str, extra: list[str]) -> None:
    """With the solve's :class:`AnswerSession` the check asks the table the answer was built
    from: the same verdict as a check that solves from scratch, for a fraction of its nodes."""
    sfen = _sfen(row_id)
    position = Position.from_sfen(sfen)
    session = AnswerSession()
    solved = solve(position, Limits(seconds=60), force=True, session=session)
    assert solved.extra["exact"] and session.usable_for(position.sfen())
    line = list(solved.pv) + extra
    reused = check_solution(position, line, Limits(seconds=60), session=session)
    fresh = check_solution(position, line, Limits(seconds=60))
    assert reused.reused and not fresh.reused
    assert reused.check_json() == fresh.check_json() and reused.discrepancies   # each has one to find
    assert reused.length == fresh.length == solved.length
    # The fresh check solves again (its own df-pn and exact length); the reused one
    # only asks what the solve did not.
    assert reused.nodes < fresh.nodes
    if row_id == "mog-1033":
        # The official line checked: the answer's builder asked nearly every question already.
        assert fresh.nodes > solved.nodes // 2 and reused.nodes * 100 < fresh.nodes


def test_a_session_of_another_position_is_not_used() -> None:
    session = AnswerSession()
    solve(Position.from_sfen(_sfen("tanuki-5-1")), Limits(seconds=60), session=session)
    other = _sfen("tanuki-5-5")
    result = check_solution(Position.from_sfen(other), _official(other), session=session)
    assert not result.reused and result.confirmed


def test_a_solve_already_done_is_not_done_again(monkeypatch: pytest.MonkeyPatch) -> None:
    """``solved`` (the window's own solve, with the session it filled) is where the check starts:
    a solve stopped before df-pn proved anything leaves nothing to check, and is not redone."""
    sfen = _sfen("mog-1033")
    position = Position.from_sfen(sfen)
    line = _official(sfen)
    session = AnswerSession()
    cut = solve(position, Limits(nodes=2), force=True, session=session)
    assert cut.status is SolveStatus.UNKNOWN and not session.resumable_for(sfen)
    solves: list[str] = []
    real = check_module.solve_iter

    def spy(*args: Any, **kwargs: Any) -> Generator[Progress, None, SolveResult]:
        solves.append("solve")
        return (yield from real(*args, **kwargs))
    monkeypatch.setattr(check_module, "solve_iter", spy)
    result = check_solution(position, line, Limits(seconds=60), session=session, solved=cut)
    assert solves == [] and result.length is None and not result.complete and result.nodes == 0
    # Without it, the same session (not usable) makes the check solve for itself, to the end.
    full = check_solution(position, line, Limits(seconds=60), session=session)
    assert solves == ["solve"] and full.complete and full.length == len(line) and full.nodes > 0
    # A solve of no mate is no line to check; a solve of another position is refused.
    nomate = Position.from_sfen("lns3kn1/1r7/4pgs+R1/2pp1p3/pp2P4/2P1SP3/PPSP5/2GBG4/LN1K3N+l b BG3Pl3p 49")
    none = solve(nomate, Limits(seconds=60), force=True, session=AnswerSession())
    assert none.status is SolveStatus.NO_MATE
    with pytest.raises(CheckError):
        check_solution(nomate, ["3c3b"], session=AnswerSession(), solved=none)
    with pytest.raises(ValueError, match="not of the position checked"):
        check_solution(position, line, session=AnswerSession(), solved=none)
    assert solves == ["solve"]


def test_the_check_reports_its_progress_ply_by_ply(monkeypatch: pytest.MonkeyPatch) -> None:
    """check_iter yields the solve's progress, then the check's: phase CHECK with the ply of the line it
    examines.  A question reports only when it runs long; here each reports once as it starts (so that a
    short problem shows it), which changes nothing of the verdict."""
    sfen = _sfen("mog-1033")
    position = Position.from_sfen(sfen)
    line = _official(sfen)
    quiet = check_solution(position, line, Limits(seconds=60))
    for cls in (LengthSearch, KernelLengthSearch):
        for name in ("exact", "and_within", "or_within", "defences"):
            monkeypatch.setattr(cls, name, _reporting(getattr(cls, name)))
    seen: list[Progress] = []
    result = drive(check_iter(position, line, Limits(seconds=60)), seen.append)
    assert result.check_json() == quiet.check_json() and result.length == quiet.length == len(line)
    phases = [p.phase for p in seen]
    assert phases[0] is SearchPhase.MATE and SearchPhase.SHORTEST in phases and phases[-1] is SearchPhase.CHECK
    first = phases.index(SearchPhase.CHECK)
    assert set(phases[first:]) == {SearchPhase.CHECK}       # the solve's phases, then the check's only
    plies = [dict(p.stats) for p in seen[first:]]
    assert all(st["check_plies"] == len(line) for st in plies)
    ply = [int(st["check_ply"]) for st in plies]
    assert ply == sorted(ply) and set(ply) == set(range(1, len(line) + 1))   # every ply, in order


Question = Callable[..., Generator[Progress, None, Any]]


def _reporting(question: Question) -> Question:
    """``question`` of a length search, reporting its progress once as it starts."""
    def asked(self: BoundedSearch, *args: Any, **kwargs: Any) -> Generator[Progress, None, Any]:
        yield self.progress()
        return (yield from question(self, *args, **kwargs))
    return asked


def test_a_solve_stopped_while_asking_the_length_goes_on_in_the_check(engine: str) -> None:
    """将棋無双 7番 (published 15; 25 exact): within 300,000 nodes the solve proves only "at least 19,
    at most 29"; its search is kept, and the check goes on with it within its own 600,000 nodes:
    the length 25, and the three 変長 the check of a full solve reports (test_musou_discrepancies
    re-proves them apart from the tool)."""
    if engine == "python":
        # Measured 2026-11-28: the Python engine's solve within these nodes takes 57 CPU s and stops
        # at other bounds (at most 25); the check's going on is the same code for both engines.
        pytest.skip("the Python engine's solve of this row within 600,000 nodes takes about a CPU minute")
    with (DATA / "musou.tsv").open(encoding="utf-8") as f:
        row = next(r for r in csv.DictReader(f, delimiter="\t") if r["id"] == "musou-007")
    position = Position.from_sfen(row["sfen"])
    session = AnswerSession()
    solved = solve(position, Limits(nodes=300_000), force=True, session=session)
    assert not solved.extra["exact"] and session.resumable_for(position.sfen())
    assert (solved.extra["at_least"], solved.extra["at_most"]) == (19, 29)
    seen: list[Progress] = []
    result = drive(check_iter(position, row["pv"].split(), Limits(nodes=600_000), session=session), seen.append)
    assert result.reused and result.complete and result.length == 25 and not result.confirmed
    assert seen and seen[0].phase is SearchPhase.SHORTEST   # the length search going on, as the solve showed it
    assert [(d.kind, d.ply, d.line[-1]) for d in result.discrepancies] == [
        ("longer_defence", 4, "6b7b"), ("longer_defence", 6, "7c7b"), ("longer_defence", 6, "7c8d")]
    assert session.usable_for(position.sfen()) and not session.resumable_for(position.sfen())
    # Stopped on request, a search is not kept to go on with.
    cancel = threading.Event()
    cancel.set()
    stopped = AnswerSession()
    solve(position, Limits(seconds=60), cancel, force=True, session=stopped)
    assert not stopped.resumable_for(position.sfen())

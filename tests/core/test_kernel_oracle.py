"""The kernel's df-pn as the official answer's oracle, and a stopped solve resumed.

``DfPnSearch.probe`` and ``search_position`` (core/kernel/c++/bind_search.cpp)
answer what the official answer asks of df-pn's table; they are checked here
against the Python engine's ``DfPn`` on the same positions, and for their
input checks.  ``SearchSession`` keeps a stopped search so that a second
solve continues it: its node count goes on and its table is kept.
"""

from __future__ import annotations

import csv
import threading
from pathlib import Path

import cshogi
import pytest

from tsume_studio.core.search import kernel_engine
from tsume_studio.core.search.contract import Limits, SolveStatus, drive
from tsume_studio.core.search.dfpn import DfPn, Outcome
from tsume_studio.core.search.kernel_oracle import KernelOracle, engine_of, make_oracle
from tsume_studio.core.search.solver import SearchSession, solve, solve_iter
from tsume_studio.core.shogi.position import Position

DATA = Path(__file__).parent.parent / "data"
with (DATA / "mate.tsv").open(encoding="utf-8") as _f:
    ROWS = {r["id"]: r for r in csv.DictReader(_f, delimiter="\t")}
with (DATA / "microcosmos.tsv").open(encoding="utf-8") as _f:
    TAILS = {r["id"]: r for r in csv.DictReader(_f, delimiter="\t")}

needs_kernel = pytest.mark.skipif(not kernel_engine.available(), reason="the C++ kernel is not built")

MATE3 = "7k1/4R4/9/9/9/9/9/9/9 b SNr2b4g3s3n4l18p 1"
# A pawn on the last rank (a piece that can never move): searchable under --force, refused by the kernel's board.
DEAD = "P3k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l16p 1"
# 二歩: searchable under --force, and the kernel's board takes it.
NIFU = "4k4/9/4P4/9/9/4P4/9/9/9 b G2r2b3g4s4n4l16p 1"


def _proved_oracle(sfen: str) -> KernelOracle:
    # As make_oracle builds it: each new check played as its node expands.
    oracle = KernelOracle(kernel_engine.new_search(sfen, 64, play_checks=True), cshogi.Board(sfen).turn)
    assert oracle.search(cshogi.Board(sfen)) == Outcome.PROVEN
    return oracle


@needs_kernel
@pytest.mark.parametrize("row_id", ["tanuki-5-227", "mog-1033", "tanuki-9-444"])
def test_probe_agrees_with_the_python_table_along_the_line(row_id: str) -> None:
    """Along df-pn's line both engines' tables say proved, and bound the length alike from above."""
    sfen = ROWS[row_id]["sfen"]
    kernel = _proved_oracle(sfen)
    python = DfPn(cshogi.Board(sfen).turn, 64)
    assert python.search(cshogi.Board(sfen)) == Outcome.PROVEN
    board = cshogi.Board(sfen)
    root = kernel.entry(board)
    assert root is not None and root[1] == 0 and root[2] >= 10**12
    assert root[5] >= int(ROWS[row_id]["length"])   # a raw proof's length bounds the official one
    move = root[6]
    assert move in list(board.check_moves)          # the proving move, in cshogi's encoding
    line, complete = kernel.kernel.principal_variation()
    assert complete and len(line) == root[5]
    for usi in line:
        board.push(board.move_from_usi(usi))
        e = kernel.entry(board)
        if e is not None:
            assert e[1] == 0   # proved all along the line
            assert kernel.lookup(board) == (e[1], e[2])


@needs_kernel
def test_a_sub_position_is_searched_into_the_same_table() -> None:
    sfen = ROWS["mog-1033"]["sfen"]
    kernel = _proved_oracle(sfen)
    board = cshogi.Board(sfen)
    nodes = kernel.nodes
    # A defender-to-move position off the line, searched as an AND node with a node budget.
    check = next(m for m in board.check_moves if cshogi.move_to_usi(m) != kernel.kernel.principal_variation()[0][0])
    board.push(check)
    outcome = kernel.search(board, or_node=False, node_limit=kernel.nodes + 300)
    assert outcome in (Outcome.PROVEN, Outcome.DISPROVEN, Outcome.UNKNOWN)
    assert nodes < kernel.nodes <= nodes + 300 + 1024
    if outcome != Outcome.UNKNOWN:
        e = kernel.entry(board)
        assert e is not None and (e[1] == 0) == (outcome == Outcome.PROVEN)
    # The root is still read from the table, not searched again.
    before = kernel.nodes
    assert kernel.search(cshogi.Board(sfen)) == Outcome.PROVEN and kernel.nodes - before <= 1


@needs_kernel
def test_bad_input_raises_value_error_and_loses_nothing() -> None:
    search = kernel_engine.new_search(MATE3, 16)
    assert search.run() == "proven"
    entries = search.entries
    for bad in ("", "garbage", "9/9/9 b - 1", "7k1/4R4/9/9/9/9/9/9/9 x - 1"):
        with pytest.raises(ValueError):
            search.probe(bad)
        with pytest.raises(ValueError):
            search.search_position(bad, True)
    # An OR node has the attacker to move, an AND node the defender.
    defender_to_move = "7k1/4R4/9/9/9/9/9/9/9 w SNr2b4g3s3n4l18p 1"
    with pytest.raises(ValueError, match="OR node"):
        search.search_position(defender_to_move, True)
    with pytest.raises(ValueError, match="AND node"):
        search.search_position(MATE3, False)
    with pytest.raises(ValueError, match="NaN"):
        search.search_position(MATE3, True, 0, float("nan"))
    assert search.entries == entries and search.probe(MATE3) is not None
    # The oracle takes what the kernel refuses as "unknown" / "nothing stored".
    oracle = KernelOracle(search, 0)
    dead = cshogi.Board(DEAD)
    assert oracle.entry(dead) is None
    assert oracle.search(dead) == Outcome.UNKNOWN


@needs_kernel
def test_probe_while_the_search_runs_is_refused() -> None:
    search = kernel_engine.new_search(TAILS["microcosmos-tail-81"]["sfen"], 64)
    thread = threading.Thread(target=search.run)
    thread.start()
    try:
        refused = 0
        for _ in range(200):
            try:
                search.probe(MATE3)
            except RuntimeError:
                refused += 1
                break
            except ValueError:
                pass   # another attacker's position: refused for that reason, not running yet
        assert refused == 1
    finally:
        search.cancel()
        thread.join()


def test_make_oracle_follows_the_engine_choice(engine: str) -> None:
    oracle = make_oracle(cshogi.Board(MATE3), 16)
    assert engine_of(oracle) == engine
    # A dead piece (searchable under --force): the kernel refuses it, the Python engine searches it.
    assert engine_of(make_oracle(cshogi.Board(DEAD), 16)) == "python"
    assert engine_of(make_oracle(cshogi.Board(NIFU), 16)) == engine


def test_the_default_solve_says_which_engine_ran(engine: str) -> None:
    result = solve(Position.from_sfen(ROWS["mog-1033"]["sfen"]))
    assert result.status is SolveStatus.MATE and result.length == 13 and result.extra["exact"]
    assert result.extra["engine"] == engine and result.extra["cpu_seconds"] > 0
    # A dead piece with force: the kernel refuses the position, the Python engine solves it and says so.
    dead = solve(Position.from_sfen(DEAD), force=True)
    assert dead.status is SolveStatus.MATE and dead.length == 1 and dead.extra["engine"] == "python"
    nifu = solve(Position.from_sfen(NIFU), force=True)
    assert nifu.status is SolveStatus.MATE and nifu.length == 1 and nifu.extra["engine"] == engine


def test_a_stopped_solve_resumes_with_its_table(engine: str) -> None:
    """Node limit first, then more: the second run goes on from the first's nodes and proves."""
    position = Position.from_sfen(ROWS["mog-1037"]["sfen"])   # df-pn alone: 3,211 nodes on the kernel
    session = SearchSession()
    first = solve(position, Limits(nodes=500), resume=session)
    assert first.status is SolveStatus.UNKNOWN and first.extra["engine"] == engine
    assert session.holds(position.sfen()) and session.nodes == first.nodes
    seen: list[int] = []
    second = drive(solve_iter(position, Limits(seconds=60), resume=session), lambda p: seen.append(p.nodes))
    assert second.status is SolveStatus.MATE and second.length == 13 and second.extra["exact"]
    assert seen and min(seen) >= first.nodes and second.nodes > first.nodes
    # One run from scratch needs about as many df-pn nodes as both runs together: the table was kept.
    # (The kernel's df-pn alone estimates a check's numbers by default; the official answer's plays
    # each check, so the fresh run is made alike.)
    if engine == "kernel":
        fresh = kernel_engine.new_search(position.sfen(), 1024, play_checks=True)
        assert fresh.run(0, 60.0, True) == "proven"
        fresh_nodes = fresh.nodes
    else:
        fresh_nodes = solve(position, Limits(seconds=60), exact=False).nodes
    assert second.nodes >= fresh_nodes
    assert not session.holds(position.sfen())   # answered: the search is let go


def test_a_cancelled_solve_resumes(engine: str) -> None:
    position = Position.from_sfen(ROWS["mog-1036"]["sfen"])
    session = SearchSession()
    cancel = threading.Event()
    cancel.set()   # stopped at its first look at the flag
    first = solve(position, Limits(), cancel, resume=session)
    assert first.status is SolveStatus.CANCELLED and session.holds(position.sfen())
    second = solve(position, Limits(seconds=60), resume=session)
    assert second.status is SolveStatus.MATE and second.length == 7 and second.nodes >= first.nodes


def test_a_session_of_another_position_is_not_resumed(engine: str) -> None:
    session = SearchSession()
    solve(Position.from_sfen(ROWS["mog-1037"]["sfen"]), Limits(nodes=1500), resume=session)
    assert session.search is not None
    other = solve(Position.from_sfen(MATE3), Limits(), resume=session)
    assert other.status is SolveStatus.MATE and other.length == 3
    assert other.nodes < 1500 and session.search is None


@needs_kernel
def test_probe_and_search_position_refuse_or_answer_mutated_positions() -> None:
    """Mutated SFEN given to the oracle entry points: a ValueError or an answer, never a crash."""
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    search = kernel_engine.new_search(MATE3, 16)
    assert search.run() == "proven"
    alphabet = "plnsgbrkPLNSGBRK+/0123456789 -bw*"

    @given(st.lists(st.tuples(st.integers(0, 60), st.sampled_from(alphabet)), min_size=1, max_size=4),
           st.booleans(), st.integers(0, 2000))
    @settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    def fuzz(edits: list[tuple[int, str]], or_node: bool, nodes: int) -> None:
        text = list(MATE3)
        for i, ch in edits:
            text[min(i, len(text) - 1)] = ch
        sfen = "".join(text)
        try:
            got = search.probe(sfen)
        except ValueError:
            pass
        else:
            assert got is None or (len(got) == 4 and got[0] >= 0 and got[1] >= 0)
        try:
            outcome = search.search_position(sfen, or_node, nodes, 0.05)
        except ValueError:
            return
        assert outcome in ("proven", "disproven", "unknown")

    fuzz()
    assert search.probe(MATE3) is not None   # the table still answers the root


@needs_kernel
@pytest.mark.usefixtures("collector_paused")
@pytest.mark.parametrize("sliced", [False, True], ids=["watched-thread", "slices"])
def test_an_oracle_search_is_cancelled_and_the_table_stays_usable(sliced: bool,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """A search with no pause (tsume check's proof of the root) runs whole on a watched thread; one
    with a pause (the official answer's look at a sub-position) runs here in slices, and a cancel
    set inside a slice is passed on to the kernel, not left until the slice ends."""
    import time

    from tsume_studio.core.search import kernel_oracle

    if sliced:
        monkeypatch.setattr(kernel_oracle, "_SLICE", 5.0)   # one long slice: its end cannot be what stops it
    sfen = TAILS["microcosmos-tail-81"]["sfen"]
    oracle = KernelOracle(kernel_engine.new_search(sfen, 64), 0)
    cancel = threading.Event()
    timer = threading.Timer(0.3, cancel.set)
    timer.start()
    t0 = time.monotonic()
    pause_at = t0 + 30.0 if sliced else None
    assert oracle.search(cshogi.Board(sfen), cancel=cancel, pause_at=pause_at) == Outcome.UNKNOWN
    elapsed = time.monotonic() - t0
    assert not oracle.paused
    assert 0.3 <= elapsed < 0.3 + 0.1
    stopped = oracle.nodes
    assert stopped > 0
    # The cancel is forgotten: the next search goes on from the table and proves the root.
    assert oracle.search(cshogi.Board(sfen)) == Outcome.PROVEN
    assert oracle.nodes > stopped

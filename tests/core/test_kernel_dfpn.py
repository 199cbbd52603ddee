"""The kernel's df-pn (C++) against the Python engine, cshogi and the problem sets; its entry points under abuse."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import cshogi
import pytest

from tsume_studio.core.search import kernel_engine
from tsume_studio.core.search.contract import Limits, Progress, SolveStatus, drive
from tsume_studio.core.search.dfpn import Options
from tsume_studio.core.search.solver import solve, solve_iter
from tsume_studio.core.shogi.position import Position

DATA = Path(__file__).parent.parent / "data"

needs_kernel = pytest.mark.skipif(not kernel_engine.available(), reason="the C++ kernel is not built in this install")


def _rows(name: str) -> list[list[str]]:
    return [line.split("\t") for line in (DATA / name).read_text(encoding="utf-8").splitlines()[1:]]


def _kernel() -> Any:
    from tsume_studio.core import kernel

    return kernel


def _replays_to_mate(sfen: str, pv: list[str] | tuple[str, ...]) -> bool:
    """Every move legal (cshogi), every attacker move a check, and the last one mates."""
    board = cshogi.Board(sfen)
    for i, usi in enumerate(pv):
        move = board.move_from_usi(usi)
        if not move or not board.is_legal(move):
            return False
        board.push(move)
        if i % 2 == 0 and not board.is_check():
            return False
    return len(pv) % 2 == 1 and board.is_game_over()


# ---- choosing the engine ----------------------------------------------------------------

def test_engine_choice_follows_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TSUME_ENGINE", "python")
    assert kernel_engine.engine_choice() == "python"
    monkeypatch.setenv("TSUME_ENGINE", "fortran")
    with pytest.raises(kernel_engine.EngineChoiceError, match="'fortran'"):
        kernel_engine.engine_choice()
    monkeypatch.delenv("TSUME_ENGINE")
    assert kernel_engine.engine_choice() == ("kernel" if kernel_engine.available() else "python")


def test_forcing_a_missing_kernel_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(kernel_engine, "_KERNEL", None)
    monkeypatch.setenv("TSUME_ENGINE", "kernel")
    with pytest.raises(kernel_engine.EngineChoiceError, match="not built"):
        kernel_engine.engine_choice()
    monkeypatch.delenv("TSUME_ENGINE")
    assert kernel_engine.engine_choice() == "python"


def test_results_name_their_engine(engine: str) -> None:
    result = solve(Position.from_sfen("7k1/4R4/9/9/9/9/9/9/9 b SNr2b4g3s3n4l18p 1"), exact=False)
    assert result.status is SolveStatus.MATE
    assert result.extra["engine"] == engine
    assert isinstance(result.extra["cpu_seconds"], float) and result.extra["cpu_seconds"] >= 0.0


def test_a_depth_limit_never_disproves(engine: str) -> None:
    # A line cut by max_ply is "not mate on this path", never "no mate": the first mate.tsv rows of
    # 5 plies and more, searched 2 and 4 plies deep, each come back unknown (or proved), not no mate
    # (the Python engine's cshogi 3-ply search off, so that its cuts are reached too).
    rows = [r for r in _rows("mate.tsv") if int(r[2]) >= 5][:25]
    for row_id, sfen, length, *_ in rows:
        for depth in (2, 4):
            result = solve(Position.from_sfen(sfen), Limits(nodes=20000), exact=False, force=True,
                           progress_interval=1e9, options=Options(max_ply=depth, mate3=False))
            assert result.status is not SolveStatus.NO_MATE, (row_id, length, depth)
        assert solve(Position.from_sfen(sfen), Limits(nodes=200000), exact=False,
                     force=True).status is SolveStatus.MATE, row_id


def test_json_of_the_cli_names_the_engine(engine: str) -> None:
    out = subprocess.run([sys.executable, "-m", "tsume_studio.core.cli.main", "solve", "--raw", "--json",
                          "7k1/4R4/9/9/9/9/9/9/9 b SNr2b4g3s3n4l18p 1"],
                         capture_output=True, text=True, check=False, timeout=60)
    data = json.loads(out.stdout)
    assert data["engine"] == engine and data["status"] == "mate" and "cpu_seconds" in data
    # Moves played: the kernel counts them (every node below the root is entered by one, and the
    # line is played as it is read); the Python engine does not report them.
    if engine == "kernel":
        assert data["moves"] >= max(data["nodes"] - 1, len(data["pv"])) > 0
    else:
        assert "moves" not in data


# ---- the kernel against the problem sets, cshogi and the Python engine ----------------------

@needs_kernel
def test_every_mate_row_is_proved_with_a_line_that_replays_to_mate(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TSUME_ENGINE", "kernel")
    rows = _rows("mate.tsv")
    assert len(rows) == 1040
    failures = []
    on_kernel = 0
    for row in rows:
        result = solve(Position.from_sfen(row[1]), Limits(seconds=20, cpu_time=True), exact=False, force=True)
        on_kernel += result.extra["engine"] == "kernel"
        if result.status is not SolveStatus.MATE or not _replays_to_mate(row[1], result.pv):
            failures.append((row[0], result.status.value, result.pv))
        elif result.length != len(result.pv) or len(result.pv) < int(row[2]):
            failures.append((row[0], "length", result.length))
    assert failures == []
    assert on_kernel == len(rows)   # 二歩 and dead pieces under --force too


@needs_kernel
def test_no_mate_rows_agree_with_the_python_engine(monkeypatch: pytest.MonkeyPatch) -> None:
    for row in _rows("nomate.tsv"):
        verdicts = []
        for name in ("kernel", "python"):
            monkeypatch.setenv("TSUME_ENGINE", name)
            verdicts.append(solve(Position.from_sfen(row[1]), Limits(seconds=60), exact=False).status)
        assert verdicts == [SolveStatus.NO_MATE, SolveStatus.NO_MATE], row[0]


@needs_kernel
def test_agrees_with_cshogi_and_the_python_engine_inside_searches(monkeypatch: pytest.MonkeyPatch) -> None:
    """Positions met inside problems (random play along checks and evasions): decided alike by all three."""
    rng = random.Random(11)
    rows = _rows("mate.tsv")
    decided = 0
    for _ in range(300):
        board = cshogi.Board(rng.choice(rows)[1])
        for _ply in range(rng.randrange(0, 6)):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
        if board.is_game_over() or board.is_check():
            continue
        try:
            position = Position.from_sfen(board.sfen())
        except ValueError:
            continue
        if position.problems():
            continue
        ref = cshogi.DfPn()
        ref.set_max_depth(255)
        ref.set_max_search_node(20000)
        cs_mate = ref.search(board)
        cs_no_mate = not cs_mate and ref.searched_node < 20000
        verdicts = {}
        for name in ("kernel", "python"):
            monkeypatch.setenv("TSUME_ENGINE", name)
            result = solve(position, Limits(nodes=20000), exact=False)
            verdicts[name] = result.status
            # The Python engine may prove a mate whose line it cannot read back (pv_complete false);
            # the kernel searches on until its line replays to mate.
            if result.status is SolveStatus.MATE and (name == "kernel" or result.extra.get("pv_complete", True)):
                assert _replays_to_mate(board.sfen(), result.pv), (name, board.sfen())
        k, p = verdicts["kernel"], verdicts["python"]
        # Never mate where another proves no mate, or the reverse.
        assert {k, p} != {SolveStatus.MATE, SolveStatus.NO_MATE}, board.sfen()
        assert not (cs_mate and SolveStatus.NO_MATE in (k, p)), board.sfen()
        assert not (cs_no_mate and SolveStatus.MATE in (k, p)), board.sfen()
        decided += k is not SolveStatus.UNKNOWN
    assert decided > 30


@needs_kernel
def test_repetition_only_is_no_mate() -> None:
    search = _kernel().DfPnSearch("8k/9/9/9/9/9/9/9/R8 b - 1", 16)
    assert search.run(0, 30.0, False) == "disproven"
    assert search.nodes > 100


@needs_kernel
def test_memory_bound_collects_and_still_proves(monkeypatch: pytest.MonkeyPatch) -> None:
    # 1 MB: about 26,000 entries; the proof visits about 180,000 nodes (tail 51, used before with
    # the far drops chained, takes 45,000 with the drops chained by the defender's hand).
    tail = next(r for r in _rows("microcosmos.tsv") if r[2] == "65")
    search = _kernel().DfPnSearch(tail[1], 1)
    assert search.run(0, 60.0, True) == "proven"
    assert search.collections > 0
    assert search.peak_entries <= search.capacity
    line, complete = search.principal_variation(0, 60.0, True)
    assert complete and _replays_to_mate(tail[1], line)


def _line_and_children(sfen: str, line: list[str]) -> list[str]:
    """The positions along ``line`` and every position one legal move from them."""
    board = cshogi.Board(sfen)
    out = []
    for usi in [*line, None]:
        out.append(board.sfen())
        for m in board.legal_moves:
            board.push(m)
            out.append(board.sfen())
            board.pop()
        if usi is not None:
            board.push_usi(usi)
    return out


@needs_kernel
@pytest.mark.parametrize("when", ["before", "after"])
def test_the_filter_of_decided_boards_misses_none(when: str) -> None:
    """The filter the length search reads before the raw table (tt.h: track_decided) never says
    "no verdict" on a board the table has one on: kept by the stores, the growths and the
    collections of a 1 MB table (before), or built from a table already full (after)."""
    tail = next(r for r in _rows("microcosmos.tsv") if r[2] == "65")
    search = _kernel().DfPnSearch(tail[1], 1 if when == "before" else 64)
    if when == "before":
        search.track_decided()
    assert search.run(0, 60.0, True) == "proven"
    if when == "before":
        assert search.collections > 0
    else:
        search.track_decided()
    line, complete = search.principal_variation(0, 60.0, True)
    assert complete
    decided = cleared = 0
    for sfen in _line_and_children(tail[1], line):
        entry = search.probe(sfen)
        if entry is not None and (entry[0] == 0 or entry[1] == 0):
            decided += 1
            assert search.may_be_decided(sfen), sfen
        elif not search.may_be_decided(sfen):
            cleared += 1
    assert decided > 20 and cleared > 0, (decided, cleared)   # it answered both ways
    search.clear_table()
    assert not search.may_be_decided(tail[1])


@needs_kernel
def test_a_defence_mated_in_one_is_stored_when_first_found() -> None:
    """An AND node's defences get the 1-ply mate test once, when it is first expanded: each one
    mated in one is then in the table as a proof of length 1 whose move mates (dfpn.h), so the
    node's later visits read it there.  Checked after the first move of mate-in-3 rows."""
    kernel = _kernel()
    checked = 0
    for row in [r for r in _rows("mate.tsv") if r[2] == "3"][:40]:
        search = kernel.DfPnSearch(row[1], 16)
        assert search.run(0, 10.0, True) == "proven", row[0]
        line, complete = search.principal_variation(0, 10.0, True)
        assert complete and len(line) == 3, row[0]
        board = kernel.Board(row[1])
        board.push(line[0])
        for defence in board.evasions():
            board.push(defence)
            mate = board.mate_in_one()
            if mate is not None:
                entry = search.probe(board.sfen())
                assert entry is not None and entry[0] == 0 and entry[2] == 1, (row[0], defence, entry)
                board.push(entry[3])
                assert board.in_check() and not board.evasions(), (row[0], defence, entry)
                board.pop()
                checked += 1
            board.pop()
    assert checked > 40, checked


@needs_kernel
def test_a_cleared_table_searches_as_a_new_one() -> None:
    """clear_table() takes the table back to a new one's first array, so that the same search run
    again visits the nodes of a new search (rows whose search grows the table past that array)."""
    for row_id in ("microcosmos-tail-25", "microcosmos-tail-27", "microcosmos-tail-29"):
        sfen = next(r[1] for r in _rows("microcosmos.tsv") if r[0] == row_id)
        search = _kernel().DfPnSearch(sfen, 64)
        assert search.run(0, 20.0, True) == "proven"
        first = search.nodes
        assert search.peak_entries > 2048, row_id   # past the first array
        search.clear_table()
        assert search.entries == 0
        assert search.run(0, 20.0, True) == "proven"
        assert search.nodes == 2 * first, row_id


@needs_kernel
def test_line_is_searched_on_where_the_table_lost_it() -> None:
    """With the table emptied after the proof, the line is rebuilt by searching on from where
    reading stops, until it replays to mate."""
    for row in [r for r in _rows("microcosmos.tsv") if r[2] in ("21", "39", "55")]:
        search = _kernel().DfPnSearch(row[1], 64)
        assert search.run(0, 30.0, True) == "proven"
        nodes = search.nodes
        search.clear_table()
        assert search.entries == 0
        line, complete = search.principal_variation(0, 30.0, True)
        assert complete and _replays_to_mate(row[1], line), row[0]
        assert search.nodes > nodes   # it searched again


@needs_kernel
@pytest.mark.parametrize("delay", ["off", "far", "all", "hand"])
def test_delay_modes_keep_every_verdict(delay: str) -> None:
    for row in _rows("mate.tsv")[::53]:
        search = _kernel().DfPnSearch(row[1], 64, delay=delay)
        assert search.run(0, 20.0, True) == "proven", (delay, row[0])
        line, complete = search.principal_variation()
        assert complete and _replays_to_mate(row[1], line), (delay, row[0])


@needs_kernel
@pytest.mark.slow
def test_the_mistranscribed_zukou_7_has_no_mate() -> None:
    """The position once given for 将棋図巧 7番 (no knight on 7f, a second one in the defender's
    hand) has no mate: the kernel proves it in 10.2 M nodes (15 CPU s on the 2026-12-08 Xeon
    guest), as KomoringHeights (26 s) and cshogi's DfPn (17.5 M nodes, 95 s) do."""
    search = _kernel().DfPnSearch("1nkg5/2s6/3rp4/1B7/r8/1P7/9/9/9 b BG3SN2g2n4l16p 1", 1024)
    assert search.run(30_000_000, 300.0, True) == "disproven"


@needs_kernel
def test_the_default_delay_proves_zukou_7_in_few_nodes() -> None:
    """将棋図巧 7番, df-pn alone: 3,361 nodes with the default ``hand`` (the defender holds four
    kinds: every drop chained), where ``far`` took 232,595 (KomoringHeights 24,272, cshogi 27,123)."""
    zukou7 = "1nkg5/2s6/3rp4/1B7/r8/1PN6/9/9/9 b BG3SN2gn4l16p 1"
    search = _kernel().DfPnSearch(zukou7, 64)
    assert search.run(20_000, 20.0, True) == "proven"
    line, complete = search.principal_variation()
    assert complete and _replays_to_mate(zukou7, line)


@needs_kernel
def test_delay_by_hand_chains_as_all_where_the_defender_hand_is_crowded() -> None:
    """``delay="hand"`` (policy.delay_by_hand): every drop chained where the defender holds three
    kinds or more, as ``all`` chains them: the 1-ply problem with 49 futile drops of seven kinds is
    searched node for node as with ``all`` (289 nodes against far's 271 when written)."""
    futile = "8k/6G2/R7P/9/9/9/9/9/9 b r2b3g4s4n4l17p 1"
    nodes = {}
    for delay in ("far", "all", "hand"):
        search = _kernel().DfPnSearch(futile, 64, delay=delay)
        assert search.run(0, 20.0, True) == "proven"
        nodes[delay] = search.nodes
    assert nodes["hand"] == nodes["all"] != nodes["far"]
    with pytest.raises(ValueError, match="expected one of far, all, hand, off"):
        _kernel().DfPnSearch(futile, 64, delay="most")


@needs_kernel
def test_tca_raises_at_repeated_positions_save_the_search() -> None:
    """The 29-ply Microcosmos tail, plain search (no 3-ply test, no delayed drops, each new check
    played to count its evasions as the length search's raw oracle does): with TCA's counted raises
    at children that repeat a position of the path it is proved in 56,008 nodes, without them it
    needs 130,814 (measured when this was written); the verdict is the same.  (With the default
    estimated numbers the tail takes 40,866 nodes with TCA and 40,231 without, 2026-11-28.)"""
    tail = next(r for r in _rows("microcosmos.tsv") if r[2] == "29")
    with_tca = _kernel().DfPnSearch(tail[1], 64, mate3=False, delay="off", play_checks=True)
    assert with_tca.run(60000) == "proven"
    without = _kernel().DfPnSearch(tail[1], 64, mate3=False, delay="off", tca=False, play_checks=True)
    assert without.run(60000) == "unknown"
    assert without.run(0, 30.0, True) == "proven"


@needs_kernel
def test_three_ply_mate_test_keeps_every_verdict_and_saves_nodes() -> None:
    """mate3 on and off (where checks are played as their node expands, the only place it runs):
    the same verdicts and complete lines on every 3-ply row of mate.tsv and a few Microcosmos
    tails; with it on, fewer nodes in all."""
    rows = [r for r in _rows("mate.tsv") if r[2] == "3"][:40]
    rows += [r for r in _rows("microcosmos.tsv") if r[2] in ("21", "41", "55")]
    assert len(rows) > 40
    totals = {}
    for mate3 in (False, True):
        total = 0
        for row in rows:
            search = _kernel().DfPnSearch(row[1], 64, mate3=mate3, play_checks=True)
            assert search.run(0, 30.0, True) == "proven", (mate3, row[0])
            total += search.nodes
            line, complete = search.principal_variation(0, 30.0, True)
            assert complete and _replays_to_mate(row[1], line), (mate3, row[0])
        totals[mate3] = total
    assert totals[True] < totals[False]


@needs_kernel
def test_estimated_and_counted_initial_numbers_keep_every_verdict() -> None:
    """Checks estimated from the board and not played until searched (the default) against checks
    played to count their evasions (``play_checks``): the same verdict on every 13th row of
    mate.tsv, every no-mate row and the Microcosmos tails up to 61 plies, each mate's line complete
    and replaying to mate; the estimates play fewer moves in all (most checks are never searched)."""
    rows = [(r, "proven") for r in _rows("mate.tsv")[::13]] + [(r, "disproven") for r in _rows("nomate.tsv")]
    rows += [(r, "proven") for r in _rows("microcosmos.tsv") if r[2].isdigit() and int(r[2]) <= 61]
    assert len(rows) > 110
    moves = {}
    for play in (False, True):
        played = 0
        for row, expected in rows:
            search = _kernel().DfPnSearch(row[1], 64, play_checks=play)
            verdict = search.run(0, 30.0, True)
            played += search.moves
            assert verdict == expected, (play, row[0])
            if verdict == "proven":
                line, complete = search.principal_variation(0, 30.0, True)
                assert complete and _replays_to_mate(row[1], line), (play, row[0])
        moves[play] = played
    assert moves[False] < moves[True]


@needs_kernel
def test_progress_is_read_while_the_search_runs() -> None:
    tail = next(r for r in _rows("microcosmos.tsv") if r[2] == "101")
    search = _kernel().DfPnSearch(tail[1], 256)
    seen: list[Progress] = []
    thread = threading.Thread(target=search.run, args=(0, 3.0, True))
    thread.start()
    while thread.is_alive():
        seen.append(kernel_engine.progress_from_snapshot(search.snapshot(), 1.0))
        time.sleep(0.05)
    thread.join()
    running = [p for p in seen if p.nodes > 0 and p.root_pn > 0]
    assert len(running) >= 5
    assert any(p.path and p.root_children for p in running)
    assert [p.nodes for p in seen] == sorted(p.nodes for p in seen)


@needs_kernel
def test_moves_played_are_counted_the_same_each_run() -> None:
    tail = next(r for r in _rows("microcosmos.tsv") if r[2] == "41")
    counts = []
    for _ in range(2):
        search = _kernel().DfPnSearch(tail[1], 64)
        assert search.moves == 0
        assert search.run() == "proven"
        after_search = search.moves
        # Each node below the root is entered by a move; expansions play more (new children's
        # evasions counted, 1- and 3-ply mate tests).
        assert after_search > search.nodes - 1 > 0
        line, complete = search.principal_variation()
        assert complete and search.moves - after_search >= len(line)   # reading the line plays its moves
        counts.append((search.nodes, after_search, search.moves))
    assert counts[0] == counts[1]


@needs_kernel
@pytest.mark.usefixtures("collector_paused")
def test_cancel_stops_within_100_ms() -> None:
    full = _rows("microcosmos.tsv")[-1]
    cancel = threading.Event()
    gen = solve_iter(Position.from_sfen(full[1]), Limits(), cancel, exact=False)
    next(gen)
    cancel.set()
    start = time.monotonic()
    result = drive(gen)
    assert result.status is SolveStatus.CANCELLED
    assert time.monotonic() - start < 0.1 + 0.05   # the generator looks at the flag every 20 ms


@needs_kernel
@pytest.mark.slow
def test_a_cancel_during_a_growth_leaves_a_sound_table() -> None:
    """A cancel that comes while the table grows (tail 151's growth from 2 M to 4 M entries, at
    about 1.47 M nodes) stops it part-way; the search then goes on with what is left and proves
    mate with a line that replays.  The growth is caught by the published node count standing
    still for 8 ms with more than 600,000 entries in the table."""
    tail = next(r for r in _rows("microcosmos.tsv") if r[2] == "151")
    search = _kernel().DfPnSearch(tail[1], 1024)
    result: list[str] = []
    thread = threading.Thread(target=lambda: result.append(search.run()))
    thread.start()
    last, since, caught = -1, time.monotonic(), None
    while thread.is_alive():
        time.sleep(0.001)
        nodes, now = search.nodes, time.monotonic()
        if nodes != last:
            last, since = nodes, now
        elif caught is None and now - since >= 0.008 and search.entries > 600_000:
            caught = search.entries
            search.cancel()
    thread.join()
    if caught is None:
        pytest.skip("the search never stood still long enough to catch a growth")
    assert result == ["unknown"]
    search.clear_cancel()
    assert search.run(0, 120.0, True) == "proven"
    line, complete = search.principal_variation(0, 60.0, True)
    assert complete and _replays_to_mate(tail[1], line)


@needs_kernel
def test_a_second_run_while_one_runs_is_refused() -> None:
    full = _rows("microcosmos.tsv")[-1]
    search = _kernel().DfPnSearch(full[1], 64)
    thread = threading.Thread(target=search.run, args=(0, 5.0, False))
    thread.start()
    time.sleep(0.05)
    with pytest.raises(RuntimeError, match="already running"):
        search.run(0, 1.0, False)
    with pytest.raises(RuntimeError, match="stopped"):   # the count of moves is the search thread's
        _ = search.moves
    search.cancel()
    thread.join(2.0)
    assert not thread.is_alive() and search.moves > 0


# ---- the entry points under abuse ------------------------------------------------------------

@needs_kernel
def test_bad_arguments_raise_value_errors() -> None:
    k = _kernel()
    sfen = "7k1/4R4/9/9/9/9/9/9/9 b SNr2b4g3s3n4l18p 1"
    for kwargs in ({"memory_mb": 0}, {"memory_mb": -5}, {"memory_mb": 1 << 40}, {"epsilon": float("nan")},
                   {"epsilon": -1.0}, {"max_ply": 0}, {"max_ply": 10**6}, {"delay": "sometimes"}):
        with pytest.raises(ValueError):
            k.DfPnSearch(sfen, **kwargs)
    with pytest.raises(ValueError, match="not to move"):
        k.DfPnSearch("4k4/4R4/9/9/9/9/9/9/4K4 b - 1")
    search = k.DfPnSearch(sfen)
    with pytest.raises(ValueError, match="NaN"):
        search.run(0, float("nan"), False)
    with pytest.raises(TypeError):
        search.run(-1, 1.0, False)


@needs_kernel
def test_fuzzed_sfens_raise_or_search_never_crash() -> None:
    """Random and mangled SFENs: a ValueError, or a search that ends; the process survives."""
    rng = random.Random(5)
    k = _kernel()
    base = [r[1] for r in _rows("mate.tsv")[::40]] + [r[1] for r in _rows("nomate.tsv")]
    alphabet = "0123456789/+-*kKrRbBgGsSnNlLpP bw"
    outcomes = {"error": 0, "searched": 0}
    for i in range(600):
        sfen = rng.choice(base)
        kind = i % 4
        if kind == 0:
            chars = list(sfen)
            for _ in range(rng.randrange(1, 4)):
                chars[rng.randrange(len(chars))] = rng.choice(alphabet)
            sfen = "".join(chars)
        elif kind == 1:
            sfen = "".join(rng.choice(alphabet) for _ in range(rng.randrange(0, 120)))
        elif kind == 2:
            board, _turn, hand, *_rest = sfen.split(" ") + ["", ""]
            sfen = f"{board} {rng.choice('bw')} {rng.choice(['-', '99P', '18P2L', 'RRRB', '3R', hand])} 1"
        else:
            sfen = sfen * rng.randrange(2, 4) if rng.random() < 0.5 else "x" * 100_000
        try:
            search = k.DfPnSearch(sfen, 4)
        except ValueError:
            outcomes["error"] += 1
            continue
        assert search.run(2000, 2.0, False) in ("proven", "disproven", "unknown")
        search.principal_variation(2000, 2.0, False)
        search.snapshot()
        outcomes["searched"] += 1
    assert outcomes["error"] > 100 and outcomes["searched"] > 50


# ---- the search threads -----------------------------------------------------------------

def _search_threads() -> int:
    return sum(t.name == "tsume-kernel-search" for t in threading.enumerate())


@needs_kernel
def test_search_threads_are_reused_and_their_pool_stays_small(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(kernel_engine.ENGINE_ENV, "kernel")
    sfen = _rows("mate.tsv")[0][1]
    for _ in range(20):   # two kernel calls each, one after another: the same thread serves them
        assert solve(Position.from_sfen(sfen), exact=False).status is SolveStatus.MATE
    assert 1 <= _search_threads() <= 2
    results: list[SolveStatus] = []
    workers = [threading.Thread(target=lambda: results.append(solve(Position.from_sfen(sfen), exact=False).status))
               for _ in range(5)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    assert results == [SolveStatus.MATE] * 5
    deadline = time.monotonic() + 5
    while _search_threads() > 2 and time.monotonic() < deadline:   # the extra ones end on release
        time.sleep(0.01)
    assert 1 <= _search_threads() <= 2


@needs_kernel
@pytest.mark.skipif(not hasattr(os, "fork"), reason="no fork here")
def test_a_forked_child_searches_on_threads_of_its_own(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(kernel_engine.ENGINE_ENV, "kernel")
    sfen = _rows("mate.tsv")[0][1]
    assert solve(Position.from_sfen(sfen), exact=False).status is SolveStatus.MATE   # an idle thread now
    assert _search_threads() >= 1
    pid = os.fork()
    if pid == 0:   # the child: its pool must not hand out the parent's threads, which it has not got
        ok = False
        try:
            signal.alarm(30)
            ok = solve(Position.from_sfen(sfen), exact=False).status is SolveStatus.MATE
        finally:
            os._exit(0 if ok else 1)
    _, status = os.waitpid(pid, 0)
    assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0

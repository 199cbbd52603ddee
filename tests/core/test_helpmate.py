"""Tests of the helpmate (協力詰) solver, core/helpmate.py."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import cshogi
import pytest

from tsume_studio.core.search.helpmate import HelpmateOptions, solve, solve_iter
from tsume_studio.core.search.proof import HelpmateAnswer
from tsume_studio.core.shogi.position import IllegalPositionError, Position
from tsume_studio.core.search.contract import Limits, Progress, SolveStatus, drive

DATA = Path(__file__).parent.parent / "data" / "helpmate.tsv"


def _rows() -> list[tuple[str, str, int | None]]:
    rows = []
    with open(DATA, encoding="utf-8") as fh:
        next(fh)
        for i, line in enumerate(fh):
            ident, sfen, length, _ = line.rstrip("\n").split("\t")
            rows.append((f"{i}:{ident}", sfen, None if length == "?" else int(length)))
    return rows


ROWS = _rows()
WIDE = "fmrs-ofm-139_5"   # 5 plies, but tens of millions of positions: slow
UP_TO_39 = [r for r in ROWS if r[2] is not None and r[2] <= 39 and WIDE not in r[0]]
SHORT = [r for r in UP_TO_39 if r[2] <= 9]


def _row(ident: str) -> str:
    return next(sfen for name, sfen, _ in ROWS if name.split(":", 1)[1] == ident)


def _is_helpmate(sfen: str, line: tuple[str, ...]) -> bool:
    """Replay ``line``: every attacker move legal and checking, every reply legal, mate at the end."""
    board = cshogi.Board(sfen)
    for ply, usi in enumerate(line):
        move = board.move_from_usi(usi)
        if not move or not board.is_legal(move):
            return False
        board.push(move)
        if ply % 2 == 0 and not board.is_check():
            return False
    return len(line) % 2 == 1 and board.is_check() and not list(board.legal_moves)


def _brute_mates(board: cshogi.Board, remaining: int) -> list[tuple[int, ...]]:
    """Every helpmate of exactly ``remaining`` plies, by plain recursion (no table, no pruning).

    Checks are found from the legal moves (push and look), not from the
    solver's check generator.
    """
    lines: list[tuple[int, ...]] = []
    for m in list(board.legal_moves):
        board.push(m)
        if board.is_check():
            replies = list(board.legal_moves)
            if not replies:
                if remaining == 1:
                    lines.append((m,))
            elif remaining > 1:
                for r in replies:
                    board.push(r)
                    lines.extend((m, r) + tail for tail in _brute_mates(board, remaining - 2))
                    board.pop()
        board.pop()
    return lines


def _brute_shortest(sfen: str, max_plies: int) -> tuple[int | None, set[tuple[str, ...]]]:
    board = cshogi.Board(sfen)
    for n in range(1, max_plies + 1, 2):
        lines = _brute_mates(board, n)
        if lines:
            return n, {tuple(cshogi.move_to_usi(m) for m in line) for line in lines}
    return None, set()


# ---- exact lengths on the problem set -------------------------------------------


@pytest.mark.parametrize("ident,sfen,length", UP_TO_39, ids=[r[0] for r in UP_TO_39])
def test_rows_up_to_39_plies_exact_length(ident: str, sfen: str, length: int) -> None:
    result = solve(Position.from_sfen(sfen), Limits(seconds=30))
    assert result.status is SolveStatus.MATE, result.extra
    assert result.length == length == len(result.pv)
    assert _is_helpmate(sfen, result.pv), result.pv


@pytest.mark.slow
def test_wide_five_ply_row() -> None:
    result = solve(Position.from_sfen(_row(WIDE)), Limits(seconds=300))
    assert result.status is SolveStatus.MATE and result.length == 5
    assert _is_helpmate(_row(WIDE), result.pv)


def test_long_row_361_plies_unique() -> None:
    sfen = _row("fmrs-forest-06-12_361")
    result = solve(Position.from_sfen(sfen), Limits(seconds=30), all_solutions=True)
    assert result.length == 361 and _is_helpmate(sfen, result.pv)
    assert result.proof.unique


@pytest.mark.slow
def test_long_row_1965_plies() -> None:
    sfen = _row("fmrs-morishige_1965")
    result = solve(Position.from_sfen(sfen), Limits(seconds=600))
    assert result.length == 1965 and _is_helpmate(sfen, result.pv)


def test_row_of_unknown_length_agrees_across_techniques() -> None:
    """The row marked ``?`` (fmrs diamond): the same length with δ=1 and without decided positions."""
    sfen = _row("fmrs-diamond")
    lengths = {solve(Position.from_sfen(sfen), Limits(seconds=30), options=o).length
               for o in (HelpmateOptions(), HelpmateOptions(delta=1),
                         HelpmateOptions(decided=False, protect_gc=False))}
    assert len(lengths) == 1
    (length,) = lengths
    assert length is not None and length % 2 == 1
    assert _is_helpmate(sfen, solve(Position.from_sfen(sfen)).pv)


@pytest.mark.parametrize("ident,sfen,length", SHORT, ids=[r[0] for r in SHORT])
def test_shortest_and_every_solution_match_brute_force(ident: str, sfen: str, length: int) -> None:
    brute_length, brute_lines = _brute_shortest(sfen, length)
    assert brute_length == length
    result = solve(Position.from_sfen(sfen), all_solutions=True)
    assert result.length == brute_length
    answer = result.proof
    assert isinstance(answer, HelpmateAnswer)
    assert answer.complete and answer.length == length
    assert set(answer.solutions) == brute_lines
    assert answer.solutions[0] == result.pv


def _with_extra_gold(sfen: str) -> str | None:
    """The position with one gold moved from the defender's hand to the attacker's, if possible."""
    pos = Position.from_sfen(sfen)
    att, dfd = list(pos.hand(pos.attacker)), list(pos.hand(pos.defender))
    gold = 4   # hand order P L N S G B R
    if not dfd[gold]:
        return None
    dfd[gold] -= 1
    att[gold] += 1
    pos.set_hand(pos.attacker, att)
    pos.set_hand(pos.defender, dfd)
    return pos.sfen() if pos.is_valid() else None


VARIANTS = [(r[0], v) for r in SHORT if r[2] <= 7 and (v := _with_extra_gold(r[1]))]


@pytest.mark.parametrize("ident,sfen", VARIANTS, ids=[v[0] for v in VARIANTS])
def test_variants_with_more_solutions_match_brute_force(ident: str, sfen: str) -> None:
    """An extra gold for the attacker gives other (often several) shortest solutions."""
    brute_length, brute_lines = _brute_shortest(sfen, 7)
    result = solve(Position.from_sfen(sfen), all_solutions=True, options=HelpmateOptions(max_solutions=1000))
    if brute_length is None:
        assert result.length is None or result.length > 7
        return
    assert result.length == brute_length
    assert result.proof.complete
    assert set(result.proof.solutions) == brute_lines


def test_some_variant_has_several_solutions() -> None:
    """The variants above do exercise 余詰 (several shortest solutions)."""
    counts = [len(solve(Position.from_sfen(v), all_solutions=True).proof.solutions) for _, v in VARIANTS[:12]]
    assert max(counts) > 1


def test_solution_cap_marks_list_incomplete() -> None:
    sfen = next(v for _, v in VARIANTS
                if len(solve(Position.from_sfen(v), all_solutions=True).proof.solutions) >= 3)
    answer = solve(Position.from_sfen(sfen), all_solutions=True, options=HelpmateOptions(max_solutions=2)).proof
    assert len(answer.solutions) == 2 and not answer.complete and not answer.unique
    assert answer.capped and answer.checked and answer.alternatives_checked


MIRROR = "9/9/9/3bkb3/9/3+R1+R3/9/9/9 b 4g4s4n4l18p 1"


def test_mirror_helpmate_lists_both_solutions_as_brute_force_does() -> None:
    """Two dragons and two bishops placed symmetrically: a shortest helpmate and its mirror image."""
    brute_length, brute_lines = _brute_shortest(MIRROR, 5)
    assert brute_length == 5 and len(brute_lines) == 2
    result = solve(Position.from_sfen(MIRROR), all_solutions=True)
    answer = result.proof
    assert isinstance(answer, HelpmateAnswer)
    assert set(answer.solutions) == brute_lines and answer.solutions[0] == result.pv
    assert answer.complete and answer.checked and not answer.capped and not answer.unique
    assert answer.exact and result.extra["exact"] is True


def test_without_all_solutions_the_answer_says_others_were_not_checked() -> None:
    result = solve(Position.from_sfen(MIRROR))
    answer = result.proof
    assert isinstance(answer, HelpmateAnswer)
    assert answer.solutions == (result.pv,) and answer.length == result.length == 5
    assert not answer.checked and not answer.complete and not answer.unique and not answer.alternatives_checked


def test_helpmate_proof_holds_every_solution_as_a_branch() -> None:
    from tsume_studio.core.search.proof import Role, helpmate_proof

    answer = solve(Position.from_sfen(MIRROR), all_solutions=True).proof
    proof = helpmate_proof(answer)
    assert proof.main_line == answer.solutions[0] and proof.length == 5 and proof.alternatives_checked
    lines = set()
    stack = [(proof.root, ())]
    while stack:
        node, path = stack.pop()
        if not node.children:
            lines.add(path)
            assert node.length == 0
        for child in node.children:
            assert child.length == 5 - len(path) - 1
            main = path + (child.move,) == proof.main_line[:len(path) + 1]
            assert child.role is (Role.MAIN if main else Role.ALTERNATIVE)
            stack.append((child, path + (child.move,)))
    assert lines == set(answer.solutions)
    assert [(a.path, a.move, a.length) for a in proof.alternatives] == [((), answer.solutions[1][0], 5)]


def test_last_snapshot_carries_the_line_found() -> None:
    """A search too quick for a timed snapshot still reports its line, for the live tree."""
    gen = solve_iter(Position.from_sfen(MIRROR))
    snaps: list[Progress] = []
    result = drive(gen, snaps.append)
    assert tuple(e.move for e in snaps[-1].path) == result.pv
    assert all(e.pn == 0 for e in snaps[-1].path)


def test_unique_solution_flag() -> None:
    answer = solve(Position.from_sfen(_row("cone-data-9-82")), all_solutions=True).proof
    assert answer.unique and answer.length == 9


PLAIN = [r for r in UP_TO_39 if r[2] <= 15][::3]


@pytest.mark.parametrize("ident,sfen,length", PLAIN, ids=[r[0] for r in PLAIN])
def test_plain_iterative_deepening_agrees(ident: str, sfen: str, length: int) -> None:
    """Plain depth-first iterative deepening without a table finds the same length (short rows)."""
    plain = solve(Position.from_sfen(sfen), Limits(seconds=20), options=HelpmateOptions.plain())
    assert plain.status is SolveStatus.MATE and plain.length == length
    assert plain.table_entries == 0


# ---- rules -------------------------------------------------------------------------


def test_pawn_drop_mate_is_not_a_solution() -> None:
    # P*9b would mate at once (打ち歩詰め): illegal, so the shortest helpmate is longer.
    sfen = "kn7/9/1G7/9/9/9/9/9/8K b P 1"
    result = solve(Position.from_sfen(sfen), Limits(seconds=20))
    assert result.status is SolveStatus.MATE
    assert result.pv[0] != "P*9b" and result.length > 1
    assert _is_helpmate(sfen, result.pv)
    assert result.length == _brute_shortest(sfen, result.length)[0]


def test_pawn_push_mate_is_allowed() -> None:
    # A pawn *moved* to mate (突き歩詰め) is legal.
    sfen = "kn7/9/P1G6/L8/9/9/9/9/8K b - 1"
    result = solve(Position.from_sfen(sfen), all_solutions=True)
    assert set(result.proof.solutions) == {("9c9b",), ("9c9b+",)} == _brute_shortest(sfen, 1)[1]


def test_attacker_without_checks_is_no_mate() -> None:
    result = solve(Position.start())
    assert result.status is SolveStatus.NO_MATE and result.pv == () and result.length is None


def test_lone_pawn_cannot_mate_whole_tree_exhausted() -> None:
    """A lone pawn (then tokin) can chase the king forever but never mate: 不詰 proved.

    The tree is finite only thanks to known positions (repetitions); plain
    iterative deepening cannot prove it and stops at its ply bound.
    """
    pos = Position.from_sfen("4k4/9/9/9/9/9/9/9/9 b P 1")
    result = solve(pos, Limits(seconds=30))
    assert result.status is SolveStatus.NO_MATE
    plain = solve(pos, Limits(seconds=30), options=HelpmateOptions(table=False, known=False, decided=False,
                                                                   protect_gc=False, move_cache=False,
                                                                   max_plies=9))
    assert plain.status is SolveStatus.UNKNOWN and "9 plies" in plain.extra["reason"]


def test_max_plies_gives_unknown_not_no_mate() -> None:
    result = solve(Position.from_sfen(_row("cone-data-21-29")), options=HelpmateOptions(max_plies=19))
    assert result.status is SolveStatus.UNKNOWN and result.extra["depth"] == 19


# ---- the techniques, each where it matters -------------------------------------------

TECH = "cone-data-21-29"


def _run(options: HelpmateOptions, ident: str = TECH, **kw: object):
    result = solve(Position.from_sfen(_row(ident)), Limits(seconds=30), options=options, **kw)
    assert result.status is SolveStatus.MATE
    return result


def test_known_positions_cut_the_search() -> None:
    on = _run(HelpmateOptions(decided=False, protect_gc=False))
    off = _run(HelpmateOptions(known=False, decided=False, protect_gc=False))
    assert on.pv == off.pv and on.length == 21
    assert on.nodes * 10 < off.nodes


def test_decided_positions_cut_the_search() -> None:
    on = _run(HelpmateOptions(protect_gc=False))
    off = _run(HelpmateOptions(decided=False, protect_gc=False))
    assert on.length == off.length == 21
    assert on.nodes < off.nodes


def test_single_move_cache_saves_move_generation() -> None:
    on = _run(HelpmateOptions())
    off = _run(HelpmateOptions(move_cache=False))
    assert on.pv == off.pv and on.nodes == off.nodes
    assert on.extra["generated"] < off.extra["generated"]


def test_delta_two_scans_fewer_positions_than_delta_one() -> None:
    two = _run(HelpmateOptions())
    one = _run(HelpmateOptions(delta=1))
    assert one.length == two.length == 21
    assert two.nodes < one.nodes


def test_protect_gc_keeps_fewer_positions_protected() -> None:
    on = _run(HelpmateOptions(), "cone-data_v2-39-8")
    off = _run(HelpmateOptions(protect_gc=False), "cone-data_v2-39-8")
    assert on.length == off.length == 39
    assert on.extra["max_protected"] < off.extra["max_protected"] == off.extra["stored"]


def test_protect_gc_lets_a_small_table_hold_the_search() -> None:
    """With room for 3500 positions, ProtectGC overwrites unprotected ones and stores
    everything; without it, positions no longer fit and are searched unstored."""
    on = _run(HelpmateOptions(table_entries=3500), "cone-data_v2-39-8")
    off = _run(HelpmateOptions(protect_gc=False, table_entries=3500), "cone-data_v2-39-8")
    assert on.length == off.length == 39
    assert on.extra["evicted"] > 0 and on.extra["unstored"] == 0
    assert off.extra["unstored"] > 0
    assert on.table_entries <= 3500 and off.table_entries <= 3500


def test_tiny_table_is_slower_but_still_exact() -> None:
    result = _run(HelpmateOptions(table_entries=300), "cone-data_v2-39-8")
    assert result.length == 39 and result.table_entries <= 300


def test_memory_limit_bounds_the_table() -> None:
    result = solve(Position.from_sfen(_row("cone-data-21-29")), Limits(memory_mb=1))
    assert result.length == 21
    assert 0 < result.extra["capacity"] <= 2**20 // 100


# ---- API ---------------------------------------------------------------------------------


def test_progress_snapshots_carry_depth_and_table_figures() -> None:
    gen = solve_iter(Position.from_sfen(_row(WIDE)), Limits(seconds=1.0))
    snaps: list[Progress] = []
    result = drive(gen, snaps.append)
    assert result.status is SolveStatus.UNKNOWN and "time limit" in result.extra["reason"]
    assert len(snaps) >= 3
    stats = dict(snaps[-1].stats)
    assert {"depth", "scanned", "stored", "protected"} <= set(stats)
    assert stats["depth"] >= 3 and stats["stored"] > 0 and snaps[-1].nodes == stats["scanned"]
    assert [dict(s.stats)["scanned"] for s in snaps] == sorted(dict(s.stats)["scanned"] for s in snaps)


def test_node_limit_gives_unknown() -> None:
    result = solve(Position.from_sfen(_row(WIDE)), Limits(nodes=20_000))
    assert result.status is SolveStatus.UNKNOWN and result.nodes < 25_000


@pytest.mark.usefixtures("collector_paused")
def test_cancel_takes_effect_within_100_ms() -> None:
    cancel = threading.Event()
    set_at: list[float] = []

    def fire() -> None:
        set_at.append(time.monotonic())
        cancel.set()

    timer = threading.Timer(0.3, fire)
    timer.start()
    try:
        result = solve(Position.from_sfen(_row(WIDE)), Limits(seconds=30), cancel)
        done = time.monotonic()
    finally:
        timer.cancel()
    assert result.status is SolveStatus.CANCELLED
    assert done - set_at[0] < 0.1


def test_position_is_not_modified() -> None:
    pos = Position.from_sfen(_row(TECH))
    before = pos.sfen()
    solve(pos)
    assert pos.sfen() == before


def test_bad_position_raises() -> None:
    with pytest.raises(IllegalPositionError, match="king"):
        solve(Position.from_sfen("9/9/9/9/9/9/9/9/4K4 b G 1"))
    with pytest.raises(IllegalPositionError, match=r"nifu|two pawns|二歩"):
        solve(Position.from_sfen("4k4/9/9/9/4P4/4P4/9/9/9 b G 1"))


@pytest.mark.parametrize("kwargs,match", [
    ({"delta": 3}, "delta"),
    ({"protect_gc": True, "decided": False}, "protect_gc"),
    ({"table": False}, "table"),
    ({"max_plies": 0}, "max_plies"),
    ({"table_entries": 0}, "table_entries"),
])
def test_bad_options_raise(kwargs: dict, match: str) -> None:
    with pytest.raises(ValueError, match=match):
        HelpmateOptions(**kwargs)

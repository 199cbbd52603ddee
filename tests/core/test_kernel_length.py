"""The kernel's length-aware tsume-rule search (``LengthSearch``, core.search.kernel_length).

Every answer here goes through the one path the solver takes where the kernel is built
(``solver.solve``: the kernel's df-pn, then ``kernel_length.build_proof`` → the builder of
core.search.builder), and is
checked against the Python search (core.search.length_search) or the brute force where it is short.
"""

from __future__ import annotations

import csv
import importlib.util
import itertools
import random
import threading
import time
from pathlib import Path

import cshogi
import pytest

from tsume_studio.core.check import check_solution
from tsume_studio.core.search import kernel_length, length_search
from tsume_studio.core.search.contract import Limits, SolveStatus
from tsume_studio.core.search.proof import Role
from tsume_studio.core.search.length_rule import AnswerSession
from tsume_studio.core.search.solver import solve
from tsume_studio.core.shogi.position import Position

import bruteforce  # tests/core is on sys.path

pytestmark = pytest.mark.skipif(not kernel_length.available(), reason="the kernel's length search is not built")

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def _kernel_length_chosen(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(kernel_length.CHOICE_ENV, "kernel")

DATA = ROOT / "tests" / "data"
CLASSIC = "8k/6G2/R7P/9/9/9/9/9/9 b r2b3g4s4n4l17p 1"
# The rows of mate.tsv whose tsume-rule length is shorter than the file's (raw) length.
SHORTER_THAN_RAW = ("tanuki-5-5", "tanuki-5-41", "tanuki-5-202", "tanuki-7-15", "tanuki-7-17", "tanuki-7-20",
                    "tanuki-7-51", "tanuki-7-75", "tanuki-7-137", "tanuki-7-156", "tanuki-9-164", "tanuki-9-429",
                    "tanuki-9-466", "sugyan-990", "sugyan-1014", "sugyan-1016")


def _rows(name: str) -> dict[str, dict[str, str]]:
    with (DATA / name).open(encoding="utf-8") as f:
        return {r["id"]: r for r in csv.DictReader(f, delimiter="\t")}


def _compare_tool():   # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("compare_length_search", ROOT / "tools" / "compare_length_search.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _kernel(sfen: str, **kw: object) -> object:
    from tsume_studio.core.kernel import LengthSearch

    return LengthSearch(sfen, **kw)


def _solve(sfen: str, **kw: object):   # type: ignore[no-untyped-def]
    result = solve(Position.from_sfen(sfen), Limits(seconds=60), **kw)
    assert result.extra["engine"] == "kernel"
    return result


# ---- answers through the one path --------------------------------------------------------------

def test_dfpn_line_longer_than_the_exact_length() -> None:
    # The kernel's df-pn proves this one by a 9-ply line; the tsume-rule length is 3, found by
    # asking the length table "mate within 1?", "within 3?" (tests/core/test_root_climb.py).
    # (tanuki-3-204 was this case until df-pn's initial numbers came from the board: its first line
    # is now the 3-ply one.)
    sfen = _rows("mate.tsv")["tanuki-3-305"]["sfen"]
    result = _solve(sfen)
    assert result.status is SolveStatus.MATE and result.length == 3 and result.extra["exact"]
    assert len(result.extra["dfpn_pv"]) == 9 and len(result.pv) == 3
    assert bruteforce.tsume_length(sfen, 9) == 3


def test_futile_interpositions_judged_in_the_kernel() -> None:
    # The classic: ▲9一飛成 mates at once; every drop between is futile, seven squares.
    k = _kernel(CLASSIC)
    assert k.question(CLASSIC, True, 1) == "yes"
    result = _solve(CLASSIC)
    assert result.length == 1 and result.pv == ("9c9a+",)
    proof = result.proof
    assert proof is not None and len(proof.futile) == 7
    # The same squares, with the same reasons, as the Python search gives.
    reference = length_search.solve_official(Position.from_sfen(CLASSIC))
    assert reference is not None
    assert [(f.move, f.reason.english(), f.moves) for f in proof.futile] == \
        [(f.move, f.reason.english(), f.moves) for f in reference.futile]


def _unjudged_rows(max_length: int, want: int) -> list[tuple[str, str, int]]:
    """(id, SFEN, exact length) of the first ``want`` mate.tsv rows up to ``max_length`` plies whose
    exact answer lets a drop square in without a futility verdict."""
    out = []
    for rid, row in _rows("mate.tsv").items():
        if int(row["length"]) > max_length:
            continue
        k = _kernel(row["sfen"], memory_mb=16, oracle_mb=16, look_from=10, look_nodes=64)
        assert k.prove_root(seconds=30) == "proven"
        answer, value = k.exact(row["sfen"], True, 100, stop_seconds=30)
        assert answer == "yes"
        if k.squares_unjudged:
            out.append((rid, row["sfen"], value))
            if len(out) == want:
                break
    return out


def test_drop_squares_let_in_without_a_verdict_keep_the_exact_length() -> None:
    # A drop square whose every drop is known mated within the bound is a defence like any other
    # (length_search.cpp, and_node): the node is mated within it whether the drop is futile or not.
    rows = _unjudged_rows(5, 8)
    assert len(rows) == 8
    for rid, sfen, value in rows:
        assert value == bruteforce.tsume_length(sfen, value + 2), rid


def test_a_futile_drop_known_mated_needs_no_test() -> None:
    # 将棋無双 83番 four plies in: the raw proof already mates every drop of its interposition
    # chains within the bound, so "mate within 25?" is answered without a Kakinoki test on each
    # square (4,784 tests and 2.27 M nodes when every square waited for a verdict).
    row = _rows("musou.tsv")["musou-083"]
    b = cshogi.Board(row["sfen"])
    for u in row["pv"].split()[:4]:
        b.push_usi(u)
    k = _kernel(b.sfen(), memory_mb=128, oracle_mb=128, look_from=10, look_nodes=0)
    assert k.prove_root(seconds=60) == "proven"
    assert k.question(b.sfen(), True, 25, stop_seconds=60) == "yes"
    assert k.squares_unjudged > 0
    assert k.futility_tests < 1000


def test_a_node_that_goes_on_costing_gets_growing_raw_looks() -> None:
    # 将棋無双 75番 at ply 179, the 余詰 search's question for the other check 8f7e: "mated within
    # 46?".  The king's 7h6h or 7h6i escapes only by drop interpositions deep in the line, so the
    # tsume-rule search refutes it depth by depth only after judging them; the raw df-pn shows in
    # about 0.1 M nodes that there is no mate at all.  One 64-node look per node left it unanswered
    # after 5 M nodes; looks growing with the node's cost answer it in under 30,000 (2026-11-28).
    row = _rows("musou.tsv")["musou-075"]
    b = cshogi.Board(row["sfen"])
    for u in row["pv"].split()[:178]:
        b.push_usi(u)
    before = b.sfen()
    b.push_usi("8f7e")
    k = _kernel(before, memory_mb=64, oracle_mb=64, look_from=10, look_nodes=64, root_look_from=10,
                root_look_nodes=3000)
    assert k.question(b.sfen(), False, 46, nodes=300_000) == "no"
    assert k.bounds(b.sfen())[0] > 46


def test_raw_rules_agree_with_cshogi_depth_by_depth() -> None:
    # drops='all': every drop counted, no futility, the table's bounds per position.  On every 10th
    # row of mate.tsv, "mate within n?" for each odd n up to the row's length agrees with cshogi's
    # depth-limited df-pn wherever that decides (all 3,549 questions of the file agreed, 2026-11-28).
    asked = 0
    for r in list(_rows("mate.tsv").values())[::10]:
        board = cshogi.Board(r["sfen"])
        k = _kernel(r["sfen"], memory_mb=16, oracle_mb=16, drops="all")
        assert k.drops == "all"
        for n in range(1, int(r["length"]) + 1, 2):
            dfpn = cshogi.DfPn(n, 2_000_000)
            theirs = "yes" if dfpn.search(board) else "no" if dfpn.searched_node < 2_000_000 else None
            if theirs is None:
                continue
            assert k.question(r["sfen"], True, n, nodes=2_000_000) == theirs, (r["id"], n)
            asked += 1
    assert asked > 300
    # A futile drop counts here: the classic 1-ply futile case is no mate in 1 under raw rules.
    assert _kernel(CLASSIC, drops="all").question(CLASSIC, True, 1) == "no"
    assert _kernel(CLASSIC).question(CLASSIC, True, 1) == "yes"


def test_effective_interposition_judged_in_the_kernel() -> None:
    # ▲1四香 △1三歩 (a 中合): captured and returned, the king escapes, so the drop counts.
    sfen = "4g+RG1k/9/9/9/9/9/9/9/9 b Lr2b2g4s4n3l18p 1"
    k = _kernel(sfen)
    assert k.question(sfen, True, 3) == "no"
    assert k.question(sfen, True, 5) == "yes"
    assert k.exact(sfen, True, 9) == ("yes", 5)
    assert k.bounds(sfen)[:2] == (5, 5)
    assert bruteforce.tsume_length(sfen, 7) == 5
    # The drop whose capture mates only later counts too (tanuki-3-454: a mate in 3, not in 1).
    other = _rows("mate.tsv")["tanuki-3-454"]["sfen"]
    k2 = _kernel(other)
    assert k2.question(other, True, 1) == "no" and k2.question(other, True, 3) == "yes"
    assert _solve(other).length == 3


def test_effective_interposition_in_the_answer_through_the_one_path() -> None:
    # The same 中合 through the solver: it is the main line's defence, its length counted; the
    # adjacent drops on 1b are variations and the drop on 2b, captured and returned, is futile.
    sfen = "4g+RG1k/9/9/9/9/9/9/9/9 b Lr2b2g4s4n3l18p 1"
    result = _solve(sfen)
    proof = result.proof
    assert proof is not None and result.length == 5 and result.extra["exact"]
    assert result.pv[:2] == ("L*1d", "P*1c")
    defences = {n.move: n for n in proof.root.children[0].children}
    assert defences["P*1c"].role is Role.MAIN and defences["P*1c"].length == 3
    assert defences["P*1b"].role is Role.VARIATION and defences["P*1b"].length == 1
    assert {f.move for f in proof.futile} == {"P*2b"}
    assert bruteforce.raw_length(sfen, 7) == 7


def test_yozume_through_the_kernel() -> None:
    # ▲3二銀成 is the main line's first move, but ▲4四角 also mates in 3.
    sfen = _rows("mate.tsv")["tanuki-3-43"]["sfen"]
    session = AnswerSession()
    result = _solve(sfen, session=session)
    proof = result.proof
    assert proof is not None and proof.length == 3 and proof.alternatives_checked
    assert {(a.path, a.move): a.length for a in proof.alternatives} == {((), "3e4d"): 3}
    after = cshogi.Board(sfen)
    after.push_usi("3e4d")
    assert bruteforce.BruteForce(True).mated(after, 2)
    # The check of the main line asks the same table and finds the same 余詰.
    check = check_solution(Position.from_sfen(sfen), list(proof.main_line), Limits(seconds=60), session=session)
    assert check.reused and check.engine == "kernel" and check.length == 3
    assert [(d.kind, d.ply, d.line) for d in check.discrepancies] == [("alternative", 1, ("3e4d",))]


def test_longer_defence_found_and_checked_on_the_same_table() -> None:
    # 将棋無双 55番: published 11 plies; the defender lasts 13 (docs/benchmarks.md, re-proved there).
    row = _rows("musou.tsv")["musou-055"]
    session = AnswerSession()
    pos = Position.from_sfen(row["sfen"])
    result = solve(pos, Limits(seconds=60), session=session)
    assert result.extra["engine"] == "kernel" and result.length == 13 and result.extra["exact"]
    check = check_solution(pos, row["pv"].split(), Limits(seconds=60), session=session)
    assert check.reused and check.length == 13 and check.engine == "kernel"
    assert [(d.kind, d.ply, d.line[-1]) for d in check.discrepancies] == [
        ("longer_defence", 4, "8e9d"), ("longer_defence", 10, "8e9d")]


def test_python_engine_forced(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TSUME_ENGINE", "python")
    assert not kernel_length.available() and not kernel_length.chosen()
    result = solve(Position.from_sfen(CLASSIC))
    assert result.extra["engine"] == "python" and result.length == 1


# ---- against the Python search ------------------------------------------------------------------

@pytest.mark.parametrize("rid", SHORTER_THAN_RAW)
def test_same_judgements_as_python_where_shorter_than_raw(rid: str) -> None:
    row = _rows("mate.tsv")[rid]
    result = _solve(row["sfen"], force=True)
    assert result.length is not None and result.length < int(row["length"])
    assert _compare_tool().compare_row(rid, row["sfen"], 60.0, 40) == []


@pytest.mark.slow
def test_same_answers_as_python_on_mate_tsv() -> None:
    rows = _rows("mate.tsv")
    tool = _compare_tool()
    problems = [p for rid, row in rows.items() for p in tool.compare_row(rid, row["sfen"], 120.0, 40)]
    assert problems == []


def test_the_solves_dfpn_is_the_oracle() -> None:
    # The length search given the solve's df-pn shares its table: the root, proved there, is not
    # searched again, and the answer is the one of a length search with a raw df-pn of its own.
    from tsume_studio.core.kernel import DfPnSearch

    sfen = _rows("mate.tsv")["tanuki-7-15"]["sfen"]
    d = DfPnSearch(sfen, 64, mate3=False)
    assert d.run() == "proven"
    nodes = d.nodes
    shared = _kernel(sfen, oracle=d)
    assert shared.oracle_nodes == nodes
    assert shared.prove_root() == "proven" and shared.oracle_nodes - nodes <= 1   # the root's own node
    alone = _kernel(sfen)
    assert alone.prove_root() == "proven" and alone.oracle_nodes > 0
    assert shared.exact(sfen, True, 31) == alone.exact(sfen, True, 31)
    assert shared.oracle_probe(sfen)[0] == 0
    assert d.nodes >= nodes   # the length search's raw looks went into the same table
    # The solver takes that path: its answer is exact.
    result = _solve(sfen)
    assert result.extra["exact"] and result.length == shared.exact(sfen, True, 31)[1]


def _paused_exact(sfen: str, cap: int, every: int) -> tuple[tuple[str, int], int, int]:
    """exact() of a fresh search, paused every ``every`` nodes: (answer, nodes, pauses)."""
    k = _kernel(sfen)
    assert k.prove_root() == "proven"
    pauses = 0
    while True:
        before = k.nodes
        got = k.exact(sfen, True, cap, 0, -1.0, every)
        if got[0] != "paused":
            return got, k.nodes, pauses
        assert k.nodes - before >= every   # never before its count
        pauses += 1


def test_pauses_by_nodes_leave_the_search_the_same(monkeypatch: pytest.MonkeyPatch) -> None:
    # A pause unwinds the question, which searches on from its root: where pauses come shapes the
    # search.  By node count (as the solver's slices come), the same question asked afresh takes
    # the same nodes and gives the same answer, however long each slice took.
    sfen = _rows("musou.tsv")["musou-049"]["sfen"]
    first = _paused_exact(sfen, 41, 4096)
    assert first[0] == ("yes", 27) and first[2] >= 3
    assert _paused_exact(sfen, 41, 4096) == first
    # The whole official answer through the solver, its slices as the product's (by counts, never
    # by the clock), made small enough that both kinds of pause come many times.
    monkeypatch.setattr(kernel_length, "_PAUSE", (4096, 16_384))
    one, two = _solve(sfen), _solve(sfen)
    assert one.extra["exact"] and one.length == 27
    assert (one.nodes, one.pv, one.length) == (two.nodes, two.pv, two.length)


def _work(k) -> int:   # type: ignore[no-untyped-def]
    return int(k.nodes) + int(k.oracle_nodes)


def test_a_pause_by_work_counts_the_raw_looks_too() -> None:
    # pause_work bounds a call by the nodes of the search and of its raw df-pn together, so that a
    # question whose few outer nodes run long raw looks still pauses, at the same place each run.
    # 将棋無双 3番's "mate within 37?" spends most of its work in raw looks.
    sfen = _rows("musou.tsv")["musou-003"]["sfen"]

    def sliced(every: int) -> list[tuple[int, int]]:
        k = _kernel(sfen)
        assert k.prove_root() == "proven"
        marks = []
        for _ in range(6):
            before = _work(k)
            got = k.question(sfen, True, 37, 0, -1.0, 0, every)
            assert got in ("paused", "no", "yes")
            if got != "paused":
                break
            assert _work(k) - before >= every   # never before its count
            marks.append((int(k.nodes), int(k.oracle_nodes)))
        return marks

    first = sliced(20_000)
    assert len(first) == 6
    own = [b[0] - a[0] for a, b in itertools.pairwise(first)]
    assert min(own) < 20_000   # a slice ended by its raw looks' nodes, its own fewer than the count
    assert sliced(20_000) == first
    with pytest.raises(TypeError):
        _kernel(sfen).question(sfen, True, 37, 0, -1.0, 0, -1)   # a count, not a negative


def _climbed(sfen: str, every: int) -> tuple[int, int]:
    """The root's length climbed from below by a fresh search ("mate within 1? 3? ..."), each
    question paused every ``every`` nodes (0: never) and asked on: (length, nodes)."""
    k = _kernel(sfen)
    n = 1
    while True:
        got = k.question(sfen, True, n, 0, -1.0, every)
        if got == "paused":
            continue
        assert got in ("yes", "no")
        if got == "yes":
            return n, k.nodes
        n += 2


def test_a_question_asked_in_slices_keeps_what_each_slice_searched() -> None:
    # A pause unwinds the question; each node of the path is credited with the nodes searched
    # below it, as its return would have credited it, so a node that has cost much still gets its
    # growing raw looks.  Without the credit 将棋無双 99番's climb in slices of 1,024 nodes took
    # 304,904 nodes against 110,300 in whole questions (2.8 times); with it, 122,750.
    sfen = _rows("musou.tsv")["musou-099"]["sfen"]
    whole, sliced = _climbed(sfen, 0), _climbed(sfen, 1024)
    assert whole[0] == sliced[0] == 41
    assert sliced[1] <= 1.5 * whole[1]


def test_an_oracle_with_another_attacker_is_refused() -> None:
    from tsume_studio.core.kernel import DfPnSearch

    with pytest.raises(TypeError):
        _kernel(CLASSIC, oracle="not a search")
    rotated = "9/9/9/9/9/9/p7r/2g6/K8 w R2B3G4S4N4L17P 1"   # CLASSIC turned round: White attacks
    assert DfPnSearch(rotated, 16).run() == "proven"
    with pytest.raises(ValueError):
        _kernel(CLASSIC, oracle=DfPnSearch(rotated, 16))
    assert _kernel(CLASSIC, oracle=DfPnSearch(CLASSIC, 16)).question(CLASSIC, True, 1) == "yes"


# ---- the entry points under bad and random input ---------------------------------------------

def test_bad_input_raises_value_error() -> None:
    with pytest.raises(ValueError):
        _kernel("not a position")
    with pytest.raises(ValueError):
        _kernel(CLASSIC, memory_mb=0)
    with pytest.raises(ValueError):
        _kernel(CLASSIC, look_nodes=-1)
    with pytest.raises(ValueError):   # no defending king
        _kernel("9/9/9/9/9/9/9/9/4K4 b R 1")
    k = _kernel(CLASSIC)
    for bad in (-1, 10**6, 2**31 - 1):
        with pytest.raises(ValueError):
            k.question(CLASSIC, True, bad)
        with pytest.raises(ValueError):
            k.exact(CLASSIC, True, bad)
        with pytest.raises(ValueError):
            k.defences(CLASSIC, bad)
    with pytest.raises(ValueError):   # the attacker to move, asked as a defender question
        k.question(CLASSIC, False, 3)
    with pytest.raises(ValueError):   # other pieces than the problem's
        k.question("8k/6G2/R7P/9/9/9/9/9/9 b r2b3g4s4n4l16p 1", True, 3)
    with pytest.raises(ValueError):
        k.bounds("garbage")
    with pytest.raises(ValueError):
        k.question(CLASSIC, True, 1, stop_seconds=float("nan"))
    assert k.question(CLASSIC, True, 1) == "yes"   # the search is unharmed


def test_random_positions_and_bounds() -> None:
    """Random positions of one problem (random legal moves from its root), random bounds and limits."""
    rng = random.Random(25)
    sfen = _rows("mate.tsv")["tanuki-9-164"]["sfen"]
    k = _kernel(sfen, memory_mb=4)
    root = cshogi.Board(sfen)
    attacker = root.turn
    for _ in range(150):
        b = root.copy()
        for _ in range(rng.randrange(0, 6)):
            moves = list(b.legal_moves)
            if not moves:
                break
            b.push(rng.choice(moves))
        if b.is_game_over() or (b.is_check() and b.turn == attacker):
            continue
        s = b.sfen()
        try:
            _kernel(s)   # a position the kernel may refuse (the side not to move in check)
        except ValueError:
            continue
        or_node = b.turn == attacker
        n = rng.randrange(0, 12)
        got = k.question(s, or_node, n, nodes=rng.choice([0, 50, 5000]), stop_seconds=rng.choice([-1.0, 0.5]))
        assert got in ("yes", "no", "stopped")
        if got == "yes":   # a mate within n is a mate within every larger bound
            assert k.question(s, or_node, n + 2) == "yes"
            _lo, hi, _best = k.bounds(s)
            assert hi != -1 and hi <= n
        if got == "no":
            assert k.question(s, or_node, max(0, n - 2)) == "no"


def test_cancel_from_another_thread_stops_within_moments() -> None:
    zuko = "1nkg5/2s6/3rp4/1B7/r8/1PN6/9/9/9 b BG3SN2gn4l16p 1"
    k = _kernel(zuko)
    threading.Timer(0.2, k.cancel).start()
    start = time.monotonic()
    # "No mate within 13" (the length is 15) costs seconds: the cancel comes long before the answer.
    got = k.question(zuko, True, 13)
    assert got == "stopped" and time.monotonic() - start < 2.0


def test_a_richer_hand_can_last_longer() -> None:
    # 将棋無双 27番 after 6f6e 9e6e 4e5e 6d6c 6i6e: mated in 10 with a rook in hand (the drops on 6d
    # futile), in 12 with a rook and a lance (they count).  The table must not carry the richer
    # hand's "no mate within 10" to the poorer one (hand dominance, unsound under the tsume rules).
    root = "9/1Ps1s4/3Ppp3/pp1k5/+r4+B3/2P+B5/2N1+p4/5L3/3R5 b 4g2s3n3l10p 1"
    poor = "9/1Ps1s4/3kpp3/pp7/3R+B4/2P6/2N1+p4/5L3/9 w Rb4g2s3n3l11p 6"
    rich = "9/1Ps1s4/3kpp3/pp7/3R+B4/2P6/2N1+p4/5L3/9 w RLb4g2s3n2l11p 6"
    k = _kernel(root)
    assert k.question(rich, False, 10) == "no" and k.question(rich, False, 12) == "yes"
    assert k.question(poor, False, 10) == "yes" and k.question(poor, False, 8) == "no"
    assert k.bounds(poor)[:2] == (10, 10) and k.bounds(rich)[:2] == (12, 12)


@pytest.mark.slow
def test_every_no_the_roots_climb_is_told_is_a_refutation(monkeypatch: pytest.MonkeyPatch) -> None:
    # 将棋無双 30番 (published 119): the root's length is climbed "mate within 21? 23? ...", and each
    # "no" is a refutation the table records (the root's lower bound passes d).  A disproof number
    # summed up to infinity once ended a question undecided, read as "no" with nothing recorded: the
    # climb went on from 119 to 157 on such answers, took 157 as exact, and the main line found no
    # defence that long at ply 36 (an internal error).
    row = _rows("musou.tsv")["musou-030"]
    told: list[tuple[int, int]] = []
    ask = kernel_length.KernelLengthSearch._ask

    def recording_ask(self: kernel_length.KernelLengthSearch, or_node: bool, d: int):   # type: ignore[no-untyped-def]
        got = yield from ask(self, or_node, d)
        if self.phase == "search" and self.board.move_number == 1 and not got:
            told.append((d, self.bounds(self.board).lo))
        return got

    monkeypatch.setattr(kernel_length.KernelLengthSearch, "_ask", recording_ask)
    result = solve(Position.from_sfen(row["sfen"]), Limits(nodes=20_000_000))
    assert result.status is SolveStatus.MATE and result.extra["engine"] == "kernel"
    assert len(told) >= 40   # the climb got past 100 plies
    assert all(lo > d for d, lo in told), [(d, lo) for d, lo in told if lo <= d]
    if result.extra["exact"]:
        assert len(result.pv) == result.length
    else:
        assert result.extra["at_least"] <= result.extra["at_most"] == result.length

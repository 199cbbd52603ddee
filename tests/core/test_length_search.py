"""The Python length search (core.search.length_search) and the builder on it: exact length, main
line, futile interpositions, 駒余り, 余詰, bounds, limits.

It is the reference the kernel's length search is compared with (tests/core/test_kernel_length.py)
and the fallback without a compiler; its answers are checked here against the problem files and
the brute force (bruteforce.py)."""

from __future__ import annotations

import csv
import threading
import time
from pathlib import Path

import cshogi
import pytest

from tsume_studio.core.answer import TREE_CUT_JAPANESE, solution_record
from tsume_studio.core.search import builder, kernel_engine, kernel_length, length_search
from tsume_studio.core.search.contract import INFINITY as INF
from tsume_studio.core.search.contract import Limits, Progress, SolveResult, SolveStatus, drive
from tsume_studio.core.search.dfpn import DfPn, Outcome
from tsume_studio.core.search.length_rule import AnswerSession, SearchAborted
from tsume_studio.core.search.length_search import LengthSearch, LengthTable, build_proof, solve_official
from tsume_studio.core.search.proof import FutileReason, Proof, ProofNode, Role
from tsume_studio.core.search.solver import can_continue_alternatives, continue_alternatives
from tsume_studio.core.search.solver import solve as solve_problem
from tsume_studio.core.shogi.position import Position

import bruteforce  # tests/core is on sys.path

# Every test here runs on both df-pn engines (the official answer asks either's table).
pytestmark = pytest.mark.usefixtures("engine")

DATA = Path(__file__).resolve().parents[1] / "data"
with (DATA / "mate.tsv").open(encoding="utf-8") as _f:
    ROWS = {r["id"]: r for r in csv.DictReader(_f, delimiter="\t")}

CLASSIC = "8k/6G2/R7P/9/9/9/9/9/9 b r2b3g4s4n4l17p 1"

# Rows of mate.tsv (raw-rule lengths) whose tsume-rule length is shorter, each
# because a futile interposition stops counting; checked against bruteforce.py.
SHORTER = {
    "tanuki-5-5": 3, "tanuki-5-41": 3, "tanuki-5-202": 3, "tanuki-7-15": 5, "tanuki-7-17": 5,
    "tanuki-7-20": 5, "tanuki-7-51": 5, "tanuki-7-75": 3, "tanuki-7-137": 1, "tanuki-7-156": 3,
    "tanuki-9-164": 5, "tanuki-9-429": 5, "tanuki-9-466": 5, "sugyan-990": 1, "sugyan-1014": 5,
    "sugyan-1016": 5,
}


def sfen_of(row_id: str) -> str:
    return ROWS[row_id]["sfen"]


def solve(sfen: str, **kwargs: object) -> Proof:
    proof = solve_official(Position.from_sfen(sfen), **kwargs)  # type: ignore[arg-type]
    assert proof is not None
    return proof


def row(row_id: str) -> tuple[str, int]:
    r = ROWS[row_id]
    return r["sfen"], int(r["length"])


def final_hand(sfen: str, line: tuple[str, ...]) -> int:
    b = cshogi.Board(sfen)
    attacker = b.turn
    for m in line:
        b.push_usi(m)
    return sum(b.pieces_in_hand[attacker])


def search(sfen: str) -> LengthSearch:
    board = cshogi.Board(sfen)
    return LengthSearch(board, None, deadline=None, cancel=None, node_limit=None,
                        distance_rule=True)


def test_classic_one_ply_keeps_its_seven_futile_squares() -> None:
    proof = solve(CLASSIC)
    assert proof.length == 1 and proof.main_line == ("9c9a+",) and proof.exact
    assert sorted(f.move[2:] for f in proof.futile) == ["2a", "3a", "4a", "5a", "6a", "7a", "8a"]
    assert all(f.path == ("9c9a+",) for f in proof.futile)
    reasons = {f.move[2:]: f.reason.english() for f in proof.futile}
    assert reasons["2a"] == "futile: captured and returned, still mate in 1"
    assert reasons["8a"] == "omitted: distance rule"
    # Every piece the defender holds could be dropped on each square.
    assert all(len(f.moves) == 7 for f in proof.futile)
    # Under raw rules the same position is far longer (every interposition counts).
    assert bruteforce.raw_length(CLASSIC, 5) is None
    assert bruteforce.tsume_length(CLASSIC, 5) == 1


def test_classic_without_distance_rule_tests_every_square() -> None:
    proof = solve(CLASSIC, distance_rule=False)
    assert proof.length == 1
    assert [f.reason.english() for f in proof.futile] == ["futile: captured and returned, still mate in 1"] * 7


@pytest.mark.parametrize("distance_rule, omitted", [(True, 4), (False, 0)])
def test_classic_defences_all_futile(distance_rule: bool, omitted: int) -> None:
    # Every drop square on the dragon's line is futile; the distance rule
    # omits the four far ones without a test.
    proof = solve(CLASSIC, distance_rule=distance_rule)
    real = [n for n in proof.root.children[0].children if n.role is not Role.FUTILE]
    assert real == []
    assert len(proof.futile) == 7
    assert sum(f.reason.kind is FutileReason.DISTANCE_RULE for f in proof.futile) == omitted
    assert sum(f.reason.kind is FutileReason.CAPTURED_RETURNED for f in proof.futile) == 7 - omitted


def test_futile_drops_do_not_count_inside_the_search() -> None:
    # "Mate within 1?" is answered by the df-pn itself: after ▲9一飛成 the
    # defender has only drops, each judged futile at the bound 1.
    s = search(CLASSIC)
    assert s.question(s.board.copy(), True, 1)
    assert s.futility_tests >= 1
    root = s.table.get(s.board)
    assert root.hi == 1 and cshogi.move_to_usi(root.best) == "9c9a+"


def test_effective_interposition_inside_the_search() -> None:
    # ▲1四香 △1三歩 (a 中合): captured and returned, the king escapes, so
    # the drop counts: no mate within 3, a mate within 5.
    sfen = "4g+RG1k/9/9/9/9/9/9/9/9 b Lr2b2g4s4n3l18p 1"
    s = search(sfen)
    assert not s.question(s.board.copy(), True, 3)
    assert s.question(s.board.copy(), True, 5)
    root = s.table.get(s.board)
    assert (root.lo, root.hi) == (5, 5)
    assert bruteforce.tsume_length(sfen, 7) == 5


def test_interposition_whose_return_mates_only_later_counts_inside_the_search() -> None:
    sfen = sfen_of("tanuki-3-454")
    s = search(sfen)
    assert not s.question(s.board.copy(), True, 1)
    assert s.question(s.board.copy(), True, 3)


def test_shorter_than_the_dfpn_proof() -> None:
    # The project's df-pn proves this mate in 11 plies; the exact length is 5.
    sfen = sfen_of("tanuki-5-227")
    pos = Position.from_sfen(sfen)
    oracle = DfPn(pos.turn, 64)
    oracle.search(pos.board().copy())
    entry = oracle.entry(pos.board())
    assert entry is not None and entry[1] == 0 and entry[5] == 11
    proof = solve_official(pos, oracle)
    assert proof is not None and proof.length == 5 and proof.exact
    assert len(proof.main_line) == 5
    assert bruteforce.tsume_length(sfen, 9) == 5


def test_shorter_than_dfpn_first_line() -> None:
    # cshogi's df-pn proves this mate with a 7-ply line; the shortest is 5.
    sfen, length = row("tanuki-5-148")
    board = cshogi.Board(sfen)
    dfpn = cshogi.DfPn()
    assert dfpn.search(board) and len(dfpn.get_pv(board)) == 7
    proof = solve(sfen)
    assert proof.length == length == 5 and proof.exact
    assert len(proof.main_line) == 5
    assert bruteforce.raw_length(sfen, 5) == 5


def test_effective_interposition_next_to_the_king() -> None:
    # ▲1五香 △1四歩 (adjacent drop, counted) ▲2三金 mate.
    sfen, length = row("tanuki-3-62")
    proof = solve(sfen)
    assert proof.length == length == 3
    assert proof.main_line[1] == "P*1d"
    assert proof.futile == ()


def test_effective_interposition_away_from_the_king() -> None:
    # ▲1四香 △1三歩 (a 中合 two squares from the king): captured and returned,
    # the king escapes to 2b, so the drop counts and is the main line; the
    # adjacent drops on 1b are variations, and the later drop on 2b is futile.
    sfen = "4g+RG1k/9/9/9/9/9/9/9/9 b Lr2b2g4s4n3l18p 1"
    proof = solve(sfen)
    assert proof.length == 5 and proof.main_line[:2] == ("L*1d", "P*1c")
    defences = {n.move: n for n in proof.root.children[0].children}
    assert defences["P*1c"].role is Role.MAIN and defences["P*1c"].length == 3
    assert defences["P*1b"].role is Role.VARIATION and defences["P*1b"].length == 1
    assert {f.move for f in proof.futile} == {"P*2b"}
    assert bruteforce.tsume_length(sfen, 7) == 5
    assert bruteforce.raw_length(sfen, 7) == 7


def test_futile_interposition_next_to_the_king() -> None:
    # After ▲1四飛 a drop on 1c (next to the king) is captured by the rook
    # with the piece back in hand and it is still mate: futile.
    sfen, length = row("tanuki-3-48")
    proof = solve(sfen)
    assert proof.length == length == 3
    adjacent = [f for f in proof.futile if f.move[2:] == "1c"]
    assert adjacent and adjacent[0].reason.english() == "futile: captured and returned, still mate in 1"


def test_interposition_whose_return_mates_only_later_counts() -> None:
    # After ▲1三香 the pawn drop on 1b, captured and returned, is still mate
    # but only in 5 plies, not "just as without it": it counts, so the
    # problem is not a mate in 1.
    sfen, length = row("tanuki-3-454")
    proof = solve(sfen)
    assert proof.length == length == 3
    assert bruteforce.tsume_length(sfen, 3) == 3


def test_komaamari_tie_break() -> None:
    # After ▲2一歩成 both △1二玉 and △同玉 last two more plies; only △同玉
    # ▲2二金 uses up the attacker's hand.
    sfen = "6B1k/7P1/9/9/9/9/9/9/9 b G2rb3g4s4n4l17p 1"
    proof = solve(sfen)
    assert proof.main_line == ("2b2a+", "1a2a", "G*2b")
    assert final_hand(sfen, proof.main_line) == 0
    defences = proof.root.children[0].children
    other = [n for n in defences if n.move == "1a1b"]
    assert other and other[0].role is Role.VARIATION and other[0].length == 1
    assert final_hand(sfen, ("2b2a+", "1a1b", other[0].children[0].move)) == 1


def test_yozume_alternatives() -> None:
    # ▲3二銀成 is the main line's first move, but ▲4四角 also mates in 3.
    sfen, length = row("tanuki-3-43")
    proof = solve(sfen)
    assert proof.length == length == 3 and proof.alternatives_checked
    assert {(a.path, a.move): a.length for a in proof.alternatives} == {((), "3e4d"): 3}
    after = cshogi.Board(sfen)
    after.push_usi("3e4d")
    assert bruteforce.BruteForce(True).mated(after, 2)
    assert [n.role for n in proof.root.children] == [Role.MAIN, Role.ALTERNATIVE]


def test_final_move_promotion_is_not_yozume() -> None:
    # ▲2一飛成 and ▲2一飛 both mate; the choice on the last move is no 余詰,
    # but ▲2二飛成 (another square) and the golds' mates are.
    sfen = "8k/6G2/8G/9/7R1/9/9/9/9 b r2b2g4s4n4l18p 1"
    proof = solve(sfen)
    assert proof.length == 1 and proof.main_line == ("2e2a+",)
    after = cshogi.Board(sfen)
    after.push_usi("2e2a")
    assert not any(True for _ in after.legal_moves)  # the twin mates too
    assert {a.move for a in proof.alternatives} == {"2e2b+", "1c2b", "3b2a", "3b2b"}


@pytest.mark.parametrize("row_id", sorted(SHORTER))
def test_tsume_length_shorter_only_by_futile_interpositions(row_id: str) -> None:
    sfen, raw = row(row_id)
    proof = solve(sfen)
    assert proof.length == SHORTER[row_id] < raw and proof.exact
    assert proof.futile, "a shorter tsume-rule length needs a futile interposition"
    assert bruteforce.raw_length(sfen, raw) == raw
    assert bruteforce.tsume_length(sfen, raw) == proof.length


# 将棋無双 27番 (tests/data/musou.tsv) after 6f6e 9e6e 4e5e 6d6c 6i6e, the defender to move; the
# same board with a lance more in the attacker's hand.  With a rook in hand the drops on 6d are
# futile and the mate takes 10 plies; with a rook and a lance they count and it takes 12.
MUSOU27 = "9/1Ps1s4/3Ppp3/pp1k5/+r4+B3/2P+B5/2N1+p4/5L3/3R5 b 4g2s3n3l10p 1"
MUSOU27_P = "9/1Ps1s4/3kpp3/pp7/3R+B4/2P6/2N1+p4/5L3/9 w Rb4g2s3n3l11p 6"
MUSOU27_P_LANCE = "9/1Ps1s4/3kpp3/pp7/3R+B4/2P6/2N1+p4/5L3/9 w RLb4g2s3n2l11p 6"


def test_no_hand_dominance_in_the_table() -> None:
    # A bound proved for one hand says nothing of another hand on the same board.
    table = LengthTable(0, 16)
    rich = cshogi.Board("8k/9/8P/9/9/9/9/9/9 b 2G2r2b2g4s4n4l17p 1")
    poor = cshogi.Board("8k/9/8P/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1")
    table.get(poor).hi = 1
    assert table.get(rich).hi == INF
    bare = cshogi.Board("8k/9/8P/9/9/9/9/9/9 b 2r2b4g4s4n4l17p 1")
    table.get(bare).lo = 3
    assert table.get(cshogi.Board("8k/9/8P/9/9/9/9/9/9 b S2r2b4g3s4n4l17p 1")).lo == 1


@pytest.mark.slow
def test_a_richer_hand_can_last_longer() -> None:
    # Hand dominance would carry "no mate within 10" from the richer hand to the poorer one.
    s = search(MUSOU27)
    assert not s.question(cshogi.Board(MUSOU27_P_LANCE), False, 10)
    assert s.question(cshogi.Board(MUSOU27_P_LANCE), False, 12)
    assert s.question(cshogi.Board(MUSOU27_P), False, 10)
    assert not s.question(cshogi.Board(MUSOU27_P), False, 8)


def _king_on(square: int, pawns: int, lances: int) -> cshogi.Board:
    f, r = divmod(square, 9)   # file 9 - f, rank r + 1
    ranks = ["9"] * 9
    ranks[r] = (str(f) if f else "") + "k" + (str(8 - f) if f < 8 else "")
    hand = (f"{pawns}P" if pawns else "") + (f"{lances}L" if lances else "") or "-"
    return cshogi.Board("/".join(ranks) + f" b {hand} 1")


def test_table_collects_its_cheapest_entries() -> None:
    table = LengthTable(0, 1)
    amount = 0
    for square in range(81):
        for pawns in range(19):
            for lances in range(5):
                if len(table) > table.max_entries:
                    break
                amount += 1
                table.get(_king_on(square, pawns, lances)).amount = amount
    assert table.over_limit()
    before = len(table)
    removed = table.collect()
    assert removed > 0 and len(table) == before - removed <= int(table.max_entries * 0.7)
    kept = [e.amount for e in table.by_zob.values()]
    assert max(kept) == amount and min(kept) > amount - len(kept) - 1
    assert sum(len(lst) for lst in table.by_board.values()) == len(table)


def _sample(stride: int, max_length: int) -> list[str]:
    return [rid for i, rid in enumerate(ROWS) if i % stride == 0 and int(ROWS[rid]["length"]) <= max_length]


@pytest.mark.parametrize("row_id", _sample(10, 11))
def test_mate_tsv_sample(row_id: str) -> None:
    sfen, raw = row(row_id)
    proof = solve(sfen)
    assert proof.exact
    assert proof.length == SHORTER.get(row_id, raw)
    assert len(proof.main_line) == proof.length


@pytest.mark.parametrize("row_id", _sample(7, 3))
def test_against_bruteforce_short_rows(row_id: str) -> None:
    sfen = sfen_of(row_id)
    assert solve(sfen).length == bruteforce.tsume_length(sfen, int(ROWS[row_id]["length"]))


@pytest.mark.slow
@pytest.mark.parametrize("row_id", list(ROWS))
def test_every_mate_tsv_row(row_id: str) -> None:
    sfen, raw = row(row_id)
    proof = solve(sfen)
    assert proof.exact
    assert proof.length == SHORTER.get(row_id, raw)


def test_the_python_path_answers_through_this_search(monkeypatch: pytest.MonkeyPatch) -> None:
    from tsume_studio.core.search import length_search, solver

    # Without the kernel (TSUME_ENGINE=python) every official answer, short or long, is this
    # search's (the kernel's path is tests/core/test_kernel_length.py's).
    monkeypatch.setenv("TSUME_ENGINE", "python")
    with (DATA / "microcosmos.tsv").open(encoding="utf-8") as f:
        tails = {r["id"]: r for r in csv.DictReader(f, delimiter="\t")}
    calls: list[str] = []
    real = length_search.build_proof

    def recording(position: Position, *args: object, **kwargs: object) -> object:
        calls.append(position.sfen())
        return real(position, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(solver, "python_proof", recording)
    long_result = solver.solve(Position.from_sfen(tails["microcosmos-tail-17"]["sfen"]),
                               solver.Limits(seconds=60))
    assert calls and long_result.length == 17 and long_result.extra["exact"]
    assert long_result.extra["engine"] == "python"
    calls.clear()
    short = solver.solve(Position.from_sfen("7k1/4R4/9/9/9/9/9/9/9 b SNr2b4g3s3n4l18p 1"))
    assert calls and short.length == 3 and short.extra["exact"]
    calls.clear()
    # The classic's raw proof is long (every drop counts there): still a mate in 1 with its seven futile squares.
    classic = solver.solve(Position.from_sfen(CLASSIC))
    assert calls and classic.length == 1 and classic.pv == ("9c9a+",)
    assert isinstance(classic.proof, Proof) and len(classic.proof.futile) == 7


@pytest.mark.slow
@pytest.mark.parametrize("row_id", [rid for rid in ROWS if int(ROWS[rid]["length"]) <= 5])
def test_every_short_row_against_bruteforce(row_id: str) -> None:
    sfen = sfen_of(row_id)
    assert solve(sfen).length == bruteforce.tsume_length(sfen, int(ROWS[row_id]["length"]))


class _CancelAfter:
    """Set after it has been asked ``n`` times: a deterministic cancel."""

    def __init__(self, n: int) -> None:
        self.left = n

    def is_set(self) -> bool:
        self.left -= 1
        return self.left < 0


def test_cancel_ends_the_search_without_an_answer() -> None:
    with (DATA / "microcosmos.tsv").open(encoding="utf-8") as f:
        tail = next(r for r in csv.DictReader(f, delimiter="\t") if r["id"] == "microcosmos-tail-31")
    pos = Position.from_sfen(tail["sfen"])
    oracle = DfPn(pos.turn, 64)
    oracle.search(pos.board().copy())
    cancel = _CancelAfter(20)
    assert solve_official(pos, oracle, cancel=cancel) is None
    assert cancel.left < 0


def test_a_stopped_length_search_reports_its_question_and_keeps_its_bounds(engine: str) -> None:
    """While the length is sought, progress says "mate within n?" and the bounds proved; Stop
    (the cancel flag) keeps those bounds in the result: at most df-pn's proof, at least 1."""
    import threading

    from tsume_studio.core.cli.running import result_json
    from tsume_studio.core.search.contract import Limits, SolveStatus, drive
    from tsume_studio.core.search.solver import solve_iter

    # This search asks from above: df-pn's proof of 将棋無双 91番 is 31 plies (raw rules), so the
    # first question is "mate within 29?".  The kernel's climbs the root from below, "mate within
    # lo?" first, and answers 91番 within a slice: 90番 (df-pn's proof 37 plies) takes it longer.
    row, proof = ("musou-091", 31) if engine == "python" else ("musou-090", 37)
    with (DATA / "musou.tsv").open(encoding="utf-8") as f:
        sfen = next(r for r in csv.DictReader(f, delimiter="\t") if r["id"] == row)["sfen"]
    cancel = threading.Event()
    asked: list[dict[str, float]] = []

    def watch(progress: Progress) -> None:
        stats = dict(progress.stats)
        if "asking" in stats:
            asked.append(stats)
            cancel.set()

    result = drive(solve_iter(Position.from_sfen(sfen), Limits(seconds=120), cancel, force=True), watch)
    assert asked, "no progress asked a length question"
    first = asked[0]
    assert first["at_most"] == proof and first["at_least"] >= 1
    if engine == "python":
        assert first["asking"] == proof - 2
    else:
        assert first["asking"] == first["at_least"] < proof - 2
    assert result.status == SolveStatus.CANCELLED
    assert result.extra["at_most"] == proof and 1 <= int(str(result.extra["at_least"])) <= proof
    data = result_json(result)
    assert data["at_most"] == proof and "at_least" in data


def test_no_mate_returns_none() -> None:
    assert solve_official(Position.from_sfen("4k4/9/4P4/9/9/9/9/9/9 b 2r2b4g4s4n4l17p 1")) is None


# Microcosmos' 39-ply tail (tests/data/microcosmos.tsv): its exact answer takes this search more than a second.
TAIL_39 = "g3+P+P+P+P+L/1p7/+Rn1kppppl/1+P1sg+p+R2/+b+nL6/1PP+B1ssP1/4+Ps2N/4+P1P1L/6G1g b Np 1487"


def _proved_oracle(sfen: str) -> DfPn:
    """A df-pn table that already proves ``sfen``, so that the length search itself starts at once."""
    board = cshogi.Board(sfen)
    oracle = DfPn(board.turn, memory_mb=64)
    assert oracle.search(board) == Outcome.PROVEN
    return oracle


def test_progress_and_deadline() -> None:
    sfen = TAIL_39
    oracle = _proved_oracle(sfen)
    seen: list[LengthSearch] = []
    gen = build_proof(Position.from_sfen(sfen), oracle, deadline=time.monotonic() + 0.3,
                      observe=seen.append)   # type: ignore[arg-type]
    snapshots: list[Progress] = []
    start = time.monotonic()
    result = drive(gen, snapshots.append)
    assert result is None
    assert time.monotonic() - start < 1.0
    assert snapshots and all(isinstance(p, Progress) for p in snapshots)
    assert seen[0].nodes > 0   # it searched until the deadline


@pytest.mark.usefixtures("collector_paused")
def test_cancel_is_honoured_quickly() -> None:
    sfen = TAIL_39
    cancel = threading.Event()
    gen = build_proof(Position.from_sfen(sfen), _proved_oracle(sfen), cancel=cancel)
    next(gen)
    deadline = time.monotonic() + 0.25
    while time.monotonic() < deadline:
        next(gen)
    cancel.set()
    t = time.monotonic()
    assert drive(gen) is None
    assert time.monotonic() - t < 0.1


def test_node_limit() -> None:
    sfen, _ = row("mog-1033")
    assert solve_official(Position.from_sfen(sfen), node_limit=2000) is None


def test_a_small_table_collects_and_still_answers_exactly() -> None:
    # mog-1033 fills more than the smallest table (1 MB: 2,621 entries); the search collects
    # its cheapest entries and goes on, with the same answer as with room to spare.
    sfen, length = row("mog-1033")
    seen: list[object] = []
    small = solve_official(Position.from_sfen(sfen), memory_mb=1, observe=seen.append)
    assert isinstance(seen[0], LengthSearch) and seen[0].table.collections > 0
    roomy = solve_official(Position.from_sfen(sfen), memory_mb=64)
    assert small is not None and roomy is not None
    assert small.length == roomy.length == length and small.exact



def test_a_collection_never_drops_an_entry_on_the_search_path(monkeypatch: pytest.MonkeyPatch) -> None:
    # The collector once dropped the root's entry while a question searched it (its amount
    # still 0, its bound only read from df-pn): the question's answer went to an entry no
    # longer in the table, and the length proved was lost (mog-1037: no answer at all).
    # With 1,000 entries and no pauses the collections fall at the same nodes every run.
    monkeypatch.setattr(length_search, "_YIELD_SECONDS", 1e9)
    made: list[LengthTable] = []
    table_init = LengthTable.__init__

    def tiny(self: LengthTable, attacker: int, memory_mb: int = 256) -> None:
        table_init(self, attacker, memory_mb)
        self.max_entries = 1000
        made.append(self)

    monkeypatch.setattr(LengthTable, "__init__", tiny)
    collect = LengthTable.collect
    busy_kept: list[bool] = []

    def watched(self: LengthTable, target: float = 0.7) -> int:
        busy = [e for e in self.by_zob.values() if e.busy]
        removed = collect(self, target)
        busy_kept.append(all(self.by_zob.get(e.zob) is e for e in busy))
        return removed

    monkeypatch.setattr(LengthTable, "collect", watched)
    sfen, length = row("mog-1037")
    proof = solve_official(Position.from_sfen(sfen), memory_mb=1)
    assert made and made[0].collections >= 5
    assert busy_kept and all(busy_kept)
    assert proof is not None and proof.length == length and proof.exact

def _walk(node: ProofNode) -> list[ProofNode]:
    out = [node]
    for c in node.children:
        out.extend(_walk(c))
    return out


def test_proof_nodes_are_proven() -> None:
    proof = solve(row("tanuki-5-148")[0])
    assert all(n.pn == 0 for n in _walk(proof.root))


def test_alternatives_can_be_skipped() -> None:
    sfen, length = row("tanuki-3-43")
    proof = solve(sfen, alternatives=False)
    assert proof.length == length and proof.alternatives == ()
    assert all(n.role is not Role.ALTERNATIVE for n in _walk(proof.root))


def test_yozume_search_out_of_time_keeps_the_exact_answer(monkeypatch: pytest.MonkeyPatch) -> None:
    # The 余詰 search is the costliest part on long problems; when the limits
    # run out in it, the length, main line and tree already proved still stand.
    sfen, length = row("tanuki-3-43")
    assert solve(sfen).alternatives_checked is True

    def out_of_time(self: object, value: int) -> object:
        raise SearchAborted("deadline")
        yield  # pragma: no cover - makes this a generator like the real one

    monkeypatch.setattr(builder.AnswerBuilder, "mating_moves", out_of_time)
    proof = solve(sfen)
    assert proof.exact and proof.length == length and len(proof.main_line) == length
    assert proof.alternatives == () and proof.alternatives_checked is False
    assert all(n.pn == 0 for n in _walk(proof.root))


@pytest.mark.parametrize("builder_of", [
    pytest.param(length_search.build_proof, id="python"),
    pytest.param(kernel_length.build_proof, id="kernel",
                 marks=pytest.mark.skipif(not kernel_length.available(), reason="the kernel is not built"))])
@pytest.mark.parametrize(("row_id", "cuts", "step"), [("tanuki-5-83", {0, 1, 3}, 1), ("sugyan-1013", {0, 1}, 40)])
def test_yozume_search_cut_short_keeps_what_it_examined(builder_of: object, row_id: str, cuts: set[int],
                                                        step: int) -> None:
    # Node limits from a third of the whole answer's count up (every one, or every step-th where
    # each part of the search takes hundreds of nodes) stop it somewhere; where the
    # 余詰 search is cut part way, the answer without it stands with what that search established:
    # the main line's attacker moves up to ply alternatives_checked_to, with every other mate they
    # have, and nothing past that ply.  tanuki-5-83 has 余詰 at plies 3 (4a4b+) and 5 (3a3b).  In
    # sugyan-1013 ply 3 has two mates: the answer without the 余詰 search plays the first found
    # (7h4h), the whole answer the one leaving fewer pieces (B*4i), so the 余詰 search's findings
    # from ply 3 on belong to another line and are not kept.
    sfen, length = row(row_id)
    position = Position.from_sfen(sfen)
    seen: list[object] = []
    whole = drive(builder_of(position, observe=seen.append))  # type: ignore[operator]
    nodes = int(seen[0].nodes)  # type: ignore[attr-defined]
    base = drive(builder_of(position, alternatives=False))  # type: ignore[operator]
    assert whole is not None and whole.alternatives_checked and whole.length == length
    assert base is not None and not base.alternatives_checked and base.alternatives_checked_to == 0
    if row_id == "sugyan-1013":
        assert whole.main_line[2] == "B*4i" and base.main_line[2] == "7h4h"
    cut_at: set[int] = set()
    for limit in range(nodes // 3, nodes + 1, step):
        proof = drive(builder_of(position, node_limit=limit))  # type: ignore[operator]
        if proof is None or proof.alternatives_checked:
            continue
        assert proof.exact and proof.main_line == base.main_line
        to = proof.alternatives_checked_to
        assert to == 0 or (to < length and to % 2 == 1)
        assert [(a.path, a.move, a.length) for a in proof.alternatives] == [
            (a.path, a.move, a.length) for a in sorted(whole.alternatives, key=lambda a: len(a.path))
            if len(a.path) < to]
        # The proof tree holds them too, beside the main line's move, as the whole answer's does.
        assert _tree_alternatives(proof.root) == [(a.path, a.move, a.length) for a in proof.alternatives]
        cut_at.add(to)
    assert cut_at == cuts
    assert _tree_alternatives(whole.root) == sorted(
        ((a.path, a.move, a.length) for a in whole.alternatives), key=lambda t: len(t[0]))


def _main_line_defences(proof: Proof) -> list[dict[str, ProofNode]]:
    """At each defender ply of the main line (2, 4, ...), its defences by move (futile ones too)."""
    out = []
    node, ply = proof.root, 0
    while True:
        main = next((c for c in node.children if c.role is Role.MAIN), None)
        if main is None:
            return out
        if ply % 2 == 1:
            out.append({c.move: c for c in node.children if c.move is not None})
        node, ply = main, ply + 1


@pytest.mark.parametrize("builder_of", [
    pytest.param(length_search.build_proof, id="python"),
    pytest.param(kernel_length.build_proof, id="kernel",
                 marks=pytest.mark.skipif(not kernel_length.available(), reason="the kernel is not built"))])
def test_a_tree_cut_short_keeps_the_exact_main_line(builder_of: object) -> None:
    # tanuki-9-425 (9 plies): along its main line 7 defences mate sooner, 1 as late as the main
    # line's, and a drop is futile.  Node limits that stop the answer while its tree measures
    # the variations leave the exact length and main line, and at each defence of it every
    # defence the whole answer has: a variation built before the stop as the whole answer has
    # it, one as long as the main line's with that length, any other with the bound proved
    # (at least its length, at most the main line's less two) and no length.
    sfen, length = row("tanuki-9-425")
    position = Position.from_sfen(sfen)
    seen: list[object] = []
    whole = drive(builder_of(position, alternatives=False, observe=seen.append))  # type: ignore[operator]
    assert whole is not None and whole.tree_complete and whole.length == length
    nodes = int(seen[0].nodes)  # type: ignore[attr-defined]
    measured = unmeasured = 0
    for limit in range(max(1, nodes - 100), nodes + 1):   # the tree takes its last few dozen nodes
        proof = drive(builder_of(position, alternatives=False, node_limit=limit))  # type: ignore[operator]
        if proof is None or proof.tree_complete:
            continue
        assert proof.exact and not proof.alternatives_checked
        assert proof.length == length and proof.main_line == whole.main_line
        assert {(f.path, f.move) for f in proof.futile} <= {(f.path, f.move) for f in whole.futile}
        assert all(n.pn == 0 for n in _walk(proof.root))
        for ply, (cut, full) in enumerate(zip(_main_line_defences(proof), _main_line_defences(whole),
                                              strict=True)):
            assert cut.keys() == full.keys()
            left = length - 2 * ply - 1   # plies the main line mates in from this defence
            for move, node in cut.items():
                want = full[move]
                assert node.role is want.role
                if node.role is not Role.VARIATION:
                    continue
                if node.length is None:
                    unmeasured += 1
                    assert want.length is not None
                    assert node.comment.startswith("≤ ")
                    bound = int(node.comment[2:].split(":")[0])
                    assert want.length <= bound <= left - 3
                    assert node.children   # df-pn's line after it
                elif node.length == left - 1:
                    assert want.length == left - 1   # as long as the main line's
                else:
                    measured += 1
                    assert node == want
    assert measured > 0 and unmeasured > 0


def _tree_alternatives(node: ProofNode, path: tuple[str, ...] = ()) -> list[tuple[tuple[str, ...], str, int]]:
    """The 余詰 nodes of a proof tree, main line first: (path, move, plies it mates in)."""
    out = []
    for kid in node.children:
        if kid.role is Role.ALTERNATIVE:
            assert kid.move is not None and kid.length is not None and kid.comment == "余詰"
            out.append((path, kid.move, kid.length + 1))
    for kid in node.children:
        if kid.role is Role.MAIN and kid.move is not None:
            out += _tree_alternatives(kid, path + (kid.move,))
    return out


def test_dfpn_lengths_only_bound_from_above() -> None:
    # A df-pn proof's length bounds the tsume-rule length from above: with the
    # oracle's table full of df-pn's longer lines, the search must still
    # find the shortest mate (tanuki-7-137 is 7 plies raw, 1 under tsume rules).
    for row_id in ("tanuki-7-137", "tanuki-9-164", "sugyan-1014"):
        sfen, raw = row(row_id)
        board = cshogi.Board(sfen)
        oracle = DfPn(board.turn, memory_mb=64)
        oracle.search(board.copy())
        assert oracle.entry(board)[5] >= SHORTER[row_id]
        proof = solve_official(Position.from_sfen(sfen), oracle)
        assert proof is not None and proof.length == SHORTER[row_id] < raw


with (DATA / "nomate.tsv").open(encoding="utf-8") as _f:
    NOMATE = {r["id"]: r["sfen"] for r in csv.DictReader(_f, delimiter="\t")}


@pytest.mark.parametrize("row_id", sorted(NOMATE))
def test_nomate_rows_have_no_proof(row_id: str) -> None:
    start = time.monotonic()
    assert solve_official(Position.from_sfen(NOMATE[row_id]), deadline=start + 10) is None
    assert time.monotonic() - start < 5


def test_attacker_in_check_answers_with_a_check() -> None:
    # Black's king on 5a is in check from the gold; capturing it uncovers the
    # rook's check along rank a.  The adjacent drop on 2a counts; the farther
    # ones, mated as fast once captured, are futile.
    sfen = "R3K3k/4g4/7G1/9/9/9/9/9/9 b r2b2g4s4n4l18p 1"
    assert cshogi.Board(sfen).is_check()
    proof = solve(sfen)
    assert proof.length == 3 and proof.main_line[:2] == ("5a5b", "P*2a")
    assert {f.move[2:] for f in proof.futile} == {"3a", "4a", "5a", "6a", "7a", "8a"}
    assert bruteforce.tsume_length(sfen, 5) == 3


def test_a_stop_after_the_length_is_proved_keeps_the_table_for_a_check(monkeypatch: pytest.MonkeyPatch) -> None:
    """Stopped while the main line is built, the solve keeps the search in its session (the length is
    proved): its table is not emptied on the release thread, and a check asks it."""
    from tsume_studio.core.check import check_solution
    from tsume_studio.core.search.background import wait_released
    from tsume_studio.core.search.contract import Limits, SolveStatus
    from tsume_studio.core.search.length_rule import AnswerSession
    from tsume_studio.core.search.solver import solve as solve_problem

    monkeypatch.setenv("TSUME_ENGINE", "python")
    cancel = threading.Event()

    def stopped_in_the_main_line(*args: object, **kw: object) -> object:
        cancel.set()
        raise SearchAborted("cancelled")
        yield  # pragma: no cover - a generator like the real one

    monkeypatch.setattr(builder.AnswerBuilder, "main_line", stopped_in_the_main_line)
    sfen, length = row("tanuki-5-148")
    session = AnswerSession()
    result = solve_problem(Position.from_sfen(sfen), Limits(seconds=60), cancel, session=session)
    assert result.status is SolveStatus.CANCELLED
    assert wait_released()
    assert session.usable_for(Position.from_sfen(sfen).sfen()) and isinstance(session.search, LengthSearch)
    assert len(session.search.table) > 0
    monkeypatch.undo()
    line = solve(sfen).main_line
    check = check_solution(Position.from_sfen(sfen), list(line), Limits(seconds=60), session=session)
    assert check.reused and check.length == length == len(line)


def _cut_solve(engine: str, monkeypatch: pytest.MonkeyPatch, row_id: str, in_tree: bool
               ) -> tuple[Position, SolveResult, SolveResult, AnswerSession]:
    """On ``engine``: the position of ``row_id``, its whole solve, and a solve stopped by a node limit
    inside its tree (``in_tree``) or inside its 余詰 search, with the session it kept."""
    if engine == "kernel" and not kernel_engine.available():
        pytest.skip("the C++ kernel is not built in this install")
    monkeypatch.setenv(kernel_engine.ENGINE_ENV, engine)
    position = Position.from_sfen(row(row_id)[0])
    whole = solve_problem(position, Limits())
    assert isinstance(whole.proof, Proof) and whole.proof.alternatives_checked and whole.proof.tree_complete
    for nodes in range(whole.nodes // 3, whole.nodes, max(1, whole.nodes // 400)):
        session = AnswerSession()
        result = solve_problem(position, Limits(nodes=nodes), session=session)
        if (can_continue_alternatives(result, session) and isinstance(result.proof, Proof)
                and result.proof.tree_complete != in_tree):
            return position, whole, result, session
    raise AssertionError("no node limit stopped the solve inside its " + ("tree" if in_tree else "余詰 search"))


@pytest.mark.parametrize("engine", ["kernel", "python"])
def test_a_cut_yozume_search_continues_with_its_search_to_the_whole_answer(
        engine: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # tanuki-5-83 has 余詰 at plies 3 and 5.  A node limit that stops the solve inside its 余詰
    # search leaves an exact answer checked part way, its search kept in the session; more time
    # from there (continue_alternatives) ends with the whole answer's 余詰, and it searches less
    # than the whole solve did.
    position, whole, result, session = _cut_solve(engine, monkeypatch, "tanuki-5-83", in_tree=False)
    assert isinstance(result.proof, Proof) and len(result.proof.alternatives) < len(whole.proof.alternatives)
    more = drive(continue_alternatives(position, Limits(), session=session))
    assert more.status is SolveStatus.MATE and more.extra["exact"] is True
    assert isinstance(more.proof, Proof) and more.proof.alternatives_checked
    assert more.proof.main_line == whole.proof.main_line
    assert [(a.path, a.move, a.length) for a in more.proof.alternatives] == [
        (a.path, a.move, a.length) for a in whole.proof.alternatives]
    assert _tree_alternatives(more.proof.root) == _tree_alternatives(whole.proof.root)
    assert not can_continue_alternatives(more, session)
    assert more.nodes < whole.nodes


@pytest.mark.parametrize("engine", ["kernel", "python"])
def test_a_cut_tree_continues_to_the_whole_answer(engine: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # tanuki-9-425: a node limit that stops the solve while its tree measures the variations
    # leaves an exact answer, which its record says is not measured whole; more time from there
    # ends with the whole answer's tree.
    position, whole, result, session = _cut_solve(engine, monkeypatch, "tanuki-9-425", in_tree=True)
    assert isinstance(whole.proof, Proof)
    assert result.status is SolveStatus.MATE and result.extra["exact"] is True
    # Its main line is one without the 余詰 search's tie-break (the first mate found at each ply):
    # brute force finds each position of it, attacker to move, as long as the line says.
    line = result.proof.main_line if isinstance(result.proof, Proof) else ()
    assert len(line) == whole.proof.length
    for k in range(0, len(line), 2):
        b = cshogi.Board(position.sfen())
        for usi in line[:k]:
            b.push_usi(usi)
        assert bruteforce.tsume_length(b.sfen(), len(line) - k) == len(line) - k
    assert TREE_CUT_JAPANESE in solution_record(result).root.comments
    assert TREE_CUT_JAPANESE not in solution_record(whole).root.comments
    assert can_continue_alternatives(result, session)
    more = drive(continue_alternatives(position, Limits(), session=session))
    assert isinstance(more.proof, Proof) and more.proof.tree_complete and more.proof.alternatives_checked
    assert more.proof.root == whole.proof.root and more.proof.futile == whole.proof.futile


def test_continue_alternatives_needs_a_kept_answer_of_the_position() -> None:
    position = Position.from_sfen(row("tanuki-5-83")[0])
    with pytest.raises(ValueError, match="no official answer"):
        drive(continue_alternatives(position, Limits(), session=AnswerSession()))

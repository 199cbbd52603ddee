"""The length-aware tsume-rule df-pn (core.search.official): bounds, futility, exactness, 余詰."""

from __future__ import annotations

import csv
from pathlib import Path

import cshogi
import pytest

from tsume_studio.core.search.dfpn import DfPn
from tsume_studio.core.search.exact import solve_exact
from tsume_studio.core.search.official import LengthTable, OfficialSearch, solve_official
from tsume_studio.core.search.proof import Proof, Role
from tsume_studio.core.shogi.position import Position

import bruteforce  # tests/core is on sys.path

# Every test here runs on both df-pn engines (the official answer asks either's table).
pytestmark = pytest.mark.usefixtures("engine")

DATA = Path(__file__).resolve().parents[1] / "data"
with (DATA / "mate.tsv").open(encoding="utf-8") as _f:
    ROWS = {r["id"]: r for r in csv.DictReader(_f, delimiter="\t")}

CLASSIC = "8k/6G2/R7P/9/9/9/9/9/9 b r2b3g4s4n4l17p 1"


def sfen_of(row_id: str) -> str:
    return ROWS[row_id]["sfen"]


def solve(sfen: str, **kwargs: object) -> Proof:
    proof = solve_official(Position.from_sfen(sfen), **kwargs)  # type: ignore[arg-type]
    assert proof is not None
    return proof


def search(sfen: str) -> OfficialSearch:
    board = cshogi.Board(sfen)
    return OfficialSearch(board, None, deadline=None, cancel=None, node_limit=None,
                          distance_rule=True)


def test_classic_one_ply_keeps_its_seven_futile_squares() -> None:
    proof = solve(CLASSIC)
    assert proof.length == 1 and proof.main_line == ("9c9a+",) and proof.exact
    assert sorted(f.move[2:] for f in proof.futile) == ["2a", "3a", "4a", "5a", "6a", "7a", "8a"]
    reasons = {f.move[2:]: f.reason.english() for f in proof.futile}
    assert reasons["2a"] == "futile: captured and returned, still mate in 1"
    assert reasons["8a"] == "omitted: distance rule"


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


def test_yozume_alternatives() -> None:
    # ▲3二銀成 is the main line's first move, but ▲4四角 also mates in 3.
    proof = solve(sfen_of("tanuki-3-43"))
    assert proof.length == 3 and proof.alternatives_checked
    assert {(a.path, a.move): a.length for a in proof.alternatives} == {((), "3e4d"): 3}
    assert [n.role for n in proof.root.children] == [Role.MAIN, Role.ALTERNATIVE]


def test_final_move_promotion_is_not_yozume() -> None:
    proof = solve("8k/6G2/8G/9/7R1/9/9/9/9 b r2b2g4s4n4l18p 1")
    assert proof.length == 1 and proof.main_line == ("2e2a+",)
    assert {a.move for a in proof.alternatives} == {"2e2b+", "1c2b", "3b2a", "3b2b"}


def test_komaamari_tie_break() -> None:
    sfen = "6B1k/7P1/9/9/9/9/9/9/9 b G2rb3g4s4n4l17p 1"
    proof = solve(sfen)
    assert proof.main_line == ("2b2a+", "1a2a", "G*2b")


def test_hand_dominance_in_the_table() -> None:
    # Same board: a mate within 1 proved with a gold in hand answers a hand
    # with more; a refutation with no hand answers nothing richer.
    table = LengthTable(0, 16)
    rich = cshogi.Board("8k/9/8P/9/9/9/9/9/9 b 2G2r2b2g4s4n4l17p 1")
    poor = cshogi.Board("8k/9/8P/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1")
    e = table.get(poor)
    e.hi = 1
    assert table.get(rich).hi == 1
    bare = cshogi.Board("8k/9/8P/9/9/9/9/9/9 b 2r2b4g4s4n4l17p 1")
    table.get(bare).lo = 3
    assert table.get(cshogi.Board("8k/9/8P/9/9/9/9/9/9 b S2r2b4g3s4n4l17p 1")).lo == 1


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


@pytest.mark.parametrize("row_id", _sample(9, 11))
def test_same_length_as_the_old_search(row_id: str) -> None:
    pos = Position.from_sfen(sfen_of(row_id))
    new, old = solve_official(pos), solve_exact(pos)
    assert new is not None and old is not None
    assert new.length == old.length and new.exact
    assert len(new.main_line) == new.length
    assert {a.move for a in new.alternatives if a.path == ()} == {a.move for a in old.alternatives if a.path == ()}


@pytest.mark.parametrize("row_id", _sample(7, 3))
def test_against_bruteforce_short_rows(row_id: str) -> None:
    sfen = sfen_of(row_id)
    assert solve(sfen).length == bruteforce.tsume_length(sfen, int(ROWS[row_id]["length"]))


@pytest.mark.slow
@pytest.mark.parametrize("row_id", list(ROWS))
def test_every_mate_tsv_row_as_the_old_search(row_id: str) -> None:
    pos = Position.from_sfen(sfen_of(row_id))
    new, old = solve_official(pos), solve_exact(pos)
    assert new is not None and old is not None and new.length == old.length


def test_solver_uses_the_length_aware_search_on_long_problems(monkeypatch: pytest.MonkeyPatch) -> None:
    from tsume_studio.core.search import official, solver

    # The Python searches' choice between exact.py and official.py (the kernel's search is
    # tests/core/test_kernel_length.py's).
    monkeypatch.setenv("TSUME_ENGINE", "python")
    with (DATA / "microcosmos.tsv").open(encoding="utf-8") as f:
        tails = {r["id"]: r for r in csv.DictReader(f, delimiter="\t")}
    calls: list[str] = []
    real = official.build_proof

    def recording(position: Position, *args: object, **kwargs: object) -> object:
        calls.append(position.sfen())
        return real(position, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(solver, "official_proof", recording)
    long_result = solver.solve(Position.from_sfen(tails["microcosmos-tail-17"]["sfen"]),
                               solver.Limits(seconds=60))
    assert calls and long_result.length == 17 and long_result.extra["exact"]
    calls.clear()
    short = solver.solve(Position.from_sfen("7k1/4R4/9/9/9/9/9/9/9 b SNr2b4g3s3n4l18p 1"))
    assert not calls and short.length == 3
    # The classic's raw proof is long (every drop counts there): the new path
    # answers it, still a mate in 1 with its seven futile squares.
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


def test_a_stopped_length_search_reports_its_question_and_keeps_its_bounds() -> None:
    """While the length is sought, progress says "mate within n?" and the bounds proved; Stop
    (the cancel flag) keeps those bounds in the result: at most df-pn's proof, at least 1."""
    import threading

    from tsume_studio.core.cli.running import result_json
    from tsume_studio.core.search.contract import Limits, Progress, SolveStatus, drive
    from tsume_studio.core.search.solver import solve_iter

    with (DATA / "musou.tsv").open(encoding="utf-8") as f:
        sfen = next(r for r in csv.DictReader(f, delimiter="\t") if r["id"] == "musou-091")["sfen"]
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
    # df-pn's proof is 31 plies (raw rules): the first question is "mate within 29?".
    assert first["at_most"] == 31 and first["asking"] == 29 and first["at_least"] >= 1
    assert result.status == SolveStatus.CANCELLED
    assert result.extra["at_most"] == 31 and 1 <= int(str(result.extra["at_least"])) <= 31
    data = result_json(result)
    assert data["at_most"] == 31 and "at_least" in data

"""The C++ kernel's move generation against cshogi and python-shogi.

Positions: random legal playouts (fixed seed) from the start position and from
every problem file in ``tests/data`` (``--random-positions N`` of them, 10,000
by default), and positions reached inside a full-width mate search of depth 3
(checks, then every evasion, then checks) from the problems.

"Equal" means equal as sets of USI strings:

* legal moves: cshogi's ``legal_moves`` (which lists both the promotion and the
  non-promotion of pawns, bishops and rooks where both are legal, and excludes
  打ち歩詰め), and python-shogi's, each checked by ``test_movegen_diff``'s oracles;
* checks: the legal moves after which the other side is in check (not cshogi's
  own check generator);
* evasions: the legal moves of a side in check; none when not in check.
"""

from __future__ import annotations

import os
import random
from pathlib import Path

import cshogi
import pytest
from test_movegen_diff import (  # tests/core is on sys.path
    PINNED_CAPTURE, Answer, counter_check_positions, cshogi_answer, python_shogi_answer,
)

from tsume_studio.core import kernel as kn

pytestmark = pytest.mark.skipif(not kn.AVAILABLE, reason=kn.REASON)

DATA = Path(__file__).resolve().parents[1] / "data"
START = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"
SEED = 20261125


def problem_sfens() -> list[str]:
    """The SFEN of every problem in every problem file of tests/data."""
    out = []
    for path in sorted(DATA.glob("*.tsv")):
        lines = path.read_text(encoding="utf-8").splitlines()
        column = lines[0].split("\t").index("sfen")
        out += [line.split("\t")[column] for line in lines[1:] if line.strip()]
    return out


def playout_positions(n: int, seed: int = SEED) -> list[str]:
    """Positions of random legal playouts (cshogi plays); tsume attackers prefer checks."""
    rng = random.Random(seed)
    problems = problem_sfens()
    out: list[str] = []
    while len(out) < n:
        from_start = rng.random() < 0.15
        board = cshogi.Board(START if from_start else rng.choice(problems))
        attacker = board.turn
        out.append(board.sfen())
        for _ in range(rng.randint(1, 60) if from_start else rng.randint(1, 16)):
            moves = list(board.legal_moves)
            if not moves:
                break
            checks = [m for m in board.check_moves] if (from_start or board.turn == attacker) else []
            pool = checks if checks and rng.random() < (0.6 if from_start else 0.8) else moves
            board.push(rng.choice(pool))
            out.append(board.sfen())
    return out[:n]


def search_positions(limit: int, seed: int = SEED) -> list[str]:
    """Positions a depth-3 mate search visits (OR: checks; AND: every evasion), from the problems."""
    rng = random.Random(seed)
    problems = problem_sfens()
    rng.shuffle(problems)
    out: list[str] = []

    def walk(board: cshogi.Board, depth: int, attacker_to_move: bool) -> None:
        if len(out) >= limit or depth == 0:
            return
        moves = list(board.check_moves) if attacker_to_move else list(board.legal_moves)
        for m in moves[:12]:
            board.push(m)
            out.append(board.sfen())
            walk(board, depth - 1, not attacker_to_move)
            board.pop()

    for sfen in problems:
        if len(out) >= limit:
            break
        walk(cshogi.Board(sfen), 3, True)
    return out[:limit]


def kernel_answer(sfen: str) -> Answer:
    board = kn.Board(sfen)
    return Answer(set(board.legal_moves()), set(board.check_moves()), board.in_check(), set(),
                  set(board.evasions()), 0)


def _compare(sfen: str, ours: Answer, ref: Answer) -> None:
    def diff(name: str, a: set[str], b: set[str]) -> str:
        return f"{name} differ in {sfen}: only the kernel's {sorted(a - b)}, only the oracle's {sorted(b - a)}"
    assert ours.legal == ref.legal, diff("legal moves", ours.legal, ref.legal)
    assert ours.checks == ref.checks, diff("checks", ours.checks, ref.checks)
    assert ours.in_check == ref.in_check, sfen
    assert ours.evasions == ref.evasions, diff("evasions", ours.evasions, ref.evasions)


@pytest.fixture(scope="module")
def positions(request: pytest.FixtureRequest) -> list[str]:
    n = request.config.getoption("--random-positions")
    return playout_positions(n) + search_positions(max(1000, n // 5))


def test_kernel_is_built() -> None:
    """The kernel is built wherever the tests run (CI included), unless switched off."""
    if os.environ.get("TSUME_PURE"):
        pytest.skip("TSUME_PURE is set")
    assert kn.AVAILABLE, kn.REASON


def test_tables_and_do_undo_self_test() -> None:
    assert kn.self_test(40) == ""


def test_sample_is_varied(positions: list[str], request: pytest.FixtureRequest) -> None:
    assert len(positions) >= request.config.getoption("--random-positions") + 1000
    boards = [cshogi.Board(s) for s in positions]
    assert sum(b.is_check() for b in boards) >= len(positions) // 5
    assert sum(b.turn == cshogi.WHITE for b in boards) >= len(positions) // 4
    assert len(set(positions)) >= len(positions) // 2


def test_against_cshogi(positions: list[str]) -> None:
    totals = [0, 0, 0]
    for sfen in positions:
        ours = kernel_answer(sfen)
        _compare(sfen, ours, cshogi_answer(sfen))
        assert kn.Board(sfen).sfen() == cshogi.Board(sfen).sfen()
        totals[0] += len(ours.legal)
        totals[1] += len(ours.checks)
        totals[2] += len(ours.evasions)
    assert all(totals), totals


def _python_shogi_sample(positions: list[str], runslow: bool) -> list[str]:
    return positions if runslow else positions[::10]


def test_against_python_shogi(positions: list[str], request: pytest.FixtureRequest) -> None:
    """python-shogi's answers (its 打ち歩詰め test corrected) on every 10th position; all with --runslow."""
    for sfen in _python_shogi_sample(positions, request.config.getoption("--runslow")):
        _compare(sfen, kernel_answer(sfen), python_shogi_answer(sfen))


def test_counter_checks() -> None:
    """Evasions that check back: the side in check answers with a check of its own."""
    for sfen in counter_check_positions(100):
        ours = kernel_answer(sfen)
        assert ours.in_check and ours.checks, sfen
        _compare(sfen, ours, cshogi_answer(sfen))
        assert ours.checks <= ours.evasions


def test_pawn_drop_mate_with_pinned_capturer() -> None:
    """P*1b mates (the gold that could take it is pinned), so it is no move at all."""
    board = kn.Board(PINNED_CAPTURE)
    assert board.is_pawn_drop_mate("1b")
    assert "P*1b" not in board.legal_moves() and "P*1b" not in board.check_moves()
    assert not board.is_legal("P*1b")
    with pytest.raises(ValueError, match="illegal move"):
        board.push("P*1b")


def test_pawn_drop_check_that_is_not_mate_is_generated() -> None:
    board = kn.Board("8k/9/8P/9/9/9/9/9/9 b P2r2b4g4s4n4l16p 1")  # 1c pawn: a drop on 1b would be 二歩
    assert "P*1b" not in board.legal_moves()
    board = kn.Board("7k1/9/9/9/9/9/9/9/9 b P2r2b4g4s4n4l17p 1")
    assert "P*2b" in board.check_moves() and not board.is_pawn_drop_mate("2b")


def test_mate_in_one_against_brute_force(positions: list[str]) -> None:
    """mate_in_one finds a mate exactly when some check leaves no legal reply (cshogi decides)."""
    found = 0
    for sfen in positions[::7]:
        board = cshogi.Board(sfen)
        if board.is_check():
            continue
        mates = set()
        for m in board.legal_moves:
            board.push(m)
            if board.is_check() and not any(True for _ in board.legal_moves):
                mates.add(cshogi.move_to_usi(m))
            board.pop()
        answer = kn.Board(sfen).mate_in_one()
        assert (answer is not None) == bool(mates), (sfen, answer, mates)
        assert answer is None or answer in mates, (sfen, answer, mates)
        found += answer is not None
    assert found


def test_mate_in_one_is_the_first_mating_check(positions: list[str]) -> None:
    """mate_in_one returns the first check of check_moves() that mates (cshogi decides which mate).

    The search takes its proof hand from the mating move returned, so not only the verdict but
    the move itself must be the one trying every check in generate_checks' order would find,
    however the kernel narrows the checks it tries.  Every depth-3 search position and every
    third playout position; attacker-to-move positions where no defender piece guards a square
    next to its king are where narrowing skips the most.
    """
    found = tried = 0
    searched = positions[-max(1000, len(positions) // 6):]
    sample = positions[:-len(searched)][::3] + searched
    for sfen in sample:
        board = cshogi.Board(sfen)
        if board.is_check():
            continue
        ours = kn.Board(sfen)
        first = None
        for usi in ours.check_moves():
            board.push_usi(usi)
            mated = not any(True for _ in board.legal_moves)
            board.pop()
            if mated:
                first = usi
                break
        assert ours.mate_in_one() == first, (sfen, ours.mate_in_one(), first)
        # The form that also returns every check (the length search's new attacker nodes) picks
        # its candidates from the whole list: the same mate, and the list is check_moves().
        assert ours.mate_in_one_and_checks() == (first, ours.check_moves()), sfen
        tried += 1
        found += first is not None
    # A good part of the sample is tried (the search's positions are mostly in check), whatever
    # --random-positions is (CI's sanitizer run gives 3,000: about 900 tried, 29 mates).
    assert tried > len(sample) // 4 and found > 10, (tried, len(sample), found)


def test_mate_opening_a_line_onto_the_free_square() -> None:
    """A mate whose moved piece takes the king's free square only by leaving a line onto it.

    From a Microcosmos playout: +P 7d6c checks, and its leaving 7d opens a line of ours onto the
    one square the king could step to; the narrowed generation keeps every move of a piece first
    met on a line out of that square.  The mate is cshogi's verdict, the first in check_moves().
    """
    sfen = "g3+P+P+P+P+L/1p1k5/+Rn2ppplp/+b1+Psg1+R2/1+nL1N+p3/1PP2ssP1/4+Ps2N/2+B1+P1P1L/6G1g b p 877"
    ours = kn.Board(sfen)
    board = cshogi.Board(sfen)
    mates = []
    for usi in ours.check_moves():
        board.push_usi(usi)
        if not any(True for _ in board.legal_moves):
            mates.append(usi)
        board.pop()
    assert mates and mates[0] == "7d6c"
    assert ours.mate_in_one() == "7d6c"
    assert ours.mate_in_one_and_checks() == ("7d6c", ours.check_moves())


def test_move16_is_cshogis(positions: list[str]) -> None:
    for sfen in positions[::50]:
        ours, theirs = kn.Board(sfen), cshogi.Board(sfen)
        for usi in ours.legal_moves():
            assert ours.move16(usi) == cshogi.move16(theirs.move_from_usi(usi)), (sfen, usi)


def test_push_pop_follow_cshogi(positions: list[str]) -> None:
    """Board, hands and key through push and pop; the key comes back with the position."""
    rng = random.Random(SEED + 1)
    for sfen in positions[::20]:
        ours, theirs = kn.Board(sfen), cshogi.Board(sfen)
        keys = [ours.key()]
        for _ in range(rng.randint(1, 8)):
            moves = ours.legal_moves()
            if not moves:
                break
            usi = rng.choice(moves)
            ours.push(usi)
            theirs.push_usi(usi)
            assert ours.sfen() == theirs.sfen() and ours.in_check() == bool(theirs.is_check())
            assert ours.consistent()
            keys.append(ours.key())
        while ours.ply:
            ours.pop()
            keys.pop()
            assert ours.key() == keys[-1]
        assert ours.sfen() == kn.Board(sfen).sfen()


def test_key_is_the_board_alone() -> None:
    """Same board and side, other hands: the same key; a transposition: the same key and hands."""
    a = kn.Board("8k/9/9/9/9/9/9/9/9 b 2G 1")
    b = kn.Board("8k/9/9/9/9/9/9/9/9 b G 1")
    assert a.key() == b.key() and a.hand(0) != b.hand(0)
    assert kn.hand_dominates(a.hand(0), b.hand(0)) and not kn.hand_dominates(b.hand(0), a.hand(0))
    assert kn.Board("8k/9/9/9/9/9/9/9/9 w 2G 1").key() != a.key()
    x, y = kn.Board(), kn.Board()
    for usi in ("7g7f", "3c3d", "2g2f"):
        x.push(usi)
    for usi in ("2g2f", "3c3d", "7g7f"):
        y.push(usi)
    assert x.key() == y.key() and x.sfen().split()[:3] == y.sfen().split()[:3]


def test_hand_dominance_is_per_piece() -> None:
    rng = random.Random(SEED + 2)
    limits = {"P": 18, "L": 4, "N": 4, "S": 4, "G": 4, "B": 2, "R": 2}
    for _ in range(2000):
        counts = [{p: rng.randint(0, n) for p, n in limits.items()} for _ in range(2)]
        hands = []
        for c in counts:
            text = "".join(f"{n}{p}" if n > 1 else p for p, n in c.items() if n) or "-"
            board = kn.Board(f"4k4/9/9/9/9/9/9/9/9 b {text} 1")
            assert all(board.hand_count(0, p) == n for p, n in c.items())
            hands.append(board.hand(0))
        expected = all(counts[0][p] >= counts[1][p] for p in limits)
        assert kn.hand_dominates(hands[0], hands[1]) == expected, counts

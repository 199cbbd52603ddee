"""Fuzz of the kernel's entry points: bad input raises a Python exception, never a crash.

Random and malformed SFEN, absurd hands, positions with no king or with the side
not to move in check, 100 kB strings, illegal or malformed moves, out-of-range
arguments.  Positions the kernel accepts are played through (every legal move
pushed and popped) and, where cshogi can judge them, compared with cshogi.
"""

from __future__ import annotations

import cshogi
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tsume_studio.core import kernel as kn

pytestmark = pytest.mark.skipif(not kn.AVAILABLE, reason=kn.REASON)

START = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"
SAMPLES = [
    START,
    "8k/6G2/R7P/9/9/9/9/9/9 b r2b3g4s4n4l17p 1",
    "3+P+P+P+P+L1/1g7/1n2pppp1/2+Psg+p3/+b+nL4S1/1PP3+P1L/9/4+PsP2/6G1k b G2rbs2nl3p 1525",
    "lns3kn1/1r7/4pgs+R1/2pp1p3/pp2P4/2P1SP3/PPSP5/2GBG4/LN1K3N+l b BG3Pl3p 49",
]
FUZZ = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def exercise(sfen: str) -> None:
    """A position the kernel accepted: round trip, generators, every move pushed and popped."""
    board = kn.Board(sfen)
    text = board.sfen()
    assert kn.Board(text).sfen() == text
    assert board.consistent()
    legal = board.legal_moves()
    checks = board.check_moves()
    evasions = board.evasions()
    assert len(set(legal)) == len(legal)
    assert set(checks) <= set(legal)
    assert set(evasions) == (set(legal) if board.in_check() else set())
    for usi in legal:
        board.push(usi)
        assert board.consistent()
        board.pop()
    assert board.sfen() == text
    assert all(board.gives_check(usi) for usi in checks)
    mate = board.mate_in_one()
    assert mate is None or mate in checks


@given(st.text(max_size=300))
@FUZZ
def test_random_text_is_refused_or_works(text: str) -> None:
    try:
        kn.Board(text)
    except ValueError:
        return
    exercise(text)


@st.composite
def mutated_sfen(draw: st.DrawFn) -> str:
    text = list(draw(st.sampled_from(SAMPLES)))
    alphabet = "plnsgbrkPLNSGBRK+/0123456789 -bw*"
    for _ in range(draw(st.integers(1, 4))):
        i = draw(st.integers(0, len(text) - 1))
        action = draw(st.sampled_from(["replace", "insert", "delete"]))
        if action == "replace":
            text[i] = draw(st.sampled_from(alphabet))
        elif action == "insert":
            text.insert(i, draw(st.sampled_from(alphabet)))
        elif len(text) > 1:
            del text[i]
    return "".join(text)


@given(mutated_sfen())
@FUZZ
def test_mutated_sfen_is_refused_or_works(sfen: str) -> None:
    try:
        kn.Board(sfen)
    except ValueError:
        return
    exercise(sfen)


@st.composite
def random_position(draw: st.DrawFn) -> str:
    """A board of random pieces (kings at most one a side), random hands and side to move."""
    cells = draw(st.lists(st.sampled_from(["", "", "", "", "P", "p", "L", "l", "N", "n", "S", "s", "G", "g",
                                           "B", "b", "R", "r", "+P", "+p", "+S", "+r", "+B"]),
                          min_size=81, max_size=81))
    for colour, letter in ((0, "K"), (1, "k")):
        if draw(st.booleans()) or colour == 1:
            cells[draw(st.integers(0, 80))] = letter
    ranks = []
    for r in range(9):
        out, empty = "", 0
        for cell in cells[r * 9:(r + 1) * 9]:
            if not cell:
                empty += 1
                continue
            out += (str(empty) if empty else "") + cell
            empty = 0
        ranks.append(out + (str(empty) if empty else ""))
    hands = "".join(f"{draw(st.integers(0, 2)) or ''}{p}" for p in draw(st.lists(st.sampled_from("PLNSGBRplnsgbr"),
                                                                                  max_size=5)))
    return f"{'/'.join(ranks)} {draw(st.sampled_from('bw'))} {hands or '-'} 1"


@given(random_position())
@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
def test_random_positions_against_cshogi(sfen: str) -> None:
    try:
        board = kn.Board(sfen)
    except ValueError:
        return
    exercise(sfen)
    if "k" not in sfen.split()[0] or ("K" not in sfen.split()[0] and board.turn == 0) or \
            ("K" not in sfen.split()[0] and board.in_check()):
        return  # only positions cshogi is built for: the defender (or the side to move) has a king
    theirs = cshogi.Board(sfen)
    assert set(board.legal_moves()) == {cshogi.move_to_usi(m) for m in theirs.legal_moves}, sfen


@pytest.mark.parametrize("hands", ["19P", "3B", "3R", "5G", "5S", "5N", "5L", "0P", "00P", "100P", "K", "k", "P2",
                                   "2", "+P", "-P", "P-", "PP K", "x", "10r10R", "9P9P9P"])
def test_absurd_hands(hands: str) -> None:
    with pytest.raises(ValueError, match="bad SFEN"):
        kn.Board(f"4k4/9/9/9/9/9/9/9/9 b {hands} 1")


@pytest.mark.parametrize("sfen", [
    "", " ", "sfen", "startpos", "4k4/9/9/9/9/9/9/9/9", "4k4/9/9/9/9/9/9/9/9 x - 1",
    "4k4/9/9/9/9/9/9/9/9 b - 0", "4k4/9/9/9/9/9/9/9/9 b - -3", "4k4/9/9/9/9/9/9/9/9 b - 1 extra",
    "4k4/9/9/9/9/9/9/9 b - 1", "4k4/9/9/9/9/9/9/9/9/9 b - 1", "4k5/9/9/9/9/9/9/9/9 b - 1",
    "4k3/9/9/9/9/9/9/9/9 b - 1", "4kk3/9/9/9/9/9/9/9/9 b - 1", "4k4/9/9/9/9/9/9/9/4K3K b - 1",
    "P3k4/9/9/9/9/9/9/9/9 b - 1", "N3k4/9/9/9/9/9/9/9/9 b - 1", "4k4/N8/9/9/9/9/9/9/9 b - 1",
    "4k4/9/9/9/9/9/9/9/l8 b - 1", "4k4/9/9/9/9/9/9/n8/9 b - 1", "+G3k4/9/9/9/9/9/9/9/9 b - 1",
    "+K3k4/9/9/9/9/9/9/9/9 b - 1", "++P3k4/9/9/9/9/9/9/9/9 b - 1", "4k3+/9/9/9/9/9/9/9/9 b - 1",
    "4k4/9/9/9/9/9/9/9/9 b 19P 1", "4x4/9/9/9/9/9/9/9/9 b - 1", "4k4/9/9/9/9/9/9/9/9 b - 12345678",
    "4k4/4R4/9/9/9/9/9/9/4K4 b - 1",  # the side not to move is in check
    "4k4/4R4/9/9/9/9/9/4r4/4K4 b - 1",  # both kings in check
    "4k4/4R4/9/9/9/9/9/4r4/4K4 w - 1",
    "4k4/9/9/9/9/9/9/9/9 b - 1\x00", "\x00", "４k4/9/9/9/9/9/9/9/9 b - 1",
])
def test_malformed_sfen(sfen: str) -> None:
    with pytest.raises(ValueError, match="bad SFEN"):
        kn.Board(sfen)


def test_huge_strings() -> None:
    huge = "p" * 100_000
    with pytest.raises(ValueError, match="longer than any position"):
        kn.Board(huge)
    with pytest.raises(ValueError, match="longer than any position"):
        kn.Board(START + " " * 100_000)
    board = kn.Board()
    for text in (huge, "7g7f" * 25_000):
        with pytest.raises(ValueError, match="illegal move"):
            board.push(text)
        assert not board.is_legal(text)
    assert board.sfen() == START


def test_no_king() -> None:
    """Tsume attackers have no king; a defender without one cannot be checked."""
    attacker_only = kn.Board("4k4/9/9/9/9/9/9/9/9 b G 1")
    assert "G*5b" in attacker_only.check_moves() and attacker_only.mate_in_one() is None
    no_defender = kn.Board("9/9/9/9/9/9/9/9/4K4 b G 1")
    assert no_defender.check_moves() == [] and no_defender.evasions() == []
    assert len(no_defender.legal_moves()) == 5 + 81 - 1
    nobody = kn.Board("9/9/9/9/9/9/9/9/9 w 2r 1")
    assert len(nobody.legal_moves()) == 81 and nobody.check_moves() == [] and not nobody.in_check()
    assert kn.Board("9/9/9/9/9/9/9/9/9 b - 1").legal_moves() == []
    exercise("9/9/9/9/9/9/9/9/9 b R 1")


@given(st.text(max_size=12))
@FUZZ
def test_illegal_moves_leave_the_board_as_it_was(usi: str) -> None:
    board = kn.Board(SAMPLES[1])
    before = board.sfen()
    if usi in board.legal_moves():
        return
    assert not board.is_legal(usi)
    with pytest.raises(ValueError, match="illegal move"):
        board.push(usi)
    with pytest.raises(ValueError):
        board.gives_check(usi)
    with pytest.raises(ValueError):
        board.move16(usi)
    assert board.sfen() == before and board.ply == 0


@pytest.mark.parametrize("usi", ["7g7f+", "2h2a", "P*5e", "7g7e", "5i5h+", "8h2b", "7g7f ", "7G7F", "1a1b",
                                 "0g0f", "7j7f", "K*5e", "p*5e"])
def test_wrong_moves_in_the_start_position(usi: str) -> None:
    board = kn.Board()
    with pytest.raises(ValueError, match="illegal move"):
        board.push(usi)


def test_pop_and_bad_arguments() -> None:
    board = kn.Board()
    with pytest.raises(ValueError, match="no move to take back"):
        board.pop()
    for color in (-1, 2, 99):
        with pytest.raises(ValueError, match="color"):
            board.hand(color)
    for piece in ("K", "", "PP", "x", " "):
        with pytest.raises(ValueError, match="piece"):
            board.hand_count(0, piece)
    for depth in (-1, 8):
        with pytest.raises(ValueError, match="depth"):
            board.perft(depth)
        with pytest.raises(ValueError, match="depth"):
            kn.bench_perft(START, depth)
    for square in ("", "0a", "5j", "5ee", "55"):
        with pytest.raises(ValueError, match="square"):
            board.is_pawn_drop_mate(square)
    with pytest.raises(ValueError, match="packed hand"):
        kn.hand_dominates(0xFFFFFFFF, 0)
    with pytest.raises(TypeError):
        kn.hand_dominates(-1, 0)
    with pytest.raises(TypeError):
        kn.Board(123)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="bad SFEN"):
        kn.bench_perft("nonsense", 1)
    with pytest.raises(ValueError, match="bad SFEN"):
        kn.bench_generation([START, "nonsense"], 1)
    with pytest.raises(ValueError, match="rounds"):
        kn.bench_generation([START], 0)
    with pytest.raises(ValueError):
        kn.self_test(-1)


def test_set_sfen_keeps_the_board_on_a_bad_sfen() -> None:
    board = kn.Board()
    board.push("7g7f")
    with pytest.raises(ValueError, match="bad SFEN"):
        board.set_sfen("4k4/4R4/9/9/9/9/9/9/4K4 b - 1")
    assert board.ply == 1 and board.pop() == "7g7f"


def test_history_limit() -> None:
    board = kn.Board()
    moves = ["5i4h", "5a4b", "4h5i", "4b5a"]
    for i in range(kn.MAX_PLY):
        board.push(moves[i % 4])
    with pytest.raises(ValueError, match="more than"):
        board.push(moves[kn.MAX_PLY % 4])
    assert board.ply == kn.MAX_PLY and board.consistent()

"""Position: SFEN in and out, every error message, status flags, editing, push/pop."""

from __future__ import annotations

import pytest

from tsume_studio.core import (
    IllegalMoveError, IllegalPositionError, InvalidMoveError, Position, SfenError, Status, tsume_hands,
)
from tsume_studio.core.shogi.moves import Move, push_usi
from tsume_studio.core.shogi.position import STARTING_SFEN
from tsume_studio.core.shogi.types import (
    BLACK, GOLD, KING, PAWN, PROM_SILVER, ROOK, WHITE, make_piece, parse_square, square,
)

TSUME = "8k/6G2/R7P/9/9/9/9/9/9 b r2b3g4s4n4l17p 1"


# ---- SFEN -------------------------------------------------------------------

@pytest.mark.parametrize("sfen", [
    STARTING_SFEN,
    TSUME,
    "6+Rgk/9/9/7N1/9/9/9/9/9 b Pr2b3g4s3n4l17p 1",
    "ln+P3s+Pl/2+R1Gsk2/p3pp1g1/4r1ppp/1NS6/6P2/PP1+bPPS1P/3+p1K3/LG3G1NL w Nb3p 72",
    "9/9/9/9/9/9/9/9/9 w 2R2B4G4S4N4L18P 3",
])
def test_sfen_round_trip(sfen: str) -> None:
    assert Position.from_sfen(sfen).sfen() == sfen


def test_sfen_variants() -> None:
    assert Position.from_sfen("sfen " + TSUME).sfen() == TSUME
    assert Position.from_sfen(TSUME[:-2]).sfen() == TSUME  # move number defaults to 1
    assert Position.from_sfen("  " + TSUME + "\n").sfen() == TSUME
    # Hands are written in the usual order whatever order they came in.
    assert Position.from_sfen("4k4/9/9/9/9/9/9/9/9 b P2GR 5").sfen() == "4k4/9/9/9/9/9/9/9/9 b R2GP 5"
    assert Position.from_sfen(TSUME).sfen(move_number=False) == TSUME[:-2]
    assert Position.start() == Position.from_sfen(STARTING_SFEN)
    assert Position.empty().sfen() == "9/9/9/9/9/9/9/9/9 b - 1"


def test_pieces_are_where_sfen_puts_them() -> None:
    pos = Position.from_sfen(TSUME)
    assert pos.piece_at(parse_square("1a")) == make_piece(WHITE, KING)
    assert pos.piece_at(parse_square("3b")) == make_piece(BLACK, GOLD)
    assert pos.piece_at(parse_square("9c")) == make_piece(BLACK, ROOK)
    assert pos.piece_at(parse_square("5e")) == 0
    assert pos.hand(BLACK) == (0,) * 7
    assert pos.hand(WHITE) == (17, 4, 4, 4, 3, 2, 1)
    assert pos.king_square(WHITE) == square(1, 1) and pos.king_square(BLACK) is None
    assert (pos.turn, pos.attacker, pos.defender) == (BLACK, BLACK, WHITE)


@pytest.mark.parametrize("sfen, message", [
    ("", r"expected 3 or 4 fields \(board, side, hands, move number\) in sfen: ''"),
    ("9/9/9/9/9/9/9/9/9 b - 1 extra", r"expected 3 or 4 fields .* in sfen: '9/9/9/9/9/9/9/9/9 b - 1 extra'"),
    ("9/9 b - 1", r"expected 9 ranks in board part of sfen, got 2: '9/9'"),
    ("+1k7/9/9/9/9/9/9/9/9 b - 1", r"'\+' must be followed by a piece in rank 1 of sfen: '\+1k7'"),
    ("0k8/9/9/9/9/9/9/9/9 b - 1", r"empty-square count 0 in rank 1 of sfen: '0k8'"),
    ("++Pk7/9/9/9/9/9/9/9/9 b - 1", r"double '\+' in rank 1 of sfen: '\+\+Pk7'"),
    ("k9/9/9/9/9/9/9/9/9 b - 1", r"rank 1 of sfen has more than 9 squares: 'k9'"),
    ("k8/9/9/9/9/9/55/9/9 b - 1", r"rank 7 of sfen has more than 9 squares: '55'"),
    ("+Gk7/9/9/9/9/9/9/9/9 b - 1", r"piece 'G' cannot be promoted, in rank 1 of sfen: '\+Gk7'"),
    ("+kk7/9/9/9/9/9/9/9/9 b - 1", r"piece 'k' cannot be promoted"),
    ("xk7/9/9/9/9/9/9/9/9 b - 1", r"unexpected character 'x' in rank 1 of sfen: 'xk7'"),
    ("k7+/9/9/9/9/9/9/9/9 b - 1", r"'\+' at the end of rank 1 of sfen: 'k7\+'"),
    ("k7/9/9/9/9/9/9/9/9 b - 1", r"rank 1 of sfen has 8 squares, expected 9: 'k7'"),
    ("k8/9/9/9/9/9/9/9/9 x - 1", r"side to move must be 'b' or 'w' in sfen, got 'x'"),
    ("k8/9/9/9/9/9/9/9/9 b 0P 1", r"bad count '0' for 'P' in hands of sfen: '0P'"),
    ("k8/9/9/9/9/9/9/9/9 b 19P 1", r"bad count '19' for 'P' in hands of sfen: '19P'"),
    ("k8/9/9/9/9/9/9/9/9 b 02P 1", r"bad count '02' for 'P'"),
    ("k8/9/9/9/9/9/9/9/9 b P2 1", r"unexpected text '2' in hands of sfen: 'P2'"),
    ("k8/9/9/9/9/9/9/9/9 b Kp 1", r"unexpected text 'Kp' in hands of sfen: 'Kp'"),
    ("k8/9/9/9/9/9/9/9/9 b - 0", r"move number must be a positive integer in sfen, got '0'"),
    ("k8/9/9/9/9/9/9/9/9 b - x", r"move number must be a positive integer in sfen, got 'x'"),
])
def test_sfen_errors_quote_the_bad_part(sfen: str, message: str) -> None:
    with pytest.raises(SfenError, match=message):
        Position.from_sfen(sfen)


def test_sfen_must_be_text() -> None:
    with pytest.raises(SfenError, match="sfen must be text, not bytes"):
        Position.from_sfen(b"9/9/9/9/9/9/9/9/9 b - 1")  # type: ignore[arg-type]
    assert issubclass(SfenError, ValueError)


# ---- status -------------------------------------------------------------------

def test_valid_problem() -> None:
    pos = Position.from_sfen(TSUME)
    assert pos.status() == Status.VALID and pos.is_valid() and pos.problems() == []
    pos.require_valid()  # does not raise
    assert Position.start().is_valid()


def _flags(sfen: str) -> Status:
    return Position.from_sfen(sfen).status()


def test_each_flag_alone() -> None:
    assert _flags("9/9/9/9/9/9/9/9/4K4 b - 1") == Status.NO_DEFENDER_KING
    # White to move: Black defends, and Black's king is the one that must exist.
    assert _flags("4k4/9/9/9/9/9/9/9/9 w - 1") == Status.NO_DEFENDER_KING
    assert _flags("4k4/9/9/9/9/9/9/9/4K4 w - 1") == Status.VALID
    assert _flags("3kk4/9/9/9/9/9/9/9/9 b - 1") == Status.TOO_MANY_KINGS
    assert _flags("4k4/9/9/9/9/9/9/9/3KK4 b - 1") == Status.TOO_MANY_KINGS
    assert _flags("4k4/9/9/9/9/9/9/9/9 b 18P 1") == Status.VALID
    assert _flags("4k4/9/9/9/9/9/9/P8/9 b 18P 1") == Status.TOO_MANY_PIECES  # 19 pawns
    assert _flags("4k4/9/9/9/9/9/9/9/G8 b 4g 1") == Status.TOO_MANY_PIECES  # 5 golds
    assert _flags("4k4/9/9/9/9/9/9/9/+B8 b 2B 1") == Status.TOO_MANY_PIECES  # promoted ones count
    assert _flags("4k4/9/9/9/9/9/9/9/+S8 b 4S 1") == Status.TOO_MANY_PIECES
    assert _flags("4k4/9/9/9/9/9/9/9/+R8 b Rr 1") == Status.TOO_MANY_PIECES
    assert _flags("4k4/9/9/9/9/9/9/9/4N4 b 3N4l 1") == Status.VALID
    assert _flags("4k4/9/9/9/9/9/4P4/4P4/9 b - 1") == Status.NIFU
    assert _flags("4k4/9/9/9/9/9/4P4/4+P4/9 b - 1") == Status.VALID  # と is not a pawn
    assert _flags("4k4/4p4/9/9/9/9/4P4/9/9 b - 1") == Status.VALID  # one pawn each
    assert _flags("P3k4/9/9/9/9/9/9/9/9 b - 1") == Status.DEAD_PIECE
    assert _flags("L3k4/9/9/9/9/9/9/9/9 b - 1") == Status.DEAD_PIECE
    assert _flags("4k4/N8/9/9/9/9/9/9/9 b - 1") == Status.DEAD_PIECE
    assert _flags("4k4/9/N8/9/9/9/9/9/9 b - 1") == Status.VALID
    assert _flags("4k4/9/9/9/9/9/9/9/p8 b - 1") == Status.DEAD_PIECE
    assert _flags("4k4/9/9/9/9/9/9/n8/9 b - 1") == Status.DEAD_PIECE
    assert _flags("4k4/9/9/9/9/9/9/9/+p8 b - 1") == Status.VALID
    assert _flags("4k4/9/4R4/9/9/9/9/9/9 b - 1") == Status.NOT_TO_MOVE_IN_CHECK
    # The side to move may be in check (that is a game, not an error).
    assert _flags("4k4/9/4R4/9/9/9/9/9/4K4 w - 1") == Status.VALID


def test_every_problem_at_once_with_squares() -> None:
    pos = Position.from_sfen("P8/9/9/9/9/9/4P4/4P4/G3K4 b 4G 1")
    assert pos.status() == (Status.NO_DEFENDER_KING | Status.TOO_MANY_PIECES | Status.NIFU
                            | Status.DEAD_PIECE)
    messages = {p.flag: (p.square, p.message) for p in pos.problems()}
    assert messages[Status.NO_DEFENDER_KING] == (None, "the defender, White (gote), has no king")
    assert messages[Status.TOO_MANY_PIECES] == (None, "5 golds in all, at most 4")
    assert messages[Status.NIFU] == (
        parse_square("5h"), "two pawns of Black (sente) on file 5 (二歩): ５七 and ５八")
    assert messages[Status.DEAD_PIECE] == (parse_square("9a"), "the pawn on ９一 can never move")
    with pytest.raises(IllegalPositionError, match=r"^invalid position: the defender, White \(gote\), "
                       r"has no king; 5 golds in all, at most 4; two pawns .*; the pawn on ９一 "
                       r"can never move$") as info:
        pos.require_valid()
    assert [p.flag for p in info.value.problems] == [p.flag for p in pos.problems()]


def test_check_and_king_messages() -> None:
    pos = Position.from_sfen("4k4/9/4R4/9/9/9/9/9/9 b - 1")
    (problem,) = pos.problems()
    assert problem.square == parse_square("5a")
    assert problem.message == "the side not to move is in check (king on ５一)"
    (problem,) = Position.from_sfen("3kk4/9/9/9/9/9/9/9/9 b - 1").problems()
    assert problem.square == parse_square("6a") and problem.message == "White (gote) has 2 kings"
    (problem,) = Position.from_sfen("4k4/N8/9/9/9/9/9/9/9 b - 1").problems()
    assert problem.message == "the knight on ９二 can never move"
    (problem,) = Position.from_sfen("4k4/9/9/9/9/9/9/9/9 b 3B 1").problems()
    assert problem.message == "3 bishops in all, at most 2"
    (problem,) = Position.from_sfen("4k4/9/4P4/9/4P4/9/4P4/9/9 b - 1").problems()
    assert problem.square == parse_square("5e")
    assert problem.message == "3 pawns of Black (sente) on file 5 (二歩): ５三 and ５五 and ５七"


def test_board_refuses_what_cshogi_cannot_hold() -> None:
    # Two kings of a side, or more pieces of a kind than exist (cshogi's packed
    # hands would silently wrap 8 golds to 0).
    with pytest.raises(IllegalPositionError, match=r"^invalid position: Black \(sente\) has 2 kings$"):
        Position.from_sfen("4k4/9/9/9/9/9/9/9/3KK4 b - 1").board()
    with pytest.raises(IllegalPositionError, match="8 golds in all, at most 4"):
        Position.from_sfen("4k4/9/9/9/9/9/9/9/9 b 8G 1").board()
    # A side without a king is fine: tsume attackers, and AND nodes after their move.
    assert Position.from_sfen("4k4/9/9/9/9/9/9/9/9 b G 1").board().sfen().startswith("4k4")
    assert Position.from_sfen("4k4/9/9/9/9/9/9/9/9 w G 1").board() is not None
    # 二歩 does not stop move generation (an editor still wants to see moves).
    Position.from_sfen("4k4/9/9/9/9/9/4P4/4P4/9 b - 1").board()


def test_tsume_hands_gives_the_defender_the_rest() -> None:
    pos = Position.from_sfen("8k/6G2/R7P/9/9/9/9/9/9 b S 1")
    full = tsume_hands(pos)
    assert full.sfen() == "8k/6G2/R7P/9/9/9/9/9/9 b Sr2b3g3s4n4l17p 1"
    assert pos.sfen() == "8k/6G2/R7P/9/9/9/9/9/9 b S 1"  # the original is untouched
    # White attacking: Black defends and gets the rest.
    white = tsume_hands(Position.from_sfen("9/9/9/9/9/9/9/9/K8 w 2p 1"))
    assert white.hand(BLACK) == (16, 4, 4, 4, 4, 2, 2) and white.hand(WHITE) == (2, 0, 0, 0, 0, 0, 0)
    # Already too many of a kind: the defender gets none of that kind.
    assert tsume_hands(Position.from_sfen("k8/9/9/9/9/9/9/9/9 b 5G 1")).hand(WHITE)[4] == 0
    assert tsume_hands(Position.from_sfen("k8/9/9/9/9/9/9/9/9 b 2P 1")).hand(WHITE) == (16, 4, 4, 4, 4, 2, 2)


# ---- editing ------------------------------------------------------------------

def test_editing() -> None:
    pos = Position.empty()
    pos.set_piece(square(5, 1), make_piece(WHITE, KING))
    pos.set_piece(square(5, 3), make_piece(BLACK, PROM_SILVER))
    pos.set_hand(BLACK, (1, 0, 0, 0, 2, 0, 0))
    assert pos.sfen() == "4k4/9/4+S4/9/9/9/9/9/9 b 2GP 1"
    pos.turn = WHITE
    assert pos.sfen().split()[1] == "w"
    pos.set_piece(square(5, 3), 0)
    assert pos.piece_at(square(5, 3)) == 0
    assert dict(pos.pieces()) == {square(5, 1): make_piece(WHITE, KING)}


@pytest.mark.parametrize("sq, piece, message", [
    (-1, 1, r"square out of range 0\.\.80: -1"),
    (81, 1, r"square out of range 0\.\.80: 81"),
    (0, 15, r"not a piece code \(0, 1\.\.14 or 17\.\.30\): 15"),
    (0, 16, r"not a piece code .*: 16"),
    (0, 31, r"not a piece code .*: 31"),
    (0, -3, r"not a piece code .*: -3"),
])
def test_set_piece_errors(sq: int, piece: int, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        Position.empty().set_piece(sq, piece)


@pytest.mark.parametrize("color, hand, message", [
    (2, (0,) * 7, r"colour must be BLACK \(0\) or WHITE \(1\), not 2"),
    (BLACK, (0,) * 6, r"a hand is 7 non-negative counts \(P L N S G B R\), not \(0, 0, 0, 0, 0, 0\)"),
    (BLACK, (0, 0, 0, -1, 0, 0, 0), r"a hand is 7 non-negative counts .*, not \(0, 0, 0, -1, 0, 0, 0\)"),
    (BLACK, (0, 0, 0, 0.5, 0, 0, 0), r"not \(0, 0, 0, 0\.5, 0, 0, 0\)"),
    (WHITE, (19, 0, 0, 0, 0, 0, 0), r"at most 18 pawns in a hand \(as in SFEN\), not 19: \(19, 0, 0, 0, 0, 0, 0\)"),
    (WHITE, (0, 0, 0, 0, 0, 0, 20), r"at most 18 rooks in a hand \(as in SFEN\), not 20"),
])
def test_set_hand_errors(color: int, hand: tuple, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        Position.empty().set_hand(color, hand)


def test_impossible_hands_load_and_are_flagged() -> None:
    pos = Position.from_sfen("4k4/9/9/9/9/9/9/9/9 b - 1")
    pos.set_hand(BLACK, (0, 0, 0, 0, 5, 0, 3))
    assert pos.sfen() == "4k4/9/9/9/9/9/9/9/9 b 3R5G 1"
    assert pos.status() == Status.TOO_MANY_PIECES
    assert Position.from_sfen(pos.sfen()) == pos


def test_turn_error() -> None:
    pos = Position.empty()
    with pytest.raises(ValueError, match=r"turn must be BLACK \(0\) or WHITE \(1\), not 'b'"):
        pos.turn = "b"  # type: ignore[assignment]


# ---- push and pop -------------------------------------------------------------

def test_push_pop_exact_undo() -> None:
    pos = Position.start()
    line = ["7g7f", "3c3d", "8h2b+", "3a2b"]
    seen = [pos.sfen()]
    for usi in line:
        pos.push(Move.from_usi(usi))
        seen.append(pos.sfen())
    assert pos.ply == 4
    assert seen[-1] == "lnsgkg1nl/1r5s1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/7R1/LNSGKGSNL b Bb 5"
    for expected in reversed(seen[:-1]):
        pos.pop()
        assert pos.sfen() == expected
        assert pos.board().sfen() == expected  # the cshogi board follows
    with pytest.raises(IndexError, match="pop from a position with no moves played"):
        pos.pop()


def test_sfen_and_problems_follow_every_change() -> None:
    # sfen() and problems() keep what they found until the position changes: each kind of change
    # is made after both were asked, and both must describe the changed position.
    pos = Position.from_sfen("4k4/9/9/9/9/9/9/9/4K4 b - 1")
    assert pos.sfen() == "4k4/9/9/9/9/9/9/9/4K4 b - 1" and pos.problems() == []
    pos.set_piece(square(5, 2), make_piece(BLACK, ROOK))       # the side not to move is in check
    assert pos.sfen() == "4k4/4R4/9/9/9/9/9/9/4K4 b - 1"
    assert [p.flag for p in pos.problems()] == [Status.NOT_TO_MOVE_IN_CHECK]
    pos.push(Move.from_usi("5i4i"))
    assert pos.sfen() == "4k4/4R4/9/9/9/9/9/9/5K3 w - 2" and pos.problems() == []
    pos.pop()
    assert pos.sfen() == "4k4/4R4/9/9/9/9/9/9/4K4 b - 1"
    assert [p.flag for p in pos.problems()] == [Status.NOT_TO_MOVE_IN_CHECK]
    pos.turn = WHITE
    assert pos.sfen() == "4k4/4R4/9/9/9/9/9/9/4K4 w - 1" and pos.problems() == []
    pos.set_hand(BLACK, (2, 0, 0, 0, 0, 0, 0))
    assert pos.sfen() == "4k4/4R4/9/9/9/9/9/9/4K4 w 2P 1"
    pos.move_number = 7
    assert pos.sfen() == "4k4/4R4/9/9/9/9/9/9/4K4 w 2P 7"
    pos.turn = BLACK
    found = pos.problems()
    found.clear()   # the caller's list is its own
    assert [p.flag for p in pos.problems()] == [Status.NOT_TO_MOVE_IN_CHECK]
    assert pos.copy().sfen() == pos.sfen() == "4k4/4R4/9/9/9/9/9/9/4K4 b 2P 7"


def test_push_checks_legality_in_debug_runs() -> None:
    pos = Position.start()
    with pytest.raises(AssertionError, match=r"illegal move '7g7f\+' in lnsgkgsnl"):
        pos.push(Move.from_usi("7g7f+"))
    assert pos.sfen() == STARTING_SFEN and pos.ply == 0


def test_copy_and_edit_forget_history() -> None:
    pos = Position.start()
    pos.push(Move.from_usi("7g7f"))
    other = pos.copy()
    assert other == pos and hash(other) == hash(pos) and other.ply == 0
    other.push(Move.from_usi("3c3d"))
    assert pos.sfen().split()[1] == "w" and other != pos
    pos.set_piece(square(1, 5), make_piece(BLACK, PAWN))
    assert pos.ply == 0
    assert pos != "not a position"


def test_repr_round_trips() -> None:
    pos = Position.from_sfen(TSUME)
    assert repr(pos) == f"Position.from_sfen({TSUME!r})" and str(pos) == TSUME
    assert eval(repr(pos), {"Position": Position}) == pos


def test_solving_an_invalid_position_lists_every_problem() -> None:
    solver = pytest.importorskip("tsume_studio.core.search.solver")
    pos = Position.from_sfen("P8/9/9/9/9/9/4P4/4P4/G3K4 b 4G 1")
    with pytest.raises(IllegalPositionError) as info:
        next(solver.solve_iter(pos))
    assert [p.flag for p in info.value.problems] == [p.flag for p in pos.problems()]
    assert str(info.value) == "invalid position: " + "; ".join(p.message for p in pos.problems())


def test_push_usi() -> None:
    pos = Position.start()
    assert push_usi(pos, "7g7f") == Move.from_usi("7g7f")
    assert push_usi(pos, "3c3d").usi() == "3c3d"
    assert pos.sfen() == "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3"
    with pytest.raises(IllegalMoveError, match=r"^illegal move '5i5h\+' in position 'lnsgkgsnl/"):
        push_usi(pos, "5i5h+")
    with pytest.raises(InvalidMoveError, match=r"^not a USI move: '8h2x'$"):
        push_usi(pos, "8h2x")
    assert pos.ply == 2

"""Moves: USI text, legality rules one by one, checks, evasions and their classes, Japanese."""

from __future__ import annotations

import pytest

from tsume_studio.core import IllegalMoveError, InvalidMoveError, Position
from tsume_studio.core.shogi.moves import (
    EvasionInfo, EvasionKind, Move, check_moves, checkers, classify_evasion, evasions,
    gives_check, is_legal, japanese, japanese_line, legal_moves, parse_move,
)
from tsume_studio.core.shogi.types import BISHOP, GOLD, PAWN, parse_square


def usis(moves: list[Move]) -> set[str]:
    return {m.usi() for m in moves}


def checks_of(sfen: str) -> set[str]:
    return usis(check_moves(Position.from_sfen(sfen)))


# ---- the value ------------------------------------------------------------------

@pytest.mark.parametrize("text", ["7g7f", "8h2b+", "P*5b", "G*1i", "R*9a", "1a9i"])
def test_usi_round_trip(text: str) -> None:
    move = Move.from_usi(text)
    assert move.usi() == text and str(move) == text
    assert repr(move) == f"Move.from_usi({text!r})"
    assert eval(repr(move), {"Move": Move}) == move
    assert hash(move) == hash(Move.from_usi(text))


def test_fields() -> None:
    assert Move.from_usi("8h2b+") == Move(parse_square("8h"), parse_square("2b"), True)
    assert Move.from_usi("P*5b") == Move(None, parse_square("5b"), False, PAWN)
    assert Move.from_usi("B*5e").drop == BISHOP and Move.from_usi("G*5e").drop == GOLD
    with pytest.raises(AttributeError):
        Move.from_usi("7g7f").promotion = True  # type: ignore[misc]


@pytest.mark.parametrize("text", [
    "", "7g7", "7g7f7", "7g7f=", "0a1b", "7j7f", "7g7F", "K*5e", "p*5e", "P*5e+", "P-5e", "**5e",
    "P*5", "7g 7f",
])
def test_invalid_usi(text: str) -> None:
    with pytest.raises(InvalidMoveError, match=f"^not a USI move: {text!r}$".replace("*", r"\*").replace("+", r"\+")):
        Move.from_usi(text)
    assert issubclass(InvalidMoveError, ValueError)


# ---- legality rules ------------------------------------------------------------

START = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"


@pytest.mark.parametrize("sfen, text", [
    (START, "7g7f+"),            # promotion outside the zone (cshogi's is_legal says yes)
    (START, "5i5h+"),            # a king never promotes
    (START, "7g7e"),             # not how a pawn moves
    (START, "5e5d"),             # no piece there
    (START, "3c3d"),             # not the side to move
    (START, "P*5e"),             # nothing in hand
    ("4k4/P8/2N6/9/9/9/9/9/4K4 b - 1", "9b9a"),        # a pawn must promote on the last rank
    ("4k4/P8/2N6/9/9/9/9/9/4K4 b - 1", "7c8a"),        # a knight must promote on the last two
    ("4k4/+P8/9/9/9/9/9/9/4K4 b - 1", "9b9a+"),        # promoted twice
    ("4k4/9/9/9/9/9/9/9/4KG3 b - 1", "4i4h+"),         # a gold never promotes
    ("4k4/9/9/9/9/9/4P4/9/4K4 b P 1", "P*5e"),         # 二歩
    ("4k4/9/9/9/9/9/9/9/4K4 b P 1", "P*5a"),           # dead pawn drop
    ("4k4/9/9/9/9/9/9/9/4K4 b L 1", "L*1a"),
    ("4k4/9/9/9/9/9/9/9/4K4 b N 1", "N*1b"),
    ("kn7/9/1G7/9/9/9/9/9/9 b P 1", "P*9b"),           # 打ち歩詰め
    ("6+Rgk/9/9/7N1/9/9/9/9/9 b Pr2b3g4s3n4l17p 1", "P*1b"),  # 打ち歩詰め through a pin
    ("4k4/9/9/9/9/9/9/4r4/4K4 b - 1", "5i4h"),         # into check: 4h is on the rook's rank
    ("4r4/9/9/9/9/9/9/4G4/4K4 b - 1", "5h4h"),         # a pinned gold may not leave the file
])
def test_illegal_moves(sfen: str, text: str) -> None:
    pos = Position.from_sfen(sfen)
    assert not is_legal(pos, Move.from_usi(text))
    assert text not in usis(legal_moves(pos))
    with pytest.raises(IllegalMoveError, match=f"^illegal move {text!r} in position {sfen!r}$"
                       .replace("+", r"\+").replace("*", r"\*")):
        parse_move(pos, text)


@pytest.mark.parametrize("sfen, text", [
    (START, "7g7f"),
    (START, "5i5h"),
    ("4k4/P8/2N6/9/9/9/9/9/4K4 b - 1", "9b9a+"),
    ("4k4/P8/2N6/9/9/9/9/9/4K4 b - 1", "7c8a+"),
    ("4k4/9/P8/9/9/9/9/9/4K4 b - 1", "9c9b"),          # 不成 of a pawn on rank 2 is allowed
    ("k8/9/1G7/9/9/9/9/9/9 b P 1", "P*9b"),            # pawn-drop check that is not mate
    ("kn7/9/PG7/9/9/9/9/9/9 b - 1", "9c9b"),           # pushing a pawn to mate (突き歩詰め) is fine
    ("4r4/9/9/9/9/9/9/4G4/4K4 b - 1", "5h5g"),         # the pinned gold may move along the pin
    ("4k4/9/9/9/9/9/9/4r4/4K4 b - 1", "5i5h"),         # the king takes an unguarded checker
])
def test_legal_moves_parse(sfen: str, text: str) -> None:
    pos = Position.from_sfen(sfen)
    assert parse_move(pos, text) == Move.from_usi(text)
    assert is_legal(pos, Move.from_usi(text))


def test_legal_move_counts() -> None:
    assert len(legal_moves(Position.from_sfen(START))) == 30
    # A rook in hand on an empty board with two kings: 79 drops and the king's moves.
    assert len(legal_moves(Position.from_sfen("4k4/9/9/9/9/9/9/9/4K4 b R 1"))) == 79 + 5


# ---- checks --------------------------------------------------------------------

@pytest.mark.parametrize("sfen, declined, promoted", [
    # bishop: both 不成 and 成 check
    ("4k4/9/9/9/4B4/9/9/9/9 b - 1", {"5e7c", "5e3c"}, {"5e7c+", "5e3c+"}),
    # rook
    ("4k4/9/9/R8/9/9/9/9/9 b - 1", {"9d9a"}, {"9d9a+"}),
    # pawn
    ("9/4k4/9/4P4/9/9/9/9/9 b - 1", {"5d5c"}, {"5d5c+"}),
    # lance: only the unpromoted lance still sees the king
    ("4k4/9/4p4/9/9/9/9/9/4L4 b - 1", {"5i5c"}, set()),
    # silver: only the unpromoted silver attacks backwards diagonally
    ("6S2/9/4k4/9/9/9/9/9/9 b - 1", {"3a4b"}, set()),
    # knight: only the unpromoted knight jumps to the king
    ("5k3/9/9/9/5N3/9/9/9/9 b - 1", {"4e5c", "4e3c"}, set()),
])
def test_checks_include_declined_promotions(sfen: str, declined: set[str], promoted: set[str]) -> None:
    checks = checks_of(sfen)
    assert declined <= checks and promoted <= checks
    pos = Position.from_sfen(sfen)
    for text in checks:
        assert gives_check(pos, Move.from_usi(text))
    for move in legal_moves(pos):
        assert gives_check(pos, move) == (move.usi() in checks)


def test_gives_check_needs_a_legal_move() -> None:
    with pytest.raises(IllegalMoveError, match=rf"^illegal move '7g7f\+' in position {START!r}$"):
        gives_check(Position.from_sfen(START), Move.from_usi("7g7f+"))


def test_discovered_checks() -> None:
    checks = checks_of("4k4/9/9/9/4S4/9/9/9/4R4 b - 1")
    assert {"5e4d", "5e6d", "5e4f", "5e6f"} <= checks
    assert "5e5d" not in checks


def test_pawn_drop_checks() -> None:
    assert "P*9b" not in checks_of("kn7/9/1G7/9/9/9/9/9/9 b P 1")  # 打ち歩詰め
    assert "P*9b" in checks_of("k8/9/1G7/9/9/9/9/9/9 b P 1")        # the king can escape
    assert "P*1b" not in checks_of("6+Rgk/9/9/7N1/9/9/9/9/9 b Pr2b3g4s3n4l17p 1")
    assert {"9c9b", "9c9b+"} <= checks_of("kn7/9/PG7/9/9/9/9/9/9 b - 1")  # 突き歩詰め is legal


def test_checks_need_a_king_to_check() -> None:
    # After a tsume attacker's move the side to move attacks a side with no king.
    pos = Position.from_sfen("7k1/7Bs/6L2/7+B1/9/9/9/9/9 w 2r4g3s4n3l18p 4")
    assert check_moves(pos) == []
    assert not gives_check(pos, legal_moves(pos)[0])
    assert legal_moves(pos)


def test_white_attacker_checks() -> None:
    # The mirror of the pawn test, White to move.
    assert checks_of("9/9/9/9/9/4p4/9/4K4/9 w - 1") == {"5f5g", "5f5g+"}


# ---- evasions and their classes ---------------------------------------------------

ROOK_CHECK = "4k4/9/9/5s3/9/9/9/5g3/4R4 w g 1"


def test_evasions_and_classes() -> None:
    pos = Position.from_sfen(ROOK_CHECK)
    assert pos.is_check() and checkers(pos) == [parse_square("5i")]
    info = {m.usi(): classify_evasion(pos, m) for m in evasions(pos)}
    rook = parse_square("5i")
    assert info["5a4a"] == EvasionInfo(EvasionKind.KING_MOVE, rook)
    assert info["4h5i"] == EvasionInfo(EvasionKind.CAPTURE, rook, captures=True)
    assert info["G*5b"] == EvasionInfo(EvasionKind.INTERPOSITION, rook, 1, True)
    assert info["G*5h"] == EvasionInfo(EvasionKind.INTERPOSITION, rook, 7, True)
    assert info["4d5e"] == EvasionInfo(EvasionKind.INTERPOSITION, rook, 4, False)  # 移動合
    assert info["4d5c"].distance == 2 and not info["4d5c"].is_drop
    assert info["4h5h"] == EvasionInfo(EvasionKind.INTERPOSITION, rook, 7, False)
    kings = {u for u, i in info.items() if i.kind is EvasionKind.KING_MOVE}
    assert kings == {"5a4a", "5a6a", "5a4b", "5a6b"}  # 5b stays on the rook's file
    drops = {u for u, i in info.items() if i.is_drop}
    assert drops == {f"G*5{r}" for r in "bcdefgh"}
    assert set(info) == kings | drops | {"4h5i", "4d5e", "4d5c", "4h5h"}


def test_double_check_allows_only_king_moves() -> None:
    pos = Position.from_sfen("4k4/9/5N3/9/9/9/9/9/4R4 w g 1")
    assert sorted(checkers(pos)) == sorted([parse_square("5i"), parse_square("4c")])
    moves = evasions(pos)
    assert usis(moves) == {"5a4a", "5a6a", "5a4b", "5a6b"}
    for move in moves:
        info = classify_evasion(pos, move)
        assert info.kind is EvasionKind.KING_MOVE and info.checker is None
    assert all(m.from_square == parse_square("5a") for m in moves)
    # A gold drop on the file blocks the rook but not the knight: illegal.
    assert "G*5b" not in usis(moves)


def test_king_captures_the_checker() -> None:
    pos = Position.from_sfen("4k4/4G4/9/9/9/9/9/9/9 w - 1")
    info = classify_evasion(pos, Move.from_usi("5a5b"))
    assert info == EvasionInfo(EvasionKind.KING_MOVE, parse_square("5b"), captures=True)
    assert classify_evasion(pos, Move.from_usi("5a4a")).captures is False


def test_knight_check_cannot_be_interposed() -> None:
    pos = Position.from_sfen("4k4/9/5N3/9/9/9/9/9/9 w 2G 1")
    kinds = {classify_evasion(pos, m).kind for m in evasions(pos)}
    assert kinds == {EvasionKind.KING_MOVE}


def test_classify_errors() -> None:
    with pytest.raises(ValueError, match=rf"^the side to move is not in check: {START!r}$"):
        classify_evasion(Position.from_sfen(START), Move.from_usi("7g7f"))
    pos = Position.from_sfen(ROOK_CHECK)
    with pytest.raises(IllegalMoveError, match=r"^'G\*1a' does not answer the check in '4k4/"):
        classify_evasion(pos, Move.from_usi("G*1a"))
    assert evasions(Position.from_sfen(START)) == []
    # No king to the side to move: never in check.
    assert evasions(Position.from_sfen("4k4/9/9/9/9/9/9/9/4r4 b G 1")) == []


# ---- Japanese notation -------------------------------------------------------------

def test_japanese_examples_of_the_issue() -> None:
    pos = Position.from_sfen("7k1/7p1/5S3/9/9/9/9/9/9 b RB 1")
    assert japanese(pos, Move.from_usi("R*2c")) == "▲２三飛打"
    assert japanese(pos, Move.from_usi("4c3b+")) == "▲３二銀成"
    assert japanese(pos, Move.from_usi("4c3b")) == "▲３二銀不成"
    assert japanese(pos, Move.from_usi("B*1b")) == "▲１二角打"
    assert japanese(pos, Move.from_usi("4c4d")) == "▲４四銀不成"  # leaving the zone may promote too
    assert japanese(pos, Move.from_usi("R*2c"), marks=False) == "２三飛打"
    line = japanese_line(pos, [Move.from_usi("R*2c"), Move.from_usi("2b2c"), Move.from_usi("4c3b+")])
    assert line == ["▲２三飛打", "△同　歩", "▲３二銀成"]


def test_japanese_piece_names_and_same_square() -> None:
    pos = Position.from_sfen("4k4/9/4+S4/9/9/9/9/1+R7/9 b - 1")
    assert japanese(pos, Move.from_usi("5c5b")) == "▲５二成銀"
    assert japanese(pos, Move.from_usi("8h8b")) == "▲８二龍"
    assert japanese(pos, Move.from_usi("5c5b"), previous_to=parse_square("5b")) == "▲同　成銀"
    assert japanese(pos, Move.from_usi("5c5b"), previous_to=parse_square("5d")) == "▲５二成銀"
    # A move that cannot promote says neither 成 nor 不成.
    start = Position.from_sfen(START)
    assert japanese(start, Move.from_usi("7g7f")) == "▲７六歩"
    assert japanese(start, Move.from_usi("5i5h")) == "▲５八玉"
    white = Position.from_sfen("lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2")
    assert japanese(white, Move.from_usi("3c3d")) == "△３四歩"
    assert japanese(white, Move.from_usi("2b7g+")) == "△７七角成"
    assert japanese(white, Move.from_usi("2b7g")) == "△７七角不成"


def test_japanese_needs_the_moving_piece() -> None:
    with pytest.raises(IllegalMoveError, match=r"^no piece of the side to move on 5e for '5e5d'$"):
        japanese(Position.from_sfen(START), Move.from_usi("5e5d"))
    with pytest.raises(IllegalMoveError, match=r"^no piece of the side to move on 3c for '3c3d'$"):
        japanese(Position.from_sfen(START), Move.from_usi("3c3d"))


def test_usi_must_be_text() -> None:
    with pytest.raises(InvalidMoveError, match=r"^a USI move is text, not int: 7776$"):
        Move.from_usi(7776)  # type: ignore[arg-type]


def test_checkmate() -> None:
    pos = Position.from_sfen("kn7/9/PG7/9/9/9/9/9/9 b - 1")
    assert not pos.is_checkmate()
    pos.push(Move.from_usi("9c9b"))  # 突き歩詰め
    assert pos.is_check() and pos.is_checkmate()
    pos.pop()
    pos.push(Move.from_usi("8c8b"))  # check, but the king takes the unguarded gold
    assert pos.is_check() and not pos.is_checkmate()
    assert usis(evasions(pos)) == {"9a8b"}
    # No legal move without check is not mate.
    stuck = Position.from_sfen("k8/2G6/1G7/9/9/9/9/9/9 w - 1")
    assert legal_moves(stuck) == [] and not stuck.is_checkmate()


def test_every_usi_move_round_trips() -> None:
    names = [f"{f}{r}" for f in "123456789" for r in "abcdefghi"]
    texts = [a + b + p for a in names for b in names if a != b for p in ("", "+")]
    texts += [f"{letter}*{b}" for letter in "PLNSGBR" for b in names]
    for text in texts:
        assert Move.from_usi(text).usi() == text
    assert len({Move.from_usi(t) for t in texts}) == len(texts)

"""The board editor's rules, presets, cursor path, and pasted text and files, without a widget."""

from __future__ import annotations

from pathlib import Path

import pytest
from tsume_studio.core.editing import (
    BOX_ORDER,
    STAND_ORDER,
    Spot,
    add_to_hand,
    board_cell,
    box_counts,
    box_king_color,
    cell_square,
    check_extension,
    clear_spot,
    cleared,
    cycle_piece,
    hand_from_stock,
    hand_limit,
    left_stand,
    move_cursor,
    move_piece,
    parse_position_text,
    piece_at_spot,
    place_from_stock,
    place_piece,
    read_position_file,
    toggle_owner,
    toggle_promotion,
    tsume_preset,
    two_kings_preset,
    with_default_extension,
    with_turn,
    write_position_file,
)
from tsume_studio.core.records.formats import FORMATS, RecordError
from tsume_studio.core.records.model import Record
from tsume_studio.core.shogi.moves import Move
from tsume_studio.core.shogi.position import Position, SfenError, Status
from tsume_studio.core.shogi.types import (
    BISHOP,
    BLACK,
    GOLD,
    KING,
    KNIGHT,
    LANCE,
    PAWN,
    PROM_ROOK,
    PROM_SILVER,
    ROOK,
    SILVER,
    WHITE,
    make_piece,
    square,
)

TSUME = "4k4/9/9/9/9/9/9/9/9 b 2r2b4g4s4n4l18p 1"
# A 1-ply problem: ▲５二金打 mates.
MATE1 = "4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1"
BOD = """後手の持駒：飛二　角二　金三　銀四　桂四　香四　歩十七\u3000
  ９ ８ ７ ６ ５ ４ ３ ２ １
+---------------------------+
| ・ ・ ・ ・v玉 ・ ・ ・ ・|一
| ・ ・ ・ ・ ・ ・ ・ ・ ・|二
| ・ ・ ・ ・ 歩 ・ ・ ・ ・|三
| ・ ・ ・ ・ ・ ・ ・ ・ ・|四
| ・ ・ ・ ・ ・ ・ ・ ・ ・|五
| ・ ・ ・ ・ ・ ・ ・ ・ ・|六
| ・ ・ ・ ・ ・ ・ ・ ・ ・|七
| ・ ・ ・ ・ ・ ・ ・ ・ ・|八
| ・ ・ ・ ・ ・ ・ ・ ・ ・|九
+---------------------------+
先手の持駒：金\u3000
先手番
"""
KIF = BOD.replace("先手番\n", "先手番\n手数----指手---------消費時間--\n   1 ５二金打     ( 0:00/00:00:00)\n")


# ---- spots -----------------------------------------------------------------------


def test_spot_constructors_and_their_checks() -> None:
    assert Spot.board(40) == Spot("board", square=40)
    assert Spot.hand(WHITE, GOLD) == Spot("hand", color=WHITE, piece_type=GOLD)
    assert Spot.box() == Spot("box") and Spot.turn(WHITE) == Spot("turn", color=WHITE)
    with pytest.raises(ValueError, match="81"):
        Spot.board(81)
    with pytest.raises(ValueError, match="not 'table'"):
        Spot("table")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="not 2"):
        Spot.hand(2, PAWN)
    with pytest.raises(ValueError, match=f"piece type {KING}"):
        Spot.hand(BLACK, KING)
    with pytest.raises(ValueError, match=f"piece type {PROM_ROOK}"):
        Spot.box(PROM_ROOK)


def test_what_a_drag_carries_from_each_spot() -> None:
    pos = Position.from_sfen("4k4/9/9/9/9/9/9/9/9 b G 1")
    assert piece_at_spot(pos, Spot.board(square(5, 1))) == make_piece(WHITE, KING)
    assert piece_at_spot(pos, Spot.board(square(5, 2))) == 0
    assert piece_at_spot(pos, Spot.hand(BLACK, GOLD)) == make_piece(BLACK, GOLD)
    assert piece_at_spot(pos, Spot.hand(WHITE, GOLD)) == 0
    assert piece_at_spot(pos, Spot.hand(BLACK)) == 0          # the stand as a whole
    assert piece_at_spot(pos, Spot.box(SILVER)) == make_piece(BLACK, SILVER)
    assert piece_at_spot(pos, Spot.box()) == 0
    assert piece_at_spot(pos, Spot.turn(BLACK)) == 0
    assert piece_at_spot(Position.from_sfen(TSUME), Spot.box(GOLD)) == 0   # none left


# ---- the box -----------------------------------------------------------------------


def test_box_counts_full_set_minus_board_and_hands() -> None:
    counts = box_counts(Position.from_sfen(TSUME))
    assert counts == {KING: 1, ROOK: 0, 5: 0, GOLD: 0, SILVER: 0, 3: 0, 2: 0, PAWN: 0}
    start = box_counts(Position.empty())
    assert start[PAWN] == 18 and start[KING] == 2 and start[ROOK] == 2
    assert move_piece(Position.from_sfen(TSUME), Spot.box(PAWN), Spot.board(0)) is None


def test_box_counts_promoted_pieces_and_never_go_negative() -> None:
    # A promoted rook and a dragon count as rooks; five golds leave no gold, not -1.
    pos = Position.from_sfen("+R3k3+R/9/9/9/9/9/9/9/GGGG4G b - 1")
    counts = box_counts(pos)
    assert counts[ROOK] == 0 and counts[GOLD] == 0 and counts[KING] == 1
    assert Status.TOO_MANY_PIECES in pos.status()
    assert list(counts) == list(BOX_ORDER)


def test_king_from_the_box_goes_to_the_defender_first() -> None:
    assert box_king_color(Position.empty()) == WHITE                       # Black to move: White defends
    assert box_king_color(Position.from_sfen("9/9/9/9/9/9/9/9/9 w - 1")) == BLACK
    assert box_king_color(Position.from_sfen("4k4/9/9/9/9/9/9/9/9 b - 1")) == BLACK


# ---- moving pieces ----------------------------------------------------------------


def test_move_piece_between_board_hands_and_box() -> None:
    pos = Position.from_sfen("4k4/9/4+S4/9/9/9/9/9/9 b - 1")
    s53, s52 = square(5, 3), square(5, 2)
    moved = move_piece(pos, Spot.board(s53), Spot.board(s52))
    assert moved is not None and moved.sfen() == "4k4/4+S4/9/9/9/9/9/9/9 b - 1"
    # Into a hand it goes unpromoted, owned by that hand's side.
    to_hand = move_piece(pos, Spot.board(s53), Spot.hand(WHITE))
    assert to_hand is not None and to_hand.sfen() == "4k4/9/9/9/9/9/9/9/9 b s 1"
    # Onto an occupied square: the piece there goes back to the box.
    onto_king = move_piece(pos, Spot.board(s53), Spot.board(square(5, 1)))
    assert onto_king is not None and onto_king.sfen() == "4+S4/9/9/9/9/9/9/9/9 b - 1"
    # Kings never go into a hand; dropping where it came from changes nothing.
    assert move_piece(pos, Spot.board(square(5, 1)), Spot.hand(BLACK)) is None
    assert move_piece(pos, Spot.board(s53), Spot.board(s53)) is None
    # From the box: a pawn is Black's; the second king goes to the side without one.
    from_box = move_piece(pos, Spot.box(PAWN), Spot.board(square(1, 7)))
    assert from_box is not None and from_box.piece_at(square(1, 7)) == make_piece(BLACK, PAWN)
    king = move_piece(pos, Spot.box(KING), Spot.board(square(5, 9)))
    assert king is not None and king.piece_at(square(5, 9)) == make_piece(BLACK, KING)
    # The original is never modified.
    assert pos.sfen() == "4k4/9/4+S4/9/9/9/9/9/9 b - 1"


def test_move_piece_to_the_box_and_between_hands() -> None:
    pos = Position.from_sfen("4k4/9/9/9/9/9/9/9/9 b 2G 1")
    to_box = move_piece(pos, Spot.hand(BLACK, GOLD), Spot.box())
    assert to_box is not None and to_box.sfen() == "4k4/9/9/9/9/9/9/9/9 b G 1"
    king_away = move_piece(pos, Spot.board(square(5, 1)), Spot.box(PAWN))
    assert king_away is not None and king_away.sfen() == "9/9/9/9/9/9/9/9/9 b 2G 1"
    across = move_piece(pos, Spot.hand(BLACK, GOLD), Spot.hand(WHITE, PAWN))
    assert across is not None and across.sfen() == "4k4/9/9/9/9/9/9/9/9 b Gg 1"
    # Nothing happens: onto the same hand, box onto box, onto a side's name, from an empty slot.
    assert move_piece(pos, Spot.hand(BLACK, GOLD), Spot.hand(BLACK, ROOK)) is None
    assert move_piece(pos, Spot.box(PAWN), Spot.box(ROOK)) is None
    assert move_piece(pos, Spot.hand(BLACK, GOLD), Spot.turn(WHITE)) is None
    assert move_piece(pos, Spot.hand(WHITE, GOLD), Spot.board(0)) is None


def test_a_full_hand_takes_no_more_of_that_kind() -> None:
    # White holds all 18 pawns and 4 golds; a fifth gold on the board cannot join them.
    pos = Position.from_sfen("4k4/9/9/9/4G4/9/9/9/9 b 4g18p 1")
    assert move_piece(pos, Spot.board(square(5, 5)), Spot.hand(WHITE, GOLD)) is None
    assert add_to_hand(pos, WHITE, PAWN, 1) is None
    assert add_to_hand(pos, WHITE, GOLD, 3) is None
    # Black's hand is not full: the gold goes there.
    to_black = move_piece(pos, Spot.board(square(5, 5)), Spot.hand(BLACK))
    assert to_black is not None and to_black.sfen() == "4k4/9/9/9/9/9/9/9/9 b G4g18p 1"


def test_hand_counts_stay_between_zero_and_the_limit() -> None:
    assert [hand_limit(pt) for pt in STAND_ORDER] == [2, 2, 4, 4, 4, 4, 18]
    with pytest.raises(KeyError):
        hand_limit(KING)
    empty = Position.empty()
    three = add_to_hand(empty, BLACK, SILVER, 3)
    assert three is not None and three.sfen() == "9/9/9/9/9/9/9/9/9 b 3S 1"
    capped = add_to_hand(empty, BLACK, SILVER, 9)
    assert capped is not None and capped.sfen() == "9/9/9/9/9/9/9/9/9 b 4S 1"
    back = add_to_hand(three, BLACK, SILVER, -5)
    assert back is not None and back.sfen() == "9/9/9/9/9/9/9/9/9 b - 1"
    assert add_to_hand(empty, BLACK, SILVER, -1) is None
    assert add_to_hand(empty, BLACK, KING, 1) is None
    assert add_to_hand(empty, BLACK, PROM_SILVER, 1) is None
    # A pasted hand above the limit is never raised, and lowering it works one by one.
    over = Position.from_sfen("9/9/9/9/9/9/9/9/9 b 6G 1")
    assert add_to_hand(over, BLACK, GOLD, 1) is None
    lower = add_to_hand(over, BLACK, GOLD, -1)
    assert lower is not None and lower.hand(BLACK)[4] == 5


def test_clear_spot() -> None:
    pos = Position.from_sfen("4k4/9/9/9/9/9/9/9/9 b 3P 1")
    no_pawns = clear_spot(pos, Spot.hand(BLACK, PAWN))
    assert no_pawns is not None and no_pawns.sfen() == "4k4/9/9/9/9/9/9/9/9 b - 1"
    no_king = clear_spot(pos, Spot.board(square(5, 1)))
    assert no_king is not None and no_king.sfen() == "9/9/9/9/9/9/9/9/9 b 3P 1"
    assert clear_spot(pos, Spot.board(square(5, 2))) is None
    assert clear_spot(pos, Spot.hand(WHITE, PAWN)) is None
    assert clear_spot(pos, Spot.box(PAWN)) is None
    assert clear_spot(pos, Spot.hand(BLACK)) is None


# ---- changing a piece on the board ------------------------------------------------


def test_cycle_piece_promotes_then_changes_owner() -> None:
    pos = Position.from_sfen("9/9/9/9/4S4/9/9/9/9 b - 1")
    sq = square(5, 5)
    seen = []
    for _ in range(4):
        nxt = cycle_piece(pos, sq)
        assert nxt is not None
        pos = nxt
        seen.append(pos.piece_at(sq))
    assert seen == [make_piece(BLACK, PROM_SILVER), make_piece(WHITE, SILVER),
                    make_piece(WHITE, PROM_SILVER), make_piece(BLACK, SILVER)]
    gold = Position.from_sfen("9/9/9/9/4G4/9/9/9/9 b - 1")
    once = cycle_piece(gold, sq)
    assert once is not None and once.piece_at(sq) == make_piece(WHITE, GOLD)
    assert cycle_piece(gold, square(1, 1)) is None


def test_toggle_promotion_and_owner() -> None:
    pos = Position.from_sfen("4k4/9/9/9/4+r4/9/9/9/4G4 b - 1")
    s55, s59, s51 = square(5, 5), square(5, 9), square(5, 1)
    down = toggle_promotion(pos, s55)
    assert down is not None and down.piece_at(s55) == make_piece(WHITE, ROOK)
    up = toggle_promotion(down, s55)
    assert up is not None and up == pos
    assert toggle_promotion(pos, s59) is None          # a gold cannot promote
    assert toggle_promotion(pos, s51) is None          # nor a king
    assert toggle_promotion(pos, square(1, 1)) is None
    mine = toggle_owner(pos, s55)
    assert mine is not None and mine.piece_at(s55) == make_piece(BLACK, PROM_ROOK)
    black_king = toggle_owner(pos, s51)
    assert black_king is not None and black_king.piece_at(s51) == make_piece(BLACK, KING)
    assert toggle_owner(pos, square(1, 1)) is None
    assert pos.sfen() == "4k4/9/9/9/4+r4/9/9/9/4G4 b - 1"


def test_place_piece() -> None:
    pos = Position.empty()
    lance = place_piece(pos, square(1, 9), make_piece(BLACK, LANCE))
    assert lance is not None and lance.sfen() == "9/9/9/9/9/9/9/9/8L b - 1"
    assert place_piece(lance, square(1, 9), make_piece(BLACK, LANCE)) is None
    assert place_piece(pos, square(1, 9), 0) is None
    # Where a piece can never move is allowed; the position's problems say so.
    dead = place_piece(pos, square(2, 1), make_piece(BLACK, KNIGHT))
    assert dead is not None and Status.DEAD_PIECE in dead.status()
    with pytest.raises(ValueError, match="81"):
        place_piece(pos, 81, make_piece(BLACK, PAWN))


def test_piece_keys_take_from_the_defenders_hand_when_the_box_is_empty() -> None:
    tsume = tsume_preset()          # every piece but the attacker's king is in White's hand
    gold = place_from_stock(tsume, square(5, 2), make_piece(BLACK, GOLD))
    assert gold is not None and gold.sfen() == "4k4/4G4/9/9/9/9/9/9/9 b 2r2b3g4s4n4l18p 1"
    assert Status.TOO_MANY_PIECES not in gold.status()
    # A promoted piece counts as its kind; White's own piece comes from White's hand too.
    dragon = place_from_stock(gold, square(5, 5), make_piece(WHITE, PROM_ROOK))
    assert dragon is not None and dragon.sfen() == "4k4/4G4/9/9/4+r4/9/9/9/9 b r2b3g4s4n4l18p 1"
    # The defender's hand empty of a kind: the attacker's hand gives it, then nothing is left.
    pos = Position.from_sfen("4k4/9/9/9/9/9/9/9/9 b 2Gr2b2g4s4n4l18p 1")
    pos = place_from_stock(pos, square(9, 9), make_piece(BLACK, GOLD))
    pos = place_from_stock(pos, square(8, 9), make_piece(BLACK, GOLD))
    assert pos is not None and pos.sfen() == "4k4/9/9/9/9/9/9/9/GG7 b 2Gr2b4s4n4l18p 1"
    pos = place_from_stock(pos, square(7, 9), make_piece(BLACK, GOLD))
    pos = place_from_stock(pos, square(6, 9), make_piece(BLACK, GOLD))
    assert pos is not None and pos.sfen() == "4k4/9/9/9/9/9/9/9/GGGG5 b r2b4s4n4l18p 1"
    assert place_from_stock(pos, square(5, 9), make_piece(BLACK, GOLD)) is None   # no fifth gold
    # Replacing a gold by a gold takes nothing; from the box first when it has one.
    white_gold = place_from_stock(pos, square(9, 9), make_piece(WHITE, GOLD))
    assert white_gold is not None and white_gold.sfen() == "4k4/9/9/9/9/9/9/9/gGGG5 b r2b4s4n4l18p 1"
    box = place_from_stock(Position.from_sfen("4k4/9/9/9/9/9/9/9/9 b r 1"), square(1, 1), make_piece(BLACK, ROOK))
    assert box is not None and box.sfen() == "4k3R/9/9/9/9/9/9/9/9 b r 1"
    # Kings never come out of a hand; an empty square stays a plain removal.
    king = place_from_stock(tsume, square(5, 9), make_piece(BLACK, KING))
    assert king is not None and king.sfen() == "4k4/9/9/9/9/9/9/9/4K4 b 2r2b4g4s4n4l18p 1"
    removed = place_from_stock(tsume, square(5, 1), 0)
    assert removed is not None and removed.sfen() == "9/9/9/9/9/9/9/9/9 b 2r2b4g4s4n4l18p 1"


def test_hand_keys_take_from_the_other_hand_when_the_box_is_empty() -> None:
    tsume = tsume_preset()
    black = hand_from_stock(tsume, BLACK, GOLD)
    assert black is not None and black.sfen() == "4k4/9/9/9/9/9/9/9/9 b G2r2b3g4s4n4l18p 1"
    assert hand_from_stock(tsume, WHITE, GOLD) is None            # all four golds are White's already
    assert hand_from_stock(tsume, BLACK, KING) is None
    spare = Position.from_sfen("4k4/9/9/9/9/9/9/9/9 b - 1")
    pawn = hand_from_stock(spare, BLACK, PAWN)
    assert pawn is not None and pawn.sfen() == "4k4/9/9/9/9/9/9/9/9 b P 1"


def test_with_turn() -> None:
    pos = Position.from_sfen(MATE1)
    white = with_turn(pos, WHITE)
    assert white is not None and white.turn == WHITE and white.sfen().split()[:3] == [
        "4k4/9/4P4/9/9/9/9/9/9", "w", "G2r2b3g4s4n4l17p"]
    assert with_turn(pos, BLACK) is None
    with pytest.raises(ValueError, match="not 7"):
        with_turn(pos, 7)


# ---- presets ---------------------------------------------------------------------


def test_presets() -> None:
    tsume = tsume_preset()
    assert tsume.sfen() == TSUME and tsume.problems() == []
    assert box_counts(tsume)[KING] == 1 and sum(box_counts(tsume).values()) == 1
    two = two_kings_preset()
    assert two.sfen() == "4k4/9/9/9/9/9/9/9/4K4 b 2r2b4g4s4n4l18p 1" and two.problems() == []
    assert tsume_preset() is not tsume_preset()          # a new position each time
    white = Position.from_sfen("4k4/9/9/9/9/9/9/9/9 w 2G 1")
    empty = cleared(white)
    assert empty.sfen() == "9/9/9/9/9/9/9/9/9 w - 1"
    assert white.sfen() == "4k4/9/9/9/9/9/9/9/9 w 2G 1"


# ---- the board either way up, and the cursor ---------------------------------------


@pytest.mark.parametrize("flipped", [False, True])
def test_cells_and_squares_are_inverse(flipped: bool) -> None:
    cells = {board_cell(sq, flipped) for sq in range(81)}
    assert cells == {(c, r) for c in range(9) for r in range(9)}
    for sq in range(81):
        assert cell_square(*board_cell(sq, flipped), flipped) == sq
    with pytest.raises(ValueError, match=r"\(9, 0\)"):
        cell_square(9, 0, flipped)


def test_board_drawn_either_way_up() -> None:
    # The right way up 9一 is at the top left and 1九 at the bottom right; flipped, the reverse.
    assert board_cell(square(9, 1), False) == (0, 0)
    assert board_cell(square(1, 9), False) == (8, 8)
    assert board_cell(square(1, 9), True) == (0, 0)
    assert board_cell(square(2, 3), True) == (1, 6)
    assert left_stand(False) == WHITE and left_stand(True) == BLACK


def test_cursor_on_the_board() -> None:
    s55 = Spot.board(square(5, 5))
    assert move_cursor(s55, 0, -1, False) == Spot.board(square(5, 4))
    assert move_cursor(s55, 1, 0, False) == Spot.board(square(4, 5))
    assert move_cursor(s55, 0, -1, True) == Spot.board(square(5, 6))
    assert move_cursor(s55, -1, 0, True) == Spot.board(square(4, 5))
    # The top and bottom edges stop it.
    assert move_cursor(Spot.board(square(3, 1)), 0, -1, False) == Spot.board(square(3, 1))
    assert move_cursor(Spot.board(square(3, 1)), 0, 1, True) == Spot.board(square(3, 1))
    # Anything but a board square or a hand slot: back to 5五.
    assert move_cursor(Spot.box(PAWN), 1, 0, False) == s55
    assert move_cursor(Spot.hand(BLACK), 0, 1, False) == s55


def test_cursor_off_the_sides_to_the_stands_and_back() -> None:
    # Black's stand is on the right unless flipped; the slot at the same height.
    assert move_cursor(Spot.board(square(1, 1)), 1, 0, False) == Spot.hand(BLACK, ROOK)
    assert move_cursor(Spot.board(square(9, 9)), -1, 0, False) == Spot.hand(WHITE, PAWN)
    assert move_cursor(Spot.board(square(9, 5)), 1, 0, True) == Spot.hand(WHITE, SILVER)
    assert move_cursor(Spot.board(square(1, 5)), -1, 0, True) == Spot.hand(BLACK, SILVER)
    # Up and down go round the stand.
    assert move_cursor(Spot.hand(BLACK, ROOK), 0, -1, False) == Spot.hand(BLACK, PAWN)
    assert move_cursor(Spot.hand(BLACK, PAWN), 0, 1, False) == Spot.hand(BLACK, ROOK)
    assert move_cursor(Spot.hand(WHITE, ROOK), 0, 1, True) == Spot.hand(WHITE, BISHOP)
    # Towards the board: the nearest edge cell; away from it: nothing.
    assert move_cursor(Spot.hand(BLACK, ROOK), -1, 0, False) == Spot.board(square(1, 1))
    assert move_cursor(Spot.hand(WHITE, PAWN), 1, 0, False) == Spot.board(square(9, 8))
    assert move_cursor(Spot.hand(WHITE, ROOK), -1, 0, True) == Spot.board(square(9, 9))
    assert move_cursor(Spot.hand(BLACK, GOLD), 1, 0, False) == Spot.hand(BLACK, GOLD)
    assert move_cursor(Spot.hand(WHITE, GOLD), -1, 0, False) == Spot.hand(WHITE, GOLD)


# ---- pasted text -------------------------------------------------------------------


def test_parse_position_text_sfen_usi_bod_kif() -> None:
    for text in (MATE1, f"sfen {MATE1}", f"position sfen {MATE1}", f"  {MATE1}\r\n", BOD):
        position, record = parse_position_text(text)
        assert position.sfen() == MATE1, text
        assert record.start == position and record.main_line() == []
    position, record = parse_position_text(KIF)
    assert position.sfen() == MATE1
    assert [m.usi() for m in record.main_line()] == ["G*5b"]
    # The position returned is the record's start, but not the same object.
    assert position == record.start and position is not record.start
    line, with_moves = parse_position_text(f"position sfen {MATE1} moves G*5b")
    assert line.sfen() == MATE1 and with_moves.main_line() == [Move.from_usi("G*5b")]


@pytest.mark.parametrize(("text", "error", "match"), [
    ("4k4/9/9/9/9/9/9 b - 1", SfenError, "expected 9 ranks"),
    ("4k4/9/9/9/9/9/9/9/9 x - 1", SfenError, "'x'"),
    ("sfen 9/9 b - 1", SfenError, "'9/9'"),
    ("position 9/9 b - 1", SfenError, "expected 9 ranks.*'9/9'"),
    ("hello world", RecordError, "'hello world'"),
    ("", RecordError, "empty"),
    (" \r\n\t", RecordError, "empty"),
])
def test_parse_position_text_errors(text: str, error: type[ValueError], match: str) -> None:
    with pytest.raises(error, match=match):
        parse_position_text(text)


def test_parse_position_text_rejects_non_text() -> None:
    with pytest.raises(RecordError, match="empty"):
        parse_position_text(None)  # type: ignore[arg-type]


# ---- files ---------------------------------------------------------------------------


@pytest.mark.parametrize("ext", sorted(FORMATS))
def test_write_and_read_every_format(tmp_path: Path, ext: str) -> None:
    path = tmp_path / f"problem{ext}"
    write_position_file(str(path), Position.from_sfen(MATE1))
    position, record = read_position_file(str(path))
    assert position.sfen() == MATE1 and record.start == position


def test_a_record_is_written_only_from_its_own_start(tmp_path: Path) -> None:
    _, record = parse_position_text(KIF)
    path = tmp_path / "answer.kifu"
    write_position_file(str(path), Position.from_sfen(MATE1), record)
    assert [m.usi() for m in read_position_file(str(path))[1].main_line()] == ["G*5b"]
    # Another position: the record does not describe it, so only the position is written.
    other = Position.from_sfen(TSUME)
    write_position_file(str(path), other, record)
    position, again = read_position_file(str(path))
    assert position == other and again.main_line() == []
    write_position_file(str(path), other, Record(start=other.copy()))
    assert read_position_file(str(path))[0] == other


def test_file_names_choose_the_format(tmp_path: Path) -> None:
    for name in ("a.kif", "a.KIFU", "dir.x/a.csa", "a.sfen"):
        check_extension(name)
    with pytest.raises(RecordError, match=r"'\.txt'.*\.kif"):
        check_extension("problem.txt")
    with pytest.raises(RecordError, match=r"'\(none\)'"):
        check_extension("problem")
    with pytest.raises(RecordError, match=r"'\.txt'"):
        write_position_file(str(tmp_path / "problem.txt"), Position.from_sfen(MATE1))
    with pytest.raises(RecordError, match=r"'\.txt'"):
        read_position_file(str(tmp_path / "problem.txt"))
    assert list(tmp_path.iterdir()) == []
    with pytest.raises(OSError):
        read_position_file(str(tmp_path / "missing.kif"))
    bad = tmp_path / "bad.sfen"
    bad.write_text("not a position\n", encoding="utf-8")
    with pytest.raises(ValueError):
        read_position_file(str(bad))
    assert with_default_extension("problem") == "problem.sfen"
    assert with_default_extension("problem.kif") == "problem.kif"
    assert with_default_extension("dir.x/problem", ".kifu") == "dir.x/problem.kifu"


# ---- layering ------------------------------------------------------------------------


def test_editing_imports_only_shogi_and_records_and_no_qt() -> None:
    """The module sits beside the solvers, not above them: from the core only shogi and records, and no Qt."""
    import ast
    import subprocess
    import sys

    from tsume_studio.core import editing

    tree = ast.parse(Path(editing.__file__).read_text(encoding="utf-8"))
    relative = {(node.module or "").split(".")[0] for node in ast.walk(tree)
                if isinstance(node, ast.ImportFrom) and node.level > 0}
    assert relative == {"shogi", "records"}
    absolute = [alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names]
    absolute += [node.module or "" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and not node.level]
    assert not [name for name in absolute if name.startswith(("tsume_studio", "PySide6"))], absolute
    code = "import sys, tsume_studio.core.editing; print(sorted(m for m in sys.modules if 'PySide6' in m))"
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert loaded.stdout.strip() == "[]"


def test_save_dialog_names() -> None:
    from tsume_studio.core.editing import suggested_file_name, with_filter_extension
    assert with_filter_extension("dir/name", "KIF (*.kif *.kifu)") == "dir/name.kif"
    assert with_filter_extension("name", "CSA (*.csa)") == "name.csa"
    assert with_filter_extension("name", "Positions (*.sfen *.kif *.csa)") == "name.kif"   # the default
    assert with_filter_extension("name", "SFEN (*.sfen)", default=".kifu") == "name.sfen"
    assert with_filter_extension("name.KIF", "CSA (*.csa)") == "name.KIF"                   # already a format
    assert with_filter_extension("v1.2", "KI2 (*.ki2 *.ki2u)") == "v1.2.ki2"                # not a format
    assert with_filter_extension("name", "") == "name.kif"
    assert suggested_file_name("/x/y.csa", "題") == "y.csa"
    assert suggested_file_name(None, '春/夏:秋*冬?"') == "春_夏_秋_冬__.kif"
    assert suggested_file_name(None, " . ") == "tsume.kif"
    assert suggested_file_name(None, "", ".sfen") == "tsume.sfen"

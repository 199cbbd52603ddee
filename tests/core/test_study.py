"""The study tree (cursor, play, variations, promote, delete, merge) and illegal-move reasons."""

from __future__ import annotations

import random
from pathlib import Path

import cshogi
import pytest

from tsume_studio.core.answer import record_from_line
from tsume_studio.core.records.formats import read_record
from tsume_studio.core.records.kif import parse_kif, to_kif
from tsume_studio.core.records.model import Record, RecordNode
from tsume_studio.core.shogi.moves import Move, attackers, legal_moves
from tsume_studio.core.shogi.position import STARTING_SFEN, Position
from tsume_studio.core.shogi.types import (
    HAND_INDEX, HAND_TYPES, KING, PAWN, make_piece, piece_color, relative_rank, square_file,
)
from tsume_studio.core.study import (
    IllegalReason, StudyMoveError, StudyTree, illegal_reason, line_rows, merge_record, promotion_choices,
    terminal,
)

DATA = Path(__file__).parent.parent / "data"
MATE3 = "7k1/4R4/9/9/9/9/9/9/9 b SNr2b4g3s3n4l18p 1"


def mv(text: str) -> Move:
    return Move.from_usi(text)


# ---- legality -----------------------------------------------------------------

def _positions() -> list[Position]:
    """Positions from random games (hands fill up with captures) and from the mate problems."""
    rng = random.Random(16)
    out = []
    for _game in range(12):
        pos = Position.from_sfen(STARTING_SFEN)
        for ply in range(120):
            moves = legal_moves(pos)
            if not moves:
                break
            # Prefer captures so that hands fill and drops get tested.
            caps = [m for m in moves if m.drop is None and pos.piece_at(m.to_square)]
            pos.push(rng.choice(caps if caps and rng.random() < 0.6 else moves))
            if ply % 15 == 14:
                out.append(Position.from_sfen(pos.sfen()))
    for line in (DATA / "mate.tsv").read_text(encoding="utf-8").splitlines()[1:40]:
        out.append(Position.from_sfen(line.split("\t")[1]))
    return out


def _after(pos: Position, move: Move) -> Position:
    """``move`` applied by hand, legal or not (the piece moves, a capture goes to the hand)."""
    new = pos.copy()
    color = pos.turn
    if move.drop is not None:
        hand = list(new.hand(color))
        hand[HAND_INDEX[move.drop]] -= 1
        new.set_hand(color, hand)
        new.set_piece(move.to_square, make_piece(color, move.drop))
    else:
        assert move.from_square is not None
        pc = pos.piece_at(move.from_square)
        new.set_piece(move.from_square, 0)
        new.set_piece(move.to_square, pc + (8 if move.promotion else 0))
    return new


def _claim_holds(pos: Position, move: Move, reason: IllegalReason, legal: set[Move]) -> bool:
    """Check the reason's claim from the position itself, apart from illegal_reason's code."""
    color, to = pos.turn, move.to_square
    frm = move.from_square
    pc = pos.piece_at(frm) if frm is not None else 0
    target = pos.piece_at(to)
    from_to = {(m.from_square, m.to_square) for m in legal}
    if reason is IllegalReason.NO_PIECE:
        return frm is not None and not pc
    if reason is IllegalReason.NOT_OWN_PIECE:
        return bool(pc) and piece_color(pc) != color
    if reason is IllegalReason.NOT_IN_HAND:
        return move.drop is not None and (move.drop == KING or pos.hand(color)[HAND_INDEX[move.drop]] == 0)
    if reason is IllegalReason.OCCUPIED:
        return move.drop is not None and bool(target)
    if reason is IllegalReason.OWN_PIECE_ON_TARGET:
        return bool(target) and piece_color(target) == color
    if reason is IllegalReason.UNREACHABLE:
        return (frm, to) not in from_to and frm not in attackers(pos, to, color)
    if reason is IllegalReason.CANNOT_PROMOTE:
        return move.promotion and all(not (m.from_square == frm and m.to_square == to and m.promotion)
                                      for m in legal)
    if reason is IllegalReason.MUST_PROMOTE:
        return not move.promotion and Move(frm, to, True) in legal
    if reason is IllegalReason.DEAD_DROP:
        rank = relative_rank(color, to)
        return move.drop is not None and (rank == 1 or (rank == 2 and move.drop == 3))
    if reason is IllegalReason.NIFU:
        own_pawn = make_piece(color, PAWN)
        return move.drop == PAWN and any(pos.piece_at((square_file(to) - 1) * 9 + r) == own_pawn for r in range(9))
    after = _after(pos, move)
    if reason is IllegalReason.PAWN_DROP_MATE:
        board = cshogi.Board(after.sfen())
        return move.drop == PAWN and bool(board.is_check()) and not list(board.legal_moves)
    if reason is IllegalReason.SELF_CHECK:
        king = after.king_square(color)
        return king is not None and bool(attackers(after, king, 1 - color))
    return False


def test_reasons_agree_with_cshogi_over_many_positions() -> None:
    rng = random.Random(7)
    seen: set[IllegalReason] = set()
    checked = 0
    for pos in _positions():
        legal = set(legal_moves(pos))
        for mv in legal:
            assert illegal_reason(pos, mv) is None, (pos.sfen(), mv)
        occupied = [sq for sq, _ in pos.pieces()]
        for _ in range(300):
            if rng.random() < 0.3:
                mv = Move(None, rng.randrange(81), rng.random() < 0.1, rng.choice(HAND_TYPES))
            else:
                frm = rng.choice(occupied) if rng.random() < 0.9 else rng.randrange(81)
                mv = Move(frm, rng.randrange(81), rng.random() < 0.5)
            if mv.from_square == mv.to_square:
                continue
            reason = illegal_reason(pos, mv)
            assert (reason is None) == (mv in legal), (pos.sfen(), mv, reason)
            if reason is not None:
                assert _claim_holds(pos, mv, reason, legal), (pos.sfen(), mv.mv(), reason)
                seen.add(reason)
                checked += 1
    assert checked > 5000
    assert {IllegalReason.NO_PIECE, IllegalReason.NOT_OWN_PIECE, IllegalReason.UNREACHABLE,
            IllegalReason.OWN_PIECE_ON_TARGET, IllegalReason.NOT_IN_HAND, IllegalReason.OCCUPIED} <= seen


@pytest.mark.parametrize("sfen, text, reason", [
    ("4k4/9/9/9/9/9/9/9/4K4 b P 1", "5i5h", None),
    ("4k4/9/9/9/9/9/9/9/4K4 b P 1", "5a5b", IllegalReason.NOT_OWN_PIECE),
    ("4k4/9/9/9/9/9/9/9/4K4 b P 1", "5e5d", IllegalReason.NO_PIECE),
    ("4k4/9/9/9/9/9/9/9/4K4 b P 1", "5i5g", IllegalReason.UNREACHABLE),
    ("4k4/9/9/9/9/9/9/9/4K4 b P 1", "S*5e", IllegalReason.NOT_IN_HAND),
    ("4k4/9/9/9/9/9/9/9/4K4 b P 1", "P*5a", IllegalReason.OCCUPIED),
    ("4k4/9/9/9/9/9/9/9/4K4 b P 1", "P*1a", IllegalReason.DEAD_DROP),
    ("4k4/9/9/9/9/9/4P4/9/4K4 b P 1", "P*5e", IllegalReason.NIFU),
    ("4k4/9/9/9/9/9/4P4/9/4K4 b P 1", "5i5h", None),
    ("k3G4/4P4/9/9/9/9/9/9/4K4 b - 1", "5b5a", IllegalReason.OWN_PIECE_ON_TARGET),
    ("3k5/4P4/9/9/9/9/9/9/4K4 b - 1", "5b5a", IllegalReason.MUST_PROMOTE),
    ("4k4/9/9/9/9/9/9/4P4/4K4 b - 1", "5h5g+", IllegalReason.CANNOT_PROMOTE),
    ("4k4/9/9/9/9/9/9/4G4/4K4 b - 1", "5h5g+", IllegalReason.CANNOT_PROMOTE),
    ("4k4/9/9/9/9/9/9/4r4/4K4 b - 1", "5i4h", IllegalReason.SELF_CHECK),
    ("4k4/9/9/9/9/9/4r4/4S4/4K4 b - 1", "5h4g", IllegalReason.SELF_CHECK),
    # 打ち歩詰: the king on 1a has no escape from a pawn on 1b backed by the gold.
    ("7nk/9/7G1/9/9/9/9/9/4K4 b P 1", "P*1b", IllegalReason.PAWN_DROP_MATE),
    ("7nk/9/7G1/9/9/9/9/9/4K4 b P 1", "G*1b", IllegalReason.NOT_IN_HAND),
])
def test_named_reasons(sfen: str, text: str, reason: IllegalReason | None) -> None:
    assert illegal_reason(Position.from_sfen(sfen), mv(text)) is reason


def test_promotion_choices() -> None:
    pos = Position.from_sfen("4k4/9/9/9/9/4S4/9/9/4K4 b - 1")
    assert promotion_choices(pos, mv("5f5e").from_square or 0, mv("5f5e").to_square) == [False]
    pos = Position.from_sfen("4k4/9/9/4S4/9/9/9/9/4K4 b - 1")
    assert promotion_choices(pos, mv("5d5c").from_square or 0, mv("5d5c").to_square) == [True, False]
    pos = Position.from_sfen("3k5/4P4/9/9/9/9/9/9/4K4 b - 1")
    assert promotion_choices(pos, mv("5b5a").from_square or 0, mv("5b5a").to_square) == [True]


# ---- the tree -----------------------------------------------------------------

def _tree() -> StudyTree:
    return StudyTree(Record(start=Position.from_sfen(MATE3)))


def test_play_reuses_a_move_and_adds_variations_after_the_others() -> None:
    tree = _tree()
    assert tree.play(mv("N*3c"))
    assert tree.play(mv("2a3a"))
    assert tree.back()
    assert not tree.play(mv("2a3a"))          # the same move: no new node
    assert tree.path() == (0, 0)
    tree.back()
    assert tree.play(mv("2a1a"))              # a variation after the existing one
    assert tree.path() == (0, 1)
    assert [c.move for c in tree.node((0,)).children] == [mv("2a3a"), mv("2a1a")]
    assert tree.position().sfen() == tree.position(tree.path()).sfen()
    assert tree.last_move() == mv("2a1a")
    assert tree.japanese() == ["▲３三桂打", "△１一玉"]


def test_illegal_play_is_refused_with_its_reason() -> None:
    tree = _tree()
    with pytest.raises(StudyMoveError) as info:
        tree.play(mv("G*2b"))
    assert info.value.reason is IllegalReason.NOT_IN_HAND
    assert tree.path() == () and not tree.record.root.children


def test_stepping_stays_in_a_variation_and_switches_with_siblings() -> None:
    tree = _tree()
    for text in ("N*3c", "2a3a", "S*2b"):
        tree.play(mv(text))
    tree.go_start()
    tree.go_to((0,))
    tree.play(mv("2a1a"))
    tree.play(mv("S*1b"))
    assert tree.path() == (0, 1, 0)
    tree.go_start()
    assert tree.forward() and tree.forward() and tree.forward()
    assert tree.path() == (0, 1, 0)          # forward again stays in the variation
    assert not tree.forward()
    tree.back()
    assert tree.variations() == [0, 1]
    assert tree.switch(-1) and tree.path() == (0, 0)
    assert not tree.switch(-1)
    tree.go_end()
    assert tree.path() == (0, 0, 0)
    tree.go_ply(1)
    assert tree.path() == (0,)
    tree.go_end()
    assert tree.path() == (0, 0, 0)
    with pytest.raises(IndexError):
        tree.go_to((0, 5))


def test_promote_and_delete() -> None:
    tree = _tree()
    tree.play(mv("N*3c"))
    tree.play(mv("2a3a"))
    tree.back()
    tree.play(mv("2a1a"))
    tree.play(mv("S*1b"))
    assert tree.promote()
    assert tree.path() == (0, 0, 0)
    assert tree.record.main_line() == [mv("N*3c"), mv("2a1a"), mv("S*1b")]
    assert not tree.promote()
    tree.back()
    assert tree.delete()
    assert tree.path() == (0,)
    assert [c.move for c in tree.node().children] == [mv("2a3a")]
    tree.go_start()
    assert not tree.delete()


def test_comments_at_the_cursor() -> None:
    tree = _tree()
    tree.set_comment("start")
    tree.play(mv("N*3c"))
    assert tree.comment() == ""
    assert tree.set_comment("a knight\nfirst")
    assert not tree.set_comment("a knight\nfirst")
    tree.go_start()
    assert tree.comment() == "start"
    assert tree.set_comment("  ")
    assert tree.record.root.comments == []


def test_merge_keeps_user_lines_and_adds_the_answer() -> None:
    tree = _tree()
    tree.play(mv("N*3c"))
    tree.play(mv("2a1a"))                    # the user's try first
    tree.set_comment("mine")
    answer = record_from_line(MATE3, ("N*3c", "2a3a", "S*2b"))
    answer.root.children[0].comments.append("answer")
    added = tree.merge(answer)
    root = tree.record.root
    assert [c.move for c in root.children] == [mv("N*3c")]
    knight = root.children[0]
    assert [c.move for c in knight.children] == [mv("2a1a"), mv("2a3a")]
    assert knight.comments == ["answer"] and knight.children[0].comments == ["mine"]
    assert added == 3                          # 2a3a, S*2b and 詰み
    assert tree.merge(answer) == 0             # merging again changes nothing
    with pytest.raises(ValueError):
        merge_record(tree.record, Record(start=Position.from_sfen(STARTING_SFEN)))


def test_rows_of_a_kif_with_variations_and_comments_round_trip() -> None:
    text = (DATA / "records" / "example3.kifu").read_text(encoding="utf-8")
    record = read_record(str(DATA / "records" / "example3.kifu"))
    tree = StudyTree(record)
    rows = line_rows(tree)
    assert [r.text for r in rows[1:]] == ["▲３三桂打", "△３一玉", "▲２二銀打"]
    assert [r.branched for r in rows] == [False, False, True, False]
    assert terminal(tree) == "詰み"
    tree.go_ply(2)
    assert tree.switch(1)
    assert [r.text for r in line_rows(tree)[1:]] == ["▲３三桂打", "△１一玉", "▲１二銀打"]
    assert "１一玉にも" in tree.comment()
    assert to_kif(parse_kif(text)) == to_kif(record)
    tree.go_start()
    assert tree.comment() == "初形へのコメント"
    assert isinstance(tree.record.root, RecordNode)


def test_helpmate_solutions_become_variations_and_notes() -> None:
    from tsume_studio.core.answer import proved_length, record_from_helpmate
    from tsume_studio.core.search.contract import SolveResult, SolveStatus
    from tsume_studio.core.search.proof import HelpmateAnswer

    sfen = "9/9/9/3bkb3/9/3+R1+R3/9/9/9 b 4g4s4n4l18p 1"
    one = ("4f4d", "5d6c", "4d3c", "6c5d", "B*6c")
    two = ("6f6d", "5d4c", "6d7c", "4c5d", "B*4c")
    record = record_from_helpmate(HelpmateAnswer(sfen, 5, (one, two), complete=True))
    assert record.header["手数"] == "5" and not record.root.comments
    assert [c.move.usi() for c in record.root.children if c.move] == ["4f4d", "6f6d"]
    assert record.main_line() == [Move.from_usi(u) for u in one]
    unchecked = record_from_helpmate(HelpmateAnswer(sfen, 5, (one,), complete=False, checked=False),
                                     {"手数": "7"})
    assert unchecked.header["手数"] == "7" and "未検討" in unchecked.root.comments[0]
    capped = record_from_helpmate(HelpmateAnswer(sfen, 5, (one, two), complete=False, capped=True))
    assert "2通り以上" in capped.root.comments[0]
    answer = HelpmateAnswer(sfen, 5, (one, two), complete=True, exact=False)
    assert proved_length(SolveResult(SolveStatus.MATE, sfen, pv=one, length=5, proof=answer)) is None
    assert proved_length(SolveResult(SolveStatus.MATE, sfen, pv=one, length=5, proof=answer,
                                     extra={"exact": True})) == 5
    assert proved_length(SolveResult(SolveStatus.NO_MATE, sfen)) is None

"""core.answer's names for what an answer holds: 余詰 or 成不成非限定, 変同, 駒余り, and the 無駄合 in order."""

from __future__ import annotations

import pytest

from tsume_studio.core.answer import (
    Finding, branch_of, classify_alternatives, classify_variations, ordered_futile, promotion_twins, record_from_proof,
)
from tsume_studio.core.records.kif import to_kif
from tsume_studio.core.search.proof import (
    Alternative, FutileInterposition, FutileReason, Futility, Proof, ProofNode, Role,
)

# Every test here runs on both df-pn engines (the official answer asks either's table).
pytestmark = pytest.mark.usefixtures("engine")

# 2一玉, 5二飛; the attacker holds 銀桂 (▲3三桂打 △3一玉 ▲2二銀打, or △1一玉 ▲1二銀打).
EXAMPLE = "7k1/4R4/9/9/9/9/9/9/9 b SNr2b4g3s3n4l18p 1"
# The same with a pawn more in the attacker's hand: every line ends with it left over.
EXTRA_PAWN = "7k1/4R4/9/9/9/9/9/9/9 b SNPr2b4g3s3n4l17p 1"


def _tree(defence_length: int = 1) -> ProofNode:
    leaf = lambda usi, role: ProofNode(usi, role, length=0)  # noqa: E731
    return ProofNode(None, Role.MAIN, children=(
        ProofNode("N*3c", Role.MAIN, length=2, children=(
            ProofNode("2a3a", Role.MAIN, length=1, children=(leaf("S*2b", Role.MAIN),)),
            ProofNode("2a1a", Role.VARIATION, length=defence_length, children=(leaf("S*1b", Role.VARIATION),)),
        )),))


def test_promotion_twins() -> None:
    assert promotion_twins("3a1a", "3a1a+") and promotion_twins("3a1a+", "3a1a")
    assert not promotion_twins("3a1a", "3a1a") and not promotion_twins("3a1a", "3a2a+")
    assert not promotion_twins("P*1a", "P*1a")


def test_the_main_move_with_the_other_promotion_is_not_an_alternative_mate() -> None:
    line = ("5b5a+", "2a2b", "5a4a", "2b2c", "4a4b")
    proof = Proof(EXAMPLE, ProofNode(None, Role.MAIN), line, 5,
                  alternatives=(Alternative(("5b5a+", "2a2b"), "5a3a", 3),   # another move: 余詰
                                Alternative((), "5b5a", 5),                     # 不成 beside 成: 成不成非限定
                                Alternative((), "5b5a", 5),                     # repeated: listed once
                                Alternative((), "5b4b+", 5)))
    found = classify_alternatives(proof)
    assert found == (Finding("promotion_choice", (), "5b5a", 5), Finding("alternative", (), "5b4b+", 5),
                     Finding("alternative", ("5b5a+", "2a2b"), "5a3a", 3))
    assert [f.japanese() for f in found] == ["成不成非限定", "余詰", "余詰"]


def test_a_defence_as_long_as_the_main_lines_is_hendou_or_pieces_left() -> None:
    proof = Proof(EXAMPLE, _tree(), ("N*3c", "2a3a", "S*2b"), 3, exact=True)
    assert classify_variations(proof) == (Finding("same_length", ("N*3c",), "2a1a", 1),)
    # Shorter defences are ordinary variations.
    assert classify_variations(Proof(EXAMPLE, _tree(defence_length=0), ("N*3c", "2a3a", "S*2b"), 3)) == ()
    # With a pawn left in hand, the equal defence is 駒余り, not 変同, and so is the main line.
    extra = Proof(EXTRA_PAWN, _tree(), ("N*3c", "2a3a", "S*2b"), 3, exact=True)
    assert classify_variations(extra) == (Finding("pieces_left", ("N*3c",), "2a1a", 1),
                                          Finding("pieces_left", ("N*3c", "2a3a"), "S*2b", 0))
    text = to_kif(record_from_proof(extra))
    assert "*駒余り（本譜と同手数）" in text and "*駒余り（詰め上がりで攻方の持駒が余る）" in text
    assert "変同" not in text


def test_futile_interpositions_in_ply_order_once_each_with_their_branch() -> None:
    deep_variation = FutileInterposition(("N*3c", "2a1a"), "P*1b", Futility(FutileReason.DISTANCE_RULE), ("P*1b",))
    deep_main = FutileInterposition(("N*3c", "2a3a"), "P*2b", Futility(FutileReason.DISTANCE_RULE), ("P*2b",))
    shallow = FutileInterposition(("N*3c",), "G*2b", Futility(FutileReason.CAPTURED_RETURNED, 1), ("G*2b", "S*2b"))
    proof = Proof(EXAMPLE, _tree(), ("N*3c", "2a3a", "S*2b"), 3,
                  futile=(deep_variation, shallow, deep_main, deep_variation,
                          FutileInterposition(("N*3c",), "S*2b", shallow.reason, ("S*2b", "G*2b"))))
    assert ordered_futile(proof) == (shallow, deep_main, deep_variation)
    assert branch_of(proof, deep_main.path) is None
    assert branch_of(proof, deep_variation.path) == (2, "2a1a")


def test_with_comments_keeps_the_users_comments_on_shared_moves() -> None:
    from tsume_studio.core.records.model import Record, RecordNode
    from tsume_studio.core.shogi.moves import Move
    from tsume_studio.core.shogi.position import Position

    solution = record_from_proof(Proof(EXAMPLE, _tree(defence_length=0), ("N*3c", "2a3a", "S*2b"), 3))
    own = Record(start=Position.from_sfen(EXAMPLE), root=RecordNode(comments=["初形"], children=[
        RecordNode(move=Move.from_usi("N*3c"), comments=["好手"]),
        RecordNode(move=Move.from_usi("5b5a+"), comments=["not in the answer"])]))
    from tsume_studio.core.answer import with_comments
    out = with_comments(solution, own)
    assert out.root.comments[0] == "初形" and out.root.children[0].comments[0] == "好手"
    assert "not in the answer" not in to_kif(out)
    other = Record(start=Position.from_sfen(EXTRA_PAWN), root=RecordNode(comments=["x"]))
    assert "x" not in with_comments(solution, other).root.comments

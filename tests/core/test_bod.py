"""BOD board diagrams: exact writer, tolerant reader, errors with line numbers."""

from __future__ import annotations

import pytest

from tsume_studio.core.shogi.bod import parse_bod, parse_hand
from tsume_studio.core.shogi.diagram import format_hand, kanji_number, to_bod
from tsume_studio.core.shogi.position import BodError, Position

from conftest import DATA

EXAMPLE_SFEN = "7k1/4R4/9/9/9/9/9/9/9 b SNr2b4g3s3n4l18p 1"
EXAMPLE_BOD = """\
後手の持駒：飛　角二　金四　銀三　桂三　香四　歩十八\u3000
  ９ ８ ７ ６ ５ ４ ３ ２ １
+---------------------------+
| ・ ・ ・ ・ ・ ・ ・v玉 ・|一
| ・ ・ ・ ・ 飛 ・ ・ ・ ・|二
| ・ ・ ・ ・ ・ ・ ・ ・ ・|三
| ・ ・ ・ ・ ・ ・ ・ ・ ・|四
| ・ ・ ・ ・ ・ ・ ・ ・ ・|五
| ・ ・ ・ ・ ・ ・ ・ ・ ・|六
| ・ ・ ・ ・ ・ ・ ・ ・ ・|七
| ・ ・ ・ ・ ・ ・ ・ ・ ・|八
| ・ ・ ・ ・ ・ ・ ・ ・ ・|九
+---------------------------+
先手の持駒：銀　桂\u3000
先手番
"""


def _tsume_sfens(limit: int = 300) -> list[str]:
    rows = (DATA / "mate.tsv").read_text(encoding="utf-8").splitlines()[1:]
    return [r.split("\t")[1] for r in rows[:limit]]


def test_writes_the_kif_md_example_exactly() -> None:
    assert to_bod(Position.from_sfen(EXAMPLE_SFEN)) == EXAMPLE_BOD
    assert Position.from_sfen(EXAMPLE_SFEN).bod() == EXAMPLE_BOD


def test_reads_the_kif_md_example() -> None:
    assert parse_bod(EXAMPLE_BOD).sfen() == EXAMPLE_SFEN
    assert parse_bod(EXAMPLE_BOD) == Position.from_sfen(EXAMPLE_SFEN)


def test_round_trip_on_problem_positions() -> None:
    sfens = _tsume_sfens()
    assert len(sfens) >= 100
    for sfen in sfens:
        pos = Position.from_sfen(sfen)
        assert parse_bod(pos.bod()) == pos, sfen


def test_promoted_pieces_white_to_move_and_empty_hands() -> None:
    sfen = "+R+B+S+N+L+P2k/9/9/9/9/9/9/9/K+r+b+s+n+l+p2 w - 1"
    text = Position.from_sfen(sfen).bod()
    assert "| 龍 馬 全 圭 杏 と ・ ・v玉|一" in text
    assert "| 玉v龍v馬v全v圭v杏vと ・ ・|九" in text
    assert "後手の持駒：なし\n" in text and "先手の持駒：なし\n" in text
    assert text.endswith("後手番\n")
    assert parse_bod(text).sfen() == sfen


@pytest.mark.parametrize("variant", [
    lambda t: t.replace("v玉", "v王"),                         # 王
    lambda t: t.replace("銀　桂　", "銀 桂"),                    # half-width separators
    lambda t: t.replace("銀　桂　", "銀桂"),                     # no separator (#572)
    lambda t: t.replace("先手の持駒：銀　桂　", "先手の持駒:桂　銀"),  # ':' and any order
    lambda t: t.replace("先手番\n", ""),                        # missing side line = 先手
    lambda t: t + "手数＝1  ▲３三桂打  まで\n",                 # tsshogi exportBOD trailer
    lambda t: "# from a blog\n\n" + t.replace("\n", "\r\n"),    # comment, blank line, CRLF
    lambda t: "\ufeff先手：名人\n" + t,                         # BOM and a header line
    lambda t: t.replace("飛　角二　金四　銀三　桂三　香四　歩十八　", "歩十八角2飛金４銀三桂三香四"),
])
def test_tolerated_variants(variant) -> None:  # type: ignore[no-untyped-def]
    assert parse_bod(variant(EXAMPLE_BOD)).sfen() == EXAMPLE_SFEN


def test_dragon_alternative_and_gote_side_line() -> None:
    text = EXAMPLE_BOD.replace(" 飛 ・ ・ ・ ・|二", " 竜 ・ ・ ・ ・|二").replace("先手番", "後手番")
    pos = parse_bod(text)
    assert pos.sfen() == "7k1/4+R4/9/9/9/9/9/9/9 w SNr2b4g3s3n4l18p 1"
    assert parse_bod(EXAMPLE_BOD.replace("先手番", "上手番")).turn == 1


def test_hands() -> None:
    assert parse_hand("なし") == (0,) * 7
    assert parse_hand("") == (0,) * 7
    assert parse_hand("歩十八　香四") == (18, 4, 0, 0, 0, 0, 0)
    assert format_hand((18, 4, 3, 3, 4, 2, 1)) == "飛　角二　金四　銀三　桂三　香四　歩十八　"
    assert format_hand((0,) * 7) == "なし"
    assert [kanji_number(n) for n in (1, 2, 10, 11, 18)] == ["一", "二", "十", "十一", "十八"]


@pytest.mark.parametrize("mutate, match", [
    (lambda t: t.replace("v玉", "x玉"), r"line 4: bad cell 'x玉'"),
    (lambda t: t.replace("v玉", "v鬼"), r"line 4: bad cell 'v鬼'"),
    (lambda t: t.replace("| ・ ・ ・ ・ 飛 ・ ・ ・ ・|二", "| ・ ・ ・ ・ 飛 ・ ・ ・|二"),
     r"line 5: a rank row needs 9 cells .*'\| ・ ・ ・ ・ 飛 ・ ・ ・\|二'"),
    (lambda t: t.replace("|三\n", "|五\n", 1), r"line 6: rank row 3 is marked '五'"),
    (lambda t: t.replace("| ・ ・ ・ ・ ・ ・ ・ ・ ・|九\n", ""), r"line 12: the board has 8 rank rows"),
    (lambda t: t.replace("先手の持駒：銀　桂　", "先手の持駒：銀　犬"), r"line 14: not a piece in hand: '犬'"),
    (lambda t: t.replace("歩十八", "歩十九"), r"line 1: .*"),
    (lambda t: t.replace("先手番", "よろしく"), r"line 15: not part of a board diagram: 'よろしく'"),
    (lambda t: "\n".join(t.splitlines()[:3]), r"incomplete board diagram: 0 of 9 rank rows"),
    (lambda t: "hello", r"line 1: not part of a board diagram: 'hello'"),
    (lambda t: "", r"no board diagram found"),
])
def test_errors_name_the_line_and_quote_the_text(mutate, match) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(BodError, match=match):
        parse_bod(mutate(EXAMPLE_BOD))


def test_too_many_pieces_in_hand_is_a_bod_error() -> None:
    with pytest.raises(BodError, match="line 14: 先手 holds 20 歩, at most 18 exist"):
        parse_bod(EXAMPLE_BOD.replace("先手の持駒：銀　桂　", "先手の持駒：歩十八　歩二"))

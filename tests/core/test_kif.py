"""KIF: the kif.md golden file byte for byte, proof trees as variations, the reader's checklist."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import cshogi
import pytest

from tsume_studio.core.records.kif import KifError, parse_kif, to_kif
from tsume_studio.core.shogi.moves import Move
from tsume_studio.core.shogi.position import Position
from tsume_studio.core.search.proof import (
    Alternative, FutileInterposition, FutileReason, Futility, Proof, ProofNode, Role,
)
from tsume_studio.core.answer import alternatives_unchecked_english, alternatives_unchecked_japanese, record_from_proof
from tsume_studio.core.records.model import Record, RecordNode
from tsume_studio.core.records.formats import read_record, write_record

from conftest import DATA

GOLDEN = DATA / "records" / "example3.kifu"
EXAMPLE_SFEN = "7k1/4R4/9/9/9/9/9/9/9 b SNr2b4g3s3n4l18p 1"


def golden_text() -> str:
    return GOLDEN.read_bytes().decode("utf-8").replace("\r\n", "\n")


def tree(record: Record) -> list:
    """The move tree as nested (usi or special, comments, children) tuples."""
    def walk(node: RecordNode) -> tuple:
        label = node.special if node.move is None else node.move.usi()
        return (label, tuple(node.comments), tuple(walk(c) for c in node.children))
    return [walk(record.root)]


def chain(parent: RecordNode, pos: Position, usis: list[str], special: str | None = None) -> RecordNode:
    """Append a line of USI moves under ``parent`` (played from ``pos``, which is restored)."""
    node, played = parent, 0
    for usi in usis:
        mv = Move.from_usi(usi)
        child = RecordNode(move=mv)
        node.children.append(child)
        node = child
        pos.push(mv)
        played += 1
    for _ in range(played):
        pos.pop()
    if special:
        node.children.append(RecordNode(special=special))
    return node


def example_record() -> Record:
    """The kif.md section 10 record, built by hand."""
    start = Position.from_sfen(EXAMPLE_SFEN)
    rec = Record(start=start, header={"作品名": "例題 3手詰", "作者": "（作者名）", "手数": "3"},
                 preamble=[" ---- 詰将棋解答 (例) ----"])
    rec.root.comments.append("初形へのコメント")
    chain(rec.root, start.copy(), ["N*3c", "2a3a", "S*2b"], "詰み")
    n1 = rec.root.children[0]
    pos = start.copy()
    pos.push(Move.from_usi("N*3c"))
    alt = chain(n1, pos, ["2a1a"])
    alt.comments.append("変化：１一玉にも１二銀打まで")
    chain(alt, _after(start, ["N*3c", "2a1a"]), ["S*1b"], "詰み")
    return rec


def _after(start: Position, usis: list[str]) -> Position:
    pos = start.copy()
    for u in usis:
        pos.push(Move.from_usi(u))
    return pos


# ---- golden --------------------------------------------------------------

def test_hand_built_record_writes_the_golden_file_byte_for_byte(tmp_path: Path) -> None:
    out = tmp_path / "example.kifu"
    write_record(out, example_record())
    assert out.read_bytes() == GOLDEN.read_bytes()
    assert not out.read_bytes().startswith(b"\xef\xbb\xbf")


def test_golden_file_reads_to_the_documented_tree() -> None:
    rec = read_record(GOLDEN)
    assert rec.start.sfen() == EXAMPLE_SFEN
    assert rec.header == {"作品名": "例題 3手詰", "作者": "（作者名）", "手数": "3", "先手": "", "後手": ""}
    assert rec.preamble == [" ---- 詰将棋解答 (例) ----"]
    assert tree(rec) == tree(example_record())
    assert [m.usi() for m in rec.main_line()] == ["N*3c", "2a3a", "S*2b"]


def test_golden_round_trip_and_cp932(tmp_path: Path) -> None:
    rec = read_record(GOLDEN)
    assert to_kif(rec) == golden_text()
    out = tmp_path / "example.kif"
    write_record(out, rec)
    assert out.read_bytes() == golden_text().replace("\n", "\r\n").encode("cp932")
    assert tree(read_record(out)) == tree(rec)


# ---- from a proof ----------------------------------------------------------

def test_proof_tree_becomes_main_line_and_variation() -> None:
    leaf = lambda usi, role: ProofNode(usi, role, length=0)  # noqa: E731
    root = ProofNode(None, Role.MAIN, children=(
        ProofNode("N*3c", Role.MAIN, length=2, children=(
            ProofNode("2a3a", Role.MAIN, length=1, children=(leaf("S*2b", Role.MAIN),)),
            ProofNode("2a1a", Role.VARIATION, length=1, children=(leaf("S*1b", Role.VARIATION),)),
        )),))
    proof = Proof(EXAMPLE_SFEN, root, ("N*3c", "2a3a", "S*2b"), 3, variations=1, exact=True)
    rec = record_from_proof(proof, {"作品名": "例題 3手詰", "作者": "（作者名）"})
    # The defence △1一玉 lasts as long as the main line's and leaves nothing in hand: 変同.
    assert rec.root.children[0].children[1].comments == ["変同（本譜と同手数）"]
    expected = "\n".join(line for line in golden_text().split("\n")
                         if not line.startswith(("#", "*")))
    assert "\n".join(line for line in to_kif(rec).split("\n") if not line.startswith("*")) == expected


FUTILE_SFEN = "8k/9/6NG1/9/9/9/9/9/9 b Rr2b3g4s3n4l18p 1"


def test_futile_interpositions_are_comments_and_alternatives_are_variations() -> None:
    root = ProofNode(None, Role.MAIN, children=(
        ProofNode("R*5a", Role.MAIN, length=0, children=(
            ProofNode("P*2a", Role.FUTILE, comment="captured by the knight"),
            ProofNode("G*2a", Role.FUTILE, comment="captured by the knight"),
            ProofNode("L*3a", Role.FUTILE))),
        ProofNode("R*4a", Role.ALTERNATIVE, length=0),
    ))
    proof = Proof(FUTILE_SFEN, root, ("R*5a",), 1,
                  futile=(FutileInterposition(("R*5a",), "P*3a", Futility(FutileReason.CAPTURED_RETURNED, 1),
                                              ("P*3a", "L*3a", "N*3a")),
                          FutileInterposition(("R*5a",), "G*4a", Futility(FutileReason.DISTANCE_RULE))),
                  alternatives=(Alternative((), "R*6a", 1),))
    rec = record_from_proof(proof)
    assert rec.header == {"手数": "1"}
    text = to_kif(rec)
    moves = text.split("手数----指手---------消費時間--\n")[1]
    assert moves == (
        "   1 ５一飛打     ( 0:00/00:00:00)+\n"
        "*無駄合：△２一合（歩・金）（captured by the knight）\n"
        "*無駄合：△３一合（歩・香・桂）（取って返しても1手詰）\n"
        "*無駄合：△４一金打（遠い合駒の省略）\n"
        "   2 詰み         ( 0:00/00:00:00)\n"
        "まで1手で詰み\n"
        "\n"
        "変化：1手\n"
        "   1 ４一飛打     ( 0:00/00:00:00)+\n"
        "*余詰：1手で詰み\n"
        "   2 詰み         ( 0:00/00:00:00)\n"
        "\n"
        "変化：1手\n"
        "   1 ６一飛打     ( 0:00/00:00:00)\n"
        "*余詰：1手以内で詰み\n")
    back = parse_kif(text)
    assert tree(back) == tree(rec)


def test_proof_with_only_a_main_line() -> None:
    proof = Proof(EXAMPLE_SFEN, ProofNode(None, Role.MAIN), ("N*3c", "2a3a", "S*2b"), 3)
    rec = record_from_proof(proof)
    assert [m.usi() for m in rec.main_line()] == ["N*3c", "2a3a", "S*2b"]
    assert rec.root.children[0].children[0].children[0].children[0].special == "詰み"


def test_unchecked_alternatives_are_noted_before_the_moves() -> None:
    proof = Proof(EXAMPLE_SFEN, ProofNode(None, Role.MAIN), ("N*3c", "2a3a", "S*2b"), 3,
                  exact=True, alternatives_checked=False)
    text = to_kif(record_from_proof(proof))
    before, moves = text.split("手数----指手---------消費時間--\n")
    assert "*余詰は未検討（探索の時間切れ）" in before + moves.split("\n")[0]
    again = parse_kif(text)
    assert "余詰は未検討（探索の時間切れ）" in again.root.comments
    assert "余詰" not in to_kif(record_from_proof(
        Proof(EXAMPLE_SFEN, ProofNode(None, Role.MAIN), ("N*3c", "2a3a", "S*2b"), 3)))


def test_a_cut_short_alternatives_search_says_how_far_it_went() -> None:
    proof = Proof(EXAMPLE_SFEN, ProofNode(None, Role.MAIN), ("N*3c", "2a3a", "S*2b"), 3,
                  exact=True, alternatives_checked=False, alternatives_checked_to=1)
    comments = parse_kif(to_kif(record_from_proof(proof))).root.comments
    assert "余詰は1手目まで検討（以降は探索の時間切れで未検討）" in comments
    assert alternatives_unchecked_english(proof) == (
        "余詰: checked up to ply 1 of 3 (the search for alternative mates ran out of time after that)")
    none = replace(proof, alternatives_checked_to=0)
    assert alternatives_unchecked_english(none) == (
        "余詰: not checked (the search for alternative mates ran out of time)")
    assert alternatives_unchecked_japanese(none) == "余詰は未検討（探索の時間切れ）"


def test_illegal_proof_move_is_a_value_error() -> None:
    proof = Proof(EXAMPLE_SFEN, ProofNode(None, Role.MAIN, children=(ProofNode("G*3c", Role.MAIN),)), ("G*3c",), 1)
    with pytest.raises(ValueError, match="illegal move 'G\\*3c'"):
        record_from_proof(proof)


# ---- branches ----------------------------------------------------------------

def _moves(pos: Position, n: int, pick: int) -> list[str]:
    """``n`` legal moves from ``pos``, choosing deterministically by ``pick``."""
    out = []
    b = cshogi.Board(pos.sfen())
    for i in range(n):
        legal = sorted(cshogi.move_to_usi(m) for m in b.legal_moves)
        u = legal[(pick * 7 + i * 13) % len(legal)]
        out.append(u)
        b.push_usi(u)
    return out


def test_variations_come_deepest_first_like_kifu_for_windows() -> None:
    start = Position.start()
    rec = Record(start=start)
    main = _moves(start, 10, 0)
    chain(rec.root, start.copy(), main)

    def node_at(line: list[str]) -> tuple[RecordNode, Position]:
        node, pos = rec.root, start.copy()
        for u in line:
            node = next(c for c in node.children if c.move and c.move.usi() == u)
            pos.push(Move.from_usi(u))
        return node, pos

    def branch(prefix: list[str], length: int, pick: int) -> list[str]:
        parent, pos = node_at(prefix)
        line = [u for u in _moves(pos, length, pick)]
        if any(c.move and c.move.usi() == line[0] for c in parent.children):
            line = _moves(pos, length, pick + 1)
        chain(parent, pos, line)
        return prefix + line

    branch(main[:8], 2, 1)                  # 変化 9手
    b6 = branch(main[:5], 5, 2)             # 変化 6手 ...
    branch(b6[:8], 2, 3)                    # ... with its own 9手
    branch(main[:5], 3, 4)                  # a second 6手
    b1 = branch([], 8, 5)                   # 変化 1手 ...
    branch(b1[:6], 2, 6)                    # ... with its own 7手
    text = to_kif(rec)
    heads = [line for line in text.split("\n") if line.startswith("変化")]
    assert heads == ["変化：9手", "変化：6手", "変化：9手", "変化：6手", "変化：1手", "変化：7手"]
    plus = [line.split()[0] for line in text.split("\n") if line.endswith("+")]
    assert plus == ["1", "6", "9", "6", "9", "7"]
    assert "手合割：平手" in text and "|" not in text
    assert tree(parse_kif(text)) == tree(rec)


# ---- reader tolerance (docs/kif.md section 9) ----------------------------------

TOLERATED = {
    "bom and #KIF": lambda t: "\ufeff#KIF version=2.0 encoding=UTF-8\n" + t,
    "ascii colon": lambda t: t.replace("作者：", "作者:").replace("後手の持駒：", "後手の持駒:"),
    "手合割 with BOD": lambda t: t.replace("手数：3\n", "手数：3\n手合割：平手\n"),
    "unknown 手合割": lambda t: t.replace("手数：3\n", "手数：3\n手合割：詰将棋\n"),
    "half-width hands": lambda t: t.replace("銀　桂　", "銀 桂"),
    "no-separator hands": lambda t: t.replace("銀　桂　", "銀桂"),
    "王": lambda t: t.replace("v玉", "v王").replace("３一玉(21)", "３一王(21)"),
    "no time": lambda t: t.replace("( 0:00/00:00:00)", ""),
    "two times": lambda t: t.replace("( 0:00/00:00:00)", "( 0:00/00:00:00) ( 0:00/00:00:00)"),
    "no plus": lambda t: t.replace(")+\n", ")\n"),
    "stray 変化 in header": lambda t: t.replace("作者：", "変化：3手\n作者："),
    "half-width destination": lambda t: t.replace("３三桂打", "3三桂打"),
    "fake drop origin": lambda t: t.replace("３三桂打    ", "３三桂打(00)"),
    "CR line ends": lambda t: t.replace("\n", "\r"),
    "CRLF line ends": lambda t: t.replace("\n", "\r\n"),
    "bookmark": lambda t: t.replace("   3 ２二銀打", "&しおり\n   3 ２二銀打"),
    "no move-list header": lambda t: t.replace("手数----指手---------消費時間--\n", ""),
}


@pytest.mark.parametrize("name", sorted(TOLERATED))
def test_tolerated(name: str) -> None:
    rec = parse_kif(TOLERATED[name](golden_text()))
    assert rec.start.sfen() == EXAMPLE_SFEN
    assert [m.usi() for m in rec.main_line()] == ["N*3c", "2a3a", "S*2b"]
    alt = rec.root.children[0].children[1]
    assert alt.move is not None and alt.move.usi() == "2a1a"
    assert alt.children[0].move == Move.from_usi("S*1b")


def test_star_header_lines_are_start_comments() -> None:
    rec = parse_kif(golden_text().replace("作者：", "*出題：ある雑誌\n作者："))
    assert rec.root.comments == ["出題：ある雑誌", "初形へのコメント"]


SAME_AND_PROMOTED = """\
手合割：平手
手数----指手---------消費時間--
   1 ７六歩(77)
   2 ３四歩(33)
   3 ２二角不成(88)
   4 同銀(31)
   5 ４五角打
   6 ５四歩(53)
   7 同　　　角(45)
"""


def test_same_with_any_spacing_and_not_promoting() -> None:
    rec = parse_kif(SAME_AND_PROMOTED)
    assert [m.usi() for m in rec.main_line()] == ["7g7f", "3c3d", "8h2b", "3a2b", "B*4e", "5c5d", "4e5d"]
    text = to_kif(rec)
    assert "   3 ２二角(88)   ( 0:00/00:00:00)\n   4 同　銀(31)   ( 0:00/00:00:00)\n" in text
    assert "   7 同　角(45)   ( 0:00/00:00:00)\n" in text and "不成" not in text


def test_promoted_piece_names_and_dragon() -> None:
    text = """\
後手の持駒：なし
  ９ ８ ７ ６ ５ ４ ３ ２ １
+---------------------------+
| ・ ・ ・ ・ ・ ・ ・ ・v王|一
| ・ ・ ・ ・ ・ ・ ・ ・ ・|二
| ・ ・ ・ ・ ・ ・ ・ ・ ・|三
| ・ ・ ・ ・ ・ ・ ・ ・ ・|四
| ・ ・ ・ ・ 全 圭 杏 ・ ・|五
| ・ ・ ・ ・ ・ ・ ・ ・ ・|六
| ・ ・ ・ ・ ・ ・ ・ ・ ・|七
| ・ ・ ・ ・ ・ ・ ・ ・ ・|八
| 竜 ・ ・ ・ 玉 ・ ・ ・ ・|九
+---------------------------+
先手の持駒：なし
   1 ５四全(55)
   2 ２一王(11)
   3 ４四成桂(45)
   4 １一玉(21)
   5 ３四杏(35)
   6 ２一玉(11)
   7 ９二竜(99)
"""
    rec = parse_kif(text)
    assert [m.usi() for m in rec.main_line()] == ["5e5d", "1a2a", "4e4d", "2a1a", "3e3d", "1a2a", "9i9b"]
    assert "   7 ９二龍(99)   ( 0:00/00:00:00)" in to_kif(rec)
    assert "   3 ４四成桂(45) ( 0:00/00:00:00)" in to_kif(rec)


def test_handicap_start_and_writer() -> None:
    rec = parse_kif("手合割：香落ち\n   1 ５二玉(51)\n")
    assert rec.start.sfen() == "lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"
    assert "手合割：香落ち\n" in to_kif(rec)
    assert parse_kif("   1 ７六歩(77)\n").start == Position.start()


def test_comments_several_lines_round_trip() -> None:
    rec = read_record(GOLDEN)
    rec.root.children[0].comments = ["一行目\n二行目", "三行目"]
    text = to_kif(rec)
    assert "   1 ３三桂打     ( 0:00/00:00:00)\n*一行目\n*二行目\n*三行目\n" in text
    assert rec and parse_kif(text).root.children[0].comments == ["一行目", "二行目", "三行目"]


def test_other_terminals_and_summaries() -> None:
    start = Position.start()
    rec = Record(start=start, header={"先手": "A", "後手": "B", "棋戦": "練習"})
    chain(rec.root, start.copy(), ["7g7f", "3c3d"], "投了")
    text = to_kif(rec)
    assert text.startswith("棋戦：練習\n手合割：平手\n先手：A\n後手：B\n")
    assert "   3 投了         ( 0:00/00:00:00)\nまで2手で後手の勝ち\n" in text
    assert tree(parse_kif(text)) == tree(rec)


# ---- errors --------------------------------------------------------------

ERRORS = [
    (lambda t: t.replace("３一玉(21)", "３一玉(22)"), r"line 25: no 玉 of the side to move on ２二: '2 ３一玉\(22\)"),
    (lambda t: t.replace("   3 ２二銀打", "   5 ２二銀打"), r"line 26: move number 5 does not follow move 2"),
    (lambda t: t.replace("まで3手で詰み", "   5 １二銀打"), r"line 28: a move after the terminal '詰み'"),
    (lambda t: t.replace("   1 ３三桂打", "   1 同　桂打"), r"line 24: 同 with no previous move"),
    (lambda t: t.replace("   1 ３三桂打", "   1 ３三飛打"), r"line 24: illegal drop of 飛 on ３三"),
    (lambda t: t.replace("   3 ２二銀打", "   3 ２二銀(21)"), r"line 26: no 銀 of the side to move on ２一"),
    (lambda t: t.replace("   1 ３三桂打", "   1 ３三犬打"), r"line 24: not a move: '   1 ３三犬打"),
    (lambda t: t.replace("   1 ３三桂打    ", "   1 ３三桂打 xyz"), r"line 24: unexpected text 'xyz"),
    (lambda t: t.replace("３一玉(21)", "３一玉(20)"), r"line 25: not a square: \(20\)"),
    (lambda t: t.replace("作者：", "hello\n作者："), r"line 3: not a KIF line: 'hello'"),
    (lambda t: t + "+---------------------------+\n", r"line 35: not a KIF line: '\+-----"),
    (lambda t: t.replace("| ・ ・ ・ ・ 飛", "| ・ ・ ・ 飛"), r"line 9: a rank row needs 9 cells"),
]


@pytest.mark.parametrize("mutate, match", ERRORS)
def test_errors_name_the_line(mutate, match) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(KifError, match=match):
        parse_kif(mutate(golden_text()))


def test_unknown_handicap_without_diagram() -> None:
    with pytest.raises(KifError, match="line 1: 手合割 '詰将棋' is not a standard position"):
        parse_kif("手合割：詰将棋\n   1 ７六歩(77)\n")


def test_illegal_non_promotion_is_rejected() -> None:
    text = Position.from_sfen("k8/7P1/9/9/9/9/9/9/8K b - 1").bod() + "   1 ２一歩(22)\n"
    with pytest.raises(KifError, match="line 16: illegal move 2b2a: '1 ２一歩\\(22\\)'"):
        parse_kif(text)
    assert parse_kif(text.replace("２一歩(22)", "２一歩成(22)")).main_line() == [Move.from_usi("2b2a+")]


def test_header_values_stay_on_one_line() -> None:
    rec = read_record(GOLDEN)
    rec.header["備考"] = "一行目\n   1 ７六歩(77)"
    rec.header["先手"] = "名前\r\n二行目"
    text = to_kif(rec)
    assert "備考：一行目    1 ７六歩(77)\n" in text and "先手：名前 二行目\n" in text
    assert parse_kif(text).header["備考"] == "一行目    1 ７六歩(77)"

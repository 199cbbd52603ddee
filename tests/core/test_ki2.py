"""KI2: relative words, 打 and 不成 on the writer's side; the reader resolves them back."""

from __future__ import annotations

import random

import pytest

from tsume_studio.core.records.ki2 import Ki2Error, ki2_move_text, parse_ki2, to_ki2
from tsume_studio.core.records.kif import parse_kif
from tsume_studio.core.shogi.moves import Move
from tsume_studio.core.shogi.position import Position

from conftest import DATA
from test_records_helpers import random_record, tree, tsume_sfens

CASES = [
    # (sfen, usi, KI2 without the mark)
    ("k8/9/9/9/9/9/9/9/3G1G2K b - 1", "4i5h", "５八金右"),
    ("k8/9/9/9/9/9/9/9/3G1G2K b - 1", "6i5h", "５八金左"),
    ("k8/9/9/9/9/9/9/9/4GG2K b - 1", "5i5h", "５八金直"),
    ("k8/9/9/9/9/9/9/9/4GG2K b - 1", "4i5h", "５八金右"),
    ("k8/9/9/9/9/9/9/3G5/4G3K b - 1", "6h5h", "５八金寄"),
    ("k8/9/9/9/9/9/9/3G5/4G3K b - 1", "5i5h", "５八金上"),
    ("k8/9/9/9/9/5S3/9/5S3/8K b - 1", "4h5g", "５七銀上"),
    ("k8/9/9/9/9/5S3/9/5S3/8K b - 1", "4f5g", "５七銀引"),
    ("9/+R7+R/9/9/2k6/9/9/9/4K4 b - 1", "9b5b", "５二龍左"),
    ("9/+R7+R/9/9/2k6/9/9/9/4K4 b - 1", "1b5b", "５二龍右"),
    ("k8/9/9/9/9/3S1S3/9/3S1S3/8K b - 1", "6h5g", "５七銀左上"),
    ("k8/9/9/9/9/3S1S3/9/3S1S3/8K b - 1", "4f5g", "５七銀右引"),
    ("k8/9/9/9/9/9/9/9/4G3K b G 1", "G*5h", "５八金打"),
    ("k8/9/9/9/9/9/9/9/4G3K b G 1", "5i5h", "５八金"),
    ("k8/9/9/9/9/9/9/9/8K b G 1", "G*5h", "５八金"),
    ("k8/9/9/7S1/9/9/9/9/8K b - 1", "2d2c", "２三銀不成"),
    ("k8/9/9/7S1/9/9/9/9/8K b - 1", "2d2c+", "２三銀成"),
    ("3g1g2k/9/9/9/9/9/9/9/K8 w - 1", "6a5b", "５二金右"),
    ("3g1g2k/9/9/9/9/9/9/9/K8 w - 1", "4a5b", "５二金左"),
]


@pytest.mark.parametrize("sfen, usi, text", CASES)
def test_move_text_and_back(sfen: str, usi: str, text: str) -> None:
    pos = Position.from_sfen(sfen)
    mark = "▲" if pos.turn == 0 else "△"
    assert ki2_move_text(pos, Move.from_usi(usi), None) == mark + text
    rec = parse_ki2(pos.bod() + mark + text + "\n")
    assert [m.usi() for m in rec.main_line()] == [usi]


def test_kif_md_example_as_ki2() -> None:
    rec = parse_kif((DATA / "records" / "example3.kifu").read_text(encoding="utf-8"))
    text = to_ki2(rec)
    body = text.split("後手：\n", 1)[1]
    assert body == ("*初形へのコメント\n"
                    "▲３三桂    △３一玉    ▲２二銀\n"
                    "まで3手で詰み\n"
                    "\n"
                    "変化：2手\n"
                    "△１一玉\n"
                    "*変化：１一玉にも１二銀打まで\n"
                    "▲１二銀\n")
    # The variation's 詰み comes back because its last position is checkmate.
    assert tree(parse_ki2(text)) == tree(rec)


def test_six_moves_a_line_and_same_square() -> None:
    rec = parse_kif("手合割：平手\n" + "\n".join(f"{i + 1:>4} {m}" for i, m in enumerate(
        ["７六歩(77)", "３四歩(33)", "２二角成(88)", "同　銀(31)", "４五角打", "５四歩(53)", "同　角(45)"])))
    text = to_ki2(rec)
    assert ("▲７六歩    △３四歩    ▲２二角成  △同　銀    ▲４五角    △５四歩\n"
            "▲同　角\n") in text
    assert [m.usi() for m in parse_ki2(text).main_line()] == [m.usi() for m in rec.main_line()]


def test_round_trip_random_records() -> None:
    rng = random.Random(5)
    sfens = tsume_sfens(200)
    for i in range(60):
        rec = random_record(rng, rng.choice(sfens) if i % 2 else None, branches=3, length=14)
        assert tree(parse_ki2(to_ki2(rec))) == tree(rec), to_ki2(rec)


def test_tolerated_forms() -> None:
    bod = Position.from_sfen("k8/9/9/9/9/9/9/9/3G1G2K b - 1").bod()
    for text in ("☗5八金右", "▲５八金右\n", "▲5八金右 ", "▲５八金(49)"):
        assert parse_ki2(bod + text).main_line() == [Move.from_usi("4i5h")], text
    rec = parse_ki2("手合割：平手\n▲７六歩 △３四歩 ▲２二角不成 △同銀\nまで4手で中断\n")
    assert [m.usi() for m in rec.main_line()] == ["7g7f", "3c3d", "8h2b", "3a2b"]
    node = rec.root
    while node.children:
        node = node.children[0]
    assert node.special == "中断"


@pytest.mark.parametrize("text, match", [
    ("▲５八金", r"line 16: ambiguous: 2 金 can move to ５八: '▲５八金'"),
    ("△５八金右", r"line 16: △ moves out of turn at '△５八金右'"),
    ("▲５八飛", r"line 16: no legal move of 飛 to ５八: '▲５八飛'"),
    ("▲５八金右 hello", r"line 16: expected ▲ or △ at 'hello'"),
    ("▲犬", r"line 16: not a move at '▲犬'"),
    ("hello", r"line 16: not a KI2 line: 'hello'"),
    ("▲５八金右\n変化：3手\n▲５八金左", r"line 17: move number 3 does not follow move 1"),
])
def test_errors(text: str, match: str) -> None:
    bod = Position.from_sfen("k8/9/9/9/9/9/9/9/3G1G2K b - 1").bod()
    with pytest.raises(Ki2Error, match=match):
        parse_ki2(bod + text)

"""CSA V2.2: tsshogi's layout, P-00AL and PI, and agreement with cshogi's CSA parser."""

from __future__ import annotations

import random

import cshogi
import cshogi.CSA
import pytest

from tsume_studio.core.records.csa import CsaError, parse_csa, to_csa
from tsume_studio.core.records.kif import parse_kif
from tsume_studio.core.shogi.position import Position

from conftest import DATA
from test_records_helpers import random_record, tsume_sfens

EXAMPLE = (DATA / "records" / "example3.kifu").read_text(encoding="utf-8")


def test_writes_the_example_as_tsshogi_does() -> None:
    text = to_csa(parse_kif(EXAMPLE))
    lines = text.split("\n")
    assert lines[:3] == ["V2.2", "N+", "N-"]
    assert "'作品名：例題 3手詰" in lines
    assert "P1 *  *  *  *  *  *  * -OU * " in lines
    assert "P2 *  *  *  * +HI *  *  *  * " in lines
    assert "P+00KE00GI" in lines
    assert any(line.startswith("P-00FU00FU") and line.endswith("00KA00KA00HI") for line in lines)
    assert text.endswith("+\n'*初形へのコメント\n+0033KE\nT0\n-2131OU\nT0\n+0022GI\nT0\n%TSUMI\n")


def test_round_trip_keeps_header_comments_and_terminal() -> None:
    rec = parse_kif(EXAMPLE)
    back = parse_csa(to_csa(rec))
    assert back.start == rec.start
    assert back.main_line() == rec.main_line()
    assert back.header["作品名"] == "例題 3手詰" and back.header["手数"] == "3"
    assert back.root.comments == ["初形へのコメント"]
    node = back.root
    while node.children:
        node = node.children[0]
    assert node.special == "詰み"


def test_all_the_rest_to_a_hand_and_placements() -> None:
    text = "V2.2\nP-11OU\nP+22KI\nP+00KI\nP-00AL\n+\n+0012KI,T3\n%TSUMI\n"
    rec = parse_csa(text)
    assert rec.start.sfen() == "8k/7G1/9/9/9/9/9/9/9 b G2r2b2g4s4n4l18p 1"
    assert [m.usi() for m in rec.main_line()] == ["G*1b"]


def test_pi_with_removed_pieces_and_header() -> None:
    text = ("V2.2\nN+下手\nN-上手\n$EVENT:駒落ち\n$START_TIME:2024/01/01 10:00:00\n"
            "PI82HI22KA\n-\n-5142OU\n+7776FU\n%TORYO\n")
    rec = parse_csa(text)
    assert rec.start.sfen() == "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"
    assert rec.header == {"先手": "下手", "後手": "上手", "棋戦": "駒落ち", "開始日時": "2024/01/01 10:00:00"}
    assert [m.usi() for m in rec.main_line()] == ["5a4b", "7g7f"]
    out = to_csa(rec)
    assert "$EVENT:駒落ち\n" in out and out.endswith("+7776FU\nT0\n%TORYO\n")


def test_even_game_writes_pi() -> None:
    rec = parse_kif("手合割：平手\n   1 ７六歩(77)\n   2 投了\n")
    assert to_csa(rec).split("\n")[3:] == ["PI", "+", "+7776FU", "T0", "%TORYO", ""]


def test_agrees_with_cshogi_parser_on_random_lines() -> None:
    rng = random.Random(11)
    sfens = tsume_sfens(300)
    for i in range(80):
        rec = random_record(rng, rng.choice(sfens) if i % 3 else None, branches=0, length=20, comments=False)
        text = to_csa(rec)
        parsed = cshogi.CSA.Parser.parse_str(text)[0]
        assert Position.from_sfen(parsed.sfen) == rec.start, text
        assert [cshogi.move_to_usi(m) for m in parsed.moves] == [m.usi() for m in rec.main_line()], text
        assert parse_csa(text).main_line() == rec.main_line()


@pytest.mark.parametrize("text, match", [
    ("PI\n+\n+7775FU\n", r"line 3: illegal move: '\+7775FU'"),
    ("PI\n+\n-3334FU\n", r"line 3: a move out of turn: '-3334FU'"),
    ("PI\n+\n+7776HI\n", r"line 3: the piece on 77 is not HI: '\+7776HI'"),
    ("PI\n+\n+5576FU\n", r"line 3: no piece on the origin square: '\+5576FU'"),
    ("PI\n+\n+7776XX\n", r"line 3: unknown piece 'XX'"),
    ("PI\n+\n%BANZAI\n", r"line 3: unknown terminal: '%BANZAI'"),
    ("PI\n+\nhello\n", r"line 3: not a CSA statement: 'hello'"),
    ("P1 *  * -XX\n", r"line 1: bad cell '-XX'"),
    ("PI82XX\n", r"line 1: bad removal '82XX'"),
    ("PI55FU\n", r"line 1: no FU on 55 to remove"),
    ("P+00OU\n", r"line 1: OU cannot be in hand"),
    ("P+0\n", r"line 1: pieces are 4 characters each"),
    ("+7776FU\n", r"line 1: a move before the side to move"),
    ("PI\n", r"no side-to-move line"),
    ("", r"no position \(PI or P1..P9\)"),
    ("PI\n+\n+7776FU\nP1 *\n", r"line 4: a position line after the moves began"),
])
def test_errors(text: str, match: str) -> None:
    with pytest.raises(CsaError, match=match):
        parse_csa(text)


def test_first_record_only_and_old_comments() -> None:
    rec = parse_csa("'old style comment\nPI\n+\n+7776FU\n'*good\n/\nPI\n-\n")
    assert [m.usi() for m in rec.main_line()] == ["7g7f"]
    assert rec.root.children[0].comments == ["good"]

"""Absurd input: SFEN that must be refused with a message quoting the bad part, records too big to recurse."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tsume_studio.core.records.ki2 import parse_ki2, to_ki2
from tsume_studio.core.records.kif import parse_kif, to_kif
from tsume_studio.core.records.model import Record, RecordNode
from tsume_studio.core.shogi.moves import Move
from tsume_studio.core.shogi.position import Position, SfenError

THREE_PLY = "7k1/4R4/9/9/9/9/9/9/9 b SNr2b4g3s3n4l18p 1"
EMPTY = "4k4/9/9/9/9/9/9/9/9"


@pytest.mark.parametrize("sfen, message", [
    # Repeated hand tokens used to add up (108 pawns) and crash the BOD writer.
    (f"{EMPTY} b 18P18P18P18P18P18P 1", "'P' appears twice in hands of sfen"),
    (f"{EMPTY} b P2G1P 1", "'P' appears twice"),
    (f"{EMPTY} b 19P 1", "bad count '19' for 'P'"),
    (f"{EMPTY} b {'9' * 5000}P 1", "bad count '9999"),
    # Digits that are not ASCII: '²'.isdigit() is true, int('²') is not.
    ("4k4/9/9/9/9/9/9/9/² b - 1", "unexpected character '²' in rank 9"),
    ("4k4/9/9/9/9/9/9/9/９ b - 1", "unexpected character '９' in rank 9"),
    (f"{EMPTY} b １８P 1", "unexpected text '１８P' in hands"),
    (f"{EMPTY} b ²P 1", "unexpected text '²P' in hands"),
    (f"{EMPTY} b - ²", "move number must be a positive integer in sfen, got '²'"),
    (f"{EMPTY} b - ０", "move number must be a positive integer"),
    # Absurd numbers: 4,300 digits is past what int() converts.
    (f"{EMPTY} b - {'9' * 4300}", "move number '9999"),
    (f"{EMPTY} b - 10000000000", "too large"),
    (f"{EMPTY} b - 000", "move number must be a positive integer"),
])
def test_absurd_sfen_is_a_quoted_error(sfen: str, message: str) -> None:
    with pytest.raises(SfenError, match=message) as info:
        Position.from_sfen(sfen)
    assert len(str(info.value)) < 300   # quoted, but shortened when the input is absurd


def test_counts_that_are_fine_still_load() -> None:
    assert Position.from_sfen(f"{EMPTY} b 18P 0001").move_number == 1
    assert Position.from_sfen(f"{EMPTY} b - 1000000000").move_number == 10**9
    pos = Position.from_sfen(f"{EMPTY} b 18P18p 1")   # 36 pawns: loads, flagged as a problem
    assert any("36 pawns" in p.message for p in pos.problems())
    assert "歩十八" in pos.bod()


SFEN_ALPHABET = "0123456789²³¹١٢۳०１２９+/ -bwPLNSGBRKplnsgbrk" + "\u00a0\u3000"


@settings(max_examples=300, deadline=None, database=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(
    st.text(SFEN_ALPHABET, max_size=80),
    st.builds(lambda board, hand, num: f"{board} b {hand} {num}",
              st.text("0123456789²１+/kKpP", min_size=1, max_size=40),
              st.text("0123456789²１PpRrGg-", min_size=1, max_size=12),
              st.text("0123456789²١", min_size=1, max_size=30)),
    st.builds(lambda hand, num: f"{EMPTY} b {hand} {num}",
              st.text("0123456789²１PpLlNnSsGgBbRr", min_size=1, max_size=20),
              st.text("0123456789²١０", min_size=1, max_size=30)),
))
def test_fuzzed_sfen_is_parsed_or_refused_with_a_quote(text: str) -> None:
    try:
        pos = Position.from_sfen(text)
    except SfenError as exc:
        assert "'" in str(exc)    # the bad part, quoted
        return
    # Whatever loads can be written back and read again.
    assert Position.from_sfen(pos.sfen()) == pos
    pos.bod()


def _wide_record(alternatives: int) -> Record:
    """A record whose first move has ``alternatives`` variations (the same drop, as a stress shape)."""
    record = Record(start=Position.from_sfen(THREE_PLY))
    for _ in range(alternatives + 1):
        node = RecordNode(move=Move.from_usi("N*3c"))
        node.children.append(RecordNode(move=Move.from_usi("2a1a")))
        record.root.children.append(node)
    return record


@pytest.mark.parametrize("write, read", [(to_kif, parse_kif), (to_ki2, parse_ki2)])
def test_writers_take_ten_thousand_variations_at_one_move(write, read) -> None:  # type: ignore[no-untyped-def]
    text = write(_wide_record(10_000))
    assert text.count("変化：1手") == 10_000
    assert len(read(text).root.children) == 10_001


def test_writers_take_a_variation_at_every_move_of_a_long_line() -> None:
    # Deep nesting: each variation branches again two plies later, 3,000 levels down.
    record = Record(start=Position.from_sfen("k8/9/9/9/9/9/9/9/8K b - 1"))
    node = record.root
    moves = ["1i1h", "9a9b", "1h1i", "9b9a"]
    for ply in range(3000):
        main = RecordNode(move=Move.from_usi(moves[ply % 4]))
        node.children.append(main)
        if ply % 2 == 0:
            node.children.append(RecordNode(move=Move.from_usi(moves[ply % 4][:2] + "2" + moves[ply % 4][3])))
        node = main
    kif, ki2 = to_kif(record), to_ki2(record)
    assert kif.count("変化：") == 1500 and ki2.count("変化：") == 1500

"""Fuzzing every record reader: random and mutated files raise only ValueError subclasses."""

from __future__ import annotations

import os
import random
from collections.abc import Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tsume_studio.core.shogi.bod import parse_bod
from tsume_studio.core.records.csa import parse_csa, to_csa
from tsume_studio.core.records.ki2 import parse_ki2, to_ki2
from tsume_studio.core.records.kif import parse_kif, to_kif
from tsume_studio.core.records.model import Record
from tsume_studio.core.records.formats import decode_record_bytes, parse_record_text, parse_sfen, to_sfen

from conftest import DATA
from test_records_helpers import random_record, tsume_sfens

# A few seconds in CI; TSUME_FUZZ_EXAMPLES=2000 for a longer, non-repeatable hunt.
_EXAMPLES = int(os.environ.get("TSUME_FUZZ_EXAMPLES", "0"))
FUZZ = settings(max_examples=_EXAMPLES or 50, deadline=None, database=None, derandomize=not _EXAMPLES,
                suppress_health_check=[HealthCheck.too_slow])

READERS: dict[str, Callable[[str], object]] = {
    "kif": parse_kif, "ki2": parse_ki2, "csa": parse_csa, "bod": parse_bod, "sfen": parse_sfen,
    "any": parse_record_text,
}

# Characters that matter to the grammars, so random text gets past the first checks.
ALPHABET = ("０１２３４５６７８９123456789一二三四五六七八九十同　 成不打玉王飛龍竜角馬金銀全桂圭香杏歩と"
            "右左上引寄直▲△()+-*:：|v・/\n\r#&変化手数まで詰み投了先後の持駒番なし"
            "PINVTOUFUKYKEGIKIKAHIRYUM%0bwsfenmoveposition")


def _samples() -> dict[str, list[str]]:
    rng = random.Random(1)
    sfens = tsume_sfens(100)
    recs: list[Record] = [parse_kif((DATA / "records" / "example3.kifu").read_text(encoding="utf-8"))]
    recs += [random_record(rng, rng.choice(sfens) if i % 2 else None, branches=2, length=10) for i in range(4)]
    return {
        "kif": [to_kif(r) for r in recs],
        "ki2": [to_ki2(r) for r in recs],
        "csa": [to_csa(r) for r in recs],
        "bod": [r.start.bod() for r in recs],
        "sfen": [to_sfen(r) for r in recs],
        "any": [to_kif(r) for r in recs[:2]] + [to_csa(recs[2]), to_ki2(recs[3])],
    }


SAMPLES = _samples()


def _check(reader: Callable[[str], object], text: str) -> None:
    try:
        reader(text)
    except ValueError:
        pass  # the documented errors are all ValueError subclasses


@st.composite
def mutated(draw: st.DrawFn, fmt: str) -> str:
    text = draw(st.sampled_from(SAMPLES[fmt]))
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(st.integers(0, 4))
        i = draw(st.integers(0, len(text)))
        if kind == 0:    # delete a run
            text = text[:i] + text[i + draw(st.integers(1, 8)):]
        elif kind == 1:  # insert grammar characters
            text = text[:i] + draw(st.text(ALPHABET, min_size=1, max_size=6)) + text[i:]
        elif kind == 2:  # replace one character
            text = text[:i] + draw(st.sampled_from(ALPHABET)) + text[i + 1:]
        else:            # swap, duplicate or drop whole lines
            lines = text.split("\n")
            a = draw(st.integers(0, len(lines) - 1))
            b = draw(st.integers(0, len(lines) - 1))
            if kind == 3:
                lines[a], lines[b] = lines[b], lines[a]
            else:
                lines.insert(a, lines[b])
            text = "\n".join(lines)
    return text


@pytest.mark.parametrize("fmt", sorted(READERS))
@FUZZ
@given(data=st.data())
def test_mutated_files(fmt: str, data: st.DataObject) -> None:
    _check(READERS[fmt], data.draw(mutated(fmt)))


@pytest.mark.parametrize("fmt", sorted(READERS))
@FUZZ
@given(text=st.text(ALPHABET, max_size=300))
def test_random_text(fmt: str, text: str) -> None:
    _check(READERS[fmt], text)


@FUZZ
@given(data=st.binary(max_size=200))
def test_random_bytes_decode(data: bytes) -> None:
    try:
        text = decode_record_bytes(data)
    except ValueError:
        return
    _check(parse_record_text, text)

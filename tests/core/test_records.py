"""Record files by extension, decoding, sniffing pasted text, cross-checks with cshogi and python-shogi."""

from __future__ import annotations

import os
import random
from pathlib import Path

import cshogi
import cshogi.CSA
import cshogi.KIF
import pytest
import shogi
import shogi.KIF

from tsume_studio.core.cli.main import main
from tsume_studio.core.records.kif import KifError, parse_kif, to_kif
from tsume_studio.core.shogi.moves import IllegalMoveError, Move
from tsume_studio.core.shogi.position import BodError, Position, SfenError
from tsume_studio.core.records.formats import (
    RecordError, decode_record_bytes, parse_record_text, parse_sfen, read_record, sniff_format,
    to_sfen, write_record,
)

from conftest import DATA
from test_records_helpers import random_record, tree, tsume_sfens

GOLDEN = DATA / "records" / "example3.kifu"
EXAMPLE_SFEN = "7k1/4R4/9/9/9/9/9/9/9 b SNr2b4g3s3n4l18p 1"


@pytest.mark.parametrize("ext, encoding, newline", [
    (".kif", "cp932", b"\r\n"), (".kifu", "utf-8", b"\r\n"), (".ki2", "cp932", b"\r\n"),
    (".ki2u", "utf-8", b"\r\n"), (".csa", "utf-8", b"\n"), (".sfen", "utf-8", b"\n"),
    (".usi", "utf-8", b"\n"), (".bod", "cp932", b"\r\n"),
])
def test_every_extension_round_trips(tmp_path: Path, ext: str, encoding: str, newline: bytes) -> None:
    rec = read_record(GOLDEN)
    out = tmp_path / f"p{ext}"
    write_record(out, rec)
    data = out.read_bytes()
    data.decode(encoding)  # raises if the encoding is not the documented one
    assert newline in data and (newline == b"\r\n" or b"\r" not in data)
    back = read_record(out)
    assert back.start == rec.start
    if ext == ".bod":
        assert back.main_line() == []
    else:
        assert back.main_line() == rec.main_line()
    if ext in (".kif", ".kifu", ".ki2", ".ki2u"):
        assert tree(back) == tree(rec)
    assert [p.name for p in tmp_path.iterdir()] == [out.name]  # no temporary file left


def test_decoding_rules() -> None:
    text = GOLDEN.read_bytes().decode("utf-8")
    sjis = text.encode("cp932")
    assert decode_record_bytes(b"\xef\xbb\xbf" + text.encode("utf-8")) == text
    assert decode_record_bytes(sjis) == text                      # UTF-8 fails, cp932 fallback
    marked = "#KIF version=2.0 encoding=Shift_JIS\r\n" + text
    assert decode_record_bytes(marked.encode("cp932")) == marked
    assert decode_record_bytes(text.encode("utf-8")) == text
    with pytest.raises(RecordError, match="neither UTF-8 nor Shift_JIS"):
        decode_record_bytes(b"\x81\x20\xff\xff")


def test_reads_utf8_kif_and_shift_jis_kifu(tmp_path: Path) -> None:
    text = GOLDEN.read_bytes()
    (tmp_path / "a.kif").write_bytes(text)  # UTF-8 despite the extension
    (tmp_path / "b.kifu").write_bytes(text.decode("utf-8").encode("cp932"))
    assert read_record(tmp_path / "a.kif").start.sfen() == EXAMPLE_SFEN
    assert read_record(tmp_path / "b.kifu").start.sfen() == EXAMPLE_SFEN


def test_unencodable_text_leaves_the_old_file(tmp_path: Path) -> None:
    out = tmp_path / "keep.kif"
    out.write_bytes(b"old")
    rec = read_record(GOLDEN)
    rec.header["作者"] = "한국"
    with pytest.raises(RecordError, match=r"'한' cannot be written in cp932; save as \.kifu instead"):
        write_record(out, rec)
    assert out.read_bytes() == b"old"
    assert [p.name for p in tmp_path.iterdir()] == ["keep.kif"]
    write_record(tmp_path / "ok.kifu", rec)
    assert read_record(tmp_path / "ok.kifu").header["作者"] == "한국"


def test_unknown_extension(tmp_path: Path) -> None:
    with pytest.raises(RecordError, match=r"unknown record extension '.txt'"):
        read_record(tmp_path / "x.txt")
    with pytest.raises(RecordError, match=r"unknown record extension '\(none\)'"):
        write_record(tmp_path / "x", read_record(GOLDEN))


# ---- SFEN -------------------------------------------------------------------

def test_sfen_forms() -> None:
    rec = read_record(GOLDEN)
    assert to_sfen(rec) == f"sfen {EXAMPLE_SFEN} moves N*3c 2a3a S*2b"
    assert to_sfen(rec, usi=True) == f"position sfen {EXAMPLE_SFEN} moves N*3c 2a3a S*2b"
    for text in (to_sfen(rec), to_sfen(rec, usi=True), f"{EXAMPLE_SFEN} moves N*3c 2a3a S*2b"):
        back = parse_sfen(text)
        assert back.start.sfen() == EXAMPLE_SFEN and back.main_line() == rec.main_line()
    start = parse_sfen("position startpos moves 7g7f 3c3d")
    assert start.start == Position.start() and len(start.main_line()) == 2
    assert to_sfen(start, usi=True) == "position startpos moves 7g7f 3c3d"
    assert parse_sfen(EXAMPLE_SFEN).main_line() == []


def test_sfen_errors() -> None:
    with pytest.raises(IllegalMoveError, match="illegal move 'G\\*3c'"):
        parse_sfen(f"sfen {EXAMPLE_SFEN} moves G*3c")
    with pytest.raises(SfenError, match="expected 9 ranks"):
        parse_sfen("sfen 9/9 b - 1")


# ---- sniffing pasted text -----------------------------------------------------

def test_sniffing() -> None:
    kif = GOLDEN.read_text(encoding="utf-8")
    rec = parse_kif(kif)
    from tsume_studio.core.records.csa import to_csa
    from tsume_studio.core.records.ki2 import to_ki2

    samples = {
        "sfen": [EXAMPLE_SFEN, "sfen " + EXAMPLE_SFEN, "position startpos moves 7g7f", to_sfen(rec)],
        "kif": [kif, to_kif(rec), Position.from_sfen(EXAMPLE_SFEN).bod()],
        "ki2": [to_ki2(rec)],
        "csa": [to_csa(rec), "PI\n+\n+7776FU\n"],
        "bod": [Position.from_sfen(EXAMPLE_SFEN).bod() + "手数＝1  ▲３三桂打  まで\n"],
    }
    for fmt, texts in samples.items():
        for text in texts:
            assert sniff_format(text) == fmt, text
            assert parse_record_text(text).start.sfen() in (EXAMPLE_SFEN, Position.start().sfen()), text
    with pytest.raises(RecordError, match=r"not a record in a known format.*'hello'"):
        parse_record_text("hello")
    with pytest.raises(BodError, match="line 4: bad cell 'x玉'"):
        parse_record_text(Position.from_sfen(EXAMPLE_SFEN).bod().replace("v玉", "x玉") + "手数＝0\n")
    with pytest.raises(KifError, match="line 24"):
        parse_record_text(kif.replace("３三桂打", "３三飛打"))


# ---- KIF round trips and other parsers -------------------------------------------

def test_kif_round_trip_random_records() -> None:
    rng = random.Random(3)
    sfens = tsume_sfens(300)
    for i in range(60):
        rec = random_record(rng, rng.choice(sfens) if i % 2 else None, branches=4, length=16)
        text = to_kif(rec)
        back = parse_kif(text)
        assert tree(back) == tree(rec), text
        assert to_kif(back) == text


def test_cshogi_kif_parser_reads_our_even_games() -> None:
    # cshogi's KIF parser ignores board diagrams, so it is checked on 手合割：平手 games.
    rng = random.Random(7)
    for _ in range(40):
        rec = random_record(rng, None, branches=0, length=40, comments=False)
        parsed = cshogi.KIF.Parser.parse_str(to_kif(rec))
        assert parsed.sfen == cshogi.STARTING_SFEN
        assert [cshogi.move_to_usi(m) for m in parsed.moves] == [m.usi() for m in rec.main_line()]


def test_python_shogi_kif_parser_reads_our_diagrams() -> None:
    # python-shogi reads the BOD (not the '+' marks), so it is checked on main lines; it
    # flips its side to move once per move read, so only board and hands are compared.
    rng = random.Random(9)
    sfens = tsume_sfens(400)
    for i in range(60):
        rec = random_record(rng, sfens[i * 5], branches=0, length=12, comments=False)
        parsed = shogi.KIF.Parser.parse_str(to_kif(rec))[0]
        theirs = Position.from_sfen(parsed["sfen"]).sfen().split()
        assert [theirs[0], theirs[2]] == [rec.start.sfen().split()[i] for i in (0, 2)], to_kif(rec)
        assert parsed["moves"] == [m.usi() for m in rec.main_line()]


# ---- command line -------------------------------------------------------------

def test_convert(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out.ki2"
    assert main(["convert", str(GOLDEN), str(out)]) == 0
    assert tree(read_record(out)) == tree(read_record(GOLDEN))
    back = tmp_path / "back.kifu"
    assert main(["convert", str(out), str(back)]) == 0
    assert read_record(back).main_line() == read_record(GOLDEN).main_line()
    capsys.readouterr()
    assert main(["convert", str(GOLDEN), str(tmp_path / "x.doc")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "unknown record extension '.doc'" in err
    bad = tmp_path / "bad.kif"
    bad.write_text("hello\n", encoding="utf-8")
    assert main(["convert", str(bad), str(tmp_path / "y.kif")]) == 2
    err = capsys.readouterr().err
    assert err == "tsume: error: line 1: not a KIF line: 'hello'\n"
    assert not (tmp_path / "y.kif").exists()


def test_convert_from_standard_input(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import io
    monkeypatch.setattr("sys.stdin", io.StringIO(f"position sfen {EXAMPLE_SFEN} moves N*3c\n"))
    out = tmp_path / "p.csa"
    assert main(["convert", "-", str(out)]) == 0
    assert read_record(out).main_line() == [Move.from_usi("N*3c")]
    assert os.path.getsize(out) > 0


def test_king_captures_are_refused_everywhere() -> None:
    # The side not to move is in check: cshogi would let the king be taken.
    sfen = "8k/8R/9/9/9/9/9/9/4K4 b - 1"
    from tsume_studio.core.records.csa import CsaError, parse_csa

    with pytest.raises(IllegalMoveError, match="1b1a captures the king on １一"):
        parse_sfen(f"sfen {sfen} moves 1b1a")
    with pytest.raises(KifError, match="line 16: 1b1a captures the king on １一"):
        parse_kif(Position.from_sfen(sfen).bod() + "   1 １一飛(12)\n")
    with pytest.raises(CsaError, match="line 4: 1b1a captures the king"):
        parse_csa("P-11OU\nP+12HI59OU\n+\n+1211HI\n")


def test_solved_problems_read_back_everywhere(tmp_path: Path) -> None:
    from tsume_studio.core.records.csa import parse_csa, to_csa
    from tsume_studio.core.records.ki2 import parse_ki2, to_ki2
    from test_records_helpers import main_line_only, solved_records

    recs = solved_records()
    assert len(recs) == 12 and any(len(r.root.children[0].children) > 1 for r in recs)
    for rec in recs:
        for ext in (".kif", ".kifu", ".ki2"):
            out = tmp_path / f"p{ext}"
            write_record(out, rec)
            assert tree(read_record(out)) == tree(rec)
        assert parse_ki2(to_ki2(rec)).main_line() == rec.main_line()
        csa = to_csa(rec)
        assert parse_csa(csa).main_line() == rec.main_line()
        theirs = cshogi.CSA.Parser.parse_str(csa)[0]
        assert Position.from_sfen(theirs.sfen) == rec.start
        assert [cshogi.move_to_usi(m) for m in theirs.moves] == [m.usi() for m in rec.main_line()]
        parsed = shogi.KIF.Parser.parse_str(to_kif(main_line_only(rec)))[0]
        assert parsed["moves"] == [m.usi() for m in rec.main_line()]
        assert Position.from_sfen(parsed["sfen"]).sfen().split()[0] == rec.start.sfen().split()[0]


def test_grow_reuses_the_moves_there_and_adds_the_rest_as_variations() -> None:
    from tsume_studio.core.records.model import Record
    from tsume_studio.core.shogi.position import Position

    record = Record(start=Position.from_sfen("4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1"))
    end, pos, added = record.grow(["G*5b"])
    assert added and end.move is not None and pos.sfen().startswith("4k4/4G4/4P4")
    again, _pos, added_again = record.grow(["G*5b"])
    assert again is end and not added_again
    other, _pos, added_other = record.grow(["G*4b"])
    assert added_other and record.root.children[0] is end and record.root.children[1] is other
    with pytest.raises(ValueError):
        record.grow(["G*5a"])

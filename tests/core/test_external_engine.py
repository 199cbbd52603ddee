"""An external USI mate engine as a solver (core/usi_client.py).

Our own ``tsume-usi`` plays the well-behaved engine; ``tests/data/fake_usi_engine.py``
plays engines that hang, print garbage, exit, or give wrong lines.
"""

from __future__ import annotations

import shutil
import sys
import threading
import time
from pathlib import Path

import pytest
from tsume_studio.core.errors import MESSAGES, CoreError
from tsume_studio.core.search.contract import Limits, Progress, SolveResult, SolveStatus, drive
from tsume_studio.core.shogi.position import Position
from tsume_studio.core.usi_client import (
    EngineSpec, check_mate_line, engine_solver, parse_option, parse_option_text, probe_engine,
)

THREE_PLY = "7k1/4R4/9/9/9/9/9/9/9 b SNr2b4g3s3n4l18p 1"
NO_MATE = "4k4/9/9/9/9/9/9/9/9 b P 1"
# Microcosmos (1525 plies): no engine here finishes it in these tests.
LONG = "g1+P1k1+P+P+L/1p3P3/+R+p2pp1pl/1NNsg+p2+R/+b+nL+P1+p3/1P3ssP1/2P1+Ps2N/4+P1P1L/+B5G1g b - 1"
FAKE = str(Path(__file__).parent.parent / "data" / "fake_usi_engine.py")


def tsume_usi() -> EngineSpec:
    path = Path(sys.executable).with_name("tsume-usi")
    if not path.exists():
        found = shutil.which("tsume-usi")
        if found is None:
            pytest.skip("tsume-usi is not installed")
        path = Path(found)
    return EngineSpec("tsume-usi", str(path))


def fake(behaviour: str) -> EngineSpec:
    return EngineSpec(f"fake {behaviour}", sys.executable, (FAKE, behaviour))


TWENTY_SECONDS = Limits(seconds=20)


def run(spec: EngineSpec, sfen: str, limits: Limits = TWENTY_SECONDS, cancel: threading.Event | None = None,
        **kw: float) -> tuple[SolveResult, list[Progress]]:
    seen: list[Progress] = []
    solve = engine_solver(spec, **kw)
    result = drive(solve(Position.from_sfen(sfen), limits, cancel or threading.Event()), seen.append)
    return result, seen


def test_handshake_reports_the_engines_name_and_options() -> None:
    info = probe_engine(tsume_usi())
    assert info.name == "Tsume Studio"
    hash_option = info.option("usi_hash")
    assert hash_option is not None and (hash_option.type, hash_option.min, hash_option.max) == ("spin", 16, 65536)
    assert info.option("MateNodes") is not None
    fake_info = probe_engine(fake("mate"))
    assert fake_info.name == "Fake Engine"
    style = fake_info.option("Style")
    assert style is not None and style.choices == ("a", "b c") and style.default == "a"


def test_tsume_usi_solves_and_its_line_is_checked() -> None:
    result, progress = run(tsume_usi(), THREE_PLY)
    assert result.status is SolveStatus.MATE
    assert result.pv == ("N*3c", "2a1a", "S*1b") and result.length == 3
    assert result.proof is None
    assert result.extra == {"engine": "Tsume Studio", "external": True, "exact": False}
    assert progress and progress[-1].root_pn == 0      # tsume-usi prints pn/dn in 'info string'
    no_mate, _ = run(tsume_usi(), NO_MATE)
    assert no_mate.status is SolveStatus.NO_MATE and no_mate.pv == ()


def test_options_reach_the_engine() -> None:
    # One node is not enough to prove this mate: tsume-usi answers timeout.
    spec = EngineSpec("limited", tsume_usi().path, options=(("MateNodes", "1"),))
    result, _ = run(spec, "lpg6/3s2R2/1kpppp3/p8/9/P8/2N6/9/9 b BGN 1")
    assert result.status is SolveStatus.UNKNOWN and result.extra["reason"] == "timeout"


def test_stop_on_a_long_search_answers_cancelled_quickly() -> None:
    cancel = threading.Event()
    threading.Timer(0.5, cancel.set).start()
    started = time.monotonic()
    result, _ = run(tsume_usi(), LONG, Limits(seconds=None), cancel)
    assert result.status is SolveStatus.CANCELLED
    assert time.monotonic() - started < 5


def test_the_time_limit_goes_to_the_engine() -> None:
    started = time.monotonic()
    result, _ = run(tsume_usi(), LONG, Limits(seconds=0.5))
    assert result.status is SolveStatus.UNKNOWN
    assert time.monotonic() - started < 5


@pytest.mark.parametrize(("behaviour", "code"), [
    ("illegal", "engine.illegal_move"),
    ("nocheck", "engine.no_check"),
    ("notmate", "engine.not_mate"),
    ("even", "engine.even_line"),
    ("bestmove", "engine.bestmove"),
    ("notimplemented", "engine.not_implemented"),
    ("exit", "engine.exited"),
])
def test_a_wrong_or_broken_engine_is_an_error_never_a_mate(behaviour: str, code: str) -> None:
    with pytest.raises(CoreError) as caught:
        run(fake(behaviour), THREE_PLY)
    assert caught.value.code == code
    assert code in MESSAGES


def test_the_fake_engines_right_line_is_accepted() -> None:
    result, _ = run(fake("mate"), THREE_PLY)
    assert result.status is SolveStatus.MATE and result.extra["engine"] == "Fake Engine"
    nomate, _ = run(fake("nomate"), NO_MATE)
    assert nomate.status is SolveStatus.NO_MATE


def test_a_hung_engine_is_killed_after_stop() -> None:
    cancel = threading.Event()
    threading.Timer(0.3, cancel.set).start()
    started = time.monotonic()
    result, _ = run(fake("hang"), THREE_PLY, Limits(seconds=None), cancel, stop_grace=0.5)
    assert result.status is SolveStatus.CANCELLED and result.extra["reason"] == "killed"
    assert time.monotonic() - started < 6     # the quit grace is 2 s, then kill


def test_a_hung_engine_past_its_time_limit_is_an_error() -> None:
    with pytest.raises(CoreError) as caught:
        run(fake("hang"), THREE_PLY, Limits(seconds=0.2), stop_grace=0.3)
    assert caught.value.code == "engine.no_answer"


def test_garbage_is_skipped_and_stop_still_ends_the_search() -> None:
    cancel = threading.Event()
    threading.Timer(0.5, cancel.set).start()
    result, progress = run(fake("garbage"), THREE_PLY, Limits(seconds=None), cancel)
    assert result.status is SolveStatus.CANCELLED
    assert progress[-1].nodes == 1234 and progress[-1].table_fill == pytest.approx(0.005)


def test_an_engine_that_stops_with_a_line_after_stop_is_still_cancelled() -> None:
    cancel = threading.Event()
    threading.Timer(0.3, cancel.set).start()
    result, _ = run(fake("stopmate"), THREE_PLY, Limits(seconds=None), cancel)
    assert result.status is SolveStatus.CANCELLED


@pytest.mark.parametrize(("behaviour", "code"), [("silent", "engine.no_usiok"), ("noready", "engine.no_readyok")])
def test_handshake_failures_name_what_was_missing(behaviour: str, code: str) -> None:
    with pytest.raises(CoreError) as caught:
        probe_engine(fake(behaviour), seconds=0.5)
    assert caught.value.code == code and caught.value.params == {"seconds": "0.5"}


def test_missing_or_unrunnable_programs(tmp_path: Path) -> None:
    with pytest.raises(CoreError) as caught:
        probe_engine(EngineSpec("x", str(tmp_path / "nothing")))
    assert caught.value.code == "engine.not_found"
    text = tmp_path / "engine.txt"
    text.write_text("not a program")
    with pytest.raises(CoreError) as caught:
        probe_engine(EngineSpec("x", str(text)))
    assert caught.value.code == "engine.not_executable"


def test_check_mate_line_replays_the_line() -> None:
    start = Position.from_sfen(THREE_PLY)
    check_mate_line(start, ["N*3c", "2a1a", "S*1b"])
    with pytest.raises(CoreError) as caught:
        check_mate_line(start, ["N*3c", "2a1a", "zz"])
    assert (caught.value.code, caught.value.params) == ("engine.illegal_move", {"ply": 3, "move": "zz"})
    assert start.sfen() == THREE_PLY     # replayed on a copy


def test_parse_option_lines_and_option_text() -> None:
    assert parse_option("option name Book File type string default <empty>") is not None
    option = parse_option("option name Book File type string default book.db")
    assert option is not None and option.name == "Book File" and option.default == "book.db"
    assert parse_option("option name X") is None
    assert parse_option_text("USI_Hash = 256\n\nPostSearchCount=10\n") == (("USI_Hash", "256"),
                                                                          ("PostSearchCount", "10"))
    with pytest.raises(CoreError) as caught:
        parse_option_text("USI_Hash 256")
    assert caught.value.code == "engine.bad_option"

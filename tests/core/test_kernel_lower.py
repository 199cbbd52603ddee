"""The restricted game of the kernel's length search: a lower bound of the tsume-rule length.

``LengthSearch(..., drops='none')`` lets the defender make no drop interposition, ``'effective'``
only those its oracle, the tsume-rule ``LengthSearch``, has judged to count (length_search.h,
``Drops``).  Its "no mate within n" must hold under the tsume rules: checked here against the
tsume-rule search's exact lengths on mate.tsv, and through the solver's one path.
"""

from __future__ import annotations

import csv
import random
from pathlib import Path

import pytest

from tsume_studio.core.search import kernel_length
from tsume_studio.core.search.contract import Limits
from tsume_studio.core.search.kernel_length import KernelLengthSearch
from tsume_studio.core.search.solver import solve
from tsume_studio.core.shogi.position import Position

import cshogi

pytestmark = pytest.mark.skipif(not kernel_length.available(), reason="the kernel's length search is not built")

DATA = Path(__file__).resolve().parents[2] / "tests" / "data"
CLASSIC = "8k/6G2/R7P/9/9/9/9/9/9 b r2b3g4s4n4l17p 1"
# ▲1四香 △1三歩 (a 中合 that counts): 5 plies under the tsume rules, fewer with no drop allowed.
CHUUAI = "4g+RG1k/9/9/9/9/9/9/9/9 b Lr2b2g4s4n3l18p 1"


def _rows() -> list[dict[str, str]]:
    with (DATA / "mate.tsv").open(encoding="utf-8") as f:
        return list(csv.DictReader(f, delimiter="\t"))


def _kernel(sfen: str, **kw: object):   # type: ignore[no-untyped-def]
    from tsume_studio.core.kernel import LengthSearch

    return LengthSearch(sfen, **kw)


def _check_lower_bound(sfen: str) -> tuple[int, int, int]:
    """(tsume-rule length, restricted length with no drop, with the effective drops); asserts
    that neither restricted length is longer, and that neither game refutes a mate the tsume-rule
    search finds."""
    t = _kernel(sfen, memory_mb=16, oracle_mb=16)
    assert t.prove_root() == "proven"
    answer, length = t.exact(sfen, True, 61)
    assert answer == "yes"
    none = _kernel(sfen, memory_mb=16, oracle=t, drops="none")
    effective = _kernel(sfen, memory_mb=16, oracle=t, drops="effective")   # after t: its verdicts are in
    lengths = []
    for r in (none, effective):
        got, value = r.exact(sfen, True, 61)
        assert got == "yes" and value <= length, (sfen, r.drops, value, length)
        # The question the answer asks: "mate within length - 2?" refuted there means exact here.
        if length >= 3:
            assert r.question(sfen, True, length) == "yes"
        lengths.append(value)
    return length, lengths[0], lengths[1]


def test_never_longer_than_the_tsume_rule_length_on_a_sample() -> None:
    rows = _rows()
    sample = random.Random(25).sample(rows, 40)
    for r in sample:
        _check_lower_bound(r["sfen"])


@pytest.mark.slow
def test_never_longer_than_the_tsume_rule_length_on_mate_tsv() -> None:
    exact_by_none = 0
    for r in _rows():
        length, none, _effective = _check_lower_bound(r["sfen"])
        exact_by_none += none == length
    assert exact_by_none > 0


def test_futile_drops_are_absent_anyway() -> None:
    # The classic: every drop is futile, so the restricted game is the same game.
    t = _kernel(CLASSIC)
    r = _kernel(CLASSIC, oracle=t, drops="none")
    assert r.exact(CLASSIC, True, 9) == ("yes", 1)
    assert t.exact(CLASSIC, True, 9) == ("yes", 1)


def test_an_effective_chuuai_needs_the_tsume_rule_question() -> None:
    # With no drop the mate is shorter; under the tsume rules the 中合 △1三歩 counts (5 plies).
    t = _kernel(CHUUAI)
    none = _kernel(CHUUAI, oracle=t, drops="none")
    got, value = none.exact(CHUUAI, True, 9)
    assert got == "yes" and value < 5
    assert t.exact(CHUUAI, True, 9) == ("yes", 5)
    # Judged by t, the drop counts in the 'effective' game, whose length is then the same.
    effective = _kernel(CHUUAI, oracle=t, drops="effective")
    assert effective.exact(CHUUAI, True, 9) == ("yes", 5)
    # Through the adapter, narrowing from above as it does off the root (the root itself is climbed
    # from below, tests/core/test_root_climb.py): "mate within 3?" is not refuted in the restricted
    # game (it mates there), so the tsume-rule question is asked and refutes it; the length is exact.
    for game in ("none", "effective"):
        s = KernelLengthSearch(cshogi.Board(CHUUAI), deadline=None, cancel=None, node_limit=None,
                               distance_rule=True, memory_mb=32, lower=game)
        assert _run(s.settle_root()) == "proven"
        s.phase = "tree"
        assert _run(s.exact(True)) == 5
        assert s.lower_questions >= 1 and s.lower_refutations == 0


def test_the_restricted_game_proves_exactness_where_no_drop_counts() -> None:
    # tanuki-11-29: the restricted game refutes "mate within L - 2" by itself; the answer is exact
    # (narrowed from above, as off the root).
    sfen = next(r["sfen"] for r in _rows() if r["id"] == "tanuki-11-29")
    s = KernelLengthSearch(cshogi.Board(sfen), deadline=None, cancel=None, node_limit=None,
                           distance_rule=True, memory_mb=32, lower="none")
    assert _run(s.settle_root()) == "proven"
    s.phase = "tree"
    length = _run(s.exact(True))
    assert length is not None and s.lower_refutations >= 1
    off = KernelLengthSearch(cshogi.Board(sfen), deadline=None, cancel=None, node_limit=None,
                             distance_rule=True, memory_mb=32, lower="off")
    assert _run(off.settle_root()) == "proven"
    off.phase = "tree"
    assert _run(off.exact(True)) == length and off.lower_questions == 0


@pytest.mark.parametrize("game", ["none", "effective", "off"])
def test_the_solver_answers_the_same_whichever_game(monkeypatch: pytest.MonkeyPatch, game: str) -> None:
    monkeypatch.setenv(kernel_length.CHOICE_ENV, "kernel")
    monkeypatch.setenv(kernel_length.LOWER_ENV, game)
    # tanuki-5-38: the 'effective' game is made anew while the builder asks below the root.
    other = next(r["sfen"] for r in _rows() if r["id"] == "tanuki-5-38")
    for sfen, length in ((CHUUAI, 5), (CLASSIC, 1), (other, 5)):
        result = solve(Position.from_sfen(sfen), Limits(seconds=60))
        assert result.extra["engine"] == "kernel" and result.extra["exact"] and result.length == length


def _answer(sfen: str, limits: Limits | None = None):   # type: ignore[no-untyped-def]
    result = solve(Position.from_sfen(sfen), limits or Limits(seconds=60), force=True)   # as tsume batch
    proof = result.proof
    assert proof is not None and result.extra["exact"]
    return (proof.length, proof.main_line, proof.alternatives, proof.variations,
            [(f.path, f.move, f.reason.english(), f.moves) for f in proof.futile], proof.alternatives_checked)


def _same_answer_either_way(monkeypatch: pytest.MonkeyPatch, env: str, off: str, on: str, seed: int,
                            count: int) -> None:
    """The whole answer of a sample of mate.tsv is the same with ``env`` set to ``off`` and to ``on``."""
    monkeypatch.setenv(kernel_length.CHOICE_ENV, "kernel")
    rows = _rows()
    for r in random.Random(seed).sample(rows, count) + [x for x in rows if x["id"] in ("tanuki-3-454", "tanuki-7-15")]:
        monkeypatch.setenv(env, off)
        before = _answer(r["sfen"])
        monkeypatch.setenv(env, on)
        assert _answer(r["sfen"]) == before, r["id"]


def test_the_whole_answer_is_the_same_with_the_restricted_game(monkeypatch: pytest.MonkeyPatch) -> None:
    # The builder's questions (mating checks, 余詰 candidates, longest defences, variations' lengths)
    # go to the restricted game first: the proof, main line, 余詰, 無駄合 and all, is unchanged.
    _same_answer_either_way(monkeypatch, kernel_length.LOWER_ENV, "off", "none", 7, 30)


def test_the_default_game_gives_the_answer_the_game_without_drops_gave(monkeypatch: pytest.MonkeyPatch) -> None:
    # 'effective', the default since 2026-12-07, against 'none', the default before it: the builder's
    # questions no longer go to a restricted game; the proof is unchanged.
    _same_answer_either_way(monkeypatch, kernel_length.LOWER_ENV, "none", "effective", 11, 30)


@pytest.mark.slow
def test_zukou7s_answer_is_the_same_without_the_restricted_game_in_the_builders_questions(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """図巧 7番: the 余詰 questions' refutations, 10 of 15 CPU s in the game without drops
    (docs/benchmarks.md, 2026-12-07), now go to the tsume rules alone: the same main line, 余詰
    candidate and 変同."""
    from test_zukou7 import MAIN, ZUKOU7   # tests/core is on sys.path

    monkeypatch.setenv(kernel_length.CHOICE_ENV, "kernel")
    answers = []
    for game in ("none", "effective"):
        monkeypatch.setenv(kernel_length.LOWER_ENV, game)
        answers.append(_answer(ZUKOU7, Limits(seconds=120, cpu_time=True)))
    assert answers[0] == answers[1]
    length, main_line, alternatives, _, _, checked = answers[1]
    assert length == 15 and checked
    # The line up to 8b9a+; the king's last step is one of two 変同 (9b8c, 9b9c).
    assert list(main_line[:13]) == MAIN[:13] and alternatives   # and the 余詰 candidate B*8b


def _run(gen):   # type: ignore[no-untyped-def]
    try:
        while True:
            next(gen)
    except StopIteration as stop:
        return stop.value


# ---- the entry point under bad input --------------------------------------------------------

def test_bad_input_raises() -> None:
    from tsume_studio.core.kernel import DfPnSearch

    t = _kernel(CHUUAI)
    with pytest.raises(ValueError):
        _kernel(CHUUAI, drops="some")
    with pytest.raises(ValueError):   # 'effective' needs the tsume-rule search as its judge
        _kernel(CHUUAI, drops="effective")
    with pytest.raises(ValueError):
        _kernel(CHUUAI, oracle=DfPnSearch(CHUUAI, 16), drops="effective")
    with pytest.raises(ValueError):   # a judge that is itself restricted
        _kernel(CHUUAI, oracle=_kernel(CHUUAI, drops="none"), drops="effective")
    rotated = "9/9/9/9/9/9/p7r/2g6/K8 w R2B3G4S4N4L17P 1"   # CLASSIC turned round: White attacks
    with pytest.raises(ValueError):
        _kernel(CLASSIC, oracle=_kernel(rotated), drops="none")
    r = _kernel(CHUUAI, oracle=t, drops="none")
    assert r.drops == "none" and t.drops == "judged"
    after = cshogi.Board(CHUUAI)
    after.push_usi("L*1d")
    with pytest.raises(ValueError):   # the restricted game judges no futility
        r.defences(after.sfen(), 3)
    assert t.defences(after.sfen(), 3)[0] == "yes"
    for bad in (-1, 10**6):
        with pytest.raises(ValueError):
            r.question(CHUUAI, True, bad)
    with pytest.raises(ValueError):
        r.question("garbage", True, 3)
    assert r.question(CHUUAI, True, 5) == "yes"   # the search is unharmed
    with pytest.raises(ValueError):   # the adapter refuses an unknown game
        KernelLengthSearch(cshogi.Board(CHUUAI), deadline=None, cancel=None, node_limit=None,
                           distance_rule=True, lower="sometimes")


# ---- the futility tests' own restricted game (nested_lower) -----------------------------------

def _exact_and_verdicts(sfen: str, nested_mb: int) -> tuple[str, int, list[object], int]:
    """(answer, length, the root's defences as judged at that length, nested refutations)."""
    t = _kernel(sfen, memory_mb=16, oracle_mb=16, nested_lower_mb=nested_mb)
    assert t.prove_root() == "proven"
    got, length = t.exact(sfen, True, 61)
    verdicts: list[object] = []
    if got == "yes" and length >= 3:
        # Every check of the root, its defences judged at the length less one.
        board = cshogi.Board(sfen)
        for m in board.legal_moves:
            board.push(m)
            if board.is_check() and not board.is_game_over():
                verdicts.append(t.defences(board.sfen(), length - 1)[1:])
            board.pop()
    return got, length, verdicts, int(t.nested_lower_refutations)


def _nested_sample(rows: list[dict[str, str]]) -> None:
    refuted = 0
    for r in rows:
        off = _exact_and_verdicts(r["sfen"], 0)
        on = _exact_and_verdicts(r["sfen"], 4)
        assert on[:3] == off[:3], r["id"]
        assert off[3] == 0
        refuted += on[3]
    assert refuted > 0   # the nested game did answer some futility test


def test_nested_game_answers_as_the_tsume_rules_on_a_sample() -> None:
    rows = _rows()
    # tanuki-5-232: a lance that promotes as it takes the interposed piece no longer checks; such a
    # capture is no test position, and the nested game stays out of unchecked positions anyway.
    _nested_sample(random.Random(11).sample(rows, 40) +
                   [x for x in rows if x["id"] in ("tanuki-3-454", "tanuki-7-15", "tanuki-5-38", "tanuki-5-232")])


@pytest.mark.slow
def test_nested_game_answers_as_the_tsume_rules_on_mate_tsv() -> None:
    _nested_sample(_rows())


def test_the_whole_answer_is_the_same_with_the_nested_game(monkeypatch: pytest.MonkeyPatch) -> None:
    _same_answer_either_way(monkeypatch, kernel_length.NESTED_ENV, "0", "1", 8, 25)


def test_nested_game_bad_input() -> None:
    with pytest.raises(ValueError):
        _kernel(CHUUAI, nested_lower_mb=-1)
    with pytest.raises(ValueError):   # a restricted game has no futility test to answer
        _kernel(CHUUAI, oracle=_kernel(CHUUAI), drops="none", nested_lower_mb=4)
    t = _kernel(CHUUAI, nested_lower_mb=4)
    assert t.exact(CHUUAI, True, 9) == ("yes", 5)

"""First checks of the position and move layer (the full suites live beside this file)."""

from tsume_studio.core import Position, SfenError, Status
from tsume_studio.core.shogi.moves import EvasionKind, Move, check_moves, classify_evasion, evasions, japanese_line

import pytest


def test_sfen_round_trip() -> None:
    sfen = "8k/6G2/R7P/9/9/9/9/9/9 b r2b3g4s4n4l17p 1"
    assert Position.from_sfen(sfen).sfen() == sfen


def test_bad_sfen_names_the_part() -> None:
    with pytest.raises(SfenError, match="expected 9 ranks"):
        Position.from_sfen("9/9 b - 1")


def test_no_defender_king() -> None:
    assert Position.from_sfen("9/9/9/9/9/9/9/9/9 b - 1").status() & Status.NO_DEFENDER_KING


def test_interposition_classified() -> None:
    pos = Position.from_sfen("8k/6G2/R7P/9/9/9/9/9/9 b r2b3g4s4n4l17p 1")
    assert Move.from_usi("9c9a+") in check_moves(pos)
    pos.push(Move.from_usi("9c9a+"))
    kinds = {m.usi(): classify_evasion(pos, m) for m in evasions(pos)}
    assert kinds["P*2a"].kind is EvasionKind.INTERPOSITION and kinds["P*2a"].distance == 1
    assert kinds["P*8a"].distance == 7
    assert japanese_line(Position.from_sfen("8k/6G2/R7P/9/9/9/9/9/9 b r2b3g4s4n4l17p 1"),
                         [Move.from_usi("9c9a+"), Move.from_usi("P*2a"), Move.from_usi("9a2a")]) == \
        ["▲９一飛成", "△２一歩打", "▲同　龍"]


def test_readme_python_examples() -> None:
    """The Python session in the README's "Headless use" runs as written."""
    import doctest
    import re
    from pathlib import Path

    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", readme, re.S)
    assert blocks, "README has no Python example"
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    for i, block in enumerate(blocks):
        test = parser.get_doctest(block, {}, f"README block {i}", "README.md", 0)
        runner.run(test)
    result = runner.summarize(verbose=False)
    assert result.attempted > 0 and result.failed == 0

"""A mate whose shortest is not proved in time still answers with a proof tree and the 無駄合 found.

core.search.provisional reads df-pn's proof into a Proof marked not exact
(``provisional``), with the drop squares the length search had judged futile
and the bounds it had proved; the JSON, the KIF export and the 無駄合 list show it.
"""

from __future__ import annotations

import csv
from pathlib import Path

import cshogi
import pytest

from tsume_studio.core.answer import record_from_proof, solution_record
from tsume_studio.core.cli.running import result_json
from tsume_studio.core.records.kif import to_kif
from tsume_studio.core.search import builder
from tsume_studio.core.search.length_rule import SearchAborted
from tsume_studio.core.search.contract import Limits, SolveStatus
from tsume_studio.core.search.dfpn import DfPn
from tsume_studio.core.search.tt import LENGTH, PN
from tsume_studio.core.search.proof import Proof, ProofNode, Role
from tsume_studio.core.search.solver import solve
from tsume_studio.core.shogi.position import Position

DATA = Path(__file__).resolve().parents[1] / "data"


def _sfen(name: str, row_id: str) -> str:
    with (DATA / name).open(encoding="utf-8") as f:
        return next(r for r in csv.DictReader(f, delimiter="\t") if r["id"] == row_id)["sfen"]


def _out_of_time(*_args: object, **_kw: object) -> object:
    raise SearchAborted("deadline")
    yield  # pragma: no cover - a generator like the real one


def _main_chain(proof: Proof) -> list[ProofNode]:
    out, node = [], proof.root
    while True:
        main = [c for c in node.children if c.role is Role.MAIN]
        if not main:
            return out
        assert len(main) == 1
        node = main[0]
        out.append(node)


def test_an_answer_cut_short_keeps_dfpn_proof_as_its_tree_with_the_futile_found(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # sugyan-1014: df-pn's line is 7 plies; the length search proves 5 (a drop on 7i is futile) and
    # then, here, runs out of time before building its main line: the answer is df-pn's proof.
    monkeypatch.setattr(builder.AnswerBuilder, "main_line", _out_of_time)
    sfen = _sfen("mate.tsv", "sugyan-1014")
    result = solve(Position.from_sfen(sfen), Limits(seconds=30))
    assert result.status is SolveStatus.MATE and result.extra["exact"] is False
    proof = result.proof
    assert isinstance(proof, Proof) and proof.provisional and not proof.exact
    assert proof.main_line == result.pv == result.extra["dfpn_pv"] and len(result.pv) == 7
    assert (proof.at_least, proof.at_most) == (5, 5)
    # The length given is the bound proved, not df-pn's line's length.
    assert result.length == proof.length == 5
    assert not proof.alternatives_checked
    # The tree: the main line as its MAIN chain, ending in mate; at each of its defences every
    # legal reply, each either a variation with df-pn's answer or a futile drop.
    chain = _main_chain(proof)
    assert tuple(n.move for n in chain) == proof.main_line and chain[-1].length == 0
    b = cshogi.Board(sfen)
    node = proof.root
    for k, usi in enumerate(proof.main_line):
        if k % 2 == 1:
            assert {c.move for c in node.children} == {cshogi.move_to_usi(m) for m in b.legal_moves}
            for c in node.children:
                if c.role is Role.VARIATION:
                    assert c.children and c.comment.startswith("≤ ")
        node = next(c for c in node.children if c.role is Role.MAIN)
        b.push_usi(usi)
    assert not b.legal_moves
    # The 無駄合 the length search found off df-pn's line: the knight on 7i, after its third move
    # (the silver's capture on 8h, promoting or not as df-pn's table has it).
    futile = [(f.path, f.moves) for f in proof.futile]
    assert proof.main_line[:2] == ("S*7i", "6h6i") and proof.main_line[2] in ("7i8h", "7i8h+")
    assert futile == [(tuple(proof.main_line[:3]), ("N*7i",))]
    third = next(c for c in chain[2].children if c.move == "N*7i")
    assert third.role is Role.FUTILE
    # JSON, KIF: the tree and its 無駄合, labelled as df-pn's line, the length 5 proved from both sides.
    data = result_json(result)
    assert data["exact"] is False and data["at_least"] == data["at_most"] == 5
    assert [f["move"] for f in data["futile_interpositions"]] == ["N*7i"]
    kif = to_kif(solution_record(result))
    assert "5手が最短と証明済み、正式な本譜は時間内に作れず：本譜はdf-pnの手順（7手" in kif and "無駄合" in kif
    assert "最短は未証明" not in kif
    assert "変化：" in kif  # the other defences are in the record too
    # An unproved line's leftover pieces are not 駒余り of the problem.
    assert "駒余り" not in to_kif(record_from_proof(proof))


def test_a_real_time_limit_gives_the_provisional_tree() -> None:
    # Microcosmos tail 61: df-pn proves it in a fraction of a CPU second; the exact length takes
    # the kernel's length search about 38 CPU s (tail 35, used before, it now proves within 2).
    sfen = _sfen("microcosmos.tsv", "microcosmos-tail-61")
    result = solve(Position.from_sfen(sfen), Limits(seconds=2.0, cpu_time=True))
    assert result.status is SolveStatus.MATE and result.extra["exact"] is False
    proof = result.proof
    assert isinstance(proof, Proof) and proof.provisional
    assert proof.main_line == result.pv and proof.variations > 0
    assert proof.at_most is not None and result.length == proof.length == proof.at_most
    assert result_json(result)["at_most"] == proof.at_most
    # The record says what was proved: on the machines measured the bounds have not met within 2 s.
    kif = to_kif(solution_record(result))
    if proof.at_least == proof.at_most:
        assert f"{proof.at_most}手が最短と証明済み、正式な本譜は時間内に作れず" in kif
    else:
        assert "最短は未証明：本譜はdf-pnの手順" in kif


def test_a_dfpn_line_shorter_than_its_proof_is_not_given_as_the_length(monkeypatch: pytest.MonkeyPatch) -> None:
    """df-pn's line follows the defences by their stored lengths, which need not give the longest one:
    on 将棋無双 92番 its line is 31 plies while its proof is 57 (cshogi finds no mate within 31).  A
    result not proved shortest then gives the bound proved as its length, never the line's."""
    from tsume_studio.core.search import solver

    def short_line(searcher: DfPn, board: cshogi.Board) -> list[int]:
        # A complete mating line of the proof in which the defender takes the shortest defence.
        b, line, or_node = board.copy(), [], True
        while b.legal_moves:
            if or_node:
                m = searcher.principal_variation(b)[0]
            else:
                def stored(x: int) -> int:
                    b.push(x)
                    e = searcher.entry(b)
                    mated_in_one = not b.is_check() and bool(b.mate_move_in_1ply())
                    b.pop()
                    return 1 if mated_in_one else e[LENGTH] if e is not None and e[PN] == 0 else 10**6
                m = min(b.legal_moves, key=stored)
            line.append(m)
            b.push(m)
            or_node = not or_node
        return line

    monkeypatch.setenv("TSUME_ENGINE", "python")   # the Python engine's line is read through the seam
    monkeypatch.setattr(solver, "_dfpn_line", short_line)
    sfen = _sfen("microcosmos.tsv", "microcosmos-tail-35")
    result = solve(Position.from_sfen(sfen), Limits(seconds=2.0, cpu_time=True))
    assert result.status is SolveStatus.MATE and result.extra["exact"] is False
    assert len(result.pv) < 35 <= int(str(result.extra["at_most"])) + 2   # the line is no bound
    assert result.length == result.extra["at_most"] and isinstance(result.proof, Proof)
    assert result.proof.length == result.length and result.proof.main_line == result.pv
    data = result_json(result)
    assert data["length"] == data["at_most"] != len(data["pv"])

"""The proof tree built by core.search.builder (on the Python length search): structure, roles, replay, the oracle."""

from __future__ import annotations

import csv
import dataclasses
from pathlib import Path
from typing import Any

import cshogi
import pytest

from tsume_studio.core.search.length_search import solve_official
from tsume_studio.core.shogi.position import Position
from tsume_studio.core.search.proof import FutileReason, Futility, Proof, ProofNode, Role

DATA = Path(__file__).resolve().parents[1] / "data"
with (DATA / "mate.tsv").open(encoding="utf-8") as _f:
    ROWS = {r["id"]: r["sfen"] for r in csv.DictReader(_f, delimiter="\t")}

CLASSIC = "8k/6G2/R7P/9/9/9/9/9/9 b r2b3g4s4n4l17p 1"
CASES = [CLASSIC, ROWS["tanuki-5-148"], ROWS["tanuki-3-287"], ROWS["mog-1031"], ROWS["tanuki-7-15"],
         ROWS["sugyan-1016"]]


def solve(sfen: str, oracle: object = None, **kw: Any) -> Proof:
    proof = solve_official(Position.from_sfen(sfen), oracle, **kw)  # type: ignore[arg-type]
    assert proof is not None
    return proof


def walk(node: ProofNode, path: tuple[str, ...] = ()) -> list[tuple[tuple[str, ...], ProofNode]]:
    out = [(path, node)]
    for c in node.children:
        out.extend(walk(c, path + (c.move,) if c.move else path))
    return out


@pytest.mark.parametrize("sfen", CASES)
def test_main_line_follows_main_nodes(sfen: str) -> None:
    proof = solve(sfen)
    root = proof.root
    assert root.move is None and root.role is Role.MAIN and root.length == proof.length
    node, line = root, []
    while node.children:
        mains = [c for c in node.children if c.role is Role.MAIN]
        if not mains:
            break
        assert len(mains) == 1 and node.children[0] is mains[0]  # main first
        node = mains[0]
        line.append(node.move)
    assert tuple(line) == proof.main_line
    lengths = [n.length for n in _main_nodes(root)]
    assert lengths == list(range(proof.length, -1, -1))


def _main_nodes(root: ProofNode) -> list[ProofNode]:
    out = [root]
    node = root
    while node.children and node.children[0].role is Role.MAIN:
        node = node.children[0]
        out.append(node)
    return out


@pytest.mark.parametrize("sfen", CASES)
def test_every_line_replays_and_ends_in_mate(sfen: str) -> None:
    proof = solve(sfen)
    reasons = {(f.path, m): f.reason.english() for f in proof.futile for m in f.moves}
    variations = 0
    for path, node in walk(proof.root):
        board = cshogi.Board(sfen)
        for m in path:
            move = board.move_from_usi(m)
            assert board.is_legal(move), (path, m)
            board.push(move)
        attacker_moved = len(path) % 2 == 1
        if node.role is Role.FUTILE:
            assert not node.children and reasons[(path[:-1], node.move)] == node.comment
            continue
        if node.role is Role.ALTERNATIVE:
            assert node.comment == "余詰" and board.is_check()
            continue
        if attacker_moved:
            assert board.is_check()
            defences = {c.move for c in node.children}
            legal = {cshogi.move_to_usi(m) for m in board.legal_moves}
            # Every legal defence is in the tree: counted (main/variation) or futile.
            assert defences == legal
            counted = [c for c in node.children if c.role in (Role.MAIN, Role.VARIATION)]
            variations += sum(c.role is Role.VARIATION for c in counted)
            if node.length == 0:
                assert not counted
            else:
                assert max(c.length for c in counted) == node.length - 1
                mains = [c for c in counted if c.role is Role.MAIN]
                assert all(c.length == node.length - 1 for c in mains)
        elif path:
            answers = [c for c in node.children if c.role is not Role.ALTERNATIVE]
            assert len(answers) == 1 and answers[0].length == node.length - 1
    assert variations == proof.variations


def test_classic_tree_has_futile_nodes() -> None:
    proof = solve(CLASSIC)
    (check,) = proof.root.children
    assert check.move == "9c9a+" and check.length == 0
    assert {c.role for c in check.children} == {Role.FUTILE}
    assert len(check.children) == 49  # 7 squares x 7 pieces
    assert proof.variations == 0


def test_tree_is_frozen() -> None:
    proof = solve(CLASSIC)
    with pytest.raises(dataclasses.FrozenInstanceError):
        proof.root.children[0].length = 3  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        proof.length = 3  # type: ignore[misc]


@pytest.mark.parametrize("sfen", [CLASSIC, ROWS["tanuki-5-148"], ROWS["mog-1031"]])
def test_same_answer_from_a_warm_dfpn_table(sfen: str, engine: str) -> None:
    # The warm table and the fresh one are the same engine's (the ``engine`` fixture).
    from tsume_studio.core.search.dfpn import Outcome
    from tsume_studio.core.search.kernel_oracle import KernelOracle, make_oracle

    position = Position.from_sfen(sfen)
    oracle = make_oracle(position.board(), 64)
    assert isinstance(oracle, KernelOracle) == (engine == "kernel")
    assert oracle.search(position.board().copy()) == Outcome.PROVEN
    searched = oracle.nodes
    with_table = solve(sfen, oracle)
    fresh_searches: list[Any] = []
    fresh = solve(sfen, observe=fresh_searches.append)
    # The proved root is read from the table, not searched again: the warm table's df-pn searched
    # less since (its short looks inside the length search) than the fresh one did in all.
    assert oracle.nodes - searched < fresh_searches[0].mate.oracle.nodes
    assert with_table.length == fresh.length and with_table.exact
    assert with_table.main_line == fresh.main_line
    assert len(with_table.futile) == len(fresh.futile)
    assert with_table.root.pn == 0 and with_table.root.dn > 0


def test_reason_texts() -> None:
    captured = FutileReason.CAPTURED_RETURNED
    assert Futility(captured, 1).english() == "futile: captured and returned, still mate in 1"
    assert Futility(captured).english() == "futile: captured and returned, still mate"
    assert Futility(FutileReason.DISTANCE_RULE).english() == "omitted: distance rule"
    assert Futility(captured, 3).japanese() == "取って返しても3手詰"
    assert Futility(captured).japanese() == "取って返しても詰み"
    assert Futility(FutileReason.DISTANCE_RULE).japanese() == "遠い合駒の省略"

"""Answers a thousand plies deep and more (Microcosmos is 1,525): built and read without recursion.

The builder's walk (a line below a line, a subtree below a node) runs its own calls on a
stack of its own (:func:`~tsume_studio.core.search.builder._walk`); the record writer and the
command line's tree walk a proof with work lists.  Python's recursion limit (1,000 frames) and
a thread's C stack (1 MB on Windows) would otherwise end them.
"""

from __future__ import annotations

import threading
from collections.abc import Generator
from typing import Any

import pytest

from tsume_studio.core.answer import solution_record
from tsume_studio.core.cli.solve import _print_tree
from tsume_studio.core.search.builder import _Call, _walk, _with_alternatives
from tsume_studio.core.search.contract import Progress, SolveResult, SolveStatus
from tsume_studio.core.search.proof import Proof, ProofNode, Role
from tsume_studio.core.shogi.position import Position

def _at(n: int) -> Progress:
    return Progress(nodes=n, nps=0.0, elapsed=0.0, root_pn=1, root_dn=1)


DEEP = 20_000
"""Calls deep: twenty times Python's recursion limit, beyond the C stack a deep ``yield from`` needs."""


def _count_down(n: int, seen: list[int]) -> Generator[Any, Any, int]:
    """A walk ``n`` calls deep that reports progress every thousand calls and adds up on return."""
    if n % 1000 == 0:
        yield _at(n)
    if n == 0:
        return 0
    below: int = yield _Call(_count_down(n - 1, seen))
    seen.append(n)
    return below + 1


def test_a_walk_far_deeper_than_recursion_returns_and_reports_on_a_thread() -> None:
    got: list[object] = []

    def run() -> None:
        seen: list[int] = []
        progress = []
        gen = _walk(_count_down(DEEP, seen))
        try:
            while True:
                progress.append(next(gen).nodes)
        except StopIteration as stop:
            got.append(stop.value)
        got.append(progress)
        got.append(seen[:3])

    thread = threading.Thread(target=run)
    thread.start()
    thread.join()
    assert got[0] == DEEP
    assert got[1] == list(range(DEEP, -1, -1000))   # every report, the outermost first
    assert got[2] == [1, 2, 3]                        # the callers resume innermost first


def test_an_error_deep_in_a_walk_reaches_the_caller_that_can_handle_it() -> None:
    def failing(n: int) -> Generator[Any, Any, int]:
        if n == 0:
            raise LookupError("at the bottom")
        below: int = yield _Call(failing(n - 1))
        return below + 1

    def catching() -> Generator[Any, Any, str]:
        try:
            yield _Call(failing(DEEP))
        except LookupError as exc:
            return f"caught: {exc}"
        return "not raised"

    gen = _walk(catching())
    with pytest.raises(StopIteration) as stop:
        next(gen)
    assert stop.value.value == "caught: at the bottom"


def test_closing_a_walk_closes_every_call_still_open() -> None:
    closed: list[int] = []

    def held(n: int) -> Generator[Any, Any, int]:
        try:
            if n == 0:
                yield _at(0)
                return 0
            return (yield _Call(held(n - 1)))
        finally:
            closed.append(n)

    gen = _walk(held(50))
    assert next(gen).nodes == 0
    gen.close()
    assert closed == list(range(51))   # innermost first, as yield from would close them


# A legal line of 1,600 plies (rook and king to and fro; not a mate: the readers do not ask).
SFEN = "8k/9/9/9/4R4/9/9/9/K8 b r2b4g4s4n4l18p 1"
CYCLE = ("5e5f", "1a1b", "5f5e", "1b1a")
PLIES = 1600


def _deep_proof() -> Proof:
    line = tuple(CYCLE[i % 4] for i in range(PLIES))
    below: tuple[ProofNode, ...] = ()
    for k in range(PLIES - 1, -1, -1):
        below = (ProofNode(line[k], Role.MAIN, 0, 1, PLIES - k - 1, below),)
    return Proof(sfen=SFEN, root=ProofNode(None, Role.MAIN, 0, 1, PLIES, below), main_line=line, length=PLIES,
                 exact=True)


def test_the_record_and_the_text_tree_of_a_deep_proof() -> None:
    proof = _deep_proof()
    result = SolveResult(SolveStatus.MATE, SFEN, pv=proof.main_line, length=PLIES, proof=proof,
                         extra={"exact": True})
    record = solution_record(result)
    assert tuple(m.usi() for m in record.main_line()) == proof.main_line
    lines: list[str] = []
    _print_tree(Position.from_sfen(SFEN), proof.root, 0, None, lines)
    assert len(lines) == PLIES and lines[0] == "▲５六飛" and lines[2] == "▲５五飛"


def test_the_yozume_nodes_of_a_deep_main_line_go_beside_its_moves() -> None:
    proof = _deep_proof()
    extra = ProofNode("5e4e", Role.ALTERNATIVE, 0, 1, 3, (), "余詰")
    tree = _with_alternatives(proof.root, {1: [extra], PLIES - 1: [extra]}, 1)
    node, ply, found = tree, 1, []
    while node.children:
        found += [(ply, c.move) for c in node.children if c.role is Role.ALTERNATIVE]
        node, ply = node.children[0], ply + 1
    assert found == [(1, "5e4e"), (PLIES - 1, "5e4e")]

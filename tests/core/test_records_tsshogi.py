"""ShogiHome's parser (tsshogi, under node) reads our KIF, KI2 and CSA to the same trees.

Skipped where node or the package is missing; ``npm install`` in tests/js sets it up.
"""

from __future__ import annotations

import functools
import json
import random
import shutil
import subprocess
from pathlib import Path

import pytest

from tsume_studio.core.records.csa import to_csa
from tsume_studio.core.records.ki2 import to_ki2
from tsume_studio.core.records.kif import to_kif
from tsume_studio.core.shogi.position import Position
from tsume_studio.core.search.proof import FutileInterposition, FutileReason, Futility, Proof, ProofNode, Role
from tsume_studio.core.answer import record_from_proof
from tsume_studio.core.records.model import Record, RecordNode
from tsume_studio.core.records.formats import read_record

from conftest import DATA
from test_records_helpers import random_record, solved_records, tsume_sfens

JS = Path(__file__).parents[1] / "js"
NODE = shutil.which("node")

pytestmark = pytest.mark.skipif(
    NODE is None or not (JS / "node_modules" / "tsshogi").is_dir(),
    reason="needs node and `npm install` in tests/js")

SPECIALS = {"詰み": "mate", "投了": "resign", "中断": "interrupt"}


def tsshogi_read(fmt: str, files: list[Path]) -> list[dict]:
    assert NODE is not None
    out = subprocess.run([NODE, str(JS / "read_tree.mjs"), fmt, *map(str, files)], cwd=JS,
                         capture_output=True, text=True, timeout=120, check=True)
    return [json.loads(line) for line in out.stdout.splitlines()]


def ours(record: Record, specials: bool = True) -> list:
    def walk(node: RecordNode) -> list:
        label = None if node is record.root else (
            node.move.usi() if node.move is not None else SPECIALS.get(node.special or "", node.special))
        comment = "".join(part + "\n" for c in node.comments for part in c.split("\n"))
        kids = [walk(c) for c in node.children if specials or c.move is not None]
        return [label, comment, kids]
    return walk(record.root)


def without_specials(tree: list) -> list:
    label, comment, kids = tree
    return [label, comment, [without_specials(k) for k in kids if k[0] and ("*" in k[0] or k[0][0].isdigit())]]


def records() -> list[Record]:
    rng = random.Random(21)
    sfens = tsume_sfens(300)
    recs = [read_record(DATA / "records" / "example3.kifu")]
    root = ProofNode(None, Role.MAIN, children=(
        ProofNode("R*5a", Role.MAIN, length=0, children=(ProofNode("P*2a", Role.FUTILE),)),
        ProofNode("R*4a", Role.ALTERNATIVE, length=0)))
    recs.append(record_from_proof(Proof("8k/9/6NG1/9/9/9/9/9/9 b Rr2b3g4s3n4l18p 1", root, ("R*5a",), 1,
                                        futile=(FutileInterposition(("R*5a",), "P*3a",
                                                            Futility(FutileReason.CAPTURED_RETURNED)),))))
    recs += [random_record(rng, rng.choice(sfens) if i % 2 else None, branches=4, length=14) for i in range(16)]
    return recs + _solved()


@functools.cache
def _solved() -> list[Record]:
    """Solutions of shared problems, with variations and futile-interposition comments."""
    return solved_records()


def test_kif_trees_match(tmp_path: Path) -> None:
    recs = records()
    files = []
    for i, rec in enumerate(recs):
        files.append(tmp_path / f"r{i}.kifu")
        files[-1].write_bytes(to_kif(rec).replace("\n", "\r\n").encode("utf-8"))
    for rec, got, f in zip(recs, tsshogi_read("kif", files), files):
        assert "error" not in got, (got, f.read_text(encoding="utf-8"))
        assert Position.from_sfen(got["sfen"]) == rec.start
        assert got["tree"] == ours(rec), f.read_text(encoding="utf-8")


def test_ki2_trees_match(tmp_path: Path) -> None:
    recs = records()
    files = []
    for i, rec in enumerate(recs):
        files.append(tmp_path / f"r{i}.ki2")
        files[-1].write_text(to_ki2(rec), encoding="utf-8")
    for rec, got, f in zip(recs, tsshogi_read("ki2", files), files):
        assert "error" not in got, (got, f.read_text(encoding="utf-8"))
        assert Position.from_sfen(got["sfen"]) == rec.start
        assert without_specials(got["tree"]) == without_specials(ours(rec)), f.read_text(encoding="utf-8")


def test_csa_main_lines_match(tmp_path: Path) -> None:
    recs = records()
    files = []
    for i, rec in enumerate(recs):
        files.append(tmp_path / f"r{i}.csa")
        files[-1].write_text(to_csa(rec), encoding="utf-8")
    for rec, got in zip(recs, tsshogi_read("csa", files)):
        assert Position.from_sfen(got["sfen"]) == rec.start
        line, node = [], got["tree"]
        while node[2]:
            node = node[2][0]
            line.append(node[0])
        assert [u for u in line if "*" in u or u[0].isdigit()] == [m.usi() for m in rec.main_line()]

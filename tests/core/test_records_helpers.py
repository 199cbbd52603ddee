"""Random records for the round-trip and cross-parser tests (no tests here)."""

from __future__ import annotations

import random

import cshogi

from tsume_studio.core.shogi.moves import Move
from tsume_studio.core.shogi.position import Position
from tsume_studio.core.records.model import Record, RecordNode

from conftest import DATA


def tsume_sfens(limit: int = 1000) -> list[str]:
    """Start positions of the shared direct-mate set."""
    rows = (DATA / "mate.tsv").read_text(encoding="utf-8").splitlines()[1:]
    return [r.split("\t")[1] for r in rows[:limit]]


def random_line(sfen: str, length: int, rng: random.Random) -> list[str]:
    """Up to ``length`` random legal USI moves from ``sfen`` (captures and promotions favoured)."""
    board = cshogi.Board(sfen)
    out: list[str] = []
    for _ in range(length):
        legal = [cshogi.move_to_usi(m) for m in board.legal_moves]
        if not legal:
            break
        rich = [u for u in legal if u.endswith("+") or "*" in u]
        u = rng.choice(rich if rich and rng.random() < 0.3 else legal)
        out.append(u)
        board.push_usi(u)
    return out


def tree(record: Record) -> tuple:
    """The move tree as nested (usi or special, comment lines, children) tuples."""
    def walk(node: RecordNode) -> tuple:
        label = node.special if node.move is None else node.move.usi()
        lines = tuple(part for c in node.comments for part in c.split("\n"))
        return (label, lines, tuple(walk(c) for c in node.children))
    return walk(record.root)


def random_record(rng: random.Random, sfen: str | None = None, branches: int = 3,
                  length: int = 12, comments: bool = True) -> Record:
    """A record from ``sfen`` (or the even-game start) with a main line and random variations."""
    start = Position.from_sfen(sfen) if sfen else Position.start()
    rec = Record(start=start.copy())

    def grow(parent: RecordNode, usis_before: list[str], n: int) -> None:
        pos_sfen = _sfen_after(start, usis_before)
        line = random_line(pos_sfen, n, rng)
        existing = {c.move.usi() for c in parent.children if c.move is not None}
        if not line or line[0] in existing:
            return
        node = parent
        for u in line:
            child = RecordNode(move=Move.from_usi(u))
            if comments and rng.random() < 0.15:
                child.comments.append(rng.choice(["好手", "悪手？", "詰めろ\n次に", "#評価値=315"]))
            node.children.append(child)
            node = child
        after = cshogi.Board(_sfen_after(start, usis_before + line))
        if after.is_check() and not any(True for _ in after.legal_moves):
            node.children.append(RecordNode(special="詰み"))  # as every reader marks a mate

    grow(rec.root, [], length)
    for _ in range(branches):
        # pick a node on some existing line and branch from it
        path, node = [], rec.root
        depth = rng.randrange(0, max(1, length - 1))
        for _ in range(depth):
            moves = [c for c in node.children if c.move is not None]
            if not moves:
                break
            node = rng.choice(moves)
            assert node.move is not None
            path.append(node.move.usi())
        grow(node, path, rng.randrange(1, 6))
    return rec


def _sfen_after(start: Position, usis: list[str]) -> str:
    board = cshogi.Board(start.sfen())
    for u in usis:
        board.push_usi(u)
    return board.sfen()


def solved_records(per_length: int = 3) -> list[Record]:
    """Records of solved problems from the shared set (3 to 9 plies), via the project's solver."""
    from tsume_studio.core.answer import record_from_proof
    from tsume_studio.core.search.contract import Limits, SolveStatus
    from tsume_studio.core.search.solver import solve

    rows = [r.split("\t") for r in (DATA / "mate.tsv").read_text(encoding="utf-8").splitlines()[1:]]
    out: list[Record] = []
    for length in ("3", "5", "7", "9"):
        taken = 0
        for row in rows:
            if row[2] != length or taken == per_length:
                continue
            pos = Position.from_sfen(row[1])
            if not pos.is_valid():
                continue
            result = solve(pos, Limits(seconds=10))
            assert result.status == SolveStatus.MATE, row[0]
            out.append(record_from_proof(result.proof, {"作品名": row[0], "出典": row[3]}))
            taken += 1
    return out


def main_line_only(record: Record) -> Record:
    """A copy of ``record`` keeping only the first child at each node."""
    rec = Record(start=record.start.copy(), header=dict(record.header))
    src, dst = record.root, rec.root
    while src.children:
        src = src.children[0]
        node = RecordNode(move=src.move, special=src.special, comments=list(src.comments))
        dst.children.append(node)
        dst = node
    return rec

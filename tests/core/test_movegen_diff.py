"""Move generation against two independent oracles, on random reachable positions.

The positions come from random legal playouts (fixed seed) from the start
position and from the tsume problems in ``tests/data/mate.tsv``; in tsume
playouts the attacker prefers checking moves, so checks, evasions and
interpositions are plentiful.  ``--random-positions N`` sets how many (at
least 10,000 in CI).

For every position the project's legal moves, checking moves and evasions
must equal

* cshogi's: its legal moves, and among them the ones after which the other
  side is in check (not cshogi's own check generator, which the project
  wraps);
* python-shogi's: its pseudo-legal moves filtered by its own rules, with its
  打ち歩詰め test replaced where it is wrong.  python-shogi decides 打ち歩詰め
  by asking whether any defender piece attacks the pawn, ignoring pins, so it
  calls a pawn-drop mate legal when the only capture is by a pinned piece.
  Here every checking pawn drop is decided by a real mate test: after the
  drop, does python-shogi (whose legal-move filter plays each move and so
  respects pins) find any legal reply?
"""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import NamedTuple

import cshogi
import pytest
import shogi

from tsume_studio.core.shogi.moves import (
    EvasionKind, Move, check_moves, checkers, classify_evasion, evasions, is_legal, japanese,
    legal_moves,
)
from tsume_studio.core.shogi.position import STARTING_SFEN, Position

DATA = Path(__file__).resolve().parents[1] / "data"
SEED = 20261123
QUICK = 2000  # below this many positions, skip the checks that the sample covers every case


def _tsume_sfens() -> list[str]:
    lines = (DATA / "mate.tsv").read_text(encoding="utf-8").splitlines()[1:]
    return [line.split("\t")[1] for line in lines if line.strip()]


def random_positions(n: int, seed: int = SEED) -> list[str]:
    """SFENs of ``n`` positions reached by random legal playouts (cshogi plays them)."""
    rng = random.Random(seed)
    tsume = _tsume_sfens()
    out: list[str] = []
    while len(out) < n:
        # About 1 position in 3 comes from game-like playouts, the rest from tsume.
        from_start = rng.random() < 0.15
        board = cshogi.Board(STARTING_SFEN if from_start else rng.choice(tsume))
        attacker = board.turn  # some problems have White to move
        length = rng.randint(1, 60) if from_start else rng.randint(1, 16)
        out.append(board.sfen())
        for _ in range(length):
            moves = list(board.legal_moves)
            if not moves:
                break
            # Tsume attackers mostly check, as a solver's OR nodes do; in games
            # both sides often check, so that many positions are in check with
            # both kings on the board (pins on either side).
            if from_start:
                checks = list(board.check_moves) if rng.random() < 0.6 else []
            else:
                checks = list(board.check_moves) if board.turn == attacker else []
            pool = checks if checks and (from_start or rng.random() < 0.8) else moves
            board.push(rng.choice(pool))
            out.append(board.sfen())
    return out[:n]


@pytest.fixture(scope="module")
def positions(request: pytest.FixtureRequest) -> list[str]:
    n = request.config.getoption("--random-positions")
    return random_positions(n)


def counter_check_positions(n: int, seed: int = SEED) -> list[str]:
    """Positions where the side in check can answer with a check of its own.

    They are rare in random play, so game playouts that prefer checks are
    searched for them (cshogi plays; its own check generator only picks them,
    the comparison below does not trust it).
    """
    rng = random.Random(seed)
    out: list[str] = []
    while len(out) < n:
        board = cshogi.Board(STARTING_SFEN)
        for _ in range(rng.randint(10, 120)):
            moves = list(board.legal_moves)
            if not moves:
                break
            checks = list(board.check_moves)
            board.push(rng.choice(checks if checks and rng.random() < 0.7 else moves))
            if board.is_check() and any(True for _ in board.check_moves):
                out.append(board.sfen())
                break
    return out


# ---- oracles ------------------------------------------------------------

class Answer(NamedTuple):
    legal: set[str]
    checks: set[str]
    in_check: bool
    checkers: set[str]
    evasions: set[str]
    pin_fixes: int  # pawn drops where python-shogi's own 打ち歩詰め test was wrong


def cshogi_answer(sfen: str) -> Answer:
    board = cshogi.Board(sfen)
    us_king = "K" if board.turn == cshogi.BLACK else "k"
    them_king = "k" if us_king == "K" else "K"
    placement = sfen.split()[0]
    legal: set[str] = set()
    checks: set[str] = set()
    for m in board.legal_moves:
        usi = cshogi.move_to_usi(m)
        legal.add(usi)
        if them_king in placement:
            board.push(m)
            if board.is_check():
                checks.add(usi)
            board.pop()
    in_check = us_king in placement and bool(board.is_check())
    return Answer(legal, checks, in_check, set(), legal if in_check else set(), 0)


class _OracleBoard(shogi.Board):  # type: ignore[misc]
    """python-shogi's board without repetition bookkeeping (its zobrist hash
    on every push and pop is a third of the oracle's time and plays no part in
    move generation)."""

    def zobrist_hash(self, array: object = None) -> int:
        return 0


def python_shogi_answer(sfen: str) -> Answer:
    board = _OracleBoard(sfen)
    us = board.turn
    our_king = board.king_squares[us]
    them_king = board.king_squares[us ^ 1]
    in_check = our_king is not None and board.is_check()
    legal: set[str] = set()
    checks: set[str] = set()
    fixes = 0
    blocks: dict[int, bool] = {}
    for move in board.generate_pseudo_legal_moves():
        usi = move.usi()
        drop = move.drop_piece_type
        if drop:
            # A drop only adds a blocker: it checks only with the dropped
            # piece's own attack, and it can only help its own king.
            gives = them_king is not None and bool(
                shogi.Board.attacks_from(drop, move.to_square, board.occupied, us)
                & shogi.BB_SQUARES[them_king])
            if not (gives and drop == shogi.PAWN):
                if in_check:
                    # Whether a drop answers the check depends on its square only.
                    ok = blocks.get(move.to_square)
                    if ok is None:
                        board.set_piece_at(move.to_square, shogi.Piece(drop, us))
                        ok = blocks[move.to_square] = not board.is_attacked_by(us ^ 1, our_king)
                        board.remove_piece_at(move.to_square)
                    if not ok:
                        continue
                legal.add(usi)
                if gives:
                    checks.add(usi)
                continue
        board.push(move)
        ok = not board.was_suicide()
        gives = ok and them_king is not None and board.is_check()
        if ok and gives and drop == shogi.PAWN:
            oracle_says_mate = board.was_check_by_dropping_pawn(move)
            mate = next(iter(board.generate_legal_moves()), None) is None
            fixes += oracle_says_mate != mate
            ok = not mate
        elif ok:
            ok = not board.was_check_by_dropping_pawn(move)
        board.pop()
        if ok:
            legal.add(usi)
            if gives:
                checks.add(usi)
    attackers = ({shogi.SQUARE_NAMES[sq] for sq in board.attackers(us ^ 1, our_king)}
                 if in_check else set())
    return Answer(legal, checks, in_check, attackers, legal if in_check else set(), fixes)


def project_answer(pos: Position) -> Answer:
    legal = {m.usi() for m in legal_moves(pos)}
    checks = {m.usi() for m in check_moves(pos)}
    in_check = pos.is_check()
    squares = {f"{sq // 9 + 1}{'abcdefghi'[sq % 9]}" for sq in checkers(pos)}
    return Answer(legal, checks, in_check, squares, {m.usi() for m in evasions(pos)}, 0)


def _diff(name: str, sfen: str, ours: set[str], theirs: set[str]) -> str:
    return (f"{name} differ in {sfen}: only ours {sorted(ours - theirs)}, "
            f"only theirs {sorted(theirs - ours)}")


# ---- the comparisons ------------------------------------------------------

def test_sample_is_reachable_and_varied(positions: list[str], request: pytest.FixtureRequest) -> None:
    assert len(positions) == request.config.getoption("--random-positions")
    assert len(set(positions)) >= len(positions) // 2
    in_check = sum(cshogi.Board(s).is_check() for s in positions)
    assert in_check >= len(positions) // 5, "the sample should contain many positions in check"
    assert sum(s.split()[1] == "w" for s in positions) >= len(positions) // 4


@pytest.fixture(scope="module")
def ours(positions: list[str]) -> list[Answer]:
    """The project's answers, computed once for both oracles."""
    out = []
    for sfen in positions:
        pos = Position.from_sfen(sfen)
        assert pos.sfen() == sfen
        out.append(project_answer(pos))
    return out


def _compare(sfen: str, ours: Answer, ref: Answer) -> None:
    assert ours.legal == ref.legal, _diff("legal moves", sfen, ours.legal, ref.legal)
    assert ours.checks == ref.checks, _diff("checks", sfen, ours.checks, ref.checks)
    assert ours.in_check == ref.in_check, sfen
    assert ours.evasions == ref.evasions, _diff("evasions", sfen, ours.evasions, ref.evasions)


def test_against_cshogi(positions: list[str], ours: list[Answer]) -> None:
    for sfen, answer in zip(positions, ours):
        _compare(sfen, answer, cshogi_answer(sfen))
    assert sum(len(a.checks) for a in ours) and sum(len(a.evasions) for a in ours)


def test_against_python_shogi(positions: list[str], ours: list[Answer]) -> None:
    declined = {pt: 0 for pt in "PLNSBR"}
    for sfen, answer in zip(positions, ours):
        ref = python_shogi_answer(sfen)
        _compare(sfen, answer, ref)
        assert answer.checkers == ref.checkers, _diff("checkers", sfen, answer.checkers, ref.checkers)
        _count_declined(Position.from_sfen(sfen), answer.checks, declined)
    # Checking 不成 of every piece that may decline promotion was compared
    # (a small --random-positions, for a quick run, may miss some).
    if len(positions) >= QUICK:
        assert all(declined.values()), declined


def _count_declined(pos: Position, checks: set[str], tally: dict[str, int]) -> None:
    """Count checking moves that decline promotion, by the letter of the moving piece."""
    far = (lambda sq: sq % 9 <= 2) if pos.turn == 0 else (lambda sq: sq % 9 >= 6)
    for usi in checks:
        move = Move.from_usi(usi)
        if move.from_square is None or move.promotion:
            continue
        letter = " PLNSBRGK"[pos.piece_at(move.from_square) & 15] if pos.piece_at(move.from_square) & 15 < 9 else ""
        if letter in tally and (far(move.from_square) or far(move.to_square)):
            tally[letter] += 1


def test_evasions_are_classified(positions: list[str]) -> None:
    kinds = {kind: 0 for kind in EvasionKind}
    drops = moved = double = 0
    for sfen in positions:
        pos = Position.from_sfen(sfen)
        if not pos.is_check():
            continue
        king = pos.king_square(pos.turn)
        assert king is not None
        checking = checkers(pos)
        for move in evasions(pos):
            info = classify_evasion(pos, move)
            kinds[info.kind] += 1
            if len(checking) == 2:
                double += 1
                # Double check: only the king can answer.
                assert info.kind is EvasionKind.KING_MOVE and info.checker is None, (sfen, move)
                continue
            (checker,) = checking
            assert info.checker == checker
            if move.from_square == king:
                assert info.kind is EvasionKind.KING_MOVE
                assert info.captures == (move.to_square == checker)
            elif move.to_square == checker:
                assert info.kind is EvasionKind.CAPTURE and info.captures
            else:
                assert info.kind is EvasionKind.INTERPOSITION, (sfen, move)
                # Chebyshev distance from the king, on the line to the checker.
                df = abs(move.to_square // 9 - king // 9)
                dr = abs(move.to_square % 9 - king % 9)
                assert info.distance == max(df, dr) >= 1
                assert info.is_drop == (move.drop is not None)
                drops += info.is_drop
                moved += not info.is_drop
    if len(positions) >= QUICK:
        assert all(kinds.values()), kinds
        assert drops and moved, (drops, moved)


def test_parse_and_is_legal_agree_with_generation(positions: list[str]) -> None:
    """Random USI texts (wrong promotion flags included) are legal exactly when generated."""
    rng = random.Random(SEED + 1)
    for sfen in positions[: max(1, len(positions) // 10)]:
        pos = Position.from_sfen(sfen)
        legal = {m.usi() for m in legal_moves(pos)}
        tries = [rng.choice(sorted(legal)) if legal else "7g7f" for _ in range(3)]
        for _ in range(6):
            a, b = rng.randrange(81), rng.randrange(81)
            text = f"{a // 9 + 1}{'abcdefghi'[a % 9]}{b // 9 + 1}{'abcdefghi'[b % 9]}"
            tries.append(text + rng.choice(["", "+"]))
            tries.append(f"{rng.choice('PLNSGBR')}*{text[2:]}")
        tries += [t[:4] + ("" if t.endswith("+") else "+") for t in list(tries) if "*" not in t]
        for text in tries:
            assert is_legal(pos, Move.from_usi(text)) == (text in legal), (sfen, text)


_JAPANESE = re.compile(r"^[▲△](同　|[１-９][一二三四五六七八九])"
                       r"(歩|香|桂|銀|金|角|飛|玉|と|成香|成桂|成銀|馬|龍)(打|成|不成)?$")


def test_japanese_of_every_legal_move(positions: list[str]) -> None:
    """成 exactly on promotions, 不成 exactly where the promotion was also legal, 打 on drops."""
    for sfen in positions[: max(1, len(positions) // 10)]:
        pos = Position.from_sfen(sfen)
        legal = {m.usi() for m in legal_moves(pos)}
        for move in legal_moves(pos):
            text = japanese(pos, move)
            assert _JAPANESE.match(text), (sfen, move, text)
            assert text[0] == ("▲" if pos.turn == 0 else "△")
            assert text.endswith("打") == (move.drop is not None)
            assert text.endswith("不成") == (not move.promotion and move.drop is None
                                             and move.usi() + "+" in legal), (sfen, move, text)
            assert (text.endswith("成") and not text.endswith("不成")) == move.promotion
            assert japanese(pos, move, previous_to=move.to_square)[1:3] == "同　"


def test_push_pop_follow_cshogi(positions: list[str]) -> None:
    """The position's own board and hands track cshogi's through push and pop."""
    rng = random.Random(SEED + 2)
    for sfen in positions[: max(1, len(positions) // 20)]:
        pos = Position.from_sfen(sfen)
        board = cshogi.Board(sfen)
        played = []
        for _ in range(rng.randint(1, 6)):
            moves = list(board.legal_moves)
            if not moves:
                break
            m = rng.choice(moves)
            pos.push(Move.from_cshogi(m))
            board.push(m)
            played.append(board.sfen())
            assert pos.sfen() == board.sfen()
        for expected in reversed(([sfen] + played)[:-1]):
            pos.pop()
            assert pos.sfen() == expected


def test_counter_checks() -> None:
    """Evasions that check back: both oracles agree on positions made for it."""
    found = counter_check_positions(150)
    for sfen in found:
        answer = project_answer(Position.from_sfen(sfen))
        assert answer.in_check and answer.checks, sfen
        for ref in (cshogi_answer(sfen), python_shogi_answer(sfen)):
            _compare(sfen, answer, ref)
        assert answer.checks <= answer.evasions


# ---- python-shogi's known 打ち歩詰め mistake ----------------------------------

PINNED_CAPTURE = "6+Rgk/9/9/7N1/9/9/9/9/9 b Pr2b3g4s3n4l17p 1"


def test_pawn_drop_mate_with_pinned_capturer() -> None:
    """P*1b is 打ち歩詰め: the gold on 2a could take the pawn but is pinned by the dragon."""
    pos = Position.from_sfen(PINNED_CAPTURE)
    drop = Move.from_usi("P*1b")
    assert drop not in legal_moves(pos)
    assert drop not in check_moves(pos)
    assert not is_legal(pos, drop)
    # python-shogi calls it legal: its test ignores the pin ...
    board = shogi.Board(PINNED_CAPTURE)
    assert shogi.Move.from_usi("P*1b") in board.legal_moves
    # ... yet after the drop it finds no legal reply itself, so the drop mates.
    board.push(shogi.Move.from_usi("P*1b"))
    assert next(iter(board.legal_moves), None) is None
    # The corrected oracle agrees with the project, and says it corrected one move.
    ref = python_shogi_answer(PINNED_CAPTURE)
    assert "P*1b" not in ref.legal and ref.pin_fixes == 1
    assert project_answer(pos).legal == ref.legal
    # Without the pin (dragon gone) the gold takes the pawn and the drop is legal.
    free = Position.from_sfen("7gk/9/9/7N1/9/9/9/9/9 b P2r2b3g4s3n4l17p 1")
    assert Move.from_usi("P*1b") in check_moves(free)

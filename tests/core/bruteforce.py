"""A brute-force exact mate solver for short problems: the tests' oracle.

Plain minimax to a fixed depth over cshogi's legal moves, deliberately
simple and independent of ``core.search.length_search``: no bounds, no hand dominance, no
distance rule, no df-pn.  Results are memoised per (position, depth) only.

* raw rules: every defence counts;
* tsume rules: a drop interposition is futile (and does not count) when the
  checker's capture with the piece handed back to the defender is still
  mated, in no more plies than are asked of the position and no more than
  another counted defence (or none, when it mates at once) already lasts
  (Kakinoki's rule as ``core.search.interposition`` reads it); moving interpositions always
  count.
"""

from __future__ import annotations

import cshogi

_HAND = "PLNSGBR"


def _hands_sfen(hands: tuple[list[int], list[int]]) -> str:
    text = ""
    for color in (0, 1):
        for i in (6, 5, 4, 3, 2, 1, 0):
            n = hands[color][i]
            if n:
                ch = _HAND[i] if color == 0 else _HAND[i].lower()
                text += (str(n) if n > 1 else "") + ch
    return text or "-"


def _file_rank(sq: int) -> tuple[int, int]:
    return sq // 9, sq % 9


class BruteForce:
    """Depth-limited minimax; ``tsume`` selects the rules (see the module docstring)."""

    def __init__(self, tsume: bool) -> None:
        self.tsume = tsume
        self.memo: dict[tuple[int, int], bool] = {}

    def length(self, sfen: str, max_depth: int) -> int | None:
        """Plies of the shortest mate of ``sfen`` (attacker to move), None if none within ``max_depth``."""
        board = cshogi.Board(sfen)
        for d in range(1, max_depth + 1, 2):
            if self.mates(board, d):
                return d
        return None

    def mates(self, board: cshogi.Board, d: int) -> bool:
        """The attacker to move mates within ``d`` plies."""
        if d < 1:
            return False
        key = (board.zobrist_hash(), d)
        if key in self.memo:
            return self.memo[key]
        result = False
        for m in list(board.legal_moves):
            board.push(m)
            if board.is_check() and self.mated(board, d - 1):
                result = True
            board.pop()
            if result:
                break
        self.memo[key] = result
        return result

    def mated(self, board: cshogi.Board, d: int) -> bool:
        """The defender to move (in check) is mated within ``d`` plies."""
        key = (board.zobrist_hash(), d)
        if key in self.memo:
            return self.memo[key]
        moves = list(board.legal_moves)
        if self.tsume:
            moves = self.counted(board, moves, d)
        if not moves:
            result = True
        elif d < 2:
            result = False
        else:
            result = True
            for m in moves:
                board.push(m)
                ok = self.mates(board, d - 1)
                board.pop()
                if not ok:
                    result = False
                    break
        self.memo[key] = result
        return result

    def counted(self, board: cshogi.Board, moves: list[int], d: int) -> list[int]:
        """The defences that count: board moves, and drops on squares that are not futile.

        Drop squares are judged nearest the king first; a square is futile
        when Kakinoki's test position is mated in ``k <= d`` plies and either
        ``k == 0`` or a defence already counted lasts at least ``k`` plies.
        """
        king = board.king_square(board.turn)
        kf, kr = _file_rank(king)
        counted = [m for m in moves if not cshogi.move_is_drop(m)]
        by_square: dict[int, list[int]] = {}
        for m in moves:
            if cshogi.move_is_drop(m):
                by_square.setdefault(cshogi.move_to(m), []).append(m)

        def dist(sq: int) -> int:
            f, r = _file_rank(sq)
            return max(abs(f - kf), abs(r - kr))

        for sq in sorted(by_square, key=dist):
            if not self.futile(board, by_square[sq][0], d, counted):
                counted.extend(by_square[sq])
        return counted

    def futile(self, board: cshogi.Board, m: int, d: int, others: list[int]) -> bool:
        """Kakinoki's rule for the drop ``m`` with ``d`` plies asked (see :meth:`counted`)."""
        tests = kakinoki_tests(board, m)
        if not tests:
            return False
        for test in tests:
            k = next((k for k in range(0, d + 1, 2) if self.mated(test, k)), None)
            if k is None:
                continue
            if k == 0:
                return True
            for e in others:
                board.push(e)
                longer = not self.mates(board, k - 3)
                board.pop()
                if longer:
                    return True
        return False


def kakinoki_tests(b: cshogi.Board, drop: int) -> list[cshogi.Board]:
    """The positions after the checker captures the piece ``drop`` interposes with check, the piece
    handed back to the attacker's hand as it was (Kakinoki's test positions; none without a checker)."""
    to = cshogi.move_to(drop)
    kf, kr = _file_rank(b.king_square(b.turn))
    tf, tr = _file_rank(to)
    step = ((tf > kf) - (tf < kf), (tr > kr) - (tr < kr))
    # The checker: the first piece beyond the drop square, away from the king.
    f, r = tf + step[0], tr + step[1]
    checker = None
    while 0 <= f < 9 and 0 <= r < 9:
        if b.pieces[f * 9 + r]:
            checker = f * 9 + r
            break
        f, r = f + step[0], r + step[1]
    if checker is None:
        return []
    hands = b.sfen().split()[2]
    b.push(drop)
    out = []
    for c in list(b.legal_moves):
        if not cshogi.move_is_drop(c) and cshogi.move_from(c) == checker and cshogi.move_to(c) == to:
            b.push(c)
            if not b.is_check():   # a lance promoting as it captures: no longer a check, no move of a mate
                b.pop()
                continue
            parts = b.sfen().split()
            b.pop()
            parts[2] = hands
            out.append(cshogi.Board(" ".join(parts)))
    b.pop()
    return out


def raw_length(sfen: str, max_depth: int) -> int | None:
    """Shortest mate under raw rules (every interposition counts)."""
    return BruteForce(False).length(sfen, max_depth)


def tsume_length(sfen: str, max_depth: int) -> int | None:
    """Shortest mate under tsume rules (futile drop interpositions do not count)."""
    return BruteForce(True).length(sfen, max_depth)

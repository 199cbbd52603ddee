"""Depth-first proof-number search (df-pn) for direct mates.

The search follows [Qhapaq 2020]: every node keeps a proof number
(pn) and a disproof number (dn); a node is searched while both stay under
thresholds handed down by its parent, and its best child gets thresholds
derived from the second-best sibling.  On top of the plain algorithm:

* **Transposition table with hand dominance** (core.tt, core.hand): proof and
  disproof hands let one entry answer many hands ([ComShogi ch. 9]).
* **Loops.**  A child that repeats a position on the current path is not a mate
  for the attacker (連続王手の千日手).  Such a verdict depends on the path, so a
  disproof built on it is never written to the table until the search has
  backed up to the repeated position itself, where it becomes a true
  disproof; proofs never rest on a repetition, so the search never reports a
  position both proven and disproven (no GHI mistakes).  The TCA rule of
  [Qhapaq 2020] is applied as well, to one of its two triggers, its raises
  counted as KomoringHeights counts them: a child that repeats a position on
  the path adds one raise; while raises are pending, a node's thresholds sit
  just past its numbers, each first visit of a child spends one, and a node
  that entered with raises pending goes back to its parent once they are
  spent, so the search is not trapped by the loop.  The seed's other trigger,
  a child in the table first met nearer the root, is left out: on long
  problems it fires at most transpositions and costs more than it saves
  (docs/benchmarks.md).  The kernel (``dfpn.h``) does the same.
* **1-ply mate test** at OR nodes (cshogi's ``mate_move_in_1ply``), applied when
  a node is entered and when an AND node first looks at its children; never
  when the attacker is in check (a defence that checks back), where cshogi's
  test may answer a move that is not legal.
* **Initial pn/dn from move categories**: an unexpanded child starts with pn
  (AND children: the number of evasions) or dn (OR children: 1) plus a cost
  per move category, a log-probability added like depth as in
  realization-probability search ([Gekisashi RPS]), measured on solved
  problems by ``tools/calibrate_costs.py``.
* **Double-counting control** (optional, ``Options.summing``): summed numbers
  that count a merged position once (source grouping after [Kishimoto 2010])
  or weak numbers ([Ueda 2008]).
* **1+ε thresholds** (optional) to cut re-expansions.
* **Bounded memory**: the table collects its cheapest entries when full.

Boards are cshogi ``Board`` objects (C++); the side to move at an OR node is
the attacker.  The search is a plain recursive function; it stops cleanly
when told to (cancel flag, deadline, node limit or a pause for a progress
report) and can be resumed from the root with the table intact.
"""

from __future__ import annotations

import enum
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final

import cshogi

from .hand import (
    HAND_OF_PIECE_TYPE,
    HAND_ZOBRIST,
    MASK64,
    UNIT,
    hand_key,
    hand_max,
    pack,
)
from .node import (
    NOREP,
    Children,
    disproof_rep,
    select_child,
    select_child_grouped,
    select_child_weak,
)
from .policy import MovePolicy, all_at_once, delay_by_hand, delay_drops, delay_far_drops
from .tt import INF, NO_LENGTH, Entry, TranspositionTable

_HAND_MASKS: Final[tuple[int, ...]] = tuple(
    ((1 << 5) - 1 if i == 0 else (1 << 3) - 1 if i < 5 else (1 << 2) - 1) * UNIT[i] for i in range(7))


class Outcome(enum.IntEnum):
    """What a (possibly interrupted) search established about its root."""

    UNKNOWN = 0
    PROVEN = 1
    DISPROVEN = 2


@dataclass(frozen=True, slots=True)
class Options:
    """Switches for the enhancements, so each can be measured on and off.

    Attributes:
        mate1: the 1-ply mate test at OR nodes.
        dominance: proof/disproof hands and hand dominance in the table.
        tca: raise thresholds (counted raises) when a child repeats a position on the path.
        rps: initial pn/dn from move categories (else pn = evasion count, dn = 1).
        epsilon: the 1+ε trick's ε for the best child's threshold (0: off).
        max_ply: deepest ply searched; deeper nodes count as not mate on that path.
        mate3: cshogi's 3-ply mate search (``mate_move(3)``, C++) at OR nodes
            after the 1-ply test fails, used only when the attacker has no
            king, so no defence can check back and the search's assumption
            holds; such a node is stored proven with the whole hand as its
            proof hand.
        delay: delayed expansion of drop interpositions (core.search.policy):
            ``"far"`` chains the drops beyond the squares next to the king
            (:func:`~.policy.delay_far_drops`), ``"all"`` every drop
            (:func:`~.policy.delay_drops`), ``"hand"`` every drop where the
            defender holds three kinds of piece or more and the far ones
            elsewhere (:func:`~.policy.delay_by_hand`, the default: on
            将棋無双 and Microcosmos' long tails df-pn's time a half to two
            thirds of ``"far"``'s, docs/benchmarks.md 2026-12-07 23:30 UTC),
            ``"off"`` expands every move at once.
        summing: how a node adds up its children's numbers (dn at an OR node,
            pn at an AND node), against double counting where positions
            merge: ``"sum"`` the plain sum; ``"source"`` children whose
            numbers come from the same source position count once
            ([Kishimoto 2010]'s SNDA, :func:`~.node.grouped_sum`); ``"weak"``
            the largest number plus one per other undecided child
            ([Ueda 2008], :func:`~.node.weak_sum`).  Every mode decides a
            node exactly when the plain sum does.
    """

    mate1: bool = True
    dominance: bool = True
    tca: bool = True
    rps: bool = True
    epsilon: float = 0.25
    max_ply: int = 4000
    delay: str = "hand"
    mate3: bool = True
    summing: str = "sum"


# Options.summing's modes.
SUMMING_MODES = ("sum", "source", "weak")

YIELD_NS = 1_000_000
"""A search on its own thread offers the interpreter lock this often (ns of time.perf_counter_ns).
A thread waiting for the lock then waits about this long plus the switch interval, at a cost of
about 0.3 % of the search's CPU time (docs/benchmarks.md, "The window while it solves")."""
BREATHE_NODES = 16
"""Nodes between two looks at the clock for YIELD_NS (a node takes tens of µs, more at a large expansion)."""

# Options.delay's modes and their move-list policies.
DELAY_POLICIES: dict[str, MovePolicy] = {"far": delay_far_drops, "all": delay_drops, "hand": delay_by_hand,
                                         "off": all_at_once}

# Move-category costs, added to a child's initial pn (attacker moves) or dn
# (defender moves): round(log2(p_best / p)), where p is how often a move of
# the category was the proof's move (OR nodes) or the hardest defence (AND
# nodes) among the moves of that category generated, measured by
# tools/calibrate_costs.py on the proofs of the even rows of mate.tsv and
# musou.tsv (2026-11-23; the odd rows held out, see docs/benchmarks.md).
# Measured p: capture 0.25, promote 0.12, near 0.10, drop_far 0.018,
# far 0.013, no_promote 0.005; capture 0.49, king 0.36, interpose_far 0.10,
# interpose_near 0.048, interpose_move 0.040.
ATTACK_COST = {"near": 1, "capture": 0, "promote": 1, "far": 4, "drop_far": 4, "no_promote": 5}
DEFENCE_COST = {"king": 0, "capture": 0, "interpose_move": 4, "interpose_near": 3, "interpose_far": 2}

# Which pieces gain from promotion so much that declining it is rarely right.
_STRONG_PROMOTION: Final = frozenset((1, 5, 6))     # pawn, bishop, rook (cshogi piece types)


def _distance(a: int, b: int) -> int:
    """King-move distance between two squares."""
    return max(abs(a // 9 - b // 9), abs(a % 9 - b % 9))


# Squares next to (or on) each square, and each side's promotion zone, as bit masks.
_NEAR: Final[tuple[int, ...]] = tuple(sum(1 << t for t in range(81) if _distance(s, t) <= 1) for s in range(81))
_ZONE: Final[tuple[int, int]] = (sum(1 << t for t in range(81) if t % 9 <= 2),
                                 sum(1 << t for t in range(81) if t % 9 >= 6))
_A_NEAR: Final = ATTACK_COST["near"]
_A_CAPTURE: Final = ATTACK_COST["capture"]
_A_PROMOTE: Final = ATTACK_COST["promote"]
_A_FAR: Final = ATTACK_COST["far"]
_A_DROP_FAR: Final = ATTACK_COST["drop_far"]
_A_NO_PROMOTE: Final = ATTACK_COST["no_promote"]
_D_KING: Final = DEFENCE_COST["king"]
_D_CAPTURE: Final = DEFENCE_COST["capture"]
_D_MOVE: Final = DEFENCE_COST["interpose_move"]
_D_NEAR: Final = DEFENCE_COST["interpose_near"]
_D_FAR: Final = DEFENCE_COST["interpose_far"]


def attack_category(move: int, king: int, zone: int) -> str:
    """The :data:`ATTACK_COST` category of an attacker's check (cshogi move int)."""
    to = move & 0x7F
    frm = (move >> 7) & 0x7F
    near = (_NEAR[king] >> to) & 1
    if frm >= 81:
        return "near" if near else "drop_far"
    if (move >> 20) & 0xF:
        return "capture"
    if move & 0x4000:
        return "promote"
    if (move >> 16) & 0xF in _STRONG_PROMOTION and ((zone >> to) & 1 or (zone >> frm) & 1):
        return "no_promote"   # could have promoted and did not
    return "near" if near else "far"


def defence_category(move: int, king: int) -> str:
    """The :data:`DEFENCE_COST` category of a defender's reply to check."""
    frm = (move >> 7) & 0x7F
    if frm == king:
        return "king"
    if (move >> 20) & 0xF:
        return "capture"
    if frm >= 81:
        return "interpose_near" if (_NEAR[king] >> (move & 0x7F)) & 1 else "interpose_far"
    return "interpose_move"


def attack_cost(move: int, king: int, zone: int) -> int:
    """Realization-probability cost of an attacker's check (cshogi move int)."""
    return ATTACK_COST[attack_category(move, king, zone)]


def defence_cost(move: int, king: int) -> int:
    """Realization-probability cost of a defender's reply to check."""
    return DEFENCE_COST[defence_category(move, king)]


class DfPn:
    """A df-pn searcher with its table; the table is kept between searches.

    Args:
        attacker: the attacker's colour (0 Black, 1 White).
        memory_mb: the table's memory bound.
        options: which enhancements are on.
        policy: which moves a node expands at once and which wait (core.search.policy);
            by default the one ``options.delay`` names.
    """

    def __init__(self, attacker: int, memory_mb: int = 1024, options: Options = Options(),
                 policy: MovePolicy | None = None) -> None:
        self.attacker = attacker
        self.options = options
        if policy is None:
            if options.delay not in DELAY_POLICIES:
                raise ValueError(f"unknown delay mode {options.delay!r}: expected one of "
                                 f"{', '.join(DELAY_POLICIES)}")
            policy = DELAY_POLICIES[options.delay]
        if options.summing not in SUMMING_MODES:
            raise ValueError(f"unknown summing mode {options.summing!r}: expected one of "
                             f"{', '.join(SUMMING_MODES)}")
        self.policy = policy
        self.tt = TranspositionTable(memory_mb)
        self.nodes = 0
        self.max_depth_reached = 0
        # Stop conditions of the running search.
        self._abort = False
        self._paused = False
        self._next_check = 0
        self._node_limit: int | None = None
        self._deadline: float | None = None
        self._report_every: float | None = None
        self._next_full = 0
        self._next_yield = 0
        self._clock: Callable[[], float] = time.monotonic
        self._pause_at: float | None = None
        self._cancel: Any = None
        self._onpath: dict[int, int] = {}
        self._tca_raises = 0    # TCA raises pending on the current path
        self._mate3 = False
        # Frames of the current path, for progress snapshots:
        # [moves, cpn, cdn, or_node, selected index]
        self._frames: list[list[Any]] = []
        self.snapshot_path: list[tuple[int, list[int], list[int], list[int], bool]] = []
        self._eps = 1.0 + options.epsilon
        self._hz = HAND_ZOBRIST
        # Double-counting control (options.snda): per unresolved node's full key,
        # (source of its min-side number, source of its summed number).
        self._sources: dict[int, tuple[int, int]] = {}

    # ---- public API ----------------------------------------------------

    def search(self, board: cshogi.Board, *, or_node: bool = True, node_limit: int | None = None,
               deadline: float | None = None, cancel: Any = None,
               pause_at: float | None = None, clock: Callable[[], float] = time.monotonic,
               report_every: float | None = None) -> Outcome:
        """Search ``board`` (attacker to move when ``or_node``) until decided or stopped.

        Args:
            node_limit: stop after this many nodes in total (``self.nodes``).
            deadline: stop once ``clock()`` reaches this value.
            cancel: anything with ``is_set()``; checked every 1024 nodes.
            pause_at: return ``UNKNOWN`` at this monotonic time with
                :attr:`paused` set, so the caller can report progress and
                call again; the table keeps what was learnt.
            clock: the deadline's clock (``time.process_time`` for a limit in CPU time).
            report_every: instead of returning at ``pause_at``, refresh
                :attr:`snapshot_path` then and every ``report_every`` seconds
                after, and go on: for a search on its own thread, read by
                another.  A pause unwinds the path, and the path-dependent
                knowledge on it (disproofs resting on a repetition, released
                interposition chains) has to be found again after it.
        """
        self._abort = False
        self._paused = False
        self._node_limit = node_limit
        self._deadline = deadline
        self._clock = clock
        self._cancel = cancel
        self._pause_at = pause_at
        self._report_every = report_every
        self._next_check = self.nodes
        self._next_full = self.nodes
        self.snapshot_path = []
        key, hand, zob, hc = self._root_keys(board)
        self._mate3 = self.options.mate3 and board.king_square(self.attacker) >= 81
        old_limit = sys.getrecursionlimit()
        sys.setrecursionlimit(max(old_limit, self.options.max_ply * 2 + 1000))
        try:
            self._onpath = {}
            self._frames = []
            self._tca_raises = 0
            pn, dn, _rep, _len, _hand = self._search(board, or_node, key, hand, zob, hc, INF, INF, 0)
        finally:
            sys.setrecursionlimit(old_limit)
        if pn == 0:
            return Outcome.PROVEN
        if dn == 0 and _rep == NOREP:
            return Outcome.DISPROVEN
        return Outcome.UNKNOWN

    @property
    def paused(self) -> bool:
        """True when the last :meth:`search` returned to let the caller report progress."""
        return self._paused

    def lookup(self, board: cshogi.Board, or_node: bool = True) -> tuple[int, int]:
        """(pn, dn) of ``board`` from the table; ``(1, 1)`` when it holds nothing."""
        e = self._probe_board(board)
        if e is None:
            return 1, 1
        return e[1], e[2]

    def entry(self, board: cshogi.Board) -> Entry | None:
        """The table entry that answers ``board``, or None."""
        return self._probe_board(board)

    def principal_variation(self, board: cshogi.Board, or_node: bool = True,
                            limit: int = 10000) -> list[int]:
        """A mating line from the table: shortest attacker move, longest defence.

        Follows the stored proof lengths; this is df-pn's line, not
        necessarily the shortest mate (the official answer, core.search.builder, computes that).
        """
        b = board.copy()
        pv: list[int] = []
        seen: set[int] = set()
        while len(pv) < limit:
            z = b.zobrist_hash()
            if z in seen:
                break
            seen.add(z)
            moves = list(b.check_moves) if or_node else list(b.legal_moves)
            if not moves:
                break
            best, best_len = 0, None
            for m in moves:
                b.push(m)
                if or_node and not b.legal_moves:
                    length: int | None = 0
                elif not or_node and not b.is_check() and b.mate_move_in_1ply():
                    length = 1
                else:
                    e = self._probe_board(b)
                    length = e[5] if (e is not None and e[1] == 0 and e[5] != NO_LENGTH) else None
                b.pop()
                if length is None:
                    if not or_node:
                        return pv  # a defence the table does not answer
                    continue
                if best_len is None or (length < best_len if or_node else length > best_len):
                    best, best_len = m, length
            if best_len is None and or_node:
                # Proven by the 3-ply mate search: its move is in the node's own entry.
                e = self._probe_board(b)
                if e is not None and e[1] == 0 and e[5] == 3 and e[6] in moves:
                    best, best_len = e[6], 2
            if best_len is None:
                break
            pv.append(best)
            b.push(best)
            or_node = not or_node
        return pv

    # ---- keys ------------------------------------------------------------

    def _root_keys(self, board: cshogi.Board) -> tuple[int, int, int, int]:
        hands = board.pieces_in_hand
        hc = hand_key(hands[0], hands[1])
        zob = board.zobrist_hash()
        return (zob - hc) & MASK64, pack(hands[self.attacker]), zob, hc

    def _probe_board(self, board: cshogi.Board) -> Entry | None:
        key, hand, _zob, _hc = self._root_keys(board)
        return self.tt.probe(key, hand) if self.options.dominance else self._probe_exact(key, hand)

    def _probe_exact(self, key: int, hand: int) -> Entry | None:
        lst = self.tt.table.get(key)
        if lst is None:
            return None
        for e in lst:
            if e[0] == hand:
                return e
        return None

    # ---- stop conditions --------------------------------------------------

    def _check_stop(self) -> None:
        if self._report_every is not None:
            # On its own thread: the interpreter hands the lock over only
            # every switch interval (5 ms), and the GUI thread needs it at every
            # return from Qt, so offer it on a clock (every YIELD_NS) rather
            # than a node count (a node's cost varies a hundredfold), and
            # look at the cancel flag as often.  The full checks below stay
            # on their node schedule, so the nodes searched do not change.
            self._breathe()
            if self._cancel is not None and self._cancel.is_set():
                self._abort = True
                self._refresh_snapshot()
                return
            if self.nodes < self._next_full:
                self._next_check = min(self.nodes + BREATHE_NODES, self._next_full)
                return
        self._next_check = self.nodes + 1024
        if self._node_limit is not None and self._next_check > self._node_limit > self.nodes:
            self._next_check = self._node_limit   # stop at the limit exactly
        self._next_full = self._next_check
        if self._report_every is not None:
            self._next_check = min(self.nodes + BREATHE_NODES, self._next_full)
        if self.tt.over_limit():
            self.tt.collect(breathe=self._breathe if self._report_every is not None else None)
        if self._cancel is not None and self._cancel.is_set():
            self._abort = True
        elif self._node_limit is not None and self.nodes >= self._node_limit:
            self._abort = True
        else:
            if self._deadline is not None and self._clock() >= self._deadline:
                self._abort = True
            elif self._pause_at is not None and time.monotonic() >= self._pause_at:
                if self._report_every is None:
                    self._abort = True
                    self._paused = True
                else:
                    self._refresh_snapshot()
                    self._pause_at = time.monotonic() + self._report_every
        if self._abort:
            # The path as it is now, for the progress report.
            self._refresh_snapshot()

    def release(self, breathe: Callable[[], None]) -> None:
        """Empty the tables a few hundred entries at a time, ``breathe`` in between (as TranspositionTable.release)."""
        sources = self._sources
        self._sources = {}
        n = 0
        while sources:
            sources.popitem()
            n += 1
            if n & 511 == 0:
                breathe()
        self.tt.release(breathe)

    def _breathe(self) -> None:
        """Offer the interpreter lock if YIELD_NS have passed since it was last offered."""
        now = time.perf_counter_ns()
        if now >= self._next_yield:
            time.sleep(0)   # releases the lock; a thread waiting for it runs now
            self._next_yield = time.perf_counter_ns() + YIELD_NS

    def _refresh_snapshot(self) -> None:
        """Copy the current path into :attr:`snapshot_path` (a new list, so a reader never sees it change)."""
        self.snapshot_path = [(f[4], list(f[0]), list(f[1]), list(f[2]), f[3]) for f in self._frames]


    # ---- proof hands -------------------------------------------------------

    def _defender_gap(self, board: cshogi.Board, hand: int) -> int:
        """Attacker pieces of the kinds the defender has none of in hand.

        With fewer of those the defender would hold some and might interpose,
        so a proof at a position where the defender is in check keeps them.
        """
        d = board.pieces_in_hand[1 - self.attacker]
        out = 0
        for i in range(7):
            if d[i] == 0:
                out |= hand & _HAND_MASKS[i]
        return out

    def _mated_hand(self, board: cshogi.Board, hand: int) -> int:
        """Proof hand of a position where the defender is mated."""
        return self._defender_gap(board, hand) if self.options.dominance else hand

    def _or_proof_hand(self, move: int, child_hand: int, hand: int) -> int:
        """Proof hand of an OR node proved by ``move`` whose child's proof hand is ``child_hand``."""
        if not self.options.dominance:
            return hand
        frm = (move >> 7) & 0x7F
        if frm >= 81:  # a drop needs the dropped piece
            return child_hand + UNIT[HAND_OF_PIECE_TYPE[frm - 80]]
        cap = (move >> 20) & 0xF
        if cap:
            u = UNIT[HAND_OF_PIECE_TYPE[cap]]
            mask = _HAND_MASKS[HAND_OF_PIECE_TYPE[cap]]
            if child_hand & mask:
                return child_hand - u
        return child_hand

    def _mate1_hand(self, board: cshogi.Board, move: int, hand: int) -> int:
        """Proof hand of an OR node mated in one by ``move``."""
        if not self.options.dominance:
            return hand
        child = self._child_hand(move, hand)
        board.push(move)
        mated = self._defender_gap(board, child)
        board.pop()
        return self._or_proof_hand(move, mated, hand)

    @staticmethod
    def _child_hand(move: int, hand: int) -> int:
        """The attacker's hand after the attacker plays ``move``."""
        frm = (move >> 7) & 0x7F
        if frm >= 81:
            return hand - UNIT[HAND_OF_PIECE_TYPE[frm - 80]]
        cap = (move >> 20) & 0xF
        if cap:
            return hand + UNIT[HAND_OF_PIECE_TYPE[cap]]
        return hand

    # ---- the search ------------------------------------------------------------

    def _search(self, board: cshogi.Board, or_node: bool, key: int, hand: int, zob: int, hc: int,
                thpn: int, thdn: int, depth: int) -> tuple[int, int, int, int, int]:
        """Search one node; returns (pn, dn, repetition depth, proof length, proof/disproof hand).

        The node's moves go through the move-list policy (``policy``: which
        wait), its children get their numbers from :meth:`_expand`; each round of the loop picks a child with
        :func:`~.node.select_child` and searches it; :meth:`_prove` and
        :func:`~.node.disproof_rep` back the result up into the table.
        """
        self.nodes += 1
        if self.nodes >= self._next_check:
            self._check_stop()
        if depth > self.max_depth_reached:
            self.max_depth_reached = depth
        start_nodes = self.nodes

        # cshogi's 1-ply mate test assumes the attacker is not in check.
        if or_node and self.options.mate1 and not board.is_check():
            m = board.mate_move_in_1ply()
            if m:
                return self._mate_in_one(board, m, key, hand, depth)
            if self._mate3:
                m = board.mate_move(3)
                if m:
                    # Proven in three by C++; the whole hand is a (large) proof hand.
                    self.tt.store(key, hand, 0, INF, depth, 1, 3, m)
                    return 0, INF, NOREP, 3, hand
        moves = list(board.check_moves) if or_node else list(board.legal_moves)
        if not moves or depth >= self.options.max_ply:
            return self._leaf(board, or_node, key, hand, depth, moves)
        king = board.king_square(1 - self.attacker)
        if self.policy is all_at_once:
            c = Children(moves)
        else:
            active, chains = self.policy(board, or_node, moves, king)
            c = Children(active, chains)
        self._expand(board, c, or_node, hand, hc, depth, 0, king)
        onpath = self._onpath
        onpath[zob] = depth
        moves, ckey, chand, czob, chc = c.moves, c.key, c.hand, c.zob, c.hc
        cpn, cdn, crep, clen, cph, cnew = c.pn, c.dn, c.rep, c.length, c.ph, c.new
        frame = [moves, cpn, cdn, or_node, -1]
        self._frames.append(frame)
        eps = self._eps
        summing = self.options.summing
        groups = self._groups(czob) if summing == "source" else None
        weak = summing == "weak"
        # The TCA rule of [Qhapaq 2020], its raises counted: a child repeating a position of the
        # path adds one; while raises are pending the node's thresholds sit just past its numbers,
        # each first visit of a child spends one, and a node that entered with raises pending
        # goes back to its parent once they are spent.
        raises_in = self._tca_raises
        if c.old:
            self._tca_raises += 1
        spent = False
        while True:
            lift = self._tca_raises > 0
            if weak:
                pn, dn, i1, c_thpn, c_thdn = select_child_weak(cpn, cdn, or_node, c.pending, thpn, thdn, eps, lift)
            elif groups is None:
                pn, dn, i1, c_thpn, c_thdn = select_child(cpn, cdn, or_node, c.pending, thpn, thdn, eps, lift)
            else:
                if len(groups) < len(czob):      # moves released from a chain
                    groups.extend(self._groups(czob[len(groups):]))
                pn, dn, i1, c_thpn, c_thdn = select_child_grouped(cpn, cdn, or_node, c.pending, thpn, thdn,
                                                                  eps, groups, lift)
            # A node whose raises are spent goes back to the parent with its numbers as they stand.
            if i1 < 0 or self._abort or spent:
                break
            frame[4] = i1
            if cnew[i1] and self._tca_raises:
                self._tca_raises -= 1
            board.push(moves[i1])
            r = self._search(board, not or_node, ckey[i1], chand[i1], czob[i1], chc[i1],
                             c_thpn, c_thdn, depth + 1)
            cnew[i1] = False
            board.pop()
            cpn[i1], cdn[i1], crep[i1], clen[i1], cph[i1] = r
            if groups is not None:
                src = self._sources.get(czob[i1])
                groups[i1] = czob[i1] if src is None else src[0]
            if c.pending and (r[1] if or_node else r[0]) == 0:
                self._release(board, c, i1, or_node, hand, hc, depth)
            spent = raises_in > 0 and self._tca_raises == 0

        self._tca_raises = min(self._tca_raises, raises_in)
        self._frames.pop()
        del onpath[zob]
        if groups is not None:
            self._set_source(zob, c, or_node, pn, dn, groups)
        amount = self.nodes - start_nodes + 1
        if pn == 0:
            length, ph, move = self._prove(board, c, or_node, hand)
            self.tt.store(key, ph, 0, INF, depth, amount, length, move)
            return 0, INF, NOREP, length, ph
        if dn == 0:
            rep = disproof_rep(cdn, crep, or_node)
            if rep >= depth:
                # Only repetitions of this very node (or none): a true disproof.
                self.tt.store(key, hand, INF, 0, depth, amount)
                return INF, 0, NOREP, NO_LENGTH, hand
            return INF, 0, rep, NO_LENGTH, hand
        self.tt.store(key, hand, pn, dn, depth, amount)
        return pn, dn, NOREP, NO_LENGTH, hand

    # ---- double-counting control ------------------------------------------------

    def _groups(self, czob: list[int]) -> list[int]:
        """Per child (by full key), the source its min-side number comes from (itself when unknown)."""
        get = self._sources.get
        return [z if s is None else s[0] for z, s in zip(czob, map(get, czob), strict=True)]

    def _set_source(self, zob: int, c: Children, or_node: bool, pn: int, dn: int, groups: list[int]) -> None:
        """Record where this node's two numbers come from, after [Kishimoto 2010]'s SNDA.

        The min-side number (pn at an OR node, dn at an AND node) is the best
        child's summed number, so it comes from that child's summed source.
        The summed number comes from one child's source when that child holds
        at least half of it, else from this node itself.  A parent that sums
        two children whose min-side sources coincide holds one position's
        number twice, and :func:`~.node.grouped_sum` counts it once.  Decided
        nodes need no record.
        """
        sources = self._sources
        if pn == 0 or dn == 0 or self._abort:
            sources.pop(zob, None)
            return
        least, summed = (c.pn, c.dn) if or_node else (c.dn, c.pn)
        best = least.index(min(least))
        s = sources.get(c.zob[best])
        s_min = c.zob[best] if s is None else s[1]
        most = max(summed)
        s_sum = groups[summed.index(most)] if 2 * most >= (dn if or_node else pn) else zob
        if len(sources) > self.tt.max_entries:
            sources.clear()
        sources[zob] = (s_min, s_sum)

    def _mate_in_one(self, board: cshogi.Board, move: int, key: int, hand: int, depth: int
                     ) -> tuple[int, int, int, int, int]:
        """Store and return the result of an OR node the attacker mates in one with ``move``."""
        ph = self._mate1_hand(board, move, hand)
        self.tt.store(key, ph, 0, INF, depth, 1, 1, move)
        return 0, INF, NOREP, 1, ph

    def _leaf(self, board: cshogi.Board, or_node: bool, key: int, hand: int, depth: int,
              moves: list[int]) -> tuple[int, int, int, int, int]:
        """The result of a node with no move (no check left, or mated) or past the depth limit."""
        if moves:
            # Too deep: not mate on this path, and never a true disproof.
            return INF, 0, -1, NO_LENGTH, hand
        if or_node:
            self.tt.store(key, hand, INF, 0, depth, 1)
            return INF, 0, NOREP, NO_LENGTH, hand
        ph = self._mated_hand(board, hand)
        self.tt.store(key, ph, 0, INF, depth, 1, 0)
        return 0, INF, NOREP, 0, ph

    def _release(self, board: cshogi.Board, c: Children, i: int, or_node: bool, hand: int, hc: int,
                 depth: int) -> None:
        """Child ``i`` was decided against the node: let the move waiting behind it join."""
        j = c.release(i)
        if j >= 0:
            self._expand(board, c, or_node, hand, hc, depth, j, board.king_square(1 - self.attacker))

    def _expand(self, board: cshogi.Board, c: Children, or_node: bool, hand: int, hc: int, depth: int,
                start: int, king: int) -> None:
        """Give children ``start..`` of ``c`` their keys and numbers: table values or initial estimates.

        A child repeating a position on the current path is not a mate there
        (pn = INF, dn = 0, with the depth of the repetition).  An unknown OR
        child (AND node below) starts with pn = its number of evasions, an
        unknown AND child with dn = 1, each plus its move category's cost
        when ``rps`` is on; a child mated outright, or mated in one, is
        proven at once.  A chain head decided against the node releases the
        move waiting behind it, which is expanded in turn.
        """
        opts = self.options
        probe = self.tt.probe if opts.dominance else self._probe_exact
        stored = self.tt.table.get        # most children are new: skip the probe then
        onpath = self._onpath
        hz = self._hz[self.attacker if or_node else 1 - self.attacker]
        rps = opts.rps
        mate1 = opts.mate1
        tca = opts.tca
        zone = _ZONE[self.attacker]
        near = _NEAR[king]
        push, pop, zobrist = board.push, board.pop, board.zobrist_hash
        moves, ckey, chand, czob, chc = c.moves, c.key, c.hand, c.zob, c.hc
        cpn, cdn, crep, clen, cph, cnew = c.pn, c.dn, c.rep, c.length, c.ph, c.new
        chained = bool(c.chain_of)
        while start < len(moves):
            end = len(moves)
            for i in range(start, end):
                m = moves[i]
                # Keys of the child, kept up to date from the move.
                frm = (m >> 7) & 0x7F
                c_hc = hc
                c_hand = hand
                if frm >= 81:
                    hidx = HAND_OF_PIECE_TYPE[frm - 80]
                    c_hc = (hc - hz[hidx]) & MASK64
                    if or_node:
                        c_hand = hand - UNIT[hidx]
                else:
                    cap = (m >> 20) & 0xF
                    if cap:
                        hidx = HAND_OF_PIECE_TYPE[cap]
                        c_hc = (hc + hz[hidx]) & MASK64
                        if or_node:
                            c_hand = hand + UNIT[hidx]
                push(m)
                z = zobrist()
                k = (z - c_hc) & MASK64
                ckey[i] = k
                chand[i] = c_hand
                czob[i] = z
                chc[i] = c_hc
                rep = onpath.get(z)
                if rep is not None:
                    # A repetition of a position on the current path: not mate here.
                    # It is also the "unproven old child" of [Qhapaq 2020]: raise thresholds.
                    cpn[i] = INF
                    cdn[i] = 0
                    crep[i] = rep
                    if tca:
                        c.old = True
                else:
                    e = probe(k, c_hand) if stored(k) is not None else None
                    if e is not None:
                        cpn[i] = e[1]
                        cdn[i] = e[2]
                        cnew[i] = False
                        if e[1] == 0 or e[2] == 0:
                            clen[i] = e[5]
                            cph[i] = e[0]
                    elif or_node:
                        # The child is an AND node: its evasions tell how hard it is.
                        ne = len(board.legal_moves)
                        if ne == 0:
                            cpn[i] = 0
                            cdn[i] = INF
                            clen[i] = 0
                        elif not rps:
                            cpn[i] = ne
                        else:
                            # attack_cost(m, king, zone), inlined: this runs for every new child.
                            to = m & 0x7F
                            if frm >= 81:
                                cost = _A_NEAR if (near >> to) & 1 else _A_DROP_FAR
                            elif (m >> 20) & 0xF:
                                cost = _A_CAPTURE
                            elif m & 0x4000:
                                cost = _A_PROMOTE
                            elif (m >> 16) & 0xF in _STRONG_PROMOTION and ((zone >> to) & 1 or (zone >> frm) & 1):
                                cost = _A_NO_PROMOTE
                            else:
                                cost = _A_NEAR if (near >> to) & 1 else _A_FAR
                            cpn[i] = ne + cost
                    elif mate1 and not board.is_check() and board.mate_move_in_1ply():
                        cpn[i] = 0
                        cdn[i] = INF
                        clen[i] = 1
                    elif rps:
                        # defence_cost(m, king), inlined.
                        if frm == king:
                            cdn[i] = 1 + _D_KING
                        elif (m >> 20) & 0xF:
                            cdn[i] = 1 + _D_CAPTURE
                        elif frm >= 81:
                            cdn[i] = 1 + (_D_NEAR if (near >> (m & 0x7F)) & 1 else _D_FAR)
                        else:
                            cdn[i] = 1 + _D_MOVE
                pop()
                if chained and (cdn[i] if or_node else cpn[i]) == 0:
                    c.release(i)
            start = end

    def _prove(self, board: cshogi.Board, c: Children, or_node: bool, hand: int) -> tuple[int, int, int]:
        """(proof length, proof hand, best move or 0) of a proven node.

        An OR node is proven by its child with the shortest proof; its proof
        hand is that child's, plus a dropped piece, less a captured one.  An
        AND node needs every child: the longest proof, and kind by kind the
        largest of the children's proof hands, plus the attacker pieces the
        defender could otherwise have interposed.
        """
        cpn, clen, cph, moves = c.pn, c.length, c.ph, c.moves
        if or_node:
            best = -1
            for j in range(len(moves)):
                if cpn[j] == 0 and (best < 0 or clen[j] < clen[best]):
                    best = j
            m = moves[best]
            child_hand = cph[best]
            if child_hand < 0:   # mated child found at expansion
                board.push(m)
                child_hand = self._mated_hand(board, c.hand[best])
                board.pop()
            return clen[best] + 1, self._or_proof_hand(m, child_hand, hand), m
        dominance = self.options.dominance
        ph = 0
        longest = 0
        for j in range(len(moves)):
            h = cph[j]
            if h < 0:  # mated in one, found at expansion
                board.push(moves[j])
                mm = board.mate_move_in_1ply()
                h = self._mate1_hand(board, mm, hand)
                board.pop()
            ph = hand_max(ph, h) if dominance else hand
            if clen[j] > longest:
                longest = clen[j]
        if dominance:
            ph = hand_max(ph, self._defender_gap(board, hand))
        return longest + 1, ph, 0

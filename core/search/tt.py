"""The df-pn transposition table: pn/dn per (board key, attacker hand), bounded.

Entries of one board live in a short tuple.  A proven entry stores its *proof
hand* (証明駒: the fewest attacker pieces that still mate), so it also answers
every hand that holds at least those pieces; a disproven entry stores its
*disproof hand* (反証駒) and answers every hand with at most those pieces
([ComShogi ch. 9]).  An
unresolved entry answers only its own hand.

Memory is bounded by an entry count derived from the configured megabytes;
when it is reached, :meth:`TranspositionTable.collect` drops the entries
that cost the least search to rebuild (smallest ``amount``), unresolved ones
first, so a search that would outgrow the bound keeps going inside it.

Entries and the per-board groups are tuples of ints, replaced rather than
changed: CPython's cycle collector stops tracking such tuples after one look,
so it never walks the table again.  With lists it walked all of it in every
full collection, about a fifth of the search time on a table of a million
entries (docs/benchmarks.md).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from .contract import INFINITY
from .hand import GUARD

INF: Final = INFINITY        # pn/dn of a decided node: the contract's one infinity, by a short name
NO_LENGTH: Final = -1

# Entry layout (a tuple, replaced on update).
HAND, PN, DN, DEPTH, AMOUNT, LENGTH, MOVE = range(7)
Entry = tuple[int, int, int, int, int, int, int]

# Bytes one entry costs in CPython (its list of 7, the ints, its share of the
# dict and of the per-board lists): tracemalloc measured 253 bytes an entry
# after proving the 41-ply Microcosmos tail (29,948 entries, CPython 3.11);
# rounded up, it turns megabytes into a maximum entry count.
BYTES_PER_ENTRY = 260

# What the rest of the process needs beside the table, measured as peak RSS
# minus the table's estimate on the 151-ply Microcosmos tail: 41 MB when the
# table never filled, 114 MB with a 256 MB bound, where collections leave
# freed heap that the allocator keeps; hence a share and a reserve.
TABLE_SHARE = 0.6
RESERVED_MB = 32


def _kth_smallest(counts: dict[int, int], k: int, breathe: Callable[[], None] | None) -> int:
    """The ``k``-th smallest value (1-based) of a multiset given as value -> count.

    Sorts the distinct values in slices of at most 4096 (``breathe`` between
    them), so no single step holds the interpreter lock for long.
    """
    values = list(counts)
    if len(values) <= 4096:
        values.sort()
        chunks = [values]
    else:
        # Split by rank: pick bounds from a sorted sample, then sort each bucket alone.
        step = len(values) // 1024
        bounds = sorted(values[::step])[1:]
        buckets: list[list[int]] = [[] for _ in range(len(bounds) + 1)]
        for n, v in enumerate(values):
            lo, hi = 0, len(bounds)
            while lo < hi:
                mid = (lo + hi) // 2
                if v < bounds[mid]:
                    hi = mid
                else:
                    lo = mid + 1
            buckets[lo].append(v)
            if breathe is not None and n & 4095 == 4095:
                breathe()
        chunks = buckets
    seen = 0
    for chunk in chunks:
        total = 0
        for v in chunk:
            total += counts[v]
        if seen + total < k:
            seen += total
            continue
        chunk.sort()
        if breathe is not None:
            breathe()
        for v in chunk:
            seen += counts[v]
            if seen >= k:
                return v
    raise ValueError(f"fewer than {k} values")


class TranspositionTable:
    """pn/dn values keyed by board, with hand dominance.

    Args:
        memory_mb: the memory bound of the whole search process.  The table
            takes ``TABLE_SHARE`` of it less ``RESERVED_MB`` (the interpreter,
            cshogi and freed-but-kept heap), so the process stays under it;
            its entry limit follows.
    """

    __slots__ = ("table", "entries", "max_entries", "collections", "memory_mb")

    def __init__(self, memory_mb: int = 1024) -> None:
        if memory_mb < 1:
            raise ValueError(f"memory must be at least 1 MB, got {memory_mb!r}")
        self.table: dict[int, tuple[Entry, ...]] = {}
        self.entries = 0
        self.memory_mb = memory_mb
        table_mb = max(1.0, memory_mb * TABLE_SHARE - RESERVED_MB)
        self.max_entries = max(1000, int(table_mb * 1024 * 1024) // BYTES_PER_ENTRY)
        self.collections = 0

    @property
    def fill(self) -> float:
        """How full the table is, 0.0 .. 1.0 of its bound."""
        return min(1.0, self.entries / self.max_entries)

    def probe(self, key: int, hand: int) -> Entry | None:
        """The entry that answers ``hand`` on board ``key``, or None.

        A proof for a hand the attacker dominates, or a disproof for a hand
        that dominates the attacker's, is returned before an exact entry.
        """
        lst = self.table.get(key)
        if lst is None:
            return None
        exact = None
        for e in lst:
            h = e[0]
            if e[1] == 0:
                if ((hand | GUARD) - h) & GUARD == GUARD:
                    return e
            elif e[2] == 0:
                if ((h | GUARD) - hand) & GUARD == GUARD:
                    return e
            elif h == hand:
                exact = e
        return exact

    def store(self, key: int, hand: int, pn: int, dn: int, depth: int, amount: int,
              length: int = NO_LENGTH, move: int = 0) -> None:
        """Record a node's values.

        ``hand`` is the attacker's hand, or the proof hand when ``pn == 0``,
        or the disproof hand when ``dn == 0``.  A decided entry replaces the
        unresolved entries it now answers.
        """
        lst = self.table.get(key)
        if lst is None:
            self.table[key] = ((hand, pn, dn, depth, amount, length, move),)
            self.entries += 1
            return
        if pn == 0 or dn == 0:
            keep: list[Entry] = []
            for e in lst:
                h = e[0]
                if e[1] != 0 and e[2] != 0:
                    if pn == 0 and ((h | GUARD) - hand) & GUARD == GUARD:
                        amount += e[4]
                        continue
                    if dn == 0 and ((hand | GUARD) - h) & GUARD == GUARD:
                        amount += e[4]
                        continue
                keep.append(e)
            self.entries -= len(lst) - len(keep)
            keep.append((hand, pn, dn, depth, amount, length, move))
            self.entries += 1
            self.table[key] = tuple(keep)
            return
        for i, e in enumerate(lst):
            if e[0] == hand and e[1] != 0 and e[2] != 0:
                updated = (hand, pn, dn, depth if depth < e[3] else e[3], e[4] + amount, e[5], e[6])
                self.table[key] = (*lst[:i], updated, *lst[i + 1:])
                return
        self.table[key] = (*lst, (hand, pn, dn, depth, amount, length, move))
        self.entries += 1

    def over_limit(self) -> bool:
        """True when the table holds more entries than its bound allows."""
        return self.entries > self.max_entries

    def collect(self, target: float = 0.7, breathe: Callable[[], None] | None = None) -> int:
        """Drop the cheapest entries until at most ``target`` of the bound is used.

        Unresolved entries go before decided ones of the same cost; returns
        how many entries were removed.  ``breathe`` is called every 512
        keys and between the steps of finding the cutoff (a search on its own
        thread offers the interpreter lock there: a collection of millions of
        entries takes a good part of a second of CPU).
        """
        goal = int(self.max_entries * target)
        if self.entries <= goal:
            return 0
        # A cost per entry: search amount, decided entries counted double.
        # The cutoff is the (entries - goal)-th smallest cost, found from a
        # count per distinct cost: sorting one cost per entry was a single
        # call that held the interpreter lock 0.2 s at 490,000 entries and
        # 1.2 s at 2.3 million (the default bound), freezing the window.
        counts: dict[int, int] = {}
        for n, lst in enumerate(self.table.values()):   # read only: no copy of the keys
            for e in lst:
                c = e[4] * (2 if (e[1] == 0 or e[2] == 0) else 1)
                counts[c] = counts.get(c, 0) + 1
            if breathe is not None and n & 511 == 511:
                breathe()
        cutoff = _kth_smallest(counts, self.entries - goal, breathe)
        del counts
        removed = 0
        # The keys copied a slice at a time (one list() of 2.3 million keys held the lock ~20 ms).
        keys: list[int] = []
        for n, key in enumerate(self.table):
            keys.append(key)
            if breathe is not None and n & 4095 == 4095:
                breathe()
        for n, key in enumerate(keys):
            if breathe is not None and n & 511 == 511:
                breathe()
            lst = self.table[key]
            keep = tuple(e for e in lst if e[4] * (2 if (e[1] == 0 or e[2] == 0) else 1) > cutoff)
            if len(keep) != len(lst):
                removed += len(lst) - len(keep)
                if keep:
                    self.table[key] = keep
                else:
                    del self.table[key]
        self.entries -= removed
        self.collections += 1
        return removed

    def release(self, breathe: Callable[[], None]) -> None:
        """Empty the table a few hundred keys at a time, calling ``breathe`` in between.

        Freeing a large table at once holds the interpreter lock for tens of
        milliseconds (170,000 entries: 15-85 ms on a busy machine).
        """
        table = self.table
        self.table = {}
        self.entries = 0
        n = 0
        while table:   # popitem, not a list of the keys: copying 2.3 million keys held the lock ~20 ms
            table.popitem()
            n += 1
            if n & 511 == 0:
                breathe()

    def clear(self) -> None:
        """Forget everything."""
        self.table.clear()
        self.entries = 0

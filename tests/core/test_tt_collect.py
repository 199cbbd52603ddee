"""The table's collection: which entries go, and that it offers the interpreter lock throughout."""

from __future__ import annotations

import random

import pytest

from tsume_studio.core.search import tt
from tsume_studio.core.search.tt import TranspositionTable


def _cost(e: tuple[int, ...]) -> int:
    return e[4] * (2 if (e[1] == 0 or e[2] == 0) else 1)


def _filled(rng: random.Random, keys: int, spread: int) -> TranspositionTable:
    table = TranspositionTable(memory_mb=1)
    table.max_entries = keys   # full: a collection is due
    for k in range(keys):
        group = []
        for h in range(rng.randint(1, 3)):
            pn, dn = rng.choice([(0, tt.INF), (tt.INF, 0), (rng.randint(1, 50), rng.randint(1, 50))])
            group.append((h, pn, dn, 0, rng.randint(1, spread), tt.NO_LENGTH, 0))
        table.table[k * 7919] = tuple(group)
        table.entries += len(group)
    return table


@pytest.mark.parametrize("spread", [5, 300, 1_000_000])   # few ties .. more distinct costs than 4096
def test_collection_keeps_exactly_the_entries_above_the_sorted_cutoff(spread: int) -> None:
    rng = random.Random(spread)
    table = _filled(rng, 6000, spread)
    before = {k: v for k, v in table.table.items()}
    goal = int(table.max_entries * 0.7)
    costs = sorted(_cost(e) for lst in before.values() for e in lst)
    cutoff = costs[table.entries - goal - 1]   # the definition: the (entries - goal)-th smallest cost
    expected = {k: tuple(e for e in lst if _cost(e) > cutoff) for k, lst in before.items()}
    expected = {k: v for k, v in expected.items() if v}
    removed = table.collect()
    assert table.table == expected
    assert removed == sum(len(v) for v in before.values()) - sum(len(v) for v in expected.values())
    assert table.entries == sum(len(v) for v in expected.values()) <= goal


def test_collection_offers_the_lock_between_small_steps() -> None:
    """``breathe`` comes at least every 512 keys through the whole collection, the cutoff's search included."""
    rng = random.Random(1)
    keys = 40_000
    table = _filled(rng, keys, 10**9)   # about 80,000 distinct costs: the cutoff is found bucket by bucket
    calls = [0]

    def breathe() -> None:
        calls[0] += 1

    table.collect(breathe=breathe)
    # Counting walks every key (keys / 512 calls), the removal again; the cutoff's buckets add theirs.
    assert calls[0] >= 2 * (keys // 512) + 10


def test_kth_smallest_of_counts() -> None:
    rng = random.Random(7)
    values = [rng.randint(0, 10**6) for _ in range(20_000)]
    counts: dict[int, int] = {}
    for v in values:
        counts[v] = counts.get(v, 0) + 1
    ordered = sorted(values)
    for k in (1, 2, 777, 10_000, 19_999, 20_000):
        assert tt._kth_smallest(counts, k, None) == ordered[k - 1]
    with pytest.raises(ValueError):
        tt._kth_smallest(counts, 20_001, None)

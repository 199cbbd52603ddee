"""A cancel flag reaches the kernel's length search inside a call (core.search.kernel_length).

A kernel call runs with the interpreter lock released and pauses for Python only between its
outermost nodes; the futility tests inside a question do not pause.  The search's cancel flag is
passed on to the kernel by a watcher thread, so Stop ends even a call that would not pause.
"""

from __future__ import annotations

import gc
import threading
import time

import cshogi
import pytest

from tsume_studio.core.search import kernel_length
from tsume_studio.core.search.contract import Limits

pytestmark = pytest.mark.skipif(not kernel_length.available(), reason="the kernel's length search is not built")

# 将棋無双 24番 (tests/data/musou.tsv): "mate within 29?" takes minutes under the tsume rules.
MUSOU_24 = "3Bss3/4P4/2n1k1+P2/Nn3+r3/3Bs4/Lpr6/9/2N6/3L5 b 2G2gs2l15p 1"
NO_PAUSE = (0, 0)   # pause_nodes, pause_work: the call never pauses for Python


def _search(cancel: threading.Event) -> kernel_length.KernelLengthSearch:
    return kernel_length.KernelLengthSearch(cshogi.Board(MUSOU_24), deadline=None, cancel=cancel, node_limit=None,
                                            distance_rule=True, memory_mb=64, oracle_mb=64)


def test_a_set_flag_stops_a_call_that_does_not_pause() -> None:
    cancel = threading.Event()
    search = _search(cancel)
    threading.Timer(0.3, cancel.set).start()
    t0 = time.monotonic()
    got = search.k.question(MUSOU_24, True, 29, 0, 120.0, *NO_PAUSE)
    elapsed = time.monotonic() - t0
    assert got == "stopped"
    assert elapsed < 10.0   # without the watcher: the 120 s stop (the question is far from answered by then)
    assert search.k.nodes > 0


def test_a_new_budget_clears_the_kernel_cancel() -> None:
    cancel = threading.Event()
    search = _search(cancel)
    cancel.set()
    deadline = time.monotonic() + 10.0
    while not search._kernel_cancelled and time.monotonic() < deadline:   # the watcher's next look
        time.sleep(0.01)
    assert search._kernel_cancelled
    assert search.k.question(MUSOU_24, True, 3, 0, 30.0, *NO_PAUSE) == "stopped"
    search.budget(Limits(), threading.Event(), time.monotonic)
    assert not search._kernel_cancelled
    assert search.k.question(MUSOU_24, True, 3, 0, 30.0, *NO_PAUSE) == "no"   # 24番 is no mate in 3


def test_a_search_let_go_leaves_the_watch() -> None:
    cancel = threading.Event()
    search = _search(cancel)
    assert search in kernel_length._WATCH._searches
    del search
    gc.collect()
    assert not any(s.cancel is cancel for s in list(kernel_length._WATCH._searches))

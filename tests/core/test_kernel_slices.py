"""The kernel's df-pn calls from Python: a first slice on the calling thread, the rest on a search thread."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tsume_studio.core.search import kernel_engine
from tsume_studio.core.search.contract import Limits, SolveStatus, drive

DATA = Path(__file__).parent.parent / "data"

pytestmark = pytest.mark.skipif(not kernel_engine.available(), reason="the C++ kernel is not built in this install")


def _sfen(row_id: str) -> str:
    for name in ("mate.tsv", "microcosmos.tsv"):
        for line in (DATA / name).read_text(encoding="utf-8").splitlines()[1:]:
            cells = line.split("\t")
            if cells[0] == row_id:
                return cells[1]
    raise KeyError(row_id)


SHORT = "tanuki-7-193"          # raw df-pn proves it in 51 nodes (within the slice)
LONG = "microcosmos-tail-29"    # 28,304 nodes (past it; every mate.tsv row takes at most 3,211)
MIDDLE = "microcosmos-tail-23"  # 2,965 nodes


class _Threads:
    """Counts the calls handed to a search thread."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.calls: list[str] = []
        real = kernel_engine.run_on_thread

        def counted(search: Any, call: str, *args: Any, **kw: Any) -> Any:
            self.calls.append(call)
            return (yield from real(search, call, *args, **kw))

        monkeypatch.setattr(kernel_engine, "run_on_thread", counted)


def test_a_short_proof_and_its_line_stay_on_the_calling_thread(monkeypatch: pytest.MonkeyPatch) -> None:
    threads = _Threads(monkeypatch)
    search = kernel_engine.new_search(_sfen(SHORT), 64)
    assert drive(kernel_engine.prove(search, 0, -1.0, False, None, 0.1, 0.0)) == "proven"
    assert 0 < int(search.nodes) <= kernel_engine.INLINE_NODES
    line, complete = drive(kernel_engine.proof_line(search, 0, -1.0, False, None, 0.1, 0.0))
    assert complete and len(line) % 2 == 1
    assert threads.calls == []


def test_a_longer_proof_goes_on_on_a_search_thread_to_the_same_answer(monkeypatch: pytest.MonkeyPatch) -> None:
    threads = _Threads(monkeypatch)
    sfen = _sfen(LONG)
    search = kernel_engine.new_search(sfen, 64)
    assert drive(kernel_engine.prove(search, 0, -1.0, False, None, 0.1, 0.0)) == "proven"
    assert threads.calls == ["run"]
    assert int(search.nodes) > kernel_engine.INLINE_NODES
    # The same outcome as one call of the kernel on a new search.
    whole = kernel_engine.new_search(sfen, 64)
    assert whole.run(0, -1.0, False) == "proven"
    line, complete = drive(kernel_engine.proof_line(search, 0, -1.0, False, None, 0.1, 0.0))
    assert complete and len(line) >= 7


class _Clears:
    """A search that counts its clear_table() calls and is otherwise the kernel's."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.clears = 0

    def clear_table(self) -> None:
        self.clears += 1
        self.inner.clear_table()

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)


def test_a_search_the_slice_began_is_searched_afresh_on_the_thread() -> None:
    """What the thread searches after the slice is one uninterrupted run's, node for node: the
    search's nodes are the slice's plus those of a new search's single run()."""
    for row in (LONG, MIDDLE):
        sfen = _sfen(row)
        search = _Clears(kernel_engine.new_search(sfen, 64))
        assert drive(kernel_engine.prove(search, 0, -1.0, False, None, 0.1, 0.0)) == "proven"
        assert search.clears == 1
        whole = kernel_engine.new_search(sfen, 64)
        assert whole.run(0, -1.0, False) == "proven"
        assert int(search.nodes) == kernel_engine.INLINE_NODES + int(whole.nodes), row


def test_a_search_resumed_keeps_its_table() -> None:
    """A call on a search that has already searched (a resumed one) goes on over its table."""
    search = _Clears(kernel_engine.new_search(_sfen(LONG), 64))
    assert drive(kernel_engine.prove(search, 300, -1.0, False, None, 0.1, 0.0)) == "unknown"
    assert int(search.entries) > 0
    assert drive(kernel_engine.prove(search, 0, -1.0, False, None, 0.1, 0.0)) == "proven"
    assert search.clears == 0


def test_a_node_limit_inside_the_slice_is_exact_and_needs_no_thread(monkeypatch: pytest.MonkeyPatch) -> None:
    threads = _Threads(monkeypatch)
    search = kernel_engine.new_search(_sfen(LONG), 64)
    assert drive(kernel_engine.prove(search, 300, -1.0, False, None, 0.1, 0.0)) == "unknown"
    assert int(search.nodes) == 300
    assert threads.calls == []
    # A limit past the slice: the thread searches on to it.
    assert drive(kernel_engine.prove(search, 5_000, -1.0, False, None, 0.1, 0.0)) == "unknown"
    assert int(search.nodes) == 5_000
    assert threads.calls == ["run"]


def test_a_set_cancel_flag_skips_the_slice(monkeypatch: pytest.MonkeyPatch) -> None:
    import threading

    threads = _Threads(monkeypatch)
    cancel = threading.Event()
    cancel.set()
    search = kernel_engine.new_search(_sfen(SHORT), 64)
    drive(kernel_engine.prove(search, 0, -1.0, False, cancel, 0.1, 0.0))
    assert threads.calls == ["run"]   # handed on as before: the thread's loop passes the cancel on


def test_the_solve_reports_the_same_through_the_slices() -> None:
    for row in (SHORT, LONG):
        result = drive(kernel_engine.solve_iter(_sfen(row), Limits()))
        assert result.status is SolveStatus.MATE
        assert result.extra.get("engine") == "kernel"
        assert result.length is not None and result.length % 2 == 1

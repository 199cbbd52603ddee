"""Ctrl-C (SIGINT) and SIGTERM for the command line.

While a search runs, either signal only sets the search's cancel flag: the
solver stops at its next check and returns a ``cancelled`` result, which the
command prints like any other.  At any other moment (start-up, reading
input, writing a file) the signal raises :class:`KeyboardInterrupt`, which
unwinds cleanly (temporary files are removed on the way) and ends in exit
code 130 (:data:`.errors.EXIT_INTERRUPTED`).

A command that answers a signal with its result (``solve``: a ``cancelled``
result, also as JSON) defers it while it starts (``handled(defer=True)``):
the signal is only recorded while the program loads and reads its input,
which takes a bounded time, and the search that starts next is cancelled at
once, so the command still prints its ``cancelled`` result.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType

_SIGNALS = (signal.SIGINT, signal.SIGTERM)
_active: list[threading.Event] = []
_received: list[int] = []
_deferring = [False]


def _handler(signum: int, frame: FrameType | None) -> None:
    _received.append(signum)
    if _active:
        for cancel in _active:
            cancel.set()
    elif not _deferring[0]:
        raise KeyboardInterrupt


@contextmanager
def handled(defer: bool = False) -> Iterator[None]:
    """Route SIGINT and SIGTERM through this module while the block runs (main thread only).

    With ``defer``, a signal before the first :func:`cancelling` block is
    only recorded (see :func:`pending`); that block starts cancelled.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    _received.clear()
    _deferring[0] = defer
    previous = {s: signal.signal(s, _handler) for s in _SIGNALS}
    try:
        yield
    finally:
        _deferring[0] = False
        for s, h in previous.items():
            signal.signal(s, h)


@contextmanager
def cancelling(cancel: threading.Event) -> Iterator[threading.Event]:
    """Within the block, a signal sets ``cancel`` instead of interrupting."""
    _deferring[0] = False   # a deferred signal is handed over here
    _active.append(cancel)
    if _received:
        cancel.set()   # the signal came just before the block
    try:
        yield cancel
    finally:
        _active.remove(cancel)


def pending() -> bool:
    """True when a deferred signal came and no :func:`cancelling` block took it (the command ended first)."""
    return _deferring[0] and bool(_received)


def received() -> int | None:
    """The first signal received since :func:`handled` began, or None."""
    return _received[0] if _received else None

"""Ctrl-C (SIGINT) and SIGTERM for the command line.

While a search runs, either signal only sets the search's cancel flag: the
solver stops at its next check and returns a ``cancelled`` result, which the
command prints like any other.  At any other moment (start-up, reading
input, writing a file) the signal raises :class:`KeyboardInterrupt`, which
unwinds cleanly (temporary files are removed on the way) and ends in exit
code 130 (:data:`.errors.EXIT_INTERRUPTED`).
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


def _handler(signum: int, frame: FrameType | None) -> None:
    _received.append(signum)
    if _active:
        for cancel in _active:
            cancel.set()
    else:
        raise KeyboardInterrupt


@contextmanager
def handled() -> Iterator[None]:
    """Route SIGINT and SIGTERM through this module while the block runs (main thread only)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    _received.clear()
    previous = {s: signal.signal(s, _handler) for s in _SIGNALS}
    try:
        yield
    finally:
        for s, h in previous.items():
            signal.signal(s, h)


@contextmanager
def cancelling(cancel: threading.Event) -> Iterator[threading.Event]:
    """Within the block, a signal sets ``cancel`` instead of interrupting."""
    _active.append(cancel)
    if _received:
        cancel.set()   # the signal came just before the block
    try:
        yield cancel
    finally:
        _active.remove(cancel)


def received() -> int | None:
    """The first signal received since :func:`handled` began, or None."""
    return _received[0] if _received else None

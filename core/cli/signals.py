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

Python code that C calls where an exception cannot propagate (a weak
reference's callback, ``__del__``, a garbage-collector callback: the import
system runs such callbacks while a module loads) would print an interrupt
raised there as "Exception ignored" with a traceback and then go on as if no
signal had come.  While :func:`handled` is active an unraisable-exception hook
takes such an interrupt back silently and delivers it again 5 ms later, in
whatever code runs then.
"""

from __future__ import annotations

import _thread
import signal
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import FrameType

_SIGNALS = (signal.SIGINT, signal.SIGTERM)
_active: list[threading.Event] = []
_received: list[int] = []
_deferring = [False]


class _Interrupted(KeyboardInterrupt):
    """The interrupt this module's handler raises; carries the signal number."""

    def __init__(self, signum: int) -> None:
        super().__init__()
        self.signum = signum


def _handler(signum: int, frame: FrameType | None) -> None:
    _received.append(signum)
    if _active:
        for cancel in _active:
            cancel.set()
    elif not _deferring[0]:
        raise _Interrupted(signum)


def _redeliver(signum: int) -> None:
    if signal.getsignal(signum) is _handler:   # else handled() has ended: received() reports the signal
        _thread.interrupt_main(signal.Signals(signum))   # runs _handler in the main thread, as a real signal would


def _unraisable_hook(previous: Callable[[sys.UnraisableHookArgs], object]) -> Callable[[sys.UnraisableHookArgs], None]:
    def hook(unraisable: sys.UnraisableHookArgs) -> None:
        exc = unraisable.exc_value
        if isinstance(exc, _Interrupted):
            timer = threading.Timer(0.005, _redeliver, (exc.signum,))
            timer.daemon = True
            try:
                timer.start()
            except RuntimeError:   # no new thread at interpreter shutdown: the process is ending anyway
                pass
            return
        previous(unraisable)
    return hook


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
    previous_hook = sys.unraisablehook
    sys.unraisablehook = _unraisable_hook(previous_hook)
    try:
        yield
    finally:
        _deferring[0] = False
        for s, h in previous.items():
            signal.signal(s, h)
        sys.unraisablehook = previous_hook


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

"""The check of a record's main line (作意) on a worker thread.

:func:`check_function` wraps :func:`tsume_studio.core.check.check_solution`
(the comparison ``tsume check`` runs) as a solver-shaped generator, so that
:class:`~.worker.SolverWorker` drives it on its own ``QThread``, cancels it
with its flag and hands back the :class:`~tsume_studio.core.check.CheckResult`
through ``returned``; the GUI thread never runs the check.  Given the
:class:`~tsume_studio.core.search.length_rule.AnswerSession` of a solve of the same
position, the check asks the answer's table instead of solving again.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Generator

from ..core.check import CheckResult, check_solution
from ..core.search.contract import Limits, Progress
from ..core.search.length_rule import AnswerSession
from ..core.shogi.position import Position
from .worker import SolveFunction, SolverWorker

__all__ = ["check_function", "check_worker"]


def _check(given: tuple[str, ...], session: AnswerSession | None, position: Position, limits: Limits,
           cancel: threading.Event) -> Generator[Progress, None, CheckResult]:
    yield from ()
    return check_solution(position, given, limits, cancel, session=session)


def check_function(given: tuple[str, ...], session: AnswerSession | None = None) -> SolveFunction:
    """A solver-shaped function that checks ``given`` (USI moves) from the position it is given,
    reusing ``session`` (a solve's answer) when it is of that position."""
    return functools.partial(_check, tuple(given), session)


def check_worker(position: Position, given: tuple[str, ...], limits: Limits,
                 session: AnswerSession | None = None) -> SolverWorker:
    """A worker (not started) that checks ``given`` from ``position`` within ``limits``
    (asking ``session``'s table when it holds the answer of ``position``)."""
    return SolverWorker(check_function(given, session), position, limits, parent=None)

"""The check of a record's main line (作意) on a worker thread.

:func:`check_function` wraps :func:`tsume_studio.core.check.check_iter`
(the comparison ``tsume check`` runs, yielding its progress) as a solver-shaped generator, so that
:class:`~.worker.SolverWorker` drives it on its own ``QThread``, cancels it
with its flag and hands back the :class:`~tsume_studio.core.check.CheckResult`
through ``returned``; the GUI thread never runs the check.  Given the
:class:`~tsume_studio.core.search.length_rule.AnswerSession` of a solve of the same
position, the check asks the answer's table instead of solving again; with
the :class:`~tsume_studio.core.search.contract.SolveResult` of that solve too,
it starts from that solve even when it proved only bounds of the length.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Generator

from ..core.check import CheckResult, check_iter
from ..core.search.contract import Limits, Progress, SolveResult
from ..core.search.length_rule import AnswerSession
from ..core.shogi.position import Position
from .worker import SolveFunction, SolverWorker

__all__ = ["check_function", "check_worker"]


def _check(given: tuple[str, ...], session: AnswerSession | None, solved: SolveResult | None, position: Position,
           limits: Limits, cancel: threading.Event) -> Generator[Progress, None, CheckResult]:
    return (yield from check_iter(position, given, limits, cancel, session, solved))


def check_function(given: tuple[str, ...], session: AnswerSession | None = None,
                   solved: SolveResult | None = None) -> SolveFunction:
    """A solver-shaped function that checks ``given`` (USI moves) from the position it is given,
    reusing ``session`` (a solve's answer, ``solved`` its result) when it is of that position."""
    return functools.partial(_check, tuple(given), session, solved)


def check_worker(position: Position, given: tuple[str, ...], limits: Limits,
                 session: AnswerSession | None = None, solved: SolveResult | None = None) -> SolverWorker:
    """A worker (not started) that checks ``given`` from ``position`` within ``limits``
    (asking ``session``'s table when it holds the answer of ``position``; ``solved``: the result
    of the solve that filled it)."""
    return SolverWorker(check_function(given, session, solved), position, limits, parent=None)

"""Export of a solution: the whole proof as a record (KIF, KI2, CSA), written atomically.

The result becomes a :class:`~tsume_studio.core.records.model.Record` through
:func:`~tsume_studio.core.answer.solution_record` (the proof tree: main line,
every defence as a variation, futile interpositions as comments; or the main
line alone) and goes to disk through the core's record writer, which picks
format and encoding from the extension (``.kif`` Shift_JIS, ``.kifu``
UTF-8).  No widgets here.
"""

from __future__ import annotations

from ..core.answer import solution_record as core_solution_record, with_comments
from ..core.records.formats import write_record
from ..core.records.model import Record
from ..core.search.contract import SolveResult, SolveStatus

SOLUTION_FILE_FILTER = "KIF (*.kif *.kifu);;KI2 (*.ki2 *.ki2u);;CSA (*.csa)"


class ExportError(ValueError):
    """There is nothing to export, or the solution cannot be written as a record."""


def solution_record(result: SolveResult, header: dict[str, str] | None = None) -> Record:
    """The record of a solved problem: the proof tree when there is one, else the main line.

    Raises:
        ExportError: the search found no mate; or a move of the answer is illegal.
    """
    if result.status is not SolveStatus.MATE:
        raise ExportError(f"no solution to export: the search ended with {result.status.value!r}")
    try:
        return core_solution_record(result, header)
    except ValueError as e:
        raise ExportError(f"the solution cannot be written as a record: {e}") from e


def export_solution(path: str, result: SolveResult, header: dict[str, str] | None = None,
                    own: Record | None = None) -> None:
    """Write the solution of ``result`` to ``path`` (format from the extension).

    With ``own`` (the user's record of the same start) its comments are kept:
    the start comment and those of the moves the solution plays too.

    Raises:
        ExportError: nothing to export.
        ValueError: the extension is not a record format.
        OSError: the file cannot be written (nothing is left half-written).
    """
    record = solution_record(result, header)
    if own is not None:
        record = with_comments(record, own)
    write_record(path, record)

"""Export of a solution: the whole proof as a record (KIF, KI2, CSA), written atomically.

The proof becomes a :class:`~tsume_studio.core.records.model.Record` through
:func:`~tsume_studio.core.records.model.record_from_proof` (main line, every defence
as a variation, futile interpositions as comments) and goes to disk through
the core's record writer, which picks format and encoding from the
extension (``.kif`` Shift_JIS, ``.kifu`` UTF-8).  No widgets here.
"""

from __future__ import annotations

from ..core.shogi.moves import parse_move
from ..core.shogi.position import Position
from ..core.search.proof import Proof
from ..core.records.model import Record, RecordNode, record_from_proof
from ..core.search.solver import SolveResult, SolveStatus

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
        if isinstance(result.proof, Proof):
            return record_from_proof(result.proof, header)
        start = Position.from_sfen(result.sfen)
        record = Record(start=start.copy(), header=dict(header or {}))
        record.header.setdefault("手数", str(len(result.pv)))
        pos, node = start, record.root
        for usi in result.pv:
            move = parse_move(pos, usi)
            child = RecordNode(move=move)
            node.children.append(child)
            node = child
            pos.push(move)
        node.children.append(RecordNode(special="詰み"))
        return record
    except ValueError as e:
        raise ExportError(f"the solution cannot be written as a record: {e}") from e


def export_solution(path: str, result: SolveResult, header: dict[str, str] | None = None) -> None:
    """Write the solution of ``result`` to ``path`` (format from the extension).

    Raises:
        ExportError: nothing to export.
        ValueError: the extension is not a record format.
        OSError: the file cannot be written (nothing is left half-written).
    """
    from ..core.records.formats import write_record

    write_record(path, solution_record(result, header))

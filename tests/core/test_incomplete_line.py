"""A proved mate whose df-pn line the table can no longer complete is reported as such.

When the table's collection has dropped the entries at the end of df-pn's
line, the line stops before the mate.  The whole Microcosmos (1525 plies) was
proved in 33,415,654 nodes with a 4 GB table, and the line read back had 15
plies and did not end in mate; it was reported as "mate in 15".  Now the
length is unknown (None, JSON null) and ``pv_complete`` is false.
"""

from __future__ import annotations

import cshogi

from tsume_studio.core.cli.running import result_json
from tsume_studio.core.search import solver
from tsume_studio.core.search.contract import Limits, SolveStatus
from tsume_studio.core.search.dfpn import DfPn
from tsume_studio.core.shogi.position import Position

MATE5 = "7k1/4R4/9/9/9/9/9/9/9 b SNr2b4g3s3n4l18p 1"


def test_a_line_cut_short_is_reported_without_a_length(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("TSUME_ENGINE", "python")   # the Python engine's line reading is what is cut here
    full = solver.solve(Position.from_sfen(MATE5), Limits(), exact=False)
    assert full.status is SolveStatus.MATE and full.length == len(full.pv) and full.length % 2 == 1
    assert result_json(full)["pv_complete"] is True
    board = cshogi.Board(MATE5)
    line = []
    for usi in full.pv:
        line.append(board.move_from_usi(usi))
        board.push(line[-1])
    board = cshogi.Board(MATE5)
    assert solver._ends_in_mate(board, line) and not solver._ends_in_mate(board, line[:-1])
    original = solver._dfpn_line

    def cut(searcher: DfPn, b: cshogi.Board) -> list[int]:
        return original(searcher, b)[:-1]   # as if the table had lost the last entry

    monkeypatch.setattr(solver, "_dfpn_line", cut)
    short = solver.solve(Position.from_sfen(MATE5), Limits(), exact=False)
    assert short.status is SolveStatus.MATE
    assert short.length is None and short.extra["pv_complete"] is False
    assert len(short.pv) == full.length - 1
    data = result_json(short)
    assert data["length"] is None and data["pv_complete"] is False

"""The C++ kernel: a shogi board and move generation for tsume search.

The compiled extension ``_kernel`` (sources in ``core/kernel/c++``, built by
``pip install .``) is loaded when it is there; :data:`AVAILABLE` says whether
it is, and :data:`REASON` why not.  ``TSUME_PURE=1`` in the environment leaves
it unloaded (the pure-Python engine runs, as where no compiler was at hand).

:class:`Board` speaks USI: moves in and out are USI strings (``7g7f``,
``2b3c+``, ``P*5e``); :meth:`Board.move16` gives a move's 16-bit code, the
same as cshogi's ``move16``.  Every method checks its input and raises
``ValueError`` with the reason.  The methods' types are in ``_kernel.pyi``.
"""

from __future__ import annotations

import os

__all__ = ["AVAILABLE", "MAX_PLY", "REASON", "Board", "DfPnSearch", "LengthSearch", "bench_generation", "bench_perft",
           "hand_dominates", "self_test"]

#: True when the compiled kernel is loaded; REASON says why not otherwise.
AVAILABLE = False
REASON = ""
try:
    if os.environ.get("TSUME_PURE"):
        raise ImportError("TSUME_PURE is set")
    from ._kernel import MAX_PLY, Board, bench_generation, bench_perft, hand_dominates, self_test
    from ._kernel import DfPnSearch  # df-pn (c++/bind_search.cpp)
    from ._kernel import LengthSearch  # the tsume-rule length search (c++/bind_length.cpp)
    AVAILABLE = True
except ImportError as exc:  # not built (no compiler), or switched off
    REASON = f"the C++ kernel is not loaded: {exc}"

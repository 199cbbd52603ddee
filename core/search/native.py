"""Which of df-pn's modules run compiled and which as pure Python.

An install may compile the modules of :data:`HOT_MODULES` with mypyc from the
same typed source (``setup.py``: when mypyc and a C compiler are at hand and
``TSUME_PURE`` is not set); otherwise they stay pure Python.  Both forms
search exactly the same nodes; the compiled one is faster (docs/benchmarks.md).
"""

from __future__ import annotations

import importlib
from importlib.machinery import EXTENSION_SUFFIXES

# df-pn's inner loop, by module name under core.search; setup.py compiles these.
HOT_MODULES: tuple[str, ...] = ("hand", "tt", "node", "policy", "dfpn")


def compiled_modules() -> tuple[str, ...]:
    """The modules of :data:`HOT_MODULES` loaded from a compiled extension."""
    out = []
    for name in HOT_MODULES:
        module = importlib.import_module(f"{__package__}.{name}")
        if str(getattr(module, "__file__", "") or "").endswith(tuple(EXTENSION_SUFFIXES)):
            out.append(name)
    return tuple(out)


def describe() -> str:
    """One line for reports: ``yes (mypyc: …)``, ``partly (mypyc: …)`` or ``no (pure Python)``."""
    done = compiled_modules()
    if not done:
        return "no (pure Python)"
    return f"{'yes' if len(done) == len(HOT_MODULES) else 'partly'} (mypyc: {', '.join(done)})"

"""The headless front doors: the ``tsume`` command, the USI mate engine, benchmarks, problem sets.

Modules: ``main`` (the ``tsume`` command), one module per group of
subcommands (``position``, ``solve``, ``records``, ``helpmate``), ``usi``
(the USI mate engine, docs/usi-mate.md), ``bench`` and ``bench_helpmate``
(benchmarks against cshogi), ``problemset`` (reading problem files),
``errors`` (exit codes, user mistakes).  Every solver is run through
:func:`core.search.contract.drive`.

May import: anything in the core.  Nothing in the core imports it.
"""

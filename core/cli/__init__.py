"""The headless front doors: the ``tsume`` command, the USI mate engine, benchmarks, problem sets.

Modules: ``main`` (the ``tsume`` command), one module per group of
subcommands (``position``, ``solve``, ``records``, ``helpmate``), ``usi``
(the USI mate engine, docs/usi-mate.md), ``bench`` and ``bench_helpmate``
(benchmarks against cshogi), ``errors`` (exit codes, user mistakes).

May import: anything in the core.  Nothing in the core imports it.
"""

"""The solvers: the contract they share, df-pn and its parts, the official answer, the helpmate solver.

Modules: ``contract`` (status, limits, progress snapshots, results, the cancel
protocol, :func:`~.contract.drive`, the one infinity), ``hand`` (packed hands
and board keys), ``tt`` (the df-pn table), ``dfpn`` (the search), ``node`` (a
node's children and the arithmetic on them: numbers, selection, disproof
depth), ``policy`` (which moves a node expands at once and which wait),
``length_rule`` (the rule of length: what the official answer measures, the
questions a length search answers), ``interposition`` (the judgement of
futility, 無駄合), ``builder`` (the official answer built from a length
search's answers), ``kernel_length`` (the kernel's length search) and
``length_search`` (the same search in Python: the tests' reference, the
fallback), ``proof`` (the answers as values: the proof tree,
futile-interposition reasons, the helpmates found),
``solver`` (the direct-mate driver), ``helpmate`` (協力詰).

Bracketed keys in the docstrings, such as [Qhapaq 2020] or [LS3600 2010], cite
the published sources listed in docs/references.md.

May import: ``core.shogi``.  Never ``core.records`` or ``core.cli``.
"""

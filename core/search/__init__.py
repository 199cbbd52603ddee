"""The solvers: the contract they share, df-pn and its parts, the official answer, the helpmate solver.

Modules: ``contract`` (status, limits, progress snapshots, results, the cancel
protocol, :func:`~.contract.drive`, the one infinity), ``hand`` (packed hands
and board keys), ``tt`` (the df-pn table), ``dfpn`` (the search),
``interposition`` (futile interpositions), ``exact`` (the official answer
under tsume rules), ``proof`` (the answers as values: the proof tree,
futile-interposition reasons, the helpmates found),
``solver`` (the direct-mate driver), ``helpmate`` (協力詰).

May import: ``core.shogi``.  Never ``core.records`` or ``core.cli``.
"""

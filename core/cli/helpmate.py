"""``tsume helpmate-bench``: measure the helpmate solver on problem files."""

from __future__ import annotations

import argparse


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``helpmate-bench`` subcommand."""
    from .bench_helpmate import build_parser

    p = sub.add_parser("helpmate-bench",
                       help="benchmark the helpmate solver (scanned/stored positions, time per technique)")
    build_parser(p)
    p.set_defaults(func=_run)


def _run(args: argparse.Namespace) -> int:
    from .bench_helpmate import run_args

    return run_args(args)

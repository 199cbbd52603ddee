"""``tsume usi``: run the USI mate engine on standard input and output."""

from __future__ import annotations

import argparse


def register(sub: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    """Add the ``usi`` subcommand."""
    p = sub.add_parser("usi", help="run as a USI mate engine (go mate / checkmate) for shogi GUIs")
    p.set_defaults(func=_run)


def _run(args: argparse.Namespace) -> int:
    from .usi import run

    return run()

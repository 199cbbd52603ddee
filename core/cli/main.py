"""The ``tsume`` command line.

Each subcommand lives in its own module that defines ``register(subparsers)``;
a user mistake ends in a one-line error and exit code 2, never a traceback.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import NoReturn, Sequence

from . import check, helpmate, position, records, solve, usi
from .errors import EXIT_USAGE, UserError

# Subcommand modules, in the order `tsume --help` lists them.
_COMMANDS = (position, solve, check, records, usi, helpmate)


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        # One line, like every other user mistake; the usage is one --help away.
        print(f"tsume: error: {message} (see '{self.prog} --help')", file=sys.stderr)
        raise SystemExit(EXIT_USAGE)


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every available subcommand registered."""
    parser = _Parser(prog="tsume", description="Tsume Studio: solve and study tsume-shogi from the command line.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for module in _COMMANDS:
        module.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return EXIT_USAGE
    try:
        code = int(args.func(args) or 0)
        sys.stdout.flush()  # a closed pipe shows up here, not at exit
        return code
    except BrokenPipeError:
        # The reader went away (`tsume moves ... | head`): not an error.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except UserError as exc:
        print(f"tsume: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except (ValueError, OSError) as exc:
        # Parsing errors (SfenError, KifError, ...) and unreadable files are user mistakes.
        print(f"tsume: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print("tsume: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())

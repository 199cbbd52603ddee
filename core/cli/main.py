"""The ``tsume`` command line.

Each subcommand lives in its own module that defines ``register(subparsers)``;
a user mistake ends in a one-line error and exit code 2, never a traceback.
The exit codes are listed in :mod:`.errors`.

The subcommand modules (and with them cshogi) are imported only after the
signal handlers are in place, so Ctrl-C during start-up ends quietly too.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from typing import NoReturn

from . import signals
from .errors import BUG_REPORT, EXIT_INTERNAL, EXIT_INTERRUPTED, EXIT_USAGE, UserError


# Commands that print a result for a signal that comes before their search starts (signals.handled).
DEFERRING_COMMANDS = frozenset({"solve"})


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        # One line, like every other user mistake; the usage is one --help away.
        print(f"tsume: error: {message} (see '{self.prog} --help')", file=sys.stderr)
        raise SystemExit(EXIT_USAGE)


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every available subcommand registered."""
    from . import batch, check, helpmate, position, records, solve, usi

    parser = _Parser(prog="tsume", description="Tsume Studio: solve and study tsume-shogi from the command line.",
                     epilog="exit codes: 0 success, 1 a negative answer (invalid position, no mate), "
                            "2 a user error, 3 an internal error, 130 interrupted")
    parser.add_argument("--debug", action="store_true", help="show the traceback of an internal error")
    parser.add_argument("--version", action="version", version=_version(),
                        help="show the version and whether the C++ kernel is loaded")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    # Subcommand modules, in the order `tsume --help` lists them.
    for module in (position, solve, check, batch, records, usi, helpmate):
        module.register(sub)
    return parser


def _version() -> str:
    """``tsume VERSION; C++ kernel loaded`` (or why it is not), and the engine df-pn runs on."""
    from importlib import metadata

    from ..kernel import AVAILABLE, REASON

    try:
        version = metadata.version("tsume-studio")
    except metadata.PackageNotFoundError:  # a frozen bundle keeps no metadata
        version = "(bundled)"
    from ..search import kernel_engine

    try:
        engine = kernel_engine.engine_choice()
    except kernel_engine.EngineChoiceError as exc:
        engine = f"none ({exc})"
    return f"tsume {version}; {'C++ kernel loaded' if AVAILABLE else REASON}; df-pn on: {engine}"


def single_blas_thread() -> None:
    """Ask numpy's OpenBLAS for one thread, unless the environment says otherwise.

    cshogi imports numpy, whose OpenBLAS starts a thread per core at import; nothing here does
    linear algebra, and those threads cost each process about 0.1 CPU s.  Effective only before
    numpy is first imported, so the entry points call it first.
    """
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code."""
    single_blas_thread()
    args = list(sys.argv[1:] if argv is None else argv)
    debug = "--debug" in args
    # solve answers Ctrl-C with its cancelled result, also before its search has started.
    command = next((a for a in args if not a.startswith("-")), None)
    with signals.handled(defer=command in DEFERRING_COMMANDS):
        try:
            code = _main(argv)
            if signals.pending():   # the command ended before a search could take the signal
                print("tsume: interrupted", file=sys.stderr)
                return EXIT_INTERRUPTED
            return code
        except KeyboardInterrupt:
            print("tsume: interrupted", file=sys.stderr)
            return EXIT_INTERRUPTED
        except Exception as exc:
            if signals.received() is not None and not debug:
                # The interruption surfaced as another error (an extension module
                # turns it into ImportError when it lands during its import).
                print("tsume: interrupted", file=sys.stderr)
                return EXIT_INTERRUPTED
            if debug:
                import traceback

                traceback.print_exc()
            print(f"tsume: internal error: {type(exc).__name__}: {exc} — {BUG_REPORT}"
                  f"{'' if debug else ' (run it again with --debug for the details)'}", file=sys.stderr)
            return EXIT_INTERNAL


def _main(argv: Sequence[str] | None) -> int:
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
        print(f"tsume: error: {_os_message(exc) if isinstance(exc, OSError) else exc}", file=sys.stderr)
        return EXIT_USAGE


def _os_message(exc: OSError) -> str:
    """An OS error as one line naming the file: ``cannot open 'x.kif': No such file or directory``."""
    if exc.filename is not None and exc.strerror:
        return f"{exc.strerror}: {os.fsdecode(exc.filename)!r}"
    return str(exc)


def usi_main() -> int:
    """Entry point of ``tsume-usi``: the USI engine, with start-up as quiet as ``tsume``'s."""
    single_blas_thread()
    with signals.handled():
        try:
            from .usi import run

            return run()
        except KeyboardInterrupt:
            return EXIT_INTERRUPTED
        except ImportError:
            if signals.received() is None:
                raise
            return EXIT_INTERRUPTED   # interrupted while cshogi loaded


if __name__ == "__main__":
    sys.exit(main())

"""``tsume convert IN OUT``: convert a record between KIF, KIFU, KI2, CSA, SFEN, USI and BOD."""

from __future__ import annotations

import argparse
from pathlib import Path
import sys

from ..records.formats import FORMATS


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``convert`` subcommand."""
    exts = ", ".join(FORMATS)
    p = sub.add_parser(
        "convert", help="convert a record file; formats by extension",
        description=f"Convert a record between formats chosen by extension ({exts}). "
                    "IN may be '-' to read pasted text (any format) from standard input. "
                    "CSA, SFEN and USI keep the main line only; BOD keeps the start position.")
    p.add_argument("input", metavar="IN", help="record to read, or - for standard input")
    p.add_argument("output", metavar="OUT", help="record to write (its extension picks the format)")
    p.set_defaults(func=_run)


def _run(args: argparse.Namespace) -> int:
    from ..records.formats import FORMATS, parse_record_text, read_record, write_record
    from .files import check_writable

    if Path(args.output).suffix.lower() in FORMATS:   # else write_record names the unknown extension
        check_writable(args.output)
    if args.input == "-":
        record = parse_record_text(sys.stdin.read())
    else:
        record = read_record(args.input)
    write_record(args.output, record)
    return 0

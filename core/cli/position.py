"""``tsume validate`` and ``tsume moves``: look at a position from the command line."""

from __future__ import annotations

import argparse
import sys

from .errors import EXIT_INVALID, EXIT_OK, UserError
from .files import names_a_file, read_position_file
from ..shogi.moves import check_moves, evasions, japanese, legal_moves
from ..shogi.position import Position, Problem
from ..shogi.types import square_japanese, square_usi


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``validate`` and ``moves`` subcommands."""
    v = sub.add_parser("validate", help="print a position as a board diagram and list its problems",
                       description="Print the position as a BOD diagram and every problem it has "
                                   "(exit code 1 when there is one).")
    v.add_argument("sfen", nargs="+", help="the position as SFEN (quote it, or give its words), or a record file")
    v.set_defaults(func=_validate)

    m = sub.add_parser("moves", help="list the legal moves, checks or evasions of a position",
                       description="List moves in USI and Japanese notation, one per line.")
    m.add_argument("sfen", nargs="+", help="the position as SFEN (quote it, or give its words), or a record file")
    kind = m.add_mutually_exclusive_group()
    kind.add_argument("--checks", action="store_true", help="only checking moves (打ち歩詰め excluded)")
    kind.add_argument("--evasions", action="store_true", help="only replies to check")
    m.set_defaults(func=_moves)


def _position(words: list[str]) -> Position:
    if names_a_file(words):   # a record file: its start position
        return read_position_file(words[0])[0]
    text = " ".join(words).strip()
    if not text:
        raise UserError("no position given: expected SFEN such as "
                        "'lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1'")
    return Position.from_sfen(text)


def format_problem(problem: Problem) -> str:
    """One line for a problem: its flag, its square (USI and Japanese) if any, its message."""
    name = (problem.flag.name or str(int(problem.flag))).lower().replace("_", "-")
    where = ""
    if problem.square is not None:
        where = f" at {square_usi(problem.square)} ({square_japanese(problem.square)})"
    return f"{name}{where}: {problem.message}"


def _validate(args: argparse.Namespace) -> int:
    pos = _position(args.sfen)
    diagram = pos.bod()
    print(diagram, end="" if diagram.endswith("\n") else "\n")
    problems = pos.problems()
    if not problems:
        print("valid")
        return EXIT_OK
    print(f"invalid: {len(problems)} problem{'s' if len(problems) > 1 else ''}")
    for p in problems:
        print("  " + format_problem(p))
    return EXIT_INVALID


def _moves(args: argparse.Namespace) -> int:
    pos = _position(args.sfen)
    if args.checks:
        moves = check_moves(pos)
    elif args.evasions:
        if not pos.is_check():
            print("tsume: the side to move is not in check: no evasions", file=sys.stderr)
            return EXIT_OK
        moves = evasions(pos)
    else:
        moves = legal_moves(pos)
    for move in sorted(moves, key=lambda mv: mv.usi()):
        print(f"{move.usi()}\t{japanese(pos, move)}")
    return EXIT_OK

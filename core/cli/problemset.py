"""Problem files: tab-separated rows with a header line naming ``id``, ``sfen`` and ``length``.

Read by ``tsume batch`` and ``tsume bench``.  Lines that are empty or start
with ``#`` are skipped; a row without an ``id`` is named after its line.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path

from .errors import UserError

Row = dict[str, str]
"""One problem: column name -> cell text."""


def read_problems(path: str) -> list[Row]:
    """Rows of a problem file (TSV with a header line naming id, sfen and length).

    Raises:
        UserError: no such file, an empty file, or no ``sfen`` column.
    """
    file = Path(path)
    if not file.is_file():
        raise UserError(f"no such file: {path!r}")
    lines = file.read_text(encoding="utf-8-sig").splitlines()
    if not lines:
        raise UserError(f"empty problem file: {path!r}")
    header = lines[0].split("\t")
    if "sfen" not in header:
        raise UserError(f"problem file {path!r} has no 'sfen' column in its header line: {lines[0]!r}")
    rows = []
    for number, line in enumerate(lines[1:], start=2):
        if not line.strip() or line.startswith("#"):
            continue
        cells = line.split("\t")
        if len(cells) < len(header):
            cells += [""] * (len(header) - len(cells))
        row = dict(zip(header, cells))
        row.setdefault("id", f"line-{number}")
        rows.append(row)
    return rows


def select_rows(rows: list[Row], *, only: Iterable[str] | None = None, every: int = 1,
                first: int | None = None, source: str = "") -> list[Row]:
    """The rows named in ``only`` (all when None), then every ``every``-th, then the first ``first``.

    Raises:
        UserError: an id of ``only`` is not in ``rows`` (``source`` names the file).
    """
    if only:
        wanted = set(only)
        rows = [r for r in rows if r["id"] in wanted]
        missing = wanted - {r["id"] for r in rows}
        if missing:
            raise UserError(f"no such ids in {source!r}: {', '.join(sorted(missing))}")
    if every > 1:
        rows = rows[::every]
    if first is not None:
        rows = rows[:first]
    return rows


def expected_length(row: Row) -> int | None:
    """The published length of a row's problem, or None when the row gives none."""
    text = row.get("length", "").strip()
    return int(text) if text.isascii() and text.isdigit() and len(text) < 7 else None


def iter_rows(paths: Iterable[str], *, only: Iterable[str] | None = None, every: int = 1,
              first: int | None = None) -> Iterator[tuple[str, list[Row]]]:
    """Each file's selected rows (see :func:`select_rows`)."""
    for path in paths:
        yield path, select_rows(read_problems(path), only=only, every=every, first=first, source=path)


__all__ = ["Row", "expected_length", "iter_rows", "read_problems", "select_rows"]

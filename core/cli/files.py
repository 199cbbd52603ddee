"""Checks on the files the command line writes, made before any long work starts."""

from __future__ import annotations

import os
import stat
from pathlib import Path

from ..records.formats import parse_sfen, read_record, replace_file
from ..records.model import Record
from ..shogi.position import Position
from .errors import UserError

_ANY_WRITE = stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH


#: What a position file's name ends in: the record formats and a one-line .sfen or .usi.
POSITION_SUFFIXES = (".sfen", ".usi", ".kif", ".kifu", ".ki2", ".ki2u", ".csa", ".bod")


def names_a_file(words: list[str]) -> bool:
    """True when a command's positional words are one file name, not SFEN: a single word (SFEN has
    three or four) that is an existing file or ends in a position file's extension."""
    if len(words) != 1 or len(words[0].split()) != 1:
        return False
    return Path(words[0]).is_file() or words[0].lower().endswith(POSITION_SUFFIXES)


def read_position_file(name: str) -> tuple[Position, Record]:
    """The start position of the record in file ``name``, and the record.  A ``.sfen`` file is
    read from its first line that is not blank or a ``#`` comment (``[sfen] <SFEN> [moves …]``, as
    :func:`~..records.formats.parse_sfen` reads it).  A missing file, a folder or a device is a
    :class:`UserError`; an unreadable record raises the reader's error."""
    path = Path(name)
    if path.is_dir():
        raise UserError(f"{name!r} is a folder, not a file")
    if not path.is_file():
        raise UserError(f"no such file: {name!r}" if not path.exists() else f"{name!r} is not a regular file")
    if path.suffix.lower() != ".sfen":
        record = read_record(str(path))
    else:
        text = path.read_text(encoding="utf-8-sig")
        record = parse_sfen(next((ln for ln in text.splitlines() if ln.strip() and not ln.startswith("#")), ""))
    return record.start, record


def check_writable(path: str, extensions: dict[str, object] | None = None) -> None:
    """Raise :class:`UserError` naming ``path`` unless a file can be written there.

    Every command that writes a file calls this before any long work.  It
    checks the extension (when ``extensions`` is given, else the record
    formats'), that the folder exists and can be written, and that an
    existing file is a regular file the user may write: a read-only file, a
    folder, a FIFO or a device is refused, never silently replaced.  A
    symbolic link is written through: the file it points to is checked here
    and replaced (completely or not at all), the link stays; a link that
    points to nothing is refused.
    """
    if extensions is None:
        from ..records.formats import FORMATS

        extensions = dict(FORMATS)
    target = Path(path)
    if target.is_symlink():
        if not target.exists():
            raise UserError(f"cannot write {path!r}: it is a symbolic link to nothing")
        target = target.resolve()
    if Path(path).suffix.lower() not in extensions:
        raise UserError(f"cannot write {path!r}: unknown extension {Path(path).suffix or '(none)'!r}; "
                        f"use one of {', '.join(extensions)}")
    folder = target.parent if str(target.parent) else Path(".")
    if not folder.is_dir():
        raise UserError(f"cannot write {path!r}: no such folder {str(folder)!r}")
    if target.exists():
        if target.is_dir():
            raise UserError(f"cannot write {path!r}: it is a folder")
        if not target.is_file():
            raise UserError(f"cannot write {path!r}: not a regular file (a FIFO, socket or device)")
        if not os.access(target, os.W_OK) or not target.stat().st_mode & _ANY_WRITE:
            raise UserError(f"cannot write {path!r}: the file is read-only")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise UserError(f"cannot write {path!r}: the folder {str(folder)!r} is not writable")


def write_atomic(path: str, data: bytes) -> None:
    """Write ``data`` to ``path`` completely or not at all (a temporary file, then a rename).

    A symbolic link is written through, as :func:`check_writable` describes.
    """
    target = Path(path)
    if target.is_symlink():
        target = target.resolve()
    replace_file(target, data)

"""Checks on the files the command line writes, made before any long work starts."""

from __future__ import annotations

import os
import stat
from pathlib import Path

from .errors import UserError

_ANY_WRITE = stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH


def check_writable(path: str, extensions: dict[str, object] | None = None) -> None:
    """Raise :class:`UserError` naming ``path`` unless a record can be written there.

    Checks the extension (when ``extensions`` is given, else the record
    formats'), that the folder exists and can be written, and that an
    existing file is a regular file the user may write: a read-only file is
    refused, never silently replaced.
    """
    if extensions is None:
        from ..records.formats import FORMATS

        extensions = dict(FORMATS)
    target = Path(path)
    if target.suffix.lower() not in extensions:
        raise UserError(f"cannot write {path!r}: unknown extension {target.suffix or '(none)'!r}; "
                        f"use one of {', '.join(extensions)}")
    folder = target.parent if str(target.parent) else Path(".")
    if not folder.is_dir():
        raise UserError(f"cannot write {path!r}: no such folder {str(folder)!r}")
    if target.exists() or target.is_symlink():
        if target.is_dir():
            raise UserError(f"cannot write {path!r}: it is a folder")
        if not target.is_file():
            raise UserError(f"cannot write {path!r}: not a regular file")
        if not os.access(target, os.W_OK) or not target.stat().st_mode & _ANY_WRITE:
            raise UserError(f"cannot write {path!r}: the file is read-only")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise UserError(f"cannot write {path!r}: the folder {str(folder)!r} is not writable")

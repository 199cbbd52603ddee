"""Record files: read and write by extension, decode, and sniff pasted text.

=============  =====================  ============================================
extension      format                 encoding, line ends
=============  =====================  ============================================
``.kif``       KIF                    cp932 (Shift_JIS), CRLF
``.kifu``      KIF                    UTF-8 without BOM, CRLF
``.ki2``       KI2                    cp932, CRLF
``.ki2u``      KI2                    UTF-8, CRLF
``.csa``       CSA V2.2 (main line)   UTF-8 (ASCII unless names are not), LF
``.sfen``      ``sfen … moves …``     UTF-8, LF
``.usi``       ``position sfen …``    UTF-8, LF
``.bod``       BOD of the start       cp932, CRLF
=============  =====================  ============================================

Reading decodes by BOM, then a ``#KIF … encoding=`` line, then UTF-8 with a
cp932 fallback, whatever the extension says.  Writing is atomic: a temporary
file in the same folder replaced into place.
"""

from __future__ import annotations

import errno
import os
import re
from collections.abc import Callable
from pathlib import Path

from ..errors import CoreError
from ..shogi.bod import parse_bod
from ..shogi.diagram import to_bod
from .csa import parse_csa, to_csa
from .ki2 import parse_ki2, to_ki2
from .kif import parse_kif, to_kif
from .reader import check_no_king_capture
from ..shogi.moves import IllegalMoveError, parse_move
from ..shogi.position import STARTING_SFEN, Position, SfenError
from .model import Record, RecordNode

__all__ = ["RecordError", "FORMATS", "read_record", "write_record", "parse_record_text",
           "record_to_text", "decode_record_bytes", "to_sfen", "parse_sfen", "sniff_format"]


class RecordError(CoreError):
    """A record file cannot be read or written: unknown extension, undecodable bytes, unknown text.

    Raised with a code of :data:`~tsume_studio.core.errors.MESSAGES` (``record.…``), or a plain message.
    """


# extension -> (format, encoding, line end)
FORMATS: dict[str, tuple[str, str, str]] = {
    ".kif": ("kif", "cp932", "\r\n"),
    ".kifu": ("kif", "utf-8", "\r\n"),
    ".ki2": ("ki2", "cp932", "\r\n"),
    ".ki2u": ("ki2", "utf-8", "\r\n"),
    ".csa": ("csa", "utf-8", "\n"),
    ".sfen": ("sfen", "utf-8", "\n"),
    ".usi": ("usi", "utf-8", "\n"),
    ".bod": ("bod", "cp932", "\r\n"),
}


# ---- SFEN with moves ----------------------------------------------------

def to_sfen(record: Record, usi: bool = False) -> str:
    """The main line as ``sfen <SFEN> moves …`` or, with ``usi``, ``position sfen|startpos … moves …``."""
    moves = " ".join(m.usi() for m in record.main_line())
    if usi:
        start = "startpos" if record.start == Position.from_sfen(STARTING_SFEN) else f"sfen {record.start.sfen()}"
        text = f"position {start}"
    else:
        text = f"sfen {record.start.sfen()}"
    return text + (f" moves {moves}" if moves else "")


def parse_sfen(text: str) -> Record:
    """Read ``[position] (sfen <SFEN>|startpos|<SFEN>) [moves …]`` into a one-line record.

    Raises:
        SfenError: bad SFEN or text around it.
        InvalidMoveError, IllegalMoveError: a move is not USI or not legal.
    """
    if not isinstance(text, str):
        raise SfenError(f"SFEN must be text, not {type(text).__name__}")
    words = text.split()
    if words and words[0] == "position":
        words = words[1:]
    if "moves" in words:
        cut = words.index("moves")
        head, moves = words[:cut], words[cut + 1:]
    else:
        head, moves = words, []
    if head == ["startpos"]:
        start = Position.from_sfen(STARTING_SFEN)
    else:
        if head and head[0] == "sfen":
            head = head[1:]
        start = Position.from_sfen(" ".join(head))
    record = Record(start=start.copy())
    pos, node = start, record.root
    for usi in moves:
        mv = parse_move(pos, usi)
        try:
            check_no_king_capture(pos, mv)
        except ValueError as exc:
            raise IllegalMoveError(str(exc)) from None
        child = RecordNode(move=mv)
        node.children.append(child)
        node = child
        pos.push(mv)
    return record


def _bod_record(text: str) -> Record:
    return Record(start=parse_bod(text))


def _bod_text(record: Record) -> str:
    return to_bod(record.start)


_READERS: dict[str, Callable[[str], Record]] = {
    "kif": parse_kif, "ki2": parse_ki2, "csa": parse_csa, "sfen": parse_sfen, "usi": parse_sfen,
    "bod": _bod_record,
}
_WRITERS: dict[str, Callable[[Record], str]] = {
    "kif": to_kif, "ki2": to_ki2, "csa": to_csa, "sfen": lambda r: to_sfen(r) + "\n",
    "usi": lambda r: to_sfen(r, usi=True) + "\n", "bod": _bod_text,
}


def _format_of(path: str | os.PathLike[str]) -> tuple[str, str, str]:
    ext = Path(path).suffix.lower()
    if ext not in FORMATS:
        raise RecordError("record.unknown_extension", ext=repr(ext or "(none)"), path=repr(str(path)),
                          known=", ".join(FORMATS))
    return FORMATS[ext]


# ---- decoding -----------------------------------------------------------

_ENCODING_RE = re.compile(rb"^#KIF[^\r\n]*encoding\s*=\s*([A-Za-z0-9_\-]+)", re.IGNORECASE)
_ENCODING_NAMES = {"shift_jis": "cp932", "sjis": "cp932", "shift-jis": "cp932", "cp932": "cp932",
                   "windows-31j": "cp932", "utf-8": "utf-8", "utf8": "utf-8", "euc-jp": "euc_jp"}


def decode_record_bytes(data: bytes) -> str:
    """Decode a record file: BOM, then ``#KIF … encoding=``, then UTF-8, then cp932.

    Raises:
        RecordError: the bytes are neither UTF-8 nor cp932.
    """
    if data.startswith(b"\xef\xbb\xbf"):
        return data[3:].decode("utf-8") if _utf8_ok(data[3:]) else _fail(data)
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            return data.decode("utf-16")
        except UnicodeDecodeError:
            return _fail(data)
    m = _ENCODING_RE.match(data)
    if m:
        enc = _ENCODING_NAMES.get(m.group(1).decode("ascii").lower())
        if enc:
            try:
                return data.decode(enc)
            except UnicodeDecodeError:
                pass  # the line lies; fall back to detection
    if _utf8_ok(data):
        return data.decode("utf-8")
    try:
        return data.decode("cp932")
    except UnicodeDecodeError:
        return _fail(data)


def _utf8_ok(data: bytes) -> bool:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def _fail(data: bytes) -> str:
    raise RecordError("record.encoding")


# ---- sniffing -----------------------------------------------------------

_KIF_MOVE_RE = re.compile(r"^\s*[0-9]+\s+(同|[１-９1-9][一二三四五六七八九]|" + "|".join(
    ("中断", "投了", "持将棋", "千日手", "詰み", "切れ負け", "反則", "入玉勝ち", "不詰")) + ")", re.M)
_KI2_MOVE_RE = re.compile(r"^\s*[▲△☗☖▽](同|[１-９1-9])", re.M)
_CSA_RE = re.compile(r"^(V2|PI|P[1-9][ +\-]|P[+\-]00|N[+\-]|[+\-][0-9]{4}[A-Z]{2}|[+\-]\s*$)", re.M)
_SFEN_RE = re.compile(r"^\s*(position\s+)?(sfen\s+|startpos\b|[1-9+A-Za-z]+(/[1-9+A-Za-z]+){8}\s+[bw]\s)")


def sniff_format(text: str) -> str:
    """Guess the format of pasted text: ``sfen``, ``kif``, ``ki2``, ``csa`` or ``bod``.

    Raises:
        RecordError: none fits.
    """
    body = text.lstrip("\ufeff")
    if _SFEN_RE.match(body):
        return "sfen"
    if _KIF_MOVE_RE.search(body):
        return "kif"
    if _KI2_MOVE_RE.search(body):
        return "ki2"
    if _CSA_RE.search(body):
        return "csa"
    if re.search(r"^\s*\|", body, re.M):
        # A diagram with a 手数＝ line is a stand-alone BOD; with header keys, KIF.
        if re.search(r"^\s*手数\s*[＝=]", body, re.M):
            return "bod"
        return "kif"
    if re.search(r"^手合割\s*[：:]", body, re.M):
        return "kif"
    raise RecordError("record.unknown_text", start=repr(body[:40]))


def parse_record_text(text: str) -> Record:
    """Parse pasted text in whichever format it is (SFEN, BOD, KIF, KI2, CSA).

    Raises:
        ValueError: :class:`RecordError` when no format fits, or the reader's
            own error (``KifError``, ``BodError`` …) naming the line.
    """
    if not isinstance(text, str):
        raise RecordError(f"a record must be text, not {type(text).__name__}")
    return _READERS[sniff_format(text)](text)


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def replace_file(target: Path, data: bytes) -> None:
    """Write ``data`` to ``target`` completely or not at all: a temporary file beside it, then a rename.

    The temporary file's name is chosen before it is created, inside the
    block that removes it, so an interruption at any moment (Ctrl-C or
    SIGTERM raising :class:`KeyboardInterrupt`) leaves no temporary file
    behind; ``tempfile.mkstemp`` creates the file before it returns the name,
    and an interruption in between left it there.
    """
    folder = target.parent if str(target.parent) else Path(".")
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0) | getattr(os, "O_NOINHERIT", 0)
    tmp: Path | None = None
    try:
        for _ in range(100):
            tmp = folder / f".{target.name}.{os.urandom(6).hex()}.tmp"   # random: a file there is ours
            try:
                fd = os.open(tmp, flags, 0o600)
                break
            except FileExistsError:
                tmp = None   # another file has that name: not ours to remove
        else:
            raise FileExistsError(errno.EEXIST, "no free temporary file name", str(folder))
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.chmod(tmp, 0o666 & ~_umask())
        os.replace(tmp, target)
    except BaseException:
        if tmp is not None:
            _remove_quietly(tmp)
        raise


def _remove_quietly(path: Path) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass


# ---- files --------------------------------------------------------------

def read_record(path: str | os.PathLike[str]) -> Record:
    """Read the record in ``path``; the extension picks the format.

    Raises:
        RecordError: unknown extension or undecodable bytes.
        OSError: the file cannot be read.
        ValueError: the reader's error naming the line (``KifError`` …).
    """
    fmt = _format_of(path)[0]
    text = decode_record_bytes(Path(path).read_bytes())
    return _READERS[fmt](text)


def record_to_text(record: Record, fmt: str) -> str:
    """The record as text in ``fmt`` (``kif``, ``ki2``, ``csa``, ``sfen``, ``usi``, ``bod``), ``\\n`` line ends."""
    if fmt not in _WRITERS:
        raise RecordError(f"unknown record format {fmt!r}")
    return _WRITERS[fmt](record)


def write_record(path: str | os.PathLike[str], record: Record) -> None:
    """Write ``record`` to ``path`` in the format, encoding and line ends of its extension.

    The file is written completely or not at all (temporary file, then
    ``os.replace``).  A symbolic link is written through (the file it points
    to is replaced); a folder, FIFO or device is refused.

    Raises:
        RecordError: unknown extension, or text that the encoding cannot hold
            (for example a name outside Shift_JIS in a ``.kif``).
        OSError: the folder cannot be written.
    """
    fmt, encoding, newline = _format_of(path)
    text = record_to_text(record, fmt)
    if newline != "\n":
        text = text.replace("\n", newline)
    try:
        data = text.encode(encoding)
    except UnicodeEncodeError as exc:
        bad = exc.object[exc.start:exc.end]
        raise RecordError("record.unencodable", text=repr(bad), encoding=encoding,
                          alternative=".kifu" if fmt == "kif" else ".ki2u" if fmt == "ki2" else "UTF-8") from None
    target = Path(path)
    if target.is_symlink():
        # Written through: the file the link points to is replaced, the link stays.
        target = target.resolve()
    if target.exists() and not target.is_file():
        raise IsADirectoryError(errno.EISDIR, "it is a folder", str(path)) if target.is_dir() else \
            OSError(errno.EINVAL, "not a regular file (a FIFO, socket or device)", str(path))
    if target.is_file() and (not target.stat().st_mode & 0o222 or not os.access(target, os.W_OK)):
        # A read-only file is the user's choice: refuse rather than replace it.
        raise PermissionError(errno.EACCES, "the file is read-only", str(path))
    try:
        replace_file(target, data)
    except OSError as exc:
        # Name the user's file, not the temporary one.
        raise type(exc)(exc.errno, exc.strerror, str(path)) from None

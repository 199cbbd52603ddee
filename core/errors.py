"""User-facing errors of the core: a code, parameters, and English text.

An interface that shows a core error in another language must not match the
English text: it reads :attr:`CoreError.code` and :attr:`CoreError.params`
and formats its own template for that code (the GUI's Japanese table is in
``gui/errors.py``).  ``str(error)`` is the English message, so the command
line and logs need nothing more.

A subclass (``RecordError``, ``SfenError``) may also be raised with a plain
English message instead of a code: it then has ``code == ""`` and is shown as
it is; giving such errors codes is how more of them get translated.

Codes are dotted, stable names (``record.empty``, ``engine.timeout``); a
parameter is a plain string or number named in the template, for example
``{path}`` or ``{move}``.  Every code with its English template is in
:data:`MESSAGES`.

May import: nothing from the rest of the core (every layer may import it).
"""

from __future__ import annotations

#: English templates of every code (``str.format`` placeholders name the parameters).
MESSAGES: dict[str, str] = {
    # Engines (core/usi_client.py)
    "engine.not_found": "the engine program {path} does not exist",
    "engine.not_executable": "the engine program {path} cannot be run: {reason}",
    "engine.no_usiok": "the engine did not answer 'usi' with 'usiok' within {seconds} s",
    "engine.no_readyok": "the engine did not answer 'isready' with 'readyok' within {seconds} s",
    "engine.exited": "the engine exited (status {status}) before it answered '{command}'",
    "engine.no_answer": "the engine gave no 'checkmate' answer within {seconds} s of being asked to stop",
    "engine.not_implemented": "the engine has no mate search ('checkmate notimplemented')",
    "engine.bestmove": "the engine answered 'go mate' with 'bestmove' instead of 'checkmate'",
    "engine.bad_answer": "the engine's answer is not a 'checkmate' line: {line}",
    "engine.illegal_move": "the engine's line is wrong: move {ply} ({move}) is not legal there",
    "engine.no_check": "the engine's line is wrong: the attacker's move {ply} ({move}) does not give check",
    "engine.not_mate": "the engine's line is wrong: it ends after {plies} moves without checkmate",
    "engine.even_line": "the engine's line is wrong: a mate line has an odd number of moves, not {plies}",
    "engine.bad_option": "the option line '{text}' is not 'name=value'",
    # Records and positions (core/records/formats.py, core/editing.py, core/shogi/position.py)
    "record.unknown_extension": "unknown record extension {ext} in {path}; use one of {known}",
    "record.encoding": "the file is neither UTF-8 nor Shift_JIS (cp932) text",
    "record.unknown_text": "not a record in a known format (SFEN, KIF, KI2, CSA, BOD): {start}",
    "record.unencodable": "{text} cannot be written in {encoding}; save as {alternative} instead",
    "position.empty_text": "the text is empty: paste an SFEN, BOD or KIF position",
    "position.unknown_file_type": "unknown file type {ext} in {path}; use one of {known}",
    "sfen.fields": "expected 3 or 4 fields (board, side, hands, move number) in sfen: {sfen}",
    # A line of a KIF or KI2 record (core/records/kif.py, ki2.py, reader.py), shown after
    # "line N:" and followed by the line's text (CoreError.at_line).
    "record.not_a_line": "not a {format} line",
    "record.not_a_move": "not a move",
    "record.not_a_move_at": "not a move at {rest}",
    "record.expected_mark": "expected ▲ or △ at {rest}",
    "record.out_of_turn": "{mark} moves out of turn at {rest}",
    "record.text_after_move": "unexpected text {rest} after the move",
    "record.move_number": "move number {ply} does not follow move {previous}",
    "record.after_terminal": "a move after the terminal {word}",
    "record.handicap": "手合割 {name} is not a standard position and no board diagram follows",
    "move.not_a_square": "not a square: {square}",
    "move.no_previous": "同 with no previous move",
    "move.cannot_promote": "{piece} cannot promote",
    "move.no_piece": "no {piece} of the side to move on {square}",
    "move.illegal": "illegal move {move}",
    "move.illegal_drop": "illegal drop of {piece} on {square}",
    "move.no_legal_move": "no legal move of {piece} to {square}",
    "move.ambiguous": "ambiguous: {count} {piece} can move to {square}",
    "move.captures_king": "{move} captures the king on {square}; the side not to move is in check",
}


class CoreError(ValueError):
    """A user-facing error: ``code`` names it, ``params`` fill its template.

    A ``ValueError``, so callers that catch bad input keep catching it.
    """

    def __init__(self, code: str, **params: str | int | float) -> None:
        self.params: dict[str, str | int | float] = dict(params)
        self.line: int | None = None      # where in a file, when at_line() said so
        self.line_text: str | None = None
        if code not in MESSAGES:
            # A plain English message (errors not yet given a code): no code to translate by.
            self.code = ""
            super().__init__(code)
            return
        self.code = code
        try:
            text = MESSAGES[code].format(**params)
        except (KeyError, IndexError):   # a missing parameter must not hide the error
            text = f"{MESSAGES[code]} {params}"
        super().__init__(text)

    def at_line(self, line: int, text: str | None = None) -> None:
        """Say where: ``line N: <message>: '<the line's text>'`` (the interface formats its own)."""
        message = str(self)
        self.line, self.line_text = line, text
        self.args = (f"line {line}: {message}" + (f": {text!r}" if text is not None else ""),)


__all__ = ["MESSAGES", "CoreError"]

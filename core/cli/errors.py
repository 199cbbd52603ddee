"""Exit codes and the user-mistake exception shared by every ``tsume`` subcommand.

=====  ==========================================================================
code   meaning
=====  ==========================================================================
0      success (valid position, mate found, file written, batch run)
1      a negative answer: invalid position, or no mate found
2      a user error: bad arguments, unreadable input, a file that cannot be written
3      an internal error (a bug): one line asking for a report; ``--debug`` shows it
130    interrupted by Ctrl-C (SIGINT) or SIGTERM
=====  ==========================================================================
"""

from __future__ import annotations

EXIT_OK, EXIT_INVALID, EXIT_USAGE, EXIT_INTERNAL = 0, 1, 2, 3
EXIT_NEGATIVE = EXIT_INVALID
EXIT_INTERRUPTED = 130
BUG_REPORT = "please report this bug with the command that caused it"


class UserError(Exception):
    """A mistake in the user's input: printed as one line, exit code 2."""

"""Exit codes and the user-mistake exception shared by every ``tsume`` subcommand."""

from __future__ import annotations

EXIT_OK, EXIT_INVALID, EXIT_USAGE = 0, 1, 2


class UserError(Exception):
    """A mistake in the user's input: printed as one line, exit code 2."""

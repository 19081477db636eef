"""The ``burraco`` console script. ``burraco replay FILE`` — the command outside test suites run once per case
(RECORDS.md §5, ../shared/conformance) — goes straight to :func:`burraco.replay_cmd.replay_file` without loading
the command line's libraries (Typer, Rich, the tournament commands: half of the command's CPU time); every other
command, and ``replay`` with an option, goes through ``burraco.cli.main``."""

from __future__ import annotations

import sys


def main() -> None:
    """The console script: ``replay FILE`` at once, the rest through ``burraco.cli.main``."""
    args = sys.argv[1:]
    if len(args) == 2 and args[0] == "replay" and (args[1] == "-" or not args[1].startswith("-")):
        from .replay_cmd import replay_file

        sys.exit(replay_file(args[1]))
    from .cli import main as cli_main

    cli_main()


__all__ = ["main"]

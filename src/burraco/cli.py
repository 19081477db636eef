"""The ``burraco`` command line (Typer)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import typer

app = typer.Typer(add_completion=False, no_args_is_help=True, help="Burraco: rules engine, records and simulation.")


@app.callback()
def _root() -> None:
    """Burraco: rules engine, records and simulation."""


@app.command()
def replay(file: Path = typer.Argument(..., help="a game record (RECORDS.md), or - for standard input")) -> None:
    """Replay a record through the engine and print the result as JSON (exit 0 ok, 1 illegal action, 2 bad record)."""
    from .record import replay_text

    try:
        text = sys.stdin.read() if str(file) == "-" else file.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        print(json.dumps({"ok": False, "error": "record", "message": f"cannot read {file}: {e}"}))
        raise typer.Exit(2) from e
    out, status = replay_text(text)
    print(json.dumps(out, indent=1, ensure_ascii=False))
    raise typer.Exit(status)


def main() -> None:
    app()

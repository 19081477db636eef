"""``burraco replay FILE``: a record file (or standard input) replayed through the engine and the result printed
as RECORDS.md §5 says, shared by the console script's quick path (:mod:`burraco.launch`) and the full command line
(``burraco.cli.replay``)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from .record import replay_lines, replay_text


def replay_file(file: str) -> int:
    """``burraco replay FILE``: the record(s) of ``file`` (``-``: standard input) replayed and their result printed
    as JSON (RECORDS.md: one result indented, or a compact one per line of a JSON-lines file); the exit status
    (0 ok, 1 an illegal action, 2 a bad record)."""
    try:
        text = sys.stdin.read() if file == "-" else Path(file).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        print(json.dumps({"ok": False, "error": "record", "message": f"cannot read {Path(file)}: {e}"}))
        return 2
    many = replay_lines(text)
    if many is not None:  # JSON lines: one compact result a line
        results, status = many
        for res in results:
            print(json.dumps(res, ensure_ascii=False))
        return status
    out, status = replay_text(text)
    print(json.dumps(out, indent=1, ensure_ascii=False))
    return status


__all__ = ["replay_file"]

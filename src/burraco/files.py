"""Small file helpers shared by the interfaces (the core does no I/O)."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any


def write_json_atomic(path: Path | str, data: Any, *, indent: int | None = None) -> None:
    """Write ``data`` as JSON to ``path`` so that a reader (or a crash) never sees half a file: a temporary file in
    the same folder, flushed to disk, then renamed over ``path``. Creates the folder if needed."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            if indent is None:
                json.dump(data, f, separators=(",", ":"), ensure_ascii=False)
            else:
                json.dump(data, f, indent=indent, ensure_ascii=False)
                f.write("\n")
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def output_problem(path: Path | str, *, folder: bool = False) -> str | None:
    """Why ``path`` could not be written (a file, or with ``folder`` a folder to write files into), or None when
    it can: checked before a long computation, so that a bad output path never throws finished work away.

    >>> output_problem("/nonexistent-folder/x.png")
    'there is no folder /nonexistent-folder'
    >>> output_problem("/"), output_problem("/", folder=True) is None
    ('/ is a folder: give a file name', True)
    """
    p = Path(path)
    if p.exists():
        if folder and not p.is_dir():
            return f"{p} is a file, not a folder"
        if not folder and p.is_dir():
            return f"{p} is a folder: give a file name"
        if not os.access(p, os.W_OK):
            return f"cannot write {p} (no permission)"
        return None
    parent = p.parent
    if not parent.exists():
        return f"there is no folder {parent}"
    if not parent.is_dir():
        return f"{parent} is not a folder"
    if not os.access(parent, os.W_OK | os.X_OK):
        return f"cannot write in the folder {parent} (no permission)"
    return None


__all__ = ["output_problem", "write_json_atomic"]

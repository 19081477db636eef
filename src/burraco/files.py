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


__all__ = ["write_json_atomic"]

"""Saved games: every game of ``burraco play`` is a record (RECORDS.md §3) in the user's data folder.

The folder is ``$BURRACO_DATA_DIR/games`` when that variable is set (tests use it), else the platform's user data
folder (``platformdirs``), e.g. ``~/.local/share/burraco/games`` on Linux. A saved game is the match record plus
a ``play`` header (unknown top-level keys are ignored by the record format) with what is needed to continue it
exactly: the human seat, the computer players, the seed the hands are dealt from, and whether it has finished.

Files are written atomically (a temporary file renamed over the old one), so a crash never leaves half a save.
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..files import write_json_atomic

#: the environment variable that overrides the data folder
DATA_ENV = "BURRACO_DATA_DIR"


def data_dir() -> Path:
    """The folder that holds ``games/`` (created on first save)."""
    env = os.environ.get(DATA_ENV)
    if env:
        return Path(env)
    from platformdirs import user_data_dir

    return Path(user_data_dir("burraco", appauthor=False))


def games_dir() -> Path:
    """The folder of saved games."""
    return data_dir() / "games"


def new_game_path(seed: int) -> Path:
    """A fresh file name for a new game: the start time and the seed (never an existing file)."""
    d = games_dir()
    stamp = time.strftime("%Y%m%d-%H%M%S")
    p = d / f"{stamp}-{seed}.json"
    k = 1
    while p.exists():
        k += 1
        p = d / f"{stamp}-{seed}-{k}.json"
    return p


def write_record(path: Path, record: dict[str, Any]) -> None:
    """Write ``record`` as JSON to ``path`` atomically."""
    write_json_atomic(path, record, indent=1)


@dataclass(frozen=True)
class SavedGame:
    """A saved game file and its ``play`` header."""

    path: Path
    record: dict[str, Any]

    @property
    def header(self) -> dict[str, Any]:
        h = self.record.get("play")
        return h if isinstance(h, dict) else {}

    @property
    def finished(self) -> bool:
        return bool(self.header.get("finished", False))

    @property
    def updated(self) -> float:
        u = self.header.get("updated", 0.0)
        return float(u) if isinstance(u, int | float) else 0.0


def saved_games() -> list[SavedGame]:
    """Every readable saved game, the most recently updated first (files that are not records are skipped)."""
    d = games_dir()
    out: list[SavedGame] = []
    if not d.is_dir():
        return out
    for p in d.glob("*.json"):
        if p.name.startswith(".tmp-"):
            continue
        try:
            data = json.loads(p.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError):
            continue
        if isinstance(data, dict) and isinstance(data.get("play"), dict):
            out.append(SavedGame(p, data))
    out.sort(key=lambda s: (s.updated, s.path.name), reverse=True)
    return out


def last_unfinished() -> SavedGame | None:
    """The most recently played game that has not finished, or None."""
    for s in saved_games():
        if not s.finished:
            return s
    return None


__all__ = [
    "DATA_ENV",
    "SavedGame",
    "data_dir",
    "games_dir",
    "last_unfinished",
    "new_game_path",
    "saved_games",
    "write_record",
]

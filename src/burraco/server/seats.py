"""Seats: who sits where (a human by his seat token, a computer player by its level, an open seat), and the
names and levels a request may give them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .protocol import DEFAULT_LEVEL, LEVELS, MAX_NAME, ClientError
from .store import SeatRow


@dataclass
class Seat:
    index: int
    kind: str  # human | computer | open
    level: str
    name: str
    claimed: bool
    token_hash: str
    away: bool = False  # a computer plays this human's turns until he is back
    connected: int = 0
    disconnected_since: float = 0.0
    ready: bool = False  # asked for the next hand

    def row(self) -> SeatRow:
        return SeatRow(self.index, self.kind, self.level, self.name, self.claimed, self.token_hash)


def clean_name(name: Any, default: str) -> str:
    if not isinstance(name, str):
        return default
    name = " ".join(name.split())[:MAX_NAME]
    return name or default


def check_level(level: Any) -> str:
    if level is None:
        return DEFAULT_LEVEL
    if level not in LEVELS:
        raise ClientError("bad_request", f"unknown computer level {level!r} (levels are {', '.join(LEVELS)})")
    return str(level)



def computer_name(level: str) -> str:
    return "Computer (" + level.replace("heuristic:", "") + ")"


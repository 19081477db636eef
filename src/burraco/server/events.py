"""Events as the tables keep and send them: the statuses, the kinds that change a game, the connection a table
sends to (:class:`Sink`), an event's public form and the JSON encoding of every message."""

from __future__ import annotations

import json
from typing import Any, Protocol

from ..seats import seat_names
from .commits import SECRET_KEYS
from .store import EventRow

#: statuses of a table that no longer plays: it stays readable (games, records) and leaves memory when idle
CLOSED_STATUSES = ("finished", "abandoned")


class TableGone(Exception):
    """The table object was unloaded from memory (a newer copy is loaded from the store on the next request)."""

#: events that change a game (an action sent against an older event number than the last of these is stale)
GAME_EVENTS = frozenset({"game", "hand", "action", "hand_end", "game_end", "takeback"})


class Sink(Protocol):
    """A connection as the tables see it: where to send, and which seat it holds."""

    seat: int | None
    table: Any  # the table it is at (server/tables.py's Table), None between tables
    lang: str  # the language its moves log and refusals are rendered in
    ip: str  # its address as the limits key it (an IPv4 address, an IPv6 /64)
    guest: str | None  # its browser's guest id (server/guests.py), None without a valid guest cookie
    account: str | None  # the id of the account its browser is signed in to (server/accounts.py), else None
    bot: bool  # that account is a bot's (a program signed in with its bot token)

    def send(self, msg: dict[str, Any] | str) -> None: ...

    def send_close(self) -> None: ...



def public_event(ev: EventRow, players: int) -> dict[str, Any]:
    """An event as everyone may see it: a deal is announced without its cards, a commitment without its seed.
    ``seat``, ``away`` and ``chat`` events also name the seat by its letter (``seat_letter``; ``seat`` is an index
    in the first two)."""
    d = ev.data
    if ev.kind == "hand":
        d = {k: v for k, v in d.items() if k != "deal"}
    elif ev.kind == "commit":  # the commitment is public, the seed is revealed when the hand ends
        d = {k: v for k, v in d.items() if k not in SECRET_KEYS}
    elif ev.kind == "created":
        d = {"name": d.get("name", "")}
    elif ev.kind in ("seat", "away"):
        i = d.get("seat")
        names = seat_names(players)
        d = {**d, "seat_letter": names[i] if isinstance(i, int) and 0 <= i < players else None}
    elif ev.kind == "chat":
        d = {**d, "seat_letter": d.get("seat")}
    return {"n": ev.n, "kind": ev.kind, "data": d, "at": ev.at}


def encode(msg: dict[str, Any]) -> str:
    return json.dumps(msg, separators=(",", ":"), ensure_ascii=False)


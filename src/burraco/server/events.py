"""Events as the tables keep and send them: the statuses, the kinds that change a game, the connection a table
sends to (:class:`Sink`), an event's public form and the JSON encoding of every message."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, Protocol

from ..game import seat_names
from .store import EventRow

if TYPE_CHECKING:
    from .tables import Table

#: statuses of a table that no longer plays: it stays readable (games, records) and leaves memory when idle
CLOSED_STATUSES = ("finished", "abandoned")


class TableGone(Exception):
    """The table object was unloaded from memory (a newer copy is loaded from the store on the next request)."""

#: events that change a game (an action sent against an older event number than the last of these is stale)
GAME_EVENTS = frozenset({"game", "hand", "action", "hand_end", "game_end"})


class Sink(Protocol):
    """A connection as the tables see it: where to send, and which seat it holds."""

    seat: int | None
    table: Table | None
    lang: str  # the language its moves log and refusals are rendered in

    def send(self, msg: dict[str, Any] | str) -> None: ...



def public_event(ev: EventRow, players: int) -> dict[str, Any]:
    """An event as everyone may see it: a deal is announced without its cards. ``seat``, ``away`` and ``chat``
    events also name the seat by its letter (``seat_letter``; ``seat`` is an index in the first two)."""
    d = ev.data
    if ev.kind == "hand":
        d = {k: v for k, v in d.items() if k != "deal"}
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


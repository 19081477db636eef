"""Seats: who sits where (a human by his seat token, a computer player by its level, an open seat, a seat its
player left during a game), the names and levels a request may give them, and the fair-play rules of who may take
which seat (docs/protocol.md "Fair play"):

* one person holds one seat: a connection, a browser by the seat tokens it holds (``held``) or by its guest
  cookie (server/guests.py: the browsers that held each seat are remembered), already seated at a table cannot
  take or open another seat there;
* a seat left during a game (kind ``left``) is played by the take-over computer and kept for its player: his
  token stays valid and brings him back, nobody may ``take`` it, only the table's creator may ``give`` it to
  someone else (a new token; the old one then stops working);
* a seat left while the table waits for players (or after the game) is open again; its old token still brings
  its player back until someone else takes it.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from ..messages import msg
from .protocol import DEFAULT_LEVEL, LEVELS, MAX_NAME, ClientError
from .store import SeatRow, token_hash

#: seat kinds: ``left`` is a human's seat he gave up during a game (kept for him, played by the computer)
KINDS = ("human", "computer", "open", "left")
#: how many seat tokens of one table a request may list in ``held``
MAX_HELD = 8


@dataclass
class Seat:
    index: int
    kind: str  # human | computer | open | left
    level: str
    name: str
    claimed: bool
    token_hash: str
    away: bool = False  # a computer plays this human's turns until he is back
    connected: int = 0
    disconnected_since: float = 0.0
    ready: bool = False  # asked for the next hand
    #: the guest ids of the browsers that hold it (or held it since it last changed hands)
    guests: set[str] = field(default_factory=set)
    #: the account that holds it (server/accounts.py), when its player was signed in
    account: str | None = None
    #: that account is a bot's
    bot: bool = False

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
        raise ClientError("bad_request", msg("srv_unknown_level", level=str(level), levels=", ".join(LEVELS)))
    return str(level)


def check_token(token: Any) -> str:
    """A token as a request may give it: a non-empty short string."""
    if not isinstance(token, str) or not token or len(token) > 200:
        raise ClientError("bad_token", msg("srv_token_string"))
    return token


def seat_of_token(seats: Iterable[Seat], token: str) -> Seat | None:
    """The seat whose token is ``token`` (compared by hash, in constant time), or None."""
    h = token_hash(token)
    for s in seats:
        if s.token_hash and secrets.compare_digest(s.token_hash, h):
            return s
    return None


def held_seats(seats: list[Seat], held: Any) -> list[Seat]:
    """The seats a request's ``held`` tokens (the other seat tokens its browser keeps for this table) hold now:
    those a human holds or left during the game and may come back to."""
    if held is None:
        return []
    if not isinstance(held, list) or len(held) > MAX_HELD:
        raise ClientError("bad_message", msg("srv_held_list", n=MAX_HELD))
    out: list[Seat] = []
    for tok in held:
        s = seat_of_token(seats, check_token(tok))
        if s is not None and s.kind in ("human", "left") and s not in out:
            out.append(s)
    return out


def one_seat(
    seats: list[Seat], names: tuple[str, ...], want: Seat | None, held: Any, seated: int | None,
    guest: str | None = None,
) -> None:
    """Refuse (``one_seat``) a second seat at a table: the connection is ``seated`` at another seat, or its browser
    holds another seat, by a token it reports (``held``) or by its ``guest`` cookie."""
    if seated is not None and (want is None or seated != want.index):
        raise ClientError("one_seat", msg("srv_one_seat", seat=names[seated]))
    mine = held_seats(seats, held)
    if guest:
        mine += [s for s in seats if s.kind in ("human", "left") and guest in s.guests and s not in mine]
    for s in mine:
        if want is None or s.index != want.index:
            raise ClientError("one_seat", msg("srv_one_seat_browser", seat=names[s.index]))


def computer_name(level: str) -> str:
    return "Computer (" + level.replace("heuristic:", "") + ")"


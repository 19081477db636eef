"""Computer players at a table: the pace they move at, scheduling their next move, and the move itself (chosen
off the event loop, from the seat's view only, applied through the table like any action)."""

from __future__ import annotations

import asyncio
import logging
import random
from typing import Any, Protocol

from ..arena import parse_player
from ..bots.base import Player
from ..game import Game
from ..match import Match
from .config import ServerConfig
from .events import TableGone

log = logging.getLogger("burraco.server")


class BotHost(Protocol):
    """What the computer players need of the hub: its settings, and whether it shuts down."""

    @property
    def config(self) -> ServerConfig: ...

    @property
    def closing(self) -> bool: ...


class PacedTable(Protocol):
    """What the pace of the computer players depends on: the hub's settings, and whether only computers sit."""

    @property
    def hub(self) -> BotHost: ...

    def computer_only(self) -> bool: ...


class BotTable(PacedTable, Protocol):
    """What the computer players need of their table (server/tables.py's ``Table``, which schedules them): its
    game, whose seat a computer plays, its lock, and the way every action is applied."""

    bot_task: asyncio.Task[None] | None
    last_game_n: int
    #: the table left this process's memory (its lease was lost, or it was rebuilt): its computers move no more
    unloaded: bool

    @property
    def id(self) -> str: ...

    @property
    def hub(self) -> BotHost: ...

    @property
    def lock(self) -> asyncio.Lock: ...

    @property
    def players(self) -> dict[tuple[int, str], Player]: ...

    @property
    def rng(self) -> random.Random: ...

    @property
    def game(self) -> Game | None: ...

    @property
    def match(self) -> Match | None: ...

    def computer_only(self) -> bool: ...

    def hand_running(self) -> bool: ...

    def controller(self, seat: int) -> str | None: ...

    async def _act(self, seat: int | None, text: Any, expect: Any) -> None: ...

    async def advance(self) -> None: ...


def bot_delay(t: PacedTable) -> float:
    """Seconds a computer player waits before moving: at a table of computers only, at least
    ``computer_table_delay`` (such tables are paced, never run flat out)."""
    cfg = t.hub.config
    if t.computer_only():
        return max(cfg.bot_delay, cfg.computer_table_delay)
    return cfg.bot_delay


def schedule_bot(t: BotTable) -> None:
    """Start the computer's move when a computer (or the take-over player) is to play and none is thinking."""
    if t.hub.closing or t.unloaded or (t.bot_task is not None and not t.bot_task.done()):
        return
    g = t.game
    if not t.hand_running() or g is None:
        return
    seat = g.current_seat
    level = t.controller(seat)
    if level is None:
        return
    t.bot_task = asyncio.create_task(bot_move(t, seat, level, t.last_game_n))


async def bot_move(t: BotTable, seat: int, level: str, expect: int) -> None:
    """One computer move at ``seat``, if the game is still at event ``expect`` when it is chosen."""
    try:
        delay = bot_delay(t)
        if delay > 0:
            await asyncio.sleep(delay)
        async with t.lock:
            g = t.game
            m = t.match
            if t.last_game_n != expect or g is None or m is None or g.current_seat != seat:
                return
            view = m.view(seat)
            legal = g.legal_actions()
            player = seat_player(t, seat, level)
        action = await asyncio.to_thread(player.choose, view, legal)
        async with t.lock:
            if t.last_game_n != expect or t.controller(seat) is None:
                return
            await t._act(seat, str(action), expect)
            await t.advance()
    except asyncio.CancelledError:
        raise
    except TableGone:  # the table left this process meanwhile: the copy that has it now moves
        pass
    except Exception:  # a bug in a player must not stop the table: log it, the watchdog retries
        log.exception("table %s: computer player at seat %s failed", t.id, seat)
    finally:
        t.bot_task = None
        schedule_bot(t)  # (never on a copy that left memory: it would fail, and schedule itself, for ever)


def seat_player(t: BotTable, seat: int, level: str) -> Player:
    """The computer player of ``level`` at ``seat`` (one per seat and level, kept for the table's life)."""
    key = (seat, level)
    p = t.players.get(key)
    if p is None:
        p = parse_player(level)(t.rng.randrange(1 << 30))
        t.players[key] = p
    return p

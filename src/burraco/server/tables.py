"""Tables: the server-side state of every table, the one place where games change.

A :class:`Table` owns its matches (one per game played at the table), its seats and its numbered event log. Every
change goes through :meth:`Table._emit` under the table's lock: the events are committed to the store, then
applied in memory, then broadcast. Rebuilding a table at start replays the same events (:meth:`Table.replay`),
so a restart resumes every table exactly where its last committed event left it.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import logging
import random
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from ..actions import ActionError
from ..arena import parse_player
from ..bots.base import Player
from ..bots.hint import hint as engine_hint
from ..deal import Deal, deal_from_seed
from ..game import Game, seat_names
from ..match import Match
from ..rules import Rules, rules_from_json, rules_to_json
from .config import ServerConfig
from .protocol import DEFAULT_LEVEL, LEVELS, MAX_CHAT, MAX_NAME, PROTOCOL_VERSION, ClientError
from .store import EventRow, SeatRow, Store, TableRow, token_hash
from .views import hand_end_json, public_view_json, scoreboard_json, seat_view_json

log = logging.getLogger("burraco.server")

#: events that change a game (an action sent against an older event number than the last of these is stale)
GAME_EVENTS = frozenset({"game", "hand", "action", "hand_end", "game_end"})


class Sink(Protocol):
    """A connection as the tables see it: where to send, and which seat it holds."""

    seat: int | None
    table: Table | None

    def send(self, msg: dict[str, Any] | str) -> None: ...


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


@dataclass
class Table:
    """One table: settings, seats, matches, the event log and the connections watching it."""

    hub: Hub
    id: str
    config: dict[str, Any]
    seats: list[Seat]
    status: str = "waiting"  # waiting | playing | finished
    created: float = 0.0
    events: list[EventRow] = field(default_factory=list)
    matches: list[Match] = field(default_factory=list)
    game_dealers: list[int] = field(default_factory=list)
    last_game_n: int = 0
    conns: set[Sink] = field(default_factory=set)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    turn_key: tuple[int, ...] = ()
    turn_started: float = 0.0
    hand_ended_at: float = 0.0
    bot_task: asyncio.Task[None] | None = None
    watch_task: asyncio.Task[None] | None = None
    players: dict[tuple[int, str], Player] = field(default_factory=dict)
    rng: random.Random = field(default_factory=lambda: random.Random(secrets.randbits(64)))
    touched: float = field(default_factory=time.monotonic)  # last request or departure (for unloading)
    finished: list[dict[str, Any]] = field(default_factory=list)
    hands_ended: set[tuple[int, int]] = field(default_factory=set)
    _rules: Rules | None = None

    # ----- basic facts --------------------------------------------------------------------------------------------
    @property
    def rules(self) -> Rules:
        if self._rules is None:
            self._rules = rules_from_json(self.config["rules"])
        return self._rules

    @property
    def n(self) -> int:
        return self.events[-1].n if self.events else 0

    @property
    def seat_names(self) -> tuple[str, ...]:
        return seat_names(len(self.seats))

    @property
    def match(self) -> Match | None:
        return self.matches[-1] if self.matches else None

    @property
    def game(self) -> Game | None:
        m = self.match
        return m.game if m is not None and m.games else None

    def hand_running(self) -> bool:
        g = self.game
        return self.status == "playing" and g is not None and not g.is_over

    def controller(self, seat: int) -> str | None:
        """Who plays ``seat`` now: the computer level, or None when a human is to play it."""
        s = self.seats[seat]
        if s.kind == "computer":
            return s.level
        if s.kind == "open" or s.away:
            return str(self.config.get("takeover", DEFAULT_LEVEL))
        return None

    def ready_to_start(self) -> bool:
        return all(s.kind == "computer" or (s.kind == "human" and s.claimed) for s in self.seats)

    # ----- applying events (live and on rebuild) ------------------------------------------------------------------
    def _apply_event(self, ev: EventRow, rebuilding: bool) -> None:
        d = ev.data
        k = ev.kind
        if k == "game":
            self.matches.append(Match(self.rules, int(d["dealer"])))
            self.game_dealers.append(int(d["dealer"]))
            self.status = "playing"
        elif k == "hand":
            m = self.matches[-1]
            m.start_hand(Deal.from_json(d["deal"], m.seats))
        elif k == "action":
            m = self.matches[-1]
            m.apply(d["action"])
        elif k == "hand_end":
            self.hands_ended.add((int(d["game_no"]), int(d["hand_no"])))
        elif k == "game_end":
            self.status = "finished"
            self.finished.append({"game_no": d["game_no"], "at": ev.at, **d["summary"], "hands": d["hands"]})
        elif k == "seat" and rebuilding:
            pass  # the seats table holds the seats' current state
        elif k == "away":
            self.seats[int(d["seat"])].away = bool(d["away"]) and not rebuilding
        if k in GAME_EVENTS:
            self.last_game_n = ev.n
        self.events.append(ev)

    def replay(self, events: list[EventRow]) -> None:
        """Rebuild the table from its stored events (at server start)."""
        for ev in events:
            self._apply_event(ev, rebuilding=True)
        self._note_turn()

    async def _emit(
        self, events: list[tuple[str, dict[str, Any]]], *, seat: Seat | None = None, status: str | None = None
    ) -> None:
        """Commit events (numbered after the last), then apply and broadcast them. Call with the lock held."""
        base = self.n
        numbered = [(base + i + 1, k, d) for i, (k, d) in enumerate(events)]
        await self.hub.store.append(self.id, numbered, seat=seat.row() if seat else None, status=status)
        now = time.time()
        rows = [EventRow(n, k, d, now) for n, k, d in numbered]
        for ev in rows:
            self._apply_event(ev, rebuilding=False)
        if status is not None:
            self.status = status
        self._note_turn()
        for ev in rows:
            self.broadcast({"type": "event", **public_event(ev)})
        self.broadcast_state()
        self.wake.set()

    def _note_turn(self) -> None:
        g = self.game
        key: tuple[int, ...] = (
            (len(self.matches), len(self.match.games) if self.match else 0, g.current_seat, g.turns)
            if g is not None and not g.is_over
            else ()
        )
        if key != self.turn_key:
            self.turn_key = key
            self.turn_started = time.monotonic()
            for s in self.seats:
                s.ready = False
        if g is not None and g.is_over and not self.hand_ended_at:
            self.hand_ended_at = time.monotonic()
        if g is None or not g.is_over:
            self.hand_ended_at = 0.0

    # ----- messages out -------------------------------------------------------------------------------------------
    def broadcast(self, msg: dict[str, Any]) -> None:
        if self.conns:
            text = encode(msg)  # encoded once for everybody
            for c in list(self.conns):
                c.send(text)

    def broadcast_state(self) -> None:
        """Each connection's ``state``: the shared part is encoded once, each seat's view once."""
        if not self.conns:
            return
        head = encode(self.shared_state())[:-1]
        texts: dict[int | None, str] = {}
        for c in list(self.conns):
            text = texts.get(c.seat)
            if text is None:
                st = self.state_json(c.seat, {})
                text = texts[c.seat] = f'{head},"you":{encode(st["you"])},"view":{encode(st["view"])}}}'
            c.send(text)

    def broadcast_presence(self) -> None:
        self.broadcast(self.presence_json())

    def presence_json(self) -> dict[str, Any]:
        return {
            "type": "presence",
            "seats": {self.seat_names[s.index]: s.connected > 0 for s in self.seats},
            "spectators": sum(1 for c in self.conns if c.seat is None),
        }

    def info_json(self) -> dict[str, Any]:
        """The table as the lobby shows it (public)."""
        r = self.rules
        return {
            "id": self.id,
            "name": self.config.get("name", ""),
            "rules": rules_to_json(r),
            "preset": r.name,
            "players": r.players,
            "target": r.target,
            "hands_per_match": r.hands_per_match,
            "clock": self.config.get("clock", 0),
            "grace": self.config.get("grace", self.hub.config.grace),
            "status": self.status,
            "games": len(self.finished_games()),
            "seats": [
                {
                    "seat": self.seat_names[s.index],
                    "kind": s.kind,
                    "level": s.level if s.kind == "computer" else None,
                    "name": s.name,
                    "claimed": s.claimed,
                    "connected": s.connected > 0,
                    "away": s.away,
                }
                for s in self.seats
            ],
            "spectators": sum(1 for c in self.conns if c.seat is None),
        }

    def clock_json(self) -> dict[str, Any] | None:
        g = self.game
        if not self.hand_running() or g is None:
            return None
        seat = g.current_seat
        clock = float(self.config.get("clock", 0))
        out: dict[str, Any] = {"seat": self.seat_names[seat], "player": self.controller(seat) or "human"}
        if clock > 0 and self.controller(seat) is None:
            out["left"] = round(self.turn_started + clock - time.monotonic(), 1)
        return out

    def shared_state(self) -> dict[str, Any]:
        """The part of a ``state`` message that is the same for every recipient (computed once per broadcast)."""
        m = self.match
        g = self.game
        next_in = None
        if self.status == "playing" and g is not None and g.is_over and self.hand_ended_at:
            next_in = round(max(0.0, self.hand_ended_at + self._between() - time.monotonic()), 1)
        return {
            "type": "state",
            "v": PROTOCOL_VERSION,
            "n": self.n,
            "table": self.info_json(),
            "game_no": len(self.matches) - 1 if m is not None else None,
            "hand_no": len(m.games) - 1 if m is not None and m.games else None,
            "hand_end": hand_end_json(m, len(m.games) - 1) if m is not None and g is not None and g.is_over else None,
            "scoreboard": scoreboard_json(m) if m is not None else None,
            "clock": self.clock_json(),
            "next_hand_in": next_in,
            "ready": [self.seat_names[s.index] for s in self.seats if s.ready],
        }

    def state_json(self, seat: int | None, shared: dict[str, Any] | None = None) -> dict[str, Any]:
        """The full state for one recipient: its seat's view (or the public view), the scoreboard, the clock."""
        m = self.match
        g = self.game
        view: dict[str, Any] | None = None
        if g is not None and m is not None:
            view = seat_view_json(m.view(seat)) if seat is not None else public_view_json(g)
        out = dict(shared if shared is not None else self.shared_state())
        out["you"] = None if seat is None else self.seat_names[seat]
        out["view"] = view
        return out

    def finished_games(self) -> list[dict[str, Any]]:
        """The games finished at this table (number, totals, winner, VP, hands)."""
        return list(self.finished)

    def record(self, game_no: int) -> dict[str, Any]:
        """The record (RECORDS.md §3) of a finished game, with the table's names as extra headers."""
        done = {g["game_no"] for g in self.finished_games()}
        if game_no not in done:
            raise ClientError("not_found", f"game {game_no} of table {self.id} has not finished (or does not exist)")
        rec = self.matches[game_no].to_record()
        rec["table"] = self.id
        rec["game_no"] = game_no
        rec["players"] = {self.seat_names[s.index]: s.name for s in self.seats}
        return rec

    # ----- the flow of the game -----------------------------------------------------------------------------------
    def _between(self) -> float:
        humans = any(s.kind == "human" and s.connected > 0 for s in self.seats)
        return self.hub.config.between_hands if humans else self.hub.config.bot_delay

    async def advance(self) -> None:
        """Do whatever is due: start the game, write a hand's end, deal the next hand, let a computer move, take
        over for a human who is away. Call with the lock held."""
        for _ in range(8):
            if not await self._advance_once():
                break
        self._schedule_bot()

    async def _advance_once(self) -> bool:
        if self.status == "waiting":
            if self.ready_to_start():
                await self._start_game()
                return True
            return False
        if self.status != "playing":
            return False
        m = self.match
        assert m is not None
        if not m.games:
            await self._deal()
            return True
        g = m.game
        if g.is_over:
            hand_no = len(m.games) - 1
            if (len(self.matches) - 1, hand_no) not in self.hands_ended:
                ev_list: list[tuple[str, dict[str, Any]]] = [
                    ("hand_end", {"game_no": len(self.matches) - 1, **hand_end_json(m, hand_no)})
                ]
                status = None
                if m.is_over:
                    ev_list.append(
                        ("game_end", {"game_no": len(self.matches) - 1, "summary": m.summary_json(),
                                      "hands": len(m.games)})
                    )
                    status = "finished"
                await self._emit(ev_list, status=status)
                return True
            if m.is_over:
                if self.status != "finished":
                    await self._emit([], status="finished")
                return False
            humans = [s for s in self.seats if s.kind == "human" and s.connected > 0]
            all_ready = bool(humans) and all(s.ready for s in humans)
            if all_ready or time.monotonic() >= self.hand_ended_at + self._between():
                await self._deal()
                return True
            return False
        # a hand is running: take over for a human who is away too long
        seat = g.current_seat
        s = self.seats[seat]
        if s.kind == "human" and not s.away:
            due, why = self._takeover_due(s)
            if due <= time.monotonic():
                await self._emit([("away", {"seat": seat, "away": True, "why": why})])
                return True
        return False

    def _takeover_due(self, s: Seat) -> tuple[float, str]:
        grace = float(self.config.get("grace", self.hub.config.grace))
        clock = float(self.config.get("clock", 0))
        due, why = float("inf"), ""
        if clock > 0:
            due, why = self.turn_started + clock + grace, "time"
        if s.connected == 0:
            t = max(s.disconnected_since, self.turn_started) + grace
            if t < due:
                due, why = t, "disconnected"
        return due, why

    def next_wakeup(self) -> float:
        """Seconds until :meth:`advance` may have something to do without any message arriving."""
        g = self.game
        if self.status != "playing" or g is None:
            return 3600.0
        if g.is_over:
            return max(0.0, self.hand_ended_at + self._between() - time.monotonic())
        s = self.seats[g.current_seat]
        if s.kind == "human" and not s.away:
            return max(0.0, self._takeover_due(s)[0] - time.monotonic())
        return 3600.0

    async def _start_game(self) -> None:
        k = len(self.matches)
        n = len(self.seats)
        dealer = (self.game_dealers[-1] + 1) % n if self.game_dealers else n - 1
        await self._emit([("game", {"game_no": k, "dealer": dealer})], status="playing")

    async def _deal(self) -> None:
        m = self.match
        assert m is not None
        # every deal from fresh OS randomness: the deals of finished games are public (records), so no
        # generator state may link one deal to the next
        deal = deal_from_seed(m.rules, random.Random(secrets.randbits(128)))
        hand_no = len(m.games)
        await self._emit(
            [("hand", {"game_no": len(self.matches) - 1, "hand_no": hand_no,
                       "dealer": m.hand_dealer(hand_no), "deal": deal.to_json(m.seats)})]
        )

    def _schedule_bot(self) -> None:
        if self.hub.closing or (self.bot_task is not None and not self.bot_task.done()):
            return
        g = self.game
        if not self.hand_running() or g is None:
            return
        seat = g.current_seat
        level = self.controller(seat)
        if level is None:
            return
        self.bot_task = asyncio.create_task(self._bot_move(seat, level, self.last_game_n))

    async def _bot_move(self, seat: int, level: str, expect: int) -> None:
        try:
            if self.hub.config.bot_delay > 0:
                await asyncio.sleep(self.hub.config.bot_delay)
            async with self.lock:
                g = self.game
                m = self.match
                if self.last_game_n != expect or g is None or m is None or g.current_seat != seat:
                    return
                view = m.view(seat)
                legal = g.legal_actions()
                player = self._player(seat, level)
            action = await asyncio.to_thread(player.choose, view, legal)
            async with self.lock:
                if self.last_game_n != expect or self.controller(seat) is None:
                    return
                await self._act(seat, str(action), expect)
                await self.advance()
        except asyncio.CancelledError:
            raise
        except Exception:  # a bug in a player must not stop the table: log it, the watchdog retries
            log.exception("table %s: computer player at seat %s failed", self.id, seat)
        finally:
            self.bot_task = None
            self._schedule_bot()

    def _player(self, seat: int, level: str) -> Player:
        key = (seat, level)
        p = self.players.get(key)
        if p is None:
            p = parse_player(level)(self.rng.randrange(1 << 30))
            self.players[key] = p
        return p

    async def _act(self, seat: int, text: Any, expect: Any) -> None:
        """Validate an action of ``seat`` against the engine and apply it (lock held); raises ClientError."""
        g = self.game
        if not self.hand_running() or g is None:
            raise ClientError("not_now", "no hand is being played at this table now")
        if not isinstance(expect, int) or isinstance(expect, bool):
            raise ClientError("bad_message", "'n' must be the number of the last event you have seen")
        if expect > self.n:
            raise ClientError("bad_message", f"event {expect} does not exist yet (the last is {self.n})")
        if expect < self.last_game_n:
            raise ClientError(
                "stale", f"the game changed after event {expect} (now at {self.last_game_n}): action not applied"
            )
        if not isinstance(text, str) or not text.strip():
            raise ClientError("bad_message", "'action' must be an action string such as 'N draw'")
        try:
            a = g.parse(text)
        except ActionError as e:
            raise ClientError("invalid", e.message) from e
        me = self.seat_names[seat]
        if a.seat != me:
            who = a.seat or "the tournament director"
            raise ClientError("other_seat", f"you play seat {me}; '{text}' is an action of {who}")
        if g.current_seat != seat:
            raise ClientError("out_of_turn", f"it is {self.seat_names[g.current_seat]}'s turn, not yours")
        err = g.check(a)
        if err is not None:
            raise ClientError(err.kind, err.message)
        await self._emit([("action", {"seat": me, "action": str(a)})])

    # ----- requests from connections ------------------------------------------------------------------------------
    async def attach(self, conn: Sink, token: Any, name: Any, last: Any) -> None:
        """A connection joins: with a seat token as that seat, else as a spectator. It gets ``welcome``, then the
        events after ``last`` (when given and not too far behind), then its ``state``; then the live broadcasts."""
        seat = None
        if token is not None and (not isinstance(token, str) or not token or len(token) > 200):
            raise ClientError("bad_token", "the seat token must be a short string")
        if last is not None and (not isinstance(last, int) or isinstance(last, bool) or last < 0):
            raise ClientError("bad_message", "'last' must be the number of the last event you have seen")
        async with self.lock:
            if token is not None:
                # resolved under the lock: a seat left and taken meanwhile no longer answers to the old token
                h = token_hash(token)
                for s in self.seats:
                    if s.token_hash and secrets.compare_digest(s.token_hash, h):
                        seat = s
                        break
                if seat is None:
                    raise ClientError(
                        "bad_token", "this seat link is not valid at this table (it may have been left)"
                    )
            conn.seat = None if seat is None else seat.index
            conn.table = self
            self._catch_up(conn, last)
            self.conns.add(conn)
            if seat is not None:
                seat.connected += 1
                if not seat.claimed or (name is not None and clean_name(name, seat.name) != seat.name):
                    seat.claimed = True
                    seat.name = clean_name(name, seat.name)
                    await self._emit([("seat", self.seat_event(seat))], seat=seat)
                if seat.away:
                    await self._emit([("away", {"seat": seat.index, "away": False, "why": "back"})])
                await self.advance()
            self.broadcast_presence()

    def _catch_up(self, conn: Sink, last: int | None) -> None:
        missed: list[EventRow] | None = None
        if last is not None and last <= self.n and self.n - last <= self.hub.config.max_replay_events:
            missed = [ev for ev in self.events if ev.n > last]
        conn.send({"type": "welcome", "v": PROTOCOL_VERSION, "table": self.id, "n": self.n,
                   "you": None if conn.seat is None else self.seat_names[conn.seat],
                   "replay": None if missed is None else len(missed)})
        for ev in missed or []:
            conn.send({"type": "event", **public_event(ev)})
        conn.send(self.state_json(conn.seat))

    async def attach_again(self, conn: Sink, last: Any) -> None:
        """``sync``: the events after ``last`` (or a full resync) and the state, on a connection already here."""
        if last is not None and (not isinstance(last, int) or isinstance(last, bool) or last < 0):
            raise ClientError("bad_message", "'last' must be the number of the last event you have seen")
        async with self.lock:
            self._catch_up(conn, last)

    def detach(self, conn: Sink) -> None:
        if conn not in self.conns:
            return
        self.conns.discard(conn)
        self.touched = time.monotonic()
        if conn.seat is not None:
            s = self.seats[conn.seat]
            s.connected = max(0, s.connected - 1)
            if s.connected == 0:
                s.disconnected_since = time.monotonic()
        self.broadcast_presence()
        self.wake.set()

    def seat_event(self, s: Seat) -> dict[str, Any]:
        return {"seat": s.index, "kind": s.kind, "level": s.level, "name": s.name, "claimed": s.claimed}

    async def handle(self, conn: Sink, msg: dict[str, Any]) -> dict[str, Any] | None:
        """One request of a connection already at this table; returns a direct reply, or None."""
        t = msg["type"]
        async with self.lock:
            if t == "act":
                if conn.seat is None:
                    raise ClientError("not_seated", "spectators cannot play: take an open seat first")
                s = self.seats[conn.seat]
                # the action first: a refused one raises and changes nothing, not even the seat's "away" mark
                await self._act(conn.seat, msg.get("action"), msg.get("n"))
                if s.away:
                    await self._emit([("away", {"seat": s.index, "away": False, "why": "back"})])
                await self.advance()
                return None
            if t == "back":
                seat = self._need_seat(conn)
                if seat.away:
                    await self._emit([("away", {"seat": seat.index, "away": False, "why": "back"})])
                    await self.advance()
                return None
            if t == "chat":
                text = msg.get("text")
                if not isinstance(text, str) or not text.strip():
                    raise ClientError("bad_message", "'text' must be a non-empty string")
                text = " ".join(text.split())[:MAX_CHAT]
                who = self.seats[conn.seat].name if conn.seat is not None else "spectator"
                seat_s = self.seat_names[conn.seat] if conn.seat is not None else None
                await self._emit([("chat", {"seat": seat_s, "name": who, "text": text})])
                return None
            if t == "hint":
                return await self._hint(conn, msg)
            if t == "next":
                seat = self._need_seat(conn)
                g = self.game
                if self.status != "playing" or g is None or not g.is_over:
                    raise ClientError("not_now", "the next hand can be asked for only between hands")
                seat.ready = True
                await self.advance()
                self.broadcast_state()
                return None
            if t == "rematch":
                self._need_seat(conn)
                if self.status != "finished":
                    raise ClientError("not_now", "a new game can start only when the game is over")
                await self._start_game()
                await self.advance()
                return None
            if t == "take":
                return await self._take(conn, msg)
            if t == "leave":
                seat = self._need_seat(conn)
                seat.kind, seat.claimed, seat.token_hash, seat.away = "open", False, "", False
                seat.connected = 0
                seat.name = f"Seat {self.seat_names[seat.index]}"
                # every connection on this seat (another tab, the same link opened twice) becomes a spectator:
                # none of them may see or play the hand of whoever takes the seat next
                others = [c for c in self.conns if c is not conn and c.seat == seat.index]
                conn.seat = None
                for c in others:
                    c.seat = None
                    c.send({"type": "left"})
                await self._emit([("seat", self.seat_event(seat))], seat=seat)  # then everybody's new state
                await self.advance()
                self.broadcast_presence()
                return {"type": "left"}
            if t == "fill":
                self._need_seat(conn)
                level = check_level(msg.get("level"))
                changed = False
                for s in self.seats:
                    if s.kind == "open" or (s.kind == "human" and not s.claimed):
                        s.kind, s.level, s.claimed, s.token_hash = "computer", level, False, ""
                        s.name = computer_name(level)
                        await self._emit([("seat", self.seat_event(s))], seat=s)
                        changed = True
                if not changed:
                    raise ClientError("not_now", "there is no open seat to fill")
                await self.advance()
                return None
        raise ClientError("unknown_type", f"unknown message type {t!r}")

    def _need_seat(self, conn: Sink) -> Seat:
        if conn.seat is None:
            raise ClientError("not_seated", "only a seated player can do this")
        return self.seats[conn.seat]

    async def _take(self, conn: Sink, msg: dict[str, Any]) -> dict[str, Any]:
        if conn.seat is not None:
            raise ClientError("not_now", "you already hold a seat at this table")
        name = msg.get("seat")
        if name not in self.seat_names:
            raise ClientError("bad_message", f"'seat' must be one of {' '.join(self.seat_names)}")
        s = self.seats[self.seat_names.index(name)]
        if s.kind != "open":
            raise ClientError("seat_taken", f"seat {name} is not open")
        token = secrets.token_urlsafe(18)
        s.kind, s.claimed, s.token_hash, s.away = "human", True, token_hash(token), False
        s.name = clean_name(msg.get("name"), f"Player {name}")
        s.connected += 1
        conn.seat = s.index
        await self._emit([("seat", self.seat_event(s))], seat=s)
        await self.advance()
        self.broadcast_presence()
        return {"type": "seated", "seat": name, "token": token}

    async def _hint(self, conn: Sink, msg: dict[str, Any]) -> dict[str, Any]:
        seat = self._need_seat(conn)
        g = self.game
        m = self.match
        if not self.hand_running() or g is None or m is None or g.current_seat != seat.index:
            raise ClientError("not_now", "a hint is given only when it is your turn")
        view = m.view(seat.index)
        legal = g.legal_actions()
        h = await asyncio.to_thread(engine_hint, view, "hard", legal)
        return {"type": "hint", "action": str(h.action), "reason": h.reason, "n": self.n}

    # ----- background -------------------------------------------------------------------------------------------
    async def watch(self) -> None:
        """The table's watchdog: clocks, take-overs and the pause between hands run here, on the server."""
        while True:
            try:
                async with self.lock:
                    await self.advance()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("table %s: advance failed", self.id)
                await asyncio.sleep(1.0)
            wait = self.next_wakeup()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.wake.wait(), timeout=min(wait + 0.01, 3600.0))
            self.wake.clear()


def computer_name(level: str) -> str:
    return "Computer (" + level.replace("heuristic:", "") + ")"


def public_event(ev: EventRow) -> dict[str, Any]:
    """An event as everyone may see it: a deal is announced without its cards."""
    d = ev.data
    if ev.kind == "hand":
        d = {k: v for k, v in d.items() if k != "deal"}
    elif ev.kind == "created":
        d = {"name": d.get("name", "")}
    return {"n": ev.n, "kind": ev.kind, "data": d, "at": ev.at}


class Hub:
    """Every table of this server process, the store, and table creation."""

    def __init__(self, config: ServerConfig, store: Store) -> None:
        self.config = config
        self.store = store
        self.tables: dict[str, Table] = {}
        self._loading = asyncio.Lock()
        self.closing = False
        self._janitor: asyncio.Task[None] | None = None

    async def start(self) -> None:
        """Migrate the store, rebuild every table that is waiting or playing from its events and resume it
        (finished tables are rebuilt when someone asks for them: :meth:`get`)."""
        await self.store.migrate()
        for row in await self.store.load_tables(("waiting", "playing")):
            await self._rebuild(row)
        self._janitor = asyncio.create_task(self._unload_idle())
        gc.collect()
        gc.freeze()  # what was rebuilt at start is never scanned again by the collector

    async def _unload_idle(self) -> None:
        """Every so often, drop finished tables nobody watches from memory (they stay in the store)."""
        every = max(0.05, min(60.0, self.config.unload_after / 4))
        while True:
            await asyncio.sleep(every)
            now = time.monotonic()
            for t in list(self.tables.values()):
                if t.status == "finished" and not t.conns and now - t.touched > self.config.unload_after:
                    async with t.lock:
                        if t.conns or t.status != "finished":
                            continue
                        del self.tables[t.id]
                    for task in (t.watch_task, t.bot_task):
                        if task is not None:
                            task.cancel()

    async def _rebuild(self, row: TableRow) -> Table:
        seats = [Seat(s.seat, s.kind, s.level, s.name, s.claimed, s.token_hash) for s in row.seats]
        t = Table(self, row.id, row.config, seats, status="waiting", created=row.created)
        t.replay(await self.store.load_events(row.id))
        now = time.monotonic()
        for s in t.seats:
            s.disconnected_since = now
        self.tables[t.id] = t
        self._run(t)
        return t

    async def get(self, table_id: str) -> Table | None:
        """A table by id: in memory, or rebuilt from the store (a finished table nobody has asked for yet)."""
        t = self.tables.get(table_id)
        if t is not None:
            t.touched = time.monotonic()
        if t is not None or not table_id or len(table_id) > 32:
            return t
        async with self._loading:
            t = self.tables.get(table_id)
            if t is None:
                rows = await self.store.load_tables(ids=[table_id])
                if rows:
                    t = await self._rebuild(rows[0])
        return t

    def _run(self, t: Table) -> None:
        t.watch_task = asyncio.create_task(t.watch())
        t.wake.set()

    async def stop(self) -> None:
        self.closing = True
        if self._janitor is not None:
            self._janitor.cancel()
        for t in self.tables.values():
            for task in (t.watch_task, t.bot_task):
                if task is not None:
                    task.cancel()
        for t in self.tables.values():
            for task in (t.watch_task, t.bot_task):
                if task is not None:
                    with contextlib.suppress(asyncio.CancelledError, Exception):
                        await task
        await self.store.close()

    async def create_table(self, spec: Any) -> dict[str, Any]:
        """Create a table from a request body (see docs/protocol.md): returns its id and the seats' tokens."""
        if not isinstance(spec, dict):
            raise ClientError("bad_request", "the body must be a JSON object")
        from ..rules import PRESETS, RulesError, preset

        name = spec.get("preset", "italian")
        if not isinstance(name, str) or name not in PRESETS:
            raise ClientError("bad_request", f"unknown preset {name!r} (presets are {', '.join(PRESETS)})")
        overrides: dict[str, Any] = {}
        for key, field_name in (("players", "players"), ("target", "target"), ("hands", "hands_per_match")):
            v = spec.get(key)
            if v is not None:
                if not isinstance(v, int) or isinstance(v, bool) or v <= 0:
                    raise ClientError("bad_request", f"'{key}' must be a positive integer")
                overrides[field_name] = v
        try:
            rules = preset(name, **overrides)
        except RulesError as e:
            raise ClientError("bad_request", str(e)) from e
        n = rules.players
        names = seat_names(n)
        seat_specs = spec.get("seats")
        if seat_specs is None:
            seat_specs = [{"kind": "human"}] + [{"kind": "computer"}] * (n - 1)
        if not isinstance(seat_specs, list) or len(seat_specs) != n:
            raise ClientError("bad_request", f"'seats' must list {n} seats ({' '.join(names)})")
        clock = spec.get("clock", 0)
        grace = spec.get("grace", self.config.grace)
        for key, v in (("clock", clock), ("grace", grace)):
            if not isinstance(v, int | float) or isinstance(v, bool) or not 0 <= v <= 3600:
                raise ClientError("bad_request", f"'{key}' must be a number of seconds from 0 to 3600")
        seats: list[Seat] = []
        tokens: dict[str, str] = {}
        for i, ss in enumerate(seat_specs):
            if not isinstance(ss, dict):
                raise ClientError("bad_request", "each seat must be an object with a 'kind'")
            kind = ss.get("kind")
            if kind not in ("human", "computer", "open"):
                raise ClientError("bad_request", f"seat {names[i]}: kind must be human, computer or open")
            level = check_level(ss.get("level")) if kind == "computer" else DEFAULT_LEVEL
            th = ""
            if kind == "human":
                tok = secrets.token_urlsafe(18)
                tokens[names[i]] = tok
                th = token_hash(tok)
            default = computer_name(level) if kind == "computer" else (
                f"Player {names[i]}" if kind == "human" else f"Seat {names[i]}")
            seats.append(Seat(i, kind, level, clean_name(ss.get("name"), default), False, th))
        config = {
            "rules": rules_to_json(rules),
            "name": clean_name(spec.get("name"), f"{rules.name} table"),
            "clock": clock,
            "grace": grace,
            "takeover": check_level(spec.get("takeover")),
            "listed": bool(spec.get("listed", True)),
        }
        table_id = secrets.token_urlsafe(6).replace("-", "x").replace("_", "y")
        first = {"name": config["name"], "rules": config["rules"],
                 "seats": [{"kind": s.kind, "name": s.name} for s in seats]}
        await self.store.create_table(table_id, config, [s.row() for s in seats], first)
        t = Table(self, table_id, config, seats, created=time.time())
        t.events.append(EventRow(1, "created", first, time.time()))
        self.tables[table_id] = t
        self._run(t)
        return {
            "id": table_id,
            "tokens": tokens,
            "links": {s: f"/t/{table_id}#t={tok}" for s, tok in tokens.items()},
            "table": t.info_json(),
        }

    def lobby(self) -> list[dict[str, Any]]:
        """Listed tables that are waiting or playing, newest first."""
        out = [t.info_json() for t in self.tables.values()
               if t.config.get("listed", True) and t.status in ("waiting", "playing")]
        out.sort(key=lambda x: -self.tables[x["id"]].created)
        return out[:200]


def encode(msg: dict[str, Any]) -> str:
    return json.dumps(msg, separators=(",", ":"), ensure_ascii=False)


__all__ = ["Hub", "Table", "Seat", "public_event", "encode", "Callable"]

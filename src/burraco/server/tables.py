"""Tables: the server-side state of every table, the one place where games change.

A :class:`Table` owns its matches (one per game played at the table), its seats and its numbered event log. Every
change goes through :meth:`Table._emit` under the table's lock: the events are committed to the store, then
applied in memory, then broadcast. Rebuilding a table at start replays the same events (:meth:`Table.replay`),
so a restart resumes every table exactly where its last committed event left it.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
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
from ..messages import message_to_json, msg, render
from ..rules import Rules, rules_from_json, rules_to_json
from .config import ServerConfig
from .protocol import DEFAULT_LEVEL, LEVELS, MAX_CHAT, MAX_NAME, PROTOCOL_MINOR, PROTOCOL_VERSION, ClientError
from .store import EventRow, SeatRow, Store, TableRow, token_hash
from .views import hand_end_json, public_view_json, scoreboard_json, seat_view_json

log = logging.getLogger("burraco.server")

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
    owner_ip: str = ""  # the address that created the table (in this process; for the computer-table caps)
    unloaded: bool = False  # dropped from the hub: this object must not change or write anything any more
    human_seen: float = field(default_factory=time.time)  # wall-clock time of the last human activity
    replay_cache: dict[int, bytes] = field(default_factory=dict)  # finished game -> its encoded replay
    replay_lock: asyncio.Lock = field(default_factory=asyncio.Lock)  # one replay computed at a time per table
    hinting: set[int] = field(default_factory=set)  # seats whose hint is being computed (one at a time each)
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

    def computer_only(self) -> bool:
        """No human seat: computer players (and open seats the computer plays) only."""
        return all(s.kind != "human" for s in self.seats)

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
        elif k == "closed":
            self.status = str(d.get("status", "abandoned"))
        if k in GAME_EVENTS:
            self.last_game_n = ev.n
        self.events.append(ev)

    def replay(self, events: list[EventRow]) -> None:
        """Rebuild the table from its stored events (at server start)."""
        for ev in events:
            self._apply_event(ev, rebuilding=True)
        self._note_turn()

    async def _emit(
        self,
        events: list[tuple[str, dict[str, Any]]],
        *,
        seat: tuple[Seat, dict[str, Any]] | None = None,
        status: str | None = None,
        on_commit: Callable[[], None] | None = None,
    ) -> None:
        """Commit events (numbered after the last), then apply and broadcast them. Call with the lock held.

        ``seat`` is a seat and the changes of its fields that go with the events: they are stored in the same
        transaction and made in memory only once it has committed, like ``status`` and ``on_commit`` (when the
        store fails, the exception propagates and nothing changed). Every event carries one timestamp, the same
        in the store and in the broadcast."""
        if self.unloaded:
            raise TableGone(self.id)
        base = self.n
        numbered = [(base + i + 1, k, d) for i, (k, d) in enumerate(events)]
        row = dataclasses.replace(seat[0], **seat[1]).row() if seat is not None else None
        now = time.time()
        await self.hub.store.append(self.id, numbered, seat=row, status=status, at=now)
        if seat is not None:
            for name, value in seat[1].items():
                setattr(seat[0], name, value)
        if on_commit is not None:
            on_commit()
        rows = [EventRow(n, k, d, now) for n, k, d in numbered]
        for ev in rows:
            self._apply_event(ev, rebuilding=False)
        if status is not None:
            self.status = status
        self._note_turn()
        players = len(self.seats)
        for ev in rows:
            self.broadcast({"type": "event", **public_event(ev, players)})
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
            "created": self.created,
            "timeouts": r.has_timeouts,
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
        return self.hub.config.between_hands if humans else self._bot_delay()

    def _bot_delay(self) -> float:
        """Seconds a computer player waits before moving: at a table of computers only, at least
        ``computer_table_delay`` (such tables are paced, never run flat out)."""
        cfg = self.hub.config
        if self.computer_only():
            return max(cfg.bot_delay, cfg.computer_table_delay)
        return cfg.bot_delay

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
        # generator state may link one deal to the next; a duplicate tournament's table (created by the desk with
        # a secret ``deal_seed``, never from a request) deals the event's hands, as every table of its round does
        hand_no = len(m.games)
        seed = self.config.get("deal_seed")
        deal = (Match(m.rules, seed=int(seed)).deal_for_hand(hand_no) if seed is not None
                else deal_from_seed(m.rules, random.Random(secrets.randbits(128))))
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
            delay = self._bot_delay()
            if delay > 0:
                await asyncio.sleep(delay)
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

    async def _act(self, seat: int | None, text: Any, expect: Any) -> None:
        """Validate an action of ``seat`` (None: the tournament director, whose only action is ``timeout``)
        against the engine and apply it (lock held); raises ClientError."""
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
            raise engine_refusal(e, "invalid") from e
        if seat is None:
            if a.seat:
                raise ClientError("other_seat", f"the tournament director calls only 'timeout', not '{text}'")
            me = ""
        else:
            me = self.seat_names[seat]
            if a.seat != me:
                who = a.seat or "the tournament director"
                raise ClientError("other_seat", f"you play seat {me}; '{text}' is an action of {who}")
            if g.current_seat != seat:
                raise ClientError("out_of_turn", f"it is {self.seat_names[g.current_seat]}'s turn, not yours")
        err = g.check(a)
        if err is not None:
            raise engine_refusal(err, err.kind)
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
            if self.unloaded:  # this copy left memory after the caller found it: the caller asks the hub again
                raise TableGone(self.id)
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
            if seat is not None and (
                not seat.claimed or (name is not None and clean_name(name, seat.name) != seat.name)
            ):
                # first: if the store fails, the connection is not attached and nothing changed
                changes = {"claimed": True, "name": clean_name(name, seat.name)}
                await self._emit([("seat", self.seat_event(seat, changes))], seat=(seat, changes))
            conn.seat = None if seat is None else seat.index
            conn.table = self
            self._catch_up(conn, last)
            self.conns.add(conn)
            self.touched = time.monotonic()
            if seat is not None:
                self.human_seen = time.time()
                seat.connected += 1
                if seat.away:
                    await self._emit([("away", {"seat": seat.index, "away": False, "why": "back"})])
                await self.advance()
            self.broadcast_presence()

    def _catch_up(self, conn: Sink, last: int | None) -> None:
        missed: list[EventRow] | None = None
        if last is not None and last <= self.n and self.n - last <= self.hub.config.max_replay_events:
            missed = [ev for ev in self.events if ev.n > last]
        conn.send({"type": "welcome", "v": PROTOCOL_VERSION, "minor": PROTOCOL_MINOR, "table": self.id, "n": self.n,
                   "you": None if conn.seat is None else self.seat_names[conn.seat],
                   "replay": None if missed is None else len(missed)})
        for ev in missed or []:
            conn.send({"type": "event", **public_event(ev, len(self.seats))})
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

    def seat_event(self, s: Seat, changes: dict[str, Any] | None = None) -> dict[str, Any]:
        """A ``seat`` event's data: the seat as it is after ``changes``."""
        if changes:
            s = dataclasses.replace(s, **changes)
        return {"seat": s.index, "kind": s.kind, "level": s.level, "name": s.name, "claimed": s.claimed}

    async def handle(self, conn: Sink, msg: dict[str, Any]) -> dict[str, Any] | None:
        """One request of a connection already at this table; returns a direct reply, or None."""
        t = msg["type"]
        if conn.seat is not None:
            self.human_seen = time.time()
        if t == "hint":  # computed off the lock: the table goes on meanwhile
            return await self._hint(conn, msg)
        async with self.lock:
            if self.unloaded:
                raise TableGone(self.id)
            if self.status == "abandoned":
                raise ClientError("not_now", "this table was closed: nobody played at it for too long")
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
            if t == "timeout":
                self._need_creator(msg.get("token"))
                await self._act(None, "timeout", msg.get("n"))
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
                return await self._leave(conn)
            if t == "fill":
                self._need_seat(conn)
                level = check_level(msg.get("level"))
                changed = False
                for s in self.seats:
                    if s.kind == "open" or (s.kind == "human" and not s.claimed):
                        changes = {"kind": "computer", "level": level, "claimed": False, "token_hash": "",
                                   "name": computer_name(level)}
                        await self._emit([("seat", self.seat_event(s, changes))], seat=(s, changes))
                        changed = True
                if not changed:
                    raise ClientError("not_now", "there is no open seat to fill")
                await self.advance()
                return None
        raise ClientError("unknown_type", f"unknown message type {t!r}")

    async def seat_computer(self, seat: str, level: str) -> None:
        """Put a computer player of ``level`` in ``seat`` (the tournament director replacing a participant who
        did not come); its invitation link stops working."""
        level = check_level(level)
        if seat not in self.seat_names:
            raise ClientError("bad_message", f"'seat' must be one of {' '.join(self.seat_names)}")
        async with self.lock:
            if self.unloaded:
                raise TableGone(self.id)
            s = self.seats[self.seat_names.index(seat)]
            changes = {"kind": "computer", "level": level, "claimed": False, "token_hash": "", "away": False,
                       "name": computer_name(level)}
            others = [c for c in self.conns if c.seat == s.index]

            def committed() -> None:
                s.connected = 0
                for c in others:
                    c.seat = None
                    c.send({"type": "left"})

            await self._emit([("seat", self.seat_event(s, changes))], seat=(s, changes), on_commit=committed)
            await self.advance()

    def _need_seat(self, conn: Sink) -> Seat:
        if conn.seat is None:
            raise ClientError("not_seated", "only a seated player can do this")
        return self.seats[conn.seat]

    def _need_creator(self, token: Any) -> None:
        """Only the holder of the table's creator token directs it (calls time-out)."""
        want = self.config.get("creator_hash")
        if not isinstance(token, str) or not token or len(token) > 200:
            raise ClientError("bad_token", "'token' must be the table's creator token")
        if not isinstance(want, str) or not want or not secrets.compare_digest(token_hash(token), want):
            raise ClientError("bad_token", "this is not the creator token of this table")

    async def _leave(self, conn: Sink) -> dict[str, Any]:
        seat = self._need_seat(conn)
        changes = {"kind": "open", "claimed": False, "token_hash": "", "away": False,
                   "name": f"Seat {self.seat_names[seat.index]}"}
        # every connection on this seat (another tab, the same link opened twice) becomes a spectator: none of
        # them may see or play the hand of whoever takes the seat next. Done once the store has the change.
        others = [c for c in self.conns if c is not conn and c.seat == seat.index]

        def committed() -> None:
            seat.connected = 0
            conn.seat = None
            for c in others:
                c.seat = None
                c.send({"type": "left"})

        await self._emit([("seat", self.seat_event(seat, changes))], seat=(seat, changes), on_commit=committed)
        await self.advance()
        self.broadcast_presence()
        return {"type": "left"}

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
        changes = {"kind": "human", "claimed": True, "token_hash": token_hash(token), "away": False,
                   "name": clean_name(msg.get("name"), f"Player {name}")}

        def committed() -> None:
            s.connected += 1
            conn.seat = s.index

        await self._emit([("seat", self.seat_event(s, changes))], seat=(s, changes), on_commit=committed)
        await self.advance()
        self.broadcast_presence()
        return {"type": "seated", "seat": name, "token": token}

    async def _hint(self, conn: Sink, msg: dict[str, Any]) -> dict[str, Any]:
        """The engine's hint for the asking seat. Computed off the table's lock, from the seat's view (an
        immutable copy) taken under it; refused as ``stale`` when the game moved on meanwhile."""
        async with self.lock:
            seat = self._need_seat(conn)
            g = self.game
            m = self.match
            if not self.hand_running() or g is None or m is None or g.current_seat != seat.index:
                raise ClientError("not_now", "a hint is given only when it is your turn")
            if seat.index in self.hinting:
                raise ClientError("not_now", "your hint is being computed: wait for it")
            view = m.view(seat.index)
            legal = g.legal_actions()
            at = self.last_game_n
            self.hinting.add(seat.index)
        try:
            h = await asyncio.to_thread(engine_hint, view, "hard", legal)
        finally:
            self.hinting.discard(seat.index)
        async with self.lock:
            if self.last_game_n != at or conn.seat != seat.index:
                raise ClientError("stale", "the game moved on while the hint was computed: ask again")
            return {"type": "hint", "action": str(h.action), "reason": h.reason, "msg": message_to_json(h.why),
                    "n": self.n}

    # ----- background -------------------------------------------------------------------------------------------
    async def watch(self) -> None:
        """The table's watchdog: clocks, take-overs and the pause between hands run here, on the server.

        It waits with ``asyncio.timeout``, not ``asyncio.wait_for``: on Python 3.11 the latter can swallow a
        cancellation that arrives as the event is set, and the watchdog would then outlive the server's stop."""
        while not self.hub.closing and not self.unloaded:
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
                async with asyncio.timeout(min(wait + 0.01, 3600.0)):
                    await self.wake.wait()
            self.wake.clear()


def computer_name(level: str) -> str:
    return "Computer (" + level.replace("heuristic:", "") + ")"


def engine_refusal(e: ActionError, code: str) -> ClientError:
    """A ClientError for an engine refusal: its English text, and its message code and parameters (``msg``) that
    a client renders in its own language."""
    err = ClientError(code, e.message)
    err.detail = message_to_json(e.msg)
    return err


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


class Hub:
    """Every table of this server process, the store, and table creation.

    At start the tables in play are rebuilt in the background and go on; any other table comes into memory from
    its stored events when someone first asks for it (:meth:`get`), and a closed one nobody watches leaves memory
    again."""

    def __init__(self, config: ServerConfig, store: Store) -> None:
        self.config = config
        self.store = store
        self.tables: dict[str, Table] = {}
        self._loads: dict[str, asyncio.Task[Table | None]] = {}
        self._missing: dict[str, float] = {}  # ids the store does not have -> when that was seen (a short cache)
        self._lobby: tuple[float, list[dict[str, Any]]] = (0.0, [])
        self.closing = False
        self._janitor: asyncio.Task[None] | None = None
        self._resume: asyncio.Task[None] | None = None

    async def start(self) -> None:
        """Migrate the store and start the janitor. Tables in play are rebuilt in the background at once (their
        clocks, computer players and take-overs go on where they stopped); the others on first access
        (:meth:`get`)."""
        await self.store.migrate()
        self._janitor = asyncio.create_task(self._janitor_loop())
        self._resume = asyncio.create_task(self._resume_playing())

    async def _resume_playing(self) -> None:
        for row in await self.store.load_tables(statuses=("playing",)):
            if self.closing:
                return
            try:
                await self.get(row.id, touch=False)
            except asyncio.CancelledError:
                raise
            except Exception:  # one damaged table must not keep the others from resuming
                log.exception("table %s: could not be resumed", row.id)
        gc.collect()
        gc.freeze()  # the tables resumed at start are never scanned again by the collector

    async def _janitor_loop(self) -> None:
        """Every so often: unload idle closed tables, close tables abandoned while waiting for players."""
        every = max(0.05, min(60.0, self.config.unload_after / 4, self.config.abandon_after / 4))
        while True:
            await asyncio.sleep(every)
            try:
                await self.close_abandoned()
                await self.unload_idle()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("janitor")

    def _unloadable(self, t: Table, now: float) -> bool:
        return t.status in CLOSED_STATUSES and not t.conns and now - t.touched > self.config.unload_after

    async def unload_idle(self) -> None:
        """Drop closed tables nobody watches or asked for lately from memory (they stay in the store). Checked
        again under the table's lock: a request that found the table meanwhile (it touched it) keeps it, and a
        copy that did leave is marked so that it can never be attached to or written through again."""
        for t in list(self.tables.values()):
            if not self._unloadable(t, time.monotonic()):
                continue
            async with t.lock:
                if not self._unloadable(t, time.monotonic()) or self.tables.get(t.id) is not t:
                    continue
                t.unloaded = True
                del self.tables[t.id]
            for task in (t.watch_task, t.bot_task):
                if task is not None:
                    task.cancel()

    async def close_abandoned(self) -> None:
        """Close every table still waiting for players with no human activity for ``abandon_after`` seconds: a
        ``closed`` event, status ``abandoned`` (it leaves the lobby; its record stays in the store)."""
        limit = self.config.abandon_after
        for tid in await self.store.idle_waiting(time.time() - limit):
            t = await self.get(tid, touch=False)
            if t is None:
                continue
            async with t.lock:
                if t.unloaded or t.status != "waiting" or t.conns or time.time() - t.human_seen < limit:
                    continue
                await t._emit([("closed", {"status": "abandoned", "why": "no human activity",
                                           "idle": round(time.time() - t.human_seen)})], status="abandoned")

    async def _rebuild(self, row: TableRow) -> Table:
        seats = [Seat(s.seat, s.kind, s.level, s.name, s.claimed, s.token_hash) for s in row.seats]
        t = Table(self, row.id, row.config, seats, status="waiting", created=row.created)
        events = await self.store.load_events(row.id)
        t.replay(events)
        t.human_seen = events[-1].at if events else row.created
        now = time.monotonic()
        for s in t.seats:
            s.disconnected_since = now
        self.tables[t.id] = t
        self._run(t)
        return t

    async def get(self, table_id: str, touch: bool = True) -> Table | None:
        """A table by id: in memory, or rebuilt from the store. Concurrent requests for one id share one load;
        ids the store does not have are remembered for a few seconds (no store query per unknown id)."""
        t = self.tables.get(table_id)
        if t is not None:
            if touch:
                t.touched = time.monotonic()
            return t
        if not table_id or len(table_id) > 32 or not table_id.isascii() or not table_id.isalnum():
            return None
        now = time.monotonic()
        seen = self._missing.get(table_id)
        if seen is not None and now - seen < 10.0:
            return None
        task = self._loads.get(table_id)
        if task is None:
            task = self._loads[table_id] = asyncio.create_task(self._load(table_id))
        t = await asyncio.shield(task)
        if t is not None and touch:
            t.touched = time.monotonic()
        return t

    async def _load(self, table_id: str) -> Table | None:
        try:
            t = self.tables.get(table_id)
            if t is not None:
                return t
            rows = await self.store.load_tables(ids=[table_id])
            if not rows:
                if len(self._missing) >= 10_000:
                    cut = time.monotonic() - 10.0
                    self._missing = {k: v for k, v in self._missing.items() if v > cut}
                    if len(self._missing) >= 10_000:
                        self._missing.clear()
                self._missing[table_id] = time.monotonic()
                return None
            return await self._rebuild(rows[0])
        finally:
            self._loads.pop(table_id, None)

    def _run(self, t: Table) -> None:
        t.watch_task = asyncio.create_task(t.watch())
        t.wake.set()

    async def stop(self) -> None:
        self.closing = True
        if self._janitor is not None:
            # wait for it to unwind before the store closes: cancelled inside a store call, it still has to give
            # its connection back, which can never happen once the engine is disposed (stop would then hang)
            self._janitor.cancel()
            await asyncio.gather(self._janitor, return_exceptions=True)
        if self._resume is not None:
            self._resume.cancel()
            await asyncio.gather(self._resume, return_exceptions=True)
        loads = list(self._loads.values())  # rebuilds still running (shielded from their callers)
        for load in loads:
            load.cancel()
        await asyncio.gather(*loads, return_exceptions=True)
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

    def computer_tables(self, ip: str | None = None) -> int:
        """Tables of computer players only that are running in this process (created from ``ip``, if given)."""
        return sum(
            1 for t in self.tables.values()
            if t.status in ("waiting", "playing") and t.computer_only() and (ip is None or t.owner_ip == ip)
        )

    async def create_table(self, spec: Any, owner_ip: str = "", deal_seed: int | None = None) -> dict[str, Any]:
        """Create a table from a request body (see docs/protocol.md): returns its id, the seats' tokens and the
        creator token (the tournament director's: time-out). ``owner_ip`` (the creator's address, as the rate
        limits key it) counts against the caps on tables of computer players only. ``deal_seed`` (the desk's
        duplicate events only, never a request's field: whoever knows it knows every hand) deals hand ``i`` as
        ``Match(rules, seed=deal_seed).deal_for_hand(i)``."""
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
        if rules.players not in (2, 4):
            raise ClientError("bad_request", render(msg("table_players", players=rules.players)))
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
        if all(x.kind == "computer" for x in seats):
            if self.computer_tables(owner_ip) >= self.config.computer_tables_per_ip:
                raise ClientError(
                    "rate_limited",
                    f"at most {self.config.computer_tables_per_ip} tables of computer players only may run at once"
                    " from your address: wait until one has finished",
                )
            if self.computer_tables() >= self.config.computer_tables:
                raise ClientError("rate_limited", "this server runs as many tables of computer players only as it"
                                  " can: try again later")
        creator = secrets.token_urlsafe(18)
        config = {
            "rules": rules_to_json(rules),
            "name": clean_name(spec.get("name"), f"{rules.name} table"),
            "clock": clock,
            "grace": grace,
            "takeover": check_level(spec.get("takeover")),
            "listed": bool(spec.get("listed", True)),
            "creator_hash": token_hash(creator),
        }
        if deal_seed is not None:
            config["deal_seed"] = int(deal_seed)
        table_id = secrets.token_urlsafe(6).replace("-", "x").replace("_", "y")
        first = {"name": config["name"], "rules": config["rules"],
                 "seats": [{"kind": s.kind, "name": s.name} for s in seats]}
        now = time.time()
        await self.store.create_table(table_id, config, [s.row() for s in seats], first, at=now)
        t = Table(self, table_id, config, seats, created=now, owner_ip=owner_ip, human_seen=now)
        t.events.append(EventRow(1, "created", first, now))
        self.tables[table_id] = t
        self._missing.pop(table_id, None)
        self._lobby = (0.0, [])
        self._run(t)
        return {
            "id": table_id,
            "tokens": tokens,
            "creator": creator,
            "links": {s: f"/t/{table_id}#t={tok}" for s, tok in tokens.items()},
            "table": t.info_json(),
        }

    async def lobby(self) -> list[dict[str, Any]]:
        """Listed tables that are waiting or playing, newest first: those in memory as they are now, the others
        (not loaded since the server started) from the store, read at most every 2 seconds."""
        stamp, stored = self._lobby
        if time.monotonic() - stamp > 2.0:
            rows = [r for r in await self.store.load_tables(("waiting", "playing")) if r.listed]
            rows.sort(key=lambda r: -r.created)
            rows = rows[:200]
            counts = await self.store.game_counts([r.id for r in rows if r.id not in self.tables])
            stored = [row_info(r, counts.get(r.id, 0)) for r in rows]
            self._lobby = (time.monotonic(), stored)
        out = [t.info_json() for t in self.tables.values()
               if t.config.get("listed", True) and t.status in ("waiting", "playing")]
        have = {x["id"] for x in out}
        out.extend(x for x in stored if x["id"] not in have and x["id"] not in self.tables)
        created = {t.id: t.created for t in self.tables.values()}
        out.sort(key=lambda x: -created.get(x["id"], x.get("created", 0.0)))
        return out[:200]


def row_info(r: TableRow, games: int) -> dict[str, Any]:
    """A stored table's lobby entry (as :meth:`Table.info_json`, for a table not in memory: nobody is there)."""
    rules = rules_from_json(r.config["rules"])
    names = seat_names(rules.players)
    return {
        "id": r.id,
        "name": r.config.get("name", ""),
        "rules": r.config["rules"],
        "preset": rules.name,
        "players": rules.players,
        "target": rules.target,
        "hands_per_match": rules.hands_per_match,
        "clock": r.config.get("clock", 0),
        "grace": r.config.get("grace"),
        "status": r.status,
        "games": games,
        "seats": [
            {"seat": names[s.seat], "kind": s.kind, "level": s.level if s.kind == "computer" else None,
             "name": s.name, "claimed": s.claimed, "connected": False, "away": False}
            for s in r.seats
        ],
        "spectators": 0,
        "created": r.created,
        "timeouts": rules.has_timeouts,
    }


def encode(msg: dict[str, Any]) -> str:
    return json.dumps(msg, separators=(",", ":"), ensure_ascii=False)


__all__ = ["Hub", "Table", "Seat", "public_event", "encode", "Callable"]

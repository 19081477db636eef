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
import logging
import random
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..actions import ActionError
from ..bots.base import Player
from ..bots.hint import hint as engine_hint
from ..deal import Deal, deal_from_seed
from ..game import Game, seat_names
from ..match import Match
from ..messages import LANGS, message_to_json
from ..rules import Rules, rules_from_json, rules_to_json
from ..view import View
from .bots import bot_delay, schedule_bot
from .events import GAME_EVENTS, Sink, TableGone, encode, public_event
from .narration import hand_lines, lines, viewpoint
from .protocol import DEFAULT_LEVEL, MAX_CHAT, PROTOCOL_MINOR, PROTOCOL_VERSION, ClientError
from .seats import Seat, check_level, check_token, clean_name, computer_name, one_seat, seat_of_token
from .store import EventRow, token_hash
from .views import hand_end_json, points_json, public_view_json, scoreboard_json, seat_view_json

if TYPE_CHECKING:
    from .hub import Hub

log = logging.getLogger("burraco.server")


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
    #: seat -> (its state's key, the game, the seat's view): :meth:`seat_view`
    _views: dict[int, tuple[tuple[int, int, int], Game, View]] = field(default_factory=dict)

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

    def seat_view(self, seat: int) -> View:
        """``match.view(seat)`` of the hand in play, made once per state of the hand: the moves log's views before
        and after an action and every connection's ``state`` share it (a view is immutable)."""
        m = self.match
        assert m is not None and m.games
        g = m.game
        key = (len(self.matches), len(m.games), len(g.actions))
        hit = self._views.get(seat)
        if hit is not None and hit[0] == key and hit[1] is g:
            return hit[2]
        v = m.view(seat)
        self._views[seat] = (key, g, v)
        return v

    def hand_running(self) -> bool:
        g = self.game
        return self.status == "playing" and g is not None and not g.is_over

    def controller(self, seat: int) -> str | None:
        """Who plays ``seat`` now: the computer level, or None when a human is to play it."""
        s = self.seats[seat]
        if s.kind == "computer":
            return s.level
        if s.kind in ("open", "left") or s.away:
            return str(self.config.get("takeover", DEFAULT_LEVEL))
        return None

    def computer_only(self) -> bool:
        """No human seat: computer players (and open seats the computer plays) only. A seat its player left
        during the game is still his (he may come back): the table is not one of computers only."""
        return all(s.kind not in ("human", "left") for s in self.seats)

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
        if self.hub.cluster is not None:  # several processes: only the lease's holder writes (server/cluster.py)
            await self.hub.cluster.ensure_write(self.id)
            if self.unloaded:  # the lease was found lost meanwhile
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
        told: list[tuple[EventRow, dict[int | None, View]]] = []
        for ev in rows:
            before = self._views_before(ev)
            self._apply_event(ev, rebuilding=False)
            if before:
                told.append((ev, before))
        if status is not None:
            self.status = status
        self._note_turn()
        players = len(self.seats)
        for ev in rows:
            self.broadcast({"type": "event", **public_event(ev, players)})
        for ev, before in told:
            self._send_log(ev, before)
        self.broadcast_state()
        self.wake.set()

    # ----- the moves log (server-side narration, in each connection's language) ---------------------------------
    def _views_before(self, ev: EventRow) -> dict[int | None, View]:
        """For an action about to be applied: the views of the seats the connections here see it from."""
        g = self.game
        if ev.kind != "action" or g is None or not self.conns:
            return {}
        return {seat: self.seat_view(viewpoint(seat)[0]) for seat in {c.seat for c in self.conns}}

    def _send_log(self, ev: EventRow, before: dict[int | None, View]) -> None:
        """Each connection's ``log`` lines for the action just applied (rendered once per seat and language)."""
        g = self.game
        if g is None or not g.actions:
            return
        action = g.actions[-1]
        names = self.narration_names()
        texts: dict[tuple[int | None, str], str] = {}
        for c in list(self.conns):
            if c.seat not in before:
                continue
            key = (c.seat, c.lang)
            text = texts.get(key)
            if text is None:
                at, viewer = viewpoint(c.seat)
                out = lines(before[c.seat], action, self.seat_view(at), names, viewer, c.lang)
                text = texts[key] = encode({"type": "log", "n": ev.n, "seat": ev.data.get("seat"), "lines": out})
            c.send(text)

    def narration_names(self) -> list[str]:
        """The names the moves log gives the seats: a human's name, else the seat letter (several "Computer
        (medium)" would be told apart by nobody, and the default "Player N" is English)."""
        letters = self.seat_names
        return [s.name if s.kind == "human" and s.name != f"Player {letters[s.index]}" else letters[s.index]
                for s in self.seats]

    def send_full_log(self, conn: Sink) -> None:
        """The current hand's whole moves log, for a connection that (re)joined or changed its language."""
        g = self.game
        out = hand_lines(g, conn.seat, self.narration_names(), conn.lang) if g is not None else []
        conn.send({"type": "log", "n": self.n, "full": True, "lines": out})

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
            "points": points_json(g) if g is not None else None,
            "dealer": self.seat_names[m.hand_dealer(len(m.games) - 1)] if m is not None and m.games else None,
        }

    def state_json(self, seat: int | None, shared: dict[str, Any] | None = None) -> dict[str, Any]:
        """The full state for one recipient: its seat's view (or the public view), the scoreboard, the clock."""
        m = self.match
        g = self.game
        view: dict[str, Any] | None = None
        if g is not None and m is not None:
            view = seat_view_json(self.seat_view(seat)) if seat is not None else public_view_json(g)
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
        return self.hub.config.between_hands if humans else bot_delay(self)

    async def advance(self) -> None:
        """Do whatever is due: start the game, write a hand's end, deal the next hand, let a computer move, take
        over for a human who is away. Call with the lock held."""
        for _ in range(8):
            if not await self._advance_once():
                break
        schedule_bot(self)

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

    async def _act(self, seat: int | None, text: Any, expect: Any) -> None:
        """Validate an action of ``seat`` (None: the tournament director, whose only action is ``timeout``)
        against the engine and apply it (lock held); raises ClientError."""
        if (isinstance(expect, int) and not isinstance(expect, bool) and 0 <= expect < self.last_game_n
                and self._applied(seat, text, expect)):
            return  # sent again (its connection's process changed owner): applied once, acknowledged by its event
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

    def _applied(self, seat: int | None, text: Any, expect: int) -> bool:
        """Whether ``text`` of ``seat``, sent against event ``expect``, is the action already applied right after it
        (the first game event after ``expect``; anything else there would have made it stale): an action sent
        again, by a process that relays its connection to a new owner, is not applied twice nor refused."""
        if not isinstance(text, str):
            return False
        me = "" if seat is None else self.seat_names[seat]
        for ev in self.events[max(0, expect - 1):]:
            if ev.n <= expect or ev.kind not in GAME_EVENTS:
                continue
            return (ev.kind == "action" and ev.data.get("seat") == me
                    and " ".join(str(ev.data.get("action", "")).split()).lower() == " ".join(text.split()).lower())
        return False

    # ----- requests from connections ------------------------------------------------------------------------------
    async def attach(self, conn: Sink, token: Any, name: Any, last: Any, held: Any = None) -> None:
        """A connection joins: with a seat token as that seat, else as a spectator. It gets ``welcome``, then the
        events after ``last`` (when given and not too far behind), then its ``state``; then the live broadcasts.

        The token of a seat its player left (kind ``left``, or ``open`` and not taken since) brings him back to
        it. ``held`` lists the other seat tokens the browser keeps for this table: one of another seat held now
        refuses the join (``one_seat``: one person, one seat)."""
        seat = None
        if token is not None:
            check_token(token)
        if last is not None and (not isinstance(last, int) or isinstance(last, bool) or last < 0):
            raise ClientError("bad_message", "'last' must be the number of the last event you have seen")
        async with self.lock:
            if self.unloaded:  # this copy left memory after the caller found it: the caller asks the hub again
                raise TableGone(self.id)
            if token is not None:
                # resolved under the lock: a seat left and taken meanwhile no longer answers to the old token
                seat = seat_of_token(self.seats, token)
                if seat is None:
                    raise ClientError(
                        "bad_token", "this seat link is not valid at this table (its seat was given to someone else)"
                    )
                one_seat(self.seats, self.seat_names, seat, held, None)
            if seat is not None and (
                seat.kind != "human" or not seat.claimed
                or (name is not None and clean_name(name, seat.name) != seat.name)
            ):
                # first: if the store fails, the connection is not attached and nothing changed
                changes: dict[str, Any] = {"kind": "human", "claimed": True, "name": clean_name(name, seat.name)}
                if seat.kind == "open":  # he comes back before anyone took it: his name again
                    changes["name"] = clean_name(name, f"Player {self.seat_names[seat.index]}")
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
        self.send_full_log(conn)

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
            if t == "give":
                return await self._give(msg)
            if t == "lang":
                lang = msg.get("lang")
                if not isinstance(lang, str) or lang not in LANGS:
                    raise ClientError("bad_message", f"'lang' must be one of {', '.join(LANGS)}")
                conn.lang = lang
                self.send_full_log(conn)
                return None
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
        did not come); its invitation link stops working, and any connection on the seat becomes a spectator."""
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
        """Give up one's seat. During a game it stays his (kind ``left``): the take-over computer plays it, his
        token brings him back, only the creator may give it to someone else. Otherwise it is open again (his
        token brings him back until someone takes it)."""
        seat = self._need_seat(conn)
        changes: dict[str, Any]
        if self.status == "playing":
            changes = {"kind": "left", "away": False}
        else:
            changes = {"kind": "open", "claimed": False, "away": False,
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
        one_seat(self.seats, self.seat_names, None, msg.get("held"), conn.seat)
        name = msg.get("seat")
        if name not in self.seat_names:
            raise ClientError("bad_message", f"'seat' must be one of {' '.join(self.seat_names)}")
        s = self.seats[self.seat_names.index(name)]
        if s.kind == "left":
            raise ClientError(
                "seat_reserved", f"seat {name} was left during the game: it is kept for its player (the computer"
                " plays it meanwhile); only the table's creator may give it to someone else")
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

    async def _give(self, msg: dict[str, Any]) -> dict[str, Any]:
        """The creator gives a seat that is open or was left to someone else: a new seat token (answered by
        ``given`` with it and the invite link); the old token stops working. The seat waits for its new player
        (the take-over computer plays it after the grace period) and takes his name when he opens the link."""
        self._need_creator(msg.get("token"))
        name = msg.get("seat")
        if name not in self.seat_names:
            raise ClientError("bad_message", f"'seat' must be one of {' '.join(self.seat_names)}")
        s = self.seats[self.seat_names.index(name)]
        if s.kind not in ("open", "left"):
            raise ClientError("seat_taken", f"seat {name} is held by a player or a computer: it cannot be given")
        token = secrets.token_urlsafe(18)
        changes = {"kind": "human", "claimed": False, "token_hash": token_hash(token), "away": False,
                   "name": clean_name(msg.get("name"), f"Player {name}")}

        def committed() -> None:
            s.connected = 0
            s.disconnected_since = time.monotonic()

        await self._emit([("seat", self.seat_event(s, changes))], seat=(s, changes), on_commit=committed)
        await self.advance()
        self.broadcast_presence()
        return {"type": "given", "seat": name, "token": token, "link": f"/t/{self.id}#t={token}"}

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



def engine_refusal(e: ActionError, code: str) -> ClientError:
    """A ClientError for an engine refusal: its English text, and its message code and parameters (``msg``) that
    a client renders in its own language."""
    err = ClientError(code, e.message)
    err.detail = message_to_json(e.msg)
    return err




__all__ = ["Table", "Seat", "TableGone", "public_event", "encode", "engine_refusal"]

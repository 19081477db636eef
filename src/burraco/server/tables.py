"""Tables: the flow of every table's game and its connections' requests, the one place where games change.

A :class:`Table` owns its matches (one per game played at the table), its seats and its numbered event log, kept in
its :class:`~burraco.server.table_state.TableState` (server/table_state.py, with every message a table sends).
Here: dealing (with its commitment), actions, take-backs, the end of a match, seats taken, left and given, hints,
and the watchdog. Every change goes through :meth:`TableState._emit
<burraco.server.table_state.TableState._emit>` under the table's lock: the events are committed to the store, then
applied in memory, then broadcast. Rebuilding a table at start replays the same events (``Table.replay``), so a
restart resumes every table exactly where its last committed event left it.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import secrets
import time
from dataclasses import dataclass
from typing import Any

from ..actions import ActionError
from ..bots.hint import hint as engine_hint
from ..fair import FairError, check_contribution, fair_deal
from ..match import Match
from ..messages import LANGS, message_to_json, msg
from . import ratings
from .bots import schedule_bot
from .commits import HandCommit, new_commit
from .events import CLOSED_STATUSES, GAME_EVENTS, Sink, TableGone, encode, public_event
from .protocol import DEFAULT_LEVEL, MAX_CHAT, PROTOCOL_MINOR, PROTOCOL_VERSION, ClientError
from .seats import Seat, check_level, check_token, clean_name, computer_name, one_seat, seat_of_token
from .store import EventRow, token_hash
from .table_state import TableState, sealed_error
from .views import hand_end_json

log = logging.getLogger("burraco.server")


@dataclass
class Table(TableState):
    """One table: the flow of its game (deals, actions, the end of a match) and the requests of its connections,
    on the state of :class:`~burraco.server.table_state.TableState`."""

    async def end_match(self) -> bool:
        """The director's time-out at a table of his event that is not playing a hand (between two hands, or
        before its players came): no further hand is dealt (RULES.md §0.1 "The time-out ends the match"). A
        match under way ends with the hands played (``game_end`` with ``stopped``, its VP from the VP table on
        those hands); a table that never started is closed as finished. Returns False, changing nothing, while a
        hand is being played (that hand ends the match by itself once the time-out has been called in it)."""
        async with self.lock:
            if self.unloaded:
                raise TableGone(self.id)
            if self.hand_running():
                return False
            m = self.match
            if self.status == "waiting" or m is None:
                if self.status not in CLOSED_STATUSES:
                    await self._emit([("closed", {"status": "finished", "why": "timeout"})], status="finished")
                return True
            if self.status != "playing" or m.is_over:
                return True
            game_no = len(self.matches) - 1
            events: list[tuple[str, dict[str, Any]]] = []
            if m.games and (game_no, len(m.games) - 1) not in self.hands_ended:
                events.append(("hand_end", {"game_no": game_no, **hand_end_json(m, len(m.games) - 1)}))
            events.append(("game_end", {"game_no": game_no, "summary": stopped_summary(m), "hands": len(m.games)}))
            await self._emit(events, status="finished")
            return True

    # ----- the flow of the game -----------------------------------------------------------------------------------
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
            return await self._deal_step()
        g = m.game
        if g.is_over:
            hand_no = len(m.games) - 1
            if (len(self.matches) - 1, hand_no) not in self.hands_ended:
                ev_list: list[tuple[str, dict[str, Any]]] = [
                    ("hand_end", {"game_no": len(self.matches) - 1, **hand_end_json(m, hand_no)})
                ]
                status = None
                done = self.commits.get((len(self.matches) - 1, hand_no))
                if done is not None and done.contribute:  # the hand's own seed, revealed as it ends
                    ev_list[0][1]["reveal"] = {"commitment": done.commitment, "seed": done.seed}
                if m.is_over:
                    ev_list.append(
                        ("game_end", {"game_no": len(self.matches) - 1, "summary": m.summary_json(),
                                      "hands": len(m.games)})
                    )
                    status = "finished"
                else:  # the next hand's commitment at once: the browsers contribute during the pause
                    ev_list.append(("commit", self._new_commit(hand_no + 1)))
                await self._emit(ev_list, status=status)
                if status == "finished" and self.rated:
                    await self._rate(len(self.matches) - 1, m)
                return True
            if m.is_over:
                if self.status != "finished":
                    await self._emit([], status="finished")
                return False
            humans = [s for s in self.seats if s.kind == "human" and s.connected > 0]
            all_ready = bool(humans) and all(s.ready for s in humans)
            if all_ready or time.monotonic() >= self.hand_ended_at + self._between():
                return await self._deal_step()
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
        if s.connected == 0 and (self.hub.cluster is None or self.hub.cluster.serving):
            # (while Redis does not answer, the player cannot join again: his grace waits; cluster.py)
            t = max(s.disconnected_since, self.turn_started) + grace
            if t < due:
                due, why = t, "disconnected"
        return due, why

    def next_wakeup(self) -> float:
        """Seconds until :meth:`advance` may have something to do without any message arriving."""
        g = self.game
        if self.status != "playing":
            return 3600.0
        c = self.pending_commit()
        if c is not None and self.awaited(c):  # the deal waits for contributions until then at most
            due = c.at + self.hub.config.contribution_wait
            if g is not None:
                due = max(due, self.hand_ended_at + self._between())
            return max(0.0, due - time.monotonic())
        if g is None:
            return 0.0 if c is not None else 3600.0
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

    def _new_commit(self, hand_no: int) -> dict[str, Any]:
        """The ``commit`` event of hand ``hand_no`` of the game in play (server/commits.py): the procedure's table
        label is the table's id and the game's number (a duplicate event's table: its round's label)."""
        game_no = len(self.matches) - 1
        return new_commit(game_no, hand_no, f"{self.id}/{game_no}", self.config.get("duplicate"))

    def awaited(self, c: HandCommit) -> list[str]:
        """The seats whose contribution the deal waits for: people seated and not away who have not sent theirs
        and are connected, or were within ``contribution_wait`` (a reconnection, a restart of the server); none at
        a duplicate event's table."""
        if not c.contribute:
            return []
        names = self.seat_names
        lately = time.monotonic() - self.hub.config.contribution_wait
        return [names[s.index] for s in self.seats
                if s.kind == "human" and s.claimed and not s.away and names[s.index] not in c.contributions
                and (s.connected > 0 or s.disconnected_since > lately)]

    async def _deal_step(self) -> bool:
        """The next hand: commit to its seed (``commit``), then deal it (``hand``) once every seated person's
        contribution is in or ``contribution_wait`` has passed since the commitment. Returns whether an event was
        written. Every deal comes from fresh OS randomness (the seed; the deals of finished games are public, so
        nothing may link one deal to the next) and the people's contributions; a duplicate event's table deals
        the event's hands, as every table of its round does (docs/fairness.md)."""
        m = self.match
        assert m is not None
        hand_no = len(m.games)
        c = self.pending_commit()
        if c is None:
            await self._emit([("commit", self._new_commit(hand_no))])
            return True
        if self.awaited(c) and time.monotonic() < c.at + self.hub.config.contribution_wait:
            return False
        deal = fair_deal(m.rules_for_hand(hand_no), bytes.fromhex(c.seed), c.label, c.hand_no, c.contributions)
        await self._emit(
            [("hand", {"game_no": len(self.matches) - 1, "hand_no": hand_no, "dealer": m.hand_dealer(hand_no),
                       "deal": deal.to_json(m.seats), "fair": c.inputs().to_json(m.seats)})]
        )
        return True

    async def _takeback(self, conn: Sink, expect: Any) -> None:
        """(1.6) Take back the seat's last play (lock held): a ``takeback`` event, after which the hand is as if it
        had never been played; the game's record lists it under ``takebacks``."""
        seat = self._need_seat(conn)
        if not isinstance(expect, int) or isinstance(expect, bool):
            raise ClientError("bad_message", msg("srv_event_number", field="n"))
        if expect < self.last_game_n:
            raise ClientError("stale", msg("srv_stale_takeback", n=expect, now=self.last_game_n))
        why = self.takeback_refusal(seat.index)
        g = self.game
        if why is not None or g is None:
            raise ClientError("not_now", why or msg("takeback_nothing"))
        await self._emit([("takeback", {"game_no": len(self.matches) - 1, "hand_no": len(self.match.games) - 1
                                        if self.match else 0, "seat": self.seat_names[seat.index],
                                        "at": len(g.actions) - 1, "action": str(g.actions[-1])})])

    async def _contribute(self, conn: Sink, message: dict[str, Any]) -> None:
        """A seated person's contribution to the deal the table has committed to (lock held)."""
        seat = self._need_seat(conn)
        c = self.pending_commit()
        if c is None:
            raise ClientError("not_now", msg("srv_no_contribution"))
        if not c.contribute:
            raise ClientError("not_now", msg("srv_duplicate_no_contribution"))
        if message.get("commitment") != c.commitment:
            raise ClientError("stale", msg("srv_stale_contribution", commitment=c.commitment, hand=c.hand_no + 1))
        letter = self.seat_names[seat.index]
        if letter in c.contributions:
            raise ClientError("not_now", msg("srv_contributed"))
        try:
            value = check_contribution(message.get("value"))
        except FairError as e:
            raise ClientError("bad_message", msg("srv_bad_value", error=e.msg)) from e
        await self._emit([("contribution", {"game_no": c.game_no, "hand_no": c.hand_no, "seat": letter,
                                            "value": value})])

    async def _act(self, seat: int | None, text: Any, expect: Any) -> None:
        """Validate an action of ``seat`` (None: the tournament director, whose only action is ``timeout``)
        against the engine and apply it (lock held); raises ClientError."""
        if (isinstance(expect, int) and not isinstance(expect, bool) and 0 <= expect < self.last_game_n
                and self._applied(seat, text, expect)):
            return  # sent again (its connection's process changed owner): applied once, acknowledged by its event
        g = self.game
        if not self.hand_running() or g is None:
            raise ClientError("not_now", msg("srv_no_hand"))
        if not isinstance(expect, int) or isinstance(expect, bool):
            raise ClientError("bad_message", msg("srv_event_number", field="n"))
        if expect > self.n:
            raise ClientError("bad_message", msg("srv_no_event_yet", n=expect, last=self.n))
        if expect < self.last_game_n:
            raise ClientError("stale", msg("srv_stale_action", n=expect, now=self.last_game_n))
        if not isinstance(text, str) or not text.strip():
            raise ClientError("bad_message", msg("srv_action_string"))
        try:
            a = g.parse(text)
        except ActionError as e:
            raise engine_refusal(e, "invalid") from e
        if seat is None:
            if a.seat:
                raise ClientError("other_seat", msg("srv_director_timeout_only", action=text))
            me = ""
        else:
            me = self.seat_names[seat]
            if a.seat != me:
                who = a.seat or "the tournament director"
                raise ClientError("other_seat", msg("srv_other_seat", seat=me, action=text, other=who))
            if g.current_seat != seat:
                raise ClientError("out_of_turn", msg("srv_out_of_turn", seat=self.seat_names[g.current_seat]))
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
    async def attach(
        self, conn: Sink, token: Any, name: Any, last: Any, held: Any = None, creator: Any = None
    ) -> None:
        """A connection joins: with a seat token as that seat, else as a spectator. It gets ``welcome``, then the
        events after ``last`` (when given and not too far behind), then its ``state``; then the live broadcasts.

        The token of a seat its player left (kind ``left``, or ``open`` and not taken since) brings him back to
        it. ``held`` lists the other seat tokens the browser keeps for this table: one of another seat held now
        refuses the join (``one_seat``: one person, one seat). ``creator``: the table's creator token (the
        director's), which lets its holder watch a table sealed to spectators (a duplicate event's round)."""
        seat = None
        if token is not None:
            check_token(token)
        if last is not None and (not isinstance(last, int) or isinstance(last, bool) or last < 0):
            raise ClientError("bad_message", msg("srv_event_number", field="last"))
        async with self.lock:
            if self.unloaded:  # this copy left memory after the caller found it: the caller asks the hub again
                raise TableGone(self.id)
            if token is not None:
                # resolved under the lock: a seat left and taken meanwhile no longer answers to the old token
                seat = seat_of_token(self.seats, token)
                if seat is None:
                    raise ClientError("bad_token", msg("srv_bad_seat_link"))
                one_seat(self.seats, self.seat_names, seat, held, None, conn.guest)
                self._rated_seat(seat, conn)
            signing = seat is not None and conn.account is not None and seat.account != conn.account
            if seat is not None and (
                seat.kind != "human" or not seat.claimed
                or (name is not None and clean_name(name, seat.name) != seat.name)
            ):
                # first: if the store fails, the connection is not attached and nothing changed
                changes: dict[str, Any] = {"kind": "human", "claimed": True, "name": clean_name(name, seat.name)}
                if seat.kind == "open":  # he comes back before anyone took it: his name again
                    changes["name"] = clean_name(name, f"Player {self.seat_names[seat.index]}")
                await self._emit([("seat", self.seat_event(seat, changes))], seat=(seat, changes),
                                 guest=(seat, conn.guest), account=(seat, conn))
            elif seat is not None and ((conn.guest and conn.guest not in seat.guests) or signing):
                # another browser of his: it holds the seat too (and the account he is signed in to, if any)
                await self._emit([], guest=(seat, conn.guest), account=(seat, conn))
            insider = seat is not None or conn in self.insiders or (
                creator is not None and self._is_creator(creator))
            if not insider and self.sealed_to_spectators():
                raise sealed_error()
            if insider:
                self.insiders.add(conn)
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
            raise ClientError("bad_message", msg("srv_event_number", field="last"))
        async with self.lock:
            self._catch_up(conn, last)

    async def reveal(self) -> None:
        """A duplicate event has ended: reveal its secret here (a ``reveal`` event, once), so that the records of
        this table verify (docs/fairness.md)."""
        dup = self.config.get("duplicate")
        async with self.lock:
            if self.unloaded:
                raise TableGone(self.id)
            if dup is None or any(ev.kind == "reveal" for ev in self.events):
                return
            await self._emit([("reveal", {"seed": str(dup["secret"])})])

    def serving_again(self) -> None:
        """This process can serve the table's players again (Redis answers after an outage: cluster.py): a seat
        whose player is away gets its whole grace from now, as if he had left just now."""
        now = time.monotonic()
        for s in self.seats:
            if s.connected == 0:
                s.disconnected_since = max(s.disconnected_since, now)
        self.wake.set()

    def detach(self, conn: Sink) -> None:
        self.insiders.discard(conn)
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

    async def handle(self, conn: Sink, message: dict[str, Any]) -> dict[str, Any] | None:
        """One request of a connection already at this table; returns a direct reply, or None."""
        t = message["type"]
        if conn.seat is not None:
            self.human_seen = time.time()
        if t == "hint":  # computed off the lock: the table goes on meanwhile
            return await self._hint(conn, message)
        async with self.lock:
            if self.unloaded:
                raise TableGone(self.id)
            if self.status == "abandoned":
                raise ClientError("not_now", msg("srv_closed_admin") if self.closed_by == "admin"
                                  else msg("srv_closed_idle"))
            if t == "act":
                if conn.seat is None:
                    raise ClientError("not_seated", msg("srv_spectator_play"))
                s = self.seats[conn.seat]
                # the action first: a refused one raises and changes nothing, not even the seat's "away" mark
                await self._act(conn.seat, message.get("action"), message.get("n"))
                if s.away:
                    await self._emit([("away", {"seat": s.index, "away": False, "why": "back"})])
                await self.advance()
                return None
            if t == "timeout":
                self._need_creator(message.get("token"))
                await self._act(None, "timeout", message.get("n"))
                await self.advance()
                return None
            if t == "back":
                seat = self._need_seat(conn)
                if seat.away:
                    await self._emit([("away", {"seat": seat.index, "away": False, "why": "back"})])
                    await self.advance()
                return None
            if t == "chat":
                text = message.get("text")
                if not isinstance(text, str) or not text.strip():
                    raise ClientError("bad_message", msg("srv_chat_text"))
                text = " ".join(text.split())[:MAX_CHAT]
                who = self.seats[conn.seat].name if conn.seat is not None else "spectator"
                seat_s = self.seat_names[conn.seat] if conn.seat is not None else None
                await self._emit([("chat", {"seat": seat_s, "name": who, "text": text})])
                return None
            if t == "next":
                seat = self._need_seat(conn)
                g = self.game
                if self.status != "playing" or g is None or not g.is_over:
                    raise ClientError("not_now", msg("srv_next_between"))
                seat.ready = True
                await self.advance()
                self.broadcast_state()
                return None
            if t == "rematch":
                self._need_seat(conn)
                if self.status != "finished":
                    raise ClientError("not_now", msg("srv_rematch_over"))
                if self.config.get("event"):
                    raise ClientError("not_now", msg("srv_rematch_event"))
                await self._start_game()
                await self.advance()
                return None
            if t == "take":
                return await self._take(conn, message)
            if t == "contribute":
                await self._contribute(conn, message)
                await self.advance()
                return None
            if t == "takeback":
                await self._takeback(conn, message.get("n"))
                await self.advance()
                return None
            if t == "leave":
                return await self._leave(conn)
            if t == "give":
                return await self._give(message)
            if t == "replace":
                await self._replace(message)
                return None
            if t == "lang":
                lang = message.get("lang")
                if not isinstance(lang, str) or lang not in LANGS:
                    raise ClientError("bad_message", msg("srv_bad_lang", langs=", ".join(LANGS)))
                conn.lang = lang
                self.send_full_log(conn)
                return None
            if t == "fill":
                self._need_seat(conn)
                level = check_level(message.get("level"))
                changed = False
                for s in self.seats:
                    if s.kind == "open" or (s.kind == "human" and not s.claimed):
                        changes = {"kind": "computer", "level": level, "claimed": False, "token_hash": "",
                                   "name": computer_name(level)}
                        await self._emit([("seat", self.seat_event(s, changes))], seat=(s, changes),
                                         on_commit=s.guests.clear)
                        changed = True
                if not changed:
                    raise ClientError("not_now", msg("srv_no_open_seat"))
                await self.advance()
                return None
        raise ClientError("unknown_type", msg("srv_unknown_type", type=str(t)))

    async def seat_computer(self, seat: str, level: str) -> None:
        """Put a computer player of ``level`` in ``seat`` (the tournament director replacing a participant who
        did not come); its invitation link stops working, and any connection on the seat becomes a spectator."""
        async with self.lock:
            if self.unloaded:
                raise TableGone(self.id)
            await self._seat_computer(seat, level)

    async def _seat_computer(self, seat: Any, level: Any) -> None:
        level = check_level(level)
        if seat not in self.seat_names:
            raise ClientError("bad_message", msg("srv_bad_seat", seats=" ".join(self.seat_names)))
        s = self.seats[self.seat_names.index(seat)]
        changes = {"kind": "computer", "level": level, "claimed": False, "token_hash": "", "away": False,
                   "name": computer_name(level)}
        others = [c for c in self.conns if c.seat == s.index]

        def committed() -> None:
            s.connected = 0
            s.guests.clear()
            s.account = None
            for c in others:
                c.seat = None
                c.send({"type": "left"})

        await self._emit([("seat", self.seat_event(s, changes))], seat=(s, changes), on_commit=committed)
        await self.advance()
        self.broadcast_presence()

    async def _replace(self, message: dict[str, Any]) -> None:
        """The creator gives a seat that shares its address with another seat (``shared_address``) to a computer
        player (protocol 1.6): two seats from one address may be one person seeing two hands."""
        self._need_creator(message.get("token"))
        seat = message.get("seat")
        if not any(seat in group for group in self.shared_address()):
            raise ClientError("not_now", msg("srv_replace_not_shared", seat=str(seat)))
        await self._seat_computer(seat, message.get("level"))

    def _need_seat(self, conn: Sink) -> Seat:
        if conn.seat is None:
            raise ClientError("not_seated", msg("srv_seated_only"))
        return self.seats[conn.seat]

    def _need_creator(self, token: Any) -> None:
        """Only the holder of the table's creator token directs it (calls time-out)."""
        if not isinstance(token, str) or not token or len(token) > 200:
            raise ClientError("bad_token", msg("srv_creator_token"))
        if not self._is_creator(token):
            raise ClientError("bad_token", msg("srv_not_creator"))

    def _is_creator(self, token: Any) -> bool:
        want = self.config.get("creator_hash")
        return (isinstance(token, str) and 0 < len(token) <= 200 and isinstance(want, str) and bool(want)
                and secrets.compare_digest(token_hash(token), want))

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
            if seat.kind == "open":
                seat.guests.clear()
                seat.account = None
            for c in others:
                c.seat = None
                c.send({"type": "left"})

        await self._emit([("seat", self.seat_event(seat, changes))], seat=(seat, changes), on_commit=committed)
        await self.advance()
        self.broadcast_presence()
        return {"type": "left"}

    def _rated_seat(self, seat: Seat, conn: Sink) -> None:
        """At a rated table a seat is an account's: a browser signed in to one, which holds no other seat here,
        and the seat's own account when it has one (docs/accounts.md "Ratings")."""
        if not self.rated:
            return
        if conn.account is None:
            raise ClientError("rated", msg("srv_rated_signin"))
        if conn.bot and not self.config.get("bots", False):
            raise ClientError("rated", msg("srv_rated_no_bots"))
        if seat.account is not None and seat.account != conn.account:
            raise ClientError("rated", msg("srv_rated_other_account", seat=self.seat_names[seat.index]))
        other = next((s for s in self.seats if s is not seat and s.kind in ("human", "left")
                      and s.account == conn.account), None)
        if other is not None:
            raise ClientError("one_seat", msg("srv_rated_one_seat", seat=self.seat_names[other.index]))

    async def _rate(self, game_no: int, m: Match) -> None:
        """A rated table's game has ended: rate it (server/ratings.py). A failure is logged, the table goes on."""
        names = self.seat_names
        scorers = list(m.sides)
        teams = [[ratings.Player(s.index, s.account if s.kind != "computer" else None,
                                 s.level if s.kind == "computer" else str(self.config.get("takeover", DEFAULT_LEVEL)))
                  for s in self.seats if names[s.index] in side] for side in scorers]
        forfeited = [any(p.seat in self.forfeits for p in team) for team in teams]
        ranks = ratings.ranks_of([int(t) for t in m.totals], forfeited)
        try:
            await ratings.rate_game(self.hub.store, self.id, game_no, ratings.pool_of(self.rules), teams, ranks)
        except Exception:
            log.exception("table %s: game %d could not be rated", self.id, game_no)

    async def _take(self, conn: Sink, message: dict[str, Any]) -> dict[str, Any]:
        one_seat(self.seats, self.seat_names, None, message.get("held"), conn.seat, conn.guest)
        name = message.get("seat")
        if name not in self.seat_names:
            raise ClientError("bad_message", msg("srv_bad_seat", seats=" ".join(self.seat_names)))
        s = self.seats[self.seat_names.index(name)]
        if s.kind == "left":
            raise ClientError("seat_reserved", msg("srv_seat_reserved", seat=name))
        if s.kind != "open":
            raise ClientError("seat_taken", msg("srv_seat_not_open", seat=name))
        self._rated_seat(s, conn)
        token = secrets.token_urlsafe(18)
        changes = {"kind": "human", "claimed": True, "token_hash": token_hash(token), "away": False,
                   "name": clean_name(message.get("name"), f"Player {name}")}

        def committed() -> None:
            s.connected += 1
            s.guests.clear()
            s.account = None
            conn.seat = s.index

        await self._emit([("seat", self.seat_event(s, changes))], seat=(s, changes), on_commit=committed,
                         guest=(s, conn.guest), account=(s, conn))
        await self.advance()
        self.broadcast_presence()
        return {"type": "seated", "seat": name, "token": token}

    async def _give(self, message: dict[str, Any]) -> dict[str, Any]:
        """The creator gives a seat that is open or was left to someone else: a new seat token (answered by
        ``given`` with it and the invite link); the old token stops working. The seat waits for its new player
        (the take-over computer plays it after the grace period) and takes his name when he opens the link."""
        self._need_creator(message.get("token"))
        name = message.get("seat")
        if name not in self.seat_names:
            raise ClientError("bad_message", msg("srv_bad_seat", seats=" ".join(self.seat_names)))
        s = self.seats[self.seat_names.index(name)]
        if s.kind not in ("open", "left"):
            raise ClientError("seat_taken", msg("srv_seat_held", seat=name))
        if self.rated:
            raise ClientError("rated", msg("srv_rated_give", seat=name))
        token = secrets.token_urlsafe(18)
        changes = {"kind": "human", "claimed": False, "token_hash": token_hash(token), "away": False,
                   "name": clean_name(message.get("name"), f"Player {name}")}

        def committed() -> None:
            s.connected = 0
            s.disconnected_since = time.monotonic()
            s.guests.clear()  # the browsers that held it hold it no more
            s.account = None

        await self._emit([("seat", self.seat_event(s, changes))], seat=(s, changes), on_commit=committed)
        await self.advance()
        self.broadcast_presence()
        return {"type": "given", "seat": name, "token": token, "link": f"/t/{self.id}#t={token}"}

    async def _hint(self, conn: Sink, message: dict[str, Any]) -> dict[str, Any]:
        """The engine's hint for the asking seat. Computed off the table's lock, from the seat's view (an
        immutable copy) taken under it; refused as ``stale`` when the game moved on meanwhile."""
        async with self.lock:
            seat = self._need_seat(conn)
            g = self.game
            m = self.match
            if not self.hand_running() or g is None or m is None or g.current_seat != seat.index:
                raise ClientError("not_now", msg("srv_hint_turn"))
            if seat.index in self.hinting:
                raise ClientError("not_now", msg("srv_hint_busy"))
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
                raise ClientError("stale", msg("srv_hint_stale"))
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



def stopped_summary(m: Match) -> dict[str, Any]:
    """``game_end``'s summary of a match the time-out ended between two hands: the totals, and the VP from the
    VP table of the number of hands it was set for on the hands played (RULES.md §0.1), the winner by them."""
    from ..tournament.scoring import match_vp

    out = {**m.summary_json(), "stopped": True, "timed_out": True}
    rows = m.rules.vp_table_rows()
    if rows is not None and len(m.sides) == 2:
        a, b = match_vp(rows, m.totals[0], m.totals[1])
        out["vp"] = {m.sides[0]: a, m.sides[1]: b}
        out["winner"] = None if a == b else m.sides[0 if a > b else 1]
    return out


def engine_refusal(e: ActionError, code: str) -> ClientError:
    """A ClientError for an engine refusal: its English text, and its message code and parameters (``msg``) that
    a client renders in its own language."""
    return ClientError(code, e.msg)




__all__ = ["Table", "Seat", "TableGone", "public_event", "encode", "engine_refusal"]

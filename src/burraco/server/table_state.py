"""A table's state (:class:`TableState`): its settings, seats and matches, its numbered event log applied in
memory (live and when a table is rebuilt from the store), the connections watching it, the moves log in each
connection's language, and every message the table sends — state, presence, clocks, scoreboards, records.
:class:`burraco.server.tables.Table` builds the flow of the game and the connections' requests on it.

Every change goes through :meth:`TableState._emit` under the table's lock: the events are committed to the store,
then applied in memory, then broadcast.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import random
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from ..bots.base import Player
from ..deal import Deal
from ..game import Game
from ..match import Match
from ..messages import Message, msg, render
from ..rules import Rules, rules_from_json, rules_to_json
from ..seats import seat_names
from ..takeback import TAKE_BACK_VERBS, why_not
from ..view import View
from .bots import bot_delay
from .commits import HandCommit, commit_from_event
from .config import ServerConfig
from .events import GAME_EVENTS, Sink, TableGone, encode, public_event
from .narration import hand_lines, lines, viewpoint
from .protocol import DEFAULT_LEVEL, PROTOCOL_VERSION, ClientError
from .seats import Seat
from .store import EventRow, Store
from .views import hand_end_json, points_json, public_view_json, scoreboard_json, seat_view_json

log = logging.getLogger("burraco.server")


class LeaseWriter(Protocol):
    """The several-process server's leases as a table writes under them (server/cluster.py's ``Cluster``)."""

    async def ensure_write(self, table_id: str) -> None: ...

    async def write_failed(self, table_id: str, n: int) -> None:
        """The write of the events after event ``n`` failed: raises ``TableGone`` where that is because another
        process wrote the table's events (the lease is another's now, or a former owner's late write took the
        number): this copy leaves memory and its connections join the table again."""
        ...

    @property
    def serving(self) -> bool:
        """Whether Redis answers this process (else an absent player's grace waits)."""
        ...


class TableHost(Protocol):
    """What a table needs of the hub that holds it (server/hub.py's ``Hub``): its settings, the store, the leases
    of a several-process server, whether it shuts down, and who may watch a sealed table."""

    @property
    def config(self) -> ServerConfig: ...

    @property
    def store(self) -> Store: ...

    @property
    def closing(self) -> bool: ...

    @property
    def cluster(self) -> LeaseWriter | None: ...

    @property
    def watch_sealed(self) -> Callable[[TableState], bool] | None: ...


@dataclass
class TableState:
    """One table's state: settings, seats, matches, the event log applied in memory, the connections watching it,
    and every message it sends them (:class:`~burraco.server.tables.Table` adds the flow of the game and the
    requests)."""

    hub: TableHost
    id: str
    config: dict[str, Any]
    seats: list[Seat]
    status: str = "waiting"  # waiting | playing | finished
    #: who closed it, from its ``closed`` event: "admin" for a site administrator (docs/accounts.md), else None
    closed_by: str | None = None
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
    #: (game, hand) -> its commitment, contributions and seed (server/commits.py)
    commits: dict[tuple[int, int], HandCommit] = field(default_factory=dict)
    #: connections that may watch while the table is sealed (hub.watch_sealed): the director's, and those that
    #: held a seat here
    insiders: set[Sink] = field(default_factory=set)
    #: the seats whose player left the game now being played, or stayed away past the grace time: at a rated
    #: table their side ranks last (server/ratings.py)
    forfeits: set[int] = field(default_factory=set)
    _rules: Rules | None = None
    _takeback_key: tuple[int, ...] = ()  # the state :meth:`takeback_seat` last judged, and its answer
    _takeback_ok: bool = False
    #: seat -> (its state's key, the game, the seat's view): :meth:`seat_view`
    _views: dict[int, tuple[tuple[int, int, int], Game, View]] = field(default_factory=dict)

    # ----- basic facts --------------------------------------------------------------------------------------------
    @property
    def rules(self) -> Rules:
        if self._rules is None:
            self._rules = rules_from_json(self.config["rules"])
        return self._rules

    @property
    def rated(self) -> bool:
        """A rated table (docs/accounts.md "Ratings"): accounts only, one seat each; its games move ratings."""
        return bool(self.config.get("rated", False))

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
        if (k == "seat" and d.get("kind") == "left") or (k == "away" and d.get("away") and d.get("why") ==
                                                         "disconnected"):
            self.forfeits.add(int(d["seat"]))
        if k == "game":
            self.forfeits = set()
            self.matches.append(Match(self.rules, int(d["dealer"])))
            self.game_dealers.append(int(d["dealer"]))
            self.status = "playing"
        elif k == "commit":
            c = commit_from_event(d, self.config.get("duplicate"), time.monotonic())
            self.commits[(c.game_no, c.hand_no)] = c
        elif k == "contribution":
            c = self.commits[(int(d["game_no"]), int(d["hand_no"]))]
            c.contributions[str(d["seat"])] = str(d["value"])
        elif k == "hand":
            m = self.matches[-1]
            m.start_hand(Deal.from_json(d["deal"], m.seats))
            done = self.commits.get((int(d["game_no"]), int(d["hand_no"])))
            if done is not None:
                done.dealt = True
        elif k == "action":
            m = self.matches[-1]
            m.apply(d["action"])
        elif k == "takeback":
            self.matches[-1].take_back()
        elif k == "hand_end":
            self.hands_ended.add((int(d["game_no"]), int(d["hand_no"])))
            ended = self.commits.get((int(d["game_no"]), int(d["hand_no"])))
            if ended is not None and "reveal" in d:
                ended.revealed = True
        elif k == "reveal":  # a duplicate event ended: its secret deals every hand here
            for c in self.commits.values():
                c.revealed = c.revealed or not c.contribute
            self.replay_cache.clear()  # the replays made before it lack the secret
        elif k == "game_end":
            self.status = "finished"
            self.finished.append({"game_no": d["game_no"], "at": ev.at, **d["summary"], "hands": d["hands"]})
        elif k == "seat" and rebuilding:
            pass  # the seats table holds the seats' current state
        elif k == "away":
            self.seats[int(d["seat"])].away = bool(d["away"]) and not rebuilding
        elif k == "closed":
            self.status = str(d.get("status", "abandoned"))
            self.closed_by = d.get("by") if isinstance(d.get("by"), str) else None
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
        guest: tuple[Seat, str | None] | None = None,
        account: tuple[Seat, Sink] | None = None,
    ) -> None:
        """Commit events (numbered after the last), then apply and broadcast them. Call with the lock held.

        ``seat`` is a seat and the changes of its fields that go with the events: they are stored in the same
        transaction and made in memory only once it has committed, like ``status``, ``on_commit`` and ``guest``
        (a seat and the guest id of the browser that now holds it, server/guests.py; when the store fails, the
        exception propagates and nothing changed). Every event carries one timestamp, the same in the store and
        in the broadcast."""
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
        holder = (guest[0].index, guest[1]) if guest is not None and guest[1] else None
        signed = (account[0].index, account[1].account) if account is not None and account[1].account else None
        try:
            await self.hub.store.append(self.id, numbered, seat=row, status=status, at=now, guest=holder,
                                        account=signed)
        except Exception:
            if self.hub.cluster is not None:  # TableGone where another process wrote: the lease, or a late writer
                await self.hub.cluster.write_failed(self.id, base)
            raise
        if seat is not None:
            for name, value in seat[1].items():
                setattr(seat[0], name, value)
        if on_commit is not None:
            on_commit()
        if holder is not None and guest is not None:
            guest[0].guests.add(holder[1])
        if signed is not None and account is not None:
            account[0].account, account[0].bot = signed[1], account[1].bot
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
        if any(ev.kind in ("commit", "hand") for ev in rows):
            self._seal_spectators()
        players = len(self.seats)
        for ev in rows:
            self.broadcast({"type": "event", **public_event(ev, players)})
        for ev, before in told:
            self._send_log(ev, before)
        if any(ev.kind == "takeback" for ev in rows):  # the moves log without the play taken back
            for c in list(self.conns):
                self.send_full_log(c)
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
        names: dict[str, list[str]] = {}
        texts: dict[tuple[int | None, str], str] = {}
        for c in list(self.conns):
            if c.seat not in before:
                continue
            key = (c.seat, c.lang)
            text = texts.get(key)
            if text is None:
                at, viewer = viewpoint(c.seat)
                if c.lang not in names:
                    names[c.lang] = self.narration_names(c.lang)
                out = lines(before[c.seat], action, self.seat_view(at), names[c.lang], viewer, c.lang)
                text = texts[key] = encode({"type": "log", "n": ev.n, "seat": ev.data.get("seat"), "lines": out})
            c.send(text)

    def narration_names(self, lang: str) -> list[str]:
        """The names the moves log gives the seats in ``lang``, as the browser table names them: a human's name,
        else "Player B"; a computer "Computer B" (several "Computer (medium)" would be told apart by nobody, and
        the default names are English)."""
        letters = self.seat_names
        out = []
        for s in self.seats:
            letter = letters[s.index]
            if s.kind == "computer":
                out.append(render(msg("web_computer", seat=letter), lang))
            elif s.kind in ("human", "left") and s.name != f"Player {letter}":
                out.append(s.name)
            elif s.kind in ("human", "left"):
                out.append(render(msg("web_player", seat=letter), lang))
            else:
                out.append(letter)
        return out

    def send_full_log(self, conn: Sink) -> None:
        """The current hand's whole moves log, for a connection that (re)joined or changed its language."""
        g = self.game
        out = hand_lines(g, conn.seat, self.narration_names(conn.lang), conn.lang) if g is not None else []
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
            "shared_address": self.shared_address(),
        }

    def shared_address(self) -> list[list[str]]:
        """(1.6) The seats played from one address now, in groups of two or more (a family, a club behind one
        router, or one person holding two hands): shown to the table, and the creator may give one to a computer
        (``replace``). Only the fact is shown, never the address."""
        by_ip: dict[str, set[int]] = {}
        for c in self.conns:
            if c.seat is not None and c.ip:
                by_ip.setdefault(c.ip, set()).add(c.seat)
        return sorted([self.seat_names[i] for i in sorted(group)] for group in by_ip.values() if len(group) > 1)

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
            "rated": self.rated,
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
                    # (accounts) only where a bot account plays the seat (docs/accounts.md "Bots")
                    **({"bot": True} if s.bot and s.kind in ("human", "left") else {}),
                }
                for s in self.seats
            ],
            "spectators": sum(1 for c in self.conns if c.seat is None),
            "shared_address": self.shared_address(),
            "created": self.created,
            "timeouts": r.has_timeouts,
            "event": self.config.get("event"),  # a director's event plays one match here (no rematch)
            # (accounts) "admin" where the site's administrator closed it (its ``closed`` event says ``by``)
            **({"closed_by": self.closed_by} if self.closed_by else {}),
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
            "scoreboard": self.scoreboard() if m is not None else None,
            "clock": self.clock_json(),
            "next_hand_in": next_in,
            "ready": [self.seat_names[s.index] for s in self.seats if s.ready],
            "points": points_json(g) if g is not None else None,
            "dealer": self.seat_names[m.hand_dealer(len(m.games) - 1)] if m is not None and m.games else None,
            "fair": self.fair_json(),
            "takeback": self.takeback_seat(),
        }

    def takeback_refusal(self, seat: int) -> Message | None:
        """Why ``seat`` may not take back its last play now (None: it may). Only at a table where every other
        seat is a computer, and never what would show a card (:mod:`burraco.takeback`)."""
        g = self.game
        if g is None or not self.hand_running():
            return msg("takeback_nothing")
        if not self.config.get("takebacks", True) or any(
                s.kind in ("human", "left") and s.index != seat for s in self.seats):
            return msg("takeback_not_here")
        return why_not(g, seat)

    def takeback_seat(self) -> str | None:
        """(1.6) The seat that may take back its last play now (a human's, in his turn), or None."""
        g = self.game
        if g is None or not self.hand_running() or not g.actions:
            return None
        seat = g.current_seat
        if self.seats[seat].kind != "human" or g.actions[-1].verb not in TAKE_BACK_VERBS:
            return None
        key = (len(self.matches), len(self.match.games) if self.match else 0, len(g.actions), id(g))
        if self._takeback_key != key:
            self._takeback_key = key
            self._takeback_ok = self.takeback_refusal(seat) is None
        return self.seat_names[seat] if self._takeback_ok else None

    def fair_json(self) -> dict[str, Any] | None:
        """(1.6) The commitment of the hand to deal, or else of the hand in play or just ended: its contributions
        so far, whether it is dealt, and its seed once revealed (``state.fair``)."""
        m = self.match
        c = self.pending_commit()
        if c is None and m is not None and m.games:
            c = self.commits.get((len(self.matches) - 1, len(m.games) - 1))
        return None if c is None else c.public_json(self.seat_names)

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

    def scoreboard(self) -> dict[str, Any] | None:
        """The match's scoreboard; a match the director's time-out stopped between two hands (:meth:`end_match`)
        with the summary its ``game_end`` gave (the engine's match itself is not over)."""
        m = self.match
        if m is None:
            return None
        sb = scoreboard_json(m)
        done = self.finished[-1] if self.finished else None
        if done is not None and done["game_no"] == len(self.matches) - 1 and done.get("stopped"):
            sb.update(over=True, timed_out=True, winner=done.get("winner"), vp=done.get("vp"))
        return sb

    def finished_games(self) -> list[dict[str, Any]]:
        """The games finished at this table (number, totals, winner, VP, hands)."""
        return list(self.finished)

    def record(self, game_no: int) -> dict[str, Any]:
        """The record (RECORDS.md §3) of a finished game, with the table's names as extra headers."""
        done = {g["game_no"] for g in self.finished_games()}
        if game_no not in done:
            raise ClientError("not_found", msg("srv_game_not_finished", game=game_no, table=self.id))
        rec = self.matches[game_no].to_record()
        for i, h in enumerate(rec["hands"]):
            c = self.commits.get((game_no, i))
            if c is not None:  # how the hand was dealt, to check (burraco verify, docs/fairness.md)
                h["fair"] = c.inputs().to_json(self.seat_names)
        taken = [{"hand": ev.data["hand_no"], "at": ev.data["at"], "seat": ev.data["seat"]} for ev in self.events
                 if ev.kind == "takeback" and ev.data["game_no"] == game_no]
        if taken:  # the plays taken back (docs/fairness.md "Take-backs")
            rec["takebacks"] = taken
        rec["table"] = self.id
        rec["game_no"] = game_no
        rec["players"] = {self.seat_names[s.index]: s.name for s in self.seats}
        return rec

    # ----- pacing, the next deal's commitment, sealing ---------------------------------------------------------
    def _between(self) -> float:
        humans = any(s.kind == "human" and s.connected > 0 for s in self.seats)
        return self.hub.config.between_hands if humans else bot_delay(self)

    def pending_commit(self) -> HandCommit | None:
        """The commitment of the next hand to deal, once made and until it is dealt."""
        m = self.match
        if m is None or self.status != "playing":
            return None
        c = self.commits.get((len(self.matches) - 1, len(m.games)))
        return c if c is not None and not c.dealt else None

    def sealed_to_spectators(self) -> bool:
        """Whether a spectator may not watch now (:attr:`Hub.watch_sealed`)."""
        seal = self.hub.watch_sealed
        return seal is not None and seal(self)

    def _seal_spectators(self) -> None:
        """A new deal at a sealed table: every spectator but the insiders leaves (``sealed``, then the
        connection closes; it may come back once every table of the round has finished that deal)."""
        out = [c for c in self.conns if c.seat is None and c not in self.insiders]
        if not out or not self.sealed_to_spectators():
            return
        err = sealed_error().to_json()
        for c in out:
            self.conns.discard(c)
            c.table = None
            c.send({**err, "text": render(msg("te_watch_sealed"), c.lang, player=True)})
            c.send_close()
        self.broadcast_presence()



def sealed_error() -> ClientError:
    """The refusal of a spectator at a sealed table (docs/tournaments.md "Duplicate events")."""
    return ClientError("sealed", msg("te_watch_sealed"))

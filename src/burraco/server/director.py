"""The tournament director's desk in ``burraco serve``: events of :mod:`burraco.tournament` run from the browser,
for tables played online (browser tables, seats by invitation link) and at physical tables (scores entered by each
table's secret link per line, countersigned by the other line), or both at once (docs/tournaments.md).

The event itself is :class:`burraco.tournament.Event`, stored as its setup and its entry log
(:mod:`.tournament_store`): every change is one or more entries, checked by the event, committed to the store, and
only then answered. Online tables are ordinary tables of the :class:`~burraco.server.hub.Hub` (created with the
event's preset and hands, the participants' names in their seats); their finished hands flow into the event as
the online table's score sheets whenever the event is read, and the director's time-out is their ``timeout``
action (RULES.md §9.4).

The routes are in :mod:`burraco.server.director_routes`: ``/tournament/new`` (create an event),
``/tournament/<id>`` (the public page: next table per participant, results, live standings),
``/tournament/<id>/desk#d=<director token>`` (the desk), ``/tournament/<id>/score#t=<line token>`` (a physical
table's score entry) and the JSON API under ``/api/tournaments`` (docs/tournaments.md).
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import logging
import secrets
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from starlette.requests import Request

from ..fair import PROCEDURE, commitment
from ..messages import Message, msg, render, text
from ..rules import RulesError
from ..tournament import Event, TournamentError
from ..tournament.event import RoundState, Standing, Table
from ..tournament.simulate import line_score
from .events import CLOSED_STATUSES, TableGone
from .hub import Hub
from .protocol import ClientError
from .ratelimit import BucketMap, ip_key
from .store import token_hash
from .tournament_store import TournamentRow, TournamentStore

log = logging.getLogger("burraco.server")
STATIC = Path(__file__).parent / "static"

#: how often (seconds) the online tables' finished hands are brought into their events in the background
FOLLOW_EVERY = 2.0

#: the largest request body the desk reads (a participants CSV of a big event fits)
MAX_BODY = 256 * 1024



class DeskError(Exception):
    """A request the desk refuses: an error code, a message saying what and why (a :class:`Message` shown in the
    page's language, or English text for malformed API requests), the HTTP status."""

    def __init__(self, code: str, message: Message | str, status: int = 400) -> None:
        m = text(message) if isinstance(message, str) else message
        super().__init__(render(m))
        self.code = code
        #: the refusal as a code with parameters
        self.msg = m
        #: the refusal in English
        self.message = render(m)
        self.status = status


@dataclass
class Desk:
    """One event in memory: the :class:`Event`, its director and its tables' links (online or physical)."""

    id: str
    event: Event
    director: str
    director_hash: str
    created: float
    tables: dict[tuple[int, int], dict[str, Any]]
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    #: the running round's online tables as the last sync saw them: status, hand in play, match totals
    live: dict[int, dict[str, Any]] = field(default_factory=dict)

    @property
    def by(self) -> str:
        """How the director's entries are signed (the event keeps who made each correction)."""
        return f"director:{self.director}" if self.director else "director"


class _DirectorSink:
    """The director as a table sees a request: no seat, nothing to send to (the time-out is broadcast)."""

    seat: int | None = None
    table: Any = None
    lang: str = "en"
    ip: str = ""
    guest: str | None = None

    def send(self, msg: dict[str, Any] | str) -> None:
        pass

    def send_close(self) -> None:
        pass


def now_iso() -> str:
    """The time an entry is made, in UTC (ISO 8601, seconds)."""
    return dt.datetime.now(dt.UTC).isoformat(timespec="seconds")


class SignIn:
    """Who may create an event on this server (issue 40, RULES-free: a server setting). Until the server has
    accounts, one server-wide directors' password or token set at start (``BURRACO_DIRECTOR_PASSWORD``),
    sent as ``Authorization: Bearer <password>``; an account-based sign-in replaces this class with the same two
    methods (the session's director instead of the password's holder)."""

    #: failed sign-ins an address may make per minute before it must wait (guessing the password is slow)
    FAILURES_PER_MINUTE = 10

    def __init__(self, required: bool, password: str) -> None:
        self.required = required
        self._hash = token_hash(password) if password else ""
        self._failures = BucketMap(self.FAILURES_PER_MINUTE / 60.0, self.FAILURES_PER_MINUTE)

    def info(self) -> dict[str, Any]:
        """What the new-event page needs to know: whether to ask for the password."""
        return {"signin": self.required}

    def check(self, request: Request, ip: str) -> None:
        """Raise :class:`DeskError` unless the request may create an event."""
        if not self.required:
            return
        if not self._hash:
            raise DeskError("signin_unset", msg("te_signin_unset"), 403)
        key = ip_key(ip)
        if key in self._failures:
            b = self._failures.get(key)
            b.take(0.0)  # brings its tokens up to date
            if b.tokens < 1:
                raise DeskError("rate_limited", msg("te_signin_wait"), 429)
        auth = request.headers.get("authorization", "")
        given = auth[7:].strip() if auth.lower().startswith("bearer ") else ""
        if not given:
            raise DeskError("signin", msg("te_signin_needed"), 401)
        if len(given) > 200 or not secrets.compare_digest(token_hash(given), self._hash):
            self._failures.take(key)
            raise DeskError("signin", msg("te_signin_wrong"), 403)


class Directors:
    """Every event of this server: created, loaded from the store on first use, changed under its lock."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self.signin = SignIn(hub.config.signin_required, hub.config.director_password)
        self.store = TournamentStore(hub.store)
        self.desks: dict[str, Desk] = {}
        self._follower: asyncio.Task[None] | None = None
        hub.watch_sealed = self.watch_sealed  # the tables ask before a spectator watches

    def follow(self) -> None:
        """Start (once) the background task that brings the online tables' finished hands into the events in
        memory every :data:`FOLLOW_EVERY` seconds, whether or not anyone is looking at their pages."""
        if self._follower is None or self._follower.done():
            self._follower = asyncio.create_task(self._follow())

    async def resume(self) -> None:
        """At the server's start: load the events whose running round has online tables and start following
        them, so their hands flow in after a restart before anyone opens the event's page."""
        for tid in await self.store.with_tables():
            if self.hub.closing:
                return
            try:
                d = await self.get(tid)
            except Exception:  # one damaged event must not keep the others from being followed
                log.exception("event %s: could not be loaded at start", tid)
                continue
            rs = d.event.current
            if rs is None or not any(x.get("mode") == "online" for (r, _), x in d.tables.items() if r == rs.number):
                del self.desks[tid]  # nothing to follow: loaded again on first use
        self.follow()

    def sealed(self, table_id: str) -> bool:
        """Whether a table's records (its games, records, replays) are closed for now: an online table of a
        duplicate event's running round. Every table of the round plays the same deals, so a finished table's
        record would tell a slower table's players the cards; it opens when the round closes."""
        for d in self.desks.values():
            rs = d.event.current
            if rs is None or not d.event.setup.duplicate:
                continue
            for (r, _), x in d.tables.items():
                if r == rs.number and x.get("table_id") == table_id:
                    return True
        return False

    def _round_of(self, table_id: str) -> tuple[Desk, RoundState, list[str]] | None:
        """The duplicate event and running round an online table plays in, with the ids of the round's online
        tables; None for any other table."""
        for d in self.desks.values():
            rs = d.event.current
            if rs is None or not d.event.setup.duplicate:
                continue
            ids = [str(x["table_id"]) for (r, _), x in d.tables.items() if r == rs.number and x.get("mode") == "online"]
            if table_id in ids:
                return d, rs, ids
        return None

    def _dealt_everywhere(self, ids: list[str], hands: int) -> int:
        """How many of the round's ``hands`` every one of these online tables has finished (a table not in this
        process's memory counts as having finished none: sealed until it is seen)."""
        least = hands
        for tid in ids:
            t = self.hub.tables.get(tid)
            if t is None:
                return 0
            if t.status not in CLOSED_STATUSES:
                least = min(least, sum(1 for g, _ in t.hands_ended if g == 0))
        return least

    def watch_sealed(self, table: Any) -> bool:
        """Whether a spectator may not watch ``table`` now: an online table of a duplicate event's running round
        whose deal in play (or last dealt) some other online table of the round has not finished yet. Its own seats
        and the director (its creator token) still watch; everybody may once every table has finished that deal."""
        found = self._round_of(table.id)
        if found is None:
            return False
        d, _, ids = found
        m = table.matches[0] if table.matches else None
        hand = len(m.games) - 1 if m is not None and m.games else 0
        if table.pending_commit() is not None:  # committed to the next deal: it is as good as dealt
            hand += 1 if m is not None and m.games else 0
        return self._dealt_everywhere([x for x in ids if x != table.id], d.event.setup.hands) <= hand

    async def reveal(self, d: Desk) -> None:
        """A duplicate event has ended: every online table of it reveals the event's secret (a ``reveal`` event),
        so that its records verify (docs/fairness.md)."""
        for (_, _), link in sorted(d.tables.items()):
            if link.get("mode") != "online":
                continue
            try:
                t = await self.hub.get(str(link["table_id"]), touch=False)
                if t is not None:
                    await t.reveal()
            except Exception:  # one damaged table must not keep the others from revealing
                log.exception("event %s: table %s could not reveal the event's secret", d.id, link["table_id"])

    async def stop(self) -> None:
        """Stop following (the server is stopping)."""
        if self._follower is not None:
            self._follower.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._follower

    async def _follow(self) -> None:
        while not self.hub.closing:
            await asyncio.sleep(FOLLOW_EVERY)
            for d in list(self.desks.values()):
                if self.hub.closing:
                    return
                rs = d.event.current
                if rs is None or not any(x.get("mode") == "online" for (r, _), x in d.tables.items()
                                         if r == rs.number):
                    continue
                try:
                    async with d.lock:
                        await self.sync(d)
                except asyncio.CancelledError:
                    raise
                except Exception:
                    log.exception("event %s: following its online tables", d.id)

    # ----- loading and committing ---------------------------------------------------------------------------------
    async def get(self, tid: str) -> Desk:
        d = self.desks.get(tid)
        if d is not None:
            return d
        if not tid or len(tid) > 32 or not tid.isascii() or not tid.isalnum():
            raise DeskError("not_found", msg("te_no_event", event=tid), 404)
        row = await self.store.load(tid)
        if row is None:
            raise DeskError("not_found", msg("te_no_event", event=tid), 404)
        d = self.desks.get(tid)  # loaded meanwhile by another request
        if d is None:
            d = self.desks[tid] = self._rebuild(row)
        return d

    @staticmethod
    def _rebuild(row: TournamentRow) -> Desk:
        ev = Event.from_json({"format": "burraco-event/1", "setup": row.setup, "log": row.entries})
        return Desk(row.id, ev, row.director, row.director_hash, row.created, row.tables)

    async def _reload(self, d: Desk) -> None:
        """After a failed commit: the event as the store has it."""
        row = await self.store.load(d.id)
        if row is not None:
            fresh = self._rebuild(row)
            d.event, d.tables = fresh.event, fresh.tables

    async def commit(
        self, d: Desk, change: Callable[[Event], None],
        tables: dict[tuple[int, int], dict[str, Any]] | None = None,
    ) -> None:
        """Make a change (entries through the event's checks: a refused one raises and changes nothing) and store
        the entries it made, with ``tables``, in one transaction (lock held)."""
        ev = d.event
        base = len(ev.log)
        try:
            change(ev)
        except TournamentError:
            if len(ev.log) != base:  # a change of several entries refused part way: back to the stored event
                await self._reload(d)
            raise
        new = [(base + i + 1, e) for i, e in enumerate(ev.log[base:])]
        if not new and not tables:
            return
        try:
            await self.store.append(d.id, new, time.time(), tables)
        except Exception:
            await self._reload(d)
            raise
        if tables:
            d.tables.update(tables)

    # ----- creating ---------------------------------------------------------------------------------------------
    async def create(self, spec: dict[str, Any]) -> dict[str, Any]:
        """A new event from the creation form (``Event.create``'s fields and ``director``, the director's name);
        returns its id, the director's secret token and the links."""
        allowed = {"name", "date", "kind", "rules", "hands", "minutes", "rounds", "movements", "vp_table",
                   "bye_vp", "bye_mp", "seed", "seeding", "duplicate", "groups", "pairs_per_match", "ranking",
                   "director", "adjusted", "prizes"}
        unknown = sorted(set(spec) - allowed)
        if unknown:
            raise DeskError("bad_request", msg("srv_unknown_fields", fields=", ".join(unknown),
                                                 allowed=", ".join(sorted(allowed))))
        kw = dict(spec)
        director = kw.pop("director", "")
        if not isinstance(director, str) or len(director) > 64:
            raise DeskError("bad_request", msg("te_director_name"))
        name = kw.pop("name", "")
        if not isinstance(name, str):
            raise DeskError("bad_request", msg("te_event_name_text"))
        for k in ("hands", "rounds", "bye_vp", "bye_mp", "seed", "groups", "pairs_per_match"):
            if k in kw and (not isinstance(kw[k], int) or isinstance(kw[k], bool)):
                raise DeskError("bad_request", msg("te_whole_field", field=k))
        if kw.get("minutes") in ("", 0):
            kw["minutes"] = None
        if kw.get("minutes") is not None and (not isinstance(kw["minutes"], int) or isinstance(kw["minutes"], bool)):
            raise DeskError("bad_request", msg("te_minutes_whole"))
        for k in ("date", "kind", "rules", "seeding", "ranking", "adjusted"):
            if k in kw and not isinstance(kw[k], str):
                raise DeskError("bad_request", msg("srv_field_string", field=k))
        if "duplicate" in kw and not isinstance(kw["duplicate"], bool):
            raise DeskError("bad_request", msg("srv_field_bool", field="duplicate"))
        kw.setdefault("seed", secrets.randbits(31))  # each event its own lot (ties, random seeding)
        if kw.get("duplicate"):  # the deals of its online tables: 256 bits, committed now, revealed at the end
            kw["deal_secret"] = secrets.token_bytes(32).hex()
        try:
            ev = Event.create(name, **kw)
        except (TournamentError, RulesError) as e:
            why = e.msg if isinstance(e, TournamentError) else msg("te_rules", error=str(e))
            raise DeskError("refused", why) from e
        tid = secrets.token_urlsafe(6).replace("-", "x").replace("_", "y")
        token = secrets.token_urlsafe(18)
        created = time.time()
        await self.store.create(tid, created, ev.setup.to_json(), director.strip(), token_hash(token))
        self.desks[tid] = Desk(tid, ev, director.strip(), token_hash(token), created, {})
        return {"id": tid, "token": token, "links": {"desk": f"/tournament/{tid}/desk#d={token}",
                                                     "public": f"/tournament/{tid}"}}

    # ----- online tables ------------------------------------------------------------------------------------------
    async def _create_online(
        self, d: Desk, rs: RoundState, t: Table, computers: dict[str, str], owner_ip: str
    ) -> dict[str, Any]:
        ev = d.event
        seats: list[dict[str, Any]] = []
        names = {"N": ev.who(t.ns.members[0]), "S": ev.who(t.ns.members[-1]),
                 "E": ev.who(t.ew.members[0]), "W": ev.who(t.ew.members[-1])}
        for s in ("N", "E", "S", "W"):
            if s in computers:
                seats.append({"kind": "computer", "level": computers[s]})
            else:
                seats.append({"kind": "human", "name": names[s]})
        spec = {"preset": ev.setup.rules, "hands": ev.setup.hands, "seats": seats, "listed": False, "takebacks": False,
                "name": f"{ev.setup.name} · R{rs.number} T{t.number}"}
        try:
            # a duplicate event: every online table of the round deals the round's hands from the event's secret
            dup = None
            if ev.setup.duplicate:
                if not ev.setup.deal_secret:
                    raise DeskError("refused", msg("te_no_deal_secret"))
                dup = {"secret": ev.setup.deal_secret, "label": f"event {d.id} round {rs.number}"}
            out = await self.hub.create_table(spec, owner_ip=owner_ip, duplicate=dup, event=d.id)
        except ClientError as e:
            raise DeskError(e.code, msg("te_online_create", table=t.number, error=e.msg)) from e
        return {"mode": "online", "table_id": out["id"], "creator": out["creator"], "seats": out["tokens"],
                "computers": computers}

    async def sync(self, d: Desk) -> None:
        """The finished hands of the running round's online tables into the event (lock held): each as the
        online table's sheet (counted at once), the hand in which the time-out was called marked as such (the
        table's match ends with it: RULES.md §0.1); a table the time-out stopped between two hands, or before its
        players came, has finished its round with the hands it played."""
        rs = d.event.current
        d.live = {}
        if rs is None:
            return
        hands = d.event.setup.hands
        for t in rs.tables:
            entries: list[dict[str, Any]] = []
            link = d.tables.get((rs.number, t.number))
            if link is None or link.get("mode") != "online":
                continue
            try:
                table = await self.hub.get(str(link["table_id"]), touch=False)
            except Exception:  # one damaged table must not stop the event's page
                log.exception("event %s: online table %s could not be read", d.id, link["table_id"])
                continue
            if table is None:
                continue
            m = table.matches[0] if table.matches else None
            games = m.games if m is not None else []
            d.live[t.number] = {"status": table.status, "hand": len(games),
                                "totals": list(m.totals) if m is not None else [0, 0], "playing": table.hand_running()}
            if rs.complete(t.number, hands):
                continue
            have = 0
            while (t.number, have + 1) in rs.sheets:
                have += 1
            upto = link.get("timeout_hands")  # the cap an older desk stored for a table between hands
            upto = hands if not isinstance(upto, int) else min(hands, upto)
            ended = False
            for i in range(have, min(len(games), upto)):
                if (0, i) not in table.hands_ended:
                    break
                g = games[i]
                e: dict[str, Any] = {"type": "hand", "round": rs.number, "table": t.number, "hand": i + 1,
                                     "ns": line_score(g, 0).to_json(), "ew": line_score(g, 1).to_json(),
                                     "by": "online", "at": now_iso()}
                if g.timeout_called:  # the hand of the time-out: the match ends with it
                    e["timeout"] = True
                    ended = True
                entries.append(e)
                if ended:
                    break
            stopped = table.status in CLOSED_STATUSES and not table.hand_running()
            played = have + len(entries)
            capped = isinstance(link.get("timeout_hands"), int) and played >= upto
            if rs.timeout_at is not None and not ended and played < hands and (stopped or capped):
                entries.append({"type": "finish_table", "round": rs.number, "table": t.number,
                                "at": now_iso(), "by": "online"})
            for e in entries:  # one by one: a sheet the event refuses stops this table only, never the page
                try:
                    await self.commit(d, applier(e))
                except TournamentError as err:
                    log.warning("event %s, table %s: the online table's entry was refused: %s", d.id, t.number, err)
                    break
            rs = d.event._round(rs.number)  # the same round (a failed commit reloads the event from the store)

    async def online_tables(self, d: Desk, rs: RoundState) -> list[tuple[Table, Any]]:
        """The round's online tables: (the event's table, the server's table), those the server still has."""
        out: list[tuple[Table, Any]] = []
        for t in rs.tables:
            link = d.tables.get((rs.number, t.number))
            if link is None or link.get("mode") != "online":
                continue
            table = await self.hub.get(str(link["table_id"]), touch=False)
            if table is not None:
                out.append((t, table))
        return out

    async def timeout_online(self, d: Desk, rs: RoundState) -> None:
        """The time-out at every online table of the round at once (lock held): the engine's ``timeout`` action
        where a hand is being played (the match ends with that hand); a table between two hands, or whose
        players never came, plays no more (:meth:`~burraco.server.tables.Table.end_match`)."""
        for t, table in await self.online_tables(d, rs):
            for _ in range(20):  # a computer's move may land between reading the event number and the action
                try:
                    if table.hand_running():
                        await table.handle(_DirectorSink(), {"type": "timeout", "token": d.tables[
                            (rs.number, t.number)]["creator"], "n": table.n})
                        break
                    if await table.end_match():
                        break
                except ClientError as e:
                    if e.code == "stale":
                        continue
                    log.info("table %s: time-out not played (%s)", table.id, e.message)
                    break
                except TableGone:
                    break

    async def stop_online(self, d: Desk, rs: RoundState, only: int | None = None) -> list[int]:
        """After the time-out, before a table (``only``) or the round is finished: every online table not playing
        a hand plays no more. Returns the tables still playing the hand of the time-out (their hand counts:
        they end by themselves with it)."""
        playing: list[int] = []
        for t, table in await self.online_tables(d, rs):
            if only is not None and t.number != only:
                continue
            try:
                if not await table.end_match():
                    playing.append(t.number)
            except TableGone:
                continue
        return playing

    # ----- what everybody sees ----------------------------------------------------------------------------------
    @staticmethod
    def linked_accounts(d: Desk) -> set[str]:
        """The ids of the accounts the event's players are linked to (docs/accounts.md "Tournament entrants")."""
        return {p.account_id for e in d.event.entrants.values() for p in e.people if p.account_id}

    def public_json(self, d: Desk, sealed: bool = True, accounts: Mapping[str, str] | None = None) -> dict[str, Any]:
        """The event as its public page shows it: setup, participants (each player's linked account under its
        name now: ``accounts``, id → name, :meth:`linked_accounts`), every round's tables and progress, the
        clock, results, standings, and each participant's table in the round in play. In a duplicate event's
        running round (``sealed``; not for the director's desk) nothing tells the cards of a deal some online
        table is still playing: no online table's id, no sheet of such a deal, no live totals, and the results
        and standings as they stood when the last round closed."""
        ev = d.event
        r = ev.rules
        cur = ev.current
        seal = sealed and ev.setup.duplicate and cur is not None
        shown = 0
        if seal and cur is not None:
            shown = self._dealt_everywhere([str(x["table_id"]) for (rn, _), x in d.tables.items()
                                            if rn == cur.number and x.get("mode") == "online"], ev.setup.hands)
        entrants = [
            {"id": e.id, "name": e.name, "players": [p.name for p in e.people], "clubs": [p.club for p in e.people],
             # "" where the player is linked to no account; a linked one under its name now (it may be renamed)
             "accounts": [(accounts or {}).get(p.account_id, p.account) if p.account_id else p.account
                          for p in e.people],
             "withdrawn": e.withdrawn, "first_round": e.first_round, "categories": list(e.categories)}
            for e in ev.entrants.values()
        ]
        if ev.setup.kind == "teams":  # each team's pairs for the next round (its line-up)
            for x in entrants:
                x["lineup"] = [list(pr) for pr in ev.lineup_of(str(x["id"]))]
        rounds = []
        for rs in ev.rounds:
            tabs = []
            for t in rs.tables:
                link = d.tables.get((rs.number, t.number), {"mode": "physical"})
                sheets = []
                every = not (seal and rs is cur and link.get("mode") == "online")
                for h in range(1, ev.setup.hands + 1):
                    s = rs.sheets.get((t.number, h))
                    if s is None or (not every and h > shown):
                        continue
                    sheets.append({"hand": h, "ns": s.ns.to_json(), "ew": s.ew.to_json(),
                                   "ns_total": s.ns.total(r), "ew_total": s.ew.total(r), "counts": s.counts,
                                   "entered_by": s.entered_by, "confirmed_by": s.confirmed_by,
                                   "corrected_by": [list(c) for c in s.corrected_by]})
                ns_mp, ew_mp, counted = ev.table_mp(rs, t.number)
                if not every:  # only the deals every online table has finished
                    counted = min(counted, shown)
                    ns_mp = sum(rs.sheets[(t.number, h)].ns.total(r) for h in range(1, counted + 1))
                    ew_mp = sum(rs.sheets[(t.number, h)].ew.total(r) for h in range(1, counted + 1))
                tabs.append({
                    "table": t.number, "match": t.match, "mode": link.get("mode", "physical"),
                    "table_id": link.get("table_id") if not (seal and rs is cur) else None,
                    "ns": {"entrants": list(t.ns.entrants), "players": [ev.who(m) for m in t.ns.members]},
                    "ew": {"entrants": list(t.ew.entrants), "players": [ev.who(m) for m in t.ew.members]},
                    "sheets": sheets, "mp": [ns_mp, ew_mp], "counted": counted,
                    "finished": t.number in rs.finished, "complete": rs.complete(t.number, ev.setup.hands),
                    "timeout_hand": rs.timeout_hand(t.number),
                    # after the time-out, a table not yet complete is still finishing its last hand
                    "finishing": rs.timeout_at is not None and not rs.closed
                    and not rs.complete(t.number, ev.setup.hands),
                    "replaced": {seat: p for (tn, seat), p in rs.replaced.items() if tn == t.number},
                    "adjusted": rs.adjusted.get(t.number),
                    "live": (d.live.get(t.number) if every else {k: v for k, v in d.live.get(t.number, {}).items()
                                                                 if k != "totals"}) if rs is ev.current else None,
                })
            rounds.append({"round": rs.number, "movement": rs.movement, "started_at": rs.started_at,
                           "timeout_at": rs.timeout_at, "closed": rs.closed, "byes": list(rs.byes), "tables": tabs})
        closed = sum(1 for x in ev.rounds if x.closed)
        clock = None
        upto = len(ev.rounds) - 1 if seal else None  # a sealed round's results count once it closes
        if cur is not None:
            ends = None
            if ev.setup.minutes and cur.started_at:
                start = dt.datetime.fromisoformat(cur.started_at)
                ends = (start + dt.timedelta(minutes=ev.setup.minutes)).isoformat(timespec="seconds")
            clock = {"round": cur.number, "started_at": cur.started_at, "minutes": ev.setup.minutes,
                     "ends_at": ends, "timeout_at": cur.timeout_at, "now": now_iso()}
        nxt: dict[str, Any] = {}
        if cur is not None:
            for t in cur.tables:
                for line, ln in (("NS", t.ns), ("EW", t.ew)):
                    for e in ln.entrants:
                        nxt[e] = {"round": cur.number, "table": t.number, "line": line}
            for b in cur.byes:
                nxt[b] = {"round": cur.number, "table": None, "line": "bye"}
        return {
            "id": d.id,
            # the lot stays unknown, and the deals' secret until the event ends
            "setup": {k: v for k, v in ev.setup.to_json().items() if k not in ("seed", "deal_secret")},
            "deals": _deals_json(ev),
            "semiclean": ev.rules.semiclean,
            "prizes": [{"category": cat, "winners": [{"place": i, "entrant": st.entrant.id} for i, st in won]}
                       for cat, won in ev.prizes(closed)],
            "director": d.director,
            "entrants": entrants,
            "rounds": rounds,
            "clock": clock,
            "next": nxt,
            "results": [
                {"round": x.round, "entrant": x.entrant, "opponents": list(x.opponents), "line": x.line,
                 "table": x.table, "mp_for": x.mp_for, "mp_against": x.mp_against, "vp": x.vp,
                 "adjusted": x.adjusted, "computers": _computers(ev.rounds[x.round - 1], x.table, x.line)}
                for x in ev.results(upto)
            ],
            # the standings after the last closed round (labelled with it), the running round's tables apart
            "standings_round": closed,
            "standings": [standing_json(s) for s in ev.standings(closed)],
            "penalties": [{k: p[k] for k in ("round", "entrant", "vp", "mp", "reason", "by")}
                          for p in ev.penalties()],
            "can_start": cur is None and len(ev.rounds) < ev.setup.rounds,
            "finished": closed == ev.setup.rounds,
        }

    def desk_json(self, d: Desk, accounts: Mapping[str, str] | None = None) -> dict[str, Any]:
        """The public view and, for the director, every table's links: the online seats' invitations and the
        physical lines' score-entry links."""
        out = self.public_json(d, sealed=False, accounts=accounts)
        for rnd in out["rounds"]:
            for t in rnd["tables"]:
                link = d.tables.get((rnd["round"], t["table"]))
                if link is None:
                    continue
                if link["mode"] == "online":
                    tid = link["table_id"]
                    t["links"] = {s: f"/t/{tid}#t={tok}" for s, tok in link["seats"].items()}
                    t["links"]["watch"] = f"/t/{tid}#c={link['creator']}"  # the director watches a sealed table
                else:
                    t["links"] = {ln: f"/tournament/{d.id}/score#t={tok}" for ln, tok in link["lines"].items()}
        out["links"] = {"public": f"/tournament/{d.id}"}
        return out

    def line_of(self, d: Desk, token: str) -> tuple[RoundState, Table, str]:
        """The running round's table and line whose score-entry token this is."""
        rs = d.event.current
        if rs is not None:
            h = token_hash(token)
            for t in rs.tables:
                link = d.tables.get((rs.number, t.number))
                if link is None or link.get("mode") != "physical":
                    continue
                for ln, tok in link["lines"].items():
                    if secrets.compare_digest(token_hash(tok), h):
                        return rs, t, ln
        raise DeskError("bad_token", msg("te_line_link"), 403)


def standing_json(s: Standing) -> dict[str, Any]:
    """A line of the standings as the pages and the API have it (with the tie-break step that placed it)."""
    return {"rank": s.rank, "entrant": s.entrant.id, "name": s.entrant.name, "rounds": s.rounds, "vp": s.vp,
            "mp_for": s.mp_for, "mp_against": s.mp_against, "diff": s.diff, "byes": s.byes,
            "penalty_vp": s.penalty_vp, "penalty_mp": s.penalty_mp, "tie": s.tie, "tie_value": s.tie_value,
            "tie_group": list(s.tie_group), "head_to_head": s.head_to_head}


def _deals_json(ev: Event) -> dict[str, Any] | None:
    """A duplicate event's deals (docs/fairness.md): the commitment to its secret from its creation on, and the
    secret itself once the event has ended (the labels are ``event <id> round <n>``)."""
    if not ev.setup.duplicate or not ev.setup.deal_secret:
        return None
    secret = bytes.fromhex(ev.setup.deal_secret)
    return {"procedure": PROCEDURE, "commitment": commitment(secret),
            "secret": ev.setup.deal_secret if ev.ended else None}


def applier(entry: dict[str, Any]) -> Callable[[Event], None]:
    """A change that applies one entry."""

    def change(ev: Event) -> None:
        ev.apply(entry)

    return change


def whole_field(body: dict[str, Any], key: str) -> int:
    """``body[key]`` as a whole number (a request's field), or the desk's refusal."""
    v = body.get(key)
    if not isinstance(v, int) or isinstance(v, bool):
        raise DeskError("bad_request", msg("te_whole_field", field=key))
    return v


def sheet_entry(ev: Event, body: dict[str, Any], by: str, at: str) -> dict[str, Any]:
    """A hand's sheet typed by the director (the paper-entry grid): ``table``, ``hand``, ``ns``, ``ew``, optionally
    ``round`` (the round in play) and ``timeout`` (the hand of the time-out); his entries count at once."""
    rs = ev.current
    rnd = body.get("round", rs.number if rs is not None else 0)
    if not isinstance(rnd, int) or isinstance(rnd, bool):
        raise DeskError("bad_request", msg("te_whole_field", field="round"))
    entry: dict[str, Any] = {"type": "hand", "round": rnd, "table": whole_field(body, "table"), "hand": whole_field(body, "hand"),
                             "ns": body.get("ns"), "ew": body.get("ew"), "by": by, "at": at}
    if "timeout" in body:
        entry["timeout"] = body["timeout"]
    return entry


def _computers(rs: RoundState, table: int, line: str) -> dict[str, str]:
    """The seats of a line that a computer player played (a participant replaced), with the player."""
    seats = {"NS": ("N", "S"), "EW": ("E", "W")}.get(line, ())
    return {s: p for (tn, s), p in rs.replaced.items() if tn == table and s in seats}

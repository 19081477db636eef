"""The tournament director's desk in ``burraco serve``: events of :mod:`burraco.tournament` run from the browser,
for tables played online (browser tables, seats by invitation link) and at physical tables (scores entered by each
table's secret link per line, countersigned by the other line), or both at once (docs/tournaments.md).

The event itself is :class:`burraco.tournament.Event`, stored as its setup and its entry log
(:mod:`.tournament_store`): every change is one or more entries, checked by the event, committed to the store, and
only then answered. Online tables are ordinary tables of the :class:`~burraco.server.hub.Hub` (created with the
event's preset and hands, the participants' names in their seats); their finished hands flow into the event as
the online table's score sheets whenever the event is read, and the director's time-out is their ``timeout``
action (RULES.md §9.4).

Routes: ``/tournament/new`` (create an event), ``/tournament/<id>`` (the public page: next table per participant,
results, live standings), ``/tournament/<id>/desk#d=<director token>`` (the desk), ``/tournament/<id>/score#t=<line
token>`` (a physical table's score entry) and the JSON API under ``/api/tournaments`` (docs/tournaments.md).
"""

from __future__ import annotations

import asyncio
import contextlib
import csv
import datetime as dt
import json
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Route

from ..messages import LANGS, Message, msg, render, text
from ..rules import RulesError, preset
from ..tournament import Event, TournamentError, printouts
from ..tournament.event import RoundState, Table
from ..tournament.simulate import line_score
from .events import TableGone
from .hub import Hub
from .protocol import DEFAULT_LEVEL, ClientError
from .seats import check_level
from .security import PRINT_CSP
from .store import token_hash
from .tournament_store import TournamentRow, TournamentStore

log = logging.getLogger("burraco.server")
STATIC = Path(__file__).parent / "static"

#: how often (seconds) the online tables' finished hands are brought into their events in the background
FOLLOW_EVERY = 2.0

#: the largest request body the desk reads (a participants CSV of a big event fits)
MAX_BODY = 256 * 1024

Handler = Callable[[Request], Awaitable[Response]]


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

    def send(self, msg: dict[str, Any] | str) -> None:
        pass


def now_iso() -> str:
    """The time an entry is made, in UTC (ISO 8601, seconds)."""
    return dt.datetime.now(dt.UTC).isoformat(timespec="seconds")


class Directors:
    """Every event of this server: created, loaded from the store on first use, changed under its lock."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self.store = TournamentStore(hub.store)
        self.desks: dict[str, Desk] = {}
        self._follower: asyncio.Task[None] | None = None

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
                   "director"}
        unknown = sorted(set(spec) - allowed)
        if unknown:
            raise DeskError("bad_request", f"unknown field(s) {', '.join(unknown)} (fields: {', '.join(sorted(allowed))})")
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
        for k in ("date", "kind", "rules", "seeding", "ranking"):
            if k in kw and not isinstance(kw[k], str):
                raise DeskError("bad_request", f"'{k}' must be a string")
        kw.setdefault("seed", secrets.randbits(31))  # each event its own lot (ties, random seeding)
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
        spec = {"preset": ev.setup.rules, "hands": ev.setup.hands, "seats": seats, "listed": False,
                "name": f"{ev.setup.name} · R{rs.number} T{t.number}"}
        try:
            # a duplicate event: every online table of the round deals the round's hands (Event.deal_seed)
            seed = ev.deal_seed(rs.number, t.number) if ev.setup.duplicate else None
            out = await self.hub.create_table(spec, owner_ip=owner_ip, deal_seed=seed)
        except ClientError as e:
            raise DeskError(e.code, msg("te_online_create", table=t.number, error=e.message)) from e
        return {"mode": "online", "table_id": out["id"], "creator": out["creator"], "seats": out["tokens"],
                "computers": computers}

    async def sync(self, d: Desk) -> None:
        """The finished hands of the running round's online tables into the event (lock held): each as the
        online table's sheet (counted at once); a table whose hand ended by the time-out, or that was between
        hands when it was announced, has finished its round."""
        rs = d.event.current
        d.live = {}
        if rs is None:
            return
        hands = d.event.setup.hands
        for t in rs.tables:
            entries: list[dict[str, Any]] = []
            link = d.tables.get((rs.number, t.number))
            if link is None or link.get("mode") != "online" or t.number in rs.finished:
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
            have = 0
            while (t.number, have + 1) in rs.sheets:
                have += 1
            done = False
            entered = have
            upto = link.get("timeout_hands")
            upto = hands if not isinstance(upto, int) else min(hands, upto)
            for i in range(have, min(len(games), upto)):
                if (0, i) not in table.hands_ended:
                    break
                g = games[i]
                entries.append({"type": "hand", "round": rs.number, "table": t.number, "hand": i + 1,
                                "ns": line_score(g, 0).to_json(), "ew": line_score(g, 1).to_json(),
                                "by": "online", "at": now_iso()})
                entered += 1
                if g.timeout_called:  # the hand the time-out ended (by its last round, or closed in it)
                    done = True
                    break
            stopped = isinstance(link.get("timeout_hands"), int) and entered >= upto
            if rs.timeout_at is not None and (done or stopped):
                if entered < hands:
                    entries.append({"type": "finish_table", "round": rs.number, "table": t.number,
                                    "at": now_iso(), "by": "online"})
            for e in entries:  # one by one: a sheet the event refuses stops this table only, never the page
                try:
                    await self.commit(d, _applier(e))
                except TournamentError as err:
                    log.warning("event %s, table %s: the online table's entry was refused: %s", d.id, t.number, err)
                    break
            rs = d.event._round(rs.number)  # the same round (a failed commit reloads the event from the store)

    async def timeout_online(self, d: Desk, rs: RoundState) -> None:
        """The time-out at every online table of the round at once: the ``timeout`` action where a hand is being
        played; a table between hands plays no more (lock held)."""
        for t in rs.tables:
            link = d.tables.get((rs.number, t.number))
            if link is None or link.get("mode") != "online":
                continue
            table = await self.hub.get(str(link["table_id"]), touch=False)
            if table is None:
                continue
            for _ in range(20):  # a computer's move may land between reading the event number and the action
                try:
                    if table.hand_running():
                        await table.handle(_DirectorSink(), {"type": "timeout", "token": link["creator"],
                                                             "n": table.n})
                        break
                except ClientError as e:
                    if e.code == "stale":
                        continue
                    log.info("table %s: time-out not played (%s)", table.id, e.message)
                except TableGone:
                    pass
                # between two hands: the table's round is the hands it has finished now (stored: a restart keeps it)
                link["timeout_hands"] = sum(1 for g, _ in table.hands_ended if g == 0)
                await self.store.update_table(d.id, rs.number, t.number, link)
                break

    # ----- what everybody sees ----------------------------------------------------------------------------------
    def public_json(self, d: Desk) -> dict[str, Any]:
        """The event as its public page shows it: setup, participants, every round's tables and progress, the
        clock, results, standings, and each participant's table in the round in play."""
        ev = d.event
        r = ev.rules
        entrants = [
            {"id": e.id, "name": e.name, "players": [p.name for p in e.people], "clubs": [p.club for p in e.people],
             "withdrawn": e.withdrawn, "first_round": e.first_round}
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
                for h in range(1, ev.setup.hands + 1):
                    s = rs.sheets.get((t.number, h))
                    if s is None:
                        continue
                    sheets.append({"hand": h, "ns": s.ns.to_json(), "ew": s.ew.to_json(),
                                   "ns_total": s.ns.total(r), "ew_total": s.ew.total(r), "counts": s.counts,
                                   "entered_by": s.entered_by, "confirmed_by": s.confirmed_by,
                                   "corrected_by": [list(c) for c in s.corrected_by]})
                ns_mp, ew_mp, counted = ev.table_mp(rs, t.number)
                tabs.append({
                    "table": t.number, "match": t.match, "mode": link.get("mode", "physical"),
                    "table_id": link.get("table_id"),
                    "ns": {"entrants": list(t.ns.entrants), "players": [ev.who(m) for m in t.ns.members]},
                    "ew": {"entrants": list(t.ew.entrants), "players": [ev.who(m) for m in t.ew.members]},
                    "sheets": sheets, "mp": [ns_mp, ew_mp], "counted": counted,
                    "finished": t.number in rs.finished, "complete": rs.complete(t.number, ev.setup.hands),
                    "replaced": {seat: p for (tn, seat), p in rs.replaced.items() if tn == t.number},
                    "live": d.live.get(t.number) if rs is ev.current else None,
                })
            rounds.append({"round": rs.number, "movement": rs.movement, "started_at": rs.started_at,
                           "timeout_at": rs.timeout_at, "closed": rs.closed, "byes": list(rs.byes), "tables": tabs})
        cur = ev.current
        clock = None
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
            "setup": {k: v for k, v in ev.setup.to_json().items() if k != "seed"},  # the lot stays unknown
            "director": d.director,
            "entrants": entrants,
            "rounds": rounds,
            "clock": clock,
            "next": nxt,
            "results": [
                {"round": x.round, "entrant": x.entrant, "opponents": list(x.opponents), "line": x.line,
                 "table": x.table, "mp_for": x.mp_for, "mp_against": x.mp_against, "vp": x.vp,
                 "computers": _computers(ev.rounds[x.round - 1], x.table, x.line)}
                for x in ev.results()
            ],
            "standings": [
                {"rank": s.rank, "entrant": s.entrant.id, "name": s.entrant.name, "rounds": s.rounds, "vp": s.vp,
                 "mp_for": s.mp_for, "mp_against": s.mp_against, "diff": s.diff, "byes": s.byes}
                for s in ev.standings()
            ],
            "can_start": cur is None and len(ev.rounds) < ev.setup.rounds,
        }

    def desk_json(self, d: Desk) -> dict[str, Any]:
        """The public view and, for the director, every table's links: the online seats' invitations and the
        physical lines' score-entry links."""
        out = self.public_json(d)
        for rnd in out["rounds"]:
            for t in rnd["tables"]:
                link = d.tables.get((rnd["round"], t["table"]))
                if link is None:
                    continue
                if link["mode"] == "online":
                    tid = link["table_id"]
                    t["links"] = {s: f"/t/{tid}#t={tok}" for s, tok in link["seats"].items()}
                    t["links"]["watch"] = f"/t/{tid}"
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


def _applier(entry: dict[str, Any]) -> Callable[[Event], None]:
    """A change that applies one entry."""

    def change(ev: Event) -> None:
        ev.apply(entry)

    return change


def _computers(rs: RoundState, table: int, line: str) -> dict[str, str]:
    """The seats of a line that a computer player played (a participant replaced), with the player."""
    seats = {"NS": ("N", "S"), "EW": ("E", "W")}.get(line, ())
    return {s: p for (tn, s), p in rs.replaced.items() if tn == table and s in seats}


# ----------------------------------------------------------------------------------------------------------------
# HTTP
# ----------------------------------------------------------------------------------------------------------------
def request_lang(request: Request) -> str:
    """The language a refusal is written in: ``?lang=``, else the first of ``Accept-Language`` that the
    catalogues have, else English (the desk's pages send their own language)."""
    q = request.query_params.get("lang", "")
    if q in LANGS:
        return q
    for part in request.headers.get("accept-language", "").split(","):
        tag = part.split(";")[0].strip().lower()[:2]
        if tag in LANGS:
            return tag
    return "en"


def _err(code: str, message: Message, lang: str, status: int = 400) -> JSONResponse:
    return JSONResponse({"error": code, "message": render(message, lang)}, status_code=status)


async def _body(request: Request) -> bytes:
    declared = request.headers.get("content-length", "0")
    if declared.isdigit() and int(declared) > MAX_BODY:
        raise DeskError("too_large", f"the request body is too large ({MAX_BODY // 1024} KiB at most)", 413)
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY:
            raise DeskError("too_large", f"the request body is too large ({MAX_BODY // 1024} KiB at most)", 413)
    return body


async def _json(request: Request) -> dict[str, Any]:
    body = await _body(request)
    try:
        out = json.loads(body or b"{}")
    except (json.JSONDecodeError, UnicodeDecodeError, RecursionError) as e:
        raise DeskError("bad_json", "the request body is not JSON") from e
    if not isinstance(out, dict):
        raise DeskError("bad_request", "the body must be a JSON object")
    return out


def _token(request: Request) -> str:
    auth = request.headers.get("authorization", "")
    tok = auth[7:].strip() if auth.lower().startswith("bearer ") else ""
    if not tok or len(tok) > 200:
        raise DeskError("bad_token", msg("te_send_token"), 401)
    return tok


def _director(d: Desk, request: Request) -> None:
    if not secrets.compare_digest(token_hash(_token(request)), d.director_hash):
        raise DeskError("bad_token", msg("te_director_link"), 403)


def _int(body: dict[str, Any], key: str) -> int:
    v = body.get(key)
    if not isinstance(v, int) or isinstance(v, bool):
        raise DeskError("bad_request", msg("te_whole_field", field=key))
    return v


def routes(dirs: Directors, limited: Callable[[Handler], Handler], ip_of: Callable[[Request], str]) -> list[Route]:
    """The desk's routes, for :func:`burraco.server.app.create_app` (``limited``: its per-address request
    limit; ``ip_of``: the address a request counts against)."""

    def guard(handler: Handler) -> Handler:
        async def wrapped(request: Request) -> Response:
            dirs.follow()
            try:
                return await handler(request)
            except DeskError as e:
                return _err(e.code, e.msg, request_lang(request), e.status)
            except TournamentError as e:
                return _err("refused", e.msg, request_lang(request))
            except ClientError as e:
                return _err(e.code, text(e.message), request_lang(request))

        return limited(wrapped)

    async def page(request: Request) -> Response:
        return FileResponse(STATIC / "director.html", headers={"Cache-Control": "no-cache"})

    async def create(request: Request) -> Response:
        return JSONResponse(await dirs.create(await _json(request)), status_code=201)

    async def public(request: Request) -> Response:
        d = await dirs.get(request.path_params["tid"])
        async with d.lock:
            await dirs.sync(d)
            return JSONResponse(dirs.public_json(d))

    async def desk(request: Request) -> Response:
        d = await dirs.get(request.path_params["tid"])
        _director(d, request)
        async with d.lock:
            await dirs.sync(d)
            return JSONResponse(dirs.desk_json(d))

    async def action(request: Request) -> Response:
        d = await dirs.get(request.path_params["tid"])
        _director(d, request)
        what = request.path_params["action"]
        if what == "import":
            text = (await _body(request)).decode("utf-8", "replace")
            async with d.lock:
                def load(ev: Event) -> None:
                    try:
                        printouts.import_participants(ev, text, at=now_iso(), by=d.by)
                    except csv.Error as e:
                        raise TournamentError(msg("te_not_csv", error=str(e))) from e

                await dirs.commit(d, load)
                return JSONResponse(dirs.desk_json(d))
        body = await _json(request)
        async with d.lock:
            await dirs.sync(d)
            ev = d.event
            at, by = now_iso(), d.by
            if what == "register":
                people = body.get("people")
                if not isinstance(people, list) or not all(isinstance(p, (str, dict)) for p in people):
                    raise DeskError("bad_request", "'people' lists the players (names, or {name, club, member})")
                name = body.get("name")
                if not isinstance(name, str):
                    raise DeskError("bad_request", "'name' is the entrant's name")
                await dirs.commit(d, lambda ev: ev.apply(
                    {"type": "register", "name": name, "at": at, "by": by,
                     "people": [{"name": p} if isinstance(p, str) else p for p in people]}))
            elif what == "lineup":
                pairs = body.get("pairs")
                if not isinstance(pairs, list) or not all(isinstance(x, list) for x in pairs):
                    raise DeskError("bad_request", "'pairs' lists the team's pairs for the next round, each two "
                                    "player numbers (from 0, in registration order), e.g. [[0, 2], [1, 3]]")
                await dirs.commit(d, lambda ev: ev.lineup(str(body.get("team")), pairs, at=at, by=by))
            elif what == "withdraw":
                await dirs.commit(d, lambda ev: ev.withdraw(str(body.get("entrant")), at=at, by=by))
            elif what == "start":
                await _start(dirs, d, body, ip_of(request))
            elif what == "timeout":
                rs = ev.current
                if rs is None:
                    raise DeskError("refused", msg("te_timeout_no_round"))
                await dirs.commit(d, lambda ev: ev.timeout(at=at, by=by))
                await dirs.timeout_online(d, rs)
                await dirs.sync(d)
            elif what == "finish":
                table = _int(body, "table")
                await dirs.commit(d, lambda ev: ev.finish_table(table, at=at, by=by))
            elif what == "close":
                await dirs.commit(d, lambda ev: ev.close_round(at=at, by=by))
            elif what == "correct":
                rnd, table, hand = _int(body, "round"), _int(body, "table"), _int(body, "hand")
                await dirs.commit(d, lambda ev: ev.apply(
                    {"type": "correct", "round": rnd, "table": table, "hand": hand, "ns": body.get("ns"),
                     "ew": body.get("ew"), "by": by, "reason": str(body.get("reason", "")), "at": at}))
            elif what == "replace":
                await _replace(dirs, d, body)
            else:
                raise DeskError("not_found", f"unknown desk action {what!r}", 404)
            await dirs.sync(d)
            return JSONResponse(dirs.desk_json(d))

    async def line(request: Request) -> Response:
        d = await dirs.get(request.path_params["tid"])
        tok = _token(request)
        async with d.lock:
            rs, t, ln = dirs.line_of(d, tok)
            out = dirs.public_json(d)
            me = next(x for x in out["rounds"][rs.number - 1]["tables"] if x["table"] == t.number)
            return JSONResponse({"event": out["setup"]["name"], "round": rs.number, "table": me, "line": ln,
                                 "hands": d.event.setup.hands, "timeout_at": rs.timeout_at})

    async def line_action(request: Request) -> Response:
        d = await dirs.get(request.path_params["tid"])
        tok = _token(request)
        body = await _json(request)
        what = request.path_params["action"]
        async with d.lock:
            rs, t, ln = dirs.line_of(d, tok)
            hand = _int(body, "hand")
            at = now_iso()
            if what == "enter":
                await dirs.commit(d, lambda ev: ev.apply(
                    {"type": "hand", "round": rs.number, "table": t.number, "hand": hand, "ns": body.get("ns"),
                     "ew": body.get("ew"), "by": ln, "at": at}))
            elif what == "confirm":
                await dirs.commit(d, lambda ev: ev.confirm(t.number, hand, by=ln, round=rs.number, at=at))
            else:
                raise DeskError("not_found", f"unknown score action {what!r}", 404)
        return await line(request)

    async def printout(request: Request) -> Response:
        d = await dirs.get(request.path_params["tid"])
        doc, fmt = request.path_params["doc"], request.path_params["fmt"]
        lang = request.query_params.get("lang", "en")
        rnd_s = request.query_params.get("round")
        rnd = int(rnd_s) if rnd_s and rnd_s.isdigit() else None
        async with d.lock:
            await dirs.sync(d)
            ev = d.event
            if fmt == "csv":
                if doc == "standings":
                    text = printouts.standings_csv(ev, rnd)
                elif doc == "sheets":
                    text = printouts.sheets_csv(ev)
                elif doc == "participants":
                    _director(d, request)
                    text = printouts.participants_csv(ev)
                else:
                    raise DeskError("not_found", f"no CSV of {doc!r} (standings, sheets, participants)", 404)
                return Response(text, media_type="text/csv; charset=utf-8", headers={
                    "Content-Disposition": f'attachment; filename="{d.id}-{doc}.csv"'})
            makers: dict[str, Callable[[], printouts.Document]] = {
                "standings": lambda: printouts.standings(ev, rnd, lang),
                "pairings": lambda: printouts.pairings(ev, rnd, lang),
                "sheets": lambda: printouts.score_sheets(ev, rnd, lang),
                "final": lambda: printouts.final_results(ev, lang),
                "participants": lambda: printouts.participants(ev, lang),
            }
            maker = makers.get(doc)
            if maker is None or fmt not in ("html", "pdf"):
                raise DeskError("not_found", f"no printout {doc}.{fmt} (standings, pairings, sheets, final, "
                                "participants as html or pdf; standings, sheets, participants as csv)", 404)
            document = maker()
        if fmt == "html":
            return Response(printouts.to_html(document), media_type="text/html; charset=utf-8",
                            headers={"Content-Security-Policy": PRINT_CSP})  # its inline style, no script
        pdf = await asyncio.to_thread(printouts.to_pdf, document)
        return Response(pdf, media_type="application/pdf", headers={
            "Content-Disposition": f'inline; filename="{d.id}-{doc}.pdf"'})

    texts_cache: dict[str, bytes] = {}

    async def texts(request: Request) -> Response:
        lang = request.path_params["lang"]
        if lang not in LANGS:
            raise DeskError("not_found", f"no texts in {lang!r} (languages: {', '.join(LANGS)})", 404)
        body = texts_cache.get(lang)
        if body is None:
            body = texts_cache[lang] = json.dumps(page_texts(lang), ensure_ascii=False).encode()
        return Response(body, media_type="application/json", headers={"Cache-Control": "max-age=3600"})

    return [
        Route("/api/tournament-texts/{lang}", guard(texts)),
        Route("/tournament/new", page),
        Route("/tournament/{tid}", page),
        Route("/tournament/{tid}/desk", page),
        Route("/tournament/{tid}/score", page),
        Route("/api/tournaments", guard(create), methods=["POST"]),
        Route("/api/tournaments/{tid}", guard(public)),
        Route("/api/tournaments/{tid}/desk", guard(desk)),
        Route("/api/tournaments/{tid}/desk/{action}", guard(action), methods=["POST"]),
        Route("/api/tournaments/{tid}/line", guard(line)),
        Route("/api/tournaments/{tid}/line/{action}", guard(line_action), methods=["POST"]),
        Route("/api/tournaments/{tid}/print/{doc}.{fmt}", guard(printout)),
    ]


async def _start(dirs: Directors, d: Desk, body: dict[str, Any], owner_ip: str) -> None:
    """Start the next round: its pairing from the movement; the tables named in ``online`` (numbers, or
    ``"all"``) become browser tables (``computers``: ``{table: {seat: level}}`` seats played by the computer
    from the start), the others are physical tables with a score-entry link per line."""
    ev = d.event
    online = body.get("online", [])
    computers = body.get("computers", {})
    if not (online == "all" or (isinstance(online, list) and all(isinstance(x, int) for x in online))):
        raise DeskError("bad_request", "'online' lists the numbers of the tables played online (or is \"all\")")
    if not isinstance(computers, dict):
        raise DeskError("bad_request", "'computers' maps a table number to {seat: computer level}")
    trial = Event(ev.setup, ev.log)  # pair on a copy first: a refused start changes nothing
    at = now_iso()
    rs = trial.start_round(at=at, by=d.by)
    numbers = [t.number for t in rs.tables]
    wanted = numbers if online == "all" else list(online)
    bad = [x for x in wanted if x not in numbers]
    if bad:
        raise DeskError("refused", msg("te_online_table", round=rs.number, tables=len(numbers), table=bad[0]))
    comp: dict[int, dict[str, str]] = {}
    for k, seats in computers.items():
        if not str(k).isdigit() or int(k) not in wanted or not isinstance(seats, dict):
            raise DeskError("refused", msg("te_computers_online", table=k))
        for s, level in seats.items():
            if s not in ("N", "E", "S", "W"):
                raise DeskError("refused", msg("te_seat_not", seat=str(s)))
            seats[s] = check_level(level or DEFAULT_LEVEL)
        comp[int(k)] = dict(seats)
    if wanted:
        try:
            plain = preset(ev.setup.rules, hands_per_match=ev.setup.hands, target=None)
        except RulesError as e:
            raise DeskError("refused", msg("te_rules", error=str(e))) from e
        if plain != ev.rules:
            raise DeskError("refused", msg("te_online_rules"))
    links: dict[tuple[int, int], dict[str, Any]] = {}
    for t in rs.tables:
        if t.number in wanted:
            links[(rs.number, t.number)] = await dirs._create_online(d, rs, t, comp.get(t.number, {}), owner_ip)
        else:
            links[(rs.number, t.number)] = {"mode": "physical", "lines": {
                "NS": secrets.token_urlsafe(12), "EW": secrets.token_urlsafe(12)}}
    entry = trial.log[-1]
    await dirs.commit(d, lambda ev: ev.apply(entry), tables=links)
    # seats replaced by a computer from the start are marked in the results
    marks = [(t, s, lvl) for t, seats in comp.items() for s, lvl in seats.items()]
    if marks:
        def mark(ev: Event) -> None:
            for t, s, lvl in marks:
                ev.replace(t, s, lvl, at=at, by=d.by)

        await dirs.commit(d, mark)


async def _replace(dirs: Directors, d: Desk, body: dict[str, Any]) -> None:
    """A participant who did not come: a computer player takes the seat at the online table (marked)."""
    ev = d.event
    rs = ev.current
    if rs is None:
        raise DeskError("refused", msg("te_no_round"))
    table = _int(body, "table")
    seat = body.get("seat")
    level = check_level(body.get("level") or DEFAULT_LEVEL)
    rs.table(table)
    link = d.tables.get((rs.number, table))
    if link is None or link.get("mode") != "online":
        raise DeskError("refused", msg("te_replace_physical", table=table))
    if seat not in ("N", "E", "S", "W"):
        raise DeskError("refused", msg("te_seat"))
    t = await dirs.hub.get(str(link["table_id"]), touch=False)
    if t is None:
        raise DeskError("not_found", msg("te_online_gone", table=table))
    trial = Event(ev.setup, ev.log)
    trial.replace(table, str(seat), level, at=now_iso(), by=d.by)  # checked before the seat changes
    await t.seat_computer(str(seat), level)
    entry = trial.log[-1]
    await dirs.commit(d, lambda ev: ev.apply(entry))


def page_texts(lang: str) -> dict[str, str]:
    """Every text of the desk's pages in ``lang``, rendered from the message catalogues (parameters left as
    ``{name}`` for the page to fill in)."""
    return {m.code: render(m, lang) for m in _PAGE_MESSAGES}


#: the messages of the desk's pages (director.html): their codes, parameters as placeholders
_PAGE_MESSAGES = (
    msg("desk_title"),
    msg("desk_new"),
    msg("desk_name"),
    msg("desk_date"),
    msg("desk_director"),
    msg("desk_kind"),
    msg("desk_kind_pairs"),
    msg("desk_kind_teams"),
    msg("desk_kind_individual"),
    msg("desk_rules"),
    msg("desk_hands"),
    msg("desk_minutes"),
    msg("desk_rounds"),
    msg("desk_movements"),
    msg("desk_create"),
    msg("desk_keep_link"),
    msg("desk_public_page"),
    msg("desk_participants"),
    msg("desk_entrant_name"),
    msg("desk_player_names"),
    msg("desk_register"),
    msg("desk_import"),
    msg("desk_export"),
    msg("desk_withdraw"),
    msg("desk_withdrawn"),
    msg("desk_online_tables"),
    msg("desk_computers"),
    msg("desk_start", n="{n}"),
    msg("desk_in_play", n="{n}"),
    msg("desk_timeout"),
    msg("desk_close"),
    msg("desk_finish"),
    msg("desk_clock", n="{n}", start="{start}"),
    msg("desk_time_left", m="{m}"),
    msg("desk_time_up"),
    msg("desk_timeout_at", at="{at}"),
    msg("desk_tables"),
    msg("desk_online"),
    msg("desk_physical"),
    msg("desk_progress", done="{done}", hands="{hands}"),
    msg("desk_finished"),
    msg("desk_links"),
    msg("desk_watch"),
    msg("desk_waiting_confirm"),
    msg("desk_corrected", who="{who}", why="{why}"),
    msg("desk_replace"),
    msg("desk_replaced", seat="{seat}"),
    msg("desk_correct"),
    msg("desk_reason"),
    msg("desk_apply"),
    msg("desk_results"),
    msg("desk_printouts"),
    msg("desk_next_table"),
    msg("desk_no_round"),
    msg("desk_score_title", round="{round}", table="{table}", line="{line}"),
    msg("desk_enter", n="{n}"),
    msg("desk_confirm"),
    msg("desk_entered_by", line="{line}"),
    msg("desk_counted"),
    msg("desk_refused", reason="{reason}"),
    msg("desk_done"),
    msg("desk_lineups", n="{n}"),
    msg("desk_lineup_pair", n="{n}"),
    msg("desk_lineup_set"),
    msg("desk_all_entered"),
    msg("t_round", n="{n}"),
    msg("t_table", n="{n}"),
    msg("t_hand", n="{n}"),
    msg("t_pairings", n="{n}"),
    msg("t_standings", n="{n}"),
    msg("desk_standings_none"),
    msg("t_line"),
    msg("t_clean"),
    msg("t_semiclean"),
    msg("t_dirty"),
    msg("t_closing"),
    msg("t_melds"),
    msg("t_hand_points"),
    msg("t_pozzetto"),
    msg("t_total"),
    msg("t_mp"),
    msg("t_vp"),
    msg("t_diff"),
    msg("t_rank"),
    msg("t_entrant"),
    msg("t_rounds_played"),
    msg("t_bye"),
    msg("t_players"),
    msg("t_club"),
    msg("t_member"),
    msg("t_final"),
)


__all__ = ["Desk", "DeskError", "Directors", "now_iso", "page_texts", "routes"]

"""The hub: every table of this server process, loading and unloading them, the janitor, table creation and the
lobby."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import secrets
import time
from collections.abc import AsyncIterator, Callable
from typing import TYPE_CHECKING, Any

from ..messages import msg
from ..rules import rules_from_json, rules_to_json
from ..seats import seat_names
from .config import ServerConfig
from .events import CLOSED_STATUSES
from .protocol import DEFAULT_LEVEL, ClientError
from .seats import Seat, check_level, clean_name, computer_name
from .store import EventRow, Store, TableRow, token_hash
from .table_state import TableState
from .tables import Table

if TYPE_CHECKING:
    from .cluster import Cluster

log = logging.getLogger("burraco.server")


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
        #: several processes (``--redis``): this one's leases and relays (server/cluster.py); None alone
        self.cluster: Cluster | None = None
        #: whether nobody but a table's seats and its director may watch it now (a duplicate event's round in
        #: play: the tournament desk's ``Directors.watch_sealed``); None: every table may be watched
        self.watch_sealed: Callable[[TableState], bool] | None = None

    async def start(self) -> None:
        """Migrate the store and start the janitor. Tables in play are rebuilt in the background at once (their
        clocks, computer players and take-overs go on where they stopped); the others on first access
        (:meth:`get`)."""
        await self.store.migrate()
        self._janitor = asyncio.create_task(self._janitor_loop())
        if self.cluster is None:  # with others, the cluster's scan takes the tables in play that nobody owns
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
                if self.cluster is not None:
                    self.cluster.release(t.id)
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

    @contextlib.asynccontextmanager
    async def _held_here(self, table_id: str, what: str) -> AsyncIterator[Table]:
        """A table under its lock for an administrator's change, served by this process (``ClientError`` where
        there is no such table, or another process serves it: ``what`` is to be done from a page it serves)."""
        t = await self.get(table_id, touch=False)
        if t is None:
            raise ClientError("not_found", msg("srv_no_table", table=table_id))
        async with t.lock:
            if t.unloaded:
                raise ClientError("not_now", msg("srv_other_process", table=table_id))
            yield t

    async def close_table(self, table_id: str, why: str) -> None:
        """Close a table now, whatever it is doing (a site administrator's decision, docs/accounts.md): a
        ``closed`` event ``by`` ``admin`` (each player's page says so in its language), status ``abandoned``; its
        games so far stay in the store. ``ClientError`` where there is
        no such table, it is closed already, or another process serves it (close it there)."""
        async with self._held_here(table_id, "close it") as t:
            if t.status in ("finished", "abandoned"):
                raise ClientError("not_now", msg("srv_closed_already", table=table_id))
            await t._emit([("closed", {"status": "abandoned", "why": why, "by": "admin"})], status="abandoned")

    async def remove_chat(self, table_id: str, n: int, why: str) -> None:
        """Remove the chat line that is event ``n`` of a table (a site administrator's decision, docs/accounts.md):
        its text is erased from the stored event and from the table's memory (the event keeps its seat and name,
        with ``"removed": true``), then a ``chat_removed`` event (``n``, ``why``) tells everyone connected to drop
        the line (docs/protocol.md "Removed chat lines"). ``ClientError`` where there is no such table or chat
        line, it was removed already, or another process serves the table (remove it there)."""
        async with self._held_here(table_id, "remove the line") as t:
            ev = next((e for e in t.events if e.n == n), None)
            if ev is None or ev.kind != "chat":
                raise ClientError("not_found", msg("srv_not_chat", n=n, table=table_id))
            if ev.data.get("removed"):
                raise ClientError("not_now", msg("srv_chat_removed_already", n=n, table=table_id))
            erased = {**{k: v for k, v in ev.data.items() if k != "text"}, "text": "", "removed": True}
            await self.store.redact_event(t.id, n, "chat", erased)
            ev.data = erased
            await t._emit([("chat_removed", {"n": n, "why": why})])

    async def _rebuild(self, row: TableRow, own: bool = True) -> Table:
        seats = [Seat(s.seat, s.kind, s.level, s.name, s.claimed, s.token_hash, guests=set(s.guests),
                      account=s.account, bot=s.bot)
                 for s in row.seats]
        t = Table(self, row.id, row.config, seats, status="waiting", created=row.created)
        events = await self.store.load_events(row.id)
        t.replay(events)
        if not own:  # another process owns it: a copy to read (records, games), never written through
            t.unloaded = True
            return t
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
            if self.cluster is not None and await self.cluster.claim(table_id) != self.cluster.node:
                return await self._rebuild(rows[0], own=False)
            return await self._rebuild(rows[0])
        finally:
            self._loads.pop(table_id, None)

    def in_memory(self) -> set[str]:
        """The ids of the tables in this process's memory or being loaded into it."""
        return set(self.tables) | set(self._loads)

    def serving_again(self) -> None:
        """Redis answers again after an outage (server/cluster.py): every table here gives its absent players
        their whole grace from now."""
        for t in list(self.tables.values()):
            t.serving_again()

    def unload(self, table_id: str) -> None:
        """The table leaves memory at once (its lease was lost, server/cluster.py): it changes and writes nothing
        any more, its computer player and watchdog stop, and its connections join it again where it is now
        (``moved``: server/relay.py), or are closed."""
        if table_id in self.tables:
            log.warning("cluster: table %s is no longer owned by this process", table_id)
            self._drop(table_id)

    def reload(self, table_id: str) -> None:
        """This copy of the table is behind its stored events (a former owner's late write, server/cluster.py):
        it leaves memory as in :meth:`unload`, and is rebuilt from the store at once; its connections join the
        new copy (they share its load)."""
        self._drop(table_id)
        if table_id not in self._loads and not self.closing:
            task = self._loads[table_id] = asyncio.create_task(self._load(table_id))
            task.add_done_callback(_log_failed_load)

    def _drop(self, table_id: str) -> None:
        t = self.tables.pop(table_id, None)
        if t is None:
            return
        t.unloaded = True
        for task in (t.watch_task, t.bot_task):
            if task is not None:
                task.cancel()
        conns: list[Any] = list(t.conns)
        t.conns.clear()
        for c in conns:
            moved = getattr(c, "moved", None)
            if moved is not None:
                moved(t.n)
            else:
                c.send_close()

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
        if self.cluster is not None:
            await self.cluster.stop()
        await self.store.close()

    def computer_tables(self, ip: str | None = None) -> int:
        """Tables of computer players only that are running in this process (created from ``ip``, if given)."""
        return sum(
            1 for t in self.tables.values()
            if t.status in ("waiting", "playing") and t.computer_only() and (ip is None or t.owner_ip == ip)
        )

    async def create_table(
        self, spec: Any, owner_ip: str = "", duplicate: dict[str, str] | None = None, event: str | None = None
    ) -> dict[str, Any]:
        """Create a table from a request body (see docs/protocol.md): returns its id, the seats' tokens and the
        creator token (the tournament director's: time-out). ``owner_ip`` (the creator's address, as the rate
        limits key it) counts against the caps on tables of computer players only. ``duplicate`` (the desk's
        duplicate events only, never a request's field: whoever knows it knows every hand) is ``{"secret": <the
        event's 256-bit secret, hex>, "label": <its round's label>}``: hand ``i`` is then the procedure's deal of
        them with no contributions, the same at every table of the round (docs/fairness.md). ``event``: the
        director's event whose round this table plays (the desk only): one match, no rematch."""
        if not isinstance(spec, dict):
            raise ClientError("bad_request", msg("srv_body_object"))
        from ..rules import PRESETS, RulesError, preset

        name = spec.get("preset", "italian")
        if not isinstance(name, str) or name not in PRESETS:
            raise ClientError("bad_request", msg("srv_unknown_preset", preset=str(name), presets=", ".join(PRESETS)))
        overrides: dict[str, Any] = {}
        for key, field_name in (("players", "players"), ("target", "target"), ("hands", "hands_per_match")):
            v = spec.get(key)
            if v is not None:
                if not isinstance(v, int) or isinstance(v, bool) or v <= 0:
                    raise ClientError("bad_request", msg("srv_positive", field=key))
                overrides[field_name] = v
        try:
            rules = preset(name, **overrides)
        except RulesError as e:
            raise ClientError("bad_request", msg("srv_rules", error=str(e))) from e
        n = rules.players
        names = seat_names(n)
        seat_specs = spec.get("seats")
        if seat_specs is None:
            seat_specs = [{"kind": "human"}] + [{"kind": "computer"}] * (n - 1)
        if not isinstance(seat_specs, list) or len(seat_specs) != n:
            raise ClientError("bad_request", msg("srv_seats_count", n=n, seats=" ".join(names)))
        clock = spec.get("clock", 0)
        grace = spec.get("grace", self.config.grace)
        for key, v in (("clock", clock), ("grace", grace)):
            if not isinstance(v, int | float) or isinstance(v, bool) or not 0 <= v <= 3600:
                raise ClientError("bad_request", msg("srv_seconds", field=key))
        seats: list[Seat] = []
        tokens: dict[str, str] = {}
        for i, ss in enumerate(seat_specs):
            if not isinstance(ss, dict):
                raise ClientError("bad_request", msg("srv_seat_object"))
            kind = ss.get("kind")
            if kind not in ("human", "computer", "open"):
                raise ClientError("bad_request", msg("srv_seat_kind", seat=names[i]))
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
                    "rate_limited", msg("srv_computer_tables_ip", n=self.config.computer_tables_per_ip),
                )
            if self.computer_tables() >= self.config.computer_tables:
                raise ClientError("rate_limited", msg("srv_computer_tables"))
        rated = spec.get("rated", False)
        if not isinstance(rated, bool):
            raise ClientError("bad_request", msg("srv_field_bool", field="rated"))
        if rated and (duplicate is not None or not any(x.kind in ("human", "open") for x in seats)):
            raise ClientError("bad_request", msg("srv_rated_needs"))
        creator = secrets.token_urlsafe(18)
        config = {
            "rules": rules_to_json(rules),
            "name": clean_name(spec.get("name"), f"{rules.name} table"),
            "clock": clock,
            "grace": grace,
            "takeover": check_level(spec.get("takeover")),
            "listed": bool(spec.get("listed", True)),
            # (1.6) a player alone against computers may take back his last plays (docs/fairness.md)
            "takebacks": bool(spec.get("takebacks", True)) and not rated,
            # rated: accounts only, one seat each; its games move ratings (docs/accounts.md "Ratings")
            "rated": rated,
            # a rated table that accepts bot accounts: its games are rated in the pool's "-bots" twin
            "bots": rated and spec.get("bots") is True,
            "creator_hash": token_hash(creator),
        }
        if duplicate is not None:
            config["duplicate"] = {"secret": str(duplicate["secret"]), "label": str(duplicate["label"])}
        if event is not None:
            config["event"] = event
        table_id = secrets.token_urlsafe(6).replace("-", "x").replace("_", "y")
        first = {"name": config["name"], "rules": config["rules"],
                 "seats": [{"kind": s.kind, "name": s.name} for s in seats]}
        now = time.time()
        if self.cluster is not None and await self.cluster.claim(table_id) != self.cluster.node:
            raise ClientError("server_error", msg("srv_redis_register"))
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


def _log_failed_load(task: asyncio.Task[Table | None]) -> None:
    if not task.cancelled() and task.exception() is not None:
        log.error("a table could not be rebuilt from the store", exc_info=task.exception())


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


"""Several server processes sharing the tables (``--redis``; docs/deploy.md): Redis between them, PostgreSQL
under them.

* **One owner per table.** A process owns a table while it holds the table's lease in Redis: the key
  ``burraco:lease:ID`` set with ``SET NX PX`` (its value: the process's id) and renewed every third of
  ``lease_ttl`` by a script that extends it only if it still holds that value. Only the owner has the table in
  memory, runs its clock and computer players, and writes its events; it stops writing as soon as it cannot be
  sure the lease is still its own (:meth:`Cluster.check_write`; the events' primary key (table, number) is the
  store's own guard against a second writer).
* **Any process accepts any websocket.** A connection whose table another process owns is relayed: each of its
  messages (the ``hello`` first) goes to the owner's inbox channel ``burraco:node:NODE``, the owner handles it
  exactly like one of its own connections' (:class:`RemoteConn`) and everything it sends to that connection,
  broadcasts included, is published in order on the table's channel ``burraco:table:ID``; every process with
  connections at the table forwards them (:class:`Relay`). Events keep their numbers: they are the owner's.
* **Take-over.** Every process looks, every third of the lease, for tables in play whose lease nobody holds (their
  owner died or lost Redis) and takes them: it rebuilds them from the stored events, clocks and computer players
  included (:meth:`Hub.get <burraco.server.hub.Hub.get>`). The relayed connections of a table whose owner changed
  are closed (code 1012); clients reconnect with their last event number and get exactly the events they missed.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

import redis.asyncio as aioredis

from .config import ServerConfig
from .events import TableGone, encode
from .ratelimit import Bucket

if TYPE_CHECKING:
    from .hub import Hub
    from .tables import Table

log = logging.getLogger("burraco.server")

#: extend a lease only while it is still ours (KEYS[1]: the lease, ARGV[1]: our id, ARGV[2]: milliseconds)
RENEW = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) else return 0 end"
#: give a lease up only while it is still ours
RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end"
#: the close code a relayed connection gets when its table changes owner (reconnect: "service restart")
MOVED_CODE = 1012
CLOSE = "\x00close"
MOVED = "\x00moved"


def lease_key(table_id: str) -> str:
    return f"burraco:lease:{table_id}"


def alive_key(node: str) -> str:
    return f"burraco:alive:{node}"


def node_channel(node: str) -> str:
    return f"burraco:node:{node}"


def table_channel(table_id: str) -> str:
    return f"burraco:table:{table_id}"


class ClusterError(RuntimeError):
    """Redis does not answer where several processes need it."""


class RemoteConn:
    """On the owner: a connection accepted by another process (a :class:`~burraco.server.events.Sink`). What
    the table sends it is published on the table's channel, tagged with the session's id."""

    def __init__(self, cluster: Cluster, sid: str, table_id: str, front: str, ip: str) -> None:
        cfg = cluster.config
        self.cluster = cluster
        self.sid = sid
        self.table_id = table_id
        self.front = front
        self.ip = ip
        self.seat: int | None = None
        self.table: Table | None = None
        self.lang = "en"
        self.bucket = Bucket(cfg.conn_rate, cfg.conn_burst)
        self.closed = False
        self.inbox: asyncio.Queue[str | None] = asyncio.Queue()
        self.task: asyncio.Task[None] | None = None

    def send(self, msg: dict[str, Any] | str) -> None:
        if not self.closed:
            self.cluster.publish(table_channel(self.table_id), f"{self.sid} {msg if isinstance(msg, str) else encode(msg)}")

    def send_close(self) -> None:
        if not self.closed:
            self.cluster.publish(table_channel(self.table_id), f"{self.sid} {CLOSE}")
        self.closed = True


class Relay:
    """On the process that accepted a websocket: the connection's session with the table's owner."""

    def __init__(self, sid: str, table_id: str, owner: str, conn: Any) -> None:
        self.sid = sid
        self.table_id = table_id
        self.owner = owner
        self.conn = conn  # the app's Connection: send(text), send_close(), close_code


class Cluster:
    """This process among the others: its id, its leases, its relayed connections (both ways)."""

    def __init__(self, config: ServerConfig, hub: Hub) -> None:
        self.config = config
        self.hub = hub
        self.node = secrets.token_hex(6)
        self.ttl_ms = max(300, int(config.lease_ttl * 1000))
        # a blocking pool: a burst of claims waits for a connection instead of failing (redis-py's plain pool
        # refuses past its size). Generous timeouts: a busy event loop reads late, and the leases' safety does
        # not depend on them (a lease counts from the time its renewal was sent)
        pool = aioredis.BlockingConnectionPool.from_url(
            config.redis_url, decode_responses=True, max_connections=64, timeout=max(2.0, 2 * config.lease_ttl),
            socket_timeout=max(1.0, config.lease_ttl), socket_connect_timeout=max(0.5, config.lease_ttl / 3))
        self.redis: aioredis.Redis = aioredis.Redis(connection_pool=pool)
        self.pubsub = self.redis.pubsub()
        self.valid: dict[str, float] = {}  # owned table -> monotonic time until which the lease is surely ours
        self.claimed: dict[str, float] = {}  # owned table -> when this process took the lease
        self.remote: dict[str, RemoteConn] = {}  # owner side: session id -> connection
        self.relays: dict[str, Relay] = {}  # front side: session id -> relay
        self.by_table: dict[str, set[str]] = {}  # front side: table -> its relayed sessions here
        self._out: asyncio.Queue[tuple[str, str]] = asyncio.Queue()
        self._tasks: list[asyncio.Task[None]] = []
        self._taking: set[str] = set()
        self._subs: dict[str, asyncio.Future[None]] = {}  # table channel -> confirmed by Redis
        self._sub_lock = asyncio.Lock()
        self.handler: Callable[[Any, str], Awaitable[dict[str, Any] | None]] | None = None
        self.closing = False

    # ----- life ---------------------------------------------------------------------------------------------------
    async def start(self, handler: Callable[[Any, str], Awaitable[dict[str, Any] | None]]) -> None:
        """Connect to Redis (refused with a clear error when it does not answer), announce this process and start
        the reader, the publisher, the lease renewal and the take-over scan. ``handler`` answers one message of
        a relayed connection as the app answers its own (the reply, or None)."""
        self.handler = handler
        try:
            await self.redis.ping()
        except Exception as e:
            raise ClusterError(f"Redis does not answer at {self.config.redis_url}: {e}") from e
        await self.redis.set(alive_key(self.node), "1", px=self.ttl_ms)
        await self.pubsub.subscribe(node_channel(self.node))
        for coro in (self._reader(), self._publisher(), self._renewer(), self._scanner()):
            self._tasks.append(asyncio.create_task(coro))

    async def stop(self) -> None:
        """A clean shutdown (call once the hub stopped its tables): tell the relaying processes that the tables
        moved, give the leases up at once (another process takes them without waiting for them to expire)."""
        self.closing = True
        with contextlib.suppress(Exception):
            owned = list(self.valid)
            for tid in owned:
                self.publish(table_channel(tid), f"* {MOVED}")
            await self._flush()
            pipe = self.redis.pipeline(transaction=False)
            for tid in owned:
                pipe.eval(RELEASE, 1, lease_key(tid), self.node)
            pipe.delete(alive_key(self.node))
            await pipe.execute()
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        for r in list(self.relays.values()):
            r.conn.close_code = MOVED_CODE
            r.conn.send_close()
        with contextlib.suppress(Exception):
            await self.pubsub.aclose()  # type: ignore[no-untyped-call]
        with contextlib.suppress(Exception):
            await self.redis.aclose()

    async def _flush(self) -> None:
        for _ in range(200):
            if self._out.empty():
                return
            await asyncio.sleep(0.01)

    # ----- leases -------------------------------------------------------------------------------------------------
    async def claim(self, table_id: str) -> str | None:
        """Take the table's lease if nobody holds it; returns the owner's id (ours when we hold it now), or None
        when Redis does not answer."""
        start = time.monotonic()
        try:
            for _ in range(3):
                if await self.redis.set(lease_key(table_id), self.node, nx=True, px=self.ttl_ms):
                    self.valid[table_id] = start + 0.8 * self.config.lease_ttl
                    self.claimed[table_id] = start
                    return self.node
                owner = await self.redis.get(lease_key(table_id))
                if owner is not None:
                    if owner == self.node and table_id not in self.valid:
                        self.valid[table_id] = start + 0.8 * self.config.lease_ttl
                        self.claimed[table_id] = start
                    return str(owner)
        except Exception:
            log.warning("cluster: Redis did not answer a claim of table %s", table_id, exc_info=True)
        return None

    def owns(self, table_id: str) -> bool:
        return self.valid.get(table_id, 0.0) > time.monotonic()

    def check_write(self, table_id: str) -> None:
        """Raise :class:`TableGone` unless this process surely still holds the table's lease (called before every
        write of the table's events)."""
        if not self.owns(table_id):
            raise TableGone(table_id)

    def release(self, table_id: str) -> None:
        """The table left memory here (closed and idle): give its lease up."""
        self.valid.pop(table_id, None)
        self.claimed.pop(table_id, None)

        async def go() -> None:
            with contextlib.suppress(Exception):
                await self.redis.eval(RELEASE, 1, lease_key(table_id), self.node)

        if not self.closing:
            self._tasks.append(asyncio.create_task(go()))

    def lost(self, table_id: str) -> None:
        """The lease is no longer ours: the table leaves memory, its connections are closed (they reconnect and
        reach the new owner)."""
        self.valid.pop(table_id, None)
        self.claimed.pop(table_id, None)
        t = self.hub.tables.pop(table_id, None)
        if t is None:
            return
        log.warning("cluster: table %s is no longer owned by this process", table_id)
        t.unloaded = True
        for task in (t.watch_task, t.bot_task):
            if task is not None:
                task.cancel()
        for c in list(t.conns):
            if hasattr(c, "close_code"):
                c.close_code = MOVED_CODE
            c.send_close()  # type: ignore[attr-defined]
        t.conns.clear()

    async def _renewer(self) -> None:
        every = self.config.lease_ttl / 3
        while True:
            await asyncio.sleep(every)
            start = time.monotonic()
            busy = set(self.hub.tables) | set(self.hub._loads) | self._taking
            for tid in [tid for tid in self.valid if tid not in busy]:
                if start - self.claimed.get(tid, start) > every:  # claimed, but never loaded (no such table)
                    self.release(tid)
            owned = list(self.valid)
            fronts = sorted({rc.front for rc in self.remote.values()})
            try:
                pipe = self.redis.pipeline(transaction=False)
                pipe.set(alive_key(self.node), "1", px=self.ttl_ms)
                for tid in owned:
                    pipe.eval(RENEW, 1, lease_key(tid), self.node, str(self.ttl_ms))
                for f in fronts:
                    pipe.exists(alive_key(f))
                held = {tid: lease_key(tid) for tid in self.by_table}
                for key in held.values():
                    pipe.get(key)
                out = await pipe.execute()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.warning("cluster: Redis does not answer: tables whose lease may have run out are let go")
                now = time.monotonic()
                for tid in owned:
                    if self.valid.get(tid, 0.0) <= now:
                        self.lost(tid)
                for r in list(self.relays.values()):  # their events may be lost on the way: reconnect
                    self._end_relay(r)
                continue
            res = out[1:1 + len(owned)]
            for tid, ok in zip(owned, res, strict=True):
                if ok:
                    if tid in self.valid:
                        self.valid[tid] = start + 0.8 * self.config.lease_ttl
                else:
                    self.lost(tid)
            alive = out[1 + len(owned):1 + len(owned) + len(fronts)]
            for f, up in zip(fronts, alive, strict=True):
                if not up:  # that process died: its connections here are gone
                    for rc in [rc for rc in self.remote.values() if rc.front == f]:
                        self._drop_remote(rc)
            owners = out[1 + len(owned) + len(fronts):]
            for tid, owner in zip(held, owners, strict=True):
                for sid in list(self.by_table.get(tid, ())):
                    rel = self.relays.get(sid)
                    if rel is not None and rel.owner != owner:
                        self._end_relay(rel)

    async def _scanner(self) -> None:
        """Take over the tables in play that nobody owns (their owner died): rebuilt from the stored events."""
        every = self.config.lease_ttl / 3
        while True:
            await asyncio.sleep(every)  # the first pass once the hub has migrated the store
            try:
                ids = [i for i in await self.hub.store.table_ids(("playing",)) if i not in self.hub.tables]
                if ids:
                    leases = await self.redis.mget([lease_key(i) for i in ids])
                    for tid, owner in zip(ids, leases, strict=True):
                        if owner is None and tid not in self._taking and not self.closing:
                            self._taking.add(tid)
                            self._tasks.append(asyncio.create_task(self._take_over(tid)))
            except asyncio.CancelledError:
                raise
            except Exception:
                log.warning("cluster: the take-over scan failed", exc_info=True)
            self._tasks = [t for t in self._tasks if not t.done()]

    async def _take_over(self, table_id: str) -> None:
        try:
            if await self.claim(table_id) == self.node:
                log.info("cluster: taking table %s over", table_id)
                await self.hub.get(table_id, touch=False)
        except Exception:
            log.exception("cluster: table %s could not be taken over", table_id)
        finally:
            self._taking.discard(table_id)

    # ----- messages between processes -----------------------------------------------------------------------------
    def publish(self, channel: str, text: str) -> None:
        """Queue a message for a channel: one publisher sends them all, in this order."""
        self._out.put_nowait((channel, text))

    async def _publisher(self) -> None:
        while True:
            batch = [await self._out.get()]
            while not self._out.empty() and len(batch) < 500:
                batch.append(self._out.get_nowait())
            try:
                pipe = self.redis.pipeline(transaction=False)
                for ch, text in batch:
                    pipe.publish(ch, text)
                await pipe.execute()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.warning("cluster: messages to other processes were lost: their connections reconnect")
                for rc in list(self.remote.values()):
                    self._drop_remote(rc)
                for r in list(self.relays.values()):
                    self._end_relay(r)

    async def _reader(self) -> None:
        while True:
            try:
                m = await self.pubsub.get_message(ignore_subscribe_messages=False, timeout=1.0)
            except asyncio.CancelledError:
                raise
            except Exception:
                await asyncio.sleep(0.2)
                continue
            if m is not None and m.get("type") == "subscribe":  # Redis has it: the relays may start
                fut = self._subs.get(str(m["channel"]))
                if fut is not None and not fut.done():
                    fut.set_result(None)
                continue
            if m is None or m.get("type") != "message":
                continue
            ch = str(m["channel"])
            data = str(m["data"])
            try:
                if ch == node_channel(self.node):
                    self._inbox(json.loads(data))
                else:
                    self._from_owner(ch.removeprefix("burraco:table:"), data)
            except Exception:
                log.exception("cluster: a message on %s could not be handled", ch)

    # owner side ------------------------------------------------------------------------------------------------------
    def _inbox(self, m: dict[str, Any]) -> None:
        sid = str(m["sid"])
        op = m["op"]
        if op == "open":
            rc = RemoteConn(self, sid, str(m["table"]), str(m["front"]), str(m["ip"]))
            self.remote[sid] = rc
            rc.task = asyncio.create_task(self._serve_remote(rc))
            return
        rc2 = self.remote.get(sid)
        if rc2 is None:
            if op == "msg":  # a session this process does not know (it restarted): the client reconnects
                self.publish(table_channel(str(m.get("table", ""))), f"{sid} {CLOSE}")
            return
        rc2.inbox.put_nowait(str(m["text"]) if op == "msg" else None)

    async def _serve_remote(self, rc: RemoteConn) -> None:
        """A relayed connection's messages, one at a time and in order, answered as the app answers its own."""
        assert self.handler is not None
        from .app import with_text

        try:
            while True:
                text = await rc.inbox.get()
                if text is None or rc.closed:
                    break
                if rc.table is None and not self.owns(rc.table_id):
                    # the table is not (or no longer) ours: the client reconnects and finds its owner
                    rc.send_close()
                    break
                reply = await self.handler(rc, text)
                if reply is not None:
                    rc.send(with_text(reply, rc.lang))
        finally:
            self._drop_remote(rc, cancel=False)

    def _drop_remote(self, rc: RemoteConn, cancel: bool = True) -> None:
        self.remote.pop(rc.sid, None)
        if rc.table is not None:
            rc.table.detach(rc)
        rc.closed = True
        if cancel and rc.task is not None:
            rc.task.cancel()

    # front side ------------------------------------------------------------------------------------------------------
    async def owner_of(self, table_id: str) -> str | None:
        """Who serves ``table_id`` for a connection arriving here: None for this process (it holds the lease now,
        or nobody answers in Redis: the caller refuses), else the owner's id. A lease whose process is gone is
        waited out (at most ``lease_ttl``), then taken."""
        deadline = time.monotonic() + self.config.lease_ttl + 1.0
        while True:
            owner = await self.claim(table_id)
            if owner is None:
                raise ClusterError("Redis does not answer: try again")
            if owner == self.node:
                return None
            if await self.redis.exists(alive_key(owner)) or time.monotonic() > deadline:
                return owner
            await asyncio.sleep(0.2)

    async def open_relay(self, conn: Any, table_id: str, owner: str, hello_text: str) -> Relay:
        """Relay ``conn`` (which just sent ``hello_text``) to the table's owner."""
        sid = secrets.token_hex(8)
        r = Relay(sid, table_id, owner, conn)
        self.by_table.setdefault(table_id, set()).add(sid)
        self.relays[sid] = r
        try:
            await self._subscribe(table_id)
        except Exception as e:
            self.relays.pop(sid, None)
            self._forget(r)
            raise ClusterError(f"Redis did not confirm the table's channel: try again ({e!r})") from e
        self.publish(node_channel(owner), encode(
            {"op": "open", "sid": sid, "table": table_id, "front": self.node, "ip": conn.ip}))
        self.forward(r, hello_text)
        return r

    def forward(self, r: Relay, text: str) -> None:
        """A message of a relayed connection, to the owner."""
        self.publish(node_channel(r.owner), encode({"op": "msg", "sid": r.sid, "table": r.table_id, "text": text}))

    def close_relay(self, r: Relay) -> None:
        """The relayed websocket closed here: the owner forgets the connection."""
        if self.relays.pop(r.sid, None) is None:
            return
        self.publish(node_channel(r.owner), encode({"op": "close", "sid": r.sid}))
        self._forget(r)

    def _forget(self, r: Relay) -> None:
        sids = self.by_table.get(r.table_id)
        if sids is not None:
            sids.discard(r.sid)
            if not sids:
                del self.by_table[r.table_id]
                if not self.closing:
                    self._tasks.append(asyncio.create_task(self._unsubscribe(r.table_id)))

    async def _subscribe(self, table_id: str) -> None:
        """Subscribe to the table's channel and wait until Redis confirmed it (every relay of the table waits:
        nothing the owner sends after the relay's first message can be missed)."""
        ch = table_channel(table_id)
        async with self._sub_lock:
            fut = self._subs.get(ch)
            if fut is None:
                fut = self._subs[ch] = asyncio.get_running_loop().create_future()
                await self.pubsub.subscribe(ch)
        await asyncio.wait_for(asyncio.shield(fut), max(2.0, self.config.lease_ttl))

    async def _unsubscribe(self, table_id: str) -> None:
        with contextlib.suppress(Exception):
            async with self._sub_lock:
                ch = table_channel(table_id)
                if table_id not in self.by_table and ch in self._subs:
                    del self._subs[ch]
                    await self.pubsub.unsubscribe(ch)

    def _end_relay(self, r: Relay) -> None:
        """The table changed owner (or the way to it failed): close the websocket; the client reconnects with
        its last event number."""
        self.relays.pop(r.sid, None)
        self._forget(r)
        r.conn.close_code = MOVED_CODE
        r.conn.send_close()

    def _from_owner(self, table_id: str, data: str) -> None:
        sid, _, text = data.partition(" ")
        if sid == "*":
            if text == MOVED:
                for s in list(self.by_table.get(table_id, ())):
                    r = self.relays.get(s)
                    if r is not None:
                        self._end_relay(r)
            return
        r = self.relays.get(sid)
        if r is None:
            return
        if text == CLOSE:
            self._end_relay(r)
        else:
            r.conn.send(text)

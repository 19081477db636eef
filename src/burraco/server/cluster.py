"""Several server processes sharing the tables (``--redis``; docs/deploy.md): Redis between them, PostgreSQL
under them. This module holds who owns which table; the relaying of connections between the processes is
server/relay.py's.

* **One owner per table.** A process owns a table while it holds the table's lease in Redis: the key
  ``burraco:lease:ID`` set with ``SET NX PX`` (its value: the process's id) and renewed every third of
  ``lease_ttl`` by a script that extends it only if it still holds that value. Only the owner has the table in
  memory, runs its clock and computer players, and writes its events; it writes only while it is sure the lease
  is still its own (:meth:`Cluster.ensure_write`: a renewal that came late is done then, before anything is
  refused; the events' primary key (table, number) is the store's own guard against a second writer).
* **Take-over.** Every process looks, every third of the lease, for tables in play whose lease nobody holds (their
  owner died or lost Redis) and takes them: it rebuilds them from the stored events, clocks and computer players
  included (:meth:`Hub.get <burraco.server.hub.Hub.get>`). The connections at a table that left a process join
  it again where it is now (server/relay.py), without closing their websockets.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from typing import TYPE_CHECKING, Any, Protocol

import redis.asyncio as aioredis

from .config import ServerConfig
from .events import TableGone

if TYPE_CHECKING:
    from .hub import Hub

log = logging.getLogger("burraco.server")

#: extend a lease only while it is still ours (KEYS[1]: the lease, ARGV[1]: our id, ARGV[2]: milliseconds)
RENEW = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) else return 0 end"
#: give a lease up only while it is still ours
RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end"
#: the close code of a websocket whose table no process can take now (reconnect: "service restart")
MOVED_CODE = 1012


def lease_key(table_id: str) -> str:
    return f"burraco:lease:{table_id}"


def alive_key(node: str) -> str:
    return f"burraco:alive:{node}"


def node_channel(node: str) -> str:
    return f"burraco:node:{node}"


class ClusterError(RuntimeError):
    """Redis does not answer where several processes need it."""


class Forwarding(Protocol):
    """What the leases need of the relaying (server/relay.py's :class:`~burraco.server.relay.Relays`)."""

    async def stop_serving(self) -> None: ...

    def tables_moved(self, table_ids: list[str]) -> None: ...

    async def flush(self, timeout: float = 2.0) -> None: ...

    async def close(self) -> None: ...


class Cluster:
    """This process among the others: its id, its Redis connection and its leases."""

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
        self.valid: dict[str, float] = {}  # owned table -> monotonic time until which the lease is surely ours
        self.claimed: dict[str, float] = {}  # owned table -> when this process took the lease
        self.relays: Forwarding | None = None  # set by server/relay.py's Relays
        self._tasks: list[asyncio.Task[None]] = []
        self._taking: set[str] = set()
        self._renewing: dict[str, asyncio.Task[bool]] = {}
        self.closing = False

    # ----- life ---------------------------------------------------------------------------------------------------
    async def start(self) -> None:
        """Connect to Redis (refused with a clear error when it does not answer), announce this process and start
        the lease renewal and the take-over scan."""
        try:
            await self.redis.ping()
        except Exception as e:
            raise ClusterError(f"Redis does not answer at {self.config.redis_url}: {e}") from e
        await self.redis.set(alive_key(self.node), "1", px=self.ttl_ms)
        for coro in (self._renewer(), self._scanner()):
            self._tasks.append(asyncio.create_task(coro))

    async def stop(self) -> None:
        """A clean shutdown (call once the hub stopped its tables): no relayed message is handled any more, the
        leases are given up at once (another process takes them without waiting for them to expire), then the
        processes relaying connections to these tables are told that they moved."""
        self.closing = True
        owned = list(self.valid)
        self.valid.clear()
        if self.relays is not None:
            await self.relays.stop_serving()
        with contextlib.suppress(Exception):
            pipe = self.redis.pipeline(transaction=False)
            for tid in owned:
                pipe.eval(RELEASE, 1, lease_key(tid), self.node)
            pipe.delete(alive_key(self.node))
            await pipe.execute()
        if self.relays is not None:
            self.relays.tables_moved(owned)
            await self.relays.flush()
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        if self.relays is not None:
            await self.relays.close()
        with contextlib.suppress(Exception):
            await self.redis.aclose()

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

    async def ensure_write(self, table_id: str) -> None:
        """Raise :class:`TableGone` unless this process surely still holds the table's lease (awaited before every
        write of the table's events). A lease whose renewal is late (a busy event loop) is renewed now, before
        anything is refused: only a lease another process took, or Redis not answering, refuses."""
        if self.owns(table_id):
            return
        if self.closing or table_id not in self.valid:
            raise TableGone(table_id)
        task = self._renewing.get(table_id)
        if task is None:  # one renewal for every write waiting on this table
            task = self._renewing[table_id] = asyncio.create_task(self._renew_one(table_id))
        if not await asyncio.shield(task) or not self.owns(table_id):
            raise TableGone(table_id)

    async def _renew_one(self, table_id: str) -> bool:
        start = time.monotonic()
        try:
            ok = await self.redis.eval(RENEW, 1, lease_key(table_id), self.node, str(self.ttl_ms))
        except Exception:
            log.warning("cluster: Redis did not answer the renewal of table %s", table_id)
            return False
        finally:
            self._renewing.pop(table_id, None)
        if ok and table_id in self.valid:
            self.valid[table_id] = max(self.valid[table_id], start + 0.8 * self.config.lease_ttl)
            return True
        if not ok:
            self.lost(table_id)
        return False

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
        """The lease is no longer ours: the table leaves memory; its connections join it again where it is now
        (``moved``: server/relay.py), or are closed."""
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
        conns: list[Any] = list(t.conns)
        t.conns.clear()
        for c in conns:
            moved = getattr(c, "moved", None)
            if moved is not None:
                moved(t.n)
            else:
                c.send_close()

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
            try:
                pipe = self.redis.pipeline(transaction=False)
                pipe.set(alive_key(self.node), "1", px=self.ttl_ms)
                for tid in owned:
                    pipe.eval(RENEW, 1, lease_key(tid), self.node, str(self.ttl_ms))
                out = await pipe.execute()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.warning("cluster: Redis does not answer: tables whose lease may have run out are let go")
                now = time.monotonic()
                for tid in owned:
                    if self.valid.get(tid, 0.0) <= now:
                        self.lost(tid)
                continue
            for tid, ok in zip(owned, out[1:], strict=True):
                if ok:
                    if tid in self.valid:
                        self.valid[tid] = max(self.valid[tid], start + 0.8 * self.config.lease_ttl)
                else:
                    self.lost(tid)

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

    async def owner_of(self, table_id: str) -> str | None:
        """Who serves ``table_id`` for a connection arriving here: None for this process (it holds the lease now),
        else the owner's id; :class:`ClusterError` when Redis does not answer. A lease whose process is gone is
        waited out (at most ``lease_ttl``), then taken."""
        if self.closing:
            raise ClusterError("this process is stopping: try again")
        deadline = time.monotonic() + self.config.lease_ttl + 1.0
        while True:
            owner = await self.claim(table_id)
            if owner is None:
                raise ClusterError("Redis does not answer: try again")
            if owner == self.node:
                return None
            try:
                up = await self.redis.exists(alive_key(owner))
            except Exception as e:
                raise ClusterError("Redis does not answer: try again") from e
            if up or time.monotonic() > deadline:
                return owner
            await asyncio.sleep(0.2)

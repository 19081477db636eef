"""Several server processes sharing the tables (``--redis``; docs/deploy.md): Redis between them, PostgreSQL
under them. This module holds who owns which table; the relaying of connections between the processes is
server/relay.py's.

* **One owner per table.** A process owns a table while it holds the table's lease in Redis: the key
  ``burraco:lease:ID`` set with ``SET NX PX`` (its value: the process's id) and renewed every third of
  ``lease_ttl`` by a script that extends it only if it still holds that value, from a thread of its own (a busy
  event loop does not delay the renewal). Only the owner has the table in
  memory, runs its clock and computer players, and writes its events; it writes only while it is sure the lease
  is still its own (:meth:`Cluster.ensure_write`: a renewal that came late is done then, before anything is
  refused; the events' primary key (table, number) is the store's own guard against a second writer).
* **A late write.** A write let through before its process was paused past the lease may land after another
  process took the table: the primary key lets one of the two writes of an event number in, and the process
  whose write is refused lets the table go (the lease is another's) or rebuilds it from the store (the lease is
  its own, the store is ahead of its copy): :meth:`Cluster.write_failed`.
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
import threading
import time
from typing import Any, Protocol

import redis.asyncio as aioredis

from .config import ServerConfig
from .events import TableGone
from .store import Store

log = logging.getLogger("burraco.server")

#: extend a lease only while it is still ours (KEYS[1]: the lease, ARGV[1]: our id, ARGV[2]: milliseconds)
RENEW = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) else return 0 end"
#: give a lease up only while it is still ours
RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end"
#: the close code of a websocket whose table no process can take now (reconnect: "service restart")
MOVED_CODE = 1012


class ClusterHost(Protocol):
    """What the leases need of the hub of their process (server/hub.py's ``Hub``): the store, the tables it holds
    or is loading, loading one, and letting one go."""

    @property
    def store(self) -> Store: ...

    def in_memory(self) -> set[str]:
        """The ids of the tables in this process's memory or being loaded into it."""
        ...

    async def get(self, table_id: str, touch: bool = True) -> Any: ...

    def unload(self, table_id: str) -> None:
        """The table leaves this process's memory at once (its lease was lost): it changes and writes nothing
        any more, and its connections join it again where it is now, or are closed."""
        ...

    def reload(self, table_id: str) -> None:
        """This process's copy of the table is behind its stored events (another process wrote): it leaves memory
        at once, its connections join it again, and it is rebuilt from the store (the lease stays ours)."""
        ...

    def serving_again(self) -> None:
        """Redis answers again after an outage: every table here gives its absent players their whole grace."""
        ...


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

    def __init__(self, config: ServerConfig, hub: ClusterHost) -> None:
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
        #: the leases are renewed by a thread (:meth:`_renew_thread`); ``valid`` entries are removed under this lock
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self._thread: threading.Thread | None = None
        #: since when Redis has not answered this process (monotonic), None while it does: a seat's grace does
        #: not run meanwhile (:meth:`serving`), and restarts when Redis answers again
        self.down_since: float | None = None

    @property
    def serving(self) -> bool:
        """Whether Redis answers this process: only then can it serve a seat whose player is away (he may be
        waiting for Redis to join the table again), so only then does that seat's grace time run."""
        return self.down_since is None

    def _down(self) -> None:
        if self.down_since is None:
            self.down_since = time.monotonic()

    def _up(self) -> None:
        """Redis answers again: every table owned here gives its away players their whole grace from now."""
        if self.down_since is None:
            return
        log.warning("cluster: Redis answers again after %.1f s", time.monotonic() - self.down_since)
        self.down_since = None
        self.hub.serving_again()

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
        self._thread = threading.Thread(target=self._renew_thread, args=(asyncio.get_running_loop(),),
                                        name=f"burraco-leases-{self.node}", daemon=True)
        self._thread.start()

    async def stop(self) -> None:
        """A clean shutdown (call once the hub stopped its tables): no relayed message is handled any more, the
        leases are given up at once (another process takes them without waiting for them to expire), then the
        processes relaying connections to these tables are told that they moved."""
        self.closing = True
        self._stopping.set()
        if self._thread is not None:
            await asyncio.to_thread(self._thread.join, 2 * self.config.lease_ttl)
        owned = list(self.valid)
        with self._lock:
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
            self._down()
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
        if not await self._renew_shared(table_id) or not self.owns(table_id):
            raise TableGone(table_id)

    async def _renew_shared(self, table_id: str) -> bool:
        """Renew the lease now (one renewal for every write waiting on this table); False where it is not ours
        any more (the table was let go) or Redis did not answer."""
        task = self._renewing.get(table_id)
        if task is None:
            task = self._renewing[table_id] = asyncio.create_task(self._renew_one(table_id))
        return await asyncio.shield(task)

    async def write_failed(self, table_id: str, n: int) -> None:
        """The write of the table's events after event ``n`` failed (after :meth:`ensure_write` let it through).
        Raise :class:`TableGone` where another process wrote: the lease is not ours any more (this process was
        paused or starved past it: the table leaves memory, its connections join it where it is now), or it is,
        but the store has events after ``n`` that this copy lacks (a former owner, paused past its lease while
        a write was on its way, committed it after this process rebuilt the table: the events' primary key let
        only one of the two writes in; this copy is rebuilt from the store, its connections join it again).
        Return where the failure is another one (the caller's error stands)."""
        if self.closing or table_id not in self.valid:
            raise TableGone(table_id)
        await self._renew_shared(table_id)
        if table_id not in self.valid:  # the lease is another process's: let go (Cluster.lost)
            raise TableGone(table_id)
        try:
            last = await self.hub.store.last_event(table_id)
        except Exception:
            return
        if last > n:
            log.warning("cluster: table %s has events after %d written by a former owner: it is rebuilt from the "
                        "store", table_id, n)
            self.hub.reload(table_id)
            raise TableGone(table_id)

    async def _renew_one(self, table_id: str) -> bool:
        start = time.monotonic()
        try:
            ok = await self.redis.eval(RENEW, 1, lease_key(table_id), self.node, str(self.ttl_ms))
        except Exception:
            self._down()
            log.warning("cluster: Redis did not answer the renewal of table %s", table_id)
            if self.valid.get(table_id, 0.0) <= time.monotonic():
                self.lost(table_id)  # its connections join it again once Redis answers (the action waits)
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
        with self._lock:
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
        with self._lock:
            self.valid.pop(table_id, None)
        self.claimed.pop(table_id, None)
        self.hub.unload(table_id)

    async def _renewer(self) -> None:
        """On the event loop, every third of the lease: give up the leases claimed for tables that never loaded.
        The renewal itself runs in a thread of its own (:meth:`_renew_thread`)."""
        every = self.config.lease_ttl / 3
        while True:
            await asyncio.sleep(every)
            start = time.monotonic()
            busy = self.hub.in_memory() | self._taking
            for tid in [tid for tid in self.valid if tid not in busy]:
                if start - self.claimed.get(tid, start) > every:  # claimed, but never loaded (no such table)
                    self.release(tid)

    def _renew_thread(self, loop: asyncio.AbstractEventLoop) -> None:
        """Every third of the lease, in a thread with its own Redis connection: renew every lease held here and
        this process's ``alive`` key, whatever the event loop's backlog (a loop starved of CPU once let 191 of its
        200 leases run out while nothing was wrong). What the loop must do about the answer — a table whose lease
        is another's now leaves memory, Redis not answering suspends the grace — is handed to it."""
        import redis

        every = self.config.lease_ttl / 3
        client = redis.Redis.from_url(self.config.redis_url, decode_responses=True,
                                      socket_timeout=max(0.5, every), socket_connect_timeout=max(0.5, every / 2))
        try:
            while not self._stopping.wait(every):
                start = time.monotonic()
                owned = list(self.valid)
                try:
                    pipe = client.pipeline(transaction=False)
                    pipe.set(alive_key(self.node), "1", px=self.ttl_ms)
                    for tid in owned:
                        pipe.eval(RENEW, 1, lease_key(tid), self.node, str(self.ttl_ms))
                    out = pipe.execute()
                except Exception:
                    loop.call_soon_threadsafe(self._renewal_failed, owned)
                    continue
                lost = []
                until = start + 0.8 * self.config.lease_ttl
                with self._lock:  # never resurrect a table the loop let go meanwhile
                    for tid, ok in zip(owned, out[1:], strict=True):
                        if not ok:
                            lost.append(tid)
                        elif tid in self.valid:
                            self.valid[tid] = max(self.valid[tid], until)
                loop.call_soon_threadsafe(self._renewed, lost)
        finally:
            client.close()

    def _renewal_failed(self, owned: list[str]) -> None:
        self._down()
        log.warning("cluster: Redis does not answer: tables whose lease may have run out are let go")
        now = time.monotonic()
        for tid in owned:
            if tid in self.valid and self.valid[tid] <= now:
                self.lost(tid)

    def _renewed(self, lost: list[str]) -> None:
        for tid in lost:
            if tid in self.valid:
                self.lost(tid)
        self._up()

    async def _scanner(self) -> None:
        """Take over the tables in play that nobody owns (their owner died): rebuilt from the stored events."""
        every = self.config.lease_ttl / 3
        while True:
            await asyncio.sleep(every)  # the first pass once the hub has migrated the store
            try:
                held = self.hub.in_memory()
                ids = [i for i in await self.hub.store.table_ids(("playing",)) if i not in held]
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

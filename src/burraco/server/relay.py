"""Relaying websockets between the server processes (``--redis``; the leases, who owns which table, are
server/cluster.py's).

* **One channel per process.** Every process listens on its own Redis channel ``burraco:node:NODE``. A process
  that accepted a websocket whose table another process owns (the connection's *front*) sends that connection's
  messages, the ``hello`` first, to the owner's channel; the owner answers each exactly as one of its own
  connections' (:class:`RemoteConn`) and sends everything for that connection, broadcasts included, to the front's
  channel, in order. Events keep their numbers: they are the owner's.
* **Batched.** What a process has for another in one round of its event loop (and while its previous batch was on
  the way) leaves as one Redis message: lines, each a JSON operation of a front (``{"op": ...}``), a notice
  (``@TABLE``: the table moved) or ``SIDS TEXT``: one text for one or several sessions of the receiving front
  (a broadcast to two relayed seats of a table is sent once). The receiver splits a message once and hands each
  text to its websockets (:meth:`Relays._received`).
* **Owner changes keep the websocket.** A front remembers, per relayed connection, the last event number it
  forwarded and the actions it forwarded since the last game event. When the table's owner changes (it stopped,
  died, or lost its lease), the front joins the table again for the client: the ``hello`` with that last event
  number (the client gets exactly the events it missed, as after a ``sync``), then the actions again; the new
  owner applies each exactly once (an action already applied is acknowledged by its event, not refused as stale:
  :meth:`Table._act <burraco.server.tables.Table._act>`). The websocket is closed (code 1012) only when no process
  can take the table.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import re
import secrets
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from .cluster import Cluster, ClusterError, alive_key, lease_key, node_channel
from .events import GAME_EVENTS, encode
from .ratelimit import Bucket

if TYPE_CHECKING:
    from .tables import Table

log = logging.getLogger("burraco.server")

#: a session's text that ends it (the owner no longer serves it: the front joins the table again)
CLOSE = "\x00close"
#: the head of an event message as :func:`~burraco.server.events.encode` writes it (its number and kind)
_EVENT = re.compile(r'\{"type":"event","n":(\d+),"kind":"(\w+)"')

#: answers one message of a relayed connection as the app answers its own: the reply (its text rendered) or None
Handler = Callable[[Any, str], Awaitable[dict[str, Any] | None]]
#: the app joins a connection to its table again (its owner changed): the texts to answer first (``hello``, ...)
Rejoin = Callable[[Any, list[str]], None]


class RemoteConn:
    """On the owner: a connection accepted by another process (a :class:`~burraco.server.events.Sink`). What the
    table sends it goes to that process, tagged with the session's id."""

    def __init__(self, relays: Relays, sid: str, table_id: str, front: str, ip: str,
                 guest: str | None = None, account: str | None = None, bot: bool = False) -> None:
        cfg = relays.cluster.config
        self.relays = relays
        self.sid = sid
        self.table_id = table_id
        self.front = front
        self.ip = ip
        self.guest = guest  # checked by the front from the browser's signed cookie
        self.account = account  # checked by the front from the browser's session (server/accounts.py)
        self.bot = bot  # the account is a bot's (checked by the front from its token)
        self.seat: int | None = None
        self.table: Table | None = None
        self.lang = "en"
        self.bucket = Bucket(cfg.conn_rate, cfg.conn_burst)
        self.closed = False
        self.inbox: asyncio.Queue[str | None] = asyncio.Queue()
        self.task: asyncio.Task[None] | None = None

    def send(self, msg: dict[str, Any] | str) -> None:
        if not self.closed:
            self.relays.send(self.front, self.sid, msg if isinstance(msg, str) else encode(msg))

    def send_close(self) -> None:
        if not self.closed:
            self.relays.send(self.front, self.sid, CLOSE)
        self.closed = True

    def moved(self, last: int) -> None:
        """The table left this process: the front joins it again (it knows what it forwarded)."""
        self.send_close()


class Relay:
    """On the process that accepted a websocket (its front): the connection's session with the table's owner, the
    last event number forwarded to it and the actions it sent since the last game event."""

    def __init__(self, sid: str, table_id: str, owner: str, conn: Any, hello: dict[str, Any]) -> None:
        self.sid = sid
        self.table_id = table_id
        self.owner = owner
        self.conn = conn  # the app's Connection: send(text), send_close(), close_code
        self.hello = hello
        self.last: int | None = None
        self.pending: list[str] = []

    def saw(self, head: tuple[str, int, str]) -> None:
        """A message forwarded to the client: an event (its number, its kind) or a ``welcome``."""
        what, n, kind = head
        if self.last is None or n > self.last:
            self.last = n
        if what == "event" and kind in GAME_EVENTS:
            self.pending.clear()  # the game moved: what was sent before is applied, or stale anyway

    def rejoin_texts(self) -> list[str]:
        hello = dict(self.hello)
        if self.last is not None:
            hello["last"] = self.last
        return [encode(hello), *self.pending]


def _head(text: str) -> tuple[str, int, str] | None:
    """What a front notes of a message it forwards: an event's number and kind, a ``welcome``'s first event not
    replayed (``n`` less the events that follow it); else None."""
    if text.startswith('{"type":"event"'):
        m = _EVENT.match(text)
        return ("event", int(m.group(1)), m.group(2)) if m else None
    if text.startswith('{"type":"welcome"'):
        w = json.loads(text)
        return ("welcome", int(w["n"]) - int(w.get("replay") or 0), "")
    return None


def frame(items: list[tuple[str, str]]) -> str:
    """One Redis message of a batch: ``(sid, text)`` in order (sid ``""``: ``text`` is an operation or a notice
    line). Consecutive equal texts to several sessions are written once."""
    lines: list[str] = []
    sids: list[str] = []
    last = ""
    for sid, text in items:
        if sid and sids and text == last:
            sids.append(sid)
            continue
        if sids:
            lines.append(f"{','.join(sids)} {last}")
            sids = []
        if sid:
            sids = [sid]
            last = text
        else:
            lines.append(text)
    if sids:
        lines.append(f"{','.join(sids)} {last}")
    return "\n".join(lines)


class Relays:
    """This process's relayed connections, both ways: as front (:class:`Relay`) and as owner (:class:`RemoteConn`),
    and the batched messages between the processes."""

    def __init__(self, cluster: Cluster, handler: Handler, rejoin: Rejoin) -> None:
        self.cluster = cluster
        self.handler = handler
        self.rejoin = rejoin
        self.node = cluster.node
        self.pubsub = cluster.redis.pubsub()
        self.remote: dict[str, RemoteConn] = {}  # owner side: session id -> connection
        self.relays: dict[str, Relay] = {}  # front side: session id -> relay
        self.by_table: dict[str, set[str]] = {}  # front side: table -> its relayed sessions here
        self._out: dict[str, list[tuple[str, str]]] = {}  # process -> what it gets in the next batch
        self._wake = asyncio.Event()
        self._sent = asyncio.Event()  # set when no batch is waiting or on its way
        self._sent.set()
        self._tasks: list[asyncio.Task[None]] = []
        cluster.relays = self

    # ----- life ---------------------------------------------------------------------------------------------------
    async def start(self) -> None:
        await self.pubsub.subscribe(node_channel(self.node))
        for coro in (self._reader(), self._publisher(), self._watch()):
            self._tasks.append(asyncio.create_task(coro))

    async def stop_serving(self) -> None:
        """A clean stop, before the leases are given up: no relayed connection's message is handled any more."""
        tasks = [rc.task for rc in self.remote.values() if rc.task is not None]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    def tables_moved(self, table_ids: list[str]) -> None:
        """These tables left this process (their leases are given up): their fronts join them again."""
        ids = set(table_ids)
        fronts: dict[str, set[str]] = {}
        for rc in self.remote.values():
            if rc.table_id in ids:
                fronts.setdefault(rc.front, set()).add(rc.table_id)
        for front, tids in fronts.items():
            for tid in sorted(tids):
                self._queue(front, "", f"@{tid}")

    async def flush(self, timeout: float = 2.0) -> None:
        """Wait until everything queued has been handed to Redis (at most ``timeout`` seconds)."""
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(timeout):
                while self._out or not self._sent.is_set():
                    await self._sent.wait()
                    await asyncio.sleep(0)

    async def close(self) -> None:
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        for r in list(self.relays.values()):  # this process is going: its websockets reconnect elsewhere
            r.conn.close_code = 1012
            r.conn.send_close()
        with contextlib.suppress(Exception):
            await self.pubsub.aclose()  # type: ignore[no-untyped-call,unused-ignore]  # typed from redis 8

    # ----- batches between the processes --------------------------------------------------------------------------
    def _queue(self, node: str, sid: str, text: str) -> None:
        q = self._out.get(node)
        if q is None:
            q = self._out[node] = []
        q.append((sid, text))
        if not self._wake.is_set():
            self._wake.set()
            self._sent.clear()

    def send(self, front: str, sid: str, text: str) -> None:
        """Owner side: a text for session ``sid`` of process ``front``."""
        self._queue(front, sid, text)

    def _op(self, node: str, op: dict[str, Any]) -> None:
        self._queue(node, "", encode(op))

    async def _publisher(self) -> None:
        """One Redis message per process per round of the event loop (everything queued meanwhile)."""
        while True:
            await self._wake.wait()
            self._wake.clear()
            out, self._out = self._out, {}
            try:
                if len(out) == 1:
                    ((node, items),) = out.items()
                    await self.cluster.redis.publish(node_channel(node), frame(items))
                elif out:
                    pipe = self.cluster.redis.pipeline(transaction=False)
                    for node, items in out.items():
                        pipe.publish(node_channel(node), frame(items))
                    await pipe.execute()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.warning("relay: messages to other processes were lost: their connections join again")
                self.reset()
            if not self._out:
                self._sent.set()

    async def _reader(self) -> None:
        failed = False
        while True:
            try:
                m = await self.pubsub.get_message(ignore_subscribe_messages=True, timeout=1.0)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.warning("relay: the Redis subscription failed: the relayed connections join again")
                self.reset()
                failed = True
                await asyncio.sleep(0.2)
                continue
            if failed:  # subscribed again (redis-py subscribes again as it reconnects): what other processes sent
                failed = False  # here until now is lost, the answers to the hellos sent since the failure too
                self.reset()
            if m is None or m.get("type") != "message":
                continue
            try:
                self._received(str(m["data"]))
            except Exception:
                log.exception("relay: a message from another process could not be handled")

    def reset(self) -> None:
        """Messages may have been lost on the way: the sessions served here end, those relayed from here join
        their tables again (with their last event number: they miss nothing)."""
        for rc in list(self.remote.values()):
            self._drop_remote(rc, tell=True)
        for r in list(self.relays.values()):
            self._move(r)

    def _received(self, data: str) -> None:
        """A batch from another process: split once, each text handed to its websockets."""
        for line in data.split("\n"):
            c = line[:1]
            if c == "{":
                self._inbox(json.loads(line))
            elif c == "@":
                for sid in list(self.by_table.get(line[1:], ())):
                    r = self.relays.get(sid)
                    if r is not None:
                        self._move(r)
            elif line:
                sids, _, text = line.partition(" ")
                if text == CLOSE:
                    for sid in sids.split(","):
                        r = self.relays.get(sid)
                        if r is not None:
                            self._move(r)
                    continue
                head = _head(text)  # noted once for every session it goes to
                for sid in sids.split(","):
                    r = self.relays.get(sid)
                    if r is not None:
                        if head is not None:
                            r.saw(head)
                        r.conn.send(text)

    async def _watch(self) -> None:
        """Every third of the lease: a relayed table whose lease holder changed is joined again; the sessions of a
        front process that died end."""
        every = self.cluster.config.lease_ttl / 3
        while True:
            await asyncio.sleep(every)
            tables = list(self.by_table)
            fronts = sorted({rc.front for rc in self.remote.values()})
            if not tables and not fronts:
                continue
            try:
                pipe = self.cluster.redis.pipeline(transaction=False)
                for tid in tables:
                    pipe.get(lease_key(tid))
                for f in fronts:
                    pipe.exists(alive_key(f))
                out = await pipe.execute()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.warning("relay: Redis does not answer: the relayed connections join again")
                self.reset()
                continue
            for tid, owner in zip(tables, out[:len(tables)], strict=True):
                for sid in list(self.by_table.get(tid, ())):
                    r = self.relays.get(sid)
                    if r is not None and r.owner != owner:
                        self._move(r)
            for f, up in zip(fronts, out[len(tables):], strict=True):
                if not up:  # that process died (or stands still: paused): its connections here are gone
                    for rc in [rc for rc in self.remote.values() if rc.front == f]:
                        self._drop_remote(rc, tell=True)

    # ----- owner side ---------------------------------------------------------------------------------------------
    def _inbox(self, m: dict[str, Any]) -> None:
        sid = str(m["sid"])
        op = m["op"]
        if op == "open":
            old = self.remote.get(sid)
            if old is not None:
                self._drop_remote(old)
            guest, account = m.get("guest"), m.get("account")
            rc = RemoteConn(self, sid, str(m["table"]), str(m["front"]), str(m["ip"]),
                            guest if isinstance(guest, str) else None, account if isinstance(account, str) else None,
                            m.get("bot") is True)
            self.remote[sid] = rc
            rc.task = asyncio.create_task(self._serve_remote(rc))
            return
        rc2 = self.remote.get(sid)
        if rc2 is None:
            if op == "msg":  # a session this process does not know (it restarted): the front joins again
                self.send(str(m.get("front", "")), sid, CLOSE)
            return
        rc2.inbox.put_nowait(str(m["text"]) if op == "msg" else None)

    async def _serve_remote(self, rc: RemoteConn) -> None:
        """A relayed connection's messages, one at a time and in order, answered as the app answers its own."""
        try:
            while True:
                text = await rc.inbox.get()
                if text is None or rc.closed:
                    break
                if rc.table is None and not self.cluster.owns(rc.table_id):
                    rc.send_close()  # the table is not (or no longer) ours: the front finds its owner
                    break
                reply = await self.handler(rc, text)
                if reply is not None:
                    rc.send(reply)
        finally:
            self._drop_remote(rc, cancel=False)

    def _drop_remote(self, rc: RemoteConn, cancel: bool = True, tell: bool = False) -> None:
        """The session ends here. ``tell``: its front is told (the session's close), should it still be there —
        a front paused past its lease, whose ``alive`` key ran out meanwhile, reads it when it runs again and
        joins the table again for its client; else that client's websocket stayed open and heard nothing more
        (what it sent was answered, so it heard again only once it sent something)."""
        if tell:
            rc.send_close()
        if self.remote.get(rc.sid) is rc:
            del self.remote[rc.sid]
        if rc.table is not None:
            rc.table.detach(rc)
        rc.closed = True
        if cancel and rc.task is not None:
            rc.task.cancel()

    # ----- front side ---------------------------------------------------------------------------------------------
    def open(self, conn: Any, table_id: str, owner: str, hello: dict[str, Any], hello_text: str) -> Relay:
        """Relay ``conn`` (which just sent ``hello_text``) to the table's owner."""
        if self.cluster.closing:
            raise ClusterError("this process is stopping: try again")
        sid = secrets.token_hex(8)
        r = Relay(sid, table_id, owner, conn, hello)
        self.by_table.setdefault(table_id, set()).add(sid)
        self.relays[sid] = r
        self._op(owner, {"op": "open", "sid": sid, "table": table_id, "front": self.node, "ip": conn.ip,
                         "guest": conn.guest, "account": conn.account, "bot": conn.bot})
        self._op(owner, {"op": "msg", "sid": sid, "front": self.node, "text": hello_text})
        return r

    def forward(self, r: Relay, text: str, kind: str) -> None:
        """A message of a relayed connection (of type ``kind``), to the owner."""
        if kind in ("act", "timeout"):
            r.pending.append(text)
        self._op(r.owner, {"op": "msg", "sid": r.sid, "front": self.node, "text": text})

    def end(self, r: Relay) -> None:
        """The relayed websocket closed here: the owner forgets the connection."""
        if self.relays.pop(r.sid, None) is None:
            return
        self._op(r.owner, {"op": "close", "sid": r.sid})
        self._forget(r)

    def _forget(self, r: Relay) -> None:
        sids = self.by_table.get(r.table_id)
        if sids is not None:
            sids.discard(r.sid)
            if not sids:
                del self.by_table[r.table_id]

    def _move(self, r: Relay) -> None:
        """The table changed owner (or the way to it failed): the websocket stays, the app joins the table again
        for it (the hello with the last event number forwarded, then the actions not seen applied)."""
        if self.relays.pop(r.sid, None) is None:
            return
        self._forget(r)
        self._op(r.owner, {"op": "close", "sid": r.sid})  # should the old owner still serve it
        if r.conn.relay is r:
            r.conn.relay = None
        self.rejoin(r.conn, r.rejoin_texts())

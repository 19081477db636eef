"""Several ``burraco serve`` processes sharing PostgreSQL and Redis (server/cluster.py, docs/deploy.md): any process
accepts any websocket, one owner per table, take-over after a clean stop and after kill -9, a Redis cut; and the
one-process default refusing ``--workers`` without them."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed

from burraco.server.config import cluster_refusal
from server_support import (
    Client,
    create,
    fast_config,
    free_port,
    http,
    my_turn,
    pg_available,
    pg_database,
    run,
    server_log,
    server_process,
    sqlite_url,
    thread_server,
)

REDIS = os.environ.get("BURRACO_TEST_REDIS", "redis://127.0.0.1:6379/0")
#: how long a seat may hear nothing: more than a hello's wait for Redis (BURRACO_REDIS_WAIT, 30 s), which a player
#: reconnecting to a process that lost Redis may sit through (docs/protocol.md)
QUIET = 60
TTL = 1.5  # the lease, short: the take-over tests wait for it to run out
#: a longer lease for the tests that pause a process past it: a loaded machine's Redis may answer a renewal late
SLOW_LEASE = {"BURRACO_LEASE_TTL": "3"}


# ----- §3: one process stays the default ------------------------------------------------------------------------------
def test_cluster_refusal_rules() -> None:
    pg = "postgresql+asyncpg://postgres@127.0.0.1/x"
    assert cluster_refusal("sqlite+aiosqlite:///x", "", 1) is None
    assert cluster_refusal(pg, REDIS, 3) is None
    assert cluster_refusal(pg, REDIS, 1) is None
    assert "--redis" in (cluster_refusal(pg, "", 2) or "")
    assert "PostgreSQL" in (cluster_refusal("sqlite+aiosqlite:///x", REDIS, 2) or "")
    assert "PostgreSQL" in (cluster_refusal("sqlite+aiosqlite:///x", REDIS, 1) or "")
    assert "--workers" in (cluster_refusal(pg, REDIS, 0) or "")
    assert "redis://" in (cluster_refusal(pg, "http://x", 2) or "")


@pytest.mark.parametrize("args, says", [
    (["--workers", "2"], "needs Redis"),
    (["--workers", "2", "--redis", "redis://127.0.0.1:6379"], "PostgreSQL"),
    (["--redis", "redis://127.0.0.1:6379", "--db", "sqlite+aiosqlite:///x.sqlite3"], "PostgreSQL"),
])
def test_serve_refuses_several_processes_without_postgresql_and_redis(args: list[str], says: str) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("BURRACO_DB", "BURRACO_REDIS")}
    p = subprocess.run([sys.executable, "-m", "burraco", "serve", "--port", str(free_port()), *args],
                       capture_output=True, text=True, timeout=60, env=env)
    assert p.returncode == 2, p.stderr
    assert says in p.stderr and p.stderr.startswith("error: ")


# ----- several processes ------------------------------------------------------------------------------------------------
def redis_available() -> bool:
    try:
        import redis

        return bool(redis.Redis.from_url(REDIS, socket_timeout=2).ping())
    except Exception:
        return False


@pytest.fixture
def db_url() -> Iterator[str]:
    if not pg_available():
        pytest.skip("no PostgreSQL server answers (BURRACO_TEST_PG)")
    if not redis_available():
        pytest.skip(f"no Redis server answers at {REDIS} (BURRACO_TEST_REDIS)")
    with pg_database() as url:
        yield url


class Node:
    """One ``burraco serve`` process of the cluster."""

    def __init__(self, db: str, redis_url: str = REDIS, env: dict[str, str] | None = None) -> None:
        self.port = free_port()
        self.proc = server_process(db, self.port, {"BURRACO_REDIS": redis_url, "BURRACO_LEASE_TTL": str(TTL),
                                                   **(env or {})})
        self.url = f"http://127.0.0.1:{self.port}"
        self.ws = f"ws://127.0.0.1:{self.port}/ws"

    def node_id(self) -> str:
        status, out = http("GET", self.url + "/api/health")
        assert status == 200
        return str(out["node"])

    def stop(self, sig: int = signal.SIGTERM) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)

    def log(self) -> str:
        """The end of this process's log (a file: server_support.server_process)."""
        return server_log(self.proc)


@contextmanager
def cluster(db: str, n: int, redis_urls: list[str] | None = None,
            env: dict[str, str] | None = None) -> Iterator[list[Node]]:
    nodes: list[Node] = []
    try:
        for i in range(n):
            nodes.append(Node(db, (redis_urls or [])[i] if redis_urls and i < len(redis_urls) else REDIS, env))
        yield nodes
    finally:
        for nd in nodes:
            nd.stop(signal.SIGKILL)


def lease_owner(table_id: str) -> str | None:
    import redis

    v = redis.Redis.from_url(REDIS, decode_responses=True).get(f"burraco:lease:{table_id}")
    return None if v is None else str(v)


async def stored_events(db: str, table_id: str) -> list[tuple[int, str]]:
    import asyncpg

    conn = await asyncpg.connect(db.replace("postgresql+asyncpg://", "postgresql://"))
    try:
        rows = await conn.fetch("SELECT n, kind FROM events WHERE table_id = $1 ORDER BY n", table_id)
    finally:
        await conn.close()
    return [(int(r["n"]), str(r["kind"])) for r in rows]


class Player:
    """A seat played with the server's hints, reconnecting (with its last event number) through the given
    processes in turn whenever its connection closes. Keeps every event it was sent."""

    def __init__(self, table: str, token: str | None, urls: list[str]) -> None:
        self.table = table
        self.token = token
        self.urls = urls
        self.events: dict[int, tuple[str, Any]] = {}
        self.dupes = 0
        self.reconnects = 0
        self.refusals: list[str | None] = []  # the codes of the hints and moves refused
        self.faults: list[dict[str, Any]] = []  # the refusals for a server's fault, whole
        self.welcomes = 0  # (re)joins of the table: the first, and one each time a process joined it again for it
        self.c: Client | None = None

    def note(self, m: dict[str, Any]) -> None:
        if m["type"] == "welcome":
            self.welcomes += 1
        if m["type"] == "event":
            if m["n"] in self.events:
                self.dupes += 1
            self.events[m["n"]] = (m["kind"], m["data"])

    async def connect(self) -> Client:
        last = max(self.events) if self.events else None
        for attempt in range(60):
            try:
                c = await Client.open(self.urls[(self.reconnects + attempt) % len(self.urls)])
                await c.send({"type": "hello", "v": 1, "table": self.table,
                              **({"token": self.token} if self.token else {}),
                              **({"last": last} if last is not None else {})})
                while True:
                    m = await c.recv()
                    self.note(m)
                    if m["type"] == "state":
                        self.c = c
                        return c
                    if m["type"] == "error":
                        raise AssertionError(m)
            except (ConnectionClosed, OSError, TimeoutError):
                await asyncio.sleep(0.3)
        raise AssertionError("could not reconnect")

    async def play(self, until: Any) -> None:
        """Play until ``until(self)`` holds."""
        c = self.c or await self.connect()
        while not until(self):
            try:
                if c.state is not None and self.token and my_turn(c.state):
                    await c.send({"type": "hint"})
                m = await c.recv(timeout=QUIET)
                self.note(m)
                while m["type"] not in ("state", "hint", "error"):
                    if until(self):
                        return
                    m = await c.recv(timeout=QUIET)
                    self.note(m)
                if m["type"] == "error":
                    # a hint or a move refused for the moment (the game moved on while the hint, a search, was
                    # computed; the table changed process meanwhile): ask again rather than wait for a state that
                    # no one else's move will bring
                    self.refusals.append(m.get("code"))
                    if m.get("code") == "server_error":
                        self.faults.append(m)
                    await asyncio.sleep(0.2)
                    continue
                if m["type"] == "hint":
                    await c.send({"type": "act", "action": m["action"], "n": m["n"]})
                    m = await c.recv(timeout=QUIET)
                    self.note(m)
            except ConnectionClosed:
                self.reconnects += 1
                c = await self.connect()
            except TimeoutError as e:  # say what the seat saw last (a CI failure is read from its log only)
                last = sorted(self.events)[-3:]
                raise AssertionError(f"no message for {QUIET} s; refused: {self.refusals}; last events: "
                                     f"{[(n, self.events[n][0]) for n in last]}; my turn: "
                                     f"{c.state is not None and my_turn(c.state)}") from e

    def kinds(self, kind: str) -> int:
        return sum(1 for k, _ in self.events.values() if k == kind)


def check_same(players: list[Player], stored: list[tuple[int, str]]) -> None:
    """Every client's events: numbered 1..n without a gap, none twice, equal to each other's and the store's."""
    for p in players:
        ns = sorted(p.events)
        assert p.dupes == 0
        assert ns == list(range(ns[0], ns[-1] + 1)), "a gap in the events"
    for n in sorted({n for p in players for n in p.events}):
        seen = {repr(p.events[n]) for p in players if n in p.events}
        assert len(seen) == 1, f"event {n} differs between the clients"
    kinds = dict(stored)
    assert [n for n, _ in stored] == list(range(1, len(stored) + 1))
    for p in players:
        for n, (k, _) in p.events.items():
            assert kinds[n] == k


def four_seats() -> list[dict[str, str]]:
    easy = {"kind": "computer", "level": "heuristic:easy"}
    return [{"kind": "human"}, easy, {"kind": "human"}, easy]


def test_table_owned_by_a_played_from_b_and_c(db_url: str) -> None:
    with cluster(db_url, 3) as (a, b, c):
        t = create(a.url, preset="italian", hands=1, seats=four_seats())
        assert lease_owner(t["id"]) == a.node_id()
        north = Player(t["id"], t["tokens"]["N"], [b.ws])
        south = Player(t["id"], t["tokens"]["S"], [c.ws])
        watcher = Player(t["id"], None, [a.ws])

        async def go() -> None:
            await asyncio.gather(north.connect(), south.connect(), watcher.connect())
            done = lambda p: p.kinds("hand_end") >= 1  # noqa: E731
            await asyncio.gather(north.play(done), south.play(done), watcher.play(done))

        run(go(), timeout=180)
        assert north.reconnects == south.reconnects == 0
        assert lease_owner(t["id"]) == a.node_id()  # it never moved
        check_same([north, south, watcher], run(stored_events(db_url, t["id"])))
        status, info = http("GET", b.url + f"/api/tables/{t['id']}")  # readable from any process
        assert status == 200 and info["status"] in ("playing", "finished")


def _takeover(db_url: str, sig: int) -> None:
    with cluster(db_url, 3) as (a, b, c):
        t = create(a.url, preset="italian", hands=1, seats=four_seats())
        first = a.node_id()
        north = Player(t["id"], t["tokens"]["N"], [b.ws, c.ws])
        south = Player(t["id"], t["tokens"]["S"], [c.ws, b.ws])

        async def go() -> None:
            await asyncio.gather(north.connect(), south.connect())
            await asyncio.gather(north.play(lambda p: p.kinds("action") >= 20),
                                 south.play(lambda p: p.kinds("action") >= 20))
            a.stop(sig)  # the owner goes, mid-hand
            done = lambda p: p.kinds("hand_end") >= 1  # noqa: E731
            await asyncio.gather(north.play(done), south.play(done))

        run(go(), timeout=240)
        owner = lease_owner(t["id"])
        assert owner is not None and owner != first and owner in (b.node_id(), c.node_id())
        # their websockets stayed open: B and C joined the table again for them where it went, with the last
        # event each had forwarded (and the actions not yet seen applied)
        assert north.reconnects == 0 and south.reconnects == 0, (b.log(), c.log())
        check_same([north, south], run(stored_events(db_url, t["id"])))


def test_ownership_moves_on_clean_shutdown(db_url: str) -> None:
    _takeover(db_url, signal.SIGTERM)


def test_owner_killed_mid_hand_is_taken_over(db_url: str) -> None:
    _takeover(db_url, signal.SIGKILL)


def test_computer_table_taken_over_after_kill(db_url: str) -> None:
    """No client at all: the take-over scan finds the table in play and its computer players go on."""
    with cluster(db_url, 2, env={"BURRACO_COMPUTER_DELAY": "0.1"}) as (a, b):  # paced: the hand outlives A
        easy = {"kind": "computer", "level": "heuristic:easy"}
        t = create(a.url, preset="italian", hands=1, seats=[easy] * 4)
        time.sleep(1.0)
        before = len(run(stored_events(db_url, t["id"])))
        a.stop(signal.SIGKILL)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if lease_owner(t["id"]) == b.node_id() and len(run(stored_events(db_url, t["id"]))) > before + 5:
                break
            time.sleep(0.5)
        assert lease_owner(t["id"]) == b.node_id()
        stored = run(stored_events(db_url, t["id"]))
        assert len(stored) > before + 5
        assert [n for n, _ in stored] == list(range(1, len(stored) + 1))


async def until(cond: Any, timeout: float, what: str) -> None:
    """Wait until ``cond()`` holds (asked every 0.1 s, off the event loop: it may query Redis or a server), at
    most ``timeout`` seconds (generous: a loaded machine is slow, never wrong)."""
    deadline = time.monotonic() + timeout
    while not await asyncio.to_thread(cond):
        if time.monotonic() > deadline:
            raise AssertionError(f"not within {timeout} s: {what}")
        await asyncio.sleep(0.1)


def full_log(nd: Node) -> str:
    return server_log(nd.proc, tail=1 << 30)


async def one_owner(nodes: list[Node], table_id: str) -> None:
    """Wait until exactly one process has the table in memory, the holder of its lease (these tests have one
    table; the owner may change meanwhile under load, but never two at once for long)."""
    ids = [nd.node_id() for nd in nodes]

    def held() -> bool:
        owner = lease_owner(table_id)
        return [tables_held(nd) for nd in nodes] == [int(owner == i) for i in ids]

    await until(held, 60, "one process holds the table: the lease's holder")


def tables_held(nd: Node) -> int:
    status, out = http("GET", nd.url + "/api/health")
    assert status == 200
    return int(out["tables"])


class CutProxy:
    """A TCP proxy in front of Redis whose connections can be cut (a partition of one process from Redis)."""

    def __init__(self, target: tuple[str, int]) -> None:
        self.target = target
        self.sock = socket.socket()
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(64)
        self.port = self.sock.getsockname()[1]
        self.cut = False
        self.pairs: list[tuple[socket.socket, socket.socket]] = []
        self.lock = threading.Lock()
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                s, _ = self.sock.accept()
            except OSError:
                return
            if self.cut:
                s.close()
                continue
            u = socket.create_connection(self.target)
            with self.lock:
                self.pairs.append((s, u))
            for x, y in ((s, u), (u, s)):
                threading.Thread(target=self._pipe, args=(x, y), daemon=True).start()

    def _pipe(self, x: socket.socket, y: socket.socket) -> None:
        try:
            while data := x.recv(65536):
                if self.cut:
                    break
                y.sendall(data)
        except OSError:
            pass
        for z in (x, y):
            try:
                z.close()
            except OSError:
                pass

    def set_cut(self, cut: bool) -> None:
        self.cut = cut
        if cut:
            with self.lock:
                for x, y in self.pairs:
                    for z in (x, y):
                        try:
                            z.shutdown(socket.SHUT_RDWR)
                        except OSError:
                            pass
                self.pairs = []


def test_redis_cut_ends_with_one_owner_and_no_divergent_events(db_url: str) -> None:
    host, port = REDIS.split("//", 1)[1].split("/", 1)[0].split(":")
    proxy = CutProxy((host, int(port)))
    with cluster(db_url, 2, [f"redis://127.0.0.1:{proxy.port}/0"]) as (a, b):
        t = create(a.url, preset="italian", hands=1, seats=four_seats())
        first, second = a.node_id(), b.node_id()
        north = Player(t["id"], t["tokens"]["N"], [b.ws])
        south = Player(t["id"], t["tokens"]["S"], [a.ws, b.ws])

        async def go() -> None:
            await asyncio.gather(north.connect(), south.connect())
            await asyncio.gather(north.play(lambda p: p.kinds("action") >= 15),
                                 south.play(lambda p: p.kinds("action") >= 15))
            proxy.set_cut(True)  # A loses Redis: its lease runs out, B takes the table
            # on through the cut: 40 actions, or the end of the hand where it comes sooner (a 4-player hand has
            # been seen to close by its 39th action)
            on = lambda p: p.kinds("action") >= 40 or p.kinds("hand_end") >= 1  # noqa: E731
            play = asyncio.gather(north.play(on), south.play(on))
            try:  # the cut lasts until B has the table (a fixed time let A take it back when B was slow)
                await until(lambda: lease_owner(t["id"]) == second, 60, "B takes the table of A, cut off")
                await until(lambda: tables_held(b) == 1, 60, "B has the table in memory")
            finally:
                proxy.set_cut(False)
            await play
            done = lambda p: p.kinds("hand_end") >= 1  # noqa: E731
            await asyncio.gather(north.play(done), south.play(done))
            await one_owner([a, b], t["id"])

        run(go(), timeout=300)
        assert second != first
        assert north.reconnects == 0, b.log()  # relayed by B, which kept Redis: its websocket stayed open
        assert not north.faults + south.faults, (north.faults, south.faults)
        status, health = http("GET", a.url + "/api/health")
        assert status == 200
        check_same([north, south], run(stored_events(db_url, t["id"])))


def test_owner_paused_past_its_lease_hands_its_table_over(db_url: str) -> None:
    """The owner's process stands still for several leases mid-hand (SIGSTOP: its event loop and its lease
    thread alike, as a process starved of CPU, swapped out or paused): B takes the table over and its relayed
    player plays on there. A, resumed, finds that the lease is no longer its own before it writes anything more
    for the table, lets the table go, and its own player's websocket joins the table at B. One owner; nobody
    reconnects, no move is refused for a server's fault, every event each saw equals the stored one."""
    with cluster(db_url, 2, env=SLOW_LEASE) as (a, b):
        t = create(a.url, preset="italian", hands=1, seats=four_seats())
        second = b.node_id()
        north = Player(t["id"], t["tokens"]["N"], [b.ws])  # relayed by B
        south = Player(t["id"], t["tokens"]["S"], [a.ws, b.ws])  # at the owner, A

        async def go() -> None:
            await asyncio.gather(north.connect(), south.connect())
            await asyncio.gather(north.play(lambda p: p.kinds("action") >= 15),
                                 south.play(lambda p: p.kinds("action") >= 15))
            os.kill(a.proc.pid, signal.SIGSTOP)
            try:
                await until(lambda: lease_owner(t["id"]) == second, 60, "B takes the lease of the paused A's table")
                await until(lambda: tables_held(b) == 1, 60, "B has the table in memory")
                await north.play(lambda p: p.welcomes >= 2)  # B joined its relayed player to its own copy
            finally:
                os.kill(a.proc.pid, signal.SIGCONT)
            await until(lambda: tables_held(a) == 0, 60, "the resumed A lets the table go")
            done = lambda p: p.kinds("hand_end") >= 1  # noqa: E731
            await asyncio.gather(north.play(done), south.play(done))
            await one_owner([a, b], t["id"])

        run(go(), timeout=300)
        assert f"table {t['id']} is no longer owned by this process" in full_log(a)
        assert south.welcomes >= 2 and north.reconnects == south.reconnects == 0, (a.log(), b.log())
        assert not north.faults + south.faults, (north.faults, south.faults)
        check_same([north, south], run(stored_events(db_url, t["id"])))


def test_front_paused_past_its_lease_hears_its_table_again(db_url: str) -> None:
    """A process relaying a spectator to the table's owner (its front) stands still past its lease (SIGSTOP):
    its ``alive`` key runs out and the owner ends the spectator's session there. When the front runs again, it is
    told (the owner sent the session's close to its channel, which it reads then) and joins the table again for
    the spectator, on the same websocket. Before, the owner ended the session silently: a client that sends
    nothing (a spectator; a player waiting for his turn) heard nothing more, ever."""
    with cluster(db_url, 2, env=SLOW_LEASE) as (a, b):
        t = create(b.url, preset="italian", hands=1, seats=four_seats())
        front = a.node_id()
        north = Player(t["id"], t["tokens"]["N"], [b.ws])
        south = Player(t["id"], t["tokens"]["S"], [b.ws])
        watcher = Player(t["id"], None, [a.ws])  # relayed by A to B, the owner; sends nothing

        def watcher_gone() -> bool:
            status, info = http("GET", b.url + f"/api/tables/{t['id']}")
            return status == 200 and info["spectators"] == 0

        async def go() -> None:
            await asyncio.gather(north.connect(), south.connect(), watcher.connect())
            assert not watcher_gone()
            await asyncio.gather(north.play(lambda p: p.kinds("action") >= 10),
                                 south.play(lambda p: p.kinds("action") >= 10))
            os.kill(a.proc.pid, signal.SIGSTOP)
            try:
                await until(lambda: not alive(front), 60, "the paused A's alive key runs out")
                await until(watcher_gone, 60, "B ends the session of the spectator A relays")
            finally:
                os.kill(a.proc.pid, signal.SIGCONT)
            done = lambda p: p.kinds("hand_end") >= 1  # noqa: E731
            await asyncio.gather(north.play(done), south.play(done), watcher.play(done))

        run(go(), timeout=300)
        assert watcher.welcomes >= 2 and watcher.reconnects == 0, (a.log(), b.log())
        assert not north.faults + south.faults, (north.faults, south.faults)
        check_same([north, south, watcher], run(stored_events(db_url, t["id"])))


def alive(node: str) -> bool:
    import redis

    return bool(redis.Redis.from_url(REDIS).exists(f"burraco:alive:{node}"))


async def lock_waits(pg: Any) -> bool:
    """Whether a server's connection to the test's database waits for a lock now (a write of events: on the
    table's lock while it is being prepared, on another transaction's row of the same number while it runs)."""
    return bool(await pg.fetchval("SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' "
                                  "AND datname = current_database() AND pid <> pg_backend_pid()"))


async def until_pg(pg: Any, cond: Any, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not await cond(pg):
        if time.monotonic() > deadline:
            raise AssertionError(f"not within {timeout} s: {what}")
        await asyncio.sleep(0.05)


async def stored_chats(pg: Any, table_id: str) -> list[str]:
    rows = await pg.fetch("SELECT data FROM events WHERE table_id = $1 AND kind = 'chat' ORDER BY n", table_id)
    return [str(json.loads(r["data"])["text"]) for r in rows]


@pytest.mark.parametrize("paused", ["write on its way", "transaction open"])
def test_write_of_a_paused_owner_lands_once_and_the_table_goes_on(db_url: str, paused: str) -> None:
    """The owner, A, is paused (SIGSTOP) past its lease with a write of its table on its way to PostgreSQL
    (held there by a lock the test takes); B takes the table over from the events committed so far.

    * "write on its way": A resumes, lets the table go, and its write lands then (it was let through while the
      lease was surely A's), after B rebuilt the table. B's next write takes the same event number, which the
      events' primary key refuses: B finds its copy behind the store, rebuilds it, joins its connections to it
      again and makes the move on the new copy.
    * "transaction open": A's write is made but not committed when A is paused, and A stays paused. B's write
      of the same number waits for A's transaction, which PostgreSQL ends once A has sat in it for the lease
      (before, B's write, and every write of B behind it, waited until A resumed); B's is made. A, resumed,
      finds its write refused and the lease another's, lets the table go, and its player's line is made at B.

    Either way nobody is refused for the server's fault, nobody reconnects, both lines are stored once, and
    every event each player saw equals the stored one."""
    import asyncpg

    with cluster(db_url, 2, env=SLOW_LEASE) as (a, b):
        t = create(a.url, preset="italian", hands=1, seats=four_seats())
        second = b.node_id()
        north = Player(t["id"], t["tokens"]["N"], [b.ws])  # relayed by B
        south = Player(t["id"], t["tokens"]["S"], [a.ws, b.ws])  # at the owner, A

        def chats(p: Player) -> list[str]:
            return [p.events[n][1]["text"] for n in sorted(p.events) if p.events[n][0] == "chat"]

        async def go() -> None:
            pg = await asyncpg.connect(db_url.replace("postgresql+asyncpg://", "postgresql://"))
            try:
                await asyncio.gather(north.connect(), south.connect())
                await asyncio.gather(north.play(lambda p: p.kinds("action") >= 10),
                                     south.play(lambda p: p.kinds("action") >= 10))
                lock = pg.transaction()
                await lock.start()
                await pg.execute("LOCK TABLE events IN EXCLUSIVE MODE")  # reads go on, writes wait
                assert south.c is not None and north.c is not None
                await south.c.send({"type": "chat", "text": "sent to A"})
                await until_pg(pg, lock_waits, 60, "A's write waits for the lock")
                os.kill(a.proc.pid, signal.SIGSTOP)
                try:
                    if paused == "transaction open":
                        await lock.rollback()  # A's insert is made; its commit waits for the paused A
                    await until(lambda: lease_owner(t["id"]) == second, 60, "B takes the paused A's table over")
                    await until(lambda: tables_held(b) == 1, 60, "B has the table in memory")
                    await north.play(lambda p: p.welcomes >= 2)  # B joined its relayed player to its own copy
                    if paused == "transaction open":
                        await north.c.send({"type": "chat", "text": "sent to B"})
                        await north.play(lambda p: "sent to B" in chats(p))
                finally:
                    os.kill(a.proc.pid, signal.SIGCONT)
                await until(lambda: tables_held(a) == 0, 60, "the resumed A lets the table go")
                if paused == "write on its way":
                    await lock.rollback()  # A's write lands now, behind B's copy
                    await until_pg(pg, lambda c: stored_chats(c, t["id"]), 60, "A's write is committed")
                    await north.c.send({"type": "chat", "text": "sent to B"})
                done = lambda p: p.kinds("hand_end") >= 1  # noqa: E731
                await asyncio.gather(north.play(done), south.play(done))
                await one_owner([a, b], t["id"])
            finally:
                await pg.close()

        run(go(), timeout=300)
        if paused == "write on its way":
            assert f"table {t['id']} has events after" in full_log(b), b.log()
            order = ["sent to A", "sent to B"]
        else:
            order = ["sent to B", "sent to A"]
        assert f"table {t['id']} is no longer owned by this process" in full_log(a), a.log()
        assert north.reconnects == south.reconnects == 0, (a.log(), b.log())
        assert not north.faults + south.faults, (north.faults, south.faults)
        assert chats(north) == chats(south) == order, (chats(north), chats(south))
        check_same([north, south], run(stored_events(db_url, t["id"])))


def test_serve_workers_share_the_port(db_url: str) -> None:
    """``burraco serve --workers 2``: two processes on one port, any of them answers any table."""
    port = free_port()
    env = dict(os.environ, BURRACO_LEASE_TTL=str(TTL))
    env.pop("BURRACO_DB", None)
    p = subprocess.Popen([sys.executable, "-m", "burraco", "serve", "--port", str(port), "--workers", "2",
                          "--db", db_url, "--redis", REDIS], env=env,
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        workers: list[str] = []
        while time.monotonic() < deadline:
            kids = Path(f"/proc/{p.pid}/task/{p.pid}/children").read_text().split()
            workers = [k for k in kids if "serve" in Path(f"/proc/{k}/cmdline").read_bytes().decode(errors="replace")
                       or "multiprocessing" in Path(f"/proc/{k}/cmdline").read_bytes().decode(errors="replace")]
            try:
                ok = http("GET", base + "/api/health")[0] == 200
            except OSError:
                ok = False
            if ok and len(workers) >= 2:
                break
            time.sleep(0.3)
        assert len(workers) >= 2, workers  # uvicorn's supervisor and its two workers
        t = create(base, preset="italian", hands=1)

        async def go() -> None:
            players = [Player(t["id"], t["tokens"]["N"], [f"ws://127.0.0.1:{port}/ws"]) for _ in range(1)]
            await players[0].connect()
            await players[0].play(lambda pl: pl.kinds("action") >= 6)

        run(go(), timeout=120)
    finally:
        p.send_signal(signal.SIGTERM)
        try:
            p.wait(timeout=30)
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait(timeout=10)


def test_action_sent_again_is_applied_once_and_not_refused(tmp_path: Path) -> None:
    """An action sent again against the same event number (what a front does for its connection when the table's
    owner changed) is acknowledged by the event it already made: neither applied twice nor refused as stale."""
    with thread_server(fast_config(sqlite_url(tmp_path / "t.sqlite3"))) as srv:
        easy = {"kind": "computer", "level": "heuristic:easy"}
        t = create(srv.url, preset="italian", hands=1, seats=[{"kind": "human"}, easy, easy, easy])

        async def go() -> None:
            c = await Client.open(srv.ws_url)
            await c.hello(t["id"], t["tokens"]["N"])
            while c.state is None or not my_turn(c.state):
                await c.recv()
            n = c.state["n"]
            act = {"type": "act", "action": "N draw", "n": n}
            await c.send(act)
            first = await c.until(lambda m: m["type"] in ("event", "error") and m.get("kind", "action") == "action")
            assert first["type"] == "event" and first["data"]["action"] == "N draw", first
            await c.send(act)  # again, against the same event number
            await c.send({"type": "ping"})
            seen = []
            while (m := await c.recv())["type"] != "pong":
                seen.append(m)
            assert not [m for m in seen if m["type"] == "error"], seen
            draws = [m for m in c.got if m["type"] == "event" and m["kind"] == "action" and m["data"]["seat"] == "N"]
            assert len(draws) == 1
            await c.send({"type": "act", "action": "N draw", "n": 0})  # not what came right after event 0
            err = await c.until("error")
            assert err["code"] in ("stale", "not_now", "invalid", "out_of_turn"), err
            await c.close()

        run(go(), timeout=120)


def test_a_table_let_go_moves_its_computers_no_more(tmp_path: Path) -> None:
    """A table that leaves this process's memory (its lease was lost: ``Hub.unload``) while a computer is about
    to move: that copy's computer players stop for good. They used to schedule their next move whenever one
    ended, cancelled or refused alike: on a copy that had left, that was for ever, and with no delay (as the
    tests run them) thousands of times a second, starving the process that had just lost a table, whose Redis
    calls then timed out, which lost it more tables."""
    cfg = fast_config(sqlite_url(tmp_path / "u.sqlite3"), computer_table_delay=0.5)  # a move is pending a while
    with thread_server(cfg) as srv:
        easy = {"kind": "computer", "level": "heuristic:easy"}
        t = create(srv.url, preset="italian", hands=1, seats=[easy] * 4)
        hub = srv.app.state.hub
        table = hub.tables[t["id"]]

        async def let_go() -> Any:
            deadline = time.monotonic() + 60
            while table.bot_task is None or table.bot_task.done():
                assert time.monotonic() < deadline, "no computer move became due"
                await asyncio.sleep(0.01)
            pending = table.bot_task
            hub.unload(t["id"])
            await asyncio.gather(pending, return_exceptions=True)  # its end ran (and scheduled nothing)
            return table.bot_task

        loop = hub._janitor.get_loop()
        assert asyncio.run_coroutine_threadsafe(let_go(), loop).result(90) is None
        assert t["id"] not in hub.tables and table.unloaded


def test_leases_are_renewed_while_the_event_loop_is_blocked(tmp_path: Path) -> None:
    """The leases are renewed from a thread of their own (cluster.py): an event loop held up for three times the
    lease (a CPU-starved process) keeps its tables; the renewal once ran on the loop, and such a stall let every
    lease run out."""
    if not redis_available():
        pytest.skip(f"no Redis server answers at {REDIS} (BURRACO_TEST_REDIS)")
    import redis

    ttl = 1.0
    cfg = fast_config(sqlite_url(tmp_path / "l.sqlite3"), redis_url=REDIS, lease_ttl=ttl)
    with thread_server(cfg) as srv:
        t = create(srv.url, preset="italian", hands=1, seats=four_seats())
        hub = srv.app.state.hub
        assert t["id"] in hub.tables
        node = hub.cluster.node
        r = redis.Redis.from_url(REDIS, decode_responses=True)
        key = f"burraco:lease:{t['id']}"
        assert r.get(key) == node
        blocked = threading.Event()

        def hold_the_loop() -> None:
            blocked.set()
            time.sleep(3 * ttl)  # nothing else runs on the server's event loop meanwhile

        hub.cluster._tasks[0].get_loop().call_soon_threadsafe(hold_the_loop)
        assert blocked.wait(10)
        seen = []
        t0 = time.monotonic()
        while time.monotonic() - t0 < 2.5 * ttl:
            seen.append((r.get(key), r.pttl(key)))
            time.sleep(0.05)
        assert all(owner == node and left > 0 for owner, left in seen), seen
        time.sleep(1.0)  # the loop runs again
        assert t["id"] in hub.tables and hub.cluster.owns(t["id"])
        status, info = http("GET", srv.url + f"/api/tables/{t['id']}")
        assert status == 200

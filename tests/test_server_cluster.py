"""Several ``burraco serve`` processes sharing PostgreSQL and Redis (server/cluster.py, docs/deploy.md): any process
accepts any websocket, one owner per table, take-over after a clean stop and after kill -9, a Redis cut; and the
one-process default refusing ``--workers`` without them."""

from __future__ import annotations

import asyncio
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
TTL = 1.5  # the lease, short: the take-over tests wait for it to run out


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
        self.c: Client | None = None

    def note(self, m: dict[str, Any]) -> None:
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
                m = await c.recv(timeout=30)
                self.note(m)
                while m["type"] not in ("state", "hint"):
                    if until(self):
                        return
                    m = await c.recv(timeout=30)
                    self.note(m)
                if m["type"] == "hint":
                    await c.send({"type": "act", "action": m["action"], "n": m["n"]})
                    m = await c.recv(timeout=30)
                    self.note(m)
            except ConnectionClosed:
                self.reconnects += 1
                c = await self.connect()

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
        first = a.node_id()
        north = Player(t["id"], t["tokens"]["N"], [b.ws])
        south = Player(t["id"], t["tokens"]["S"], [a.ws, b.ws])

        async def go() -> None:
            await asyncio.gather(north.connect(), south.connect())
            await asyncio.gather(north.play(lambda p: p.kinds("action") >= 15),
                                 south.play(lambda p: p.kinds("action") >= 15))
            proxy.set_cut(True)  # A loses Redis: its lease runs out, B takes the table
            play = asyncio.gather(north.play(lambda p: p.kinds("action") >= 40),
                                  south.play(lambda p: p.kinds("action") >= 40))
            await asyncio.sleep(3 * TTL)
            proxy.set_cut(False)
            await play
            done = lambda p: p.kinds("hand_end") >= 1  # noqa: E731
            await asyncio.gather(north.play(done), south.play(done))

        run(go(), timeout=240)
        assert lease_owner(t["id"]) == b.node_id() != first
        assert north.reconnects == 0, b.log()  # relayed by B, which kept Redis: its websocket stayed open
        status, health = http("GET", a.url + "/api/health")
        assert status == 200
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

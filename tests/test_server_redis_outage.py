"""A Redis outage under several server processes (issue 42, item 1): nobody is stranded. A ``hello`` that cannot
reach Redis waits, its websocket open, and is answered once Redis is back; a seat's grace does not run while the
process cannot serve it; every player is back at his seat within 10 s of Redis returning, no seat goes to a
computer, no action is lost, and every client's events equal the stored ones. Runs its own ``redis-server`` on a
port of its own (stopped and started again: its keys, the leases included, are gone, as after a real restart)."""

from __future__ import annotations

import asyncio
import shutil
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed

from server_support import Client, create, free_port, my_turn, pg_available, pg_database, run
from test_server_cluster import check_same, cluster

OUTAGE = 4.0  # seconds Redis is down
BACK_WITHIN = 10.0  # the bar: every player at his seat again this long after Redis returned
GRACE = 8.0  # the table's grace: shorter than an outage plus the way back, were the grace to run meanwhile


class OwnRedis:
    """A redis-server of this test's own on a free port, without persistence (a restart loses every key)."""

    def __init__(self, tmp: Path) -> None:
        self.port = free_port()
        self.tmp = tmp
        self.proc: subprocess.Popen[bytes] | None = None
        self.url = f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.proc = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
             "--dir", str(self.tmp)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        import redis

        deadline = time.monotonic() + 20
        while True:
            try:
                if redis.Redis(port=self.port, socket_timeout=1).ping():
                    return
            except Exception:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.05)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=10)


@pytest.fixture
def own_redis(tmp_path: Path) -> Iterator[OwnRedis]:
    if shutil.which("redis-server") is None:
        pytest.skip("no redis-server on this machine")
    r = OwnRedis(tmp_path)
    r.start()
    try:
        yield r
    finally:
        r.stop()


@pytest.fixture
def db_url() -> Iterator[str]:
    if not pg_available():
        pytest.skip("no PostgreSQL server answers (BURRACO_TEST_PG)")
    with pg_database() as url:
        yield url


class Seated:
    """A seat played with the server's hints through one process, connecting again (with its last event number)
    whenever its websocket closes. Keeps every event, every error, the actions it sent and when it was welcomed."""

    def __init__(self, table: str, token: str, url: str) -> None:
        self.table = table
        self.token = token
        self.url = url
        self.events: dict[int, tuple[str, Any]] = {}
        self.dupes = 0
        self.reconnects = 0
        self.welcomed: list[float] = []
        self.errors: list[dict[str, Any]] = []
        self.sent: list[str] = []
        self.c: Client | None = None

    def note(self, m: dict[str, Any]) -> None:
        if m["type"] == "event":
            if m["n"] in self.events:
                self.dupes += 1
            self.events[m["n"]] = (m["kind"], m["data"])
        elif m["type"] == "welcome":
            self.welcomed.append(time.monotonic())
        elif m["type"] == "error":
            self.errors.append(m)

    def kinds(self, kind: str) -> int:
        return sum(1 for k, _ in self.events.values() if k == kind)

    async def connect(self) -> Client:
        for _ in range(200):
            try:
                c = await Client.open(self.url)
                last = max(self.events) if self.events else None
                await c.send({"type": "hello", "v": 1, "table": self.table, "token": self.token,
                              **({"last": last} if last is not None else {})})
                self.c = c
                return c
            except (ConnectionClosed, OSError, TimeoutError):
                await asyncio.sleep(0.2)
        raise AssertionError("could not connect")

    async def play(self, done: Any) -> None:
        c = self.c or await self.connect()
        asked = -1
        while not done(self):
            try:
                m = await c.recv(timeout=60)
                self.note(m)
                if m["type"] == "hint":
                    self.sent.append(m["action"])
                    await c.send({"type": "act", "action": m["action"], "n": m["n"]})
                elif m["type"] == "error" and m.get("code") == "stale":
                    asked = -1  # the game moved on while the hint was computed: ask again at the next state
                elif m["type"] == "welcome":  # joined again (the table moved): a hint asked of the process that
                    asked = -1  # had it went unanswered (only actions are sent again), ask again at the state
                if c.state is not None and my_turn(c.state) and c.state["n"] != asked and m["type"] == "state":
                    asked = c.state["n"]
                    await c.send({"type": "hint"})
            except ConnectionClosed:
                self.reconnects += 1
                asked = -1
                c = await self.connect()


async def stored(db: str, table_id: str) -> list[tuple[int, str, Any]]:
    import json

    import asyncpg

    conn = await asyncpg.connect(db.replace("postgresql+asyncpg://", "postgresql://"))
    try:
        rows = await conn.fetch("SELECT n, kind, data FROM events WHERE table_id = $1 ORDER BY n", table_id)
    finally:
        await conn.close()
    return [(int(r["n"]), str(r["kind"]), json.loads(r["data"])) for r in rows]


def test_redis_outage_strands_nobody(db_url: str, own_redis: OwnRedis) -> None:
    with cluster(db_url, 2, [own_redis.url, own_redis.url]) as (a, b):
        easy = {"kind": "computer", "level": "heuristic:easy"}
        t = create(a.url, preset="italian", hands=1, grace=GRACE,
                   seats=[{"kind": "human"}, easy, {"kind": "human"}, easy])
        north = Seated(t["id"], t["tokens"]["N"], b.ws)  # relayed: A owns the table
        south = Seated(t["id"], t["tokens"]["S"], a.ws)  # at the owner itself
        marks: dict[str, float] = {}

        async def go() -> None:
            await asyncio.gather(north.play(lambda p: p.kinds("action") >= 12),
                                 south.play(lambda p: p.kinds("action") >= 12))
            done = lambda p: p.kinds("hand_end") >= 1  # noqa: E731
            playing = asyncio.gather(north.play(done), south.play(done))
            marks["down"] = time.monotonic()
            own_redis.stop()
            await asyncio.sleep(OUTAGE)
            own_redis.start()
            marks["up"] = time.monotonic()
            await playing

        run(go(), timeout=300)
        events = run(stored(db_url, t["id"]))
        for p in (north, south):
            back = [w for w in p.welcomed if w > marks["down"]]
            assert back, f"{p.url}: never welcomed again after the outage ({p.errors})"
            print(f"{p.url}: back {back[0] - marks['up']:.2f} s after Redis returned, {p.reconnects} reconnects")
            assert back[0] - marks["up"] <= BACK_WITHIN, (back[0] - marks["up"], a.log(), b.log())
            assert not [e for e in p.errors if e.get("code") in ("server_error", "unavailable")], p.errors
            # no action lost: each one sent was applied (an action event of this seat says so)
            applied = {d["action"] for k, d in p.events.values() if k == "action"}
            assert set(p.sent) <= applied, set(p.sent) - applied
        assert not [e for e in events if e[1] == "away"], [e for e in events if e[1] == "away"]  # no computer
        check_same([north, south], [(n, k) for n, k, _ in events])

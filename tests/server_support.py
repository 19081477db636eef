"""Helpers for the server tests: a real uvicorn server (in a thread or a process) and websocket clients."""

from __future__ import annotations

import asyncio
import json
import os
import secrets
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import uvicorn
from websockets.asyncio.client import ClientConnection, connect

from burraco.server import ServerConfig, create_app

#: how long a test waits for one expected message before it fails
WAIT = 20.0
#: how long a test waits for a ``burraco serve`` process to answer (a ceiling: on a loaded machine a process that
#: resumes its tables after a kill may take longer than one message)
START_WAIT = 60.0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def fast_config(db_url: str, **kw: Any) -> ServerConfig:
    """Instant computer players, no pause between hands, no wait for contributions to a deal, generous rate limits
    unless a test sets its own."""
    base: dict[str, Any] = dict(
        db_url=db_url, bot_delay=0.0, between_hands=0.0, grace=120.0,  # a page stalled on a loaded machine is not taken over mid-test
        conn_rate=1000.0, conn_burst=1000.0, ip_rate=10000.0, ip_burst=10000.0, ip_connections=500,
        ip_tables_per_minute=10000.0, http_rate=10000.0, http_burst=10000.0, computer_tables_per_ip=10000,
        computer_tables=10000, computer_table_delay=0.0,
        contribution_wait=0.0,  # a deal waits for no contribution (the fairness tests set their own wait)
    )
    base.update(kw)
    return ServerConfig(**base)


class ThreadServer:
    """uvicorn serving the app in a background thread (its own event loop)."""

    def __init__(self, config: ServerConfig) -> None:
        self.port = free_port()
        self.app = create_app(config)
        self.server = uvicorn.Server(
            uvicorn.Config(self.app, host="127.0.0.1", port=self.port, log_level="warning", ws="websockets-sansio",
                           ws_max_size=1 << 20, lifespan="on")
        )
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws"

    def start(self) -> ThreadServer:
        self.thread.start()
        deadline = time.monotonic() + WAIT
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the test server did not start")
            time.sleep(0.02)
        return self

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=WAIT)


@contextmanager
def thread_server(config: ServerConfig) -> Iterator[ThreadServer]:
    s = ThreadServer(config).start()
    try:
        yield s
    finally:
        s.stop()


def http(method: str, url: str, body: Any = None) -> tuple[int, Any]:
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(url, data=data, method=method, headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=WAIT) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


class Client:
    """A websocket client that keeps every message it received, in order."""

    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        self.got: list[dict[str, Any]] = []
        self.last_n = 0
        self.state: dict[str, Any] | None = None
        #: the websocket messages as they came: a batch (protocol 1.4) is one list
        self.frames: list[Any] = []
        self._pending: list[dict[str, Any]] = []  # the rest of the last batch, in order

    @classmethod
    async def open(cls, ws_url: str) -> Client:
        return cls(await connect(ws_url, open_timeout=WAIT, max_size=1 << 22))

    async def send(self, msg: dict[str, Any] | str) -> None:
        await self.ws.send(msg if isinstance(msg, str) else json.dumps(msg))

    async def recv(self, timeout: float = WAIT) -> dict[str, Any]:
        if not self._pending:
            frame = json.loads(await asyncio.wait_for(self.ws.recv(), timeout))
            self.frames.append(frame)
            self._pending = list(frame) if isinstance(frame, list) else [frame]
        msg: dict[str, Any] = self._pending.pop(0)
        self.got.append(msg)
        if msg["type"] == "event":
            self.last_n = max(self.last_n, msg["n"])
        elif msg["type"] == "state":
            self.state = msg
            self.last_n = max(self.last_n, msg["n"])
        return msg

    async def until(self, pred: Any, timeout: float = WAIT) -> dict[str, Any]:
        """Receive until a message satisfies ``pred`` (a message type or a function); returns it."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"no matching message within {timeout} s")
            m = await self.recv(left)
            if (m["type"] == pred) if isinstance(pred, str) else pred(m):
                return m

    async def hello(self, table: str, token: str | None = None, last: int | None = None, **kw: Any) -> None:
        msg: dict[str, Any] = {"type": "hello", "v": 1, "table": table, **kw}
        if token is not None:
            msg["token"] = token
        if last is not None:
            msg["last"] = last
        await self.send(msg)
        await self.until("state")

    async def close(self) -> None:
        await self.ws.close()


def run(coro: Any, timeout: float = 120.0) -> Any:
    """Run a coroutine with an overall time limit (no test may hang CI)."""

    async def _wrapped() -> Any:
        return await asyncio.wait_for(coro, timeout)

    return asyncio.run(_wrapped())


def server_process(db_url: str, port: int, env: dict[str, str] | None = None) -> subprocess.Popen[bytes]:
    """``burraco serve`` as a real process (for kill -9 tests)."""
    e = dict(os.environ)
    e.update({"BURRACO_DB": db_url, "BURRACO_BOT_DELAY": "0", "BURRACO_BETWEEN_HANDS": "0",
              "BURRACO_CONN_RATE": "1000", "BURRACO_CONN_BURST": "1000", "BURRACO_IP_RATE": "10000",
              "BURRACO_IP_BURST": "10000", "BURRACO_HTTP_RATE": "10000", "BURRACO_HTTP_BURST": "10000",
              "BURRACO_COMPUTER_TABLES_PER_IP": "10000", "BURRACO_COMPUTER_TABLES": "10000",
              "BURRACO_COMPUTER_DELAY": "0", "BURRACO_CONTRIBUTION_WAIT": "0"})
    e.update(env or {})
    # its log goes to a file, never to a pipe: a pipe nobody reads fills up, and the server's event loop then
    # blocks writing its next log line (a loaded machine's test saw that as a server that stopped answering)
    log_dir = Path(tempfile.gettempdir()) / "burraco-test-servers"
    log_dir.mkdir(exist_ok=True)
    log_path = log_dir / f"serve-{port}-{os.getpid()}.log"
    with log_path.open("wb") as log_file:
        p = subprocess.Popen(
            [sys.executable, "-m", "burraco", "serve", "--port", str(port)],
            env=e, stdout=log_file, stderr=subprocess.STDOUT,
        )
    SERVER_LOGS[p.pid] = log_path
    deadline = time.monotonic() + START_WAIT
    while True:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/api/health", timeout=1).read()
            return p
        except OSError:
            if p.poll() is not None or time.monotonic() > deadline:
                p.kill()
                p.wait()
                raise RuntimeError(f"burraco serve did not start: {server_log(p)}") from None
            time.sleep(0.1)


#: the log file of each server process started by :func:`server_process` (by process id)
SERVER_LOGS: dict[int, Path] = {}


def server_log(p: subprocess.Popen[bytes], tail: int = 8000) -> str:
    """The end of a server process's log (its stdout and stderr)."""
    path = SERVER_LOGS.get(p.pid)
    if path is None or not path.exists():
        return ""
    return path.read_bytes()[-tail:].decode(errors="replace")


def sqlite_url(path: Path) -> str:
    return f"sqlite+aiosqlite:///{path}"


#: the PostgreSQL server the store tests use where it answers (trust auth; a fresh database per use)
PG_HOST = os.environ.get("BURRACO_TEST_PG", "postgresql://postgres@127.0.0.1:5432/test")


async def _pg(sql: str) -> None:
    import asyncpg

    conn = await asyncio.wait_for(asyncpg.connect(PG_HOST), 5)
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


def pg_available() -> bool:
    """Whether a PostgreSQL server answers at :data:`PG_HOST`."""
    try:
        asyncio.run(_pg("SELECT 1"))
        return True
    except Exception:
        return False


@contextmanager
def pg_database() -> Iterator[str]:
    """A fresh PostgreSQL database on :data:`PG_HOST` (its SQLAlchemy URL), dropped afterwards."""
    import secrets

    name = "burraco_test_" + secrets.token_hex(6)
    asyncio.run(_pg(f'CREATE DATABASE "{name}"'))
    try:
        yield PG_HOST.rsplit("/", 1)[0].replace("postgresql://", "postgresql+asyncpg://") + "/" + name
    finally:
        asyncio.run(_pg(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


@contextmanager
def database(kind: str, path: Path) -> Iterator[str]:
    """The URL of a fresh store: ``"sqlite"`` (a file at ``path``) or ``"postgresql"`` (skips the test, saying
    why, where no PostgreSQL server answers at :data:`PG_HOST`)."""
    if kind == "sqlite":
        yield sqlite_url(path)
        return
    import pytest

    if not pg_available():
        pytest.skip(f"no PostgreSQL server answers at {PG_HOST}")
    with pg_database() as url:
        yield url


def create(base_url: str, **spec: Any) -> dict[str, Any]:
    """Create a table over HTTP; fails the test unless the server answers 201."""
    status, out = http("POST", base_url + "/api/tables", spec)
    assert status == 201, out
    return out


def my_turn(state: dict[str, Any]) -> bool:
    v = state.get("view")
    return bool(
        v and state.get("you") and v["turn"] == state["you"] and v["end"] is None
        and state["table"]["status"] == "playing"
    )


async def hint_player(c: Client, until: str = "game_end", max_actions: int = 100000) -> int:
    """Play this client's seat with the server's hints (``hint`` then ``act``) until an event of kind ``until``;
    returns the number of actions it sent. Uses only what the client receives."""
    sent = 0
    if c.state is not None and my_turn(c.state):
        await c.send({"type": "hint"})
    while True:
        m = await c.recv()
        if m["type"] == "event" and m["kind"] == until:
            return sent
        if m["type"] == "state" and my_turn(m):
            await c.send({"type": "hint"})
        elif m["type"] == "hint":
            if sent >= max_actions:
                return sent
            await c.send({"type": "act", "action": m["action"], "n": m["n"]})
            sent += 1
        elif m["type"] == "error" and m["code"] not in ("stale", "not_now"):
            raise AssertionError(f"the server refused a hinted action: {m}")


async def plain_player(c: Client, until: str = "game_end") -> list[str]:
    """Play this client's seat by drawing and discarding (the first card that the engine takes) until an event of
    kind ``until``, contributing a fresh random value to every deal it is asked for (docs/fairness.md); returns the
    commitments it contributed to."""
    sent: list[str] = []
    tried: list[str] = []

    async def on_state(st: dict[str, Any]) -> None:
        f = st.get("fair")
        if f and not f["dealt"] and f["contribute"] and st["you"] not in f["contributions"] \
                and f["commitment"] not in sent:
            sent.append(f["commitment"])
            await c.send({"type": "contribute", "commitment": f["commitment"], "value": secrets.token_hex(32)})
        if my_turn(st):
            v = st["view"]
            if v["phase"] == "draw":
                await c.send({"type": "act", "action": f"{st['you']} draw", "n": st["n"]})
            else:
                card = next((x for x in v["hand"] if x not in tried), v["hand"][0])
                tried.append(card)
                await c.send({"type": "act", "action": f"{st['you']} discard {card}", "n": st["n"]})

    if c.state is not None:
        await on_state(c.state)
    while True:
        m = await c.recv()
        if m["type"] == "event" and m["kind"] == until:
            return sent
        if m["type"] == "event" and m["kind"] == "action":
            tried.clear()
        if m["type"] == "state":
            await on_state(m)
        elif m["type"] == "error" and m["code"] == "illegal" and c.state is not None:
            await on_state(c.state)  # a discard the rules refuse here: the next card
        elif m["type"] == "error" and m["code"] not in ("stale", "not_now"):
            raise AssertionError(f"refused: {m}")


# ----- tables brought to a point of a hand (the browser tests and docs/img/web_screenshots.py) -----------------------
def in_thread(coro: Any, timeout: float = 240.0) -> Any:
    """Run a coroutine on an event loop of its own, in a thread of its own (Playwright's sync API holds the
    calling thread's loop)."""
    import concurrent.futures

    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(lambda: asyncio.run(asyncio.wait_for(coro, timeout))).result()


async def played_out(ws_url: str, t: dict[str, Any], seat: str = "N") -> None:
    """``seat``'s player (``t``: the answer of the table's creation) leaves at once: the computer plays his
    seat, with the others, to the end of the game (quick and real: a finished game for replays)."""
    c = await Client.open(ws_url)
    await c.hello(t["id"], t["tokens"][seat])
    await c.until(lambda m: m["type"] == "state" and m["table"]["status"] == "playing")
    await c.send({"type": "leave"})
    await c.until(lambda m: m["type"] == "event" and m["kind"] == "game_end", 150)
    await c.close()


def melds_on_table(state: dict[str, Any]) -> int:
    """How many melds every side has on the table together."""
    v = state.get("view")
    return sum(len(x) for x in v["melds"].values()) if v else 0


async def hint_until(c: Client, done: Any, max_actions: int = 400) -> int:
    """Play this client's seat with the server's hints until, at its turn, ``done(state)`` holds (or the hand
    ends); returns the number of actions it sent."""
    sent = 0
    while sent < max_actions:
        s = c.state
        if s is not None and my_turn(s):
            if done(s):
                return sent
            await c.send({"type": "hint"})
            m = await c.until(lambda m: m["type"] in ("hint", "error"))
            if m["type"] == "error":  # the game moved on meanwhile: look again
                continue
            await c.send({"type": "act", "action": m["action"], "n": m["n"]})
            sent += 1
            await c.until(lambda m, at=s["n"]: m["type"] == "state" and m["n"] > at)
        elif s is not None and s.get("hand_end"):
            return sent
        else:
            await c.until("state", 60)
    return sent


async def _draw_and_discard(c: Client, seat: str, pick: bool = False) -> None:
    """One turn of ``seat``: draw (or take the pile), then discard a card it may discard (the drawn one, or one
    that is not the card just taken from a one-card pile)."""
    s = c.state
    assert s is not None and my_turn(s), s
    single = s["view"]["pile"][-1:] if pick and s["view"]["pile_size"] == 1 else []
    await c.send({"type": "act", "action": f"{seat} {'pick' if pick else 'draw'}", "n": s["n"]})
    s = await c.until(lambda m: m["type"] == "state" and m["view"] and m["view"]["phase"] == "play")
    v = s["view"]
    order = ([v["drawn"]] if v.get("drawn") else []) + [x for x in v["hand"] if x not in single]
    for card in order:
        await c.send({"type": "act", "action": f"{seat} discard {card}", "n": s["n"]})
        m = await c.until(lambda m: m["type"] == "error" or (m["type"] == "state" and m["n"] > s["n"]))
        if m["type"] == "state":
            return
    raise AssertionError(f"{seat} could discard none of its cards: {v['hand']}")


async def big_hand(ws_url: str, t: dict[str, Any], size: int = 25) -> None:
    """At a two-player table of two humans (``t``: the answer of its creation), North and South only draw and
    discard until North can take the pile into a hand of exactly ``size`` cards (taking a pile once early on when
    the count's parity asks for it): North then holds ``size`` cards, in the phase after the draw; South leaves
    his seat (the computer plays it). A test deal of a long hand, made by legal moves only."""
    n, s = await Client.open(ws_url), await Client.open(ws_url)
    await n.hello(t["id"], t["tokens"]["N"])
    await s.hello(t["id"], t["tokens"]["S"])

    def ready(m: dict[str, Any] | None) -> bool:
        return bool(m and m["type"] == "state" and m["view"] and m["view"]["phase"] == "draw" and not m["view"]["end"])

    st = n.state if ready(n.state) else await n.until(ready)
    for _ in range(200):
        assert st is not None
        if st["view"]["turn"] == "S":
            at = st["n"]
            if s.state is None or s.state["n"] < at:
                await s.until(lambda m, at=at: m["type"] == "state" and m["n"] >= at)
            await _draw_and_discard(s, "S")
            st = await n.until(lambda m, at=at: ready(m) and m["n"] > at)
            continue
        v = st["view"]
        left = size - len(v["hand"]) - v["pile_size"]
        assert left >= 0, f"the pile outgrew a hand of {size} cards"
        if left == 0:
            await n.send({"type": "act", "action": "N pick", "n": st["n"]})
            await n.until(lambda m: m["type"] == "state" and len(m["view"]["hand"]) == size)
            break
        await _draw_and_discard(n, "N", pick=left % 2 == 1)
        st = n.state
    else:
        raise AssertionError("no hand of the size asked")
    await s.send({"type": "leave"})
    await s.until(lambda m: m["type"] == "left" or (m["type"] == "state" and m["you"] is None))
    for c in (n, s):
        await c.close()

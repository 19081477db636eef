"""Load test of ``burraco serve``: N tables of four player clients over real websockets, on loopback.

The server runs as its own process (``burraco serve``, SQLite store in a temporary folder); the clients run in
other processes (asyncio, one websocket per seat). Each table makes about one action per second: the seat to play
waits ~1 s, then draws, waits ~1 s, then discards its first card (always legal in the ``italian`` rules; the hands
end by stock exhaustion and the server deals the next). The acting client measures the time from sending its
action to receiving the broadcast event of that action (action-to-broadcast latency).

    python benchmarks/load_server.py --tables 10 50 100 200 --seconds 30 --json docs/bench/load.json

Several processes (server/cluster.py): ``--servers 2`` starts two ``burraco serve`` processes sharing a fresh
PostgreSQL database (``--pg``, created and dropped) and Redis (``--redis``); table i is created on process
i mod K (its owner) and its seat j connects to process (i + j) mod K, so that most connections are relayed to the
owner through Redis. ``--store postgresql`` with ``--servers 1`` measures one process on the same PostgreSQL
(the cost of the Redis hop is the difference).

Reported per N: actions per second, latency p50/p99/max in ms, errors, and whether every action sent was applied
exactly once (the events numbered per table have no gap and no duplicate action). ``--repeat R`` runs each setup
R times (a fresh database and fresh server processes each time) and reports every run and the median of each
figure, with the machine's load average beside every run (other work on a shared machine moves the figures).

    python benchmarks/load_server.py --servers 2 --tables 400 --seconds 30 --repeat 5 --json docs/bench/x.json

``--hog K`` starts K processes that burn CPU (a busy loop each) from before the clients connect until the run
ends: the servers starved of CPU (the issue's "CPU hog holding the machine at load 20"). Every run reports, beside
the latencies, the seats *stranded* (their websocket closed, or nothing heard in the run's last 10 s while their
table played), the actions *unanswered* (sent, neither applied nor refused by the end, at least 10 s later), the
longest silence any seat heard, and the tables each process let go because its lease ran out.

    python benchmarks/load_server.py --servers 2 --tables 400 --seconds 300 --hog 16 --json docs/bench/x.json

``--flood K`` adds K connections in another process that send ``ping`` at ``--flood-rate`` a second each (1,000:
the issue's flood), never slowing down when refused, and connect again whenever they are closed (the servers keep the per-connection limit as deployed,
10 messages a second): the honest tables' figures under a flood.

``--signins K`` adds K browsers in another process (one thread each) that sign up and sign in over real HTTP
during the measured seconds, as a browser does (the guest cookie, the account page's CSRF token, the form POSTed,
the session cookie kept): each signs up a new account, signs out, signs in to it with its password, signs out, and
again (each sign-up and sign-in is one argon2id computation on the server). Browser i comes from the address
127.0.1.(i mod ``--signin-addresses`` + 1) (loopback; 0: one address each). The sign-in limits are those
deployed (``BURRACO_SIGNIN_IP``: 30 sign-ups, and 30 failed sign-ins, per address in 15 minutes;
``BURRACO_SIGNIN_ACCOUNT``: 5 failures per account); the HTTP request limit is raised, as in every run here. Reported: the sign-ins' and sign-ups' latency (POST to answer) and their
answers by status and refusal code, beside the tables' figures. docs/accounts.md "Many sign-ins during play".

    python benchmarks/load_server.py --tables 50 --seconds 60 --signins 8 --json docs/bench/signins.json
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing as mp
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

WS_MAX = 1 << 22


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


PROFILE: str | None = None  # --profile: run the server under cProfile, write its statistics here
#: --own-sessions: every server and client process in a session of its own. Linux's autogroup scheduling
#: (/proc/sys/kernel/sched_autogroup_enabled) shares the CPU between sessions, not processes, and a nice value
#: counts only inside its session: on a machine shared with other work (even niced), processes started from one
#: session share one session's part of the CPU. A service manager runs each server in a group of its own.
OWN_SESSIONS = False
#: --flood-rate: messages a second each flooding connection sends (the issue's flood: ~1,000)
FLOOD_RATE = 1000.0
#: the clients ask for batched messages (protocol 1.4, ``hello.batch``), as the browser client does; --no-batch: not
BATCH = True


def start_server(port: int, db: str, redis: str = "", log: Path | None = None,
                 extra: dict[str, str] | None = None) -> subprocess.Popen[bytes]:
    """A ``burraco serve`` process; its log goes to the file ``log`` (never a pipe, which could fill and block it)."""
    env = dict(os.environ)
    env.pop("BURRACO_REDIS", None)
    if redis:
        env["BURRACO_REDIS"] = redis
    env.update(
        BURRACO_DB=db, BURRACO_BOT_DELAY="0", BURRACO_BETWEEN_HANDS="0", BURRACO_CONN_RATE="1000",
        BURRACO_CONN_BURST="1000", BURRACO_IP_RATE="100000", BURRACO_IP_BURST="100000",
        BURRACO_IP_CONNECTIONS="100000", BURRACO_IP_TABLES="100000", BURRACO_HTTP_RATE="100000",
        BURRACO_HTTP_BURST="100000", BURRACO_COMPUTER_TABLES_PER_IP="100000", BURRACO_COMPUTER_TABLES="100000",
    )
    env.update(extra or {})
    prof = ["-m", "cProfile", "-o", PROFILE] if PROFILE else []
    out = log.open("wb") if log is not None else subprocess.DEVNULL
    try:
        p = subprocess.Popen(
            [sys.executable, *prof, "-m", "burraco", "serve", "--port", str(port)],
            env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=OWN_SESSIONS,
        )
    finally:
        if log is not None and not isinstance(out, int):
            out.close()
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline and p.poll() is None:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/api/health", timeout=2).read()
            return p
        except OSError:
            time.sleep(0.2)
    p.kill()
    tail = log.read_text(errors="replace")[-3000:] if log is not None and log.exists() else ""
    raise RuntimeError(f"the server did not start:\n{tail}")


def create_table(port: int) -> dict[str, Any]:
    body = json.dumps({"preset": "italian", "seats": [{"kind": "human"}] * 4, "listed": False}).encode()
    req = urllib.request.Request(f"http://127.0.0.1:{port}/api/tables", data=body, method="POST",
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=30) as r:
        out: dict[str, Any] = json.loads(r.read())
        return out


async def seat_client(url: str, table: str, seat: str, token: str, stats: dict[str, Any], stop_at: float,
                      start_at: float, batch: bool = True) -> None:
    from websockets.asyncio.client import connect

    rng = random.Random(hash((table, seat)))
    async with connect(url, max_size=WS_MAX, open_timeout=60, ping_interval=None) as ws:
        hello: dict[str, Any] = {"type": "hello", "v": 1, "table": table, "token": token}
        if batch:  # protocol 1.4: what the server has queued for us comes as one JSON array (as the browser asks)
            hello["batch"] = True
        await ws.send(json.dumps(hello))
        pending: tuple[str, float] | None = None
        scheduled = False
        contributed: set[str] = set()
        heard = time.time()  # when the last message came

        async def act_later(action: str, n: int) -> None:
            nonlocal pending, scheduled
            await asyncio.sleep(rng.uniform(0.8, 1.2))
            if time.time() >= stop_at:
                return
            pending = (action, time.perf_counter())
            await ws.send(json.dumps({"type": "act", "action": action, "n": n, "ref": "act"}))

        def on_message(m: dict[str, Any]) -> None:
            nonlocal pending, scheduled
            t = m["type"]
            if t == "event" and m["kind"] == "action" and pending and m["data"]["action"] == pending[0]:
                if time.time() >= start_at:
                    stats["lat"].append(time.perf_counter() - pending[1])
                    stats["actions"] += 1
                pending = None
                scheduled = False
            elif t == "state":
                f = m.get("fair")  # (1.6) a contribution to every deal, as the browser sends it (docs/fairness.md)
                if f and not f["dealt"] and f["contribute"] and seat not in f["contributions"] \
                        and f["commitment"] not in contributed:
                    contributed.add(f["commitment"])
                    asyncio.get_running_loop().create_task(ws.send(json.dumps(
                        {"type": "contribute", "commitment": f["commitment"], "value": rng.randbytes(32).hex(),
                         "ref": "contribute"})))
                v = m["view"]
                if v and v["turn"] == seat and v["end"] is None and not scheduled and m["table"]["status"] == "playing":
                    action = f"{seat} draw" if v["phase"] == "draw" else f"{seat} discard {v['hand'][0]}"
                    scheduled = True
                    asyncio.get_running_loop().create_task(act_later(action, m["n"]))
            elif t == "error":
                stats["errors"].append(m["code"])
                if m.get("ref") == "act":  # (a contribution that came after its deal is refused not_now: late)
                    stats["refused_actions"].append(m["code"])
                    pending = None
                    scheduled = False

        try:
            while time.time() < stop_at:
                try:
                    raw = await asyncio.wait_for(ws.recv(), timeout=max(0.1, stop_at - time.time()))
                except TimeoutError:
                    break
                now = time.time()
                if now >= start_at:
                    stats["silence"] = max(stats["silence"], now - max(heard, start_at))
                heard = now
                got = json.loads(raw)
                for m in got if isinstance(got, list) else (got,):
                    on_message(m)
        finally:  # stranded: closed before the end, or nothing heard in the last 10 s; an action left unanswered
            end = min(time.time(), stop_at)
            if time.time() < stop_at - 0.5 or end - heard > 10.0:
                stats["stranded"] += 1
            if pending is not None and time.perf_counter() - pending[1] > 10.0:
                stats["unanswered"] += 1


def client_process(url: str, tables: list[dict[str, Any]], stop_at: float, start_at: float, q: Any,
                   own_session: bool = False, batch: bool = True) -> None:
    if own_session:
        os.setsid()
    stats: dict[str, Any] = {"lat": [], "actions": 0, "errors": [], "failed": 0, "stranded": 0, "unanswered": 0,
                             "silence": 0.0, "refused_actions": []}

    async def main() -> None:
        tasks = [
            seat_client(t.get("urls", {}).get(s, url), t["id"], s, tok, stats, stop_at, start_at, batch)
            for t in tables for s, tok in t["tokens"].items()
        ]
        res = await asyncio.gather(*tasks, return_exceptions=True)
        stats["failed"] = sum(1 for r in res if isinstance(r, BaseException))
        stats["fail_kinds"] = sorted({type(r).__name__ for r in res if isinstance(r, BaseException)})

    asyncio.run(main())
    q.put(stats)


def flood_process(url: str, conns: int, stop_at: float, q: Any, own_session: bool = False,
                  rate: float = 1000.0) -> None:
    """``--flood K``: K connections from 127.0.0.2 that send ``ping`` at ``rate`` a second each (``--flood-rate``),
    never slowing down when refused, and connect again whenever the server closes them. Reports what they sent and how they
    were closed."""
    if own_session:
        os.setsid()
    stats: dict[str, Any] = {"sent": 0, "refused": 0, "closes": {}, "connections": 0}

    async def flooder() -> None:
        from websockets.asyncio.client import connect
        from websockets.exceptions import ConnectionClosed, InvalidHandshake

        while time.time() < stop_at:
            try:
                # from another address than the honest clients' (127.0.0.2, loopback too): an attacker's own
                async with connect(url, max_size=WS_MAX, open_timeout=30, ping_interval=None,
                                   local_addr=("127.0.0.2", 0)) as ws:
                    stats["connections"] += 1

                    async def drain() -> None:
                        async for raw in ws:
                            stats["refused"] += str(raw).count('"rate_limited"')

                    reader = asyncio.get_running_loop().create_task(drain())
                    try:
                        while time.time() < stop_at:
                            for _ in range(20):
                                await ws.send('{"type":"ping"}')
                            stats["sent"] += 20
                            await asyncio.sleep(20 / rate)
                    except ConnectionClosed as e:
                        code = str(e.rcvd.code if e.rcvd is not None else None)
                        stats["closes"][code] = stats["closes"].get(code, 0) + 1
                    reader.cancel()
            except (OSError, TimeoutError, ConnectionClosed, InvalidHandshake):  # refused at the handshake (403)
                stats["refused_handshakes"] = stats.get("refused_handshakes", 0) + 1
                await asyncio.sleep(0.05)

    async def main() -> None:
        await asyncio.gather(*(flooder() for _ in range(conns)))

    asyncio.run(main())
    q.put(stats)


SIGNIN_PASSWORD = "correct horse battery"


def signin_process(base: str, clients: int, addresses: int, start_at: float, stop_at: float, q: Any,
                   own_session: bool = False, pace: float = 0.0) -> None:
    """``--signins``: ``clients`` browsers (a thread each) signing up and in from ``start_at`` to ``stop_at``; with
    ``pace``, each sends a sign-up or sign-in (a password hash) at most once every ``pace`` seconds."""
    import http.client
    import re
    import threading
    from http.cookies import SimpleCookie
    from urllib.parse import urlencode, urlsplit

    if own_session:
        os.setsid()
    csrf_re = re.compile(r'name="csrf" value="([^"]*)"')
    code_re = re.compile(r'data-code="([a-z_]+)"|"error": ?"([a-z_]+)"')
    host, port = urlsplit(base).hostname or "127.0.0.1", urlsplit(base).port or 80
    lock = threading.Lock()
    stats: dict[str, Any] = {"lat": {"signup": [], "signin": []}, "answers": {}, "failed": []}

    def browser(i: int) -> None:
        source = f"127.0.1.{(i % addresses if addresses else i) + 1}"
        cookies: dict[str, str] = {}

        def request(method: str, path: str, body: bytes | None = None) -> tuple[int, str]:
            conn = http.client.HTTPConnection(host, port, timeout=120, source_address=(source, 0))
            h = {"Cookie": "; ".join(f"{k}={v}" for k, v in cookies.items())} if cookies else {}
            if body is not None:
                h["Content-Type"] = "application/x-www-form-urlencoded"
            conn.request(method, path, body=body, headers=h)
            r = conn.getresponse()
            text = r.read().decode("utf-8", "replace")
            for header in r.headers.get_all("set-cookie") or []:
                c = SimpleCookie()
                c.load(header)
                for name, morsel in c.items():
                    if morsel["max-age"] == "0" or morsel.value in ("", '""'):
                        cookies.pop(name, None)
                    else:
                        cookies[name] = morsel.value
            conn.close()
            return r.status, text

        def form(action: str, fields: dict[str, str]) -> tuple[int, str, float]:
            status, page = request("GET", "/account")
            m = csrf_re.search(page)
            t = time.perf_counter()
            status, text = request("POST", f"/account/{action}",
                                   urlencode({**fields, "csrf": m.group(1) if m else ""}).encode())
            return status, text, time.perf_counter() - t

        def note(action: str, status: int, text: str, took: float) -> None:
            m = code_re.search(text) if status != 303 else None
            key = f"{action} {status}" + (f" {m.group(1) or m.group(2)}" if m else "")
            with lock:
                stats["answers"][key] = stats["answers"].get(key, 0) + 1
                if action in stats["lat"] and time.time() < stop_at:
                    stats["lat"][action].append(took)

        time.sleep(max(0.0, start_at - time.time()))
        k = 0
        mine: list[str] = []
        next_at = [start_at + i * pace / max(1, clients)]  # --signin-pace: the browsers' hashes spread in time

        def paced() -> None:
            if pace > 0:
                time.sleep(max(0.0, min(next_at[0], stop_at) - time.time()))
                next_at[0] = max(next_at[0] + pace, time.time())  # never a burst to catch up
        try:
            request("GET", "/")  # the guest cookie: the CSRF token of a signed-out browser is made from it
            while time.time() < stop_at:
                name = f"Load {os.getpid() % 10000} {i} {k}"
                k += 1
                paced()
                if time.time() >= stop_at:
                    break
                status, text, took = form("signup", {"name": name, "password": SIGNIN_PASSWORD})
                note("signup", status, text, took)
                if status == 303:
                    mine.append(name)
                    note("signout", *form("signout", {}))
                if not mine or time.time() >= stop_at:
                    time.sleep(0.5)  # refused (the sign-up limit): nothing to sign in to yet
                    continue
                paced()
                if time.time() >= stop_at:
                    break
                status, text, took = form("signin", {"name": mine[-1], "password": SIGNIN_PASSWORD})
                note("signin", status, text, took)
                if status == 303:
                    note("signout", *form("signout", {}))
        except Exception as e:  # noqa: BLE001 - reported with the figures
            with lock:
                stats["failed"].append(f"{type(e).__name__}: {e}")

    threads = [threading.Thread(target=browser, args=(i,)) for i in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    q.put(stats)


def hog_process(stop_at: float, own_session: bool = False) -> None:
    """``--hog``: burn one CPU until ``stop_at`` (killed at the run's end anyway); with ``--own-sessions`` in a
    session of its own, as another program would be (else it shares the servers' part of the CPU)."""
    if own_session:
        os.setsid()
    x = 0
    while time.time() < stop_at:
        for _ in range(100_000):
            x += 1


def lost_tables(log: str) -> int:
    """How many tables a server's log says it let go because its lease ran out: one line each, or one line for
    many ("(N more like this ...)": server/quietlog.py writes a repeated record once per interval)."""
    import re

    n = 0
    for line in log.splitlines():
        if "is no longer owned by this process" in line:
            m = re.search(r"\((\d+) more like this", line)
            n += 1 + (int(m.group(1)) if m else 0)
    return n


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of a process (Linux /proc)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return float("nan")


def check_tables(port: int, tables: list[dict[str, Any]]) -> tuple[int, int]:
    """Every table's events numbered 1..n without gap; its records replay (no action doubled or lost)."""
    import asyncio as aio

    from websockets.asyncio.client import connect

    async def one(t: dict[str, Any]) -> tuple[int, bool]:
        async with connect(f"ws://127.0.0.1:{port}/ws", max_size=WS_MAX) as ws:
            await ws.send(json.dumps({"type": "hello", "v": 1, "table": t["id"], "last": 0}))
            ns = []
            while True:
                m = json.loads(await ws.recv())
                if m["type"] == "event":
                    ns.append(m["n"])
                if m["type"] == "state":
                    return sum(1 for _ in ns), ns == list(range(1, len(ns) + 1))

    async def allt() -> list[tuple[int, bool]]:
        return list(await aio.gather(*(one(t) for t in tables)))

    res = aio.run(allt())
    return sum(n for n, _ in res), sum(1 for _, ok in res if not ok)


PG = "postgresql://postgres@127.0.0.1:5432/postgres"
REDIS = "redis://127.0.0.1:6379/0"


def _pg(sql: str) -> None:
    import asyncpg

    async def go() -> None:
        conn = await asyncpg.connect(PG)
        try:
            await conn.execute(sql)
        finally:
            await conn.close()

    asyncio.run(go())


def run(n_tables: int, seconds: float, procs: int, warmup: float, servers: int = 1,
        store: str = "sqlite", flood: int = 0, hog: int = 0, signins: int = 0,
        signin_addresses: int = 0, signins_apart: bool = False, signin_pace: float = 0.0) -> dict[str, Any]:
    ports = [free_port() for _ in range(servers)]
    port = ports[0]
    pg_name = ""
    with tempfile.TemporaryDirectory() as d:
        if store == "postgresql" or servers > 1:
            pg_name = f"burraco_load_{os.getpid()}_{n_tables}_{servers}_{time.monotonic_ns() % 10**9}"
            _pg(f'DROP DATABASE IF EXISTS "{pg_name}"')
            _pg(f'CREATE DATABASE "{pg_name}"')
            db = PG.rsplit("/", 1)[0].replace("postgresql://", "postgresql+asyncpg://") + "/" + pg_name
        else:
            db = f"sqlite+aiosqlite:///{Path(d) / 'load.sqlite3'}"
        # --flood: the per-connection limit as deployed (10 a second, bursts of 30), so that the flood is refused
        extra = {"BURRACO_CONN_RATE": "10", "BURRACO_CONN_BURST": "30"} if flood else None
        group = [start_server(p, db, REDIS if servers > 1 else "", Path(d) / f"serve-{p}.log", extra)
                 for p in ports]
        server = group[0]
        # --signins-apart: the browsers sign in on a server process of their own (its own SQLite store), not the
        # tables' one: what the sign-ins cost the tables through the machine alone (CPU, memory, disk)
        apart = [start_server(free_port(), f"sqlite+aiosqlite:///{Path(d) / 'apart.sqlite3'}", "",
                              Path(d) / "serve-apart.log")] if signins and signins_apart else []
        signin_port = int(apart[0].args[-1]) if apart else port
        try:
            tables = [create_table(ports[i % servers]) for i in range(n_tables)]
            for i, t in enumerate(tables):
                t["urls"] = {s: f"ws://127.0.0.1:{ports[(i + j) % servers]}/ws" for j, s in enumerate(t["tokens"])}
            start_at = time.time() + warmup + 2.0
            stop_at = start_at + seconds
            hogs = [mp.Process(target=hog_process, args=(stop_at + 5.0, OWN_SESSIONS), daemon=True)
                    for _ in range(hog)]
            for p in hogs:
                p.start()
            loads: list[float] = []  # the 1-minute load average every 10 s of the run
            q: Any = mp.Queue()
            chunks = [tables[i::procs] for i in range(procs)]
            ps = [mp.Process(target=client_process, args=(f"ws://127.0.0.1:{port}/ws", c, stop_at, start_at, q, OWN_SESSIONS,
                                                                    BATCH))
                  for c in chunks if c]
            for p in ps:
                p.start()
            fq: Any = mp.Queue()
            flooders = [mp.Process(target=flood_process, args=(f"ws://127.0.0.1:{port}/ws", flood, stop_at, fq,
                                                                OWN_SESSIONS, FLOOD_RATE))] if flood else []
            for p in flooders:
                p.start()
            sq: Any = mp.Queue()
            signers = ([mp.Process(target=signin_process, args=(f"http://127.0.0.1:{signin_port}", signins,
                                                                 signin_addresses, start_at, stop_at, sq, OWN_SESSIONS,
                                                                 signin_pace))]
                       if signins else [])
            for p in signers:
                p.start()
            time.sleep(max(0.0, start_at - time.time()))
            cpu0, t0, load0 = sum(cpu_seconds(g.pid) for g in group), time.time(), os.getloadavg()[0]
            ccpu0 = sum(cpu_seconds(p.pid) for p in ps if p.pid is not None)
            scpu0 = sum(cpu_seconds(p.pid) for p in signers + apart if p.pid is not None)
            while time.time() < stop_at - 0.5:
                time.sleep(max(0.0, min(10.0, stop_at - 0.5 - time.time())))
                loads.append(round(os.getloadavg()[0], 2))
            ccpu1 = sum(cpu_seconds(p.pid) for p in ps if p.pid is not None)
            scpu1 = sum(cpu_seconds(p.pid) for p in signers + apart if p.pid is not None)
            tc = time.time()
            results = [q.get(timeout=seconds + warmup + 120) for _ in ps]
            flooded = [fq.get(timeout=120) for _ in flooders]
            signed = [sq.get(timeout=180) for _ in signers]
            for p in signers:
                p.join(timeout=30)
            for p in flooders:
                p.join(timeout=30)
            cpu1, t1, load1 = sum(cpu_seconds(g.pid) for g in group), time.time(), os.getloadavg()[0]
            for p in ps:
                p.join(timeout=30)
            for p in hogs:
                p.kill()
            events, gaps = check_tables(port, tables)
            alive = all(g.poll() is None for g in group)
            # tables a process let go because its lease ran out (cluster.py logs each one)
            lease_losses = sum(lost_tables((Path(d) / f"serve-{p}.log").read_text(errors="replace")) for p in ports)
        finally:
            if PROFILE:
                server.send_signal(2)  # SIGINT: uvicorn stops, cProfile writes its file
                try:
                    server.wait(timeout=30)
                except subprocess.TimeoutExpired:
                    pass
            for g in group + apart:
                g.kill()
                g.wait()
            if pg_name:
                _pg(f'DROP DATABASE IF EXISTS "{pg_name}" WITH (FORCE)')
    lat = sorted(x for r in results for x in r["lat"])
    errors = [e for r in results for e in r["errors"]]

    def pct(p: float) -> float:
        return 1000 * lat[min(len(lat) - 1, int(p * len(lat)))] if lat else float("nan")

    return {
        "servers": servers,
        "store": "postgresql" if pg_name else "sqlite",
        "redis": servers > 1,
        "tables": n_tables,
        "connections": 4 * n_tables,
        "seconds": seconds,
        "actions": sum(r["actions"] for r in results),
        "actions_per_s": round(sum(r["actions"] for r in results) / seconds, 1),
        "p50_ms": round(pct(0.50), 1),
        "p99_ms": round(pct(0.99), 1),
        "max_ms": round(1000 * lat[-1], 1) if lat else None,
        "mean_ms": round(1000 * statistics.fmean(lat), 1) if lat else None,
        "errors": len(errors),
        "error_codes": sorted(set(errors)),
        "failed_connections": sum(r["failed"] for r in results),
        "events_checked": events,
        "tables_with_gaps": gaps,
        "server_alive": alive,
        "server_cpu": round((cpu1 - cpu0) / (t1 - t0), 2),  # cores used by the server processes together
        "client_cpu": round((ccpu1 - ccpu0) / max(1e-9, tc - t0), 2),  # cores used by the client processes
        "loadavg": [round(load0, 2), round(load1, 2)],  # the machine's 1-minute load (other work included)
        "own_sessions": OWN_SESSIONS,
        "batch": BATCH,
        "lease_losses": lease_losses,
        "hogs": hog,
        "loadavg_every_10s": loads,
        "stranded_seats": sum(r["stranded"] for r in results),
        "unanswered_actions": sum(r["unanswered"] for r in results),
        "longest_silence_s": round(max((r["silence"] for r in results), default=0.0), 2),
        "server_errors": sum(1 for e in errors if e == "server_error"),
        "refused_actions": sum(len(r["refused_actions"]) for r in results),
        "refused_action_codes": sorted({e for r in results for e in r["refused_actions"]}),
        "flood": flooded[0] if flood else None,  # what the flooding connections sent, and how they were closed
        "signins": ({**signin_figures(signed[0], seconds, signins, signin_addresses), "pace_s": signin_pace}
                    if signins else None),
        "signins_apart": bool(apart),
        # cores used by the sign-in browsers' process (and by their own server process with --signins-apart)
        "signin_cpu": round((scpu1 - scpu0) / max(1e-9, tc - t0), 2) if signins else None,
    }


def signin_figures(st: dict[str, Any], seconds: float, clients: int, addresses: int) -> dict[str, Any]:
    """``--signins``: the browsers' latencies (POST to answer, ms) and their answers by status and code."""
    out: dict[str, Any] = {"browsers": clients, "addresses": addresses or clients, "answers": st["answers"],
                           "failed": st["failed"]}
    for action, xs in st["lat"].items():
        xs = sorted(xs)
        out[action] = {"n": len(xs), "per_s": round(len(xs) / seconds, 2),
                       "p50_ms": round(1000 * xs[len(xs) // 2], 1) if xs else None,
                       "p99_ms": round(1000 * xs[min(len(xs) - 1, int(0.99 * len(xs)))], 1) if xs else None,
                       "max_ms": round(1000 * xs[-1], 1) if xs else None}
    return out


def main() -> None:
    global PROFILE, PG, REDIS, OWN_SESSIONS, BATCH, FLOOD_RATE
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tables", type=int, nargs="+", default=[10, 50, 100, 200])
    ap.add_argument("--seconds", type=float, default=30.0, help="measured seconds per N")
    ap.add_argument("--warmup", type=float, default=5.0)
    ap.add_argument("--procs", type=int, default=2, help="client processes")
    ap.add_argument("--json", type=Path, default=None, help="write the results here")
    ap.add_argument("--profile", default=None, help="profile the server with cProfile into this file")
    ap.add_argument("--servers", type=int, nargs="+", default=[1],
                    help="server processes (above 1: PostgreSQL and Redis between them)")
    ap.add_argument("--store", choices=("sqlite", "postgresql"), default="sqlite",
                    help="the store of a single process (several always share PostgreSQL)")
    ap.add_argument("--pg", default=PG, help="PostgreSQL server (a database is created and dropped per run)")
    ap.add_argument("--redis", default=REDIS)
    ap.add_argument("--own-sessions", action="store_true",
                    help="start every server and client process in a session of its own (see OWN_SESSIONS)")
    ap.add_argument("--repeat", type=int, default=1, help="run each setup this many times (report each, the median)")
    ap.add_argument("--flood", type=int, default=0,
                    help="also run this many flooding connections in another process (pings as fast as they can, "
                    "connecting again when closed); the servers then keep the per-connection limit as deployed")
    ap.add_argument("--flood-rate", type=float, default=1000.0, help="messages a second per flooding connection")
    ap.add_argument("--hog", type=int, default=0, help="processes burning CPU during the run (a busy loop each)")
    ap.add_argument("--signins", type=int, default=0,
                    help="also run this many browsers signing up and in over HTTP during the measured seconds")
    ap.add_argument("--signin-addresses", type=int, default=0,
                    help="the sign-in browsers share this many addresses (0: one each)")
    ap.add_argument("--signin-pace", type=float, default=0.0,
                    help="each sign-in browser sends a sign-up or sign-in at most once every this many seconds "
                    "(0: without pause): the same offered rate of password hashes for servers that hash at "
                    "different speeds")
    ap.add_argument("--signins-apart", action="store_true",
                    help="the sign-in browsers use a server process of their own (not the tables' one)")
    ap.add_argument("--no-batch", action="store_true",
                    help="clients take one websocket message per server message (protocol 1.3 and before)")
    a = ap.parse_args()
    BATCH = not a.no_batch
    FLOOD_RATE = a.flood_rate
    PROFILE = a.profile
    OWN_SESSIONS = a.own_sessions
    PG, REDIS = a.pg, a.redis
    rows = []
    medians = []
    print(f"{'procs':>5} {'tables':>6} {'conns':>6} {'run':>4} {'act/s':>7} {'p50 ms':>7} {'p99 ms':>7} {'max ms':>7}"
          f" {'errors':>6} {'gaps':>4} {'srv cpu':>7} {'load':>11}")

    def line(k: int, r: dict[str, Any], label: str) -> None:
        load = r["loadavg"] if isinstance(r["loadavg"], list) else [r["loadavg"]]
        print(f"{k:>5} {r['tables']:>6} {r['connections']:>6} {label:>4} {r['actions_per_s']:>7} {r['p50_ms']:>7}"
              f" {r['p99_ms']:>7} {r['max_ms']!s:>7} {r['errors']:>6} {r['tables_with_gaps']:>4} {r['server_cpu']:>7}"
              f" {'-'.join(str(x) for x in load):>11}", flush=True)

    for k, n in [(k, n) for k in a.servers for n in a.tables]:
        runs = []
        for i in range(a.repeat):
            r = run(n, a.seconds, a.procs, a.warmup, k, a.store, a.flood, a.hog, a.signins, a.signin_addresses,
                    a.signins_apart, a.signin_pace)
            if r["flood"]:
                print(f"flood: {r['flood']}", flush=True)
            if r["signins"]:
                print(f"signins: {json.dumps(r['signins'])}", flush=True)
            print(f"actions refused {r['refused_actions']} {r['refused_action_codes']}, "
                  f"stranded seats {r['stranded_seats']}, unanswered actions {r['unanswered_actions']}, longest "
                  f"silence {r['longest_silence_s']} s, lease losses {r['lease_losses']}, server_error "
                  f"{r['server_errors']}, failed connections {r['failed_connections']}, load every 10 s "
                  f"{r['loadavg_every_10s']}", flush=True)
            r["repeat"] = i + 1
            runs.append(r)
            rows.append(r)
            line(k, r, str(i + 1))
        if a.repeat > 1:
            med = median_of(runs)
            medians.append(med)
            line(k, med, "med")
    if a.json:
        out: dict[str, Any] = {"cpus": os.cpu_count(), "python": sys.version.split()[0],
                               "command": " ".join(["python", *sys.argv]), "runs": rows}
        if medians:
            out["medians"] = medians
        a.json.write_text(json.dumps(out, indent=1) + "\n")


def median_of(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """The median of each figure over repeated runs of one setup (their count, and how many met the figures)."""
    first = runs[0]
    out: dict[str, Any] = {k: first[k] for k in ("servers", "store", "redis", "tables", "connections", "seconds")}
    out["runs"] = len(runs)
    for k in ("actions_per_s", "p50_ms", "p99_ms", "max_ms", "mean_ms", "server_cpu", "client_cpu"):
        vals = [r[k] for r in runs if r.get(k) is not None]
        out[k] = round(statistics.median(vals), 2 if k.endswith("cpu") else 1) if vals else None
    out["errors"] = statistics.median(r["errors"] for r in runs)
    out["tables_with_gaps"] = statistics.median(r["tables_with_gaps"] for r in runs)
    out["loadavg"] = round(statistics.median(r["loadavg"][1] for r in runs), 2)
    out["p99_each_ms"] = [r["p99_ms"] for r in runs]
    out["errors_each"] = [r["errors"] for r in runs]
    out["runs_p99_le_100ms_no_errors"] = sum(1 for r in runs if r["p99_ms"] <= 100 and r["errors"] == 0
                                             and r["failed_connections"] == 0 and r["tables_with_gaps"] == 0)
    return out


if __name__ == "__main__":
    main()

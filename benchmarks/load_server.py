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
#: the clients ask for batched messages (protocol 1.4, ``hello.batch``), as the browser client does; --no-batch: not
BATCH = True


def start_server(port: int, db: str, redis: str = "", log: Path | None = None) -> subprocess.Popen[bytes]:
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

        async def act_later(action: str, n: int) -> None:
            nonlocal pending, scheduled
            await asyncio.sleep(rng.uniform(0.8, 1.2))
            if time.time() >= stop_at:
                return
            pending = (action, time.perf_counter())
            await ws.send(json.dumps({"type": "act", "action": action, "n": n}))

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
                v = m["view"]
                if v and v["turn"] == seat and v["end"] is None and not scheduled and m["table"]["status"] == "playing":
                    action = f"{seat} draw" if v["phase"] == "draw" else f"{seat} discard {v['hand'][0]}"
                    scheduled = True
                    asyncio.get_running_loop().create_task(act_later(action, m["n"]))
            elif t == "error":
                stats["errors"].append(m["code"])
                pending = None
                scheduled = False

        while time.time() < stop_at:
            try:
                raw = await asyncio.wait_for(ws.recv(), timeout=max(0.1, stop_at - time.time()))
            except TimeoutError:
                break
            got = json.loads(raw)
            for m in got if isinstance(got, list) else (got,):
                on_message(m)


def client_process(url: str, tables: list[dict[str, Any]], stop_at: float, start_at: float, q: Any,
                   own_session: bool = False, batch: bool = True) -> None:
    if own_session:
        os.setsid()
    stats: dict[str, Any] = {"lat": [], "actions": 0, "errors": [], "failed": 0}

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
        store: str = "sqlite") -> dict[str, Any]:
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
        group = [start_server(p, db, REDIS if servers > 1 else "", Path(d) / f"serve-{p}.log") for p in ports]
        server = group[0]
        try:
            tables = [create_table(ports[i % servers]) for i in range(n_tables)]
            for i, t in enumerate(tables):
                t["urls"] = {s: f"ws://127.0.0.1:{ports[(i + j) % servers]}/ws" for j, s in enumerate(t["tokens"])}
            start_at = time.time() + warmup + 2.0
            stop_at = start_at + seconds
            q: Any = mp.Queue()
            chunks = [tables[i::procs] for i in range(procs)]
            ps = [mp.Process(target=client_process, args=(f"ws://127.0.0.1:{port}/ws", c, stop_at, start_at, q, OWN_SESSIONS,
                                                                    BATCH))
                  for c in chunks if c]
            for p in ps:
                p.start()
            time.sleep(max(0.0, start_at - time.time()))
            cpu0, t0, load0 = sum(cpu_seconds(g.pid) for g in group), time.time(), os.getloadavg()[0]
            ccpu0 = sum(cpu_seconds(p.pid) for p in ps if p.pid is not None)
            time.sleep(max(0.0, stop_at - time.time() - 0.5))
            ccpu1 = sum(cpu_seconds(p.pid) for p in ps if p.pid is not None)
            tc = time.time()
            results = [q.get(timeout=seconds + warmup + 120) for _ in ps]
            cpu1, t1, load1 = sum(cpu_seconds(g.pid) for g in group), time.time(), os.getloadavg()[0]
            for p in ps:
                p.join(timeout=30)
            events, gaps = check_tables(port, tables)
            alive = all(g.poll() is None for g in group)
        finally:
            if PROFILE:
                server.send_signal(2)  # SIGINT: uvicorn stops, cProfile writes its file
                try:
                    server.wait(timeout=30)
                except subprocess.TimeoutExpired:
                    pass
            for g in group:
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
    }


def main() -> None:
    global PROFILE, PG, REDIS, OWN_SESSIONS, BATCH
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
    ap.add_argument("--no-batch", action="store_true",
                    help="clients take one websocket message per server message (protocol 1.3 and before)")
    a = ap.parse_args()
    BATCH = not a.no_batch
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
            r = run(n, a.seconds, a.procs, a.warmup, k, a.store)
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

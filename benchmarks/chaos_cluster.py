"""Chaos run of several ``burraco serve`` processes (server/cluster.py): under load, kill -9 the owner of a random
table every ``--every`` seconds (and start a fresh process in its place), for ``--seconds``.

The store is a fresh PostgreSQL database (created and dropped); Redis is shared. Every table seats four clients,
each on a process of its own choosing (seat j of table i on process (i + j) mod K); a client plays draw / discard
its first card about once a second and reconnects, to the next process, with its last event number whenever its
connection closes. At the end it reports, per table, whether

* every event a client was sent equals the stored event of that number (no divergence), no client saw a gap or
  an event twice,
* every action a client saw acknowledged (its own action's event) is stored (under the number it was sent with:
  the events' primary key (table, number) allows it once).

    python benchmarks/chaos_cluster.py --servers 3 --tables 40 --seconds 180 --every 20

``--fault redis`` stops Redis instead, for ``--outage`` seconds every ``--every`` (a ``redis-server`` of the run's
own, on a free port, without persistence: it comes back empty, every lease gone, as after a crash). The report
then also counts the seats a computer took over (``away`` events: the grace must not run while no process can
serve the seat) and how long after each return of Redis the first action of every table was acknowledged.

    python benchmarks/chaos_cluster.py --servers 2 --tables 20 --seconds 90 --every 25 --fault redis --outage 4

``--fault pause`` stops the owner of a random table with SIGSTOP for ``--outage`` seconds (its event loop and its
lease thread alike: longer than the lease, every lease of it runs out and the others take its tables), then lets it
run again (SIGCONT): it must find its leases gone, write nothing more for those tables, and its clients must join
them at their new owners. ``--hog K`` runs K processes burning CPU throughout (the servers starved of CPU). The
report then also gives the longest silence any seat heard and each process's tables let go (from its log).

    python benchmarks/chaos_cluster.py --servers 2 --tables 20 --seconds 90 --every 25 --fault pause --outage 8

Abuse beside the faults: ``--flood K`` adds K websocket connections (from 127.0.0.2, in another process, spread over
the processes) that send ``ping`` a thousand times a second each and connect again whenever closed
(load_server.py's flood); ``--slow K`` keeps K half-sent HTTP requests open against the processes (from 127.0.0.3,
round robin), opening a new one whenever a process closes one. The end of the run checks every client's events
against the store as always; the report adds what the flood sent and how it was cut off, and how many half-sent
requests were opened and closed by the servers.

    python benchmarks/chaos_cluster.py --servers 2 --tables 20 --seconds 90 --every 25 --flood 10 --slow 300
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

from load_server import create_table, flood_process, free_port, lost_tables

PG = "postgresql://postgres@127.0.0.1:5432/postgres"
REDIS = "redis://127.0.0.1:6379/0"


def start_redis(port: int, folder: str) -> subprocess.Popen[bytes]:
    """A redis-server of the run's own (no persistence), answering once this returns."""
    import redis

    p = subprocess.Popen(["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly",
                          "no", "--dir", folder], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(200):
        try:
            if redis.Redis(port=port, socket_timeout=1).ping():
                return p
        except Exception:
            time.sleep(0.05)
    raise RuntimeError("redis-server did not start")


def hog(stop_at: float) -> None:
    """``--hog``: burn one CPU until ``stop_at``."""
    x = 0
    while time.time() < stop_at:
        for _ in range(100_000):
            x += 1


LOGS = tempfile.mkdtemp(prefix="burraco-chaos-logs-")


def start(port: int, db: str, ttl: float) -> subprocess.Popen[bytes]:
    env = dict(os.environ, BURRACO_DB=db, BURRACO_REDIS=REDIS, BURRACO_LEASE_TTL=str(ttl), BURRACO_BOT_DELAY="0",
               BURRACO_BETWEEN_HANDS="0", BURRACO_CONN_RATE="1000", BURRACO_CONN_BURST="1000",
               BURRACO_IP_RATE="100000", BURRACO_IP_BURST="100000", BURRACO_IP_CONNECTIONS="100000",
               BURRACO_IP_TABLES="100000", BURRACO_HTTP_RATE="100000", BURRACO_HTTP_BURST="100000")
    with open(os.path.join(LOGS, f"serve-{port}.log"), "ab") as log:  # a file: never a pipe that could fill
        p = subprocess.Popen([sys.executable, "-m", "burraco", "serve", "--port", str(port)], env=env,
                             stdout=log, stderr=subprocess.STDOUT)
    for _ in range(300):
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/api/health", timeout=1).read()
            return p
        except OSError:
            time.sleep(0.1)
    raise RuntimeError("a server did not start")


class Seat:
    def __init__(self, table: str, seat: str, token: str, urls: list[str], first: int) -> None:
        self.table, self.seat, self.token, self.urls, self.k = table, seat, token, urls, first
        self.events: dict[int, tuple[str, Any]] = {}
        self.dupes = 0
        self.acked: list[int] = []  # numbers of the events of this seat's own actions
        self.reconnects = 0
        self.errors: list[str] = []
        self.acked_at: list[float] = []  # when each of its own actions was acknowledged (time.time())
        self.silence = 0.0  # the longest time it heard nothing (connected or not)
        self.silent_from = 0.0  # since when (time.time())
        self.closes: dict[str, int] = {}  # why its connections ended: close code, or the error connecting

    async def run(self, stop_at: float) -> None:
        from websockets.asyncio.client import connect
        from websockets.exceptions import ConnectionClosed

        rng = random.Random(hash((self.table, self.seat)))
        heard = time.time()
        while time.time() < stop_at:
            url = self.urls[self.k % len(self.urls)]
            try:
                async with connect(url, max_size=1 << 22, open_timeout=10, ping_interval=None) as ws:
                    hello: dict[str, Any] = {"type": "hello", "v": 1, "table": self.table, "token": self.token}
                    if self.events:
                        hello["last"] = max(self.events)
                    await ws.send(json.dumps(hello))
                    sent: str | None = None
                    while time.time() < stop_at:
                        try:
                            m = json.loads(await asyncio.wait_for(ws.recv(), max(0.1, stop_at - time.time())))
                        except TimeoutError:
                            return
                        if time.time() - heard > self.silence:
                            self.silence, self.silent_from = time.time() - heard, heard
                        heard = time.time()
                        if m["type"] == "event":
                            if m["n"] in self.events:
                                self.dupes += 1
                            self.events[m["n"]] = (m["kind"], m["data"])
                            if m["kind"] == "action" and m["data"].get("seat") == self.seat:
                                self.acked.append(m["n"])
                                self.acked_at.append(time.time())
                                sent = None
                        elif m["type"] == "state":
                            v = m["view"]
                            if (v and v["turn"] == self.seat and v["end"] is None and sent is None
                                    and m["table"]["status"] == "playing"):
                                await asyncio.sleep(rng.uniform(0.5, 1.0))
                                sent = f"{self.seat} draw" if v["phase"] == "draw" else \
                                    f"{self.seat} discard {v['hand'][0]}"
                                await ws.send(json.dumps({"type": "act", "action": sent, "n": m["n"]}))
                        elif m["type"] == "error":
                            self.errors.append(m["code"])
                            sent = None
            except ConnectionClosed as e:
                why = str(e.rcvd.code) if e.rcvd is not None else "no close frame"
                self.closes[why] = self.closes.get(why, 0) + 1
            except (OSError, TimeoutError) as e:
                why = type(e).__name__
                self.closes[why] = self.closes.get(why, 0) + 1
            else:
                continue  # the run ended
            self.reconnects += 1
            self.k += 1
            await asyncio.sleep(0.2)


async def stored(db: str, table: str) -> dict[int, tuple[str, Any]]:
    import asyncpg

    conn = await asyncpg.connect(db.replace("postgresql+asyncpg://", "postgresql://"))
    try:
        rows = await conn.fetch("SELECT n, kind, data FROM events WHERE table_id = $1 ORDER BY n", table)
    finally:
        await conn.close()
    out = {}
    for r in rows:
        d = json.loads(r["data"]) if isinstance(r["data"], str) else r["data"]
        if r["kind"] == "hand":
            d = {k: v for k, v in d.items() if k != "deal"}
        elif r["kind"] == "commit":  # (1.6) the hand's seed is stored, never sent before the hand ends
            d = {k: v for k, v in d.items() if k != "seed"}
        elif r["kind"] == "created":
            d = {"name": d.get("name", "")}
        out[int(r["n"])] = (str(r["kind"]), d)
    return out


def same(kind: str, seen: Any, kept: Any) -> bool:
    """An event as sent against the stored one: the sent form adds ``seat_letter`` to some kinds."""
    if isinstance(seen, dict) and isinstance(kept, dict):
        seen = {k: v for k, v in seen.items() if k != "seat_letter"}
    return bool(seen == kept)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--servers", type=int, default=3)
    ap.add_argument("--tables", type=int, default=40)
    ap.add_argument("--seconds", type=float, default=180.0)
    ap.add_argument("--every", type=float, default=20.0, help="seconds between two kills")
    ap.add_argument("--ttl", type=float, default=3.0, help="lease seconds")
    ap.add_argument("--fault", choices=("kill", "redis", "pause"), default="kill",
                    help="kill -9 a table's owner, stop Redis for --outage seconds, or pause (SIGSTOP) a table's "
                    "owner for --outage seconds")
    ap.add_argument("--outage", type=float, default=4.0, help="seconds Redis stays down, or the owner paused")
    ap.add_argument("--hog", type=int, default=0, help="processes burning CPU throughout the run")
    ap.add_argument("--flood", type=int, default=0, help="flooding websocket connections throughout the run")
    ap.add_argument("--slow", type=int, default=0, help="half-sent HTTP requests kept open throughout the run")
    ap.add_argument("--json", default=None)
    a = ap.parse_args()
    global REDIS
    own_redis: subprocess.Popen[bytes] | None = None
    redis_port = free_port()
    redis_dir = tempfile.mkdtemp(prefix="burraco-chaos-redis-")
    if a.fault == "redis":
        REDIS = f"redis://127.0.0.1:{redis_port}/0"
        own_redis = start_redis(redis_port, redis_dir)
    backs: list[float] = []  # when Redis answered again after each outage (time.time())

    import asyncpg
    import redis

    name = f"burraco_chaos_{os.getpid()}"

    async def pg(sql: str) -> None:
        c = await asyncpg.connect(PG)
        try:
            await c.execute(sql)
        finally:
            await c.close()

    asyncio.run(pg(f'CREATE DATABASE "{name}"'))
    db = PG.rsplit("/", 1)[0].replace("postgresql://", "postgresql+asyncpg://") + "/" + name
    ports = [free_port() for _ in range(a.servers)]
    procs = {p: start(p, db, a.ttl) for p in ports}
    r = redis.Redis.from_url(REDIS, decode_responses=True)
    kills = []
    try:
        nodes = {p: json.loads(urllib.request.urlopen(f"http://127.0.0.1:{p}/api/health").read())["node"]
                 for p in ports}
        tables = [create_table(ports[i % len(ports)]) for i in range(a.tables)]
        urls = [f"ws://127.0.0.1:{p}/ws" for p in ports]
        seats = [Seat(t["id"], s, tok, urls, i + j) for i, t in enumerate(tables)
                 for j, (s, tok) in enumerate(t["tokens"].items())]
        stop_at = time.time() + a.seconds
        started = time.time()

        async def chaos() -> None:
            rng = random.Random(1)
            nonlocal own_redis
            while time.time() + a.every < stop_at:
                await asyncio.sleep(a.every)
                if own_redis is not None:  # --fault redis
                    own_redis.kill()
                    own_redis.wait()
                    down = round(a.seconds - (stop_at - time.time()), 1)
                    await asyncio.sleep(a.outage)
                    own_redis = await asyncio.to_thread(start_redis, redis_port, redis_dir)
                    backs.append(time.time())
                    kills.append({"redis_down_at": down, "for": a.outage})
                    print(f"Redis down {a.outage} s at {down} s", flush=True)
                    continue
                victim_table = rng.choice(tables)["id"]
                owner = r.get(f"burraco:lease:{victim_table}")
                port = next((p for p, nd in nodes.items() if nd == owner), rng.choice(ports))
                if a.fault == "pause":
                    at = round(a.seconds - (stop_at - time.time()), 1)
                    procs[port].send_signal(signal.SIGSTOP)
                    try:
                        await asyncio.sleep(a.outage)
                    finally:
                        procs[port].send_signal(signal.SIGCONT)
                    kills.append({"paused_at": at, "for": a.outage, "port": port, "table": victim_table})
                    print(f"paused the owner of {victim_table} (port {port}) for {a.outage} s at {at} s", flush=True)
                    continue
                procs[port].send_signal(signal.SIGKILL)
                procs[port].wait()
                kills.append({"at": round(a.seconds - (stop_at - time.time()), 1), "port": port, "table": victim_table})
                print(f"killed the owner of {victim_table} (port {port})", flush=True)
                procs[port] = await asyncio.to_thread(start, port, db, a.ttl)
                nodes[port] = json.loads(urllib.request.urlopen(f"http://127.0.0.1:{port}/api/health").read())["node"]

        import multiprocessing as mp

        hogs = [mp.Process(target=hog, args=(stop_at + 5.0,), daemon=True) for _ in range(a.hog)]
        for h in hogs:
            h.start()
        flood_q: Any = mp.Queue()
        per = [a.flood // len(urls) + (1 if i < a.flood % len(urls) else 0) for i in range(len(urls))]
        floods = [mp.Process(target=flood_process, args=(u, k, stop_at, flood_q), daemon=True)
                  for u, k in zip(urls, per, strict=True) if k]
        for f in floods:
            f.start()
        slow = {"opened": 0, "closed_by_server": 0, "refused": 0}

        async def one_slow(port: int) -> None:
            try:
                rd, wr = await asyncio.open_connection("127.0.0.1", port, local_addr=("127.0.0.3", 0))
                wr.write(b"GET /api/health HTTP/1.1\r\nHost: x\r\nX-Slow: 1\r\n")
                await wr.drain()
            except OSError:
                slow["refused"] += 1
                await asyncio.sleep(0.5)
                return
            slow["opened"] += 1
            try:
                await asyncio.wait_for(rd.read(), max(0.1, stop_at - time.time()))
                slow["closed_by_server"] += 1
            except (OSError, TimeoutError):
                pass
            wr.close()
            await asyncio.sleep(0.05)  # an attacker's pace, and the benchmark's own clients keep theirs

        async def slow_clients() -> None:
            async def keep(i: int) -> None:  # one half-sent request at a time, a new one when it is closed
                while time.time() < stop_at:
                    await one_slow(ports[i % len(ports)])

            await asyncio.gather(*(keep(i) for i in range(a.slow)))
        loads: list[float] = []

        async def sample() -> None:
            while time.time() < stop_at:
                await asyncio.sleep(10.0)
                loads.append(round(os.getloadavg()[0], 2))

        async def go() -> None:
            await asyncio.gather(chaos(), sample(), slow_clients(), *(s.run(stop_at) for s in seats))

        asyncio.run(go())
        for h in hogs:
            h.kill()
        flood: dict[str, Any] = {}
        for f in floods:
            try:
                got = flood_q.get(timeout=60)
            except Exception:  # a flooding process that never reported
                got = {}
            for k, v in got.items():
                if isinstance(v, dict):
                    for c, m in v.items():
                        flood.setdefault(k, {})[c] = flood.get(k, {}).get(c, 0) + m
                else:
                    flood[k] = flood.get(k, 0) + v
            f.join(5)
        time.sleep(1.0)
        bad_tables = 0
        lost = diverged = gaps = dupes = 0
        examples: list[dict[str, Any]] = []  # the first events seen otherwise than stored
        for t in tables:
            kept = asyncio.run(stored(db, t["id"]))
            ok = list(kept) == list(range(1, len(kept) + 1))
            mine = [s for s in seats if s.table == t["id"]]
            for s in mine:
                ns = sorted(s.events)
                if ns and ns != list(range(ns[0], ns[-1] + 1)):
                    gaps += 1
                    ok = False
                dupes += s.dupes
                for n, (k, d) in s.events.items():
                    if n not in kept or kept[n][0] != k or not same(k, d, kept[n][1]):
                        diverged += 1
                        ok = False
                        if len(examples) < 5:
                            examples.append({"table": t["id"], "n": n, "seen": [k, d],
                                             "stored": list(kept[n]) if n in kept else None})
                for n in s.acked:
                    if n not in kept:
                        lost += 1
                        ok = False
            bad_tables += 0 if ok else 1
        away = 0
        for t in tables:
            away += sum(1 for k, d in asyncio.run(stored(db, t["id"])).values() if k == "away" and d.get("away"))
        back_after = []  # per outage: seconds until every table had an action acknowledged again
        for b in backs:
            firsts = []
            for t in tables:
                ats = [x for s in seats if s.table == t["id"] for x in s.acked_at if x > b]
                firsts.append(min(ats) - b if ats else float("inf"))
            back_after.append(round(max(firsts), 2) if firsts else None)
        out = {"servers": a.servers, "tables": a.tables, "seconds": a.seconds, "fault": a.fault, "kills": kills,
               "seats_taken_over": away, "every_table_acting_again_after_s": back_after,
               "loadavg": [round(x, 2) for x in os.getloadavg()], "loadavg_every_10s": loads, "hogs": a.hog,
               "longest_silence_s": round(max(s.silence for s in seats), 2),
               "longest_silences": [{"table": s.table, "seat": s.seat, "from_s": round(s.silent_from - started, 1),
                                     "s": round(s.silence, 2)}
                                    for s in sorted(seats, key=lambda s: -s.silence)[:6]],
               "tables_let_go": {str(p): lost_tables(Path(LOGS, f"serve-{p}.log").read_text(errors="replace"))
                                 for p in ports},
               "server_errors": sum(1 for s in seats for e in s.errors if e == "server_error"),
               "connections_ended": {k: sum(s.closes.get(k, 0) for s in seats)
                                     for k in sorted({k for s in seats for k in s.closes})},
               "actions_acknowledged": sum(len(s.acked) for s in seats),
               "reconnects": sum(s.reconnects for s in seats), "lost": lost, "diverged_events": diverged,
               "gaps": gaps, "duplicates": dupes, "bad_tables": bad_tables, "diverged_examples": examples,
               "error_codes": sorted({e for s in seats for e in s.errors}),
               "flood": {"connections_asked": a.flood, **flood} if a.flood else None,
               "slow": {"kept_open": a.slow, **slow} if a.slow else None}
        print(json.dumps(out, indent=1))
        if a.json:
            with open(a.json, "w") as f:
                json.dump(out, f, indent=1)
                f.write("\n")
    finally:
        for p in procs.values():
            p.kill()
            p.wait()
        if own_redis is not None:
            own_redis.kill()
            own_redis.wait()
        asyncio.run(pg(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


if __name__ == "__main__":
    main()

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
import time
import urllib.request
from typing import Any

from load_server import create_table, free_port

PG = "postgresql://postgres@127.0.0.1:5432/postgres"
REDIS = "redis://127.0.0.1:6379/0"


def start(port: int, db: str, ttl: float) -> subprocess.Popen[bytes]:
    env = dict(os.environ, BURRACO_DB=db, BURRACO_REDIS=REDIS, BURRACO_LEASE_TTL=str(ttl), BURRACO_BOT_DELAY="0",
               BURRACO_BETWEEN_HANDS="0", BURRACO_CONN_RATE="1000", BURRACO_CONN_BURST="1000",
               BURRACO_IP_RATE="100000", BURRACO_IP_BURST="100000", BURRACO_IP_CONNECTIONS="100000",
               BURRACO_IP_TABLES="100000", BURRACO_HTTP_RATE="100000", BURRACO_HTTP_BURST="100000")
    p = subprocess.Popen([sys.executable, "-m", "burraco", "serve", "--port", str(port)], env=env,
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
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

    async def run(self, stop_at: float) -> None:
        from websockets.asyncio.client import connect
        from websockets.exceptions import ConnectionClosed

        rng = random.Random(hash((self.table, self.seat)))
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
                        if m["type"] == "event":
                            if m["n"] in self.events:
                                self.dupes += 1
                            self.events[m["n"]] = (m["kind"], m["data"])
                            if m["kind"] == "action" and m["data"].get("seat") == self.seat:
                                self.acked.append(m["n"])
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
            except (ConnectionClosed, OSError, TimeoutError):
                pass
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
    ap.add_argument("--json", default=None)
    a = ap.parse_args()

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

        async def chaos() -> None:
            rng = random.Random(1)
            while time.time() + a.every < stop_at:
                await asyncio.sleep(a.every)
                victim_table = rng.choice(tables)["id"]
                owner = r.get(f"burraco:lease:{victim_table}")
                port = next((p for p, nd in nodes.items() if nd == owner), rng.choice(ports))
                procs[port].send_signal(signal.SIGKILL)
                procs[port].wait()
                kills.append({"at": round(a.seconds - (stop_at - time.time()), 1), "port": port, "table": victim_table})
                print(f"killed the owner of {victim_table} (port {port})", flush=True)
                procs[port] = await asyncio.to_thread(start, port, db, a.ttl)
                nodes[port] = json.loads(urllib.request.urlopen(f"http://127.0.0.1:{port}/api/health").read())["node"]

        async def go() -> None:
            await asyncio.gather(chaos(), *(s.run(stop_at) for s in seats))

        asyncio.run(go())
        time.sleep(1.0)
        bad_tables = 0
        lost = diverged = gaps = dupes = 0
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
                for n in s.acked:
                    if n not in kept:
                        lost += 1
                        ok = False
            bad_tables += 0 if ok else 1
        out = {"servers": a.servers, "tables": a.tables, "seconds": a.seconds, "kills": kills,
               "actions_acknowledged": sum(len(s.acked) for s in seats),
               "reconnects": sum(s.reconnects for s in seats), "lost": lost, "diverged_events": diverged,
               "gaps": gaps, "duplicates": dupes, "bad_tables": bad_tables,
               "error_codes": sorted({e for s in seats for e in s.errors})}
        print(json.dumps(out, indent=1))
        if a.json:
            with open(a.json, "w") as f:
                json.dump(out, f, indent=1)
                f.write("\n")
    finally:
        for p in procs.values():
            p.kill()
            p.wait()
        asyncio.run(pg(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


if __name__ == "__main__":
    main()

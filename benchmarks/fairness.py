"""The cost of provably fair deals (docs/fairness-procedure.md), and one table's websocket traffic recorded.

1. **Per deal, the CPU**: the deal of a hand as the server made it before commit–reveal (a uniform shuffle from
   ``random.Random(secrets.randbits(128))``) against what it does now (a 256-bit seed from ``secrets``, its SHA-256,
   the procedure's deal with four contributions), and the check of one recorded deal (``burraco verify``), each
   timed over ``--deals`` deals, interleaved, median of ``--repeat`` runs.
2. **Per hand, at the server**: ``burraco serve``'s tables in this process (a temporary SQLite store, no network),
   ``--tables`` tables of four computer players (``heuristic:easy``, no delay) playing ``--hands`` hands each: the
   server's wall time per hand, the time spent making commitments and deals, and the events written per hand
   (the commitment is one more; each person seated adds one contribution).
3. **The traffic** (``--traffic FILE``): a player's websocket at a 2-player table against a computer, every event
   it received (states and moves log left out) as JSON lines, the commitments, contributions, deals and reveals in
   the order they arrived.

    nice -n 10 python benchmarks/fairness.py --json docs/bench/fairness.json --traffic docs/fairness/traffic.jsonl
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import secrets
import socket
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from burraco import preset
from burraco.deal import deal_from_seed
from burraco.fair import FairInputs, check_deal, commitment, fair_deal

SEATS = ("N", "E", "S", "W")


def deal_cpu(deals: int, repeat: int) -> dict[str, float]:
    """Microseconds per deal: before, now, and the check of a recorded deal."""
    rules = preset("italian")
    contributions = {s: secrets.token_hex(32) for s in SEATS}
    old: list[float] = []
    new: list[float] = []
    verify: list[float] = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        for _ in range(deals):
            deal_from_seed(rules, random.Random(secrets.randbits(128)))
        t1 = time.perf_counter()
        made = []
        for i in range(deals):
            seed = secrets.token_bytes(32)
            made.append((seed, fair_deal(rules, seed, "bench/0", i, contributions), commitment(seed)))
        t2 = time.perf_counter()
        for i, (seed, d, c) in enumerate(made):
            assert check_deal(d, FairInputs("bench/0", i, contributions, c, seed.hex()), SEATS).code == "fair_ok"
        t3 = time.perf_counter()
        old.append((t1 - t0) / deals * 1e6)
        new.append((t2 - t1) / deals * 1e6)
        verify.append((t3 - t2) / deals * 1e6)
    return {"before_us": round(statistics.median(old), 1), "now_us": round(statistics.median(new), 1),
            "verify_us": round(statistics.median(verify), 1)}


async def server_hands(tables: int, hands: int) -> dict[str, float]:
    """Tables of computers in this process's hub: wall time per hand, time in commitments and deals, events."""
    from burraco.server import ServerConfig
    from burraco.server.hub import Hub
    from burraco.server.store import Store
    from burraco.server.tables import Table

    spent = [0.0]
    original = Table._deal_step

    async def timed(self: Table) -> bool:
        t0 = time.perf_counter()
        try:
            return await original(self)
        finally:
            spent[0] += time.perf_counter() - t0

    Table._deal_step = timed  # type: ignore[method-assign]
    try:
        with tempfile.TemporaryDirectory() as d:
            cfg = ServerConfig(db_url=f"sqlite+aiosqlite:///{d}/bench.sqlite3", bot_delay=0.0, between_hands=0.0,
                               computer_table_delay=0.0, computer_tables=10_000, computer_tables_per_ip=10_000)
            hub = Hub(cfg, Store(cfg.db_url))
            await hub.start()
            try:
                easy = {"kind": "computer", "level": "heuristic:easy"}
                t0 = time.perf_counter()
                ids = [(await hub.create_table({"preset": "italian", "hands": hands, "seats": [easy] * 4}))["id"]
                       for _ in range(tables)]
                while any(hub.tables[i].status != "finished" for i in ids):
                    await asyncio.sleep(0.05)
                wall = time.perf_counter() - t0
                events = sum(len(hub.tables[i].events) for i in ids)
                commits = sum(1 for i in ids for ev in hub.tables[i].events if ev.kind == "commit")
                played = sum(len(hub.tables[i].matches[0].games) for i in ids)
            finally:
                await hub.stop()
    finally:
        Table._deal_step = original  # type: ignore[method-assign]
    return {"hands": played, "wall_ms_per_hand": round(wall / played * 1e3, 1),
            "deal_steps_ms_per_hand": round(spent[0] / played * 1e3, 3),
            "events_per_hand": round(events / played, 1), "commit_events_per_hand": round(commits / played, 2)}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def record_traffic(path: Path) -> int:
    """One player's websocket at a 2-player table (one hand) against a computer: the events it received."""
    import uvicorn
    from websockets.asyncio.client import connect

    from burraco.server import ServerConfig, create_app

    with tempfile.TemporaryDirectory() as d:
        cfg = ServerConfig(db_url=f"sqlite+aiosqlite:///{d}/traffic.sqlite3", bot_delay=0.0, between_hands=0.0,
                           contribution_wait=60.0)
        port = free_port()
        server = uvicorn.Server(uvicorn.Config(create_app(cfg), host="127.0.0.1", port=port, log_level="warning"))
        thread = threading.Thread(target=server.run, daemon=True)
        thread.start()
        while not server.started:
            time.sleep(0.02)
        try:
            import urllib.request

            body = json.dumps({"preset": "italian-2p", "hands": 1, "seats": [
                {"kind": "human", "name": "Ada"}, {"kind": "computer", "level": "heuristic:easy"}]}).encode()
            req = urllib.request.Request(f"http://127.0.0.1:{port}/api/tables", data=body, method="POST",
                                         headers={"Content-Type": "application/json"})
            with urllib.request.urlopen(req) as r:
                t = json.loads(r.read())
            events = asyncio.run(_play(f"ws://127.0.0.1:{port}/ws", t["id"], t["tokens"]["N"], connect))
        finally:
            server.should_exit = True
            thread.join()
    with path.open("w", encoding="utf-8") as f:
        for ev in events:
            f.write(json.dumps(ev, ensure_ascii=False) + "\n")
    return len(events)


async def _play(url: str, table: str, token: str, connect: Any) -> list[dict[str, Any]]:
    """Draw and discard (the first card the engine takes) to the game's end, contributing to every deal."""
    out: list[dict[str, Any]] = []
    async with connect(url) as ws:
        await ws.send(json.dumps({"type": "hello", "v": 1, "table": table, "token": token}))
        sent: set[str] = set()
        tried: list[str] = []
        last: dict[str, Any] = {}
        while True:
            m = json.loads(await ws.recv())
            if m["type"] == "event":
                out.append({"n": m["n"], "kind": m["kind"], "data": m["data"]})
                if m["kind"] == "action":
                    tried.clear()
                if m["kind"] == "game_end":
                    return out
            if m["type"] == "error" and last:  # a discard the rules refuse here: the next card
                m = last
            if m["type"] != "state":
                continue
            last = m
            f = m.get("fair")
            if f and not f["dealt"] and f["contribute"] and f["commitment"] not in sent:
                sent.add(f["commitment"])
                await ws.send(json.dumps({"type": "contribute", "commitment": f["commitment"],
                                          "value": secrets.token_hex(32)}))
            v = m.get("view")
            if v and v["turn"] == "N" and v["end"] is None:
                if v["phase"] == "draw":
                    await ws.send(json.dumps({"type": "act", "action": "N draw", "n": m["n"]}))
                else:
                    card = next((x for x in v["hand"] if x not in tried), v["hand"][0])
                    tried.append(card)
                    await ws.send(json.dumps({"type": "act", "action": f"N discard {card}", "n": m["n"]}))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--deals", type=int, default=2000)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--tables", type=int, default=4)
    ap.add_argument("--hands", type=int, default=3)
    ap.add_argument("--json", type=Path, default=None)
    ap.add_argument("--traffic", type=Path, default=None)
    a = ap.parse_args()
    out: dict[str, Any] = {"machine": {"cpus": os.cpu_count(), "load_before": os.getloadavg(),
                                       "python": sys.version.split()[0]}}
    print("deals (CPU) …", file=sys.stderr)
    out["deal_cpu"] = deal_cpu(a.deals, a.repeat)
    print(json.dumps(out["deal_cpu"]), file=sys.stderr)
    print("hands at the server …", file=sys.stderr)
    out["server"] = asyncio.run(server_hands(a.tables, a.hands))
    print(json.dumps(out["server"]), file=sys.stderr)
    if a.traffic is not None:
        out["traffic_events"] = record_traffic(a.traffic)
    out["machine"]["load_after"] = os.getloadavg()
    text = json.dumps(out, indent=1)
    print(text)
    if a.json is not None:
        a.json.write_text(text + "\n")


if __name__ == "__main__":
    main()

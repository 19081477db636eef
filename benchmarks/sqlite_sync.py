#!/usr/bin/env python3
"""The cost of SQLite's ``synchronous=FULL`` against ``NORMAL`` for the server's event log (docs/deploy.md).

``--tables`` tables each append ``--actions`` events one at a time, all at once (as busy tables do), through the
server's own :class:`~burraco.server.store.Store` (WAL, group commit: appends arriving during a commit go in the
next one). Reported per setting and repeat: events committed per second, the commit latency an action waits for
(median, p99), and the load average. The file lives in ``--dir`` (a disk, not tmpfs: a sync on tmpfs costs
nothing)::

    python benchmarks/sqlite_sync.py --tables 50 200 --actions 40 --repeat 3 --json
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from burraco.server.store import SeatRow, Store


async def one_run(folder: Path, sync: str, tables: int, actions: int) -> dict[str, Any]:
    path = folder / f"bench-{sync}-{tables}-{time.monotonic_ns()}.sqlite3"
    store = Store(f"sqlite+aiosqlite:///{path}", sqlite_synchronous=sync)
    await store.migrate()
    ids = [f"t{i}" for i in range(tables)]
    seats = [SeatRow(0, "human", "heuristic:medium", "N", False, "")]
    for tid in ids:
        await store.create_table(tid, {"name": tid}, seats, {"name": tid})
    waits: list[float] = []

    async def table(tid: str) -> None:
        for n in range(2, actions + 2):
            t0 = time.perf_counter()
            await store.append(tid, [(n, "action", {"seat": "N", "action": "N draw"})])
            waits.append(time.perf_counter() - t0)

    t0 = time.perf_counter()
    await asyncio.gather(*(table(tid) for tid in ids))
    wall = time.perf_counter() - t0
    await store.close()
    for suffix in ("", "-wal", "-shm"):
        Path(str(path) + suffix).unlink(missing_ok=True)
    waits.sort()
    return {"synchronous": sync, "tables": tables, "events": len(waits), "events_per_s": round(len(waits) / wall, 1),
            "p50_ms": round(statistics.median(waits) * 1000, 2),
            "p99_ms": round(waits[int(0.99 * (len(waits) - 1))] * 1000, 2), "load": round(os.getloadavg()[0], 2)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tables", type=int, nargs="+", default=[50, 200])
    ap.add_argument("--actions", type=int, default=40)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--dir", default=None, help="where the database files go (default: a temporary folder)")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    rows = []
    with tempfile.TemporaryDirectory(dir=a.dir) as d:
        for tables in a.tables:
            for r in range(a.repeat):
                for sync in ("NORMAL", "FULL"):  # interleaved: the machine's load weighs on both alike
                    row = asyncio.run(one_run(Path(d), sync, tables, a.actions))
                    row["repeat"] = r + 1
                    rows.append(row)
                    if not a.json:
                        print(row, file=sys.stderr)
    if a.json:
        print(json.dumps(rows, indent=1))


if __name__ == "__main__":
    main()

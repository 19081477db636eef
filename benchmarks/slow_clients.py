#!/usr/bin/env python3
"""Half-sent requests from one address against a real ``burraco serve`` (server/guard.py; issue 42, item 2).

Opens ``--half-sent`` connections from 127.0.0.1 that send part of a request's headers and stop, then, from
127.0.0.2 (loopback too: another address), times ``--probes`` requests to ``/api/health`` while they are open, and
waits until the server closed all of them. The server runs with the guard's defaults (a cap of 256 HTTP
connections per address, a 10 s deadline per request) unless ``--cap`` / ``--deadline`` say otherwise; 127.0.0.1
is not a trusted proxy here (``FORWARDED_ALLOW_IPS`` names another address), as on a server exposed directly.

    python benchmarks/slow_clients.py --half-sent 1100 --probes 200 --json out.json
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def half_sent(port: int) -> tuple[asyncio.StreamReader, asyncio.StreamWriter] | None:
    """A connection that sent part of a request's headers (its writer is kept: dropped, it would close it)."""
    try:
        r, w = await asyncio.open_connection("127.0.0.1", port)
        w.write(b"GET /api/health HTTP/1.1\r\nHost: x\r\nX-Slow: 1\r\n")
        await w.drain()
        return r, w
    except OSError:
        return None


async def closed(r: asyncio.StreamReader) -> float:
    """Seconds until the server closed this connection."""
    t0 = time.monotonic()
    try:
        await r.read()
    except OSError:
        pass
    return time.monotonic() - t0


async def probe(port: int) -> float:
    t0 = time.perf_counter()
    r, w = await asyncio.open_connection("127.0.0.1", port, local_addr=("127.0.0.2", 0))
    w.write(b"GET /api/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
    await w.drain()
    got = await asyncio.wait_for(r.read(), 30)
    w.close()
    if not got.startswith(b"HTTP/1.1 200"):
        raise RuntimeError(got[:200])
    return time.perf_counter() - t0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--half-sent", type=int, default=1100)
    ap.add_argument("--probes", type=int, default=200)
    ap.add_argument("--cap", type=int, default=None, help="BURRACO_IP_HTTP_CONNECTIONS (default: the server's)")
    ap.add_argument("--deadline", type=float, default=None, help="BURRACO_REQUEST_TIMEOUT (default: the server's)")
    ap.add_argument("--json", default=None)
    a = ap.parse_args()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(soft, 4 * a.half_sent)), hard))
    port = free_port()
    env = dict(os.environ, FORWARDED_ALLOW_IPS="10.255.255.1", BURRACO_HTTP_RATE="100000", BURRACO_HTTP_BURST="100000")
    if a.cap is not None:
        env["BURRACO_IP_HTTP_CONNECTIONS"] = str(a.cap)
    if a.deadline is not None:
        env["BURRACO_REQUEST_TIMEOUT"] = str(a.deadline)
    with tempfile.TemporaryDirectory() as d:
        env["BURRACO_DB"] = f"sqlite+aiosqlite:///{Path(d) / 's.sqlite3'}"
        log = Path(d) / "serve.log"
        with log.open("wb") as out:
            p = subprocess.Popen([sys.executable, "-m", "burraco", "serve", "--port", str(port)], env=env,
                                 stdout=out, stderr=subprocess.STDOUT)
        try:
            for _ in range(300):
                try:
                    urllib.request.urlopen(f"http://127.0.0.1:{port}/api/health", timeout=1).read()
                    break
                except OSError:
                    time.sleep(0.1)

            async def go() -> dict[str, Any]:
                t0 = time.monotonic()
                readers = await asyncio.gather(*(half_sent(port) for _ in range(a.half_sent)))
                open_ = [x for x in readers if x is not None]
                waits = [asyncio.create_task(closed(r)) for r, _ in open_]
                await asyncio.sleep(0.5)
                at_once = sum(1 for w in waits if w.done())
                times = [await probe(port) for _ in range(a.probes)]
                done = await asyncio.gather(*waits)
                for _, w in open_:
                    w.close()
                times.sort()
                return {"half_sent": a.half_sent, "refused_at_connect": a.half_sent - len(open_),
                        "closed_within_0_5_s": at_once, "all_closed_after_s": round(time.monotonic() - t0, 1),
                        "longest_open_s": round(max(done), 1) if done else 0.0,
                        "health_p50_ms": round(statistics.median(times) * 1000, 1),
                        "health_p99_ms": round(times[int(0.99 * (len(times) - 1))] * 1000, 1),
                        "health_max_ms": round(times[-1] * 1000, 1)}

            res = asyncio.run(go())
            text = log.read_text(errors="replace")
            res["server_log_lines"] = len(text.splitlines())
            res["server_log_tracebacks"] = text.count("Traceback")
            res["loadavg"] = [round(x, 2) for x in os.getloadavg()]
        finally:
            p.kill()
            p.wait()
    print(json.dumps(res, indent=1))
    if a.json:
        Path(a.json).write_text(json.dumps(res, indent=1) + "\n")


if __name__ == "__main__":
    main()

"""What accounts cost the server (docs/accounts.md "Costs"): on a fresh store (SQLite file, or ``--db`` a
PostgreSQL URL), the median time of

* hashing and checking a password (argon2id with the server's parameters, ``accounts.ARGON2_*``: OWASP's minimum;
  and with argon2-cffi's defaults, which the server used before), wall time and CPU time (every thread of the
  process: argon2 runs a hash's lanes on as many threads),
* finding a session's account (what a websocket handshake with a session cookie and every account page adds),
* checking a bot's token (what every message of a bot account's connection adds: a new token stops it at once),
* rating one finished 2 v 2 game (one transaction: the game, four ratings, their history),
* storing one table event (the server's commit of a move, for scale: the cost every move has already).

    python benchmarks/accounts_cost.py --n 200
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

from argon2 import PasswordHasher

from burraco.server import ratings
from burraco.server.accounts import ARGON2_LANES, ARGON2_MEMORY_KIB, ARGON2_TIME, Accounts, Limits
from burraco.server.store import SeatRow, Store, token_hash


def ms(xs: list[float]) -> str:
    return f"median {statistics.median(xs) * 1000:.2f} ms (p90 {sorted(xs)[int(len(xs) * 0.9)] * 1000:.2f})"


async def timed(n: int, step: Callable[[int], Awaitable[object]]) -> list[float]:
    """The seconds each of ``n`` calls of ``step(i)`` took (each must answer something true)."""
    out = []
    for i in range(n):
        t = time.perf_counter()
        assert await step(i)
        out.append(time.perf_counter() - t)
    return out


async def main(db: str, n: int) -> None:
    store = Store(db)
    await store.migrate()
    acc = Accounts(store, Limits(5, 30, 900.0))
    people = [await acc.sign_up(f"Player {i:03d}", "correct horse battery") for i in range(4)]
    token = await acc.open_session(people[0])
    await store.create_table("bench", {"rules": {"preset": "italian"}}, [
        SeatRow(i, "human", "heuristic:medium", f"P{i}", True, token_hash(f"t{i}")) for i in range(4)], {})

    for label, h in (("the server's (OWASP's minimum)", PasswordHasher(ARGON2_TIME, ARGON2_MEMORY_KIB, ARGON2_LANES)),
                     ("argon2-cffi's defaults (before)", PasswordHasher())):
        hashed, hashes, checks, cpu = h.hash("correct horse battery"), [], [], []
        for _ in range(min(n, 20)):
            t, c = time.perf_counter(), time.process_time()
            h.hash("correct horse battery")
            hashes.append(time.perf_counter() - t)
            cpu.append(time.process_time() - c)
            t = time.perf_counter()
            h.verify(hashed, "correct horse battery")
            checks.append(time.perf_counter() - t)
        print(f"argon2id {label} {h.memory_cost} KiB, t={h.time_cost}, p={h.parallelism}: hash {ms(hashes)}, "
              f"CPU {ms(cpu)}; check: {ms(checks)}")

    print(f"a session's account: {ms(await timed(n, lambda _: acc.account_of(token)))}")

    _, bot_token = await acc.make_bot(people[0], "Bench Bot")
    print(f"a bot's token checked (per bot message): {ms(await timed(n, lambda _: acc.bot_of_token(bot_token)))}")

    teams = [[ratings.Player(0, people[0].id, ""), ratings.Player(2, people[1].id, "")],
             [ratings.Player(1, people[2].id, ""), ratings.Player(3, people[3].id, "")]]
    rated = await timed(n, lambda g: ratings.rate_game(store, "bench", g, "italian-2v2", teams, [1 + g % 2, 2 - g % 2]))
    print(f"rating a 2 v 2 game: {ms(rated)}")

    async def store_event(i: int) -> bool:
        await store.append("bench", [(i + 2, "chat", {"text": "x"})])
        return True

    print(f"storing one event (for scale): {ms(await timed(n, store_event))}")
    await store.close()


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--db", help="a store URL (default: a fresh SQLite file)")
    ap.add_argument("--n", type=int, default=200)
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as d:
        asyncio.run(main(a.db or f"sqlite+aiosqlite:///{Path(d) / 'bench.sqlite3'}", a.n))

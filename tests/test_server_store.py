"""The storage layer on SQLite and on a real PostgreSQL server (127.0.0.1:5432, user postgres; a fresh database
per test, dropped afterwards; skipped only when no server answers there): migrations, events, seats, and a whole
server restarted on the same store."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import pytest
import sqlalchemy.exc

from burraco import replay
from burraco.server.store import SeatRow, Store, token_hash
from server_support import (
    Client,
    create,
    database,
    fast_config,
    hint_player,
    http,
    my_turn,
    run,
    sqlite_url,
    thread_server,
)


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    with database(request.param, tmp_path / "store.sqlite3") as url:
        yield url


def test_migrations_events_and_seats_round_trip(db_url: str) -> None:
    async def go() -> None:
        store = Store(db_url)
        await store.migrate()
        await store.migrate()  # idempotent: already at the newest revision
        seats = [SeatRow(0, "human", "heuristic:medium", "Ann", False, token_hash("t0")),
                 SeatRow(1, "computer", "random", "Bot", False, "")]
        await store.create_table("tab1", {"rules": "italian-2p", "name": "x"}, seats, {"name": "x"})
        await store.append("tab1", [(2, "game", {"game_no": 0, "dealer": 1}), (3, "chat", {"text": "ciao ✓"})],
                           seat=SeatRow(0, "human", "heuristic:medium", "Ann", True, token_hash("t0")),
                           status="playing")
        with pytest.raises(sqlalchemy.exc.IntegrityError):  # an event number is written once, never twice
            await store.append("tab1", [(3, "chat", {"text": "again"})])
        rows = await store.load_tables()
        assert [r.id for r in rows] == ["tab1"] and rows[0].status == "playing"
        assert rows[0].seats[0].claimed and rows[0].seats[0].token_hash == token_hash("t0")
        evs = await store.load_events("tab1")
        assert [(e.n, e.kind) for e in evs] == [(1, "created"), (2, "game"), (3, "chat")]
        assert evs[2].data == {"text": "ciao ✓"}
        assert [e.n for e in await store.load_events("tab1", after=2)] == [3]
        assert await store.load_tables(("finished",)) == []
        await store.close()

    run(go())


def test_timestamps_idle_waiting_tables_and_game_counts(db_url: str) -> None:
    async def go() -> None:
        store = Store(db_url)
        await store.migrate()
        seat = [SeatRow(0, "human", "heuristic:medium", "Ann", False, "")]
        await store.create_table("old", {"rules": "italian"}, seat, {"name": "old"}, at=1000.0)
        await store.create_table("new", {"rules": "italian"}, seat, {"name": "new"}, at=5000.0)
        await store.create_table("play", {"rules": "italian"}, seat, {"name": "p"}, at=1000.0)
        await store.append("play", [(2, "game", {}), (3, "game_end", {}), (4, "game_end", {})], status="playing",
                           at=1234.5)
        assert [e.at for e in await store.load_events("play")] == [1000.0, 1234.5, 1234.5, 1234.5]
        assert await store.idle_waiting(2000.0) == ["old"]  # waiting, and nothing happened there since 1000
        assert sorted(await store.idle_waiting(6000.0)) == ["new", "old"]
        assert await store.game_counts(["play", "old"]) == {"play": 2}
        assert await store.game_counts([]) == {}
        await store.close()

    run(go())


def test_server_restarted_on_the_same_store_resumes_the_table(db_url: str) -> None:
    easy = {"kind": "computer", "level": "heuristic:easy"}
    with thread_server(fast_config(db_url)) as server:
        t = create(server.url, preset="italian", hands=1, seats=[{"kind": "human"}, easy, easy, easy])
        done = create(server.url, preset="italian-2p", hands=1, seats=[easy, easy])

        async def first() -> dict[str, object]:
            north = await Client.open(server.ws_url)
            await north.hello(t["id"], t["tokens"]["N"])
            await north.until(lambda m: m["type"] == "state" and my_turn(m))
            await north.send({"type": "act", "action": "N draw", "n": north.last_n})
            st = await north.until(lambda m: m["type"] == "state" and m["view"]["phase"] == "play")
            watcher = await Client.open(server.ws_url)
            await watcher.hello(done["id"])
            if not watcher.state or watcher.state["table"]["status"] != "finished":
                await watcher.until(lambda m: m["type"] == "event" and m["kind"] == "game_end", 60)
            await north.close()
            await watcher.close()
            return st

        before = run(first())
    with thread_server(fast_config(db_url)) as server:

        async def second() -> None:
            north = await Client.open(server.ws_url)
            await north.hello(t["id"], t["tokens"]["N"], last=before["n"])
            st = north.state
            assert st is not None and st["n"] == before["n"]
            assert st["view"] == before["view"]  # the same hand, the same turn, the same cards
            await hint_player(north)
            await north.close()

        run(second())
        hub = server.app.state.hub
        assert t["id"] in hub.tables and done["id"] not in hub.tables  # finished tables load on demand
        status, games = http("GET", server.url + f"/api/tables/{done['id']}/games")
        assert done["id"] in hub.tables
        assert status == 200 and len(games["games"]) == 1
        for tid in (t["id"], done["id"]):
            status, rec = http("GET", server.url + f"/api/tables/{tid}/games/0/record")
            assert status == 200 and replay(rec)["ok"]


def test_finished_tables_leave_memory_and_come_back_on_demand(tmp_path: Path) -> None:
    easy = {"kind": "computer", "level": "heuristic:easy"}
    with thread_server(fast_config(sqlite_url(tmp_path / "u.sqlite3"), unload_after=0.3)) as server:
        hub = server.app.state.hub
        t = create(server.url, preset="italian-2p", hands=1, seats=[easy, easy])

        async def wait_unloaded() -> None:
            while t["id"] in hub.tables:
                await asyncio.sleep(0.05)

        run(wait_unloaded(), timeout=60)  # it plays to the end, then nobody watches it
        status, games = http("GET", server.url + f"/api/tables/{t['id']}/games")
        assert status == 200 and len(games["games"]) == 1 and t["id"] in hub.tables


@pytest.mark.parametrize("setting, expect", [(None, 2), ("normal", 1), ("FULL", 2)])
def test_sqlite_syncs_every_commit_unless_told_normal(tmp_path: Path, setting: str | None, expect: int) -> None:
    """SQLite's ``synchronous``: FULL (2) by default, so that a power cut loses no acknowledged action; NORMAL (1)
    only when asked for (docs/deploy.md gives the risk and the cost)."""

    async def go() -> int:
        store = Store(sqlite_url(tmp_path / "s.sqlite3"), sqlite_synchronous=setting)
        await store.migrate()
        async with store.engine.connect() as conn:
            got = (await conn.exec_driver_sql("PRAGMA synchronous")).scalar()
            mode = (await conn.exec_driver_sql("PRAGMA journal_mode")).scalar()
        await store.close()
        assert mode == "wal"
        return int(got)

    assert run(go()) == expect


def test_sqlite_synchronous_refuses_an_unknown_setting() -> None:
    with pytest.raises(ValueError, match="FULL, NORMAL or EXTRA"):
        Store("sqlite+aiosqlite:///x.sqlite3", sqlite_synchronous="OFF")

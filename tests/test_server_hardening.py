"""The server's defences and its consistency under races (issue 5 review): per-IP HTTP limits, caps on tables of
computer players only, the janitor (unloading, abandoned tables), hints off the table lock, seat changes only
after the store committed, one timestamp per event, the director's time-out, lazy loading at start.

Most tests drive a :class:`Hub` directly in the test's own event loop (fast, and races can be staged exactly);
the rest go through a real server."""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import json
import threading
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest

from burraco.server import ServerConfig
from burraco.server.app import IpLimits
from burraco.server.hub import Hub
from burraco.server.ratelimit import BucketMap, ip_key
from burraco.server.store import Store
from burraco.server.tables import Table, TableGone
from server_support import create, fast_config, http, run, sqlite_url, thread_server

HUMAN = {"kind": "human"}
OPEN = {"kind": "open"}
EASY = {"kind": "computer", "level": "heuristic:easy"}


class FakeConn:
    """A connection as the tables see it, keeping what it was sent."""

    def __init__(self) -> None:
        self.seat: int | None = None
        self.table: Table | None = None
        self.lang = "en"
        self.ip = "127.0.0.1"
        self.guest: str | None = None
        self.account: str | None = None
        self.bot = False
        self.got: list[dict[str, Any]] = []

    def send(self, msg: dict[str, Any] | str) -> None:
        self.got.append(json.loads(msg) if isinstance(msg, str) else msg)

    def send_close(self) -> None:
        pass


@contextlib.asynccontextmanager
async def hub_for(tmp_path: Path, name: str = "hub", **kw: Any) -> AsyncIterator[Hub]:
    cfg = fast_config(sqlite_url(tmp_path / f"{name}.sqlite3"), **kw)
    hub = Hub(cfg, Store(cfg.db_url))
    await hub.start()
    try:
        yield hub
    finally:
        await hub.stop()


async def until(pred: Callable[[], bool], timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not pred():
        if time.monotonic() > deadline:
            raise TimeoutError("the condition did not come true")
        await asyncio.sleep(0.005)


async def seated(hub: Hub, spec: dict[str, Any]) -> tuple[Table, FakeConn, dict[str, Any]]:
    """A new table with North's connection attached."""
    out = await hub.create_table(spec)
    t = hub.tables[out["id"]]
    conn = FakeConn()
    await t.attach(conn, out["tokens"]["N"], None, None)
    return t, conn, out


def north_to_play(t: Table) -> bool:
    g = t.game
    return t.hand_running() and g is not None and g.current_seat == 0


# ----- 1. HTTP limits, unknown ids, the replay cache -------------------------------------------------------------
def test_http_routes_are_rate_limited_per_ip(tmp_path: Path) -> None:
    with thread_server(fast_config(sqlite_url(tmp_path / "h.sqlite3"), http_rate=0.01, http_burst=3)) as server:
        for _ in range(3):
            assert http("GET", server.url + "/api/tables/nope")[0] == 404
        status, out = http("GET", server.url + "/api/tables/nope")
        assert status == 429 and out["error"] == "rate_limited" and out["message"]
        assert http("GET", server.url + "/api/tables")[0] == 429


def test_unknown_table_ids_do_not_query_the_store_each_time(tmp_path: Path) -> None:
    async def go() -> None:
        async with hub_for(tmp_path) as hub:
            assert hub._resume is not None
            await hub._resume  # the tables in play are resumed at start (none here)
            calls = 0
            real = hub.store.load_tables

            async def counting(*a: Any, **kw: Any) -> Any:
                nonlocal calls
                calls += 1
                return await real(*a, **kw)

            hub.store.load_tables = counting  # type: ignore[method-assign]
            assert await asyncio.gather(*(hub.get("unknownid") for _ in range(5))) == [None] * 5
            assert await hub.get("unknownid") is None
            assert await hub.get("bad/id!") is None
            assert calls == 1

    run(go())


def test_replay_is_computed_once_per_finished_game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import burraco.server.app as app_mod

    calls = 0
    real = app_mod.replay_steps

    def counting(rec: dict[str, Any]) -> dict[str, Any]:
        nonlocal calls
        calls += 1
        return real(rec)

    monkeypatch.setattr(app_mod, "replay_steps", counting)
    with thread_server(fast_config(sqlite_url(tmp_path / "r.sqlite3"))) as server:
        t = create(server.url, preset="italian-2p", hands=1, seats=[EASY, EASY])
        deadline = time.monotonic() + 30
        while http("GET", server.url + f"/api/tables/{t['id']}")[1]["status"] != "finished":
            assert time.monotonic() < deadline
            time.sleep(0.05)
        url = server.url + f"/api/tables/{t['id']}/games/0/replay"
        with concurrent.futures.ThreadPoolExecutor(4) as pool:  # at once: computed once all the same
            answers = list(pool.map(lambda _: http("GET", url), range(4)))
        s1, r1 = http("GET", url)
        assert s1 == 200 and r1["hands"][0]["steps"] and all(a == (200, r1) for a in answers)
        assert calls == 1


# ----- 2. tables of computer players only ------------------------------------------------------------------------
def test_computer_only_tables_are_capped_per_ip_and_globally(tmp_path: Path) -> None:
    async def go() -> None:
        async with hub_for(tmp_path, computer_tables_per_ip=1, computer_tables=2, computer_table_delay=5.0) as hub:
            spec = {"preset": "italian-2p", "seats": [EASY, EASY]}
            await hub.create_table(spec, owner_ip="10.0.0.1")
            with pytest.raises(Exception, match="at most 1 table"):
                await hub.create_table(spec, owner_ip="10.0.0.1")
            await hub.create_table({"preset": "italian-2p", "seats": [HUMAN, EASY]}, owner_ip="10.0.0.1")
            await hub.create_table(spec, owner_ip="10.0.0.2")
            with pytest.raises(Exception, match="as many tables of computer players"):
                await hub.create_table(spec, owner_ip="10.0.0.3")

    run(go())


def test_computer_only_table_over_http_answers_429(tmp_path: Path) -> None:
    cfg = fast_config(sqlite_url(tmp_path / "c.sqlite3"), computer_tables_per_ip=1, computer_table_delay=5.0)
    with thread_server(cfg) as server:
        create(server.url, preset="italian-2p", seats=[EASY, EASY])
        status, out = http("POST", server.url + "/api/tables", {"preset": "italian-2p", "seats": [EASY, EASY]})
        assert status == 429 and out["error"] == "rate_limited"


def test_computer_only_tables_are_paced(tmp_path: Path) -> None:
    async def go() -> None:
        async with hub_for(tmp_path, computer_table_delay=0.1) as hub:
            out = await hub.create_table({"preset": "italian-2p", "seats": [EASY, EASY]})
            t = hub.tables[out["id"]]

            def actions() -> int:
                return sum(1 for ev in t.events if ev.kind == "action")

            # the first move, however long a loaded machine takes to come to it; then half a second of play
            deadline = time.monotonic() + 30
            while actions() == 0 and time.monotonic() < deadline:
                await asyncio.sleep(0.02)
            first = actions()
            await asyncio.sleep(0.5)
            assert first >= 1 and actions() <= first + 6, (first, actions())  # flat out, it would be hundreds

    run(go())


# ----- 3. unloading idle tables -------------------------------------------------------------------------------------
def test_a_table_found_while_the_janitor_waits_for_its_lock_stays(tmp_path: Path) -> None:
    async def go() -> None:
        async with hub_for(tmp_path, unload_after=0.05) as hub:
            out = await hub.create_table({"preset": "italian", "seats": [HUMAN, OPEN, OPEN, OPEN]})
            t = hub.tables[out["id"]]
            t.status = "finished"  # a finished table nobody watched for a while
            t.touched -= 10
            await t.lock.acquire()  # busy: the janitor has to wait for the lock
            janitor = asyncio.create_task(hub.unload_idle())
            await asyncio.sleep(0.01)
            assert await hub.get(out["id"]) is t  # a hello finds it (and will attach once it has the lock)
            t.lock.release()
            await janitor
            assert hub.tables.get(out["id"]) is t and not t.unloaded

    run(go())


def test_an_unloaded_copy_refuses_to_attach_and_hello_gets_a_fresh_one(tmp_path: Path) -> None:
    async def go() -> None:
        async with hub_for(tmp_path, unload_after=0.01) as hub:
            out = await hub.create_table({"preset": "italian", "seats": [HUMAN, OPEN, OPEN, OPEN]})
            old = hub.tables[out["id"]]
            old.status = "finished"
            old.touched -= 10
            await hub.unload_idle()
            assert out["id"] not in hub.tables and old.unloaded
            with pytest.raises(TableGone):
                await old.attach(FakeConn(), out["tokens"]["N"], None, None)
            with pytest.raises(TableGone):
                await old._emit([("chat", {"seat": None, "name": "x", "text": "y"})])
            fresh = await hub.get(out["id"])
            assert fresh is not None and fresh is not old and fresh.n == old.n

    run(go())


# ----- 4. the hint is computed off the lock --------------------------------------------------------------------------
def test_hint_is_computed_without_holding_the_table_lock(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import burraco.server.tables as tables_mod

    real = tables_mod.engine_hint
    locked: list[bool] = []
    table: list[Table] = []

    def spy(*a: Any) -> Any:
        locked.append(table[0].lock.locked())
        return real(*a)

    monkeypatch.setattr(tables_mod, "engine_hint", spy)

    async def go() -> None:
        async with hub_for(tmp_path) as hub:
            t, conn, _ = await seated(hub, {"preset": "italian", "hands": 1, "seats": [HUMAN, EASY, EASY, EASY]})
            table.append(t)
            await until(lambda: north_to_play(t))
            reply = await t.handle(conn, {"type": "hint"})
            assert reply is not None and reply["type"] == "hint" and locked == [False]

    run(go())


def test_a_hint_overtaken_by_the_game_is_refused_as_stale(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import burraco.server.tables as tables_mod

    real = tables_mod.engine_hint
    go_on = threading.Event()
    started = threading.Event()

    def slow(*a: Any) -> Any:
        started.set()
        go_on.wait(10)
        return real(*a)

    monkeypatch.setattr(tables_mod, "engine_hint", slow)

    async def go() -> None:
        async with hub_for(tmp_path) as hub:
            t, conn, _ = await seated(hub, {"preset": "italian", "hands": 1, "seats": [HUMAN, EASY, EASY, EASY]})
            await until(lambda: north_to_play(t))
            hint = asyncio.create_task(t.handle(conn, {"type": "hint"}))
            await until(started.is_set)
            with pytest.raises(Exception, match="being computed"):  # one hint at a time per seat
                await t.handle(conn, {"type": "hint"})
            g = t.game
            assert g is not None
            # the table is not stalled by the hint: North plays meanwhile
            await asyncio.wait_for(t.handle(conn, {"type": "act", "action": str(g.legal_actions()[0]),
                                                  "n": t.n}), 2.0)
            go_on.set()
            with pytest.raises(Exception) as e:
                await hint
            assert getattr(e.value, "code", None) == "stale"

    run(go())


# ----- 5. seats change in memory only after the store committed ---------------------------------------------------
def test_a_failed_commit_changes_no_seat(tmp_path: Path) -> None:
    async def go() -> None:
        async with hub_for(tmp_path) as hub:
            out = await hub.create_table({"preset": "italian", "seats": [HUMAN, OPEN, OPEN, OPEN]})
            t = hub.tables[out["id"]]
            spectator = FakeConn()
            await t.attach(spectator, None, None, None)
            real = hub.store.append

            async def failing(*a: Any, **kw: Any) -> None:
                raise RuntimeError("the store is down")

            hub.store.append = failing  # type: ignore[method-assign]
            with pytest.raises(RuntimeError):
                await t.handle(spectator, {"type": "take", "seat": "E", "name": "Eve"})
            e = t.seats[1]
            assert (e.kind, e.claimed, e.token_hash, e.name, e.connected) == ("open", False, "", "Seat E", 0)
            assert spectator.seat is None
            north = FakeConn()
            with pytest.raises(RuntimeError):  # North's first visit claims the seat: not committed, not claimed
                await t.attach(north, out["tokens"]["N"], "Nina", None)
            assert not t.seats[0].claimed and t.seats[0].name == "Player N"
            assert north.table is None and north not in t.conns and t.seats[0].connected == 0
            hub.store.append = real  # type: ignore[method-assign]
            reply = await t.handle(spectator, {"type": "take", "seat": "E", "name": "Eve"})
            assert reply is not None and reply["type"] == "seated" and t.seats[1].name == "Eve"
            assert spectator.seat == 1
            # and leave, with the store failing: the seat is still Eve's
            hub.store.append = failing  # type: ignore[method-assign]
            with pytest.raises(RuntimeError):
                await t.handle(spectator, {"type": "leave"})
            assert t.seats[1].kind == "human" and spectator.seat == 1

    run(go())


# ----- 6. per-IP buckets --------------------------------------------------------------------------------------------
def test_ip_keys_group_ipv6_by_64() -> None:
    assert ip_key("203.0.113.7") == "203.0.113.7"
    assert ip_key("2001:db8:1:2:aaaa::1") == ip_key("2001:db8:1:2:ffff:1:2:3") == "2001:db8:1:2::/64"
    assert ip_key("2001:db8:1:3::1") != ip_key("2001:db8:1:2::1")
    assert ip_key("::ffff:198.51.100.4") == "198.51.100.4"
    assert ip_key("testclient") == "testclient"


def test_a_flood_of_new_addresses_does_not_reset_the_limits_in_use() -> None:
    cfg = ServerConfig(db_url="sqlite+aiosqlite://", ip_rate=0.001, ip_burst=2, ip_tables_per_minute=1)
    limits = IpLimits(cfg)
    ip = ip_key("2001:db8::1")
    assert limits.bucket(ip).take() and limits.bucket(ip).take() and not limits.bucket(ip).take()
    assert limits.create_bucket(ip).take() and not limits.create_bucket(ip).take()
    for i in range(10_050):  # the old code cleared every bucket past 10 000 addresses
        limits.bucket(f"10.{i >> 16 & 255}.{i >> 8 & 255}.{i & 255}").take()
        limits.create_bucket(f"10.{i >> 16 & 255}.{i >> 8 & 255}.{i & 255}").take()
    assert not limits.bucket(ip).take() and not limits.create_bucket(ip).take()
    # rotating addresses inside the same /64 does not help either
    assert not limits.bucket(ip_key("2001:db8::dead:beef")).take()


def test_bucket_map_forgets_full_buckets_first_then_the_least_recently_used() -> None:
    m = BucketMap(rate=1000.0, burst=1.0, cap=3)
    for k in "abc":
        m.take(k)
    time.sleep(0.01)  # every bucket refilled: forgetting them loses nothing
    m.take("d")
    assert len(m) == 1 and "d" in m
    slow = BucketMap(rate=0.001, burst=1.0, cap=10)
    for i in range(10):
        slow.take(str(i))
    slow.take("0")  # used again: now the most recent
    slow.take("new")
    assert "0" in slow and "1" not in slow and "new" in slow


# ----- 7. one timestamp per event --------------------------------------------------------------------------------
def test_stored_and_broadcast_timestamps_are_the_same(tmp_path: Path) -> None:
    async def go() -> None:
        async with hub_for(tmp_path) as hub:
            t, conn, _ = await seated(hub, {"preset": "italian", "hands": 1, "seats": [HUMAN, EASY, EASY, EASY]})
            await t.handle(conn, {"type": "chat", "text": "ciao"})
            await until(lambda: north_to_play(t))
            sent = {m["n"]: m["at"] for m in conn.got if m["type"] == "event"}
            stored = {ev.n: ev.at for ev in await hub.store.load_events(t.id)}
            assert sent and all(stored[n] == at for n, at in sent.items())
            assert all(ev.at == stored[ev.n] for ev in t.events)

    run(go())


# ----- 8. seats named by letter too -----------------------------------------------------------------------------
def test_seat_away_and_chat_events_carry_the_seat_letter(tmp_path: Path) -> None:
    async def go() -> None:
        async with hub_for(tmp_path) as hub:
            out = await hub.create_table({"preset": "italian", "seats": [HUMAN, OPEN, OPEN, OPEN]})
            t = hub.tables[out["id"]]
            north, west = FakeConn(), FakeConn()
            await t.attach(north, out["tokens"]["N"], "Nina", None)
            await t.attach(west, None, None, None)
            await t.handle(west, {"type": "take", "seat": "W"})
            await t.handle(west, {"type": "chat", "text": "hi"})
            evs = [m for m in north.got if m["type"] == "event"]
            seat_ev = [m["data"] for m in evs if m["kind"] == "seat"]
            assert seat_ev[-1]["seat"] == 3 and seat_ev[-1]["seat_letter"] == "W"
            chat = [m["data"] for m in evs if m["kind"] == "chat"]
            assert chat == [{"seat": "W", "seat_letter": "W", "name": "Player W", "text": "hi"}]

    run(go())


# ----- 9. abandoned tables, lazy loading -------------------------------------------------------------------------
def test_waiting_tables_without_human_activity_are_closed(tmp_path: Path) -> None:
    async def go() -> None:
        async with hub_for(tmp_path, abandon_after=0.2) as hub:
            idle = await hub.create_table({"preset": "italian", "seats": [HUMAN, OPEN, OPEN, OPEN]})
            busy = await hub.create_table({"preset": "italian", "seats": [HUMAN, OPEN, OPEN, OPEN]})
            watcher = FakeConn()
            await hub.tables[busy["id"]].attach(watcher, busy["tokens"]["N"], None, None)
            await asyncio.sleep(0.3)
            await hub.close_abandoned()
            t = hub.tables[idle["id"]]
            assert t.status == "abandoned" and t.events[-1].kind == "closed"
            assert hub.tables[busy["id"]].status == "waiting"
            rows = await hub.store.load_tables(ids=[idle["id"]])
            assert rows[0].status == "abandoned"
            assert idle["id"] not in [x["id"] for x in await hub.lobby()]
            with pytest.raises(Exception, match="closed"):
                await t.handle(watcher, {"type": "fill"})

    run(go())


def test_at_start_no_table_is_rebuilt_until_asked_for(tmp_path: Path) -> None:
    async def go() -> None:
        async with hub_for(tmp_path, "lazy") as hub:
            out = await hub.create_table({"preset": "italian", "name": "later", "seats": [HUMAN, OPEN, OPEN, OPEN]})
        async with hub_for(tmp_path, "lazy") as hub:
            assert hub.tables == {}
            lobby = await hub.lobby()
            assert [x["id"] for x in lobby] == [out["id"]] and lobby[0]["name"] == "later"
            assert hub.tables == {}
            t = await hub.get(out["id"])
            assert t is not None and t.status == "waiting"
            assert list(hub.tables) == [out["id"]] and hub.tables[out["id"]] is t
            assert [x["id"] for x in await hub.lobby()] == [out["id"]]

    run(go())


def test_stop_waits_for_the_janitor_inside_a_store_call(tmp_path: Path) -> None:
    """Stopping while the janitor is inside a store transaction: the janitor has unwound (and given its connection
    back) before the store closes, so the server's stop never hangs on it."""

    async def go() -> None:
        inside = asyncio.Event()
        async with hub_for(tmp_path, abandon_after=0.2) as hub:

            async def slow_close_abandoned() -> None:
                async with hub.store.engine.begin():
                    inside.set()
                    await asyncio.sleep(30)

            hub.close_abandoned = slow_close_abandoned  # type: ignore[method-assign]
            await asyncio.wait_for(inside.wait(), 10)
        assert hub._janitor is not None and hub._janitor.done()

    run(go(), timeout=20)


def test_tables_in_play_resume_at_start_without_being_asked_for(tmp_path: Path) -> None:
    """A restart resumes every table in play where it was (issue: tables that survive everything): its computer
    players go on playing though nobody opened the table; waiting tables stay in the store until asked for."""

    async def go() -> None:
        async with hub_for(tmp_path, "resume", computer_table_delay=0.05) as hub:
            out = await hub.create_table({"preset": "italian-2p", "seats": [EASY, EASY]})
            waiting = await hub.create_table({"preset": "italian", "seats": [HUMAN, OPEN, OPEN, OPEN]})
            t = hub.tables[out["id"]]
            await until(lambda: sum(1 for ev in t.events if ev.kind == "action") >= 2)
            assert t.status == "playing"
        async with hub_for(tmp_path, "resume", computer_table_delay=0.05) as hub:
            await until(lambda: out["id"] in hub.tables)
            t = hub.tables[out["id"]]
            before = len(t.events)
            await until(lambda: len(t.events) > before + 2)  # its computer players play on by themselves
            assert waiting["id"] not in hub.tables

    run(go())


# ----- 10. the director's time-out --------------------------------------------------------------------------------
def test_the_creator_calls_time_out_where_the_rules_have_it(tmp_path: Path) -> None:
    async def go() -> None:
        async with hub_for(tmp_path) as hub:
            seats = [HUMAN, EASY, EASY, EASY]
            t, conn, out = await seated(hub, {"preset": "italian-tournament", "seats": seats})
            await until(lambda: north_to_play(t))
            spectator = FakeConn()
            await t.attach(spectator, None, None, None)
            for token in (None, "nope", out["tokens"]["N"]):
                with pytest.raises(Exception) as e:
                    await t.handle(spectator, {"type": "timeout", "token": token, "n": t.n})
                assert getattr(e.value, "code", None) == "bad_token"
            await t.handle(spectator, {"type": "timeout", "token": out["creator"], "n": t.n})
            assert any(ev.kind == "action" and ev.data == {"seat": "", "action": "timeout"} for ev in t.events)
            with pytest.raises(Exception) as e:  # one time-out per hand
                await t.handle(spectator, {"type": "timeout", "token": out["creator"], "n": t.n})
            assert getattr(e.value, "code", None) == "illegal"
            free, fconn, fout = await seated(hub, {"preset": "italian", "seats": seats})
            await until(lambda: north_to_play(free))
            with pytest.raises(Exception) as e:  # no time-outs in these rules
                await free.handle(fconn, {"type": "timeout", "token": fout["creator"], "n": free.n})
            assert getattr(e.value, "code", None) == "illegal"

    run(go())


# ----- 12. engine refusals and hints in the player's language ------------------------------------------------------
def render_like_a_client(m: dict[str, Any], cat: dict[str, Any], en: dict[str, Any]) -> str:
    """The template rules of docs/protocol.md ("Engine messages in every language"), as a client implements them
    from the served catalogue alone (static/core.js does the same in JavaScript)."""
    import re

    tpl = cat["templates"].get(m["code"]) or en["templates"][m["code"]]
    words = cat["words"]

    def value(v: Any, table: str | None) -> str:
        if isinstance(v, dict):
            return render_like_a_client(v, cat, en)
        if isinstance(v, list):
            return str((words.get("join") or en["words"]["join"])["and"]).join(value(x, table) for x in v)
        if table is not None:
            w = words.get(table, {}).get(str(v), en["words"].get(table, {}).get(str(v)))
            return str(v) if w is None else str(w)
        return str(v)

    def field(f: re.Match[str]) -> str:
        name, table, one, other = f.groups()
        v = m["params"].get(name, "?")
        if one is not None:
            return one if v == 1 else other
        return value(v, table)

    return re.sub(r"\{(\w+)(?::(\w+))?(?:\|([^|{}]*)\|([^{}]*))?\}", field, tpl)


def test_an_illegal_meld_reaches_the_client_as_a_message_it_renders_in_italian(tmp_path: Path) -> None:
    from burraco.messages import message_from_json, render
    from server_support import Client

    with thread_server(fast_config(sqlite_url(tmp_path / "m.sqlite3"))) as server:
        t = create(server.url, preset="italian", hands=1, seats=[HUMAN, EASY, EASY, EASY])

        async def go() -> tuple[dict[str, Any], dict[str, Any]]:
            c = await Client.open(server.ws_url)
            await c.hello(t["id"], t["tokens"]["N"])
            st = await c.until(lambda m: m["type"] == "state" and m["view"] and m["view"]["turn"] == "N"
                               and m["table"]["status"] == "playing")
            await c.send({"type": "hint"})
            hint = await c.until("hint")
            await c.send({"type": "act", "action": "N draw", "n": st["n"]})
            st = await c.until(lambda m: m["type"] == "state" and m["view"]["phase"] == "play")
            two = st["view"]["hand"][:2]
            await c.send({"type": "act", "action": "N meld " + " ".join(two), "n": st["n"], "ref": 7})
            err = await c.until("error")
            await c.close()
            return err, hint

        err, hint = run(go())
        assert err["code"] == "illegal" and err["ref"] == 7
        assert err["msg"]["code"] == "not_a_meld" and isinstance(err["msg"]["params"]["reason"], dict)
        assert render(message_from_json(err["msg"]), "en") == err["message"]
        assert hint["msg"]["code"] and render(message_from_json(hint["msg"]), "en") == hint["reason"]
        status, en = http("GET", server.url + "/messages/en.json")
        status_it, it = http("GET", server.url + "/messages/it.json")
        assert status == status_it == 200
        assert render_like_a_client(err["msg"], en, en) == err["message"]
        italian = render_like_a_client(err["msg"], it, en)
        assert italian == render(message_from_json(err["msg"]), "it") and italian != err["message"]
        assert render_like_a_client(hint["msg"], it, en) == render(message_from_json(hint["msg"]), "it")
        assert http("GET", server.url + "/messages/xx.json")[0] == 404

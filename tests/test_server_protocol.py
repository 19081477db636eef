"""The websocket protocol (docs/protocol.md) over real websockets against a real uvicorn server: views, bad input,
stale actions, reconnection with a gap, seats, take-overs, clocks, chat, hints, finished games and records."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed, InvalidStatus

from burraco import replay
from burraco.server.protocol import PROTOCOL_VERSION
from server_support import (
    Client,
    ThreadServer,
    create,
    fast_config,
    hint_player,
    http,
    my_turn,
    run,
    sqlite_url,
    thread_server,
)

HUMAN = {"kind": "human"}
EASY = {"kind": "computer", "level": "heuristic:easy"}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ThreadServer]:
    db = tmp_path_factory.mktemp("db") / "protocol.sqlite3"
    with thread_server(fast_config(sqlite_url(db))) as s:
        yield s


def solo(server: ThreadServer, **kw: Any) -> dict[str, Any]:
    """One human at N, three easy computers."""
    return create(server.url, preset="italian", hands=1, seats=[HUMAN, EASY, EASY, EASY], **kw)


async def joined(server: ThreadServer, table: str, token: str | None = None, **kw: Any) -> Client:
    c = await Client.open(server.ws_url)
    await c.hello(table, token, **kw)
    return c


def test_http_create_lobby_and_refusals(server: ThreadServer) -> None:
    t = solo(server, name="my table")
    assert set(t["tokens"]) == {"N"} and t["links"]["N"] == f"/t/{t['id']}#t={t['tokens']['N']}"
    assert len(t["tokens"]["N"]) >= 24  # secrets.token_urlsafe: not guessable
    status, lobby = http("GET", server.url + "/api/tables")
    assert status == 200 and t["id"] in [x["id"] for x in lobby["tables"]]
    for body, word in [
        ({"preset": "italiano"}, "unknown preset"),
        ({"preset": []}, "unknown preset"),
        ({"preset": "italian", "seats": [HUMAN]}, "must list 4 seats"),
        ({"preset": "italian", "seats": [{"kind": "robot"}] * 4}, "kind must be"),
        ({"preset": "italian", "seats": [{"kind": "computer", "level": "god"}] * 4}, "unknown computer level"),
        ({"preset": "italian", "clock": -1}, "'clock'"),
        ({"preset": "italian", "target": "high"}, "'target'"),
        ({"preset": "italian-2p", "players": 7}, "players"),
        ({"preset": "italian-3p", "seats": [HUMAN] * 4}, "must list 3 seats (A B C)"),
    ]:
        status, out = http("POST", server.url + "/api/tables", body)
        assert status == 400 and word in out["message"], (body, out)
    assert http("GET", server.url + "/api/tables/nope")[0] == 404
    status, out = http("POST", server.url + "/api/tables", {"preset": "italian", "name": "x" * 20000})
    assert status == 413 and out["error"] == "too_large"
    status, p = http("GET", server.url + "/api/presets")
    assert status == 200 and p["protocol"] == PROTOCOL_VERSION and "italian" in [x["name"] for x in p["presets"]]


def test_seat_gets_its_own_view_spectator_the_public_one(server: ThreadServer) -> None:
    t = solo(server)

    async def go() -> None:
        spec = await joined(server, t["id"])
        north = await joined(server, t["id"], t["tokens"]["N"])
        st = north.state
        assert st is not None and st["you"] == "N"
        # the game starts once the human has joined: wait for North's turn
        st = await north.until(lambda m: m["type"] == "state" and my_turn(m))
        v = st["view"]
        assert len(v["hand"]) == 11 and v["seat"] == "N" and v["hand_sizes"] == {s: 11 for s in "NESW"}
        sp = await spec.until(lambda m: m["type"] == "state" and m["view"] is not None)
        assert sp["you"] is None and sp["view"]["hand"] == [] and sp["view"]["drawn"] is None
        assert sp["view"]["melds"] == v["melds"] and sp["view"]["pile"] == v["pile"]
        # the deal never goes out: the hand event announces the hand without its cards
        hand_events = [m for m in north.got + spec.got if m["type"] == "event" and m["kind"] == "hand"]
        assert hand_events and all("deal" not in m["data"] for m in hand_events)
        await north.close()
        await spec.close()

    run(go())


def test_bad_input_gets_an_error_and_the_connection_stays_up(server: ThreadServer) -> None:
    t = solo(server)

    async def go() -> None:
        c = await Client.open(server.ws_url)

        async def err(msg: Any) -> dict[str, Any]:
            await c.send(msg)
            return await c.until("error")

        assert (await err("{not json"))["code"] == "bad_json"
        assert (await err({"type": "act", "action": "N draw", "n": 1}))["code"] == "no_table"
        assert (await err({"type": "dance"}))["code"] == "unknown_type"
        assert (await err([1, 2]))["code"] == "bad_message"
        assert (await err({"type": "chat", "text": "x" * 10000}))["code"] == "too_large"
        assert (await err("[" * 2000 + "]" * 2000))["code"] == "bad_json"  # too deep for the parser
        await c.ws.send(b"\x00binary")
        assert (await c.until("error"))["code"] == "bad_message"
        assert (await err({"type": "hello", "v": 99, "table": t["id"]}))["code"] == "version"
        assert (await err({"type": "hello", "v": 1, "table": "nope"}))["code"] == "no_table"
        forged = await err({"type": "hello", "v": 1, "table": t["id"], "token": "guess"})
        # a token that never was this table's is not told that its seat was given away (issue 39)
        assert forged["code"] == "bad_token" and "it never was" in forged["message"], forged
        await c.hello(t["id"])  # a spectator now
        assert (await err({"type": "act", "action": "N draw", "n": 1}))["code"] == "not_seated"
        n = await joined(server, t["id"], t["tokens"]["N"])
        st = await n.until(lambda m: m["type"] == "state" and my_turn(m))
        k = st["n"]

        async def nerr(msg: dict[str, Any]) -> dict[str, Any]:
            await n.send(msg)
            return await n.until("error")

        assert (await nerr({"type": "act", "action": "E draw", "n": k}))["code"] == "other_seat"
        assert (await nerr({"type": "act", "action": "timeout", "n": k}))["code"] == "other_seat"
        assert (await nerr({"type": "act", "action": "N fly", "n": k}))["code"] == "invalid"
        assert (await nerr({"type": "act", "action": "N add \u00b2 5h", "n": k}))["code"] == "invalid"
        assert (await nerr({"type": "act", "action": "N discard 7h", "n": k}))["code"] in ("illegal", "invalid")
        assert (await nerr({"type": "act", "action": "N draw", "n": "x"}))["code"] == "bad_message"
        assert (await nerr({"type": "act", "action": "N draw", "n": k + 50}))["code"] == "bad_message"
        await n.send({"type": "act", "action": "N draw", "n": k, "ref": 7})
        ev = await n.until(lambda m: m["type"] == "event")
        assert ev["n"] == k + 1 and ev["data"] == {"seat": "N", "action": "N draw"}  # nothing before it
        await n.close()
        await c.close()

    run(go())


def test_errors_apply_nothing_and_ping_still_answers(server: ThreadServer) -> None:
    t = solo(server)

    async def go() -> None:
        n = await joined(server, t["id"], t["tokens"]["N"])
        st = await n.until(lambda m: m["type"] == "state" and my_turn(m))
        k = st["n"]
        for bad in ["N discard 7h", "N meld 3h 4h", "E draw", "N add 1 Kd", "N"]:
            await n.send({"type": "act", "action": bad, "n": k})
            e = await n.until("error")
            assert e["code"] in ("illegal", "invalid", "other_seat", "out_of_turn"), e
            assert e["message"]
        await n.send({"type": "ping", "ref": "p1"})
        assert (await n.until("pong"))["ref"] == "p1"
        await n.send({"type": "sync", "last": k})
        w = await n.until("welcome")
        assert w["n"] == k and w["replay"] == 0  # nothing was applied
        await n.close()

    run(go())


def test_out_of_turn(server: ThreadServer) -> None:
    t = create(server.url, preset="italian-2p", hands=1, seats=[HUMAN, HUMAN])

    async def go() -> None:
        n = await joined(server, t["id"], t["tokens"]["N"])
        s = await joined(server, t["id"], t["tokens"]["S"])
        st = await s.until(lambda m: m["type"] == "state" and m["view"] is not None)
        assert st["view"]["turn"] == "N"
        await s.send({"type": "act", "action": "S draw", "n": st["n"]})
        e = await s.until("error")
        assert e["code"] == "out_of_turn" and "N's turn" in e["message"]
        await n.close()
        await s.close()

    run(go())


def test_stale_actions_are_refused_never_applied_twice(server: ThreadServer) -> None:
    t = create(server.url, preset="italian-2p", hands=1, seats=[HUMAN, HUMAN])

    async def go() -> None:
        n = await joined(server, t["id"], t["tokens"]["N"])
        s = await joined(server, t["id"], t["tokens"]["S"])
        st = await n.until(lambda m: m["type"] == "state" and my_turn(m))
        k = st["n"]
        # the same action twice against the same event number: the first applies; the second, the game event that
        # came right after k, is neither applied again nor refused (what a process relaying the connection sends
        # again when the table changed owner: docs/deploy.md)
        await n.send({"type": "act", "action": "N draw", "n": k})
        await n.send({"type": "act", "action": "N draw", "n": k})
        ev = await n.until(lambda m: m["type"] == "event" and m["kind"] == "action")
        assert ev["data"] == {"seat": "N", "action": "N draw"} and ev["n"] == k + 1
        await n.send({"type": "ping"})
        between = []
        while (m := await n.recv())["type"] != "pong":
            between.append(m)
        assert not [m for m in between if m["type"] == "error" or m.get("kind") == "action"], between
        # an action against an event older than the last game event, not the one that came next: stale
        await n.send({"type": "act", "action": "N draw", "n": 0})
        e = await n.until("error")
        assert e["code"] == "stale"
        # a chat message does not make an action stale (only game events do)
        await s.send({"type": "chat", "text": "hello"})
        await n.until(lambda m: m["type"] == "event" and m["kind"] == "chat")
        st = await n.until("state")
        hand = st["view"]["hand"]
        await n.send({"type": "act", "action": f"N discard {hand[0]}", "n": k + 1})
        ev = await n.until(lambda m: m["type"] == "event" and m["kind"] == "action")
        assert ev["data"]["action"] == f"N discard {hand[0]}"
        # the record holds exactly one draw
        await s.send({"type": "sync", "last": 0})
        await s.until("welcome")
        actions = []
        while True:
            m = await s.recv()
            if m["type"] == "state":
                break
            if m["type"] == "event" and m["kind"] == "action":
                actions.append(m["data"]["action"])
        assert actions == ["N draw", f"N discard {hand[0]}"]
        await n.close()
        await s.close()

    run(go())


def test_batch_sends_what_is_queued_as_one_array_in_the_same_order(server: ThreadServer) -> None:
    """docs/protocol.md "Batches" (1.4): a client that says ``batch`` in ``hello`` gets the very messages another
    gets, in the same order, some of them several to a websocket message (a JSON array); one that does not gets
    one message per websocket message, as before."""
    t = solo(server)

    async def go() -> None:
        plain = await joined(server, t["id"])
        batched = await joined(server, t["id"], batch=True)
        north = await joined(server, t["id"], t["tokens"]["N"], batch=True)
        await hint_player(north, until="hand_end", max_actions=6)
        last = north.last_n
        for c in (plain, batched):
            await c.until(lambda m, c=c: m["type"] == "state" and c.last_n >= last)
        assert all(isinstance(f, dict) for f in plain.frames)
        assert any(isinstance(f, list) and len(f) > 1 for f in batched.frames)
        assert all(isinstance(m, dict) for f in batched.frames if isinstance(f, list) for m in f)

        def told(c: Client) -> list[tuple[Any, ...]]:
            return [(m["type"], m.get("n"), m.get("kind"), m.get("lines")) for m in c.got
                    if m["type"] in ("event", "log", "state") and m.get("n", 0) <= last and not m.get("full")]

        # the batched spectator joined a moment later: compare from its first message on
        b = told(batched)
        p = told(plain)
        assert b and b == p[len(p) - len(b):]
        for c in (plain, batched, north):
            await c.close()

    run(go())


def test_reconnect_with_a_gap_gets_exactly_the_missed_events(server: ThreadServer) -> None:
    t = solo(server)

    async def go() -> None:
        north = await joined(server, t["id"], t["tokens"]["N"])
        spec = await joined(server, t["id"])
        await north.until(lambda m: m["type"] == "state" and my_turn(m))
        await asyncio.sleep(0.1)
        while True:  # drain what the spectator has been sent so far
            try:
                await spec.recv(0.2)
            except TimeoutError:
                break
        seen = spec.last_n
        await spec.close()
        # North plays a turn; the three computers answer: the spectator misses all of it
        played = 0
        await north.send({"type": "hint"})
        while played < 2:
            m = await north.until(lambda m: m["type"] in ("state", "hint"))
            if m["type"] == "state" and my_turn(m):
                await north.send({"type": "hint"})
            elif m["type"] == "hint":
                await north.send({"type": "act", "action": m["action"], "n": m["n"]})
                played += 1
        st = await north.until(lambda m: m["type"] == "state" and my_turn(m))
        # the events North saw after `seen`
        by_n = {m["n"]: m for m in north.got if m["type"] == "event" and m["n"] > seen}
        spec2 = await Client.open(server.ws_url)
        await spec2.send({"type": "hello", "v": 1, "table": t["id"], "last": seen})
        w = await spec2.until("welcome")
        assert w["replay"] == st["n"] - seen
        missed = []
        while True:
            m = await spec2.recv()
            if m["type"] == "state":
                break
            missed.append(m)
        assert [m["n"] for m in missed] == list(range(seen + 1, st["n"] + 1))
        for m in missed:
            if m["n"] in by_n:
                assert {k: m[k] for k in ("kind", "data")} == {k: by_n[m["n"]][k] for k in ("kind", "data")}
        assert sum(1 for m in missed if m["kind"] == "action") >= 2
        # a client ahead of the server (or far behind) gets a full resync: the state only
        spec3 = await Client.open(server.ws_url)
        await spec3.send({"type": "hello", "v": 1, "table": t["id"], "last": st["n"] + 100})
        w = await spec3.until("welcome")
        assert w["replay"] is None
        assert (await spec3.recv())["type"] == "state"
        for c in (north, spec2, spec3):
            await c.close()

    run(go())


def test_take_leave_and_fill_seats(server: ThreadServer) -> None:
    t = create(server.url, preset="italian-2p", hands=1, seats=[{"kind": "open"}, {"kind": "open"}])

    async def go() -> None:
        a = await joined(server, t["id"])
        b = await joined(server, t["id"])
        await a.send({"type": "take", "seat": "S", "name": "Ada"})
        seated = await a.until("seated")
        assert seated["seat"] == "S" and len(seated["token"]) >= 24
        await b.send({"type": "take", "seat": "S"})
        assert (await b.until("error"))["code"] == "seat_taken"
        await b.send({"type": "take", "seat": "Q"})
        assert (await b.until("error"))["code"] == "bad_message"
        st = a.state  # the new state is broadcast before the direct reply
        assert st is not None and st["table"]["seats"][1]["name"] == "Ada" and st["you"] == "S"
        assert st["table"]["status"] == "waiting"
        # the new token works for a second connection of the same player
        a2 = await joined(server, t["id"], seated["token"])
        assert a2.state is not None and a2.state["you"] == "S"
        await a.send({"type": "leave"})
        await a.until("left")
        # the seat's other connection leaves with it: a spectator from now on
        await a2.until("left")
        await b.send({"type": "take", "seat": "S", "name": "Bea"})
        assert (await b.until("seated"))["seat"] == "S"
        await a2.send({"type": "back"})
        assert (await a2.until("error"))["code"] == "not_seated"
        assert a2.state is not None and a2.state["you"] is None
        await a2.close()
        # the old token no longer opens the seat... Ada's was replaced
        bad = await Client.open(server.ws_url)
        await bad.send({"type": "hello", "v": 1, "table": t["id"], "token": seated["token"]})
        assert (await bad.until("error"))["code"] == "bad_token"
        await b.send({"type": "fill", "level": "random"})
        st = await b.until(lambda m: m["type"] == "state" and m["table"]["status"] == "playing")
        assert st["table"]["seats"][0]["kind"] == "computer"
        for c in (a, b, bad):
            await c.close()

    run(go())


def test_a_seat_left_mid_game_is_played_by_the_computer_and_kept_for_its_player(server: ThreadServer) -> None:
    t = create(server.url, preset="italian-2p", hands=1, seats=[HUMAN, HUMAN])

    async def go() -> None:
        n = await joined(server, t["id"], t["tokens"]["N"])
        s = await joined(server, t["id"], t["tokens"]["S"])
        await n.until(lambda m: m["type"] == "state" and my_turn(m))
        await n.send({"type": "leave"})
        await n.until("left")
        # North's seat is kept for him ("left"): the take-over computer plays it, South sees North's moves come
        ev = await s.until(lambda m: m["type"] == "event" and m["kind"] == "action" and m["data"]["seat"] == "N")
        assert ev["data"]["action"] in ("N draw", "N pick")
        assert s.state is not None and s.state["table"]["seats"][0]["kind"] == "left"
        # nobody may take it (not even South's second tab)
        newcomer = await joined(server, t["id"])
        await newcomer.send({"type": "take", "seat": "N", "name": "Nico"})
        assert (await newcomer.until("error"))["code"] == "seat_reserved"
        # North's link brings him back to his seat
        back = await joined(server, t["id"], t["tokens"]["N"])
        assert back.state is not None and back.state["you"] == "N" and back.state["view"]["seat"] == "N"
        st = await s.until(lambda m: m["type"] == "state" and m["table"]["seats"][0]["kind"] == "human")
        assert st["table"]["seats"][0]["name"] == "Player N"
        for c in (n, s, back, newcomer):
            await c.close()

    run(go())


def test_disconnected_human_is_played_by_the_computer_until_back(tmp_path: Path) -> None:
    with thread_server(fast_config(sqlite_url(tmp_path / "g.sqlite3"), grace=0.3)) as server:
        t = solo(server)

        async def go() -> None:
            spec = await joined(server, t["id"])
            north = await joined(server, t["id"], t["tokens"]["N"])
            await north.until(lambda m: m["type"] == "state" and my_turn(m))
            await north.close()
            away = await spec.until(lambda m: m["type"] == "event" and m["kind"] == "away")
            assert away["data"] == {"seat": 0, "seat_letter": "N", "away": True, "why": "disconnected"}
            # the computer plays North's turn
            ev = await spec.until(lambda m: m["type"] == "event" and m["kind"] == "action")
            assert ev["data"]["seat"] == "N"
            north = await joined(server, t["id"], t["tokens"]["N"])
            back = await spec.until(lambda m: m["type"] == "event" and m["kind"] == "away")
            assert back["data"]["away"] is False
            await north.close()
            await spec.close()

        run(go())


def test_turn_clock_hands_the_turn_to_the_computer(tmp_path: Path) -> None:
    with thread_server(fast_config(sqlite_url(tmp_path / "c.sqlite3"))) as server:
        t = solo(server, clock=0.4, grace=0.2)

        async def go() -> None:
            north = await joined(server, t["id"], t["tokens"]["N"])
            st = await north.until(lambda m: m["type"] == "state" and my_turn(m))
            assert st["clock"]["seat"] == "N" and st["clock"]["left"] <= 0.4  # counting down on the server
            away = await north.until(lambda m: m["type"] == "event" and m["kind"] == "away")
            assert away["data"]["why"] == "time"
            await north.until(lambda m: m["type"] == "event" and m["kind"] == "action" and m["data"]["seat"] == "N")
            # a refused action changes nothing, not even the "away" mark
            await north.send({"type": "act", "action": "N discard 7h", "n": 10**6})
            assert (await north.until("error"))["code"] in ("bad_message", "stale", "illegal", "invalid", "out_of_turn")
            assert north.state is not None and north.state["table"]["seats"][0]["away"] is True
            await north.send({"type": "back"})
            back = await north.until(lambda m: m["type"] == "event" and m["kind"] == "away")
            assert back["data"]["away"] is False
            await north.close()

        run(go())


def test_rate_limit_per_connection(tmp_path: Path) -> None:
    cfg = fast_config(sqlite_url(tmp_path / "r.sqlite3"), conn_rate=0.5, conn_burst=5.0)
    with thread_server(cfg) as server:

        async def go() -> None:
            c = await Client.open(server.ws_url)
            for i in range(12):
                await c.send({"type": "ping", "ref": i})
            got = [await c.recv() for _ in range(12)]
            assert sum(1 for m in got if m["type"] == "pong") == 5
            assert sum(1 for m in got if m.get("code") == "rate_limited") == 7
            await asyncio.sleep(2.1)  # the bucket refills: the connection is still up
            await c.send({"type": "ping", "ref": "again"})
            assert (await c.until("pong"))["ref"] == "again"
            await c.close()

        run(go())


def test_rate_limit_per_ip_over_all_its_connections(tmp_path: Path) -> None:
    cfg = fast_config(sqlite_url(tmp_path / "p.sqlite3"), conn_rate=0.1, conn_burst=4.0, ip_rate=0.1, ip_burst=6.0)
    with thread_server(cfg) as server:

        async def go() -> None:
            a = await Client.open(server.ws_url)
            b = await Client.open(server.ws_url)
            got = []
            for c in (a, b):  # 4 + 4 messages: each connection within its own limit, the address over its 6
                for i in range(4):
                    await c.send({"type": "ping", "ref": i})
                got += [await c.recv() for _ in range(4)]
            assert sum(1 for m in got if m["type"] == "pong") == 6
            assert [m.get("code") for m in got[6:]] == ["rate_limited"] * 2
            for c in (a, b):
                await c.close()

        run(go())


def test_connections_per_ip_are_limited(tmp_path: Path) -> None:
    with thread_server(fast_config(sqlite_url(tmp_path / "i.sqlite3"), ip_connections=2)) as server:

        async def go() -> None:
            a = await Client.open(server.ws_url)
            b = await Client.open(server.ws_url)
            c = await Client.open(server.ws_url)
            e = await c.recv()
            assert e["code"] == "rate_limited"
            await a.send({"type": "ping"})
            assert (await a.recv())["type"] == "pong"
            for x in (a, b, c):
                await x.close()

        run(go())


def test_chat_and_hint(server: ThreadServer) -> None:
    t = create(server.url, preset="italian-2p", hands=1, seats=[HUMAN, HUMAN])

    async def go() -> None:
        n = await joined(server, t["id"], t["tokens"]["N"], name="Nina")
        s = await joined(server, t["id"], t["tokens"]["S"])
        await s.send({"type": "chat", "text": "  buona   fortuna "})
        ev = await n.until(lambda m: m["type"] == "event" and m["kind"] == "chat")
        assert ev["data"] == {"seat": "S", "seat_letter": "S", "name": "Player S", "text": "buona fortuna"}
        await s.send({"type": "chat", "text": ""})
        assert (await s.until("error"))["code"] == "bad_message"
        await s.send({"type": "hint"})
        assert (await s.until("error"))["code"] == "not_now"  # not South's turn
        st = await n.until(lambda m: m["type"] == "state" and my_turn(m))
        await n.send({"type": "hint", "ref": "h"})
        h = await n.until("hint")
        assert h["ref"] == "h" and h["action"] in ("N draw", "N pick") and h["reason"] and h["n"] == st["n"]
        await n.close()
        await s.close()

    run(go())


def test_finished_games_are_listed_downloadable_and_replayable(server: ThreadServer) -> None:
    t = create(server.url, preset="italian-2p", hands=1, seats=[EASY, EASY])

    async def go() -> None:
        c = await joined(server, t["id"])
        if not (c.state and c.state["table"]["games"]):
            await c.until(lambda m: m["type"] == "event" and m["kind"] == "game_end", 60)
        await c.close()

    assert http("GET", server.url + f"/api/tables/{t['id']}/games/0/record")[0] in (200, 404)
    run(go())
    status, games = http("GET", server.url + f"/api/tables/{t['id']}/games")
    assert status == 200 and [g["game_no"] for g in games["games"]] == [0]
    status, rec = http("GET", server.url + f"/api/tables/{t['id']}/games/0/record")
    assert status == 200 and rec["format"] == "burraco-record/1" and rec["players"]["N"].startswith("Computer")
    out = replay(rec)
    assert out["ok"] and out["totals"] == games["games"][0]["totals"]
    status, steps = http("GET", server.url + f"/api/tables/{t['id']}/games/0/replay")
    assert status == 200
    h = steps["hands"][0]
    assert len(h["steps"]) == len(rec["hands"][0]["actions"]) + 1 and h["scores"] == out["hands"][0]["scores"]
    assert http("GET", server.url + f"/api/tables/{t['id']}/games/1/record")[0] == 404


def test_rematch_and_next_hand(tmp_path: Path) -> None:
    cfg = fast_config(sqlite_url(tmp_path / "m.sqlite3"), between_hands=30.0)
    with thread_server(cfg) as server:
        t = create(server.url, preset="italian-2p", hands=2, seats=[HUMAN, EASY])

        async def go() -> None:
            n = await joined(server, t["id"], t["tokens"]["N"])
            await hint_player(n, until="hand_end")
            st = await n.until(lambda m: m["type"] == "state" and m["hand_end"] is not None)
            assert st["next_hand_in"] is not None and st["next_hand_in"] > 5  # waits for the player
            assert st["hand_end"]["scores"] is not None and set(st["hand_end"]["hands"]) == {"N", "S"}
            await n.send({"type": "rematch"})
            assert (await n.until("error"))["code"] == "not_now"
            await n.send({"type": "next"})
            ev = await n.until(lambda m: m["type"] == "event" and m["kind"] == "hand")
            assert ev["data"]["hand_no"] == 1
            await hint_player(n, until="game_end")
            await n.send({"type": "rematch"})
            ev = await n.until(lambda m: m["type"] == "event" and m["kind"] == "game")
            assert ev["data"]["game_no"] == 1
            await n.close()

        run(go())


def test_the_moves_log_is_told_to_each_connection_in_its_language_from_its_seat(server: ThreadServer) -> None:
    t = create(server.url, preset="italian-2p", hands=1, seats=[HUMAN, HUMAN])

    async def go() -> None:
        n = await joined(server, t["id"], t["tokens"]["N"], name="Anna", lang="it")
        s = await joined(server, t["id"], t["tokens"]["S"], name="Bruno")
        spect = await joined(server, t["id"], lang="de")
        st = await n.until(lambda m: m["type"] == "state" and my_turn(m))
        full = [m for m in n.got if m["type"] == "log"]
        assert full and full[-1]["full"] is True and full[-1]["lines"] == []
        await n.send({"type": "act", "action": "N draw", "n": st["n"]})
        live = lambda m: m["type"] == "log" and not m.get("full")  # noqa: E731
        mine = await n.until(live)
        drawn = (await n.until(lambda m: m["type"] == "state" and m["view"]["drawn"]))["view"]["drawn"]
        symbol = "" if drawn == "JK" else (
            ("10" if drawn[0] == "T" else drawn[0]) + {"h": "♥", "d": "♦", "c": "♣", "s": "♠"}[drawn[1]])
        assert mine["seat"] == "N" and mine["lines"][0].startswith("Peschi ") and mine["lines"][0].endswith(
            " dal tallone") and (drawn == "JK" or symbol in mine["lines"][0])
        assert (await s.until(live))["lines"] == ["Anna draws from the stock"]
        assert (await spect.until(live))["lines"] == ["Anna zieht vom Stapel"]
        # a refusal in the connection's language, cards as symbols
        await n.send({"type": "act", "action": f"N meld {drawn}", "n": n.last_n, "ref": 1})
        e = await n.until("error")
        assert e["ref"] == 1 and e["msg"] and "text" in e and e["text"] != e["message"]
        # switching the language sends the whole log again in the new one
        await spect.send({"type": "lang", "lang": "en"})
        again = await spect.until(lambda m: m["type"] == "log" and m.get("full"))
        assert again["full"] is True and again["lines"] == ["Anna draws from the stock"]
        for c in (n, s, spect):
            await c.close()

    run(go())


def test_protocol_doc_names_every_message() -> None:
    doc = (Path(__file__).resolve().parents[1] / "docs" / "protocol.md").read_text(encoding="utf-8")
    from burraco.server.protocol import CLIENT_TYPES

    for t in sorted(CLIENT_TYPES) + ["welcome", "state", "event", "presence", "error", "seated", "left", "pong",
                                     "given", "log"]:
        assert f"`{t}`" in doc, t
    assert f"version {PROTOCOL_VERSION}" in doc
    for block in doc.split("```json")[1:]:  # every JSON example parses
        json.loads(block.split("```")[0])


def test_a_connection_that_keeps_sending_past_the_limit_is_closed_with_1008(tmp_path: Path) -> None:
    cfg = fast_config(sqlite_url(tmp_path / "f.sqlite3"), conn_rate=0.5, conn_burst=5.0, flood_refusals=10.0,
                      flood_refill=0.1, flood_cooldown=1.5)
    with thread_server(cfg) as server:

        async def go() -> None:
            other = await Client.open(server.ws_url)
            c = await Client.open(server.ws_url)
            for i in range(100):
                try:
                    await c.send({"type": "ping", "ref": i})
                except ConnectionClosed:
                    break
            got = []
            with pytest.raises(ConnectionClosed) as closed:
                while True:
                    got.append(await c.recv())
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008
            assert sum(1 for m in got if m["type"] == "pong") == 5
            refused = [m for m in got if m.get("code") == "rate_limited"]
            assert len(refused) == 11  # its budget of 10 refusals, then the one that says it is closed
            assert "closed" in refused[-1]["message"] and [m.get("ref") for m in refused[:10]] == list(range(5, 15))
            await other.send({"type": "ping", "ref": "still"})  # the flood cost the others nothing
            assert (await other.until("pong"))["ref"] == "still"
            with pytest.raises(InvalidStatus) as refused:  # its address opens no new websocket for a while
                await Client.open(server.ws_url)
            assert refused.value.response.status_code == 403
            await asyncio.sleep(1.6)
            again = await Client.open(server.ws_url)
            await again.send({"type": "ping", "ref": "again"})
            assert (await again.until("pong"))["ref"] == "again"
            for x in (other, again):
                await x.close()

        run(go())


def test_a_websocket_that_never_says_hello_is_closed(tmp_path: Path) -> None:
    with thread_server(fast_config(sqlite_url(tmp_path / "h.sqlite3"), hello_deadline=0.5)) as server:
        t = create(server.url, preset="italian-2p", hands=1, seats=[HUMAN, {"kind": "computer"}])

        async def go() -> None:
            silent = await Client.open(server.ws_url)
            greeted = await Client.open(server.ws_url)
            await greeted.hello(t["id"])  # a spectator
            with pytest.raises(ConnectionClosed) as closed:
                await silent.until("never", timeout=10)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008
            assert silent.got[-1]["code"] == "no_table" and "hello" in silent.got[-1]["message"]
            await asyncio.sleep(0.6)
            await greeted.send({"type": "ping", "ref": 1})
            assert (await greeted.until("pong"))["ref"] == 1
            await greeted.close()

        run(go())

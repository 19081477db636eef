"""Fair play at the table (docs/protocol.md "Fair play"): one person holds one seat, a seat left during a game is
kept for its player until the creator gives it to someone else, rate limits one connection cannot spend for the
others on its address (and ``ref`` in ``rate_limited``), security headers on every page, the websocket's Origin
check."""

from __future__ import annotations

import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import InvalidStatus

from burraco.server.ratelimit import Bucket, admit
from burraco.server.security import CSP, origin_allowed
from server_support import Client, ThreadServer, create, fast_config, run, sqlite_url, thread_server

HUMAN = {"kind": "human"}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ThreadServer]:
    db = tmp_path_factory.mktemp("db") / "fair.sqlite3"
    with thread_server(fast_config(sqlite_url(db), bot_delay=0.05)) as s:
        yield s


async def joined(server: ThreadServer, table: str, token: str | None = None, **kw: object) -> Client:
    c = await Client.open(server.ws_url)
    await c.hello(table, token, **kw)
    return c


async def refused(server: ThreadServer, msg: dict[str, object]) -> dict[str, object]:
    c = await Client.open(server.ws_url)
    await c.send(msg)
    e = await c.until("error")
    await c.close()
    return e


def test_one_person_one_seat_a_browser_holding_a_seat_cannot_open_or_take_another(server: ThreadServer) -> None:
    t = create(server.url, preset="italian-2p", hands=1, seats=[HUMAN, {"kind": "open"}])

    async def go() -> None:
        n = await joined(server, t["id"], t["tokens"]["N"])
        # the same connection cannot take a second seat
        await n.send({"type": "take", "seat": "S", "ref": 1})
        e = await n.until("error")
        assert e["code"] == "one_seat" and e["ref"] == 1
        # another tab of the same browser says which tokens it holds: refused too
        tab = await joined(server, t["id"])
        await tab.send({"type": "take", "seat": "S", "held": [t["tokens"]["N"]]})
        assert (await tab.until("error"))["code"] == "one_seat"
        # a token of the same seat is no obstacle to opening that seat again
        again = await joined(server, t["id"], t["tokens"]["N"], held=[t["tokens"]["N"]])
        assert again.state is not None and again.state["you"] == "N"
        # someone else sits at S; its link opened by North's browser is refused
        other = await joined(server, t["id"])
        await other.send({"type": "take", "seat": "S", "name": "Sara"})
        s_tok = (await other.until("seated"))["token"]
        e = await refused(server, {"type": "hello", "v": 1, "table": t["id"], "token": s_tok,
                                   "held": [t["tokens"]["N"]]})
        assert e["code"] == "one_seat"
        e = await refused(server, {"type": "hello", "v": 1, "table": t["id"], "token": s_tok, "held": "x"})
        assert e["code"] == "bad_message"
        for c in (n, tab, again, other):
            await c.close()

    run(go())


def test_a_left_seat_is_given_by_the_creator_only_and_the_old_token_then_stops(server: ThreadServer) -> None:
    t = create(server.url, preset="italian-2p", hands=1, seats=[HUMAN, HUMAN])

    async def go() -> None:
        n = await joined(server, t["id"], t["tokens"]["N"])
        s = await joined(server, t["id"], t["tokens"]["S"])
        await n.until(lambda m: m["type"] == "state" and m["table"]["status"] == "playing")
        await s.send({"type": "leave"})
        await s.until("left")
        st = await n.until(lambda m: m["type"] == "state" and m["table"]["seats"][1]["kind"] == "left")
        assert st["table"]["seats"][1]["name"] == "Player S"
        # South's old connection is a spectator now: it sees no hand
        assert s.state is not None and s.state["you"] is None
        # a seated player (not the creator) cannot give it; a wrong creator token neither
        await n.send({"type": "give", "seat": "S", "token": "nope", "ref": "g"})
        e = await n.until("error")
        assert e["code"] == "bad_token" and e["ref"] == "g"
        # the creator cannot give a seat somebody holds
        await n.send({"type": "give", "seat": "N", "token": t["creator"]})
        assert (await n.until("error"))["code"] == "seat_taken"
        await n.send({"type": "give", "seat": "S", "token": t["creator"], "name": "Bruno", "ref": 7})
        given = await n.until("given")
        assert given["seat"] == "S" and given["ref"] == 7 and given["link"] == f"/t/{t['id']}#t={given['token']}"
        # South's old link no longer opens the seat; the new one does, with the name the creator gave
        e = await refused(server, {"type": "hello", "v": 1, "table": t["id"], "token": t["tokens"]["S"]})
        assert e["code"] == "bad_token"
        bruno = await joined(server, t["id"], given["token"])
        assert bruno.state is not None and bruno.state["you"] == "S"
        seat = {k: v for k, v in bruno.state["table"]["seats"][1].items() if k != "connected"}
        assert seat == {"seat": "S", "kind": "human", "level": None, "name": "Bruno", "claimed": True, "away": False}
        for c in (n, s, bruno):
            await c.close()

    run(go())


def test_a_seat_left_before_the_game_is_open_and_its_token_brings_its_player_back(server: ThreadServer) -> None:
    t = create(server.url, preset="italian-2p", hands=1, seats=[HUMAN, HUMAN])

    async def go() -> None:
        n = await joined(server, t["id"], t["tokens"]["N"])
        await n.send({"type": "leave"})
        await n.until("left")
        assert n.state is not None and n.state["table"]["seats"][0]["kind"] == "open"
        back = await joined(server, t["id"], t["tokens"]["N"], name="Anna")
        assert back.state is not None and back.state["you"] == "N"
        assert back.state["table"]["seats"][0]["name"] == "Anna"
        for c in (n, back):
            await c.close()

    run(go())


def test_one_abusive_connection_cannot_spend_the_limit_of_its_address() -> None:
    ip = Bucket(0.0, 6.0)
    flood = Bucket(0.0, 4.0)
    flood2 = Bucket(0.0, 4.0)
    assert [admit(flood, ip) for _ in range(6)] == [True] * 4 + [False] * 2  # its own limit first
    assert [admit(flood2, ip) for _ in range(3)] == [True, True, False]  # the address's ceiling is spent
    quiet = Bucket(0.0, 4.0)
    assert admit(quiet, ip) and admit(quiet, ip)  # a connection within its fair share still plays
    assert not admit(quiet, ip)


def test_rate_limited_replies_carry_ref(tmp_path: Path) -> None:
    with thread_server(fast_config(sqlite_url(tmp_path / "r.sqlite3"), conn_rate=0.01, conn_burst=2.0)) as server:

        async def go() -> None:
            c = await Client.open(server.ws_url)
            for i in range(4):
                await c.send({"type": "ping", "ref": f"r{i}"})
            got = [await c.recv() for _ in range(4)]
            assert [(m["type"], m.get("code"), m["ref"]) for m in got] == [
                ("pong", None, "r0"), ("pong", None, "r1"), ("error", "rate_limited", "r2"),
                ("error", "rate_limited", "r3")]
            await c.close()

        run(go())


def test_every_answer_carries_the_security_headers(server: ThreadServer) -> None:
    for path in ("/", "/static/core.js", "/api/presets", "/api/tables/nothere", "/messages/en.json"):
        try:
            r = urllib.request.urlopen(server.url + path, timeout=10)
            headers = r.headers
        except urllib.error.HTTPError as e:
            headers = e.headers
        csp = headers["Content-Security-Policy"]
        assert csp == CSP and "script-src 'self'" in csp and "unsafe-inline" not in csp, path
        assert "frame-ancestors 'none'" in csp and headers["X-Frame-Options"] == "DENY", path
        assert headers["Referrer-Policy"] == "no-referrer" and headers["X-Content-Type-Options"] == "nosniff"


def test_the_websocket_refuses_pages_of_other_sites(server: ThreadServer) -> None:
    async def go() -> None:
        with pytest.raises(InvalidStatus) as e:
            await connect(server.ws_url, origin="https://evil.example")  # type: ignore[arg-type]
        assert e.value.response.status_code == 403
        own = f"http://127.0.0.1:{server.port}"
        ws = await connect(server.ws_url, origin=own)  # type: ignore[arg-type]
        await ws.send('{"type": "ping", "ref": 1}')
        assert '"pong"' in str(await ws.recv())
        await ws.close()

    run(go())
    assert origin_allowed(None, "h:1")
    assert origin_allowed("http://h:1", "h:1") and not origin_allowed("http://h:2", "h:1")
    assert not origin_allowed("null", "h:1") and not origin_allowed("file://", "h:1")
    assert origin_allowed("https://club.example", "h:1", ("https://club.example/",))


def test_the_desks_printouts_have_a_policy_of_their_own_without_script(server: ThreadServer) -> None:
    import json

    from burraco.server.security import PRINT_CSP

    req = urllib.request.Request(server.url + "/api/tournaments", method="POST", headers={
        "Content-Type": "application/json"}, data=json.dumps({"name": "Coppa", "rounds": 1, "director": "M"}).encode())
    with urllib.request.urlopen(req, timeout=20) as r:
        made = json.loads(r.read())
    get = urllib.request.Request(server.url + f"/api/tournaments/{made['id']}/print/participants.html",
                                 headers={"Authorization": f"Bearer {made['token']}"})
    with urllib.request.urlopen(get, timeout=20) as r:
        assert r.headers["Content-Security-Policy"] == PRINT_CSP and "script" not in PRINT_CSP
        assert r.headers["X-Frame-Options"] == "DENY"
        assert b"<style>" in r.read()

"""One person, one seat, by the guest cookie (docs/protocol.md "Fair play", server/guests.py): the pages set a
signed, HttpOnly, SameSite cookie; a browser holding a seat cannot take or open another at the table whatever tokens
it reports, across a restart too; two seats from one address are allowed but shown to the table, and the creator
may give one of them to a computer; an account can later find a guest's seats."""

from __future__ import annotations

import asyncio
import urllib.request
from pathlib import Path

from websockets.asyncio.client import connect

from burraco.server.guests import COOKIE, guest_of, new_guest
from burraco.server.store import Store
from server_support import WAIT, Client, ThreadServer, create, fast_config, run, sqlite_url, thread_server

HUMAN = {"kind": "human"}


def page_cookie(server: ThreadServer, cookie: str | None = None) -> tuple[str | None, str]:
    """GET a table page (with ``cookie``): the guest cookie it sets (None: none) and the raw Set-Cookie header."""
    req = urllib.request.Request(server.url + "/t/abc", headers={"Cookie": f"{COOKIE}={cookie}"} if cookie else {})
    with urllib.request.urlopen(req, timeout=WAIT) as r:
        header = r.headers.get("set-cookie") or ""
    value = header.split(";")[0].split("=", 1)[1] if header.startswith(COOKIE + "=") else None
    return value, header


async def browser(server: ThreadServer, cookie: str | None) -> Client:
    headers = {"Cookie": f"{COOKIE}={cookie}"} if cookie else {}
    return Client(await connect(server.ws_url, open_timeout=WAIT, max_size=1 << 22, additional_headers=headers))


async def hello(c: Client, table: str, token: str | None = None) -> dict[str, object]:
    """``hello``; the state, or the refusal."""
    msg: dict[str, object] = {"type": "hello", "v": 1, "table": table}
    if token:
        msg["token"] = token
    await c.send(msg)
    return await c.until(lambda m: m["type"] in ("state", "error"))


def test_the_pages_set_a_signed_httponly_samesite_cookie_once() -> None:
    key = b"k" * 32
    guest, value = new_guest(key)
    assert guest_of(value, key) == guest and len(guest) == 22
    assert guest_of(value, b"x" * 32) is None  # another server's key
    assert guest_of(value[:-2] + ("AA" if value[-2:] != "AA" else "BB"), key) is None  # a forged signature
    assert guest_of("g1." + "A" * 22 + "." + value.split(".")[2], key) is None  # another id, the same signature
    assert guest_of(None, key) is None and guest_of("nonsense", key) is None


def test_one_browser_one_seat_by_its_cookie(tmp_path: Path) -> None:
    db = sqlite_url(tmp_path / "guests.sqlite3")
    with thread_server(fast_config(db)) as server:
        cookie, header = page_cookie(server)
        assert cookie is not None
        parts = {p.strip().lower() for p in header.split(";")}
        assert {"httponly", "samesite=lax", "path=/"} <= parts and "secure" not in parts  # plain HTTP here
        assert page_cookie(server, cookie)[0] is None  # a browser that has one keeps it
        forged = cookie[:-4] + ("AAAA" if not cookie.endswith("AAAA") else "BBBB")
        assert page_cookie(server, forged)[0] is not None  # a forged one is replaced
        other, _ = page_cookie(server)
        t = create(server.url, preset="italian", seats=[HUMAN, {"kind": "open"}, {"kind": "open"}, HUMAN])

        async def go() -> None:
            n = await browser(server, cookie)
            assert (await hello(n, t["id"], t["tokens"]["N"]))["type"] == "state"
            # another tab of the same browser, reporting no token at all: refused by the cookie
            tab = await browser(server, cookie)
            assert (await hello(tab, t["id"]))["type"] == "state"
            await tab.send({"type": "take", "seat": "E"})
            e = await tab.until("error")
            assert e["code"] == "one_seat" and "this browser holds seat N" in e["message"]
            # ... nor open another seat's link
            e = await hello(await browser(server, cookie), t["id"], t["tokens"]["W"])
            assert e["type"] == "error" and e["code"] == "one_seat"
            # a forged cookie is no cookie: that connection may sit (it is another browser, as far as anyone knows)
            f = await browser(server, forged)
            assert (await hello(f, t["id"]))["type"] == "state"
            await f.send({"type": "take", "seat": "E"})
            assert (await f.until("seated"))["seat"] == "E"
            for c in (n, tab, f):
                await c.close()

        run(go())
        assert {p for p, _ in asyncio.run(_guest_seats(db, guest_of(cookie, asyncio.run(_key(db))) or ""))} \
            == {t["id"]}
    with thread_server(fast_config(db)) as server:  # after a restart the server still knows who held N

        async def again() -> None:
            tab = await browser(server, cookie)
            e = await hello(tab, t["id"], t["tokens"]["W"])
            assert e["type"] == "error" and e["code"] == "one_seat"
            w = await browser(server, other)  # another browser takes W
            assert (await hello(w, t["id"], t["tokens"]["W"]))["type"] == "state"
            for c in (tab, w):
                await c.close()

        run(again())


async def _key(db: str) -> bytes:
    store = Store(db)
    try:
        return await store.server_key("guest")
    finally:
        await store.close()


async def _guest_seats(db: str, guest: str) -> list[tuple[str, int]]:
    store = Store(db)
    try:
        return await store.guest_seats(guest)
    finally:
        await store.close()


def test_two_seats_from_one_address_are_shown_and_the_creator_gives_one_to_a_computer(tmp_path: Path) -> None:
    with thread_server(fast_config(sqlite_url(tmp_path / "address.sqlite3"))) as server:
        a, _ = page_cookie(server)
        b, _ = page_cookie(server)
        t = create(server.url, preset="italian-2p", seats=[HUMAN, HUMAN])

        async def go() -> None:
            n = await browser(server, a)
            await hello(n, t["id"], t["tokens"]["N"])
            assert n.state is not None and n.state["table"]["shared_address"] == []
            s = await browser(server, b)  # another browser on the same address (a family, a club)
            await hello(s, t["id"], t["tokens"]["S"])
            p = await n.until(lambda m: m["type"] == "presence" and m["shared_address"])
            assert p["shared_address"] == [["N", "S"]]
            st = await s.until(lambda m: m["type"] == "state" and m["table"]["shared_address"])
            assert st["table"]["shared_address"] == [["N", "S"]]  # to the table (the game has started)
            # only the creator, and only for such a seat
            await n.send({"type": "replace", "token": "x" * 20, "seat": "S"})
            assert (await n.until("error"))["code"] == "bad_token"
            await n.send({"type": "replace", "token": t["creator"], "seat": "S", "level": "heuristic:easy"})
            assert (await s.until("left"))["type"] == "left"
            st = await n.until(lambda m: m["type"] == "state" and m["table"]["seats"][1]["kind"] == "computer")
            assert st["table"]["shared_address"] == []
            await n.send({"type": "replace", "token": t["creator"], "seat": "N"})
            assert (await n.until("error"))["code"] == "not_now"
            for c in (n, s):
                await c.close()

        run(go())

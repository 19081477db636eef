"""Bot accounts (docs/accounts.md "Bots"), on SQLite and on a real PostgreSQL server: an account's owner makes a
bot on /account and is shown its token once (the store keeps its SHA-256); an outside program plays a whole rated
game over the websocket as the bot, signed in by ``Authorization: Bearer <token>``; the bot is marked at the table;
the game is rated in the pool's ``-bots`` twin, as openskill computes it; a rated table that did not ask for bots
refuses it, and a wrong token is refused at the handshake."""

from __future__ import annotations

import asyncio
import hashlib
import json
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from openskill.models import PlackettLuce
from websockets.asyncio.client import connect

from account_support import PASSWORD, Browser, account, refusal
from burraco.server.accounts import Accounts, Limits
from burraco.server.store import Store, accounts_t
from server_support import WAIT, Client, create, database, fast_config, hint_player, http, run, thread_server


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    with database(request.param, tmp_path / "store.sqlite3") as url:
        yield url




async def program(server: Any, token: str) -> Client:
    """An outside program's connection, signed in as a bot by its token."""
    return Client(await connect(server.ws_url, open_timeout=WAIT, max_size=1 << 22,
                                additional_headers={"Authorization": f"Bearer {token}"}))


async def person(server: Any, b: Browser) -> Client:
    cookie = "; ".join(f"{k}={v}" for k, v in b.cookies.items())
    return Client(await connect(server.ws_url, open_timeout=WAIT, max_size=1 << 22,
                                additional_headers={"Cookie": cookie}))


async def hello(c: Client, table: str, token: str) -> dict[str, Any]:
    await c.send({"type": "hello", "v": 1, "table": table, "token": token})
    return await c.until(lambda m: m["type"] in ("state", "error"))


def test_a_bot_plays_a_whole_rated_game_with_its_token(db_url: str) -> None:
    with thread_server(fast_config(db_url)) as server:
        ann, bob = account(server.url, "Ann Rossi"), account(server.url, "Bob Verdi")
        status, page = ann.post("bot", {"name": "Annbot One"})
        assert status == 201
        m = re.search(r"Its token, shown only now: (bot_[A-Za-z0-9_-]{43})", page)
        assert m is not None
        token = m.group(1)
        assert "Annbot One" in ann.get("/account")[1] and token not in ann.get("/account")[1]  # shown once
        assert [b["name"] for b in ann.me()[1]["bots"]] == ["Annbot One"]

        async def stored() -> list[Any]:
            store = Store(db_url)
            try:
                async with store.engine.connect() as conn:
                    return list((await conn.execute(sa.select(accounts_t.c.token_hash, accounts_t.c.password)
                                                    .where(accounts_t.c.name == "Annbot One"))).all())
            finally:
                await store.close()

        [(kept, password)] = run(stored())
        assert kept == hashlib.sha256(token.encode()).hexdigest() and password is None
        # a bot has no password: it never signs in on the page
        status, text = Browser(server.url).post("signin", {"name": "Annbot One", "password": PASSWORD}, csrf=None)
        assert status == 403

        plain = create(server.url, preset="italian-2p", hands=1, rated=True, seats=[{"kind": "human"}] * 2)
        t = create(server.url, preset="italian-2p", hands=1, rated=True, bots=True, seats=[{"kind": "human"}] * 2)

        async def go() -> None:
            e = await hello(await program(server, token), plain["id"], plain["tokens"]["S"])
            assert e["type"] == "error" and e["code"] == "rated" and "does not accept bots" in e["message"]
            wrong = await program(server, "bot_" + "A" * 43)
            e = await wrong.recv()
            assert e["type"] == "error" and e["code"] == "bad_token"
            bot, b = await program(server, token), await person(server, bob)
            assert (await hello(bot, t["id"], t["tokens"]["S"]))["type"] == "state"
            assert (await hello(b, t["id"], t["tokens"]["N"]))["type"] == "state"
            done = await asyncio.gather(hint_player(bot), hint_player(b))
            assert all(n > 0 for n in done)

        run(go(), 600)
        info = http("GET", f"{server.url}/api/tables/{t['id']}")[1]
        assert [s.get("bot", False) for s in info["seats"]] == [False, True]  # the bot is marked at its table
        summary = http("GET", f"{server.url}/api/tables/{t['id']}/games")[1]["games"][0]
        n, s = summary["totals"]["N"], summary["totals"]["S"]
        ranks = [1.0 if n >= s else 2.0, 1.0 if s >= n else 2.0]
        model = PlackettLuce()
        want = model.rate([[model.rating()], [model.rating()]], ranks=ranks)
        deadline = time.monotonic() + WAIT  # the game is rated just after its end is sent
        while not (me := bob.me()[1])["ratings"] and time.monotonic() < deadline:
            time.sleep(0.05)
        [r] = me["ratings"]
        assert r["pool"] == "italian-1v1-bots"  # rated apart from people's games
        assert (r["mu"], r["sigma"]) == pytest.approx((want[0][0].mu, want[0][0].sigma), abs=1e-9)
        board = http("GET", f"{server.url}/api/ratings/italian-1v1-bots")[1]["leaderboard"]
        assert sorted(x["name"] for x in board) == ["Annbot One", "Bob Verdi"]
        assert http("GET", f"{server.url}/api/ratings/italian-1v1")[1]["leaderboard"] == []
        assert refusal(ann.post("bot", {"name": "Bob Verdi"})[1]) == "name_taken"


def test_a_new_bot_token_replaces_the_old_one_at_once(db_url: str) -> None:
    with thread_server(fast_config(db_url)) as server:
        ann, bob = account(server.url, "Ann Rossi"), account(server.url, "Bob Verdi")
        status, page = ann.post("bot", {"name": "Annbot One"})
        m = re.search(r"Its token, shown only now: (bot_[A-Za-z0-9_-]{43})", page)
        assert status == 201 and m is not None
        old = m.group(1)
        # only the owner may: another account is told it owns no such bot, and the token stays
        assert refusal(bob.post("bot-token", {"name": "Annbot One"})[1]) == "not_found"
        status, page = ann.post("bot-token", {"name": "annbot one"})  # the name in any case
        m = re.search(r"has a new token, shown only now: (bot_[A-Za-z0-9_-]{43})", page)
        assert status == 200 and m is not None
        new = m.group(1)
        assert new != old and new not in ann.get("/account")[1]  # shown once

        async def kept() -> str:
            store = Store(db_url)
            try:
                async with store.engine.connect() as conn:
                    return str((await conn.execute(sa.select(accounts_t.c.token_hash)
                                                   .where(accounts_t.c.name == "Annbot One"))).scalar_one())
            finally:
                await store.close()

        assert run(kept()) == hashlib.sha256(new.encode()).hexdigest()
        t = create(server.url, preset="italian-2p", hands=1, seats=[{"kind": "human"}] * 2)

        async def go() -> None:
            e = await (await program(server, old)).recv()
            assert e["type"] == "error" and e["code"] == "bad_token"
            assert (await hello(await program(server, new), t["id"], t["tokens"]["S"]))["type"] == "state"

        run(go())
        assert refusal(ann.post("bot-token", {"name": "Nobody"})[1]) == "not_found"


async def closed_after_refusal(c: Client) -> dict[str, Any]:
    """The ``bad_token`` refusal a bot's live connection is sent, once its connection has been closed after it."""
    e = await c.until(lambda m: m["type"] == "error")
    await asyncio.wait_for(c.ws.wait_closed(), WAIT)
    assert c.ws.close_code == 1008
    return e


def test_a_new_bot_token_closes_the_connections_opened_with_the_old_one(db_url: str) -> None:
    """A live connection opened with the old token stops at once: on the process that made the new token it is
    closed there and then; on another (here: the token replaced in the store by another ``Accounts``, as another
    process of ``serve --workers N`` does) it is refused and closed at its next message, which is not played."""
    with thread_server(fast_config(db_url)) as server:
        ann = account(server.url, "Ann Rossi")
        status, page = ann.post("bot", {"name": "Annbot One"})
        m = re.search(r"Its token, shown only now: (bot_[A-Za-z0-9_-]{43})", page)
        assert status == 201 and m is not None
        old = m.group(1)
        t = create(server.url, preset="italian-2p", hands=1, seats=[{"kind": "human"}] * 2)

        async def replaced_here() -> str:
            bot = await program(server, old)
            assert (await hello(bot, t["id"], t["tokens"]["S"]))["type"] == "state"
            status, page = await asyncio.to_thread(ann.post, "bot-token", {"name": "Annbot One"})
            assert status == 200 and "1 connection opened with it closed now" in page, page
            m = re.search(r"has a new token, shown only now: (bot_[A-Za-z0-9_-]{43})", page)
            assert m is not None
            e = await closed_after_refusal(bot)
            assert e["code"] == "bad_token" and "replaced" in e["message"]
            return m.group(1)

        new = run(replaced_here())

        async def replaced_elsewhere() -> None:
            bot, watcher = await program(server, new), await Client.open(server.ws_url)
            assert (await hello(bot, t["id"], t["tokens"]["S"]))["type"] == "state"
            await watcher.hello(t["id"], t["tokens"]["N"])  # the other player: he would hear the bot's chat line
            store = Store(db_url)
            try:
                accounts = Accounts(store, Limits(5, 30, 900.0))
                owner = await accounts.named("Ann Rossi")
                assert owner is not None
                await accounts.new_bot_token(owner, "Annbot One")
            finally:
                await store.close()
            await bot.send({"type": "chat", "text": "still here?"})
            e = await closed_after_refusal(bot)
            assert e["code"] == "bad_token" and "no longer valid" in e["message"]
            with pytest.raises(TimeoutError):
                await watcher.until(lambda m: m["type"] == "event" and m["kind"] == "chat"
                                    and "still here?" in json.dumps(m), 2)

        run(replaced_elsewhere())
        assert Browser(server.url).get("/")[0] == 200

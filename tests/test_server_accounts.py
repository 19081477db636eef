"""Accounts over real HTTP (docs/accounts.md, server/accounts.py), on SQLite and on a real PostgreSQL server:
password sign-up and sign-in, the session cookie's flags, sessions kept in the store (valid on every process, ended
by signing out and by "sign out everywhere"), CSRF refusals, the sign-in rate limit per account and per address,
nothing secret in the log, a guest's games claimed, deletion anonymising the games, and the migration from a
database made by the previous schema (revision 0004) with games in it."""

from __future__ import annotations

import asyncio
import hashlib
import os
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
import sqlalchemy as sa
from websockets.asyncio.client import connect

from account_support import PASSWORD, Browser, passkey_account, refusal, visitor
from burraco.server.accounts import (
    ARGON2_LANES,
    ARGON2_MEMORY_KIB,
    ARGON2_TIME,
    DELETED,
    HASHING,
    HASHING_NICE,
    AccountError,
    Accounts,
    Limits,
)
from burraco.server.store import SeatRow, Store, accounts_t, sessions_t, token_hash
from server_support import (
    WAIT,
    Client,
    create,
    database,
    fast_config,
    free_port,
    run,
    server_log,
    server_process,
    sqlite_url,
    thread_server,
)


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    with database(request.param, tmp_path / "store.sqlite3") as url:
        yield url




async def rows(db_url: str, table: sa.Table) -> list[sa.Row[tuple[object, ...]]]:
    store = Store(db_url)
    try:
        async with store.engine.connect() as conn:
            return list((await conn.execute(sa.select(table))).all())
    finally:
        await store.close()


def test_password_sign_up_sign_in_sign_out_and_sign_out_everywhere(db_url: str) -> None:
    with thread_server(fast_config(db_url)) as server:
        ann = visitor(server.url)
        assert ann.me()[0] == 401
        status, _ = ann.post("signup", {"name": "Ann Rossi", "password": PASSWORD})
        assert status == 303
        cookie = next(h for h in ann.set_cookies if h.startswith("burraco_session="))
        flags = {p.strip().lower() for p in cookie.split(";")[1:]}
        assert {"httponly", "samesite=lax", "path=/"} <= flags and "secure" not in flags  # plain HTTP here
        status, me = ann.me()
        assert status == 200 and me["account"]["name"] == "Ann Rossi"
        session = ann.cookies["burraco_session"].split(".")[1]

        # the store holds the password's argon2id hash and the session's SHA-256, never either itself
        [acc] = run(rows(db_url, accounts_t))
        assert acc.password.startswith("$argon2id$") and PASSWORD not in acc.password
        [sess] = run(rows(db_url, sessions_t))
        assert sess.id_hash == hashlib.sha256(session.encode()).hexdigest()

        # the name is taken whatever its case and spacing
        other = visitor(server.url)
        status, text = other.post("signup", {"name": "ann  ROSSI", "password": PASSWORD})
        assert status == 409 and refusal(text) == "name_taken"
        status, text = other.post("signup", {"name": "Bo", "password": PASSWORD})
        assert status == 400 and refusal(text) == "bad_name"
        status, text = other.post("signup", {"name": "Bob", "password": "short"})
        assert status == 400 and refusal(text) == "bad_password"

        # a wrong password and an unknown name get the same answer
        status, text = other.post("signin", {"name": "Ann Rossi", "password": "wrong password!"})
        assert status == 403 and refusal(text) == "signin"
        status, text = other.post("signin", {"name": "Nobody Here", "password": PASSWORD})
        assert status == 403 and refusal(text) == "signin"
        assert other.post("signin", {"name": "ann rossi", "password": PASSWORD})[0] == 303
        assert other.me()[1]["account"]["id"] == me["account"]["id"]

        # a forged session cookie is no session
        forged = Browser(server.url)
        forged.cookies["burraco_session"] = ann.cookies["burraco_session"][:-3] + "AAA"
        assert forged.me()[0] == 401

        # signing out ends this browser's session only; signing out everywhere ends every one
        third = visitor(server.url)
        assert third.post("signin", {"name": "Ann Rossi", "password": PASSWORD})[0] == 303
        assert ann.post("signout", {})[0] == 303 and "burraco_session" not in ann.cookies
        assert other.me()[0] == 200 and third.me()[0] == 200
        assert other.post("signout-all", {})[0] == 303
        assert other.me()[0] == 401 and third.me()[0] == 401
        assert run(rows(db_url, sessions_t)) == []

        # over HTTPS (a proxy in front says so) the cookie is Secure
        https = visitor(server.url)
        status, _, _ = https.request("GET", "/account", headers={"X-Forwarded-Proto": "https"})
        data = f"name=Ann+Rossi&password={PASSWORD.replace(' ', '+')}&csrf={https.csrf()}".encode()
        status, _, _ = https.request("POST", "/account/signin", data, {
            "Content-Type": "application/x-www-form-urlencoded", "X-Forwarded-Proto": "https"})
        assert status == 303
        cookie = next(h for h in https.set_cookies if h.startswith("burraco_session="))
        assert "secure" in {p.strip().lower() for p in cookie.split(";")[1:]}


def test_every_form_refuses_a_missing_stale_or_foreign_csrf_token(tmp_path: Path) -> None:
    with thread_server(fast_config(sqlite_url(tmp_path / "csrf.sqlite3"))) as server:
        ann, eve = visitor(server.url), visitor(server.url)
        fields = {"name": "Ann Rossi", "password": PASSWORD}
        for csrf in (None, "", eve.csrf(), "x" * 43):  # none, empty, another browser's, made up
            status, text = ann.post("signup", fields, csrf=csrf)
            assert status == 403 and refusal(text) == "csrf", csrf
        # the right token, from another site's page (its Origin): refused too
        status, text = ann.post("signup", fields, headers={"Origin": "https://evil.example"})
        assert status == 403 and refusal(text) == "csrf"
        assert ann.me()[0] == 401
        assert ann.post("signup", fields, headers={"Origin": server.url})[0] == 303
        # the signed-in forms too: the guest page's token is stale once signed in
        for action in ("signout", "signout-all", "delete"):
            status, text = ann.post(action, {"password": PASSWORD}, csrf=eve.csrf())
            assert status == 403 and refusal(text) == "csrf", action
        assert ann.me()[0] == 200
        # a browser with no cookie of the server at all (a link from elsewhere) gets its guest cookie with the
        # page, as from the card room, and forms whose token is bound to it; a form sent with no cookie, none
        fresh = Browser(server.url)
        status, text = fresh.get("/account")
        assert status == 200 and "burraco_guest" in fresh.cookies and 'name="csrf"' in text
        assert fresh.post("signup", {"name": "Fay Neri", "password": PASSWORD})[0] == 303
        status, text = Browser(server.url).post("signin", {"name": "Fay Neri", "password": PASSWORD}, csrf=None)
        assert status == 403 and refusal(text) == "csrf" and 'name="csrf"' not in text


def test_sign_in_is_rate_limited_per_account_and_per_address(tmp_path: Path) -> None:
    db = sqlite_url(tmp_path / "limit.sqlite3")
    cfg = fast_config(db, signin_account_failures=3, signin_ip_failures=5, signin_window=600.0)
    with thread_server(cfg) as server:
        ann = visitor(server.url)
        assert ann.post("signup", {"name": "Ann Rossi", "password": PASSWORD})[0] == 303
        assert ann.post("signup", {"name": "Bea Bianchi", "password": PASSWORD})[0] == 303
        b = visitor(server.url)
        for _ in range(3):
            assert b.post("signin", {"name": "Ann Rossi", "password": "wrong password!"})[0] == 403
        # past 3 failures the account refuses every sign-in, the right password too, from anywhere
        status, text = b.post("signin", {"name": "Ann Rossi", "password": PASSWORD})
        assert status == 429 and refusal(text) == "rate_limited" and "this account" in text
        # another account from the same address: 2 more failures reach the address's 5
        assert b.post("signin", {"name": "Bea Bianchi", "password": "wrong password!"})[0] == 403
        assert b.post("signin", {"name": "Cid Nessuno", "password": "wrong password!"})[0] == 403
        status, text = b.post("signin", {"name": "Bea Bianchi", "password": PASSWORD})
        assert status == 429 and "your address" in text
        # accounts made from one address count against the same limit (5 here: 2 made above)
        for i in range(3):
            assert b.post("signup", {"name": f"Extra {i}", "password": PASSWORD})[0] == 303
        status, text = b.post("signup", {"name": "One Too Many", "password": PASSWORD})
        assert status == 429 and refusal(text) == "rate_limited" and "accounts made" in text
    # the failures are in the store: a server restarted on it (or another process) counts them still
    with thread_server(cfg) as server:
        status, text = visitor(server.url).post("signin", {"name": "Bea Bianchi", "password": PASSWORD})
        assert status == 429


def test_sign_ups_at_the_same_time_from_one_address_keep_its_limit(tmp_path: Path) -> None:
    """Eight sign-ups sent at once from one address whose limit is 3: exactly 3 accounts are made, 5 refused
    ``rate_limited`` (each attempt is written before its password is hashed; when the count came before the hash
    and the record after it, all eight passed)."""
    cfg = fast_config(sqlite_url(tmp_path / "race.sqlite3"), signin_ip_failures=3, signin_window=600.0)
    with thread_server(cfg) as server:
        browsers = [visitor(server.url) for _ in range(8)]
        answers: list[tuple[int, str]] = [(0, "")] * 8
        go = threading.Barrier(8)

        def sign_up(i: int) -> None:
            go.wait()
            answers[i] = browsers[i].post("signup", {"name": f"Racer {i}", "password": PASSWORD})

        threads = [threading.Thread(target=sign_up, args=(i,)) for i in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=120)
        assert sorted(status for status, _ in answers) == [303] * 3 + [429] * 5, answers
        assert all(refusal(text) == "rate_limited" for status, text in answers if status == 429)


def test_a_session_is_valid_on_every_process_of_the_server(db_url: str) -> None:
    """Two app instances on one store, as the processes of ``serve --workers N`` are: a session made by one is
    known to the other, and signing out on one ends it on both."""
    with thread_server(fast_config(db_url)) as one, thread_server(fast_config(db_url)) as two:
        ann = visitor(one.url)
        assert ann.post("signup", {"name": "Ann Rossi", "password": PASSWORD})[0] == 303
        there = Browser(two.url)
        there.cookies = dict(ann.cookies)
        assert there.me()[1]["account"]["name"] == "Ann Rossi"
        assert there.post("signout", {})[0] == 303  # its CSRF token from the other process's page
        assert ann.me()[0] == 401


def test_no_password_token_or_session_in_the_log(tmp_path: Path) -> None:
    port = free_port()
    p = server_process(sqlite_url(tmp_path / "log.sqlite3"), port)
    try:
        base = f"http://127.0.0.1:{port}"
        ann = visitor(base)
        assert ann.post("signup", {"name": "Ann Rossi", "password": PASSWORD})[0] == 303
        assert ann.post("signin", {"name": "Ann Rossi", "password": "a wrong password"})[0] == 403
        assert ann.me()[0] == 200
        secrets_sent = [PASSWORD, "a wrong password", ann.cookies["burraco_session"].split(".")[1],
                        ann.cookies["burraco_session"], ann.csrf()]
    finally:
        p.terminate()
        p.wait(timeout=WAIT)
    log = server_log(p, tail=1 << 20)
    assert "/account/signup" in log  # the access log is on: the requests are there, their secrets are not
    for s in secrets_sent:
        for form in (s, s.replace(" ", "+"), s.replace(" ", "%20")):
            assert form not in log


def test_a_guests_games_are_claimed_and_deletion_anonymises_them(db_url: str) -> None:
    with thread_server(fast_config(db_url)) as server:
        ann = visitor(server.url)
        t = create(server.url, preset="italian-2p", seats=[{"kind": "human"}, {"kind": "computer"}])

        async def play_as_guest() -> None:
            ws = await connect(server.ws_url, open_timeout=WAIT,
                               additional_headers={"Cookie": f"burraco_guest={ann.cookies['burraco_guest']}"})
            c = Client(ws)
            await c.send({"type": "hello", "v": 1, "table": t["id"], "token": t["tokens"]["N"], "name": "Annie"})
            await c.until("state")
            await c.send({"type": "chat", "text": "ciao"})
            await c.until(lambda m: m["type"] == "event" and m["kind"] == "chat")
            await c.close()

        run(play_as_guest())
        assert ann.post("signup", {"name": "Ann Rossi", "password": PASSWORD})[0] == 303
        games = ann.me()[1]["games"]
        assert [(g["table"], g["seat"], g["name"]) for g in games] == [(t["id"], 0, "Annie")]
        status, text = ann.get("/account")
        assert f'href="/t/{t["id"]}"' in text
        # signing in again from the same browser claims nothing twice
        assert ann.post("signin", {"name": "Ann Rossi", "password": PASSWORD})[0] == 303
        assert len(ann.me()[1]["games"]) == 1

        status, text = ann.post("delete", {"password": "not the password"})
        assert status == 403 and refusal(text) == "signin" and ann.me()[0] == 200
        assert ann.post("delete", {"password": PASSWORD})[0] == 303
        assert ann.me()[0] == 401 and "burraco_session" not in ann.cookies
        assert Browser(server.url).post("signin", {"name": "Ann Rossi", "password": PASSWORD}, csrf=None)[0] == 403

    async def stored() -> tuple[list[str], list[dict[str, object]]]:
        store = Store(db_url)
        try:
            [row] = await store.load_tables(ids=[t["id"]])
            evs = await store.load_events(t["id"])
            return [s.name for s in row.seats], [e.data for e in evs if e.kind in ("seat", "chat")]
        finally:
            await store.close()

    names, evs = run(stored())
    assert names[0] == DELETED  # the game stays, its player's name gone
    assert evs and all(e.get("name") != "Annie" for e in evs)
    assert any(e.get("name") == DELETED for e in evs)
    assert run(rows(db_url, accounts_t)) == [] and run(rows(db_url, sessions_t)) == []


def test_migration_from_the_previous_schema_keeps_its_games(db_url: str) -> None:
    """A database made by the previous release (revision 0004) with a game in it: migrated to 0005 at start, the
    game is all there, and an account can claim the guest's seat in it."""

    async def go() -> None:
        old = Store(db_url)
        await old.migrate("0004")
        seats = [SeatRow(0, "human", "heuristic:medium", "Ann", True, token_hash("t0")),
                 SeatRow(1, "computer", "heuristic:medium", "Bot", False, "")]
        await old.create_table("old1", {"rules": "italian-2p", "name": "before"}, seats, {"name": "before"})
        await old.append("old1", [(2, "game", {"game_no": 0, "dealer": 1}), (3, "chat", {"text": "ciao"})],
                         status="playing", guest=(0, "G" * 22))
        await old.close()
        async with Store(db_url).engine.connect() as conn:
            names = await conn.run_sync(lambda c: sa.inspect(c).get_table_names())
        assert "accounts" not in names

        store = Store(db_url)
        await store.migrate()
        [row] = await store.load_tables()
        assert (row.id, row.status, [s.name for s in row.seats], row.seats[0].guests) == \
            ("old1", "playing", ["Ann", "Bot"], ("G" * 22,))
        assert [(e.n, e.kind) for e in await store.load_events("old1")] == [(1, "created"), (2, "game"), (3, "chat")]
        accounts = Accounts(store, Limits(5, 30, 900.0))
        acc = await accounts.sign_up("Ann Rossi", PASSWORD)
        assert await accounts.claim_guest(acc, "G" * 22) == 1
        assert [g["table"] for g in await accounts.games(acc)] == ["old1"]
        await store.close()

    run(asyncio.wait_for(go(), 120))


def test_the_operator_resets_a_forgotten_password(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from burraco.cli import app

    db = sqlite_url(tmp_path / "reset.sqlite3")
    with thread_server(fast_config(db)) as server:
        ann = visitor(server.url)
        assert ann.post("signup", {"name": "Ann Rossi", "password": PASSWORD})[0] == 303
        new = "a brand new secret"
        out = CliRunner().invoke(app, ["account-password", "ann rossi", "--db", db], input=f"{new}\n{new}\n")
        assert out.exit_code == 0, out.output
        assert new not in out.output
        assert ann.me()[0] == 401  # its sessions ended
        b = visitor(server.url)
        assert b.post("signin", {"name": "Ann Rossi", "password": PASSWORD})[0] == 403
        assert b.post("signin", {"name": "Ann Rossi", "password": new})[0] == 303
        out = CliRunner().invoke(app, ["account-password", "Nobody", "--db", db], input=f"{new}\n{new}\n")
        assert out.exit_code == 1 and "no account is named 'Nobody'" in out.output


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="a thread has its own nice value on Linux only")
def test_passwords_are_hashed_on_one_thread_of_the_lowest_priority(tmp_path: Path) -> None:
    """The sign-ups and sign-ins of a crowd run on the accounts' own thread (HASHING: one, and one argon2 lane, so
    one core at most), at nice 19 (below the event loop's thread, which plays every table), so that they get the
    CPU the tables leave (docs/accounts.md "Many sign-ins during play")."""

    def hashing_threads() -> list[threading.Thread]:
        return [t for t in threading.enumerate() if t.name.startswith("argon2")]

    async def go() -> None:
        store = Store(sqlite_url(tmp_path / "hash.sqlite3"))
        await store.migrate()
        accounts = Accounts(store, Limits(5, 30, 900.0))
        seen: set[int] = set()

        async def watch() -> None:  # the hashing threads while the passwords are being hashed
            while True:
                seen.update(t.native_id or 0 for t in hashing_threads())
                await asyncio.sleep(0.01)

        watcher = asyncio.get_running_loop().create_task(watch())
        made = await asyncio.gather(*(accounts.sign_up(f"Player {i}", PASSWORD) for i in range(4)))
        back = await asyncio.gather(*(accounts.sign_in(f"Player {i}", PASSWORD, "10.0.0.1") for i in range(4)))
        watcher.cancel()
        assert [a.id for a in back] == [a.id for a in made]
        loop_thread = threading.get_native_id()
        assert HASHING == 1 and ARGON2_LANES == 1
        assert seen and loop_thread not in seen and len(hashing_threads()) == len(seen) == HASHING
        loop_nice = os.getpriority(os.PRIO_PROCESS, loop_thread)
        for t in hashing_threads():
            assert os.getpriority(os.PRIO_PROCESS, t.native_id or 0) == HASHING_NICE > loop_nice
        await store.close()

    run(go())


def test_a_password_hashed_with_other_parameters_is_hashed_again_at_its_next_sign_in(tmp_path: Path) -> None:
    """The hashes made before (argon2-cffi's defaults: 64 MiB, 3 passes, 4 lanes) stay valid; at its account's next
    sign-in the password is hashed again with the server's parameters (OWASP's minimum: 19 MiB, 2 passes, 1 lane,
    docs/accounts.md "Costs"); a wrong password changes nothing."""
    from argon2 import PasswordHasher

    async def stored(store: Store, account: str) -> str:
        async with store.engine.connect() as conn:
            row = (await conn.execute(sa.select(accounts_t.c.password).where(accounts_t.c.id == account))).one()
        return str(row.password)

    async def go() -> tuple[str, str, str]:
        store = Store(sqlite_url(tmp_path / "rehash.sqlite3"))
        await store.migrate()
        accounts = Accounts(store, Limits(5, 30, 900.0))
        made = await accounts.sign_up("Old Timer", PASSWORD)
        fresh = await stored(store, made.id)
        old = PasswordHasher().hash(PASSWORD)  # as the previous release hashed it
        async with store.engine.begin() as conn:
            await conn.execute(accounts_t.update().where(accounts_t.c.id == made.id).values(password=old))
        with pytest.raises(AccountError):
            await accounts.sign_in("Old Timer", "not the password at all", "10.0.0.7")
        assert await stored(store, made.id) == old
        assert (await accounts.sign_in("Old Timer", PASSWORD, "10.0.0.7")).id == made.id
        again = await stored(store, made.id)
        assert (await accounts.sign_in("Old Timer", PASSWORD, "10.0.0.7")).id == made.id
        assert await stored(store, made.id) == again  # hashed again once, not at every sign-in
        await store.close()
        return fresh, old, again

    fresh, old, again = run(go())
    ours = f"$argon2id$v=19$m={ARGON2_MEMORY_KIB},t={ARGON2_TIME},p={ARGON2_LANES}$"
    assert (ARGON2_MEMORY_KIB, ARGON2_TIME, ARGON2_LANES) == (19 * 1024, 2, 1)
    assert fresh.startswith(ours) and old.startswith("$argon2id$v=19$m=65536,t=3,p=4$")
    assert again.startswith(ours) and again != fresh
    assert PasswordHasher().verify(again, PASSWORD)


def test_a_passkey_account_is_deleted_by_typing_its_name(tmp_path: Path) -> None:
    async def go() -> None:
        store, accounts, acc = await passkey_account(tmp_path)
        with pytest.raises(AccountError, match="type the account's name"):
            await accounts.delete(acc, "")
        await accounts.delete(acc, "ann ROSSI")
        async with store.engine.connect() as conn:
            assert (await conn.execute(sa.select(accounts_t))).all() == []
        await store.close()

    run(go())


def test_the_first_account_administers_the_site(db_url: str) -> None:
    """The first account is the site's administrator (``burraco admin`` makes others): it disables an account
    (sessions ended, sign-in refused, bots with it) and enables it again, and closes a table mid-game; nobody
    else may."""
    from typer.testing import CliRunner

    from burraco.cli import app

    with thread_server(fast_config(db_url)) as server:
        ann, bob = visitor(server.url), visitor(server.url)
        assert ann.post("signup", {"name": "Ann Rossi", "password": PASSWORD})[0] == 303
        assert bob.post("signup", {"name": "Bob Verdi", "password": PASSWORD})[0] == 303
        assert ann.me()[1]["account"]["admin"] is True and bob.me()[1]["account"]["admin"] is False
        assert 'id="admin"' in ann.get("/account")[1] and 'id="admin"' not in bob.get("/account")[1]
        status, text = bob.post("admin-disable", {"name": "Ann Rossi"})
        assert status == 403 and refusal(text) == "admin" and ann.me()[0] == 200

        status, text = ann.post("admin-disable", {"name": "bob verdi"})
        assert status == 200 and "Bob Verdi is disabled" in text
        assert bob.me()[0] == 401  # his session ended
        again = visitor(server.url)
        status, text = again.post("signin", {"name": "Bob Verdi", "password": PASSWORD})
        assert status == 403 and refusal(text) == "disabled"
        assert ann.post("admin-enable", {"name": "Bob Verdi"})[0] == 200
        assert again.post("signin", {"name": "Bob Verdi", "password": PASSWORD})[0] == 303

        # a table closed in the middle of its game: its players see it close
        t = create(server.url, preset="italian-2p", seats=[{"kind": "human"}, {"kind": "computer"}])

        async def close_while_seated() -> dict[str, object]:
            c = Client(await connect(server.ws_url, open_timeout=WAIT))
            await c.send({"type": "hello", "v": 1, "table": t["id"], "token": t["tokens"]["N"]})
            await c.until(lambda m: m["type"] == "event" and m["kind"] == "hand")
            status, text = await asyncio.to_thread(ann.post, "admin-close", {"table": t["id"]})
            assert status == 200 and "is closed" in text
            closed = await c.until(lambda m: m["type"] == "event" and m["kind"] == "closed")
            await c.close()
            return dict(closed["data"])

        closed = run(close_while_seated())
        assert closed["status"] == "abandoned" and "administrator" in str(closed["why"])
        status, text = ann.post("admin-close", {"table": t["id"]})
        assert status == 409 and refusal(text) == "not_now"
        assert ann.post("admin-close", {"table": "nosuchtable"})[0] == 404

    # the operator makes another administrator
    out = CliRunner().invoke(app, ["admin", "Bob Verdi", "--db", db_url])
    assert out.exit_code == 0, out.output
    with thread_server(fast_config(db_url)) as server:
        b = visitor(server.url)
        assert b.post("signin", {"name": "Bob Verdi", "password": PASSWORD})[0] == 303
        assert b.me()[1]["account"]["admin"] is True


def test_an_administrator_removes_a_chat_line_for_everyone_and_from_the_store(db_url: str) -> None:
    """A site administrator removes a chat line (the form ``admin-chat``): everyone connected gets a
    ``chat_removed`` event naming it, a client that catches up later gets the line's event without its text (marked
    ``removed``), the store keeps no removed text, the other lines stay; nobody else may, a line is removed once,
    and only chat lines are."""
    with thread_server(fast_config(db_url)) as server:
        ann, bob = visitor(server.url), visitor(server.url)
        assert ann.post("signup", {"name": "Ann Rossi", "password": PASSWORD})[0] == 303
        assert bob.post("signup", {"name": "Bob Verdi", "password": PASSWORD})[0] == 303
        t = create(server.url, preset="italian-2p", seats=[{"kind": "human"}, {"kind": "human"}])

        async def chat_then_remove() -> tuple[int, int, list[dict[str, object]], list[dict[str, object]]]:
            player, watcher = await Client.open(server.ws_url), await Client.open(server.ws_url)
            await player.hello(t["id"], t["tokens"]["N"])
            await watcher.hello(t["id"])
            await player.send({"type": "chat", "text": "something rude"})
            rude = await watcher.until(lambda m: m["type"] == "event" and m["kind"] == "chat")
            await player.send({"type": "chat", "text": "good luck"})
            kept = await watcher.until(lambda m: m["type"] == "event" and m["kind"] == "chat")
            status, text = await asyncio.to_thread(bob.post, "admin-chat", {"table": t["id"], "n": str(rude["n"])})
            assert status == 403 and refusal(text) == "admin"
            status, text = await asyncio.to_thread(ann.post, "admin-chat", {"table": t["id"], "n": str(rude["n"])})
            assert status == 200 and "is removed" in text, text
            told = []
            for c in (player, watcher):
                m = await c.until(lambda m: m["type"] == "event" and m["kind"] == "chat_removed")
                told.append(dict(m["data"]))
            late = await Client.open(server.ws_url)  # catches up on every event
            await late.hello(t["id"], last=0)
            events = [m for m in late.got if m["type"] == "event"]
            for c in (player, watcher, late):
                await c.close()
            return int(rude["n"]), int(kept["n"]), told, events

        n, kept, told, events = run(chat_then_remove())
        assert told == [{"n": n, "why": "removed by the site's administrator"}] * 2
        by_n = {int(e["n"]): e for e in events}
        assert by_n[n]["kind"] == "chat" and by_n[n]["data"] == {"seat": "N", "seat_letter": "N", "text": "",
                                                                  "removed": True, "name": by_n[kept]["data"]["name"]}
        assert by_n[kept]["data"]["text"] == "good luck"
        assert [e["data"] for e in events if e["kind"] == "chat_removed"] == [told[0]]

        status, text = ann.post("admin-chat", {"table": t["id"], "n": str(n)})
        assert status == 409 and refusal(text) == "not_now"
        status, text = ann.post("admin-chat", {"table": t["id"], "n": "1"})  # the table's "created" event
        assert status == 404 and refusal(text) == "not_found"
        status, text = ann.post("admin-chat", {"table": t["id"], "n": "two"})
        assert status == 400 and refusal(text) == "bad_message"

    from burraco.server.store import events_t

    stored = run(rows(db_url, events_t))
    assert not [r for r in stored if "rude" in str(r.data)]
    assert [r.data["text"] for r in sorted(stored, key=lambda r: r.n) if r.kind == "chat"] == ["", "good luck"]


def test_only_signed_in_accounts_create_events_where_the_server_says_so(db_url: str) -> None:
    """``BURRACO_DIRECTOR_SIGNIN=account`` (``burraco serve --director-signin account``): creating a tournament
    event needs a session of an account (the directors' password is not what is asked); a request from another
    site's page is refused; the setting's other values keep the password."""
    import json

    from typer.testing import CliRunner

    from burraco.cli import app

    spec = json.dumps({"name": "Torneo", "rounds": 1, "movements": "mitchell"}).encode()
    json_type = {"Content-Type": "application/json"}
    with thread_server(fast_config(db_url, director_signin="account", director_password="s3cret")) as server:
        ann = visitor(server.url)
        status, _, text = ann.request("GET", "/api/tournament-config")
        assert status == 200 and json.loads(text)["account"] is True and json.loads(text)["signin"] is False
        status, _, text = ann.request("POST", "/api/tournaments", spec, json_type)
        assert status == 401 and json.loads(text)["error"] == "signin" and "/account" in json.loads(text)["message"]
        status, _, text = ann.request("POST", "/api/tournaments", spec, {**json_type, "Authorization": "Bearer s3cret"})
        assert status == 401  # the password is not an account
        assert ann.post("signup", {"name": "Ann Rossi", "password": PASSWORD})[0] == 303
        status, _, text = ann.request("POST", "/api/tournaments", spec,
                                      {**json_type, "Origin": "https://elsewhere.example"})
        assert status == 403 and json.loads(text)["error"] == "csrf"
        status, _, text = ann.request("POST", "/api/tournaments", spec, json_type)
        assert status == 201 and json.loads(text)["id"], text
        assert ann.post("signout", {})[0] == 303
        assert ann.request("POST", "/api/tournaments", spec, json_type)[0] == 401
    with thread_server(fast_config(db_url, director_signin="on", director_password="s3cret")) as server:
        anyone = visitor(server.url)
        status, _, text = anyone.request("GET", "/api/tournament-config")
        assert json.loads(text)["account"] is False and json.loads(text)["signin"] is True
        status, _, text = anyone.request("POST", "/api/tournaments", spec,
                                         {**json_type, "Authorization": "Bearer s3cret"})
        assert status == 201
    out = CliRunner().invoke(app, ["serve", "--director-signin", "members", "--db", db_url])
    assert out.exit_code == 2 and "auto, on, off or account" in out.output


def test_a_tournament_entrant_is_linked_to_accounts_that_exist(db_url: str) -> None:
    """The desk registers an entrant with an account for a player (``{"name", "account"}``): the account must
    exist (any case; stored as the account spells its name; a bot's is refused) and the public page shows it."""
    from test_server_tournament import call, new_event

    with thread_server(fast_config(db_url)) as server:
        ann = visitor(server.url)
        assert ann.post("signup", {"name": "Ann Rossi", "password": PASSWORD})[0] == 303
        assert ann.post("bot", {"name": "Ann Bot"})[0] == 201
        d = new_event(server.url, rounds=1, movements="mitchell")
        status, out = d.do("register", {"name": "Rossi", "people": [{"name": "Ann", "account": "nobody here"},
                                                                     "Bruno"]})
        assert status == 400 and out["error"] == "no_account" and "nobody here" in out["message"]
        status, out = d.do("register", {"name": "Rossi", "people": [{"name": "Ann", "account": "Ann Bot"}, "Bruno"]})
        assert status == 400 and out["error"] == "no_account"
        status, out = d.do("register", {"name": "Rossi", "people": [{"name": "Ann", "account": 7}, "Bruno"]})
        assert status == 400 and out["error"] == "bad_request"
        assert d.public()["entrants"] == []  # every refusal registered nobody
        d.ok("register", {"name": "Rossi", "people": [{"name": "Ann", "account": "ann  ROSSI"}, "Bruno"]})
        d.ok("register", {"name": "Verdi", "people": [{"name": "Carla", "account": ""}, "Dino"]})
        public = d.public()["entrants"]
        assert [(e["name"], e["players"], e["accounts"]) for e in public] == [
            ("Rossi", ["Ann", "Bruno"], ["Ann Rossi", ""]), ("Verdi", ["Carla", "Dino"], ["", ""])]
        status, saved = call(server.url, "GET", f"/api/tournaments/{d.id}/event.json", token=d.token)
        assert status == 200
        people = [e["people"] for e in saved["log"] if e["type"] == "register"]
        assert people[0][0]["account"] == "Ann Rossi" and all("account" not in p for p in people[0][1:] + people[1])

"""Profiles over real HTTP (docs/accounts.md "Your profile", server/profiles.py), on SQLite and PostgreSQL: the
settings (name, language, preferred rules, club, public or private) saved from /account behind its CSRF token and
checked first; the profile page at /players/<name> with the games' results, their replays and the rating plot,
shown to others only when public (and linked from the leaderboards then); and the migration 0006 keeping the
accounts of a database at revision 0005."""

from __future__ import annotations

import asyncio
import json
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from websockets.asyncio.client import connect

from account_support import PASSWORD, refusal, visitor
from burraco.server.accounts import Accounts, Limits
from burraco.server.profiles import profile
from burraco.server.store import SeatRow, Store, rating_history_t, ratings_t, token_hash
from server_support import WAIT, Client, create, database, fast_config, run, thread_server


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    with database(request.param, tmp_path / "store.sqlite3") as url:
        yield url




def finished_games(base: str, table: str) -> list[dict[str, Any]]:
    with urllib.request.urlopen(f"{base}/api/tables/{table}/games", timeout=WAIT) as r:
        out: list[dict[str, Any]] = json.loads(r.read())["games"]
        return out


def test_profile_settings_and_the_public_page(db_url: str) -> None:
    with thread_server(fast_config(db_url)) as server:
        ann, stranger = visitor(server.url), visitor(server.url)
        t = create(server.url, preset="italian-2p", hands=1, seats=[{"kind": "human"}, {"kind": "computer"}])

        async def play_as_guest() -> None:  # Ann leaves at once: the computer plays her seat out
            ws = await connect(server.ws_url, open_timeout=WAIT,
                               additional_headers={"Cookie": f"burraco_guest={ann.cookies['burraco_guest']}"})
            c = Client(ws)
            await c.send({"type": "hello", "v": 1, "table": t["id"], "token": t["tokens"]["N"], "name": "Annie"})
            await c.until(lambda m: m["type"] == "state" and m["table"]["status"] == "playing")
            await c.send({"type": "leave"})
            await c.until(lambda m: m["type"] == "event" and m["kind"] == "game_end", 150)
            await c.close()

        run(play_as_guest())
        assert ann.post("signup", {"name": "Ann Rossi", "password": PASSWORD})[0] == 303
        assert visitor(server.url).post("signup", {"name": "Bea Bianchi", "password": PASSWORD})[0] == 303
        assert ann.me()[1]["profile"] == {"language": None, "rules": None, "club": None, "public": False}
        status, text = ann.get("/account")
        assert 'action="/account/profile"' in text and 'href="/players/Ann%20Rossi"' in text

        # private: its player sees it, nobody else (the same 404 as no account at all)
        status, text = ann.get("/players/Ann%20Rossi")
        assert status == 200 and "Private profile" in text
        assert stranger.get("/players/Ann%20Rossi")[0] == 404
        assert stranger.get("/players/Nobody%20Here")[0] == 404

        # every setting is checked before anything is stored; the form needs this browser's CSRF token
        full = {"name": "Ann Verdi", "language": "it", "rules": "italian-2p", "club": "Circolo  di Roma",
                "public": "on"}
        for field, bad, code in (("language", "xx", "bad_profile"), ("rules", "chess", "bad_profile"),
                                 ("club", "<script>", "bad_profile"), ("name", "Bo", "bad_name"),
                                 ("name", "bea BIANCHI", "name_taken")):
            status, text = ann.post("profile", {**full, field: bad})
            assert status in (400, 409) and refusal(text) == code, (field, text)
        status, text = ann.post("profile", full, csrf=stranger.csrf())
        assert status == 403 and refusal(text) == "csrf"
        assert ann.me()[1]["account"]["name"] == "Ann Rossi" and ann.me()[1]["profile"]["public"] is False

        status, text = ann.post("profile", full)
        # the account page is in the profile's language from now on (a page asked ?lang= is in that one)
        assert status == 200 and "Il profilo è salvato (pubblico)." in text and '<html lang="it">' in text
        assert "Your profile is saved (public)." in ann.post("profile?lang=en", full)[1]
        me = ann.me()[1]
        assert me["account"]["name"] == "Ann Verdi"
        assert me["profile"] == {"language": "it", "rules": "italian-2p", "club": "Circolo di Roma", "public": True}

        # public: anyone sees the club, the rules, each game's result and its replay, and the rating plot
        [game] = finished_games(server.url, t["id"])
        expected = "drawn" if game["winner"] is None else "won" if game["winner"] == "N" else "lost"
        status, text = stranger.get("/players/ann%20verdi")
        assert status == 200 and "Public profile" in text
        assert "Circolo di Roma" in text and "italian-2p" in text
        assert f'data-result="{expected}"' in text and f'href="/t/{t["id"]}/replay/0"' in text
        assert 'id="rating-plot"' not in text  # no rated game yet
        assert stranger.get("/players/Ann%20Rossi")[0] == 404  # the old name is nobody's now

        async def rated_once() -> None:  # a rated game's rows, as server/ratings.py writes them
            store = Store(db_url)
            async with store.engine.begin() as conn:
                await conn.execute(ratings_t.insert().values(account_id=me["account"]["id"], pool="italian-1v1",
                                                             mu=27.5, sigma=7.9, games=1, updated=1.0))
                await conn.execute(rating_history_t.insert().values(
                    account_id=me["account"]["id"], pool="italian-1v1", table_id=t["id"], game_no=0, mu=27.5,
                    sigma=7.9, rank=1, vs_computer=True, at=time.time()))  # this season
            await store.close()

        run(rated_once())
        status, text = stranger.get("/players/Ann%20Verdi")
        assert status == 200 and 'id="rating-plot"' in text and "italian-1v1" in text
        [entry] = json.loads(stranger.get("/api/ratings/italian-1v1")[1])["leaderboard"]
        assert entry["name"] == "Ann Verdi" and entry["profile"] == "/players/Ann%20Verdi"  # the board links it

        # private again (the box unticked): hidden from others at once
        assert ann.post("profile", {k: v for k, v in full.items() if k != "public"})[0] == 200
        assert stranger.get("/players/Ann%20Verdi")[0] == 404 and ann.get("/players/Ann%20Verdi")[0] == 200
        assert json.loads(stranger.get("/api/ratings/italian-1v1")[1])["leaderboard"][0]["profile"] is None


def test_migration_0006_keeps_the_accounts_and_makes_their_profiles_private(db_url: str) -> None:
    async def go() -> None:
        old = Store(db_url)
        await old.migrate("0005")
        seats = [SeatRow(0, "human", "heuristic:medium", "Ann", True, token_hash("t0")),
                 SeatRow(1, "computer", "heuristic:medium", "Bot", False, "")]
        await old.create_table("old1", {"rules": "italian-2p"}, seats, {"name": "before"})
        acc = await Accounts(old, Limits(5, 30, 900.0)).sign_up("Ann Rossi", PASSWORD)
        await old.close()
        async with Store(db_url).engine.connect() as conn:
            columns = await conn.run_sync(lambda c: [x["name"] for x in sa.inspect(c).get_columns("accounts")])
        assert "public" not in columns

        store = Store(db_url)
        await store.migrate()
        assert await profile(store, acc.id) is not None
        p = await profile(store, acc.id)
        assert p is not None and (p.name, p.language, p.rules, p.club, p.public) == \
            ("Ann Rossi", None, None, None, False)
        assert await Accounts(store, Limits(5, 30, 900.0)).sign_in("Ann Rossi", PASSWORD, "127.0.0.1") == acc
        assert [r.id for r in await store.load_tables()] == ["old1"]
        await store.close()

    run(asyncio.wait_for(go(), 120))

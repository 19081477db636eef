"""The account's pages in every language, and the leaderboards as pages (docs/accounts.md), over real HTTP on
SQLite and on a real PostgreSQL server: a page's language is its address's ``?lang=``, else the signed-in account's
profile language, else the browser's ``Accept-Language``, else English; its forms, refusals and notes are in it (the
catalogue's own texts, :mod:`burraco.lang`); a leaderboard page lists a pool's players best first by mu − 3 sigma,
the same order as ``/api/ratings``, with the signed-in player's own row marked, for a season, every season since
ratings began, or all time."""

from __future__ import annotations

import html
import json
import re
import time
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlencode

import pytest

from account_support import PASSWORD, Browser, account, refusal, visitor
from burraco.messages import LANGS, msg, render
from burraco.server import ratings
from burraco.server.store import Store, rating_history_t, ratings_t
from server_support import create, database, fast_config, run, thread_server


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    with database(request.param, tmp_path / "store.sqlite3") as url:
        yield url


def said(code: str, lang: str, **params: str | int) -> str:
    """A catalogue text as a page writes it (HTML-escaped)."""
    return html.escape(render(msg(code, **params), lang))


#: texts of the signed-in administrator's account page, and of the signed-out page
SIGNED_IN = ("acc_title", "acc_your_profile", "acc_save_profile", "acc_add_passkey", "acc_make_bot", "acc_admin",
             "acc_disable", "acc_remove_chat", "acc_change_password", "acc_signout", "acc_signout_all", "acc_delete",
             "acc_delete_note", "acc_password_note", "acc_back", "acc_leaderboards_link")
SIGNED_OUT = ("acc_with_passkey", "acc_signup", "acc_signin", "acc_signup_passkey", "acc_signin_passkey",
              "acc_guest_games", "acc_password", "acc_no_passkeys")


def test_the_account_pages_in_every_language(db_url: str) -> None:
    with thread_server(fast_config(db_url)) as server:
        guest, ann = visitor(server.url), account(server.url, "Ann Rossi")  # the first account: an administrator
        for lang in LANGS:
            status, text = guest.get(f"/account?lang={lang}")
            assert status == 200 and f'<html lang="{lang}">' in text
            for code in SIGNED_OUT:
                assert said(code, lang) in text, (lang, code)
            assert f'action="/account/signup?lang={lang}"' in text  # the forms answer in the same language
            status, text = ann.get(f"/account?lang={lang}")
            for code in SIGNED_IN:
                assert said(code, lang) in text, (lang, code)
            assert said("acc_signed_in_as", lang, name="\x00").split("\x00")[0] in text
            if lang != "en":  # nothing of the page is left in English
                for code in SIGNED_IN + ("acc_bot_name", "acc_table_id", "acc_old_password"):
                    if render(msg(code), "en") != render(msg(code), lang):
                        assert f">{said(code, 'en')}<" not in text, (lang, code)

        # no ?lang=: the browser's Accept-Language, else English (a program that asks for none)
        status, _, text = guest.request("GET", "/account", headers={"Accept-Language": "nl-BE,nl;q=0.9,en;q=0.5"})
        assert '<html lang="nl">' in text and said("acc_signup", "nl") in text
        assert 'action="/account/signup"' in text  # a language found again by the next page is not carried
        assert '<html lang="en">' in guest.get("/account")[1]

        # a refusal, and a note, in the form's language; its answer goes back to the page in that language
        status, text = guest.post("signin?lang=pt", {"name": "Nobody Here", "password": "not a password 1"})
        assert status == 403 and refusal(text) == "signin" and said("acc_e_signin", "pt") in text
        status, text = guest.post("signup?lang=de", {"name": "Bo", "password": PASSWORD})
        assert status == 400 and refusal(text) == "bad_name" and said("acc_e_bad_name", "de") in text
        status, text = ann.post("password?lang=it", {"old": PASSWORD, "new": "another long secret"})
        assert status == 200 and said("acc_password_changed", "it", n=0) in text
        bea = visitor(server.url)
        body = urlencode({"name": "Bea Bianchi", "password": PASSWORD, "csrf": bea.csrf()}).encode()
        status, headers, _ = bea.request("POST", "/account/signup?lang=nl", body,
                                         {"Content-Type": "application/x-www-form-urlencoded"})
        assert status == 303 and headers["location"] == "/account?lang=nl"

        # the profile's language wins over Accept-Language, and ?lang= over both
        status, text = ann.post("profile", {"name": "Ann Rossi", "language": "de", "rules": "", "club": ""})
        assert status == 200 and said("acc_profile_saved_private", "de") in text
        _, _, text = ann.request("GET", "/account", headers={"Accept-Language": "pt"})
        assert '<html lang="de">' in text and said("acc_your_profile", "de") in text
        assert '<html lang="en">' in ann.get("/account?lang=en")[1]
        status, text = ann.get("/players/ann%20rossi")  # her own private profile page, in her language
        assert status == 200 and said("acc_private_profile", "de") in text
        status, text = guest.get("/players/ann%20rossi?lang=it")
        assert status == 404 and said("acc_no_profile", "it") in text

        # the passkeys' JSON refusals too
        status, _, text = guest.request("POST", "/account/passkey/signin-options?lang=nl", b"{}",
                                        {"Content-Type": "application/json"})
        assert status == 403 and json.loads(text)["message"] == render(msg("acc_e_request_csrf"), "nl")


def test_the_leaderboard_pages(db_url: str) -> None:
    with thread_server(fast_config(db_url)) as server:
        ann, bea, cid = (account(server.url, n) for n in ("Ann Rossi", "Bea Bianchi", "Cid Verdi"))
        ids = {n: b.me()[1]["account"]["id"] for n, b in (("Ann Rossi", ann), ("Bea Bianchi", bea),
                                                          ("Cid Verdi", cid))}
        assert bea.post("profile", {"name": "Bea Bianchi", "public": "on"})[0] == 200
        t = create(server.url, preset="italian-2p", hands=1, seats=[{"kind": "human"}] * 2)
        now = time.time()
        before = now - 100 * 86400  # a quarter is at most 92 days: an earlier season

        async def rated() -> None:  # ratings as server/ratings.py writes them: now, and each one's history
            store = Store(db_url)
            rows = [("Ann Rossi", 30.0, 5.0, now, 0), ("Bea Bianchi", 35.0, 5.0, now, 1),
                    ("Cid Verdi", 28.0, 6.0, before, 2), ("Cid Verdi", 20.0, 5.0, now, 3)]
            async with store.engine.begin() as conn:
                for name, mu, sigma, at, game in rows:
                    await conn.execute(rating_history_t.insert().values(
                        account_id=ids[name], pool="italian-1v1", table_id=t["id"], game_no=game, mu=mu,
                        sigma=sigma, rank=1, vs_computer=True, at=at))
                for name, mu, sigma, games in (("Ann Rossi", 30.0, 5.0, 1), ("Bea Bianchi", 35.0, 5.0, 1),
                                               ("Cid Verdi", 20.0, 5.0, 2)):
                    await conn.execute(ratings_t.insert().values(account_id=ids[name], pool="italian-1v1", mu=mu,
                                                                 sigma=sigma, games=games, updated=now))
            await store.close()

        run(rated())

        def rows(text: str) -> list[tuple[str, bool]]:
            return [(html.unescape(m.group(2)), bool(m.group(1)))
                    for m in re.finditer(r'<tr( class="you" aria-current="true")? data-name="([^"]*)">', text)]

        # this season: best first by mu - 3 sigma, as the JSON board; the signed-in player's row marked
        status, text = bea.get("/leaderboards/italian-1v1")
        assert status == 200
        assert rows(text) == [("Bea Bianchi", True), ("Ann Rossi", False), ("Cid Verdi", False)]
        api = json.loads(Browser(server.url).get("/api/ratings/italian-1v1")[1])["leaderboard"]
        assert [e["name"] for e in api] == [n for n, _ in rows(text)]
        assert f'<td>{ratings.ordinal(35.0, 5.0):.2f}</td>' in text and said("acc_lb_you", "en") in text
        assert 'href="/players/Bea%20Bianchi"' in text and 'href="/players/Ann%20Rossi"' not in text  # public only
        assert rows(Browser(server.url).get("/leaderboards/italian-1v1")[1])[0] == ("Bea Bianchi", False)
        assert rows(cid.get("/leaderboards/italian-1v1")[1])[2] == ("Cid Verdi", True)

        # the earlier season: Cid alone, with his rating at its end; all time: the ratings as they are now
        async def since() -> list[str]:
            store = Store(db_url)
            try:
                return await ratings.seasons(store, now)
            finally:
                await store.close()

        seasons = run(since())
        old = ratings.season_of(before)
        assert seasons[0] == ratings.season_of(now) and seasons[-1] == old and len(seasons) >= 2
        status, text = cid.get(f"/leaderboards/italian-1v1?season={old}")
        assert status == 200 and rows(text) == [("Cid Verdi", True)]
        assert f'<td>{ratings.ordinal(28.0, 6.0):.2f}</td>' in text
        status, text = ann.get("/leaderboards/italian-1v1?season=all")
        assert rows(text) == [("Bea Bianchi", False), ("Ann Rossi", True), ("Cid Verdi", False)]
        assert said("acc_lb_all", "en") in text
        for s in seasons:  # every season since ratings began can be opened from the board
            assert f'data-season="{s}"' in text

        # the index: every pool, every season; in the page's language
        status, text = ann.get(f"/leaderboards?lang=it&season={old}")
        assert status == 200 and '<html lang="it">' in text and said("acc_lb_title", "it") in text
        people = [p for p in ratings.pools() if not p.endswith("-bots")]  # then the bots' twins
        assert re.findall(r'data-pool="([^"]+)"', text) == people + [p + "-bots" for p in people]
        assert f'href="/leaderboards/italian-1v1?season={old}&amp;lang=it"' in text
        assert re.findall(r'data-season="([^"]+)"', text) == [*seasons, "all"]
        status, text = ann.get("/leaderboards/italian-2v2?lang=pt")
        assert status == 200 and said("acc_lb_empty", "pt") in text and said("acc_lb_pool_title", "pt",
                                                                              pool="italian-2v2") in text
        status, text = ann.get("/leaderboards/italian-1v1?season=2026-Q5&lang=nl")
        assert status == 400 and refusal(text) == "bad_season" and said("acc_lb_bad_season", "nl",
                                                                       season="2026-Q5") in text
        status, text = ann.get("/leaderboards/chess")
        assert status == 404 and refusal(text) == "not_found"
        assert 'href="/leaderboards/italian-1v1?lang=en"' in ann.get("/account?lang=en")[1]  # from her ratings

"""Rated tables from the lobby's form, in Debian's Chromium under the server's Content-Security-Policy
(docs/accounts.md "Ratings", static/lobby.js): a guest is offered no rated table and a link to sign in; a player
signed in to an account sees his name on the link to /account, finds the form set to his profile's preferred
rules, makes a rated table from the form and sits at it; the lobby marks the table rated; a guest who opens its
free seat is refused (rated tables hold accounts only)."""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from browser_support import launch, new_page
from server_support import WAIT, fast_config, sqlite_url, thread_server

TIMEOUT_MS = 60_000  # a ceiling: a loaded 2-core machine (CI, two workers and their browsers) can be slow


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from launch()


def tables(base: str) -> list[dict[str, Any]]:
    with urllib.request.urlopen(base + "/api/tables", timeout=WAIT) as r:
        out: list[dict[str, Any]] = json.loads(r.read())["tables"]
        return out


def test_a_signed_in_player_makes_a_rated_table_from_the_lobby_and_a_guest_cannot(browser: Any,
                                                                                   tmp_path: Path) -> None:
    with thread_server(fast_config(sqlite_url(tmp_path / "rated.sqlite3"))) as server:
        base = server.url
        guest = new_page(browser, 900, 900, timeout_ms=TIMEOUT_MS, bypass_csp=False)
        errors: list[str] = []
        guest.on("console", lambda m: errors.append(m.text) if m.type == "error" and "404" not in m.text else None)
        guest.goto(base + "/")
        guest.locator("[data-testid=play-now]").wait_for()
        link = guest.locator("[data-testid=account-link]")
        link.wait_for()
        guest.locator("#accountLink", has_text="Sign in or sign up").wait_for()
        guest.locator('#accountLink[href="/account?lang=en"]').wait_for()  # the page's language goes along
        assert guest.locator("[data-testid=rated]").is_hidden()

        player = new_page(browser, 900, 900, timeout_ms=TIMEOUT_MS, bypass_csp=False)
        player.on("console", lambda m: errors.append(m.text) if m.type == "error" and "404" not in m.text else None)
        for p in (guest, player):
            p.on("response", lambda r: errors.append(r.url) if r.status >= 400 and "favicon" not in r.url else None)
        player.goto(base + "/")
        player.locator("[data-testid=account-link]").click()  # the card room leads to the account page
        player.wait_for_url(base + "/account?lang=en")
        player.fill("#signup input[name=name]", "Ann Rossi")
        player.fill("#signup input[name=password]", "a long enough secret")
        player.click("#signup button")
        player.wait_for_selector("#account-name")
        player.select_option("#profile select[name=rules]", "italian-2p")  # the profile's preferred rules
        player.click("#profile button")
        player.get_by_text("Your profile is saved").wait_for()
        player.goto(base + "/")
        player.locator("#accountLink", has_text="Your account: Ann Rossi").wait_for()
        assert player.input_value("#preset") == "italian-2p"  # the new-table form starts from them
        rated = player.locator("[data-testid=rated]")
        rated.wait_for()
        assert "only players signed in to an account" in (player.text_content("#ratedBox") or "")
        assert player.input_value("#myname") == "Ann Rossi"
        player.select_option("[data-testid=seat-S]", "open")
        rated.check()
        player.click("[data-testid=create]")
        player.wait_for_url("**/t/*")
        player.locator("[data-testid=me]").wait_for()
        made = tables(base)
        assert len(made) == 1 and made[0]["rated"] is True, made
        table = made[0]
        assert [s["kind"] for s in table["seats"]][1] == "open"

        # the lobby marks it rated; a guest's browser that takes its free seat is refused with the rule
        guest.reload()
        row = guest.locator(f'[data-table="{table["id"]}"]')
        row.wait_for()
        assert "rated" in (row.locator(".rules").text_content() or "")
        guest.on("dialog", lambda d: d.accept())
        guest.goto(base + f"/t/{table['id']}?take=S")
        guest.locator("[data-testid=msg]", has_text="only players signed in to an account").wait_for()
        assert tables(base)[0]["seats"][1]["kind"] == "open"  # the seat stays free
        assert not errors, errors


def test_the_profiles_language_is_the_lobbys_on_a_browser_that_never_chose_one(browser: Any, tmp_path: Path) -> None:
    with thread_server(fast_config(sqlite_url(tmp_path / "lang.sqlite3"))) as server:
        page = new_page(browser, 900, 900, timeout_ms=TIMEOUT_MS, bypass_csp=False)
        page.goto(server.url + "/")
        page.locator("#accountLink", has_text="Sign in or sign up").wait_for()
        page.goto(server.url + "/account")
        page.fill("#signup input[name=name]", "Ute Lang")
        page.fill("#signup input[name=password]", "a long enough secret")
        page.click("#signup button")
        page.select_option("#profile select[name=language]", "de")
        page.click("#profile button")
        page.get_by_text("Dein Profil ist gespeichert").wait_for()  # the account page speaks it at once
        page.goto(server.url + "/")
        page.locator("#accountLink", has_text="Dein Konto: Ute Lang").wait_for()
        assert page.get_attribute("html", "lang") == "de" and page.input_value("#lang") == "de"
        # the player's own choice in the page is remembered, and wins over the profile's from then on
        page.select_option("#lang", "en")
        page.locator("#accountLink", has_text="Your account: Ute Lang").wait_for()
        page.reload()
        page.locator("#accountLink", has_text="Your account: Ute Lang").wait_for()
        assert page.get_attribute("html", "lang") == "en"

"""The account's pages and the leaderboards from the card room, in Debian's Chromium under the server's
Content-Security-Policy (docs/accounts.md): the card room's language goes along to the account page, the sign-up
and the leaderboards; a site administrator removes a chat line with the button beside it on the table page, and
closes the table with the button of its side panel, which nobody else is shown; the players are told, each in his
language."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from browser_support import launch, new_page
from burraco.messages import msg, render
from server_support import Client, create, fast_config, http, run, sqlite_url, thread_server

TIMEOUT_MS = 60_000  # a ceiling: a loaded 2-core machine (CI, two workers and their browsers) can be slow


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from launch()


def test_the_card_rooms_language_goes_to_the_account_page_and_the_leaderboards(browser: Any, tmp_path: Path) -> None:
    with thread_server(fast_config(sqlite_url(tmp_path / "lang.sqlite3"))) as server:
        base = server.url
        page = new_page(browser, 900, 900, timeout_ms=TIMEOUT_MS, bypass_csp=False)
        errors: list[str] = []
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" and "404" not in m.text else None)
        page.on("response", lambda r: errors.append(r.url) if r.status >= 400 and "favicon" not in r.url else None)
        page.goto(base + "/")
        page.locator("[data-testid=play-now]").wait_for()
        page.select_option("#lang", "it")  # the card room's own menu
        page.locator("#accountLink", has_text=render(msg("web_sign_in"), "it")).wait_for()
        assert page.get_attribute("[data-testid=leaderboards-link]", "href") == "/leaderboards?lang=it"
        page.locator("[data-testid=account-link]").click()
        page.wait_for_url(base + "/account?lang=it")
        assert page.get_attribute("html", "lang") == "it"
        assert page.text_content("#signup h2") == render(msg("acc_signup"), "it") == "Registrati"
        assert page.text_content("#passkey-signin") == render(msg("acc_signin_passkey"), "it")
        page.fill("#signup input[name=name]", "Ann Rossi")
        page.fill("#signup input[name=password]", "a long enough secret")
        page.click("#signup button")
        page.wait_for_selector("#account-name")
        assert page.url == base + "/account?lang=it"  # the form's answer stays in the page's language
        assert render(msg("acc_signed_in_as", name="Ann Rossi"), "it") in (page.text_content("main") or "")
        assert page.text_content("#signout-all h2") == render(msg("acc_signout_all"), "it")
        # the same page in German from its own menu of languages
        page.click("#languages a[hreflang=de]")
        page.wait_for_url(base + "/account?lang=de")
        assert page.text_content("#password h2") == render(msg("acc_change_password"), "de")
        page.click("#leaderboards-link")
        page.wait_for_url(base + "/leaderboards?lang=de")
        assert page.text_content("h1") == render(msg("acc_lb_title"), "de")
        page.click("#pools a[data-pool=italian-2v2]")
        page.wait_for_url("**/leaderboards/italian-2v2?*")
        assert page.get_attribute("html", "lang") == "de"
        assert page.text_content("#leaderboard-empty") == render(msg("acc_lb_empty"), "de")
        assert not errors, errors


def signed_up_administrator(browser: Any, base: str, errors: list[str]) -> Any:
    """A page of the server's first account (its administrator), signed up by password; console errors but 404s
    go to ``errors``."""
    admin = new_page(browser, 1280, 800, timeout_ms=TIMEOUT_MS)
    admin.on("console", lambda m: errors.append(m.text) if m.type == "error" and "404" not in m.text else None)
    admin.goto(base + "/")
    admin.locator("[data-testid=play-now]").wait_for()
    admin.goto(base + "/account")
    admin.fill("#signup input[name=name]", "Ann Rossi")  # the server's first account: its administrator
    admin.fill("#signup input[name=password]", "a long enough secret")
    admin.click("#signup button")
    admin.wait_for_selector("#admin")
    return admin


def test_an_administrator_removes_a_chat_line_with_its_button_at_the_table(browser: Any, tmp_path: Path) -> None:
    with thread_server(fast_config(sqlite_url(tmp_path / "chat.sqlite3"))) as server:
        base = server.url
        errors: list[str] = []
        admin = signed_up_administrator(browser, base, errors)
        t = create(base, preset="italian-2p", seats=[{"kind": "human"}, {"kind": "human"}])
        admin.goto(base + t["links"]["N"])
        admin.wait_for_function("Number(document.body.dataset.n || 0) > 0")  # seated: the table's state came
        guest = new_page(browser, 1280, 800, timeout_ms=TIMEOUT_MS)
        guest.goto(base + t["links"]["S"])
        guest.wait_for_function("Number(document.body.dataset.n || 0) > 0")

        async def chat_and_watch() -> None:
            c = await Client.open(server.ws_url)  # a third client at the table: it hears the removal too
            await c.hello(t["id"])
            await c.send({"type": "chat", "text": "spam spam spam"})
            said = await c.until(lambda m: m["type"] == "event" and m["kind"] == "chat")
            removed = await c.until(lambda m: m["type"] == "event" and m["kind"] == "chat_removed", 60)
            assert removed["data"]["n"] == said["n"]
            await c.close()

        # the admin's click happens while the websocket client waits (Playwright's sync API stays on this thread)
        done: list[BaseException | None] = []
        watcher = threading.Thread(target=lambda: done.append(_run(chat_and_watch)))
        watcher.start()
        admin.locator("[data-testid=chatlog]", has_text="spam spam spam").wait_for()
        guest.locator("[data-testid=chatlog]", has_text="spam spam spam").wait_for()
        assert guest.locator("[data-testid=chat-remove]").count() == 0  # nobody else has the button
        button = admin.locator("[data-testid=chat-remove]")
        button.first.wait_for()  # the page learns that its browser is an administrator's from its own /api/session
        assert button.count() == 1
        assert button.get_attribute("aria-label") == render(msg("web_chat_remove"), "en")
        button.click()
        for p in (admin, guest):
            p.wait_for_function("!document.querySelector('[data-testid=chatlog]').textContent.includes('spam')")
        watcher.join(60)
        assert done == [None], done
        assert not errors, errors


def test_an_administrator_closes_the_table_from_its_page_and_the_players_are_told(browser: Any,
                                                                                     tmp_path: Path) -> None:
    """The table page's "Close this table" button, for the site's administrator only: it asks first, then the
    table closes for everyone (the same closing as the form of /account); the other player, whose page is in
    Italian, reads in Italian that the administrator closed it. Nobody moves at this table (two people, neither
    plays), so no deal can end it first."""
    with thread_server(fast_config(sqlite_url(tmp_path / "close.sqlite3"))) as server:
        base = server.url
        errors: list[str] = []
        admin = signed_up_administrator(browser, base, errors)
        t = create(base, preset="italian-2p", seats=[{"kind": "human"}, {"kind": "human"}])
        guest = new_page(browser, 1280, 800, timeout_ms=TIMEOUT_MS, locale="it-IT")
        guest.on("console", lambda m: errors.append(m.text) if m.type == "error" and "404" not in m.text else None)
        guest.goto(base + t["links"]["S"])
        guest.wait_for_function("Number(document.body.dataset.n || 0) > 0")
        admin.goto(base + t["links"]["N"])
        admin.wait_for_function("Number(document.body.dataset.n || 0) > 0")  # seated: the table's state came
        button = admin.locator("[data-testid=admin-close]")
        button.wait_for(state="visible")
        assert button.text_content() == render(msg("web_close_table"), "en")
        assert guest.locator("[data-testid=admin-close]").is_hidden()  # nobody else has the button
        button.click()
        admin.locator("[data-testid=confirm-close]").wait_for(state="visible")
        admin.click("[data-testid=close-no]")  # asked first: "keep it open" keeps it open
        assert admin.locator("[data-testid=confirm-close]").is_hidden()
        assert guest.text_content("[data-testid=status]") != render(msg("web_closed_by_admin"), "it")
        button.click()
        admin.click("[data-testid=close-yes]")
        told = render(msg("web_closed_admin"), "it")
        assert told == "Questo tavolo è stato chiuso dall'amministratore del sito."
        guest.locator("[data-testid=status]", has_text=render(msg("web_closed_by_admin"), "it")).wait_for()
        guest.locator("[data-testid=log]", has_text=told).wait_for()
        admin.locator("[data-testid=status]", has_text=render(msg("web_closed_by_admin"), "en")).wait_for()
        button.wait_for(state="hidden")  # closed: nothing left to close
        status, info = http("GET", f"{base}/api/tables/{t['id']}")
        assert status == 200 and info["status"] == "abandoned" and info["closed_by"] == "admin"
        assert not errors, errors


def _run(work: Any) -> BaseException | None:
    try:
        run(work())
    except BaseException as e:  # noqa: BLE001 - handed back to the test's thread
        return e
    return None


def test_the_new_event_page_says_that_creating_an_event_needs_a_signed_in_account(browser: Any,
                                                                                  tmp_path: Path) -> None:
    """BURRACO_DIRECTOR_SIGNIN=account (docs/tournaments.md "Who may create an event"): the page says so, with the
    way to sign in for a guest, and who creates the event for a signed-in player (who then creates it)."""
    with thread_server(fast_config(sqlite_url(tmp_path / "desk.sqlite3"), director_signin="account")) as server:
        base = server.url
        page = new_page(browser, 1000, 900, timeout_ms=TIMEOUT_MS, bypass_csp=False)
        page.goto(base + "/tournament/new?lang=nl")
        note = page.locator("[data-testid=signin-note]")
        note.wait_for()
        assert render(msg("desk_signin_needed"), "nl") in (note.text_content() or "")
        assert page.get_attribute("[data-testid=signin-link]", "href") == "/account?lang=nl"
        assert page.locator("[data-testid=new-password]").count() == 0  # no directors' password on this server
        page.click("[data-testid=signin-link]")
        page.wait_for_url(base + "/account?lang=nl")
        page.fill("#signup input[name=name]", "Ann Rossi")
        page.fill("#signup input[name=password]", "a long enough secret")
        page.click("#signup button")
        page.wait_for_selector("#account-name")
        page.goto(base + "/tournament/new?lang=nl")
        page.locator("[data-testid=signin-note]", has_text=render(msg("desk_signed_in_as", name="Ann Rossi"),
                                                                  "nl")).wait_for()
        assert page.locator("[data-testid=signin-link]").count() == 0
        page.fill("[data-testid=new-name]", "Soci")
        page.fill("[data-testid=new-rounds]", "1")
        page.fill("[data-testid=new-movements]", "mitchell")
        page.click("[data-testid=new-create]")
        page.wait_for_url("**/tournament/*/desk#d=*")

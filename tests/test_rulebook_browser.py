"""The rule book in the browser (issue 44): the server serves it in the player's language with an anchor per rule,
a refusal on the table is told to its player with its rule ("rule 3.2") and a "Why?" link that opens that rule,
Playwright on Debian's Chromium."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from browser_support import new_page, require
from server_support import ThreadServer, create, fast_config, http, sqlite_url, thread_server

require()

from test_server_browser import wait_turn_or_end  # noqa: E402

TIMEOUT_MS = 60_000  # a ceiling: a loaded 2-core machine (CI, two workers and their browsers) can be slow
EASY = {"kind": "computer", "level": "heuristic:easy"}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ThreadServer]:
    db = tmp_path_factory.mktemp("db") / "rules.sqlite3"
    with thread_server(fast_config(sqlite_url(db), bot_delay=0.02, between_hands=600.0)) as s:
        yield s


def test_the_server_serves_the_book_with_an_anchor_per_rule(server: ThreadServer) -> None:
    import urllib.request

    for lang, title in (("en", "3.2 The three parts of a turn"), ("it", "3.2 Le tre fasi del turno"),
                        ("de", "3.2 The three parts of a turn")):  # fmt: skip
        with urllib.request.urlopen(f"{server.url}/rules/{lang}") as r:
            page = r.read().decode()
            assert r.headers["Content-Type"].startswith("text/html")
        assert '<a id="rule-3.2"></a>' in page and title in page and 'id="rule-14.1"' in page
    status, body = http("GET", f"{server.url}/rules/xx")
    assert status == 404 and body["error"] == "not_found"


@pytest.mark.parametrize(
    ("locale", "told", "why", "heading"),
    [("en-US", "you must first draw from the stock or pick up the pile (rule 3.2)", "Why?",
      "3.2 The three parts of a turn"),
     ("it-IT", "devi prima pescare dal tallone o raccogliere gli scarti (regola 3.2)", "Perché?",
      "3.2 Le tre fasi del turno")],
)  # fmt: skip
def test_a_refusal_names_you_and_its_rule_and_why_opens_it(
    server: ThreadServer, browser: Any, locale: str, told: str, why: str, heading: str
) -> None:
    t = create(server.url, preset="italian", hands=1, seats=[{"kind": "human", "name": "Ada"}] + [EASY] * 3)
    page = new_page(browser, 1280, 800, timeout_ms=TIMEOUT_MS, locale=locale)
    page.goto(server.url + t["links"]["N"])
    assert wait_turn_or_end(page) == "turn"  # North plays first
    page.locator("[data-testid=hand] .card").first.click()
    page.keyboard.press("x")  # a discard before taking a card (the key: the button waits for the draw)
    link = page.locator("[data-testid=msg] [data-testid=why]")
    link.wait_for()
    assert told in page.locator("[data-testid=msg]").text_content()
    assert link.text_content() == why
    lang = locale[:2]
    assert link.get_attribute("href") == f"/rules/{lang}#rule-3.2"
    book = page.context.new_page()
    book.goto(server.url + link.get_attribute("href"))
    assert book.evaluate("location.hash") == "#rule-3.2"
    target = book.locator("#rule-3\\.2 + h3")
    assert target.text_content() == heading and target.is_visible()
    box = target.bounding_box()
    assert box is not None and box["y"] < 200  # scrolled to it
    page.context.close()

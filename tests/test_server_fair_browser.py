"""Fair play in the browser (docs/fairness.md), Playwright on Debian's Chromium: the page contributes to every deal
by itself; the replay checks every deal against its commitment (and catches a changed card); a take-back undoes a
meld but never a draw; one browser holds one seat by its cookie, while two browsers on one address are shown to the
table and the creator gives one seat to a computer."""

from __future__ import annotations

import concurrent.futures
import json
import re
import time
from collections.abc import Iterator
from typing import Any

import pytest

from browser_support import new_page, require
from helpers import a_meld
from server_support import Client, ThreadServer, create, fast_config, http, run, sqlite_url, thread_server

require()

TIMEOUT_MS = 60_000  # a ceiling: a loaded 2-core machine (CI, two workers and their browsers) can be slow
EASY = {"kind": "computer", "level": "heuristic:easy"}
HUMAN = {"kind": "human"}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ThreadServer]:
    db = tmp_path_factory.mktemp("db") / "fairbrowser.sqlite3"
    # a deal waits a minute for a connected player's contribution: a page that did not send one would stall
    with thread_server(fast_config(sqlite_url(db), bot_delay=0.02, between_hands=600.0, contribution_wait=60.0)) as s:
        yield s


def page_at(browser: Any, locale: str = "en-US") -> Any:
    return new_page(browser, 1280, 800, timeout_ms=TIMEOUT_MS, locale=locale)


def spectator_state(server: ThreadServer, table: str) -> dict[str, Any]:
    async def go() -> dict[str, Any]:
        c = await Client.open(server.ws_url)
        await c.hello(table)
        await c.close()
        assert c.state is not None
        return c.state

    with concurrent.futures.ThreadPoolExecutor(1) as pool:  # Playwright's loop runs in this thread
        return dict(pool.submit(run, go()).result())


def finished_computer_game(server: ThreadServer) -> str:
    t = create(server.url, preset="italian-2p", hands=1, seats=[EASY, EASY])
    deadline = time.monotonic() + 120
    while http("GET", server.url + f"/api/tables/{t['id']}")[1]["status"] != "finished":
        assert time.monotonic() < deadline, "the computers did not finish their game"
        time.sleep(0.2)
    return str(t["id"])


def test_the_page_contributes_to_the_deal_by_itself(server: ThreadServer, browser: Any) -> None:
    t = create(server.url, preset="italian", hands=1, seats=[HUMAN, EASY, EASY, EASY])
    page = page_at(browser)
    page.goto(server.url + t["links"]["N"])
    page.locator("[data-testid=hand] .card").first.wait_for()  # dealt well within the minute's wait
    fair = spectator_state(server, t["id"])["fair"]
    assert fair["dealt"] is True and list(fair["contributions"]) == ["N"]
    assert re.fullmatch(r"[0-9a-f]{64}", fair["contributions"]["N"])
    page.context.close()


def test_the_replay_checks_every_deal_against_its_commitment(server: ThreadServer, browser: Any) -> None:
    tid = finished_computer_game(server)
    page = page_at(browser, "it-IT")
    page.goto(server.url + f"/t/{tid}/replay/0")
    line = page.locator("[data-testid=r-fair] li").first
    line.wait_for()
    assert line.text_content() == "✓ smazzata 1: distribuita esattamente come impegnato prima della distribuzione"
    assert line.get_attribute("data-ok") == "true"
    page.context.close()
    # a changed card on its way to the page: the page's own check catches it
    page = page_at(browser)

    def tamper(route: Any) -> None:
        data = route.fetch().json()
        deal = data["hands"][0]["deal"]
        n, s = deal["hands"]["N"].split(), deal["hands"]["S"].split()
        k = next(i for i in range(len(n)) if n[i] != s[i])
        n[k], s[k] = s[k], n[k]
        deal["hands"]["N"], deal["hands"]["S"] = " ".join(n), " ".join(s)
        route.fulfill(status=200, content_type="application/json", body=json.dumps(data))

    page.route(f"**/api/tables/{tid}/games/0/replay", tamper)
    page.goto(server.url + f"/t/{tid}/replay/0")
    line = page.locator("[data-testid=r-fair] li").first
    line.wait_for()
    assert line.get_attribute("data-ok") == "false"
    assert (line.text_content() or "").startswith("✗ hand 1: NOT as committed: N's hand should be ")
    page.context.close()


def my_turn(page: Any) -> None:
    page.wait_for_function("document.body.dataset.myturn === 'draw'", timeout=60000)


def test_a_take_back_undoes_a_meld_but_never_the_draw(server: ThreadServer, browser: Any) -> None:
    t = create(server.url, preset="italian", hands=1, seats=[HUMAN, EASY, EASY, EASY])
    page = page_at(browser)
    page.goto(server.url + t["links"]["N"])
    takeback = page.locator("[data-testid=takeback]")
    for _turn in range(30):
        my_turn(page)
        page.click("[data-testid=draw]")
        page.wait_for_function("document.body.dataset.myturn === 'play'")
        assert takeback.is_hidden()  # the card drawn has been seen: no take-back crosses a draw
        hand = [c.get_attribute("data-card") for c in page.locator("[data-testid=hand] .card").all()]
        cards = a_meld([c for c in hand if c], "italian")
        if cards is None:  # nothing to meld: discard, and try again next turn
            n = int(page.evaluate("document.body.dataset.n"))
            page.locator(f"[data-testid=hand] .card[data-card='{hand[0]}']").first.click(position={"x": 4, "y": 12})
            page.click("[data-testid=discard]")
            page.wait_for_function(f"Number(document.body.dataset.n) > {n}")
            continue
        before = len(hand)
        ours = page.locator("[data-testid=our-melds] .meld")
        melds = ours.count()  # the partner (South) may have melded already: our side's melds before North's
        for c in cards:
            page.locator(f"[data-testid=hand] .card[data-card='{c}']:not(.selected)").first.click(
                position={"x": 4, "y": 12})
        page.click("[data-testid=meld]")
        page.wait_for_function(f"document.querySelectorAll('[data-testid=our-melds] .meld').length === {melds + 1}")
        assert page.locator("[data-testid=hand] .card").count() == before - 3
        takeback.wait_for(state="visible")
        takeback.click()
        page.wait_for_function(f"document.querySelectorAll('[data-testid=hand] .card').length === {before}")
        assert ours.count() == melds
        assert takeback.is_hidden()  # back to the draw: nothing more to take back
        page.locator("[data-testid=msg]", has_text="took back").wait_for()
        break
    else:
        pytest.fail("no meld in 30 turns")
    page.context.close()


def test_one_browser_one_seat_and_two_browsers_on_one_address(server: ThreadServer, browser: Any) -> None:
    """Two browser contexts (two browsers, one address): the first holds N, and its second tab cannot take S even
    when it reports no token at all (its cookie says who it is); the second browser may, and then both pages show
    "Two seats from one address", and the creator (the first) gives S to a computer."""
    t = create(server.url, preset="italian", hands=1, seats=[{"kind": "human", "name": "Ada"}, {"kind": "open"},
                                                                {"kind": "open"}, EASY])
    first = page_at(browser)
    first.context.add_init_script(f"localStorage.setItem('creator:{t['id']}', {json.dumps(t['creator'])})")
    first.goto(server.url + t["links"]["N"])
    first.locator("[data-testid=me]", has_text="N").wait_for()
    # a second tab of the same browser, which reports no held token: its websocket carries the cookie
    tab = first.context.new_page()
    tab.set_default_timeout(TIMEOUT_MS)
    tab.goto(server.url + "/")
    refusal = tab.evaluate("""(table) => new Promise((done) => {
        const ws = new WebSocket(`ws://${location.host}/ws`);
        ws.onopen = () => ws.send(JSON.stringify({type: "hello", v: 1, table}));
        ws.onmessage = (e) => {
          const m = JSON.parse(e.data);
          if (m.type === "state") ws.send(JSON.stringify({type: "take", seat: "E"}));
          if (m.type === "error" || m.type === "seated") { done(m); ws.close(); }
        };
    })""", t["id"])
    assert refusal["code"] == "one_seat" and "this browser holds seat N" in refusal["message"]
    cookies = first.context.cookies()
    assert [(c["name"], c["httpOnly"], c["sameSite"]) for c in cookies] == [("burraco_guest", True, "Lax")]
    assert tab.evaluate("document.cookie") == ""  # no script of the page can read it
    tab.close()
    # another browser on the same address takes E: allowed, and shown to the whole table
    second = page_at(browser)
    second.context.add_init_script("localStorage.setItem('name', 'Bea')")
    second.goto(server.url + f"/t/{t['id']}?take=E")
    second.locator("[data-testid=me]", has_text="E").wait_for()
    for p in (first, second):
        p.locator("[data-testid=shared-address]", has_text="Two seats from one address: N and E").wait_for()
    assert second.locator("[data-testid=replace-E]").count() == 0  # only the creator may
    first.click("[data-testid=replace-E]")
    first.locator("#pos-left [data-seat=E]", has_text="Computer").wait_for()
    first.locator("[data-testid=shared-address]").wait_for(state="hidden")
    for p in (first, second):
        p.context.close()

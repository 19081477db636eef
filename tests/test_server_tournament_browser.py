"""The tournament desk in a real browser: Playwright driving Debian's Chromium (/usr/bin/chromium) against a real
server. A director creates an event, registers four pairs, starts a round with one table online (computer players)
and one at the club, whose lines enter their scores by their links (a wrong entry refused with the rule it breaks,
each hand countersigned by the other line); the director announces the time-out, ends the club table, closes the
round; the standings update, and the printable standings PDF holds them (pypdf)."""

from __future__ import annotations

import io
import re
from collections.abc import Iterator
from typing import Any

import pytest

from browser_support import new_page as browser_page
from browser_support import require
from server_support import ThreadServer, fast_config, sqlite_url, thread_server

require()
pypdf = pytest.importorskip("pypdf")

TIMEOUT_MS = 30000
PAIRS = [("Anna", "Bruno"), ("Carla", "Dario"), ("Elena", "Franco"), ("Gino", "Ida")]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ThreadServer]:
    db = tmp_path_factory.mktemp("db") / "desk-browser.sqlite3"
    with thread_server(fast_config(sqlite_url(db), bot_delay=0.05)) as s:
        yield s


def new_page(browser: Any) -> Any:
    return browser_page(browser, 1200, 900, timeout_ms=TIMEOUT_MS)


def enter_hand(page: Any, ns: dict[str, Any], ew: dict[str, Any]) -> None:
    for prefix, values in (("ns", ns), ("ew", ew)):
        for k, v in values.items():
            box = page.locator(f"[data-testid={prefix}-{k}]")
            if isinstance(v, bool):
                box.set_checked(v)
            else:
                box.fill(str(v))
    page.click("[data-testid=score-submit]")


NS_WIN = {"clean": 1, "closing": True, "melds": 105, "hand": 20, "pozzetto": True}  # 385
EW_LOSE = {"clean": 0, "closing": False, "melds": 75, "hand": 70, "pozzetto": True}  # 5


def test_director_runs_a_round_online_and_at_the_club(server: ThreadServer, browser: Any) -> None:
    desk = new_page(browser)
    desk.goto(server.url + "/tournament/new?lang=en")
    desk.fill("[data-testid=new-name]", "Torneo di Natale")
    desk.fill("[data-testid=new-director]", "Maria")
    desk.fill("[data-testid=new-rounds]", "1")
    desk.fill("[data-testid=new-movements]", "mitchell")
    desk.click("[data-testid=new-create]")
    desk.wait_for_url(re.compile(r"/tournament/\w+/desk#d="))
    desk.wait_for_selector("[data-testid=reg-name]")
    assert "Torneo di Natale" in desk.locator("[data-testid=title]").text_content()
    for a, b in PAIRS:
        desk.fill("[data-testid=reg-name]", f"{a} – {b}")
        desk.fill("[data-testid=reg-players]", f"{a}, {b}")
        desk.click("[data-testid=reg-submit]")
        desk.wait_for_selector(f"[data-testid=entrants] >> text={a} – {b}")
    # a duplicate is refused with the reason, and nothing is registered
    desk.fill("[data-testid=reg-name]", "Anna – Bruno")
    desk.fill("[data-testid=reg-players]", "Zeno, Yara")
    desk.click("[data-testid=reg-submit]")
    desk.wait_for_selector("[data-testid=msg].error")
    assert "already registered" in desk.locator("[data-testid=msg]").text_content()
    assert desk.locator("[data-testid=entrants] tr").count() == 4
    # round 1: table 1 online with computer players, table 2 at the club
    desk.fill("[data-testid=online-tables]", "1")
    desk.check("[data-testid=computers]")
    desk.click("[data-testid=start-round]")
    desk.wait_for_selector("[data-testid=table-2] >> text=at the club")
    assert "online" in desk.locator("[data-testid=table-1] h3").text_content()
    # no second round while this one is in play, and no standings "after round 0"
    start = desk.locator("[data-testid=start-round]")
    assert start.is_disabled() and start.text_content() == "Round 1 in play"
    assert "Standings (no round closed yet)" in desk.locator("body").text_content()
    ns_link = desk.locator("[data-testid=link-2-NS]").get_attribute("href")
    ew_link = desk.locator("[data-testid=link-2-EW]").get_attribute("href")
    tid = desk.url.split("/tournament/")[1].split("/")[0]
    # the public page shows where everybody plays
    pub = new_page(browser)
    pub.goto(server.url + f"/tournament/{tid}?lang=en")
    pub.wait_for_selector("[data-testid=next] >> text=Gino, Ida")
    assert "Table 2 · EW" in pub.locator("[data-testid=next]").text_content()
    # the club table's NS line enters hand 1: first with card points that are no multiple of 5
    ns = new_page(browser)
    ns.goto(server.url + ns_link.replace("#", "?lang=en#"))
    ns.wait_for_selector("[data-testid=score-submit]")
    enter_hand(ns, {**NS_WIN, "melds": 103}, EW_LOSE)
    ns.wait_for_selector("[data-testid=msg].error")
    assert "not a multiple of 5" in ns.locator("[data-testid=msg]").text_content()
    assert ns.locator("[data-testid=sheets-2]").count() == 0
    enter_hand(ns, NS_WIN, EW_LOSE)
    ns.wait_for_selector("[data-testid=sheets-2] >> text=waiting for the other line")
    # the EW line countersigns it
    ew = new_page(browser)
    ew.goto(server.url + ew_link.replace("#", "?lang=en#"))
    ew.click("[data-testid=confirm-1]")
    ew.wait_for_selector("[data-testid=progress-2] >> text=1 of 3 hands counted")
    # EW enters hand 2, NS countersigns
    enter_hand(ew, EW_LOSE, NS_WIN)
    ns.click("[data-testid=confirm-2]")
    ns.wait_for_selector("[data-testid=progress-2] >> text=2 of 3 hands counted")
    # the director announces the time-out; the club table ends with its two hands, the online table after the hand
    # in play
    desk.click("[data-testid=timeout]")
    desk.wait_for_selector("[data-testid=clock] >> text=time-out announced")
    desk.click("[data-testid=finish-2]")
    desk.wait_for_selector("[data-testid=progress-2] >> text=finished after the time-out")
    desk.wait_for_function(
        "document.querySelector('[data-testid=progress-1]').textContent.includes('finished after the time-out')"
        " || document.querySelector('[data-testid=progress-1]').textContent.includes('3 of 3')",
        timeout=90000,
    )
    desk.click("[data-testid=close-round]")
    desk.wait_for_selector("[data-testid=msg].ok")
    # the standings: every pair has played its round; at the club table each line won one hand (385 + 5 each)
    desk.wait_for_function("document.querySelectorAll('[data-testid=standings] tr').length === 5")
    rows = desk.locator("[data-testid=standings] tr").all_text_contents()
    assert all(re.search(r"^\d\d+\. ", r) for r in rows[1:]), rows
    assert "390 – 390" in next(r for r in rows if "Elena" in r), rows
    assert "390 – 390" in next(r for r in rows if "Gino" in r), rows
    pub.wait_for_function("document.querySelectorAll('[data-testid=standings] tr').length === 5")
    # the printable standings
    resp = desk.request.get(server.url + f"/api/tournaments/{tid}/print/standings.pdf?lang=en")
    assert resp.ok and resp.body()[:5] == b"%PDF-"
    text = "".join(p.extract_text() for p in pypdf.PdfReader(io.BytesIO(resp.body())).pages)
    assert "Standings after round 1" in text
    for a, b in PAIRS:
        assert a in text and b in text


def _post(base: str, path: str, body: Any, token: str | None = None) -> Any:
    import json
    import urllib.request

    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    req = urllib.request.Request(base + path, data=json.dumps(body).encode(), method="POST", headers=headers)
    with urllib.request.urlopen(req, timeout=30) as r:
        return json.loads(r.read())


def test_team_line_ups_on_the_desk_page(server: ThreadServer, browser: Any) -> None:
    """A team event: before each round the desk page offers each team's line-up (two players per pair); a line-up
    that uses a player twice is refused in the page's language, a good one is what the round then plays."""
    made = _post(server.url, "/api/tournaments", {"name": "Coppa", "kind": "teams", "rounds": 1,
                                                   "movements": "round_robin", "director": "Maria"})
    tid, token = made["id"], made["token"]
    for k in range(2):
        _post(server.url, f"/api/tournaments/{tid}/desk/register",
              {"name": f"Squadra {k + 1}", "people": [f"T{k}P{i}" for i in range(4)]}, token)
    desk = new_page(browser)
    desk.goto(server.url + f"/tournament/{tid}/desk?lang=it#d={token}")
    desk.wait_for_selector("[data-testid=lineup-1]")
    assert "Formazioni per il turno 1" in desk.content()
    # registration order two by two until a line-up is given
    assert desk.locator("[data-testid=lineup-1-0-1]").input_value() == "1"
    # T0P0 twice: refused, with the rule, in Italian
    desk.select_option("[data-testid=lineup-1-0-1]", "0")
    desk.click("[data-testid=lineup-set-1]")
    desk.wait_for_selector("[data-testid=msg].error")
    assert "al più una volta" in desk.locator("[data-testid=msg]").text_content()
    # T0P0 with T0P2, T0P1 with T0P3
    desk.select_option("[data-testid=lineup-1-0-1]", "2")
    desk.select_option("[data-testid=lineup-1-1-0]", "1")
    desk.select_option("[data-testid=lineup-1-1-1]", "3")
    desk.click("[data-testid=lineup-set-1]")
    desk.wait_for_selector("[data-testid=msg].ok")
    desk.wait_for_function("document.querySelector('[data-testid=lineup-1-0-1]').value === '2'")
    assert desk.locator("[data-testid=lineup-1-1-0]").input_value() == "1"
    # the round plays that line-up: T0P0 and T0P2 sit together
    desk.click("[data-testid=start-round]")
    desk.wait_for_selector("[data-testid=table-1]")
    assert "T0P0, T0P2" in desk.locator("[data-testid=table-1]").text_content() \
        or "T0P0, T0P2" in desk.locator("[data-testid=table-2]").text_content()
    assert desk.locator("[data-testid=lineup-1]").count() == 0  # no line-ups while the round is in play

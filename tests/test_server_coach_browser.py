"""The coach in the browser (issue 22, item 6), Playwright on Debian's Chromium: from a finished game's table the
player asks "Analyse my play"; the replay shows a progress bar while it runs, then the coach's marks in the list of
moves, its word and the better move's cards on a marked move, the hand's summary, all in the page's language; a
browser that holds no seat of the table is not offered the coach."""

from __future__ import annotations

import concurrent.futures
import json
import urllib.request
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest

from browser_support import new_page, require
from server_support import WAIT, ThreadServer, fast_config, http, sqlite_url, thread_server

require()

from test_server_coach import CAP, ITERATIONS, finished, marked_game  # noqa: E402

TIMEOUT_MS = 60_000  # a ceiling: a loaded 2-core machine (CI, two workers and their browsers) can be slow
#: the analysis itself: a random player's hand measures many losses (on up to test_server_coach.CAP samples each
#: here), which takes seconds on a busy two-core machine
ANALYSIS_MS = 120000

#: every change of the replay's progress bar, recorded from the page's start (the analysis is quick at this
#: budget: the bar may be shown for less than a test could poll)
WATCH_BAR = """
window.__bar = [];
new MutationObserver((records) => {
  for (const r of records) if (r.target.id === "rBar" && (r.attributeName === "value" || r.attributeName === "max"))
    window.__bar.push([r.target.hidden, r.target.getAttribute("value"), r.target.getAttribute("max")]);
}).observe(document, { subtree: true, attributes: true });
"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ThreadServer]:
    db = tmp_path_factory.mktemp("db") / "coach-browser.sqlite3"
    with thread_server(fast_config(sqlite_url(db), bot_delay=0.02, between_hands=600.0, coach_iterations=ITERATIONS,
                                     coach_cap=CAP)) as s:
        yield s


def in_thread(make: Any, server: ThreadServer) -> dict[str, Any]:
    """A finished game made in a thread of its own: Playwright's sync API holds this thread's event loop."""
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        out: dict[str, Any] = pool.submit(make, server).result()
        return out


def coach_answer(server: ThreadServer, t: dict[str, Any], lang: str) -> dict[str, Any]:
    """The server's analysis of N's play (already made: the stored one, at once)."""
    req = urllib.request.Request(f"{server.url}/api/tables/{t['id']}/games/0/analysis?lang={lang}", method="POST",
                                 headers={"Authorization": f"Bearer {t['tokens']['N']}"})
    with urllib.request.urlopen(req, timeout=WAIT) as r:
        lines = [json.loads(x) for x in r]
    assert len(lines) == 1 and lines[0]["type"] == "analysis"
    return dict(lines[0])


def test_the_player_asks_the_coach_and_sees_a_mark_and_the_better_move(server: ThreadServer, browser: Any) -> None:
    t, _ = in_thread(marked_game, server)
    page = new_page(browser, 1280, 800, timeout_ms=TIMEOUT_MS)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.add_init_script(WATCH_BAR)
    # the player's table: the game is over; the panel offers the replay and the coach
    page.goto(server.url + t["links"]["N"])
    page.locator("[data-testid=coach-link]").click()
    page.wait_for_url(f"**/t/{t['id']}/replay/0?coach=1")
    marked = page.locator("[data-testid=r-moves] .mv.marked")
    marked.first.wait_for(timeout=ANALYSIS_MS)
    bar = page.evaluate("window.__bar")
    assert len(bar) >= 2 and any(not hidden and v and m and int(v) < int(m) for hidden, v, m in bar), bar
    answer = coach_answer(server, t, "en")
    decisions = answer["analysis"]["decisions"]
    assert marked.count() == sum(1 for d in decisions if d["mark"] and d["hand"] == 0) > 0
    # each hand's summary, the terminal coach's page
    summary = page.locator("[data-testid=r-summary]")
    assert summary.text_content().startswith(answer["hands"][0]["lines"][0])
    assert "Points lost: pile " in summary.text_content()
    # on a marked move: the coach's word, the better move's cards, and them (or the pile, or the stock) on the table
    first = marked.first
    index = int(first.get_attribute("data-index"))
    d = next(x for x in decisions if x["hand"] == 0 and x["index"] == index)
    assert d["mark"] in first.text_content()
    first.click()
    note = page.locator("[data-testid=r-note]")
    note.wait_for()
    text = note.locator("[data-testid=r-note-text]").text_content()
    assert text == next(n["text"] for n in answer["notes"] if n["index"] == index)
    assert text.startswith(f"The coach, {d['mark']}: better ") and text.endswith(f"({d['loss']:.0f} points)")
    assert page.locator("[data-testid=r-moves] [aria-current=step]").get_attribute("data-index") == str(index)
    verb = d["best"].split()[1]
    cards = d["best"].split()[3 if verb in ("add", "swap") else 2:]
    assert note.locator(".card.coach-best").count() == len(cards)
    board = page.locator("[data-testid=r-board] .coach-best")
    if verb in ("draw", "pick"):  # the stock or the pile
        assert board.count() == 1 and ["rcenter", "pile"][verb == "pick"] in board.get_attribute("class")
    else:  # the cards still in the seat's hand after the move played, or just discarded onto the pile
        status, steps = http("GET", f"{server.url}/api/tables/{t['id']}/games/0/replay")
        assert status == 200
        table = steps["hands"][0]["steps"][index + 1]["table"]
        left = Counter(cards)
        in_hand = sum((left & Counter(table["hand_cards"][d["seat"]])).values())
        left -= Counter(table["hand_cards"][d["seat"]])
        on_pile = 1 if table["pile"] and left[table["pile"][-1]] > 0 else 0
        assert board.count() == in_hand + on_pile
    # another language: the marks and the coach's words follow
    page.select_option("[data-testid=lang]", "it")
    it = coach_answer(server, t, "it")
    want = next(n["text"] for n in it["notes"] if n["index"] == index)
    page.locator("[data-testid=r-note-text]", has_text=want).wait_for()
    assert want.startswith("Il coach, ")
    assert page.locator("[data-testid=r-summary]").text_content().startswith(it["hands"][0]["lines"][0])
    assert errors == []
    page.context.close()


def test_a_browser_that_held_no_seat_is_not_offered_the_coach(server: ThreadServer, browser: Any) -> None:
    t = in_thread(finished, server)
    page = new_page(browser, 1280, 800, timeout_ms=TIMEOUT_MS)
    page.goto(server.url + f"/t/{t['id']}/replay/0?coach=1")
    page.locator("[data-testid=r-moves] .mv").first.wait_for()  # the moves, without marks
    assert not page.locator("[data-testid=r-ask]").is_visible()
    page.wait_for_timeout(300)
    assert page.locator("[data-testid=r-moves] .mv.marked").count() == 0
    assert page.locator("[data-testid=r-coach-msg]").text_content() == ""
    page.context.close()

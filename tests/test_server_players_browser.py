"""The browser table and lobby with 3, 5 and 6 players (RULES.md §14.3–§14.4), Playwright on Debian's Chromium: the
lobby listing a 6-player table's seats open and taken, a 3-player table created from the lobby and a whole hand played by clicks at 1280×800 without scrolling, the end of
the hand with one column per side and the match totals per player; a 6-player table that fits 1280×800 and
390×844 with every seat around the table and the hand in view."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from browser_support import require
from server_support import ThreadServer, create, fast_config, sqlite_url, thread_server

require()

from test_server_browser import play_one_move, wait_turn_or_end  # noqa: E402
from test_server_table_browser import assert_fits, page_at  # noqa: E402

EASY = {"kind": "computer", "level": "heuristic:easy"}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ThreadServer]:
    db = tmp_path_factory.mktemp("db") / "players.sqlite3"
    with thread_server(fast_config(sqlite_url(db), bot_delay=0.02, between_hands=600.0)) as s:
        yield s


def test_a_whole_3_player_hand_from_the_lobby_at_1280x800(server: ThreadServer, browser: Any) -> None:
    page = page_at(browser, 1280, 800)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    # the lobby lists a 6-player table with its seats open and taken, an open one to sit at
    six = create(server.url, preset="italian-6p", seats=[{"kind": "human", "name": "Bo"}, {"kind": "open"}, EASY,
                                                         {"kind": "open"}, EASY, EASY])
    page.goto(server.url + "/")
    row = page.locator(f"[data-table='{six['id']}']")  # quoted: an id may start with a digit
    row.wait_for()
    assert row.locator(".seat-pill").all_text_contents()[0].startswith("A: Bo")
    assert row.locator(".seat-pill.open").count() == 2 and row.locator(f"[data-testid=take-{six['id']}-D]").is_visible()
    assert "2 open seats" in row.text_content()
    page.select_option("#preset", "italian-3p")
    page.fill("#myname", "Ada")
    page.select_option("#goal", "hands")
    page.fill("#goalValue", "1")
    assert page.locator("[data-testid^=seat-]").count() == 2  # B and C: A is you
    for s in "BC":
        page.select_option(f"[data-testid=seat-{s}]", "computer:heuristic:easy")
    page.click("[data-testid=create]")
    page.wait_for_url(re.compile(r"/t/\w+$"))
    page.locator("[data-testid=hand] .card").first.wait_for()
    # you at the bottom, the next player (B) on your left, C on your right; everybody alone at the start
    assert page.locator("#pos-left [data-seat=B]").is_visible() and page.locator("#pos-right [data-seat=C]").is_visible()
    assert page.locator("#pos-top").is_hidden()
    moves: list[str] = []
    while wait_turn_or_end(page) == "turn":
        assert_fits(page)
        assert errors == [], errors
        moves.append(play_one_move(page))
        # a melds block per other side as the sides stand: two while all play alone, one once a pair formed
        # (§14.3: the first to go out plays solo against the other two: BC, or B or C beside our pair)
        sides = page.evaluate("[...document.querySelectorAll('#theirMelds .mside')].map(e => e.dataset.side)")
        assert sides in (["B", "C"], ["BC"], ["B"], ["C"]), sides
        assert len(moves) < 400
    assert errors == [], errors
    assert any(a.split()[1] == "discard" for a in moves)
    end = page.locator("[data-testid=hand-end]")
    box = end.bounding_box()
    assert box is not None and box["y"] + box["height"] <= 800
    # one column per side of the hand (2 once a pair formed, else 3), yours first; the match totals per player
    cols = page.locator("[data-testid=breakdown] th[data-side]").evaluate_all("els => els.map(e => e.dataset.side)")
    assert cols and "A" in cols[0] and len(cols) in (2, 3)
    assert cols[0].startswith("A") and page.locator("[data-testid=breakdown] th[data-side]").first.text_content().startswith("Us")
    if len(cols) == 3:
        # nobody went out to a pozzetto: the three still played alone, each side is one player, and the match
        # totals stand in the breakdown's own columns (a "match" row), with no table of their own
        assert cols == ["A", "B", "C"] and page.locator("[data-testid=match-totals]").count() == 0
        assert "match" in page.locator("[data-testid=breakdown] tr.total").last.text_content().lower()
    else:
        # a pair formed (§14.3): the totals are the players', in a row per player below the sides' columns
        who = page.locator("[data-testid=match-totals] th[data-scorer]").evaluate_all("els => els.map(e => e.dataset.scorer)")
        assert who == ["A", "B", "C"]
        assert "you (A)" in page.locator("[data-testid=match-totals]").text_content()
    page.locator("[data-testid=winner]").wait_for()
    winner = page.locator("[data-testid=winner]").text_content() or ""
    assert "you (A) win" not in winner and not winner.startswith("Us (")  # "You win", "We win" (issue 39)
    # the scoreboard beside the table: one column per player
    assert page.locator("#scoreboard th").evaluate_all("els => els.map(e => e.textContent)")[1:] == ["A", "B", "C"]
    # the replay shows the same sides and the players' points
    page.locator("[data-testid=replay-link]").click()
    page.locator("[data-testid=r-board] .card").first.wait_for()
    assert "Ada (A)" in page.locator("[data-testid=r-board]").text_content()
    page.locator("[data-testid=r-slider]").fill(str(page.locator("[data-testid=r-slider]").get_attribute("max")))
    page.locator("[data-testid=r-scores]").wait_for()
    if len(cols) == 3:  # three sides of one player each: the sides' breakdown is the players' points
        assert page.locator("[data-testid=r-scores] th[scope=col]").count() == 3
        assert page.locator("[data-testid=r-points]").count() == 0
    else:  # a pair formed: what each player scores, below the sides' breakdown
        assert page.locator("[data-testid=r-points] th[scope=col]").count() == 3  # A, B, C
    assert errors == [], errors
    page.context.close()


@pytest.mark.parametrize("size", [(1280, 800), (390, 844)])
def test_a_6_player_table_fits_the_screen_with_every_seat_and_the_hand_in_view(server: ThreadServer, browser: Any,
                                                                                size: tuple[int, int]) -> None:
    t = create(server.url, preset="italian-6p", hands=1, seats=[{"kind": "human", "name": "Ada"}] + [EASY] * 5)
    page = page_at(browser, *size, touch=size[0] < 1000)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server.url + t["links"]["A"])
    page.locator("[data-testid=hand] .card").first.wait_for()
    wait_turn_or_end(page)
    assert_fits(page)
    # around the table in playing order: B C on the left, D (the partner) opposite, E F on the right
    for where, seats in (("left", "BC"), ("top", "D"), ("right", "EF")):
        for s in seats:
            box = page.locator(f"#pos-{where} [data-seat={s}]").bounding_box()
            assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= size[1], (where, s)
    assert page.locator("[data-testid=our-melds]").text_content().startswith("Us (AD)")
    assert page.locator("#theirMelds .mside").evaluate_all("els => els.map(e => e.dataset.side)") == ["BE", "CF"]
    # play a few moves: the table still fits with melds on it
    for _ in range(6):
        if wait_turn_or_end(page) != "turn":
            break
        play_one_move(page)
        assert_fits(page)
    assert errors == [], errors
    page.context.close()

"""End to end in a real browser: Playwright driving Debian's Chromium (/usr/bin/chromium) against a real server.
Every move is made by clicking, as a player would: the hint button says what to play, the test clicks it out."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from browser_support import new_page as browser_page
from browser_support import require
from server_support import ThreadServer, create, fast_config, sqlite_url, thread_server

require()

TIMEOUT_MS = 60_000  # a ceiling: a loaded 2-core machine (CI, two workers and their browsers) can be slow


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ThreadServer]:
    db = tmp_path_factory.mktemp("db") / "browser.sqlite3"
    with thread_server(fast_config(sqlite_url(db), bot_delay=0.02, between_hands=600.0)) as s:
        yield s


def new_page(browser: Any, width: int = 1100) -> Any:
    return browser_page(browser, width, 900, timeout_ms=TIMEOUT_MS)


def hint_action(page: Any, tap: bool = False) -> str:
    """Ask for a hint; returns its action (the page shows it in words, the notation is in ``data-action``)."""
    hint = page.locator("[data-testid=hint]")
    hint.tap() if tap else hint.click()
    box = page.locator("[data-testid=hint-text][data-action]")
    box.wait_for()
    action = box.get_attribute("data-action") or ""
    assert action and action not in (box.text_content() or "")  # plain words for the player, not notation
    return action


def event_n(page: Any) -> int:
    return int(page.evaluate("document.body.dataset.n || '0'"))


def wait_turn_or_end(page: Any) -> str:
    """Wait until it is this player's turn ('turn') or the hand's scoring screen shows ('end')."""
    page.wait_for_function(
        "document.body.dataset.myturn || !document.querySelector('[data-testid=hand-end]').hidden",
        timeout=TIMEOUT_MS,
    )
    return "end" if page.locator("[data-testid=hand-end]").is_visible() else "turn"


def play_one_move(page: Any, drag: bool = False, draw_only: bool = False) -> str:
    """Ask for a hint, then make that move by clicking cards, melds and buttons (with ``drag``, the cards are
    dragged: a discard onto the pile, a new meld onto our side's area, cards to add onto their meld); returns the
    action played. With ``draw_only`` a hinted pick-up of the pile is played as a draw from the stock instead: a
    hand where everyone only takes a one-card pile ends in a stalemate (RULES.md §0.1, §9.3.2), a draw never."""
    before = event_n(page)
    action = hint_action(page)
    seat, verb, *args = action.split()
    if verb == "pick" and draw_only:
        verb, action = "draw", f"{seat} draw"
    if verb == "draw":
        page.click("[data-testid=draw]")
    elif verb == "pick":
        page.click("[data-testid=pick]")
    elif verb == "discard" and drag:
        card = page.locator(f"[data-testid=hand] .card[data-card='{args[0]}']").first
        card.drag_to(page.locator("[data-testid=pile]"))
    else:
        cards = args[1:] if verb == "add" else args
        for c in cards:
            # on its visible edge, as a player does: in a long hand the next card covers the middle of this one
            page.locator(f"[data-testid=hand] .card[data-card='{c}']:not(.selected)").first.click(
                position={"x": 4, "y": 12})
        if drag and verb in ("meld", "add"):  # the selected cards go with the one dragged
            card = page.locator(f"[data-testid=hand] .card.selected[data-card='{cards[-1]}']").first
            if verb == "meld":
                card.drag_to(page.locator("[data-testid=our-melds] h2"))
            else:
                card.drag_to(page.locator(f"[data-testid=our-melds] [data-meld='{args[0]}']"))
        elif verb == "meld":
            page.click("[data-testid=meld]")
        elif verb == "add":
            page.locator(f"[data-testid=our-melds] [data-meld='{args[0]}']").click()
        else:
            page.click("[data-testid=discard]")
    page.wait_for_function(f"Number(document.body.dataset.n) > {before}")
    msg = page.locator("[data-testid=msg]").text_content() or ""
    assert "not" not in msg.lower() or "turn" in msg.lower(), msg  # no refusal shown
    return action


def test_one_human_and_three_computers_play_a_hand_to_the_scoring_screen(server: ThreadServer, browser: Any) -> None:
    page = new_page(browser, width=390)  # phone width
    page.goto(server.url + "/")
    page.select_option("#preset", "italian")
    page.fill("#myname", "Ada")
    page.select_option("#goal", "hands")
    page.fill("#goalValue", "1")
    for s in "ESW":
        page.select_option(f"[data-testid=seat-{s}]", "computer:heuristic:easy")
    page.click("[data-testid=create]")
    page.wait_for_url(re.compile(r"/t/\w+$"))
    moves = []
    while wait_turn_or_end(page) == "turn":
        moves.append(play_one_move(page))
        assert len(moves) < 400
    end = page.locator("[data-testid=hand-end]")
    assert "total" in end.text_content().lower()
    assert page.locator("[data-testid=hand-end] table.breakdown tr").count() >= 7
    assert any(a.startswith("N discard") for a in moves)
    # the end of the match names the winner and links the replay
    # (the match's end may reach the page a moment after the hand's breakdown shows: it waits for it)
    page.locator("[data-testid=winner]").wait_for()
    href = page.locator("[data-testid=replay-link]").get_attribute("href")
    page.goto(server.url + href)
    page.wait_for_selector("[data-testid=r-board] .card")
    page.click("[data-testid=r-next]")
    assert page.locator("[data-testid=r-action]").text_content().startswith("1/")
    page.context.close()


def test_two_humans_a_spectator_and_a_reload(server: ThreadServer, browser: Any) -> None:
    t = create(server.url, preset="italian-2p", hands=1, seats=[{"kind": "human"}, {"kind": "human"}])
    north, south, spect = new_page(browser), new_page(browser), new_page(browser)
    north.goto(server.url + t["links"]["N"])
    south.goto(server.url + t["links"]["S"])
    spect.goto(server.url + f"/t/{t['id']}")
    pages = {"N": north, "S": south}
    played = 0
    turn = "N"
    discards = 0
    while played < 8 or discards < 2:
        page = pages[turn]
        assert wait_turn_or_end(page) == "turn"
        action = play_one_move(page, drag=turn == "S", draw_only=True)  # no stalemate before the 8th move
        played += 1
        if action.split()[1] == "discard":
            discards += turn == "S"
            turn = "S" if turn == "N" else "N"
        if played == 4:
            # a reload mid-hand: the same hand comes back (the seat token is kept by the browser); the page to
            # reload may be the one that did not move: its hand is read once it has drawn the last move
            pages[turn].wait_for_function(
                f"Number(document.body.dataset.n) >= {max(event_n(north), event_n(south))}")
            hand_before = sorted(c for c in pages[turn].locator("[data-testid=hand] .card").evaluate_all(
                "els => els.map(e => e.dataset.card)") if c)
            pages[turn].reload()
            pages[turn].wait_for_function(f"Number(document.body.dataset.n) >= {event_n(spect) - 1}")
            pages[turn].wait_for_selector("[data-testid=hand] .card")
            hand_after = sorted(c for c in pages[turn].locator("[data-testid=hand] .card").evaluate_all(
                "els => els.map(e => e.dataset.card)") if c)
            assert hand_after == hand_before
    # the spectator follows the game and sees no hand
    spect.wait_for_function(f"Number(document.body.dataset.n) >= {event_n(north)}")
    assert spect.locator("[data-testid=hand] .card").count() == 0
    assert spect.locator("[data-testid=draw]").is_hidden()
    assert spect.locator("[data-testid=our-melds] h2").text_content().startswith("N")  # no "us" for a spectator
    assert north.locator("[data-testid=our-melds] h2").text_content().startswith("Us (N)")
    assert "N" in spect.locator("[data-testid=log]").text_content()
    # chat reaches the other player and the spectator
    north.fill("[data-testid=chat-input]", "ciao!")
    north.press("[data-testid=chat-input]", "Enter")
    south.wait_for_function("document.querySelector('[data-testid=chatlog]').textContent.includes('ciao!')")
    spect.wait_for_function("document.querySelector('[data-testid=chatlog]').textContent.includes('ciao!')")
    # languages switch
    south.select_option("[data-testid=lang]", "it")
    south.locator("[data-testid=draw]", has_text="Pesca").wait_for()
    # the moves log comes again in Italian, from the server's narration
    south.wait_for_function("document.querySelector('[data-testid=log]').textContent.includes('scart')")
    for p in (north, south, spect):
        p.context.close()


def test_lobby_lists_a_table_and_a_visitor_takes_its_open_seat(server: ThreadServer, browser: Any) -> None:
    t = create(server.url, preset="italian-2p", hands=1, name="open house",
               seats=[{"kind": "human"}, {"kind": "open"}])
    page = new_page(browser)
    page.goto(server.url + "/")
    row = page.locator(f"[data-table='{t['id']}']")
    row.wait_for()
    assert "open house" in row.text_content()
    row.locator("a.take").click()  # "Sit at S"
    page.wait_for_selector("[data-seat='S'].mine")
    # the game waits for North, who has not come yet; the visitor fills the table with a computer
    page.click("[data-testid=fill]")
    page.wait_for_function("document.querySelector('[data-testid=status]').textContent === 'playing'")
    assert page.locator("[data-seat='N']").text_content().startswith("N Computer")
    page.context.close()


def touch_drag(page: Any, source: Any, target: Any) -> None:
    """A finger drags ``source`` (from its top left corner) onto ``target`` (real touch events through the DevTools protocol: Chromium turns
    them into pointer events of type touch, as on a phone)."""
    a, b = source.bounding_box(), target.bounding_box()
    assert a is not None and b is not None
    x0, y0 = a["x"] + 10, a["y"] + 14  # a card's corner: in a row of overlapping cards the rest is under the next one
    x1, y1 = b["x"] + b["width"] / 2, b["y"] + b["height"] / 2
    cdp = page.context.new_cdp_session(page)
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x0, "y": y0}]})
    for i in range(1, 11):
        x, y = x0 + (x1 - x0) * i / 10, y0 + (y1 - y0) * i / 10
        cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x, "y": y}]})
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    cdp.detach()


def tap_to_select(page: Any, card: str) -> None:
    """A finger on a card's corner (its index: what shows of it in a row of overlapping cards), then the card seen
    selected: the click of a tap may come a moment after the tap itself, and a look at the hand before it would not
    see it (a second card of the same face, tapped then, would be the same card again, and unselect it)."""
    picked = f"[data-testid=hand] .card.selected[data-card='{card}']"
    n = page.locator(picked).count()
    page.locator(f"[data-testid=hand] .card[data-card='{card}']:not(.selected)").first.tap(position={"x": 10, "y": 14})
    page.wait_for_function("([sel, n]) => document.querySelectorAll(sel).length > n", arg=[picked, n])


def hinted_action(page: Any) -> str:
    return hint_action(page, tap=True)


def test_on_a_phone_tap_to_select_drag_with_a_finger_refusals_in_italian(server: ThreadServer, browser: Any) -> None:
    t = create(server.url, preset="italian", hands=1, seats=[{"kind": "human"}] + [
        {"kind": "computer", "level": "heuristic:easy"}] * 3)
    page = browser_page(browser, 390, 844, timeout_ms=TIMEOUT_MS, touch=True, locale="it-IT")
    page.goto(server.url + t["links"]["N"])
    tapped = dragged = False
    for _ in range(200):
        assert wait_turn_or_end(page) == "turn"
        before = event_n(page)
        action = hinted_action(page)
        seat, verb, *args = action.split()
        hand = "[data-testid=hand] .card"
        if verb in ("draw", "pick"):  # always the stock: a hand of one-card pick-ups ends in a stalemate (§9.3.2)
            page.locator("[data-testid=draw]").tap()
        elif verb == "discard" and not tapped:  # tap the card (it is selected), then tap Scarta
            tap_to_select(page, args[0])
            assert page.locator(f"{hand}.selected").count() == 1
            page.locator("[data-testid=discard]").tap()
            tapped = True
        elif verb == "discard":  # a finger drags the card onto the pile
            page.locator("[data-testid=pile]").scroll_into_view_if_needed()
            touch_drag(page, page.locator(f"{hand}[data-card='{args[0]}']").first, page.locator("[data-testid=pile]"))
            dragged = True
        else:
            for c in args[1:] if verb == "add" else args:
                tap_to_select(page, c)
            if verb == "meld":
                page.locator("[data-testid=meld]").tap()
            else:
                page.locator(f"[data-testid=our-melds] [data-meld='{args[0]}']").tap()
        page.wait_for_function(f"Number(document.body.dataset.n) > {before}")
        lines = page.locator("[data-testid=log] div").all_text_contents()
        assert lines and not any(x.startswith(action) for x in lines)  # the log in words, not in notation
        if tapped and dragged:
            break
    assert tapped and dragged
    # an illegal meld (two cards) is refused by the engine, in the player's language (Italian here)
    assert wait_turn_or_end(page) == "turn"
    page.wait_for_timeout(1500)  # Chromium drops a tap that follows a touch drag too closely (as a double tap)
    page.locator("[data-testid=draw]").tap()
    page.wait_for_function("document.body.dataset.myturn === 'play'")
    cards = page.locator("[data-testid=hand] .card[data-key]")
    for i in range(2):
        cards.nth(i).tap(position={"x": 10, "y": 14})
        page.wait_for_function(f"document.querySelectorAll('[data-testid=hand] .card.selected').length === {i + 1}")
    page.locator("[data-testid=meld]").tap()
    page.wait_for_function("document.querySelector('[data-testid=msg]').textContent.includes('non è un gioco')")
    page.context.close()


def test_the_creator_calls_time_out_from_the_table(server: ThreadServer, browser: Any) -> None:
    page = new_page(browser)
    page.goto(server.url + "/")
    page.select_option("#preset", "italian-tournament")
    for s in "ESW":
        page.select_option(f"[data-testid=seat-{s}]", "computer:heuristic:easy")
    page.click("[data-testid=create]")
    page.wait_for_url(re.compile(r"/t/\w+$"))
    button = page.locator("[data-testid=timeout]")
    button.wait_for(state="visible")  # the creator, at a table whose rules have time-outs, while a hand runs
    button.click()
    page.wait_for_function(
        "[...document.querySelectorAll('[data-testid=log] div')].some((d) => d.textContent.startsWith('Time-out'))")
    button.wait_for(state="hidden")  # one time-out a hand: it is not offered again
    page.context.close()


def test_the_seats_chosen_in_the_lobby_stay_when_the_language_or_the_rules_change(server: ThreadServer,
                                                                                   browser: Any) -> None:
    page = new_page(browser)
    page.goto(server.url + "/")
    page.locator("[data-testid=seat-E]").wait_for()
    page.select_option("[data-testid=seat-E]", "computer:heuristic:easy")
    page.select_option("[data-testid=seat-S]", "open")
    page.select_option("[data-testid=lang]", "it")
    page.wait_for_function("document.querySelector('[data-testid=seat-E] option[value=open]').textContent !== 'open seat'"
                           " && document.documentElement.lang === 'it'")
    assert page.locator("[data-testid=seat-E]").input_value() == "computer:heuristic:easy"
    assert page.locator("[data-testid=seat-S]").input_value() == "open"
    assert page.locator("[data-testid=seat-W]").input_value() == "computer:heuristic:medium"  # never chosen
    page.select_option("#preset", "italian-tournament")  # other rules of four seats: the same choices
    assert page.locator("[data-testid=seat-E]").input_value() == "computer:heuristic:easy"
    assert page.locator("[data-testid=seat-S]").input_value() == "open"
    page.context.close()


def test_no_time_out_is_offered_where_the_rules_have_none(server: ThreadServer, browser: Any) -> None:
    page = new_page(browser)
    page.goto(server.url + "/")
    page.select_option("#preset", "italian")  # a free game to 2005: no fixed number of hands, no time-out
    for s in "ESW":
        page.select_option(f"[data-testid=seat-{s}]", "computer:heuristic:easy")
    page.click("[data-testid=create]")
    page.wait_for_url(re.compile(r"/t/\w+$"))
    page.locator("[data-testid=hand] .card").first.wait_for()
    assert page.locator("[data-testid=timeout]").is_hidden()
    page.context.close()


def test_the_page_runs_under_its_content_security_policy(server: ThreadServer, browser: Any) -> None:
    """No bypass here: the lobby and a table load and play under the server's CSP, and nothing is refused."""
    page = browser_page(browser, 1280, 800, timeout_ms=TIMEOUT_MS, bypass_csp=False)
    refused: list[str] = []
    page.on("console", lambda m: refused.append(m.text) if "Content Security Policy" in m.text else None)
    page.goto(server.url + "/")
    page.locator("[data-testid=create]").wait_for()
    t = create(server.url, preset="italian", hands=1, seats=[{"kind": "human"}] + [
        {"kind": "computer", "level": "heuristic:easy"}] * 3)
    page.goto(server.url + t["links"]["N"])
    page.locator("[data-testid=hand] .card").first.wait_for()
    page.locator("[data-testid=hint]").click()
    page.locator("[data-testid=hint-text][data-action]").wait_for()
    # the tournament desk's page too (its style in director.css)
    page.goto(server.url + "/tournament/new?lang=en")
    page.locator("[data-testid=new-create]").wait_for()
    assert page.evaluate("getComputedStyle(document.body).maxWidth") != "none"  # its style sheet applies
    assert refused == []
    page.context.close()

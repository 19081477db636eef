"""The browser table as a player sees it (issue 16's quality bar), Playwright on Debian's Chromium: a whole hand by
clicks at 1280×800 and by keyboard, the table fits the screen without scrolling at desktop and phone sizes with the
hand in view (the phone table in detail: test_server_phone_browser.py), texts in the chosen language, leave with confirmation and return, a second tab refused for the freed
seat, offline and back, the replay's autoplay, axe-core on the lobby, the table and the replay, first paint and the
time spent per incoming message, and the weight of the JavaScript and CSS."""

from __future__ import annotations

import re
import statistics
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from browser_support import new_page, require
from server_support import ThreadServer, create, fast_config, in_thread, played_out, sqlite_url, thread_server

require()

from test_server_browser import event_n, hint_action, play_one_move, wait_turn_or_end  # noqa: E402

TIMEOUT_MS = 60_000  # a ceiling: a loaded 2-core machine (CI, two workers and their browsers) can be slow
STATIC = Path(__file__).resolve().parents[1] / "src" / "burraco" / "server" / "static"
AXE = Path(__file__).resolve().parent / "vendor" / "axe.min.js"
EASY = {"kind": "computer", "level": "heuristic:easy"}
HUMAN = {"kind": "human"}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ThreadServer]:
    db = tmp_path_factory.mktemp("db") / "table.sqlite3"
    with thread_server(fast_config(sqlite_url(db), bot_delay=0.02, between_hands=600.0)) as s:
        yield s


def page_at(browser: Any, w: int, h: int, locale: str = "en-US", touch: bool = False, motion: bool = False) -> Any:
    return new_page(browser, w, h, timeout_ms=TIMEOUT_MS, locale=locale, touch=touch, motion=motion)


def solo(server: ThreadServer, **kw: Any) -> dict[str, Any]:
    return create(server.url, preset="italian", hands=1, seats=[{"kind": "human", "name": "Ada"}] + [EASY] * 3, **kw)


def assert_fits(page: Any) -> None:
    """What a player sees during play: no scrollbar, every card of the hand and the action buttons inside the
    viewport."""
    size = page.evaluate("[document.documentElement.scrollWidth, document.documentElement.scrollHeight,"
                         " innerWidth, innerHeight]")
    assert size[0] <= size[2] and size[1] <= size[3], size
    vw, vh = size[2], size[3]
    boxes = page.locator("[data-testid=hand] .card").evaluate_all(
        "els => els.map(e => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; })")
    assert boxes
    for left, top, right, bottom in boxes:
        assert left >= -0.5 and top >= -0.5 and right <= vw + 0.5 and bottom <= vh + 0.5, (boxes, vw, vh)
    shown = [b for b in ("draw", "pick", "meld", "discard") if page.locator(f"[data-testid={b}]").is_visible()]
    assert shown in (["draw", "pick"], ["meld", "discard"]), shown  # the two buttons of the moment
    for b in shown:
        r = page.locator(f"[data-testid={b}]").bounding_box()
        assert r is not None and r["y"] + r["height"] <= vh + 0.5 and r["x"] + r["width"] <= vw + 0.5, b
    for where in ("stock", "pile", "our-melds", "their-melds"):
        r = page.locator(f"[data-testid={where}]").bounding_box()
        assert r is not None and r["y"] >= 0 and r["y"] + min(r["height"], 20) <= vh, where


@pytest.mark.parametrize("size", [(1280, 800), (1920, 1080), (390, 844), (360, 740), (844, 390)])
def test_the_table_fits_the_screen_with_the_hand_in_view(server: ThreadServer, browser: Any,
                                                         size: tuple[int, int]) -> None:
    t = solo(server)
    page = page_at(browser, *size, touch=size[0] < 1000)
    page.goto(server.url + t["links"]["N"])
    page.locator("[data-testid=hand] .card").first.wait_for()
    wait_turn_or_end(page)
    assert_fits(page)
    # the seats around the table: partner opposite (top), opponents left and right, names and card counts
    assert page.locator("#pos-top [data-seat=S]").is_visible()
    assert page.locator("#pos-left [data-seat=E]").is_visible() and page.locator("#pos-right [data-seat=W]").is_visible()
    assert "11 cards" in page.locator("#pos-top").text_content()
    assert page.locator("[data-testid=our-melds]").text_content().startswith("Us (NS)")
    page.context.close()


@pytest.mark.parametrize("lang", ["it", "de", "pt", "nl"])
def test_the_table_fits_a_small_phone_in_every_language(server: ThreadServer, browser: Any, lang: str) -> None:
    t = solo(server)
    page = page_at(browser, 360, 740, locale=lang, touch=True)
    page.goto(server.url + t["links"]["N"])
    page.locator("[data-testid=hand] .card").first.wait_for()
    wait_turn_or_end(page)
    page.wait_for_function(f"document.documentElement.lang === '{lang}'")
    assert_fits(page)
    page.context.close()


@pytest.mark.parametrize("drag", [False, True], ids=["clicks", "drag-and-drop"])
def test_a_whole_hand_at_1280x800_without_scrolling(server: ThreadServer, browser: Any, drag: bool) -> None:
    t = solo(server)
    page = page_at(browser, 1280, 800, motion=not drag)  # by clicks with the moves' flights, as most players see it
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server.url + t["links"]["N"])
    moves: list[str] = []
    while wait_turn_or_end(page) == "turn":
        assert_fits(page)
        moves.append(play_one_move(page, drag=drag))
        assert len(moves) < 400
    assert any(a.split()[1] == "discard" for a in moves)
    assert errors == []  # the page never failed (the computers' moves fly to the pile and the melds)
    end = page.locator("[data-testid=hand-end]")
    assert end.is_visible()
    box = end.bounding_box()
    assert box is not None and box["y"] + box["height"] <= 800  # the breakdown is on the screen, not below it
    assert "Us (NS)" in end.text_content() and "cards in hand" in end.text_content()
    # (the match's end may reach the page a moment after the hand's breakdown shows: it waits for it)
    page.locator("[data-testid=winner]").wait_for()
    page.context.close()


def keyboard_move(page: Any) -> str:
    """Ask for a hint, then play it with the keyboard only: d, p, arrows and space to select, m, digits, x."""
    before = event_n(page)
    action = hint_action(page)
    _, verb, *args = action.split()
    page.locator("[data-testid=hint]").blur()
    if verb in ("draw", "pick"):
        page.keyboard.press("d" if verb == "draw" else "p")
    else:
        cards = args[1:] if verb == "add" else args
        page.locator("[data-testid=hand] .card").first.focus()
        page.keyboard.press("ArrowLeft")  # the first card is the focused one
        for c in cards:
            keys = page.locator("[data-testid=hand] .card[data-key]").evaluate_all(
                "els => els.map(e => [e.dataset.card, e.classList.contains('selected'), e === document.activeElement])")
            here = next(i for i, k in enumerate(keys) if k[2])
            want = next(i for i, k in enumerate(keys) if k[0] == c and not k[1])
            for _ in range(abs(want - here)):
                page.keyboard.press("ArrowRight" if want > here else "ArrowLeft")
            page.keyboard.press("Space")
        if verb == "add" and int(args[0]) > 9:  # the digits reach melds 1-9; a tenth meld is clicked
            page.locator(f"[data-testid=our-melds] [data-meld='{args[0]}']").click()
        else:
            page.keyboard.press({"meld": "m", "discard": "x"}.get(verb, args[0] if verb == "add" else "m"))
    page.wait_for_function(f"Number(document.body.dataset.n) > {before}")
    return action


def test_a_whole_hand_by_keyboard(server: ThreadServer, browser: Any) -> None:
    t = solo(server)
    page = page_at(browser, 1280, 800)
    page.goto(server.url + t["links"]["N"])
    verbs: set[str] = set()
    moves = 0
    while wait_turn_or_end(page) == "turn":
        verbs.add(keyboard_move(page).split()[1])
        moves += 1
        assert moves < 400
    assert {"discard"} <= verbs and verbs & {"draw", "pick"}
    page.context.close()


def test_the_focused_card_keeps_the_focus_when_the_hand_is_laid_out_again(server: ThreadServer, browser: Any) -> None:
    """A keyboard player's place in the hand: a redraw of the hand (any state from the server) or a new layout of
    it (here a narrower window: its cards in other rows) made its cards anew or moved them, and the focus fell to
    the page (what a move by keyboard had last focused was lost under the player, and under keyboard_move)."""
    t = solo(server)
    page = page_at(browser, 1280, 800)
    page.goto(server.url + t["links"]["N"])
    assert wait_turn_or_end(page) == "turn"  # North plays first: his hand stays as it is
    card = page.locator("[data-testid=hand] .card[data-key]").nth(3)
    key = card.get_attribute("data-key")
    card.focus()
    assert page.evaluate("document.getElementById('hand').dataset.rows") == "1"
    page.set_viewport_size({"width": 390, "height": 800})  # a phone's width: the hand in two rows
    page.wait_for_function("document.getElementById('hand').dataset.rows !== '1'")
    assert page.evaluate("document.activeElement.dataset.key") == key
    page.context.close()


def test_texts_in_the_chosen_language_and_remembered(server: ThreadServer, browser: Any) -> None:
    t = solo(server)
    page = page_at(browser, 1280, 800, locale="de-DE")
    page.goto(server.url + "/")
    page.locator("[data-testid=play-now]", has_text="Jetzt gegen den Computer spielen").wait_for()
    # the presets in words, in German (the list comes with /api/presets, after the page's own texts)
    page.locator("#preset option", has_text="Italienisches Burraco").first.wait_for(state="attached")
    page.goto(server.url + t["links"]["N"])
    page.locator("[data-testid=draw]", has_text="Ziehen").wait_for()
    page.locator("[data-testid=hand] .card").first.wait_for()  # the first state (the buttons' texts come before it)
    assert page.locator("[data-testid=our-melds]").text_content().startswith("Wir (NS)")
    card = page.locator("[data-testid=hand] .card").first
    assert re.fullmatch(r"\S+, ((Herz|Karo|Kreuz|Pik) \w+|Joker)", card.get_attribute("aria-label") or "")
    page.select_option("[data-testid=lang]", "pt")
    page.locator("[data-testid=draw]", has_text="Comprar").wait_for()
    page.reload()
    page.locator("[data-testid=draw]", has_text="Comprar").wait_for()  # the choice is remembered
    page.context.close()


def test_leave_asks_first_keeps_the_seat_and_a_second_tab_cannot_take_it(server: ThreadServer, browser: Any) -> None:
    t = create(server.url, preset="italian-2p", hands=1, seats=[HUMAN, HUMAN])
    north = page_at(browser, 1280, 800)
    south = page_at(browser, 1280, 800)
    north.goto(server.url + t["links"]["N"])
    south.goto(server.url + t["links"]["S"])
    north.locator("[data-testid=hand] .card").first.wait_for()
    north.click("[data-testid=leave]")
    north.locator("[data-testid=confirm-leave]").wait_for()
    north.click("[data-testid=leave-no]")  # not yet: still seated
    assert north.locator("[data-testid=hand] .card").count() > 0
    north.click("[data-testid=leave]")
    north.click("[data-testid=leave-yes]")
    north.locator("[data-testid=return]").wait_for()
    assert north.locator("[data-testid=hand] .card").count() == 0
    south.locator("[data-seat=N]", has_text="left the table").wait_for()
    # a second tab of the same browser (or anyone) cannot take the seat: it is kept for North
    tab = north.context.new_page()
    tab.set_default_timeout(TIMEOUT_MS)
    tab.goto(server.url + f"/t/{t['id']}?take=N")
    # (its browser holds North's token: "one person, one seat"; anyone else: "kept for its player")
    tab.locator("[data-testid=msg]", has_text=re.compile("one person, one seat|kept for its player")).wait_for()
    assert tab.locator("[data-testid=hand] .card").count() == 0
    tab.close()
    # North comes back to his seat and his hand
    north.click("[data-testid=return]")
    north.locator("[data-testid=hand] .card").first.wait_for()
    south.locator("#pos-top [data-seat=N] .dot.on").wait_for()
    assert "left the table" not in (south.locator("#pos-top [data-seat=N]").text_content() or "")
    for p in (north, south):
        p.context.close()


def test_offline_the_table_says_so_disables_buttons_keeps_what_was_typed_and_resumes(
        server: ThreadServer, browser: Any) -> None:
    t = solo(server)
    page = page_at(browser, 1280, 800)
    page.goto(server.url + t["links"]["N"])
    wait_turn_or_end(page)
    page.fill("[data-testid=chat-input]", "back soon")
    page.context.set_offline(True)
    page.evaluate("window.dispatchEvent(new Event('offline'))")
    page.locator("[data-testid=offline]").wait_for()
    assert page.locator("[data-testid=draw]").is_disabled()
    page.press("[data-testid=chat-input]", "Enter")
    assert page.locator("[data-testid=chat-input]").input_value() == "back soon"  # nothing typed is lost
    page.context.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")
    # the notice stays (saying it reconnects) until the socket has joined the table again, then hides; the turn
    # was shown before the network went, so the buttons are waited for with the answer to the new hello
    page.locator("#conn.on").wait_for()
    page.locator("[data-testid=offline]").wait_for(state="hidden")
    page.wait_for_function("document.body.dataset.myturn !== ''")
    assert page.locator("[data-testid=draw]").is_enabled() or page.locator("[data-testid=meld]").is_enabled()
    page.press("[data-testid=chat-input]", "Enter")
    page.locator("[data-testid=chatlog]", has_text="back soon").wait_for()
    page.context.close()


def finished_game(server: ThreadServer) -> dict[str, Any]:
    """A table of one hand played out by computers for a human seat that left at once (quick and real)."""
    t = create(server.url, preset="italian-2p", hands=1, seats=[{"kind": "human", "name": "Ada"}, EASY])
    in_thread(played_out(server.ws_url, t), 150)
    return t


def test_the_replay_autoplays_at_a_chosen_speed_with_names_and_the_breakdown(server: ThreadServer,
                                                                             browser: Any) -> None:
    t = finished_game(server)
    page = page_at(browser, 1280, 800)
    page.goto(server.url + f"/t/{t['id']}/replay/0")
    page.locator("[data-testid=r-board] .card").first.wait_for()
    assert "Ada (N)" in page.locator("[data-testid=r-board]").text_content()
    assert "Computer S" in page.locator("[data-testid=r-board]").text_content()  # as the table named it
    title = page.locator("#rtitle").text_content() or ""
    assert "· ·" not in title and "Italian" in title and "game 1" in title, title  # an unnamed table: its rules
    page.select_option("[data-testid=r-speed]", "150")
    page.click("[data-testid=r-play]")
    page.locator("[data-testid=r-play]", has_text="Pause").wait_for()
    page.wait_for_function("Number(document.querySelector('[data-testid=r-action]').textContent.split('/')[0]) >= 3")
    page.click("[data-testid=r-play]")  # pause
    page.locator("[data-testid=r-play]", has_text="Play").wait_for()
    at = page.locator("[data-testid=r-action]").text_content()
    page.wait_for_timeout(400)
    assert page.locator("[data-testid=r-action]").text_content() == at  # paused: it stays
    last = page.locator("[data-testid=r-slider]").get_attribute("max")
    page.locator("[data-testid=r-slider]").fill(str(last))
    scores = page.locator("[data-testid=r-scores]")
    scores.wait_for()
    assert "cards in hand" in scores.text_content() and "{" not in scores.text_content()  # words, not JSON
    page.context.close()


def axe_serious(page: Any) -> list[str]:
    page.add_script_tag(path=str(AXE))
    found: list[str] = page.evaluate(
        "async () => (await axe.run(document, {resultTypes: ['violations']})).violations"
        ".filter(v => v.impact === 'serious' || v.impact === 'critical')"
        ".map(v => v.id + ': ' + v.nodes.slice(0, 3).map(n => n.target.join(' ')).join(' | '))")
    return found


def test_no_serious_accessibility_violation_on_the_lobby_the_table_and_the_replay(server: ThreadServer,
                                                                                  browser: Any) -> None:
    done = finished_game(server)
    t = solo(server)
    page = page_at(browser, 1280, 800)
    page.goto(server.url + "/")
    page.locator("[data-testid=tables] .trow").first.wait_for()
    assert axe_serious(page) == []
    page.goto(server.url + t["links"]["N"])
    page.locator("[data-testid=hand] .card").first.wait_for()
    wait_turn_or_end(page)
    assert axe_serious(page) == []
    names = page.locator("[data-testid=hand] .card").evaluate_all("els => els.map(e => e.getAttribute('aria-label'))")
    assert all(re.fullmatch(r"(?:10|[A2-9JQK])[♥♦♣♠], (ace|two|three|four|five|six|seven|eight|nine|ten|jack|queen|king) of "
                            r"(hearts|diamonds|clubs|spades)|★, joker", n) for n in names), names
    page.goto(server.url + f"/t/{done['id']}/replay/0")
    page.locator("[data-testid=r-board] .card").first.wait_for()
    assert axe_serious(page) == []
    page.context.close()


def test_first_paint_and_the_time_spent_per_incoming_message(server: ThreadServer, browser: Any) -> None:
    """The page measures its first paint and its handling of every incoming message (state, event, log: parse,
    update, draw; performance.now() around the handler, window.__burracoRender). The issue's bars (first paint
    under 1 s, under 16 ms a message) are figures, measured by docs/img/web_screenshots.py on a quiet machine and
    written in docs/performance.md — speed lives in benchmarks, not in timed tests; here the bounds are ten times
    as wide, so that only a real regression (a handler that redraws everything, a blocking load) fails, not a
    loaded machine. A handler the machine set aside for a moment counts in the wall-clock figure: where the figures
    of a table are over the bounds, those of a second table are taken before failing (a shared 2-core machine at a load
    of 34 gave a p95 of 221 ms, the median under 1 ms); a slow handler is slow at both."""
    seen = []
    for _ in range(2):
        t = solo(server)
        page = page_at(browser, 1280, 800)
        page.goto(server.url + t["links"]["N"])
        page.locator("[data-testid=hand] .card").first.wait_for()
        fcp = page.evaluate("performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? null")
        assert fcp is not None and fcp < 10_000, fcp
        for _ in range(6):
            if wait_turn_or_end(page) != "turn":
                break
            play_one_move(page)
        times = page.evaluate("window.__burracoRender || []")
        page.context.close()
        assert len(times) > 20
        times.sort()
        seen.append((statistics.median(times), times[int(len(times) * 0.95)]))
        if seen[-1][0] < 160 and seen[-1][1] < 160:
            break
    else:
        pytest.fail(f"the time spent per message (median, p95) at two tables: {seen}")


def test_the_javascript_and_css_a_page_loads_weigh_under_100_kb() -> None:
    """What a page of index.html loads (its modules, those they import, the style sheet, and a module it imports
    only when called for where the page calls for it at once: the replay's check of the deals, fairdeal.js, which the
    table never loads): under 100 kB as written and under 40 kB as sent, gzip-compressed (docs/performance.md has the
    figures on the wire)."""
    from burraco.messages import LANGS, catalogue
    from burraco.server.assets import PAGES, SHARED, Assets

    assets = Assets(STATIC, catalogue, LANGS)
    called_for = {"replay": {"fairdeal.js"}}
    for page, module in PAGES.items():
        later = called_for.get(page, set())
        assert later <= assets.needed(module) - assets.needed(module, lazy=False), (page, later)
        files = (set(SHARED) | assets.needed(module, lazy=False) | later | {"style.css"}) - {"index.html"}
        assert {"core.js", "main.js", module, "style.css"} <= files
        raw = sum(len(assets.files[f].body) for f in files)
        sent = sum(len(assets.files[f].gz or assets.files[f].body) for f in files)
        assert raw < 100_000 and sent < 40_000, (page, raw, sent)
    html = (STATIC / "index.html").read_text(encoding="utf-8")
    assert "<script>" not in html and "style=" not in html  # nothing inline: the CSP allows none


def test_an_invited_player_chooses_his_name_and_the_creator_gives_a_left_seat(server: ThreadServer,
                                                                              browser: Any) -> None:
    creator = page_at(browser, 1280, 800)
    creator.goto(server.url + "/")
    creator.fill("[data-testid=my-name]", "Anna")
    creator.select_option("#preset", "italian-2p")
    creator.select_option("[data-testid=seat-S]", "human")
    creator.click("[data-testid=create]")
    creator.wait_for_url(re.compile(r"/t/\w+$"))
    invite = creator.locator("[data-testid=invite-S]").input_value()
    # the invited player, in a browser of his own, is asked his name before the seat takes it
    guest = page_at(browser, 390, 844, touch=True)
    guest.goto(invite)
    guest.locator("[data-testid=name-dialog]").wait_for()
    guest.fill("[data-testid=name-input]", "Bruno")
    guest.click("[data-testid=name-ok]")
    creator.locator("#pos-top [data-seat=S]", has_text="Bruno").wait_for()
    guest.locator("[data-testid=hand] .card").first.wait_for()
    # Bruno leaves during the game; the creator gives his seat to someone else, who opens the new link
    guest.locator("[data-testid=more]").tap()
    guest.locator("[data-testid=leave]").tap()
    guest.locator("[data-testid=leave-yes]").tap()
    creator.locator("[data-testid=give-S]").click()
    given = creator.locator("[data-testid=given-S]")
    given.wait_for()
    other = page_at(browser, 1280, 800)
    other.goto(given.input_value())
    other.locator("[data-testid=name-dialog]").wait_for()
    other.fill("[data-testid=name-input]", "Carla")
    other.click("[data-testid=name-ok]")
    creator.locator("#pos-top [data-seat=S]", has_text="Carla").wait_for()
    other.locator("[data-testid=hand] .card").first.wait_for()
    # Bruno's page no longer offers him the seat: it is Carla's now
    guest.locator("[data-testid=return]").wait_for(state="hidden")
    for p in (creator, guest, other):
        p.context.close()


def test_a_name_typed_while_the_lobby_loads_is_the_name_the_table_is_created_with(server: ThreadServer,
                                                                               browser: Any) -> None:
    """The lobby filled its name field from the stored name once its presets had come, over what the player had
    typed meanwhile: on a slow line the creator's seat was "Player N" and his own table asked him his name (the
    dialog then covered the seat buttons: CI's failure of the test above, 2026-12-07)."""
    page = page_at(browser, 1280, 800)
    held: list[Any] = []
    page.route("**/api/presets", lambda route: held.append(route))
    page.goto(server.url + "/")
    page.fill("[data-testid=my-name]", "Anna")
    page.wait_for_function("() => true")  # the route's handler runs in this thread: let it be called
    while not held:
        page.wait_for_timeout(50)
    held[0].continue_()
    page.select_option("#preset", "italian-2p")
    assert page.input_value("[data-testid=my-name]") == "Anna"
    page.click("[data-testid=create]")
    page.wait_for_url(re.compile(r"/t/\w+$"))
    page.locator("[data-seat=N]", has_text="Anna").first.wait_for()
    assert not page.locator("[data-testid=name-dialog]").is_visible()
    page.context.close()


@pytest.fixture(scope="module")
def paced_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ThreadServer]:
    """Computer-only tables at a pace a watcher can follow (at the module server's 0.02 s a move, a hand could be
    over before a loaded machine's page had connected, and no move would be left to fly)."""
    db = tmp_path_factory.mktemp("db") / "paced.sqlite3"
    with thread_server(fast_config(sqlite_url(db), bot_delay=0.02, computer_table_delay=0.25,
                                   between_hands=600.0)) as s:
        yield s


def test_moves_fly_across_the_table_unless_the_system_asks_for_reduced_motion(paced_server: ThreadServer,
                                                                             browser: Any) -> None:
    server = paced_server
    seen = {}
    for motion in ("no-preference", "reduce"):
        for _ in range(3):  # a hand over before a slow page had watched 8 events (a loaded machine): another one
            t = create(server.url, preset="italian", hands=1, seats=[EASY] * 4)  # a fresh hand for each
            page = new_page(browser, 1280, 800, timeout_ms=TIMEOUT_MS, reduced_motion=motion)
            ctx = page.context
            page.goto(server.url + f"/t/{t['id']}")
            page.locator("[data-testid=stock] .card").first.wait_for()
            # every flight passes under the seats and the melds' headings (it covers neither, issue 39)
            page.evaluate("window.__fly = 0; window.__over = []; new MutationObserver(() => {"
                          " const f = document.querySelectorAll('.fly'); window.__fly = Math.max(window.__fly, f.length);"
                          " const z = (s) => Number(getComputedStyle(document.querySelector(s)).zIndex);"
                          " for (const x of f) if (Number(getComputedStyle(x).zIndex) >= Math.min(z('#felt .seat'),"
                          " z('#felt .sidelabel'))) window.__over.push(x.outerHTML); }).observe(document.body, {childList: true})")
            start = event_n(page)
            page.wait_for_function(f"Number(document.body.dataset.n) > {start + 8}"
                                   " || !document.querySelector('[data-testid=hand-end]').hidden")
            if event_n(page) > start + 8:
                break
            ctx.close()
        else:
            pytest.fail("three hands ended before their page had watched 8 events")
        page.wait_for_timeout(500)
        seen[motion] = page.evaluate("window.__fly")
        assert page.evaluate("window.__over") == []
        ctx.close()
    assert seen["no-preference"] > 0 and seen["reduce"] == 0, seen


def test_a_hello_held_up_shows_reconnecting_and_a_closed_socket_is_joined_again(server: ThreadServer,
                                                                                 browser: Any) -> None:
    """(Issue 42) The page counts as connected only once its hello is answered: while the server holds it (it waits
    for its Redis, docs/protocol.md) the page says "reconnecting…"; a socket the server closes (1013, "try again
    later") is opened again by itself after a short pause, and the page is at its seat again."""
    t = solo(server)
    page = page_at(browser, 1280, 800)
    opened: list[float] = []
    held: list[Any] = []
    routes: list[Any] = []
    state = {"hold": True}

    def on_ws(route: Any) -> None:
        opened.append(time.monotonic())
        routes.append(route)
        upstream = route.connect_to_server()

        def from_page(m: Any) -> None:
            if state["hold"]:
                held.append((upstream, m))
            else:
                upstream.send(m)

        route.on_message(from_page)

    page.route_web_socket("**/ws", on_ws)
    page.goto(server.url + t["links"]["N"])
    page.wait_for_function("document.getElementById('conn') && document.getElementById('conn').textContent")
    deadline = time.monotonic() + 10
    while not held and time.monotonic() < deadline:
        page.wait_for_timeout(50)
    assert held, "the page sent no hello"
    page.wait_for_timeout(500)  # the hello waits: the page says so
    assert "reconnecting" in (page.locator("#conn").text_content() or "")
    assert page.locator("[data-testid=offline]").is_visible()
    state["hold"] = False
    for upstream, m in held:
        upstream.send(m)
    page.locator("[data-testid=offline]").wait_for(state="hidden")
    assert "connected" in (page.locator("#conn").text_content() or "")
    page.locator("[data-testid=hand] .card").first.wait_for()
    closed_at = time.monotonic()
    routes[-1].close(code=1013, reason="try again later")  # the server gives up on it: the page comes back
    page.locator("[data-testid=offline]").wait_for()
    page.locator("[data-testid=offline]").wait_for(state="hidden", timeout=15000)
    again = [x for x in opened if x > closed_at]
    assert again and again[0] - closed_at >= 0.25  # after a pause (0.3 s, then doubling)
    page.locator("[data-testid=hand] .card").first.wait_for()
    page.context.close()


def test_a_chat_line_an_administrator_removes_disappears_from_the_table_page(browser: Any, tmp_path: Path) -> None:
    """docs/accounts.md "Administrators": the browser table drops the line named by ``chat_removed`` and keeps the
    others."""
    from account_support import Browser

    with thread_server(fast_config(sqlite_url(tmp_path / "chat.sqlite3"))) as srv:
        admin = Browser(srv.url)
        assert admin.get("/")[0] == 200
        assert admin.post("signup", {"name": "Ann Rossi", "password": "correct horse battery"})[0] == 303
        t = create(srv.url, preset="italian-2p", seats=[HUMAN, HUMAN])
        page = page_at(browser, 1280, 800)
        page.goto(srv.url + t["links"]["N"])
        page.wait_for_function("Number(document.body.dataset.n || 0) > 0")  # seated: the table's state came
        page.fill("[data-testid=chat-input]", "spam spam spam")
        page.press("[data-testid=chat-input]", "Enter")
        page.locator("[data-testid=chatlog]", has_text="spam spam spam").wait_for()
        n = int(page.evaluate("document.body.dataset.n"))
        page.fill("[data-testid=chat-input]", "good luck")
        page.press("[data-testid=chat-input]", "Enter")
        page.locator("[data-testid=chatlog]", has_text="good luck").wait_for()
        status, text = admin.post("admin-chat", {"table": t["id"], "n": str(n)})
        assert status == 200 and "is removed" in text, text
        page.wait_for_function("!document.querySelector('[data-testid=chatlog]').textContent.includes('spam')")
        assert "good luck" in (page.locator("[data-testid=chatlog]").text_content() or "")
        page.context.close()

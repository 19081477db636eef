"""The phone table (issue 39), Playwright on Debian's Chromium: at phone and desktop sizes, with 2, 4, 5 and 6
players, in the five languages, the table never scrolls sideways, every card of the hand and of every meld shows
its corner index (rank and suit), every card of the hand is a target of 24 px and more, every side's match total,
every seat and every melds heading is on the screen; the drawer closes every way; a whole hand is played by touch
at 360×740, and a hand of 25 cards (a test deal: server_support.big_hand) at 390×844 to the end of the hand; axe
finds no serious or critical violation at phone size; the web app manifest, its icons and the service worker (the
page opens offline and says so).

One server and one browser for the module; a table per player count, brought once to the middle of a hand (a
hint player at the human seat, computers elsewhere) and opened by every page of that count. The combinations of
size, players and language are a sample, not the cross product: each size, each count and each language is in it
at least once, the phones most (LAYOUTS below); the 25-card hand is checked at 360×740, 390×844 and 844×390."""

from __future__ import annotations

import json
import re
import shutil
import tempfile
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from browser_support import CHROMIUM, new_page, require
from server_support import (
    Client,
    ThreadServer,
    big_hand,
    create,
    fast_config,
    hint_until,
    in_thread,
    melds_on_table,
    played_out,
    sqlite_url,
    thread_server,
)

require()

from test_server_browser import event_n, hint_action, tap_to_select, touch_drag, wait_turn_or_end  # noqa: E402
from test_server_table_browser import axe_serious  # noqa: E402

TIMEOUT_MS = 60_000  # a ceiling: a loaded 2-core machine (CI, two workers and their browsers) can be slow
PRESETS = {2: "italian-2p", 4: "italian", 5: "italian-5p", 6: "italian-6p"}
LOCALES = {"it": "it-IT", "en": "en-US", "de": "de-DE", "pt": "pt-BR", "nl": "nl-NL"}
#: who keeps a match total at each player count: the sides (2, 4, 6 players), the players (5)
SCORERS = {2: ["N", "S"], 4: ["NS", "EW"], 5: list("ABCDE"), 6: ["AD", "BE", "CF"]}
#: (width, height, players, language): every size, count and language at least once
LAYOUTS = [
    (360, 740, 6, "de"), (360, 740, 2, "it"), (390, 844, 4, "en"), (390, 844, 5, "nl"), (412, 915, 6, "pt"),
    (844, 390, 5, "de"), (844, 390, 6, "it"), (1280, 800, 5, "pt"), (1280, 800, 6, "en"), (1920, 1080, 4, "nl"),
    (1920, 1080, 2, "de"),
]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ThreadServer]:
    db = tmp_path_factory.mktemp("db") / "phone.sqlite3"
    # a seat nobody has connected to for the grace period is played by the computer: the tables of the module
    # stay where they were brought for the whole module
    with thread_server(fast_config(sqlite_url(db), bot_delay=0.01, between_hands=600.0, grace=3600.0)) as s:
        yield s


@pytest.fixture(scope="module")
def midhand(server: ThreadServer) -> Callable[[int], dict[str, Any]]:
    """A table of ``n`` players (the human at the first seat, computers elsewhere) in the middle of its first
    hand, at the human's turn after his draw, with melds on the table; made once per count. The deal is the
    server's own (random): a hand that ends before the melds come (a 2-player hand may stall, RULES.md §0.1's
    stalemate) is left for a new table, a few at most."""
    made: dict[int, dict[str, Any]] = {}

    def get(n: int) -> dict[str, Any]:
        for _ in range(5):
            if n in made:
                break
            t = create(server.url, preset=PRESETS[n], hands=1,
                       seats=[{"kind": "human", "name": "Anna"}] + [{"kind": "computer", "level": "heuristic:easy"}] * (n - 1))
            seat = t["table"]["seats"][0]["seat"]

            async def go(t: dict[str, Any] = t, seat: str = seat) -> bool:
                c = await Client.open(server.ws_url)
                await c.hello(t["id"], t["tokens"][seat])
                await hint_until(c, lambda s: melds_on_table(s) >= n + 2 and s["view"]["phase"] == "play")
                assert c.state is not None
                await c.close()
                return not c.state["hand_end"]

            if in_thread(go()):
                made[n] = {**t, "seat": seat}
        assert n in made, "five hands ended before the melds came"
        return made[n]

    return get


def page_at(browser: Any, w: int, h: int, lang: str = "en", **kw: Any) -> Any:
    return new_page(browser, w, h, timeout_ms=TIMEOUT_MS, locale=LOCALES[lang], touch=w < 1000, **kw)


#: what the checks read in the page: every problem a player would see, as text (an empty list: none)
LAYOUT_PROBLEMS = r"""(scorers) => {
  const out = [], vw = innerWidth, vh = innerHeight;
  const de = document.documentElement;
  if (de.scrollWidth > vw || document.body.scrollWidth > vw) out.push(`sideways scroll: ${de.scrollWidth} > ${vw}`);
  const inView = (r) => r.left >= -0.5 && r.top >= -0.5 && r.right <= vw + 0.5 && r.bottom <= vh + 0.5;
  const hits = (x, y, node) => { const e = document.elementFromPoint(x, y); return !!e && (e === node || node.contains(e)); };
  const name = (c) => `${c.dataset.card || "?"} in ${c.closest("[id]").id}`;
  const cover = (r) => {  // what is at a point instead: its tag, id, classes and card
    const e = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return e ? `${e.tagName.toLowerCase()}#${e.id}.${[...e.classList].join(".")}[${e.dataset.card || ""}] at ${r.left.toFixed(0)},${r.top.toFixed(0)}` : `nothing at ${r.left.toFixed(0)},${r.top.toFixed(0)}`;
  };
  // the corner index of every card of the hand and the melds: rank and suit on screen, covered by nothing
  for (const c of document.querySelectorAll("#hand .card[data-card], #felt .melds .card[data-card]")) {
    for (const part of c.querySelectorAll(".ix .r, .ix .s")) {
      if (!part.textContent) continue;  // the joker's index is its star alone
      const r = part.getBoundingClientRect();
      if (!inView(r) || !hits(r.left + r.width / 2, r.top + r.height / 2, c)) out.push(`index hidden: ${name(c)} ${part.className} under ${cover(r)}`);
    }
  }
  // a target of 24 × 24 px for every card of the hand (its corner, where its index is; inside its rounded border)
  for (const c of document.querySelectorAll("#hand .card[data-card]")) {
    const r = c.getBoundingClientRect();
    for (const [dx, dy] of [[2.5, 2.5], [25.5, 2.5], [2.5, 25.5], [25.5, 25.5], [14, 14]])
      if (!hits(r.left + dx, r.top + dy, c)) { out.push(`target under 24 px: ${name(c)} (${r.width.toFixed(0)}×${r.height.toFixed(0)})`); break; }
  }
  // the buttons a player taps: 24 px and more, on the screen
  for (const b of document.querySelectorAll("header button, .me button")) {
    const r = b.getBoundingClientRect();
    if (!r.width) continue;
    if (r.width < 24 || r.height < 24 || !inView(r)) out.push(`button ${b.dataset.testid || b.id}: ${r.width}×${r.height} at ${r.left},${r.top}`);
  }
  // every seat, every melds heading and every match total: on the screen and covered by nothing
  const seen = (e, what) => {
    const r = e.getBoundingClientRect();
    if (!r.width || !inView(r) || !hits(r.left + Math.min(8, r.width / 2), r.top + r.height / 2, e)) out.push(`${what} not in view`);
  };
  for (const s of document.querySelectorAll("#felt .seat, #meLabel .seat")) seen(s, `seat ${s.dataset.seat}`);
  for (const h of document.querySelectorAll("#felt .sidelabel")) seen(h, `heading ${h.textContent}`);
  for (const x of scorers) {
    const e = document.querySelector(`[data-testid="total-${x}"]`);
    if (!e) out.push(`no total for ${x}`); else seen(e, `total of ${x}`);
  }
  const goal = document.getElementById("goalLine");
  if (goal.scrollWidth > goal.clientWidth + 1) out.push(`the top bar cuts "${goal.textContent}"`);
  const raw = document.body.innerText.match(/\b(web|coach|tui)_[a-z_]+/);
  if (raw) out.push(`a message code shown as text: ${raw[0]}`);
  return out;
}"""


def problems(page: Any, scorers: list[str], settle_s: float = 5.0) -> list[str]:
    """What a player would see wrong (LAYOUT_PROBLEMS), once the page has settled: on a loaded machine the fit of
    the melds and the fonts can come after the first look, so the check is made again every 0.2 s for up to
    ``settle_s`` seconds; what is still wrong then is returned (a real fault stays and fails the test)."""
    found: list[str] = page.evaluate(LAYOUT_PROBLEMS, scorers)
    tries = int(settle_s / 0.2)
    while found and tries > 0:
        page.wait_for_timeout(200)
        found = page.evaluate(LAYOUT_PROBLEMS, scorers)
        tries -= 1
    return found


def open_table(browser: Any, url: str, w: int, h: int, lang: str = "en", **kw: Any) -> Any:
    page = page_at(browser, w, h, lang, **kw)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors
    page.goto(url)
    page.locator("[data-testid=hand] .card").first.wait_for()
    page.wait_for_function(f"document.documentElement.lang === '{lang}'")
    page.wait_for_timeout(150)  # the fonts and the fit of the melds settle
    return page


@pytest.mark.parametrize(("w", "h", "players", "lang"), LAYOUTS,
                         ids=[f"{w}x{h}-{n}p-{lang}" for w, h, n, lang in LAYOUTS])
def test_every_card_index_every_score_and_no_sideways_scroll(server: ThreadServer, browser: Any,
                                                              midhand: Callable[[int], dict[str, Any]], w: int,
                                                              h: int, players: int, lang: str) -> None:
    t = midhand(players)
    page = open_table(browser, server.url + t["links"][t["seat"]], w, h, lang)
    assert page.locator("#felt .melds .meld").count() >= players + 2  # the melds of the hint player's table
    assert problems(page, SCORERS[players]) == []
    # the other seats by distinct names in the player's language ("Computer B", "Computador B")
    names = page.locator("#felt .seat .sname").all_text_contents()
    assert len(set(names)) == players - 1 and all(re.search(r"\b[A-FNSEW]$", x) for x in names), names
    # the moves log names them so too (told by the server, in a message that follows the table's state)
    page.wait_for_function("(names) => names.some((x) => document.querySelector('[data-testid=log]').textContent"
                           ".includes(x))", arg=names)
    # the screen reader's heading: an unnamed table is its rules in words, not the server's English default
    assert not (page.locator("#tname").text_content() or "table").endswith(" table")
    if lang == "de":  # a meld's class as a word of its own, not a fragment of "sauberer Burraco"
        classes = set(page.locator("#felt .meld:not(.burraco) .cls").all_text_contents())
        assert classes and classes <= {"sauber", "schmutzig"}, classes
    assert page.errors == []
    page.context.close()


@pytest.mark.parametrize(("w", "h"), [(360, 740), (390, 844), (844, 390)])
def test_a_hand_of_25_cards_shows_every_card(server: ThreadServer, browser: Any, big: dict[str, Any], w: int,
                                             h: int) -> None:
    page = open_table(browser, server.url + big["links"]["N"], w, h)
    assert page.locator("[data-testid=hand] .card[data-card]").count() >= 25
    assert problems(page, SCORERS[2]) == []
    page.context.close()


@pytest.fixture(scope="module")
def big(server: ThreadServer) -> dict[str, Any]:
    """A two-player table where North holds 25 cards after taking the pile (server_support.big_hand)."""
    t = create(server.url, preset="italian-2p", hands=1,
               seats=[{"kind": "human", "name": "Anna"}, {"kind": "human", "name": "Bruno"}])
    in_thread(big_hand(server.ws_url, t, 25))
    return t


def touch_move(page: Any, dragged: list[bool]) -> str:
    """One move of the hint, by touch: taps on the buttons, on the cards' corners and on the melds; the first
    discard by a finger dragging the card onto the pile."""
    before = event_n(page)
    action = hint_action(page, tap=True)
    _, verb, *args = action.split()
    if verb in ("draw", "pick"):
        page.locator(f"[data-testid={verb}]").tap()
    elif verb == "discard" and not dragged:
        card = page.locator(f"[data-testid=hand] .card[data-card='{args[0]}']").first
        touch_drag(page, card, page.locator("[data-testid=pile]"))
        dragged.append(True)
    else:
        for c in args[1:] if verb == "add" else args:
            tap_to_select(page, c)
        if verb == "add":
            page.locator(f"[data-testid=our-melds] [data-meld='{args[0]}']").tap()
        else:
            page.locator(f"[data-testid={'meld' if verb == 'meld' else 'discard'}]").tap()
    page.wait_for_function(f"Number(document.body.dataset.n) > {before}")
    return action


def play_out_by_touch(page: Any, scorers: list[str], check_every: int = 5) -> list[str]:
    """The rest of the hand by touch; the layout checked every few moves and at the end of the hand."""
    moves: list[str] = []
    dragged: list[bool] = []
    while wait_turn_or_end(page) == "turn":
        if len(moves) % check_every == 0:
            assert problems(page, scorers) == [], moves
        was = len(dragged)
        moves.append(touch_move(page, dragged))
        if len(dragged) > was:  # Chromium takes the next tap too soon after a finger's drag for a double tap
            page.wait_for_timeout(1500)
        assert len(moves) < 300
    size = page.evaluate("[document.documentElement.scrollWidth, innerWidth]")
    assert size[0] <= size[1], size  # the end of the hand: no sideways scroll either
    assert not re.search(r"\byou \(", page.locator("[data-testid=winner]").text_content() or "", re.I)
    box = page.locator("[data-testid=hand-end]").bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= size[1]
    return moves


def test_a_whole_hand_by_touch_at_360x740(server: ThreadServer, browser: Any) -> None:
    t = create(server.url, preset="italian", hands=1,
               seats=[{"kind": "human", "name": "Anna"}] + [{"kind": "computer", "level": "heuristic:easy"}] * 3)
    page = open_table(browser, server.url + t["links"]["N"], 360, 740, motion=True)  # the flights, as most see them
    moves = play_out_by_touch(page, SCORERS[4])
    assert any(a.split()[1] == "discard" for a in moves) and page.errors == []
    assert page.locator("[data-testid=winner]").is_visible()
    page.context.close()


def test_the_hand_of_25_cards_played_by_touch_to_the_end(server: ThreadServer, browser: Any) -> None:
    big = create(server.url, preset="italian-2p", hands=1,  # a table of its own: this test plays it out
                 seats=[{"kind": "human", "name": "Anna"}, {"kind": "human", "name": "Bruno"}])
    in_thread(big_hand(server.ws_url, big, 25))
    page = open_table(browser, server.url + big["links"]["N"], 390, 844, "it")
    moves = play_out_by_touch(page, SCORERS[2], check_every=3)
    assert sum(a.split()[1] in ("meld", "add") for a in moves) >= 2  # the big hand was melded, card by card tapped
    assert page.errors == []
    page.context.close()


def drawer_open(page: Any) -> bool:
    return bool(page.evaluate("document.body.classList.contains('side-open')")) and page.locator("[data-testid=side]").is_visible()


def test_the_drawer_closes_every_way_and_never_covers_its_button(server: ThreadServer, browser: Any,
                                                                 midhand: Callable[[int], dict[str, Any]]) -> None:
    t = midhand(4)
    url = server.url + t["links"][t["seat"]]
    page = open_table(browser, url, 390, 844)
    more = page.locator("[data-testid=more]")
    here = page.url

    def open_it() -> None:
        more.tap()
        page.wait_for_function("document.body.classList.contains('side-open')")
        assert drawer_open(page)
        # its ☰ stays in view and uncovered; the moves, the scores, the chat and leave are in it
        r = more.bounding_box()
        assert r is not None and page.evaluate(
            f"document.elementFromPoint({r['x'] + r['width'] / 2}, {r['y'] + r['height'] / 2}).closest('[data-testid=more]') !== null")
        for what in ("log", "scoreboard", "chat-input", "leave"):
            assert page.locator(f"[data-testid={what}]").is_visible(), what
        assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")

    for way in ("toggle", "close", "escape", "outside", "back"):
        open_it()
        if way == "toggle":
            more.tap()
        elif way == "close":
            page.locator("[data-testid=close-side]").tap()
        elif way == "escape":
            page.keyboard.press("Escape")
        elif way == "outside":
            page.touchscreen.tap(12, 400)  # the strip of table left of the drawer
        else:
            page.go_back()  # the phone's back gesture
        page.wait_for_function("!document.body.classList.contains('side-open')")
        assert not page.locator("[data-testid=side]").is_visible(), way
        assert page.url == here, way  # still at the table
        assert page.locator("[data-testid=hand] .card").first.is_visible(), way
    # closed and at once opened again, before the page's own step back in the history (its closing) has come:
    # that step back does not close the drawer opened since, which has its entry again for the back gesture
    open_it()
    page.evaluate("""() => new Promise((done) => {
      addEventListener("popstate", () => setTimeout(done, 0), { once: true });
      const more = document.querySelector("[data-testid=more]");
      more.click();
      more.click();
    })""")
    assert drawer_open(page) and page.evaluate("history.state !== null && history.state.side === true")
    page.go_back()
    page.wait_for_function("!document.body.classList.contains('side-open')")
    assert page.url == here
    # the way back did not leave a stale entry: the next back leaves the table as a browser does
    assert page.evaluate("history.state === null || !history.state.side")
    page.context.close()
    # a desktop has the panel beside the table and no ☰
    page = open_table(browser, url, 1280, 800)
    assert page.locator("[data-testid=side]").is_visible() and not page.locator("[data-testid=more]").is_visible()
    page.context.close()


def test_no_serious_accessibility_violation_at_phone_size(server: ThreadServer, browser: Any,
                                                          midhand: Callable[[int], dict[str, Any]]) -> None:
    t = midhand(6)
    page = open_table(browser, server.url + t["links"][t["seat"]], 390, 844)
    assert axe_serious(page) == []
    page.locator("[data-testid=more]").tap()
    page.wait_for_function("document.body.classList.contains('side-open')")
    assert axe_serious(page) == []
    page.context.close()


def test_four_colours_as_an_option_remembered(server: ThreadServer, browser: Any,
                                              midhand: Callable[[int], dict[str, Any]]) -> None:
    t = midhand(4)
    page = open_table(browser, server.url + t["links"][t["seat"]], 1280, 800)
    colour = "getComputedStyle(document.querySelector('.card.s-{}')).color"
    some = page.evaluate("[...document.querySelectorAll('#felt .card[data-card], #hand .card[data-card]')].map(c => c.dataset.card[1])")
    suit = next((x for x in ("d", "c") if x in some), None)
    assert suit is not None
    two = page.evaluate(colour.format(suit))
    page.locator("[data-testid=deck4]").check()
    four = page.evaluate(colour.format(suit))
    assert four != two
    page.reload()
    page.locator("[data-testid=hand] .card").first.wait_for()
    assert page.evaluate(colour.format(suit)) == four and page.locator("[data-testid=deck4]").is_checked()
    page.context.close()


def test_two_seats_from_one_address_cover_nothing(server: ThreadServer, browser: Any) -> None:
    """The line "Two seats from one address" (fair play, docs/fairness.md) stands above the player's seat, in the
    room of its own: shown to both seats, it covers no seat, heading, total or card, upright and sideways."""
    t = create(server.url, preset="italian", hands=1,
               seats=[{"kind": "human", "name": "Anna"}, {"kind": "computer", "level": "heuristic:easy"},
                      {"kind": "human", "name": "Bruno"}, {"kind": "computer", "level": "heuristic:easy"}])
    south = page_at(browser, 390, 844)
    south.goto(server.url + t["links"]["S"])  # the hand is dealt once North sits too
    south.locator("[data-testid=me]", has_text="S").wait_for()
    for w, h in ((360, 740), (844, 390)):
        page = open_table(browser, server.url + t["links"]["N"], w, h)
        line = page.locator("[data-testid=shared-address]", has_text="N")
        line.wait_for()
        page.wait_for_timeout(150)  # the melds fitted to the room left
        assert problems(page, SCORERS[4]) == [], (w, h)
        box = line.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= w and box["y"] + box["height"] <= h
        assert page.errors == []
        page.context.close()
    south.context.close()


def test_installable_and_it_opens_offline_saying_so(server: ThreadServer, browser: Any,
                                                    midhand: Callable[[int], dict[str, Any]]) -> None:
    t = midhand(2)
    page = open_table(browser, server.url + t["links"][t["seat"]], 390, 844)
    href = page.locator("link[rel=manifest]").get_attribute("href")
    manifest = page.evaluate(f"fetch('{href}').then(r => r.json())")
    assert manifest["name"] and manifest["start_url"] == "/" and manifest["display"] == "standalone"
    sizes = {}
    for icon in manifest["icons"]:
        got = page.evaluate(f"fetch('{icon['src']}').then(async r => [r.status, r.headers.get('content-type'), (await r.arrayBuffer()).byteLength])")
        assert got[0] == 200 and got[1].startswith(icon["type"]) and got[2] > 300, (icon, got)
        sizes[icon["sizes"]] = icon["type"]
    assert {"192x192", "512x512"} <= set(sizes)
    # Chromium's own verdict, in a profile of its own (a test context is incognito, where nothing installs)
    profile = tempfile.mkdtemp()
    ctx = browser.browser_type.launch_persistent_context(profile, executable_path=str(CHROMIUM), headless=True,
                                                         args=["--no-sandbox", "--disable-gpu"])
    try:
        app = ctx.new_page()
        app.goto(server.url + "/")
        app.locator("[data-testid=play-now]").wait_for()
        app.evaluate("navigator.serviceWorker.ready.then(() => true)")
        errors = ctx.new_cdp_session(app).send("Page.getInstallabilityErrors")["installabilityErrors"]
        assert errors == [], errors
    finally:
        ctx.close()
        shutil.rmtree(profile, ignore_errors=True)
    # the service worker: it controls the page and keeps the page's files
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    page.wait_for_function("navigator.serviceWorker.controller !== null")
    kept = page.evaluate("caches.keys().then(ks => Promise.all(ks.map(k => caches.open(k).then(c => c.keys())))).then(x => x.flat().map(r => new URL(r.url).pathname))")
    assert "/" in kept and any(p.startswith("/static/table.") for p in kept), kept
    assert any(p.startswith("/static/rulebook.") for p in kept), kept  # the rule book's style sheet
    # offline: the table opens from what was kept and says plainly that it is offline
    page.context.set_offline(True)
    page.reload()
    page.locator("[data-testid=offline]").wait_for()
    assert "offline" in (page.locator("[data-testid=offline]").text_content() or "").lower()
    assert page.locator("header.top").is_visible()
    page.context.set_offline(False)
    # the rule book ("Why?"), read once online, is kept under its own address, never as the page at "/": offline,
    # the lobby opens, and the rule book with its style sheet
    page.goto(server.url + "/rules/en")
    page.locator("body.rulebook h2").first.wait_for()
    page.context.set_offline(True)
    page.goto(server.url + "/")
    page.locator("[data-testid=offline]").wait_for()
    page.goto(server.url + "/rules/en")
    page.locator("body.rulebook h2").first.wait_for()
    assert page.evaluate("getComputedStyle(document.body).backgroundColor") == "rgb(251, 250, 247)"
    page.go_back()
    page.locator("[data-testid=offline]").wait_for()
    page.context.set_offline(False)
    page.locator("[data-testid=offline]").wait_for(state="hidden")
    page.locator("[data-testid=play-now]").wait_for()
    page.context.close()


def test_the_pages_on_the_wire(server: ThreadServer, browser: Any, midhand: Callable[[int], dict[str, Any]]) -> None:
    """The table page's first load, empty cache: every text answer compressed, the catalogue the page's own, and
    the whole under 80 kB on the wire (docs/performance.md has the figures)."""
    t = midhand(4)
    page = page_at(browser, 390, 844)
    cdp = page.context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Network.setCacheDisabled", {"cacheDisabled": True})
    got: dict[str, Any] = {}
    cdp.on("Network.responseReceived", lambda e: got.setdefault(e["requestId"], {}).update(
        url=e["response"]["url"], headers={k.lower(): v for k, v in e["response"]["headers"].items()}))
    cdp.on("Network.loadingFinished", lambda e: got.setdefault(e["requestId"], {}).update(size=e["encodedDataLength"]))
    page.goto(server.url + t["links"][t["seat"]])
    page.locator("[data-testid=hand] .card").first.wait_for()
    page.wait_for_timeout(500)
    http = [x for x in got.values() if x.get("url", "").startswith("http") and "size" in x]
    texts = [x for x in http if re.search(r"text|json|javascript|svg|manifest", x["headers"].get("content-type", ""))]
    assert texts and all(x["headers"].get("content-encoding") == "gzip" for x in texts
                         if int(x["headers"].get("content-length", "1000")) >= 500), [(x["url"], x["headers"]) for x in texts]
    catalogue = [x for x in http if "/messages/" in x["url"]]
    assert len(catalogue) == 1 and "/table.json" in catalogue[0]["url"]
    assert catalogue[0]["headers"]["cache-control"].endswith("immutable")
    total = sum(x["size"] for x in http)
    assert total < 80_000, (total, json.dumps([(x["url"], x["size"]) for x in http]))
    page.context.close()


def test_the_lobby_and_a_replay_fit_a_small_phone(server: ThreadServer, browser: Any) -> None:
    done = create(server.url, preset="italian-2p", hands=1,
                  seats=[{"kind": "human", "name": "Anna"}, {"kind": "computer", "level": "heuristic:easy"}])
    in_thread(played_out(server.ws_url, done))
    for lang in ("pt", "de"):
        page = page_at(browser, 360, 740, lang)
        page.goto(server.url + "/")
        page.locator("[data-testid=tables] .trow").first.wait_for()
        assert page.evaluate("document.documentElement.scrollWidth <= innerWidth"), lang
        page.goto(server.url + f"/t/{done['id']}/replay/0")
        page.locator("[data-testid=r-board] .card").first.wait_for()
        page.locator("[data-testid=r-slider]").fill("20")
        assert page.evaluate("document.documentElement.scrollWidth <= innerWidth"), lang
        assert "Comput" in (page.locator("[data-testid=r-board]").text_content() or "")  # "Computer S", "Computador S"
        page.context.close()

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

TIMEOUT_MS = 60_000  # a ceiling: a loaded 2-core machine (CI, two workers and their browsers) can be slow
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
    # (the desk's form comes before its first refresh, which names the event in the title: waited for)
    desk.locator("[data-testid=title]", has_text="Torneo di Natale").wait_for()
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
    # the score page names both lines by pair number and name (not "NS: 3" alone)
    ns.wait_for_selector("[data-testid=score-ns-name] >> text=NS: 3. Elena – Franco")
    assert ns.locator("[data-testid=score-ew-name]").text_content() == "EW: 4. Gino – Ida"
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
    desk.click("[data-testid=timeout]")  # the first click asks, the second announces it
    assert "Click again" in desk.locator("[data-testid=timeout]").text_content()
    desk.click("[data-testid=timeout]")
    desk.wait_for_selector("[data-testid=clock] >> text=time-out announced")
    desk.click("[data-testid=finish-2]")
    desk.wait_for_selector("[data-testid=progress-2] >> text=finished after the time-out")
    # the online table ends with the hand of the time-out (or stopped between two hands): its card says which
    desk.wait_for_function("document.querySelector('[data-testid=table-1]').classList.contains('complete')",
                           timeout=90000)
    progress = desk.locator("[data-testid=progress-1]").text_content()
    assert ("the hand of the time-out" in progress or "finished after the time-out" in progress
            or "3 of 3" in progress), progress
    desk.click("[data-testid=close-round]")
    desk.click("[data-testid=close-round]")
    desk.wait_for_selector("[data-testid=msg].ok")
    # the standings: every pair has played its round; at the club table each line won one hand (385 + 5 each)
    # (the table of "no round closed yet" has as many rows: the title says which one is on the page; the rows are
    # read at once, never half from a table the page is about to draw again)
    desk.wait_for_selector("[data-testid=standings-title] >> text=Standings after round 1")
    desk.wait_for_function("document.querySelectorAll('[data-testid=standings] tr').length === 5")
    rows = desk.locator("[data-testid=standings] tr").evaluate_all(
        "trs => trs.slice(1).map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent))")
    assert all(re.search(r"^\d\. ", r[1]) for r in rows), rows
    assert next(r for r in rows if "Elena" in r[1])[4:6] == ["390", "390"], rows
    assert next(r for r in rows if "Gino" in r[1])[4:6] == ["390", "390"], rows
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


def _registration_held(server: ThreadServer, browser: Any, name: str) -> tuple[Any, Any]:
    """A new event's desk page that has sent the registration of "Anna – Bruno", whose request is held (not yet at
    the server): the page, and the held route (``continue_()`` lets it go on)."""
    made = _post(server.url, "/api/tournaments", {"name": name, "rounds": 1, "movements": "mitchell",
                                                  "director": "Maria"})
    desk = new_page(browser)
    held: list[Any] = []
    desk.route("**/desk/register", lambda route: held.append(route))
    desk.goto(server.url + f"/tournament/{made['id']}/desk?lang=en#d={made['token']}")
    desk.fill("[data-testid=reg-name]", "Anna – Bruno")
    desk.fill("[data-testid=reg-players]", "Anna, Bruno")
    desk.click("[data-testid=reg-submit]")
    for _ in range(1200):  # the route's handler runs in this thread, while it waits in the page
        if held:
            break
        desk.wait_for_timeout(50)
    assert held, "the registration was never sent"
    return desk, held[0]


def test_a_name_typed_while_the_last_registration_is_answered_is_kept(server: ThreadServer, browser: Any) -> None:
    """The desk emptied its registration boxes once a registration was answered, over what the director had typed
    meanwhile for the next entrant (a slow answer, or the 2-second refresh showing the entrant before the answer
    came: the next entrant's name was lost, and the test above registered a pair without one)."""
    desk, route = _registration_held(server, browser, "Lento")
    desk.fill("[data-testid=reg-name]", "Carla – Dario")  # the next entrant, typed while the answer is on its way
    route.continue_()
    desk.wait_for_selector("[data-testid=msg].ok")
    desk.locator("[data-testid=entrants]", has_text="Anna – Bruno").wait_for()
    assert desk.input_value("[data-testid=reg-name]") == "Carla – Dario"
    assert desk.input_value("[data-testid=reg-players]") == ""  # the box not typed into again is emptied
    desk.context.close()


def test_a_late_answer_to_an_earlier_action_does_not_cover_the_word_on_the_next(server: ThreadServer,
                                                                                 browser: Any) -> None:
    """The desk's line says the outcome of the last action started: an earlier action answered later (a slow
    answer) put its "Done" over the refusal of the one after it (the round test read "Done" where it waited for
    the duplicate's refusal)."""
    desk, route = _registration_held(server, browser, "Lenta")
    desk.fill("[data-testid=pen-entrant]", "99")  # meanwhile a penalty for nobody: refused
    desk.fill("[data-testid=pen-vp]", "1")
    desk.fill("[data-testid=pen-reason]", "slow play")
    desk.click("[data-testid=pen-apply]")
    desk.wait_for_selector("[data-testid=msg].error")
    refusal = desk.locator("[data-testid=msg]").text_content()
    route.continue_()
    desk.wait_for_function("document.querySelector('[data-testid=reg-name]').value === ''")  # the registration done
    desk.locator("[data-testid=entrants]", has_text="Anna – Bruno").wait_for()
    line = desk.locator("[data-testid=msg]")
    assert (line.get_attribute("class"), line.text_content()) == ("error", refusal)
    desk.context.close()


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
    assert "EO:" in desk.locator("[data-testid=table-1]").text_content()  # Est-Ovest, not "EW", in Italian
    assert "T0P0, T0P2" in desk.locator("[data-testid=table-1]").text_content() \
        or "T0P0, T0P2" in desk.locator("[data-testid=table-2]").text_content()
    assert desk.locator("[data-testid=lineup-1]").count() == 0  # no line-ups while the round is in play


def test_an_online_table_stops_after_the_hand_of_the_timeout(browser: Any, tmp_path_factory: pytest.TempPathFactory) -> None:
    """RULES.md §0.1 "The time-out ends the match" (issue 36): at a director's event the online table finishes the
    hand in which the time-out was called and deals no more; its end-of-match panel says so, with the VP of the
    3-hand table on that one hand, and the desk counts exactly that hand."""
    db = tmp_path_factory.mktemp("db") / "timeout-browser.sqlite3"
    with thread_server(fast_config(sqlite_url(db), bot_delay=0.4, computer_table_delay=0.4)) as srv:
        made = _post(srv.url, "/api/tournaments", {"name": "Coppa", "rounds": 1, "movements": "mitchell",
                                                    "director": "Maria"})
        tid, token = made["id"], made["token"]
        for a, b in PAIRS[:2]:
            _post(srv.url, f"/api/tournaments/{tid}/desk/register", {"name": f"{a} – {b}", "people": [a, b]}, token)
        desk = new_page(browser)
        desk.goto(srv.url + f"/tournament/{tid}/desk?lang=en#d={token}")
        desk.wait_for_selector("[data-testid=start-round]")
        desk.fill("[data-testid=online-tables]", "all")
        desk.check("[data-testid=computers]")
        desk.click("[data-testid=start-round]")
        desk.wait_for_selector("[data-testid=link-1-watch]")
        table = new_page(browser)
        table.goto(srv.url + desk.locator("[data-testid=link-1-watch]").get_attribute("href") + "?lang=en")
        desk.wait_for_selector("[data-testid=progress-1] >> text=Hand 1:")  # hand 1 is being played
        desk.click("[data-testid=timeout]")
        desk.click("[data-testid=timeout]")
        desk.wait_for_selector("[data-testid=finishing-1]")  # the desk names the table still finishing
        # the table's own page: the end-of-match panel after hand 1, no hand 2
        table.wait_for_selector("[data-testid=timeout-ended]", timeout=120000)
        assert table.locator("[data-testid=timeout-ended]").text_content() == (
            "The director's time-out ended the match after hand 1 (rule 0.1)")  # the rule book's number (issue 44)
        winner = table.locator("[data-testid=winner]").text_content()
        assert "VP" in winner
        assert table.locator("[data-testid=rematch]").count() == 0  # one match per round at an event table
        desk.wait_for_selector("[data-testid=progress-1] >> text=ended with hand 1, the hand of the time-out")
        assert desk.locator("[data-testid=finishing-1]").count() == 0
        table_id = desk.locator("[data-testid=link-1-watch]").get_attribute("href").split("/t/")[1].split("#")[0]
        import json
        import time
        import urllib.request

        time.sleep(2.0)  # long enough for a computer table to deal again, were it to
        with urllib.request.urlopen(srv.url + f"/api/tables/{table_id}/games", timeout=30) as r:
            games = json.loads(r.read())["games"]
        assert len(games) == 1 and games[0]["hands"] == 1
        vp_text = winner.split("VP ")[1]
        assert sorted(int(x) for x in vp_text.split("–")) == sorted(games[0]["vp"].values())


def test_the_desk_links_a_player_to_an_account_and_the_public_page_shows_it(browser: Any, tmp_path: Any) -> None:
    """docs/accounts.md "Tournament entrants": the desk's accounts field, an unknown account refused with the
    reason, the link on the desk's and the public page's lists of participants."""
    from account_support import Browser

    with thread_server(fast_config(sqlite_url(tmp_path / "linked.sqlite3"))) as srv:
        ann = Browser(srv.url)
        assert ann.get("/")[0] == 200
        assert ann.post("signup", {"name": "Ann Rossi", "password": "correct horse battery"})[0] == 303
        desk = new_page(browser)
        desk.goto(srv.url + "/tournament/new?lang=en")
        desk.fill("[data-testid=new-name]", "Soci")
        desk.fill("[data-testid=new-rounds]", "1")
        desk.fill("[data-testid=new-movements]", "mitchell")
        desk.click("[data-testid=new-create]")
        desk.wait_for_url(re.compile(r"/tournament/\w+/desk#d="))
        tid = re.search(r"/tournament/(\w+)/desk", desk.url).group(1)  # type: ignore[union-attr]
        desk.fill("[data-testid=reg-name]", "Rossi – Neri")
        desk.fill("[data-testid=reg-players]", "Anna, Bruno")
        desk.fill("[data-testid=reg-accounts]", "Nobody Here")
        desk.click("[data-testid=reg-submit]")
        desk.wait_for_selector("[data-testid=msg].error")
        assert "no account of this server is named Nobody Here" in desk.locator("[data-testid=msg]").text_content()
        desk.fill("[data-testid=reg-accounts]", "ann rossi,")
        desk.click("[data-testid=reg-submit]")
        desk.wait_for_selector("[data-testid=players-1]")
        assert desk.locator("[data-testid=players-1]").text_content() == "Anna (@Ann Rossi), Bruno"
        public = new_page(browser)
        public.goto(srv.url + f"/tournament/{tid}?lang=en")
        public.locator("[data-testid=public-entrants]", has_text="1. Rossi – Neri: Anna (@Ann Rossi), Bruno").wait_for()
        for p in (desk, public):
            p.context.close()

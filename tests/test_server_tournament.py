"""The tournament director's desk in ``burraco serve`` (docs/tournaments.md): the JSON API against a real server,
bad input everywhere (a clear error, nothing changed), online tables whose hands flow into the event, physical
tables with countersigned score entry, the time-out at every online table at once, printouts, and a restart of
the server mid-round (RULES.md §9.4, §12)."""

from __future__ import annotations

import io
import json
import os
import signal
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from burraco.record import replay_match
from burraco.server.store import Store
from burraco.server.tournament_store import TournamentStore
from burraco.tournament import Event
from server_support import (
    ThreadServer,
    database,
    fast_config,
    free_port,
    server_process,
    sqlite_url,
    thread_server,
)

PAIRS = [("Anna", "Bruno"), ("Carla", "Dario"), ("Elena", "Franco"), ("Gino", "Ida")]
EASY = "heuristic:easy"
ALL_COMPUTERS = {s: EASY for s in "NESW"}


def call(base: str, method: str, path: str, body: Any = None, token: str | None = None,
         raw: bytes | None = None) -> tuple[int, Any]:
    """One HTTP request: JSON in (or ``raw`` bytes), JSON (or bytes) out."""
    data = raw if raw is not None else (None if body is None else json.dumps(body).encode())
    headers = {"Content-Type": "application/json"}
    if token is not None:
        headers["Authorization"] = f"Bearer {token}"
    req = urllib.request.Request(base + path, data=data, method=method, headers=headers)
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            out = r.read()
            status = r.status
            kind = r.headers.get("content-type", "")
    except urllib.error.HTTPError as e:
        out, status, kind = e.read(), e.code, e.headers.get("content-type", "")
    return status, json.loads(out) if "json" in kind else out


class DeskClient:
    """The director of one event, over HTTP."""

    def __init__(self, base: str, created: dict[str, Any]) -> None:
        self.base = base
        self.id = created["id"]
        self.token = created["token"]

    def do(self, action: str, body: Any = None, raw: bytes | None = None) -> tuple[int, Any]:
        return call(self.base, "POST", f"/api/tournaments/{self.id}/desk/{action}", body if body is not None else {},
                    self.token, raw)

    def ok(self, action: str, body: Any = None, raw: bytes | None = None) -> dict[str, Any]:
        status, out = self.do(action, body, raw)
        assert status == 200, out
        return dict(out)

    def desk(self) -> dict[str, Any]:
        status, out = call(self.base, "GET", f"/api/tournaments/{self.id}/desk", token=self.token)
        assert status == 200, out
        return dict(out)

    def public(self) -> dict[str, Any]:
        status, out = call(self.base, "GET", f"/api/tournaments/{self.id}")
        assert status == 200, out
        return dict(out)


def new_event(base: str, **kw: Any) -> DeskClient:
    spec = {"name": "Torneo del giovedì", "date": "2026-12-03", "rounds": 2, "movements": "mitchell,danish",
            "hands": 3, "director": "Maria", **kw}
    status, out = call(base, "POST", "/api/tournaments", spec)
    assert status == 201, out
    assert out["links"]["desk"] == f"/tournament/{out['id']}/desk#d={out['token']}"
    return DeskClient(base, out)


def register_pairs(d: DeskClient) -> None:
    for a, b in PAIRS:
        d.ok("register", {"name": f"{a} – {b}", "people": [{"name": a, "club": "Circolo"}, b]})


def line_call(d: DeskClient, link: str, action: str | None = None, body: Any = None) -> tuple[int, Any]:
    tok = link.split("#t=")[1]
    if action is None:
        return call(d.base, "GET", f"/api/tournaments/{d.id}/line", token=tok)
    return call(d.base, "POST", f"/api/tournaments/{d.id}/line/{action}", body, tok)


def sheet(clean: int = 0, closing: bool = False, melds: int = 0, hand: int = 0, pozzetto: bool = True) -> dict[str, Any]:
    return {"clean": clean, "semiclean": 0, "dirty": 0, "closing": closing, "melds": melds, "hand": hand,
            "pozzetto": pozzetto}


NS_WIN = sheet(clean=1, closing=True, melds=105, hand=20)  # 385
EW_LOSE = sheet(melds=75, hand=70)  # 5


def wait_for(pred: Any, what: str, timeout: float = 90.0) -> Any:
    deadline = time.monotonic() + timeout
    while True:
        got = pred()
        if got:
            return got
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.2)


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def server(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ThreadServer]:
    """One server for the module's tests, on SQLite and again on PostgreSQL (skipped, saying so, where no
    PostgreSQL server answers: server_support.PG_HOST)."""
    with (database(request.param, tmp_path_factory.mktemp("db") / "tournament.sqlite3") as url,
          thread_server(fast_config(url)) as s):
        yield s


def test_create_refuses_bad_setups(server: ThreadServer) -> None:
    for spec, words in [
        ({"name": ""}, "needs a name"),
        ({"name": "X", "hands": 7}, "2, 3, 4 or 5 hands"),
        ({"name": "X", "movements": "mitchell,swiss", "rounds": 2}, "unknown movement 'swiss'"),
        ({"name": "X", "hands": "three"}, "whole number"),
        ({"name": "X", "colour": "red"}, "unknown field(s) colour"),
        ({"name": "X", "hands": 2}, "no shipped VP table for 2-hand rounds"),
        ({"name": "X", "vp_table": {"rows": [{"max_diff": 10, "winner": 10, "loser": 10},
                                             {"max_diff": 5, "winner": 11, "loser": 9}]}}, "VP table"),
    ]:
        status, out = call(server.url, "POST", "/api/tournaments", spec)
        assert status == 400, (spec, out)
        assert words in out["message"], (spec, out)
    status, out = call(server.url, "POST", "/api/tournaments", raw=b"{nope")
    assert status == 400 and out["error"] == "bad_json"
    status, out = call(server.url, "GET", "/api/tournaments/doesnotexist")
    assert status == 404 and "no event" in out["message"]


def test_registration_csv_and_refusals_change_nothing(server: ThreadServer) -> None:
    d = new_event(server.url)
    register_pairs(d)
    before = d.desk()
    assert [e["name"] for e in before["entrants"]] == [f"{a} – {b}" for a, b in PAIRS]
    for body, words in [
        ({"name": "Anna – Bruno", "people": ["Zeno", "Yara"]}, "already registered"),
        ({"name": "New pair", "people": ["Anna", "Yara"]}, "Anna is already registered"),
        ({"name": "Trio", "people": ["A", "B", "C"]}, "a pair is two players, not 3"),
        ({"name": "Nobody", "people": "Zeno"}, "'people' lists the players"),
    ]:
        status, out = d.do("register", body)
        assert status == 400 and words in out["message"], (body, out)
    status, out = d.do("withdraw", {"entrant": "9"})
    assert status == 400 and "no entrant '9'" in out["message"]
    # a CSV with one bad row registers nothing
    bad = "entrant,name,club,member\nLuca – Marta,Luca,,\nLuca – Marta,Marta,,\nNino – Anna,Nino,,\nNino – Anna,Anna,,\n"
    status, out = d.do("import", raw=bad.encode())
    assert status == 400 and "Anna is already registered" in out["message"]
    assert d.desk()["entrants"] == before["entrants"]
    status, out = d.do("import", raw=b"who,what\nx,y\n")
    assert status == 400 and "needs the columns entrant,name" in out["message"]
    status, out = d.do("import", raw=b"")
    assert status == 400 and "no rows" in out["message"]
    good = "entrant,name,club,member\nLuca – Marta,Luca,Circolo,123\nLuca – Marta,Marta,,\n"
    after = d.ok("import", raw=good.encode())
    assert after["entrants"][-1]["players"] == ["Luca", "Marta"]
    status, csv_text = call(server.url, "GET", f"/api/tournaments/{d.id}/print/participants.csv", token=d.token)
    assert status == 200 and b"Luca,Circolo,123" in csv_text
    status, out = call(server.url, "GET", f"/api/tournaments/{d.id}/print/participants.csv")
    assert status == 401
    d.ok("withdraw", {"entrant": "5"})
    # the wrong token, no token: refused
    status, out = call(server.url, "GET", f"/api/tournaments/{d.id}/desk", token="not-the-token")
    assert status == 403 and "director" in out["message"]
    status, out = call(server.url, "POST", f"/api/tournaments/{d.id}/desk/register", {"name": "x", "people": []})
    assert status == 401
    status, out = d.do("fly")
    assert status == 404


def test_round_online_and_physical_tables(server: ThreadServer) -> None:
    d = new_event(server.url)
    register_pairs(d)
    status, out = d.do("start", {"online": [3]})
    assert status == 400 and "tables 1–2, not 3" in out["message"]
    assert d.desk()["rounds"] == []
    desk = d.ok("start", {"online": [1], "computers": {"1": ALL_COMPUTERS}})
    status, out = d.do("start", {})
    assert status == 400 and "still in play" in out["message"]
    r1 = desk["rounds"][0]
    t1, t2 = r1["tables"]
    assert t1["mode"] == "online" and t2["mode"] == "physical"
    assert t1["replaced"] == ALL_COMPUTERS
    assert set(t2["links"]) == {"NS", "EW"} and "watch" in t1["links"]
    # the public page: each participant's table, no secret links
    pub = d.public()
    assert pub["next"]["1"] == {"round": 1, "table": 1, "line": "NS"}
    assert pub["next"]["4"] == {"round": 1, "table": 2, "line": "EW"}
    assert "links" not in json.dumps(pub["rounds"]) and d.token not in json.dumps(pub)
    # physical table 2: a wrong entry is refused with the rule it breaks, nothing changes
    ns_link, ew_link = t2["links"]["NS"], t2["links"]["EW"]
    status, out = line_call(d, ns_link, "enter", {"hand": 1, "ns": sheet(melds=103), "ew": EW_LOSE})
    assert status == 400 and "not a multiple of 5" in out["message"]
    status, out = line_call(d, ns_link, "enter", {"hand": 1, "ns": NS_WIN, "ew": sheet(closing=True, clean=1,
                                                                                          melds=100)})
    assert status == 400 and "only one line can close" in out["message"]
    status, out = line_call(d, ns_link, "enter", {"hand": 2, "ns": NS_WIN, "ew": EW_LOSE})
    assert status == 400 and "enter hand 1" in out["message"]
    status, out = line_call(d, ns_link)
    assert status == 200 and out["table"]["sheets"] == [] and out["line"] == "NS"
    status, out = line_call(d, ns_link, "enter", {"hand": 1, "ns": NS_WIN, "ew": EW_LOSE})
    assert status == 200 and out["table"]["sheets"][0]["counts"] is False
    status, out = line_call(d, ns_link, "confirm", {"hand": 1})
    assert status == 400 and "the other line countersigns" in out["message"]
    status, out = line_call(d, ew_link, "confirm", {"hand": 1})
    assert status == 200 and out["table"]["sheets"][0]["counts"] is True
    status, out = line_call(d, ew_link, "enter", {"hand": 1, "ns": EW_LOSE, "ew": NS_WIN})
    assert status == 400 and "already countersigned" in out["message"]
    status, out = line_call(d, "x#t=forged", "enter", {"hand": 2, "ns": NS_WIN, "ew": EW_LOSE})
    assert status == 403
    for h in (2, 3):
        assert line_call(d, ew_link, "enter", {"hand": h, "ns": EW_LOSE, "ew": NS_WIN})[0] == 200
        assert line_call(d, ns_link, "confirm", {"hand": h})[0] == 200
    status, out = d.do("close")
    assert status == 400 and "cannot close" in out["message"]  # the online table is still playing
    # the online table's hands flow in by themselves
    done = wait_for(lambda: (x := d.public())["rounds"][0]["tables"][0]["counted"] == 3 and x, "the online table")
    online = done["rounds"][0]["tables"][0]
    assert online["live"] is not None and online["live"]["hand"] >= 3
    assert all(s["entered_by"] == "online" and s["counts"] for s in online["sheets"])
    assert online["mp"][0] == sum(s["ns_total"] for s in online["sheets"])
    # the director corrects a sheet: kept with who made it and why; the reason is required
    status, out = d.do("correct", {"round": 1, "table": 2, "hand": 3, "ns": EW_LOSE, "ew": NS_WIN, "reason": ""})
    assert status == 400 and "says why" in out["message"]
    fixed = d.ok("correct", {"round": 1, "table": 2, "hand": 3, "ns": EW_LOSE, "ew": NS_WIN,
                             "reason": "EW swapped the lines"})
    s3 = fixed["rounds"][0]["tables"][1]["sheets"][2]
    assert s3["corrected_by"] == [["director:Maria", "EW swapped the lines"]]
    closed = d.ok("close")
    assert closed["rounds"][0]["closed"] and closed["can_start"]
    # the results mark the seats computer players played
    marks = {(r["entrant"], r["round"]): r["computers"] for r in closed["results"]}
    assert marks[("1", 1)] == {"N": EASY, "S": EASY} and marks[("2", 1)] == {"E": EASY, "W": EASY}
    assert marks[("3", 1)] == {} and marks[("4", 1)] == {}
    # the standings are the event's own, recomputed from its log independently of the server
    ev = Event.create("check", rounds=2, movements="mitchell,danish", hands=3)
    for a, b in PAIRS:
        ev.register(f"{a} – {b}", [a, b])
    ev.start_round()
    from burraco.tournament import LineScore

    for t in closed["rounds"][0]["tables"]:
        for s in t["sheets"]:
            ev.enter_hand(t["table"], s["hand"], LineScore(**s["ns"]), LineScore(**s["ew"]), by="online")
    ev.close_round()
    assert [(s.entrant.id, s.vp, s.mp_for) for s in ev.standings()] == [
        (s["entrant"], s["vp"], s["mp_for"]) for s in closed["standings"]]
    # printouts: the standings as PDF (text checked), HTML, CSV
    pypdf = pytest.importorskip("pypdf")
    status, pdf = call(server.url, "GET", f"/api/tournaments/{d.id}/print/standings.pdf?lang=it")
    assert status == 200 and pdf[:5] == b"%PDF-"
    text = "".join(p.extract_text() for p in pypdf.PdfReader(io.BytesIO(pdf)).pages)
    assert "Anna – Bruno" in text or "Anna" in text
    assert "Classifica" in text
    status, html = call(server.url, "GET", f"/api/tournaments/{d.id}/print/pairings.html?round=1&lang=en")
    assert status == 200 and b"Pairings of round 1" in html
    status, csv_b = call(server.url, "GET", f"/api/tournaments/{d.id}/print/standings.csv")
    assert status == 200 and csv_b.startswith(b"rank,")
    status, out = call(server.url, "GET", f"/api/tournaments/{d.id}/print/nothing.pdf")
    assert status == 404
    # the second round (Danish) starts from the standings; a third is refused
    d.ok("start", {})
    status, out = d.do("start", {})
    assert status == 400


@pytest.mark.parametrize("db_kind", ["sqlite", "postgresql"])
def test_timeout_reaches_every_online_table(db_kind: str, tmp_path: Path) -> None:
    with (database(db_kind, tmp_path / "timeout.sqlite3") as db,
          thread_server(fast_config(db, bot_delay=0.05)) as srv):
        d = new_event(srv.url, rounds=1, movements="mitchell")
        register_pairs(d)
        status, out = d.do("timeout")
        assert status == 400 and "no round is in play" in out["message"]
        d.ok("start", {"online": "all", "computers": {"1": ALL_COMPUTERS, "2": ALL_COMPUTERS}})
        time.sleep(0.5)
        out = d.ok("timeout")
        assert out["clock"]["timeout_at"] is not None
        status, again = d.do("timeout")
        assert status == 400 and "announced already" in again["message"]
        def all_complete() -> dict[str, Any] | None:
            x = d.public()
            return x if all(t["complete"] for t in x["rounds"][0]["tables"]) else None

        # a ceiling: the hand of the time-out is played to its end by computers, slow on a loaded machine
        done = wait_for(all_complete, "every online table to end its round after the time-out", timeout=150)
        for t in done["rounds"][0]["tables"]:
            # the hand of the time-out ended the table's match (or the table was between hands: it stopped)
            assert t["counted"] <= 1 and (t["timeout_hand"] == t["counted"] or t["finished"]), json.dumps(t)[:3000]
            assert not t["finishing"]
        closed = d.ok("close")
        # the online tables deal no more, and each table's record says what the event counted (RULES.md §0.1)
        time.sleep(0.5)
        for t in closed["rounds"][0]["tables"]:
            status, info = call(srv.url, "GET", f"/api/tables/{t['table_id']}")
            assert status == 200 and info["status"] == "finished" and info["event"] == d.id, info
            if not t["counted"]:
                continue
            mine = sorted(r["vp"] for r in closed["results"] if r["table"] == t["table"])
            status, games = call(srv.url, "GET", f"/api/tables/{t['table_id']}/games")
            assert status == 200 and len(games["games"]) == 1, games
            assert sorted(games["games"][0]["vp"].values()) == mine
            status, rec = call(srv.url, "GET", f"/api/tables/{t['table_id']}/games/0/record")
            assert status == 200 and len(rec["hands"]) == t["counted"], rec
            m = replay_match(rec)
            assert list(m.totals) == t["mp"]
            if t["timeout_hand"]:  # the record alone says the match ended with the hand of the time-out
                assert m.timed_out and sorted(m.vp() or ()) == mine, (mine, m.vp())


@pytest.mark.parametrize("db_kind", ["sqlite", "postgresql"])
def test_restart_mid_round_resumes_clock_entries_and_tables(db_kind: str, tmp_path: Path) -> None:
    with database(db_kind, tmp_path / "restart.sqlite3") as db:
        _restart_mid_round(db)


def _restart_mid_round(db: str) -> None:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    env = {"BURRACO_BOT_DELAY": "0.2", "BURRACO_COMPUTER_DELAY": "0.2"}
    proc = server_process(db, port, env)
    try:
        d = new_event(base, minutes=40)
        register_pairs(d)
        desk = d.ok("start", {"online": [1], "computers": {"1": ALL_COMPUTERS}})
        phys = desk["rounds"][0]["tables"][1]["links"]
        assert line_call(d, phys["NS"], "enter", {"hand": 1, "ns": NS_WIN, "ew": EW_LOSE})[0] == 200
        assert line_call(d, phys["EW"], "confirm", {"hand": 1})[0] == 200
        assert line_call(d, phys["NS"], "enter", {"hand": 2, "ns": NS_WIN, "ew": EW_LOSE})[0] == 200
        before = d.desk()
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=10)
        if proc.stderr is not None:
            proc.stderr.close()
    proc = server_process(db, port, env)
    try:
        after = d.desk()
        r0, r1 = before["rounds"][0], after["rounds"][0]
        assert after["clock"]["started_at"] == before["clock"]["started_at"]
        assert after["clock"]["ends_at"] == before["clock"]["ends_at"] and after["clock"]["ends_at"] is not None
        assert r1["tables"][1]["sheets"] == r0["tables"][1]["sheets"]  # the entries, countersigned or not
        assert r1["tables"][1]["links"] == r0["tables"][1]["links"]
        assert r1["tables"][0]["links"] == r0["tables"][0]["links"]  # the same online table
        # the hand waiting for its countersignature is still waiting, and the other line's link still works
        assert line_call(d, phys["EW"], "confirm", {"hand": 2})[0] == 200
        # the online table resumed by itself and its hands still flow in; the time-out still reaches it
        d.ok("timeout")
        done = wait_for(lambda: (x := d.public())["rounds"][0]["tables"][0]["complete"] and x,
                        "the resumed online table", timeout=60)
        assert done["clock"]["timeout_at"] is not None
        assert line_call(d, phys["NS"], "enter", {"hand": 3, "ns": NS_WIN, "ew": EW_LOSE})[0] == 200
        assert line_call(d, phys["EW"], "confirm", {"hand": 3})[0] == 200
        assert d.ok("close")["rounds"][0]["closed"]
    finally:
        proc.kill()
        proc.wait(timeout=10)
        if proc.stderr is not None:
            proc.stderr.close()


def test_no_show_replaced_by_a_computer_and_bad_round_input(server: ThreadServer) -> None:
    d = new_event(server.url)
    register_pairs(d)
    for body, words in [
        ({"online": "some"}, "'online' lists the numbers"),
        ({"online": [2], "computers": {"1": {"N": EASY}}}, "online tables only, not at table 1"),
        ({"online": [1], "computers": {"1": {"X": EASY}}}, "a seat is N, E, S or W"),
        ({"online": [1], "computers": {"1": {"N": "grandmaster"}}}, "unknown computer level"),
    ]:
        status, out = d.do("start", body)
        assert status == 400 and words in out["message"], (body, out)
    assert d.desk()["rounds"] == []
    desk = d.ok("start", {"online": [1]})
    t1 = desk["rounds"][0]["tables"][0]
    assert set(t1["links"]) == {"N", "E", "S", "W", "watch"}
    table_id = t1["table_id"]
    status, info = call(server.url, "GET", f"/api/tables/{table_id}")
    assert [s["name"] for s in info["seats"]] == ["Anna", "Carla", "Bruno", "Dario"]  # N E S W
    assert info["status"] == "waiting"  # the participants have not opened their links yet
    for body, words in [
        ({"table": 2, "seat": "N"}, "physical table"),
        ({"table": 1, "seat": "Q"}, "a seat is N, E, S or W"),
        ({"table": 9, "seat": "N"}, "has no table 9"),
        ({"table": 1, "seat": "N", "level": "grandmaster"}, "unknown computer level"),
    ]:
        status, out = d.do("replace", body)
        assert status == 400 and words in out["message"], (body, out)
    status, out = d.do("finish", {"table": 2})
    assert status == 400 and "unless the time-out is announced" in out["message"]
    status, out = d.do("correct", {"round": 1, "table": 2, "hand": 1, "ns": {"melds": 7}, "ew": {}, "reason": "x"})
    assert status == 400 and "not a multiple of 5" in out["message"]
    assert d.desk()["rounds"][0]["tables"][1]["sheets"] == []
    for seat in "NESW":
        d.ok("replace", {"table": 1, "seat": seat, "level": EASY})
    status, info = call(server.url, "GET", f"/api/tables/{table_id}")
    assert all(s["kind"] == "computer" for s in info["seats"])
    pub = d.public()
    assert pub["rounds"][0]["tables"][0]["replaced"] == ALL_COMPUTERS
    # the table starts once every seat is taken, and its hands reach the event
    wait_for(lambda: d.public()["rounds"][0]["tables"][0]["counted"] >= 1, "the replaced table's first hand")


def test_pages_and_their_texts_in_every_language(server: ThreadServer) -> None:
    from burraco.messages import LANGS, msg, render
    from burraco.server.director_routes import page_texts

    for path in ("/tournament/new", "/tournament/abc", "/tournament/abc/desk", "/tournament/abc/score"):
        status, body = call(server.url, "GET", path)
        assert status == 200 and b"/static/director.js" in body
    status, js = call(server.url, "GET", "/static/director.js")
    assert status == 200 and b"/api/tournament-texts/" in js
    for lang in LANGS:
        status, texts = call(server.url, "GET", f"/api/tournament-texts/{lang}")
        assert status == 200 and texts == page_texts(lang)
        assert texts["desk_start"] == render(msg("desk_start", n="{n}"), lang) and "{n}" in texts["desk_start"]
        # every code the page uses is served
        used = set(__import__("re").findall(r'\bt\("(\w+)"', js.decode()))
        assert used <= set(texts), used - set(texts)
    assert page_texts("it")["desk_timeout"] == "Annuncia il time-out"
    status, out = call(server.url, "GET", "/api/tournament-texts/xx")
    assert status == 404


def test_online_hands_reach_the_store_with_nobody_looking(tmp_path: Path) -> None:
    import sqlite3

    path = tmp_path / "follow.sqlite3"
    with thread_server(fast_config(sqlite_url(path))) as srv:
        d = new_event(srv.url, rounds=1, movements="mitchell")
        register_pairs(d)
        desk = d.ok("start", {"online": "all", "computers": {"1": ALL_COMPUTERS, "2": ALL_COMPUTERS}})
        ids = [t["table_id"] for t in desk["rounds"][0]["tables"]]
        # watch only the browser tables themselves (their own API), never the event
        wait_for(lambda: all(call(srv.url, "GET", f"/api/tables/{i}")[1]["status"] == "finished" for i in ids),
                 "both online tables to finish their match")

        def stored_hands() -> int:
            with sqlite3.connect(path) as db:
                rows = db.execute("SELECT data FROM tournament_entries WHERE tournament_id = ?", (d.id,)).fetchall()
            return sum(1 for (data,) in rows if json.loads(data)["type"] == "hand")

        wait_for(lambda: stored_hands() == 6, "the six hands in the event's log", timeout=20)
        assert d.ok("close")["rounds"][0]["closed"]


def test_team_and_individual_events(server: ThreadServer) -> None:
    teams = new_event(server.url, kind="teams", rounds=1, movements="round_robin")
    for k in range(2):
        teams.ok("register", {"name": f"Squadra {k + 1}", "people": [f"T{k}P{i}" for i in range(4)]})
    status, out = teams.do("lineup", {"team": "1", "pairs": [[0, 0], [1, 2]]})
    assert status == 400 and "at most once" in out["message"]
    status, out = teams.do("lineup", {"team": "1", "pairs": "0,1"})
    assert status == 400 and "'pairs' lists" in out["message"]
    teams.ok("lineup", {"team": "1", "pairs": [[0, 2], [1, 3]]})
    desk = teams.ok("start", {})
    tabs = desk["rounds"][0]["tables"]
    assert len(tabs) == 2 and {t["match"] for t in tabs} == {1}
    assert ["T0P0", "T0P2"] in [t["ns"]["players"] for t in tabs] + [t["ew"]["players"] for t in tabs]
    solo = new_event(server.url, kind="individual", rounds=1, movements="individual")
    for name in ("Anna", "Bruno", "Carla", "Dario"):
        solo.ok("register", {"name": name, "people": [name]})
    desk = solo.ok("start", {"online": [1]})
    t1 = desk["rounds"][0]["tables"][0]
    status, info = call(server.url, "GET", f"/api/tables/{t1['table_id']}")
    seated = {s["seat"]: s["name"] for s in info["seats"]}
    assert [seated["N"], seated["S"]] == t1["ns"]["players"] and [seated["E"], seated["W"]] == t1["ew"]["players"]


def test_timeout_at_tables_not_playing_a_hand(server: ThreadServer) -> None:
    """Online tables whose players never came (nobody dealt a hand): the time-out ends their round with no hands
    (a draw), and the round can close."""
    d = new_event(server.url, rounds=1, movements="mitchell")
    register_pairs(d)
    d.ok("start", {"online": "all"})
    d.ok("timeout")
    pub = d.public()
    assert all(t["finished"] and t["counted"] == 0 for t in pub["rounds"][0]["tables"])
    closed = d.ok("close")
    assert {r["vp"] for r in closed["results"]} == {10}  # 0 – 0: the VP table's draw


@pytest.mark.parametrize("db", ["sqlite", "postgresql"])
def test_after_a_restart_online_hands_flow_in_from_the_start(db: str, tmp_path: Path) -> None:
    """The server is killed just after a round starts at online tables; restarted, it follows them from its start:
    their hands reach the event's stored log though nobody opens the event (nor the tables) again."""
    import asyncio

    async def stored_hands(url: str, tid: str) -> int:
        store = Store(url)
        try:
            row = await TournamentStore(store).load(tid)
        finally:
            await store.close()
        assert row is not None
        return sum(1 for e in row.entries if e["type"] == "hand")

    with database(db, tmp_path / "resume.sqlite3") as url:
        port = free_port()
        env = {"BURRACO_BOT_DELAY": "0.02", "BURRACO_COMPUTER_DELAY": "0.02"}
        proc = server_process(url, port, env)
        try:
            d = new_event(f"http://127.0.0.1:{port}", rounds=1, movements="mitchell")
            register_pairs(d)
            d.ok("start", {"online": "all", "computers": {"1": ALL_COMPUTERS, "2": ALL_COMPUTERS}})
            os.kill(proc.pid, signal.SIGKILL)
            proc.wait(timeout=10)
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait(timeout=10)
            if proc.stderr is not None:
                proc.stderr.close()
        before = asyncio.run(stored_hands(url, d.id))
        assert before < 6
        proc = server_process(url, port, env)
        try:
            wait_for(lambda: asyncio.run(stored_hands(url, d.id)) == 6, "the six hands in the stored log",
                     timeout=120)
        finally:
            proc.kill()
            proc.wait(timeout=10)
            if proc.stderr is not None:
                proc.stderr.close()


def test_refusals_in_the_readers_language(server: ThreadServer) -> None:
    """The event's refusals are message codes of the catalogues: the desk answers in the page's language
    (``Accept-Language``, as the desk's pages send it, or ``?lang=``), English otherwise."""
    d = new_event(server.url)
    register_pairs(d)
    dup = {"name": "Anna – Bruno", "people": ["Anna", "Bruno"]}

    def refused(path: str, body: Any, lang: str | None = None) -> str:
        headers = {"Content-Type": "application/json", "Authorization": f"Bearer {d.token}"}
        if lang:
            headers["Accept-Language"] = lang
        req = urllib.request.Request(server.url + path, data=json.dumps(body).encode(), method="POST",
                                     headers=headers)
        with pytest.raises(urllib.error.HTTPError) as e:
            urllib.request.urlopen(req, timeout=30)
        out = json.loads(e.value.read())
        assert out["error"] == "refused", out
        return str(out["message"])

    reg = f"/api/tournaments/{d.id}/desk/register"
    assert refused(reg, dup) == "'Anna – Bruno' is already registered"
    assert refused(reg, dup, "it-IT,it;q=0.9") == "'Anna – Bruno' è già iscritto"
    assert refused(reg, dup, "de") == "'Anna – Bruno' ist bereits angemeldet"
    assert refused(reg + "?lang=nl", dup, "de") == "'Anna – Bruno' is al ingeschreven"
    assert refused(reg, dup, "pt-BR") == "'Anna – Bruno' já está inscrito"
    assert refused(reg, dup, "fr") == "'Anna – Bruno' is already registered"  # no catalogue: English
    # a refusal of the score sheet (burraco.tournament.scoring) travels the same way, with its parameters
    d.ok("start", {})
    link = d.desk()["rounds"][0]["tables"][0]["links"]["NS"]
    tok = link.split("#t=")[1]
    req = urllib.request.Request(
        server.url + f"/api/tournaments/{d.id}/line/enter",
        data=json.dumps({"hand": 1, "ns": {**NS_WIN, "melds": 103}, "ew": EW_LOSE}).encode(), method="POST",
        headers={"Content-Type": "application/json", "Authorization": f"Bearer {tok}", "Accept-Language": "it"})
    with pytest.raises(urllib.error.HTTPError) as e:
        urllib.request.urlopen(req, timeout=30)
    assert json.loads(e.value.read())["message"] == (
        "NS: Punti carte 103 non è un multiplo di 5 (ogni carta vale 5, 10, 15, 20 o 30)")
    # the desk's own refusals too (a correction form sent with its round left empty)
    headers = {"Content-Type": "application/json", "Authorization": f"Bearer {d.token}", "Accept-Language": "de"}
    req = urllib.request.Request(server.url + f"/api/tournaments/{d.id}/desk/correct", data=b"{}", method="POST",
                                 headers=headers)
    with pytest.raises(urllib.error.HTTPError) as e:
        urllib.request.urlopen(req, timeout=30)
    assert json.loads(e.value.read())["message"] == "'round' muss eine ganze Zahl sein"
    # and the director's link of another event is refused in the reader's language too
    status, out = call(server.url, "GET", f"/api/tournaments/{d.id}/desk", token="x" * 20)
    assert status == 403 and out["message"] == "this is not the director's link of this event"


def test_duplicate_event_online_tables_play_the_same_deals(server: ThreadServer) -> None:
    """A duplicate event (RULES.md §12): every online table of a round is dealt the round's hands, the procedure's
    deals of the event's 256-bit secret (docs/fairness.md), committed on the public page from the event's creation
    and revealed when it ends; its records then verify. A table of an ordinary event deals its own."""
    from burraco.fair import commitment, fair_deal, verify_record

    def deals_of(d: DeskClient, duplicate: bool) -> list[list[Any]]:
        desk = d.ok("start", {"online": "all", "computers": {"1": ALL_COMPUTERS, "2": ALL_COMPUTERS}})
        ids = [t["table_id"] for t in desk["rounds"][0]["tables"]]
        wait_for(lambda: all(call(server.url, "GET", f"/api/tables/{i}")[1]["status"] == "finished" for i in ids),
                 "both online tables to finish their match")
        if duplicate:  # a finished table's deals stay closed while another table of the round may play them
            for path in ("games", "games/0/record", "games/0/replay"):
                status, body = call(server.url, "GET", f"/api/tables/{ids[0]}/{path}")
                assert status == 403 and body["error"] == "sealed", body
            d.ok("close")
        out = []
        for i in ids:
            status, rec = call(server.url, "GET", f"/api/tables/{i}/games/0/record")
            assert status == 200, rec
            assert all(c.ok for c in verify_record(rec))  # every hand dealt exactly as committed
            out.append([h["deal"] for h in rec["hands"]])
        return out

    dup = new_event(server.url, rounds=1, movements="mitchell", duplicate=True, seed=4242)
    before = call(server.url, "GET", f"/api/tournaments/{dup.id}")[1]["deals"]
    assert before["secret"] is None and len(before["commitment"]) == 64
    register_pairs(dup)
    t1, t2 = deals_of(dup, True)
    assert len(t1) == 3 and t1 == t2  # the same three deals at both tables
    after = call(server.url, "GET", f"/api/tournaments/{dup.id}")[1]["deals"]
    secret = bytes.fromhex(after["secret"])
    assert commitment(secret) == before["commitment"] == after["commitment"]
    ev = Event.create("Torneo del giovedì", rounds=1, movements="mitchell", duplicate=True, seed=4242)
    assert t1 == [fair_deal(ev.rules, secret, f"event {dup.id} round 1", i, {}).to_json(("N", "E", "S", "W"))
                  for i in range(3)]
    plain = new_event(server.url, rounds=1, movements="mitchell", seed=4242)
    assert call(server.url, "GET", f"/api/tournaments/{plain.id}")[1]["deals"] is None
    register_pairs(plain)
    p1, p2 = deals_of(plain, False)
    assert p1[0] != p2[0] and p1[0] != t1[0]  # fresh deals at every table

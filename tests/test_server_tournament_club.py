"""The director's desk for a real club night (issue 40) against a real server: online tables that stop after the hand
of the time-out (RULES.md §0.1 "The time-out ends the match", issue 36), impossible sheets refused on every path
(§0.1 "Score sheets"), the paper-entry grid's entries, penalties and adjusted scores, the printouts and exports,
and the director's sign-in."""

from __future__ import annotations

import asyncio
import re
import time
from typing import Any

import pytest

from server_support import Client, fast_config, hint_player, sqlite_url, thread_server
from test_server_tournament import ALL_COMPUTERS, EASY, call, new_event, register_pairs, wait_for


# ----------------------------------------------------------------------------------------------------------------
# §0.1 "The time-out ends the match" at online tables
# ----------------------------------------------------------------------------------------------------------------
def test_0_1_finishing_an_online_table_during_the_hand_of_the_timeout_keeps_that_hand(tmp_path: Any) -> None:
    """Issue 36: the desk's *finish* on an online table while it plays the hand of the time-out threw that hand
    away (0–0, 10–10 VP). Now it is refused, and the hand, when it ends, is the table's result."""
    with thread_server(fast_config(sqlite_url(tmp_path / "finish.sqlite3"), bot_delay=0.6,
                                   computer_table_delay=0.6)) as srv:
        d = new_event(srv.url, rounds=1, movements="mitchell")
        register_pairs(d)
        d.ok("start", {"online": [1], "computers": {"1": ALL_COMPUTERS}})
        wait_for(lambda: (d.public()["rounds"][0]["tables"][0]["live"] or {}).get("playing"), "hand 1 under way")
        out = d.ok("timeout")
        t1 = out["rounds"][0]["tables"][0]
        assert t1["finishing"] and not t1["complete"]
        status, refused = d.do("finish", {"table": 1})
        assert status == 400 and "still playing the hand of the time-out (hand 1)" in refused["message"], refused
        status, refused = d.do("close")
        assert status == 400 and "online table(s) 1 are still playing" in refused["message"], refused
        done = wait_for(lambda: (x := d.public())["rounds"][0]["tables"][0]["complete"] and x,
                        "the hand of the time-out to end", timeout=120)
        t1 = done["rounds"][0]["tables"][0]
        assert t1["counted"] == 1 and t1["timeout_hand"] == 1 and not t1["finished"]
        assert t1["mp"] != [0, 0] and t1["mp"] == [t1["sheets"][0]["ns_total"], t1["sheets"][0]["ew_total"]]
        # the physical table 2 had played nothing: closing ends it (0 – 0), the online table deals no more
        closed = d.ok("close")
        time.sleep(1.0)
        status, info = call(srv.url, "GET", f"/api/tables/{t1['table_id']}")
        assert info["status"] == "finished" and info["games"] == 1
        status, games = call(srv.url, "GET", f"/api/tables/{t1['table_id']}/games")
        assert games["games"][0]["hands"] == 1
        vp = sorted(r["vp"] for r in closed["results"] if r["table"] == 1)
        assert sorted(games["games"][0]["vp"].values()) == vp


def test_0_1_an_online_table_between_two_hands_at_the_timeout_deals_no_more(tmp_path: Any) -> None:
    """A table whose players are between hands 1 and 2 when the time-out comes plays no further hand: its match
    ends with hand 1 (VP from the 3-hand table), the end-of-match panel's scoreboard says so, no rematch."""
    cfg = fast_config(sqlite_url(tmp_path / "between.sqlite3"), between_hands=600.0)
    with thread_server(cfg) as srv:
        d = new_event(srv.url, rounds=1, movements="mitchell")
        register_pairs(d)
        desk = d.ok("start", {"online": [1], "computers": {"1": {s: EASY for s in "ESW"}}})
        t1 = desk["rounds"][0]["tables"][0]
        token = t1["links"]["N"].split("#t=")[1]

        async def play_one_hand() -> Client:
            c = await Client.open(srv.ws_url)
            await c.hello(t1["table_id"], token)
            await hint_player(c, until="hand_end")
            return c

        async def scenario() -> dict[str, Any]:
            c = await play_one_hand()
            try:
                out = await asyncio.to_thread(d.ok, "timeout")
                end = await c.until(lambda m: m["type"] == "event" and m["kind"] == "game_end")
                state = await c.until(lambda m: m["type"] == "state" and m["table"]["status"] == "finished")
                await c.send({"type": "rematch"})
                refusal = await c.until("error")
                return {"desk": out, "end": end, "state": state, "refusal": refusal}
            finally:
                await c.close()

        got = asyncio.run(asyncio.wait_for(scenario(), 180))
        summary = got["end"]["data"]["summary"]
        assert summary["stopped"] and summary["timed_out"] and got["end"]["data"]["hands"] == 1
        sb = got["state"]["scoreboard"]
        assert sb["over"] and sb["timed_out"] and sb["vp"] == summary["vp"]
        assert "director starts the next round" in got["refusal"]["message"]
        pub = wait_for(lambda: (x := d.public())["rounds"][0]["tables"][0]["complete"] and x, "table 1 finished")
        t = pub["rounds"][0]["tables"][0]
        assert t["finished"] and t["counted"] == 1 and t["timeout_hand"] is None
        ns, ew = t["mp"]
        assert [summary["totals"]["NS"], summary["totals"]["EW"]] == [ns, ew]
        closed = d.ok("close")
        vps = {r["line"]: r["vp"] for r in closed["results"] if r["table"] == 1}
        assert vps == {"NS": summary["vp"]["NS"], "EW": summary["vp"]["EW"]}
        status, info = call(srv.url, "GET", f"/api/tables/{t1['table_id']}")
        assert info["status"] == "finished" and info["event"] == d.id


# ----------------------------------------------------------------------------------------------------------------
# §0.1 "Score sheets": every impossible sheet refused on every path of the server
# ----------------------------------------------------------------------------------------------------------------
def test_0_1_score_sheets_refused_on_every_path_of_the_desk(tmp_path: Any) -> None:
    from burraco.tournament import Event, printouts
    from test_tournament_club import IMPOSSIBLE, LOSE, WIN

    with thread_server(fast_config(sqlite_url(tmp_path / "sheets.sqlite3"))) as srv:
        d = new_event(srv.url, rounds=1, movements="mitchell")
        register_pairs(d)
        desk = d.ok("start", {})
        links = desk["rounds"][0]["tables"][0]["links"]
        cols = printouts.sheets_csv(Event.create("x")).splitlines()[0].split(",")

        def csv_of(ns: Any, ew: Any) -> bytes:
            vals = {"round": 1, "table": 1, "hand": 1}
            for ln, s in (("ns", ns), ("ew", ew)):
                vals |= {f"{ln}_{k}": str(v).lower() for k, v in s.to_json().items()}
            return (",".join(cols) + "\n" + ",".join(str(vals.get(c, "")) for c in cols) + "\n").encode()

        for ns, ew, why in IMPOSSIBLE:
            body = {"table": 1, "hand": 1, "ns": ns.to_json(), "ew": ew.to_json()}
            answers = [
                call(d.base, "POST", f"/api/tournaments/{d.id}/line/enter", body, links["NS"].split("#t=")[1]),
                d.do("enter", body), d.do("check", body), d.do("import_sheets", raw=csv_of(ns, ew)),
            ]
            for status, out in answers:
                assert status == 400 and out["error"] == "refused", (why, out)
                assert re.search(why, out["message"]), (why, out["message"])
        assert d.desk()["rounds"][0]["tables"][0]["sheets"] == []
        # in the director's language: the Italian desk names the lines NS and EO
        status, out = call(d.base, "POST", f"/api/tournaments/{d.id}/desk/check?lang=it",
                           {"table": 1, "hand": 1, "ns": WIN.to_json(), "ew": {"hand": 2000}}, d.token)
        assert status == 400 and out["message"].startswith("EO: Punti in mano 2000"), out
        status, out = d.do("check", {"table": 1, "hand": 1, "ns": WIN.to_json(), "ew": LOSE.to_json()})
        assert status == 200 and (out["ns_total"], out["ew_total"]) == (385, 5)
        assert d.desk()["rounds"][0]["tables"][0]["sheets"] == []  # a check stores nothing
        out = d.ok("enter", {"table": 1, "hand": 1, "ns": WIN.to_json(), "ew": LOSE.to_json()})
        s1 = out["rounds"][0]["tables"][0]["sheets"][0]
        assert s1["counts"] and s1["entered_by"] == "director:Maria" and s1["confirmed_by"] == "director:Maria"
        for ns, ew, why in IMPOSSIBLE:
            status, out = d.do("correct", {"round": 1, "table": 1, "hand": 1, "ns": ns.to_json(), "ew": ew.to_json(),
                                           "reason": "typo"})
            assert status == 400 and re.search(why, out["message"]), (why, out)


# ----------------------------------------------------------------------------------------------------------------
# the desk's actions: the director's sheets, penalties, adjusted scores, the draw by lot, exports
# ----------------------------------------------------------------------------------------------------------------
def test_penalties_adjusted_scores_lots_and_exports_on_the_desk(tmp_path: Any) -> None:
    from test_tournament_club import LOSE, WIN

    with thread_server(fast_config(sqlite_url(tmp_path / "desk.sqlite3"))) as srv:
        d = new_event(srv.url, rounds=1, movements="mitchell", prizes="1", adjusted="bye")
        register_pairs(d)
        d.ok("start", {})
        for h in (1, 2, 3):
            d.ok("enter", {"table": 1, "hand": h, "ns": WIN.to_json(), "ew": LOSE.to_json()})
        status, out = d.do("enter", {"table": 1, "hand": 1, "ns": WIN.to_json(), "ew": LOSE.to_json()})
        assert status == 400 and "already countersigned" in out["message"]
        status, out = d.do("adjust", {"table": 2, "reason": ""})
        assert status == 400 and "says why" in out["message"]
        d.ok("adjust", {"table": 2, "reason": "a player was taken ill"})  # the event's convention: a bye each
        status, out = d.do("penalty", {"entrant": "1", "vp": 1, "reason": "slow play", "round": 1})
        assert status == 200, out
        closed = d.ok("close")
        t2 = closed["rounds"][0]["tables"][1]
        assert t2["adjusted"]["ns_vp"] == 14 and t2["complete"]
        assert {r["entrant"]: (r["vp"], r["adjusted"]) for r in closed["results"]} == {
            "1": (18, False), "2": (2, False), "3": (14, True), "4": (14, True)}
        st = {s["entrant"]: s for s in closed["standings"]}
        assert st["1"]["vp"] == 17 and st["1"]["penalty_vp"] == 1 and closed["penalties"][0]["reason"] == "slow play"
        # 3 and 4 level on everything (a bye each): they share a rank until the director draws
        assert st["3"]["tie"] == st["4"]["tie"] == "lot_pending" and st["3"]["rank"] == st["4"]["rank"] == 2
        status, out = d.do("lot", {"entrants": ["1", "2"], "draw": True})
        assert status == 400 and "still level after every other step" in out["message"]
        drawn = d.ok("lot", {"entrants": ["3", "4"], "draw": True})
        assert sorted(s["rank"] for s in drawn["standings"] if s["entrant"] in "34") == [2, 3]
        assert {s["tie"] for s in drawn["standings"] if s["entrant"] in "34"} == {"lot"}
        assert drawn["finished"] and not drawn["can_start"]
        assert drawn["prizes"] == [{"category": "", "winners": [{"place": 1, "entrant": "1"}]}]
        # the director's files: members' numbers and the whole log need his token
        for path in (f"/api/tournaments/{d.id}/print/federation.csv", f"/api/tournaments/{d.id}/event.json"):
            assert call(srv.url, "GET", path)[0] == 401
            status, body = call(srv.url, "GET", path, token=d.token)
            assert status == 200, body
        status, body = call(srv.url, "GET", f"/api/tournaments/{d.id}/event.json", token=d.token)
        from burraco.tournament import Event

        again = Event.from_json(body)
        assert [s.entrant.id for s in again.standings()] == [s["entrant"] for s in drawn["standings"]]
        status, body = call(srv.url, "GET", f"/api/tournaments/{d.id}/print/federation.csv", token=d.token)
        assert body.decode().splitlines()[1].startswith("Torneo del giovedì,2026-12-03,pairs,1,4,1,1,Anna – Bruno")
        for doc in ("final.pdf", "tablecards.pdf", "namecards.pdf", "standings.html"):
            status, body = call(srv.url, "GET", f"/api/tournaments/{d.id}/print/{doc}?lang=it")
            assert status == 200 and len(body) > 500, doc


def test_final_results_and_the_comparison_wait_for_their_rounds(tmp_path: Any) -> None:
    with thread_server(fast_config(sqlite_url(tmp_path / "dup.sqlite3"))) as srv:
        d = new_event(srv.url, rounds=2, movements="mitchell,danish", duplicate=True)
        register_pairs(d)
        d.ok("start", {})
        status, out = call(srv.url, "GET", f"/api/tournaments/{d.id}/print/final.pdf?lang=en")
        assert status == 400 and "once round 2 of 2 is closed (0 closed so far)" in out["message"]
        status, out = call(srv.url, "GET", f"/api/tournaments/{d.id}/compare")
        assert status == 200 and out == {"rounds": []}  # round 1 is in play: nothing public yet
        status, out = call(srv.url, "GET", f"/api/tournaments/{d.id}/compare", token=d.token)
        assert status == 200 and [r["round"] for r in out["rounds"]] == [1]
        status, out = call(srv.url, "GET", f"/api/tournaments/{d.id}/print/compare.pdf?round=1")
        assert status == 400 and "once it is closed" in out["message"]
        status, out = call(srv.url, "GET", f"/api/tournaments/{d.id}/compare", token="forged")
        assert status == 403


# ----------------------------------------------------------------------------------------------------------------
# item 11: creating an event needs a director's sign-in on a public server
# ----------------------------------------------------------------------------------------------------------------
def test_creating_an_event_needs_the_directors_password_where_the_server_asks(tmp_path: Any) -> None:
    spec = {"name": "Torneo", "rounds": 1, "movements": "mitchell"}
    with thread_server(fast_config(sqlite_url(tmp_path / "a.sqlite3"), director_signin="on",
                                   director_password="s3cret")) as srv:
        assert call(srv.url, "GET", "/api/tournament-config")[1]["signin"] is True
        status, out = call(srv.url, "POST", "/api/tournaments", spec)
        assert status == 401 and "needs the directors' password" in out["message"]
        status, out = call(srv.url, "POST", "/api/tournaments", spec, token="guess")
        assert status == 403 and "not the directors' password" in out["message"]
        assert call(srv.url, "POST", "/api/tournaments", spec, token="s3cret")[0] == 201
        # guessing is slow: ten failures a minute from one address, then a wait (even for the right password)
        for _ in range(9):
            assert call(srv.url, "POST", "/api/tournaments", spec, token="guess")[0] == 403
        status, out = call(srv.url, "POST", "/api/tournaments", spec, token="s3cret")
        assert status == 429 and "wait a minute" in out["message"]
    # a public server with no password set: nobody can create one, and the refusal says how to set it
    with thread_server(fast_config(sqlite_url(tmp_path / "b.sqlite3"), public=True, director_password="")) as srv:
        status, out = call(srv.url, "POST", "/api/tournaments", spec, token="anything")
        assert status == 403 and "BURRACO_DIRECTOR_PASSWORD" in out["message"]
    # a server on this machine only (the default "auto"): anyone at the machine may
    with thread_server(fast_config(sqlite_url(tmp_path / "c.sqlite3"))) as srv:
        assert call(srv.url, "GET", "/api/tournament-config")[1]["signin"] is False
        assert call(srv.url, "POST", "/api/tournaments", spec)[0] == 201


def test_the_signin_setting_is_read_from_the_environment(monkeypatch: Any, tmp_path: Any) -> None:
    from burraco.server import ServerConfig

    secret = tmp_path / "password"
    secret.write_text("from-a-file\n")
    monkeypatch.setenv("BURRACO_DIRECTOR_PASSWORD_FILE", str(secret))
    monkeypatch.setenv("BURRACO_PUBLIC", "1")
    cfg = ServerConfig(db_url="sqlite+aiosqlite:///:memory:")
    assert cfg.director_password == "from-a-file" and cfg.signin_required
    monkeypatch.setenv("BURRACO_DIRECTOR_SIGNIN", "off")
    assert not ServerConfig(db_url="x").signin_required
    monkeypatch.setenv("BURRACO_DIRECTOR_SIGNIN", "maybe")
    with pytest.raises(ValueError, match="auto, on, off or account"):
        ServerConfig(db_url="x")

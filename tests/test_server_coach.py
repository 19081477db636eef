"""The coach at the browser table (server/coach.py, docs/protocol.md "The coach"): a finished game's analysis for the
seat a token holds, streamed with its progress, the same as ``burraco analyse`` of the record with the server's
budget and seed; kept in the store (asked again, or after a restart, it comes at once; the record download carries
it and still replays); refused for a token that holds no seat, a game not over, and past the limits (one analysis
at a time per user, per address, on the server), each refusal in the asked language."""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from burraco import replay
from burraco.analysis import Analysis, Decision, analyse
from burraco.coach import coach_lines, mark_line
from burraco.i18n import Translator
from burraco.messages import msg, render
from burraco.server.coach import SEED, merged
from server_support import (
    WAIT,
    Client,
    ThreadServer,
    create,
    fast_config,
    http,
    run,
    sqlite_url,
    thread_server,
)

ITERATIONS = 3
#: the server's measurement cap here (``BURRACO_COACH_CAP``): what is tested is the coach at the table (the stream,
#: the store, the limits), the same judgement as ``burraco analyse`` at the same settings; the statistics at the
#: default cap are test_analysis.py's, and a loss measured on 1,024 samples made these tests a minute longer
CAP = 64
HUMAN = {"kind": "human", "name": "Ada"}
EASY = {"kind": "computer", "level": "heuristic:easy"}


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("db") / "coach.sqlite3"


@pytest.fixture(scope="module")
def server(db: Path) -> Iterator[ThreadServer]:
    with thread_server(fast_config(sqlite_url(db), coach_iterations=ITERATIONS, coach_workers=2, coach_cap=CAP)) as s:
        yield s


def finished(server: ThreadServer, humans: int = 1, games: int = 1) -> dict[str, Any]:
    """An italian-2p table of one-hand games, ``humans`` human seats (N, then S) whose players join and go away at
    once (grace 0): the take-over computer (random: it blunders) plays them; ``games`` games played out (the
    first human asks for each rematch)."""
    seats = [HUMAN, {"kind": "human", "name": "Bea"} if humans == 2 else EASY]
    t = create(server.url, preset="italian-2p", hands=1, grace=0, takeover="random", seats=seats)

    async def go() -> None:
        watcher = await Client.open(server.ws_url)
        await watcher.hello(t["id"])
        for g in range(games):
            players = []
            for seat in list(t["tokens"])[: 1 if g else humans]:
                c = await Client.open(server.ws_url)
                await c.hello(t["id"], t["tokens"][seat])
                players.append(c)
            if g:
                await players[0].send({"type": "rematch"})
                await players[0].until(lambda m: m["type"] == "event" and m["kind"] == "game")
            for c in players:
                await c.close()
            await watcher.until(lambda m: m["type"] == "event" and m["kind"] == "game_end", 120)
        await watcher.close()

    run(go(), 150)
    return t


def marked_game(server: ThreadServer) -> tuple[dict[str, Any], Analysis]:
    """A game of :func:`finished` in which the coach marks at least one of N's decisions, and that judgement:
    ``burraco analyse`` of its record at the server's budget and seed, which gives the server's judgement (a short
    hand may have none; a few tries at most)."""
    for _ in range(6):
        t = finished(server)
        rec = record(server, t["id"], analysis=False)
        judged = analyse(rec, ["N"], iterations=ITERATIONS, seed=SEED, cap=CAP)
        if any(d.mark for d in judged.decisions):
            return t, judged
    raise AssertionError("six games without a marked decision of N")


def ask(server: ThreadServer, table: str, game: int, token: str | None, lang: str = "en") -> tuple[int, Any]:
    """POST the analysis request; the JSON lines of the answer (a list), or the refusal (a dict)."""
    headers = {} if token is None else {"Authorization": f"Bearer {token}"}
    req = urllib.request.Request(f"{server.url}/api/tables/{table}/games/{game}/analysis?lang={lang}",
                                 method="POST", headers=headers)
    try:
        with urllib.request.urlopen(req, timeout=WAIT * 3) as r:
            assert r.headers["Content-Type"].startswith("application/x-ndjson")
            return r.status, [json.loads(line) for line in r]
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


def record(server: ThreadServer, table: str, game: int = 0, analysis: bool = True) -> dict[str, Any]:
    status, rec = http("GET", f"{server.url}/api/tables/{table}/games/{game}/record" + ("" if analysis else
                                                                                         "?analysis=0"))
    assert status == 200, rec
    return dict(rec)


def test_a_finished_game_is_analysed_for_the_seat_held_with_its_progress_reproducibly(server: ThreadServer) -> None:
    t, want = marked_game(server)
    status, lines = ask(server, t["id"], 0, t["tokens"]["N"], lang="it")
    assert status == 200
    *progress, last = lines
    assert all(m["type"] == "progress" and m["seat"] == "N" and m["game_no"] == 0 for m in progress)
    # where it stands when asked (not started yet), then 0 of n once the worker knows n, then every decision
    total = progress[-1]["total"]
    assert total and [(m["done"], m["total"]) for m in progress] == [(0, None)] + [(i, total) for i in range(total + 1)]
    assert last["type"] == "analysis" and last["seat"] == "N" and last["lang"] == "it"
    # the judgement of burraco analyse on the downloaded record, with the server's budget and seed
    assert last["analysis"] == want.to_json()
    assert len(want.decisions) == total and all(d.seat == "N" for d in want.decisions)
    # the texts are the terminal coach's, in the asked language
    tr = Translator("it")
    marked = [d for d in want.decisions if d.mark is not None]
    assert marked
    assert last["notes"] == [{"hand": d.hand, "index": d.index, "text": mark_line(tr, d, 2)} for d in marked]
    assert last["hands"] == [{"hand": 0, "lines": coach_lines(tr, want.decisions, 0, 2, ITERATIONS)}]
    assert last["notes"][0]["text"].startswith("Il coach, ")


def test_the_analysis_is_kept_asked_again_after_a_restart_and_in_the_record(server: ThreadServer, db: Path) -> None:
    t = finished(server, humans=2)
    status, first = ask(server, t["id"], 0, t["tokens"]["N"])
    assert status == 200 and first[-1]["type"] == "analysis"
    t0 = time.monotonic()
    status, again = ask(server, t["id"], 0, t["tokens"]["N"], lang="de")
    assert status == 200 and len(again) == 1 and time.monotonic() - t0 < 5  # no progress: at once
    assert again[0]["analysis"] == first[-1]["analysis"] and again[0]["lang"] == "de"
    assert again[0]["hands"][0]["lines"][0].startswith("Der Coach · Spiel 1 · ")
    # the record download carries it, and every seat analysed, as one analysis; it still replays
    status, other = ask(server, t["id"], 0, t["tokens"]["S"])
    assert status == 200 and other[-1]["seat"] == "S"
    rec = record(server, t["id"])
    bare = record(server, t["id"], analysis=False)
    assert "analysis" not in bare and {k: v for k, v in rec.items() if k != "analysis"} == bare
    # one analysis of both seats: the two kept ones' decisions in the record's order (each decision's samples are
    # seeded by its own view and the seed, so this is what analysing both seats at once gives: burraco analyse's
    # judgement of one seat is the server's, test_a_finished_game_is_analysed_for_the_seat_held…)
    both = rec["analysis"]
    parts = [first[-1]["analysis"], other[-1]["analysis"]]
    assert both["seats"] == ["N", "S"] and (both["iterations"], both["seed"]) == (ITERATIONS, SEED)
    assert both["measure"]["cap"] == CAP
    assert both["decisions"] == sorted((d for a in parts for d in a["decisions"]), key=lambda d: (d["hand"], d["index"]))
    assert {d["seat"] for d in both["decisions"]} == {"N", "S"}
    assert both == Analysis.from_json(both).to_json()
    assert replay(rec)["ok"]
    # another server on the same store (a restart) answers from the store
    with thread_server(fast_config(sqlite_url(db), coach_iterations=ITERATIONS, coach_cap=CAP)) as s2:
        status, stored = ask(s2, t["id"], 0, t["tokens"]["S"])
        assert status == 200 and len(stored) == 1 and stored[0]["analysis"] == other[-1]["analysis"]
        assert record(s2, t["id"])["analysis"] == rec["analysis"]


def test_only_the_seat_a_token_holds_and_only_a_finished_game(server: ThreadServer) -> None:
    t = finished(server)
    # a spectator (no token), a token of no seat here, the token of another table's seat: refused, in the
    # asked language, with the message code for other clients
    status, err = ask(server, t["id"], 0, None, lang="pt")
    assert status == 401 and err["error"] == "not_seated" and err["msg"]["code"] == "coach_send_token"
    assert err["message"] == render(msg("coach_send_token"), "pt", player=True)
    status, err = ask(server, t["id"], 0, "not-a-token", lang="nl")
    assert status == 403 and err["error"] == "bad_token"
    assert err["message"] == render(msg("coach_not_your_seat"), "nl", player=True)
    other = create(server.url, preset="italian-2p", hands=1, seats=[HUMAN, EASY])
    status, err = ask(server, t["id"], 0, other["tokens"]["N"])
    assert status == 403 and err["error"] == "bad_token"
    # the other table's game is in play (its human never came): nothing to analyse, no hidden card told
    status, err = ask(server, other["id"], 0, other["tokens"]["N"])
    assert status == 404 and err["error"] == "not_found"
    status, err = ask(server, t["id"], 1, t["tokens"]["N"])  # no game 1 here
    assert status == 404 and err["error"] == "not_found"
    status, err = ask(server, "nosuchtable", 0, t["tokens"]["N"])
    assert status == 404


@pytest.fixture(scope="module")
def slow(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ThreadServer]:
    """One worker and two analyses per address. An analysis lasts long enough to be asked something else meanwhile
    (the requests follow each other within milliseconds): the random take-over's moves are rarely the hint's, so most
    of its decisions get the second look, 128 samples of every candidate, and their loss measured."""
    db = tmp_path_factory.mktemp("db") / "slow.sqlite3"
    with thread_server(fast_config(sqlite_url(db), coach_iterations=ITERATIONS, coach_workers=1, coach_per_ip=2,
                                   coach_cap=CAP)) as s:
        yield s


class Stream:
    """An analysis request whose answer is read line by line (the first line comes at once)."""

    def __init__(self, server: ThreadServer, table: str, game: int, token: str) -> None:
        req = urllib.request.Request(f"{server.url}/api/tables/{table}/games/{game}/analysis", method="POST",
                                     headers={"Authorization": f"Bearer {token}"})
        self.r = urllib.request.urlopen(req, timeout=WAIT * 6)
        self.first = json.loads(self.r.readline())

    def rest(self) -> list[dict[str, Any]]:
        out = [json.loads(line) for line in self.r]
        self.r.close()
        return out


def test_one_analysis_at_a_time_per_user_and_on_the_server(slow: ThreadServer) -> None:
    two = finished(slow, games=2)  # N's two games
    pair = finished(slow, humans=2)
    running = Stream(slow, two["id"], 0, two["tokens"]["N"])
    assert running.first["type"] == "progress"
    # the same user (his seat's token) asks for his other game: after this one
    status, err = ask(slow, two["id"], 1, two["tokens"]["N"], lang="it")
    assert status == 429 and err["error"] == "busy" and err["msg"]["code"] == "coach_busy_you"
    assert err["message"] == render(msg("coach_busy_you"), "it", player=True)
    # another user from the same address may (two at once per address), but the server's one worker is busy
    status, err = ask(slow, pair["id"], 0, pair["tokens"]["S"])
    assert status == 503 and err["msg"]["code"] == "coach_busy_server"
    # the same analysis asked again is followed, not refused
    follower = Stream(slow, two["id"], 0, two["tokens"]["N"])
    assert follower.first["type"] == "progress"
    # the server answers meanwhile: the analysis runs in a worker process, off the event loop
    t0 = time.monotonic()
    assert http("GET", slow.url + "/api/health")[0] == 200 and time.monotonic() - t0 < 2
    a, b = running.rest(), follower.rest()
    assert a[-1]["type"] == b[-1]["type"] == "analysis" and a[-1]["analysis"] == b[-1]["analysis"]
    # done: the next one starts
    status, lines = ask(slow, two["id"], 1, two["tokens"]["N"])
    assert status == 200 and lines[-1]["type"] == "analysis" and lines[-1]["game_no"] == 1


def test_analyses_per_address(tmp_path: Path) -> None:
    with thread_server(fast_config(sqlite_url(tmp_path / "addr.sqlite3"), coach_iterations=ITERATIONS,
                                   coach_workers=2, coach_per_ip=1, coach_cap=CAP)) as s:
        pair = finished(s, humans=2)
        running = Stream(s, pair["id"], 0, pair["tokens"]["N"])
        status, err = ask(s, pair["id"], 0, pair["tokens"]["S"], lang="de")
        assert status == 429 and err["msg"] == {"code": "coach_busy_address", "params": {"n": 1}}
        assert err["message"] == render(msg("coach_busy_address", n=1), "de", player=True)
        assert running.rest()[-1]["type"] == "analysis"
        status, lines = ask(s, pair["id"], 0, pair["tokens"]["S"])
        assert status == 200 and lines[-1]["seat"] == "S"


def test_one_analysis_of_a_game_keeps_to_one_budget_seed_and_cap() -> None:
    """The record's analysis of several seats (server/coach.py ``merged``) takes the seats analysed with the first
    one's budget, seed and measurement cap: a seat analysed before the server's cap changed is left out."""
    def one(seat: str, index: int, cap: int) -> dict[str, Any]:
        d = {"hand": 0, "index": index, "seat": seat, "kind": "pile", "played": "draw", "best": "draw",
             "value_played": 0.0, "value_best": 0.0, "loss": 0.0, "se": 0.0, "mark": None}
        return Analysis("italian-2p", (seat,), ITERATIONS, SEED, [Decision.from_json(d)], cap=cap).to_json()

    both = merged({"N": one("N", 2, CAP), "S": one("S", 1, CAP)}, ["N", "S"])
    assert both is not None and [d["seat"] for d in both["decisions"]] == ["S", "N"] and both["measure"]["cap"] == CAP
    only = merged({"N": one("N", 2, CAP), "S": one("S", 1, 1024)}, ["N", "S"])
    assert only is not None and only["seats"] == ["N"] and [d["seat"] for d in only["decisions"]] == ["N"]

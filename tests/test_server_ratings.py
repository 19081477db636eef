"""Rated tables (docs/accounts.md "Ratings", server/ratings.py), on SQLite and on a real PostgreSQL server: accounts
only, one seat per account; a rated game's end moves the ratings exactly as openskill's own Plackett-Luce model
computes them, against the computer players' fixed ratings too; leaving, or staying away past the grace time,
counts as a loss; the leaderboards; a game is rated once."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from openskill.models import PlackettLuce
from websockets.asyncio.client import connect

from account_support import PASSWORD, Browser, account
from burraco.rules import preset, rules_from_json
from burraco.server import ratings
from burraco.server.accounts import Accounts, Limits
from burraco.server.store import SeatRow, Store, rating_history_t, token_hash
from server_support import (
    WAIT,
    Client,
    create,
    database,
    fast_config,
    hint_player,
    http,
    run,
    sqlite_url,
    thread_server,
)

NEW = (25.0, 25.0 / 3.0)  # openskill's default rating: a new account's


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    with database(request.param, tmp_path / "store.sqlite3") as url:
        yield url




async def ws(server: Any, b: Browser | None) -> Client:
    headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in b.cookies.items())} if b is not None else {}
    return Client(await connect(server.ws_url, open_timeout=WAIT, max_size=1 << 22, additional_headers=headers))


async def hello(c: Client, table: str, token: str) -> dict[str, Any]:
    await c.send({"type": "hello", "v": 1, "table": table, "token": token})
    return await c.until(lambda m: m["type"] in ("state", "error"))


def expected(before: list[list[tuple[float, float]]], ranks: list[int]) -> list[list[tuple[float, float]]]:
    """openskill's own numbers for one game."""
    model = PlackettLuce()
    out = model.rate([[model.rating(mu, sigma) for mu, sigma in team] for team in before],
                     ranks=[float(r) for r in ranks])
    return [[(r.mu, r.sigma) for r in team] for team in out]


def rating(b: Browser, pool: str) -> tuple[float, float]:
    """The account's rating in ``pool`` (waiting a little: the game is rated just after its end is sent)."""
    deadline = time.monotonic() + WAIT
    while True:
        status, me = b.me()
        assert status == 200
        found = [r for r in me["ratings"] if r["pool"] == pool]
        if found or time.monotonic() > deadline:
            break
        time.sleep(0.05)
    [r] = found
    return r["mu"], r["sigma"]


def test_a_rated_game_between_accounts_moves_their_ratings_as_openskill_does(db_url: str) -> None:
    with thread_server(fast_config(db_url)) as server:
        ann, bob = account(server.url, "Ann Rossi"), account(server.url, "Bob Verdi")
        t = create(server.url, preset="italian-2p", hands=1, rated=True, seats=[{"kind": "human"}] * 2)
        info = http("GET", f"{server.url}/api/tables/{t['id']}")[1]
        assert info["rated"] is True

        async def go() -> dict[str, Any]:
            # a guest may not sit at a rated table; nor may one account hold two seats (from another browser too)
            guest = Browser(server.url)
            guest.get("/")
            e = await hello(await ws(server, guest), t["id"], t["tokens"]["S"])
            assert e["type"] == "error" and e["code"] == "rated" and "signed in" in e["message"]
            a, b = await ws(server, ann), await ws(server, bob)
            assert (await hello(a, t["id"], t["tokens"]["N"]))["type"] == "state"
            ann_elsewhere = Browser(server.url)
            ann_elsewhere.get("/")
            assert ann_elsewhere.post("signin", {"name": "Ann Rossi", "password": PASSWORD})[0] == 303
            e = await hello(await ws(server, ann_elsewhere), t["id"], t["tokens"]["S"])
            assert e["type"] == "error" and e["code"] == "one_seat" and "one seat per account" in e["message"]
            assert (await hello(b, t["id"], t["tokens"]["S"]))["type"] == "state"
            done = await asyncio.gather(hint_player(a), hint_player(b))
            assert all(n > 0 for n in done)
            end = next(m for m in a.got if m["type"] == "event" and m["kind"] == "game_end")
            return dict(end["data"]["summary"]["totals"])

        totals = run(go(), 600)
        ranks = ratings.ranks_of([totals["N"], totals["S"]], [False, False])
        want = expected([[NEW], [NEW]], ranks)
        for b, (mu, sigma) in ((ann, want[0][0]), (bob, want[1][0])):
            got = rating(b, "italian-1v1")
            assert got == pytest.approx((mu, sigma), abs=1e-9)
            [h] = b.me()[1]["history"]
            assert h["table"] == t["id"] and h["vs_computer"] is False
        board = http("GET", f"{server.url}/api/ratings/italian-1v1")[1]["leaderboard"]
        assert [r["name"] for r in board] == sorted(
            ["Ann Rossi", "Bob Verdi"], key=lambda n: -ratings.ordinal(*rating(ann if n == "Ann Rossi" else bob,
                                                                               "italian-1v1")))
        assert all(r["games"] == 1 for r in board)
        assert http("GET", f"{server.url}/api/ratings/italian-2v2")[1]["leaderboard"] == []
        # the account's page: the rating, its history plotted (inline SVG, one point per rated game), the game
        # with the link to its replay
        status, page = ann.get("/account")
        assert status == 200 and 'id="rating-plot"' in page and page.count("<circle") == 1
        assert "italian-1v1" in page and f'href="/t/{t["id"]}/replay/0"' in page
        [g] = ann.me()[1]["games"]
        assert g["rated"] is True and g["finished"] == 1 and g["preset"] == "italian-2p"
        assert http("GET", f"{server.url}/api/tables/{t['id']}/games/0/replay")[0] == 200
        assert http("GET", f"{server.url}/api/ratings/chess")[0] == 404


def test_leaving_a_rated_game_against_the_computer_is_a_loss(db_url: str) -> None:
    with thread_server(fast_config(db_url)) as server:
        ann = account(server.url, "Ann Rossi")
        level = "heuristic:easy"
        t = create(server.url, preset="italian-2p", hands=1, rated=True,
                   seats=[{"kind": "human"}, {"kind": "computer", "level": level}])

        async def go() -> None:
            a = await ws(server, ann)
            assert (await hello(a, t["id"], t["tokens"]["N"]))["type"] == "state"
            await a.until(lambda m: m["type"] == "event" and m["kind"] == "hand")
            await a.send({"type": "leave"})
            await a.until("left")
            # the seat stays hers (the computer plays it): the creator may not give it to someone else
            await a.send({"type": "give", "seat": "N", "token": t["creator"]})
            e = await a.until("error")
            assert e["code"] == "rated" and "cannot be given" in e["message"]
            await a.until(lambda m: m["type"] == "event" and m["kind"] == "game_end", timeout=300)

        run(go(), 400)
        # a loss against the computer's fixed rating, whatever the totals (the take-over computer played it out)
        want = expected([[NEW], [ratings.COMPUTER[level]]], [2, 1])
        assert rating(ann, "italian-1v1") == pytest.approx(want[0][0], abs=1e-9)
        [h] = ann.me()[1]["history"]
        assert h["rank"] == 2 and h["vs_computer"] is True


def test_staying_away_past_the_grace_time_is_a_loss(tmp_path: Path) -> None:
    db = sqlite_url(tmp_path / "away.sqlite3")
    with thread_server(fast_config(db)) as server:
        ann = account(server.url, "Ann Rossi")
        t = create(server.url, preset="italian-2p", hands=1, rated=True, grace=0.2,
                   seats=[{"kind": "human"}, {"kind": "computer", "level": "random"}])

        async def go() -> None:
            a = await ws(server, ann)
            assert (await hello(a, t["id"], t["tokens"]["N"]))["type"] == "state"
            await a.until(lambda m: m["type"] == "event" and m["kind"] == "hand")
            await a.close()  # gone: the computer takes the seat over after 0.2 s, at its turn
            watcher = await ws(server, None)
            await watcher.hello(t["id"], last=0)  # every event since the table's first
            await watcher.until(lambda m: m["type"] == "event" and m["kind"] == "game_end", timeout=300)
            assert any(m["type"] == "event" and m["kind"] == "away" and m["data"].get("why") == "disconnected"
                       for m in watcher.got)

        run(go(), 400)
        want = expected([[NEW], [ratings.COMPUTER["random"]]], [2, 1])
        assert rating(ann, "italian-1v1") == pytest.approx(want[0][0], abs=1e-9)
        assert ann.me()[1]["history"][0]["rank"] == 2


def test_rated_tables_are_checked_at_creation(tmp_path: Path) -> None:
    with thread_server(fast_config(sqlite_url(tmp_path / "c.sqlite3"))) as server:
        status, out = http("POST", server.url + "/api/tables",
                           {"preset": "italian-2p", "rated": True, "seats": [{"kind": "computer"}] * 2})
        assert status == 400 and "needs a seat for a person" in out["message"]
        status, out = http("POST", server.url + "/api/tables", {"preset": "italian-2p", "rated": "yes"})
        assert status == 400 and "'rated'" in out["message"]
        t = create(server.url, preset="brazilian", rated=True)
        info = http("GET", f"{server.url}/api/tables/{t['id']}")[1]
        assert info["rated"] is True and ratings.pool_of(rules_from_json(info["rules"])) == "brazilian-2v2"
        assert http("GET", f"{server.url}/api/tables/{create(server.url)['id']}")[1]["rated"] is False


def test_a_game_is_rated_once_and_sides_rank_by_their_totals(db_url: str) -> None:
    assert ratings.ranks_of([300, 500, 300], [False, False, False]) == [2, 1, 2]
    assert ratings.ranks_of([900, 100], [True, False]) == [2, 1]
    assert ratings.ranks_of([900, 100, 50], [True, False, True]) == [2, 1, 2]
    assert {ratings.pool_of(preset(n)) for n in ("italian", "international", "brazilian-2p", "italian-6p")} == \
        {"italian-2v2", "brazilian-1v1", "italian-3x2"}

    async def go() -> None:
        store = Store(db_url)
        await store.migrate()
        accounts = Accounts(store, Limits(5, 30, 900.0))
        a = await accounts.sign_up("Ann Rossi", PASSWORD)
        b = await accounts.sign_up("Bob Verdi", PASSWORD)
        c = await accounts.sign_up("Cid Neri", PASSWORD)
        await store.create_table("t4", {"rules": {"name": "italian", "players": 4}}, [
            SeatRow(i, "human", "heuristic:medium", f"P{i}", True, token_hash(f"t{i}")) for i in range(4)], {})
        # 2 v 2: Ann and Bob against Cid and a computer
        teams = [[ratings.Player(0, a.id, ""), ratings.Player(2, b.id, "")],
                 [ratings.Player(1, c.id, ""), ratings.Player(3, None, "heuristic:hard")]]
        assert await ratings.rate_game(store, "t4", 0, "italian-2v2", teams, [1, 2])
        assert not await ratings.rate_game(store, "t4", 0, "italian-2v2", teams, [1, 2])  # once only
        want = expected([[NEW, NEW], [NEW, ratings.COMPUTER["heuristic:hard"]]], [1, 2])
        got = await ratings.account_ratings(store, c.id)
        assert (got["ratings"][0]["mu"], got["ratings"][0]["sigma"]) == pytest.approx(want[1][0], abs=1e-9)
        board = await ratings.leaderboard(store, "italian-2v2")
        assert [r["name"] for r in board][-1] == "Cid Neri" and all(r["games"] == 1 for r in board)
        # a second game starts from the first's ratings
        assert await ratings.rate_game(store, "t4", 1, "italian-2v2", teams, [2, 1])
        first = [[want[0][0], want[0][1]], [want[1][0], ratings.COMPUTER["heuristic:hard"]]]
        again = expected(first, [2, 1])
        got = await ratings.account_ratings(store, a.id)
        assert (got["ratings"][0]["mu"], got["ratings"][0]["sigma"]) == pytest.approx(again[0][0], abs=1e-9)
        assert [h["game_no"] for h in got["history"]] == [0, 1] and got["ratings"][0]["games"] == 2
        await store.close()

    run(go())


def test_a_seasons_leaderboard_ranks_by_the_rating_at_its_end(db_url: str) -> None:
    """Seasons are calendar quarters in UTC, derived from the stored rating history: the games rated in a quarter,
    each account at its rating after its last game there; the current quarter by default, ``all`` for now."""
    assert ratings.season_of(ratings.season_bounds("2026-Q2")[1] - 0.001) == "2026-Q2"  # 30 June 23:59:59.999 UTC
    assert ratings.season_of(ratings.season_bounds("2026-Q2")[1]) == "2026-Q3"  # 1 July 00:00 UTC
    assert ratings.season_bounds("2026-Q4") == (1790812800.0, 1798761600.0)  # 1 Oct 2026 and 1 Jan 2027, UTC
    with thread_server(fast_config(db_url)) as server:
        ann, bob, cat = account(server.url, "Ann Rossi"), account(server.url, "Bob Verdi"), account(server.url, "Cat Neri")
        ids = {n: b.me()[1]["account"]["id"] for n, b in (("ann", ann), ("bob", bob), ("cat", cat))}
        tables = [create(server.url, preset="italian-2p", hands=1, seats=[{"kind": "human"}] * 2)["id"]
                  for _ in range(4)]
        q2, q3 = ratings.season_bounds("2026-Q2"), ratings.season_bounds("2026-Q3")
        now = time.time()
        rows = [  # (account, table, mu, sigma, at)
            ("ann", 0, 30.0, 6.0, q2[0] + 10),   # Ann: 12 after her first Q2 game ...
            ("ann", 1, 20.0, 5.0, q2[0] + 20),   # ... 5 after her last: her rating at the end of Q2
            ("bob", 0, 28.0, 6.0, q2[0] + 10),   # Bob: 10
            ("bob", 2, 40.0, 4.0, q3[0] + 5),    # Bob's Q3 game (28) is not Q2's
            ("cat", 3, 33.0, 3.0, now),          # Cat played this quarter only
        ]

        async def store_history() -> None:
            store = Store(db_url)
            try:
                async with store.engine.begin() as conn:
                    for who, t, mu, sigma, at in rows:
                        await conn.execute(rating_history_t.insert().values(
                            account_id=ids[who], pool="italian-1v1", table_id=tables[t], game_no=0, mu=mu,
                            sigma=sigma, rank=1, vs_computer=False, at=at))
            finally:
                await store.close()

        run(store_history())

        def board(query: str) -> list[tuple[str, float, int]]:
            status, got = http("GET", f"{server.url}/api/ratings/italian-1v1{query}")
            assert status == 200, got
            return [(r["name"], r["ordinal"], r["games"]) for r in got["leaderboard"]]

        assert board("?season=2026-Q2") == [("Bob Verdi", 10.0, 1), ("Ann Rossi", 5.0, 2)]
        assert board("?season=2026-Q3") == [("Bob Verdi", 28.0, 1)]
        assert board("?season=2025-Q1") == []
        current = ratings.season_of(now)
        assert board("") == board(f"?season={current}") == [("Cat Neri", 24.0, 1)]
        assert http("GET", f"{server.url}/api/ratings/italian-1v1")[1]["season"] == current
        assert board("?season=all") == []  # the stored ratings (this test wrote only their history)
        for bad in ("2026-Q5", "2026Q1", "autumn"):
            status, got = http("GET", f"{server.url}/api/ratings/italian-1v1?season={bad}")
            assert status == 400 and got["error"] == "bad_season" and "YYYY-Qn" in got["message"]

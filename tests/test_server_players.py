"""Tables of 3, 5 and 6 players over the protocol (RULES.md §14.3–§14.4, docs/protocol.md 1.3): creating them,
seats A B C …, the sides as they stand in every view (a pair formed during a hand of 3 or 5), the end of a hand
with one column per side and the match totals per scorer, computer players filling the seats."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from burraco import preset
from burraco.seats import scorer_names, seat_names
from burraco.server.protocol import PROTOCOL_MINOR
from server_support import (
    Client,
    ThreadServer,
    create,
    fast_config,
    hint_player,
    http,
    run,
    sqlite_url,
    thread_server,
)

HUMAN = {"kind": "human"}
EASY = {"kind": "computer", "level": "heuristic:easy"}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ThreadServer]:
    db = tmp_path_factory.mktemp("db") / "players.sqlite3"
    with thread_server(fast_config(sqlite_url(db))) as s:
        yield s


def check_sides(v: dict[str, Any], players: int) -> None:
    """The sides of a view or a hand's end: every seat on exactly one side, named by its seats, a solo alone."""
    seats = seat_names(players)
    members = [s for side in v["sides"].values() for s in side]
    assert sorted(members) == sorted(seats)
    for name, side in v["sides"].items():
        assert name == "".join(sorted(side, key=seats.index)) and all(v["seat_side"][s] == name for s in side)
    if v["solo"] is not None:
        assert players in (3, 5) and v["sides"][v["solo"]] == [v["solo"]] and len(v["sides"]) == (players + 1) // 2
    elif players == 6:
        assert list(v["sides"]) == ["AD", "BE", "CF"]
    else:
        assert len(v["sides"]) == players  # 3, 5: everybody alone until the first player goes out


@pytest.mark.parametrize("name", ["italian-3p", "italian-5p", "italian-6p"])
def test_a_table_of_3_5_6_players_plays_a_hand_with_computers_in_the_other_seats(server: ThreadServer,
                                                                                name: str) -> None:
    n = preset(name).players
    seats = seat_names(n)
    t = create(server.url, preset=name, hands=1, seats=[HUMAN] + [EASY] * (n - 1))
    assert set(t["tokens"]) == {"A"} and [s["seat"] for s in t["table"]["seats"]] == list(seats)
    assert t["table"]["players"] == n

    async def go() -> None:
        spec = await Client.open(server.ws_url)
        await spec.hello(t["id"])
        me = await Client.open(server.ws_url)
        await me.hello(t["id"], t["tokens"]["A"])
        assert me.state is not None and me.state["you"] == "A"
        await hint_player(me, until="hand_end")
        st = await me.until(lambda m: m["type"] == "state" and m["hand_end"] is not None)
        v, he, sb = st["view"], st["hand_end"], st["scoreboard"]
        assert set(v["hand_sizes"]) == set(seats) and v["seat"] == "A"
        check_sides(v, n)
        check_sides(he, n)
        # one column per side of the hand, the melds per side, the totals and this hand's points per scorer
        assert set(he["scores"]) == set(he["sides"]) == set(he["melds"])
        assert list(he["totals"]) == list(scorer_names(preset(name))) == sb["scorers"] == list(sb["totals"])
        assert set(he["points"]) == set(he["totals"]) and he["points"] == he["totals"]  # the first hand
        if n in (3, 5):
            for side, members in he["sides"].items():  # each player his share of his side's score (§14.3)
                total = he["scores"][side]["total"]
                assert sum(he["points"][s] for s in members) in (total, total + 1, total - 1)
        else:
            assert he["points"] == {s: he["scores"][s]["total"] for s in he["scores"]}
        assert sb["hands"][0]["scores"] == he["points"]
        assert set(st["points"]) == set(v["sides"])
        # the spectator gets the public picture with the same sides
        sp = await spec.until(lambda m: m["type"] == "state" and m["hand_end"] is not None)
        assert sp["you"] is None and sp["view"]["hand"] == [] and sp["view"]["sides"] == v["sides"]
        ends = [m for m in me.got if m["type"] == "event" and m["kind"] == "hand_end"]
        assert ends and set(ends[-1]["data"]["scores"]) == set(he["sides"])
        await me.close()
        await spec.close()

    run(go(), timeout=240.0)


def test_a_six_player_table_of_computers_only_finishes_and_is_listed_and_replayable(server: ThreadServer) -> None:
    t = create(server.url, preset="italian-6p", hands=1, seats=[EASY] * 6)

    async def go() -> None:
        spec = await Client.open(server.ws_url)
        await spec.hello(t["id"])
        await spec.until(lambda m: m["type"] == "event" and m["kind"] == "game_end", timeout=200.0)
        await spec.close()

    run(go(), timeout=240.0)
    status, games = http("GET", f"{server.url}/api/tables/{t['id']}/games")
    assert status == 200 and set(games["games"][0]["totals"]) == {"AD", "BE", "CF"}
    status, rp = http("GET", f"{server.url}/api/tables/{t['id']}/games/0/replay")
    assert status == 200
    last = rp["hands"][0]["steps"][-1]["table"]
    assert last["sides"] == {"AD": ["A", "D"], "BE": ["B", "E"], "CF": ["C", "F"]} and set(last["hand_cards"]) == set("ABCDEF")


def test_the_lobby_offers_every_count_and_lists_open_seats(server: ThreadServer) -> None:
    status, p = http("GET", server.url + "/api/presets")
    assert status == 200 and p["minor"] == PROTOCOL_MINOR
    counts = {x["name"]: x["players"] for x in p["presets"]}
    assert counts["italian-3p"] == 3 and counts["italian-5p"] == 5 and counts["italian-6p"] == 6
    t = create(server.url, preset="italian-5p", seats=[HUMAN, {"kind": "open"}, EASY, {"kind": "open"}, EASY])
    status, lobby = http("GET", server.url + "/api/tables")
    row = next(x for x in lobby["tables"] if x["id"] == t["id"])
    assert [(s["seat"], s["kind"]) for s in row["seats"]] == [
        ("A", "human"), ("B", "open"), ("C", "computer"), ("D", "open"), ("E", "computer")]
    status, out = http("POST", server.url + "/api/tables", {"preset": "italian-6p", "seats": [HUMAN] * 4})
    assert status == 400 and "must list 6 seats (A B C D E F)" in out["message"]


def test_seats_taken_left_and_taken_over_at_a_five_player_table(server: ThreadServer) -> None:
    """Fair play for every count: an open seat (D) taken by name, a seat letter of another count refused, a seat
    left mid-game played by the take-over computer and kept for its player, whose link brings him back."""
    t = create(server.url, preset="italian-5p", hands=1, seats=[HUMAN, EASY, EASY, {"kind": "open"}, EASY])

    async def go() -> None:
        a = await Client.open(server.ws_url)
        await a.hello(t["id"], t["tokens"]["A"])
        d = await Client.open(server.ws_url)
        await d.hello(t["id"])
        await d.send({"type": "take", "seat": "W", "name": "Dora"})  # a 4-player seat letter
        assert (await d.until("error"))["code"] == "bad_message"
        await d.send({"type": "take", "seat": "D", "name": "Dora"})
        seated = await d.until("seated")
        assert seated["seat"] == "D"
        st = await a.until(lambda m: m["type"] == "state" and m["table"]["status"] == "playing")
        assert st["table"]["seats"][3]["name"] == "Dora"
        await a.send({"type": "leave"})
        await a.until("left")
        ev = await d.until(lambda m: m["type"] == "event" and m["kind"] == "action" and m["data"]["seat"] == "A")
        assert ev["data"]["action"] in ("A draw", "A pick")
        assert d.state is not None and d.state["table"]["seats"][0]["kind"] == "left"
        other = await Client.open(server.ws_url)
        await other.hello(t["id"])
        await other.send({"type": "take", "seat": "A", "name": "Nico"})
        assert (await other.until("error"))["code"] == "seat_reserved"
        back = await Client.open(server.ws_url)
        await back.hello(t["id"], t["tokens"]["A"])
        assert back.state is not None and back.state["you"] == "A" and back.state["view"]["seat"] == "A"
        for c in (a, d, other, back):
            await c.close()

    run(go(), timeout=120.0)

"""A duplicate round sealed on every channel (docs/tournaments.md "Duplicate events", docs/protocol.md "Fair play"),
tested over the websocket with two live tables of people: a spectator may watch a table only once every other
table of the round has finished the deal it plays, and is sent away when it deals one they have not; the director
watches all the same; the public page names no table and shows no sheet of a deal some table is still playing;
records and replays stay closed until the round closes, and then verify."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed

from burraco.fair import verify_record
from server_support import Client, ThreadServer, fast_config, plain_player, run, sqlite_url, thread_server
from test_server_tournament import DeskClient, call, new_event, register_pairs


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ThreadServer]:
    db = tmp_path_factory.mktemp("db") / "seal.sqlite3"
    with thread_server(fast_config(sqlite_url(db))) as s:
        yield s


def token(link: str, key: str) -> str:
    return link.split(f"#{key}=")[1]


async def seated(server: ThreadServer, table: str, links: dict[str, str]) -> list[Client]:
    out = []
    for s in "NESW":
        c = await Client.open(server.ws_url)
        await c.hello(table, token(links[s], "t"))
        out.append(c)
    return out


async def until_dealt(c: Client, hand_no: int) -> None:
    await c.until(lambda m: m["type"] == "event" and m["kind"] == "hand" and m["data"]["hand_no"] == hand_no)


def online_sheets(d: DeskClient) -> list[tuple[Any, int]]:
    """Per online table of the running round, as the public page shows it: its id and how many sheets."""
    return [(t["table_id"], len(t["sheets"])) for t in d.public()["rounds"][0]["tables"]]


def test_a_duplicate_round_is_sealed_over_the_websocket_with_a_live_second_table(server: ThreadServer) -> None:
    d = new_event(server.url, rounds=1, movements="mitchell", duplicate=True)
    register_pairs(d)
    t1, t2 = d.ok("start", {"online": "all"})["rounds"][0]["tables"]
    id1, id2 = t1["table_id"], t2["table_id"]

    async def go() -> None:
        first, second = await seated(server, id1, t1["links"]), await seated(server, id2, t2["links"])
        await until_dealt(first[0], 0)
        await until_dealt(second[0], 0)
        assert online_sheets(d) == [(None, 0), (None, 0)]  # no table's address, no sheet
        # table 2 plays the first deal to its end and is dealt the second; table 1 is still on the first
        await asyncio.gather(*(plain_player(c, until="hand_end") for c in second))
        await until_dealt(second[0], 1)
        assert online_sheets(d) == [(None, 0), (None, 0)]  # table 1 has not finished the first deal
        assert "totals" not in d.public()["rounds"][0]["tables"][1]["live"]
        # a spectator may not watch table 2: table 1 has not finished the deal table 2 plays now
        x = await Client.open(server.ws_url)
        await x.send({"type": "hello", "v": 1, "table": id2})
        e = await x.until("error")
        assert e["code"] == "sealed" and e["msg"]["code"] == "te_watch_sealed"
        assert not any(m["type"] in ("state", "log", "event") for m in x.got)
        # ... its director may (the desk's watch link carries the table's creator token)
        director = await Client.open(server.ws_url)
        await director.hello(id2, creator=token(d.desk()["rounds"][0]["tables"][1]["links"]["watch"], "c"))
        assert director.state is not None and director.state["you"] is None and director.state["view"]["hand"] == []
        # a spectator may watch table 1: every other table has finished the deal it plays
        y = await Client.open(server.ws_url)
        await y.hello(id1)
        assert y.state is not None and y.state["hand_no"] == 0
        # table 1 ends the first deal and is dealt the second, which table 2 has not finished: the spectator goes
        await asyncio.gather(*(plain_player(c, until="hand_end") for c in first))
        e = await y.until(lambda m: m["type"] == "error")
        assert e["code"] == "sealed"
        with pytest.raises(ConnectionClosed):
            while True:  # nothing of the second deal reaches it: the connection closes
                m = await y.recv()
                assert m["type"] != "state" or m["hand_no"] == 0, m
        # the director still watches table 2; the first deal's sheets are shown now that both tables finished it
        assert online_sheets(d) == [(None, 1), (None, 1)]
        # both tables play their deals to the end: their games, records and replays stay closed until the round
        # closes
        await asyncio.gather(*(plain_player(c) for c in first + second))
        for tid in (id1, id2):
            for path in ("games", "games/0/record", "games/0/replay"):
                status, body = call(server.url, "GET", f"/api/tables/{tid}/{path}")
                assert status == 403 and body["error"] == "sealed", body
        for c in [*first, *second, x, director]:
            await c.close()

    run(go(), timeout=600)
    d.ok("close")
    assert [t["table_id"] for t in d.public()["rounds"][0]["tables"]] == [id1, id2]
    records = [call(server.url, "GET", f"/api/tables/{tid}/games/0/record")[1] for tid in (id1, id2)]
    assert [h["deal"] for h in records[0]["hands"]] == [h["deal"] for h in records[1]["hands"]]
    assert all(c.ok for r in records for c in verify_record(r))  # the event ended: its secret is revealed


def test_a_spectator_may_join_once_every_table_has_finished_the_deal(server: ThreadServer) -> None:
    """The slowest table may be watched: every other table has finished the deal it plays."""
    d = new_event(server.url, rounds=1, movements="mitchell", duplicate=True)
    register_pairs(d)
    t1, t2 = d.ok("start", {"online": "all", "computers": {"2": {s: "heuristic:easy" for s in "NESW"}}}
                  )["rounds"][0]["tables"]

    async def go() -> None:
        first = await seated(server, t1["table_id"], t1["links"])
        # table 2 (computers) finishes its only deal; table 1 is still playing it
        deadline = asyncio.get_running_loop().time() + 120
        while call(server.url, "GET", f"/api/tables/{t2['table_id']}")[1]["status"] != "finished":
            assert asyncio.get_running_loop().time() < deadline, "table 2 did not finish"
            await asyncio.sleep(0.2)
        watcher = await Client.open(server.ws_url)
        await watcher.hello(t1["table_id"])
        assert watcher.state is not None and watcher.state["view"] is not None
        # the finished table stays closed to spectators: table 1 has not finished that deal
        late = await Client.open(server.ws_url)
        await late.send({"type": "hello", "v": 1, "table": t2["table_id"]})
        assert (await late.until("error"))["code"] == "sealed"
        for c in [*first, watcher, late]:
            await c.close()

    run(go(), timeout=300)

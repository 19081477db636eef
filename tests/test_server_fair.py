"""Provably fair deals at the server (docs/fairness.md, docs/protocol.md "Provably fair deals"): over the websocket
every commitment is sent before its deal, the seated people's contributions go into it, the seed is revealed when
the hand ends (and never sent before), the record carries all of it and verifies; the contributions' refusals; a
restart between the commitment and the deal deals from the committed seed."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from burraco import preset
from burraco.cards import parse_cards
from burraco.fair import commitment, fair_deal, verify_record
from helpers import a_meld
from server_support import (
    Client,
    ThreadServer,
    create,
    fast_config,
    http,
    my_turn,
    plain_player,
    run,
    sqlite_url,
    thread_server,
)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ThreadServer]:
    db = tmp_path_factory.mktemp("db") / "fair.sqlite3"
    # the deal waits for every connected seat's contribution (a minute at most: the clients below always send it)
    with thread_server(fast_config(sqlite_url(db), contribution_wait=60.0)) as s:
        yield s


async def joined(server: ThreadServer, table: str, token: str | None = None) -> Client:
    c = await Client.open(server.ws_url)
    await c.hello(table, token, batch=True)
    return c


def test_every_commitment_goes_out_before_its_deal_and_the_seed_only_when_the_hand_ends(server: ThreadServer) -> None:
    """Two people at a 2-hand table, the websocket traffic of both recorded: per hand, the ``commit`` event, both
    contributions, then the ``hand`` event naming the same commitment and contributions, and at the hand's end the
    seed (whose SHA-256 is the commitment) in ``hand_end`` — nowhere before. Each player's own first hand is what
    the procedure gives; the record verifies."""
    t = create(server.url, preset="italian-2p", hands=2, seats=[{"kind": "human"}, {"kind": "human"}])

    async def go() -> tuple[list[Any], list[Any], list[list[str]]]:
        n = await joined(server, t["id"], t["tokens"]["N"])
        s = await joined(server, t["id"], t["tokens"]["S"])
        sent = await asyncio.gather(plain_player(n), plain_player(s))
        await n.close()
        await s.close()
        return n.got, s.got, list(sent)

    got_n, got_s, sent = run(go(), timeout=300)
    status, rec = http("GET", server.url + f"/api/tables/{t['id']}/games/0/record")
    assert status == 200
    assert [c.ok for c in verify_record(rec)] == [True, True]
    rules = preset("italian-2p", hands_per_match=2)
    for got, seat in ((got_n, "N"), (got_s, "S")):
        events = [m for m in got if m["type"] == "event"]
        kinds = [e["kind"] for e in events]
        for h in range(2):
            fair = rec["hands"][h]["fair"]
            commit = next(i for i, e in enumerate(events) if e["kind"] == "commit" and e["data"]["hand_no"] == h)
            deal = next(i for i, e in enumerate(events) if e["kind"] == "hand" and e["data"]["hand_no"] == h)
            end = next(i for i, e in enumerate(events) if e["kind"] == "hand_end" and e["data"]["hand_no"] == h)
            contribs = [i for i, e in enumerate(events) if e["kind"] == "contribution" and e["data"]["hand_no"] == h]
            assert commit < min(contribs) and max(contribs) < deal < end, kinds
            assert events[commit]["data"]["commitment"] == fair["commitment"]
            assert "seed" not in events[commit]["data"]
            assert events[deal]["data"]["fair"]["commitment"] == fair["commitment"]
            assert events[deal]["data"]["fair"]["contributions"] == fair["contributions"]
            assert set(fair["contributions"]) == {"N", "S"}
            reveal = events[end]["data"]["reveal"]
            assert reveal["seed"] == fair["seed"] and commitment(bytes.fromhex(reveal["seed"])) == fair["commitment"]
            # the seed travels nowhere before the hand's end: not in any message this client got before it
            before = got[: got.index(events[end])]
            assert fair["seed"] not in json.dumps(before)
            # the player's own hand, as first shown to him, is the procedure's for these inputs
            first = next(m for m in got[got.index(events[deal]):] if m["type"] == "state" and m["view"])
            want = fair_deal(rules, bytes.fromhex(fair["seed"]), fair["table"], h, fair["contributions"])
            assert sorted(parse_cards(" ".join(first["view"]["hand"]))) == sorted(want.hands["NS".index(seat)])
        assert fair["table"] == f"{t['id']}/0"
    assert sorted(sent[0]) == sorted(rec["hands"][h]["fair"]["commitment"] for h in range(2))


def test_contributions_are_refused_saying_why(server: ThreadServer) -> None:
    t = create(server.url, preset="italian-2p", hands=1, seats=[{"kind": "human"}, {"kind": "human"}])

    async def go() -> None:
        n = await joined(server, t["id"], t["tokens"]["N"])
        s = await joined(server, t["id"], t["tokens"]["S"])
        st = await n.until(lambda m: m["type"] == "state" and m["fair"] is not None)
        f = st["fair"]
        assert f["dealt"] is False and f["contributions"] == {} and f["seed"] is None and f["contribute"] is True
        spectator = await joined(server, t["id"])
        for c, body, code in [
            (spectator, {"value": "ab" * 32, "commitment": f["commitment"]}, "not_seated"),
            (n, {"value": "ab" * 32, "commitment": "00" * 32}, "stale"),
            (n, {"value": "AB" * 32, "commitment": f["commitment"]}, "bad_message"),
            (n, {"value": "ab" * 8, "commitment": f["commitment"]}, "bad_message"),
        ]:
            await c.send({"type": "contribute", **body})
            assert (await c.until("error"))["code"] == code
        await n.send({"type": "contribute", "value": "ab" * 32, "commitment": f["commitment"]})
        await n.until(lambda m: m["type"] == "event" and m["kind"] == "contribution")
        await n.send({"type": "contribute", "value": "cd" * 32, "commitment": f["commitment"]})
        e = await n.until("error")
        assert e["code"] == "not_now" and "in already" in e["message"]
        await s.send({"type": "contribute", "value": "ef" * 16, "commitment": f["commitment"]})
        hand = await n.until(lambda m: m["type"] == "event" and m["kind"] == "hand")
        assert hand["data"]["fair"]["contributions"] == {"N": "ab" * 32, "S": "ef" * 16}
        await n.send({"type": "contribute", "value": "ab" * 32, "commitment": f["commitment"]})
        assert (await n.until("error"))["code"] == "not_now"  # dealt: too late
        for c in (n, s, spectator):
            await c.close()

    run(go())


def test_computers_contribute_nothing(server: ThreadServer) -> None:
    """The one person at a table of computers deals the hand with his contribution alone."""
    t = create(server.url, preset="italian", seats=[{"kind": "computer"}, {"kind": "computer"}, {"kind": "human"},
                                                     {"kind": "computer"}])

    async def go() -> None:
        s = await joined(server, t["id"], t["tokens"]["S"])
        st = await s.until(lambda m: m["type"] == "state" and m["fair"] is not None)
        await s.send({"type": "contribute", "value": "12" * 32, "commitment": st["fair"]["commitment"]})
        hand = await s.until(lambda m: m["type"] == "event" and m["kind"] == "hand")
        assert hand["data"]["fair"]["contributions"] == {"S": "12" * 32}
        await s.close()

    run(go())


def test_a_restart_between_the_commitment_and_the_deal_deals_from_the_committed_seed(tmp_path: Path) -> None:
    """The server stops while the deal waits for the one player's contribution; started again, it has the same
    commitment (the seed was stored with it) and deals from it once the contribution comes."""
    db = sqlite_url(tmp_path / "restart.sqlite3")
    cfg = fast_config(db, contribution_wait=3600.0)
    t: dict[str, Any] = {}

    async def first(server: ThreadServer) -> tuple[Client, str]:
        t.update(create(server.url, preset="italian-2p", hands=1, seats=[{"kind": "human"}, {"kind": "computer"}]))
        n = await joined(server, t["id"], t["tokens"]["N"])
        st = await n.until(lambda m: m["type"] == "state" and m["fair"] is not None)
        return n, str(st["fair"]["commitment"])

    loop = asyncio.new_event_loop()
    try:
        with thread_server(cfg) as server:  # stopped with the player still connected: no deal yet
            conn, committed = loop.run_until_complete(asyncio.wait_for(first(server), 120))
            assert conn.state is not None and conn.state["fair"]["dealt"] is False
    finally:
        loop.close()
    with thread_server(cfg) as server:

        async def second() -> dict[str, Any]:
            n = await joined(server, t["id"], t["tokens"]["N"])
            assert n.state is not None and n.state["fair"]["commitment"] == committed
            assert n.state["fair"]["dealt"] is False
            await n.send({"type": "contribute", "value": "34" * 32, "commitment": committed})
            hand = await n.until(lambda m: m["type"] == "event" and m["kind"] == "hand")
            await n.close()
            return dict(hand["data"]["fair"])

        fair = run(second())
    assert fair["commitment"] == committed and fair["contributions"] == {"N": "34" * 32}


def test_a_take_back_over_the_websocket_and_in_the_record(server: ThreadServer) -> None:
    """A player alone against a computer takes back a meld (never a draw); the record lists the take-back under
    ``takebacks``, keeps only the actions that stand, replays and verifies. At a table with another person there is
    no take-back."""
    from burraco import replay

    t = create(server.url, preset="italian-2p", hands=1, seats=[{"kind": "human"}, {"kind": "computer"}])

    async def go() -> int:
        n = await joined(server, t["id"], t["tokens"]["N"])
        f = (await n.until(lambda m: m["type"] == "state" and m["fair"] is not None))["fair"]
        await n.send({"type": "contribute", "value": "56" * 32, "commitment": f["commitment"]})
        while True:
            st = await n.until(lambda m: m["type"] == "state" and my_turn(m) and m["view"]["phase"] == "draw")
            await n.send({"type": "act", "action": "N draw", "n": st["n"]})
            st = await n.until(lambda m: m["type"] == "state" and my_turn(m) and m["view"]["phase"] == "play")
            assert st["takeback"] is None
            await n.send({"type": "takeback", "n": st["n"]})
            e = await n.until("error")
            assert e["code"] == "not_now" and e["msg"]["code"] == "takeback_draw"
            cards = a_meld(st["view"]["hand"], "italian-2p")
            if cards is None:
                await n.send({"type": "act", "action": f"N discard {st['view']['hand'][0]}", "n": st["n"]})
                continue
            await n.send({"type": "act", "action": "N meld " + " ".join(cards), "n": st["n"]})
            st = await n.until(lambda m: m["type"] == "state" and m["takeback"] == "N")
            await n.send({"type": "takeback", "n": st["n"]})
            ev = await n.until(lambda m: m["type"] == "event" and m["kind"] == "takeback")
            await n.until(lambda m: m["type"] == "log" and m.get("full"))  # the moves log without the meld
            back = await n.until(lambda m: m["type"] == "state")
            assert len(back["view"]["hand"]) == len(st["view"]["hand"]) + 3 and back["view"]["melds"]["N"] == []
            break
        await plain_player(n)
        await n.close()
        return int(ev["data"]["at"])

    at = run(go(), timeout=300)
    status, rec = http("GET", server.url + f"/api/tables/{t['id']}/games/0/record")
    assert status == 200
    assert rec["takebacks"] == [{"hand": 0, "at": at, "seat": "N"}]
    assert not rec["hands"][0]["actions"][at].startswith("N meld")  # the play taken back is not in the record
    assert replay(rec)["ok"] and all(c.ok for c in verify_record(rec))
    two = create(server.url, preset="italian-2p", hands=1, seats=[{"kind": "human"}, {"kind": "human"}])

    async def people() -> None:
        n = await joined(server, two["id"], two["tokens"]["N"])
        s = await joined(server, two["id"], two["tokens"]["S"])
        for c in (n, s):
            f = (await c.until(lambda m: m["type"] == "state" and m["fair"] is not None))["fair"]
            await c.send({"type": "contribute", "value": "78" * 32, "commitment": f["commitment"]})
        st = await n.until(lambda m: m["type"] == "state" and my_turn(m))
        await n.send({"type": "takeback", "n": st["n"]})
        assert (await n.until("error"))["msg"]["code"] == "takeback_not_here"
        for c in (n, s):
            await c.close()

    run(people())

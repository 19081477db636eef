"""Kill the server (SIGKILL, a real ``burraco serve`` process) in the middle of a hand, start it again on the same
store: every table resumes exactly where its last committed event left it, no action lost or doubled."""

from __future__ import annotations

import asyncio
import os
import signal
from pathlib import Path
from typing import Any

from websockets.exceptions import ConnectionClosed

from burraco import replay
from burraco.cards import cards_str, parse_cards
from burraco.record import replay_match
from server_support import Client, create, free_port, hint_player, http, run, server_process, sqlite_url


def test_sigkill_mid_hand_then_resume(tmp_path: Path) -> None:
    db = sqlite_url(tmp_path / "restart.sqlite3")
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    ws_url = f"ws://127.0.0.1:{port}/ws"
    proc = server_process(db, port)
    try:
        easy = {"kind": "computer", "level": "heuristic:easy"}

        def actions(c: Client) -> int:
            return sum(1 for x in c.got if x["type"] == "event" and x["kind"] == "action")

        async def first_life() -> tuple[dict[str, Any], list[dict[str, object]], dict[str, int]]:
            # a hand can end before its 25th action (a stalemate, §9.3.2): then another table, three at most
            for _ in range(3):
                t = create(base, preset="italian", hands=1, seats=[{"kind": "human"}, easy, {"kind": "human"}, easy])
                spec = await Client.open(ws_url)
                await spec.hello(t["id"])
                players = {s: await Client.open(ws_url) for s in "NS"}
                for s, c in players.items():
                    await c.hello(t["id"], t["tokens"][s])
                tasks = [asyncio.create_task(hint_player(c)) for c in players.values()]
                got = await spec.until(
                    lambda m, spec=spec: m["type"] == "event" and (
                        m["kind"] == "hand_end" or (m["kind"] == "action" and actions(spec) >= 25))
                )
                if got["kind"] == "action":
                    break
                await asyncio.gather(*tasks)  # the game is over: they stop at its end
                for c in (spec, *players.values()):
                    await c.close()
            else:
                raise AssertionError("three hands ended before their 25th action")
            os.kill(proc.pid, signal.SIGKILL)  # mid-hand, while the players keep sending
            proc.wait(timeout=10)
            for task in tasks:
                try:
                    await task
                except (ConnectionClosed, OSError):
                    pass
            seen = [m for c in (spec, *players.values()) for m in c.got if m["type"] == "event"]
            return t, seen, {s: c.last_n for s, c in players.items()}

        t, seen, last = run(first_life(), timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=10)
        if proc.stderr is not None:
            proc.stderr.close()

    proc = server_process(db, port)
    try:

        async def second_life() -> dict[str, object]:
            late = await Client.open(ws_url)
            await late.hello(t["id"], last=0)
            stored = {m["n"]: m for m in late.got if m["type"] == "event"}
            # nothing broadcast before the kill is lost: every event anyone saw is stored, the same, same number
            for m in seen:
                assert stored[m["n"]]["kind"] == m["kind"] and stored[m["n"]]["data"] == m["data"]
            assert sorted(stored) == list(range(1, max(stored) + 1))
            # the players come back with their last event numbers and get exactly what they missed
            players = {s: await Client.open(ws_url) for s in "NS"}
            for s, c in players.items():
                await c.send({"type": "hello", "v": 1, "table": t["id"], "token": t["tokens"][s], "last": last[s]})
                w = await c.until("welcome")
                assert w["replay"] is not None and w["n"] - last[s] == w["replay"]
                st = await c.until("state")
                assert st["you"] == s
            # the hand the server resumed is the stored record replayed: North's hand matches the engine's
            n_state = players["N"].state
            assert n_state is not None
            await asyncio.gather(*(hint_player(c) for c in players.values()))
            for c in (late, *players.values()):
                await c.close()
            return n_state

        n_state = run(second_life(), timeout=90)
        status, rec = http("GET", base + f"/api/tables/{t['id']}/games/0/record")
        assert status == 200
        out = replay(rec)
        assert out["ok"] and out["hands"][0]["end"] is not None
        # every action event of the table is in the record exactly once, in order
        async def all_events() -> list[dict[str, object]]:
            c = await Client.open(ws_url)
            await c.hello(t["id"], last=0)
            await c.close()
            return [m for m in c.got if m["type"] == "event"]

        events = run(all_events())
        actions = [m["data"]["action"] for m in events if m["kind"] == "action"]  # type: ignore[index]
        assert actions == rec["hands"][0]["actions"]
        # the state North saw on reconnecting is the record's state at that event number
        upto = count_actions(events, last_n(n_state))
        m = replay_match({**rec, "hands": [{**rec["hands"][0], "actions": actions[:upto]}]})
        assert cards_str(parse_cards(" ".join(n_state["view"]["hand"]))) == cards_str(m.view(0).hand)
    finally:
        proc.kill()
        proc.wait(timeout=10)
        if proc.stderr is not None:
            proc.stderr.close()


def last_n(state: dict[str, object]) -> int:
    return int(state["n"])  # type: ignore[call-overload]


def count_actions(events: list[dict[str, object]], n: int) -> int:
    return sum(1 for e in events if e["kind"] == "action" and int(e["n"]) <= n)  # type: ignore[call-overload]

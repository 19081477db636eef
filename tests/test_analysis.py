"""The coach (burraco.analysis, ``burraco analyse``): reproducible with an iteration budget, a deliberately bad move
is marked, the judgement depends on the seat's view only (never the hidden cards), and the annotated record still
replays."""

from __future__ import annotations

import json
import random
from pathlib import Path

from typer.testing import CliRunner

from burraco import Game, determinize, preset, replay
from burraco.analysis import BLUNDER, MISTAKE, analyse, judge, mark_of
from burraco.bots.ismcts import ISMCTSPlayer
from burraco.cli import app
from helpers import new_game, play


def passed_pile() -> Game:
    """S holds 8h 9h Th Jh and lets a pile of 3h 4h 5h 6h 7h go by: taking it makes a clean burraco at once."""
    g = new_game(
        "italian",
        hands={"S": "8h 9h Th Jh Kc Kd 4c 6s 9s Qd 3d"},
        upcard="Qs",
        stock_top="3h 4h 2c 5h 6h 7h 5c",
        avoid="2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh Ah",
    )
    play(g, ["N draw", "N discard 3h", "E draw", "E discard 4h", "S draw", "S discard 2c"])
    play(g, ["W draw", "W discard 5h", "N draw", "N discard 6h", "E draw", "E discard 7h"])
    assert g.table_json()["pile"] == ["Qs", "3h", "4h", "2c", "5h", "6h", "7h"]
    g.apply("S draw")  # the bad move: he draws (and he discarded a wild, the 2c, the turn before)
    return g


def test_a_passed_pile_that_makes_a_burraco_is_marked() -> None:
    g = passed_pile()
    res = analyse(g.to_record(), seats=["S"], iterations=6, seed=3)
    pile = [d for d in res.decisions if d.kind == "pile" and d.played == "S draw"]
    assert pile, res.decisions
    d = pile[-1]
    assert d.best == "S pick" and d.loss >= MISTAKE and d.mark in ("mistake", "blunder"), d
    wild = next(d for d in res.decisions if d.played == "S discard 2c")
    assert wild.mark in ("mistake", "blunder") and wild.kind == "discards"  # a wild thrown away


def test_the_analysis_is_reproducible_with_an_iteration_budget() -> None:
    g = Game.new(preset("italian-2p"), seed=8)
    rng = random.Random(8)
    for _ in range(12):
        acts = g.legal_actions()
        g.apply(acts[rng.randrange(len(acts))])
    rec = g.to_record()
    a = analyse(rec, seats=["N"], iterations=3, seed=5).to_json()
    b = analyse(rec, seats=["N"], iterations=3, seed=5).to_json()
    assert a == b and a["decisions"]
    assert {d["kind"] for d in a["decisions"]} <= {"pile", "melds", "discards", "closing"}
    assert all(d["loss"] >= 0 and d["value_best"] >= d["value_played"] for d in a["decisions"])
    hands = a["summary"]
    assert sum(h["decisions"] for h in hands) == len(a["decisions"])


def test_the_judgement_uses_the_seats_view_only() -> None:
    """The same view from two states that differ in the hidden cards gives the same judgement."""
    g = passed_pile()
    real = Game.from_deal(g.rules, g.deal, 3)  # type: ignore[arg-type]
    for a in g.actions[:-1]:
        real.apply(a)
    view = real.view(2)
    other = determinize(view, random.Random(99))
    assert other.view(2) == view and other.hands != real.hands
    got = [
        judge(s.view(2), s.legal_actions(), s.parse("S draw"), ISMCTSPlayer(seed=4, iterations=4))
        for s in (real, other)
    ]
    assert got[0] == got[1]


def test_marks_need_the_loss_beyond_the_noise() -> None:
    assert mark_of(BLUNDER + 1, 10.0) == "blunder"
    assert mark_of(MISTAKE + 1, 10.0) == "mistake"
    assert mark_of(MISTAKE + 1, MISTAKE + 5) is None  # within one standard error: not marked
    assert mark_of(5.0, 0.0) is None


def test_the_command_line_and_the_annotated_record(tmp_path: Path) -> None:
    g = passed_pile()
    f = tmp_path / "game.json"
    f.write_text(json.dumps(g.to_record()))
    out = tmp_path / "annotated.json"
    r = CliRunner().invoke(
        app, ["analyse", str(f), "--seat", "S", "--iterations", "3", "--json", "--out", str(out)]
    )
    assert r.exit_code == 0, r.output
    data = json.loads(r.output[r.output.index("{") :])
    assert data["format"] == "burraco-analysis/1" and data["seats"] == ["S"]
    annotated = json.loads(out.read_text())
    assert annotated["analysis"] == data
    assert replay(annotated)["ok"]  # the replay ignores the analysis (RECORDS.md §3: unknown keys)
    bad = CliRunner().invoke(app, ["analyse", str(f), "--seat", "Z"])
    assert bad.exit_code == 2 and "unknown seat" in bad.output


def test_the_replay_table_shows_the_coachs_marks() -> None:
    """Issue 22 item 6: ``burraco replay --watch`` of an annotated record says the coach's word on a marked move,
    once it is played (the passed pile: better take the pile)."""
    import asyncio

    from burraco.i18n import Translator
    from burraco.tui.watch import WatchApp, watch_positions
    from burraco.tui.widgets import Line

    g = passed_pile()
    rec = g.to_record()
    res = analyse(rec, seats=["S"], iterations=6, seed=3)
    d = next(d for d in res.decisions if d.played == "S draw" and d.mark is not None)
    positions, err = watch_positions(res.annotate(rec))
    assert err == ""

    async def run() -> None:
        app = WatchApp(positions, Translator("en"), seat=2, marks=res.decisions)
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.pause()
            for _ in range(d.index):
                await pilot.press("right")
            await pilot.pause()
            assert app.query_one("#message", Line).plain == ""  # before the move: nothing said
            await pilot.press("right")
            await pilot.pause()
            said = app.query_one("#message", Line).plain
            assert said == f"The coach, {d.mark}: better take the pile ({d.loss:.0f} points)"

    asyncio.run(run())

"""The coach (burraco.analysis, ``burraco analyse``): reproducible with an iteration budget, a deliberately bad move
is marked, the judgement depends on the seat's view only (never the hidden cards), the coach never marks the
hint's move (one judgement), marks need the loss significant at the corrected level, and the annotated record
still replays."""

from __future__ import annotations

import json
import random
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from burraco import Game, determinize, hint, preset, replay
from burraco.analysis import (
    BLUNDER,
    INACCURACY,
    MEASURE_CAP,
    MISTAKE,
    Analysis,
    analyse,
    judge,
    mark_of,
    quantile,
    t_quantile,
)
from burraco.bots.heuristic import HeuristicPlayer
from burraco.bots.ismcts import DEFAULT_FLOOR
from burraco.bots.judge import PairedLosses, candidates, choose, refine
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
    assert d.lower >= MISTAKE and d.samples >= 16  # marked by its interval's lower end, on independent samples
    wild = next(d for d in res.decisions if d.played == "S discard 2c")
    assert wild.mark is not None and wild.loss >= INACCURACY and wild.kind == "discards", wild  # a wild thrown away


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
    got = [judge(s.view(2), s.legal_actions(), s.parse("S draw"), seed=4, iterations=4) for s in (real, other)]
    assert got[0] == got[1] and got[0][1] is not None


def test_the_second_look_chooses_the_largest_mean_on_more_samples_and_never_judges_the_hints_move() -> None:
    """Where the hint's samples chose another move, the coach chooses again on more samples: the candidate of
    largest mean there (the move played kept unless another's mean is higher), the same answer every time."""
    g = passed_pile()
    real = Game.from_deal(g.rules, g.deal, 3)  # type: ignore[arg-type]
    for a in g.actions[:-1]:
        real.apply(a)
    view, legal = real.view(2), real.legal_actions()
    draw = real.parse("S draw")
    again = refine(view, legal, draw, samples=24)
    assert again == refine(view, legal, draw, samples=24) and again.samples == 24
    assert again.best == real.parse("S pick") and again.value(again.best) - again.value(draw) > DEFAULT_FLOOR
    # every candidate of a meld-or-discard decision, played in turn
    g2 = Game.new(preset("italian-2p"), seed=4)
    while len(g2.legal_actions()) < 3 or g2.view(g2.current_seat).phase == "draw":
        g2.apply(g2.legal_actions()[0])
    v2, l2 = g2.view(g2.current_seat), g2.legal_actions()
    first = choose(v2, l2)
    for p in candidates(v2, l2):
        c = refine(v2, l2, p, samples=16)
        assert c.value(c.best) == max(c.values) and (c.best == p or c.value(c.best) > c.value(p)), (p, c)
        assert p != first.best or judge(v2, l2, p)[1] is None  # the hint's move is never judged


def test_the_loss_is_measured_against_the_better_of_the_second_looks_two_best_moves() -> None:
    """Where the second look's best and its runner-up are of about the same value, two analysis seeds may rank them
    the other way round: the loss is measured against both on the same independent samples and is the better one's
    (the same stream as the best's alone, so the best's differences do not change)."""
    g = Game.new(preset("italian-2p"), seed=4)
    while len(g.legal_actions()) < 3 or g.view(g.current_seat).phase == "draw":
        g.apply(g.legal_actions()[0])
    view, legal = g.view(g.current_seat), g.legal_actions()
    played, c = next((p, c) for p in candidates(view, legal) if (c := refine(view, legal, p, samples=16)).best != p)
    others = sorted((x for x in c.candidates if x not in (c.best, played)), key=c.value, reverse=True)
    assert c.best != played and others, c
    alone = PairedLosses(view, c.best, played, 3).more(48)
    both = PairedLosses(view, c.best, played, 3, rivals=(others[0],))
    diffs = both.more(16)
    diffs = both.more(32)
    assert both.each[0] == alone and len(both.each) == 2 and len(diffs) == 48
    k = 0 if sum(both.each[0]) >= sum(both.each[1]) else 1
    assert both.best == (c.best, others[0])[k] and diffs == both.each[k]
    # the played move and the best are never their own rivals
    assert PairedLosses(view, c.best, played, rivals=(c.best, played)).moves == [c.best, played]


def test_marks_need_the_loss_significant_at_the_corrected_level() -> None:
    """A mark is the highest threshold the interval's lower end reaches; the quantile is Student's t at 5 % over the
    hand's decisions and the looks (Bonferroni), so more decisions in a hand ask more of each."""
    assert mark_of(BLUNDER) == "blunder"
    assert mark_of(BLUNDER - 1) == "mistake"
    assert mark_of(MISTAKE + 1) == "mistake"
    assert mark_of(INACCURACY) == "inaccuracy"
    assert mark_of(INACCURACY - 0.1) is None and mark_of(-50.0) is None
    # Student's t, against the printed tables
    assert abs(t_quantile(0.975, 20) - 2.086) < 0.002
    assert abs(t_quantile(0.995, 30) - 2.750) < 0.002
    assert abs(t_quantile(0.9995, 15) - 4.073) < 0.002
    assert quantile(1, 1023) < quantile(20, 1023) < quantile(80, 1023) < quantile(80, 15)


def test_the_same_record_gives_the_same_marks_and_a_decision_is_judged_by_its_view() -> None:
    """The samples are seeded by the decision's view: analysing twice gives the same JSON, and judging the view of
    the last decision alone (rebuilt from the deal) gives the analysis's best move and loss."""
    g = passed_pile()
    rec = g.to_record()
    a = analyse(rec, seats=["S"], iterations=8)
    assert a.to_json() == analyse(rec, seats=["S"], iterations=8).to_json()
    last = a.decisions[-1]
    real = Game.from_deal(g.rules, g.deal, 3)  # type: ignore[arg-type]
    for x in g.actions[:-1]:
        real.apply(x)
    c, loss = judge(real.view(2), real.legal_actions(), real.parse("S draw"), iterations=8, decisions=3)
    assert str(c.best) == last.best and loss is not None and round(loss.mean, 1) == last.loss


def hint_game(seed: int, actions: int) -> Game:
    """An italian-2p hand where N plays the hint's moves and S the ``hard`` heuristic, ``actions`` actions long (or
    to its end)."""
    g = Game.new(preset("italian-2p"), seed=seed)
    other = HeuristicPlayer("hard", seed=seed)
    while g.end is None and len(g.actions) < actions:
        s = g.current_seat
        legal = g.legal_actions()
        a = hint(g.view(s), legal=legal).action if s == 0 else other.choose(g.view(s), legal)
        g.apply(a)
    return g


def test_a_hint_only_match_has_no_loss_though_its_views_carry_the_totals() -> None:
    """The hint at the tables (terminal, browser) comes from a match's view, which carries the match totals; the
    coach rebuilds each hand from the record: the samples are seeded without the totals, so a match played by the
    hint (a whole first hand, the start of the second) has no loss either."""
    from burraco import Match

    m = Match(preset("italian-2p"), seed=12)
    for h, limit in ((0, 10_000), (1, 20)):
        g = m.start_hand()
        other = HeuristicPlayer("hard", seed=h)
        while g.end is None and len(g.actions) < limit:
            s = g.current_seat
            legal = g.legal_actions()
            a = hint(m.view(s), legal=legal).action if s == 0 else other.choose(g.view(s), legal)
            m.apply(a)
    assert m.view(0).match_totals is not None and any(m.view(0).match_totals or ())
    res = analyse(m.to_record(), seats=["N"])
    assert {d.hand for d in res.decisions} == {0, 1}
    assert all(d.loss == 0.0 and d.mark is None for d in res.decisions), [d for d in res.decisions if d.loss]


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), actions=st.integers(8, 40))
def test_the_coach_never_marks_the_hints_move(seed: int, actions: int) -> None:
    """Issue 38 item 1: the hint and the coach are one judgement at the same budget, so a seat that played only the
    hint's moves has no mark and no loss; every decision's best is the move played."""
    g = hint_game(seed, actions)
    res = analyse(g.to_record(), seats=["N"])
    assert res.decisions
    for d in res.decisions:
        assert d.best == d.played and d.mark is None and d.loss == 0.0, d
    # another analysis seed draws other samples for the second look and the loss, never for the hint's own choice
    other = analyse(g.to_record(), seats=["N"], seed=seed + 1)
    assert all(d.mark is None and d.loss == 0.0 for d in other.decisions), other.decisions


def test_the_reasons_are_the_hints_words_with_what_the_better_move_keeps() -> None:
    """Issue 38 item 5: the coach says why the better move is better in the hint's words — the passed pile's cards
    that join S's hearts, the wild thrown away that the better discard keeps — in the player's language."""
    from burraco.coach import coach_lines
    from burraco.i18n import Translator

    g = passed_pile()
    res = analyse(g.to_record(), seats=["S"], iterations=8, seed=3)
    wild = next(d for d in res.decisions if d.played == "S discard 2c")
    assert wild.mark is not None and wild.why is not None
    en = "\n".join(coach_lines(Translator("en"), res.decisions, 0, 4, 8))
    assert "you chose to discard 2♣; better: " in en and "it keeps your wild 2♣" in en, en
    assert "better: take the pile: 7 cards, top 7♥; 7 of the visible ones match your hand" in en, en
    it = "\n".join(coach_lines(Translator("it"), res.decisions, 0, 4, 8))
    assert "tieni la matta 2♣" in it, it


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
    # --cap: the most samples a loss gets (the server's BURRACO_COACH_CAP), said in the JSON
    r = CliRunner().invoke(app, ["analyse", str(f), "--seat", "S", "--iterations", "3", "--cap", "32", "--json"])
    assert r.exit_code == 0, r.output
    capped = json.loads(r.output[r.output.index("{") :])
    assert capped["measure"]["cap"] == 32 and data["measure"]["cap"] == MEASURE_CAP
    assert all(d["samples"] <= 32 for d in capped["decisions"]) and any(d["samples"] for d in capped["decisions"])
    assert capped == analyse(g.to_record(), ["S"], iterations=3, cap=32).to_json()
    assert Analysis.from_json(capped).cap == 32
    assert CliRunner().invoke(app, ["analyse", str(f), "--cap", "1"]).exit_code == 2


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
            # the better move in the hint's words: what taking the pile gains
            assert said.startswith(f"The coach, {d.mark}: better take the pile: ") and "match your hand" in said
            assert said.endswith(f"({d.loss:.0f} points)"), said

    asyncio.run(run())

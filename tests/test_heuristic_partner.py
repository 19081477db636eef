"""A computer partner does not hand the opponents what they need (issue 22, item 3), on the situations reported by
a club player: the ``medium`` partner discarded 3♣ that the next opponent took with the pile (RULES.md §6) and
attached for a burraco (§4.8), and it put a joker on the human's natural 5♣ 6♣ 7♣ (§4.2, §4.8: a clean burraco is
worth twice a dirty one) with no need. The native core's heuristic (src/native/heuristic.c) chooses the same on these
states; ``safety=False`` is the play before the change (benchmarks/partner_safety.py measures both)."""

from __future__ import annotations

import random

import pytest

from burraco import Game, native, preset
from burraco.actions import Action
from burraco.bots.heuristic import HeuristicPlayer, _Ctx
from burraco.melds import meld_rules
from helpers import new_game, play


def _feeding_state() -> Game:
    """S (the partner) to discard; W, who plays next, has melded a clean 4♣ … 9♣: a 3♣ on the pile completes his
    clean burraco, and S holds 3♣ among cards that feed nobody."""
    g = new_game(
        "italian",
        hands={"S": "3c Qd Kd 9s Js 7d 6d Th 8h 4s 5s", "W": "4c 5c 6c 7c 8c 9c Ah Kh Ks Jh 3d"},
        stock_top="Qh Qs Jd Ts 4h 4d Kc",
        avoid="3c Tc",
    )
    play(g, ["N pass", "E pass", "S pass", "W draw", "W meld 4c 5c 6c 7c 8c 9c", "W discard 3d"])
    play(g, ["N pass", "E pass", "S draw"])
    return g


def _joker_state() -> Game:
    """S (the partner) in the play phase late in the hand (10 stock cards), with a joker and nothing else to meld;
    N (the human) has melded a natural 5♣ 6♣ 7♣ and S holds neither 4♣ nor 8♣."""
    g = new_game(
        "italian",
        hands={"N": "5c 6c 7c Qh Qs Jd Ts 9h 3h Kh Ks", "S": "JK 3d 6d 9d Qd 4s 7s Ts Ks 8h Jh"},
        avoid="4c 8c",
        fill_seed=16,
    )
    play(g, ["N draw", "N meld 5c 6c 7c", "N discard Kh", "E pass", "S pass", "W pass", "rotate 6"])
    play(g, ["N pass", "E pass", "S draw"])
    return g


def _choose(g: Game, level: str, safety: bool = True) -> Action:
    return HeuristicPlayer(level, seed=1, safety=safety).choose(g.view(g.turn), g.legal_actions())


def test_s6_the_reported_3c_was_discarded_and_the_next_opponent_takes_it() -> None:
    """The play before the change: S discards 3♣, W takes the pile (§6) and attaches it: a clean burraco (§4.8)."""
    g = _feeding_state()
    assert str(_choose(g, "medium", safety=False)) == "S discard 3c"
    play(g, ["S discard 3c", "W pick"])
    assert "W add 1 3c" in [str(a) for a in g.legal_actions()]
    g.apply("W add 1 3c")
    assert g.melds[g.side_of_seat[g.seats.index("W")]][0].burraco is not None


@pytest.mark.parametrize("level", ["medium", "hard"])
def test_s6_a_partner_does_not_discard_what_completes_the_next_opponents_burraco(level: str) -> None:
    """Every level from medium up keeps 3♣ while a safe discard exists (one that fits none of W's melds)."""
    g = _feeding_state()
    a = _choose(g, level)
    assert a.verb == "discard" and str(a) != "S discard 3c"
    assert _Ctx(g.view(g.turn), level).feeds(a.cards[0]) == 0.0


def test_s6_the_danger_of_a_discard_reads_the_next_opponents_melds_and_discards() -> None:
    """3♣ is the only card of S's hand that W's melds take; it completes a clean burraco (40 + half the clean
    bonus, times the pile's weight, less 15: W discarded a 3 himself, the pile's third card from the top)."""
    g = _feeding_state()
    v = g.view(g.turn)
    ctx = _Ctx(v, "medium")
    feeding = [c for c in v.hand if ctx.feeds(c) > 0]
    assert len(feeding) == 1 and ctx.next_discards >> (feeding[0] % 13) & 1
    assert ctx.feeds(feeding[0]) == 140.0 * (1.0 + v.pile_size / 20.0) - 15.0
    assert _Ctx(v, "easy").danger(feeding[0]) == 0.0


@pytest.mark.parametrize("level", ["medium", "hard"])
def test_s4_8_a_partner_does_not_put_a_joker_on_a_natural_run_without_need(level: str) -> None:
    """The joker stays in hand: on N's natural 5♣ 6♣ 7♣ it would turn a clean burraco chance (§4.8: 200) into a
    dirty one (100) without completing anything, and the hand is far from empty."""
    g = _joker_state()
    assert str(_choose(g, "medium", safety=False)) == "S add 1 JK"  # the play reported
    a = _choose(g, level)
    assert a.verb != "add"


def test_s4_8_a_wild_on_a_clean_meld_costs_nothing_when_it_completes_a_burraco_or_the_hand_is_nearly_empty() -> None:
    g = _joker_state()
    v = g.view(g.turn)
    ctx = _Ctx(v, "medium")
    mr = meld_rules(g.rules)
    run = v.melds[v.side_of(v.seat)][0]
    joker = 52
    dirty = mr.attach(run, (joker,))
    assert ctx.dirty_cost(run, dirty, left=11) > 0.0
    assert ctx.dirty_cost(run, dirty, left=2) == 0.0  # to go out or to close
    assert _Ctx(v, "easy").dirty_cost(run, dirty, left=11) == 0.0  # easy never thinks of it
    long_run = mr.make(tuple(range(3, 9)))  # a clean six-card run: a wild makes it a burraco
    assert ctx.dirty_cost(long_run, mr.attach(long_run, (joker,)), left=11) == 0.0


@pytest.mark.skipif(not native.available(), reason="burraco._native not built or BURRACO_PURE")
@pytest.mark.parametrize("state", [_feeding_state, _joker_state], ids=["feeding", "joker"])
def test_the_native_heuristic_chooses_the_same_on_these_states(state) -> None:  # type: ignore[no-untyped-def]
    g = state()
    legal = g.legal_actions()
    for level in ("easy", "medium", "hard"):
        p = HeuristicPlayer(level, seed=5)
        mine = random.Random()
        mine.setstate(p.rng.getstate())
        assert native.NativeHand.from_game(g).heuristic_choice(level, mine) == p.choose(g.view(g.turn), legal)
        assert mine.getstate() == p.rng.getstate()


@pytest.mark.skipif(not native.available(), reason="burraco._native not built or BURRACO_PURE")
@pytest.mark.parametrize("name", ["italian", "italian-2p", "brazilian", "italian-3p"])
def test_the_native_heuristic_chooses_the_same_on_hands_the_heuristic_plays(name: str) -> None:
    """Random play seldom reaches the states where the safety counts (a meld a card short of a burraco, a clean run
    and a wild in hand); hands played by medium and hard do: the native choice is Python's on each of their states."""
    n = 0
    for seed in range(2):
        g = Game.new(preset(name), seed=seed)
        h = native.NativeHand.from_game(g)
        players = [HeuristicPlayer(("medium", "hard")[(seed + k) % 2], seed=seed * 10 + k) for k in range(g.n)]
        while g.end is None:
            legal = g.legal_actions()
            for level in ("medium", "hard"):
                p = HeuristicPlayer(level, seed=n)
                mine = random.Random()
                mine.setstate(p.rng.getstate())
                assert h.heuristic_choice(level, mine) == p.choose(g.view(g.turn), legal)
                n += 1
            a = players[g.turn].choose(g.view(g.turn), legal)
            g.apply(a)
            h.apply(a)
    assert n > 100

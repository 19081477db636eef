"""Honesty of the computer players (issue "computer players", section Honesty), over every preset.

* determinizations never give the searching seat a card it cannot have, and always give the others the cards it
  saw them pick up: every card outside the seat's knowledge comes from the view's ``unseen`` counts;
* a player's decision depends only on its view: the true state and several determinizations of the same view
  (other hands, stock, pozzetti permuted consistently with it) give the same action for the same seed;
* every action the search returns is legal.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from burraco import PRESETS, Game, determinize, preset
from burraco.bots import CheatingISMCTSPlayer, HeuristicPlayer, ISMCTSPlayer
from burraco.bots.infer import seat_avoid, seat_weights
from burraco.cards import NUM_TYPES


def _states(name: str, seed: int, every: int = 7) -> list[Game]:
    """Copies of the states of one hand of ``name`` played by medium heuristics, one every ``every`` actions."""
    g = Game.new(preset(name), seed=seed)
    players = [HeuristicPlayer("medium", seed=s) for s in range(g.n)]
    out = []
    step = 0
    while g.end is None:
        if step % every == 0:
            out.append(g.clone())
        seat = g.current_seat
        g.apply(players[seat].choose(g.view(seat), g.legal_actions()))
        step += 1
    return out


def _visible_hand(g: Game, seat: int) -> list[int]:
    hid = g.hidden[seat]
    return [g.hands[seat][t] - (hid[t] if hid is not None else 0) for t in range(NUM_TYPES)]


def _hidden_cards(g: Game, seat: int) -> Counter[int]:
    """The cards ``seat`` cannot see: other hands, stock, pozzetti left, its own unseen pozzetto, the covered pile."""
    c: Counter[int] = Counter()
    for s in range(g.n):
        if s != seat:
            c.update({t: k for t, k in enumerate(g.hands[s]) if k})
    hid = g.hidden[seat]
    if hid is not None:
        c.update({t: k for t, k in enumerate(hid) if k})
    c.update(g.stock)
    for p in g.pozzetti:
        if p is not None:
            c.update(p)
    if not g.rules.discard_pile_open:
        c.update(g.pile[:-1])
    return c


@pytest.mark.parametrize("name", sorted(PRESETS))
@pytest.mark.parametrize("weighted", [False, True], ids=["uniform", "inferred"])
def test_determinizations_keep_what_the_seat_knows(name: str, weighted: bool) -> None:
    """Uniform sampling and sampling weighted by burraco.bots.infer alike (its weights and the natural melds it
    takes a seat not to hold)."""
    rng = random.Random(name)
    checked = 0
    for g in _states(name, seed=len(name)):
        for seat in range(g.n):
            v = g.view(seat)
            inferred = (seat_weights(v), seat_avoid(v)) if weighted else (None, None)
            d = determinize(v, random.Random(rng.randrange(10**9)), *inferred)
            assert d.view(seat) == v
            # the seat's own hand (but a pozzetto it may not look at yet), the table and the visible pile are
            # where it saw them
            assert _visible_hand(d, seat) == _visible_hand(g, seat)
            assert d.melds == g.melds and (d.pile == g.pile or not g.rules.discard_pile_open)
            for o in range(g.n):
                if o == seat:
                    continue
                # the others hold at least the cards the seat saw them pick up (and still hold)
                assert all(d.hands[o][t] >= v.known[o][t] for t in range(NUM_TYPES))
                assert d.hand_n[o] == g.hand_n[o]
            # everything else is dealt from the cards the seat cannot locate, nothing more
            hidden = _hidden_cards(d, seat)
            for o in range(g.n):
                if o != seat:
                    hidden.subtract({t: k for t, k in enumerate(v.known[o]) if k})
            assert +hidden == Counter({t: k for t, k in enumerate(v.unseen) if k})
            assert len(d.stock) == len(g.stock)
            checked += 1
    assert checked > 0


@pytest.mark.parametrize("name", sorted(PRESETS))
@pytest.mark.parametrize("search", ["flat", "tree", "flat-discards"])
def test_ismcts_decision_depends_only_on_the_view(name: str, search: str) -> None:
    """flat-discards: the flat search with Inference.discards (determinizations resampled by the discards)."""
    infer: dict[str, float] | bool = {"discards": 5.0} if search == "flat-discards" else True
    search = search.split("-")[0]
    checked = 0
    for g in _states(name, seed=40 + len(name), every=9):
        if g.end is not None or checked >= 2:
            continue
        legal = g.legal_actions()
        if len(legal) < 3:
            continue
        seat = g.current_seat
        view = g.view(seat)
        states = [g] + [determinize(view, random.Random(7 + k)) for k in range(2)]
        choices = {
            ISMCTSPlayer(seed=3, iterations=4, rollout_depth=8, search=search, infer=infer).choose(
                d.view(seat), legal
            )
            for d in states
        }
        assert len(choices) == 1
        checked += 1
    assert checked > 0


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_ismcts_and_cheat_return_legal_actions(name: str) -> None:
    g = Game.new(preset(name), seed=17)
    honest = ISMCTSPlayer(seed=1, iterations=3, rollout_depth=10)
    cheat = CheatingISMCTSPlayer(seed=1, iterations=3, rollout_depth=10)
    others = [HeuristicPlayer("hard", seed=s) for s in range(g.n)]
    searched = 0
    while g.end is None:
        seat = g.current_seat
        legal = g.legal_actions()
        if len(legal) > 1 and searched < 16 and seat in (0, 1):
            a = honest.choose(g.view(seat), legal) if seat == 0 else cheat.choose_with_state(g, legal)
            assert a in legal
            searched += 1
        else:
            a = others[seat].choose(g.view(seat), legal)
        g.apply(a)
    assert searched > 0

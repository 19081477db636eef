"""Inference about the other hands (burraco.bots.infer) and weighted determinizations (burraco.view.determinize).

A player who could attach a natural card to his side's melds usually does (§5: attaching is always allowed in
one's own turn), so the search samples such cards into his hand less often; it never rules a consistent world out.
"""

from __future__ import annotations

import random
from collections import Counter

from burraco import Game, determinize, preset
from burraco.bots import HeuristicPlayer
from burraco.bots.infer import FITS_OWN_MELD, seat_weights
from burraco.cards import JOKER, parse_card
from burraco.melds import meld_rules


def _state_with_melds() -> Game:
    """A hand of medium heuristics played until both sides have melds and every seat has hidden cards."""
    g = Game.new(preset("italian"), seed=5)
    players = [HeuristicPlayer("medium", seed=s) for s in range(g.n)]
    while g.end is None:
        if all(g.melds) and g.phase == "draw" and min(g.hand_n) >= 3:
            return g
        seat = g.current_seat
        g.apply(players[seat].choose(g.view(seat), g.legal_actions()))
    raise AssertionError("no state with melds on both sides")


def test_weights_mark_the_naturals_that_fit_the_seats_own_side() -> None:
    g = _state_with_melds()
    v = g.view(0)
    w = seat_weights(v)
    assert w[0] is None  # never about the seat itself
    ctx = meld_rules(v.rules)
    for s in (1, 2, 3):
        ws = w[s]
        assert ws is not None
        fits = 0
        for m in v.melds[v.side_of(s)]:
            fits |= ctx.singles(m)
        for c in range(53):
            natural_fit = fits >> c & 1 and c != JOKER and c % 13 != 1
            assert ws[c] == (FITS_OWN_MELD if natural_fit else 1.0), (s, c)


def test_no_melds_no_weights() -> None:
    v = Game.new(preset("italian"), seed=1).view(0)
    assert seat_weights(v) == [None, None, None, None]


def test_weighted_sampling_follows_the_weights_and_keeps_the_view() -> None:
    g = _state_with_melds()
    v = g.view(0)
    w = seat_weights(v)
    fit = {c for c in range(53) if w[1] is not None and w[1][c] < 1}
    assert fit
    counts = {None: 0, "w": 0}
    rng = random.Random(0)
    for _ in range(300):
        for key, weights in ((None, None), ("w", w)):
            d = determinize(v, random.Random(rng.getrandbits(32)), weights)
            assert d.view(0) == v
            counts[key] += sum(d.hands[1][c] - v.known[1][c] for c in fit)
    # fitting naturals land in seat 1's hand far less often than uniformly (weight 0.05 each)
    assert counts["w"] < counts[None] / 3, counts


def test_weighted_sampling_without_replacement_is_exact() -> None:
    """Every unseen card is dealt exactly once, whatever the weights (even 0)."""
    g = _state_with_melds()
    v = g.view(2)
    zero = [[0.0] * 53 if s != 2 else None for s in range(4)]
    for weights in (zero, seat_weights(v)):
        d = determinize(v, random.Random(3), weights)
        total: Counter[int] = Counter()
        for s in range(4):
            total.update({c: k for c, k in enumerate(d.hands[s]) if k})
        total.update(d.stock)
        total.update(d.pile)
        for p in d.pozzetti:
            if p is not None:
                total.update(p)
        for side in d.melds:
            for m in side:
                total.update(m.cards)
        assert sum(total.values()) == 108
        assert total[parse_card("JK")] == 4

"""The measuring sticks of docs/strength.md, "How much a model of the hands can know" (benchmarks/hand_model.py,
benchmarks/search_variants.py): what they read from a view is what the game did, and the soft oracle runs from
uniform sampling toward the true hands as its sharpness grows."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import numpy as np

from burraco import Game, preset

sys.path.append(str(Path(__file__).resolve().parents[1] / "benchmarks"))  # after the installed packages: no shadowing

import hand_model  # noqa: E402
import search_variants  # noqa: E402


def test_pile_discarders_are_the_seats_that_discarded_the_visible_pile() -> None:
    # RULES.md §3.2 (one discard a turn), §6 (a pick-up takes the whole pile), §2.3.4 (the up-card under it all)
    checked = 0
    for g, who in hand_model.hard_states("italian", 3, 0, 1):
        for seat in range(g.n):
            assert hand_model.pile_discarders(g.view(seat)) == who
            checked += 1
    assert checked > 300


def test_features_see_only_the_view() -> None:
    # two games with the same view of seat 0 but other hidden hands give the same features
    g = Game.new(preset("italian"), seed=5)
    view = g.view(0)
    other = g.clone()
    a, b = other.hands[1], other.hands[2]
    c = next(c for c in range(53) if a[c] > 0 and b[c] == 0 and view.known[1][c] == 0)
    d = next(d for d in range(53) if b[d] > 0 and a[d] == 0 and view.known[2][d] == 0)
    a[c] -= 1
    b[c] += 1
    b[d] -= 1
    a[d] += 1
    assert other.view(0) == view
    fa, fb = hand_model.features(view), hand_model.features(other.view(0))
    assert fa.keys() == fb.keys() == {1, 2, 3}
    for o in fa:
        assert np.array_equal(fa[o], fb[o])


def test_soft_oracle_goes_from_uniform_to_the_true_hands() -> None:
    g = Game.new(preset("italian"), seed=11)
    rng = random.Random(0)
    low = hand_model.placed(g, 0, search_variants.soft_hands_sampler(g, 0, 0.0), rng, 16)
    mid = hand_model.placed(g, 0, search_variants.soft_hands_sampler(g, 0, 1.0), rng, 16)
    high = hand_model.placed(g, 0, search_variants.soft_hands_sampler(g, 0, 8.0), rng, 16)
    assert 0.05 < low < mid < high
    # sharp weights draw only card types the hand holds (weights per type cannot say which seat holds the other
    # copy of a type, so a type held once may be drawn twice)
    det = search_variants.soft_hands_sampler(g, 0, 12.0)(rng)
    for o in (1, 2, 3):
        assert all(g.hands[o][c] for c in range(53) if det.hands[o][c])


def test_a_fitted_model_finds_that_players_attach_what_fits_their_melds() -> None:
    # players attach a natural that fits their side's melds: such a card is rarely in a hand
    x, off, y, n, wrong = hand_model.collect("italian", 12, 3, 3)
    assert wrong == 0
    w = hand_model.fit(x, off, y, n)
    assert w[hand_model.NAMES.index("fits_own")] < -0.5
    model = hand_model.LearnedInference(list(w))
    g = Game.new(preset("italian"), seed=2)
    weights, avoid = model.sample_args(g.view(0))
    assert avoid is None and weights[0] is None
    assert all(wt is not None and len(wt) == 53 for wt in weights[1:])

"""burraco.hint: the recommended action with a reason in words (issue: computer players, hints)."""

from __future__ import annotations

import random

import pytest

from burraco import Game, hint, preset


@pytest.mark.parametrize("name", ["italian", "brazilian", "international"])
def test_hint_is_legal_with_a_reason_over_a_game(name: str) -> None:
    g = Game.new(preset(name), seed=5)
    rng = random.Random(5)
    seen = set()
    steps = 0
    while not g.is_over and steps < 120:
        legal = g.legal_actions()
        h = hint(g.view(g.current_seat), legal=legal)
        assert h.action in legal
        assert h.reason and str(h.action.verb) in str(h) or h.reason
        seen.add(h.action.verb)
        g.apply(legal[rng.randrange(len(legal))])
        steps += 1
    assert {"discard"} <= seen


def test_hint_from_the_view_alone_matches_hint_with_legal() -> None:
    g = Game.new(preset("italian"), seed=9)
    g.apply("N draw")
    v = g.view(0)
    assert hint(v) == hint(v, legal=g.legal_actions())


def test_hint_refuses_a_seat_not_to_act_and_a_bad_level() -> None:
    g = Game.new(preset("italian"), seed=9)
    with pytest.raises(ValueError, match="not this seat's turn"):
        hint(g.view(1))
    with pytest.raises(ValueError, match="unknown level"):
        hint(g.view(0), level="genius")

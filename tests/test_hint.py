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


def test_the_hints_pile_ping_pong_is_no_worse_than_another_discard_on_the_true_hands() -> None:
    """Issue 38 item 6 (benchmarks/pingpong.py): a seat playing the hint sometimes takes the pile and discards the
    card that was on top of it; valued on the opponent's true hand (the same rollouts), that discard is not worse
    than the best other one by two standard errors."""
    import sys
    from pathlib import Path

    sys.path.append(str(Path(__file__).resolve().parents[1] / "benchmarks"))  # after the installed packages
    from pingpong import run

    out = run(hands=1, seed=1, samples=128)
    assert out["pingpongs"] >= 1, out
    assert out["wrong"] == 0, out["rows"]

"""Take-backs that reveal nothing (burraco.takeback, docs/fairness.md "Take-backs"): a meld, an attachment or a swap
of one's own in this turn may be taken back, latest first; never a draw from the stock, a pile taken, a play that
took the pozzetto, a discard, nor anything across another seat's turn; the hand taken back is exactly the hand
before the play."""

from __future__ import annotations

import random

import pytest

from burraco import Game, Match, preset
from burraco.rules import PRESETS
from burraco.takeback import TAKE_BACK_VERBS, why_not, without_last
from helpers import build_deal


def same(a: Game, b: Game) -> bool:
    return a.table_json() == b.table_json() and all(a.hand_cards(s) == b.hand_cards(s) for s in range(a.n)) \
        and a.phase == b.phase and a.current_seat == b.current_seat and str(a.actions) == str(b.actions)


def north(hand: str, stock_top: str = "Th", pozzetti: tuple[str, ...] = ()) -> Match:
    m = Match(preset("italian"))
    m.start_hand(build_deal("italian", hands={"N": hand}, stock_top=stock_top, pozzetti=list(pozzetti)))
    return m


def test_a_meld_and_an_attachment_are_taken_back_latest_first_but_never_the_draw() -> None:
    m = north("3h 4h 5h 6h 7h 8h 9h Kc Kd Ks JK")
    g = m.game
    m.apply("N draw")
    assert why_not(g, 0).code == "takeback_draw"  # he has seen the card: he could take the pile instead
    drawn = g.clone()
    m.apply("N meld 3h 4h 5h")
    melded = g.clone()
    m.apply("N add 1 6h 7h")
    assert why_not(g, 0) is None and why_not(g, 1).code == "takeback_other_turn"
    assert same(m.take_back(), melded)
    assert why_not(m.game, 0) is None
    assert same(m.take_back(), drawn)
    assert why_not(m.game, 0).code == "takeback_draw"


def test_neither_the_pile_nor_a_discard_nor_another_turn() -> None:
    m = north("3h 4h 5h 6h 7h 8h 9h Kc Kd Ks JK")
    m.apply("N pick")
    assert why_not(m.game, 0).code == "takeback_pick"
    m.apply("N discard Kc")
    assert why_not(m.game, 0).code == "takeback_other_turn"  # E's turn now
    assert why_not(m.game, 1).code == "takeback_nothing"  # E has played nothing yet
    m.apply("E draw")
    assert why_not(m.game, 1).code == "takeback_draw"


def test_a_play_that_took_the_pozzetto_cannot_be_taken_back() -> None:
    """N melds his last cards and takes his pozzetto in diretta (RULES.md §7.2): he has seen its cards."""
    m = north("3h 4h 5h 6h 7h 8h 9h Kc Kd Ks JK", stock_top="Th")
    m.apply("N draw")
    m.apply("N meld 3h 4h 5h 6h 7h 8h 9h Th")
    assert why_not(m.game, 0) is None
    m.apply("N meld Kc Kd Ks JK")
    assert m.game.pozzetti_left() == 1
    assert why_not(m.game, 0).code == "takeback_pozzetto"


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_whatever_may_be_taken_back_gives_back_exactly_the_hand_before(name: str) -> None:
    """Random legal play in every preset: after every action, the current seat may take it back exactly when it is
    its own meld, attachment or swap in its turn that took no pozzetto, and the hand taken back is the hand before."""
    rng = random.Random(name)
    g = Game.new(preset(name), seed=rng.randrange(10**6))
    allowed = 0
    for _ in range(3000):
        if g.is_over:
            if allowed >= 3:
                break
            g = Game.new(preset(name), seed=rng.randrange(10**6))
        before = g.clone()
        a = rng.choice(g.legal_actions())
        g.apply(a)
        why = why_not(g, g.current_seat)
        if a.verb in TAKE_BACK_VERBS and before.pozzetti_left() == g.pozzetti_left() and not g.is_over:
            assert why is None, (a, why)
            assert same(without_last(g), before)
            allowed += 1
        else:
            assert why is not None, a
    assert allowed > 0

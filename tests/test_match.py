"""``Match`` deals hand ``i`` from ``(seed, i)``: a match rebuilt from its record and its seed goes on exactly as the
unbroken match (``Match.deal_for_hand``, ``burraco.record.continue_match``)."""

from __future__ import annotations

import random

import pytest

import burraco
from burraco import Game, Match, preset
from burraco.actions import Action
from burraco.cards import CARD_STR
from burraco.record import continue_match


def greedy(legal: list[Action], rng: random.Random) -> Action:
    """Melds and adds first (so hands end by closing too), else a random legal action."""
    good = [a for a in legal if a.verb in ("meld", "add")]
    return rng.choice(good or legal)


def play_hand(m: Match, rng: random.Random, stop: int | None = None) -> None:
    g = m.game
    while not g.is_over and (stop is None or len(g.actions) < stop):
        m.apply(greedy(g.legal_actions(), rng))


def play_match(m: Match, seed: int, max_hands: int = 3) -> None:
    rng = random.Random(seed)
    while not m.is_over and len(m.games) < max_hands:
        if not m.games or m.game.is_over:
            m.start_hand()
        play_hand(m, rng)


def test_deal_for_hand_depends_on_seed_and_hand_only() -> None:
    r = preset("italian")
    a, b = Match(r, seed=11), Match(r, seed=11)
    assert [a.deal_for_hand(i) for i in range(4)] == [b.deal_for_hand(i) for i in range(4)]
    assert a.deal_for_hand(1) == a.deal_for_hand(1)  # no state is consumed
    assert len({a.deal_for_hand(i) for i in range(4)}) == 4
    assert Match(r, seed=12).deal_for_hand(1) != a.deal_for_hand(1)
    assert a.deal_for_hand(0) == Game.new(r, seed=11).deal  # hand 0: as Game.new deals
    a.start_hand()
    assert a.game.deal == b.deal_for_hand(0)
    for i in range(3):
        a.deal_for_hand(i).check(r)
    with pytest.raises(ValueError):
        a.deal_for_hand(-1)


def test_deal_for_hand_is_stable_across_versions() -> None:
    # saved games of burraco play are continued from these: a change deals other hands after a --resume
    d = Match(preset("italian-2p"), seed=0).deal_for_hand(1)
    assert (CARD_STR[d.hands[0][0]], CARD_STR[d.stock[0]]) == ("Qc", "9d")


def test_without_a_seed_every_deal_is_fresh() -> None:
    m = Match(preset("italian"))
    assert m.seed is None
    assert m.deal_for_hand(1) != m.deal_for_hand(1)


def test_physical_deal_and_dealer_draw_from_the_seed() -> None:
    r = preset("italian")
    a = Match(r, seed=3, physical_deal=True, draw_dealer=True)
    b = Match(r, seed=3, physical_deal=True, draw_dealer=True)
    assert a.dealer == b.dealer and a.dealer_draw == b.dealer_draw
    assert (
        a.deal_for_hand(2) == b.deal_for_hand(2) == burraco.deal_physical(r, a._source(2), a.hand_dealer(2))
    )


@pytest.mark.parametrize(
    ("name", "over"),
    [("italian", {}), ("italian-tournament", {}), ("brazilian-2p", {})],
)
@pytest.mark.parametrize("cut", [0, 1, 2])
def test_continue_from_record_equals_the_unbroken_match(name: str, over: dict[str, int], cut: int) -> None:
    r = preset(name, **over)
    seed = 5 + cut
    whole = Match(r, seed=seed)
    play_match(whole, seed)
    assert len(whole.games) == 3

    # the same match stopped in hand ``cut`` (in its middle), saved as a record and continued from it
    part = Match(r, seed=seed)
    rng = random.Random(seed)
    while len(part.games) <= cut:
        part.start_hand()
        play_hand(part, rng, stop=7 if len(part.games) == cut + 1 else None)
    rec = part.to_record()
    again = continue_match(rec, seed)
    assert again.to_record() == rec and again.seed == seed
    play_hand(again, rng)
    while not again.is_over and len(again.games) < 3:
        again.start_hand()
        play_hand(again, rng)
    assert again.to_record() == whole.to_record()
    assert again.totals == whole.totals and again.summary_json() == whole.summary_json()


def test_continue_from_a_record_between_hands() -> None:
    r = preset("italian")
    whole = Match(r, seed=21)
    play_match(whole, 21)
    assert len(whole.games) >= 2
    rec = whole.to_record()
    rec["hands"] = rec["hands"][:1]
    again = continue_match(rec, 21)
    assert again.game.is_over and not again.is_over
    g = again.start_hand()
    assert g.deal == whole.games[1].deal


def test_a_record_without_the_seed_continues_with_fresh_deals() -> None:
    r = preset("italian")
    m = Match(r, seed=4)
    m.start_hand()
    again = burraco.replay_match(m.to_record())
    assert again.seed is None and again.deal_for_hand(1) != m.deal_for_hand(1)

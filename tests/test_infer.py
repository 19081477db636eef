"""Inference about the other hands (burraco.bots.infer) and weighted determinizations (burraco.determinize.determinize).

A player who could attach a natural card to his side's melds usually does (§5: attaching is always allowed in
one's own turn), so the search samples such cards into his hand less often; it never rules a consistent world out.
"""

from __future__ import annotations

import math
import random
from collections import Counter

import pytest

from burraco import Game, determinize, native, preset
from burraco.bots import HeuristicPlayer, ISMCTSPlayer, RandomPlayer
from burraco.bots.infer import (
    FITS_OPPONENT_MELD,
    FITS_OWN_MELD,
    Inference,
    pick_weighted,
    seat_avoid,
    seat_weights,
)
from burraco.cards import JOKER, parse_card
from burraco.determinize import AVOID_TRIES, holds_natural_meld
from burraco.melds import meld_rules
from burraco.rules import ALL_SET_RANKS


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


def test_weights_mark_the_naturals_that_fit_the_seats_own_side_and_the_opponents() -> None:
    """Naturals that fit the seat's side melds are rare in his hand (he attaches them); with the calibrated weight,
    those that fit only the opponents' stay there (he does not feed the opponents); wilds and the rest weigh 1."""
    g = _state_with_melds()
    v = g.view(0)
    for fits_opponent in (1.0, FITS_OPPONENT_MELD):
        w = seat_weights(v, fits_opponent=fits_opponent)
        if fits_opponent == 1.0:
            assert w == seat_weights(v)  # the default: the model of 2026-11-30
        assert w[0] is None  # never about the seat itself
        ctx = meld_rules(v.rules)
        marked = {FITS_OWN_MELD: 0, fits_opponent: 0}
        for s in (1, 2, 3):
            ws = w[s]
            assert ws is not None
            own = theirs = 0
            for side, melds in enumerate(v.melds):
                for m in melds:
                    if side == v.side_of(s):
                        own |= ctx.singles(m)
                    else:
                        theirs |= ctx.singles(m)
            for c in range(53):
                natural = c != JOKER and c % 13 != 1
                expected = 1.0
                if natural and own >> c & 1:
                    expected = FITS_OWN_MELD
                elif natural and theirs >> c & 1:
                    expected = fits_opponent
                assert ws[c] == expected, (s, c)
                marked[expected] = marked.get(expected, 0) + 1
        assert marked[FITS_OWN_MELD] and marked[fits_opponent]


def test_the_default_model_is_that_of_2026_11_30_and_the_calibrated_one_an_option() -> None:
    g = _state_with_melds()
    v = g.view(0)
    weights, avoid = Inference().sample_args(v)
    assert avoid is None and weights == seat_weights(v)
    assert all(w is None or set(w) <= {1.0, FITS_OWN_MELD} for w in weights)
    weights, avoid = Inference.calibrated().sample_args(v)
    assert avoid == seat_avoid(v) and any(a for a in avoid)
    assert any(w is not None and FITS_OPPONENT_MELD in w for w in weights)
    assert Inference.of(False) is None and Inference.of(True) == Inference()
    assert Inference.of({"calibrated": True}) == Inference.calibrated()
    assert Inference.of({"avoid_melds": True}) == Inference(avoid_melds=True)


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


# ----- natural melds a seat is taken not to hold (seat_avoid) ------------------------------------------------------


def _hand(text: str) -> list[int]:
    h = [0] * 53
    for t in text.split():
        h[parse_card(t)] += 1
    return h


def test_holds_natural_meld_finds_runs_and_sets_of_three_naturals() -> None:
    """§4.3, §4.4: a run is three naturals of one suit in a row (the Ace above the King too); a set three of a rank
    the rules allow. A 2 is left out (in a hand it is as often a wild), and so is the joker."""
    runs = 1
    every_set = sum(1 << r for r in ALL_SET_RANKS)  # every rank but the 2 (§4.3)
    assert holds_natural_meld(_hand("5h 6h 7h Kc"), [], runs)
    assert holds_natural_meld(_hand("Qs Ks As"), [], runs)
    assert not holds_natural_meld(_hand("Ks As 2s"), [], runs)  # no run around the corner
    assert not holds_natural_meld(_hand("Ah 2h 3h"), [], runs)  # the 2 may be a wild: not counted
    assert not holds_natural_meld(_hand("5h 6d 7h"), [], runs)
    assert not holds_natural_meld(_hand("5h 6h JK"), [], runs)
    assert holds_natural_meld(_hand("5h 6h"), [parse_card("7h")], runs)  # the extra cards count
    assert holds_natural_meld(_hand("9h 9d 9s"), [], every_set)
    assert not holds_natural_meld(_hand("9h 9d 9s"), [], runs)  # sets only where asked
    assert not holds_natural_meld(_hand("9h 9d 9s"), [], 1 << 3)  # a set of 3s only
    assert holds_natural_meld(_hand("3h 3h 3s"), [], 1 << 3)
    assert not holds_natural_meld(_hand("2h 2d 2s"), [], every_set)  # no sets of 2s


def _seat_has_played(g: Game, seat: int) -> bool:
    return ((seat - g.first) * g.rules.direction) % g.n < g.turns


def test_seat_avoid_is_about_seats_that_ended_a_turn() -> None:
    """Only a seat that has ended a turn of this hand (so had the chance to lay its melds down), is not the one
    playing and holds no pozzetto it has not looked at is sampled without natural melds; with the rules' set
    ranks (italian: every rank but the 2; brazilian: runs only)."""
    for name, mask in (("italian", 1 | sum(1 << r for r in (1, *range(3, 14)))), ("brazilian", 1)):
        g = Game.new(preset(name), seed=3)
        players = [HeuristicPlayer("hard", seed=s) for s in range(g.n)]
        seen = set()
        while g.end is None:
            v = g.view(g.current_seat)
            avoid = seat_avoid(v)
            for s in range(g.n):
                expected = s != v.seat and s != v.turn and not v.hidden_seats[s] and _seat_has_played(g, s)
                assert avoid[s] == (mask if expected else 0), (name, s, g.turns)
                seen.add(avoid[s])
            g.apply(players[g.current_seat].choose(v, g.legal_actions()))
        assert seen == {0, mask}
    assert seat_avoid(Game.new(preset("italian"), seed=1).view(0)) == [0, 0, 0, 0]


def test_seat_avoid_waits_for_a_first_meld_minimum() -> None:
    """§14.7: where a first meld needs a minimum, three naturals may be too few points to lay down, so a seat whose
    side has not opened keeps them."""
    g = Game.new(preset("italian", min_first_meld=90), seed=3)
    players = [RandomPlayer(seed=s) for s in range(g.n)]
    for _ in range(12):
        g.apply(players[g.current_seat].choose(g.view(g.current_seat), g.legal_actions()))
    v = g.view(g.current_seat)
    assert g.turns >= 2
    for s in range(g.n):
        assert seat_avoid(v)[s] == 0 or v.melds[v.side_of(s)]


def test_determinize_avoids_natural_melds_in_those_hands() -> None:
    """Sampled hands of seats that ended a turn hold a natural run or set far less often than uniform ones, and
    still exactly the cards the view allows (a draw is taken again at most AVOID_TRIES times, then kept)."""
    g = _state_with_melds()
    v = g.view(g.current_seat)
    avoid = seat_avoid(v)
    seats = [s for s in range(g.n) if avoid[s]]
    assert seats
    rng = random.Random(4)
    held = {None: 0, "avoid": 0}
    for _ in range(200):
        for key, av in ((None, None), ("avoid", avoid)):
            d = determinize(v, random.Random(rng.getrandbits(32)), None, av)
            assert d.view(v.seat) == v
            held[key] += sum(holds_natural_meld(d.hands[s], [], avoid[s]) for s in seats)
    assert held["avoid"] * 5 < held[None], held
    assert AVOID_TRIES >= 2


def test_pick_weighted_draws_in_proportion_to_the_likelihoods() -> None:
    ll = [math.log(1.0), math.log(3.0), -math.inf]
    assert pick_weighted(ll, 0.0) == 0 and pick_weighted(ll, 0.24) == 0 and pick_weighted(ll, 0.26) == 1
    assert pick_weighted(ll, 0.999) == 1  # a weight of 0 is never drawn
    rng = random.Random(1)
    drawn = Counter(pick_weighted([0.0, math.log(3.0)], rng.random()) for _ in range(4000))
    assert 0.7 < drawn[1] / 4000 < 0.8


def _draw_states(name: str, games: int, every: int) -> list[Game]:
    """States of hands played by heuristic:hard at every seat, in draw phase with discards on the pile."""
    out = []
    for seed in range(games):
        g = Game.new(preset(name), seed=seed)
        players = [HeuristicPlayer("hard", seed=seed * 10 + s) for s in range(g.n)]
        step = 0
        while g.end is None:
            if step % every == 3 and g.phase == "draw" and len(g.pile) >= 2:
                out.append(g.clone())
            seat = g.current_seat
            legal = g.legal_actions()
            g.apply(legal[0] if len(legal) == 1 else players[seat].choose(g.view(seat), legal))
            step += 1
    return out


@pytest.mark.skipif(not native.available(), reason="burraco._native not built or BURRACO_PURE")
def test_the_discards_are_likelier_with_the_hands_players_really_hold() -> None:
    """Inference.discards: with the heuristic as the model of a player, the latest discards the pile shows are
    likelier under the hands the other seats really hold than under the search's determinizations of the view.
    Every turn ends with a discard and a pick-up takes the whole pile (RULES.md §3.2, §6.2): the card k from the top
    of an open pile (§6.1) is the latest discard of the seat k + 1 turns back."""
    higher = total = 0
    for g in _draw_states("italian", 8, 5):
        seat = g.current_seat
        v = g.view(seat)
        true = native.NativeHand.from_game(g).discard_loglik(seat, "hard", 5.0)
        dets = native.Determinizer(v, *Inference().sample_args(v))
        rng = random.Random(len(g.actions))
        for _ in range(10):
            higher += true > dets.sample(rng).discard_loglik(seat, "hard", 5.0)
            total += 1
    assert total >= 200
    assert higher / total > 0.7, (higher, total)


@pytest.mark.skipif(not native.available(), reason="burraco._native not built or BURRACO_PURE")
@pytest.mark.parametrize("name", ["brazilian-fechado", "italian"])
def test_a_closed_pile_shows_only_its_top_discard(name: str) -> None:
    """RULES.md §14.1 (discard pile: closed in brazilian-fechado, top card only): the cards under the top one are
    hidden, so the likelihood does not depend on them; with an open pile (§6.1) it weighs them too."""
    changed = same = 0
    for g in _draw_states(name, 4, 5):
        if len(g.pile) < 4:
            continue
        seat = g.current_seat
        before = native.NativeHand.from_game(g).discard_loglik(seat, "hard", 5.0)
        g2 = g.clone()
        g2.pile[-2], g2.stock[0] = g2.stock[0], g2.pile[-2]  # a covered card swapped with one of the stock
        g2.pile[-3], g2.stock[1] = g2.stock[1], g2.pile[-3]
        after = native.NativeHand.from_game(g2).discard_loglik(seat, "hard", 5.0)
        same += after == before
        changed += after != before
    if g.rules.discard_pile_open:
        assert changed > 0
    else:
        assert changed == 0 and same > 0


@pytest.mark.skipif(not native.available(), reason="burraco._native not built or BURRACO_PURE")
def test_no_discard_to_weigh_before_the_first_turn_ends() -> None:
    g = Game.new(preset("italian"), seed=2)
    h = native.NativeHand.from_game(g)
    assert h.discard_loglik(g.current_seat, "hard", 5.0) == 0.0
    with pytest.raises(ValueError, match="tau"):
        h.discard_loglik(g.current_seat, "hard", 0.0)


@pytest.mark.skipif(not native.available(), reason="burraco._native not built or BURRACO_PURE")
def test_the_search_weighing_discards_is_reproducible() -> None:
    """ISMCTSPlayer with Inference.discards: the same seed and iterations give the same values, and they differ
    from the search's without it (the determinizations are resampled)."""
    g = _draw_states("italian", 1, 5)[4]
    v = g.view(g.current_seat)
    legal = g.legal_actions()
    weigh = Inference.of({"discards": 5.0})
    assert weigh == Inference(discards=5.0)
    runs = [ISMCTSPlayer(seed=3, iterations=12, infer=infer) for infer in (weigh, weigh, True)]
    cands = runs[0].root_candidates(v, legal)
    values = [p.candidate_values(v, cands) for p in runs]
    assert values[0] == values[1]
    assert values[0] != values[2]

"""House rules that add an action: the first player's redraw (§14.1 row 36, C-45) and taking a replaced wild back
into the hand (C-18, SEED2). Both are off in every preset."""

from __future__ import annotations

import random

import pytest

from burraco import Deal, Game, IllegalActionError, parse_action, parse_cards, preset, replay


def _deal(rules_name: str, north: str, stock_top: str, **opts: object) -> tuple[Game, object]:  # noqa: ANN401
    """A deal where N holds ``north`` (plus filler) and the stock starts with ``stock_top``."""
    r = preset(rules_name, **opts)
    want_n = parse_cards(north)
    top = parse_cards(stock_top)
    pool = [c for c in range(52) for _ in range(r.decks)] + [52] * r.jokers
    for c in want_n + top:
        pool.remove(c)
    rng = random.Random(1)
    rng.shuffle(pool)
    hands = [want_n + [pool.pop() for _ in range(r.hand_size - len(want_n))]]
    for _ in range(r.players - 1):
        hands.append([pool.pop() for _ in range(r.hand_size)])
    pozz = [[pool.pop() for _ in range(r.pozzetto_size)] for _ in range(r.num_pozzetti)]
    up = pool.pop() if r.up_card else None
    deal = Deal(tuple(map(tuple, hands)), tuple(map(tuple, pozz)), up, tuple(top + pool))
    deal.check(r)
    return Game.from_deal(r, deal, r.players - 1), r


def test_14_1_row36_redraw_off_by_default() -> None:
    g, _ = _deal("italian", "", "Kc")
    g.apply("N draw")
    assert not g.is_legal("N redraw")
    with pytest.raises(IllegalActionError, match="no redraw"):
        g.apply("N redraw")


def test_14_1_row36_first_player_redraws_once() -> None:
    g, _ = _deal("brazilian", "", "Kc 5d 9h", first_player_redraw=True)
    g.apply("N draw")
    assert parse_action("N redraw") in g.legal_actions()
    g.apply("N redraw")
    assert g.pile == parse_cards("Kc")  # the first card went face up to the pile
    assert g.hands[0][parse_cards("5d")[0]] >= 1 and g.hand_n[0] == 12
    assert not g.is_legal("N redraw")  # once only
    g.apply("N discard 5d")
    # nobody else may redraw, not even on a first turn
    g.apply("E draw")
    assert not g.is_legal("E redraw")


def test_14_1_row36_no_redraw_after_a_meld_or_a_pick() -> None:
    g, _ = _deal("italian", "3h 4h", "5h 6c", first_player_redraw=True)
    g.apply("N draw")
    g.apply("N meld 3h 4h 5h")
    assert not g.is_legal("N redraw")
    g2, _ = _deal("italian", "", "5h", first_player_redraw=True)
    g2.apply("N pick")
    assert not g2.is_legal("N redraw")


def test_C18_swap_off_by_default_wild_stays() -> None:
    g, _ = _deal("italian", "5h JK 7h 6h", "Kc")
    g.apply("N draw")
    g.apply("N meld 5h JK 7h")
    assert not g.is_legal("N swap 1 6h")
    g.apply("N add 1 6h")  # the ordinary way: the joker moves to an end and stays in the meld
    assert g.melds[0][0].wild == 52 and g.hands[0][52] == 0


def test_C18_swap_takes_the_wild_back_and_cleans_the_meld() -> None:
    g, _ = _deal("italian", "5h JK 7h 6h", "Kc", wild_may_return_to_hand=True)
    g.apply("N draw")
    g.apply("N meld 5h JK 7h")
    assert parse_action("N swap 1 6h") in g.legal_actions()
    before = g.hand_n[0]
    g.apply("N swap 1 6h")
    m = g.melds[0][0]
    assert m.wild == -1 and sorted(m.cards) == parse_cards("5h 6h 7h")
    assert g.hands[0][52] == 1 and g.hand_n[0] == before
    # the whole table saw the joker go to N's hand
    assert g.view(1).known[0][52] == 1
    out = replay(g.to_record())
    assert out["ok"] and out["hands"][0]["table"]["melds"]["NS"][0]["wild"] is False


def test_C18_swap_needs_the_exact_card() -> None:
    g, _ = _deal("italian", "5h JK 7h 6d 8h", "Kc", wild_may_return_to_hand=True)
    g.apply("N draw")
    g.apply("N meld 5h JK 7h")
    assert not g.is_legal("N swap 1 6d")  # not a heart
    assert not g.is_legal("N swap 1 8h")  # the joker is locked as 6h
    with pytest.raises(IllegalActionError, match="not the card the wild"):
        g.apply("N swap 1 8h")


def test_C18_swap_random_games_conserve_cards_and_replay() -> None:
    r = preset("brazilian", wild_may_return_to_hand=True, first_player_redraw=True)
    swaps = 0
    for seed in range(15):
        g = Game.new(r, seed=seed)
        rng = random.Random(seed)
        while not g.is_over:
            legal = g.legal_actions()
            house = [a for a in legal if a.verb in ("swap", "redraw")]
            a = rng.choice(house) if house and rng.random() < 0.7 else rng.choice(legal)
            swaps += a.verb == "swap"
            g.apply(a)
            total = sum(g.hand_n) + len(g.stock) + len(g.pile) + sum(m.size for s in g.melds for m in s)
            total += sum(len(p) for p in g.pozzetti if p)
            assert total == r.deck_size
        out = replay(g.to_record())
        assert out["ok"] and out["hands"][0]["scores"] == g.scores()
    assert swaps > 0

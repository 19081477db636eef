"""Perft-like regression counts (as python-chess does for chess): at fixed positions, the exact number of legal
actions and of distinct meld/add actions, and a depth-2 count. Every count is also checked by brute force: every
sub-multiset of the hand, as a new meld and as an attachment to each of the side's melds, every discard, draw and
pick are tested with ``is_legal`` and must give exactly ``set(legal_actions())``."""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Callable, Iterator

import pytest

import burraco
from burraco import Action, Game
from burraco.actions import ADD, DISCARD, DRAW, MELD, PICK
from helpers import hand_str, new_game, play


def submultisets(hand: list[int]) -> Iterator[tuple[int, ...]]:
    c = Counter(hand)
    keys = sorted(c)
    for combo in itertools.product(*[range(c[k] + 1) for k in keys]):
        out: list[int] = []
        for k, n in zip(keys, combo, strict=True):
            out += [k] * n
        if out:
            yield tuple(out)


def brute_force_legal(g: Game) -> set[Action]:
    seat = g.current_seat
    name = g.seats[seat]
    hand = g.hand_cards(seat)
    side = seat % 2 if g.n == 4 else seat
    nmelds = len(g.table_json()["melds"][g.sides[side]])
    cands = [Action(name, DRAW), Action(name, PICK)] + [Action(name, DISCARD, (c,)) for c in range(53)]
    for s in submultisets(hand):
        if len(s) >= 3:
            cands.append(Action(name, MELD, s))
        for k in range(1, nmelds + 2):  # one meld number too many: must be refused
            cands.append(Action(name, ADD, s, k))
    return {a for a in cands if g.is_legal(a)}


# ----------------------------------------------------------------------------------------------------------------
# positions
# ----------------------------------------------------------------------------------------------------------------
def pos_start() -> Game:
    """italian, seed 0: N to draw."""
    return Game.new(burraco.preset("italian"), seed=0)


def pos_seed0_after_draw() -> Game:
    g = Game.new(burraco.preset("italian"), seed=0)
    g.apply("N draw")
    return g


def pos_seed2024_after_draw() -> Game:
    g = Game.new(burraco.preset("italian"), seed=2024)
    g.apply("N draw")
    return g


def pos_diretta_with_wilds() -> Game:
    """N has gone to the pozzetto in diretta (clean 3h..Th burraco, four jacks); pozzetto with two wilds."""
    g = new_game(
        "italian",
        hands={"N": "3h 4h 5h 6h 7h 8h 9h Jc Jd Js Jh"},
        stock_top="Th",
        pozzetti=["5c 6c 7c 8c Qd Qs Qh 2s JK 4h Kd"],
    )
    play(g, ["N draw", "N meld 3h 4h 5h 6h 7h 8h 9h Th", "N meld Jc Jd Js Jh"])
    return g


def pos_brazilian_hearts() -> Game:
    """brazilian: N holds Ah..Qh (runs only, natural 2, no sets)."""
    g = new_game("brazilian", hands={"N": "Ah 2h 3h 4h 5h 6h 7h 8h 9h Th Jh"}, stock_top="Qh")
    g.apply("N draw")
    return g


def pos_fechado_top_card() -> Game:
    """brazilian-fechado: E has picked up the 9d and must use it."""
    g = new_game(
        "brazilian-fechado", hands={"N": "9d", "E": "9s 9c 9h 8d Td 2c 4s 7s Ks 6c Qc"}, stock_top="Ac Qd"
    )
    play(g, ["N draw", "N discard 9d", "E pick"])
    return g


def pos_lone_pick() -> Game:
    """N (pozzetto taken, clean burraco) holds Jc and has picked up the lone Jh."""
    g = new_game(
        "italian",
        hands={"N": "3h 4h 5h 6h 7h 8h 9h Jc Jd Js Jh", "W": "Jh"},
        stock_top="Th",
        pozzetti=["Jc Qd Kd Kd Ks 5c 6c 7c 8c 9c Tc"],
    )
    play(g, ["N draw", "N meld 3h 4h 5h 6h 7h 8h 9h Th", "N meld Jc Jd Js Jh", "N meld Kd Kd Ks"])
    play(
        g,
        ["N meld 5c 6c 7c 8c 9c Tc", "N discard Qd", "E pass", "S pass", "W pick", "W discard Jh", "N pick"],
    )
    return g


# name, builder, expected hand, legal actions, meld/add actions
PERFT: list[tuple[str, Callable[[], Game], str | None, int, int]] = [
    ("start", pos_start, None, 2, 0),
    ("seed0_after_draw", pos_seed0_after_draw, None, 27, 16),
    ("seed2024_after_draw", pos_seed2024_after_draw, "3h 6h Th Qh 5d 5d 9d 7c Kc 3s 4s 9s", 11, 0),
    ("diretta_with_wilds", pos_diretta_with_wilds, "4h Qh Qd Kd 5c 6c 7c 8c 2s Qs JK", 51, 40),
    ("brazilian_hearts", pos_brazilian_hearts, "Ah 2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh", 232, 220),
    ("fechado_top_card", pos_fechado_top_card, "9h 8d 9d Td 2c 6c 9c Qc 4s 7s 9s Ks", 22, 22),
    ("lone_pick", pos_lone_pick, "Jh Jc", 3, 2),
]


@pytest.mark.parametrize("case", PERFT, ids=[c[0] for c in PERFT])
def test_perft_depth1_counts(case: tuple[str, Callable[[], Game], str | None, int, int]) -> None:
    _, build, hand, n_legal, n_meld = case
    g = build()
    if hand is not None:
        assert hand_str(g, g.seats[g.current_seat]) == hand
    legal = g.legal_actions()
    assert len(legal) == n_legal
    assert len(set(legal)) == n_legal
    assert sum(1 for a in legal if a.verb in (MELD, ADD)) == n_meld


@pytest.mark.parametrize("case", PERFT, ids=[c[0] for c in PERFT])
def test_perft_depth1_brute_force(case: tuple[str, Callable[[], Game], str | None, int, int]) -> None:
    g = case[1]()
    assert brute_force_legal(g) == set(g.legal_actions())


def test_perft_lone_pick_actions() -> None:
    assert pos_lone_pick().legal_actions_str() == ["N discard Jc", "N add 1 Jh", "N add 2 Jh"]


def test_perft_fechado_every_legal_action_keeps_the_top_card_usable() -> None:
    g = pos_fechado_top_card()
    assert not any(a.verb == DISCARD for a in g.legal_actions())
    nine_d = burraco.parse_card("9d")
    uses_top = [a for a in g.legal_actions() if nine_d in a.cards]
    assert len(uses_top) == 15


def depth2(g: Game) -> int:
    total = 0
    for a in g.legal_actions():
        c = g.clone()
        c.apply(a)
        total += len(c.legal_actions())
    return total


def test_perft_depth2_diretta_with_wilds() -> None:
    g = pos_diretta_with_wilds()
    assert depth2(g) == 935


def test_perft_depth2_brazilian_hearts() -> None:
    assert depth2(pos_brazilian_hearts()) == 8722


def test_perft_depth2_seed0() -> None:
    g = pos_start()
    assert depth2(g) == 27 + 34  # draw → 27; pick the up-card → 34 (checked below)
    g.apply("N pick")
    assert len(g.legal_actions()) == 34
    assert brute_force_legal(g) == set(g.legal_actions())


def test_perft_depth2_brute_force_diretta_with_wilds() -> None:
    g = pos_diretta_with_wilds()
    for a in g.legal_actions():
        c = g.clone()
        c.apply(a)
        if c.is_over or c.phase != "play":
            continue
        assert brute_force_legal(c) == set(c.legal_actions()), str(a)

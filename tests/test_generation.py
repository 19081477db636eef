"""The cached generators of new melds and attachments (burraco.gen) against the meld solver (burraco.melds), both ways.

The generators enumerate candidates directly (sequence attachments never go through the solver), so these tests
are what guarantees that `legal_actions()` lists exactly the melds and attachments the rules allow (RULES.md §4, §5.4,
§0.1 "Attachments")."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Callable

import pytest

from burraco import Game, preset
from burraco.gen import generator, wild_sig
from burraco.melds import SEQUENCE, SET, Meld, MeldError, MeldRules, meld_rules


def _sub_multisets(cards: list[int]) -> list[tuple[int, ...]]:
    cnt = sorted(Counter(cards).items())
    out = []
    for combo in itertools.product(*[range(k + 1) for _, k in cnt]):
        t = tuple(sorted(c for (c, _), j in zip(cnt, combo, strict=True) for _ in range(j)))
        if t:
            out.append(t)
    return out


def _new_melds_by_solver(
    ctx: MeldRules, hand: list[int], keep: Callable[[Meld], bool]
) -> set[tuple[int, ...]]:
    """Every sub-multiset of ``hand`` the meld solver accepts as a new meld that ``keep`` selects (brute force)."""
    out = set()
    for t in _sub_multisets(hand):
        if len(t) < 3:
            continue
        try:
            m = ctx.make(t)
        except MeldError:
            continue
        if keep(m):
            out.add(t)
    return out


def _melds_from_play(rules_name: str, games: int) -> list[Meld]:
    r = preset(rules_name)
    found: dict[Meld, None] = {}
    for seed in range(games):
        g = Game.new(r, seed=seed)
        rng = random.Random(seed)
        while not g.is_over:
            for side in g.melds:
                for m in side:
                    found[m] = None
            legal = g.legal_actions()
            g.apply(legal[rng.randrange(len(legal))])
    return list(found)


def _hand_counts(cards: list[int]) -> bytes:
    h = bytearray(53)
    for c in cards:
        h[c] += 1
    return bytes(h)


@pytest.mark.parametrize("rules_name", ["italian", "brazilian", "brazilian-fechado"])
def test_5_4_attachments_generated_equal_solver(rules_name: str) -> None:
    """Every attachment the solver accepts is generated, and nothing else (sequences and sets)."""
    r = preset(rules_name)
    ctx = meld_rules(r)
    gen = generator(ctx)
    melds = _melds_from_play(rules_name, 40)
    assert melds
    rng = random.Random(7)
    for _ in range(600):
        m = rng.choice(melds)
        if m.kind == SEQUENCE:
            pool = [m.suit * 13 + i for i in range(13)] * 2
            counts_of = lambda hb, m=m: hb[m.suit * 13 : m.suit * 13 + 13]  # noqa: E731
        else:
            pool = [m.rank - 1 + 13 * s for s in range(4)] * 2
            counts_of = lambda hb, m=m: hb[m.rank - 1 : m.rank - 1 + 40 : 13]  # noqa: E731
        pool += [52, 52, 1, 14, 27, 40]
        hand = rng.sample(pool, rng.randint(1, 8))
        hb = _hand_counts(hand)
        got = set(gen.additions(m, counts_of(hb), wild_sig(hb)))
        want = set()
        for t in _sub_multisets(hand):
            try:
                ctx.attach(m, t)
                want.add(t)
            except MeldError:
                pass
        assert got == want, (m, sorted(hand), got - want, want - got)


@pytest.mark.parametrize("rules_name", ["italian", "brazilian", "international"])
def test_4_5_new_sequences_generated_equal_solver(rules_name: str) -> None:
    """Every new sequence the solver accepts (RULES.md §4.5) is generated, and nothing else."""
    r = preset(rules_name)
    ctx = meld_rules(r)
    gen = generator(ctx)
    rng = random.Random(11)
    for _ in range(800):
        suit = rng.randrange(4)
        pool = [suit * 13 + i for i in range(13)] * 2 + [52, 52, 1, 14, 27, 40]
        hand = rng.sample(pool, rng.randint(2, 9))
        hb = _hand_counts(hand)
        got = {t for t, _ in gen.sequences(suit, hb[suit * 13 : suit * 13 + 13], wild_sig(hb))}
        want = _new_melds_by_solver(ctx, hand, lambda m, suit=suit: m.kind == SEQUENCE and m.suit == suit)
        assert got == want, (sorted(hand), got - want, want - got)


@pytest.mark.parametrize("rules_name", ["italian", "international", "brazilian-fechado"])
def test_4_3_new_sets_generated_equal_solver(rules_name: str) -> None:
    """Every new set the solver accepts (RULES.md §4.3) is generated, and nothing else."""
    r = preset(rules_name)
    ctx = meld_rules(r)
    gen = generator(ctx)
    rng = random.Random(5)
    for _ in range(300):
        rank = rng.choice(sorted(ctx.set_ranks))
        pool = [rank - 1 + 13 * s for s in range(4)] * 2 + [52, 52, 1, 14, 27, 40]
        hand = rng.sample(pool, rng.randint(2, 10))
        hb = _hand_counts(hand)
        got = set(gen.sets(rank, hb[rank - 1 : rank - 1 + 40 : 13], wild_sig(hb)))
        want = _new_melds_by_solver(ctx, hand, lambda m, rank=rank: m.kind == SET and m.rank == rank)
        assert got == want, (sorted(hand), got - want, want - got)


def test_4_3_sets_of_twos_house_rule_generated_equal_solver() -> None:
    """RULES.md §4.2.3 and C-12 (the house rule ``allow_set_of_twos``, §14): a 2 is a natural of the set and a wild at
    once; the generator must never use one card both ways (a hand with one 2c once offered ``meld 2c 2c 2s``)."""
    r = preset("italian", allow_set_of_twos=True)
    ctx = meld_rules(r)
    gen = generator(ctx)
    rng = random.Random(8)
    for _ in range(300):
        pool = [1, 14, 27, 40] * 2 + [52, 52]
        hand = rng.sample(pool, rng.randint(2, 9))
        hb = _hand_counts(hand)
        got = set(gen.sets(2, hb[1 : 1 + 40 : 13], wild_sig(hb)))
        want = _new_melds_by_solver(ctx, hand, lambda m: m.kind == SET and m.rank == 2)
        assert got == want, (sorted(hand), got - want, want - got)


@pytest.mark.parametrize(
    "rules",
    [
        preset("italian", allow_set_of_twos=True),
        preset("brazilian", allowed_set_ranks=list(range(1, 14)), allow_set_of_twos=True, extra_honours=True),
    ],
)
def test_melds_and_attachments_use_only_cards_held(rules: object) -> None:
    """§5.4: an attachment (and likewise a new meld) is a multiset of the player's hand cards; here with the
    set-of-2s house rule (§4.2.3, C-12)."""
    checked = 0
    for seed in range(12):
        g = Game.new(rules, seed=seed)  # type: ignore[arg-type]
        rng = random.Random(seed)
        while not g.is_over:
            held = Counter(g.hand_cards(g.current_seat))
            legal = g.legal_actions()
            for a in legal:
                if a.verb in ("meld", "add"):
                    need = Counter(a.cards)
                    assert all(need[c] <= held[c] for c in need), (str(a), sorted(held.elements()))
                    checked += 1
            g.apply(legal[rng.randrange(len(legal))])
    assert checked > 1000

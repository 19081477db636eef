#!/usr/bin/env python3
"""Differential run of the native core (burraco._native) against the Python engine, the reference.

Plays random hands of every preset and rule variant the native core takes (:func:`burraco.native.supported`), with
2 to 6 players, on both engines at once; at every state it compares the legal action lists (the same actions in the
same order), the whole state after each action (:func:`burraco.native.fields_of`) and the scores at the hand's end.
Half the hands are played by a uniform random player, half by a greedy one (melds and pick-ups first) that reaches
big hands, long melds and closings more often. tests/test_native.py runs a small sample of it in CI::

    python benchmarks/native_diff.py --states 1000000

prints the states compared and exits 1 at the first difference (which it describes).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from typing import Any

from burraco import PRESETS, Game, Rules, native, preset
from burraco.actions import Action
from burraco.rules import RulesError

#: rule parameters varied around the italian and brazilian presets (each alone)
VARIANTS: tuple[dict[str, Any], ...] = (
    {"three_morto": True}, {"semiclean": False}, {"extra_honours": True}, {"no_canastra_penalty": True},
    {"closing_discard_may_be_wild": True}, {"semipulito_wild_at_end_only": True},
    {"single_card_pile_no_rediscard": False}, {"pickup_with_one_card_allowed": False},
    {"discard_pile_open": False}, {"direction": -1}, {"allowed_set_ranks": [1, 3]}, {"allowed_set_ranks": []},
    {"max_sequence_len": 10}, {"max_set_size": 6}, {"burraco_min_len": 5}, {"two_natural_aces": True},
    {"closing_requires_discard": False}, {"stalemate": False}, {"turn_cap": 20}, {"closing_burraco": "clean"},
    {"indirect_pozzetto_counts_if_unplayed": False}, {"up_card": False}, {"hand_size": 15, "pozzetto_size": 9},
    {"forbid_duplicate_set_rank": False}, {"forbid_identical_sequences": False},
    {"pickup_rule": "must_open_or_attach"}, {"pickup_rule": "must_use_top_card"}, {"min_first_meld": 50},
    {"min_first_meld": 90, "min_meld_required_for_pickup": True}, {"pickup_rule": "must_use_top_card",
    "discard_pile_open": False, "min_first_meld": 30}, {"first_player_redraw": True},
    {"wild_may_return_to_hand": True}, {"first_player_redraw": True, "wild_may_return_to_hand": True,
    "min_first_meld": 50},
)  # fmt: skip


def rule_sets(variants: bool = True) -> list[Rules]:
    """Every preset with 2 to 6 players (3 and 5 players with the solo and the pairs and in individual hands) where
    its rules allow that count and, with ``variants``, each of :data:`VARIANTS` on italian and brazilian with 2 and
    4 players: those the native core takes."""
    out: list[Rules] = []
    for r in PRESETS.values():
        for p in (2, 3, 4, 5, 6):
            try:
                rr = r if r.players == p else r.replace(players=p)
            except RulesError:  # Brazilian rule sets are for 2 and 4 players
                continue
            # 3 and 5 players: the solo and the pairs, and the individual hands (after 1000 points)
            for x in (rr, rr.replace(solo_pair=False)) if p in (3, 5) else (rr,):
                if native.supported(x) is None and x not in out:
                    out.append(x)
    if variants:
        for base in ("italian", "brazilian"):
            for v in VARIANTS:
                for p in (2, 4):
                    try:
                        rr = preset(base, players=p, **v)
                    except RulesError:  # a variant these rules do not take (three_morto with 2 players)
                        continue
                    if native.supported(rr) is None:
                        out.append(rr)
    return out


def choose(legal: list[Action], rng: random.Random, greedy: bool) -> Action:
    """A uniform random legal action, or with ``greedy`` mostly a meld or a pick-up."""
    if greedy:
        melds = [a for a in legal if a.verb in ("meld", "add")]
        if melds and rng.random() < 0.8:
            return melds[rng.randrange(len(melds))]
        if rng.random() < 0.5:
            for a in legal:
                if a.verb == "pick":
                    return a
    return legal[rng.randrange(len(legal))]


class Difference(AssertionError):
    """The engines differ: where and how."""


def check_hand(rules: Rules, seed: int, greedy: bool = False) -> tuple[int, Game]:
    """Play one hand on both engines, comparing every state; returns (states compared, the finished game) or
    raises :class:`Difference`."""
    g = Game.new(rules, seed=seed)
    h = native.NativeHand.from_game(g)
    rng = random.Random(seed)
    n = 0
    where = f"{rules.name} ({rules.players} players, {rules}) seed {seed} greedy {greedy}"
    while g.end is None:
        la = g.legal_actions()
        lb = h.legal_actions()
        if la != lb:
            sa, sb = set(la), set(lb)
            raise Difference(
                f"{where}, state {n}: legal actions differ; Python only {[str(a) for a in la if a not in sb]}, "
                f"native only {[str(a) for a in lb if a not in sa]}{', order' if sa == sb else ''}"
            )
        a = choose(la, rng, greedy)
        g.apply(a)
        h.apply(a)
        n += 1
        fa, fb = native.fields_of(g), h.fields()
        if fa != fb:
            diffs = [f"field {i}: {x!r} != {y!r}" for i, (x, y) in enumerate(zip(fa, fb, strict=True)) if x != y]
            raise Difference(f"{where}, after {a} (state {n}): {'; '.join(diffs)}")
    if g.scores() != h.scores():
        raise Difference(f"{where}: scores {g.scores()} != {h.scores()}")
    return n, g


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--states", type=int, default=1_000_000, help="stop after this many states (default 1e6)")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    if not native.available():
        print("the native core is not built (or BURRACO_PURE is set)")
        return 2
    rs = rule_sets()
    t0 = time.perf_counter()
    total = hands = 0
    ends: Counter[str | None] = Counter()
    seed = args.seed
    try:
        while total < args.states:
            for r in rs:
                n, g = check_hand(r, seed, greedy=seed % 2 == 1)
                total += n
                hands += 1
                ends[g.end] += 1
            seed += 1
    except Difference as e:
        print(f"DIFFERENCE after {total} identical states: {e}")
        return 1
    dt = time.perf_counter() - t0
    print(f"{total} states of {hands} hands ({len(rs)} rule sets) identical on both engines in {dt:.0f} s; "
          f"ends {dict(ends)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

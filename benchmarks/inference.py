#!/usr/bin/env python3
"""How well do determinizations guess the other hands? Uniform sampling against :mod:`burraco.bots.infer`.

Plays hands of heuristic players (every seat ``--level``), and at every ``--every``-th decision of a seat takes its
view and samples ``--samples`` determinizations four ways: uniformly, with the search's model
(:class:`~burraco.bots.infer.Inference`: the weights of :func:`~burraco.bots.infer.seat_weights`), and with the
calibrated model (``Inference.calibrated()``: weights for the naturals that fit the opponents' melds too, and the
melds a seat is taken not to hold, :func:`~burraco.bots.infer.seat_avoid`), and with the search's model whose
determinizations are resampled by how likely they make the discards the pile shows (``Inference(discards=tau)``,
:meth:`~burraco.native.NativeHand.discard_loglik`; on the native core). For each other seat it counts the cards of the sampled hand (beyond the
cards known to be held) that the seat really holds, and reports the share of hidden cards guessed right, with a
95 % interval over states (the paired differences too), and how often the hands of seats that ended a turn hold a
natural run or set of three, and how many hidden naturals that fit only the opponents' melds they hold: really, and
in each way's samples.

    python benchmarks/inference.py --hands 60
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys

from burraco import Game, native, preset
from burraco.bots import HeuristicPlayer
from burraco.bots.infer import Inference, fits_only_others, pick_weighted, seat_avoid, side_fits
from burraco.cards import JOKER
from burraco.determinize import determinize, holds_natural_meld


def _overlap(a: bytes | bytearray | list[int], b: bytes | bytearray | list[int]) -> int:
    return sum(min(x, y) for x, y in zip(a, b, strict=True))


def measure(
    rules_name: str,
    hands: int,
    level: str,
    every: int,
    samples: int,
    seed: int,
    tau: float = 5.0,
    draws: int = 8,
) -> dict[str, object]:
    rules = preset(rules_name)
    shares: list[list[float]] = [[], [], [], []]
    weighed = Inference(discards=tau, discard_samples=draws)
    # hands of seats that ended a turn (seat_avoid) holding a natural run or set: really, and as sampled each way
    melds_held = [0, 0, 0, 0, 0]
    melds_hands = 0
    # the same hands' hidden naturals that fit only the opponents' melds (FITS_OPPONENT_MELD): really, and sampled
    opp_held = [0, 0, 0, 0, 0]
    for h in range(hands):
        g = Game.new(rules, seed=seed * 100_003 + h)
        players = [HeuristicPlayer(level, seed=h * 10 + s) for s in range(rules.players)]
        rng = random.Random(h)
        wrng = random.Random(-1 - h)  # the discard model's own draws: the other three ways' figures as before
        step = 0
        while not g.is_over:
            s = g.current_seat
            view = g.view(s)
            if step % every == 0 and g.turn >= 0:
                models = ((None, None), Inference().sample_args(view), Inference.calibrated().sample_args(view))
                dets = native.Determinizer(view, *weighed.sample_args(view))
                av = seat_avoid(view)
                fits = side_fits(view)
                hidden_total = 0
                got = [0, 0, 0, 0]
                for k in range(samples):
                    for j in range(4):
                        if j < 3:
                            d = determinize(view, random.Random(rng.getrandbits(32)), *models[j])
                        else:  # the search's model, the pile's discards weighed (Inference.discards)
                            drawn = [dets.sample(wrng) for _ in range(weighed.discard_samples)]
                            ll = [x.discard_loglik(s, level, tau) for x in drawn]
                            d = drawn[pick_weighted(ll, wrng.random())].to_game()
                        for o in range(rules.players):
                            if o == s:
                                continue
                            known = view.known[o]
                            true = [x - y for x, y in zip(g.hands[o], known, strict=True)]
                            sampled = [x - y for x, y in zip(d.hands[o], known, strict=True)]
                            got[j] += _overlap(true, sampled)
                            if j == 0 and k == 0:
                                hidden_total += sum(true)
                            if av[o]:
                                melds_held[j + 1] += holds_natural_meld(d.hands[o], [], av[o])
                                mask = fits_only_others(fits, view.side_of(o))
                                theirs = [c for c in range(JOKER) if mask >> c & 1]
                                opp_held[j + 1] += sum(sampled[c] for c in theirs)
                                if j == 0:
                                    melds_hands += 1
                                    melds_held[0] += holds_natural_meld(g.hands[o], [], av[o])
                                    opp_held[0] += sum(true[c] for c in theirs)
                if hidden_total:
                    for j in range(4):
                        shares[j].append(got[j] / (samples * hidden_total))
            legal = g.legal_actions()
            g.apply(legal[0] if len(legal) == 1 else players[s].choose(view, legal))
            step += 1

    def ci(x: list[float]) -> tuple[float, float, float]:
        m = statistics.fmean(x)
        half = 1.96 * statistics.stdev(x) / math.sqrt(len(x)) if len(x) > 1 else float("nan")
        return round(m, 4), round(m - half, 4), round(m + half, 4)

    uni, inf, cal, dis = shares
    return {
        "rules": rules_name,
        "hands": hands,
        "states": len(uni),
        "uniform": ci(uni),
        "inferred": ci(inf),
        "difference": ci([b - a for a, b in zip(uni, inf, strict=True)]),
        "calibrated": ci(cal),
        "calibrated_minus_inferred": ci([b - a for a, b in zip(inf, cal, strict=True)]),
        "discards_weighed": ci(dis),
        "discards_minus_inferred": ci([b - a for a, b in zip(inf, dis, strict=True)]),
        "natural_melds_held": {
            "hands": melds_hands,
            **{
                k: round(x / max(1, melds_hands), 4)
                for k, x in zip(
                    ("true", "uniform", "inferred", "calibrated", "discards"), melds_held, strict=True
                )
            },
        },
        "opponent_fits_per_hand": {
            k: round(x / max(1, melds_hands), 3)
            for k, x in zip(("true", "uniform", "inferred", "calibrated", "discards"), opp_held, strict=True)
        },
    }


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rules", default="italian")
    p.add_argument("--hands", type=int, default=30)
    p.add_argument("--level", default="hard")
    p.add_argument("--every", type=int, default=5, help="measure every N-th decision (default 5)")
    p.add_argument("--samples", type=int, default=8, help="determinizations per state and method (default 8)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument(
        "--draws", type=int, default=8, help="determinizations drawn for each one the discard model keeps"
    )
    p.add_argument(
        "--tau", type=float, default=5.0, help="the discard model's temperature (Inference.discards)"
    )
    a = p.parse_args()
    print(json.dumps(measure(a.rules, a.hands, a.level, a.every, a.samples, a.seed, a.tau, a.draws)))
    return 0


if __name__ == "__main__":
    sys.exit(main())

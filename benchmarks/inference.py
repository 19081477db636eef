#!/usr/bin/env python3
"""How well do determinizations guess the other hands? Uniform sampling against :mod:`burraco.bots.infer`.

Plays hands of heuristic players (every seat ``--level``), and at every ``--every``-th decision of a seat takes its
view and samples ``--samples`` determinizations with and without the inferred weights. For each other seat it
counts the cards of the sampled hand (beyond the cards known to be held) that the seat really holds, and reports
the share of hidden cards guessed right, with a 95 % interval over states (the paired difference too).

    python benchmarks/inference.py --hands 60
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys

from burraco import Game, preset
from burraco.bots import HeuristicPlayer
from burraco.bots.infer import seat_weights
from burraco.view import determinize


def _overlap(a: bytes | bytearray | list[int], b: bytes | bytearray | list[int]) -> int:
    return sum(min(x, y) for x, y in zip(a, b, strict=True))


def measure(rules_name: str, hands: int, level: str, every: int, samples: int, seed: int) -> dict[str, object]:
    rules = preset(rules_name)
    uni: list[float] = []
    inf: list[float] = []
    for h in range(hands):
        g = Game.new(rules, seed=seed * 100_003 + h)
        players = [HeuristicPlayer(level, seed=h * 10 + s) for s in range(rules.players)]
        rng = random.Random(h)
        step = 0
        while not g.is_over:
            s = g.current_seat
            view = g.view(s)
            if step % every == 0 and g.turn >= 0:
                w = seat_weights(view)
                hidden_total = 0
                got = [0, 0]
                for k in range(samples):
                    for j, weights in enumerate((None, w)):
                        d = determinize(view, random.Random(rng.getrandbits(32)), weights)
                        for o in range(rules.players):
                            if o == s:
                                continue
                            known = view.known[o]
                            true = [x - y for x, y in zip(g.hands[o], known, strict=True)]
                            sampled = [x - y for x, y in zip(d.hands[o], known, strict=True)]
                            got[j] += _overlap(true, sampled)
                            if j == 0 and k == 0:
                                hidden_total += sum(true)
                if hidden_total:
                    uni.append(got[0] / (samples * hidden_total))
                    inf.append(got[1] / (samples * hidden_total))
            legal = g.legal_actions()
            g.apply(legal[0] if len(legal) == 1 else players[s].choose(view, legal))
            step += 1

    def ci(x: list[float]) -> tuple[float, float, float]:
        m = statistics.fmean(x)
        half = 1.96 * statistics.stdev(x) / math.sqrt(len(x)) if len(x) > 1 else float("nan")
        return round(m, 4), round(m - half, 4), round(m + half, 4)

    diff = [b - a for a, b in zip(uni, inf, strict=True)]
    return {
        "rules": rules_name,
        "hands": hands,
        "states": len(uni),
        "uniform": ci(uni),
        "inferred": ci(inf),
        "difference": ci(diff),
    }


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rules", default="italian")
    p.add_argument("--hands", type=int, default=30)
    p.add_argument("--level", default="hard")
    p.add_argument("--every", type=int, default=5, help="measure every N-th decision (default 5)")
    p.add_argument("--samples", type=int, default=8, help="determinizations per state and method (default 8)")
    p.add_argument("--seed", type=int, default=0)
    a = p.parse_args()
    print(json.dumps(measure(a.rules, a.hands, a.level, a.every, a.samples, a.seed)))
    return 0


if __name__ == "__main__":
    sys.exit(main())

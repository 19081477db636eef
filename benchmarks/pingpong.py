"""The hint's pile ping-pong (issue 38 item 6): how often a seat that plays only the hint's moves takes the discard
pile and then discards, in the same turn, the card that was on top of it — and whether the search, on independent
samples and on the true hands, says that discard is wrong.

``--hands`` italian-2p hands (dealt from ``--seed``): N plays the hint (:func:`burraco.hint`), S ``heuristic:hard``.
At every ping-pong discard, the discard played is compared with every other candidate discard
(:func:`burraco.bots.judge.candidates`) on ``--samples`` paired determinizations that keep the opponent's **true**
hand (``search_variants.knows_hands_sampler``: only the stock is dealt at random), the same rollouts as the hint's;
the report gives the number of ping-pongs and pile picks, and the loss of each ping-pong discard against the best
other one (mean, standard error, and how many are worse by more than two standard errors)::

    python benchmarks/pingpong.py --hands 8 --json
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
from typing import Any

from search_variants import knows_hands_sampler

from burraco import Game, hint, preset
from burraco.actions import DISCARD, PICK
from burraco.bots.heuristic import HeuristicPlayer
from burraco.bots.ismcts import REWARD_SCALE, ISMCTSPlayer
from burraco.bots.judge import candidates


def true_loss(g: Game, played: Any, samples: int, seed: int) -> tuple[float, float, str]:
    """The loss of ``played`` against the best other candidate discard of ``g`` on ``samples`` determinizations
    that keep the true hands: (mean, standard error, the best other discard)."""
    seat = g.current_seat
    view = g.view(seat)
    cands = [a for a in candidates(view, g.legal_actions(), played) if a.verb == DISCARD]
    others = [a for a in cands if a != played]
    if not others:
        return 0.0, 0.0, ""
    p = ISMCTSPlayer(seed=seed, iterations=samples)
    vals = p.candidate_values(view, [played, *others], knows_hands_sampler(g, seat))
    means = [sum(v) / len(v) for v in vals[1:]]
    j = max(range(len(others)), key=lambda i: means[i])
    diffs = [REWARD_SCALE * (b - a) for a, b in zip(vals[0], vals[1 + j], strict=True)]
    m = statistics.fmean(diffs)
    se = statistics.stdev(diffs) / math.sqrt(len(diffs))
    return m, se, str(others[j])


def run(hands: int, seed: int, samples: int) -> dict[str, Any]:
    rows: list[dict[str, Any]] = []
    picks = decisions = 0
    for h in range(hands):
        g = Game.new(preset("italian-2p"), seed=seed + h)
        other = HeuristicPlayer("hard", seed=seed + h)
        took = -1
        while g.end is None:
            s = g.current_seat
            legal = g.legal_actions()
            view = g.view(s)
            if s != 0:
                g.apply(other.choose(view, legal))
                continue
            a = hint(view, legal=legal).action if len(legal) > 1 else legal[0]
            decisions += 1
            if a.verb == PICK:
                picks += 1
                took = view.pile[-1]
            elif a.verb == DISCARD:
                if a.cards[0] == took:
                    m, se, best = true_loss(g, a, samples, seed * 1000 + len(g.actions))
                    rows.append({"hand": h, "index": len(g.actions), "played": str(a), "best_other": best,
                                 "loss": round(m, 1), "se": round(se, 1)})
                took = -1
            g.apply(a)
    losses = [r["loss"] for r in rows]
    return {
        "hands": hands,
        "seed": seed,
        "samples": samples,
        "hint_decisions": decisions,
        "picks": picks,
        "pingpongs": len(rows),
        "wrong": sum(1 for r in rows if r["loss"] > 2 * r["se"]),
        "right": sum(1 for r in rows if r["loss"] < -2 * r["se"]),
        "mean_loss": round(statistics.fmean(losses), 1) if losses else None,
        "rows": rows,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--hands", type=int, default=8)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--samples", type=int, default=256)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    random.seed(args.seed)
    out = run(args.hands, args.seed, args.samples)
    if args.json:
        print(json.dumps(out, indent=1))
    else:
        for r in out["rows"]:
            print(r)
        print({k: v for k, v in out.items() if k != "rows"})


if __name__ == "__main__":
    main()

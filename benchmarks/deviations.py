#!/usr/bin/env python3
"""How often the flat search leaves the heuristic's choice, and on how large an advantage, as its determinizations
grow (issue 22: why `ismcts:1s` is not stronger than `ismcts:0.25s`).

At every ``--every``-th decision with two or more root candidates of ``--hands`` hands of heuristic:hard
(``--rules``, dealt from ``--seed``), the search (``ISMCTSPlayer``, its defaults) evaluates the candidates on
``max(--iterations)`` determinizations; for each number N of ``--iterations`` the choice it would make from the
first N (:func:`burraco.bots.ismcts.pick_best`: the heuristic's choice unless another candidate beats it by more
than ``z`` standard errors and, with ``--floor``, by more than that many points) is taken, and reported: the share of decisions where it leaves the heuristic's choice,
and the advantage (points a hand, the search's own paired estimate) of the candidates it leaves it for — their
median, and the share under 10 and under 25 points::

    python benchmarks/deviations.py --hands 6 --iterations 100 400 1600 --json
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys

from burraco import Game, preset
from burraco.bots import HeuristicPlayer
from burraco.bots.ismcts import REWARD_SCALE, ISMCTSPlayer, paired, pick_best


def measure(
    rules_name: str, hands: int, every: int, iterations: list[int], seed: int, floor: float = 0.0
) -> dict[str, object]:
    rules = preset(rules_name)
    top = max(iterations)
    gains: dict[int, list[float]] = {n: [] for n in iterations}
    decisions = 0
    for h in range(hands):
        g = Game.new(rules, seed=seed * 1000 + h)
        players = [HeuristicPlayer("hard", seed=s) for s in range(g.n)]
        step = 0
        while g.end is None:
            s = g.current_seat
            legal = g.legal_actions()
            if step % every == 1 and len(legal) > 1:
                view = g.view(s)
                search = ISMCTSPlayer(seed=step, iterations=top)
                cands = search.root_candidates(view, legal)
                if len(cands) > 1:
                    values = search.candidate_values(view, cands)
                    decisions += 1
                    for n in iterations:
                        first = [row[:n] for row in values]
                        j = pick_best(first, search.z, floor / REWARD_SCALE)
                        if j:
                            gains[n].append(paired(first, j)[0] * REWARD_SCALE)
            g.apply(legal[0] if len(legal) == 1 else players[s].choose(g.view(s), legal))
            step += 1
    out: dict[str, object] = {"rules": rules_name, "hands": hands, "decisions": decisions, "floor": floor}
    for n, v in gains.items():
        out[str(n)] = {
            "leaves_the_heuristic": round(len(v) / max(1, decisions), 3),
            "median_advantage": round(statistics.median(v), 1) if v else None,
            "under_10_points": round(sum(x < 10 for x in v) / max(1, len(v)), 2),
            "under_25_points": round(sum(x < 25 for x in v) / max(1, len(v)), 2),
        }
    return out


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rules", default="italian")
    p.add_argument("--hands", type=int, default=6)
    p.add_argument("--every", type=int, default=4, help="measure every N-th decision (default 4)")
    p.add_argument("--iterations", type=int, nargs="+", default=[100, 400, 1600])
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--floor", type=float, default=0.0, help="ISMCTSPlayer's floor, points a hand (default 0)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    a = p.parse_args()
    out = measure(a.rules, a.hands, a.every, a.iterations, a.seed, a.floor)
    print(json.dumps(out) if a.json else "\n".join(f"{k}: {v}" for k, v in out.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Where a PettingZoo step of Burraco spends its time: the thread's CPU time (``time.thread_time``) of each part,
per step, over random 4-player ``italian`` hands played through ``burraco.envs.pettingzoo_env``.

Parts: ``Game.legal_actions()`` (split by draw and play decisions, each averaged over all steps), the action
indices (``legal_indices``), the observation (``Table.observation``: the incremental ``Encoder``), ``env.last()``
(legal actions, indices, mask and observation together) and ``env.step()``. Medians of ``--repeat`` runs.

Usage: ``python benchmarks/env_parts.py [--episodes 80] [--repeat 3]``.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time

from burraco.envs import action_index, pettingzoo_env

tt = time.thread_time


def parts(episodes: int) -> dict[str, float]:
    env = pettingzoo_env(rules="italian")
    t = env.table
    tot: dict[str, float] = {}
    kinds: dict[str, int] = {}

    def add(k: str, v: float) -> None:
        tot[k] = tot.get(k, 0.0) + v

    n = 0
    for ep in range(episodes):
        env.reset(seed=ep)
        rng = random.Random(ep)
        for agent in env.agent_iter():
            seat = env.possible_agents.index(agent)
            if not t.over:
                g = t.game
                ph = g.phase
                a0 = tt()
                legal = g.legal_actions()
                a1 = tt()
                action_index.legal_indices(legal, g.melds[g.side_of(g.current_seat)], t.layout)
                a2 = tt()
                t.observation(seat)
                a3 = tt()
                add("legal_actions_" + ph, a1 - a0)
                add("indices", a2 - a1)
                add("observation", a3 - a2)
                kinds[ph] = kinds.get(ph, 0) + 1
                t._legal_game = None  # env.last() computes them again, as in a plain loop
            b0 = tt()
            _obs, _r, term, trunc, _info = env.last()
            b1 = tt()
            idx = env.legal_indices()
            action = None if term or trunc else idx[rng.randrange(len(idx))]
            b2 = tt()
            env.step(action)
            b3 = tt()
            add("last", b1 - b0)
            add("step", b3 - b2)
            n += 1
    out = {k + "_us": round(v / n * 1e6, 2) for k, v in tot.items()}
    out["steps"] = n
    out.update({"share_" + k: round(v / n, 3) for k, v in kinds.items()})
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--episodes", type=int, default=80)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    parts(max(1, args.episodes // 3))  # warm the caches
    runs = [parts(args.episodes) for _ in range(args.repeat)]
    print(json.dumps({k: statistics.median(r[k] for r in runs) for k in runs[0]}, indent=1))


if __name__ == "__main__":
    main()

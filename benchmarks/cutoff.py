#!/usr/bin/env python3
"""What a value estimate at a cut-off could buy the search: the cost of the rest of a rollout against the cost of a
small network's estimate, on the native core.

The flat search (ISMCTSPlayer) follows every root candidate by a heuristic rollout to the end of the hand. A value
network at a cut-off (issue 22, item 2) would stop the rollout after a few decisions and estimate the hand's result
from the searching seat's observation instead; it pays only where it is much cheaper than what it replaces (more
determinizations in the budget) or more accurate. This measures the first: at every ``--every``-th decision of
``--hands`` hands of heuristic:hard (``--rules``), the time of the seeded heuristic rollout to the end of the hand
(``NativeHand.seeded_heuristic_playout``, as the search plays it), and of one estimate by a network of the size a
value head would have: the seat's observation (``burraco.envs.native_env``: the core's encoder, 4,250 floats with
4 players) through ``--hidden`` units and one more layer of 32 to one value (numpy, float32; random weights: the
cost does not depend on them). Medians in microseconds, by the share of the hand played, and the ratio::

    python benchmarks/cutoff.py --hands 40 --json
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Callable

import numpy as np

from burraco import Game, native, preset
from burraco.bots import HeuristicPlayer
from burraco.envs.layout import layout_for
from burraco.envs.native_env import native_encoding


def _time(f: Callable[[], object], reps: int) -> float:
    """Microseconds a call of ``f`` takes, the mean of ``reps``."""
    t = time.perf_counter()
    for _ in range(reps):
        f()
    return (time.perf_counter() - t) / reps * 1e6


def measure(rules_name: str, hands: int, every: int, hidden: int, seed: int) -> dict[str, object]:
    rules = preset(rules_name)
    enc = native_encoding(rules)
    if enc is None:
        raise SystemExit("the native core is not built (or does not take these rules)")
    size = layout_for(rules).obs_size
    rng = np.random.default_rng(seed)
    w1 = rng.standard_normal((hidden, size)).astype(np.float32) * 0.01
    b1 = np.zeros(hidden, np.float32)
    w2 = rng.standard_normal((32, hidden)).astype(np.float32) * 0.1
    b2 = np.zeros(32, np.float32)
    w3 = rng.standard_normal(32).astype(np.float32)
    obs = np.zeros(size, np.float32)
    rollout: dict[str, list[float]] = {"early": [], "middle": [], "late": []}
    network: list[float] = []
    for h in range(hands):
        g = Game.new(rules, seed=seed * 1000 + h)
        players = [HeuristicPlayer("hard", seed=h * 10 + s) for s in range(g.n)]
        states = []
        while g.end is None:
            states.append(native.NativeHand.from_game(g))
            s = g.current_seat
            legal = g.legal_actions()
            g.apply(legal[0] if len(legal) == 1 else players[s].choose(g.view(s), legal))
        for i in range(0, len(states), every):
            base = states[i]
            seat = base.turn

            def play(base: native.NativeHand = base) -> None:
                base.clone().seeded_heuristic_playout("hard", 7, None)

            def estimate(base: native.NativeHand = base, seat: int = seat) -> float:
                enc.encode(base._h, seat, obs)
                x = np.maximum(w1 @ obs + b1, 0.0)
                x = np.maximum(w2 @ x + b2, 0.0)
                return float(w3 @ x)

            part = i / len(states)
            rollout["early" if part < 1 / 3 else "middle" if part < 2 / 3 else "late"].append(_time(play, 20))
            network.append(_time(estimate, 20))
    net = statistics.median(network)
    out: dict[str, object] = {
        "rules": rules_name,
        "hands": hands,
        "states": len(network),
        "observation": size,
        "hidden": hidden,
        "network_us": round(net, 1),
    }
    for k, v in rollout.items():
        out[f"rollout_{k}_us"] = round(statistics.median(v), 1)
        out[f"rollout_{k}_over_network"] = round(statistics.median(v) / net, 2)
    return out


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rules", default="italian")
    p.add_argument("--hands", type=int, default=40)
    p.add_argument("--every", type=int, default=6, help="measure every N-th decision (default 6)")
    p.add_argument("--hidden", type=int, default=64, help="units of the network's first layer (default 64)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--json", action="store_true", help="print one JSON object")
    a = p.parse_args()
    out = measure(a.rules, a.hands, a.every, a.hidden, a.seed)
    print(json.dumps(out) if a.json else "\n".join(f"{k}: {v}" for k, v in out.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())

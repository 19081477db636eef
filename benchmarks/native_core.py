#!/usr/bin/env python3
"""The native core's own figures, short enough to run two builds in turn (issue 21).

Random 4-player ``italian`` hands per second (``native.random_deals``: the deal and a uniform random playout in the
core), a whole ``heuristic:hard`` playout of a hand, and per call from Python over the states of random hands:
``legal_actions()`` + ``apply()``, ``clone()`` and a determinization of the view of the seat in turn
(``Determinizer.sample_from``, every fifth state). To compare two builds, run it with each first on the path, in
turn, on the same machine::

    git worktree add /tmp/before HEAD~1 && (cd /tmp/before && python setup.py build_ext --inplace)
    for i in 1 2; do PYTHONPATH=/tmp/before/src python benchmarks/native_core.py --label before
                     python benchmarks/native_core.py --label after; done
"""

from __future__ import annotations

import argparse
import json
import time

from engine import native_call_samples  # benchmarks/engine.py: the same per-call loop

from burraco import native, preset


def figures(seeds: int, playouts: int, hands: int) -> dict[str, float]:
    rules = preset("italian")
    block = list(range(1000, 1000 + seeds))
    t0 = time.perf_counter()
    decisions = native.random_deals(rules, block)
    wall = time.perf_counter() - t0
    out = {"hands_per_s": round(len(block) / wall, 1), "us_per_decision": round(1e6 * wall / decisions, 3)}
    t0 = time.perf_counter()
    for s in range(playouts):
        native.NativeHand.new(rules, s).seeded_heuristic_playout("hard", s)
    out["hard_playout_ms"] = round(1e3 * (time.perf_counter() - t0) / playouts, 3)
    summary = native_call_samples(rules, list(range(hands))).summary()
    out["step_us_p50"] = summary["step_us_p50"]
    out["clone_us_p50"] = summary["native_clone_us_p50"]
    out["determinize_us_p50"] = summary["native_determinize_us_p50"]
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--label", default="")
    ap.add_argument("--seeds", type=int, default=600, help="random hands in the throughput loop")
    ap.add_argument("--playouts", type=int, default=60, help="whole heuristic playouts")
    ap.add_argument("--hands", type=int, default=40, help="random hands of the per-call loop")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    if not native.available():
        raise SystemExit("the native core is not built (or BURRACO_PURE is set)")
    got = {"label": args.label, **figures(args.seeds, args.playouts, args.hands)}
    print(json.dumps(got) if args.json else "  ".join(f"{k} {v}" for k, v in got.items()))


if __name__ == "__main__":
    main()

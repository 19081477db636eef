#!/usr/bin/env python3
"""Determinizations per decision of the search player (ISMCTSPlayer, the flat search) at a fixed time budget, with
its rollouts on the native core and on the Python engine.

The decisions are those of random 4-player ``italian`` hands (every ``--every``-th decision state with two or more
legal actions, from ``--hands`` hands dealt from ``--seed``); each is searched with ``time_budget=--budget`` seconds
once with ``burraco.bots.ismcts.native_rollouts`` on and once off; reported: the median (and quartiles) of
``last_iterations`` -- the determinizations, each a full-hand heuristic rollout of every root candidate -- and their
ratio. The Python figure is sensitive to the machine's load (it runs first, the native one after), so a second,
paired measurement (``--paired N``) times a search of exactly N determinizations on each decision, Python and
native in turn, and reports the median cost of a determinization and the median of the per-decision ratios.
Pinned to one core; every run sees the same states. ``--json`` prints one JSON object::

    python benchmarks/search.py --budget 0.25 --json

``--threads N`` measures the native search on 1 … N threads instead (not pinned: the threads need the cores):
per thread count the median determinizations per decision, and the time of every move against the budget (its
maximum and 99th percentile as a fraction of the budget: the budget is a ceiling, a move over 1.10 fails it)::

    python benchmarks/search.py --budget 0.25 --threads 2 --json

``--floor`` measures the floor of determinizations a timed search keeps (``min_iterations``: ``expert`` and every
``ismcts:Ts``, :func:`burraco.bots.players.dets_floor`) and what it costs in time on a loaded machine: the search is
pinned to one core beside ``K`` busy loops pinned to the same core (``--hogs 0 1 3``: the search gets about
1/(K+1) of it), and on every decision it runs with the floor and without it in turn; per load, the determinizations
per decision (median, 10th percentile, least) and the move's time (median, 95th percentile, most)::

    python benchmarks/search.py --floor --budget 0.5 --hogs 0 1 3 7 --json
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import os
import random
import statistics
import sys
import time
from typing import Any

from burraco import Game, native, preset
from burraco.bots import ismcts
from burraco.bots.ismcts import ISMCTSPlayer
from burraco.bots.players import dets_floor


def states(hands: int, every: int, seed: int) -> list[Game]:
    out: list[Game] = []
    master = random.Random(seed)
    for _ in range(hands):
        s = master.getrandbits(32)
        g = Game.new(preset("italian"), seed=s)
        rng = random.Random(s)
        k = 0
        while g.end is None:
            legal = g.legal_actions()
            if len(legal) > 1:
                if k % every == 0:
                    out.append(g.clone())
                k += 1
            g.apply(legal[rng.randrange(len(legal))])
    return out


def measure(gs: list[Game], budget: float, on: bool) -> list[int]:
    ismcts.native_rollouts = on
    its: list[int] = []
    for i, g in enumerate(gs):
        p = ISMCTSPlayer(seed=i, time_budget=budget)
        p.choose(g.view(g.turn), g.legal_actions())
        if p.last_iterations:  # a decision with one candidate costs nothing and is not a search
            its.append(p.last_iterations)
    return its


def threads_run(gs: list[Game], budget: float, threads: int) -> dict[str, Any]:
    """The native search on ``threads`` threads at ``budget`` seconds: determinizations per decision and every
    move's wall time as a fraction of the budget."""
    its: list[int] = []
    times: list[float] = []
    p = ISMCTSPlayer(seed=0, time_budget=budget, threads=threads)
    for i, g in enumerate(gs):
        p.rng.seed(i)
        view, legal = g.view(g.turn), g.legal_actions()
        t0 = time.perf_counter()
        p.choose(view, legal)
        took = time.perf_counter() - t0
        if p.last_iterations:
            its.append(p.last_iterations)
            times.append(took / budget)
    p.close()
    times.sort()
    return {
        "threads": threads,
        "determinizations_p50": statistics.median(its),
        "move_time_over_budget_max": round(times[-1], 3),
        "move_time_over_budget_p99": round(times[min(len(times) - 1, int(0.99 * len(times)))], 3),
        "searched": len(its),
    }


def paired_cost(gs: list[Game], iterations: int) -> dict[str, Any]:
    """Seconds per determinization of a search with a fixed number of them, Python and native alternating on each
    decision (a load that changes during the run hits both): medians, and the median of the per-decision ratios."""
    py: list[float] = []
    nat: list[float] = []
    ratios: list[float] = []
    for i, g in enumerate(gs):
        view, legal = g.view(g.turn), g.legal_actions()
        cost = {}
        for on in (False, True):
            ismcts.native_rollouts = on
            p = ISMCTSPlayer(seed=i, iterations=iterations)
            t0 = time.perf_counter()
            p.choose(view, legal)
            cost[on] = (time.perf_counter() - t0) / iterations
        if p.last_iterations:
            py.append(cost[False])
            nat.append(cost[True])
            ratios.append(cost[False] / cost[True])
    ismcts.native_rollouts = True
    return {
        "paired_iterations": iterations,
        "python_ms_per_determinization_p50": round(1e3 * statistics.median(py), 3),
        "native_ms_per_determinization_p50": round(1e3 * statistics.median(nat), 3),
        "paired_ratio_p50": round(statistics.median(ratios), 1),
    }


def _burn(core: int) -> None:
    """A busy loop on ``core`` (``--floor``'s load)."""
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {core})
    while True:
        pass


def _spread(xs: list[float], digits: int = 0) -> dict[str, float]:
    xs = sorted(xs)
    at = lambda q: xs[min(len(xs) - 1, int(q * len(xs)))]  # noqa: E731
    return {"p50": round(statistics.median(xs), digits), "p10": round(at(0.10), digits),
            "p95": round(at(0.95), digits), "min": round(xs[0], digits), "max": round(xs[-1], digits)}


def floor_run(gs: list[Game], budget: float, hogs: list[int]) -> dict[str, Any]:
    """``--floor``: the timed search with and without its floor of determinizations, in turn on every decision,
    pinned to one core beside ``K`` busy loops on it, for each ``K`` of ``hogs``."""
    core = min(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else 0
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {core})
    floor = dets_floor(budget)
    runs = []
    for k in hogs:
        burners = [mp.Process(target=_burn, args=(core,), daemon=True) for _ in range(k)]
        for b in burners:
            b.start()
        try:
            row: dict[str, Any] = {"hogs": k}
            res: dict[int, tuple[list[float], list[float]]] = {0: ([], []), floor: ([], [])}
            for i, g in enumerate(gs):
                view, legal = g.view(g.turn), g.legal_actions()
                for m in (floor, 0):
                    p = ISMCTSPlayer(seed=i, time_budget=budget, min_iterations=m)
                    t0 = time.perf_counter()
                    p.choose(view, legal)
                    took = time.perf_counter() - t0
                    if p.last_iterations:
                        res[m][0].append(p.last_iterations)
                        res[m][1].append(took)
            for m, name in ((floor, "floor"), (0, "none")):
                its, times = res[m]
                row[name] = {"determinizations": _spread(its), "seconds": _spread(times, 3),
                             "over_budget": round(sum(t > budget * 1.1 for t in times) / len(times), 3)}
            row["searched"] = len(res[0][0])
            runs.append(row)
        finally:
            for b in burners:
                b.kill()
                b.join()
    return {"budget_s": budget, "floor": floor, "decisions": len(gs), "cpus": os.cpu_count(), "runs": runs}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--budget", type=float, default=0.25)
    ap.add_argument("--hands", type=int, default=3)
    ap.add_argument("--every", type=int, default=12)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--paired", type=int, default=4, help="determinizations of the paired cost run (0: skip)")
    ap.add_argument("--threads", type=int, default=0, help="measure the native search on 1 … N threads instead")
    ap.add_argument("--floor", action="store_true", help="the floor of determinizations under load (--hogs)")
    ap.add_argument("--hogs", type=int, nargs="+", default=[0, 1, 3], help="--floor: busy loops beside the search")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    if args.floor:
        res = floor_run(states(args.hands, args.every, args.seed), args.budget, args.hogs)
        print(json.dumps(res) if args.json else json.dumps(res, indent=1))
        return 0
    if args.threads:
        if not native.available():
            print("the threaded search needs the native core (not built, or BURRACO_PURE is set)", file=sys.stderr)
            return 2
        gs = states(args.hands, args.every, args.seed)
        runs = [threads_run(gs, args.budget, k) for k in range(1, args.threads + 1)]
        base = runs[0]["determinizations_p50"]
        for r in runs:
            r["speedup_p50"] = round(r["determinizations_p50"] / base, 2)
        res = {"budget_s": args.budget, "decisions": len(gs), "cpus": os.cpu_count(), "load": os.getloadavg()[0]}
        res["runs"] = runs
        print(json.dumps(res) if args.json else json.dumps(res, indent=1))
        return 0
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    gs = states(args.hands, args.every, args.seed)
    out: dict[str, Any] = {"budget_s": args.budget, "decisions": len(gs), "native": native.available()}
    for key, on in (("python", False), ("native", True)):
        if on and not native.available():
            continue
        its = measure(gs, args.budget, on)
        q = statistics.quantiles(its, n=4) if len(its) > 1 else [its[0]] * 3
        out[f"{key}_determinizations_p50"] = statistics.median(its)
        out[f"{key}_determinizations_q1_q3"] = [q[0], q[2]]
        out[f"{key}_searched"] = len(its)
    if "native_determinizations_p50" in out:
        out["ratio_p50"] = round(out["native_determinizations_p50"] / out["python_determinizations_p50"], 1)
    ismcts.native_rollouts = True
    if args.paired and native.available():
        out.update(paired_cost(gs, args.paired))
    if args.json:
        print(json.dumps(out))
    else:
        for k, v in out.items():
            print(f"{k:34} {v}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Levels for people (issue 22, item 3): how far ``medium``'s club margin puts it from ``hard`` and ``easy``.

``medium`` errs like a club player: it does not tell apart the moves scored within a margin of its best and plays
one of them at random (``HeuristicPlayer(margin=...)``; the level's own is ``heuristic.CLUB_MARGIN``, the only one
the native core plays). For each ``--margins`` value and preset this plays, in the duplicate arena
(:func:`burraco.arena.play_duplicate`, ``--deals`` deals from ``--seed``), ``hard`` against that ``medium`` and
that ``medium`` against ``easy``, and prints the mean difference per deal (A's points over the deal's two games
minus B's) with its 95 % interval (Student's t) and the deal win rate. ``--json PATH`` writes every figure (the
arena's summary per run, the per-deal differences included)::

    python benchmarks/levels.py --margins 0 5 10 12 14 16 20 30 --presets italian italian-2p --deals 1000 \\
        --seed 7 --json docs/strength/levels-margin-sweep.json

A margin of 0 is ``medium`` as before (ties only, ``heuristic.TIE``).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any

from burraco import preset
from burraco.arena import play_duplicate
from burraco.bots import heuristic
from burraco.bots.heuristic import HeuristicPlayer


def run(a: str, b: str, margin: float, name: str, deals: int, seed: int) -> dict[str, Any]:
    m = max(margin, heuristic.TIE)

    def make(level: str) -> Any:
        if level == "medium":
            return lambda s: HeuristicPlayer("medium", s, margin=m)
        return lambda s: HeuristicPlayer(level, s)

    r = play_duplicate(preset(name), make(a), make(b), deals=deals, seed=seed)
    spell = {"medium": f"heuristic:medium (margin {margin:g})", "hard": "heuristic:hard", "easy": "heuristic:easy"}
    r["a"], r["b"] = spell[a], spell[b]
    r["margin"] = margin
    r["preset"] = name
    return r


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--margins", nargs="+", type=float, default=[0.0, heuristic.CLUB_MARGIN])
    ap.add_argument("--presets", nargs="+", default=["italian"])
    ap.add_argument("--deals", type=int, default=200)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--json", metavar="PATH", help="write the figures there")
    args = ap.parse_args(argv)
    out: dict[str, Any] = {
        "benchmark": "levels",
        "command": "python benchmarks/levels.py " + " ".join(sys.argv[1:] if argv is None else argv),
        "club_margin": heuristic.CLUB_MARGIN,
        "runs": [],
    }
    for name in args.presets:
        for margin in args.margins:
            for a, b in (("hard", "medium"), ("medium", "easy")):
                t0 = time.perf_counter()
                r = run(a, b, margin, name, args.deals, args.seed)
                out["runs"].append(r)
                ci = r["ci95"]
                wr = r["a_win_rate_ci95"]
                print(
                    f"{name:12} margin {margin:5g}  {a:6} vs {b:6}: {r['mean_diff']:+8.1f} per deal "
                    f"(95 % CI {ci[0]:+.1f} … {ci[1]:+.1f}), deals won {100 * r['a_win_rate']:.1f} % "
                    f"({100 * wr[0]:.1f} … {100 * wr[1]:.1f}), {r['deals']} deals, {time.perf_counter() - t0:.0f} s",
                    flush=True,
                )
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(out, f, indent=1)
            f.write("\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

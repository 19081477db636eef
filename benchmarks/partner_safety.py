#!/usr/bin/env python3
"""The partner's safety (issue 22, item 3) measured in the duplicate arena: each heuristic level with it against
the same level without it (``HeuristicPlayer(level, safety=False)``, the play before the change, kept reachable for
this benchmark only; the native core plays the default). Both play the best move by their scores: ``medium``'s
club margin (``heuristic.CLUB_MARGIN``, benchmarks/levels.py) is off here, so the safety alone is measured.

With it, from ``medium`` up, a discard pays ``_Ctx.feeds`` (what it hands the next
opponent's melds: most when it completes a burraco, more on a big pile, less when that opponent was seen to discard
the rank) and a wild put on a clean meld of the side pays ``_Ctx.dirty_cost`` unless it
completes a burraco or the hand is nearly empty.

Per level and preset: ``--deals`` duplicate deals from ``--seed`` (:func:`burraco.arena.play_duplicate`, A = the
new player, B = the control), the mean difference per deal (A's points over the deal's two games minus B's) with
its 95 % interval (Student's t), the deal win rate with Wilson's interval. ``--json PATH`` writes every figure
(the arena's summary per run, the per-deal differences included)::

    python benchmarks/partner_safety.py --levels medium hard --deals 1000 --json docs/strength/partner-safety.json

``--ablation`` plays, instead, each part alone against the control (``medium`` only: its old play has neither):
``feeds`` (``dirty_cost`` off) and ``dirty`` (``feeds`` off).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any

from burraco import preset
from burraco.actions import Action
from burraco.arena import play_duplicate
from burraco.bots import heuristic
from burraco.bots.heuristic import HeuristicPlayer
from burraco.view import View


class _FeedsOnly(heuristic._Ctx):
    def dirty_cost(self, before: Any, after: Any, left: int) -> float:
        return 0.0


class _DirtyOnly(heuristic._Ctx):
    def feeds(self, c: int) -> float:
        return 0.0


class _Ablated(HeuristicPlayer):
    """HeuristicPlayer with one part of the safety off (HeuristicPlayer.choose with another context)."""

    def __init__(self, level: str, seed: int, part: str) -> None:
        super().__init__(level, seed)
        self.ctx = _FeedsOnly if part == "feeds" else _DirtyOnly
        self.name += f":{part}-only"

    def choose(self, view: View, legal: list[Action]) -> Action:
        if len(legal) == 1:
            return legal[0]
        ctx = self.ctx(view, self.level, self.safety)
        scored = [(self.evaluate(ctx, a), a) for a in legal]
        best = max(s for s, _ in scored)
        ties = sorted(a for s, a in scored if s >= best - 1e-9)
        return ties[0] if len(ties) == 1 else ties[self.rng.randrange(len(ties))]


def run(level: str, name: str, deals: int, seed: int, part: str | None = None) -> dict[str, Any]:
    def new(s: int) -> HeuristicPlayer:
        # medium's club margin off (heuristic.TIE, as the control): the safety alone is measured
        return HeuristicPlayer(level, s, margin=heuristic.TIE) if part is None else _Ablated(level, s, part)

    def control(s: int) -> HeuristicPlayer:
        return HeuristicPlayer(level, s, safety=False)

    r = play_duplicate(preset(name), new, control, deals=deals, seed=seed)
    r["a"] = f"heuristic:{level}" + ("" if part is None else f" ({part} only)")
    r["b"] = f"heuristic:{level} (control: safety=False)"
    r["level"] = level
    r["preset"] = name
    return r


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--levels", nargs="+", default=["medium", "hard"], choices=["medium", "hard"])
    ap.add_argument("--presets", nargs="+", default=["italian"])
    ap.add_argument("--deals", type=int, default=200)
    ap.add_argument("--seed", type=int, default=22)
    ap.add_argument("--json", metavar="PATH", help="write the figures there")
    ap.add_argument("--ablation", action="store_true", help="each part alone (medium) against the control")
    args = ap.parse_args(argv)
    parts: list[str | None] = ["feeds", "dirty"] if args.ablation else [None]
    out: dict[str, Any] = {
        "benchmark": "partner_safety",
        "command": "python benchmarks/partner_safety.py " + " ".join(sys.argv[1:] if argv is None else argv),
        "runs": [],
    }
    for name in args.presets:
        for level, part in [(lv, p) for lv in args.levels for p in parts if p is None or lv == "medium"]:
            t0 = time.perf_counter()
            r = run(level, name, args.deals, args.seed, part)
            out["runs"].append(r)
            ci = r["ci95"]
            wr = r["a_win_rate_ci95"]
            what = "new" if part is None else f"{part} only"
            print(
                f"{name:16} {level:6} {what} vs control: {r['mean_diff']:+8.1f} per deal "
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

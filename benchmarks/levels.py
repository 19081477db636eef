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

``--safety HANDS`` counts instead, over HANDS hands of ``italian`` with the same player at every seat (``hard``,
``easy``, and ``medium`` at each margin), what the partner's safety is there to prevent: discards that feed the next
opponent's melds (``_Ctx.feeds`` > 0) while the hand held a card that feeds nothing -- and of those, the ones worth
60 or more (a card that brings a meld within one of a burraco or completes one) -- and wilds attached to a clean
meld of the side that pay ``_Ctx.dirty_cost``::

    python benchmarks/levels.py --safety 300 --margins 0 12 --json docs/strength/levels-safety.json
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


def safety(level: str, margin: float, hands: int, name: str = "italian") -> dict[str, Any]:
    """What the partner's safety prevents, counted over ``hands`` hands played by ``level`` at every seat."""
    from burraco import Game
    from burraco.melds import meld_rules

    m = max(margin, heuristic.TIE) if level == "medium" else heuristic.TIE
    n = {"decisions": 0, "discards": 0, "feeding": 0, "feeding_60": 0, "adds": 0, "dirtying": 0}
    for seed in range(hands):
        g = Game.new(preset(name), seed=10_000 + seed)
        players = [HeuristicPlayer(level, seed * 10 + k, margin=m) for k in range(g.n)]
        mr = meld_rules(g.rules)
        while g.end is None:
            legal = g.legal_actions()
            view = g.view(g.turn)
            a = players[g.turn].choose(view, legal)
            if len(legal) > 1:
                n["decisions"] += 1
                ctx = heuristic._Ctx(view, "medium")  # the danger as medium and hard price it
                if a.verb == "discard":
                    n["discards"] += 1
                    f = ctx.feeds(a.cards[0])
                    if f > 0 and any(ctx.feeds(c) == 0 for c in view.hand):
                        n["feeding"] += 1
                        n["feeding_60"] += f >= 60
                elif a.verb == "add":
                    before = ctx.own[a.meld - 1]
                    n["adds"] += 1
                    n["dirtying"] += ctx.dirty_cost(before, mr.attach(before, a.cards), ctx.n_hand - len(a.cards)) > 0
            g.apply(a)
    return {"level": level, "margin": margin if level == "medium" else 0.0, "hands": hands, "preset": name, **n}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--margins", nargs="+", type=float, default=[0.0, heuristic.CLUB_MARGIN])
    ap.add_argument("--presets", nargs="+", default=["italian"])
    ap.add_argument("--deals", type=int, default=200)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--json", metavar="PATH", help="write the figures there")
    ap.add_argument("--safety", type=int, metavar="HANDS", help="count feeding discards and dirtying wilds instead")
    args = ap.parse_args(argv)
    out: dict[str, Any] = {
        "benchmark": "levels",
        "command": "python benchmarks/levels.py " + " ".join(sys.argv[1:] if argv is None else argv),
        "club_margin": heuristic.CLUB_MARGIN,
        "runs": [],
    }
    if args.safety:
        todo = [("hard", 0.0), ("easy", 0.0)] + [("medium", m) for m in args.margins]
        for level, margin in todo:
            r = safety(level, margin, args.safety)
            out["runs"].append(r)
            print(
                f"{level:6} margin {r['margin']:4g}: feeding discards {r['feeding']}/{r['discards']} "
                f"({100 * r['feeding'] / max(1, r['discards']):.2f} %), {r['feeding_60']} of them worth ≥ 60; "
                f"dirtying wilds {r['dirtying']}/{r['adds']} attachments",
                flush=True,
            )
        args.presets = []
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

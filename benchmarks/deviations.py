"""How often the flat search leaves the heuristic's choice, and on how large an advantage, as its determinizations
grow (issue 22: why `ismcts:1s` is not stronger than `ismcts:0.25s`) — and, with ``--truth``, whether those
departures gain anything.

At every ``--every``-th decision with two or more root candidates of ``--hands`` hands of heuristic:hard
(``--rules``, dealt from ``--seed``), the search (``ISMCTSPlayer``, its defaults) evaluates the candidates on
``max(--iterations)`` determinizations; for each number N of ``--iterations`` the choice it would make from the
first N (:func:`burraco.bots.ismcts.pick_best`: the heuristic's choice unless another candidate beats it by more
than ``z`` standard errors and, with ``--floor``, by more than that many points) is taken, and reported: the share
of decisions where it leaves the heuristic's choice, and the advantage (points a hand, the search's own paired
estimate) of the candidates it leaves it for — their median, and the share under 10 and under 25 points::

    python benchmarks/deviations.py --hands 6 --iterations 100 400 1600 --json

With ``--truth T`` every candidate is also valued on ``T`` determinizations that keep the other players' *true*
hands (``search_variants.knows_hands_sampler``: only the stock and the pozzetti are dealt at random), and for every
N, ``--zs`` and ``--floors`` the choice from the honest values is scored by those: its **gain** is the chosen
candidate's value minus the heuristic choice's, in points a hand, averaged over the decisions (with its standard
error). The honest search's departures are thus judged by what it would see if its model of the hands were
perfect — the same rollouts, so what the rollouts assume is not judged, only what the hands are guessed to be and
the sampling noise. A search that gets better with more determinizations shows a gain that grows with N::

    python benchmarks/deviations.py --hands 8 --truth 800 --zs 1 2 --floors 0 25 50 --json

``--search JSON`` gives the searched player other arguments (the judge keeps the defaults): with the same
``--seed``, ``--hands`` and ``--every`` the decisions and the judge's values are the same, so two models of the hands
(``'{"infer": false}'``, ``'{"infer": {"calibrated": true}}'``) compare decision by decision (``--raw``);
``'{"knows_hands": true}'`` searches with the true hands too (on other samples than the judge's): the ceiling a
model of the hands could reach (``'{"knows_hands": [1]}'``: only the next player's hand, seats counted in the order
of play). ``--paired RAW_A RAW_B`` prints the decision-by-decision differences of two runs:
overall, per phase, per kind of play decision (the verbs of its candidates) and stage of the hand, and the share of
the total carried by the decisions where A gains most (``--raw`` keeps each decision's candidates and their mean
values, searched and judged, for such questions)::

    python benchmarks/deviations.py --hands 24 --every 3 --seed 1 --floor 0 --iterations 400 --truth 800 --zs 1 \
        --floors 0 --search '{"knows_hands": true}' --json --raw oracle.json
    python benchmarks/deviations.py --hands 24 --every 3 --seed 1 --floor 0 --iterations 400 --truth 800 --zs 1 \
        --floors 0 --json --raw default.json
    python benchmarks/deviations.py --paired oracle.json default.json
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
from collections.abc import Callable
from typing import Any

from hand_model import LearnedInference, placed
from search_variants import knows_hands_sampler, soft_hands_sampler

from burraco import Game, preset
from burraco.actions import DRAW, PICK
from burraco.bots import HeuristicPlayer
from burraco.bots.ismcts import DEFAULT_FLOOR, REWARD_SCALE, ISMCTSPlayer, paired, pick_best


def _means(values: list[list[float]]) -> list[float]:
    """Each candidate's mean value over its determinizations, in points a hand (for ``--raw``)."""
    return [round(statistics.fmean(row) * REWARD_SCALE, 1) for row in values]


def measure(
    rules_name: str,
    hands: int,
    every: int,
    iterations: list[int],
    seed: int,
    floor: float = 0.0,
    truth: int = 0,
    zs: list[float] | None = None,
    floors: list[float] | None = None,
    search_args: dict[str, Any] | None = None,
) -> dict[str, object]:
    rules = preset(rules_name)
    top = max(iterations)
    gains: dict[int, list[float]] = {n: [] for n in iterations}
    z_grid = zs or [1.0]
    floor_grid = floors or [floor]
    # per (N, z, floor): the truth-valued gain of each decision's choice over the heuristic's, and departures
    scored: dict[tuple[int, float, float], list[float]] = {
        (n, z, f): [] for n in iterations for z in z_grid for f in floor_grid
    }
    left: dict[tuple[int, float, float], int] = dict.fromkeys(scored, 0)
    phases: list[str] = []  # per decision: "pile" (draw or pick up) or "play" (melds, attachments, discards)
    # per decision: its candidates (action strings, the heuristic's first), their means on the searched player's
    # determinizations and, with --truth, on the judge's (points a hand)
    details: list[dict[str, object]] = []
    kwargs = dict(search_args or {})
    oracle = kwargs.pop("knows_hands", False)  # True, or the seats whose hands it sees ([1]: the next player's)
    which = oracle if isinstance(oracle, list) else None
    if "hand_model" in kwargs:  # a learned model of the hands (hand_model.py --out FILE)
        kwargs["infer"] = LearnedInference.load(kwargs.pop("hand_model"))
    beta = kwargs.pop("soft_hands", None)  # a model of the hands as good as the truth at this sharpness
    shares: list[float] = []  # per decision: the share of the hidden cards the searched player's samples place right
    prng = random.Random(seed)
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
                search = ISMCTSPlayer(seed=step, iterations=top, **kwargs)
                cands = search.root_candidates(view, legal)
                if len(cands) > 1:
                    if oracle:  # the ceiling: the searched player sees the hands too (other samples than the judge)
                        sampler: Callable[[random.Random], Game] = knows_hands_sampler(g, s, which)
                    elif beta is not None:
                        sampler = soft_hands_sampler(g, s, float(beta))
                    else:
                        sampler = search._sampler(view)
                    values = search.candidate_values(view, cands, sampler)
                    share = placed(g, s, sampler, prng)
                    if not math.isnan(share):
                        shares.append(share)
                    decisions += 1
                    phases.append("pile" if any(c.verb in (DRAW, PICK) for c in cands) else "play")
                    detail: dict[str, object] = {
                        "seat": s,
                        "pile": view.pile_size,
                        "hand_sizes": list(view.hand_sizes),
                        "stock": view.stock_size,
                        "candidates": [str(c) for c in cands],
                        "search": _means(values),
                    }
                    details.append(detail)
                    for n in iterations:
                        first = [row[:n] for row in values]
                        j = pick_best(first, search.z, floor / REWARD_SCALE)
                        if j:
                            gains[n].append(paired(first, j)[0] * REWARD_SCALE)
                    if truth:
                        judge = ISMCTSPlayer(seed=10**6 + step, iterations=truth)
                        tv = judge.candidate_values(view, cands, knows_hands_sampler(g, s))
                        detail["truth"] = _means(tv)
                        for (n, z, f) in scored:
                            j = pick_best([row[:n] for row in values], z, f / REWARD_SCALE)
                            scored[(n, z, f)].append(paired(tv, j)[0] * REWARD_SCALE if j else 0.0)
                            left[(n, z, f)] += j != 0
            g.apply(legal[0] if len(legal) == 1 else players[s].choose(g.view(s), legal))
            step += 1
    out: dict[str, object] = {"rules": rules_name, "hands": hands, "decisions": decisions, "floor": floor}
    if search_args:
        out["search"] = search_args
    if shares:
        out["placed_right"] = round(statistics.fmean(shares), 4)
    for n, v in gains.items():
        out[str(n)] = {
            "leaves_the_heuristic": round(len(v) / max(1, decisions), 3),
            "median_advantage": round(statistics.median(v), 1) if v else None,
            "under_10_points": round(sum(x < 10 for x in v) / max(1, len(v)), 2),
            "under_25_points": round(sum(x < 25 for x in v) / max(1, len(v)), 2),
        }
    if truth:
        out["truth"] = truth
        out["gain"] = [
            {
                "determinizations": n,
                "z": z,
                "floor": f,
                "leaves_the_heuristic": round(left[(n, z, f)] / max(1, decisions), 3),
                "gain": round(statistics.fmean(v), 2),
                "se": round(statistics.stdev(v) / math.sqrt(len(v)), 2) if len(v) > 1 else None,
            }
            for (n, z, f), v in scored.items()
        ]
        out["per_decision"] = {f"{n} {z:g} {f:g}": [round(x, 1) for x in v] for (n, z, f), v in scored.items()}
        out["per_decision"]["phase"] = phases
        out["per_decision"]["decisions"] = details
    return out


def _groups(phase: str, detail: dict[str, Any] | None) -> list[str]:
    """The groups a decision is reported in by ``--paired``: its phase and, for a play decision with its details,
    the kinds of its candidates (``discard``, ``discard+meld``, ``add+discard`` …) and the stage of the hand (the
    stock's size)."""
    out = [phase]
    if phase == "play" and detail is not None:
        verbs = sorted({str(c).split()[1] for c in detail["candidates"]})
        out.append("play: " + "+".join(verbs))
        out.append("play, stock ≥ 20" if int(detail["stock"]) >= 20 else "play, stock < 20")
    return out


def paired_report(raw_a: str, raw_b: str) -> list[str]:
    """Lines comparing two ``--raw`` files decision by decision: for every rule they share, A's mean gain minus
    B's with its standard error (the same decisions: the same --seed, --hands and --every), per phase, per kind of
    play decision and stage of the hand (where the files hold the decisions' details), and how concentrated the
    difference is (the share of its total carried by the 10, 50 and 100 decisions where A gains most)."""
    with open(raw_a) as f:
        a = json.load(f)
    with open(raw_b) as f:
        b = json.load(f)
    phases = a.get("phase")
    details = b.get("decisions") or a.get("decisions")
    lines = []
    for key, va in a.items():
        vb = b.get(key)
        if key in ("phase", "decisions") or vb is None or len(vb) != len(va):
            continue
        d_all = [x - y for x, y in zip(va, vb, strict=True)]
        groups: dict[str, list[float]] = {}
        for i, d in enumerate(d_all):
            if phases:
                for name in _groups(phases[i], details[i] if details else None):
                    groups.setdefault(name, []).append(d)
        for name, d in [(None, d_all), *sorted(groups.items(), key=lambda kv: (kv[0].count(":"), "," in kv[0], kv[0]))]:
            if len(d) < 2:
                continue
            se = statistics.stdev(d) / math.sqrt(len(d))
            where = f" ({name}, {len(d)})" if name else f" ({len(d)} decisions)"
            lines.append(f"{key}{where}: A {statistics.fmean(d):+.2f} ± {se:.2f} points a decision over B")
        total = sum(d_all)
        if total > 0:
            top = sorted(d_all, reverse=True)
            shares = ", ".join(f"{k}: {sum(top[:k]) / total:.0%}" for k in (10, 50, 100) if k < len(top))
            lines.append(f"{key}: share of A's total gain ({total:+.0f}) in its best decisions — {shares}")
    return lines


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rules", default="italian")
    p.add_argument("--hands", type=int, default=6)
    p.add_argument("--every", type=int, default=4, help="measure every N-th decision (default 4)")
    p.add_argument("--iterations", type=int, nargs="+", default=[100, 400, 1600])
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--floor", type=float, default=DEFAULT_FLOOR,
                   help=f"ISMCTSPlayer's floor, points a hand (default {DEFAULT_FLOOR:g}, the player's)")
    p.add_argument("--search", default="{}", help="the searched ISMCTSPlayer's other keyword arguments, as JSON "
                   "(its model of the hands: '{\"infer\": false}'); the judge with --truth keeps the defaults")
    p.add_argument("--truth", type=int, default=0, help="value the candidates on this many determinizations "
                   "with the true hands too, and score the choices by them (0: no)")
    p.add_argument("--zs", type=float, nargs="+", default=None, help="with --truth: the z values to score")
    p.add_argument("--floors", type=float, nargs="+", default=None, help="with --truth: the floors to score")
    p.add_argument("--raw", default=None, help="with --truth: write each decision's gain per choice rule here "
                   "(JSON keyed \"N z floor\"; \"phase\": pile or play; \"decisions\": each one's candidates and "
                   "their mean values, searched and judged), for paired comparisons between the rules")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--paired", nargs=2, metavar=("RAW_A", "RAW_B"), default=None,
                   help="measure nothing: compare two --raw files decision by decision and print A − B")
    a = p.parse_args()
    if a.paired:
        print("\n".join(paired_report(*a.paired)))
        return 0
    out = measure(a.rules, a.hands, a.every, a.iterations, a.seed, a.floor, a.truth, a.zs, a.floors,
                  json.loads(a.search))
    if a.raw:
        with open(a.raw, "w") as f:
            json.dump(out.get("per_decision"), f)
    out.pop("per_decision", None)
    print(json.dumps(out) if a.json else "\n".join(f"{k}: {v}" for k, v in out.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())

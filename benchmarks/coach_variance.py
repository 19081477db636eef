"""Why a judged loss is noisy, and what would make it less so (issue 38 item 2; docs/analysis.md, "Less spread"):
for decisions the coach judged, the spread of the paired differences that measure a loss and the candidates for a
control variate or a stratification.

For each decision (``--cases DEAL:LEVEL:INDEX``, records of benchmarks/coach.py: South played by LEVEL on deal DEAL,
the others by ``hard``; by default the decisions whose marks differed across analysis seeds in docs/analysis.md's
agreement run), the coach's second look (:func:`burraco.bots.judge.refine`, seed 0) chooses the best move, then on
``--samples`` of the loss's own independent samples:

* **pairing** — the spread of each move's value and of their difference, and the correlation of the two moves'
  values on the same hidden cards and rollout seed (the common random numbers: the difference's variance is
  ``2σ²(1 − ρ)``);
* **where the spread comes from** — ``--dets`` determinizations, each played with ``--seeds`` rollout seeds: the
  share of the difference's variance between determinizations (what stratifying by the hidden cards, or a control
  variate of them, could remove at most) and within (the rollouts' own luck);
* **control variates** — the correlation ρ of the difference with, on the same determinizations and seeds: the
  difference after rollouts cut off after ``--depths`` decisions (judged by the static evaluation), the difference
  under cheaper rollout policies (``medium``, ``easy``), and a linear fit (ridge, cross-fitted on halves) on the
  hidden cards' allocation (each other seat's hand, the top of the stock). A control variate removes ρ² of the
  variance at best, and its own mean has to be estimated on more samples of it.

::

    python benchmarks/coach_variance.py --json docs/bench/coach-2026-12-07/variance.json
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
from coach import play

from burraco import Game
from burraco.bots.ismcts import REWARD_SCALE, ISMCTSPlayer
from burraco.bots.judge import MEASURE_SALT, refine, view_seed
from burraco.record import replay_match

CASES = ["100:random:117", "102:random:18", "102:random:29", "102:random:79", "104:random:19", "104:random:20",
         "104:random:32", "104:random:33", "104:random:50", "104:medium:55", "105:random:43"]  # fmt: skip


def position(deal: int, level: str, index: int) -> tuple[Game, Any]:
    """The game before action ``index`` of the record, and that action."""
    rec = play(deal, level, 64)
    game = replay_match(rec).games[0]
    g = Game.from_deal(game.rules, game.deal, (game.first - game.rules.direction) % game.n)  # type: ignore[arg-type]
    for i, a in enumerate(game.actions):
        if i == index:
            return g, a
        g.apply(a)
    raise ValueError(f"the record has no action {index}")


def corr(x: np.ndarray, y: np.ndarray) -> float:
    return float(np.corrcoef(x, y)[0, 1]) if x.std() > 0 and y.std() > 0 else 0.0


class Recording:
    """The view's sampler, keeping each determinization it draws."""

    def __init__(self, sample: Any) -> None:
        self.sample = sample
        self.dets: list[Game] = []

    def __call__(self, rng: random.Random) -> Game:
        d = self.sample(rng)
        self.dets.append(d.clone())
        return d


def features(det: Game, seat: int) -> list[float]:
    """The hidden cards' allocation: each other seat's card counts, the counts of the stock's last 8 cards."""
    out: list[float] = []
    for k in range(1, det.n):
        out += [float(x) for x in det.hands[(seat + k) % det.n]]
    top = [0.0] * len(det.hands[0])
    for c in det.stock[-8:]:
        top[c] += 1.0
    return out + top


def cross_fitted_r2(x: np.ndarray, y: np.ndarray, lam: float) -> float:
    """The share of ``y``'s variance a ridge fit on ``x`` explains out of sample (fit on one half, tested on the
    other, both ways)."""
    n = len(y) // 2
    halves = [(slice(0, n), slice(n, None)), (slice(n, None), slice(0, n))]
    res = []
    for tr, te in halves:
        xm, ym = x[tr].mean(0), y[tr].mean()
        a = x[tr] - xm
        beta = np.linalg.solve(a.T @ a + lam * np.eye(a.shape[1]), a.T @ (y[tr] - ym))
        res.append(float(((y[te] - (x[te] - xm) @ beta - ym) ** 2).mean() / y[te].var()))
    return 1.0 - statistics.fmean(res)


def diffs(view: Any, moves: list[Any], samples: int, **kw: Any) -> tuple[np.ndarray, np.ndarray, float]:
    """The two moves' values (points) on the loss's independent samples, and the CPU seconds they took."""
    p = ISMCTSPlayer(seed=view_seed(view, 0) ^ MEASURE_SALT, iterations=samples, **kw)
    t0 = time.process_time()
    b, q = p.candidate_values(view, moves)
    return REWARD_SCALE * np.array(b), REWARD_SCALE * np.array(q), time.process_time() - t0


def one(case: str, args: argparse.Namespace) -> dict[str, Any]:
    deal, level, index = case.split(":")
    g, played = position(int(deal), level, int(index))
    view = g.view(g.current_seat)
    best = refine(view, g.legal_actions(), played, seed=0).best
    row: dict[str, Any] = {"case": case, "played": str(played), "best": str(best)}
    if best == played:
        return row
    moves = [best, played]
    b, q, cpu = diffs(view, moves, args.samples)
    d = b - q
    row["pairing"] = {"mean": round(float(d.mean()), 1), "sd_best": round(float(b.std()), 1),
                      "sd_played": round(float(q.std()), 1), "correlation": round(corr(b, q), 3),
                      "sd_difference": round(float(d.std()), 1), "cpu_s": round(cpu, 3)}  # fmt: skip
    # where the spread comes from
    sampler = ISMCTSPlayer()._sampler(view)
    rng = random.Random(5)
    means, within = [], []
    for k in range(args.dets):
        det = sampler(rng)
        p = ISMCTSPlayer(seed=k, iterations=args.seeds)
        bb, qq = p.candidate_values(view, moves, lambda r, det=det: det.clone())
        dd = REWARD_SCALE * (np.array(bb) - np.array(qq))
        means.append(float(dd.mean()))
        within.append(float(dd.var(ddof=1)))
    w = statistics.fmean(within)
    between = max(0.0, statistics.variance(means) - w / args.seeds)
    row["spread"] = {"within_sd": round(w**0.5, 1), "between_sd": round(between**0.5, 1),
                     "between_share": round(between / (between + w), 3)}  # fmt: skip
    # control variates on the same samples
    cv: dict[str, Any] = {}
    for depth in args.depths:
        bb, qq, c = diffs(view, moves, args.samples, rollout_depth=depth)
        cv[f"cut_off_{depth}"] = {"correlation": round(corr(d, bb - qq), 3), "cpu_ratio": round(c / cpu, 2)}
    for lev in ("medium", "easy"):
        bb, qq, c = diffs(view, moves, args.samples, level=lev)
        cv[f"policy_{lev}"] = {"correlation": round(corr(d, bb - qq), 3), "cpu_ratio": round(c / cpu, 2)}
    p = ISMCTSPlayer(seed=view_seed(view, 0) ^ MEASURE_SALT, iterations=args.samples)
    rec = Recording(p._sampler(view))
    bb, qq = p.candidate_values(view, moves, rec)
    y = REWARD_SCALE * (np.array(bb) - np.array(qq))
    x = np.array([features(det, view.seat) for det in rec.dets])
    cv["hidden_cards_linear_r2"] = {str(lam): round(cross_fitted_r2(x, y, lam), 3) for lam in (1.0, 30.0, 300.0)}
    row["control_variates"] = cv
    return row


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--cases", nargs="+", default=CASES)
    ap.add_argument("--samples", type=int, default=1024)
    ap.add_argument("--dets", type=int, default=32)
    ap.add_argument("--seeds", type=int, default=8)
    ap.add_argument("--depths", type=int, nargs="+", default=[6, 20, 40])
    ap.add_argument("--json", type=Path, default=None)
    args = ap.parse_args()
    rows = []
    for case in args.cases:
        row = one(case, args)
        rows.append(row)
        print(json.dumps(row), file=sys.stderr, flush=True)
    judged = [r for r in rows if "pairing" in r]
    summary = {
        "decisions": len(judged),
        "pairing_correlation_median": statistics.median(r["pairing"]["correlation"] for r in judged),
        "sd_difference_median": statistics.median(r["pairing"]["sd_difference"] for r in judged),
        "between_share_median": statistics.median(r["spread"]["between_share"] for r in judged),
        "best_control_variate_r2_median": statistics.median(
            max([v["correlation"] ** 2 for k, v in r["control_variates"].items() if k != "hidden_cards_linear_r2"]
                + list(r["control_variates"]["hidden_cards_linear_r2"].values()))
            for r in judged
        ),
    }
    out = {"args": {k: v for k, v in vars(args).items() if k != "json"}, "summary": summary, "rows": rows}
    if args.json:
        args.json.write_text(json.dumps(out, indent=1) + "\n")
    print(json.dumps(summary, indent=1))


if __name__ == "__main__":
    main()

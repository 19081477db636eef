"""The coach's figures (issue 38 items 2, 3, 4, 7; docs/analysis.md): agreement across analysis seeds, calibration
against the true hands, how it ranks the levels, and its time per hand.

Records: ``--deals`` italian hands (four players, dealt from ``--seed`` on), South played by each of ``--levels``
(``random``, ``easy``, ``medium``, ``hard``, ``ismcts`` — the flat search at ``--ismcts`` determinizations a
decision — and ``hint``, the hint's moves) and the other seats by ``heuristic:hard``: duplicate deals, so the levels
meet the same cards. South's decisions of every record are analysed (:func:`burraco.analysis.analyse`, its
defaults):

* **agreement** — with analysis seeds 0 and ``--seeds`` more on the ``--agree-levels`` records: of the decisions
  marked in either of two analyses, the share marked the same (and marked at all) in both, over every pair of seeds;
  and the same over the *firm* marks, those whose interval's lower end stands at least 1 (2) standard errors from
  every threshold (``firm_1.0_se``, ``firm_2.0_se``: how many marks are firm, and their agreement);
* **calibration** — each decision of analysis seed 0 (of the ``--truth-levels`` records, default every level) is
  valued again on ``--truth`` determinizations that keep the
  other players' *true* hands (``search_variants.knows_hands_sampler``, the same rollouts: what
  benchmarks/deviations.py calls the truth). Per mark class, the share of the coach's marks whose true loss (the
  coach's best move against the move played, on all of those samples) is positive, at least an inaccuracy, at least
  the class's threshold, and the mean of the coach's losses and of the true ones; per threshold, the share of the
  decisions whose true loss (the truth's best, chosen on half
  of the samples and measured on the other half) reaches it that the coach marks, and marks at that class or above;
* **levels** — per level, the coach's points lost per decision (mean over the hands, Student's t 95 % interval),
  per hand, the truth's points lost per hand, the hand's *result* (South's side's total minus the other side's)
  and its marks per hand; and for each neighbouring pair of levels (``pairs``), on the same deals, the paired
  difference of the points lost per decision and of the result;
* **time** — the seconds of each analysis of a hand (South's decisions, one process; ``--workers`` analyse that
  many deals at once).

::

    python benchmarks/coach.py --deals 100 --seed 107 --workers 2 \
        --json docs/bench/coach-2026-12-07/coach-100deals.json --plot docs/img/coach-levels.png
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from search_variants import knows_hands_sampler

from burraco import Game, analysis, hint, preset
from burraco.analysis import BLUNDER, INACCURACY, MISTAKE, Analysis, analyse
from burraco.arena import t95
from burraco.bots.heuristic import HeuristicPlayer
from burraco.bots.ismcts import REWARD_SCALE, ISMCTSPlayer
from burraco.bots.judge import candidates
from burraco.bots.random_player import RandomPlayer
from burraco.record import replay_match

SOUTH = 2
THRESHOLDS = {"inaccuracy": INACCURACY, "mistake": MISTAKE, "blunder": BLUNDER}
ORDER = ("inaccuracy", "mistake", "blunder")
#: the standard errors from every threshold at which a mark counts as firm in the agreement's second measure
FIRM = (1.0, 2.0)


def play(deal_seed: int, level: str, ismcts: int) -> dict[str, Any]:
    """One italian hand, South played by ``level``, the others by hard."""
    g = Game.new(preset("italian"), seed=deal_seed)
    others = [HeuristicPlayer("hard", seed=deal_seed * 10 + s) for s in range(4)]
    south: Any
    if level == "random":
        south = RandomPlayer(seed=deal_seed)
    elif level == "ismcts":
        south = ISMCTSPlayer(seed=deal_seed, iterations=ismcts)
    elif level != "hint":
        south = HeuristicPlayer(level, seed=deal_seed)
    while g.end is None:
        s = g.current_seat
        legal = g.legal_actions()
        v = g.view(s)
        if s != SOUTH:
            a = others[s].choose(v, legal)
        elif level == "hint":
            a = hint(v, legal=legal).action
        else:
            a = legal[0] if len(legal) == 1 else south.choose(v, legal)
        g.apply(a)
    return g.to_record()


def truth(record: dict[str, Any], an: Analysis, samples: int) -> list[dict[str, Any]]:
    """Every decision of ``an`` valued on the true hands: the coach's best against the move played (all samples)
    and the truth's best (chosen on the first half) against it (the second half), in points."""
    m = replay_match(record)
    game = m.games[0]
    g = Game.from_deal(game.rules, game.deal, (game.first - game.rules.direction) % game.n)  # type: ignore[arg-type]
    by_index = {d.index: d for d in an.decisions if d.hand == 0}
    out = []
    for i, a in enumerate(game.actions):
        d = by_index.get(i)
        if d is not None:
            seat = g.current_seat
            view = g.view(seat)
            cands = candidates(view, g.legal_actions(), a)
            best = next(c for c in cands if str(c) == d.best) if d.best != d.played else a
            if best not in cands:
                cands.append(best)
            vals = ISMCTSPlayer(seed=1000 + i, iterations=samples).candidate_values(
                view, cands, knows_hands_sampler(g, seat)
            )
            p = cands.index(a)
            b = cands.index(best)
            coach_loss = REWARD_SCALE * statistics.fmean(x - y for x, y in zip(vals[b], vals[p], strict=True))
            half = samples // 2
            j = max(range(len(cands)), key=lambda k: sum(vals[k][:half]))
            true_loss = REWARD_SCALE * statistics.fmean(
                x - y for x, y in zip(vals[j][half:], vals[p][half:], strict=True)
            )
            out.append({"index": i, "mark": d.mark, "loss": d.loss, "coach_loss_true": round(coach_loss, 1),
                        "true_loss": round(true_loss, 1)})
        g.apply(a)
    return out


def judged(an: Analysis) -> dict[str, list[Any]]:
    """The decisions whose loss was measured: index -> [mark, best, loss, lower, samples, se]."""
    return {str(d.index): [d.mark, d.best, d.loss, d.lower, d.samples, d.se] for d in an.decisions if d.samples}


def firm(j: dict[str, list[Any]], key: str, k: float) -> bool:
    """Whether a decision's mark stands ``k`` standard errors from every threshold (its interval's lower end that
    far from each): another analysis would rarely give it another class. A decision not judged is firm."""
    if key not in j:
        return True
    lower, se = j[key][3], j[key][5]
    return all(abs(lower - t) >= k * se for t in THRESHOLDS.values())


def plot(levels: dict[str, dict[str, Any]], path: Path, title: str, pairs: dict[str, dict[str, Any]] | None = None) -> None:
    """Points lost per decision by level (mean and 95 % interval over the hands), one row a level; beside it, where
    given, each neighbouring pair of levels' paired difference on the same deals (mean and 95 % interval)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    def rows(ax: Any, data: dict[str, dict[str, Any]], key: str, labels: list[str]) -> None:
        ys = list(range(len(data)))[::-1]
        for y, row in zip(ys, data.values(), strict=True):
            x = row[key]
            lo, hi = row["interval"] or (x, x)
            ax.errorbar([x], [y], xerr=[[x - lo], [hi - x]], fmt="o", capsize=4, color="tab:blue")
        ax.set_yticks(ys, labels)
        ax.grid(axis="x", alpha=0.3)

    panels = 2 if pairs else 1
    fig, axes = plt.subplots(1, panels, figsize=(7 * panels, 0.5 * len(levels) + 1.6), squeeze=False)
    rows(axes[0][0], levels, "lost_per_decision", [f"{n} ({levels[n]['hands']} hands)" for n in levels])
    axes[0][0].set_xlabel("the coach's points lost per decision (mean over hands, 95 % interval)")
    axes[0][0].set_title(title)
    if pairs:
        ax = axes[0][1]
        rows(ax, pairs, "difference", list(pairs))
        ax.axvline(0, color="grey", lw=1)
        ax.set_xlabel("paired difference on the same deals (95 % interval); > 0: the first loses more")
        ax.set_title("neighbouring levels, deal by deal")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def class_by(x: float) -> int | None:
    """The index in :data:`ORDER` of the highest threshold ``x`` reaches (None below the inaccuracy's)."""
    return max((i for i, c in enumerate(ORDER) if x >= THRESHOLDS[c]), default=None)


#: other rules for a judged decision's class ([mark, best, mean, lower end, samples, standard error]), their agreement
#: across seeds measured beside the coach's (the lower end): the class by the mean where the lower end reaches an
#: inaccuracy; each threshold raised by k standard errors; and marked or not, whatever the class
OTHER_RULES: dict[str, Any] = {
    "mean_where_significant": lambda v: class_by(v[2]) if v[3] >= INACCURACY else None,
    **{f"raised_{k}_se": (lambda v, k=k: class_by(v[3] - k * v[5])) for k in (0.5, 1.0, 2.0)},
    "marked_or_not": lambda v: 0 if v[3] >= INACCURACY else None,
}


def rule_agreement(rows: list[dict[str, Any]], rule: Any) -> dict[str, Any]:
    """The agreement across seeds of the class ``rule`` gives each judged decision (a decision not judged in an
    analysis is unmarked there): of the decisions marked in either of two analyses, the share marked the same."""
    same = either = 0
    for row in rows:
        for a, b in itertools.combinations(row.get("judged_by_seed", []), 2):
            for key in set(a) | set(b):
                ca = rule(a[key]) if key in a else None
                cb = rule(b[key]) if key in b else None
                if ca is not None or cb is not None:
                    either += 1
                    same += ca == cb
    return {"pairs_of_marks": either, "same_class": round(same / either, 3) if either else None}


def dumps(out: dict[str, Any]) -> str:
    """The benchmark's JSON: the figures indented, each hand's row on one line (hundreds of hands stay small)."""
    head = json.dumps({k: v for k, v in out.items() if k != "rows"}, indent=1)
    rows = ",\n".join(json.dumps(row, separators=(",", ":")) for row in out["rows"])
    return head[:-2] + ',\n "rows": [\n' + rows + "\n ]\n}"


def mean_interval(xs: list[float]) -> dict[str, Any]:
    """The mean of ``xs`` and its Student's t 95 % interval (None for fewer than two)."""
    m = statistics.fmean(xs)
    if len(xs) < 2:
        return {"mean": round(m, 2), "interval": None}
    half = t95(len(xs) - 1) * statistics.stdev(xs) / math.sqrt(len(xs))
    return {"mean": round(m, 2), "interval": [round(m - half, 2), round(m + half, 2)]}


def rank(mark: str | None) -> int:
    return -1 if mark is None else ORDER.index(mark)


def one_deal(deal: int, args: argparse.Namespace) -> list[dict[str, Any]]:
    """Every level's hand of one deal, analysed (and, for the levels asked, at more seeds and against the truth)."""
    if args.rivals is not None:
        analysis.RIVALS = args.rivals
    rows: list[dict[str, Any]] = []
    for level in args.levels:
        rec = play(deal, level, args.ismcts)
        t0, c0 = time.perf_counter(), time.process_time()
        an = analyse(rec, seats=["S"])
        took, cpu = time.perf_counter() - t0, time.process_time() - c0
        sc = replay_match(rec).games[0].scores()
        row: dict[str, Any] = {
            "deal": deal,
            "level": level,
            "result": sc["NS"]["total"] - sc["EW"]["total"],
            "decisions": len(an.decisions),
            "seconds": round(took, 2),
            "cpu_seconds": round(cpu, 2),
            "lost_per_decision": round(sum(d.loss for d in an.decisions) / max(1, len(an.decisions)), 2),
            "marks": {c: sum(1 for d in an.decisions if d.mark == c) for c in ORDER},
            "marked": {str(d.index): d.mark for d in an.decisions if d.mark},
        }
        if level in args.agree_levels:
            row["marked_by_seed"] = [row["marked"]]
            row["judged_by_seed"] = [judged(an)]
            for s in range(1, args.seeds + 1):
                other = analyse(rec, seats=["S"], seed=s)
                row["marked_by_seed"].append({str(d.index): d.mark for d in other.decisions if d.mark})
                row["judged_by_seed"].append(judged(other))
        if args.truth and level in (args.truth_levels or args.levels):
            row["truth"] = truth(rec, an, args.truth)
        rows.append(row)
        print(json.dumps({x: row[x] for x in ("deal", "level", "decisions", "seconds", "cpu_seconds", "lost_per_decision",
                                              "marks")}), file=sys.stderr, flush=True)
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--deals", type=int, default=4)
    ap.add_argument("--seed", type=int, default=100)
    ap.add_argument("--levels", nargs="+", default=["random", "easy", "medium", "hard", "ismcts", "hint"])
    ap.add_argument("--agree-levels", nargs="+", default=["random", "medium", "hint"])
    ap.add_argument("--seeds", type=int, default=2, help="analysis seeds beside 0 for the agreement")
    ap.add_argument("--truth", type=int, default=128, help="0: no calibration (agreement and levels only)")
    ap.add_argument("--truth-levels", nargs="+", default=None,
                    help="the levels whose decisions are valued on the true hands (default: every level)")
    ap.add_argument("--ismcts", type=int, default=64)
    ap.add_argument("--workers", type=int, default=1, help="deals analysed in this many processes at once")
    ap.add_argument("--rivals", type=int, default=None,
                    help="the second look's runners-up measured beside its best (default: burraco.analysis.RIVALS)")
    ap.add_argument("--json", type=Path, default=None)
    ap.add_argument("--plot", type=Path, default=None, help="a PNG of the points lost per decision by level")
    ap.add_argument("--replot", type=Path, default=None, help="only draw --plot from this benchmark JSON")
    args = ap.parse_args()
    if args.rivals is not None:
        analysis.RIVALS = args.rivals
    if args.replot is not None:
        done = json.loads(args.replot.read_text())
        plot(done["levels"], args.plot, f"South's level, {done['args']['deals']} deals from seed {done['args']['seed']}",
             done.get("pairs"))
        return

    rows: list[dict[str, Any]] = []
    deals = [args.seed + k for k in range(args.deals)]
    if args.workers > 1:
        with ProcessPoolExecutor(args.workers) as pool:
            for done in pool.map(one_deal, deals, itertools.repeat(args)):
                rows.extend(done)
    else:
        for deal in deals:
            rows.extend(one_deal(deal, args))
    rows.sort(key=lambda row: (row["deal"], args.levels.index(row["level"])))

    # agreement across analysis seeds
    same = anyboth = either = 0
    for row in rows:
        for a, b in itertools.combinations(row.get("marked_by_seed", []), 2):
            keys = set(a) | set(b)
            either += len(keys)
            same += sum(1 for x in keys if a.get(x) == b.get(x))
            anyboth += sum(1 for x in keys if x in a and x in b)
    agreement: dict[str, Any] = {"pairs_of_marks": either, "same_class": round(same / either, 3) if either else None,
                                 "marked_in_both": round(anyboth / either, 3) if either else None}
    # the same under other rules for the class, from the same measured losses
    agreement["other_rules"] = {name: rule_agreement(rows, rule) for name, rule in OTHER_RULES.items()}
    # the same, over the marks that stand FIRM standard errors from every threshold in either analysis
    for k in FIRM:
        fsame = feither = marks = firm_marks = 0
        for row in rows:
            js = row.get("judged_by_seed", [])
            for j in js:
                marks += sum(1 for v in j.values() if v[0])
                firm_marks += sum(1 for key, v in j.items() if v[0] and firm(j, key, k))
            for (a, b), (ja, jb) in zip(itertools.combinations(row.get("marked_by_seed", []), 2),
                                        itertools.combinations(js, 2), strict=True):
                keys = {x for x in set(a) | set(b) if (x in a and firm(ja, x, k)) or (x in b and firm(jb, x, k))}
                feither += len(keys)
                fsame += sum(1 for x in keys if a.get(x) == b.get(x))
        agreement[f"firm_{k}_se"] = {"marks": marks, "firm_marks": firm_marks, "pairs_of_marks": feither,
                                     "same_class": round(fsame / feither, 3) if feither else None}

    # calibration against the true hands
    dec = [t for row in rows for t in row.get("truth", [])]
    precision = {}
    for c in ORDER:
        marks = [t for t in dec if t["mark"] == c]
        precision[c] = {
            "marks": len(marks),
            "true_loss_positive": round(sum(t["coach_loss_true"] > 0 for t in marks) / len(marks), 3) if marks else None,
            "true_loss_at_least_inaccuracy": round(sum(t["coach_loss_true"] >= INACCURACY for t in marks) / len(marks), 3)
            if marks else None,
            "true_loss_at_least_its_threshold": round(
                sum(t["coach_loss_true"] >= THRESHOLDS[c] for t in marks) / len(marks), 3) if marks else None,
            "mean_loss": round(statistics.fmean(t["loss"] for t in marks), 1) if marks else None,
            "mean_true_loss": round(statistics.fmean(t["coach_loss_true"] for t in marks), 1) if marks else None,
        }
    recall = {}
    for c in ORDER:
        real = [t for t in dec if t["true_loss"] >= THRESHOLDS[c]]
        recall[c] = {
            "real_losses": len(real),
            "marked": round(sum(t["mark"] is not None for t in real) / len(real), 3) if real else None,
            "marked_at_its_class_or_above": round(sum(rank(t["mark"]) >= ORDER.index(c) for t in real) / len(real), 3)
            if real else None,
        }

    # levels
    levels = {}
    for level in args.levels:
        mine = [row for row in rows if row["level"] == level]
        lost = mean_interval([row["lost_per_decision"] for row in mine])
        truths = [row for row in mine if row.get("truth")]
        levels[level] = {
            "hands": len(mine),
            "lost_per_decision": lost["mean"],
            "interval": lost["interval"],
            "lost_per_hand": mean_interval([row["lost_per_decision"] * row["decisions"] for row in mine]),
            "truth_lost_per_hand": mean_interval([sum(t["true_loss"] for t in row["truth"]) for row in truths])
            if truths else None,
            "result": mean_interval([row["result"] for row in mine]),
            "marks_per_hand": round(statistics.fmean(sum(row["marks"].values()) for row in mine), 2),
            "max_marks_in_a_hand": max(sum(row["marks"].values()) for row in mine),
        }
    # the levels on the same deals: each neighbouring pair's paired difference of points lost per decision
    # (and of the hand's result: South's side's total minus the other side's, b's minus a's)
    pairs = {}
    by = {(row["deal"], row["level"]): row for row in rows}
    for a, b in itertools.pairwise(args.levels):
        both = [d for d in deals if (d, a) in by and (d, b) in by]
        diff = mean_interval([by[d, a]["lost_per_decision"] - by[d, b]["lost_per_decision"] for d in both])
        pairs[f"{a} - {b}"] = {"deals": len(both), "difference": diff["mean"], "interval": diff["interval"],
                               "result_gain": mean_interval([by[d, b]["result"] - by[d, a]["result"] for d in both])}
    secs = [row["seconds"] for row in rows]
    cpus = [row["cpu_seconds"] for row in rows]
    out = {
        "args": {k: v for k, v in vars(args).items() if k not in ("json", "plot", "replot")},
        "agreement": agreement,
        "precision": precision,
        "recall": recall,
        "levels": levels,
        "pairs": pairs,
        "time": {"hands": len(secs), "median_s": round(statistics.median(secs), 2), "max_s": max(secs),
                 "cpu_median_s": round(statistics.median(cpus), 2), "cpu_max_s": max(cpus),
                 "decisions_max": max(row["decisions"] for row in rows)},
        "rows": rows,
    }
    text = dumps(out)
    if args.json:
        args.json.write_text(text + "\n")
    if args.plot:
        plot(levels, args.plot, f"South's level, {args.deals} deals from seed {args.seed}", pairs)
    print(json.dumps({k: v for k, v in out.items() if k != "rows"}, indent=1))


if __name__ == "__main__":
    main()

"""Post-game analysis, the coach (``burraco analyse``): for every decision of a seat in a game record — draw or take
the pile, each meld and attachment, each discard — the search's expected score of the move played and of the best
move it finds, judged from that seat's view at that moment only (never the hidden cards), with the decisions that
cost more than a threshold marked as inaccuracies, mistakes or blunders, and a summary per hand of the points lost
by kind of decision.

How a decision is judged (docs/analysis.md, "How a decision is judged"): the best move is chosen by the judgement the
hint gives (:func:`burraco.bots.judge.choose`: the search's candidates plus the move played, valued on
``iterations`` determinizations seeded by the view, the best picked as the flat search picks it), so a move the hint
recommends is never marked. When it picks another move, the choice is made again on
:data:`~burraco.bots.judge.REFINE` samples with the move played kept unless another beats it significantly
(:func:`~burraco.bots.judge.refine`). When the best is still another move, its *loss* — the best move's value minus its own —
is measured on **independent** samples (:class:`~burraco.bots.judge.PairedLosses`), which the choice cannot have
favoured, against the better of that best and the second look's runner-up (:data:`RIVALS`) on those samples: first :data:`MEASURE_START` of them, then twice as many at each look until the loss's interval clears
every threshold or :data:`MEASURE_CAP` are drawn. A decision is marked when the interval's lower end is at least a
threshold (``inaccuracy`` from :data:`INACCURACY` points, ``mistake`` from :data:`MISTAKE`, ``blunder`` from
:data:`BLUNDER`), one-sided at the level :data:`ALPHA` for the seat's decisions in a hand together: Bonferroni over
those decisions and over the looks (:func:`quantile`).

>>> from burraco import Game, preset
>>> g = Game.new(preset("italian-2p"), seed=4)
>>> import random
>>> rng = random.Random(4)
>>> for _ in range(6):
...     acts = g.legal_actions()
...     g.apply(acts[rng.randrange(len(acts))])
>>> out = analyse(g.to_record(), seats=["N"], iterations=2, seed=1)
>>> out.decisions[0].seat, out.decisions[0].kind
('N', 'pile')
>>> sorted(out.to_json())
['alpha', 'decisions', 'format', 'iterations', 'measure', 'rules', 'seats', 'seed', 'summary', 'thresholds']
"""

from __future__ import annotations

import math
from collections.abc import Callable, Collection, Sequence
from dataclasses import asdict, dataclass, field, replace
from statistics import NormalDist
from typing import Any

from .actions import ADD, DISCARD, DRAW, MELD, PICK, SWAP, Action
from .bots.hint import better_reason
from .bots.judge import HINT_SEED, REFINE, SELECT, Choice, PairedLosses, choose, refine
from .game import Game
from .messages import message_to_json
from .record import replay_match
from .view import View

FORMAT = "burraco-analysis/1"
#: points lost (expected hand score difference) from which a decision is marked an inaccuracy
INACCURACY = 30.0
#: … a mistake
MISTAKE = 80.0
#: … a blunder
BLUNDER = 200.0
#: the significance of the marks: the chance that a hand of one seat gets a mark whose loss is really below its
#: threshold is at most this (one-sided, Bonferroni over the seat's decisions in the hand and the looks)
ALPHA = 0.05
#: the independent samples of a loss's first look (the looks double: 16, 32 … :data:`MEASURE_CAP`)
MEASURE_START = 16
#: the most independent samples a decision's loss gets
MEASURE_CAP = 1024
#: the number of looks at a loss (16, 32, 64 … 1024)
LOOKS = int(math.log2(MEASURE_CAP // MEASURE_START)) + 1


def looks(cap: int) -> int:
    """The looks at a loss measured up to ``cap`` samples (:data:`MEASURE_START`, twice as many at each look, the
    last one up to ``cap``: 16, 32, 64, 100 for a cap of 100).

    >>> looks(MEASURE_CAP) == LOOKS, looks(64), looks(100), looks(16), looks(8)
    (True, 3, 4, 1, 1)
    """
    return 1 if cap <= MEASURE_START else math.ceil(math.log2(cap / MEASURE_START)) + 1


#: the second look's runners-up measured with its best on the independent samples, the loss being the better one's
#: there: where two moves of about the same value lead the second look, another analysis seed may rank them the other
#: way round, and the loss would be measured against the other (docs/analysis.md: agreement across seeds 77.6 % →
#: 80.4 %, +20 % CPU time)
RIVALS = 1
#: the kinds of decision in a hand's summary
KINDS = ("pile", "melds", "discards", "closing")

#: called with ``(0, total)`` before the first decision (when there is one), then after every decision analysed:
#: ``(done, total)``
Progress = Callable[[int, int], None]


@dataclass(frozen=True)
class Decision:
    """One analysed decision: where it stands in the record, what was played and the best move found, their values
    (expected final score difference for the seat's side, points), the loss and its mark."""

    hand: int
    index: int
    seat: str
    kind: str
    played: str
    best: str
    value_played: float
    value_best: float
    loss: float
    se: float
    mark: str | None
    candidates: tuple[tuple[str, float], ...] = ()
    #: the independent samples that measured the loss (0: the move played was the best, nothing to measure)
    samples: int = 0
    #: the lower end of the loss's one-sided interval at the hand's corrected level (the mark is the highest
    #: threshold it reaches)
    lower: float = 0.0
    #: why the best move is better, in the hint's words (:func:`burraco.bots.hint.better_reason`, a message's JSON);
    #: None when the move played was the best
    why: dict[str, Any] | None = None

    def to_json(self) -> dict[str, Any]:
        d = asdict(self)
        d["candidates"] = [[a, v] for a, v in self.candidates]
        return d

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Decision:
        """The decision of :meth:`to_json` (a ``ValueError`` for a malformed one)."""
        try:
            return cls(
                hand=int(d["hand"]),
                index=int(d["index"]),
                seat=str(d["seat"]),
                kind=str(d["kind"]),
                played=str(d["played"]),
                best=str(d["best"]),
                value_played=float(d["value_played"]),
                value_best=float(d["value_best"]),
                loss=float(d["loss"]),
                se=float(d["se"]),
                mark=None if d.get("mark") is None else str(d["mark"]),
                candidates=tuple((str(a), float(v)) for a, v in d.get("candidates", ())),
                samples=int(d.get("samples", 0)),
                lower=float(d.get("lower", 0.0)),
                why=d["why"] if isinstance(d.get("why"), dict) else None,
            )
        except (KeyError, TypeError, ValueError) as e:
            raise ValueError(f"not an analysed decision ({FORMAT}): {e}") from e


@dataclass
class Analysis:
    """The analysis of a record: its decisions and, per hand, the points lost by kind of decision and the marks."""

    rules: str
    seats: tuple[str, ...]
    iterations: int
    seed: int
    decisions: list[Decision] = field(default_factory=list)
    #: the most independent samples a decision's loss got (:func:`analyse`'s ``cap``)
    cap: int = MEASURE_CAP

    def summary(self) -> list[dict[str, Any]]:
        """Per hand (in order): ``lost`` per kind of decision (points), ``marks`` counted by kind of mark, the
        decisions analysed."""
        hands: dict[int, dict[str, Any]] = {}
        for d in self.decisions:
            h = hands.setdefault(
                d.hand,
                {
                    "hand": d.hand,
                    "decisions": 0,
                    "lost": {k: 0.0 for k in KINDS},
                    "marks": {"inaccuracy": 0, "mistake": 0, "blunder": 0},
                },
            )
            h["decisions"] += 1
            h["lost"][d.kind] = round(h["lost"][d.kind] + d.loss, 1)
            if d.mark is not None:
                h["marks"][d.mark] += 1
        return [hands[k] for k in sorted(hands)]

    def to_json(self) -> dict[str, Any]:
        """The documented JSON form (docs/analysis.md)."""
        return {
            "format": FORMAT,
            "rules": self.rules,
            "seats": list(self.seats),
            "iterations": self.iterations,
            "seed": self.seed,
            "thresholds": {"inaccuracy": INACCURACY, "mistake": MISTAKE, "blunder": BLUNDER},
            "alpha": ALPHA,
            "measure": {"refine": REFINE, "rivals": RIVALS, "start": MEASURE_START, "cap": self.cap},
            "decisions": [d.to_json() for d in self.decisions],
            "summary": self.summary(),
        }

    @classmethod
    def from_json(cls, d: Any) -> Analysis:
        """The analysis of :meth:`to_json` (an annotated record's ``"analysis"``); ``ValueError`` if it is not
        one."""
        if not isinstance(d, dict) or d.get("format") != FORMAT:
            raise ValueError(f"not an analysis ({FORMAT})")
        try:
            return cls(
                rules=str(d["rules"]),
                seats=tuple(str(x) for x in d["seats"]),
                iterations=int(d["iterations"]),
                seed=int(d["seed"]),
                decisions=[Decision.from_json(x) for x in d["decisions"]],
                cap=int(d["measure"].get("cap", MEASURE_CAP)) if isinstance(d.get("measure"), dict) else MEASURE_CAP,
            )
        except (KeyError, TypeError) as e:
            raise ValueError(f"not an analysis ({FORMAT}): {e}") from e

    def annotate(self, record: dict[str, Any]) -> dict[str, Any]:
        """The record with this analysis under ``"analysis"`` (a replay ignores the key: RECORDS.md §3)."""
        return {**record, "analysis": self.to_json()}


def kind_of(g: Game, a: Action) -> str:
    """The kind of a decision in ``g`` before ``a`` is applied: the pile (draw or pick), melds (meld, add, swap),
    the discard, or closing (the move that ends the hand by going out)."""
    if a.verb in (DRAW, PICK):
        return "pile"
    after = g.clone()
    after.apply(a)
    if after.end == "closed" and after.closed_by == g.turn:
        return "closing"
    if a.verb in (MELD, ADD, SWAP):
        return "melds"
    return "discards" if a.verb == DISCARD else "melds"


def t_quantile(p: float, df: int) -> float:
    """The ``p`` quantile of Student's t with ``df`` degrees of freedom (``p`` ≥ 0.5): the Cornish-Fisher expansion
    of the normal quantile (Abramowitz & Stegun 26.7.5), within 0.01 of the exact one from 15 degrees of freedom
    up to p = 0.9999 (the coach's first look has 15)."""
    z = NormalDist().inv_cdf(p)
    v = float(max(1, df))
    g1 = (z**3 + z) / 4
    g2 = (5 * z**5 + 16 * z**3 + 3 * z) / 96
    g3 = (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / 384
    g4 = (79 * z**9 + 776 * z**7 + 1482 * z**5 - 1920 * z**3 - 945 * z) / 92160
    return z + g1 / v + g2 / v**2 + g3 / v**3 + g4 / v**4


def quantile(decisions: int, df: int, cap: int = MEASURE_CAP) -> float:
    """The one-sided quantile of the marks (:func:`t_quantile`) at the level :data:`ALPHA` divided by ``decisions``
    × the looks (:data:`LOOKS` at the default ``cap``, :func:`looks`): Bonferroni over a seat's decisions in a hand,
    each looked at up to that many times."""
    return t_quantile(1.0 - ALPHA / (max(1, decisions) * looks(cap)), df)


def mark_of(lower: float) -> str | None:
    """The mark of a loss whose interval's lower end is ``lower`` points: the highest threshold it reaches (None
    below :data:`INACCURACY`)."""
    if lower >= BLUNDER:
        return "blunder"
    if lower >= MISTAKE:
        return "mistake"
    if lower >= INACCURACY:
        return "inaccuracy"
    return None


@dataclass(frozen=True)
class Loss:
    """A loss measured on independent samples: its mean, standard error, the interval's ends at the quantile used
    and the number of samples (points)."""

    mean: float
    se: float
    lower: float
    upper: float
    samples: int


def measure(paired: PairedLosses, decisions: int, cap: int = MEASURE_CAP) -> Loss:
    """Sample the loss of ``paired`` adaptively: :data:`MEASURE_START` samples (or ``cap`` if fewer), then twice as
    many at each look until its interval (± :func:`quantile` standard errors) holds no threshold or ``cap`` are
    drawn."""
    n = min(MEASURE_START, cap)
    diffs = paired.more(n)
    while True:
        n = len(diffs)
        m = sum(diffs) / n
        se = math.sqrt(sum((d - m) ** 2 for d in diffs) / (n - 1) / n) if n > 1 else math.inf
        q = quantile(decisions, n - 1, cap)
        lo, hi = m - q * se, m + q * se
        if n >= cap or not any(lo < t <= hi for t in (INACCURACY, MISTAKE, BLUNDER)):
            return Loss(m, se, lo, hi, n)
        diffs = paired.more(min(n, cap - n))


def judge(
    view: View,
    legal: Sequence[Action],
    played: Action,
    *,
    seed: int = 0,
    iterations: int | None = SELECT,
    time_budget: float | None = None,
    decisions: int = 1,
    cap: int = MEASURE_CAP,
) -> tuple[Choice, Loss | None]:
    """The judgement of ``played`` from ``view``: the choice of the best move (:func:`burraco.bots.judge.choose`,
    the hint's at the same budget, on the hint's samples whatever ``seed``: the move the hint recommends at the
    tables is never judged); when it picks another move, the choice again on :data:`~burraco.bots.judge.REFINE`
    samples with ``played`` kept unless another move beats it significantly (:func:`burraco.bots.judge.refine`,
    seeded by ``seed``; not when the first choice had as many samples already), and when that best is still another move, the loss
    measured on independent samples (:func:`measure`, up to ``cap``, at the level corrected for ``decisions`` in the
    hand) against
    the better of that best and the second look's :data:`RIVALS` runners-up there (the choice returned names it);
    None when ``played`` is the best."""
    c = choose(view, list(legal), played=played, seed=HINT_SEED, samples=iterations, time_budget=time_budget)
    if c.best == played:
        return c, None
    if c.samples < REFINE:
        c = refine(view, list(legal), played, seed=seed)
        if c.best == played:
            return c, None
    rivals = sorted((j for j in range(len(c.candidates)) if c.candidates[j] not in (c.best, played)),
                    key=lambda j: -c.values[j])[:RIVALS]
    paired = PairedLosses(view, c.best, played, seed, rivals=tuple(c.candidates[j] for j in rivals))
    loss = measure(paired, decisions, cap)
    if paired.best != c.best:
        c = replace(c, best=paired.best)
    return c, loss


def analyse(
    record: dict[str, Any],
    seats: Sequence[str] | None = None,
    *,
    iterations: int = SELECT,
    time_budget: float | None = None,
    seed: int = 0,
    progress: Progress | None = None,
    hands: Collection[int] | None = None,
    cap: int = MEASURE_CAP,
) -> Analysis:
    """Analyse the decisions of ``seats`` (default: every seat) in a record (RECORDS.md §3). ``iterations``
    determinizations per decision to choose the best move (the hint's budget), or ``time_budget`` seconds; the
    samples are seeded by each decision's view and ``seed``, so a record gets the same judgement every time (with
    ``iterations``); ``hands``: only these hands (their indices from 0; default every hand); ``cap``: the most
    independent samples a loss gets (:data:`MEASURE_CAP`; fewer make the analysis faster and its marks rarer: a
    loss must then be larger to be significant)."""
    if cap < 2:
        raise ValueError(f"the measurement cap must be at least 2 samples, not {cap}")
    m = replay_match(record)
    names = m.seats
    want = tuple(seats) if seats else names
    unknown = [s for s in want if s not in names]
    if unknown:
        raise ValueError(f"unknown seat {unknown[0]!r} (the seats are {' '.join(names)})")
    out = Analysis(m.rules.name, want, iterations, seed, cap=cap)
    todo: list[tuple[int, int, Game, Action]] = []
    per_hand: dict[tuple[int, str], int] = {}
    for h, game in enumerate(m.games):
        if hands is not None and h not in hands:
            continue
        g = Game.from_deal(game.rules, game.deal, (game.first - game.rules.direction) % game.n)  # type: ignore[arg-type]
        for i, a in enumerate(game.actions):
            if a.seat in want and g.current_seat >= 0 and len(g.legal_actions()) > 1:
                todo.append((h, i, g.clone(), a))
                per_hand[(h, a.seat)] = per_hand.get((h, a.seat), 0) + 1
            g.apply(a)
    total = len(todo)
    if progress is not None and total:
        progress(0, total)
    for k, (h, i, g, a) in enumerate(todo):
        view = g.view(g.current_seat)
        c, loss = judge(
            view,
            g.legal_actions(),
            a,
            seed=seed,
            iterations=None if time_budget is not None else iterations,
            time_budget=time_budget,
            decisions=per_hand[(h, a.seat)],
            cap=cap,
        )
        if loss is None:
            v_best = v_played = c.value(a)
            mean = se = lower = 0.0
            n = 0
        else:
            mean, se, lower, n = max(0.0, loss.mean), loss.se, loss.lower, loss.samples
            v_best = c.value(c.best)
            v_played = v_best - mean
        out.decisions.append(
            Decision(
                hand=h,
                index=i,
                seat=a.seat,
                kind=kind_of(g, a),
                played=str(a),
                best=str(c.best),
                value_played=round(v_played, 1),
                value_best=round(v_best, 1),
                loss=round(mean, 1),
                se=round(se, 1),
                mark=mark_of(lower),
                candidates=tuple((str(x), round(v, 1)) for x, v in zip(c.candidates, c.values, strict=True)),
                samples=n,
                lower=round(lower, 1),
                why=None if loss is None else message_to_json(better_reason(view, c.best, a)),
            )
        )
        if progress is not None:
            progress(k + 1, total)
    return out


__all__ = [
    "ALPHA",
    "Analysis",
    "LOOKS",
    "Loss",
    "MEASURE_CAP",
    "MEASURE_START",
    "BLUNDER",
    "Decision",
    "FORMAT",
    "INACCURACY",
    "KINDS",
    "MISTAKE",
    "RIVALS",
    "analyse",
    "judge",
    "kind_of",
    "looks",
    "mark_of",
    "measure",
    "quantile",
    "t_quantile",
]

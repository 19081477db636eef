"""Post-game analysis, the coach (``burraco analyse``): for every decision of a seat in a game record — draw or take
the pile, each meld and attachment, each discard — the search's expected score of the move played and of the best
move it finds, judged from that seat's view at that moment only (never the hidden cards), with the decisions that
cost more than a threshold marked as inaccuracies, mistakes or blunders, and a summary per hand of the points lost
by kind of decision.

How a decision is judged: the candidates are the search player's (the heuristic's best melds and discards,
:meth:`~burraco.bots.ismcts.ISMCTSPlayer.root_candidates`) plus the move played; every candidate is played on the
same sampled determinizations of the view and followed by the same seeded heuristic rollout to the end of the hand
(:meth:`~burraco.bots.ismcts.ISMCTSPlayer.candidate_values`), so they are compared on the same hidden cards and the
same later luck. A candidate's value is its mean final score difference for the seat's side (in points); the
*loss* of the move played is the best value minus its own. A loss is marked only when it is also larger than one
standard error of the paired differences (a handful of determinizations is noisy): ``inaccuracy`` from
:data:`INACCURACY` points, ``mistake`` from :data:`MISTAKE`, ``blunder`` from :data:`BLUNDER`.

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
['decisions', 'format', 'iterations', 'rules', 'seats', 'seed', 'summary', 'thresholds']
"""

from __future__ import annotations

import math
from collections.abc import Callable, Collection, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from .actions import ADD, DISCARD, DRAW, MELD, PICK, SWAP, Action
from .bots.ismcts import REWARD_SCALE, ISMCTSPlayer
from .game import Game
from .record import replay_match
from .view import View

FORMAT = "burraco-analysis/1"
#: points lost (expected hand score difference) from which a decision is marked an inaccuracy
INACCURACY = 30.0
#: … a mistake
MISTAKE = 80.0
#: … a blunder
BLUNDER = 200.0
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


def mark_of(loss: float, se: float) -> str | None:
    """The mark of a loss in points (None below :data:`INACCURACY` or within one standard error)."""
    if loss <= se:
        return None
    if loss >= BLUNDER:
        return "blunder"
    if loss >= MISTAKE:
        return "mistake"
    if loss >= INACCURACY:
        return "inaccuracy"
    return None


def judge(
    view: View, legal: Sequence[Action], played: Action, player: ISMCTSPlayer
) -> tuple[list[tuple[Action, float]], Action, float, float]:
    """Values (points) of the candidates and of the move played from ``view``; returns ``(candidates with their
    values, the best, its value, the standard error of best - played)``."""
    cands = player.root_candidates(view, list(legal))
    if played not in cands:
        cands.append(played)
    if view.phase == "draw":
        for a in legal:
            if a not in cands:
                cands.append(a)
    values = player.candidate_values(view, cands)
    means = [REWARD_SCALE * sum(v) / len(v) for v in values]
    j = max(range(len(cands)), key=lambda i: (means[i], -i))
    p = cands.index(played)
    diffs = [REWARD_SCALE * (values[j][t] - values[p][t]) for t in range(len(values[j]))]
    n = len(diffs)
    if n > 1 and j != p:
        m = sum(diffs) / n
        se = math.sqrt(sum((d - m) ** 2 for d in diffs) / (n - 1) / n)
    else:
        se = 0.0
    return list(zip(cands, means, strict=True)), cands[j], means[j], se


def analyse(
    record: dict[str, Any],
    seats: Sequence[str] | None = None,
    *,
    iterations: int = 16,
    time_budget: float | None = None,
    seed: int = 0,
    progress: Progress | None = None,
    hands: Collection[int] | None = None,
) -> Analysis:
    """Analyse the decisions of ``seats`` (default: every seat) in a record (RECORDS.md §3). ``iterations``
    determinizations per decision (reproducible for a ``seed``), or ``time_budget`` seconds per decision;
    ``hands``: only these hands (their indices from 0; default every hand)."""
    m = replay_match(record)
    names = m.seats
    want = tuple(seats) if seats else names
    unknown = [s for s in want if s not in names]
    if unknown:
        raise ValueError(f"unknown seat {unknown[0]!r} (the seats are {' '.join(names)})")
    out = Analysis(m.rules.name, want, iterations, seed)
    total = 0
    todo: list[tuple[int, int, Game, Action]] = []
    for h, game in enumerate(m.games):
        if hands is not None and h not in hands:
            continue
        g = Game.from_deal(game.rules, game.deal, (game.first - game.rules.direction) % game.n)  # type: ignore[arg-type]
        for i, a in enumerate(game.actions):
            if a.seat in want and g.current_seat >= 0 and len(g.legal_actions()) > 1:
                todo.append((h, i, g.clone(), a))
            g.apply(a)
    total = len(todo)
    if progress is not None and total:
        progress(0, total)
    for k, (h, i, g, a) in enumerate(todo):
        player = ISMCTSPlayer(
            seed=(seed * 1_000_003 + h) * 10_007 + i,
            iterations=None if time_budget is not None else iterations,
            time_budget=time_budget or 1.0,
        )
        seat = g.current_seat
        view = g.view(seat)
        cands, best, v_best, se = judge(view, g.legal_actions(), a, player)
        v_played = next(v for c, v in cands if c == a)
        loss = max(0.0, v_best - v_played)
        out.decisions.append(
            Decision(
                hand=h,
                index=i,
                seat=a.seat,
                kind=kind_of(g, a),
                played=str(a),
                best=str(best),
                value_played=round(v_played, 1),
                value_best=round(v_best, 1),
                loss=round(loss, 1),
                se=round(se, 1),
                mark=mark_of(loss, se),
                candidates=tuple((str(c), round(v, 1)) for c, v in cands),
            )
        )
        if progress is not None:
            progress(k + 1, total)
    return out


__all__ = [
    "Analysis",
    "BLUNDER",
    "Decision",
    "FORMAT",
    "INACCURACY",
    "KINDS",
    "MISTAKE",
    "analyse",
    "judge",
    "kind_of",
    "mark_of",
]

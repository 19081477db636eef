"""One judgement of a seat's candidate moves, shared by the hint (:func:`burraco.bots.hint.hint`) and the coach
(:mod:`burraco.analysis`): a second judge that disagrees with the first would be worse than none (DESIGN.md, "One
evaluator").

:func:`choose` values the candidates the flat search compares (:meth:`ISMCTSPlayer.root_candidates
<burraco.bots.ismcts.ISMCTSPlayer.root_candidates>`: the heuristic's best melds and discards; at the draw, every
legal action; plus a move played, for the coach) on :data:`SELECT` sampled determinizations of the view, every
candidate on the same hidden cards and the same seeded ``heuristic:hard`` rollout to the end of the hand, and picks
the best as the search does (:func:`~burraco.bots.ismcts.pick_best`: the heuristic's own choice stays unless another
candidate beats it by more than one standard error and :data:`~burraco.bots.ismcts.DEFAULT_FLOOR` points). The hint
recommends that move; the coach judges the move played against it.

The samples are seeded by the view itself (:func:`view_seed`: a hash of its JSON form, plus a seed): the same
position always gets the same samples, so the hint and the coach at the same budget see the same values and pick the
same move, and a record always gets the same judgement.

Where the hint's samples choose another move than the one played, the coach looks again (:func:`refine`) on
:data:`REFINE` samples seeded by its own seed, which choose the move the loss is measured against more steadily.
:class:`PairedLosses` measures the chosen move's advantage over the move played on **another** set of samples
(another seed): the best of several noisy means is biased upward on the samples that chose it, never on independent
ones.

>>> from burraco import Game, preset
>>> g = Game.new(preset("italian-2p"), seed=4)
>>> c = choose(g.view(0), g.legal_actions())
>>> c.best in g.legal_actions(), c.samples
(True, 32)
>>> choose(g.view(0), g.legal_actions()) == c
True
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass

from ..actions import Action
from ..determinize import legal_actions
from ..view import View
from .ismcts import DEFAULT_FLOOR, REWARD_SCALE, ISMCTSPlayer, pick_best

#: determinizations on which the hint and the coach choose the best move (the same budget for both)
SELECT = 32
#: determinizations on which the coach chooses again, when the hint's :data:`SELECT` samples chose another move
#: than the one played (:func:`refine`)
REFINE = 128
#: the standard errors by which a candidate must beat the heuristic's choice to be chosen (the flat search's ``z``)
PICK_Z = 1.0
#: the seed of the hint's samples (the tables never pass another): the coach never judges the move they choose, whatever
#: its own seed (:func:`burraco.analysis.judge`)
HINT_SEED = 0
#: mixed into the seed of the samples that measure a loss, so that they are independent of those that chose
MEASURE_SALT = 0x5EED_0F_C0AC4


def view_seed(view: View, seed: int = 0) -> int:
    """A 64-bit seed for the samples of ``view``: a hash of its JSON form (:meth:`View.to_json`) and ``seed``. Two
    equal views of a hand get the same seed whatever game they come from; the match totals, which a view from a
    match carries and one rebuilt from the hand's record does not, are left out (they change no value of the
    hand)."""
    d = view.to_json()
    d.pop("match_totals", None)
    blob = json.dumps(d, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return int.from_bytes(hashlib.sha256(f"{seed}|{blob}".encode()).digest()[:8], "big")


def candidates(view: View, legal: list[Action], played: Action | None = None, level: str = "hard") -> list[Action]:
    """The moves judged from ``view``: the flat search's root candidates (the heuristic's choice first), every legal
    action at the draw, and ``played`` (last) when it is none of those."""
    cands = ISMCTSPlayer(level=level).root_candidates(view, list(legal))
    if view.phase == "draw":
        cands += [a for a in legal if a not in cands]
    if played is not None and played not in cands:
        cands.append(played)
    return cands


@dataclass(frozen=True)
class Choice:
    """The candidates of a position with their mean values (points of final hand score difference for the seat's
    side, on the selection samples), the best move and the number of samples (0 when there was one candidate)."""

    candidates: tuple[Action, ...]
    values: tuple[float, ...]
    best: Action
    samples: int

    def value(self, a: Action) -> float:
        """The mean value of candidate ``a``."""
        return self.values[self.candidates.index(a)]


def choose(
    view: View,
    legal: list[Action] | None = None,
    *,
    played: Action | None = None,
    seed: int = HINT_SEED,
    samples: int | None = SELECT,
    time_budget: float | None = None,
    level: str = "hard",
) -> Choice:
    """The best move from ``view`` (the seat must be the one to act): the candidates (:func:`candidates`, with
    ``played`` among them) valued on ``samples`` determinizations seeded by the view and ``seed`` (or as many as
    ``time_budget`` seconds allow), the best picked as the flat search picks it."""
    if legal is None:
        legal = legal_actions(view)
    if not legal:
        raise ValueError("it is not this seat's turn: there is nothing to judge")
    cands = candidates(view, legal, played, level)
    if len(cands) == 1:
        return Choice((cands[0],), (0.0,), cands[0], 0)
    player = ISMCTSPlayer(
        seed=view_seed(view, seed),
        iterations=None if time_budget is not None else samples,
        time_budget=time_budget or 1.0,
        level=level,
    )
    values = player.candidate_values(view, cands)
    j = pick_best(values, PICK_Z, DEFAULT_FLOOR / REWARD_SCALE)
    means = tuple(REWARD_SCALE * sum(v) / len(v) for v in values)
    return Choice(tuple(cands), means, cands[j], len(values[0]))


def refine(
    view: View,
    legal: list[Action],
    played: Action,
    *,
    seed: int = 0,
    samples: int = REFINE,
    level: str = "hard",
) -> Choice:
    """The coach's second look at a position where :func:`choose` picked a move other than ``played``: the same
    candidates valued on ``samples`` determinizations (seeded by the view and ``seed``, as :func:`choose`'s), the
    best the one of largest mean, ``played`` kept on a tie. No margin is asked here: whether the best is
    significantly better is the question the independent samples answer (:class:`PairedLosses`), and a second
    test on these samples would only add a noisy gate (measured: docs/analysis.md). On 32 samples the best of
    several close candidates changes with the samples, and so would the move the loss is measured against; on four
    times as many it changes less. The hint never calls it: its move, played, is never judged (:func:`choose`
    picks it)."""
    cands = candidates(view, legal, played, level)
    if len(cands) == 1:
        return Choice((cands[0],), (0.0,), cands[0], 0)
    order = [cands.index(played)] + [j for j in range(len(cands)) if cands[j] != played]
    player = ISMCTSPlayer(seed=view_seed(view, seed), iterations=samples, level=level)
    values = player.candidate_values(view, [cands[j] for j in order])
    k = pick_best(values, 0.0)
    means = [0.0] * len(cands)
    for pos, j in enumerate(order):
        means[j] = REWARD_SCALE * sum(values[pos]) / len(values[pos])
    return Choice(tuple(cands), tuple(means), cands[order[k]], len(values[0]))


class PairedLosses:
    """The advantage (points) of ``best`` over ``played`` from ``view`` on samples independent of :func:`choose`'s
    (seeded by the view, ``seed`` and :data:`MEASURE_SALT`), paired: both moves on the same hidden cards and the same
    rollout. :meth:`more` draws ``n`` more; successive calls continue one stream, so the values of ``more(16)`` then
    ``more(16)`` are those of ``more(32)``.

    ``rivals``: other moves measured on the same samples (the second look's runner-up): the advantage is then that
    of the better of ``best`` and the rivals on these samples (:attr:`best`), so that two analyses whose second looks
    ranked two moves of about the same value the other way round measure the same loss."""

    def __init__(
        self,
        view: View,
        best: Action,
        played: Action,
        seed: int = 0,
        level: str = "hard",
        rivals: tuple[Action, ...] = (),
    ) -> None:
        self.view = view
        self.bests = [best, *(r for r in rivals if r != best and r != played)]
        self.moves = [*self.bests, played]
        self.player = ISMCTSPlayer(seed=view_seed(view, seed) ^ MEASURE_SALT, iterations=1, level=level)
        self.each: list[list[float]] = [[] for _ in self.bests]
        #: the move whose advantage :meth:`more` returns: the best of ``best`` and the rivals on the samples so far
        self.best = best
        self.diffs: list[float] = []

    def more(self, n: int) -> list[float]:
        """``n`` more paired differences, :attr:`best` minus played (points); every one drawn so far."""
        self.player.iterations = n
        values = self.player.candidate_values(self.view, self.moves)
        p = values[-1]
        for k in range(len(self.bests)):
            self.each[k] += [REWARD_SCALE * (x - y) for x, y in zip(values[k], p, strict=True)]
        k = max(range(len(self.bests)), key=lambda j: (sum(self.each[j]), -j))
        self.best = self.bests[k]
        self.diffs = self.each[k]
        return self.diffs


__all__ = [
    "Choice",
    "HINT_SEED",
    "MEASURE_SALT",
    "PICK_Z",
    "PairedLosses",
    "REFINE",
    "SELECT",
    "candidates",
    "choose",
    "refine",
    "view_seed",
]

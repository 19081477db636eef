#!/usr/bin/env python3
"""A learned model of the other hands (issue 22, item 2: "a learned … model of which cards a player would have
discarded"): logistic regression of where each unseen card lies, fitted on hands of heuristic:hard, and how well
its samples place the hidden cards against the default model's.

For every other seat ``o`` and card type ``c`` the seat cannot locate, each of its unseen copies is taken to be in
``o``'s hand with probability ``sigmoid(log-odds of o's share of the unseen cards + w · x(o, c))``, where ``x``
holds what the view shows about ``o`` and ``c`` (:func:`features`): whether ``c`` fits ``o``'s side melds or only
the opponents', which cards ``o`` discarded onto the visible pile and which it passed by (the same card, its rank,
its suit neighbours), the cards ``o`` was seen to pick up and still holds, and what ``c`` is (a wild, its points).
Fitted by maximum likelihood (binomial counts, Newton's method) on ``--train`` hands, judged on ``--test`` other hands: the
log-likelihood of the true hands per hidden card against the default model's weights
(:func:`burraco.bots.infer.seat_weights`), and the share of the hidden cards its samples place right
(:func:`placed`). For scale, the same log-likelihood of the soft oracle's weights at ``--soft`` sharpnesses
(``search_variants.soft_hands_sampler``, which sees the true hands) and, with ``--boosted``, of gradient-boosted
trees on the same features (scikit-learn, not a dependency of the project: how much the linear model leaves).
``--out FILE`` writes the figures and the coefficients, which ``deviations.py --search '{"hand_model": FILE}'`` and
``search_variants.py`` sides read (:class:`LearnedInference`: the sampling weights ``exp(w · x)``)::

    python benchmarks/hand_model.py --train 200 --test 40 --boosted --out hand-model.json

Measurement only: nothing in ``burraco`` reads these files.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from burraco import Game, preset
from burraco.actions import DISCARD, PICK
from burraco.bots import HeuristicPlayer
from burraco.bots.infer import FITS_OWN_MELD, Inference, fits_only_others, side_fits
from burraco.cards import JOKER, NUM_TYPES
from burraco.determinize import determinize
from burraco.view import View

NAMES = [
    "next", "partner", "previous",
    "two", "joker", "points",
    "fits_own", "fits_opponent_only",
    "discarded_same", "discarded_rank", "discarded_near1", "discarded_near2",
    "passed_same", "passed_rank", "passed_near1",
    "known_same", "known_rank", "known_near1",
    "fits_own_late", "fits_opponent_late",
]
F = len(NAMES)


def pile_discarders(view: View) -> list[int]:
    """Per card of the visible pile (bottom to top), the seat that discarded it (-1: the card turned up at the
    deal). The pile holds the discards since the last pick-up, one a turn, so counted back from the seat to play
    (or, once it has discarded, from the next), each card's discarder is the seat before the next card's."""
    n, d = view.players, view.rules.direction
    pile = view.pile
    if view.pile_size != len(pile):  # a closed pile shows its top card only
        return []
    out = [-1] * len(pile)
    seat = (view.turn - d) % n
    for i in range(len(pile) - 1, -1, -1):
        if len(pile) - 1 - i >= view.turns:
            break  # the card dealt face up
        out[i] = seat
        seat = (seat - d) % n
    return out


def _near(c: int, k: int) -> list[int]:
    """The natural card types ``k`` ranks from ``c`` in its suit (the ace next to the two and the king)."""
    if c == JOKER:
        return []
    suit, pos = divmod(c, 13)
    out = []
    for p in (pos - k, pos + k):
        if 0 <= p < 13 and p != 1:
            out.append(suit * 13 + p)
        elif k == 1 and p == 13:  # the ace above the king
            out.append(suit * 13)
    return out


def _same_rank(c: int) -> list[int]:
    return [] if c == JOKER else [s * 13 + c % 13 for s in range(4) if s * 13 + c % 13 != c]


def features(view: View) -> dict[int, np.ndarray]:
    """Per other seat whose hand hides cards from the view's seat, the matrix of features (53 × F) of each card
    type (rows of types the seat cannot locate matter; the others are never sampled)."""
    n, d = view.players, view.rules.direction
    fits = side_fits(view)
    values = view.rules.card_values()
    who = pile_discarders(view)
    discarded = [[0] * NUM_TYPES for _ in range(n)]
    passed = [[0] * NUM_TYPES for _ in range(n)]
    for i, c in enumerate(view.pile):
        if i < len(who) and who[i] >= 0:
            discarded[who[i]][c] += 1
        if i < len(view.pile) - 1 and i < len(who) and who[i] >= 0:
            passed[(who[i] + d) % n][c] += 1  # the next seat drew from the stock over it
    late = 1.0 if view.stock_size < 20 else 0.0
    out: dict[int, np.ndarray] = {}
    for k in range(1, n):
        o = (view.seat + k * d) % n
        if view.hand_sizes[o] - sum(view.known[o]) <= 0:
            continue
        side = view.side_of(o)
        own = fits[side]
        theirs = fits_only_others(fits, side)
        x = np.zeros((NUM_TYPES, F))
        rel = 0 if k == 1 else 2 if k == n - 1 else 1
        x[:, rel] = 1.0
        known = view.known[o]
        for c in range(NUM_TYPES):
            natural = c != JOKER and c % 13 != 1
            row = x[c]
            row[3] = 1.0 if (c != JOKER and c % 13 == 1) else 0.0
            row[4] = 1.0 if c == JOKER else 0.0
            row[5] = values[c] / 10.0
            if natural:
                row[6] = own >> c & 1
            row[7] = theirs >> c & 1
            row[8] = discarded[o][c]
            rank = _same_rank(c)
            n1 = _near(c, 1)
            row[9] = sum(discarded[o][t] for t in rank)
            row[10] = sum(discarded[o][t] for t in n1)
            row[11] = sum(discarded[o][t] for t in _near(c, 2))
            row[12] = passed[o][c]
            row[13] = sum(passed[o][t] for t in rank)
            row[14] = sum(passed[o][t] for t in n1)
            row[15] = known[c]
            row[16] = sum(known[t] for t in rank)
            row[17] = sum(known[t] for t in n1)
            row[18] = row[6] * late
            row[19] = row[7] * late
        out[o] = x
    return out


def placed(game: Game, seat: int, sample: Callable[[random.Random], Game], rng: random.Random, k: int = 8) -> float:
    """The share of the cards the other hands hide from ``seat`` (beyond those it saw picked up) that ``k``
    determinizations drawn by ``sample`` place in the right hand."""
    view = game.view(seat)
    right = total = 0
    for _ in range(k):
        det = sample(rng)
        for o in range(game.n):
            if o == seat:
                continue
            for c in range(53):
                hidden = game.hands[o][c] - view.known[o][c]
                if hidden > 0:
                    total += hidden
                    right += min(hidden, det.hands[o][c] - view.known[o][c])
    return right / total if total else math.nan


def _offsets(view: View) -> dict[int, float]:
    """Per other seat, the log-odds that an unseen card is in its hand, by sizes alone."""
    u = sum(view.unseen)
    out = {}
    for o in range(view.players):
        if o == view.seat:
            continue
        h = view.hand_sizes[o] - sum(view.known[o])
        if 0 < h < u:
            out[o] = math.log(h / (u - h))
    return out


def hard_states(rules_name: str, hands: int, seed: int, every: int) -> Iterator[tuple[Game, list[int]]]:
    """Every ``every``-th state of ``hands`` hands of heuristic:hard (dealt from ``seed * 100000 + h``), before its
    action, with the seat that discarded each card of the visible pile as played (-1: the card turned up at the
    deal). The game is the one being played: read it, do not change it."""
    rules = preset(rules_name)
    for h in range(hands):
        g = Game.new(rules, seed=seed * 100_000 + h)
        players = [HeuristicPlayer("hard", seed=s) for s in range(g.n)]
        who = [-1] * len(g.pile)
        step = 0
        while g.end is None:
            s = g.current_seat
            if step % every == 0:
                yield g, who
            legal = g.legal_actions()
            a = legal[0] if len(legal) == 1 else players[s].choose(g.view(s), legal)
            g.apply(a)
            if a.verb == DISCARD and g.end is None:
                who = [*who, s]
            elif a.verb == PICK:
                who = []
            step += 1


def collect(rules_name: str, hands: int, seed: int, every: int) -> tuple[np.ndarray, np.ndarray, np.ndarray,
                                                                       np.ndarray, int]:
    """Rows (features, offset, copies in the hand, unseen copies) of every other seat and unseen card type at
    every ``every``-th decision of ``hands`` hands of heuristic:hard (:func:`hard_states`); and how many states
    :func:`pile_discarders` got wrong against the game's own record (0 expected)."""
    xs, offs, ys, ns = [], [], [], []
    wrong = 0
    for g, who in hard_states(rules_name, hands, seed, every):
        view = g.view(g.current_seat)
        got = pile_discarders(view)
        if got and got != who:
            wrong += 1
        offsets = _offsets(view)
        for o, x in features(view).items():
            if o not in offsets:
                continue
            for c in range(NUM_TYPES):
                u = view.unseen[c]
                if u:
                    xs.append(x[c])
                    offs.append(offsets[o])
                    ys.append(g.hands[o][c] - view.known[o][c])
                    ns.append(u)
    return np.array(xs), np.array(offs), np.array(ys, dtype=float), np.array(ns, dtype=float), wrong


def _nll(w: np.ndarray, x: np.ndarray, off: np.ndarray, y: np.ndarray, n: np.ndarray,
         l2: float) -> tuple[float, np.ndarray]:
    z = off + x @ w
    # binomial negative log-likelihood: n log(1 + e^z) - y z
    lse = np.logaddexp(0.0, z)
    f = float(np.sum(n * lse - y * z)) + l2 * float(w @ w)
    p = 1.0 / (1.0 + np.exp(-z))
    g = x.T @ (n * p - y) + 2 * l2 * w
    return f, g


def fit(x: np.ndarray, off: np.ndarray, y: np.ndarray, n: np.ndarray, l2: float = 1.0) -> np.ndarray:
    """The coefficients of maximum (L2-penalised) likelihood, by Newton's method (a concave log-likelihood: a few
    steps, each step halved while it does not improve it)."""
    w = np.zeros(x.shape[1])
    f, g = _nll(w, x, off, y, n, l2)
    for _ in range(50):
        p = 1.0 / (1.0 + np.exp(-(off + x @ w)))
        h = (x * (n * p * (1 - p))[:, None]).T @ x + 2 * l2 * np.eye(x.shape[1])
        step = np.linalg.solve(h, g)
        t = 1.0
        while True:
            f2, g2 = _nll(w - t * step, x, off, y, n, l2)
            if f2 <= f or t < 1e-6:
                break
            t /= 2
        w = w - t * step
        done = f - f2 < 1e-9 * max(1.0, abs(f))
        f, g = f2, g2
        if done:
            break
    return w


class LearnedInference:
    """Sampling weights ``exp(w · x(o, c))`` for :func:`burraco.determinize.determinize` from fitted coefficients (an
    ``infer`` for :class:`~burraco.bots.ismcts.ISMCTSPlayer`: it has :meth:`sample_args`). Measurement only."""

    discards = 0.0

    def __init__(self, coef: list[float]) -> None:
        self.w = np.array(coef)

    @classmethod
    def load(cls, path: str) -> LearnedInference:
        with open(path) as f:
            return cls(json.load(f)["coef"])

    def weights(self, view: View) -> list[list[float] | None]:
        out: list[list[float] | None] = [None] * view.players
        for o, x in features(view).items():
            out[o] = [float(v) for v in np.exp(np.clip(x @ self.w, -20, 20))]
        return out

    def sample_args(self, view: View) -> tuple[list[list[float] | None], list[int] | None]:
        return self.weights(view), None


def _weight_ll(x: np.ndarray, off: np.ndarray, y: np.ndarray, n: np.ndarray, logw: np.ndarray) -> float:
    """Per hidden copy, the binomial log-likelihood of where the copies lie under ``sigmoid(off + logw)``."""
    z = off + logw
    return float(np.sum(y * z - n * np.logaddexp(0.0, z)) / np.sum(n))


def boosted_loglik(x: np.ndarray, off: np.ndarray, y: np.ndarray, n: np.ndarray, xt: np.ndarray, offt: np.ndarray,
                   yt: np.ndarray, nt: np.ndarray) -> float:
    """The held-out log-likelihood per hidden copy of gradient-boosted trees on the same features and the
    log-odds by sizes (scikit-learn's ``HistGradientBoostingClassifier``, one row per unseen copy): how much the
    linear model leaves of what these features tell, interactions included."""
    try:
        from sklearn.ensemble import HistGradientBoostingClassifier
    except ImportError as e:  # not a dependency of the project: only this check uses it
        raise SystemExit("--boosted needs scikit-learn (pip install scikit-learn)") from e

    def rows(x: np.ndarray, off: np.ndarray, y: np.ndarray, n: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        reps = n.astype(int)
        xr = np.repeat(np.column_stack([x, off]), reps, axis=0)
        labels = np.concatenate([np.r_[np.ones(int(k)), np.zeros(int(m - k))] for k, m in zip(y, n, strict=True)])
        return xr, labels

    xr, lab = rows(x, off, y, n)
    clf = HistGradientBoostingClassifier(max_iter=300, early_stopping=True, random_state=0).fit(xr, lab)
    xtr, labt = rows(xt, offt, yt, nt)
    p = np.clip(clf.predict_proba(xtr)[:, 1], 1e-9, 1 - 1e-9)
    return float(np.mean(labt * np.log(p) + (1 - labt) * np.log(1 - p)))


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rules", default="italian")
    p.add_argument("--train", type=int, default=200)
    p.add_argument("--test", type=int, default=40)
    p.add_argument("--every", type=int, default=3)
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("--l2", type=float, default=1.0)
    p.add_argument("--out", default=None, help="write the figures and the coefficients here (JSON)")
    p.add_argument("--soft", type=float, nargs="*", default=[0.25, 0.5, 1.0, 2.0],
                   help="also give the log-likelihood of search_variants.soft_hands_sampler's weights at these "
                   "sharpnesses (they see the true hands: a scale, not a model)")
    p.add_argument("--boosted", action="store_true", help="also fit gradient-boosted trees (scikit-learn)")
    a = p.parse_args()
    x, off, y, n, wrong = collect(a.rules, a.train, a.seed, a.every)
    w = fit(x, off, y, n, a.l2)
    xt, offt, yt, nt, wrong_t = collect(a.rules, a.test, a.seed + 1, a.every)
    # the default model's weights as log-odds shifts: fits_own natural cards weigh FITS_OWN_MELD (features 6)
    default = np.where(xt[:, 6] > 0, math.log(FITS_OWN_MELD), 0.0)
    ll = {
        "uniform": _weight_ll(xt, offt, yt, nt, np.zeros(len(yt))),
        "default": _weight_ll(xt, offt, yt, nt, default),
        "learned": _weight_ll(xt, offt, yt, nt, xt @ w),
    }
    if a.boosted:
        ll["boosted_trees"] = boosted_loglik(x, off, y, n, xt, offt, yt, nt)
    for beta in a.soft:
        ll[f"soft_oracle_{beta:g}"] = _weight_ll(xt, offt, yt, nt, beta * yt)
    # the share of hidden cards the samples place right, at every 3rd decision of the test hands
    learned = LearnedInference(list(w))
    rng = random.Random(a.seed)
    shares: dict[str, list[float]] = {"default": [], "learned": []}
    for g, _ in hard_states(a.rules, min(a.test, 20), a.seed + 1, a.every):
        s = g.current_seat
        view = g.view(s)
        for name, model in (("default", Inference()), ("learned", learned)):
            wts, avoid = model.sample_args(view)

            def sample(r: random.Random, v: View = view, wts: Any = wts, avoid: Any = avoid) -> Game:
                return determinize(v, r, wts, avoid)

            share = placed(g, s, sample, rng, 4)
            if not math.isnan(share):
                shares[name].append(share)
    out: dict[str, Any] = {
        "rules": a.rules, "train_hands": a.train, "test_hands": a.test, "rows": len(y),
        "discarders_wrong": wrong + wrong_t,
        "loglik_per_hidden_copy": {k: round(v, 4) for k, v in ll.items()},
        "placed_right": {k: round(statistics.fmean(v), 4) for k, v in shares.items()},
        "command": "python benchmarks/hand_model.py " + " ".join(f"--{k} {v}" for k, v in vars(a).items() if v is not None),
        "names": NAMES,
        "coef": [float(c) for c in w],
    }
    if a.out:
        with open(a.out, "w") as f:
            json.dump(out, f, indent=1)
    print(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())

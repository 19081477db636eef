"""Inference about hidden hands from public play: how likely each unseen card is in each other seat's hand.

A uniform determinization (:func:`burraco.determinize.determinize`) deals the unseen cards at random. Players do not hold
cards at random, though, and three things they do show in their hands:

* a player who could attach a natural card to his side's melds almost always does (it scores on the table, it
  cannot be caught in his hand when the hand ends, and it brings him nearer the pozzetto): such cards are rare in
  his hand (weight :data:`FITS_OWN_MELD`);
* a natural that fits only the opponents' melds is one he keeps rather than discard (the next opponent would
  attach it, or take the pile with it): such cards stay in hands (weight :data:`FITS_OPPONENT_MELD`);
* a player who ends his turn holding three naturals that make a meld has, nearly always, laid them down: the hand
  of a seat that has ended a turn holds no natural run or set of three (:func:`seat_avoid`).

:func:`seat_weights` and :func:`seat_avoid` turn these into relative weights per card type and meld masks for every
other seat, which :func:`burraco.determinize.determinize` uses to sample their hands (weighted sampling without
replacement, a hand drawn again while it holds such a meld); :class:`Inference` holds the model's parameters.
Everything comes from the seat's view only: the melds on the table, the counts it may know and whose turns have
been played.

Measured with ``benchmarks/inference.py --hands 40 --samples 6 --seed 1 [--rules brazilian]`` (heuristic:hard at
every seat, every 5th decision; 2026-12-05), uniform samples / the default model / ``Inference.calibrated()``
against the real hands:

* the share of another seat's hidden cards a sampled hand places right: ``italian`` 14.7 % / 17.4 % / 18.1 %,
  ``brazilian`` 16.4 % / 20.6 % / 21.5 %;
* the hands of seats that ended a turn holding a natural run or set of three: ``italian`` 11.7 % / 12.8 % / 0.3 %
  against 0.7 % really, ``brazilian`` 6.6 % / 7.3 % / 0.3 % against 0.9 %;
* the hidden naturals that fit only the opponents' melds, per such hand: ``italian`` 0.68 / 0.92 / 1.17 against
  1.12 really, ``brazilian`` 0.80 / 1.06 / 1.33 against 1.50.

At the table the calibrated model did not play better (the search at 100 determinizations a decision, 200 duplicate
deals: meld avoidance alone +7, CI −67 … +82; both signals −34, CI −108 … +41): the default stays the model of
2026-11-30, which had won +100 (CI +18 … +182) over uniform sampling.

Also tried and kept only as options: the discards the pile shows weighed with the heuristic as the model of a
player (``Inference(discards=5.0)``: of 8 determinizations drawn the search keeps one in proportion to how likely
the other seats' latest discards are under the hands it gives them; the real hands are the likelier in 91 % of
comparisons, the samples place 17.9 % of the hidden cards right in ``italian`` and 21.3 % in ``brazilian``, but the
search at 100 determinizations played −34 a deal, CI −105 … +37, over 200 duplicate deals).

Tried and dropped: lowering the weight of the twins and same-suit neighbours of a seat's latest discards (no
measurable gain), weighting wild cards the same way (better in ``brazilian``, worse in ``italian``, where wilds
are often kept back), and the top card a seat passed on (the hand that drew from the stock instead holds two
naturals making a meld with it in 4.1 % of cases, samples in 6.3 %: too little to model).

Tried in the benchmarks only: a learned model (``benchmarks/hand_model.py``: logistic regression of where each unseen
card lies on 20 features of the view, fitted on hands of heuristic:hard) knows three times what the default model
knows of the hidden cards and places 19.1 % of them right against 18.6 %, and its choices gain nothing over the
default's (+0.04 ± 0.75 points a decision by ``benchmarks/deviations.py --truth``); a soft oracle that reads the
true hands shows a model would have to place about a third of them right to win back even a fifth of what seeing
them is worth (docs/strength.md, "How much a model of the hands can know").
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from ..cards import JOKER, NUM_TYPES
from ..melds import meld_rules
from ..view import View

#: weight of a natural card that fits one of the seat's side melds (he would have attached it); not 0, so that
#: every world consistent with the view keeps some probability (a human may hold a card back)
FITS_OWN_MELD = 0.05
#: weight of a natural card that fits an opponent's meld (and none of his side's): he keeps it rather than feed the
#: opponents, so such cards stay in hands
FITS_OPPONENT_MELD = 1.6
#: the natural card types (neither a 2 nor the joker), as a bitmask over card types
_NATURALS = sum(1 << c for c in range(JOKER) if c % 13 != 1)


@dataclass(frozen=True)
class Inference:
    """How the search samples the other hands: the weights of :func:`seat_weights` and the melds of
    :func:`seat_avoid`.

    The default is the model of 2026-11-30 (weight :data:`FITS_OWN_MELD` alone), the one measured best at the table.
    ``Inference.calibrated()`` adds the two signals of 2026-12-05 (:data:`FITS_OPPONENT_MELD`, meld avoidance): its
    samples look more like the real hands, but the search did not play better with them (docs/strength.md, "What
    the hidden cards are worth"), so it is an option for the next try, off by default."""

    fits_own: float = FITS_OWN_MELD
    fits_opponent: float = 1.0
    avoid_melds: bool = False
    #: the discards the pile shows weighed (0: not): of :attr:`discard_samples` determinizations drawn, the search
    #: keeps one in proportion to how likely the other seats' latest discards are with the hands it gives them, the
    #: heuristic as the model of a player, its discard scores a softmax at this temperature
    #: (:meth:`burraco.native.NativeHand.discard_loglik`; on the native core only)
    discards: float = 0.0
    discard_samples: int = 8

    @classmethod
    def calibrated(cls) -> Inference:
        """The model whose samples hold as many opponent-fitting naturals and natural melds as real hands do."""
        return cls(fits_opponent=FITS_OPPONENT_MELD, avoid_melds=True)

    def sample_args(self, view: View) -> tuple[list[list[float] | None], list[int] | None]:
        """``weights`` and ``avoid`` for :func:`burraco.determinize.determinize` of ``view``."""
        return seat_weights(view, self.fits_own, self.fits_opponent), seat_avoid(view) if self.avoid_melds else None

    @classmethod
    def of(cls, spec: Inference | bool | dict[str, Any]) -> Inference | None:
        """An :class:`Inference` from ``True`` (the default model), ``False`` (None: uniform sampling), a mapping of
        its fields (as the benchmarks write it in JSON; ``{"calibrated": true}`` for :meth:`calibrated`) or
        itself."""
        if spec is True:
            return cls()
        if spec is False:
            return None
        if isinstance(spec, dict):
            if spec.get("calibrated"):
                return cls.calibrated()
            return cls(**spec)
        return spec


def pick_weighted(loglik: list[float], u: float) -> int:
    """The index drawn in proportion to ``exp(loglik)`` by ``u`` (uniform in [0, 1)): the resampling step of
    :attr:`Inference.discards` (sampling-importance-resampling of determinizations)."""
    top = max(loglik)
    w = [math.exp(x - top) for x in loglik]
    u *= sum(w)
    for i, x in enumerate(w):
        u -= x
        if u < 0.0:
            return i
    return len(w) - 1


def seat_avoid(view: View) -> list[int]:
    """Per seat, the natural melds its hand is taken not to hold (a mask for :func:`burraco.determinize.determinize`'s
    ``avoid``; 0: none).

    A player who ends his turn holding three naturals that make a meld has, nearly always, laid them down: measured
    over heuristic:hard hands (``benchmarks/inference.py``), 0.7 % of the hands of seats that have played a turn
    hold a natural run or set of three in ``italian`` where a uniform sample holds one in 12 %. So a seat that has
    ended a turn in this hand, holds no pozzetto it has not looked at yet and is not playing now, is sampled
    without them: runs always, sets of the ranks the rules allow. Not where a first meld needs a minimum his side
    has not laid yet (three cards may be too few points).
    """
    n = view.players
    r = view.rules
    mask = 1
    for rank in r.allowed_set_ranks:
        mask |= 1 << rank
    out = [0] * n
    for s in range(n):
        if s == view.seat or s == view.turn or view.hidden_seats[s]:
            continue
        if ((s - view.first) * r.direction) % n >= view.turns:
            continue  # he has not played a turn yet: his hand is as dealt
        if r.min_first_meld > 0 and not view.melds[view.side_of(s)]:
            continue
        out[s] = mask
    return out


def side_fits(view: View) -> list[int]:
    """Per side (:attr:`~burraco.view.View.melds`), the card types that fit one of its melds as a single card, as a
    bitmask over card types (:meth:`~burraco.melds.MeldRules.singles`)."""
    ctx = meld_rules(view.rules)
    fits = [0] * len(view.melds)
    for side, melds in enumerate(view.melds):
        for m in melds:
            fits[side] |= ctx.singles(m)
    return fits


def fits_only_others(fits: list[int], side: int) -> int:
    """The naturals (neither a 2 nor the joker) that fit another side's melds and none of ``side``'s, as a bitmask
    over card types, from :func:`side_fits`: the cards a player keeps rather than feed the opponents."""
    theirs = 0
    for k, f in enumerate(fits):
        if k != side:
            theirs |= f
    return theirs & _NATURALS & ~fits[side]


def seat_weights(
    view: View, fits_own: float = FITS_OWN_MELD, fits_opponent: float = 1.0
) -> list[list[float] | None]:
    """Per seat, a weight per card type for the cards of its hand this seat cannot see (None: uniform):
    ``fits_own`` for a natural that fits one of his side's melds, ``fits_opponent`` for one that fits only the
    opponents', 1 for the rest."""
    n = view.players
    fits = side_fits(view)
    out: list[list[float] | None] = [None] * n
    for s in range(n):
        side = view.side_of(s)
        own = fits[side] & _NATURALS
        theirs = fits_only_others(fits, side) if fits_opponent != 1.0 else 0
        if s == view.seat or not (own | theirs) or view.hand_sizes[s] - sum(view.known[s]) <= 0:
            continue
        w = [1.0] * NUM_TYPES
        for c in range(NUM_TYPES):
            if own >> c & 1:
                w[c] = fits_own
            elif theirs >> c & 1:
                w[c] = fits_opponent
        out[s] = w
    return out


__all__ = [
    "FITS_OPPONENT_MELD",
    "FITS_OWN_MELD",
    "Inference",
    "fits_only_others",
    "pick_weighted",
    "seat_avoid",
    "seat_weights",
    "side_fits",
]

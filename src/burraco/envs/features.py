"""Actions as feature vectors: the interface for learning beside the flat index space.

A policy that scores the legal actions it is shown needs each action described by what it *does*, the same way in
every state: :func:`action_features` encodes every legal action of a seat as one row of
:data:`ACTION_FEATURES` float32 values, computed from the seat's :class:`~burraco.View` alone (its hand, the
table, the visible pile), so a row carries nothing the seat may not know. The blocks (:data:`FEATURE_LAYOUT`,
docs/research.md "Action features"):

========== ===== ========================================================================================
block      width content
========== ===== ========================================================================================
verb       8     one-hot verb: draw, pick, meld, add, discard, timeout, redraw, swap (``VERBS``)
cards      53    counts per card type of the cards the action moves: the cards laid, attached, swapped in
                 or discarded; for ``pick`` the pile cards the seat can see (the whole open pile, the top
                 card of a closed one); zeros for ``draw``
hand_after 53    the seat's visible hand after the action (``pick`` adds the visible pile cards)
target     50    the target meld of ``add``/``swap`` as it stands (the observation's meld row, MELD_FEATURES)
result     50    the meld the action makes: the new meld of ``meld``, the target after ``add``; zeros else
scalars    8     cards moved, their card points / 100, cards held after, the hand empties (no unseen
                 pozzetto left either), the result's size, the result is a burraco and the target was not,
                 the target already was a burraco, a wild card (a 2 or a joker) is discarded
context    12    the state as the seat sees it, the same on every row: its hand size / 10 (a hidden pozzetto
                 counted), the pile's size / 10, the stock's / 40, pozzetti taken by its side and by the
                 others, the opponents' smallest and largest hand / 10, burraco on its side's melds and on
                 the others', the points on the table (cards and bonuses) of its side and of the others /
                 500, the draw phase
fit        8     for the card the action concerns (the discarded card; for ``pick`` the pile's top card;
                 zeros else): it attaches to a meld of the seat's side, to one of 5 cards or more; it could
                 be attached to an opponent's meld (it feeds them), to one of 5 or more; its rank-mates and
                 its same-suit neighbours (±1, ±2 ranks) in the hand after the action / 4; the next opponent
                 was seen to pick up (and still holds) a card of its rank, a same-suit card within two ranks
========== ===== ========================================================================================

>>> from burraco import Game, preset
>>> g = Game.new(preset("italian").replace(players=2), seed=4)
>>> f = action_features(g.view(0), g.legal_actions())
>>> f.shape, f[:, :2].tolist()                    # draw, pick
((2, 242), [[1.0, 0.0], [0.0, 1.0]])
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from ..actions import ADD, DISCARD, MELD, PICK, SWAP, VERBS, Action
from ..cards import NUM_TYPES, is_wild_card, same_suit_near
from ..melds import Meld, MeldError, attach, burraco_bonus, make_meld, meld_rules
from ..messages import MessageError
from ..view import View
from .layout import MELD_FEATURES
from .observation import _meld_row

#: the feature blocks of one action row: (name, offset, width)
FEATURE_LAYOUT: tuple[tuple[str, int, int], ...]
_spec = (
    ("verb", len(VERBS)),
    ("cards", NUM_TYPES),
    ("hand_after", NUM_TYPES),
    ("target", MELD_FEATURES),
    ("result", MELD_FEATURES),
    ("scalars", 8),
    ("context", 12),
    ("fit", 8),
)
_rows: list[tuple[str, int, int]] = []
_at = 0
for _name, _w in _spec:
    _rows.append((_name, _at, _w))
    _at += _w
FEATURE_LAYOUT = tuple(_rows)
#: the width of one action row
ACTION_FEATURES = _at
_F = {name: off for name, off, _ in FEATURE_LAYOUT}
_VERB = {v: i for i, v in enumerate(VERBS)}
_CARDS, _HAND, _TARGET, _RESULT, _SCAL = _F["cards"], _F["hand_after"], _F["target"], _F["result"], _F["scalars"]
_CTX, _FIT = _F["context"], _F["fit"]


def _row_of(m: Meld, values: tuple[int, ...]) -> npt.NDArray[np.float32]:
    return np.frombuffer(_meld_row(m, values)[0], dtype=np.float32)


#: per card type, the same-suit naturals within two ranks (the ace low and high; 2s are wilds)
_NEIGH = tuple(same_suit_near(c, -2, True) for c in range(NUM_TYPES))


def _context(view: View) -> tuple[npt.NDArray[np.float32], int]:
    """The ``context`` block and the next opponent to play."""
    r = view.rules
    n = r.players
    side = view.side_of(view.seat)
    values = r.card_values()
    opp_seats = [s for s in range(n) if view.side_of(s) != side] or [view.seat]
    sizes = [view.hand_sizes[s] for s in opp_seats]
    nxt = (view.seat + r.direction) % n
    while view.side_of(nxt) == side and nxt != view.seat:
        nxt = (nxt + r.direction) % n

    def points(k: int) -> float:
        return float(sum(sum(values[c] for c in m.cards) + burraco_bonus(m, r) for m in view.melds[k]))

    others = [k for k in range(len(view.melds)) if k != side]
    ctx = np.array(
        [
            (len(view.hand) + view.hidden_pozzetto) / 10.0,
            view.pile_size / 10.0,
            view.stock_size / 40.0,
            float(view.poz_taken[side]) if view.poz_taken else 0.0,
            float(sum(view.poz_taken[k] for k in others)) if view.poz_taken else 0.0,
            min(sizes) / 10.0,
            max(sizes) / 10.0,
            float(sum(1 for m in view.melds[side] if m.burraco is not None)) if view.melds else 0.0,
            float(sum(1 for k in others for m in view.melds[k] if m.burraco is not None)),
            points(side) / 500.0 if view.melds else 0.0,
            sum(points(k) for k in others) / 500.0,
            1.0 if view.phase == "draw" else 0.0,
        ],
        dtype=np.float32,
    )
    return ctx, nxt


def action_features(view: View, legal: Sequence[Action]) -> npt.NDArray[np.float32]:
    """One row of :data:`ACTION_FEATURES` values per action of ``legal`` (the seat's legal actions, in their
    order), from ``view`` only (the blocks: the module's table)."""
    out = np.zeros((len(legal), ACTION_FEATURES), dtype=np.float32)
    r = view.rules
    values = r.card_values()
    hand = np.zeros(NUM_TYPES, dtype=np.float32)
    for c in view.hand:
        hand[c] += 1.0
    seen_pile = view.pile if r.discard_pile_open else view.pile[-1:]
    melds = view.melds[view.side_of(view.seat)] if view.melds else ()
    n_hand = len(view.hand)
    ctx, nxt = _context(view)
    out[:, _CTX : _CTX + 12] = ctx
    mr = meld_rules(r)
    side = view.side_of(view.seat)
    own_masks = [(mr.singles(m), m.size) for m in melds]
    opp_masks = [(mr.singles(m), m.size) for k in range(len(view.melds)) if k != side for m in view.melds[k]]
    kn = view.known[nxt] if nxt != view.seat else bytes(NUM_TYPES)
    for i, a in enumerate(legal):
        row = out[i]
        row[_VERB[a.verb]] = 1.0
        moved: Sequence[int] = a.cards
        sign = -1.0
        if a.verb == PICK:
            moved, sign = seen_pile, 1.0
        row[_HAND : _HAND + NUM_TYPES] = hand
        for c in moved:
            row[_CARDS + c] += 1.0
            row[_HAND + c] += sign
        after = n_hand + int(sign) * len(moved) if moved else n_hand
        if a.verb == SWAP:  # a natural card goes to the table, the wild it replaces comes back to hand
            after = n_hand
        result: Meld | None = None
        target: Meld | None = None
        try:
            if a.verb == MELD:
                result = make_meld(a.cards, r)
            elif a.verb in (ADD, SWAP) and 1 <= a.meld <= len(melds):
                target = melds[a.meld - 1]
                if a.verb == ADD:
                    result = attach(target, a.cards, r)
        except (MeldError, MessageError):  # not for a legal action; kept out of the row rather than raised
            result = None
        if target is not None:
            row[_TARGET : _TARGET + MELD_FEATURES] = _row_of(target, values)
        if result is not None:
            row[_RESULT : _RESULT + MELD_FEATURES] = _row_of(result, values)
        s = _SCAL
        row[s] = float(len(moved))
        row[s + 1] = sum(values[c] for c in moved) / 100.0
        row[s + 2] = float(after)
        row[s + 3] = 1.0 if after == 0 and view.hidden_pozzetto == 0 else 0.0
        row[s + 4] = float(result.size) if result is not None else 0.0
        row[s + 5] = 1.0 if result is not None and result.burraco is not None and (
            target is None or target.burraco is None
        ) else 0.0
        row[s + 6] = 1.0 if target is not None and target.burraco is not None else 0.0
        row[s + 7] = 1.0 if a.verb == DISCARD and any(is_wild_card(c) for c in a.cards) else 0.0
        card = a.cards[0] if a.verb == DISCARD and a.cards else (seen_pile[-1] if a.verb == PICK and seen_pile else -1)
        if card >= 0:
            f = _FIT
            bit = 1 << card
            row[f] = 1.0 if any(mk & bit for mk, _ in own_masks) else 0.0
            row[f + 1] = 1.0 if any(mk & bit and sz >= 5 for mk, sz in own_masks) else 0.0
            row[f + 2] = 1.0 if any(mk & bit for mk, _ in opp_masks) else 0.0
            row[f + 3] = 1.0 if any(mk & bit and sz >= 5 for mk, sz in opp_masks) else 0.0
            after_hand = row[_HAND : _HAND + NUM_TYPES]
            if not is_wild_card(card):
                rk = card % 13
                mates = sum(float(after_hand[rk + 13 * q]) for q in range(4))
                if a.verb == PICK:
                    mates -= 1.0  # the picked card itself
                row[f + 4] = max(mates, 0.0) / 4.0
                row[f + 5] = sum(1.0 for x in _NEIGH[card] if after_hand[x] > 0) / 4.0
                row[f + 6] = 1.0 if any(kn[rk + 13 * q] for q in range(4)) else 0.0
                row[f + 7] = 1.0 if any(kn[x] for x in _NEIGH[card]) else 0.0
    return out


__all__ = ["ACTION_FEATURES", "FEATURE_LAYOUT", "action_features"]

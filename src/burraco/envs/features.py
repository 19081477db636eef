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
========== ===== ========================================================================================

>>> from burraco import Game, preset
>>> g = Game.new(preset("italian").replace(players=2), seed=4)
>>> f = action_features(g.view(0), g.legal_actions())
>>> f.shape, f[:, :2].tolist()                    # draw, pick
((2, 222), [[1.0, 0.0], [0.0, 1.0]])
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from ..actions import ADD, DISCARD, MELD, PICK, SWAP, VERBS, Action
from ..cards import JOKER, NUM_TYPES, is_wild_card
from ..melds import Meld, MeldError, attach, make_meld
from ..messages import MessageError
from ..view import View
from .encoding import MELD_FEATURES, _meld_row

#: the feature blocks of one action row: (name, offset, width)
FEATURE_LAYOUT: tuple[tuple[str, int, int], ...]
_spec = (
    ("verb", len(VERBS)),
    ("cards", NUM_TYPES),
    ("hand_after", NUM_TYPES),
    ("target", MELD_FEATURES),
    ("result", MELD_FEATURES),
    ("scalars", 8),
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


def _row_of(m: Meld, values: tuple[int, ...]) -> npt.NDArray[np.float32]:
    return np.frombuffer(_meld_row(m, values)[0], dtype=np.float32)


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
        row[s + 7] = 1.0 if a.verb == DISCARD and any(c == JOKER or is_wild_card(c) for c in a.cards) else 0.0
    return out


__all__ = ["ACTION_FEATURES", "FEATURE_LAYOUT", "action_features"]

"""Actions as indices of the fixed action space (:mod:`burraco.envs.action_space`) and back, the legal actions'
indices and their mask, for learning agents.

Every function here takes the space: the rules' :class:`~burraco.envs.layout.Layout`, or the
:class:`~burraco.Rules` (:func:`~burraco.envs.layout.layout_for`).

>>> from burraco import Game, preset
>>> from burraco.envs.action_space import MELD_OFFSET, NUM_ACTIONS
>>> g = Game.new(preset("italian"), seed=13)
>>> g.apply("N pick")
>>> legal = g.legal_actions()
>>> codes = [encode_action(a, g.melds[0], g.rules) for a in legal]
>>> [str(decode_action(i, "N", g.melds[0], g.rules)) for i in codes] == [str(a) for a in legal]
True
>>> encode_action(legal[-1], g.melds[0], g.rules) >= MELD_OFFSET, NUM_ACTIONS
(True, 96218)
"""

from __future__ import annotations

import operator
from collections.abc import Sequence
from typing import SupportsIndex

import numpy as np
import numpy.typing as npt

from ..actions import ADD, DISCARD, DRAW, MELD, PICK, REDRAW, SWAP, Action
from ..melds import SEQUENCE, Meld
from ..rules import Rules
from .action_space import (
    DISCARD_OFFSET,
    DRAW_INDEX,
    GROUPS,
    MELD_OFFSET,
    PICK_INDEX,
    REDRAW_INDEX,
    EncodingError,
    _group_of_cards,
    _group_of_meld,
    _sub,
    _template,
    _template_cards,
)
from .layout import Layout, _layout


def encode_action(a: Action, melds: Sequence[Meld], layout: Layout | Rules) -> int:
    """The index of action ``a``; ``melds`` are the acting side's melds (needed for ``add`` and ``swap``);
    ``layout`` the space: the rules' :class:`Layout`, or the :class:`~burraco.Rules` (:func:`layout_for`)."""
    L = _layout(layout)
    v = a.verb
    if v == DISCARD:
        return DISCARD_OFFSET + a.cards[0]
    if v == MELD:
        mc = L.meld_cache
        got = mc.get(a.cards)
        if got is None:
            g = _group_of_cards(a.cards)
            got = MELD_OFFSET + L.tp.group_offset[g] + _template(g, a.cards, L.tp)
            if len(mc) > 500_000:
                mc.clear()
            mc[a.cards] = got
        return got
    slots = L.max_slots
    if v == ADD:
        k = a.meld
        if not 1 <= k <= min(len(melds), slots):
            raise EncodingError(f"{a}: no meld {k} (slots 1…{slots})")
        m = melds[k - 1]
        key = (m.cards, _group_of_meld(m), a.cards)
        ac = L.add_cache
        t = ac.get(key)
        if t is None:
            t = _template(key[1], tuple(sorted(m.cards + a.cards)), L.tp)
            if len(ac) > 500_000:
                ac.clear()
            ac[key] = t
        return L.add_offset + (k - 1) * L.add_block + t
    if v == DRAW:
        return DRAW_INDEX
    if v == PICK:
        return PICK_INDEX
    if v == REDRAW:
        return REDRAW_INDEX
    if v == SWAP:
        if not 1 <= a.meld <= slots:
            raise EncodingError(f"{a}: no meld {a.meld} (slots 1…{slots})")
        return L.swap_offset + (a.meld - 1) * 13 + a.cards[0] % 13
    raise EncodingError(f"{a}: not a player's action (a director's time-out has no index)")


def decode_action(
    index: SupportsIndex, seat: str, melds: Sequence[Meld], layout: Layout | Rules
) -> Action:
    """The action of ``seat`` (a seat letter) at ``index``; ``melds`` are its side's melds. The inverse of
    :func:`encode_action`; :class:`EncodingError` for an index that names no action in this state (an ``add`` to
    a slot the side does not have, or whose template does not contain the meld)."""
    L = _layout(layout)
    tp = L.tp
    i = operator.index(index)  # numpy integers too
    if not 0 <= i < L.num_actions:
        raise EncodingError(f"action index {i} is outside 0…{L.num_actions - 1}")
    if i == DRAW_INDEX:
        return Action(seat, DRAW)
    if i == PICK_INDEX:
        return Action(seat, PICK)
    if i == REDRAW_INDEX:
        return Action(seat, REDRAW)
    if i < MELD_OFFSET:
        return Action(seat, DISCARD, (i - DISCARD_OFFSET,))
    if i < L.add_offset:
        j = i - MELD_OFFSET
        g = max(k for k in range(len(GROUPS)) if tp.group_offset[k] <= j)
        return Action(seat, MELD, _template_cards(g, j - tp.group_offset[g], tp))
    if i < L.swap_offset:
        k, t = divmod(i - L.add_offset, L.add_block)
        if k >= len(melds):
            raise EncodingError(
                f"action index {i}: an attachment to meld {k + 1}, and the side has {len(melds)}"
            )
        m = melds[k]
        g = _group_of_meld(m)
        if t >= tp.group_size[g]:
            raise EncodingError(f"action index {i}: no template {t} for meld {k + 1}")
        added = _sub(_template_cards(g, t, tp), m.cards)
        if not added:
            raise EncodingError(f"action index {i}: its template does not extend meld {k + 1}")
        return Action(seat, ADD, added, k + 1)
    k, r = divmod(i - L.swap_offset, 13)
    if k >= len(melds) or melds[k].kind != SEQUENCE:
        raise EncodingError(f"action index {i}: a swap on meld {k + 1}, which is not a sequence of the side")
    return Action(seat, SWAP, (melds[k].suit * 13 + r,), k + 1)


def describe_index(index: SupportsIndex, layout: Layout | Rules) -> tuple[str, int, int]:
    """``(part, slot, position)`` of an index: the part of :data:`ACTION_LAYOUT`, the 1-based meld slot (``add``,
    ``swap``; else 0) and the position within the part (card type, template number, rank). Handy for factored
    policy heads."""
    L = _layout(layout)
    i = operator.index(index)  # numpy integers too
    if i < MELD_OFFSET:
        if i < DISCARD_OFFSET:
            return (("draw", "pick", "redraw")[i], 0, 0)
        return ("discard", 0, i - DISCARD_OFFSET)
    if i < L.add_offset:
        return ("meld", 0, i - MELD_OFFSET)
    if i < L.swap_offset:
        k, t = divmod(i - L.add_offset, L.add_block)
        return ("add", k + 1, t)
    if i < L.num_actions:
        k, r = divmod(i - L.swap_offset, 13)
        return ("swap", k + 1, r)
    raise EncodingError(f"action index {i} is outside 0…{L.num_actions - 1}")


def _index_slow(a: Action, melds: Sequence[Meld], layout: Layout) -> int:
    """:func:`encode_action`, remembering an attachment's template by the meld's unique id (melds are immutable:
    the same meld in any slot has the same templates)."""
    if a[1] == ADD:
        L = layout
        k = a[3]
        if 1 <= k <= len(melds) and k <= L.max_slots:
            got = encode_action(a, melds, L)
            au = L.add_by_uid
            if len(au) > 500_000:
                au.clear()
            au[(melds[k - 1].uid, a[2])] = got - L.add_offset - (k - 1) * L.add_block
            return got
    return encode_action(a, melds, layout)


def legal_indices(legal: Sequence[Action], melds: Sequence[Meld], layout: Layout | Rules) -> list[int]:
    """The indices of ``legal`` (in the same order): :func:`encode_action` of each, with the common verbs inline
    and attachments cached by the meld's unique id (the native core writes the same indices from its own state:
    ``burraco._native.Encoding``)."""
    L = _layout(layout)
    out: list[int] = []
    append = out.append
    mc = L.meld_cache
    ac = L.add_by_uid
    slots = L.max_slots
    add_offset = L.add_offset
    add_block = L.add_block
    for a in legal:
        v = a[1]
        if v == DISCARD:
            append(DISCARD_OFFSET + a[2][0])
        elif v == DRAW:
            append(DRAW_INDEX)
        elif v == PICK:
            append(PICK_INDEX)
        elif v == MELD:
            got = mc.get(a[2])
            append(_index_slow(a, melds, L) if got is None else got)
        elif v == ADD:
            k = a[3]
            got = ac.get((melds[k - 1].uid, a[2])) if 1 <= k <= len(melds) and k <= slots else None
            append(_index_slow(a, melds, L) if got is None else add_offset + (k - 1) * add_block + got)
        else:
            append(_index_slow(a, melds, L))
    return out


def action_mask(
    legal: Sequence[Action], melds: Sequence[Meld], layout: Layout | Rules
) -> npt.NDArray[np.int8]:
    """An ``int8`` vector of the space's size (``layout.num_actions``) with 1 at every legal action's index."""
    L = _layout(layout)
    mask = np.zeros(L.num_actions, dtype=np.int8)
    if legal:
        mask[legal_indices(legal, melds, L)] = 1
    return mask


__all__ = [
    "action_mask",
    "decode_action",
    "describe_index",
    "encode_action",
    "legal_indices",
]

"""The research environments on the native core (``burraco._native``: ``Encoding`` and ``VecTables``): the
observation of :mod:`burraco.envs.observation` and the indices of the legal actions written by the core from a native
hand's state, and N tables stepped in one call into numpy buffers.

:func:`native_encoding` gives the rules' native ``Encoding`` (None where the core is not built or does not play the
rules): ``encode(hand, seat, out, totals)`` writes the seat's observation -- from its view only -- into a float32
buffer, ``legal_indices(hand)`` and ``mask(hand, out)`` the legal actions of the seat to act in the action space of
the rules' :class:`~burraco.envs.layout.Layout`. the environments' ``Table`` (burraco/envs/_core.py) uses it where the core plays
the rules (``native=True``, the default there) and :class:`~burraco.envs.vector.BurracoVecEnv` steps its tables on
``VecTables`` where every opponent is named ``random`` or ``heuristic:LEVEL`` and the episode is one hand. The Python encoder and environments
stay the reference: tests/test_native_envs.py compares both on every state of random hands."""

from __future__ import annotations

from typing import Any

import numpy as np

from .._accel import core, native_rules, supported
from ..game import Game
from ..rules import Rules
from ..state import fields_of
from .action_space import _SEQ
from .layout import Layout, layout_for
from .observation import _rules_row

_ENCODINGS: dict[Rules, Any] = {}
_SEQ_KEYS = 3 * 3 * 2048 * 5


def _seq_table() -> bytes:
    t = np.full(_SEQ_KEYS, -1, dtype=np.int32)
    for i, (aces, twos, bits, other) in enumerate(_SEQ):
        t[((aces * 3 + twos) * 2048 + bits) * 5 + other] = i
    return t.tobytes()


def _set_table(lay: Layout) -> bytes:
    tp = lay.tp
    b4 = (tp.copies + 1) ** 4
    t = np.full(13 * b4 * 6, -1, dtype=np.int32)
    for rank in range(1, 14):
        for i, (code, wild) in enumerate(tp.sets[rank]):
            t[((rank - 1) * b4 + code) * 6 + wild] = i
    return t.tobytes()


def native_encoding(rules: Rules) -> Any:
    """The core's ``Encoding`` of these rules (cached), or None where the core is not built or does not play them."""
    got = _ENCODINGS.get(rules)
    if got is not None or rules in _ENCODINGS:
        return got
    if core is None or supported(rules) is not None or not hasattr(core, "Encoding"):
        _ENCODINGS[rules] = None
        return None
    lay = layout_for(rules)
    row = [float(x) for x in _rules_row(rules).tolist()]
    if not lay.default:
        row.append(float(rules.solo_pair))
    got = core.Encoding(
        native_rules(rules),
        tuple(lay.c_offsets),
        tuple(row),
        bytes(rules.deck_counts()),
        rules.discard_pile_open,
        (lay.num_actions, lay.add_offset, lay.add_block, lay.max_slots, lay.swap_offset),
        tuple(lay.tp.group_offset),
        _seq_table(),
        _set_table(lay),
        lay.tp.copies,
        lay.scorers_are_seats,
        rules.pair_split_rounding == "up",
    )
    _ENCODINGS[rules] = got
    return got


def hand_of(g: Game) -> Any:
    """The core's copy of ``g`` (the one that serves its legal actions where there is one), or None where the core
    cannot hold it."""
    h = g._nh
    if h is None and g.end is None:
        g.legal_actions()  # makes the core's copy where the core serves these rules
        h = g._nh
    if h:
        return h
    if h is False or core is None:
        return None
    try:
        return core.Hand(native_rules(g.rules), fields_of(g))
    except ValueError:
        return None


__all__ = ["hand_of", "native_encoding"]

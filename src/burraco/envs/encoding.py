"""The research environments' encoding in one import: the compatibility entry point of the action space, the
layouts and the observation encoders, which live in modules of their own.

* :mod:`burraco.envs.action_space`: the fixed integer action space (its parts, the meld templates, the constants
  :data:`~burraco.envs.action_space.NUM_ACTIONS`, :data:`~burraco.envs.action_space.ACTION_LAYOUT` …, the
  rules it covers and :class:`~burraco.envs.action_space.EncodingError`);
* :mod:`burraco.envs.layout`: the layouts per number of players and of packs (:class:`~burraco.envs.layout.Layout`,
  :func:`~burraco.envs.layout.layout_for`, the observation's blocks :data:`~burraco.envs.layout.OBS_LAYOUT` and
  their description, the offsets the native core reads);
* :mod:`burraco.envs.action_index`: an action's index and back, the legal actions' indices and their mask;
* :mod:`burraco.envs.observation`: the observation vectors (:func:`~burraco.envs.observation.encode_view`,
  :func:`~burraco.envs.observation.encode_game`, the incremental :class:`~burraco.envs.observation.Encoder`,
  :func:`~burraco.envs.observation.view_to_dict`).

``burraco.envs.encoding`` re-exports their public names, so that code written against it keeps working
(``from burraco.envs.encoding import encode_view, layout_for``); new code may import from either.
"""

from __future__ import annotations

from .action_index import action_mask, decode_action, describe_index, encode_action, legal_indices
from .action_space import (
    ACTION_LAYOUT,
    ADD_BLOCK,
    ADD_OFFSET,
    DISCARD_OFFSET,
    DRAW_INDEX,
    GROUPS,
    MAX_SLOTS,
    MELD_OFFSET,
    MELD_TEMPLATES,
    NUM_ACTIONS,
    PICK_INDEX,
    REDRAW_INDEX,
    SEQ_TEMPLATES,
    SWAP_OFFSET,
    EncodingError,
    check_rules,
)
from .layout import MELD_FEATURES, OBS_DESCRIPTION, OBS_LAYOUT, OBS_SIZE, Layout, layout_for
from .observation import Encoder, encode_game, encode_view, view_to_dict

__all__ = [
    "Encoder",
    "Layout",
    "layout_for",
    "view_to_dict",
    "ACTION_LAYOUT",
    "ADD_BLOCK",
    "ADD_OFFSET",
    "DISCARD_OFFSET",
    "DRAW_INDEX",
    "EncodingError",
    "GROUPS",
    "MAX_SLOTS",
    "MELD_FEATURES",
    "MELD_OFFSET",
    "MELD_TEMPLATES",
    "NUM_ACTIONS",
    "OBS_DESCRIPTION",
    "OBS_LAYOUT",
    "OBS_SIZE",
    "PICK_INDEX",
    "REDRAW_INDEX",
    "SEQ_TEMPLATES",
    "SWAP_OFFSET",
    "action_mask",
    "check_rules",
    "decode_action",
    "describe_index",
    "encode_action",
    "encode_game",
    "encode_view",
    "legal_indices",
]

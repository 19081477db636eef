"""burraco: a complete, fast rules engine for Burraco (Italian, FIBUR) and Brazilian Buraco.

>>> import burraco
>>> g = burraco.Game.new(burraco.preset("italian"), seed=42)
>>> g.current_seat, g.phase
(0, 'draw')
"""

from .actions import (
    Action,
    ActionError,
    IllegalActionError,
    InvalidActionError,
    parse_action,
)
from .bots.hint import Hint, hint
from .cards import JOKER, card, cards_str, parse_card, parse_cards, rank_of, suit_of, to_str
from .deal import Deal, DealError, deal_from_seed, deal_physical, draw_for_dealer
from .determinize import determinize
from .game import Game
from .match import Match
from .melds import Meld, MeldError, attach, make_meld
from .narrate import narrate
from .record import RecordError, replay, replay_match, replay_text
from .rules import PRESETS, Rules, RulesError, preset
from .seats import seat_names, side_names
from .view import View

__version__ = "0.1.0"

__all__ = [
    "Action",
    "ActionError",
    "IllegalActionError",
    "InvalidActionError",
    "parse_action",
    "JOKER",
    "card",
    "cards_str",
    "parse_card",
    "parse_cards",
    "rank_of",
    "suit_of",
    "to_str",
    "Deal",
    "DealError",
    "deal_from_seed",
    "deal_physical",
    "draw_for_dealer",
    "Game",
    "seat_names",
    "side_names",
    "Match",
    "Meld",
    "MeldError",
    "attach",
    "make_meld",
    "RecordError",
    "replay",
    "replay_match",
    "replay_text",
    "PRESETS",
    "Rules",
    "RulesError",
    "preset",
    "View",
    "determinize",
    "narrate",
    "Hint",
    "hint",
]

"""Tournaments: the director's desk (RULES.md §9.4, §12). An event is its setup (:mod:`.setup`: the director's
choices and the entrants) plus a log of entries (:class:`Event`, :mod:`.event`); its rounds (:mod:`.rounds`), their
pairing (:mod:`.pairing`, by the movements of :mod:`.movements`), the results (:mod:`.results`, from the score
sheets and victory points of :mod:`.scoring`) and the standings (:mod:`.standings`) are pure functions of it.
:mod:`.simulate` plays whole events between computer players, :mod:`.printouts` writes score sheets, pairings and
standings as HTML, PDF and CSV, and ``burraco tournament`` is the command line.
"""

from .event import Event
from .movements import MovementError, Pairing
from .results import Result
from .rounds import HandSheet, Line, RoundState, Table
from .scoring import LineScore, ScoreError, check_hand, match_vp, parse_vp_table, vp
from .setup import KINDS, MOVEMENTS, Entrant, Person, Setup, TournamentError
from .standings import Standing

__all__ = [
    "KINDS",
    "MOVEMENTS",
    "Entrant",
    "Event",
    "HandSheet",
    "Line",
    "LineScore",
    "MovementError",
    "Pairing",
    "Person",
    "Result",
    "RoundState",
    "ScoreError",
    "Setup",
    "Standing",
    "Table",
    "TournamentError",
    "check_hand",
    "match_vp",
    "parse_vp_table",
    "vp",
]

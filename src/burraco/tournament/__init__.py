"""Tournaments: the director's desk (RULES.md §9.4, §12). An event is its setup plus a log of entries
(:class:`Event`); movements (:mod:`.movements`), score sheets and victory points (:mod:`.scoring`) and the
standings are pure functions of it. :mod:`.simulate` plays whole events between computer players, :mod:`.printouts`
writes score sheets, pairings and standings as HTML, PDF and CSV, and ``burraco tournament`` is the command line.
"""

from .event import (
    KINDS,
    MOVEMENTS,
    Entrant,
    Event,
    HandSheet,
    Line,
    Person,
    Result,
    RoundState,
    Setup,
    Standing,
    Table,
    TournamentError,
)
from .movements import MovementError, Pairing
from .scoring import LineScore, ScoreError, check_hand, match_vp, parse_vp_table, vp

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

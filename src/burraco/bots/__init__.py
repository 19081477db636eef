"""Computer players. Every player sees only a seat's :class:`~burraco.view.View`."""

from .base import Player
from .heuristic import HeuristicPlayer
from .ismcts import CheatingISMCTSPlayer, ISMCTSPlayer
from .random_player import RandomPlayer

__all__ = ["Player", "RandomPlayer", "HeuristicPlayer", "ISMCTSPlayer", "CheatingISMCTSPlayer"]

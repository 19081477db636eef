"""Computer players. Every player sees only a seat's :class:`~burraco.view.View`."""

from .base import Player
from .random_player import RandomPlayer

__all__ = ["Player", "RandomPlayer"]

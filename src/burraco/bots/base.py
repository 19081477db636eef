"""The player interface: given a seat's view, return an action."""

from __future__ import annotations

from typing import Protocol

from ..actions import Action
from ..view import View


class Player(Protocol):
    """Anything that chooses an action from a view (never from the full state)."""

    name: str

    def choose(self, view: View, legal: list[Action]) -> Action:
        """Return one of ``legal`` (the legal actions of the view's seat, which is to act)."""
        ...

"""The random player: a uniform choice among the legal actions, from its own seeded random source.

It is the documented random player of the benchmarks and of ``burraco simulate``: every legal action of the state
(draw, pick, each distinct meld and attachment, each distinct discard) has the same probability.
"""

from __future__ import annotations

import random

from ..actions import Action
from ..view import View


class RandomPlayer:
    """Uniform over legal actions."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: View, legal: list[Action]) -> Action:
        return legal[self.rng.randrange(len(legal))]

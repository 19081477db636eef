"""Simulation of many hands or matches between computer players (the engine of ``burraco simulate``).

>>> from burraco import preset
>>> from burraco.sim import simulate
>>> s = simulate(preset("italian"), games=3, seed=1)
>>> s.hands, sum(s.ends.values())
(3, 3)
"""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .bots.random_player import RandomPlayer
from .game import Game
from .match import Match
from .rules import Rules

END_KINDS = ("closed", "stock", "stalemate", "timeout", "cap")


@dataclass
class SimStats:
    """What a simulation measured."""

    rules: str
    players: int
    hands: int = 0
    matches: int = 0
    decisions: int = 0
    seconds: float = 0.0
    ends: Counter[str] = field(default_factory=Counter)
    side_totals: list[int] = field(default_factory=lambda: [0, 0])
    match_wins: list[int] = field(default_factory=lambda: [0, 0])
    match_draws: int = 0
    match_unfinished: int = 0
    sides: tuple[str, str] = ("NS", "EW")

    @property
    def hands_per_s(self) -> float:
        return self.hands / self.seconds if self.seconds else 0.0

    @property
    def decisions_per_s(self) -> float:
        return self.decisions / self.seconds if self.seconds else 0.0

    def to_json(self) -> dict[str, Any]:
        h = max(self.hands, 1)
        out: dict[str, Any] = {
            "rules": self.rules,
            "players": self.players,
            "hands": self.hands,
            "ends": {k: self.ends.get(k, 0) for k in END_KINDS},
            "mean_score": {self.sides[i]: self.side_totals[i] / h for i in (0, 1)},
            "decisions_per_hand": self.decisions / h,
            "hands_per_s": round(self.hands_per_s, 2),
            "decisions_per_s": round(self.decisions_per_s, 1),
            "seconds": round(self.seconds, 3),
        }
        if self.matches:
            out["matches"] = self.matches
            out["match_wins"] = {self.sides[i]: self.match_wins[i] for i in (0, 1)}
            out["match_draws"] = self.match_draws
            out["match_unfinished"] = self.match_unfinished
            out["hands_per_match"] = self.hands / self.matches
        return out


def play_hand(g: Game, rng: random.Random) -> int:
    """Play a hand to its end with uniform random legal actions; returns the number of decisions."""
    n = 0
    choose = RandomPlayer()
    choose.rng = rng
    while g.end is None:
        legal = g.legal_actions()
        g._apply(legal[rng.randrange(len(legal))])  # legal by construction: skip the re-check
        n += 1
    return n


def simulate(
    rules: Rules,
    games: int = 0,
    seed: int = 0,
    matches: int = 0,
    progress: Callable[[int], None] | None = None,
    max_hands: int = 100,
) -> SimStats:
    """Play ``games`` hands (or ``matches`` whole matches) between random players, deterministically per seed.

    Random players often score below zero, so a match to a target may never end: a match still running after
    ``max_hands`` hands is stopped and counted as unfinished."""
    from .game import side_names

    st = SimStats(rules=rules.name, players=rules.players, sides=side_names(rules.players))  # type: ignore[arg-type]
    t0 = time.perf_counter()
    if matches:
        for i in range(matches):
            m = Match(rules, seed=seed * 1_000_003 + i)
            rng = random.Random(seed * 7_919 + i)
            while not m.is_over and len(m.games) < max_hands:
                g = m.start_hand()
                st.decisions += play_hand(g, rng)
                _count(st, g)
            st.matches += 1
            w = m.winner()
            if not m.is_over:
                st.match_unfinished += 1
            elif w is None:
                st.match_draws += 1
            else:
                st.match_wins[w] += 1
            if progress:
                progress(1)
    else:
        for i in range(games):
            g = Game.new(rules, seed=seed * 1_000_003 + i)
            st.decisions += play_hand(g, random.Random(seed * 7_919 + i))
            _count(st, g)
            if progress:
                progress(1)
    st.seconds = time.perf_counter() - t0
    return st


def _count(st: SimStats, g: Game) -> None:
    st.hands += 1
    st.ends[g.end or "?"] += 1
    sc = g.scores()
    assert sc is not None
    for i in (0, 1):
        st.side_totals[i] += sc[st.sides[i]]["total"]

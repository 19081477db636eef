"""Simulation of many hands or matches between computer players (the engine of ``burraco simulate``).

>>> from burraco import preset
>>> from burraco.sim import simulate
>>> s = simulate(preset("italian"), games=3, seed=1)
>>> s.hands, sum(s.ends.values())
(3, 3)

Batch runs spread games over processes (``workers``; 0 = one per CPU) or a Ray cluster (``ray="local"`` or an
address, with ``burraco[ray]``) through :mod:`burraco.parallel`. Game ``i`` of a run seeded ``seed`` is dealt and
played from seeds derived from ``(seed, i)`` alone, so every figure but the timings is the same whatever runs it;
``records=True`` also returns one summary per game (``full_records=True``: with its game record, RECORDS.md):

>>> a = simulate(preset("italian-2p"), games=6, seed=2, records=True)
>>> b = simulate(preset("italian-2p"), games=6, seed=2, records=True, workers=2, chunk=2)
>>> a.games == b.games, a.to_json()["ends"] == b.to_json()["ends"], a.games[0]["game"]
(True, True, 0)
"""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from . import native
from .bots.random_player import RandomPlayer
from .game import Game
from .match import Match, hand_points
from .rules import Rules
from .seats import scorer_names

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
    #: who keeps a score (:func:`burraco.match.scorer_names`): the sides, or the players with 3 and 5
    sides: tuple[str, ...] = ("NS", "EW")
    #: per-game (or per-match) summaries, in order, when asked for
    games: list[dict[str, Any]] = field(default_factory=list)
    workers: int = 1

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
            "mean_score": {self.sides[i]: self.side_totals[i] / h for i in range(len(self.sides))},
            "decisions_per_hand": self.decisions / h,
            "hands_per_s": round(self.hands_per_s, 2),
            "decisions_per_s": round(self.decisions_per_s, 1),
            "seconds": round(self.seconds, 3),
            "workers": self.workers,
        }
        if self.matches:
            out["matches"] = self.matches
            out["match_wins"] = {self.sides[i]: self.match_wins[i] for i in range(len(self.sides))}
            out["match_draws"] = self.match_draws
            out["match_unfinished"] = self.match_unfinished
            out["hands_per_match"] = self.hands / self.matches
        return out


def play_hand(g: Game, rng: random.Random) -> int:
    """Play a hand to its end with uniform random legal actions; returns the number of decisions.

    Where the native core is built and takes the rules (:func:`burraco.native.play_random`) it plays the hand,
    drawing the same numbers from ``rng``: the same hand as the Python loop below, much faster."""
    k = native.play_random(g, rng)
    if k is not None:
        return k
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
    *,
    workers: int = 1,
    ray: str | None = None,
    records: bool = False,
    full_records: bool = False,
    chunk: int = 0,
) -> SimStats:
    """Play ``games`` hands (or ``matches`` whole matches) between random players, deterministically per seed.

    Random players often score below zero, so a match to a target may never end: a match still running after
    ``max_hands`` hands is stopped and counted as unfinished. ``workers`` > 1 (0: one per CPU) or ``ray`` spread
    the games in chunks of ``chunk`` (0: about sixteen chunks per worker, at most 200 games: small enough that no
    worker idles long at the end of the run) over processes or Ray
    tasks; the figures do not depend on it. ``records``: keep one summary per game (or match) in ``games``."""
    from .parallel import run, workers_for

    total = matches or games
    st = _stats(rules)
    t0 = time.perf_counter()
    n = 1 if ray is None and workers == 1 else workers_for(workers)
    st.workers = n
    if chunk <= 0:
        chunk = max(1, min(200, -(-total // (16 * n)))) if n > 1 or ray is not None else max(total, 1)
    jobs = [
        (rules, bool(matches), i, min(i + chunk, total), seed, max_hands, records, full_records)
        for i in range(0, total, chunk)
    ]
    parts: list[SimStats | None] = [None] * len(jobs)
    for k, part in run(_play_chunk, jobs, workers=n, ray=ray):
        parts[k] = part
        if progress:
            progress(part.matches if matches else part.hands)
    for done in parts:
        assert done is not None
        _merge(st, done)
    st.seconds = time.perf_counter() - t0
    return st


def _play_chunk(job: tuple[Rules, bool, int, int, int, int, bool, bool]) -> SimStats:
    """Games (or matches) ``start`` … ``stop - 1`` of a run: the unit of work of :func:`simulate`."""
    rules, matches, start, stop, seed, max_hands, records, full = job
    st = _stats(rules)
    for i in range(start, stop):
        if matches:
            m = Match(rules, seed=seed * 1_000_003 + i)
            rng = random.Random(seed * 7_919 + i)
            decisions = 0
            while not m.is_over and len(m.games) < max_hands:
                g = m.start_hand()
                d = play_hand(g, rng)
                decisions += d
                st.decisions += d
                _count(st, g)
            st.matches += 1
            w = m.winner()
            if not m.is_over:
                st.match_unfinished += 1
            elif w is None:
                st.match_draws += 1
            else:
                st.match_wins[w] += 1
            if records:
                rec: dict[str, Any] = {
                    "match": i,
                    "seed": seed * 1_000_003 + i,
                    "hands": len(m.games),
                    "decisions": decisions,
                    "finished": m.is_over,
                    **m.summary_json(),
                }
                if full:
                    rec["record"] = m.to_record()
                st.games.append(rec)
        else:
            g = Game.new(rules, seed=seed * 1_000_003 + i)
            d = play_hand(g, random.Random(seed * 7_919 + i))
            st.decisions += d
            _count(st, g)
            if records:
                rec = {
                    "game": i,
                    "seed": seed * 1_000_003 + i,
                    "end": g.end,
                    "closed_by": g.seats[g.closed_by] if g.closed_by >= 0 else None,
                    "decisions": d,
                    "scores": g.scores(),
                }
                if full:
                    rec["record"] = g.to_record()
                st.games.append(rec)
    return st


def _merge(st: SimStats, part: SimStats) -> None:
    st.hands += part.hands
    st.matches += part.matches
    st.decisions += part.decisions
    st.ends.update(part.ends)
    for i in range(len(st.sides)):
        st.side_totals[i] += part.side_totals[i]
        st.match_wins[i] += part.match_wins[i]
    st.match_draws += part.match_draws
    st.match_unfinished += part.match_unfinished
    st.games.extend(part.games)


def _count(st: SimStats, g: Game) -> None:
    st.hands += 1
    st.ends[g.end or "?"] += 1
    for i, pts in enumerate(hand_points(g)):
        st.side_totals[i] += pts


def _stats(rules: Rules) -> SimStats:
    names = scorer_names(rules)
    k = len(names)
    return SimStats(rules=rules.name, players=rules.players, sides=names, side_totals=[0] * k, match_wins=[0] * k)

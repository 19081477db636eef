"""Duplicate matches between two computer players (the engine of ``burraco arena``).

Every deal is played twice with the same cards and the same first seat: once with player A on NS (seats 0 and 2;
seat 0 with two players) and once with A on EW, so the luck of the cards cancels. Per deal the result is A's total
over both games minus B's total.

>>> from burraco import preset
>>> r = play_duplicate(preset("italian-2p"), parse_player("random"), parse_player("random"), deals=1, seed=1)
>>> r["deals"], len(r["diffs"])
(1, 1)
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from typing import Any

from .bots.base import Player
from .bots.heuristic import LEVELS, HeuristicPlayer
from .bots.random_player import RandomPlayer
from .deal import deal_from_seed
from .game import Game, side_names
from .rules import Rules

#: makes a fresh player from a seed
PlayerFactory = Callable[[int], Player]

#: a hand still running after this many actions is a bug in a player or the engine
MAX_ACTIONS = 20_000


def parse_player(spec: str) -> PlayerFactory:
    """A player factory from ``random`` or ``heuristic[:easy|medium|hard]`` (``heuristic`` alone is ``hard``)."""
    name, _, arg = spec.strip().partition(":")
    name = name.lower()
    if name == "random" and not arg:
        return lambda seed: RandomPlayer(seed)
    if name == "heuristic":
        level = (arg or "hard").lower()
        if level not in LEVELS:
            raise ValueError(f"unknown heuristic level {level!r} (levels are {', '.join(LEVELS)})")
        return lambda seed: HeuristicPlayer(level, seed)
    raise ValueError(
        f"unknown player {spec!r} (players are random, heuristic:easy, heuristic:medium, heuristic:hard)"
    )


def player_seed(seed: int, deal: int, game: int, seat: int) -> int:
    """The seed of the player at ``seat`` in game ``game`` (0 or 1) of deal ``deal``: distinct and reproducible."""
    return ((seed * 1_000_003 + deal) * 2 + game) * 8 + seat


def play_game(
    rules: Rules, game: Game, players: list[Player], a_seats: set[int], clock: list[float], moves: list[int]
) -> None:
    """Play ``game`` to its end; time every decision into ``clock[0]`` (A) or ``clock[1]`` (B)."""
    n = 0
    while game.end is None:
        seat = game.current_seat
        legal = game.legal_actions()
        view = game.view(seat)
        who = 0 if seat in a_seats else 1
        t0 = time.perf_counter()
        a = players[seat].choose(view, legal)
        clock[who] += time.perf_counter() - t0
        moves[who] += 1
        game.apply(a)
        n += 1
        if n > MAX_ACTIONS:
            raise RuntimeError(f"a hand ran past {MAX_ACTIONS} actions")


def play_duplicate(
    rules: Rules,
    make_a: PlayerFactory,
    make_b: PlayerFactory,
    deals: int,
    seed: int = 0,
    progress: Callable[[int], None] | None = None,
) -> dict[str, Any]:
    """Play ``deals`` duplicate deals between A and B; return the figures as a JSON-able dict."""
    n = rules.players
    first = (n - 1 + rules.direction) % n  # the dealer is the last seat, as in Game.new
    sides = side_names(n)
    clock = [0.0, 0.0]
    moves = [0, 0]
    diffs: list[int] = []
    a_scores: list[int] = []
    b_scores: list[int] = []
    ends: dict[str, int] = {}
    t_start = time.perf_counter()
    for i in range(deals):
        deal = deal_from_seed(rules, random.Random(seed * 1_000_003 + i))
        a_total = 0
        b_total = 0
        for g_i in (0, 1):
            a_side = g_i  # A on NS first, then on EW
            a_seats = {s for s in range(n) if (s % 2 if n == 4 else s) == a_side}
            players: list[Player] = [
                (make_a if s in a_seats else make_b)(player_seed(seed, i, g_i, s)) for s in range(n)
            ]
            g = Game(rules, deal, first, check=False)
            play_game(rules, g, players, a_seats, clock, moves)
            sc = g.scores()
            assert sc is not None
            a_total += sc[sides[a_side]]["total"]
            b_total += sc[sides[1 - a_side]]["total"]
            ends[g.end or "?"] = ends.get(g.end or "?", 0) + 1
        a_scores.append(a_total)
        b_scores.append(b_total)
        diffs.append(a_total - b_total)
        if progress:
            progress(1)
    seconds = time.perf_counter() - t_start
    k = len(diffs)
    mean = sum(diffs) / k if k else 0.0
    if k > 1:
        sd = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (k - 1))
        half = 1.96 * sd / math.sqrt(k)
    else:
        sd = 0.0
        half = 0.0
    wins = sum(1.0 if d > 0 else 0.5 if d == 0 else 0.0 for d in diffs)
    return {
        "rules": rules.name,
        "players": n,
        "seed": seed,
        "deals": k,
        "a_win_rate": wins / k if k else 0.0,
        "mean_diff": mean,
        "sd_diff": sd,
        "ci95": [mean - half, mean + half],
        "a_mean_score": sum(a_scores) / k / 2 if k else 0.0,
        "b_mean_score": sum(b_scores) / k / 2 if k else 0.0,
        "a_ms_per_move": 1000.0 * clock[0] / moves[0] if moves[0] else 0.0,
        "b_ms_per_move": 1000.0 * clock[1] / moves[1] if moves[1] else 0.0,
        "a_moves": moves[0],
        "b_moves": moves[1],
        "ends": ends,
        "seconds": round(seconds, 3),
        "diffs": diffs,
    }


__all__ = ["parse_player", "play_duplicate", "play_game", "player_seed", "PlayerFactory"]

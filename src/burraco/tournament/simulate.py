"""A whole tournament of computer players (``burraco tournament simulate``): for clubs to try a format and for
researchers to rank bots. Every table plays a real :class:`~burraco.match.Match` of the round's hands with the
engine, its hands are entered as an online table's score sheets, and the standings come from the event's log like
any other event's.

>>> ev, _ = simulate(pairs=4, rounds=2, movements="mitchell,danish", hands=2, players=["random"], seed=1,
...                  vp_table="fibur_3_hands")
>>> len(ev.rounds), all(r.closed for r in ev.rounds), len(ev.standings())
(2, True, 4)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ..arena import play_game
from ..bots.base import Player
from ..bots.players import parse_player
from ..game import Game
from ..match import Match
from .event import Event, Table
from .scoring import LineScore

#: called after every table: (round, table, tables in the round)
Progress = Callable[[int, int, int], None]


def line_score(g: Game, side: int) -> LineScore:
    """One side's result of a finished hand as a score sheet has it (§10.1), from the engine's breakdown."""
    sc = g.side_score(side)
    classes = [m.burraco for m in g.melds[side] if m.burraco is not None]
    return LineScore(
        clean=classes.count("clean"),
        semiclean=classes.count("semiclean"),
        dirty=classes.count("dirty"),
        closing=sc["closing"] > 0,
        melds=sc["melds"],
        hand=-sc["hand"],
        pozzetto=sc["pozzetto"] == 0,
    )


def play_table(ev: Event, round_no: int, table: Table, specs: dict[str, str]) -> Match:
    """Play one table's round: the NS line's player spec at N and S, the EW line's at E and W."""
    rules = ev.rules
    m = Match(rules, seed=ev.deal_seed(round_no, table.number))
    makers = [parse_player(specs[table.ns.entrant]), parse_player(specs[table.ew.entrant])]
    clock = [0.0, 0.0]
    moves = [0, 0]
    hand = 0
    while not m.is_over:
        g = m.start_hand()
        players: list[Player] = [
            makers[s % 2](((ev.setup.seed * 1_000_003 + round_no) * 1_009 + table.number) * 64 + hand * 4 + s)
            for s in range(4)
        ]
        play_game(rules, g, players, {0, 2}, clock, moves)
        hand += 1
    return m


def simulate(
    pairs: int = 16,
    rounds: int = 4,
    movements: Sequence[str] | str = "mitchell,mitchell,mitchell,danish",
    hands: int = 3,
    players: Sequence[str] = ("heuristic:medium",),
    *,
    seed: int = 0,
    rules: str = "italian-tournament",
    duplicate: bool = False,
    name: str = "Simulated tournament",
    progress: Progress | None = None,
    **setup: Any,
) -> tuple[Event, list[dict[str, Any]]]:
    """Run a pairs event of ``pairs`` computer pairs, the specs of ``players`` dealt to them in turn (pair 1 the
    first spec, pair 2 the second, …). Returns the event and every table's match record with its round, table
    and lines (so the standings can be checked against the hands actually played)."""
    if pairs < 2:
        raise ValueError("a tournament needs at least two pairs")
    if not players:
        raise ValueError("name at least one computer player")
    for p in players:
        parse_player(p)  # a bad spelling fails before anything is played
    ev = Event.create(
        name,
        rounds=rounds,
        movements=movements,
        hands=hands,
        rules=rules,
        seed=seed,
        duplicate=duplicate,
        **setup,
    )
    specs: dict[str, str] = {}
    for k in range(pairs):
        spec = players[k % len(players)]
        e = ev.register(f"{spec} #{k + 1}", [f"{spec} #{k + 1} N", f"{spec} #{k + 1} S"])
        specs[e.id] = spec
    played: list[dict[str, Any]] = []
    for _ in range(rounds):
        rs = ev.start_round(by="simulate")
        for i, t in enumerate(rs.tables):
            m = play_table(ev, rs.number, t, specs)
            for h, g in enumerate(m.games, 1):
                ev.enter_hand(t.number, h, line_score(g, 0), line_score(g, 1), by="online")
            played.append(
                {
                    "round": rs.number,
                    "table": t.number,
                    "ns": t.ns.entrant,
                    "ew": t.ew.entrant,
                    "record": m.to_record(),
                    "totals": list(m.totals),
                }
            )
            if progress is not None:
                progress(rs.number, i + 1, len(rs.tables))
        ev.close_round(by="simulate")
    return ev, played


__all__ = ["line_score", "play_table", "simulate"]

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
from dataclasses import dataclass
from typing import Any

from ..arena import play_game
from ..bots.base import Player
from ..bots.players import parse_player
from ..game import Game
from ..match import Match
from ..parallel import run
from ..rules import Rules
from .event import Event
from .rounds import Table
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
    job = _Job(
        ev.rules, ev.deal_seed(round_no, table.number), ev.setup.seed, round_no, table.number,
        specs[table.ns.entrant], specs[table.ew.entrant],
    )  # fmt: skip
    return _play(job)


@dataclass(frozen=True)
class _Job:
    """What one table's round needs, small and picklable (it may run in another process or on a Ray node)."""

    rules: Rules
    deal_seed: int
    seed: int
    round_no: int
    table: int
    ns: str
    ew: str


def _play(job: _Job) -> Match:
    m = Match(job.rules, seed=job.deal_seed)
    makers = [parse_player(job.ns), parse_player(job.ew)]
    clock = [0.0, 0.0]
    moves = [0, 0]
    hand = 0
    while not m.is_over:
        g = m.start_hand()
        players: list[Player] = [
            makers[s % 2](((job.seed * 1_000_003 + job.round_no) * 1_009 + job.table) * 64 + hand * 4 + s)
            for s in range(4)
        ]
        play_game(job.rules, g, players, {0, 2}, clock, moves)
        hand += 1
    return m


def _table_result(job: _Job) -> tuple[dict[str, Any], list[int], list[tuple[LineScore, LineScore]]]:
    """A table's round played: its match record, totals and each hand's two lines (what the event is given)."""
    m = _play(job)
    return m.to_record(), list(m.totals), [(line_score(g, 0), line_score(g, 1)) for g in m.games]


def simulate(
    pairs: int = 16,
    rounds: int = 4,
    movements: Sequence[str] | str | None = None,
    hands: int = 3,
    players: Sequence[str] = ("heuristic:medium",),
    *,
    seed: int = 0,
    rules: str = "italian-tournament",
    duplicate: bool = False,
    name: str = "Simulated tournament",
    progress: Progress | None = None,
    workers: int = 1,
    ray: str | None = None,
    **setup: Any,
) -> tuple[Event, list[dict[str, Any]]]:
    """Run a pairs event of ``pairs`` computer pairs, the specs of ``players`` dealt to them in turn (pair 1 the
    first spec, pair 2 the second, …; ``movements`` None: the default of
    :meth:`~burraco.tournament.Event.create` for ``rounds``). Returns the event and every table's match record
    with its round, table and lines (so the standings can be checked against the hands actually played).

    A round's tables are played over ``workers`` processes (0: one per CPU) or on the Ray cluster at ``ray``
    (:mod:`burraco.parallel`); every table's deals and players are seeded, so the event is the same however it
    is spread."""
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
        jobs = [
            _Job(
                ev.rules, ev.deal_seed(rs.number, t.number), ev.setup.seed, rs.number, t.number,
                specs[t.ns.entrant], specs[t.ew.entrant],
            )  # fmt: skip
            for t in rs.tables
        ]
        results: list[Any] = [None] * len(jobs)
        for done, (i, res) in enumerate(run(_table_result, jobs, workers=workers, ray=ray), 1):
            results[i] = res
            if progress is not None:
                progress(rs.number, done, len(rs.tables))
        for t, (record, totals, lines) in zip(rs.tables, results, strict=True):  # in table order: one event
            for h, (ns, ew) in enumerate(lines, 1):
                ev.enter_hand(t.number, h, ns, ew, by="online")
            played.append(
                {
                    "round": rs.number,
                    "table": t.number,
                    "ns": t.ns.entrant,
                    "ew": t.ew.entrant,
                    "record": record,
                    "totals": totals,
                }
            )
        ev.close_round(by="simulate")
    return ev, played


__all__ = ["line_score", "play_table", "simulate"]

"""A club's season: one ranking of its players across the evenings (events) of the season.

Players change partners from one evening to the next, so the season ranks players, not pairs: each player of an
entrant earns what the entrant earned. Two scorings (a setting, ``scoring``):

* ``"placing"`` — points per placing: by default as many points as the evening had entrants for the first, one
  fewer for each place below (the field's size weighs a win); or a club's own table (``points``: 25, 20, 16, …
  for the first, second, third …; places beyond it score nothing). Entrants sharing a rank share its points.
* ``"vp"`` — the victory points the player's entrant scored that evening (net of penalties).

A player is the same person across events by membership number where one was given, else by name (letter case
and spacing aside). The ranking is by points, then the best placing, then the number of evenings, then the name;
players equal on all of it share a rank. Each evening counts with its standings after its last closed round.

>>> from burraco.tournament import Event, LineScore
>>> def evening(pairs):
...     ev = Event.create("Thursday", rounds=1, movements="danish")
...     for a, b in pairs:
...         ev.register(f"{a} – {b}", [a, b])
...     ev.start_round()
...     for t in ev.current.tables:
...         for h in (1, 2, 3):
...             ev.enter_hand(t.number, h, LineScore(melds=200), LineScore(melds=50), by="director")
...     ev.close_round()
...     return ev
>>> one = evening([("Anna", "Bruno"), ("Carla", "Dario")])
>>> two = evening([("Carla", "Bruno"), ("Anna", "Dario")])
>>> [(x.rank, x.name, x.points) for x in season([one, two])]
[(1, 'Bruno', 4), (2, 'Anna', 3), (2, 'Carla', 3), (4, 'Dario', 2)]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..messages import msg
from .event import Event
from .setup import TournamentError

#: the season's scorings
SCORINGS = ("placing", "vp")


@dataclass(frozen=True)
class SeasonLine:
    """A player's line of the season ranking: the points, the evenings played, the best placing."""

    rank: int
    name: str
    club: str
    member: str
    events: int
    points: int
    best: int


def season(events: Sequence[Event], scoring: str = "placing", points: Sequence[int] | None = None) -> list[SeasonLine]:
    """The season ranking of the players of ``events`` (see the module's text for the rules)."""
    if scoring not in SCORINGS:
        raise TournamentError(msg("te_season_scoring", scoring=scoring, choices=", ".join(SCORINGS)))
    if points is not None and (not points or any(p < 0 for p in points)):
        raise TournamentError(msg("te_season_points"))
    acc: dict[str, list[int]] = {}  # key -> points, events, best
    who: dict[str, tuple[str, str, str]] = {}
    for ev in events:
        closed = sum(1 for r in ev.rounds if r.closed)
        st = ev.standings(closed)
        for s in st:
            if scoring == "vp":
                got = s.vp
            elif points is None:
                got = len(st) - s.rank + 1
            else:
                got = points[s.rank - 1] if s.rank <= len(points) else 0
            for p in s.entrant.people:
                key = f"#{p.member.strip()}" if p.member.strip() else " ".join(p.name.split()).casefold()
                a = acc.setdefault(key, [0, 0, 10**9])
                a[0] += got
                a[1] += 1
                a[2] = min(a[2], s.rank)
                who[key] = (p.name, p.club, p.member)  # the latest evening's spelling
    order = sorted(acc, key=lambda k: (-acc[k][0], acc[k][2], -acc[k][1], who[k][0].casefold()))
    out: list[SeasonLine] = []
    for i, k in enumerate(order):
        a = acc[k]
        prev = out[-1] if out else None
        same = prev is not None and (prev.points, prev.best, prev.events) == (a[0], a[2], a[1])
        out.append(SeasonLine(prev.rank if same and prev else i + 1, *who[k], a[1], a[0], a[2]))
    return out


__all__ = ["SCORINGS", "SeasonLine", "season"]

"""An event's rounds as its log builds them: the tables and their two lines (:class:`Table`, :class:`Line`), every
hand's score sheet (:class:`HandSheet`) and the state of a round (:class:`RoundState`); and the state of the whole
event that its results, standings and pairing read (the entrants, the rounds, the round in play).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..messages import msg
from ..rules import Rules
from .scoring import LineScore, VPRows
from .setup import Entrant, Setup, TournamentError

LINES = ("NS", "EW")


@dataclass(frozen=True)
class Line:
    """One line (NS or EW) at a table: whose players sit there. ``members`` are ``(entrant id, person index)``."""

    members: tuple[tuple[str, int], ...]

    @property
    def entrant(self) -> str:
        """The entrant that scores this line (pairs, teams); in an individual event the first player."""
        return self.members[0][0]

    @property
    def entrants(self) -> tuple[str, ...]:
        """Every entrant whose players sit in this line (two players in an individual event)."""
        out: list[str] = []
        for e, _ in self.members:
            if e not in out:
                out.append(e)
        return tuple(out)

    def to_json(self) -> list[list[Any]]:
        return [[e, i] for e, i in self.members]

    @classmethod
    def from_json(cls, d: Sequence[Sequence[Any]]) -> Line:
        return cls(tuple((str(e), int(i)) for e, i in d))


@dataclass(frozen=True)
class Table:
    """A table of a round: its number, its two lines and, in a team event, the team match it belongs to."""

    number: int
    ns: Line
    ew: Line
    match: int = 0

    def line(self, name: str) -> Line:
        return self.ns if name == "NS" else self.ew

    def to_json(self) -> dict[str, Any]:
        return {"table": self.number, "ns": self.ns.to_json(), "ew": self.ew.to_json(), "match": self.match}

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> Table:
        return cls(int(d["table"]), Line.from_json(d["ns"]), Line.from_json(d["ew"]), int(d.get("match", 0)))


@dataclass
class HandSheet:
    """A hand's score sheet at one table: the counted figures and how they came to count."""

    ns: LineScore
    ew: LineScore
    entered_by: str
    confirmed_by: str | None = None
    corrected_by: list[tuple[str, str]] = field(default_factory=list)  # (who, why)
    #: the hand in which the time-out was announced: the table's match ends with it (RULES.md §0.1)
    timeout: bool = False

    @property
    def counts(self) -> bool:
        """Confirmed by the other line, entered by the online table, or corrected by the director."""
        return self.confirmed_by is not None or bool(self.corrected_by) or self.entered_by == "online"


@dataclass
class RoundState:
    """A round as the log has built it so far."""

    number: int
    movement: str
    tables: tuple[Table, ...]
    byes: tuple[str, ...]
    started_at: str = ""
    lines: Mapping[str, Any] = field(
        default_factory=dict
    )  # a Mitchell segment's lines, a round robin's order
    timeout_at: str | None = None
    sheets: dict[tuple[int, int], HandSheet] = field(default_factory=dict)
    finished: set[int] = field(default_factory=set)  # tables ended early after the time-out
    replaced: dict[tuple[int, str], str] = field(default_factory=dict)  # (table, seat) -> computer player
    closed: bool = False
    #: the director's adjusted scores (§13): table -> {ns_vp, ew_vp, ns_for, ns_against, ew_for, ew_against, …}
    adjusted: dict[int, dict[str, Any]] = field(default_factory=dict)

    def table(self, number: int) -> Table:
        for t in self.tables:
            if t.number == number:
                return t
        raise TournamentError(msg("te_no_table", round=self.number, table=number, tables=len(self.tables)))

    def hands_counted(self, table: int, hands: int) -> int:
        n = 0
        while n < hands and (s := self.sheets.get((table, n + 1))) is not None and s.counts:
            n += 1
        return n

    def timeout_hand(self, table: int) -> int | None:
        """The hand of a table's sheets marked as the hand of the time-out (its match ended with it), or None."""
        marked = [h for (t, h), s in self.sheets.items() if t == table and s.timeout]
        return min(marked) if marked else None

    def complete(self, table: int, hands: int) -> bool:
        """All the round's hands counted, or ended early after the time-out: with the hand of the time-out
        counted (RULES.md §0.1 "The time-out ends the match"), or by the director with the hands played."""
        n = self.hands_counted(table, hands)
        if n == hands or table in self.finished or table in self.adjusted:
            return True
        return n > 0 and self.sheets[(table, n)].timeout


def _copy_round(r: RoundState) -> RoundState:
    return RoundState(
        r.number,
        r.movement,
        r.tables,
        r.byes,
        r.started_at,
        r.lines,
        r.timeout_at,
        {
            k: HandSheet(s.ns, s.ew, s.entered_by, s.confirmed_by, list(s.corrected_by), s.timeout)
            for k, s in r.sheets.items()
        },
        set(r.finished),
        dict(r.replaced),
        r.closed,
        dict(r.adjusted),
    )


class _EventState:
    """What an event's log has built so far, as every part of the event reads it
    (:class:`~burraco.tournament.event.Event` sets it up and replays the log into it)."""

    setup: Setup
    rules: Rules
    vp_rows: VPRows
    log: list[dict[str, Any]]
    entrants: dict[str, Entrant]
    rounds: list[RoundState]

    @property
    def current(self) -> RoundState | None:
        """The round in play (started, not closed), or None."""
        return self.rounds[-1] if self.rounds and not self.rounds[-1].closed else None

    @property
    def ended(self) -> bool:
        """Every round has been played and closed."""
        return len(self.rounds) >= self.setup.rounds and self.current is None

    def active(self) -> list[Entrant]:
        return [e for e in self.entrants.values() if not e.withdrawn]

    def who(self, member: tuple[str, int]) -> str:
        """A seat's player name."""
        e = self.entrants[member[0]]
        return e.people[member[1]].name

    def _round(self, k: int) -> RoundState:
        if not 1 <= k <= len(self.rounds):
            raise TournamentError(msg("te_round_not_started", round=k, started=len(self.rounds)))
        return self.rounds[k - 1]


__all__ = [
    "LINES",
    "HandSheet",
    "Line",
    "RoundState",
    "Table",
]

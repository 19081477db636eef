"""A tournament event: its setup plus a log of entries, like a game is its deal plus its actions (DESIGN.md "Wave 2").

Registrations, withdrawals, team line-ups, the start of each round (with its pairing, computed by the movement and
written into the entry so that history never changes), every hand's score sheet, the other line's countersignature,
the director's corrections (new entries, never edits: who made them is kept), the time-out and the end of each
round are entries. Everything else — tables, results, victory points, standings — is recomputed from the log, so a
page can always be rebuilt and audited. Pure: no clock (times come in the entries), no global randomness (the
event's seed), no I/O.

>>> ev = Event.create(name="Torneo sociale", date="2026-12-05", rounds=2, movements=["mitchell", "danish"])
>>> for a, b in [("Anna", "Bruno"), ("Carla", "Dario"), ("Elena", "Franco"), ("Gino", "Ida")]:
...     _ = ev.register(f"{a} – {b}", [a, b])
>>> [(t.number, t.ns.entrant, t.ew.entrant) for t in ev.start_round(at="2026-12-05T15:00").tables]
[(1, '1', '2'), (2, '3', '4')]
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .. import rules as rules_mod
from ..messages import MessageError, msg
from ..rules import Rules, RulesError
from . import movements as mv
from .scoring import LineScore, ScoreError, VPRows, check_hand, match_vp, parse_vp_table, vp, vp_rows

FORMAT = "burraco-event/1"
KINDS = ("pairs", "teams", "individual")
MOVEMENTS = ("mitchell", "danish", "danish_modified", "round_robin", "individual")
LINES = ("NS", "EW")


class TournamentError(MessageError):
    """An entry the event refuses: the message (``err.msg``, a :class:`~burraco.messages.Message` shown in the
    reader's language; ``str(err)`` is its English text) says what and why; the event is unchanged."""


# ----------------------------------------------------------------------------------------------------------------
# setup and participants
# ----------------------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Setup:
    """What the director chooses when creating the event (RULES.md §12)."""

    name: str
    date: str = ""
    kind: str = "pairs"
    rules: str = "italian-tournament"
    overrides: Mapping[str, Any] = field(default_factory=dict)
    hands: int = 3
    minutes: int | None = None
    rounds: int = 4
    movements: tuple[str, ...] = ("mitchell", "mitchell", "mitchell", "danish")
    groups: int = 1
    mitchell_skip: bool = False
    bye_vp: int = 14
    bye_mp: int = 355
    vp_table: VPRows = ()
    team_vp_table: VPRows = ()
    pairs_per_match: int = 2
    ranking: str = "vp"
    duplicate: bool = False
    seed: int = 0
    seeding: str = "registration"

    def match_rules(self) -> Rules:
        """The rules every table plays: the preset with its overrides and the round's number of hands."""
        over = dict(self.overrides)
        over.update(hands_per_match=self.hands, target=None)
        return rules_mod.preset(self.rules, **over)

    def to_json(self) -> dict[str, Any]:
        d = {k: getattr(self, k) for k in self.__dataclass_fields__}
        d["overrides"] = dict(self.overrides)
        d["movements"] = list(self.movements)
        d["vp_table"] = [list(r) for r in self.vp_table]
        d["team_vp_table"] = [list(r) for r in self.team_vp_table]
        return d

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> Setup:
        kw = dict(d)
        kw["movements"] = tuple(kw.get("movements", ()))
        kw["vp_table"] = tuple(tuple(r) for r in kw.get("vp_table", ()))
        kw["team_vp_table"] = tuple(tuple(r) for r in kw.get("team_vp_table", ()))
        unknown = set(kw) - set(cls.__dataclass_fields__)
        if unknown:
            raise TournamentError(msg("te_setup_fields", fields=", ".join(sorted(unknown))))
        return cls(**kw)


@dataclass(frozen=True)
class Person:
    """A player: name, and optionally club and membership number."""

    name: str
    club: str = ""
    member: str = ""


@dataclass(frozen=True)
class Entrant:
    """A pair, a team (its players two by two: pairs 1-2, 3-4, …) or, in an individual event, one player."""

    id: str
    name: str
    people: tuple[Person, ...]
    withdrawn: bool = False
    first_round: int = 1  #: the first round it can play (a late entry: the round after its registration)

    @property
    def label(self) -> str:
        return f"{self.id}. {self.name}"


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

    def complete(self, table: int, hands: int) -> bool:
        """All the round's hands counted, or ended early after the time-out with the hands played."""
        return self.hands_counted(table, hands) == hands or table in self.finished


@dataclass(frozen=True)
class Result:
    """One entrant's result of one round."""

    round: int
    entrant: str
    opponents: tuple[str, ...]
    line: str  # NS, EW or "bye"
    table: int
    mp_for: int
    mp_against: int
    vp: int
    complete: bool

    @property
    def diff(self) -> int:
        return self.mp_for - self.mp_against


@dataclass(frozen=True)
class Standing:
    """A line of the standings."""

    rank: int
    entrant: Entrant
    rounds: int
    vp: int
    mp_for: int
    mp_against: int
    byes: int

    @property
    def diff(self) -> int:
        return self.mp_for - self.mp_against


# ----------------------------------------------------------------------------------------------------------------
# the event
# ----------------------------------------------------------------------------------------------------------------
class Event:
    """A tournament: :attr:`setup` and the :attr:`log`; every other attribute is derived by replaying the log."""

    def __init__(self, setup: Setup, log: Iterable[Mapping[str, Any]] = ()) -> None:
        _check_setup(setup)
        self.setup = setup
        self.rules = setup.match_rules()
        self.vp_rows: VPRows = setup.vp_table or vp_rows(self.rules)
        self.log: list[dict[str, Any]] = []
        self.entrants: dict[str, Entrant] = {}
        self.rounds: list[RoundState] = []
        for e in log:
            self.apply(e)

    # ----- construction and JSON --------------------------------------------------------------------------------
    @classmethod
    def create(
        cls,
        name: str,
        *,
        movements: Sequence[str] | str | None = None,
        vp_table: Any = None,
        team_vp_table: Any = None,
        **kw: Any,
    ) -> Event:
        """A new event. ``movements``: one per round, or one for every round (``"danish"``), or a comma list;
        ``vp_table`` / ``team_vp_table``: a table in JSON form (a dict, or its text) or the name of a shipped
        one, checked by :func:`~burraco.tournament.scoring.parse_vp_table`."""
        rounds = int(kw.get("rounds", Setup.rounds))
        kind = kw.get("kind", "pairs")
        if movements is None:
            mvs = ("individual",) * rounds if kind == "individual" else Setup.movements[:rounds]
            if len(mvs) < rounds:
                mvs = mvs + ("danish",) * (rounds - len(mvs))
        else:
            if isinstance(movements, str):
                movements = [m.strip() for m in movements.split(",") if m.strip()]
            mvs = tuple(movements)
            if len(mvs) == 1:
                mvs = mvs * rounds
        kw["movements"] = mvs
        kw["rounds"] = rounds
        kw["vp_table"] = _vp_arg(vp_table, "the VP table")
        kw["team_vp_table"] = _vp_arg(team_vp_table, "the team VP table")
        try:
            return cls(Setup(name=name, **kw))
        except TypeError as e:
            raise TournamentError(str(e)) from e  # a wrong keyword: a programming error

    def to_json(self) -> dict[str, Any]:
        """``{"format": "burraco-event/1", "setup": …, "log": […]}``: everything there is to the event."""
        return {"format": FORMAT, "setup": self.setup.to_json(), "log": [dict(e) for e in self.log]}

    @classmethod
    def from_json(cls, data: Any) -> Event:
        """An event from :meth:`to_json` (a dict or its text); every entry is checked again as it is replayed."""
        if isinstance(data, (str, bytes)):
            try:
                data = json.loads(data)
            except json.JSONDecodeError as e:
                raise TournamentError(msg("te_not_event_file", error=str(e))) from e
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise TournamentError(msg("te_not_event", format=FORMAT))
        return cls(Setup.from_json(data["setup"]), data.get("log", []))

    # ----- the log ----------------------------------------------------------------------------------------------
    def apply(self, entry: Mapping[str, Any]) -> None:
        """Check one entry against the event as it stands and append it, or raise :class:`TournamentError` and
        leave the event unchanged."""
        e = dict(entry)
        kind = e.get("type")
        handler = _HANDLERS.get(str(kind))
        if handler is None:
            raise TournamentError(msg("te_entry_type", kind=str(kind), types=", ".join(sorted(_HANDLERS))))
        snapshot = (dict(self.entrants), len(self.rounds), [_copy_round(r) for r in self.rounds])
        try:
            handler(self, e)
        except (
            TournamentError,
            ScoreError,
            mv.MovementError,
            RulesError,
            KeyError,
            TypeError,
            ValueError,
        ) as err:
            self.entrants, n, rounds = snapshot
            self.rounds = rounds[:n]
            if isinstance(err, TournamentError):
                raise
            if isinstance(err, KeyError):
                raise TournamentError(msg("te_missing_field", field=str(err))) from err
            raise TournamentError(getattr(err, "msg", None) or str(err)) from err
        self.log.append(e)

    # ----- what a director does (each is one entry) ------------------------------------------------------------
    def register(
        self, name: str, people: Sequence[str | Person | Mapping[str, str]], *, at: str = "", by: str = ""
    ) -> Entrant:
        """Register a pair (two players), a team (two to four pairs) or, in an individual event, one player; a
        late entry when rounds have been played (it plays from the next round)."""
        ps = [_person(p) for p in people]
        self.apply({"type": "register", "name": name, "people": [vars(p) for p in ps], "at": at, "by": by})
        return self.entrants[str(len(self.entrants))]

    def withdraw(self, entrant: str, *, at: str = "", by: str = "") -> None:
        """Withdraw an entrant between rounds (its results so far stay)."""
        self.apply({"type": "withdraw", "entrant": entrant, "at": at, "by": by})

    def lineup(self, team: str, pairs: Sequence[Sequence[int]], *, at: str = "", by: str = "") -> None:
        """A team's pairs for the next round (people by their index in the team, two by two)."""
        self.apply(
            {
                "type": "lineup",
                "round": len(self.rounds) + 1,
                "team": team,
                "pairs": [list(p) for p in pairs],
                "at": at,
                "by": by,
            }
        )

    def start_round(self, *, at: str = "", by: str = "") -> RoundState:
        """Pair and seat the next round by its movement and start it."""
        k = len(self.rounds) + 1
        tables, byes, lines = self._pair(k)
        self.apply(
            {
                "type": "start_round",
                "round": k,
                "tables": [t.to_json() for t in tables],
                "byes": list(byes),
                "lines": lines,
                "at": at,
                "by": by,
            }
        )
        return self.rounds[-1]

    def enter_hand(
        self,
        table: int,
        hand: int,
        ns: LineScore,
        ew: LineScore,
        *,
        by: str,
        round: int | None = None,
        at: str = "",
    ) -> None:
        """A hand's score sheet, both lines, entered by one line's scorer (``by="NS"`` or ``"EW"``) — it counts
        once the other line confirms it — or by an online table (``by="online"``, counted at once)."""
        self.apply(
            {
                "type": "hand",
                "round": round or len(self.rounds),
                "table": table,
                "hand": hand,
                "ns": ns.to_json(),
                "ew": ew.to_json(),
                "by": by,
                "at": at,
            }
        )

    def confirm(self, table: int, hand: int, *, by: str, round: int | None = None, at: str = "") -> None:
        """The other line countersigns a hand's sheet."""
        self.apply(
            {
                "type": "confirm",
                "round": round or len(self.rounds),
                "table": table,
                "hand": hand,
                "by": by,
                "at": at,
            }
        )

    def correct(
        self,
        table: int,
        hand: int,
        ns: LineScore,
        ew: LineScore,
        *,
        by: str,
        reason: str,
        round: int | None = None,
        at: str = "",
    ) -> None:
        """The director's correction of a hand's sheet (kept with who made it and why; counts at once)."""
        self.apply(
            {
                "type": "correct",
                "round": round or len(self.rounds),
                "table": table,
                "hand": hand,
                "ns": ns.to_json(),
                "ew": ew.to_json(),
                "by": by,
                "reason": reason,
                "at": at,
            }
        )

    def timeout(self, *, at: str = "", by: str = "") -> None:
        """The director announces the time-out for every table of the running round (RULES.md §9.4)."""
        self.apply({"type": "timeout", "round": len(self.rounds), "at": at, "by": by})

    def finish_table(self, table: int, *, at: str = "", by: str = "") -> None:
        """After the time-out: a table's result is the hands it played (the hand in play ended by the time-out)."""
        self.apply({"type": "finish_table", "round": len(self.rounds), "table": table, "at": at, "by": by})

    def replace(self, table: int, seat: str, player: str, *, at: str = "", by: str = "") -> None:
        """A participant who did not come is replaced by a computer player at an online table (marked in the
        results)."""
        self.apply(
            {
                "type": "replace",
                "round": len(self.rounds),
                "table": table,
                "seat": seat,
                "player": player,
                "at": at,
                "by": by,
            }
        )

    def close_round(self, *, at: str = "", by: str = "") -> None:
        """End the running round: every table complete."""
        self.apply({"type": "close_round", "round": len(self.rounds), "at": at, "by": by})

    # ----- what everybody sees ----------------------------------------------------------------------------------
    @property
    def current(self) -> RoundState | None:
        """The round in play (started, not closed), or None."""
        return self.rounds[-1] if self.rounds and not self.rounds[-1].closed else None

    def active(self) -> list[Entrant]:
        return [e for e in self.entrants.values() if not e.withdrawn]

    def results(self, upto: int | None = None) -> list[Result]:
        """Every entrant's result of every round (to round ``upto``), complete tables and byes only."""
        out: list[Result] = []
        for rs in self.rounds[: upto if upto is not None else len(self.rounds)]:
            out += self._round_results(rs)
        return out

    def standings(self, upto: int | None = None) -> list[Standing]:
        """The standings after round ``upto`` (default: everything counted so far), with the tie-breaks of
        RULES.md §12.7: the ranking points (VP, or MP with ``ranking="mp"``), then head-to-head among the tied
        (their VP in the matches between them), then the MP difference, then VP (where MP rank), then lot."""
        res = self.results(upto)
        acc: dict[str, list[int]] = {
            e: [0, 0, 0, 0, 0] for e in self.entrants
        }  # vp, for, against, rounds, byes
        for r in res:
            a = acc[r.entrant]
            a[0] += r.vp
            a[1] += r.mp_for
            a[2] += r.mp_against
            a[3] += 1
            a[4] += r.line == "bye"
        by_vp = self.setup.ranking == "vp"

        def primary(e: str) -> int:
            return acc[e][0] if by_vp else acc[e][1] - acc[e][2]

        ids = sorted(self.entrants, key=lambda e: -primary(e))
        ordered: list[str] = []
        i = 0
        while i < len(ids):
            j = i
            while j < len(ids) and primary(ids[j]) == primary(ids[i]):
                j += 1
            group = ids[i:j]
            if len(group) > 1:
                h2h = self._head_to_head(group, res)
                group.sort(
                    key=lambda e: (
                        -h2h.get(e, 0),
                        -(acc[e][1] - acc[e][2]),
                        -acc[e][0],
                        _lot(self.setup.seed, e),
                    )
                )
            ordered += group
            i = j
        return [
            Standing(k + 1, self.entrants[e], acc[e][3], acc[e][0], acc[e][1], acc[e][2], acc[e][4])
            for k, e in enumerate(ordered)
        ]

    def history(self, entrant: str) -> list[Result]:
        """One entrant's results, round by round."""
        if entrant not in self.entrants:
            raise TournamentError(msg("te_no_entrant", entrant=str(entrant)))
        return [r for r in self.results() if r.entrant == entrant]

    def table_mp(self, rs: RoundState, table: int) -> tuple[int, int, int]:
        """(NS MP, EW MP, hands counted) of a table."""
        ns = ew = 0
        n = rs.hands_counted(table, self.setup.hands)
        for h in range(1, n + 1):
            s = rs.sheets[(table, h)]
            ns += s.ns.total(self.rules)
            ew += s.ew.total(self.rules)
        return ns, ew, n

    def deal_seed(self, round_no: int, table: int) -> int:
        """The seed a table's hands are dealt from: the same for every table of a round in a duplicate event
        (every table plays the same deals), else its own."""
        part = (round_no,) if self.setup.duplicate else (round_no, table)
        h = hashlib.blake2b(repr((self.setup.seed, "deal", part)).encode(), digest_size=8).digest()
        return int.from_bytes(h, "big") >> 1

    def deal_comparison(self, round_no: int) -> list[dict[str, Any]]:
        """In a duplicate event: per hand of the round, every table's NS and EW scores on that same deal and each
        NS line's score against the average of the NS lines (luck removed, as in duplicate bridge)."""
        if not self.setup.duplicate:
            raise TournamentError(msg("te_not_duplicate"))
        rs = self._round(round_no)
        out: list[dict[str, Any]] = []
        for h in range(1, self.setup.hands + 1):
            rows: list[dict[str, Any]] = []
            for t in rs.tables:
                s = rs.sheets.get((t.number, h))
                if s is not None and s.counts:
                    rows.append(
                        {
                            "table": t.number,
                            "ns": t.ns.entrant,
                            "ew": t.ew.entrant,
                            "ns_mp": s.ns.total(self.rules),
                            "ew_mp": s.ew.total(self.rules),
                        }
                    )
            if rows:
                avg = sum(r["ns_mp"] - r["ew_mp"] for r in rows) / len(rows)
                for r in rows:
                    r["ns_vs_field"] = round(r["ns_mp"] - r["ew_mp"] - avg, 1)
            out.append({"hand": h, "tables": rows})
        return out

    def who(self, member: tuple[str, int]) -> str:
        """A seat's player name."""
        e = self.entrants[member[0]]
        return e.people[member[1]].name

    # ----- internals ----------------------------------------------------------------------------------------------
    def _round(self, k: int) -> RoundState:
        if not 1 <= k <= len(self.rounds):
            raise TournamentError(msg("te_round_not_started", round=k, started=len(self.rounds)))
        return self.rounds[k - 1]

    def _order(self) -> list[str]:
        """The active entrants in standings order (registration order, or the seeded draw, before any result)."""
        active = {e.id for e in self.active() if e.first_round <= len(self.rounds) + 1}
        if not self.rounds:  # before any result: the registration order, or a seeded draw
            ids = [e for e in self.entrants if e in active]
            if self.setup.seeding == "random":
                ids.sort(key=lambda e: _lot(self.setup.seed, "seeding", e))
            return ids
        return [s.entrant.id for s in self.standings() if s.entrant.id in active]

    def _pair(self, k: int) -> tuple[list[Table], tuple[str, ...], dict[str, Any]]:
        if k > self.setup.rounds:
            raise TournamentError(msg("te_all_rounds_started", rounds=self.setup.rounds))
        if self.rounds and not self.rounds[-1].closed:
            raise TournamentError(msg("te_round_in_play", round=len(self.rounds)))
        movement = self.setup.movements[k - 1]
        order = self._order()
        kind = self.setup.kind
        need = 4 if kind == "individual" else 2
        if len(order) < need:
            raise TournamentError(msg("te_too_few_entrants", need=need, count=len(order)))
        byes_had: dict[str, int] = {}
        for r in self.results():
            if r.line == "bye":
                byes_had[r.entrant] = byes_had.get(r.entrant, 0) + 1
        lines: dict[str, Any] = {}
        if kind == "individual":
            partners, opponents = self._individual_history()
            tabs, byes = mv.individual(
                order, partners, opponents, byes_had=byes_had, seed=self.setup.seed, round_no=k
            )
            tables = [
                Table(i + 1, Line(((a, 0), (b, 0))), Line(((c, 0), (d, 0))))
                for i, ((a, b), (c, d)) in enumerate(tabs)
            ]
            return tables, byes, lines
        start = k
        while start > 1 and self.setup.movements[start - 2] == movement:
            start -= 1
        if movement == "mitchell":
            if start == k:
                ns, ew = mv.mitchell_lines(order)
            else:
                seg = self.rounds[start - 1].lines
                ns, ew = self._refill(list(seg["ns"]), list(seg["ew"]), order)
            lines = {"ns": ns, "ew": ew}
            p = mv.mitchell_from_lines(ns, ew, k - start, self.setup.mitchell_skip)
        elif movement in ("danish", "danish_modified"):
            prev = self._round(k - 1).tables if k > 1 else ()
            previous: dict[str, str] = {}
            for t in prev:
                previous[t.ns.entrant] = t.ew.entrant
                previous[t.ew.entrant] = t.ns.entrant
            p = mv.danish(order, previous, modified=movement == "danish_modified", byes_had=byes_had)
        elif movement == "round_robin":
            if start == k:
                rr = order
            else:
                rr = [e for e in self.rounds[start - 1].lines["order"] if e in order]
                rr += [e for e in order if e not in rr]
            lines = {"order": rr}
            p = mv.round_robin_groups(rr, k - start, self.setup.groups)
        else:  # pragma: no cover - the setup check refuses others
            raise TournamentError(msg("te_unknown_movement", movement=str(movement)))
        if kind == "pairs":
            tables = [
                Table(i + 1, Line(((a, 0), (a, 1))), Line(((b, 0), (b, 1))))
                for i, (a, b) in enumerate(p.tables)
            ]
            return tables, p.byes, lines
        return self._team_tables(k, p), p.byes, lines

    def _refill(self, ns: list[str], ew: list[str], order: Sequence[str]) -> tuple[list[str], list[str]]:
        """A running Mitchell segment's lines: withdrawn pairs leave an empty seat (a bye for whoever meets it),
        late entries take empty seats."""
        active = set(order)
        ns = [e if e in active else mv.PHANTOM for e in ns]
        ew = [e if e in active else mv.PHANTOM for e in ew]
        seated = set(ns) | set(ew)
        waiting = [e for e in order if e not in seated]
        for line in (ew, ns):
            for i, e in enumerate(line):
                if e == mv.PHANTOM and waiting:
                    line[i] = waiting.pop(0)
        if waiting:
            raise TournamentError(msg("te_no_mitchell_seat", names=", ".join(waiting)))
        return ns, ew

    def _team_tables(self, k: int, p: mv.Pairing) -> list[Table]:
        per = self.setup.pairs_per_match
        tables: list[Table] = []
        for m, (a, b) in enumerate(p.tables, 1):
            la, lb = self._lineup(k, a), self._lineup(k, b)
            for i in range(per):
                ta, tb = Line(tuple((a, x) for x in la[i])), Line(tuple((b, x) for x in lb[i]))
                ns, ew = (ta, tb) if i % 2 == 0 else (tb, ta)
                tables.append(Table(len(tables) + 1, ns, ew, match=m))
        return tables

    def lineup_of(self, team: str, k: int | None = None) -> list[tuple[int, int]]:
        """A team's pairs in round ``k`` (default: the next round), people by their index in the team: the
        line-up given for that round, else the registration order two by two."""
        return self._lineup(len(self.rounds) + 1 if k is None else k, team)

    def _lineup(self, k: int, team: str) -> list[tuple[int, int]]:
        for e in reversed(self.log):
            if e["type"] == "lineup" and e["team"] == team and e["round"] == k:
                return [(int(x), int(y)) for x, y in e["pairs"]]
        n = len(self.entrants[team].people)
        return [(2 * i, 2 * i + 1) for i in range(n // 2)][: self.setup.pairs_per_match]

    def _individual_history(self) -> tuple[dict[frozenset[str], int], dict[frozenset[str], int]]:
        """How often each two players have partnered, and met as opponents, in the rounds started."""
        partners: dict[frozenset[str], int] = {}
        opponents: dict[frozenset[str], int] = {}
        for rs in self.rounds:
            for t in rs.tables:
                for line in (t.ns, t.ew):
                    key = frozenset(line.entrants)
                    partners[key] = partners.get(key, 0) + 1
                for x in t.ns.entrants:
                    for y in t.ew.entrants:
                        key = frozenset((x, y))
                        opponents[key] = opponents.get(key, 0) + 1
        return partners, opponents

    def _round_results(self, rs: RoundState) -> list[Result]:
        out: list[Result] = []
        hands = self.setup.hands
        per_match: dict[int, list[Table]] = {}
        for t in rs.tables:
            per_match.setdefault(t.match, []).append(t)
        team = self.setup.kind == "teams"
        for m, tabs in per_match.items():
            if not all(rs.complete(t.number, hands) for t in tabs):
                continue
            if team and m:
                mp: dict[str, int] = {}
                for t in tabs:
                    ns, ew, _ = self.table_mp(rs, t.number)
                    mp[t.ns.entrant] = mp.get(t.ns.entrant, 0) + ns
                    mp[t.ew.entrant] = mp.get(t.ew.entrant, 0) + ew
                a, b = list(mp)
                rows = self.setup.team_vp_table
                if rows:
                    va, vb = match_vp(rows, mp[a], mp[b])
                else:  # the pairs' table on the difference per table (docs/tournaments.md)
                    d = abs(mp[a] - mp[b]) // len(tabs) // 5 * 5
                    w, lo = vp(self.vp_rows, d)
                    va, vb = (w, lo) if mp[a] >= mp[b] else (lo, w)
                first = tabs[0]
                out.append(
                    Result(
                        rs.number,
                        a,
                        (b,),
                        "NS" if first.ns.entrant == a else "EW",
                        first.number,
                        mp[a],
                        mp[b],
                        va,
                        True,
                    )
                )
                out.append(
                    Result(
                        rs.number,
                        b,
                        (a,),
                        "NS" if first.ns.entrant == b else "EW",
                        first.number,
                        mp[b],
                        mp[a],
                        vb,
                        True,
                    )
                )
                continue
            for t in tabs:
                ns, ew, _ = self.table_mp(rs, t.number)
                vns, vew = match_vp(self.vp_rows, ns, ew)
                for line, other, got, lost, v in ((t.ns, t.ew, ns, ew, vns), (t.ew, t.ns, ew, ns, vew)):
                    for e in line.entrants:
                        name = "NS" if line is t.ns else "EW"
                        out.append(Result(rs.number, e, other.entrants, name, t.number, got, lost, v, True))
        for b in rs.byes:
            out.append(Result(rs.number, b, (), "bye", 0, self.setup.bye_mp, 0, self.setup.bye_vp, True))
        return out

    def _head_to_head(self, group: Sequence[str], res: Sequence[Result]) -> dict[str, int]:
        members = set(group)
        out: dict[str, int] = {}
        for r in res:
            if r.entrant in members and r.opponents and all(o in members for o in r.opponents):
                out[r.entrant] = out.get(r.entrant, 0) + r.vp
        return out


# ----------------------------------------------------------------------------------------------------------------
# entry handlers: each checks one entry and changes the derived state
# ----------------------------------------------------------------------------------------------------------------
def _h_register(ev: Event, e: dict[str, Any]) -> None:
    name = str(e.get("name", "")).strip()
    if not name:
        raise TournamentError(msg("te_entrant_name"))
    people = tuple(_person(p) for p in e.get("people", []))
    kind = ev.setup.kind
    n = len(people)
    if kind == "pairs" and n != 2:
        raise TournamentError(msg("te_pair_size", n=n))
    if kind == "individual" and n != 1:
        raise TournamentError(msg("te_individual_size", n=n))
    if kind == "teams" and (n % 2 or not 4 <= n <= 8 or n // 2 < ev.setup.pairs_per_match):
        raise TournamentError(msg("te_team_size", least=2 * ev.setup.pairs_per_match, n=n))
    if any(not p.name.strip() for p in people):
        raise TournamentError(msg("te_player_name"))
    if any(x.name.casefold() == name.casefold() and not x.withdrawn for x in ev.entrants.values()):
        raise TournamentError(msg("te_registered", name=str(name)))
    taken = {p.name.casefold() for x in ev.entrants.values() if not x.withdrawn for p in x.people}
    dup = [p.name for p in people if p.name.casefold() in taken]
    if dup or len({p.name.casefold() for p in people}) < n:
        raise TournamentError(msg("te_player_registered", names=", ".join(dup)))
    if ev.current is not None:
        raise TournamentError(msg("te_late_entry"))
    eid = str(len(ev.entrants) + 1)
    ev.entrants[eid] = Entrant(eid, name, people, first_round=len(ev.rounds) + 1)


def _h_withdraw(ev: Event, e: dict[str, Any]) -> None:
    x = _entrant(ev, e)
    if x.withdrawn:
        raise TournamentError(msg("te_withdrawn", name=x.label))
    if ev.current is not None:
        raise TournamentError(msg("te_withdraw_in_play"))
    ev.entrants[x.id] = Entrant(x.id, x.name, x.people, True, x.first_round)


def _h_lineup(ev: Event, e: dict[str, Any]) -> None:
    if ev.setup.kind != "teams":
        raise TournamentError(msg("te_lineup_teams"))
    x = _entrant(ev, {"entrant": e.get("team")})
    if int(e["round"]) != len(ev.rounds) + 1 or ev.current is not None:
        raise TournamentError(msg("te_lineup_when"))
    pairs = [tuple(int(i) for i in p) for p in e["pairs"]]
    used = [i for p in pairs for i in p]
    if len(pairs) != ev.setup.pairs_per_match or any(len(p) != 2 for p in pairs):
        raise TournamentError(msg("te_lineup_pairs", n=ev.setup.pairs_per_match))
    if len(set(used)) != len(used) or not all(0 <= i < len(x.people) for i in used):
        raise TournamentError(msg("te_lineup_once", n=len(x.people)))


def _h_start_round(ev: Event, e: dict[str, Any]) -> None:
    k = int(e["round"])
    if k != len(ev.rounds) + 1:
        raise TournamentError(msg("te_next_round", next=len(ev.rounds) + 1, round=k))
    tables, byes, lines = ev._pair(k)  # the movement again: a recorded pairing must be the one it gives
    got = [Table.from_json(t) for t in e["tables"]]
    if [t.to_json() for t in got] != [t.to_json() for t in tables] or list(e.get("byes", [])) != list(byes):
        raise TournamentError(msg("te_pairing_differs", round=k))
    ev.rounds.append(
        RoundState(k, ev.setup.movements[k - 1], tuple(tables), tuple(byes), str(e.get("at", "")), lines)
    )


def _running(ev: Event, e: dict[str, Any]) -> RoundState:
    rs = ev._round(int(e["round"]))
    if rs.closed:
        raise TournamentError(msg("te_round_closed", round=rs.number))
    return rs


def _sheet_args(ev: Event, rs: RoundState, e: dict[str, Any]) -> tuple[int, int]:
    t = rs.table(int(e["table"])).number
    h = int(e["hand"])
    if not 1 <= h <= ev.setup.hands:
        raise TournamentError(msg("te_hand_number", hands=ev.setup.hands, hand=h))
    if t in rs.finished:
        raise TournamentError(msg("te_table_finished", table=t))
    if h > 1 and (t, h - 1) not in rs.sheets:
        raise TournamentError(msg("te_hand_order", prev=h - 1, table=t, hand=h))
    return t, h


def _h_hand(ev: Event, e: dict[str, Any]) -> None:
    rs = _running(ev, e)
    t, h = _sheet_args(ev, rs, e)
    by = str(e.get("by", ""))
    if by not in ("NS", "EW", "online") and not by.startswith("director"):
        raise TournamentError(msg("te_sheet_by"))
    ns, ew = LineScore.from_json(e["ns"]), LineScore.from_json(e["ew"])
    check_hand(ev.rules, ns, ew)
    old = rs.sheets.get((t, h))
    if old is not None and old.counts:
        raise TournamentError(msg("te_countersigned_ask", hand=h, table=t))
    rs.sheets[(t, h)] = HandSheet(ns, ew, by, confirmed_by=by if by.startswith("director") else None)


def _h_confirm(ev: Event, e: dict[str, Any]) -> None:
    rs = _running(ev, e)
    t, h = rs.table(int(e["table"])).number, int(e["hand"])
    s = rs.sheets.get((t, h))
    if s is None:
        raise TournamentError(msg("te_not_entered", hand=h, table=t))
    by = str(e.get("by", ""))
    if by not in LINES and not by.startswith("director"):
        raise TournamentError(msg("te_confirm_by"))
    if by == s.entered_by:
        raise TournamentError(msg("te_other_line", by=by))
    if s.counts:
        raise TournamentError(msg("te_countersigned", hand=h, table=t))
    s.confirmed_by = by


def _h_correct(ev: Event, e: dict[str, Any]) -> None:
    rs = ev._round(int(e["round"]))
    t, h = rs.table(int(e["table"])).number, int(e["hand"])
    by = str(e.get("by", ""))
    if not by.startswith("director"):
        raise TournamentError(msg("te_director_corrects"))
    reason = str(e.get("reason", "")).strip()
    if not reason:
        raise TournamentError(msg("te_correction_why"))
    if not 1 <= h <= ev.setup.hands:
        raise TournamentError(msg("te_hand_number", hands=ev.setup.hands, hand=h))
    ns, ew = LineScore.from_json(e["ns"]), LineScore.from_json(e["ew"])
    check_hand(ev.rules, ns, ew)
    old = rs.sheets.get((t, h))
    fixes = [*old.corrected_by, (by, reason)] if old is not None else [(by, reason)]
    rs.sheets[(t, h)] = HandSheet(
        ns, ew, old.entered_by if old else by, old.confirmed_by if old else None, fixes
    )


def _h_timeout(ev: Event, e: dict[str, Any]) -> None:
    rs = _running(ev, e)
    if rs.timeout_at is not None:
        raise TournamentError(msg("te_timeout_again", round=rs.number))
    rs.timeout_at = str(e.get("at", ""))


def _h_finish_table(ev: Event, e: dict[str, Any]) -> None:
    rs = _running(ev, e)
    t = rs.table(int(e["table"])).number
    if rs.timeout_at is None:
        raise TournamentError(msg("te_finish_early", table=t, hands=ev.setup.hands))
    n = rs.hands_counted(t, ev.setup.hands)
    if (t, n + 1) in rs.sheets:
        raise TournamentError(msg("te_waits_confirm", hand=n + 1, table=t))
    rs.finished.add(t)


def _h_replace(ev: Event, e: dict[str, Any]) -> None:
    rs = _running(ev, e)
    t = rs.table(int(e["table"])).number
    seat = str(e["seat"])
    if seat not in ("N", "E", "S", "W"):
        raise TournamentError(msg("te_seat"))
    rs.replaced[(t, seat)] = str(e["player"])


def _h_close_round(ev: Event, e: dict[str, Any]) -> None:
    rs = _running(ev, e)
    missing = [t.number for t in rs.tables if not rs.complete(t.number, ev.setup.hands)]
    if missing:
        raise TournamentError(msg("te_cannot_close", round=rs.number, tables=", ".join(map(str, missing))))
    rs.closed = True


_HANDLERS = {
    "register": _h_register,
    "withdraw": _h_withdraw,
    "lineup": _h_lineup,
    "start_round": _h_start_round,
    "hand": _h_hand,
    "confirm": _h_confirm,
    "correct": _h_correct,
    "timeout": _h_timeout,
    "finish_table": _h_finish_table,
    "replace": _h_replace,
    "close_round": _h_close_round,
}


# ----------------------------------------------------------------------------------------------------------------
# helpers
# ----------------------------------------------------------------------------------------------------------------
def _check_setup(s: Setup) -> None:
    if not s.name.strip():
        raise TournamentError(msg("te_event_name"))
    if s.kind not in KINDS:
        raise TournamentError(msg("te_kind", kind=str(s.kind)))
    if s.hands not in (2, 3, 4, 5):
        raise TournamentError(msg("te_hands", hands=s.hands))
    if s.minutes is not None and s.minutes < 1:
        raise TournamentError(msg("te_minutes"))
    if s.rounds < 1:
        raise TournamentError(msg("te_rounds"))
    if len(s.movements) != s.rounds:
        raise TournamentError(msg("te_movements_count", rounds=s.rounds, count=len(s.movements)))
    bad = [m for m in s.movements if m not in MOVEMENTS]
    if bad:
        raise TournamentError(msg("te_unknown_movement_of", movement=str(bad[0]), movements=", ".join(MOVEMENTS)))
    if s.kind == "individual" and any(m != "individual" for m in s.movements):
        raise TournamentError(msg("te_individual_movement"))
    if s.kind != "individual" and "individual" in s.movements:
        raise TournamentError(msg("te_individual_only"))
    if s.ranking not in ("vp", "mp"):
        raise TournamentError(msg("te_ranking"))
    if s.seeding not in ("registration", "random"):
        raise TournamentError(msg("te_seeding"))
    if s.groups < 1:
        raise TournamentError(msg("te_groups"))
    if s.kind == "teams" and not 1 <= s.pairs_per_match <= 4:
        raise TournamentError(msg("te_pairs_per_match"))
    try:
        r = s.match_rules()
    except RulesError as e:
        raise TournamentError(msg("te_rules", error=str(e))) from e
    if r.players != 4:
        raise TournamentError(msg("te_four"))
    if not s.vp_table and r.vp_table_rows() is None:
        raise TournamentError(msg("te_no_vp_table", hands=s.hands))
    if s.vp_table:
        parse_vp_table({"rows": [{"max_diff": b, "winner": w, "loser": lo} for b, w, lo in s.vp_table]})


def _vp_arg(v: Any, what: str) -> VPRows:
    if v is None or v == ():
        return ()
    if isinstance(v, str) and not v.lstrip().startswith("{"):
        try:
            return tuple(rules_mod.load_vp_table(v))
        except RulesError as e:
            raise TournamentError(msg("te_vp_rules", what=what, error=str(e))) from e
    if isinstance(v, (list, tuple)) and all(isinstance(r, (list, tuple)) for r in v):
        v = {"rows": [{"max_diff": b, "winner": w, "loser": lo} for b, w, lo in v]}
    try:
        return parse_vp_table(v, what)
    except ScoreError as e:
        raise TournamentError(e.msg) from e


def _person(p: str | Person | Mapping[str, str]) -> Person:
    if isinstance(p, Person):
        return p
    if isinstance(p, str):
        return Person(p.strip())
    return Person(
        str(p.get("name", "")).strip(), str(p.get("club", "")).strip(), str(p.get("member", "")).strip()
    )


def _entrant(ev: Event, e: Mapping[str, Any]) -> Entrant:
    eid = str(e.get("entrant"))
    x = ev.entrants.get(eid)
    if x is None:
        raise TournamentError(msg("te_no_entrant_of", entrant=str(eid), count=len(ev.entrants)))
    return x


def _lot(seed: int, *parts: object) -> int:
    h = hashlib.blake2b(repr((seed, "lot", parts)).encode(), digest_size=8).digest()
    return int.from_bytes(h, "big")


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
            k: HandSheet(s.ns, s.ew, s.entered_by, s.confirmed_by, list(s.corrected_by))
            for k, s in r.sheets.items()
        },
        set(r.finished),
        dict(r.replaced),
        r.closed,
    )


__all__ = [
    "Entrant",
    "Event",
    "HandSheet",
    "KINDS",
    "Line",
    "MOVEMENTS",
    "Person",
    "Result",
    "RoundState",
    "Setup",
    "Standing",
    "Table",
    "TournamentError",
]

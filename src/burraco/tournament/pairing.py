"""The pairing of an event's rounds: the entrants in standings order, seated by the round's movement
(:mod:`burraco.tournament.movements`: Mitchell segments that late entries and withdrawals refill, Danish, round
robin, the rotation of an individual event, a team event's matches from the teams' line-ups), and the next round's
seating where the movement fixes it in advance.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..messages import msg
from . import movements as mv
from .rounds import Line, Table
from .setup import TournamentError, _lot
from .standings import _Standings


class _Pairing(_Standings):
    """The pairing and seating of :class:`~burraco.tournament.event.Event`'s rounds, from its standings and its
    log."""

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

    def next_seating(self, k: int) -> dict[str, tuple[int, str]] | None:
        """Where each entrant of round ``k`` sits in round ``k + 1`` when the movement fixes it in advance (the
        same Mitchell segment, or round robin), as ``{entrant: (table, "NS"|"EW")}`` (a bye: table 0) — for the
        table cards, assuming nobody withdraws or joins between the rounds; None when the next round is paired
        from the standings (Danish), or when round ``k`` is the last."""
        if not 1 <= k < self.setup.rounds or k > len(self.rounds) or self.setup.kind != "pairs":
            return None
        movement = self.setup.movements[k - 1]
        if self.setup.movements[k] != movement or movement not in ("mitchell", "round_robin"):
            return None
        start = k
        while start > 1 and self.setup.movements[start - 2] == movement:
            start -= 1
        seg = self.rounds[start - 1].lines
        try:
            if movement == "mitchell":
                p = mv.mitchell_from_lines(list(seg["ns"]), list(seg["ew"]), k - start + 1, self.setup.mitchell_skip)
            else:
                p = mv.round_robin_groups(list(seg["order"]), k - start + 1, self.setup.groups)
        except mv.MovementError:
            return None
        out: dict[str, tuple[int, str]] = {}
        for i, (a, b) in enumerate(p.tables):
            out[a], out[b] = (i + 1, "NS"), (i + 1, "EW")
        for b in p.byes:
            out[b] = (0, "bye")
        return out

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


__all__: list[str] = []

"""The results of an event's rounds: one entrant's result of one round (:class:`Result`), scored from a table's
counted sheets by the event's VP table (a team match's tables together), from the director's adjusted score
(RULES.md §13) or for a bye; a duplicate round's tables compared on the same deals.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..messages import msg
from .rounds import RoundState, Table, _EventState
from .scoring import match_vp, vp
from .setup import TournamentError


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
    adjusted: bool = False  #: the director's adjusted score for a table that could not play (§13)

    @property
    def diff(self) -> int:
        return self.mp_for - self.mp_against



class _Results(_EventState):
    """The results of :class:`~burraco.tournament.event.Event`, recomputed from its rounds."""

    def results(self, upto: int | None = None) -> list[Result]:
        """Every entrant's result of every round (to round ``upto``), complete tables and byes only."""
        out: list[Result] = []
        for rs in self.rounds[: upto if upto is not None else len(self.rounds)]:
            out += self._round_results(rs)
        return out

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
            fixed = next((rs.adjusted[t.number] for t in tabs if t.number in rs.adjusted), None)
            if team and m:
                first = next((t for t in tabs if t.number in rs.adjusted), tabs[0])
                if fixed is not None:  # the director's adjusted score: the whole team match's
                    a, b = first.ns.entrant, first.ew.entrant
                    mp = {a: fixed["ns_for"], b: fixed["ew_for"]}
                    va, vb = fixed["ns_vp"], fixed["ew_vp"]
                else:
                    mp = {}
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
                adj = fixed is not None
                for x, y, v in ((a, b, va), (b, a, vb)):
                    side = "NS" if first.ns.entrant == x else "EW"
                    against = fixed[f"{side.lower()}_against"] if fixed is not None else mp[y]
                    out.append(Result(rs.number, x, (y,), side, first.number, mp[x], against, v, True, adj))
                continue
            for t in tabs:
                fix = rs.adjusted.get(t.number)
                if fix is not None:
                    figures = ((fix["ns_for"], fix["ns_against"], fix["ns_vp"]),
                               (fix["ew_for"], fix["ew_against"], fix["ew_vp"]))
                else:
                    ns, ew, _ = self.table_mp(rs, t.number)
                    vns, vew = match_vp(self.vp_rows, ns, ew)
                    figures = ((ns, ew, vns), (ew, ns, vew))
                for line, other, (got, lost, v) in ((t.ns, t.ew, figures[0]), (t.ew, t.ns, figures[1])):
                    for e in line.entrants:
                        name = "NS" if line is t.ns else "EW"
                        out.append(Result(rs.number, e, other.entrants, name, t.number, got, lost, v, True,
                                          fix is not None))
        for b in rs.byes:
            out.append(Result(rs.number, b, (), "bye", 0, self.setup.bye_mp, 0, self.setup.bye_vp, True))
        return out

    def adjusted_figures(self, e: Mapping[str, Any]) -> dict[str, int]:
        """An ``adjust`` entry's figures for both lines: the director's, or the event's convention."""
        if e.get("convention"):
            if self.setup.adjusted == "bye":
                f, v = self.setup.bye_mp, self.setup.bye_vp
                return {"ns_vp": v, "ew_vp": v, "ns_for": f, "ns_against": 0, "ew_for": f, "ew_against": 0}
            draw = self.vp_rows[0][1]
            return {"ns_vp": draw, "ew_vp": draw, "ns_for": 0, "ns_against": 0, "ew_for": 0, "ew_against": 0}
        out: dict[str, int] = {}
        most = max(w for _, w, _ in self.vp_rows)
        for ln in ("ns", "ew"):
            d = e.get(ln)
            if not isinstance(d, Mapping) or set(d) != {"vp", "mp"}:
                raise TournamentError(msg("te_adjust_fields"))
            v, m = d["vp"], d["mp"]
            if not all(isinstance(x, int) and not isinstance(x, bool) for x in (v, m)):
                raise TournamentError(msg("te_adjust_fields"))
            if not 0 <= v <= most:
                raise TournamentError(msg("te_adjust_vp", vp=v, most=most))
            if m % 5:
                raise TournamentError(msg("te_multiple_5", line=msg(f"t_{ln}"), field=msg("t_mp"), value=m))
            out[f"{ln}_vp"], out[f"{ln}_for"] = v, m
        out["ns_against"], out["ew_against"] = out["ew_for"], out["ns_for"]
        return out


__all__ = ["Result"]

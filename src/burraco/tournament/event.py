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
from typing import Any

from ..messages import msg
from ..rules import RulesError
from . import movements as mv
from .pairing import _Pairing
from .results import Result
from .rounds import LINES, HandSheet, Line, RoundState, Table, _copy_round
from .scoring import LineScore, ScoreError, VPRows, check_hand, vp_rows
from .setup import (
    ADJUSTED,
    KINDS,
    MAX_ROUNDS,
    MOVEMENTS,
    Entrant,
    Person,
    Setup,
    TournamentError,
    _check_setup,
    _person,
    _vp_arg,
    default_movements,
    parse_prizes,
)
from .standings import TIE_STEPS, Standing

FORMAT = "burraco-event/1"


# ----------------------------------------------------------------------------------------------------------------
# the event
# ----------------------------------------------------------------------------------------------------------------
class Event(_Pairing):
    """A tournament: :attr:`setup` and the :attr:`log`; every other attribute is derived by replaying the log.
    What it derives lives in modules of its own: the results (:mod:`burraco.tournament.results`), the standings
    and prizes (:mod:`burraco.tournament.standings`) and the pairing of the rounds
    (:mod:`burraco.tournament.pairing`)."""

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
        rounds = kw.get("rounds", Setup.rounds)
        if not isinstance(rounds, int) or isinstance(rounds, bool) or not 1 <= rounds <= MAX_ROUNDS:
            raise TournamentError(msg("te_rounds_bound", most=MAX_ROUNDS, rounds=str(rounds)))
        kind = kw.get("kind", "pairs")
        if movements is None:
            mvs = default_movements(rounds, kind)
        else:
            if isinstance(movements, str):
                movements = [m.strip() for m in movements.split(",") if m.strip()]
            mvs = tuple(movements)
            if len(mvs) == 1:
                mvs = mvs * rounds
        if "prizes" in kw:
            kw["prizes"] = parse_prizes(kw["prizes"])
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
        """Check one entry against the event as it stands and append it, or raise
        :class:`~burraco.tournament.setup.TournamentError` and leave the event unchanged."""
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

    def check(self, entry: Mapping[str, Any]) -> None:
        """Check an entry exactly as :meth:`apply` would, without making it: raises
        :class:`~burraco.tournament.setup.TournamentError` with the reason, or returns (a form checks a sheet as it
        is typed)."""
        snapshot = (dict(self.entrants), len(self.rounds), [_copy_round(r) for r in self.rounds], len(self.log))
        try:
            self.apply(entry)
        finally:
            self.entrants, n, rounds, k = snapshot
            self.rounds = rounds[:n]
            del self.log[k:]

    # ----- what a director does (each is one entry) ------------------------------------------------------------
    def register(
        self,
        name: str,
        people: Sequence[str | Person | Mapping[str, str]],
        *,
        at: str = "",
        by: str = "",
        categories: Sequence[str] = (),
    ) -> Entrant:
        """Register a pair (two players), a team (two to four pairs) or, in an individual event, one player; a
        late entry when rounds have been played (it plays from the next round). ``categories``: the prize
        categories it competes in besides the overall ranking (:attr:`~burraco.tournament.setup.Setup.prizes`)."""
        ps = [_person(p) for p in people]
        e: dict[str, Any] = {"type": "register", "name": name, "people": [p.to_json() for p in ps], "at": at, "by": by}
        if categories:
            e["categories"] = list(categories)
        self.apply(e)
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
        timeout: bool = False,
    ) -> None:
        """A hand's score sheet, both lines, entered by one line's scorer (``by="NS"`` or ``"EW"``) — it counts
        once the other line confirms it —, by an online table (``by="online"``) or by the director
        (``by="director…"``), both counted at once. ``timeout``: the time-out was announced during this hand, so
        the table's match ends with it and no later hand is entered (RULES.md §0.1)."""
        entry = self._sheet_entry("hand", round, table, hand, ns, ew, by, at)
        if timeout:
            entry["timeout"] = True
        self.apply(entry)

    def _sheet_entry(
        self, kind: str, round: int | None, table: int, hand: int, ns: LineScore, ew: LineScore, by: str, at: str
    ) -> dict[str, Any]:
        """A ``hand`` or ``correct`` entry's common fields (the round: by default the latest started)."""
        return {"type": kind, "round": round or len(self.rounds), "table": table, "hand": hand, "ns": ns.to_json(),
                "ew": ew.to_json(), "by": by, "at": at}

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
        timeout: bool | None = None,
    ) -> None:
        """The director's correction of a hand's sheet (kept with who made it and why; counts at once).
        ``timeout``: mark (or unmark) the hand as the hand of the time-out; None keeps the sheet's mark."""
        entry = self._sheet_entry("correct", round, table, hand, ns, ew, by, at)
        entry["reason"] = reason
        if timeout is not None:
            entry["timeout"] = timeout
        self.apply(entry)

    def timeout(self, *, at: str = "", by: str = "") -> None:
        """The director announces the time-out for every table of the running round (RULES.md §9.4)."""
        self.apply({"type": "timeout", "round": len(self.rounds), "at": at, "by": by})

    def finish_table(self, table: int, *, at: str = "", by: str = "") -> None:
        """After the time-out: a table's result is the hands it played. For a table that was between two hands
        when the time-out came (a table whose last hand is the hand of the time-out ends with that sheet)."""
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

    def penalty(
        self, entrant: str, *, reason: str, by: str, vp: int = 0, mp: int = 0, round: int | None = None,
        at: str = "",
    ) -> None:
        """The director's penalty (§13): ``vp`` victory points off the entrant's total, ``mp`` match points off
        the MP it scored (so off its MP difference); the opponents' scores are unchanged. Given in a round
        (default: the latest started), shown on the standings from that round on."""
        self.apply({"type": "penalty", "round": round or len(self.rounds), "entrant": entrant, "vp": vp, "mp": mp,
                    "reason": reason, "by": by, "at": at})

    def adjust(
        self,
        table: int,
        *,
        reason: str,
        by: str,
        ns: tuple[int, int] | None = None,
        ew: tuple[int, int] | None = None,
        round: int | None = None,
        at: str = "",
    ) -> None:
        """The director's adjusted score for a table that could not play (§13): ``ns`` and ``ew`` as (VP, MP
        scored), or neither for the event's convention (:attr:`~burraco.tournament.setup.Setup.adjusted`). It replaces the table's result
        (its sheets stay in the log), shown as adjusted; in a team event, its whole team match's."""
        e: dict[str, Any] = {"type": "adjust", "round": round or len(self.rounds), "table": table, "reason": reason,
                             "by": by, "at": at}
        if ns is None and ew is None:
            e["convention"] = True
        else:
            if ns is None or ew is None:
                raise TournamentError(msg("te_adjust_both"))
            e["ns"] = {"vp": ns[0], "mp": ns[1]}
            e["ew"] = {"vp": ew[0], "mp": ew[1]}
        self.apply(e)

    def draw_lots(self, order: Sequence[str], *, by: str, round: int | None = None, at: str = "") -> None:
        """Record the director's draw by lot for entrants still level after every other step of the standings
        after round ``round`` (default: the latest started): ``order`` is the drawn order (RULES.md §0.1)."""
        self.apply({"type": "lot", "round": len(self.rounds) if round is None else round,
                    "entrants": [str(x) for x in order], "by": by, "at": at})

    def close_round(self, *, at: str = "", by: str = "") -> None:
        """End the running round. Before the time-out every table must be complete; after it, closing ends every
        table with the hands it has counted, unless one still has a sheet waiting for its countersignature."""
        self.apply({"type": "close_round", "round": len(self.rounds), "at": at, "by": by})

    # ----- the deals --------------------------------------------------------------------------------------------
    def deal_seed(self, round_no: int, table: int) -> int:
        """The seed ``burraco tournament simulate`` deals a table's hands from (computer players only: a small,
        public seed): the same for every table of a round in a duplicate event (every table plays the same deals),
        else its own. Online tables deal people's cards from
        :attr:`~burraco.tournament.setup.Setup.deal_secret` instead."""
        part = (round_no,) if self.setup.duplicate else (round_no, table)
        h = hashlib.blake2b(repr((self.setup.seed, "deal", part)).encode(), digest_size=8).digest()
        return int.from_bytes(h, "big") >> 1


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
    cats = e.get("categories", [])
    if not isinstance(cats, list) or not all(isinstance(c, str) and c.strip() for c in cats):
        raise TournamentError(msg("te_categories"))
    ev.entrants[eid] = Entrant(eid, name, people, first_round=len(ev.rounds) + 1,
                               categories=tuple(dict.fromkeys(c.strip() for c in cats)))


def _h_withdraw(ev: Event, e: dict[str, Any]) -> None:
    x = _entrant(ev, e)
    if x.withdrawn:
        raise TournamentError(msg("te_withdrawn", name=x.label))
    if ev.current is not None:
        raise TournamentError(msg("te_withdraw_in_play"))
    ev.entrants[x.id] = Entrant(x.id, x.name, x.people, True, x.first_round, x.categories)


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
    _hand_in_order(rs, t, h)
    return t, h


def _hand_in_order(rs: RoundState, t: int, h: int) -> None:
    """Hands are entered in order, and none after the hand of the time-out (RULES.md §0.1)."""
    if h > 1 and (t, h - 1) not in rs.sheets:
        raise TournamentError(msg("te_hand_order", prev=h - 1, table=t, hand=h))
    last = rs.timeout_hand(t)
    if last is not None and h > last:
        raise TournamentError(msg("te_after_timeout_hand", table=t, last=last, hand=h))


def _timeout_flag(rs: RoundState, e: Mapping[str, Any], t: int, h: int, default: bool = False) -> bool:
    """An entry's ``timeout`` mark: a hand in which the time-out was announced, only once it has been."""
    flag = e.get("timeout", default)
    if not isinstance(flag, bool):
        raise TournamentError(msg("te_bool", field="timeout", value=repr(flag)))
    if flag and rs.timeout_at is None:
        raise TournamentError(msg("te_timeout_hand_early", table=t, hand=h, round=rs.number))
    return flag


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
    flag = _timeout_flag(rs, e, t, h)
    rs.sheets[(t, h)] = HandSheet(ns, ew, by, confirmed_by=by if by.startswith("director") else None,
                                  timeout=flag)


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
    if old is None:
        _hand_in_order(rs, t, h)
    flag = _timeout_flag(rs, e, t, h, old.timeout if old is not None else False)
    later = [k for (x, k) in rs.sheets if x == t and k > h]
    if flag and later:
        raise TournamentError(msg("te_after_timeout_hand", table=t, last=h, hand=max(later)))
    fixes = [*old.corrected_by, (by, reason)] if old is not None else [(by, reason)]
    rs.sheets[(t, h)] = HandSheet(
        ns, ew, old.entered_by if old else by, old.confirmed_by if old else None, fixes, flag
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
    if rs.complete(t, ev.setup.hands):
        raise TournamentError(msg("te_table_finished", table=t))
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


def _director_reason(e: Mapping[str, Any]) -> str:
    if not str(e.get("by", "")).startswith("director"):
        raise TournamentError(msg("te_director_only"))
    reason = str(e.get("reason", "")).strip()
    if not reason:
        raise TournamentError(msg("te_correction_why"))
    return reason


def _h_penalty(ev: Event, e: dict[str, Any]) -> None:
    _director_reason(e)
    ev._round(int(e["round"]))
    x = _entrant(ev, e)
    v, m = e.get("vp", 0), e.get("mp", 0)
    if not all(isinstance(y, int) and not isinstance(y, bool) and y >= 0 for y in (v, m)) or not (v or m):
        raise TournamentError(msg("te_penalty_figures"))
    if m % 5:
        raise TournamentError(msg("te_multiple_5", line=x.label, field=msg("t_mp"), value=m))


def _h_adjust(ev: Event, e: dict[str, Any]) -> None:
    reason = _director_reason(e)
    rs = ev._round(int(e["round"]))
    t = rs.table(int(e["table"])).number
    rs.adjusted[t] = {**ev.adjusted_figures(e), "reason": reason, "by": str(e["by"])}


def _h_lot(ev: Event, e: dict[str, Any]) -> None:
    if not str(e.get("by", "")).startswith("director"):
        raise TournamentError(msg("te_director_only"))
    k = int(e["round"])
    if not 0 <= k <= len(ev.rounds):
        raise TournamentError(msg("te_round_not_started", round=k, started=len(ev.rounds)))
    order = [str(x) for x in e.get("entrants", [])]
    level: dict[int, list[str]] = {}
    for st in ev.standings(k):
        if st.tie in ("lot", "lot_pending"):
            level.setdefault(st.rank if st.tie == "lot_pending" else -1, []).append(st.entrant.id)
    pending = [sorted(g) for r, g in level.items() if r >= 0]
    if sorted(order) not in pending or len(set(order)) != len(order):
        groups = "; ".join(", ".join(g) for g in pending) or "–"
        raise TournamentError(msg("te_lot_group", round=k, groups=groups))


def _h_close_round(ev: Event, e: dict[str, Any]) -> None:
    rs = _running(ev, e)
    hands = ev.setup.hands
    missing = [t.number for t in rs.tables if not rs.complete(t.number, hands)]
    if missing and rs.timeout_at is None:
        raise TournamentError(msg("te_cannot_close", round=rs.number, tables=", ".join(map(str, missing))))
    # after the time-out: every table ends with the hands it has counted, unless a sheet waits to be countersigned
    waiting = [t for t in missing if (t, rs.hands_counted(t, hands) + 1) in rs.sheets]
    if waiting:
        raise TournamentError(msg("te_close_waiting", round=rs.number, tables=", ".join(map(str, waiting))))
    rs.finished.update(missing)
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
    "penalty": _h_penalty,
    "adjust": _h_adjust,
    "lot": _h_lot,
}



def _entrant(ev: Event, e: Mapping[str, Any]) -> Entrant:
    eid = str(e.get("entrant"))
    x = ev.entrants.get(eid)
    if x is None:
        raise TournamentError(msg("te_no_entrant_of", entrant=str(eid), count=len(ev.entrants)))
    return x



__all__ = [
    "ADJUSTED",
    "FORMAT",
    "KINDS",
    "LINES",
    "MAX_ROUNDS",
    "MOVEMENTS",
    "TIE_STEPS",
    "Entrant",
    "Event",
    "HandSheet",
    "Line",
    "Person",
    "Result",
    "RoundState",
    "Setup",
    "Standing",
    "Table",
    "TournamentError",
    "default_movements",
    "parse_prizes",
]

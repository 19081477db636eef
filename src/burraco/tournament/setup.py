"""A tournament event's setup and its entrants: what the director chooses when creating the event (:class:`Setup`,
checked before the event is made), who plays (:class:`Person`, :class:`Entrant`), and :class:`TournamentError`,
the error of every entry an event refuses (:mod:`burraco.tournament.event`).
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .. import rules as rules_mod
from ..messages import MessageError, msg
from ..rules import Rules, RulesError
from .scoring import ScoreError, VPRows, parse_vp_table

KINDS = ("pairs", "teams", "individual")
MOVEMENTS = ("mitchell", "danish", "danish_modified", "round_robin", "individual")
#: the most rounds an event may have (a round robin of 41 entrants, or a season's evenings played as one event)
MAX_ROUNDS = 40
#: the conventions for a table that could not play (:attr:`Setup.adjusted`)
ADJUSTED = ("draw", "bye")


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
    movements: tuple[str, ...] = ("mitchell", "mitchell", "mitchell", "danish_modified")
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
    #: a table that could not play, without a figure from the director (§13): "draw" (each line the VP
    #: table's draw and 0 MP) or "bye" (each line scores a bye: bye_vp, bye_mp)
    adjusted: str = "draw"
    #: the prizes: (category, how many), "" for the overall ranking, e.g. (("", 3), ("ladies", 1)); each entrant
    #: wins one prize at most, in this order (:meth:`Event.prizes`)
    prizes: tuple[tuple[str, int], ...] = ()
    #: a duplicate event played online: the 256-bit secret (hex) every online table of a round deals its hands from
    #: (docs/fairness.md); committed when the event is created, revealed when it ends, never otherwise shown
    deal_secret: str = ""

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
        d["prizes"] = [list(p) for p in self.prizes]
        return d

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> Setup:
        kw = dict(d)
        kw["movements"] = tuple(kw.get("movements", ()))
        kw["vp_table"] = tuple(tuple(r) for r in kw.get("vp_table", ()))
        kw["team_vp_table"] = tuple(tuple(r) for r in kw.get("team_vp_table", ()))
        kw["prizes"] = tuple((str(c), int(n)) for c, n in kw.get("prizes", ()))
        unknown = set(kw) - set(cls.__dataclass_fields__)
        if unknown:
            raise TournamentError(msg("te_setup_fields", fields=", ".join(sorted(unknown))))
        return cls(**kw)


@dataclass(frozen=True)
class Person:
    """A player: name, and optionally club, membership number and the server account the player is linked to
    (docs/accounts.md "Tournament entrants"): ``account_id``, the account's id, is the link (it outlives a rename;
    set by the server's desk, which checks the account); ``account`` is its name as the account spelled it when it
    was linked (what is shown where the account is gone, or where no server holds accounts)."""

    name: str
    club: str = ""
    member: str = ""
    account: str = ""
    account_id: str = ""

    def to_json(self) -> dict[str, str]:
        """As a ``register`` entry stores it: ``account`` and ``account_id`` only where there is one (an entry
        without them reads as before, and an event's log without accounts is what it was before accounts)."""
        d = {"name": self.name, "club": self.club, "member": self.member}
        if self.account:
            d["account"] = self.account
        if self.account_id:
            d["account_id"] = self.account_id
        return d


@dataclass(frozen=True)
class Entrant:
    """A pair, a team (its players two by two: pairs 1-2, 3-4, …) or, in an individual event, one player."""

    id: str
    name: str
    people: tuple[Person, ...]
    withdrawn: bool = False
    first_round: int = 1  #: the first round it can play (a late entry: the round after its registration)
    categories: tuple[str, ...] = ()  #: its prize categories (ladies, juniors, …: :attr:`Setup.prizes`)

    @property
    def label(self) -> str:
        return f"{self.id}. {self.name}"


# ----------------------------------------------------------------------------------------------------------------
# the checks of a setup, and its arguments in other forms
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
    if not 1 <= s.rounds <= MAX_ROUNDS:
        raise TournamentError(msg("te_rounds_bound", most=MAX_ROUNDS, rounds=str(s.rounds)))
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
    if s.adjusted not in ADJUSTED:
        raise TournamentError(msg("te_adjusted_setting", adjusted=str(s.adjusted), choices=", ".join(ADJUSTED)))
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


def default_movements(rounds: int, kind: str = "pairs") -> tuple[str, ...]:
    """The movements of an event whose director named none (RULES.md §12.5, "4 rounds = 3 Mitchell + 1
    Danish"): up to three Mitchell rounds, and never all of them, then Danish rounds — modified, so nobody meets
    the previous round's opponent where that can be avoided; an individual event rotates partners every round.

    >>> default_movements(4), default_movements(2), default_movements(1)
    (('mitchell', 'mitchell', 'mitchell', 'danish_modified'), ('mitchell', 'danish_modified'), ('mitchell',))
    """
    if kind == "individual":
        return ("individual",) * rounds
    if rounds == 1:
        return ("mitchell",)
    m = min(3, rounds - 1)
    return ("mitchell",) * m + ("danish_modified",) * (rounds - m)


def parse_prizes(v: Any) -> tuple[tuple[str, int], ...]:
    """The prizes of an event: ``"3, ladies:1, juniors:1"`` (a bare number: the overall ranking's) or pairs
    ``[["", 3], ["ladies", 1]]``; each category once, each count at least 1."""
    items: list[tuple[str, Any]] = []
    if isinstance(v, str):
        for part in (x.strip() for x in v.split(",")):
            if part:
                cat, _, n = part.rpartition(":")
                items.append((cat.strip(), n.strip()))
    elif isinstance(v, (list, tuple)):
        for x in v:
            if not isinstance(x, (list, tuple)) or len(x) != 2:
                raise TournamentError(msg("te_prizes", value=repr(x)))
            items.append((str(x[0]).strip(), x[1]))
    else:
        raise TournamentError(msg("te_prizes", value=repr(v)))
    out: list[tuple[str, int]] = []
    for cat, n in items:
        try:
            k = int(n)
        except (TypeError, ValueError):
            raise TournamentError(msg("te_prizes", value=f"{cat}:{n}")) from None
        if k < 1 or any(c == cat for c, _ in out):
            raise TournamentError(msg("te_prizes", value=f"{cat}:{n}"))
        out.append((cat, k))
    return tuple(out)


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
        str(p.get("name", "")).strip(), str(p.get("club", "")).strip(), str(p.get("member", "")).strip(),
        str(p.get("account", "")).strip(), str(p.get("account_id", "")).strip(),
    )



def _lot(seed: int, *parts: object) -> int:
    h = hashlib.blake2b(repr((seed, "lot", parts)).encode(), digest_size=8).digest()
    return int.from_bytes(h, "big")



__all__ = [
    "ADJUSTED",
    "KINDS",
    "MAX_ROUNDS",
    "MOVEMENTS",
    "Entrant",
    "Person",
    "Setup",
    "TournamentError",
    "default_movements",
    "parse_prizes",
]

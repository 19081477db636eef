"""Profiles (docs/accounts.md "Your profile"): an account's settings — its name, language, preferred rules, club,
and whether its profile page is public — and the results of the games it played, for its page.

A private profile (every account's until its player makes it public) is shown to its player alone; a public one
to anyone, at ``/players/<name>``. The settings are in the ``accounts`` table (migration 0006).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa

from ..messages import LANGS, msg
from ..rules import PRESETS
from ..seats import seat_names
from .accounts import Account, AccountError, check_name, name_key
from .store import Store, accounts_t, events_t, seats_t

#: a club's name: at most 64 characters, letters, digits, spaces and ``_ - . ' & ( ) ,`` (empty: none)
CLUB = re.compile(r"[\w .'&(),-]{0,64}")


@dataclass(frozen=True)
class Profile:
    """An account's profile settings (None: not chosen)."""

    name: str
    language: str | None = None
    rules: str | None = None
    club: str | None = None
    public: bool = False


async def profile(store: Store, account_id: str) -> Profile | None:
    """The settings of the account ``account_id``, or None when there is no such account."""
    async with store.engine.connect() as conn:
        row = (await conn.execute(sa.select(accounts_t.c.name, accounts_t.c.language, accounts_t.c.rules,
                                            accounts_t.c.club, accounts_t.c.public)
                                  .where(accounts_t.c.id == account_id))).first()
    return None if row is None else Profile(row.name, row.language, row.rules, row.club, bool(row.public))


async def by_name(store: Store, name: str) -> tuple[Account, Profile] | None:
    """The person's account (never a bot's, never a disabled one) named ``name`` in any case, with its settings."""
    async with store.engine.connect() as conn:
        row = (await conn.execute(sa.select(accounts_t).where(
            accounts_t.c.name_key == name_key(name), accounts_t.c.owner.is_(None),
            accounts_t.c.disabled.is_(False)))).first()
    if row is None:
        return None
    return (Account(row.id, row.name, row.created, row.owner, bool(row.admin)),
            Profile(row.name, row.language, row.rules, row.club, bool(row.public)))


async def save(store: Store, account: Account, form: dict[str, str]) -> Profile:
    """Store the settings a profile form sends (``name``, ``language``, ``rules``, ``club``, ``public``: ``on``
    when ticked); each is checked first, and nothing is stored when one is refused. A new name must be free (in
    any case); the games played before keep the name their seats had then."""
    name = check_name(form.get("name", account.name))
    language = form.get("language", "") or None
    if language is not None and language not in LANGS:
        raise AccountError("bad_profile", msg("acc_e_language", language=str(language), langs=", ".join(LANGS)))
    rules = form.get("rules", "") or None
    if rules is not None and rules not in PRESETS:
        raise AccountError("bad_profile", msg("acc_e_rules", rules=str(rules), presets=", ".join(PRESETS)))
    club = " ".join(form.get("club", "").split()) or None
    if club is not None and not CLUB.fullmatch(club):
        raise AccountError("bad_profile", msg("acc_e_club"))
    public = form.get("public", "") == "on"
    try:
        async with store.engine.begin() as conn:
            await conn.execute(accounts_t.update().where(accounts_t.c.id == account.id).values(
                name=name, name_key=name_key(name), language=language, rules=rules, club=club, public=public))
    except sa.exc.IntegrityError:
        raise AccountError("name_taken", msg("acc_e_name_taken", name=name),
                           409) from None
    return Profile(name, language, rules, club, public)


async def results(store: Store, games: list[dict[str, Any]]) -> dict[tuple[str, int], dict[str, Any]]:
    """The result of every finished game at the tables of ``games`` (:meth:`Accounts.games`) for the seat the
    account had there, by (table, game number): ``result`` (``won``, ``lost``, ``drawn``), the ``totals`` of
    the game's end (scorer -> match total) and the account's scorer (its side, or its seat with 3 and 5
    players)."""
    seat_of = {g["table"]: int(g["seat"]) for g in games}
    if not seat_of:
        return {}
    async with store.engine.connect() as conn:
        ends = (await conn.execute(sa.select(events_t.c.table_id, events_t.c.data).where(
            events_t.c.table_id.in_(list(seat_of)), events_t.c.kind == "game_end"))).all()
        counts: dict[str, int] = dict((await conn.execute(sa.select(seats_t.c.table_id, sa.func.count()).where(
            seats_t.c.table_id.in_(list(seat_of))).group_by(seats_t.c.table_id))).all())
    out: dict[tuple[str, int], dict[str, Any]] = {}
    for table_id, data in ends:
        d = dict(data)
        summary = d.get("summary") or {}
        totals = summary.get("totals") or {}
        letter = seat_names(int(counts.get(table_id, 0)))[seat_of[table_id]]
        mine = next((k for k in totals if letter in k), None)
        winner = summary.get("winner")
        result = "drawn" if winner is None else "won" if winner == mine else "lost"
        out[(table_id, int(d.get("game_no", 0)))] = {"result": result, "totals": totals, "side": mine}
    return out


__all__ = ["CLUB", "Profile", "by_name", "profile", "results", "save"]

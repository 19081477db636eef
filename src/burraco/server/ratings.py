"""Ratings of accounts (docs/accounts.md "Ratings"): openskill's Plackett-Luce model, one pool per rule family and
format; a rated table's finished game moves the ratings of the accounts that played it.

* **Pools**: the family (``italian``: every Italian and international preset; ``brazilian``: the Brazilian ones)
  and the format: ``1v1`` (2 players), ``2v2`` (4), ``3`` and ``5`` (every player keeps his own match total, his
  half of a pair's hands included: each is his own team), ``3x2`` (6 players, three pairs).
* **Ranks**: by the match totals of the game's ``game_end`` (ties share a rank). A side with a seat whose player
  left the rated game, or stayed away past the grace time (the take-over computer played on for the partner), is
  ranked last, below every side that played it out, whatever its total.
* **Computer players** have the fixed ratings of :data:`COMPUTER` (published in docs/accounts.md): they are
  rated against, never moved, and the game is marked ``vs_computer`` in each account's history.
* A game is rated once (``rated_games``), in one transaction with every rating it moves and their history.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any
from urllib.parse import quote

import sqlalchemy as sa
from openskill.models import PlackettLuce

from ..rules import Rules
from .store import Store, accounts_t, rated_games_t, rating_history_t, ratings_t

#: the fixed ratings (mu, sigma) of the computer players by level, on openskill's default scale (a new account
#: starts at mu 25, sigma 25/3). Set by hand as anchors below and above a new player, not measured against people
COMPUTER: dict[str, tuple[float, float]] = {
    "random": (10.0, 1.0),
    "heuristic:easy": (20.0, 1.0),
    "heuristic:medium": (25.0, 1.0),
    "heuristic:hard": (30.0, 1.0),
    "ismcts:0.5s": (32.0, 1.0),
}
#: the rating of a computer level not in :data:`COMPUTER`
COMPUTER_DEFAULT = (25.0, 1.0)

#: the suffix of the pools of the games a bot account played (bots are rated apart from people)
BOTS = "-bots"
_FORMATS = {2: "1v1", 3: "3", 4: "2v2", 5: "5", 6: "3x2"}


def pool_of(rules: Rules) -> str:
    """The pool a table's rules are rated in: ``<family>-<format>``."""
    family = "brazilian" if rules.name.startswith("brazilian") else "italian"
    return f"{family}-{_FORMATS[rules.players]}"


def pools() -> list[str]:
    """Every pool: per family and format, and its twin for the games a bot account played (``-bots``)."""
    return [f"{f}-{x}{b}" for f in ("italian", "brazilian") for x in _FORMATS.values() for b in ("", BOTS)]


def ordinal(mu: float, sigma: float) -> float:
    """What a leaderboard sorts by: mu - 3 sigma (openskill's ``ordinal``)."""
    return mu - 3.0 * sigma


@dataclass(frozen=True)
class Player:
    """One seat of a rated game: an account (``account`` set) or a computer player (``level``)."""

    seat: int
    account: str | None
    level: str


def ranks_of(totals: list[int], forfeited: list[bool]) -> list[int]:
    """Openskill's ranks (1 the best; ties share one) of sides with these match totals; a forfeited side is
    ranked below every other."""
    out = []
    playing = sum(1 for f in forfeited if not f)
    for i, t in enumerate(totals):
        if forfeited[i]:
            out.append(playing + 1)
        else:
            out.append(1 + sum(1 for j, u in enumerate(totals) if u > t and not forfeited[j]))
    return out


async def rate_game(store: Store, table_id: str, game_no: int, pool: str, teams: list[list[Player]],
                    ranks: list[int]) -> bool:
    """Rate one finished game: the accounts' new ratings and their history, once (False: it was already). A game
    a bot account played is rated in ``pool`` + :data:`BOTS`."""
    model = PlackettLuce()
    now = time.time()
    accounts = sorted({p.account for team in teams for p in team if p.account is not None})
    vs_computer = any(p.account is None for team in teams for p in team)
    try:
        async with store.engine.begin() as conn:
            owners = (await conn.execute(sa.select(accounts_t.c.owner)
                                         .where(accounts_t.c.id.in_(accounts)))).scalars().all()
            if any(o is not None for o in owners) and not pool.endswith(BOTS):  # a bot played: the bots' pool
                pool += BOTS
            await conn.execute(rated_games_t.insert().values(table_id=table_id, game_no=game_no, pool=pool, at=now))
            have = {r.account_id: r for r in (await conn.execute(
                sa.select(ratings_t).where(ratings_t.c.pool == pool, ratings_t.c.account_id.in_(accounts)))).all()}
            existing = set((await conn.execute(sa.select(accounts_t.c.id)
                                               .where(accounts_t.c.id.in_(accounts)))).scalars())
            before = [[model.rating(*_start(p, have)) for p in team] for team in teams]
            after = model.rate(before, ranks=[float(r) for r in ranks])
            for team, new, rank in zip(teams, after, ranks, strict=True):
                for p, r in zip(team, new, strict=True):
                    if p.account is None or p.account not in existing:  # a computer, or an account deleted meanwhile
                        continue
                    games = (have[p.account].games if p.account in have else 0) + 1
                    values = dict(mu=float(r.mu), sigma=float(r.sigma), games=games, updated=now)
                    if p.account in have:
                        await conn.execute(ratings_t.update().where(ratings_t.c.account_id == p.account,
                                                                    ratings_t.c.pool == pool).values(**values))
                    else:
                        await conn.execute(ratings_t.insert().values(account_id=p.account, pool=pool, **values))
                    await conn.execute(rating_history_t.insert().values(
                        account_id=p.account, pool=pool, table_id=table_id, game_no=game_no, mu=float(r.mu),
                        sigma=float(r.sigma), rank=rank, vs_computer=vs_computer, at=now))
    except sa.exc.IntegrityError:  # rated already (by this process before a restart, or by another)
        return False
    return True


def _start(p: Player, have: dict[str, Any]) -> tuple[float, float]:
    if p.account is None:
        return COMPUTER.get(p.level, COMPUTER_DEFAULT)
    r = have.get(p.account)
    return (25.0, 25.0 / 3.0) if r is None else (float(r.mu), float(r.sigma))


async def leaderboard(store: Store, pool: str, limit: int = 100) -> list[dict[str, Any]]:
    """The pool's accounts, best first (by :func:`ordinal`), each with the address of its profile page when the
    profile is public (docs/accounts.md "Your profile"; a bot's: none)."""
    async with store.engine.connect() as conn:
        rows = (await conn.execute(
            sa.select(accounts_t.c.name, ratings_t.c.mu, ratings_t.c.sigma, ratings_t.c.games, accounts_t.c.public,
                      accounts_t.c.owner)
            .join(accounts_t, accounts_t.c.id == ratings_t.c.account_id)
            .where(ratings_t.c.pool == pool)
            .order_by((ratings_t.c.mu - 3.0 * ratings_t.c.sigma).desc(), accounts_t.c.name)
            .limit(limit))).all()
    return [{"name": r.name, "mu": round(r.mu, 4), "sigma": round(r.sigma, 4),
             "ordinal": round(ordinal(r.mu, r.sigma), 4), "games": r.games,
             "profile": f"/players/{quote(r.name)}" if r.public and r.owner is None else None} for r in rows]


_SEASON = re.compile(r"([0-9]{4})-Q([1-4])")


def season_of(at: float) -> str:
    """The season of a game rated at ``at`` (seconds since the epoch): its calendar quarter in UTC, ``2026-Q4``."""
    d = datetime.fromtimestamp(at, UTC)
    return f"{d.year}-Q{(d.month - 1) // 3 + 1}"


def season_bounds(season: str) -> tuple[float, float]:
    """The first instant of a season and the first of the next (seconds since the epoch, UTC); ValueError for a
    name that is not ``YYYY-Qn``."""
    m = _SEASON.fullmatch(season)
    if m is None:
        raise ValueError(f"a season is a calendar quarter in UTC written YYYY-Qn (as 2026-Q4), not {season!r}")
    year, q = int(m.group(1)), int(m.group(2))
    start = datetime(year, 3 * q - 2, 1, tzinfo=UTC)
    end = datetime(year + 1, 1, 1, tzinfo=UTC) if q == 4 else datetime(year, 3 * q + 1, 1, tzinfo=UTC)
    return start.timestamp(), end.timestamp()


async def season_leaderboard(store: Store, pool: str, season: str, limit: int = 100) -> list[dict[str, Any]]:
    """The accounts that played a rated game of ``pool`` in ``season``, best first by their rating at the season's
    end (after their last game in it, from ``rating_history``), with ``games``: their games in the season."""
    start, end = season_bounds(season)
    async with store.engine.connect() as conn:
        rows = (await conn.execute(
            sa.select(rating_history_t.c.account_id, rating_history_t.c.mu, rating_history_t.c.sigma,
                      accounts_t.c.name, accounts_t.c.public, accounts_t.c.owner)
            .join(accounts_t, accounts_t.c.id == rating_history_t.c.account_id)
            .where(rating_history_t.c.pool == pool, rating_history_t.c.at >= start, rating_history_t.c.at < end)
            .order_by(rating_history_t.c.at, rating_history_t.c.table_id, rating_history_t.c.game_no))).all()
    last: dict[str, Any] = {}
    games: dict[str, int] = {}
    for r in rows:  # oldest first: the last one kept is the rating at the season's end
        last[r.account_id] = r
        games[r.account_id] = games.get(r.account_id, 0) + 1
    best = sorted(last.values(), key=lambda r: (-ordinal(r.mu, r.sigma), r.name))[:limit]
    return [{"name": r.name, "mu": round(r.mu, 4), "sigma": round(r.sigma, 4),
             "ordinal": round(ordinal(r.mu, r.sigma), 4), "games": games[r.account_id],
             "profile": f"/players/{quote(r.name)}" if r.public and r.owner is None else None} for r in best]


async def seasons(store: Store, now: float) -> list[str]:
    """Every season since the first rated game up to the one of ``now``, newest first (only the current one when
    no game was rated yet): the seasons a leaderboard can be asked for."""
    async with store.engine.connect() as conn:
        first = (await conn.execute(sa.select(sa.func.min(rating_history_t.c.at)))).scalar()
    year, q = (int(x) for x in season_of(now).split("-Q"))
    out = [f"{year}-Q{q}"]
    while first is not None and season_bounds(out[-1])[0] > float(first):
        year, q = (year, q - 1) if q > 1 else (year - 1, 4)
        out.append(f"{year}-Q{q}")
    return out


async def account_ratings(store: Store, account: str) -> dict[str, Any]:
    """An account's rating in each pool it played, and its history (oldest first)."""
    async with store.engine.connect() as conn:
        now = (await conn.execute(sa.select(ratings_t).where(ratings_t.c.account_id == account)
                                  .order_by(ratings_t.c.pool))).all()
        hist = (await conn.execute(sa.select(rating_history_t).where(rating_history_t.c.account_id == account)
                                   .order_by(rating_history_t.c.at))).all()
    return {
        "ratings": [{"pool": r.pool, "mu": r.mu, "sigma": r.sigma, "ordinal": ordinal(r.mu, r.sigma),
                     "games": r.games} for r in now],
        "history": [{"pool": h.pool, "table": h.table_id, "game_no": h.game_no, "mu": h.mu, "sigma": h.sigma,
                     "rank": h.rank, "vs_computer": bool(h.vs_computer), "at": h.at} for h in hist],
    }


__all__ = ["COMPUTER", "Player", "account_ratings", "leaderboard", "ordinal", "pool_of", "pools", "ranks_of",
           "rate_game", "season_bounds", "season_leaderboard", "season_of", "seasons"]

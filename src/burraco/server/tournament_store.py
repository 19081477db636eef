"""Tournament events in the server's store (the same SQLAlchemy engine and Alembic migrations as the tables,
:mod:`burraco.server.store`; migration ``0002``).

An event is stored as its row (the setup, the director's name and the hash of the director's secret token), its
numbered entries (the :class:`~burraco.tournament.Event` log, one row per entry, committed before the desk
answers) and one row per table of a round saying how it is played: online (the browser table's id, its creator
token for the time-out, the seats' invitation tokens) or physical (each line's score-entry token). Replaying the
entries rebuilds the event exactly: the round's clock (its start and time-out are entries), every sheet, every
countersignature and correction.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa

from .store import Store, metadata

tournaments_t = sa.Table(
    "tournaments",
    metadata,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("created", sa.Float, nullable=False),
    sa.Column("setup", sa.JSON, nullable=False),
    sa.Column("director", sa.String(64), nullable=False),
    sa.Column("director_hash", sa.String(64), nullable=False),
)

entries_t = sa.Table(
    "tournament_entries",
    metadata,
    sa.Column("tournament_id", sa.String(32), sa.ForeignKey("tournaments.id", ondelete="CASCADE"),
              primary_key=True),
    sa.Column("n", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("data", sa.JSON, nullable=False),
    sa.Column("at", sa.Float, nullable=False),
)

ttables_t = sa.Table(
    "tournament_tables",
    metadata,
    sa.Column("tournament_id", sa.String(32), sa.ForeignKey("tournaments.id", ondelete="CASCADE"),
              primary_key=True),
    sa.Column("round", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("table_no", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("data", sa.JSON, nullable=False),
)


@dataclass
class TournamentRow:
    """A stored event: its id, setup (``Setup.to_json()``), director, entries in order and tables."""

    id: str
    created: float
    setup: dict[str, Any]
    director: str
    director_hash: str
    entries: list[dict[str, Any]]
    tables: dict[tuple[int, int], dict[str, Any]]


class TournamentStore:
    """Reads and writes of tournament events, on the server's :class:`~burraco.server.store.Store` engine."""

    def __init__(self, store: Store) -> None:
        self.store = store

    async def create(self, tid: str, created: float, setup: dict[str, Any], director: str, dhash: str) -> None:
        """A new event (no entries yet)."""
        async with self.store.engine.begin() as conn:
            await conn.execute(
                tournaments_t.insert().values(
                    id=tid, created=created, setup=setup, director=director, director_hash=dhash
                )
            )

    async def append(
        self, tid: str, entries: list[tuple[int, dict[str, Any]]], at: float,
        tables: dict[tuple[int, int], dict[str, Any]] | None = None,
    ) -> None:
        """Numbered entries (and the tables a round's start creates), in one transaction: all or nothing."""
        async with self.store.engine.begin() as conn:
            if entries:
                await conn.execute(
                    entries_t.insert(), [dict(tournament_id=tid, n=n, data=e, at=at) for n, e in entries]
                )
            if tables:
                await conn.execute(
                    ttables_t.insert(),
                    [dict(tournament_id=tid, round=r, table_no=t, data=d) for (r, t), d in tables.items()],
                )

    async def update_table(self, tid: str, round_no: int, table: int, data: dict[str, Any]) -> None:
        """A table's row again (an online table's state at the time-out)."""
        async with self.store.engine.begin() as conn:
            await conn.execute(
                ttables_t.update()
                .where(ttables_t.c.tournament_id == tid, ttables_t.c.round == round_no, ttables_t.c.table_no == table)
                .values(data=data)
            )

    async def with_tables(self) -> list[str]:
        """The ids of the events that have started a round (those that may have online tables to follow)."""
        async with self.store.engine.connect() as conn:
            rows = (await conn.execute(sa.select(ttables_t.c.tournament_id).distinct())).all()
        return sorted(r.tournament_id for r in rows)

    async def load(self, tid: str) -> TournamentRow | None:
        """An event with its entries and tables, or None."""
        async with self.store.engine.connect() as conn:
            row = (await conn.execute(sa.select(tournaments_t).where(tournaments_t.c.id == tid))).first()
            if row is None:
                return None
            entries = (
                await conn.execute(
                    sa.select(entries_t.c.data).where(entries_t.c.tournament_id == tid).order_by(entries_t.c.n)
                )
            ).all()
            tabs = (await conn.execute(sa.select(ttables_t).where(ttables_t.c.tournament_id == tid))).all()
        return TournamentRow(
            row.id, row.created, dict(row.setup), row.director, row.director_hash,
            [dict(e.data) for e in entries], {(t.round, t.table_no): dict(t.data) for t in tabs},
        )


__all__ = ["TournamentRow", "TournamentStore", "entries_t", "tournaments_t", "ttables_t"]

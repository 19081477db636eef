"""The storage layer: SQLAlchemy 2 (async) over SQLite (aiosqlite) or PostgreSQL (asyncpg), Alembic migrations.

A table is stored as its row (settings, status), its seats (kind, name, the hash of the seat's secret token) and
its numbered events. The events are the table's record: the game settings, every deal and every action in order,
so replaying them rebuilds every game exactly (RECORDS.md). An event is committed before it is broadcast.
"""

from __future__ import annotations

import asyncio
import hashlib
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine

metadata = sa.MetaData()

tables_t = sa.Table(
    "tables",
    metadata,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("created", sa.Float, nullable=False),
    sa.Column("config", sa.JSON, nullable=False),
    sa.Column("status", sa.String(16), nullable=False),
    sa.Column("listed", sa.Boolean, nullable=False, default=True),
)

seats_t = sa.Table(
    "seats",
    metadata,
    sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("kind", sa.String(16), nullable=False),
    sa.Column("level", sa.String(32), nullable=False),
    sa.Column("name", sa.String(64), nullable=False),
    sa.Column("claimed", sa.Boolean, nullable=False),
    sa.Column("token_hash", sa.String(64), nullable=False),
)

events_t = sa.Table(
    "events",
    metadata,
    sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("n", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("kind", sa.String(16), nullable=False),
    sa.Column("data", sa.JSON, nullable=False),
    sa.Column("at", sa.Float, nullable=False),
)

MIGRATIONS = Path(__file__).parent / "migrations"


def token_hash(token: str) -> str:
    """Seat tokens are stored only as their SHA-256."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


@dataclass
class SeatRow:
    seat: int
    kind: str  # human | computer | open
    level: str
    name: str
    claimed: bool
    token_hash: str


@dataclass
class TableRow:
    id: str
    created: float
    config: dict[str, Any]
    status: str
    listed: bool
    seats: list[SeatRow]


@dataclass
class _Append:
    table_id: str
    events: list[tuple[int, str, dict[str, Any]]]
    seat: SeatRow | None
    status: str | None
    at: float
    fut: asyncio.Future[None]


@dataclass
class EventRow:
    n: int
    kind: str
    data: dict[str, Any]
    at: float


def _upgrade(sync_conn: sa.Connection) -> None:
    from alembic import command
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    cfg.attributes["connection"] = sync_conn
    command.upgrade(cfg, "head")


class Store:
    """All reads and writes of the server go through this class."""

    def __init__(self, url: str) -> None:
        self.url = url
        kwargs: dict[str, Any] = {}
        if url.startswith("sqlite"):
            kwargs["connect_args"] = {"timeout": 30}
        self.engine: AsyncEngine = create_async_engine(url, **kwargs)
        self._pending: list[_Append] = []
        self._writer: asyncio.Task[None] | None = None
        if url.startswith("sqlite"):

            @sa.event.listens_for(self.engine.sync_engine, "connect")
            def _pragmas(dbapi_conn: Any, _record: Any) -> None:
                cur = dbapi_conn.cursor()
                cur.execute("PRAGMA journal_mode=WAL")  # a killed process loses no committed event
                cur.execute("PRAGMA synchronous=NORMAL")
                cur.execute("PRAGMA foreign_keys=ON")
                cur.close()

    async def migrate(self) -> None:
        """Apply the shipped Alembic migrations up to the newest (called at start). On PostgreSQL under a
        transaction-scoped advisory lock: processes starting together on one database migrate one after the
        other (the later ones find it done)."""
        async with self.engine.begin() as conn:
            if conn.dialect.name == "postgresql":
                await conn.execute(sa.text("SELECT pg_advisory_xact_lock(7410423)"))  # "burraco migrate"
            await conn.run_sync(_upgrade)

    async def close(self) -> None:
        if self._writer is not None:
            await asyncio.gather(self._writer, return_exceptions=True)
        await self.engine.dispose()

    # ----- writes -------------------------------------------------------------------------------------------------
    async def create_table(
        self, table_id: str, config: dict[str, Any], seats: list[SeatRow], first_event: dict[str, Any],
        at: float | None = None,
    ) -> None:
        """A new table with its seats and its first event (``created``, number 1, at ``at``), in one
        transaction."""
        now = time.time() if at is None else at
        async with self.engine.begin() as conn:
            await conn.execute(
                tables_t.insert().values(
                    id=table_id, created=now, config=config, status="waiting", listed=config.get("listed", True)
                )
            )
            await conn.execute(
                seats_t.insert(),
                [
                    dict(table_id=table_id, seat=s.seat, kind=s.kind, level=s.level, name=s.name,
                         claimed=s.claimed, token_hash=s.token_hash)
                    for s in seats
                ],
            )
            await conn.execute(
                events_t.insert().values(table_id=table_id, n=1, kind="created", data=first_event, at=now)
            )

    async def append(
        self,
        table_id: str,
        events: list[tuple[int, str, dict[str, Any]]],
        *,
        seat: SeatRow | None = None,
        status: str | None = None,
        at: float | None = None,
    ) -> None:
        """Commit numbered events (and a seat's new state, and the table's status), stamped ``at`` (the time the
        caller also broadcasts; now when not given); returns once they are
        committed. Appends that arrive while a commit is running are committed together in the next transaction
        (group commit: one transaction for many tables' actions under load); if that transaction fails, each is
        retried alone, so an error reaches only the caller it belongs to."""
        fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._pending.append(_Append(table_id, events, seat, status, time.time() if at is None else at, fut))
        if self._writer is None or self._writer.done():
            self._writer = asyncio.create_task(self._write_loop())
        await fut

    async def _write_loop(self) -> None:
        while self._pending:
            batch, self._pending = self._pending, []
            try:
                async with self.engine.begin() as conn:
                    await self._write(conn, batch)
            except Exception:
                for item in batch:
                    try:
                        async with self.engine.begin() as conn:
                            await self._write(conn, [item])
                    except Exception as e:  # this caller's own failure (a duplicate event number, ...)
                        if not item.fut.done():
                            item.fut.set_exception(e)
                    else:
                        if not item.fut.done():
                            item.fut.set_result(None)
                continue
            for item in batch:
                if not item.fut.done():
                    item.fut.set_result(None)

    @staticmethod
    async def _write(conn: AsyncConnection, batch: list[_Append]) -> None:
        rows = [dict(table_id=a.table_id, n=n, kind=k, data=d, at=a.at) for a in batch for n, k, d in a.events]
        if rows:
            await conn.execute(events_t.insert(), rows)
        for a in batch:
            if a.seat is not None:
                st = a.seat
                await conn.execute(
                    seats_t.update()
                    .where(seats_t.c.table_id == a.table_id, seats_t.c.seat == st.seat)
                    .values(kind=st.kind, level=st.level, name=st.name, claimed=st.claimed,
                            token_hash=st.token_hash)
                )
            if a.status is not None:
                await conn.execute(tables_t.update().where(tables_t.c.id == a.table_id).values(status=a.status))

    # ----- reads --------------------------------------------------------------------------------------------------
    async def load_tables(
        self, statuses: tuple[str, ...] | None = None, ids: list[str] | None = None
    ) -> list[TableRow]:
        """Tables with their seats: all, those in ``statuses``, or those named in ``ids``."""
        async with self.engine.connect() as conn:
            q = sa.select(tables_t)
            sq = sa.select(seats_t)
            if statuses is not None:
                q = q.where(tables_t.c.status.in_(statuses))
                sq = sq.where(seats_t.c.table_id.in_(sa.select(tables_t.c.id).where(tables_t.c.status.in_(statuses))))
            if ids is not None:
                q = q.where(tables_t.c.id.in_(ids))
                sq = sq.where(seats_t.c.table_id.in_(ids))
            rows = (await conn.execute(q.order_by(tables_t.c.created))).all()
            seat_rows = (await conn.execute(sq.order_by(seats_t.c.table_id, seats_t.c.seat))).all()
        seats: dict[str, list[SeatRow]] = {}
        for s in seat_rows:
            seats.setdefault(s.table_id, []).append(
                SeatRow(s.seat, s.kind, s.level, s.name, bool(s.claimed), s.token_hash)
            )
        return [
            TableRow(r.id, r.created, dict(r.config), r.status, bool(r.listed), seats.get(r.id, []))
            for r in rows
        ]

    async def game_counts(self, ids: list[str]) -> dict[str, int]:
        """How many games have finished at each of these tables (their ``game_end`` events)."""
        if not ids:
            return {}
        async with self.engine.connect() as conn:
            rows = (
                await conn.execute(
                    sa.select(events_t.c.table_id, sa.func.count())
                    .where(events_t.c.table_id.in_(ids), events_t.c.kind == "game_end")
                    .group_by(events_t.c.table_id)
                )
            ).all()
        return {r[0]: int(r[1]) for r in rows}

    async def table_ids(self, statuses: tuple[str, ...]) -> list[str]:
        """The ids of the tables in ``statuses`` (the cluster's take-over scan: ids only, no seats)."""
        async with self.engine.connect() as conn:
            rows = await conn.execute(sa.select(tables_t.c.id).where(tables_t.c.status.in_(statuses)))
            return [str(r[0]) for r in rows]

    async def idle_waiting(self, before: float) -> list[str]:
        """The tables still waiting for players whose last event is older than ``before`` (wall-clock time)."""
        async with self.engine.connect() as conn:
            waiting = sa.select(tables_t.c.id).where(tables_t.c.status == "waiting")
            last = (  # only the events of waiting tables (few each), not the whole log
                sa.select(events_t.c.table_id, sa.func.max(events_t.c.at).label("last"))
                .where(events_t.c.table_id.in_(waiting))
                .group_by(events_t.c.table_id)
                .subquery()
            )
            rows = (
                await conn.execute(
                    sa.select(tables_t.c.id)
                    .join(last, last.c.table_id == tables_t.c.id)
                    .where(tables_t.c.status == "waiting", last.c.last < before)
                )
            ).all()
        return [r[0] for r in rows]

    async def load_events(self, table_id: str, after: int = 0) -> list[EventRow]:
        async with self.engine.connect() as conn:
            rows = (
                await conn.execute(
                    sa.select(events_t.c.n, events_t.c.kind, events_t.c.data, events_t.c.at)
                    .where(events_t.c.table_id == table_id, events_t.c.n > after)
                    .order_by(events_t.c.n)
                )
            ).all()
        return [EventRow(r.n, r.kind, dict(r.data), r.at) for r in rows]

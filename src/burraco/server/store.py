"""The storage layer: SQLAlchemy 2 (async) over SQLite (aiosqlite) or PostgreSQL (asyncpg), Alembic migrations.

A table is stored as its row (settings, status), its seats (kind, name, the hash of the seat's secret token) and
its numbered events. The events are the table's record: the game settings, every deal and every action in order,
so replaying them rebuilds every game exactly (RECORDS.md). An event is committed before it is broadcast.
"""

from __future__ import annotations

import asyncio
import hashlib
import os
import secrets
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
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

seat_guests_t = sa.Table(
    "seat_guests",
    metadata,
    sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("guest", sa.String(32), primary_key=True),
    sa.Column("at", sa.Float, nullable=False),
)

server_keys_t = sa.Table(
    "server_keys",
    metadata,
    sa.Column("name", sa.String(32), primary_key=True),
    sa.Column("value", sa.String(128), nullable=False),
)

accounts_t = sa.Table(
    "accounts",
    metadata,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("name", sa.String(64), nullable=False),
    sa.Column("name_key", sa.String(64), nullable=False, unique=True),
    sa.Column("password", sa.String(255), nullable=True),
    sa.Column("created", sa.Float, nullable=False),
    # a bot account (docs/accounts.md "Bots"): its owner's account, and the SHA-256 of its token
    sa.Column("owner", sa.String(32), sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=True),
    sa.Column("token_hash", sa.String(64), nullable=True, unique=True),
    # the site's administrators (the first account, or ``burraco admin``) and the accounts they disabled
    sa.Column("admin", sa.Boolean, nullable=False, server_default=sa.false()),
    sa.Column("disabled", sa.Boolean, nullable=False, server_default=sa.false()),
    # the profile (migration 0006, docs/accounts.md "Your profile"): language, preferred rules, club, public or not
    sa.Column("language", sa.String(8), nullable=True),
    sa.Column("rules", sa.String(32), nullable=True),
    sa.Column("club", sa.String(64), nullable=True),
    sa.Column("public", sa.Boolean, nullable=False, server_default=sa.false()),
)

sessions_t = sa.Table(
    "sessions",
    metadata,
    sa.Column("id_hash", sa.String(64), primary_key=True),
    sa.Column("account_id", sa.String(32), sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False),
    sa.Column("created", sa.Float, nullable=False),
    sa.Column("expires", sa.Float, nullable=False),
)

seat_accounts_t = sa.Table(
    "seat_accounts",
    metadata,
    sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("account_id", sa.String(32), sa.ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("at", sa.Float, nullable=False),
)

signin_failures_t = sa.Table(
    "signin_failures",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("key", sa.String(80), nullable=False),
    sa.Column("at", sa.Float, nullable=False),
)

ratings_t = sa.Table(
    "ratings",
    metadata,
    sa.Column("account_id", sa.String(32), sa.ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("pool", sa.String(32), primary_key=True),
    sa.Column("mu", sa.Float, nullable=False),
    sa.Column("sigma", sa.Float, nullable=False),
    sa.Column("games", sa.Integer, nullable=False),
    sa.Column("updated", sa.Float, nullable=False),
)

rating_history_t = sa.Table(
    "rating_history",
    metadata,
    sa.Column("account_id", sa.String(32), sa.ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("pool", sa.String(32), primary_key=True),
    sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("game_no", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("mu", sa.Float, nullable=False),
    sa.Column("sigma", sa.Float, nullable=False),
    sa.Column("rank", sa.Integer, nullable=False),
    sa.Column("vs_computer", sa.Boolean, nullable=False),
    sa.Column("at", sa.Float, nullable=False),
)

rated_games_t = sa.Table(
    "rated_games",
    metadata,
    sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("game_no", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("pool", sa.String(32), nullable=False),
    sa.Column("at", sa.Float, nullable=False),
)

passkeys_t = sa.Table(
    "passkeys",
    metadata,
    sa.Column("credential_id", sa.String(1024), primary_key=True),
    sa.Column("account_id", sa.String(32), sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False),
    sa.Column("public_key", sa.Text, nullable=False),
    sa.Column("sign_count", sa.Integer, nullable=False),
    sa.Column("created", sa.Float, nullable=False),
)

webauthn_challenges_t = sa.Table(
    "webauthn_challenges",
    metadata,
    sa.Column("challenge", sa.String(128), primary_key=True),
    sa.Column("purpose", sa.String(16), nullable=False),
    sa.Column("account_id", sa.String(32), nullable=True),
    sa.Column("name", sa.String(64), nullable=True),
    sa.Column("expires", sa.Float, nullable=False),
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
    #: the guest ids (signed cookie, server/guests.py) of the browsers that held this seat
    guests: tuple[str, ...] = ()
    #: the account that took it last (``seat_accounts``), when its player was signed in
    account: str | None = None
    #: that account is a bot's
    bot: bool = False


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
    guest: tuple[int, str] | None = None
    account: tuple[int, str] | None = None


@dataclass
class EventRow:
    n: int
    kind: str
    data: dict[str, Any]
    at: float


def _upgrade(sync_conn: sa.Connection, revision: str = "head") -> None:
    from alembic import command
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    cfg.attributes["connection"] = sync_conn
    command.upgrade(cfg, revision)


class Store:
    """All reads and writes of the server go through this class."""

    def __init__(self, url: str, sqlite_synchronous: str | None = None) -> None:
        self.url = url
        #: SQLite's ``synchronous`` (``BURRACO_SQLITE_SYNCHRONOUS``): FULL by default, every commit synced to the
        #: disk before an action is acknowledged (a power cut or an OS crash loses nothing acknowledged); NORMAL
        #: syncs the WAL only at checkpoints (safe against a killed process, not against a power cut: the last
        #: acknowledged actions may be lost). docs/deploy.md gives the cost measured
        sync = (sqlite_synchronous or os.environ.get("BURRACO_SQLITE_SYNCHRONOUS") or "FULL").upper()
        if sync not in ("FULL", "NORMAL", "EXTRA"):
            raise ValueError(f"BURRACO_SQLITE_SYNCHRONOUS must be FULL, NORMAL or EXTRA (got {sync!r})")
        self.sqlite_synchronous = sync
        kwargs: dict[str, Any] = {}
        if url.startswith("sqlite"):
            kwargs["connect_args"] = {"timeout": 30}
        self.engine: AsyncEngine = create_async_engine(url, **kwargs)
        self._pending: list[_Append] = []
        self._writer: asyncio.Task[None] | None = None
        #: several processes (server/cluster.py, PostgreSQL): PostgreSQL ends a write of events whose process sits
        #: in its transaction longer than this many seconds (the lease, 3 s at least). A process paused past its
        #: lease with a write half done would otherwise hold that write's locks, and the new owner's write of the
        #: same event number would wait for it, and every write of the new owner behind that one (one writer)
        self.write_idle_limit: float | None = None
        if url.startswith("sqlite"):

            @sa.event.listens_for(self.engine.sync_engine, "connect")
            def _pragmas(dbapi_conn: Any, _record: Any) -> None:
                cur = dbapi_conn.cursor()
                cur.execute("PRAGMA journal_mode=WAL")  # a killed process loses no committed event
                cur.execute(f"PRAGMA synchronous={sync}")  # FULL: nor does a power cut
                cur.execute("PRAGMA foreign_keys=ON")
                cur.close()

    async def migrate(self, revision: str = "head") -> None:
        """Apply the shipped Alembic migrations up to the newest (called at start; ``revision``: up to that one
        only, as a database made by an earlier release is). On PostgreSQL under a transaction-scoped advisory
        lock: processes starting together on one database migrate one after the other (the later ones find it
        done)."""
        async with self.engine.begin() as conn:
            if conn.dialect.name == "postgresql":
                await conn.execute(sa.text("SELECT pg_advisory_xact_lock(7410423)"))  # "burraco migrate"
            await conn.run_sync(_upgrade, revision)

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
        guest: tuple[int, str] | None = None,
        account: tuple[int, str] | None = None,
    ) -> None:
        """Commit numbered events (and a seat's new state, and the table's status, and a guest who held a seat for
        the first time: ``(seat, guest id)``, and the account that took a seat: ``(seat, account id)``), stamped ``at`` (the time the
        caller also broadcasts; now when not given); returns once they are
        committed. Appends that arrive while a commit is running are committed together in the next transaction
        (group commit: one transaction for many tables' actions under load); if that transaction fails, each is
        retried alone, so an error reaches only the caller it belongs to."""
        fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._pending.append(_Append(table_id, events, seat, status, time.time() if at is None else at, fut, guest,
                                     account))
        if self._writer is None or self._writer.done():
            self._writer = asyncio.create_task(self._write_loop())
        await fut

    async def _write_loop(self) -> None:
        while self._pending:
            batch, self._pending = self._pending, []
            try:
                async with self.engine.begin() as conn:
                    await self._write(conn, batch, self.write_idle_limit)
            except Exception:
                for item in batch:
                    try:
                        async with self.engine.begin() as conn:
                            await self._write(conn, [item], self.write_idle_limit)
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
    async def _write(conn: AsyncConnection, batch: list[_Append], idle_limit: float | None = None) -> None:
        if idle_limit is not None and conn.dialect.name == "postgresql":
            await conn.execute(sa.text(f"SET LOCAL idle_in_transaction_session_timeout = {int(idle_limit * 1000)}"))
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
            if a.guest is not None:  # once per seat and guest: the first time it held the seat
                insert = pg_insert if conn.dialect.name == "postgresql" else sqlite_insert
                await conn.execute(insert(seat_guests_t).values(table_id=a.table_id, seat=a.guest[0],
                                                                guest=a.guest[1], at=a.at).on_conflict_do_nothing())
            if a.account is not None:
                insert = pg_insert if conn.dialect.name == "postgresql" else sqlite_insert
                await conn.execute(insert(seat_accounts_t).values(table_id=a.table_id, seat=a.account[0],
                                                                  account_id=a.account[1], at=a.at)
                                   .on_conflict_do_update(index_elements=["table_id", "seat", "account_id"],
                                                          set_={"at": a.at}))

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
            gq = sa.select(seat_guests_t.c.table_id, seat_guests_t.c.seat, seat_guests_t.c.guest)
            if ids is not None:
                gq = gq.where(seat_guests_t.c.table_id.in_(ids))
            elif statuses is not None:
                gq = gq.where(seat_guests_t.c.table_id.in_(
                    sa.select(tables_t.c.id).where(tables_t.c.status.in_(statuses))))
            guest_rows = (await conn.execute(gq.order_by(seat_guests_t.c.at))).all()
            aq = (sa.select(seat_accounts_t.c.table_id, seat_accounts_t.c.seat, seat_accounts_t.c.account_id,
                            accounts_t.c.owner)
                  .join(accounts_t, accounts_t.c.id == seat_accounts_t.c.account_id))
            if ids is not None:
                aq = aq.where(seat_accounts_t.c.table_id.in_(ids))
            elif statuses is not None:
                aq = aq.where(seat_accounts_t.c.table_id.in_(
                    sa.select(tables_t.c.id).where(tables_t.c.status.in_(statuses))))
            account_rows = (await conn.execute(aq.order_by(seat_accounts_t.c.at))).all()
        held: dict[tuple[str, int], tuple[str, bool]] = {  # the last account to take each seat
            (a.table_id, a.seat): (a.account_id, a.owner is not None) for a in account_rows}
        guests: dict[tuple[str, int], tuple[str, ...]] = {}
        for g in guest_rows:
            guests[(g.table_id, g.seat)] = (*guests.get((g.table_id, g.seat), ()), g.guest)
        seats: dict[str, list[SeatRow]] = {}
        for s in seat_rows:
            seats.setdefault(s.table_id, []).append(
                SeatRow(s.seat, s.kind, s.level, s.name, bool(s.claimed), s.token_hash,
                        guests.get((s.table_id, s.seat), ()), *held.get((s.table_id, s.seat), (None, False)))
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

    async def guest_seats(self, guest: str) -> list[tuple[str, int]]:
        """Every (table, seat) a guest's browser held, oldest first: what an account takes over when the guest
        signs in (docs/protocol.md "One person, one seat")."""
        async with self.engine.connect() as conn:
            rows = await conn.execute(sa.select(seat_guests_t.c.table_id, seat_guests_t.c.seat)
                                      .where(seat_guests_t.c.guest == guest).order_by(seat_guests_t.c.at))
            return [(str(r[0]), int(r[1])) for r in rows]

    async def server_key(self, name: str) -> bytes:
        """The server's secret key ``name`` (32 random bytes), made on first use and kept in the store, so that
        every process of the server and every restart signs with the same one."""
        for _ in range(2):
            async with self.engine.connect() as conn:
                row = (await conn.execute(sa.select(server_keys_t.c.value)
                                          .where(server_keys_t.c.name == name))).first()
            if row is not None:
                return bytes.fromhex(str(row[0]))
            try:
                async with self.engine.begin() as conn:
                    await conn.execute(server_keys_t.insert().values(name=name, value=secrets.token_hex(32)))
            except sa.exc.IntegrityError:  # another process made it meanwhile: read that one
                pass
        raise RuntimeError(f"the server key {name!r} could not be stored")

    async def redact_event(self, table_id: str, n: int, kind: str, data: dict[str, Any]) -> None:
        """Replace the stored data of event ``n`` of a table, which must be of ``kind`` (a chat line a site
        administrator removed, docs/protocol.md "Removed chat lines"); ``LookupError`` where there is no such event.
        Nothing else is ever rewritten (deleting an account renames its seats in their events, server/accounts.py)."""
        async with self.engine.begin() as conn:
            done = await conn.execute(events_t.update().where(events_t.c.table_id == table_id, events_t.c.n == n,
                                                              events_t.c.kind == kind).values(data=data))
            if done.rowcount != 1:
                raise LookupError(f"no {kind} event {n} at table {table_id}")

    async def last_event(self, table_id: str) -> int:
        """The number of the table's last stored event (0: none)."""
        async with self.engine.connect() as conn:
            n = (await conn.execute(sa.select(sa.func.max(events_t.c.n)).where(events_t.c.table_id == table_id)))
            return int(n.scalar() or 0)

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

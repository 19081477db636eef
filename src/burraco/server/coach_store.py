"""The coach's analyses in the server's store (the same SQLAlchemy engine and Alembic migrations as the tables,
:mod:`burraco.server.store`; migration ``0003``): one row per finished game and seat analysed, holding the
analysis of that seat's decisions as :meth:`burraco.analysis.Analysis.to_json` gives it (docs/analysis.md)."""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError

from .store import Store, metadata

analyses_t = sa.Table(
    "analyses",
    metadata,
    sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("game_no", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("seat", sa.String(2), primary_key=True),
    sa.Column("data", sa.JSON, nullable=False),
    sa.Column("at", sa.Float, nullable=False),
)


class AnalysisStore:
    """Reads and writes of the coach's analyses, on the server's :class:`~burraco.server.store.Store` engine."""

    def __init__(self, store: Store) -> None:
        self.store = store

    async def load(self, table_id: str, game_no: int) -> dict[str, dict[str, Any]]:
        """The analyses stored for a finished game: seat → its analysis (``burraco-analysis/1``)."""
        async with self.store.engine.connect() as conn:
            rows = (
                await conn.execute(
                    sa.select(analyses_t.c.seat, analyses_t.c.data)
                    .where(analyses_t.c.table_id == table_id, analyses_t.c.game_no == game_no)
                    .order_by(analyses_t.c.seat)
                )
            ).all()
        return {str(r.seat): dict(r.data) for r in rows}

    async def save(self, table_id: str, game_no: int, seat: str, data: dict[str, Any], at: float) -> None:
        """Keep the analysis of ``seat`` in a game. One row per game and seat: where another server process
        stored it first (it analysed the same seat at the same time), that one stays."""
        try:
            async with self.store.engine.begin() as conn:
                await conn.execute(
                    analyses_t.insert().values(table_id=table_id, game_no=game_no, seat=seat, data=data, at=at)
                )
        except IntegrityError:
            pass


__all__ = ["AnalysisStore", "analyses_t"]

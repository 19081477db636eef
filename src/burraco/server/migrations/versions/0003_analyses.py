"""The coach's analyses of finished games (docs/analysis.md), one row per game and seat analysed.

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-05
"""

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "analyses",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("game_no", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("seat", sa.String(2), primary_key=True),
        sa.Column("data", sa.JSON, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("analyses")

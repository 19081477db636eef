"""Profiles (docs/accounts.md "Your profile"): an account's language, preferred rules, club, and whether its
profile page is public (private until its player says otherwise). Every existing account and game is kept; the
accounts get no language, rules or club, and private profiles.

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-07
"""

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("accounts") as batch:
        batch.add_column(sa.Column("language", sa.String(8), nullable=True))
        batch.add_column(sa.Column("rules", sa.String(32), nullable=True))
        batch.add_column(sa.Column("club", sa.String(64), nullable=True))
        batch.add_column(sa.Column("public", sa.Boolean, nullable=False, server_default=sa.false()))


def downgrade() -> None:
    with op.batch_alter_table("accounts") as batch:
        for column in ("public", "club", "rules", "language"):
            batch.drop_column(column)

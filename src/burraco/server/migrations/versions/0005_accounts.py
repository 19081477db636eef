"""Accounts (docs/accounts.md): the accounts with their argon2 password hashes, their sign-in sessions (by the
SHA-256 of the session token: the store never holds a token itself), the bot accounts (their owner, the SHA-256
of their token), the passkeys (WebAuthn public keys) and the WebAuthn challenges outstanding, the seats each account played (its games,
the guest games it claimed among them), and the failed sign-ins the rate limit counts (in the store, so that every
process of the server counts the same ones); the ratings of accounts per pool (rule family and format), their
history, and the games rated (once each).

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-07
"""

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "accounts",
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
    )
    op.create_table(
        "sessions",
        sa.Column("id_hash", sa.String(64), primary_key=True),
        sa.Column("account_id", sa.String(32), sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("expires", sa.Float, nullable=False),
    )
    op.create_index("sessions_account", "sessions", ["account_id"])
    op.create_table(
        "seat_accounts",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("account_id", sa.String(32), sa.ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_index("seat_accounts_account", "seat_accounts", ["account_id"])
    op.create_table(
        "signin_failures",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("key", sa.String(80), nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_index("signin_failures_key_at", "signin_failures", ["key", "at"])
    op.create_table(
        "ratings",
        sa.Column("account_id", sa.String(32), sa.ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("pool", sa.String(32), primary_key=True),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("updated", sa.Float, nullable=False),
    )
    op.create_index("ratings_pool", "ratings", ["pool"])
    op.create_table(
        "rating_history",
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
    op.create_table(
        "passkeys",
        sa.Column("credential_id", sa.String(1024), primary_key=True),
        sa.Column("account_id", sa.String(32), sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False),
        sa.Column("public_key", sa.Text, nullable=False),
        sa.Column("sign_count", sa.Integer, nullable=False),
        sa.Column("created", sa.Float, nullable=False),
    )
    op.create_index("passkeys_account", "passkeys", ["account_id"])
    op.create_table(
        "webauthn_challenges",
        sa.Column("challenge", sa.String(128), primary_key=True),
        sa.Column("purpose", sa.String(16), nullable=False),
        sa.Column("account_id", sa.String(32), nullable=True),
        sa.Column("name", sa.String(64), nullable=True),
        sa.Column("expires", sa.Float, nullable=False),
    )
    op.create_table(
        "rated_games",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("game_no", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("pool", sa.String(32), nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("webauthn_challenges")
    op.drop_index("passkeys_account", "passkeys")
    op.drop_table("passkeys")
    op.drop_table("rated_games")
    op.drop_table("rating_history")
    op.drop_index("ratings_pool", "ratings")
    op.drop_table("ratings")
    op.drop_index("signin_failures_key_at", "signin_failures")
    op.drop_table("signin_failures")
    op.drop_index("seat_accounts_account", "seat_accounts")
    op.drop_table("seat_accounts")
    op.drop_index("sessions_account", "sessions")
    op.drop_table("sessions")
    op.drop_table("accounts")

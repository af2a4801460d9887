"""Accounts (web/accounts.py, docs/accounts.md): the accounts, the look-alike keys of
their usernames, their sessions, and the seats they hold.

Only new tables: the games' tables are untouched, and a seat held by an account says
so in its own ``account`` key of ``tables.seats`` (JSON), which seats stored before
simply lack.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "accounts",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("username", sa.String(64), nullable=False, unique=True),
        sa.Column("lookup", sa.String(128), nullable=False, unique=True),
        sa.Column("password", sa.Text, nullable=False),
        sa.Column("created", sa.Float, nullable=False),
    )
    op.create_table(
        "account_keys",
        sa.Column("key", sa.String(256), primary_key=True),
        sa.Column("account_id", sa.String(32), nullable=False),
    )
    op.create_index("ix_account_keys_account_id", "account_keys", ["account_id"])
    op.create_table(
        "sessions",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("account_id", sa.String(32), nullable=False),
        sa.Column("csrf", sa.String(64), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("expires", sa.Float, nullable=False),
    )
    op.create_index("ix_sessions_account_id", "sessions", ["account_id"])
    op.create_table(
        "account_seats",
        sa.Column("account_id", sa.String(32), primary_key=True),
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
    )
    op.create_index("ix_account_seats_table_id", "account_seats", ["table_id"])


def downgrade() -> None:
    op.drop_table("account_seats")
    op.drop_table("sessions")
    op.drop_table("account_keys")
    op.drop_table("accounts")

"""What several server processes must agree on about accounts (docs/accounts.md,
"Security"): the wrong passwords typed for each name (``signin_failures``), so that a
name backs off on every process alike, and the addresses the seats of rated tables
were taken from (``seat_addresses``), so that the ``same_address`` flag sees the
sockets of every process.

Only new tables.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "signin_failures",
        sa.Column("key", sa.String(64), primary_key=True),
        sa.Column("failures", sa.Integer, nullable=False),
        sa.Column("until", sa.Float, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_index("ix_signin_failures_at", "signin_failures", ["at"])
    op.create_table(
        "seat_addresses",
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("address", sa.String(64), primary_key=True),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_index("ix_seat_addresses_at", "seat_addresses", ["at"])


def downgrade() -> None:
    op.drop_table("seat_addresses")
    op.drop_table("signin_failures")

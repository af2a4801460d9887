"""Quick pairing (web/pairing.py, docs/protocol.md "Quick pairing"): the queue of
seeks, shared by every server process on the database.

Only a new table.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "seeks",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("holder", sa.String(160), nullable=True, unique=True),
        sa.Column("account_id", sa.String(32), nullable=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("timer", sa.Float, nullable=False),
        sa.Column("rated", sa.Boolean, nullable=False),
        sa.Column("bot", sa.Boolean, nullable=False),
        sa.Column("rating", sa.Float, nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("expires", sa.Float, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("claim", sa.String(32), nullable=True),
        sa.Column("claim_until", sa.Float, nullable=False),
        sa.Column("table_id", sa.String(32), nullable=True),
        sa.Column("link", sa.Text, nullable=True),
    )
    op.create_index("ix_seeks_created", "seeks", ["created"])


def downgrade() -> None:
    op.drop_table("seeks")

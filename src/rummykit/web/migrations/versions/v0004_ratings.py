"""Ratings (web/ratings.py, docs/accounts.md "Ratings"): each account's rating per
game, and the rated matches whose results were applied (once each).

Only new tables; a rated table says so in its own ``options`` (JSON), which tables
stored before simply lack.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "ratings",
        sa.Column("account_id", sa.String(32), primary_key=True),
        sa.Column("game", sa.String(64), primary_key=True),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("updated", sa.Float, nullable=False),
    )
    op.create_table(
        "rated_matches",
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("version", sa.Integer, primary_key=True),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("result", sa.Text, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("rated_matches")
    op.drop_table("ratings")

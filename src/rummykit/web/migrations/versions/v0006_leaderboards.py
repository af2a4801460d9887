"""Leaderboards (web/profiles.py, docs/accounts.md "Players' pages and leaderboards"):
an index on ``ratings.game``, so that one game's leaderboard reads that game's rows,
not every account's every rating.

Only an index; the rows stay as they are.
"""

from __future__ import annotations

from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_index("ix_ratings_game", "ratings", ["game"])


def downgrade() -> None:
    op.drop_index("ix_ratings_game", table_name="ratings")

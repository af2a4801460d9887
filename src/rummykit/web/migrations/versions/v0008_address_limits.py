"""The sign-ins and sign-ups of each client address (``address_limits``), counted in
the database so that an address has one allowance over every server process
(docs/accounts.md, "Brute force").

Only a new table.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "address_limits",
        sa.Column("kind", sa.String(8), primary_key=True),
        sa.Column("address", sa.String(64), primary_key=True),
        sa.Column("full_at", sa.Float, nullable=False),
    )
    op.create_index("ix_address_limits_full_at", "address_limits", ["full_at"])


def downgrade() -> None:
    op.drop_table("address_limits")

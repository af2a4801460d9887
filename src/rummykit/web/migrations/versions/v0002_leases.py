"""Table leases: which server process owns a table (web/leases.py).

Several processes share one PostgreSQL database; each unfinished table is driven by
one of them, the holder of its row here.  ``token`` is the fencing token (one more at
every change of owner; every move's UPDATE checks it), ``until`` when the lease runs
out by the database's clock.  SQLite gets the table too, empty, so that one schema
serves both and the store's queries that look for leases need no dialect test.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "leases",
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("node", sa.String(64), nullable=False),
        sa.Column("token", sa.BigInteger, nullable=False),
        sa.Column("until", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("leases")

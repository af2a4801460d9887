"""Alembic's entry point: run the revisions on the connection web/schema.py hands over.

There is no ``alembic.ini``: :func:`rummykit.web.schema.alembic_config` builds the
configuration in code and puts an open connection in ``config.attributes``, so the
server, ``rummy db`` and the tests migrate exactly the database they already hold
(and, on PostgreSQL, inside the advisory lock they took on that connection).
"""

from __future__ import annotations

from alembic import context
from alembic.config import Config

from rummykit.web.store import Base


def run(config: Config) -> None:
    connection = config.attributes["connection"]
    context.configure(
        connection=connection,
        target_metadata=Base.metadata,
        # SQLite alters little in place: a future revision that changes a column there
        # rebuilds the table (Alembic's batch mode) instead of failing.
        render_as_batch=connection.dialect.name == "sqlite",
    )
    with context.begin_transaction():
        context.run_migrations()


# Alembic sets ``context.config`` only while it runs this file; importing the module
# otherwise (pytest's doctest collection walks every module) does nothing.
_config = getattr(context, "config", None)
if _config is not None:
    run(_config)

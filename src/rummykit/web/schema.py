"""The database schema's version: Alembic migrations, run by the server and ``rummy db``.

The schema changes only through the revisions in ``web/migrations/versions``; the
database records the one it is at (Alembic's ``alembic_version`` table).  Three kinds
of database are brought to the newest revision (*head*) by :func:`upgrade`:

* an empty one: every revision runs;
* one made before migrations existed (it has ``tables`` but no ``alembic_version``):
  it is given what the baseline has and it lacks (``tables.options``, missing in
  releases older than the last one), stamped with the baseline, then upgraded;
* one at an older revision: the newer revisions run.

A database at a revision this release does not know was made by a newer release:
it is refused, untouched, rather than run by code that does not understand it.

Several server processes may start at once on one PostgreSQL database:
each upgrade holds a PostgreSQL advisory lock, so one process migrates and the others
wait for it and then find nothing to do.

Every failure is a :class:`SchemaError` (a ValueError) with a one-line message, which
``rummy serve`` and ``rummy db`` print without a traceback.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import inspect, make_url, text
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import ArgumentError, SQLAlchemyError

MIGRATIONS = Path(__file__).resolve().parent / "migrations"
BASELINE = "0001"
"""The revision of the schema the last release without migrations made."""
LEGACY = "before migrations"
"""What :attr:`Revision.current` says of a database made before migrations."""
LOCK_KEY = 0x72756D6D79
"""The PostgreSQL advisory lock held while migrating (``rummy`` in ASCII): any fixed
number no other program on the database uses."""
UPGRADE_HINT = "run `rummy db upgrade`"


class SchemaError(ValueError):
    """The database cannot be used as it is; the message says why and what to do."""


@dataclass(frozen=True, slots=True)
class Revision:
    """Where a database stands."""

    current: str | None
    """Its revision; None for an empty database, :data:`LEGACY` for one made before
    migrations."""
    head: str
    """The newest revision this release knows."""
    known: bool
    """Whether this release knows ``current`` (False: made by a newer release)."""

    @property
    def up_to_date(self) -> bool:
        return self.current == self.head

    def describe(self) -> str:
        """One line for people: the revision and whether it is up to date."""
        if self.up_to_date:
            return f"revision {self.head} (up to date)"
        if not self.known:
            return (
                f"revision {self.current}, unknown to this release (newest {self.head}): "
                "made by a newer rummykit; upgrade rummykit"
            )
        where = "an empty database" if self.current is None else f"revision {self.current}"
        if self.current == LEGACY:
            where = "made before migrations"
        return f"{where}, behind {self.head}: {UPGRADE_HINT}"


def alembic_config(connection: Connection | None = None) -> Config:
    """Alembic's configuration, in code (no ``alembic.ini`` ships): the revisions in
    the package, run on ``connection`` (see migrations/env.py)."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    # New revisions are named v0003_what.py: module names, unlike Alembic's 0003_what.py.
    config.set_main_option("file_template", "v%%(rev)s_%%(slug)s")
    if connection is not None:
        config.attributes["connection"] = connection
    return config


def head() -> str:
    """The newest revision this release knows."""
    rev = ScriptDirectory.from_config(alembic_config()).get_current_head()
    assert rev is not None, "the package holds no revision"
    return rev


def status(engine: Engine) -> Revision:
    """Where the database behind ``engine`` stands; reads only."""
    with reporting(engine), engine.connect() as conn:
        return _status(conn)


def check(engine: Engine) -> Revision:
    """The database's revision if it is the head, else :class:`SchemaError` (what a
    server started with ``--no-migrate`` does instead of upgrading)."""
    rev = status(engine)
    if not rev.up_to_date:
        raise SchemaError(f"the database is not at the schema this release needs: {rev.describe()}")
    return rev


def upgrade(engine: Engine) -> tuple[Revision, Revision]:
    """Bring the database to the head; return where it stood before and after.

    A database made by a newer release raises :class:`SchemaError` and is left as it
    was.  On PostgreSQL the whole of it runs under an advisory lock.  The adoption and
    every revision are one transaction, so a failure anywhere changes nothing."""
    with reporting(engine), engine.connect() as conn, _migration_lock(conn):
        before = _status(conn)
        if not before.known:
            raise SchemaError(f"cannot upgrade the database: {before.describe()}")
        if not before.up_to_date:
            config = alembic_config(conn)
            if conn.dialect.name == "sqlite":
                # Python's sqlite3 opens a transaction only before INSERT, UPDATE and
                # DELETE: each CREATE or ALTER would commit on its own, and a revision
                # failing halfway would leave its first tables behind.
                conn.exec_driver_sql("BEGIN IMMEDIATE")
            if before.current == LEGACY:
                _adopt(conn, config)
            command.upgrade(config, "head")
            conn.commit()
        return before, _status(conn)


def _status(conn: Connection) -> Revision:
    script = ScriptDirectory.from_config(alembic_config())
    newest = script.get_current_head()
    assert newest is not None, "the package holds no revision"
    current = MigrationContext.configure(conn).get_current_revision()
    if current is None and "tables" in inspect(conn).get_table_names():
        current = LEGACY
    known = current in (None, LEGACY) or current in {r.revision for r in script.walk_revisions()}
    conn.rollback()  # end the reading transaction: nothing waits behind it
    return Revision(current=current, head=newest, known=known)


_BEFORE_MIGRATIONS = {
    "tables": {
        "id", "spec", "seats", "public", "timer", "version", "state", "over", "created",
        "updated", "options",
    },
    "moves": {"table_id", "seq", "seat", "action", "text", "auto", "at"},
    "chat": {"id", "table_id", "seat", "name", "text", "at"},
    "leases": {"table_id", "node", "token", "until"},
}  # fmt: skip
"""The columns ``create_all`` made before migrations (``leases`` only in development
versions, ``tables.options`` not in the oldest releases).  History: it never changes,
whatever later revisions do to the models."""


def _adopt(conn: Connection, config: Config) -> None:
    """Stamp a database made before migrations with the revision it matches.

    The releases before migrations made their tables with ``create_all`` and added
    ``tables.options`` by hand when it was missing; this does the same, so the
    database is then exactly the baseline.  One made by a development version that
    already had ``leases`` (the same ``create_all``) is at revision 0002.  Tables of
    those names that lack those columns (or a ``leases`` with others) were not made by
    rummykit: :class:`SchemaError` before anything is changed."""
    insp = inspect(conn)
    tables = set(insp.get_table_names())
    for name, wanted in _BEFORE_MIGRATIONS.items():
        if name not in tables and name == "leases":
            continue
        have = {c["name"] for c in insp.get_columns(name)} if name in tables else set()
        missing = sorted(wanted - have - {"options"})  # options: added just below
        extra = sorted(have - wanted) if name == "leases" else []
        if missing or extra:
            raise SchemaError(
                f"the database has no revision and its table {name!r} "
                + (f"lacks {', '.join(missing)}" if missing else f"has {', '.join(extra)}")
                + ": rummykit did not make it; nothing was changed (give rummykit a "
                "database of its own)"
            )
    columns = {c["name"] for c in insp.get_columns("tables")}
    if "options" not in columns:
        conn.execute(text("ALTER TABLE tables ADD COLUMN options TEXT NOT NULL DEFAULT '{}'"))
    command.stamp(config, "0002" if "leases" in tables else BASELINE)


@contextlib.contextmanager
def _migration_lock(conn: Connection) -> Iterator[None]:
    """Hold PostgreSQL's advisory lock :data:`LOCK_KEY` (a session lock: it lasts over
    the transactions of the migration); SQLite has one writer and needs none."""
    if conn.dialect.name != "postgresql":
        yield
        return
    conn.execute(text("SELECT pg_advisory_lock(:k)"), {"k": LOCK_KEY})
    conn.commit()
    try:
        yield
    finally:
        conn.rollback()  # a failed migration leaves an aborted transaction behind
        conn.execute(text("SELECT pg_advisory_unlock(:k)"), {"k": LOCK_KEY})
        conn.commit()


def shown_url(url: str) -> str:
    """``url`` with its password hidden, for messages."""
    try:
        return make_url(url).render_as_string(hide_password=True)
    except ArgumentError:
        return repr(url)


@contextlib.contextmanager
def reporting(engine: Engine) -> Iterator[None]:
    """Turn a database failure (unreachable server, missing driver, bad file path)
    into a :class:`SchemaError` naming the database, in one line."""
    try:
        yield
    except SQLAlchemyError as exc:
        reason = str(getattr(exc, "orig", None) or exc).strip().splitlines()
        detail = reason[0] if reason else type(exc).__name__
        raise SchemaError(f"database {shown_url(str(engine.url))}: {detail}") from None

"""Storage for the web server: SQLAlchemy 2, SQLite by default, PostgreSQL unchanged.

Three tables.  ``tables`` holds one row per card table: its settings, the seats, the
current :mod:`~rummykit.serialize` state and its version.  ``moves`` is the append-only
log: every accepted move is inserted there *in the same transaction* that writes the
new state and bumps the version, so after a crash (even SIGKILL) the state on disk is
exactly the state after the last accepted move.  Moves of many tables can share one
transaction (:meth:`Store.commit_moves`, the server's group commit): each still
lands with its state, and none is acknowledged before the transaction commits.
``chat`` keeps the table chat.

Seat secrets are stored only as SHA-256 digests.
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import (
    Boolean,
    Float,
    Integer,
    String,
    Text,
    bindparam,
    create_engine,
    event,
    insert,
    select,
    update,
)
from sqlalchemy.engine import Engine
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, sessionmaker

DATABASE_ENV = "RUMMYKIT_DATABASE_URL"


class Base(DeclarativeBase):
    pass


class TableRow(Base):
    __tablename__ = "tables"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    spec: Mapped[str] = mapped_column(Text)
    seats: Mapped[str] = mapped_column(Text)
    """JSON list of seats: kind, name, difficulty, secret digest, claimed."""
    public: Mapped[bool] = mapped_column(Boolean, default=False)
    timer: Mapped[float] = mapped_column(Float, default=0.0)
    version: Mapped[int] = mapped_column(Integer, default=0)
    state: Mapped[str] = mapped_column(Text)
    over: Mapped[bool] = mapped_column(Boolean, default=False)
    created: Mapped[float] = mapped_column(Float)
    updated: Mapped[float] = mapped_column(Float)


class MoveRow(Base):
    __tablename__ = "moves"

    table_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    """The version the move produced (1 for the first move of a table)."""
    seat: Mapped[int] = mapped_column(Integer)
    action: Mapped[int] = mapped_column(Integer)
    """The engine's action number, or -1 for a rematch (a new match starts)."""
    text: Mapped[str] = mapped_column(Text)
    auto: Mapped[bool] = mapped_column(Boolean, default=False)
    at: Mapped[float] = mapped_column(Float)


class ChatRow(Base):
    __tablename__ = "chat"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(String(32), index=True)
    seat: Mapped[int] = mapped_column(Integer)
    name: Mapped[str] = mapped_column(String(64))
    text: Mapped[str] = mapped_column(Text)
    at: Mapped[float] = mapped_column(Float)


def digest(secret: str) -> str:
    return hashlib.sha256(secret.encode("utf-8", "replace")).hexdigest()


def default_database_url() -> str:
    """``$RUMMYKIT_DATABASE_URL``, else SQLite in the user's data directory."""
    env = os.environ.get(DATABASE_ENV)
    if env:
        return env
    import platformdirs

    folder = Path(platformdirs.user_data_dir("rummykit"))
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{folder / 'rummykit.db'}"


def normalize_url(url: str) -> str:
    """``postgresql://`` and ``postgres://`` mean psycopg 3 (the driver we install)."""
    for prefix in ("postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


@dataclass
class StoredTable:
    id: str
    spec: str
    seats: list[dict[str, Any]]
    public: bool
    timer: float
    version: int
    state: str
    over: bool


class StaleWriteError(RuntimeError):
    """A move written for a version the table is no longer at (a second writer)."""


@dataclass(frozen=True, slots=True)
class MoveCommit:
    """One accepted move to store: the log row and the state it produced."""

    table_id: str
    seq: int
    """The version the move produces."""
    seat: int
    action: int
    """The engine's action number, or -1 for a rematch."""
    text: str
    state: str
    """:func:`~rummykit.serialize.state_to_json` of the new state."""
    over: bool
    auto: bool = False


class Store:
    """Synchronous storage; the server calls it from worker threads."""

    def __init__(self, url: str) -> None:
        self.url = normalize_url(url)
        self.is_sqlite = self.url.startswith("sqlite")
        kwargs: dict[str, Any] = {}
        if self.is_sqlite:
            kwargs["connect_args"] = {"check_same_thread": False, "timeout": 30}
        else:
            kwargs["pool_pre_ping"] = True
        self.engine: Engine = create_engine(self.url, **kwargs)
        if self.is_sqlite:
            event.listen(self.engine, "connect", _sqlite_pragmas)
        Base.metadata.create_all(self.engine)
        self.session = sessionmaker(self.engine, expire_on_commit=False)

    def close(self) -> None:
        self.engine.dispose()

    # -- tables ---------------------------------------------------------------------------
    def create_table(self, t: StoredTable) -> None:
        now = time.time()
        with self.session.begin() as s:
            s.add(
                TableRow(
                    id=t.id,
                    spec=t.spec,
                    seats=json.dumps(t.seats),
                    public=t.public,
                    timer=t.timer,
                    version=t.version,
                    state=t.state,
                    over=t.over,
                    created=now,
                    updated=now,
                )
            )

    def load_table(self, table_id: str) -> StoredTable | None:
        with self.session() as s:
            row = s.get(TableRow, table_id)
            return None if row is None else _stored(row)

    def active_tables(self) -> list[StoredTable]:
        with self.session() as s:
            rows = s.scalars(select(TableRow).where(TableRow.over.is_(False))).all()
            return [_stored(r) for r in rows]

    def public_tables(self, limit: int = 50) -> list[StoredTable]:
        with self.session() as s:
            rows = s.scalars(
                select(TableRow)
                .where(TableRow.public.is_(True), TableRow.over.is_(False))
                .order_by(TableRow.created.desc())
                .limit(limit)
            ).all()
            return [_stored(r) for r in rows]

    def save_seats(self, table_id: str, seats: list[dict[str, Any]], state: str) -> None:
        with self.session.begin() as s:
            s.execute(
                update(TableRow)
                .where(TableRow.id == table_id)
                .values(seats=json.dumps(seats), state=state, updated=time.time())
            )

    def commit_move(self, commit: MoveCommit) -> None:
        """Append one move and store the state it produced, atomically."""
        self.commit_moves([commit])

    def commit_moves(self, commits: Sequence[MoveCommit]) -> None:
        """Append moves of different tables, each with its new state, in one transaction.

        Each update is conditional on the table's previous version, and ``(table_id,
        seq)`` is the log's primary key, so a second writer for the same version fails
        (:class:`StaleWriteError`) instead of forking a game; the whole transaction is
        then rolled back.  Core statements, not ORM objects: this is the hot path.
        """
        if not commits:
            return
        now = time.time()
        with self.engine.begin() as conn:
            conn.execute(
                insert(MoveRow),
                [
                    {
                        "table_id": c.table_id,
                        "seq": c.seq,
                        "seat": c.seat,
                        "action": c.action,
                        "text": c.text,
                        "auto": c.auto,
                        "at": now,
                    }
                    for c in commits
                ],
            )
            for c in commits:
                res = conn.execute(
                    _BUMP,
                    {
                        "t_id": c.table_id,
                        "t_prev": c.seq - 1,
                        "t_seq": c.seq,
                        "t_state": c.state,
                        "t_over": c.over,
                        "t_at": now,
                    },
                )
                if res.rowcount != 1:
                    raise StaleWriteError(f"table {c.table_id} is not at version {c.seq - 1}")

    def moves(self, table_id: str, after: int = 0) -> list[MoveRow]:
        with self.session() as s:
            return list(
                s.scalars(
                    select(MoveRow)
                    .where(MoveRow.table_id == table_id, MoveRow.seq > after)
                    .order_by(MoveRow.seq)
                ).all()
            )

    # -- chat -------------------------------------------------------------------------------
    def add_chat(self, table_id: str, seat: int, name: str, text: str) -> None:
        with self.session.begin() as s:
            s.add(ChatRow(table_id=table_id, seat=seat, name=name, text=text, at=time.time()))

    def chat(self, table_id: str, limit: int = 50) -> list[ChatRow]:
        with self.session() as s:
            rows = s.scalars(
                select(ChatRow)
                .where(ChatRow.table_id == table_id)
                .order_by(ChatRow.id.desc())
                .limit(limit)
            ).all()
            return list(reversed(rows))


_BUMP = (
    update(TableRow)
    .where(TableRow.id == bindparam("t_id"), TableRow.version == bindparam("t_prev"))
    .values(
        version=bindparam("t_seq"),
        state=bindparam("t_state"),
        over=bindparam("t_over"),
        updated=bindparam("t_at"),
    )
)
"""Move a table from version ``t_prev`` to ``t_seq``; no row matches for a stale writer."""


def _stored(row: TableRow) -> StoredTable:
    return StoredTable(
        id=row.id,
        spec=row.spec,
        seats=json.loads(row.seats),
        public=row.public,
        timer=row.timer,
        version=row.version,
        state=row.state,
        over=row.over,
    )


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cur = dbapi_connection.cursor()
    # WAL survives a killed process with synchronous=NORMAL (only an OS crash could
    # lose the last transactions), and readers do not block the writer.
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA synchronous=NORMAL")
    cur.close()

"""Storage for the web server: SQLAlchemy 2, SQLite by default, PostgreSQL unchanged.

Four tables for the games.  ``tables`` holds one row per card table: its settings, the seats, the
current :mod:`~rummykit.serialize` state and its version.  ``moves`` is the append-only
log: every accepted move is inserted there *in the same transaction* that writes the
new state and bumps the version, so after a crash (even SIGKILL) the state on disk is
exactly the state after the last accepted move.  Moves of many tables can share one
transaction (:meth:`Store.commit_moves`, the server's group commit): each still
lands with its state, and none is acknowledged before the transaction commits.
``chat`` keeps the table chat: the last :data:`CHAT_KEEP` lines of each table.
``leases`` says which server process owns a table when several share a PostgreSQL
database (web/leases.py).  More for the accounts (web/accounts.py,
docs/accounts.md): ``accounts``, the look-alike keys of their names
(``account_keys``), their sign-ins (``sessions``), the seats they took
(``account_seats``), their ratings (``ratings``) and the rated results applied
(``rated_matches``), and what every process must see of them (web/shared_rows.py);
and the quick-pairing queue (``seeks``, web/pairing.py).
The models below describe the schema; the database gets it from the migrations
(web/schema.py), which a test holds to the same shape.

Seat secrets and session ids are stored only as SHA-256 digests (a paired seek's
link holds its seat's secret until ``seek_keep`` runs out, fetched only with the
seek's token, itself stored as a digest); passwords only as argon2id hashes.
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sqlalchemy import (
    BigInteger,
    Boolean,
    Float,
    Integer,
    String,
    Text,
    and_,
    bindparam,
    create_engine,
    delete,
    event,
    exists,
    insert,
    or_,
    select,
    text,
    update,
)
from sqlalchemy.engine import Engine
from sqlalchemy.exc import ArgumentError
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column, sessionmaker

from .schema import SchemaError, check, shown_url, upgrade

DATABASE_ENV = "RUMMYKIT_DATABASE_URL"
CHAT_KEEP = 50
"""Chat lines kept per table; older ones are deleted as new ones come (were
every line kept forever, 20 sockets would store 3,840 rows in 10 seconds)."""
FAILED = -2
"""``moves.action`` of the row that stops a table the engine could not go on with;
its ``text`` says why.  The table is marked over with it."""
EXPIRED = -3
"""``moves.action`` of the row that expires an abandoned table: never loaded again."""
ARRANGED = -4
"""``moves.action`` of a move whose action space is not listable (a Rummikub play:
the table's whole arrangement, a number far past any integer column); its ``text`` is
the move in notation, and the state stored with it holds the move itself."""
ABANDONED = -5
"""``moves.action`` of the row that ends a rated match its seat's player abandoned
(web/driver.py, web/service.py): the row's seat is theirs, and the state is kept as it was."""
_STATUS = {FAILED: "failed", EXPIRED: "expired", ABANDONED: "abandoned"}


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
    options: Mapped[str] = mapped_column(Text, default="{}", server_default="{}")
    """JSON object of the table's options (``spectator_chat``)."""


class MoveRow(Base):
    __tablename__ = "moves"

    table_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    """The version the move produced (1 for the first move of a table)."""
    seat: Mapped[int] = mapped_column(Integer)
    action: Mapped[int] = mapped_column(Integer)
    """The engine's action number, -1 for a rematch (a new match starts), or
    :data:`ARRANGED` for a Rummikub play."""
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


class LeaseRow(Base):
    """Which server process owns a table (web/leases.py; PostgreSQL only)."""

    __tablename__ = "leases"

    table_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    node: Mapped[str] = mapped_column(String(64))
    """The owning process's node id (``Settings.node_id``)."""
    token: Mapped[int] = mapped_column(BigInteger)
    """The fencing token: one more at every change of owner."""
    until: Mapped[float] = mapped_column(Float)
    """When the lease runs out, in seconds since the epoch by the database's clock."""


class AccountRow(Base):
    """A player's account (docs/accounts.md): no e-mail, nothing else personal."""

    __tablename__ = "accounts"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    username: Mapped[str] = mapped_column(String(64), unique=True)
    """As the player chose it, NFKC-normalised (web/usernames.py)."""
    lookup: Mapped[str] = mapped_column(String(128), unique=True)
    """The username case-folded: what signing in looks it up by."""
    password: Mapped[str] = mapped_column(Text)
    """The argon2id hash (PHC string: parameters, salt and hash)."""
    created: Mapped[float] = mapped_column(Float)


class AccountKeyRow(Base):
    """One look-alike key of a username (web/usernames.py): the primary key makes a
    name that shares any key with a taken one fail to insert."""

    __tablename__ = "account_keys"

    key: Mapped[str] = mapped_column(String(256), primary_key=True)
    account_id: Mapped[str] = mapped_column(String(32), index=True)


class SessionRow(Base):
    """One sign-in: the digest of the cookie's id, its account and CSRF token."""

    __tablename__ = "sessions"

    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    """SHA-256 of the session id the cookie carries."""
    account_id: Mapped[str] = mapped_column(String(32), index=True)
    csrf: Mapped[str] = mapped_column(String(64))
    created: Mapped[float] = mapped_column(Float)
    expires: Mapped[float] = mapped_column(Float)


class AccountSeatRow(Base):
    """A seat an account holds at a table (the seat's ``account`` in ``tables.seats``,
    kept here too so an account's tables are found without reading every table)."""

    __tablename__ = "account_seats"

    account_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    table_id: Mapped[str] = mapped_column(String(32), primary_key=True, index=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)


class RatingRow(Base):
    """An account's rating at one game (web/ratings.py)."""

    __tablename__ = "ratings"

    account_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(64), primary_key=True, index=True)
    """The preset a rated table plays (``gin``); indexed for its leaderboard."""
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer)
    updated: Mapped[float] = mapped_column(Float)


class RatedMatchRow(Base):
    """A rated match whose result was applied: one row per table and version it ended
    at, so that a result counts once whatever process applies it."""

    __tablename__ = "rated_matches"

    table_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    version: Mapped[int] = mapped_column(Integer, primary_key=True)
    game: Mapped[str] = mapped_column(String(64))
    result: Mapped[str] = mapped_column(Text)
    """JSON: per seat, the account, its place and its rating before and after."""
    at: Mapped[float] = mapped_column(Float)


class SeekRow(Base):
    """A quick-pairing seek (web/pairing.py, docs/protocol.md "Quick pairing"): a
    player waiting for opponents at a game, player count and turn timer, then the
    seat link they were given.  Kept in the database so that any server process
    pairs any seek, and a process that dies loses nobody."""

    __tablename__ = "seeks"

    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    """SHA-256 of the seek's token, which only its player holds."""
    holder: Mapped[str | None] = mapped_column(String(160), unique=True, nullable=True)
    """``account:<id>`` or ``address:<address>`` while the seek waits: one seek a
    player; None once paired."""
    account_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    name: Mapped[str] = mapped_column(String(64))
    game: Mapped[str] = mapped_column(String(64))
    """The preset, as it is."""
    players: Mapped[int] = mapped_column(Integer)
    timer: Mapped[float] = mapped_column(Float)
    """Seconds per turn; 0: no timer."""
    rated: Mapped[bool] = mapped_column(Boolean)
    bot: Mapped[bool] = mapped_column(Boolean)
    """Whether a medium bot may take the other seats after ``pair_bot_after``."""
    rating: Mapped[float] = mapped_column(Float)
    """The player's ``mu`` at the game when the seek was made (rated seeks)."""
    created: Mapped[float] = mapped_column(Float, index=True)
    expires: Mapped[float] = mapped_column(Float)
    status: Mapped[str] = mapped_column(String(16))
    """``waiting``, ``pairing`` (a process is making its table) or ``paired``."""
    claim: Mapped[str | None] = mapped_column(String(32), nullable=True)
    """The pairing that holds it (``pairing``, ``paired``)."""
    claim_until: Mapped[float] = mapped_column(Float, default=0.0)
    """When a ``pairing`` claim lapses and the seek waits again (its process died)."""
    table_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    link: Mapped[str | None] = mapped_column(Text, nullable=True)
    """The player's seat link, given to the seek's token until the row expires."""


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


def make_engine(url: str) -> Engine:
    """The engine for ``url`` as the server uses it (SQLite in WAL mode, PostgreSQL
    connections checked before use); a URL that names no usable database (a typo, a
    driver not installed) raises :class:`~rummykit.web.schema.SchemaError`."""
    url = normalize_url(url)
    kwargs: dict[str, Any] = {}
    if url.startswith("sqlite"):
        kwargs["connect_args"] = {"check_same_thread": False, "timeout": 30}
    else:
        kwargs["pool_pre_ping"] = True
    try:
        engine = create_engine(url, **kwargs)
    except ArgumentError as exc:  # also a dialect that does not exist
        raise SchemaError(f"bad database URL {shown_url(url)}: {exc}") from None
    except ImportError as exc:  # the dialect's driver is not installed
        hint = "; install rummykit[postgres]" if url.startswith("postgresql") else ""
        raise SchemaError(f"database {shown_url(url)}: driver missing ({exc}){hint}") from None
    if engine.dialect.name == "sqlite":
        event.listen(engine, "connect", _sqlite_pragmas)
    return engine


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
    options: dict[str, Any] = field(default_factory=dict)
    status: str = "active"
    """``active``, ``over`` (the match ended), ``failed``, ``expired`` or ``abandoned``
    (a rated match its player walked away from): these three are
    told by the table's last log row (:data:`FAILED`, :data:`EXPIRED`), so databases
    made before them need no new column."""
    note: str = ""
    """Why a failed table stopped (its last log row's text)."""
    ended_by: int = -1
    """The seat of the table's last log row when it ended the table (an abandoned
    match: the seat that abandoned it)."""
    updated: float = 0.0
    """``time.time()`` of the last move, seat change or visit (see :meth:`Store.touch`)."""


class StaleWriteError(RuntimeError):
    """A move written for a version the table has moved past (a second writer)."""


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
    lease: int | None = None
    """The writer's lease token when tables are shared by processes (web/leases.py):
    the write fails, as a stale one does, unless the writer still holds the table."""


class Store:
    """Synchronous storage; the server calls it from worker threads."""

    def __init__(self, url: str, *, migrate: bool = True) -> None:
        """Open the database at ``url`` and bring its schema to this release's
        (web/schema.py); with ``migrate`` False only check that it is there already.
        Either way a database that cannot be used raises
        :class:`~rummykit.web.schema.SchemaError` before anything is written."""
        self.url = normalize_url(url)
        self.is_sqlite = self.url.startswith("sqlite")
        self.engine: Engine = make_engine(self.url)
        try:
            if migrate:
                upgrade(self.engine)
            else:
                check(self.engine)
        except SchemaError:
            self.engine.dispose()
            raise
        self.session = sessionmaker(self.engine, expire_on_commit=False)
        self.notify_moves: str | None = None
        """Set by web/cluster.py to the process's node id: each stored move then sends
        a notice (PostgreSQL ``NOTIFY``) in its own transaction, so other processes hear
        of it exactly when it is committed, never before."""

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
                    options=json.dumps(t.options),
                )
            )
            _link_accounts(s, t.id, t.seats)

    def load_table(self, table_id: str) -> StoredTable | None:
        with self.session() as s:
            row = s.get(TableRow, table_id)
            if row is None:
                return None
            stored = _stored(row)
            if row.over:
                last = s.get(MoveRow, (row.id, row.version))
                stored.status = "over"
                if last is not None and last.action in _STATUS:
                    stored.status = _STATUS[last.action]
                    stored.note = last.text
                    stored.ended_by = last.seat
            return stored

    def drivable(self, limit: int) -> list[str]:
        """Unfinished tables that play by themselves (a bot seat or a turn timer), the
        most recently updated first: what the server loads at start-up."""
        with self.session() as s:
            rows = s.execute(
                select(TableRow.id, TableRow.seats, TableRow.timer)
                .where(TableRow.over.is_(False))
                .order_by(TableRow.updated.desc())
            )
            out: list[str] = []
            for table_id, seats, timer in rows:
                if timer or any(seat.get("kind") == "bot" for seat in json.loads(seats)):
                    out.append(table_id)
                    if len(out) >= limit:
                        break
            return out

    def expirable(
        self, open_before: float, over_before: float, limit: int
    ) -> list[tuple[str, int]]:
        """``(id, version)`` of tables untouched since ``open_before`` (unfinished) or
        ``over_before`` (over or failed, and no account held a seat: an account's
        finished games are its archive, web/profiles.py) that have not expired yet."""
        with self.session() as s:
            rows = s.execute(
                select(TableRow.id, TableRow.version)
                .outerjoin(
                    MoveRow,
                    and_(MoveRow.table_id == TableRow.id, MoveRow.seq == TableRow.version),
                )
                .where(
                    or_(
                        and_(TableRow.over.is_(False), TableRow.updated < open_before),
                        and_(
                            TableRow.over.is_(True),
                            TableRow.updated < over_before,
                            # a finished game of an account is its archive: it stays
                            ~exists().where(AccountSeatRow.table_id == TableRow.id),
                        ),
                    ),
                    or_(MoveRow.action.is_(None), MoveRow.action != EXPIRED),
                    # A table some process holds is in use there (web/leases.py).
                    ~exists().where(LeaseRow.table_id == TableRow.id, LeaseRow.until > time.time()),
                )
                .limit(limit)
            )
            return [(table_id, version) for table_id, version in rows]

    def mark(self, table_id: str, version: int, action: int, seat: int, text: str) -> bool:
        """End a table at ``version`` with a log row (:data:`FAILED`, :data:`EXPIRED`)
        and mark it over, in one transaction; the state is kept as it was.  False if
        the table is not at ``version`` any more (it moved on meanwhile)."""
        now = time.time()
        with self.engine.begin() as conn:
            res = conn.execute(
                update(TableRow)
                .where(TableRow.id == table_id, TableRow.version == version)
                .values(version=version + 1, over=True, updated=now)
            )
            if res.rowcount != 1:
                return False
            conn.execute(
                insert(MoveRow).values(
                    table_id=table_id, seq=version + 1, seat=seat, action=action, text=text,
                    auto=True, at=now,
                )
            )  # fmt: skip
            return True

    def touch(self, table_id: str, at: float) -> None:
        """Bring ``updated`` forward to ``at`` (someone was at the table until then), so
        an abandoned table's age counts from its last visit, not its last move."""
        with self.engine.begin() as conn:
            conn.execute(
                update(TableRow)
                .where(TableRow.id == table_id, TableRow.updated < at)
                .values(updated=at)
            )

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
            _link_accounts(s, table_id, seats)

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
                    _BUMP if c.lease is None else _BUMP_LEASED,
                    {
                        "t_id": c.table_id,
                        "t_prev": c.seq - 1,
                        "t_seq": c.seq,
                        "t_state": c.state,
                        "t_over": c.over,
                        "t_at": now,
                        "t_lease": c.lease,
                    },
                )
                if res.rowcount != 1:
                    raise StaleWriteError(
                        f"table {c.table_id} is not at version {c.seq - 1}"
                        + ("" if c.lease is None else f" or lease {c.lease} was lost")
                    )
            if self.notify_moves is not None:
                notices = {c.table_id: c.seq for c in commits}
                conn.execute(
                    text("SELECT pg_notify(:channel, :payload)"),
                    [
                        {"channel": MOVES_CHANNEL, "payload": f"m {self.notify_moves} {t} {v}"}
                        for t, v in notices.items()
                    ],
                )

    def ping(self) -> None:
        """One round trip to the database (``/healthz``); raises if it does not answer."""
        with self.engine.connect() as conn:
            conn.execute(text("SELECT 1"))

    def versions(self, table_ids: Sequence[str]) -> dict[str, int]:
        """The stored version of each table (a replica checks it has missed nothing)."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(TableRow.id, TableRow.version).where(TableRow.id.in_(list(table_ids)))
            )
            return {table_id: version for table_id, version in rows}

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
    def add_chat(
        self, table_id: str, seat: int, name: str, line: str, keep: int = CHAT_KEEP
    ) -> None:
        """Store one chat line, and delete the table's lines older than the last
        ``keep`` in the same transaction: a table's chat never outgrows ``keep`` rows."""
        with self.session.begin() as s:
            s.add(ChatRow(table_id=table_id, seat=seat, name=name, text=line, at=time.time()))
            s.flush()
            oldest_dropped = s.scalar(
                select(ChatRow.id)
                .where(ChatRow.table_id == table_id)
                .order_by(ChatRow.id.desc())
                .offset(keep)
                .limit(1)
            )
            if oldest_dropped is not None:
                s.execute(
                    delete(ChatRow).where(
                        ChatRow.table_id == table_id, ChatRow.id <= oldest_dropped
                    )
                )

    def chat(self, table_id: str, limit: int = CHAT_KEEP) -> list[ChatRow]:
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
_BUMP_LEASED = _BUMP.where(
    exists().where(LeaseRow.table_id == TableRow.id, LeaseRow.token == bindparam("t_lease"))
)
"""The same, only while the writer holds the table's lease with that token (fencing)."""
MOVES_CHANNEL = "rummykit_tables"
"""The PostgreSQL notification channel on which processes hear of each other's moves."""


def _link_accounts(s: Session, table_id: str, seats: list[dict[str, Any]]) -> None:
    """Make ``account_seats`` say which accounts hold the table's seats now."""
    held = {(seat["account"], i) for i, seat in enumerate(seats) if seat.get("account")}
    rows = s.execute(
        select(AccountSeatRow.account_id, AccountSeatRow.seat).where(
            AccountSeatRow.table_id == table_id
        )
    )
    known = {(account, seat) for account, seat in rows}
    for account, seat in known - held:
        s.execute(
            delete(AccountSeatRow).where(
                AccountSeatRow.table_id == table_id,
                AccountSeatRow.account_id == account,
                AccountSeatRow.seat == seat,
            )
        )
    for account, seat in sorted(held - known):
        s.add(AccountSeatRow(account_id=account, table_id=table_id, seat=seat))


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
        options=json.loads(row.options or "{}"),
        updated=row.updated,
    )


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cur = dbapi_connection.cursor()
    # WAL survives a killed process with synchronous=NORMAL (only an OS crash could
    # lose the last transactions), and readers do not block the writer.
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA synchronous=NORMAL")
    cur.close()

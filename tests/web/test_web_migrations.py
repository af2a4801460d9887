"""Schema migrations (issue #18): databases made by earlier releases upgrade in place and
are played on by the server (the accounts' revision, 0003, on the previous schema's
database too); newer ones are refused untouched; ``rummy db``; the
migrated schema is the models' one; concurrent upgrades on PostgreSQL.

The earlier releases' databases come from fixed fixtures (tests/web/fixtures/db-*.sql and
db-release-rows.json): the DDL those releases ran and the rows the last one wrote for a
table it played, so these tests do not depend on the code they test.
"""

from __future__ import annotations

import importlib.util
import json
import shutil
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import create_engine, inspect, text
from sqlalchemy.engine import Engine

from rummykit.cli import main
from rummykit.web import Settings
from rummykit.web import schema as schema_module
from rummykit.web.account_store import Account, AccountStore
from rummykit.web.profiles import ProfileStore
from rummykit.web.schema import (
    LEGACY,
    MIGRATIONS,
    SchemaError,
    alembic_config,
    head,
    status,
    upgrade,
)
from rummykit.web.seek_store import NewSeek, SeekStore
from rummykit.web.store import Base, Store, make_engine
from rummykit.web.usernames import username_keys
from web_helpers import Client, ServerThread, free_port, postgres_cluster

FIXTURES = Path(__file__).parent / "fixtures"
RELEASE = json.loads((FIXTURES / "db-release-rows.json").read_text(encoding="utf-8"))
TABLE: str = RELEASE["table"]
PLAYED = 13
"""The version the release left the fixture's table at."""
HEAD = "0008"
"""The newest revision (the addresses' sign-ins and sign-ups)."""


# -- databases ------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def pg_server() -> Iterator[str]:
    """One throwaway PostgreSQL cluster for the module; each test gets its own database."""
    with postgres_cluster() as url:
        yield url


_made = iter(range(1, 10_000))


@pytest.fixture(
    params=["sqlite", pytest.param("postgresql", marks=pytest.mark.web_slow)],
)
def url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """An empty database of each kind."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'rummy.db'}"
    server: str = request.getfixturevalue("pg_server")
    name = f"t{next(_made)}"
    admin = _engine(server, autocommit=True)
    with admin.connect() as conn:
        conn.execute(text(f"CREATE DATABASE {name}"))
    admin.dispose()
    return server.rsplit("/", 1)[0] + "/" + name


def _engine(url: str, autocommit: bool = False) -> Engine:
    """A plain engine, not the store's (the fixtures must not depend on it)."""
    url = url.replace("postgresql://", "postgresql+psycopg://", 1)
    return create_engine(url, isolation_level="AUTOCOMMIT" if autocommit else None)


def make_release_db(url: str, ddl: str = "db-release") -> None:
    """The database an earlier release made: its DDL, then the rows the last release
    wrote for a table it played to version 13 (columns the schema lacks are left out)."""
    engine = _engine(url)
    dialect = "postgresql" if url.startswith("postgres") else "sqlite"
    script = (FIXTURES / f"{ddl}.{dialect}.sql").read_text(encoding="utf-8")
    with engine.begin() as conn:
        for statement in filter(str.strip, script.split(";\n")):
            conn.execute(text(statement))
        for name, rows in RELEASE["rows"].items():
            have = {c["name"] for c in inspect(conn).get_columns(name)}
            for row in rows:
                cols = [c for c in row if c in have]
                quoted = ", ".join(f'"{c}"' for c in cols)
                params = ", ".join(f":{c}" for c in cols)
                conn.execute(
                    text(f"INSERT INTO {name} ({quoted}) VALUES ({params})"),
                    {c: row[c] for c in cols},
                )
    engine.dispose()


def snapshot(url: str) -> dict[str, Any]:
    """Every table's columns and rows: to show a refused database was left as it was."""
    engine = _engine(url)
    with engine.connect() as conn:
        out: dict[str, Any] = {}
        for name in sorted(inspect(conn).get_table_names()):
            cols = [c["name"] for c in inspect(conn).get_columns(name)]
            rows = conn.execute(text(f"SELECT * FROM {name}")).all()
            out[name] = (cols, sorted(tuple(map(str, r)) for r in rows))
    engine.dispose()
    return out


def schema_differences(url: str) -> list[Any]:
    """What Alembic's autogenerate would change to make the database match the models."""
    engine = _engine(url)
    with engine.connect() as conn:
        diff = compare_metadata(MigrationContext.configure(conn), Base.metadata)
    engine.dispose()
    return list(diff)


def revision_of(url: str) -> list[str]:
    engine = _engine(url)
    with engine.connect() as conn:
        rows = [r[0] for r in conn.execute(text("SELECT version_num FROM alembic_version"))]
    engine.dispose()
    return rows


def db(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["db", *argv])
    out, err = capsys.readouterr()
    return code, out, err


# -- playing on -----------------------------------------------------------------------------
def play_round(url: str) -> int:
    """Start the server on ``url``, sit down as the fixture's player and play (the first
    legal move each turn: melds come first) until the round, and so the one-deal match,
    is over; return the final version."""
    settings = Settings(
        database_url=url, bot_delay=0.0, bot_workers=0, rate=10_000, burst=10_000,
        tables_per_minute=0, sockets_per_minute=0,
    )  # fmt: skip
    with ServerThread(settings) as server:
        c = Client(server.base, TABLE)
        try:
            c.send({"type": "hello", "seat": RELEASE["seat"], "secret": RELEASE["secret"]})
            c.until(lambda m: m["type"] == "welcome")
            s = c.until(lambda m: m["type"] == "state")
            assert s["version"] >= PLAYED, "the release's moves were lost"
            assert [e["seq"] for e in s["log"]][-1] == s["version"]
            for _ in range(1000):
                g = s["game"]
                if g["phase"] == "over":
                    return int(s["version"])
                if g["current"] == RELEASE["seat"] and g["legal"]:
                    move = {"kind": "text", "text": g["legal"][0]["text"]}
                    c.send({"type": "move", "version": s["version"], "move": move})
                s = c.until(lambda m, v=s["version"]: m["type"] == "state" and m["version"] > v)
            raise AssertionError("the round did not end")
        finally:
            c.close()


def assert_log_contiguous(url: str, final: int) -> None:
    engine = _engine(url)
    with engine.connect() as conn:
        seqs = [
            r[0]
            for r in conn.execute(
                text("SELECT seq FROM moves WHERE table_id = :t ORDER BY seq"), {"t": TABLE}
            )
        ]
        version = conn.execute(text("SELECT version FROM tables WHERE id = :t"), {"t": TABLE})
        assert version.scalar_one() == final
    engine.dispose()
    assert seqs == list(range(1, final + 1))


# -- the tests ------------------------------------------------------------------------------
def test_a_fresh_database_gets_exactly_the_models_schema(url: str) -> None:
    store = Store(url)
    store.close()
    assert schema_differences(url) == []
    assert revision_of(url) == [head()] == [HEAD]


def test_the_release_database_upgrades_on_start_and_plays_on(url: str) -> None:
    """Issue #18: "a test upgrades a database made by the current schema and plays on"."""
    make_release_db(url)
    final = play_round(url)  # the server upgrades at start (migrate is on by default)
    assert final > PLAYED
    assert revision_of(url) == [HEAD]
    assert schema_differences(url) == []
    assert_log_contiguous(url, final)


def test_rummy_db_upgrades_a_database_older_than_options(
    url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    make_release_db(url, "db-pre-options")
    code, out, _ = db(capsys, "current", "--database", url)
    assert code == 1 and f"made before migrations, behind {HEAD}: run `rummy db upgrade`" in out
    code, out, _ = db(capsys, "upgrade", "--database", url)
    assert code == 0
    assert out.endswith(f"upgraded from a database made before migrations to revision {HEAD}\n")
    code, out, _ = db(capsys, "current", "--database", url)
    assert code == 0 and out.endswith(f": revision {HEAD} (up to date)\n")
    code, out, _ = db(capsys, "upgrade", "--database", url)
    assert code == 0 and out.endswith(f": already at revision {HEAD} (up to date)\n")
    assert schema_differences(url) == []
    store = Store(url, migrate=False)
    try:
        t = store.load_table(TABLE)
        assert t is not None and t.version == PLAYED and t.options == {}
    finally:
        store.close()
    assert_log_contiguous(url, play_round(url))


def test_rummy_db_upgrades_an_empty_database(url: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = db(capsys, "current", "--database", url)
    assert code == 1 and out.endswith(
        f": an empty database, behind {HEAD}: run `rummy db upgrade`\n"
    )
    code, out, _ = db(capsys, "upgrade", "--database", url)
    assert code == 0 and out.endswith(f": upgraded from an empty database to revision {HEAD}\n")
    assert schema_differences(url) == []


def test_a_database_from_a_newer_release_is_refused_untouched(
    url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    Store(url).close()
    engine = _engine(url)
    with engine.begin() as conn:
        conn.execute(text("UPDATE alembic_version SET version_num = '0099'"))
        conn.execute(text("CREATE TABLE newer (x INTEGER)"))
    engine.dispose()
    before = snapshot(url)
    with pytest.raises(SchemaError, match=r"revision 0099, unknown to this release .*newer"):
        Store(url)
    with pytest.raises(SchemaError, match="0099"):
        Store(url, migrate=False)
    code, out, err = db(capsys, "upgrade", "--database", url)
    assert code == 2 and out == ""
    assert err.startswith("rummy: error: cannot upgrade the database: revision 0099")
    assert err.count("\n") == 1 and "upgrade rummykit" in err
    code, out, _ = db(capsys, "current", "--database", url)
    assert code == 1 and "revision 0099, unknown to this release" in out
    assert snapshot(url) == before


def test_no_migrate_refuses_a_database_that_is_behind(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    url = f"sqlite:///{tmp_path / 'old.db'}"
    make_release_db(url)
    before = snapshot(url)
    port = str(free_port())
    code, out, err = (main(["serve", "--database", url, "--no-migrate", "--port", port]),
                      *capsys.readouterr())  # fmt: skip
    assert code == 2 and out == "" and err.count("\n") == 1
    assert f"made before migrations, behind {HEAD}: run `rummy db upgrade`" in err
    monkeypatch.setenv("RUMMYKIT_MIGRATE", "0")
    code = main(["serve", "--database", url, "--port", port])
    assert code == 2 and "run `rummy db upgrade`" in capsys.readouterr().err
    assert snapshot(url) == before
    # the server process itself, as a deployment starts it
    proc = subprocess.run(
        [sys.executable, "-m", "rummykit.web", "--database", url, "--no-migrate",
         "--port", port],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert proc.returncode == 2 and "run `rummy db upgrade`" in proc.stderr
    assert "Traceback" not in proc.stderr
    assert snapshot(url) == before
    # once upgraded, --no-migrate starts on it
    assert db(capsys, "upgrade", "--database", url)[0] == 0
    Store(url, migrate=False).close()


def test_a_database_made_by_create_all_with_leases_is_stamped_at_0002(tmp_path: Path) -> None:
    """A development version between the last release and migrations made ``leases``
    with ``create_all`` too (its four tables): that database is at 0002 already, not
    re-created, and the later revisions run on it."""
    url = f"sqlite:///{tmp_path / 'dev.db'}"
    engine = _engine(url)
    then = [Base.metadata.tables[n] for n in ("tables", "moves", "chat", "leases")]
    Base.metadata.create_all(engine, tables=then)
    engine.dispose()
    engine = make_engine(url)
    before, after = upgrade(engine)
    engine.dispose()
    assert before.current == LEGACY and after.current == HEAD and after.up_to_date
    assert schema_differences(url) == []


@pytest.mark.parametrize(
    ("ddl", "foreign", "message"),
    [
        (None, "CREATE TABLE tables (id INTEGER PRIMARY KEY, name TEXT)",
         "its table 'tables' lacks created, over, public, seats"),
        ("db-release",
         "CREATE TABLE leases (table_id VARCHAR(32) PRIMARY KEY, node TEXT, token BIGINT, "
         "until FLOAT, owner TEXT)",
         "its table 'leases' has owner"),
        ("db-pre-options", "CREATE TABLE leases (table_id VARCHAR(32) PRIMARY KEY)",
         "its table 'leases' lacks node, token, until"),
        ("db-release", "DROP TABLE chat", "its table 'chat' lacks at, id, name"),
    ],
)  # fmt: skip
def test_tables_rummykit_did_not_make_are_refused_untouched(
    url: str, capsys: pytest.CaptureFixture[str], ddl: str | None, foreign: str, message: str
) -> None:
    """A database without a revision is adopted only if its tables are the ones the
    releases before migrations made: another program's ``tables`` (or ``leases``) is
    refused before anything is changed, not stamped as ours (nor given ``options``)."""
    if ddl is not None:
        make_release_db(url, ddl)
    engine = _engine(url)
    with engine.begin() as conn:
        conn.execute(text(foreign))
    engine.dispose()
    before = snapshot(url)
    with pytest.raises(SchemaError, match=message):
        Store(url)
    code, out, err = db(capsys, "upgrade", "--database", url)
    assert code == 2 and out == "" and err.count("\n") == 1
    assert message in err and "rummykit did not make it; nothing was changed" in err
    assert snapshot(url) == before


FAILING_REVISION = """
import sqlalchemy as sa
from alembic import op

revision = "0099"
down_revision = "{head}"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table("half", sa.Column("id", sa.Integer, primary_key=True))
    op.add_column("tables", sa.Column("extra", sa.Text, nullable=True))
    op.execute("INSERT INTO no_such_table VALUES (1)")
"""


@pytest.mark.parametrize("start", ["empty", "before migrations", "head"])
def test_a_revision_failing_halfway_changes_nothing(
    url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, start: str
) -> None:
    """The adoption and the revisions run in one transaction, on SQLite too (whose
    driver would commit each CREATE and ALTER on its own): a next release's revision
    that fails after making a table leaves the database exactly as it was."""
    if start == "before migrations":
        make_release_db(url, "db-pre-options")
    elif start == "head":
        Store(url).close()
    before = snapshot(url)
    shutil.copytree(MIGRATIONS, tmp_path / "migrations")
    (tmp_path / "migrations" / "versions" / "v0099_half.py").write_text(
        FAILING_REVISION.replace("{head}", HEAD)
    )
    monkeypatch.setattr(schema_module, "MIGRATIONS", tmp_path / "migrations")
    with pytest.raises(SchemaError, match="no_such_table"):
        Store(url)
    assert snapshot(url) == before


def test_a_new_revision_comes_from_the_shipped_template(tmp_path: Path) -> None:
    """docs/database.md's recipe for the next schema change: autogenerate against a
    database at the head, in a copy of the migrations (not to touch the package)."""
    shutil.copytree(MIGRATIONS, tmp_path / "migrations")
    url = f"sqlite:///{tmp_path / 'dev.db'}"
    engine = make_engine(url)
    upgrade(engine)
    with engine.begin() as conn:
        config = alembic_config(conn)
        config.set_main_option("script_location", str(tmp_path / "migrations"))
        command.revision(config, "next change", autogenerate=True, rev_id="0099")
    engine.dispose()
    (made,) = (tmp_path / "migrations" / "versions").glob("v0099_*.py")
    assert made.name == "v0099_next_change.py"
    source = made.read_text(encoding="utf-8")
    compile(source, str(made), "exec")
    assert "revision = '0099'" in source and f"down_revision = '{HEAD}'" in source
    assert f"Revision 0099, after {HEAD}." in source
    assert "op." not in source.split("def upgrade")[1]  # the models are the schema


def test_bad_and_unreachable_databases_are_one_line(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    closed = f"postgresql://rummy:hunter2@127.0.0.1:{free_port()}/rummy"
    cases = [
        ("nonsense", "bad database URL 'nonsense'"),
        ("nosuchdb://x/y", "bad database URL nosuchdb://x/y"),
        (closed, "Connection refused"),
        (f"sqlite:///{tmp_path}/missing/dir/x.db", "unable to open database file"),
    ]
    if importlib.util.find_spec("MySQLdb") is None:  # a dialect whose driver is missing
        cases.append(("mysql://u@127.0.0.1/x", "driver missing (No module named 'MySQLdb')"))
    for bad, says in cases:
        for action in ("upgrade", "current"):
            code, out, err = db(capsys, action, "--database", bad)
            assert code == 2 and out == "", (bad, out)
            assert err.startswith("rummy: error: ") and err.count("\n") == 1, err
            assert says in err and "hunter2" not in err and "Traceback" not in err, err
    # the server opens its database before it listens: the same line, no traceback
    code = main(["serve", "--database", closed, "--port", str(free_port())])
    _, err = capsys.readouterr()
    assert code == 2 and err.count("\n") == 1 and "Connection refused" in err, err
    # the default database is the server's: $RUMMYKIT_DATABASE_URL
    monkeypatch.setenv("RUMMYKIT_DATABASE_URL", f"sqlite:///{tmp_path / 'env.db'}")
    code, out, _ = db(capsys, "upgrade")
    assert code == 0 and out.startswith(f"sqlite:///{tmp_path / 'env.db'}: upgraded from")


@pytest.mark.web_slow
def test_concurrent_upgrades_on_postgresql_make_one_schema(pg_server: str) -> None:
    """Three processes starting at once on a fresh database (here threads, each with its
    own connections): the advisory lock lets one migrate, the others find it done."""
    name = "concurrent"
    admin = _engine(pg_server, autocommit=True)
    with admin.connect() as conn:
        conn.execute(text(f"CREATE DATABASE {name}"))
    admin.dispose()
    url = pg_server.rsplit("/", 1)[0] + "/" + name
    barrier = threading.Barrier(3)
    results: list[object] = []

    def start() -> None:
        engine = make_engine(url)
        try:
            barrier.wait()
            results.append(upgrade(engine))
        except Exception as exc:  # reported below
            results.append(exc)
        finally:
            engine.dispose()

    threads = [threading.Thread(target=start, daemon=True) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert len(results) == 3 and not [r for r in results if isinstance(r, Exception)], results
    befores = sorted(str(r[0].current) for r in results)  # type: ignore[index]
    assert befores == [HEAD, HEAD, "None"], "exactly one of them migrated"
    assert revision_of(url) == [HEAD]
    assert schema_differences(url) == []
    engine = make_engine(url)
    assert status(engine).up_to_date
    engine.dispose()


def migrate_only_to(revision: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Make :class:`Store` migrate only up to ``revision``, as an older release did:
    a copy of the migrations without the newer revisions."""
    previous = tmp_path / "migrations"
    shutil.copytree(MIGRATIONS, previous)
    for newer in (previous / "versions").glob("v*.py"):
        if newer.name[1:5] > revision:
            newer.unlink()
    monkeypatch.setattr(schema_module, "MIGRATIONS", previous)


def test_a_database_at_0002_upgrades_to_accounts_and_plays_on(
    url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The previous schema (revision 0002, with the release's played table) gets the
    accounts' tables (0003, 0004) in place: its games load and play on, and accounts
    work."""
    make_release_db(url)
    migrate_only_to("0002", tmp_path, monkeypatch)
    Store(url).close()
    assert revision_of(url) == ["0002"]
    before = snapshot(url)
    assert "accounts" not in before
    monkeypatch.setattr(schema_module, "MIGRATIONS", MIGRATIONS)
    store = Store(url)
    try:
        assert revision_of(url) == [HEAD]
        after = snapshot(url)
        kept = {k: v for k, v in after.items() if k in before and k != "alembic_version"}
        assert kept == {k: v for k, v in before.items() if k != "alembic_version"}
        assert {"accounts", "account_keys", "sessions", "account_seats", "ratings"} <= set(after)
        t = store.load_table(TABLE)
        assert t is not None and t.version == PLAYED
        rows = AccountStore(store)
        ann = Account("a" * 32, "Ann", 1.0)
        assert rows.create(ann, username_keys("Ann"), "ann", "hash")
        assert not rows.create(Account("b" * 32, "ANN", 1.0), username_keys("ANN"), "ann2", "h")
        assert rows.find("ann") == (ann, "hash")
    finally:
        store.close()
    assert schema_differences(url) == []
    assert_log_contiguous(url, play_round(url))


def test_a_database_at_0004_upgrades_to_the_seek_queue_and_keeps_its_ratings(
    url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The previous schema (revision 0004: the release's played table, an account and
    its rating) gets the seeks table (0005) in place; what it had stays, and seeks
    queue and pair."""
    make_release_db(url)
    migrate_only_to("0004", tmp_path, monkeypatch)
    store = Store(url)
    try:
        rows = AccountStore(store)
        ann = Account("a" * 32, "Ann", 1.0)
        assert rows.create(ann, username_keys("Ann"), "ann", "hash")
        assert rows.rate("t" * 12, 3, "gin", [ann.id, "b" * 32], [1, 2]) is not None
    finally:
        store.close()
    assert revision_of(url) == ["0004"]
    before = snapshot(url)
    assert "seeks" not in before
    monkeypatch.setattr(schema_module, "MIGRATIONS", MIGRATIONS)
    store = Store(url)
    try:
        assert revision_of(url) == [HEAD]
        after = snapshot(url)
        kept = {k: v for k, v in after.items() if k in before and k != "alembic_version"}
        assert kept == {k: v for k, v in before.items() if k != "alembic_version"}
        assert after["seeks"][1] == []
        assert AccountStore(store).ratings_of(ann.id)[0][0] == "gin"
        queue = SeekStore(store)
        for i, holder in enumerate(("account:" + ann.id, "address:10.0.0.1")):
            new = NewSeek(f"s{i}", holder, None, f"P{i}", "gin", 2, 0.0, False, False, 25.0)
            assert queue.add(new, 100.0 + i, 60.0)
        (taken,) = queue.take(Settings(), 102.0)
        links = {seek_id: f"/play/x#{seek_id}" for seek_id, _, _ in taken.seats}
        assert queue.seat(taken.claim, links, "x", 102.0, 300.0)
        view = queue.view("s0", 103.0, 60.0)
        assert view is not None and view.status == "paired" and view.link == "/play/x#s0"
    finally:
        store.close()
    assert schema_differences(url) == []


def rated_pair_at(
    revision: str, url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Account:
    """The release's database migrated to ``revision`` only, with two accounts (Ann,
    the one returned, and Bob) and a rated Gin match between them; then every
    migration shipped is offered, and the first :class:`Store` upgrades to the newest:
    the check that every table of ``revision`` keeps its rows is made here."""
    make_release_db(url)
    migrate_only_to(revision, tmp_path, monkeypatch)
    store = Store(url)
    try:
        rows = AccountStore(store)
        ann, bob = Account("a" * 32, "Ann", 1.0), Account("b" * 32, "Bob", 2.0)
        assert rows.create(ann, username_keys("Ann"), "ann", "hash")
        assert rows.create(bob, username_keys("Bob"), "bob", "hash")
        assert rows.rate("t" * 12, 3, "gin", [ann.id, bob.id], [2, 1]) is not None
    finally:
        store.close()
    assert revision_of(url) == [revision]
    before = snapshot(url)
    monkeypatch.setattr(schema_module, "MIGRATIONS", MIGRATIONS)
    Store(url).close()
    assert revision_of(url) == [HEAD]
    after = snapshot(url)
    kept = {k: v for k, v in after.items() if k in before and k != "alembic_version"}
    assert kept == {k: v for k, v in before.items() if k != "alembic_version"}
    return ann


def test_a_database_at_0005_upgrades_to_the_leaderboards_index_and_keeps_its_games(
    url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The previous schema (revision 0005: the release's played table, two accounts and
    their ratings) gets the index of ratings by game (0006); what it had stays, and
    the leaderboard and the players' pages read it."""
    ann = rated_pair_at("0005", url, tmp_path, monkeypatch)
    store = Store(url)
    try:
        engine = _engine(url)
        with engine.connect() as conn:
            indexes = {i["name"] for i in inspect(conn).get_indexes("ratings")}
        engine.dispose()
        assert "ix_ratings_game" in indexes
        board = ProfileStore(store).leaderboard("gin", 10)
        assert [name for name, _, _ in board] == ["Bob", "Ann"]
        assert ProfileStore(store).account("ann") == ann
        t = store.load_table(TABLE)
        assert t is not None and t.version == PLAYED
    finally:
        store.close()
    assert schema_differences(url) == []
    assert_log_contiguous(url, play_round(url))


def test_a_database_at_0006_upgrades_to_the_shared_sign_in_failures_and_seat_addresses(
    url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The previous schema (revision 0006, with an account, its session and rating)
    gets ``signin_failures`` and ``seat_addresses`` (0007), empty; what it had
    stays, and the new tables count and keep."""
    rated_pair_at("0006", url, tmp_path, monkeypatch)
    store = Store(url)
    try:
        after = snapshot(url)
        assert after["signin_failures"][1] == [] and after["seat_addresses"][1] == []
        rows = AccountStore(store)
        delays = [rows.signin_failed("k" * 64, 100.0 + i, 1, 2.0, 8.0, 3600.0) for i in range(4)]
        assert delays == [0.0, 2.0, 4.0, 8.0]
        assert rows.signin_until("k" * 64) == 103.0 + 8.0
        rows.seat_seen(TABLE, 0, "d" * 64, 100.0)
        rows.seat_seen(TABLE, 0, "d" * 64, 101.0)
        assert rows.seat_addresses(TABLE) == {0: {"d" * 64}}
        t = store.load_table(TABLE)
        assert t is not None and t.version == PLAYED
    finally:
        store.close()
    assert schema_differences(url) == []


def test_a_database_at_0007_upgrades_to_the_shared_address_limits(
    url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The previous schema (revision 0007, with two accounts and their rated match)
    gets ``address_limits`` (0008), empty; what it had stays, and the new table
    counts an address's sign-ins."""
    rated_pair_at("0007", url, tmp_path, monkeypatch)
    store = Store(url)
    try:
        assert snapshot(url)["address_limits"][1] == []
        rows = AccountStore(store)
        assert [rows.address_take("signin", "d" * 64, 100.0, 2.0) for _ in range(3)] == [
            0.0,
            0.0,
            30.0,
        ]
        assert rows.forget_address_limits(161.0) == 1
        t = store.load_table(TABLE)
        assert t is not None and t.version == PLAYED
    finally:
        store.close()
    assert schema_differences(url) == []

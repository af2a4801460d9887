"""Table leases in PostgreSQL: which server process owns a table.

One row of ``leases`` per table that some process owns or owned: the process's node id,
a fencing token and the time the lease runs out, in seconds by the *database's* clock
(``clock_timestamp()``), so the processes' own clocks never have to agree.

* A process *acquires* a table when it has no lease row or the lease ran out; the
  token goes up by one at every acquisition, so two owners never share a token.
* The owner *renews* its leases every second (:data:`RENEW_EVERY` of the lease), all in
  one statement; a lease it finds taken by another process is lost.
* Every move the owner stores is conditional on its token (``Store.commit_moves``):
  once another process has taken the table, the old owner's writes fail in the same
  UPDATE that would bump the version, so it can never fork the game, even if it has
  not noticed yet that it lost the lease.

Synchronous, like :class:`~rummykit.web.store.Store`: the server calls it from its
database threads.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sqlalchemy import bindparam, text
from sqlalchemy.engine import Engine

NOW = "extract(epoch from clock_timestamp())"
"""The database's clock, in seconds since the epoch."""

_ACQUIRE = text(
    f"""
    INSERT INTO leases (table_id, node, token, until)
    VALUES (:t, :node, 1, {NOW} + :ttl)
    ON CONFLICT (table_id) DO UPDATE
        SET node = excluded.node, token = leases.token + 1, until = excluded.until
        WHERE leases.until < {NOW}
    RETURNING token
    """
)
_RENEW = text(
    f"""
    UPDATE leases SET until = {NOW} + :ttl
    WHERE node = :node AND table_id IN :ids
    RETURNING table_id, token
    """
).bindparams(bindparam("ids", expanding=True))
_RELEASE = text(
    "UPDATE leases SET until = 0 WHERE table_id = :t AND node = :node AND token = :token"
)
_RELEASE_ALL = text("UPDATE leases SET until = 0 WHERE node = :node")
_OWNER = text(f"SELECT node, token, until < {NOW} FROM leases WHERE table_id = :t")
_HELD = text(f"SELECT table_id FROM leases WHERE table_id IN :ids AND until >= {NOW}").bindparams(
    bindparam("ids", expanding=True)
)
_ORPHANS = text(
    f"""
    SELECT t.id FROM tables t LEFT JOIN leases l ON l.table_id = t.id
    WHERE NOT t.over
      AND (l.table_id IS NULL OR l.until < {NOW})
      AND (t.timer > 0 OR t.seats LIKE '%"kind": "bot"%')
    ORDER BY t.updated DESC
    LIMIT :limit
    """
)


@dataclass(frozen=True, slots=True)
class Owner:
    """Who holds a table's lease row, and whether it has run out."""

    node: str
    token: int
    expired: bool


class Leases:
    """The lease statements of one process (``node``), leases of ``ttl`` seconds."""

    def __init__(self, engine: Engine, node: str, ttl: float) -> None:
        self.engine = engine
        self.node = node
        self.ttl = ttl

    def acquire(self, table_id: str) -> int | None:
        """Take the table if nobody holds a live lease on it: the new token, or None."""
        with self.engine.begin() as conn:
            row = conn.execute(_ACQUIRE, {"t": table_id, "node": self.node, "ttl": self.ttl})
            token = row.scalar()
        return None if token is None else int(token)

    def renew(self, owned: dict[str, int]) -> set[str]:
        """Extend the leases of ``owned`` (table id -> token); the ids whose lease this
        process has lost (another took it, with a newer token)."""
        if not owned:
            return set()
        with self.engine.begin() as conn:
            rows = conn.execute(
                _RENEW, {"node": self.node, "ttl": self.ttl, "ids": sorted(owned)}
            ).all()
        held = {table_id for table_id, token in rows if owned.get(table_id) == token}
        return set(owned) - held

    def release(self, table_id: str, token: int) -> None:
        """Give a table up (it leaves memory, or goes to its players' process): another
        process may take it at once.  The row stays, run out, so the next owner's token
        is still a new one (a deleted row would start again at 1)."""
        with self.engine.begin() as conn:
            conn.execute(_RELEASE, {"t": table_id, "node": self.node, "token": token})

    def release_all(self) -> None:
        """Give up every lease of this node (a clean shutdown)."""
        with self.engine.begin() as conn:
            conn.execute(_RELEASE_ALL, {"node": self.node})

    def owner(self, table_id: str) -> Owner | None:
        with self.engine.connect() as conn:
            row = conn.execute(_OWNER, {"t": table_id}).first()
        return None if row is None else Owner(str(row[0]), int(row[1]), bool(row[2]))

    def unheld(self, table_ids: Sequence[str]) -> set[str]:
        """Those of ``table_ids`` that no process holds a live lease on."""
        if not table_ids:
            return set()
        with self.engine.connect() as conn:
            held = {str(r[0]) for r in conn.execute(_HELD, {"ids": list(table_ids)})}
        return set(table_ids) - held

    def orphans(self, limit: int) -> Sequence[str]:
        """Unfinished tables that play by themselves (a bot seat or a turn timer) and
        that no process holds: the ones a dead process left behind."""
        with self.engine.connect() as conn:
            return [str(r[0]) for r in conn.execute(_ORPHANS, {"limit": limit})]

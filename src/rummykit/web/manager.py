"""The table registry: every table this process has in memory, loaded on demand.

:class:`Manager` wires the parts of the server together and loads tables: the store
and its thread pools, the host (web/host.py: this process alone, or a cluster), the
fan-out to clients (web/fanout.py), the table service (web/service.py), the drivers
(web/driver.py), the sessions (web/session.py), and the residency that unloads and
expires tables (web/residency.py).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from typing import Any, TypeVar

from ..bots.hints import Hint
from ..melds import keep_meld_tables
from ..rules import Rules
from .accounts import Accounts
from .cluster import Cluster
from .commits import GroupCommit
from .driver import Driver
from .fanout import Fanout
from .host import Host, LocalHost
from .limits import AddressLimiter
from .live import LOG_LENGTH, LiveTable, bots_only, chat_entry, log_entry, seats_from
from .residency import CLOSE_GONE, Residency, Unavailable, expired
from .reviews import Reviewer
from .seeks import Seeker
from .service import TableService
from .session import Sessions
from .settings import Settings
from .store import FAILED, Store, StoredTable, default_database_url
from .thinking import Thinker, default_workers

log = logging.getLogger("rummykit.web")
T = TypeVar("T")

HEALTH_TIMEOUT = 2.0
"""Seconds ``/healthz`` waits for the database before it answers 503."""


class Manager:
    """Every live table, and the parts that serve them."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        keep_meld_tables(settings.rule_sets)
        self.store = Store(
            settings.database_url or default_database_url(), migrate=settings.migrate
        )
        # SQLite has one writer: a single thread keeps writes in order without lock waits.
        self.db_pool = ThreadPoolExecutor(
            max_workers=1 if self.store.is_sqlite else 4, thread_name_prefix="rummy-db"
        )
        self.builder = ThreadPoolExecutor(max_workers=1, thread_name_prefix="rummy-melds")
        """Builds new rule sets' meld tables, one at a time: the event loop's thread
        then shares the interpreter with one such thread, not with several."""
        self.commits = GroupCommit(self.store, self.db)
        self.tables: dict[str, LiveTable] = {}
        self.loading: dict[str, asyncio.Lock] = {}
        workers = settings.bot_workers if settings.bot_workers >= 0 else default_workers()
        self.thinker = Thinker(workers, settings.bot_nice)
        self.reviewer = Reviewer.from_settings(self.thinker, settings)
        self.hints: dict[tuple[str, int, int], asyncio.Future[Hint]] = {}
        """The hint being worked out for each (table, version, seat): one at a time, and
        every tab of the seat that asks for it meanwhile waits for the same one."""
        self.hint_limit = AddressLimiter(
            settings.hints_per_minute, max_addresses=settings.limit_addresses
        )
        self.cluster = Cluster(self) if settings.cluster and not self.store.is_sqlite else None
        """Set when tables are shared with other processes (PostgreSQL, web/cluster.py)."""
        self.residency = Residency(self)
        self.host: Host = self.cluster or LocalHost(self.start_driver, self.residency)
        self.fanout: Fanout = Fanout(settings, self.host)
        self.service: TableService = TableService(
            settings,
            self.store,
            self.db,
            self.commits,
            self.builder,
            self.host,
            self.fanout,
            self.residency,
            self.tables,
        )
        self.driver: Driver = Driver(settings, self.thinker, self.service)
        self.sessions = Sessions(self)
        self.accounts = Accounts(settings, self.store, self.db)
        self.seeker = Seeker(settings, self.store, self.db, self.service)
        """Quick pairing: the seeks and this process's pairer (web/seeks.py)."""

    def start_driver(self, live: LiveTable) -> None:
        """Play the table's bots and absent players (web/driver.py)."""
        self.driver.start(live)

    async def healthy(self) -> bool:
        """Whether the database answers within :data:`HEALTH_TIMEOUT` seconds and the
        host can serve (with other processes: the notification connection is up)."""
        if not self.host.healthy():
            return False
        try:
            async with asyncio.timeout(HEALTH_TIMEOUT):
                await self.db(self.store.ping)
        except Exception:
            return False
        return True

    async def db(self, fn: Callable[..., T], *args: Any) -> T:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self.db_pool, partial(fn, *args))

    async def start(self) -> None:
        """Start hosting: load (or, with other processes, take) the tables that play by
        themselves; the others load on demand."""
        await self.host.start()
        self.seeker.start()

    async def stop(self) -> None:
        await self.seeker.stop()
        await self.residency.stop()
        await self.driver.stop_all(list(self.tables.values()))
        await self.thinker.close()
        await self.commits.drain()
        await self.host.stop()
        self.db_pool.shutdown(wait=True)
        self.builder.shutdown(wait=True)
        self.store.close()

    async def _restore(self, stored: StoredTable) -> LiveTable:
        """A table from the database, with the end of its move log and its chat.

        Nobody is connected to a table that was not in memory, so every seated person
        counts as away from now on (their turns are played after the grace period).
        """
        try:
            await self.service.build(Rules.parse(stored.spec))
            live = self.service.live(stored)
        except Exception as exc:
            raise await self._unreadable(stored, exc) from exc
        after = max(0, live.version - LOG_LENGTH)
        for row in await self.db(self.store.moves, live.id, after):
            live.log.append(log_entry(row.seq, row.seat, row.text, row.auto))
        for c in await self.db(self.store.chat, live.id):
            live.chat.append(chat_entry(c.seat, c.name, c.text))
        now = time.monotonic()
        for i, s in enumerate(live.seats):
            if s.human and s.claimed:
                live.away_since[i] = now
        return live

    async def _unreadable(self, stored: StoredTable, exc: Exception) -> Unavailable:
        """A stored state that does not load: the table is marked failed (logged once,
        when it is marked), and whoever asked is told."""
        if stored.status != "failed":
            log.error("table %s v%d cannot be loaded", stored.id, stored.version, exc_info=exc)
            note = f"this table stopped: its saved game cannot be read ({exc})"
            await self.db(self.store.mark, stored.id, stored.version, FAILED, -1, note)
        return Unavailable(
            "table_failed", "this table's saved game cannot be read", 410, CLOSE_GONE
        )

    async def get(self, table_id: str, lease: int | None = None) -> LiveTable | None:
        """The table, loaded from the store if it is not in memory; None if there is no
        such table.  Raises :class:`~rummykit.web.residency.Unavailable` if it cannot be
        brought into memory: the server is full, it expired, or its state is unreadable.

        The host takes the table as it loads (``lease``: already taken): with other
        processes, as its owner if this process holds or can take its lease, else as a
        replica that follows the owner; the lease is taken before the state is read,
        so an owner never starts from a state older than the last one stored.
        """
        live = self.tables.get(table_id)
        if live is not None:
            live.last_active = time.monotonic()
            return live
        if len(table_id) > 40:
            return None
        lock = self.loading.setdefault(table_id, asyncio.Lock())
        try:
            async with lock:
                live = self.tables.get(table_id)
                if live is None:
                    stored = await self.db(self.store.load_table, table_id)
                    if stored is None:
                        return None
                    if stored.status == "expired":
                        raise expired()
                    await self.residency.make_room(bots_only(seats_from(stored.seats)))
                    if lease is None and not stored.over:
                        lease = await self.host.acquire(table_id)
                    if lease is not None:
                        stored = await self.db(self.store.load_table, table_id) or stored
                    live = await self._restore(stored)
                    live.lease = lease
                    await self.host.loaded(live)
            return live
        finally:
            self.loading.pop(table_id, None)

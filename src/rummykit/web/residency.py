"""Which tables the server keeps in memory, and when a table is gone for good.

A table stays in memory only while something needs it there, and unfinished tables
are not loaded at start-up: a client can create 3,000 tables in 19 s, and were each to
stay, memory would only grow.  Memory is not where a table lives: every accepted
move, seat and chat line is in the database before anyone hears of it, so a table can
leave memory whenever nobody needs it there and come back unchanged on the next
request.

* A table is *idle* when no socket is open to it (not even one that has not said
  hello yet), its driver has nothing to do (no bot to play, no timer or absent player
  to play for) and no move is being stored.  An idle table is unloaded once it has
  been idle for ``Settings.idle_unload`` seconds.
* At most ``Settings.max_tables`` tables are in memory.  Bringing in one more (a new
  table, or one loaded on demand) first unloads the idle table used least recently;
  when every table is busy the request is refused as ``server_full`` (HTTP 503,
  WebSocket close code 1013, "try again later") rather than growing without end.
* Abandoned tables expire: an unfinished one after ``Settings.abandon_after`` seconds
  with nobody connected, a finished (or failed) one after ``Settings.finished_after``.
  A finished game where an account held a seat never expires: it is the account's
  archive (web/profiles.py), unloaded when idle like any other.
  The expiry is a row of the move log (action :data:`~rummykit.web.store.EXPIRED`)
  and marks the table over in the same transaction, so it is never loaded again:
  asking for it answers ``expired`` (HTTP 410).  The time is taken from the table's
  ``updated`` column, which moves, seats and leaving the memory bring forward.
* At start-up only the tables that play by themselves are loaded (a bot seat or a
  turn timer), the most recently used first and at most ``max_tables``; the others
  load when someone asks for them.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from .account_store import AccountStore
from .store import EXPIRED

if TYPE_CHECKING:
    from .host import Host
    from .live import LiveTable
    from .settings import Settings
    from .store import Store

T = TypeVar("T")

log = logging.getLogger("rummykit.web")

CLOSE_TRY_AGAIN = 1013
"""WebSocket close code "try again later" (RFC 6455): the server is full."""
CLOSE_GONE = 4404
"""The table cannot be played here any more; clients stop reconnecting."""
SWEEP_BATCH = 200
"""Tables expired per sweep in the database: a sweep never holds the store long."""


class Unavailable(Exception):
    """A table that cannot be brought into memory: the server is full, the table
    expired, or its saved state cannot be read."""

    def __init__(self, code: str, message: str, status: int, close_code: int) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status
        """The HTTP status of the answer."""
        self.close_code = close_code
        """The WebSocket close code."""


def server_full(limit: int) -> Unavailable:
    return Unavailable(
        "server_full",
        f"the server holds as many tables as it may ({limit}) and all are in play; "
        "try again in a few minutes",
        503,
        CLOSE_TRY_AGAIN,
    )


def expired() -> Unavailable:
    return Unavailable(
        "expired", "this table expired: nobody came back to it for a long time", 410, CLOSE_GONE
    )


def wall_clock(monotonic: float) -> float:
    """The ``time.time()`` of a ``time.monotonic()`` reading."""
    return time.time() - (time.monotonic() - monotonic)


def monotonic_clock(wall: float) -> float:
    """The ``time.monotonic()`` of a ``time.time()`` reading (the store's times)."""
    return time.monotonic() - (time.time() - wall)


class Registry(Protocol):
    """The tables in memory and how to load them, as the residency (and the cluster)
    see the server (web/manager.py)."""

    settings: Settings
    store: Store
    tables: dict[str, LiveTable]
    loading: dict[str, asyncio.Lock]
    host: Host

    async def db(self, fn: Callable[..., T], *args: Any) -> T:
        """Run a store call in the database's threads."""
        ...

    async def get(self, table_id: str, lease: int | None = None) -> LiveTable | None: ...


class Residency:
    """Unloads idle tables, makes room under the cap, expires abandoned tables."""

    def __init__(self, manager: Registry) -> None:
        self.m = manager
        self.task: asyncio.Task[None] | None = None
        self.unloaded = 0
        self.expired = 0

    def idle(self, live: LiveTable) -> bool:
        return (
            not live.conns
            and live.sockets == 0
            and (live.resting or live.failed is not None)
            and not live.lock.locked()
        )

    async def make_room(self, bots_only: bool = False) -> None:
        """Before one more table comes into memory: unload the idle table used least
        recently if the cap is reached, or refuse (:class:`Unavailable`).  Tables of
        bots only and people's tables are counted apart (``max_bot_tables`` and
        ``max_tables``), so strangers' bots cannot take the places of people's tables."""
        s = self.m.settings
        cap = s.max_bot_tables if bots_only else s.max_tables
        while True:
            kind = [t for t in self.m.tables.values() if t.bots_only == bots_only]
            if len(kind) < cap:
                return
            idle = [t for t in kind if self.idle(t)]
            if not idle:
                raise server_full(cap)
            await self.unload(min(idle, key=lambda t: t.last_active))

    async def unload(self, live: LiveTable) -> None:
        """Take a table out of memory (it is all in the store already)."""
        if self.m.tables.get(live.id) is live:
            del self.m.tables[live.id]
        await _stop(live)
        await self.m.host.release(live)  # another process may take it at once
        self.unloaded += 1
        await self.m.db(self.m.store.touch, live.id, wall_clock(live.last_seen))

    async def expire(self, live: LiveTable) -> None:
        """Mark a table in memory expired in the store and unload it (a replica of
        another process's table is only unloaded: the owner decides)."""
        if not self.m.host.owns(live):
            await self.unload(live)
            return
        await _stop(live)
        async with live.lock:
            seat = -1 if live.over else live.state.current
            if await self.m.db(
                self.m.store.mark, live.id, live.version, EXPIRED, seat, "the table expired"
            ):
                self.expired += 1
        if self.m.tables.get(live.id) is live:
            del self.m.tables[live.id]
        await self.m.host.release(live)

    async def sweep(self) -> None:
        """One pass: unload idle tables, expire abandoned ones (in memory and not)."""
        s = self.m.settings
        now = time.monotonic()
        for live in list(self.m.tables.values()):
            if live.conns or live.sockets:
                live.last_seen = live.last_active = now
                continue
            if live.lock.locked():
                continue
            finished = live.over or live.failed is not None
            archived = finished and any(seat.account is not None for seat in live.seats)
            if not archived and now - live.last_seen > (
                s.finished_after if finished else s.abandon_after
            ):
                await self.expire(live)
            elif self.idle(live) and now - live.last_active > s.idle_unload:
                await self.unload(live)
        wall = time.time()
        candidates = await self.m.db(
            self.m.store.expirable, wall - s.abandon_after, wall - s.finished_after, SWEEP_BATCH
        )
        for table_id, version in candidates:
            if table_id in self.m.tables or table_id in self.m.loading:
                continue
            if await self.m.db(
                self.m.store.mark, table_id, version, EXPIRED, -1, "the table expired"
            ):
                self.expired += 1
        # sign-ins that ran out (web/accounts.py): an expired session opens nothing,
        # and its row goes here rather than waiting for its account's next sign-in
        rows = AccountStore(self.m.store)
        await self.m.db(rows.close_expired, wall, SWEEP_BATCH)
        # names' wrong passwords and rated seats' addresses past their keeping
        await self.m.db(
            rows.forget_old, wall - s.signin_forget, wall - s.seat_address_keep, SWEEP_BATCH
        )
        # addresses' sign-ins and sign-ups whose allowance is whole again
        await self.m.db(rows.forget_address_limits, wall)

    async def run(self) -> None:
        """Sweep every ``Settings.sweep_every`` seconds until cancelled."""
        while True:
            await asyncio.sleep(self.m.settings.sweep_every)
            try:
                await self.sweep()
            except asyncio.CancelledError:
                raise
            except Exception:  # a store error: try again at the next sweep
                log.exception("sweeping the tables failed")

    async def start(self, load: bool = True) -> None:
        """Load the tables that play by themselves (``load``: with other processes the
        cluster takes them, web/cluster.py), then sweep in the background."""
        s = self.m.settings
        for table_id in await self.m.db(self.m.store.drivable, s.max_tables) if load else ():
            try:
                await self.m.get(table_id)
            except Unavailable as exc:
                if exc.code == "server_full":
                    break
        self.task = asyncio.get_running_loop().create_task(self.run())

    async def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task


async def _stop(live: LiveTable) -> None:
    """Cancel a table's driver and wait until it has stopped."""
    if live.driver is not None and not live.driver.done():
        live.driver.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await live.driver

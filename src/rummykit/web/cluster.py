"""Many server processes on one PostgreSQL database.

Any process accepts any table's WebSocket; exactly one, the table's *owner*, applies
its moves and plays its bots.  The others keep a *replica* of the table for their own
clients and forward those clients' moves to the owner.

* **Ownership** is a lease in the database (web/leases.py): taken when a process
  creates a table or is the first to need it, renewed every second, checked by every
  move the owner stores (a fencing token in the same UPDATE that bumps the version).
  A process whose lease was taken stops writing for that table: its next write fails,
  and it turns the table into a replica.
* **Fan-out** is PostgreSQL's LISTEN/NOTIFY on one channel, :data:`CHANNEL`.  A stored
  move sends ``m <node> <table> <version>`` in the transaction that stores it, so a
  notice is delivered exactly when the move is committed, never before; a process with
  a replica of that table reads the new state and tells its clients.  Notices carry
  ids and versions, never states (PostgreSQL caps a payload at 8,000 bytes, and the
  state is in the database anyway).  The same channel carries presence (``p``: which
  seats a process has connected, so the owner does not play for a player connected
  elsewhere), chat lines (``c``), seat changes (``s``), heartbeats (``h``) and the
  question ``q`` a new owner asks to hear everyone's presence again.  LISTEN/NOTIFY
  rather than Redis: the database is already there and already the authority, and a
  notice sent inside the move's transaction cannot disagree with the data; a second
  server to run and watch would add a way to fail and no guarantee.
* **Forwarding**: a replica sends a client's move, rematch, join or seat claim to the
  owner's own channel (:func:`node_channel`) as JSON and waits for the answer on its
  own; the client gets the same answer, or the same error, as from the owner itself.
  If the owner does not answer (it died), the replica waits for its lease to run out,
  takes the table and applies the move itself.
* **Ownership follows the players**: a replica whose client takes a seat asks the
  owner to hand the table over when the owner has no seated player of its own there;
  the owner, between two moves, gives its lease up and the replica takes it.  With a
  proxy that sends every socket of a table to one process (docs/deploy.md hashes the
  table's path), a table is then played where its players are, and nothing is
  forwarded; without one, forwarding keeps the game correct, at a cost.
* **Failover**: every process sweeps every second for unfinished tables that play by
  themselves (a bot seat or a turn timer) whose lease ran out, and takes them.  With
  leases of :attr:`~rummykit.web.settings.Settings.lease_seconds` (3 s) a dead owner's
  tables move within about four seconds; its clients' sockets closed with it, and the
  page reconnects through the proxy to a live process.

With SQLite there is one process and none of this runs: the tables are hosted by a
:class:`~rummykit.web.host.LocalHost`.  :class:`Cluster` is the other
:class:`~rummykit.web.host.Host`: the table service asks it, as it asks the local one,
whether this process owns a table, to do a request (:meth:`Cluster.submit`), to let a
table go; it never asks which kind of host it has.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import os
import secrets
import socket
import time
from collections.abc import Awaitable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from fastapi import HTTPException
from sqlalchemy.engine import make_url

from .forwarded import (
    ClaimRequest,
    HandoverRequest,
    JoinRequest,
    MoveRequest,
    RematchRequest,
    TableRequest,
    decode,
    encode,
)
from .leases import Leases
from .live import LiveTable, Presence
from .protocol import ProtocolError
from .residency import Registry, Residency, Unavailable
from .store import MOVES_CHANNEL

if TYPE_CHECKING:
    from psycopg import AsyncConnection

    from .fanout import Fanout
    from .service import TableService

log = logging.getLogger("rummykit.web")

CHANNEL = MOVES_CHANNEL
"""The channel every process listens on (moves, presence, chat, seats, heartbeats)."""
CALL_TIMEOUT = 1.5
"""Seconds a replica waits for the owner's answer before it suspects the owner dead."""
GIVE_UP = 8.0
"""Seconds a forwarded request may take in all (a dead owner's lease must run out)."""
NODE_SILENT = 5.0
"""A process not heard from for this long is taken for dead: its presence is dropped."""


def node_channel(node: str) -> str:
    """A node's own channel: a plain identifier whatever the node id is made of."""
    return "rummykit_node_" + hashlib.sha1(node.encode()).hexdigest()[:16]


def default_node_id() -> str:
    """``host-pid-random``: unique across machines, restarts and reused pids."""
    host = socket.gethostname().split(".")[0][:30] or "host"
    return f"{host}-{os.getpid()}-{secrets.token_hex(3)}"


def libpq_url(url: str) -> str:
    """The libpq connection string for a SQLAlchemy ``postgresql+psycopg://`` URL."""
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


@dataclass
class _Listener:
    """The connection that LISTENs, and the one that sends (psycopg cannot send on a
    connection while it waits for notices)."""

    listen: AsyncConnection[Any] | None = None
    send: AsyncConnection[Any] | None = None
    send_lock: asyncio.Lock = field(default_factory=asyncio.Lock)


class Served(Registry, Protocol):
    """The server as the cluster sees it (web/manager.py): the registry, and the
    parts that change tables, tell clients and drive tables."""

    residency: Residency
    service: TableService
    fanout: Fanout

    def start_driver(self, live: LiveTable) -> None: ...


class Cluster:
    """This process's part in a cluster: leases, notices, forwarding, failover."""

    def __init__(self, manager: Served) -> None:
        self.m = manager
        s = manager.settings
        self.node = s.node_id or default_node_id()
        self.ttl = s.lease_seconds
        self.leases = Leases(manager.store.engine, self.node, self.ttl)
        self.channel = node_channel(self.node)
        self.conninfo = libpq_url(manager.store.url)
        self.pg = _Listener()
        self.calls: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self.heard: dict[str, float] = {}
        """Other nodes, with when each was last heard from."""
        self.tasks: list[asyncio.Task[None]] = []
        self.syncing: dict[str, asyncio.Task[None]] = {}
        self.background: set[asyncio.Task[Any]] = set()
        self.listening = False
        """The notification connection is up (``/healthz`` answers 503 while not)."""
        self.takeovers = 0
        self.forwarded = 0
        self.handovers = 0
        manager.store.notify_moves = self.node

    # -- life -----------------------------------------------------------------------------
    async def start(self) -> None:
        """Listen, then sweep the residency; the tables that play by themselves are
        taken by :meth:`tick` as their leases run out, not loaded here."""
        await self._connect()
        loop = asyncio.get_running_loop()
        self.tasks = [loop.create_task(self._listen()), loop.create_task(self._tick_loop())]
        await self.m.residency.start(load=False)

    def healthy(self) -> bool:
        """The notification connection is up (``/healthz`` answers 503 while not)."""
        return self.listening

    def owns(self, live: LiveTable) -> bool:
        return live.lease is not None

    async def loaded(self, live: LiveTable) -> None:
        """Drive a table whose lease this process holds; follow the others."""
        if live.lease is not None:
            self.m.start_driver(live)
        else:
            live.resting = True
            await self.ask_presence(live.id)

    def lost(self, live: LiveTable) -> None:
        """A move was refused for a lease another process took: follow it from now."""
        self.spawn(self.demote(live))  # it waits for the lock

    def seated(self, live: LiveTable) -> None:
        """A player sat down here at a replica: ask its owner for the table."""
        if live.lease is None:
            self.spawn(self.take_over(live))

    async def stop(self) -> None:
        for task in [*self.tasks, *self.syncing.values(), *self.background]:
            task.cancel()
        for task in [*self.tasks, *self.syncing.values(), *self.background]:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        with contextlib.suppress(Exception):
            await self.m.db(self.leases.release_all)
        for conn in (self.pg.listen, self.pg.send):
            if conn is not None:
                with contextlib.suppress(Exception):
                    await conn.close()

    async def _connect(self) -> None:
        import psycopg

        self.pg.listen = await psycopg.AsyncConnection.connect(self.conninfo, autocommit=True)
        self.pg.send = await psycopg.AsyncConnection.connect(self.conninfo, autocommit=True)
        await self.pg.listen.execute(f"LISTEN {CHANNEL}")
        await self.pg.listen.execute(f"LISTEN {self.channel}")
        self.listening = True

    async def _listen(self) -> None:
        """Hand every notice to :meth:`_on_notice`; reconnect if the connection drops
        (and then read every replica again: notices sent meanwhile are lost)."""
        while True:
            try:
                assert self.pg.listen is not None
                async for notice in self.pg.listen.notifies():
                    self._on_notice(notice.channel, notice.payload)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("the notification connection failed; reconnecting")
            self.listening = False
            await asyncio.sleep(0.5)
            with contextlib.suppress(Exception):
                await self._connect()
                for live in list(self.m.tables.values()):
                    if live.lease is None:
                        self.sync(live)

    async def notify(self, channel: str, payload: str) -> None:
        """Send one notice (outside any move's transaction)."""
        async with self.pg.send_lock:
            for attempt in (0, 1):
                try:
                    assert self.pg.send is not None
                    await self.pg.send.execute("SELECT pg_notify(%s, %s)", (channel, payload))
                    return
                except Exception:
                    if attempt:
                        raise
                    import psycopg

                    self.pg.send = await psycopg.AsyncConnection.connect(
                        self.conninfo, autocommit=True
                    )

    def spawn(self, coro: Awaitable[Any]) -> None:
        task = asyncio.ensure_future(coro)
        self.background.add(task)
        task.add_done_callback(self.background.discard)

    # -- leases ---------------------------------------------------------------------------
    async def acquire(self, table_id: str) -> int | None:
        token = await self.m.db(self.leases.acquire, table_id)
        await self.ask_presence(table_id)
        return token

    async def ask_presence(self, table_id: str) -> None:
        """Ask the others who is connected to a table this process just loaded."""
        with contextlib.suppress(Exception):
            await self.notify(CHANNEL, f"q {self.node} {table_id}")

    async def take_over(self, live: LiveTable) -> None:
        """Ask the owner for the table, for players who sat down here (see the module
        doc): the owner refuses while a seated player of its own is connected."""
        if live.lease is not None or live.over or not any(c.seat >= 0 for c in live.conns):
            return
        owner = await self.m.db(self.leases.owner, live.id)
        if owner is None or owner.expired:
            await self.promote(live)
            return
        if owner.node == self.node:
            return
        reply = await self._request(owner.node, live.id, HandoverRequest())
        if reply is not None and (reply.get("result") or {}).get("released"):
            self.handovers += 1
            await self.promote(live)

    async def hand_over(self, live: LiveTable) -> bool:
        """Give the table up to the process that asked, between two moves, unless a
        seated player is connected here."""
        async with live.lock:
            if live.lease is None or any(c.seat >= 0 for c in live.conns):
                return False
            token, live.lease = live.lease, None
            live.resting = True
            driver = live.driver
            if driver is not None and not driver.done():
                driver.cancel()
            await self.m.db(self.leases.release, live.id, token)
        return True

    async def release(self, live: LiveTable) -> None:
        if live.lease is not None:
            token, live.lease = live.lease, None
            await self.m.db(self.leases.release, live.id, token)

    async def promote(self, live: LiveTable) -> bool:
        """Take a replica's table if its lease ran out; read it again and drive it."""
        token = await self.acquire(live.id)
        if token is None:
            return False
        self.takeovers += 1
        await self._sync_now(live)
        live.lease = token
        live.resting = False
        self.m.start_driver(live)
        log.info("table %s: taken over by %s (lease %d)", live.id, self.node, token)
        return True

    async def demote(self, live: LiveTable) -> None:
        """The lease is lost: stop driving the table and follow its new owner."""
        if live.lease is None:
            return
        live.lease = None
        live.resting = True
        driver = live.driver
        if driver is not None and driver is not asyncio.current_task() and not driver.done():
            driver.cancel()
        log.warning("table %s: %s lost its lease", live.id, self.node)
        self.sync(live)

    async def _tick_loop(self) -> None:
        every = max(0.2, self.ttl / 3)
        while True:
            await asyncio.sleep(every)
            try:
                await self.tick()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("the cluster's periodic work failed")

    async def tick(self) -> None:
        """Once a second: heartbeat, renew leases, take orphans, catch replicas up."""
        await self.notify(CHANNEL, f"h {self.node}")
        owned = {t.id: t.lease for t in self.m.tables.values() if t.lease is not None}
        for table_id in await self.m.db(self.leases.renew, owned):
            live = self.m.tables.get(table_id)
            if live is not None:
                await self.demote(live)
        for table_id in await self.m.db(self.leases.orphans, 50):
            live = self.m.tables.get(table_id)
            if live is None:
                await self.adopt(table_id)
            elif live.lease is None:
                await self.promote(live)
        now = time.monotonic()
        for node, at in list(self.heard.items()):
            if now - at > NODE_SILENT:
                del self.heard[node]
                for live in self.m.tables.values():
                    if live.remote.pop(node, None) is not None:
                        await self._presence_changed(live)
        followed = [t for t in self.m.tables.values() if t.lease is None and t.conns]
        if followed:
            ids = [t.id for t in followed]
            versions = await self.m.db(self.m.store.versions, ids)
            unheld = await self.m.db(self.leases.unheld, ids)
            for live in followed:
                if live.id in unheld and not live.over:
                    # Its owner died and nobody drives it: a human-only table still
                    # needs an owner to play for an absent player or a timer.
                    await self.promote(live)
                elif versions.get(live.id, live.version) > live.version:
                    self.sync(live)

    async def adopt(self, table_id: str) -> None:
        """Take an orphan that is not in memory: lease first, then load it."""
        token = await self.acquire(table_id)
        if token is None:
            return
        self.takeovers += 1
        try:
            await self.m.get(table_id, lease=token)
        except Unavailable:
            await self.m.db(self.leases.release, table_id, token)

    # -- replicas ---------------------------------------------------------------------------
    def sync(self, live: LiveTable) -> None:
        """Read a replica's table again soon (one read at a time per table)."""
        task = self.syncing.get(live.id)
        if task is not None and not task.done():
            live.stale = True
            return
        self.syncing[live.id] = asyncio.ensure_future(self._sync_loop(live))

    async def refresh(self, live: LiveTable) -> bool:
        """Read a replica's table now and wait until it is read; False for a table
        this process owns (its copy is the latest)."""
        if live.lease is not None:
            return False
        self.sync(live)
        task = self.syncing.get(live.id)
        if task is not None:
            await asyncio.shield(task)
        return True

    async def _sync_loop(self, live: LiveTable) -> None:
        try:
            live.stale = True
            while live.stale:
                live.stale = False
                await self._sync_now(live)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("table %s: reading it from the database failed", live.id)
        finally:
            self.syncing.pop(live.id, None)

    async def _sync_now(self, live: LiveTable) -> None:
        stored = await self.m.db(self.m.store.load_table, live.id)
        if stored is None:
            return
        rows = []
        if stored.version > live.version:
            rows = await self.m.db(self.m.store.moves, live.id, live.version)
        changed = await self.m.service.follow(live, stored, rows)
        if changed:
            await self.m.fanout.broadcast(live)
            if live.failed is not None and stored.status == "failed":
                await self.m.fanout.error_all(live, "table_failed", live.failed)

    # -- notices ----------------------------------------------------------------------------
    def _on_notice(self, channel: str, payload: str) -> None:
        if channel != CHANNEL:
            self._on_call(payload)
            return
        kind, _, rest = payload.partition(" ")
        node, _, rest = rest.partition(" ")
        if node == self.node:
            return
        self.heard[node] = time.monotonic()
        if kind == "h":
            return
        table_id, _, rest = rest.partition(" ")
        live = self.m.tables.get(table_id)
        if kind == "q":  # a new owner asks who is connected
            if live is not None and (live.conns or live.sockets):
                self.spawn(self.announce(live))
            return
        if live is None:
            return
        if kind == "m":
            live.owner_node = node
        if kind == "m" or kind == "s":
            if live.lease is not None and kind == "m":
                # Someone else stored a move: this process lost the table.
                self.spawn(self.demote(live))
            elif not live.conns and not live.sockets and not live.lock.locked():
                # A replica nobody here follows (say, the table was handed to its
                # players' process): reading every move would be wasted; it leaves
                # memory, and is read afresh if someone asks for it here.
                if self.m.tables.get(live.id) is live:
                    del self.m.tables[live.id]
            else:
                self.sync(live)
        elif kind == "p":
            seats, _, spectators = rest.partition(" ")
            live.remote[node] = Presence(
                frozenset(int(s) for s in seats.split(",") if s), int(spectators or 0)
            )
            self.spawn(self._presence_changed(live))
            if node == live.owner_node and not live.remote[node].seats:
                self.spawn(self.take_over(live))  # the owner's last player left
        elif kind == "c":
            entry = json.loads(rest)
            live.chat.append(entry)
            self.spawn(self.m.fanout.send_all(live, entry))

    async def _presence_changed(self, live: LiveTable) -> None:
        """Seats connected elsewhere changed: the owner's driver must know (it plays
        for an absent player), and everyone's page shows who is there."""
        now = time.monotonic()
        for i, seat in enumerate(live.seats):
            if not seat.human or not seat.claimed:
                continue
            if live.connected(i):
                live.away_since.pop(i, None)
            else:
                live.away_since.setdefault(i, now)
        live.changed.set()
        await self.m.fanout.presence(live)

    async def announce(self, live: LiveTable) -> None:
        """Tell the others which seats this process has connected at ``live``."""
        seats = ",".join(str(s) for s in sorted({c.seat for c in live.conns if c.seat >= 0}))
        spectators = sum(1 for c in live.conns if c.seat < 0)
        with contextlib.suppress(Exception):
            await self.notify(CHANNEL, f"p {self.node} {live.id} {seats} {spectators}")

    async def chat(self, live: LiveTable, entry: dict[str, Any]) -> None:
        await self.notify(CHANNEL, f"c {self.node} {live.id} " + json.dumps(entry))

    async def seats_changed(self, live: LiveTable) -> None:
        await self.notify(CHANNEL, f"s {self.node} {live.id}")

    async def moved(self, live: LiveTable) -> None:
        """A change stored outside the move path (a failed table): replicas re-read."""
        await self.notify(CHANNEL, f"m {self.node} {live.id} {live.version}")

    # -- forwarding -------------------------------------------------------------------------
    async def submit(self, live: LiveTable, request: TableRequest) -> dict[str, Any] | None:
        """Have the owner do ``request`` (a move, rematch, join or seat claim).

        The owner's result; None if this process owns the table (now: it may just have
        taken it from a dead owner) and should do it itself.  The owner's refusal is
        raised here as it was raised there (:class:`ProtocolError` or HTTPException).
        """
        deadline = time.monotonic() + GIVE_UP
        while True:
            if live.lease is not None:
                return None
            owner = await self.m.db(self.leases.owner, live.id)
            if owner is None or owner.expired or owner.node == self.node:
                if await self.promote(live):
                    return None
            else:
                self.forwarded += 1
                reply = await self._request(owner.node, live.id, request)
                if reply is not None and reply.get("error") != "not_owner":
                    return _unwrap(reply)
            if time.monotonic() > deadline:
                raise ProtocolError(
                    "unavailable", "the server holding this table does not answer; try again"
                )
            await asyncio.sleep(0.2)

    async def _request(
        self, node: str, table_id: str, request: TableRequest | HandoverRequest
    ) -> dict[str, Any] | None:
        rid = secrets.token_hex(8)
        done: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self.calls[rid] = done
        kind, args = encode(request)
        msg = {"op": "call", "id": rid, "from": self.node, "table": table_id, "kind": kind}
        try:
            await self.notify(node_channel(node), json.dumps({**msg, "args": args}))
            return await asyncio.wait_for(done, CALL_TIMEOUT)
        except TimeoutError:
            return None
        finally:
            self.calls.pop(rid, None)

    def _on_call(self, payload: str) -> None:
        try:
            msg = json.loads(payload)
        except ValueError:
            return
        if msg.get("op") == "reply":
            done = self.calls.get(msg.get("id"))
            if done is not None and not done.done():
                done.set_result(msg)
        elif msg.get("op") == "call":
            self.spawn(self._answer(msg))

    async def perform(
        self, live: LiveTable, request: TableRequest | HandoverRequest
    ) -> dict[str, Any]:
        """Do a forwarded request as the owner: the one dispatch of forwarded requests.
        The arguments come from another process, which checked the seat's secret."""
        service = self.m.service
        match request:
            case MoveRequest(seat=seat, move=move, version=version):
                await service.play(live, seat, move, version)
                return {}
            case RematchRequest(seat=seat, version=version):
                await service.rematch(live, seat, version)
                return {}
            case JoinRequest(name=name, account=account):
                return await service.join(live, name, account)
            case ClaimRequest(seat=seat, name=name, account=account):
                return {"changed": await service.claim(live, seat, name, account)}
            case HandoverRequest():
                return {"released": await self.hand_over(live)}

    async def _answer(self, msg: dict[str, Any]) -> None:
        """Do a forwarded request as the owner, and answer on the sender's channel."""
        reply: dict[str, Any] = {"op": "reply", "id": msg.get("id")}
        live = self.m.tables.get(str(msg.get("table")))
        try:
            request = decode(msg.get("kind"), msg.get("args"))
        except ValueError:  # pydantic's ValidationError: not a request of this version
            request = None
        if live is None or live.lease is None or request is None:
            reply["error"] = "not_owner"
        else:
            try:
                reply["result"] = await self.perform(live, request)
            except ProtocolError as exc:
                reply.update(error=exc.code, message=exc.message)
            except HTTPException as exc:
                reply.update(error="http", status=exc.status_code, message=str(exc.detail))
            except Exception as exc:
                code = getattr(exc, "rule", None) or "invalid_move"
                reply.update(error=code, message=str(getattr(exc, "reason", exc)))
        with contextlib.suppress(Exception):
            await self.notify(node_channel(str(msg.get("from"))), json.dumps(reply))


def _unwrap(reply: dict[str, Any]) -> dict[str, Any]:
    """The owner's answer as the caller would have had it from the owner itself."""
    error = reply.get("error")
    if error is None:
        result = reply.get("result")
        return result if isinstance(result, dict) else {}
    message = str(reply.get("message", ""))
    if error == "http":
        raise HTTPException(int(reply.get("status", 500)), message)
    raise ProtocolError(str(error), message)

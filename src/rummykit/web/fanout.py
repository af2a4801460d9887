"""Telling clients: each table's connections, presence, broadcasts and single sends.

A broadcast sends one ``state`` message per seat and version, built once
(``LiveTable.cache``); a client that stops reading is dropped rather than allowed to
hold its table back (:meth:`Fanout.send`).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from typing import TYPE_CHECKING, Any

from starlette.websockets import WebSocketState

from ..i18n import error_text
from .live import Conn, LiveTable
from .protocol import view_payload
from .settings import Settings

if TYPE_CHECKING:
    from .host import Host

log = logging.getLogger("rummykit.web")

CLOSE_TOO_SLOW = 4408
"""The client did not read what it was sent within ``Settings.send_timeout``."""


def table_json(live: LiveTable) -> str:
    return json.dumps(live.info(), separators=(",", ":"))


def state_message(live: LiveTable, seat: int, table: str | None = None) -> str:
    """The ``state`` message for one seat (-1: spectators), from that seat's view.

    The game and the log are built once per seat and version (``live.cache``); the
    table's lobby facts (who is connected, spectators, the clock) change between
    versions and are put in fresh: ``table`` is :func:`table_json`, passed in when one
    broadcast sends it to many connections.
    """
    body = live.cache.get(seat)
    if body is None:
        view = live.state.view(seat if seat >= 0 else 0)
        game = view_payload(view, spectator=seat < 0, state=live.state)
        if live.abandoned is not None:  # the match is over: nobody has a move left
            game.update(legal=[], advice=None, refused={})
        payload = {"game": game, "log": list(live.log)}
        body = json.dumps(payload, separators=(",", ":"))[1:-1]
        live.cache[seat] = body
    if table is None:
        table = table_json(live)
    return f'{{"type":"state","version":{live.version},"table":{table},{body}}}'


class Fanout:
    """Sends to the connections of this process; tells the host (web/host.py) who is
    connected, so other processes know too."""

    def __init__(self, settings: Settings, host: Host) -> None:
        self.settings = settings
        self.host = host
        self.closing: set[asyncio.Task[None]] = set()
        """Sockets being closed for reading too slowly (:meth:`send`)."""

    async def broadcast(self, live: LiveTable) -> None:
        """One ``state`` message to every connection: once per version, never per
        hello (re-sending it on every spectator's hello would make the cost grow with
        the square of the number of spectators)."""
        table = table_json(live)
        conns = list(live.conns)
        await asyncio.gather(*(self.send(c, state_message(live, c.seat, table)) for c in conns))

    async def presence(self, live: LiveTable, skip: Conn | None = None) -> None:
        """The light ``presence`` message (the table's lobby facts, no game) to every
        connection but ``skip``: a seat connected, left, was joined or renamed."""
        text = f'{{"type":"presence","table":{table_json(live)}}}'
        await asyncio.gather(*(self.send(c, text) for c in list(live.conns) if c is not skip))

    async def send_all(self, live: LiveTable, msg: dict[str, Any]) -> None:
        """One message to every connection of the table here (a chat line)."""
        text = json.dumps(msg, separators=(",", ":"))
        await asyncio.gather(*(self.send(c, text) for c in list(live.conns)))

    async def error_all(self, live: LiveTable, code: str, message: str) -> None:
        await asyncio.gather(*(self.error(c, code, message) for c in list(live.conns)))

    async def send(self, conn: Conn, text: str) -> None:
        """Send one message, waiting at most ``Settings.send_timeout`` for the client
        to take it.  A broadcast waits for every send, so a socket that stops reading
        (its buffers full) would otherwise hold its whole table back for good: one
        spectator could freeze a public table.  Such a client is dropped instead."""
        if conn.dropped:
            return
        try:
            if conn.ws.client_state is WebSocketState.CONNECTED:
                async with asyncio.timeout(self.settings.send_timeout):
                    await conn.ws.send_text(text)
        except TimeoutError:
            conn.dropped = True
            log.info("a client read too slowly and was disconnected")
            task = asyncio.get_running_loop().create_task(self._drop(conn))
            self.closing.add(task)
            task.add_done_callback(self.closing.discard)
        except Exception:  # the client went away; its handler cleans up
            pass

    async def _drop(self, conn: Conn) -> None:
        """Off its table at once, then close the socket: the closing handshake cannot
        get through a full buffer, so the server gives up on it after its close
        timeout and drops the connection; the session's loop then ends."""
        if conn.table is not None:
            await self.leave(conn.table, conn)
        with contextlib.suppress(Exception):
            await conn.ws.close(CLOSE_TOO_SLOW)

    async def send_json(self, conn: Conn, msg: dict[str, Any]) -> None:
        await self.send(conn, json.dumps(msg, separators=(",", ":")))

    async def error(self, conn: Conn, code: str, message: str, **extra: Any) -> None:
        """An ``error`` message; its text in the connection's language (the code, the
        machine's part, is the same in every language)."""
        message = error_text(code, message, conn.lang)
        await self.send_json(conn, {"type": "error", "code": code, "message": message, **extra})

    async def enter(self, live: LiveTable, conn: Conn) -> None:
        """Put a connection that said hello on its table, and tell the other processes."""
        live.conns.add(conn)
        conn.table = live
        await self.host.announce(live)
        if conn.seat >= 0:
            self.host.seated(live)

    async def leave(self, live: LiveTable, conn: Conn) -> None:
        """Take a connection off its table (it closed, or was dropped for reading too
        slowly); a seat nobody holds any more counts as away from now on."""
        if conn not in live.conns:
            return
        live.conns.discard(conn)
        await self.host.announce(live)
        if conn.seat >= 0 and not live.connected(conn.seat):
            live.away_since[conn.seat] = time.monotonic()
            live.changed.set()
            await self.presence(live)

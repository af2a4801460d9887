"""One WebSocket per client: its hello, then every message it sends.

The session parses and rate-limits the client's messages, seats it or lets it
watch, and hands each request to the table service (web/service.py), the hint and
review workers (web/thinking.py, web/reviews.py) or the table's chat.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import math
import secrets
import time
from functools import partial
from typing import TYPE_CHECKING, Any

from fastapi import WebSocket, WebSocketDisconnect

from ..bots.hints import Hint
from ..bots.review import decision_seed
from ..errors import IllegalMoveError, NotationError
from ..i18n import hint_text, normalize
from ..serialize import state_to_json
from ..state import GameState
from .account_store import Account
from .fanout import state_message
from .limits import AddressLimiter, address_key
from .live import Conn, LiveTable, chat_entry
from .protocol import (
    MAX_CHAT,
    MAX_NAME,
    PROTOCOL,
    ChatMsg,
    Hello,
    HintMsg,
    MoveMsg,
    PingMsg,
    ProtocolError,
    RematchMsg,
    ReviewMsg,
    clean_text,
    legal_entry,
    parse_client_message,
)
from .residency import Unavailable
from .reviews import REVIEW_SEED, ReviewBusy
from .store import digest
from .thinking import suggestion

if TYPE_CHECKING:
    from .manager import Manager

log = logging.getLogger("rummykit.web")

CHAT_SENDERS = 256
"""Chat senders (seats, spectators' addresses) a table's chat limit remembers, the
least recent forgotten first: five times the spectators a table holds by default."""

# WebSocket close codes (docs/protocol.md).
CLOSE_ORIGIN = 4003
"""The page's Origin is neither this server's nor an allowed one."""
CLOSE_BAD_SECRET = 4403
CLOSE_NOT_FOUND = 4404
CLOSE_REPLACED = 4409
"""A newer connection took this seat's place (``Settings.max_seat_sockets``)."""
CLOSE_TOO_MANY_SOCKETS = 4429
"""The client's address opened more sockets than ``Settings.sockets_per_minute``."""
CLOSE_SPECTATORS_FULL = 4503
"""The table already has ``Settings.max_spectators`` spectators."""


async def refuse(ws: WebSocket, close_code: int, code: str, message: str) -> None:
    """Accept, say why in an ``error``, and close with ``close_code``: a browser sees
    the close code, where a refused handshake would only show a failed connection."""
    await ws.accept()
    with contextlib.suppress(Exception):
        await ws.send_text(json.dumps({"type": "error", "code": code, "message": message}))
        await ws.close(close_code)


def reasons_in(payload: Any, lang: str) -> Any:
    """A review with every ``reason`` (a hint's reason) in ``lang``; a copy, so a
    review kept for other connections stays as it was."""
    if lang == "en":
        return payload
    if isinstance(payload, dict):
        return {
            k: hint_text(v, lang) if k == "reason" and isinstance(v, str) else reasons_in(v, lang)
            for k, v in payload.items()
        }
    if isinstance(payload, list):
        return [reasons_in(v, lang) for v in payload]
    return payload


def secret_fits(
    live: LiveTable, seat: int, secret: str | None, account: Account | None = None
) -> bool:
    """Whether ``secret`` is the one given out for human seat ``seat``, or the seat
    is held by ``account`` (a signed-in player needs no link to their own seat)."""
    info = live.seats[seat] if seat < len(live.seats) else None
    if info is not None and account is not None and info.account == account.id:
        return True
    stored = None if info is None else info.digest
    return (
        info is not None
        and info.human
        and isinstance(stored, str)  # an open seat nobody has joined has none
        and secret is not None
        and secrets.compare_digest(stored, digest(secret))
    )


class Sessions:
    """The WebSocket sessions of this process."""

    def __init__(self, manager: Manager) -> None:
        self.m = manager
        self.settings = manager.settings
        self.fanout = manager.fanout
        self.service = manager.service
        self.host = manager.host

    async def run(self, ws: WebSocket, table_id: str, account: Account | None = None) -> None:
        """Serve one socket until it closes; ``account`` is its session cookie's."""
        await ws.accept()
        out = self.fanout
        conn = Conn.new(ws, self.settings)
        conn.account = account
        try:
            live = await self.m.get(table_id)
        except Unavailable as exc:  # full, expired or unreadable (web/residency.py)
            await out.error(conn, exc.code, exc.message)
            await ws.close(exc.close_code)
            return
        if live is None:
            await out.error(conn, "not_found", "no such table")
            await ws.close(CLOSE_NOT_FOUND)
            return
        live.sockets += 1  # keeps the table in memory until the socket closes
        joined = False
        try:
            while True:
                event = await ws.receive()
                if event["type"] == "websocket.disconnect":
                    break
                raw = event.get("text")
                if raw is None:
                    raw = event.get("bytes") or b""
                if not conn.allow():
                    if conn.over_limit >= self.settings.flood_close:
                        await out.error(conn, "rate_limited", "too many messages; disconnected")
                        await ws.close(1008)
                        break
                    if conn.over_limit % 50 == 1:
                        await out.error(conn, "rate_limited", "too many messages; slow down")
                    continue
                try:
                    msg = parse_client_message(raw)
                except ProtocolError as exc:
                    await out.error(conn, exc.code, exc.message)
                    continue
                if not joined:
                    if not isinstance(msg, Hello):
                        await out.error(conn, "hello_first", "send 'hello' first")
                        continue
                    refused = await self._hello(live, conn, msg)
                    if refused is not None:
                        await ws.close(refused)
                        return
                    joined = True
                    if live.failed is not None:
                        await out.error(conn, "table_failed", live.failed)
                    continue
                await self._dispatch(live, conn, msg)
        except WebSocketDisconnect:
            pass
        finally:
            live.sockets -= 1
            if conn.review is not None:
                conn.review.cancel()  # withdraws its requests from the thinkers' queue
            await out.leave(live, conn)

    async def _hello(self, live: LiveTable, conn: Conn, msg: Hello) -> int | None:
        """Seat the connection (or let it watch); None, or the close code refusing it.

        The newcomer alone gets the state; the others hear only of a seat that
        connected or was renamed, in a light ``presence`` message.
        """
        out = self.fanout
        announce = False
        conn.lang = normalize(msg.lang) or "en"
        if msg.seat is not None:
            seat = msg.seat
            ok = secret_fits(live, seat, msg.secret, conn.account)
            # A replica's copy may not yet show a seat just joined through it (the
            # owner gave the seat out): read the table again before refusing.
            if not ok and await self.host.refresh(live):
                ok = secret_fits(live, seat, msg.secret, conn.account)
            if not ok:
                await out.error(conn, "bad_secret", "that seat's invitation link is not valid")
                return CLOSE_BAD_SECRET
            if (
                live.options.get("rated")
                and live.seats[seat].account is None
                and (conn.account is None or live.seats[seat].claimed)
            ):
                await out.error(conn, "rated_needs_account", "sign in to play at a rated table")
                return CLOSE_BAD_SECRET
            announce = not live.connected(seat)
            await self._make_room(live, seat)
            conn.seat = seat
            name = clean_text(msg.name or "", MAX_NAME)
            account = None
            info = live.seats[seat]
            if conn.account is not None and not info.claimed and info.account is None:
                # a signed-in player takes an invitation under their username
                name, account = conn.account.username, conn.account.id
            if await self.service.claim(live, seat, name, account):
                announce = True
            await self.service.seen(live, seat, conn.address)
            live.away_since.pop(seat, None)
            live.changed.set()
        elif live.spectators() >= self.settings.max_spectators:
            await out.error(
                conn,
                "spectators_full",
                f"this table has as many spectators as it allows "
                f"({self.settings.max_spectators}); try again later",
            )
            return CLOSE_SPECTATORS_FULL
        await out.enter(live, conn)
        await out.send_json(
            conn, {"type": "welcome", "protocol": PROTOCOL, "seat": conn.seat, "table": live.id}
        )
        for c in live.chat:
            await out.send_json(conn, c)
        await out.send(conn, state_message(live, conn.seat))
        if announce:
            await out.presence(live, skip=conn)
        return None

    async def _make_room(self, live: LiveTable, seat: int) -> None:
        """A seat keeps at most ``max_seat_sockets`` connections, the newest: a seat's
        holder could otherwise open sockets without end, past the spectator cap."""
        mine = sorted((c for c in live.conns if c.seat == seat), key=lambda c: c.opened)
        for old in mine[: max(0, len(mine) - self.settings.max_seat_sockets + 1)]:
            live.conns.discard(old)
            await self.fanout.error(old, "replaced", "this seat was opened in another window")
            with contextlib.suppress(Exception):
                await old.ws.close(CLOSE_REPLACED)

    async def _dispatch(self, live: LiveTable, conn: Conn, msg: Any) -> None:
        out = self.fanout
        if isinstance(msg, PingMsg):
            await out.send_json(conn, {"type": "pong", "version": live.version})
        elif isinstance(msg, Hello):
            await out.error(conn, "already_joined", "this connection has already said hello")
        elif isinstance(msg, ChatMsg):
            await self._chat(live, conn, msg)
        elif conn.seat < 0:
            await out.error(
                conn, "spectator", "spectators cannot play; use a seat's invitation link"
            )
        elif isinstance(msg, MoveMsg):
            try:
                await self.service.play(live, conn.seat, msg.move, msg.version)
            except ProtocolError as exc:
                await out.error(conn, exc.code, exc.message, version=live.version, id=msg.id)
            except IllegalMoveError as exc:
                await out.error(conn, exc.rule, exc.reason, version=live.version, id=msg.id)
            except NotationError as exc:
                await out.error(conn, "notation", exc.reason, version=live.version, id=msg.id)
        elif isinstance(msg, HintMsg):
            await self._hint(live, conn, msg)
        elif isinstance(msg, RematchMsg):
            try:
                await self.service.rematch(live, conn.seat, msg.version)
            except ProtocolError as exc:
                await out.error(conn, exc.code, exc.message, version=live.version)
        elif isinstance(msg, ReviewMsg):
            await self._review(live, conn, msg)

    async def _chat(self, live: LiveTable, conn: Conn, msg: ChatMsg) -> None:
        """A chat line to the table: from a seat, or from a spectator where the table
        allows it; a few lines at a time per seat, or per spectator's address, however
        many sockets they open (:attr:`LiveTable.chat_limit`)."""
        out = self.fanout
        if conn.seat < 0 and not live.options.get("spectator_chat"):
            await out.error(conn, "chat_closed", "spectators cannot chat at this table")
            return
        text = clean_text(msg.text, MAX_CHAT)
        if not text:
            await out.error(conn, "empty_chat", "nothing to send")
            return
        if live.chat_limit is None:
            s = self.settings
            live.chat_limit = AddressLimiter(
                s.chat_rate * 60, burst=s.chat_burst, max_addresses=CHAT_SENDERS
            )
        sender = f"seat {conn.seat}" if conn.seat >= 0 else address_key(conn.peer)
        if not live.chat_limit.take(sender):
            await out.error(conn, "rate_limited", "too many chat lines; wait a few seconds")
            return
        name = live.seats[conn.seat].name if conn.seat >= 0 else "spectator"
        entry = chat_entry(conn.seat, name, text)
        live.chat.append(entry)
        await self.m.db(self.m.store.add_chat, live.id, conn.seat, name, text)
        await self.host.chat(live, entry)
        await out.send_all(live, entry)

    async def _hint(self, live: LiveTable, conn: Conn, msg: HintMsg) -> None:
        """The hard bot's move and reason, worked out by the thinker off the event loop
        in the asking address's turn (web/thinking.py).  One hint at a time per seat
        and version: another tab's request meanwhile waits for the same answer, and
        costs nothing; a new one takes one of the address's ``hints_per_minute``."""
        out = self.fanout
        state = live.state
        mine = state.current == conn.seat and not live.over and live.failed is None
        if msg.version != live.version or not mine:
            await out.error(conn, "no_hint", "a hint is for your own turn, on the current state")
            return
        if conn.hinting:
            await out.error(conn, "busy", "a hint is already being worked out")
            return
        key = (live.id, msg.version, conn.seat)
        hints = self.m.hints
        pending = hints.get(key)
        if pending is None:
            limit = self.m.hint_limit
            if not limit.allow(conn.address):
                wait = max(1, math.ceil(limit.retry_after(conn.address)))
                await out.error(conn, "rate_limited", f"too many hints; try again in {wait} s")
                return
            pending = asyncio.ensure_future(
                self.m.thinker.run(
                    suggestion,
                    state_to_json(state),
                    conn.seat,
                    self.settings.hint_budget or self.settings.review_budget,
                    # the review's seed for this decision: the hint is its best move
                    decision_seed(REVIEW_SEED, len(state.history)),
                    client=conn.address,
                )
            )
            hints[key] = pending
            pending.add_done_callback(partial(self._hint_done, key))
        conn.hinting = True
        try:
            # shielded: one tab closing does not withdraw the hint the others wait for
            hint = await asyncio.shield(pending)
            await out.send_json(
                conn,
                {
                    "type": "hint",
                    "version": msg.version,
                    "move": legal_entry(state.view(conn.seat), hint.move),
                    "reason": hint_text(hint.reason, conn.lang),
                },
            )
        finally:
            conn.hinting = False

    def _hint_done(self, key: tuple[str, int, int], done: asyncio.Future[Hint]) -> None:
        if self.m.hints.get(key) is done:
            del self.m.hints[key]
        if not done.cancelled():
            done.exception()  # retrieved: its waiters, if any are left, raise it

    async def _review(self, live: LiveTable, conn: Conn, msg: ReviewMsg) -> None:
        """Start the review of a finished round of the connection's own seat.

        Refused with a clear code: another seat (``not_your_seat``), a round not
        finished (``not_finished``), a review already running for this connection or
        too many on the server (``busy``), over the connection's allowance
        (``rate_limited``).  The review itself runs as a task, so the connection goes
        on playing while it is worked out (web/reviews.py).
        """
        out = self.fanout
        n = msg.round
        if msg.seat is not None and msg.seat != conn.seat:
            await out.error(conn, "not_your_seat", "you can review your own seat only", round=n)
            return
        if n > len(live.state.results):
            await out.error(conn, "not_finished", f"round {n} is not finished", round=n)
            return
        if conn.review is not None and not conn.review.done():
            await out.error(conn, "busy", "a review is already being worked out", round=n)
            return
        now = time.monotonic()
        if conn.reviews is None:
            conn.reviews = self.m.reviewer.bucket(now)
        if not conn.reviews.take(now):
            wait = math.ceil(conn.reviews.wait(now))
            await out.error(
                conn, "rate_limited", f"too many reviews; try again in {wait} s", round=n
            )
            return
        # The state now: a rematch before the task starts must not take the round away.
        conn.review = asyncio.create_task(self._send_review(live.id, live.state, conn, n))

    async def _send_review(
        self, table_id: str, state: GameState, conn: Conn, round_no: int
    ) -> None:
        """Work the review out (web/reviews.py) and send it, or say why not."""
        out = self.fanout

        async def progress(done: int, total: int) -> None:
            msg = {"type": "review_progress", "round": round_no, "done": done, "total": total}
            await out.send_json(conn, msg)

        try:
            payload = await self.m.reviewer.review(
                table_id, state, conn.seat, round_no, progress, conn.address
            )
        except ReviewBusy:
            await out.error(
                conn, "busy", "the server is reviewing other rounds; try again soon", round=round_no
            )
        except Exception as exc:
            log.error("table %s: the review of round %d failed", table_id, round_no, exc_info=exc)
            await out.error(conn, "review_failed", "the review could not be made", round=round_no)
        else:
            await out.send_json(conn, reasons_in(payload, conn.lang))

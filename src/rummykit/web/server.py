"""The web server: FastAPI routes for the lobby, one WebSocket per client for play.

The server is the authority.  Each table lives in memory as a :class:`LiveTable`
(the :class:`~rummykit.state.GameState`, its version, the connected clients) and on
disk through :class:`~rummykit.web.store.Store`; every accepted move is committed to
the database before anyone is told about it.  A driver task per table plays the bots,
and plays for a human whose turn timer ran out or who stayed disconnected too long.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import logging
import random
import secrets
import time
from collections import deque
from collections.abc import AsyncIterator, Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Annotated, Any, Literal, TypeVar

from fastapi import FastAPI, HTTPException, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field
from starlette.websockets import WebSocketState

from ..bots import Bot, RandomBot, make_bot
from ..bots.hints import suggest
from ..errors import IllegalMoveError, NotationError, RummyError
from ..moves import Move
from ..notation import export_record
from ..rules import PRESET_SOURCES, PRESETS, Rules
from ..serialize import state_from_json, state_to_json
from ..state import GameState, Phase, new_game
from .commits import GroupCommit
from .protocol import (
    MAX_CHAT,
    MAX_NAME,
    PROTOCOL,
    ChatMsg,
    Hello,
    HintMsg,
    MoveIntent,
    MoveMsg,
    PingMsg,
    ProtocolError,
    RematchMsg,
    clean_text,
    legal_entry,
    move_text,
    parse_client_message,
    resolve,
    rules_spec,
    view_payload,
)
from .store import MoveCommit, Store, StoredTable, default_database_url, digest

log = logging.getLogger("rummykit.web")
STATIC = Path(__file__).parent / "static"
AUTO_BOT = "easy"
"""What plays for a human whose timer ran out or who stayed away."""
LOG_LENGTH = 40
_HOUSE_EXAMPLES = {False: "multiple_melds=true", True: "knock_card=7, oklahoma=true"}
"""A house-rules example for the lobby, for rummy and for knock games (Gin)."""

T = TypeVar("T")


@dataclass
class Settings:
    database_url: str = ""
    bot_delay: float = 0.6
    """Seconds a bot waits before each action, so people can follow the play."""
    disconnect_grace: float = 60.0
    """A seated player away this long has their turns played for them."""
    hint_budget: int = 40
    rate: float = 20.0
    """Client messages per second allowed (token bucket) ..."""
    burst: float = 40.0
    """... with bursts up to this many."""
    flood_close: int = 400
    """A client that sends this many messages over the limit is disconnected."""


# -- lobby requests ------------------------------------------------------------------------
class SeatSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")
    kind: Literal["human", "bot"] = "human"
    name: Annotated[str, Field(max_length=MAX_NAME)] | None = None
    difficulty: Literal["easy", "medium", "hard"] = "easy"


class CreateTable(BaseModel):
    model_config = ConfigDict(extra="forbid")
    rules: Annotated[str, Field(min_length=1, max_length=400)] = "basic"
    seats: Annotated[list[SeatSpec], Field(min_length=2, max_length=6)]
    public: bool = False
    target: Annotated[int, Field(ge=1, le=100_000)] | None = None
    deals: Annotated[int, Field(ge=1, le=100)] | None = None
    timer: Annotated[float, Field(ge=1, le=3600)] | None = None


class JoinTable(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: Annotated[str, Field(max_length=MAX_NAME)] | None = None


# -- live tables ---------------------------------------------------------------------------
@dataclass(eq=False)
class Conn:
    ws: WebSocket
    seat: int = -1
    """-1 for a spectator."""
    tokens: float = 0.0
    last: float = field(default_factory=time.monotonic)
    over_limit: int = 0
    hinting: bool = False

    def allow(self, s: Settings) -> bool:
        now = time.monotonic()
        self.tokens = min(s.burst, self.tokens + (now - self.last) * s.rate)
        self.last = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        self.over_limit += 1
        return False


@dataclass(eq=False)
class LiveTable:
    id: str
    seats: list[dict[str, Any]]
    public: bool
    timer: float
    version: int
    state: GameState
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    conns: set[Conn] = field(default_factory=set)
    log: deque[dict[str, Any]] = field(default_factory=lambda: deque(maxlen=LOG_LENGTH))
    chat: deque[dict[str, Any]] = field(default_factory=lambda: deque(maxlen=50))
    turn_key: tuple[int, int, int] = (0, 0, 0)
    turn_started: float = field(default_factory=time.monotonic)
    away_since: dict[int, float] = field(default_factory=dict)
    bots: dict[int, Bot] = field(default_factory=dict)
    driver: asyncio.Task[None] | None = None
    cache: dict[int, str] = field(default_factory=dict)
    """Serialized state message per seat for the current version."""

    @property
    def over(self) -> bool:
        return self.state.phase is Phase.OVER

    def touch_turn(self) -> None:
        s = self.state
        key = (s.round_no, s.turn, s.current)
        if key != self.turn_key:
            self.turn_key = key
            self.turn_started = time.monotonic()

    def connected(self, seat: int) -> bool:
        return any(c.seat == seat for c in self.conns)

    def info(self) -> dict[str, Any]:
        """The lobby-level facts about the table (no secrets, no cards)."""
        deadline = None
        if self.timer and not self.over and self.seats[self.state.current]["kind"] == "human":
            deadline = max(0.0, self.turn_started + self.timer - time.monotonic())
        return {
            "id": self.id,
            "rules": rules_spec(self.state.rules),
            "public": self.public,
            "timer": self.timer or None,
            "time_left": deadline,
            "spectators": sum(1 for c in self.conns if c.seat < 0),
            "seats": [
                {
                    "name": s["name"],
                    "kind": s["kind"],
                    "difficulty": s.get("difficulty"),
                    "open": s["kind"] == "human" and not s.get("claimed"),
                    "connected": s["kind"] == "bot" or self.connected(i),
                }
                for i, s in enumerate(self.seats)
            ],
        }


class Manager:
    """Every live table, the store, and the background drivers."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.store = Store(settings.database_url or default_database_url())
        # SQLite has one writer: a single thread keeps writes in order without lock waits.
        self.db_pool = ThreadPoolExecutor(
            max_workers=1 if self.store.is_sqlite else 4, thread_name_prefix="rummy-db"
        )
        self.commits = GroupCommit(self.store, self.db)
        self.tables: dict[str, LiveTable] = {}
        self.loading: dict[str, asyncio.Lock] = {}

    async def db(self, fn: Callable[..., T], *args: Any) -> T:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self.db_pool, partial(fn, *args))

    async def start(self) -> None:
        for stored in await self.db(self.store.active_tables):
            live = await self._restore(stored)
            now = time.monotonic()
            for i, s in enumerate(live.seats):
                if s["kind"] == "human" and s.get("claimed"):
                    live.away_since[i] = now
            self._start_driver(live)

    async def stop(self) -> None:
        for live in self.tables.values():
            if live.driver:
                live.driver.cancel()
        for live in self.tables.values():
            if live.driver:
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await live.driver
        await self.commits.drain()
        self.db_pool.shutdown(wait=True)
        self.store.close()

    def _live(self, stored: StoredTable) -> LiveTable:
        state = state_from_json(stored.state)
        live = LiveTable(
            id=stored.id,
            seats=stored.seats,
            public=stored.public,
            timer=stored.timer,
            version=stored.version,
            state=state,
        )
        live.touch_turn()
        self.tables[live.id] = live
        return live

    async def _restore(self, stored: StoredTable) -> LiveTable:
        """A table from the database, with the end of its move log and its chat."""
        live = self._live(stored)
        after = max(0, live.version - LOG_LENGTH)
        for row in await self.db(self.store.moves, live.id, after):
            live.log.append(_log_entry(row.seq, row.seat, row.text, row.auto))
        for c in await self.db(self.store.chat, live.id):
            live.chat.append(_chat_entry(c.seat, c.name, c.text))
        return live

    async def get(self, table_id: str) -> LiveTable | None:
        live = self.tables.get(table_id)
        if live is not None:
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
                    live = await self._restore(stored)
                    self._start_driver(live)
            return live
        finally:
            self.loading.pop(table_id, None)

    # -- creating and joining ------------------------------------------------------------
    async def create(self, req: CreateTable) -> dict[str, Any]:
        try:
            rules = Rules.parse(req.rules)
            if req.deals is not None:
                rules = rules.with_options(deals=req.deals)
            elif req.target is not None:
                rules = rules.with_options(target_score=req.target)
        except RummyError as exc:
            raise HTTPException(400, str(exc)) from None
        seats: list[dict[str, Any]] = []
        links: list[str | None] = []
        for i, spec in enumerate(req.seats):
            if spec.kind == "bot":
                name = clean_text(spec.name or "", MAX_NAME) or f"Bot {i + 1} ({spec.difficulty})"
                seats.append({"kind": "bot", "name": name, "difficulty": spec.difficulty})
                links.append(None)
            else:
                secret = secrets.token_urlsafe(24)
                name = clean_text(spec.name or "", MAX_NAME)
                seats.append(
                    {
                        "kind": "human",
                        "name": name or f"Player {i + 1}",
                        "digest": digest(secret),
                        "claimed": bool(name),
                    }
                )
                links.append(secret)
        try:
            state = new_game(rules, [s["name"] for s in seats], seed=secrets.randbits(63))
        except RummyError as exc:
            raise HTTPException(400, str(exc)) from None
        table_id = secrets.token_urlsafe(9)
        stored = StoredTable(
            table_id,
            rules.spec(),
            seats,
            req.public,
            req.timer or 0.0,
            0,
            state_to_json(state),
            False,
        )
        await self.db(self.store.create_table, stored)
        live = self._live(stored)
        self._start_driver(live)
        return {
            "id": table_id,
            "watch": f"/play/{table_id}",
            "seats": [
                {
                    "seat": i,
                    "name": s["name"],
                    "kind": s["kind"],
                    "secret": links[i],
                    "link": None
                    if links[i] is None
                    else f"/play/{table_id}#seat={i}&key={links[i]}",
                }
                for i, s in enumerate(seats)
            ],
        }

    async def join(self, live: LiveTable, name: str | None) -> dict[str, Any]:
        async with live.lock:
            for i, s in enumerate(live.seats):
                if s["kind"] == "human" and not s.get("claimed"):
                    secret = secrets.token_urlsafe(24)
                    s["digest"] = digest(secret)
                    s["claimed"] = True
                    clean = clean_text(name or "", MAX_NAME)
                    if clean:
                        s["name"] = clean
                        live.state.names[i] = clean
                    await self.db(
                        self.store.save_seats, live.id, live.seats, state_to_json(live.state)
                    )
                    live.cache.clear()
                    break
            else:
                raise HTTPException(409, "no open seat at this table")
        await self.broadcast(live)
        return {"seat": i, "secret": secret, "link": f"/play/{live.id}#seat={i}&key={secret}"}

    # -- playing ------------------------------------------------------------------------------
    async def play(
        self,
        live: LiveTable,
        seat: int,
        intent: MoveIntent | Move,
        version: int | None,
        *,
        auto: bool = False,
    ) -> None:
        """Validate and apply one move, commit it, then tell everyone.

        Raises :class:`ProtocolError` (stale version, not your turn) or the engine's
        :class:`IllegalMoveError` / :class:`NotationError`; the state is then unchanged.
        """
        async with live.lock:
            if version is not None and version != live.version:
                raise ProtocolError(
                    "stale",
                    f"that move was based on version {version}; the game is at {live.version}",
                )
            state = live.state
            if state.phase is Phase.OVER:
                raise IllegalMoveError("match_over", "the match is over")
            if state.current != seat:
                raise ProtocolError("not_your_turn", "it is not your turn")
            move = intent if isinstance(intent, Move) else resolve(intent, state.view(seat))
            new = state.clone()
            new.apply(move)
            text = move_text(state, move)
            seq = live.version + 1
            await self.commits.commit(
                MoveCommit(
                    table_id=live.id,
                    seq=seq,
                    seat=seat,
                    action=new.game.actions.encode(move),
                    text=text,
                    state=state_to_json(new),
                    over=new.is_over(),
                    auto=auto,
                )
            )
            live.state = new
            live.version = seq
            live.cache.clear()
            live.log.append(_log_entry(seq, seat, text, auto))
            live.touch_turn()
        live.changed.set()
        await self.broadcast(live)

    async def rematch(self, live: LiveTable, seat: int, version: int) -> None:
        async with live.lock:
            if version != live.version:
                raise ProtocolError("stale", f"the game is at version {live.version}")
            if not live.over:
                raise ProtocolError("not_over", "a rematch starts once the match is over")
            old = live.state
            new = new_game(old.rules, list(old.names), seed=secrets.randbits(63))
            seq = live.version + 1
            await self.commits.commit(
                MoveCommit(
                    table_id=live.id,
                    seq=seq,
                    seat=seat,
                    action=-1,
                    text="rematch",
                    state=state_to_json(new),
                    over=False,
                )
            )
            live.state = new
            live.version = seq
            live.cache.clear()
            live.log.append(_log_entry(seq, seat, "rematch", False))
            live.touch_turn()
        live.changed.set()
        await self.broadcast(live)

    async def auto_move(self, live: LiveTable, seat: int, version: int, bot_name: str) -> None:
        """A bot (or the auto-player) chooses from the seat's view and plays."""
        bot = live.bots.get(seat)
        if bot is None or live.seats[seat]["kind"] == "human":
            bot = make_bot(bot_name)
            if live.seats[seat]["kind"] == "bot":
                live.bots[seat] = bot
        view = live.state.view(seat)
        rng = random.Random(f"{live.state.seed}:{version}")
        move = await asyncio.to_thread(bot.choose, view, rng)
        auto = live.seats[seat]["kind"] == "human"
        try:
            await self.play(live, seat, move, version, auto=auto)
        except ProtocolError:  # the game moved on while the bot was thinking
            pass
        except IllegalMoveError as exc:
            # A bot bug.  Its RNG is seeded by the version, so asking it again would
            # bring the same move and stall the table: say so, and play a legal move.
            log.warning("table %s v%d: %s chose %s: %s", live.id, version, bot_name, move, exc)
            with contextlib.suppress(ProtocolError, IllegalMoveError):
                await self.play(live, seat, RandomBot().choose(view, rng), version, auto=auto)

    def _start_driver(self, live: LiveTable) -> None:
        if live.driver is None or live.driver.done():
            live.driver = asyncio.get_running_loop().create_task(self._drive(live))

    async def _drive(self, live: LiveTable) -> None:
        """Play bots' turns; play a human's turn when their timer runs out or they have
        been away longer than the grace period."""
        s = self.settings
        while True:
            live.changed.clear()
            state = live.state
            version = live.version
            timeout: float | None = None
            bot_name = AUTO_BOT
            if not live.over:
                seat = state.current
                info = live.seats[seat]
                now = time.monotonic()
                if info["kind"] == "bot":
                    timeout = s.bot_delay
                    # A difficulty is a bot name (make_bot), the same as in the terminal
                    # game: hard searches about one second per move.
                    bot_name = info.get("difficulty", "easy")
                else:
                    limits = []
                    if live.timer:
                        limits.append(live.turn_started + live.timer - now)
                    if seat in live.away_since:
                        limits.append(live.away_since[seat] + s.disconnect_grace - now)
                    if limits:
                        timeout = max(0.0, min(limits))
            try:
                if timeout is None:
                    await live.changed.wait()
                    continue
                await asyncio.wait_for(live.changed.wait(), timeout)
                continue
            except TimeoutError:
                pass
            if live.version == version and not live.over:
                try:
                    await self.auto_move(live, state.current, version, bot_name)
                except asyncio.CancelledError:
                    raise
                except Exception:  # pragma: no cover - a bot bug must not stop the server
                    log.exception("table %s v%d: the %s bot failed", live.id, version, bot_name)
                    await asyncio.sleep(1.0)

    # -- messages ------------------------------------------------------------------------------
    def state_message(self, live: LiveTable, seat: int) -> str:
        """The ``state`` message for one seat (-1: spectators), from that seat's view."""
        cached = live.cache.get(seat)
        if cached is None:
            view = live.state.view(seat if seat >= 0 else 0)
            cached = json.dumps(
                {
                    "type": "state",
                    "version": live.version,
                    "table": live.info(),
                    "game": view_payload(view, spectator=seat < 0),
                    "log": list(live.log),
                },
                separators=(",", ":"),
            )
            live.cache[seat] = cached
        return cached

    async def broadcast(self, live: LiveTable) -> None:
        conns = list(live.conns)
        await asyncio.gather(*(self.send(c, self.state_message(live, c.seat)) for c in conns))

    async def send(self, conn: Conn, text: str) -> None:
        try:
            if conn.ws.client_state is WebSocketState.CONNECTED:
                await conn.ws.send_text(text)
        except Exception:  # the client went away; its handler cleans up
            pass

    async def send_json(self, conn: Conn, msg: dict[str, Any]) -> None:
        await self.send(conn, json.dumps(msg, separators=(",", ":")))

    async def error(self, conn: Conn, code: str, message: str, **extra: Any) -> None:
        await self.send_json(conn, {"type": "error", "code": code, "message": message, **extra})

    # -- the WebSocket session ----------------------------------------------------------------
    async def session(self, ws: WebSocket, table_id: str) -> None:
        await ws.accept()
        conn = Conn(ws, tokens=self.settings.burst)
        live = await self.get(table_id)
        if live is None:
            await self.error(conn, "not_found", "no such table")
            await ws.close(4404)
            return
        joined = False
        try:
            while True:
                event = await ws.receive()
                if event["type"] == "websocket.disconnect":
                    break
                raw = event.get("text")
                if raw is None:
                    raw = event.get("bytes") or b""
                if not conn.allow(self.settings):
                    if conn.over_limit >= self.settings.flood_close:
                        await self.error(conn, "rate_limited", "too many messages; disconnected")
                        await ws.close(1008)
                        break
                    if conn.over_limit % 50 == 1:
                        await self.error(conn, "rate_limited", "too many messages; slow down")
                    continue
                try:
                    msg = parse_client_message(raw)
                except ProtocolError as exc:
                    await self.error(conn, exc.code, exc.message)
                    continue
                if not joined:
                    if not isinstance(msg, Hello):
                        await self.error(conn, "hello_first", "send 'hello' first")
                        continue
                    if not await self._hello(live, conn, msg):
                        await ws.close(4403)
                        return
                    joined = True
                    continue
                await self._dispatch(live, conn, msg)
        except WebSocketDisconnect:
            pass
        finally:
            if conn in live.conns:
                live.conns.discard(conn)
                if conn.seat >= 0 and not live.connected(conn.seat):
                    live.away_since[conn.seat] = time.monotonic()
                    live.cache.clear()
                    live.changed.set()
                    await self.broadcast(live)

    async def _hello(self, live: LiveTable, conn: Conn, msg: Hello) -> bool:
        if msg.seat is not None:
            seat = msg.seat
            info = live.seats[seat] if seat < len(live.seats) else None
            ok = (
                info is not None
                and info["kind"] == "human"
                and msg.secret is not None
                and secrets.compare_digest(info["digest"], digest(msg.secret))
            )
            if not ok:
                await self.error(conn, "bad_secret", "that seat's invitation link is not valid")
                return False
            assert info is not None
            conn.seat = seat
            name = clean_text(msg.name or "", MAX_NAME)
            if not info.get("claimed") or (name and name != info["name"] and live.version == 0):
                info["claimed"] = True
                if name:
                    info["name"] = name
                    live.state.names[seat] = name
                await self.db(self.store.save_seats, live.id, live.seats, state_to_json(live.state))
            live.away_since.pop(seat, None)
        live.conns.add(conn)
        live.cache.clear()
        live.changed.set()
        await self.send_json(
            conn, {"type": "welcome", "protocol": PROTOCOL, "seat": conn.seat, "table": live.id}
        )
        for c in live.chat:
            await self.send_json(conn, c)
        await self.broadcast(live)
        return True

    async def _dispatch(self, live: LiveTable, conn: Conn, msg: Any) -> None:
        if isinstance(msg, PingMsg):
            await self.send_json(conn, {"type": "pong", "version": live.version})
        elif isinstance(msg, Hello):
            await self.error(conn, "already_joined", "this connection has already said hello")
        elif isinstance(msg, ChatMsg):
            text = clean_text(msg.text, MAX_CHAT)
            if not text:
                await self.error(conn, "empty_chat", "nothing to send")
                return
            name = live.seats[conn.seat]["name"] if conn.seat >= 0 else "spectator"
            entry = _chat_entry(conn.seat, name, text)
            live.chat.append(entry)
            await self.db(self.store.add_chat, live.id, conn.seat, name, text)
            data = json.dumps(entry, separators=(",", ":"))
            await asyncio.gather(*(self.send(c, data) for c in list(live.conns)))
        elif conn.seat < 0:
            await self.error(
                conn, "spectator", "spectators cannot play; use a seat's invitation link"
            )
        elif isinstance(msg, MoveMsg):
            try:
                await self.play(live, conn.seat, msg.move, msg.version)
            except ProtocolError as exc:
                await self.error(conn, exc.code, exc.message, version=live.version, id=msg.id)
            except IllegalMoveError as exc:
                await self.error(conn, exc.rule, exc.reason, version=live.version, id=msg.id)
            except NotationError as exc:
                await self.error(conn, "notation", exc.reason, version=live.version, id=msg.id)
        elif isinstance(msg, HintMsg):
            await self._hint(live, conn, msg)
        elif isinstance(msg, RematchMsg):
            try:
                await self.rematch(live, conn.seat, msg.version)
            except ProtocolError as exc:
                await self.error(conn, exc.code, exc.message, version=live.version)

    async def _hint(self, live: LiveTable, conn: Conn, msg: HintMsg) -> None:
        if msg.version != live.version or live.state.current != conn.seat or live.over:
            await self.error(conn, "no_hint", "a hint is for your own turn, on the current state")
            return
        if conn.hinting:
            await self.error(conn, "busy", "a hint is already being worked out")
            return
        conn.hinting = True
        try:
            view = live.state.view(conn.seat)
            hint = await asyncio.to_thread(suggest, view, budget=self.settings.hint_budget)
            await self.send_json(
                conn,
                {
                    "type": "hint",
                    "version": msg.version,
                    "move": legal_entry(view, hint.move),
                    "reason": hint.reason,
                },
            )
        finally:
            conn.hinting = False


def _log_entry(seq: int, seat: int, text: str, auto: bool) -> dict[str, Any]:
    return {"seq": seq, "seat": seat, "text": text, "auto": auto}


def _chat_entry(seat: int, name: str, text: str) -> dict[str, Any]:
    return {"type": "chat", "seat": seat, "name": name, "text": text}


# -- the application -----------------------------------------------------------------------
_CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'"
)


def create_app(settings: Settings | None = None) -> FastAPI:
    """The ASGI app.  ``settings.database_url`` empty means the default database."""
    settings = settings or Settings()
    holder: dict[str, Manager] = {}

    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        manager = Manager(settings)
        holder["m"] = manager
        _app.state.manager = manager
        await manager.start()
        try:
            yield
        finally:
            await manager.stop()

    app = FastAPI(title="rummykit", lifespan=lifespan, docs_url=None, redoc_url=None)

    def mgr() -> Manager:
        return holder["m"]

    @app.middleware("http")
    async def headers(request: Request, call_next: Callable[[Request], Any]) -> Response:
        response: Response = await call_next(request)
        response.headers["Content-Security-Policy"] = _CSP
        response.headers["X-Content-Type-Options"] = "nosniff"
        response.headers["Referrer-Policy"] = "no-referrer"
        return response

    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    @app.get("/", include_in_schema=False)
    async def index() -> FileResponse:
        return FileResponse(STATIC / "index.html")

    @app.get("/play/{table_id}", include_in_schema=False)
    async def play_page(table_id: str) -> FileResponse:
        return FileResponse(STATIC / "index.html")

    @app.get("/healthz")
    async def healthz() -> dict[str, Any]:
        return {"ok": True, "tables": len(mgr().tables)}

    @app.get("/api/presets")
    async def presets() -> list[dict[str, Any]]:
        return [
            {
                "name": n,
                "source": PRESET_SOURCES.get(n, ""),
                "spec": PRESETS[n].spec(),
                "players": [PRESETS[n].min_players, PRESETS[n].max_players],
                "example": _HOUSE_EXAMPLES[PRESETS[n].knock_card is not None],
            }
            for n in PRESETS
        ]

    @app.post("/api/tables")
    async def create(req: CreateTable) -> dict[str, Any]:
        return await mgr().create(req)

    @app.get("/api/tables")
    async def public_tables() -> list[dict[str, Any]]:
        m = mgr()
        out = []
        for stored in await m.db(m.store.public_tables):
            live = await m.get(stored.id)
            if live is not None and not live.over:
                out.append(live.info())
        return out

    async def _table(table_id: str) -> LiveTable:
        live = await mgr().get(table_id)
        if live is None:
            raise HTTPException(404, "no such table")
        return live

    @app.get("/api/tables/{table_id}")
    async def table_info(table_id: str) -> dict[str, Any]:
        live = await _table(table_id)
        return {**live.info(), "version": live.version, "over": live.over}

    @app.post("/api/tables/{table_id}/join")
    async def join(table_id: str, req: JoinTable) -> dict[str, Any]:
        live = await _table(table_id)
        if not live.public:
            raise HTTPException(403, "this table is by invitation only")
        return await mgr().join(live, req.name)

    @app.get("/api/tables/{table_id}/record")
    async def record(table_id: str) -> Response:
        live = await _table(table_id)
        if not live.over:
            # The record names the seed, which would reveal every hand and the stock.
            return JSONResponse(
                {"detail": "the record can be downloaded once the match is over"}, 409
            )
        return PlainTextResponse(
            export_record(live.state),
            headers={"Content-Disposition": f'attachment; filename="rummy-{table_id}.txt"'},
        )

    @app.websocket("/ws/{table_id}")
    async def ws(websocket: WebSocket, table_id: str) -> None:
        await mgr().session(websocket, table_id)

    return app


GC_THRESHOLDS = (50_000, 20, 10)
"""The collector's thresholds for a serving process (CPython's default: 700, 10, 10)."""


def tune_gc() -> None:
    """Keep the cyclic garbage collector from pausing a busy server.

    With 1,000 live tables the process tracks some 450,000 objects, and with CPython's
    default thresholds a full collection ran every ten seconds or so and stopped the
    event loop for about 250 ms: that was the whole tail of the move latency in
    ``benchmarks/load.py``.  Every object alive at this call (modules, the app) is
    moved out of the collector's sight (:func:`gc.freeze`), and a young collection
    waits for 50,000 net new container objects instead of 700.  A move's objects are
    replaced by the next move's within seconds, so almost none survives long enough to
    be promoted and rescanned; garbage cycles are still collected, in rarer batches.
    """
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


def serve_main(
    host: str = "127.0.0.1",
    port: int = 8000,
    database_url: str | None = None,
    *,
    bot_delay: float = 0.6,
    disconnect_grace: float = 60.0,
    log_level: str = "info",
) -> None:  # pragma: no cover - runs a server until interrupted (tested as a subprocess)
    """Run the server until interrupted: what ``rummy serve`` calls.

    ``database_url`` None means ``$RUMMYKIT_DATABASE_URL`` or SQLite in the user's data
    directory; ``postgresql://user@host/db`` works as is.
    """
    import uvicorn

    settings = Settings(
        database_url=database_url or default_database_url(),
        bot_delay=bot_delay,
        disconnect_grace=disconnect_grace,
    )
    app = create_app(settings)
    tune_gc()
    uvicorn.run(
        app,
        host=host,
        port=port,
        log_level=log_level,
        ws_max_size=65536,
        ws_ping_interval=20,
        ws_ping_timeout=20,
    )

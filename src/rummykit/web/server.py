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
import math
import os
import random
import secrets
import time
from collections import deque
from collections.abc import AsyncIterator, Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Annotated, Any, Literal, TypeVar

from fastapi import FastAPI, HTTPException, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field, model_validator
from sqlalchemy.exc import SQLAlchemyError
from starlette.requests import HTTPConnection
from starlette.websockets import WebSocketState

from ..bots import RandomBot, make_bot
from ..bots.hints import Hint
from ..bots.review import decision_seed
from ..errors import IllegalMoveError, NotationError, RummyError
from ..i18n import (
    error_text,
    game_description,
    game_title,
    hint_text,
    normalize,
    rules_error_text,
    rules_summary,
    spec_title,
)
from ..i18n.rulebook_fr import SOURCES_FR
from ..melds import keep_meld_tables, meld_table
from ..moves import Move
from ..notation import export_record
from ..rules import PRESET_SOURCES, PRESETS, Family, Rules
from ..serialize import state_from_json, state_to_json
from ..state import GameState, Phase, new_game
from .cluster import Cluster, Presence
from .commits import GroupCommit
from .config import from_env, parse_list
from .gate import Gate
from .limits import AddressLimiter, TokenBucket, address_key
from .origin import HostCheck, origin_allowed
from .policy import PolicyError, check_rules
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
    ReviewMsg,
    clean_text,
    legal_entry,
    log_text,
    parse_client_message,
    resolve,
    rules_spec,
    view_payload,
)
from .residency import (
    CLOSE_GONE,
    Residency,
    Unavailable,
    expired,
    monotonic_clock,
    server_full,
)
from .reviews import REVIEW_SEED, ReviewBusy, Reviewer
from .settings import Settings
from .store import (
    CHAT_KEEP,
    FAILED,
    MoveCommit,
    StaleWriteError,
    Store,
    StoredTable,
    default_database_url,
    digest,
)
from .thinking import BOTS, PEOPLE, Thinker, choose_move, default_workers, server_bot, suggestion

log = logging.getLogger("rummykit.web")
STATIC = Path(__file__).parent / "static"
AUTO_BOT = "easy"
"""What plays for a human whose timer ran out or who stayed away."""
LOG_LENGTH = 40
CHAT_SENDERS = 256
"""Chat senders (seats, spectators' addresses) a table's chat limit remembers, the
least recent forgotten first: five times the spectators a table holds by default."""
HEALTH_TIMEOUT = 2.0
"""Seconds ``/healthz`` waits for the database before it answers 503."""
_HOUSE_EXAMPLES = {False: "multiple_melds=true", True: "knock_card=7, oklahoma=true"}
"""A house-rules example for the lobby, for rummy and for knock games (Gin)."""
_DECLARE_EXAMPLE = "first_drop=15, middle_drop=30"
"""...and for declaration games (Indian Rummy: pool 61's drops)."""

T = TypeVar("T")

# WebSocket close codes (docs/protocol.md).
CLOSE_ORIGIN = 4003
"""The page's Origin is neither this server's nor an allowed one."""
CLOSE_BAD_SECRET = 4403
CLOSE_NOT_FOUND = 4404
CLOSE_REPLACED = 4409
"""A newer connection took this seat's place (``Settings.max_seat_sockets``)."""
CLOSE_TOO_SLOW = 4408
"""The client did not read what it was sent within ``Settings.send_timeout``."""
CLOSE_TOO_MANY_SOCKETS = 4429
"""The client's address opened more sockets than ``Settings.sockets_per_minute``."""
CLOSE_SPECTATORS_FULL = 4503
"""The table already has ``Settings.max_spectators`` spectators."""


# -- lobby requests ------------------------------------------------------------------------
_STRICT = ConfigDict(extra="forbid", strict=True, allow_inf_nan=False)
"""Request bodies: ``"deals": true`` is not 1 and ``"public": "yes"`` not True, and
NaN or Infinity is refused."""


class SeatSpec(BaseModel):
    model_config = _STRICT
    kind: Literal["human", "bot"] = "human"
    name: Annotated[str, Field(max_length=MAX_NAME)] | None = None
    difficulty: Literal["easy", "medium", "hard"] = "easy"
    open: bool = False
    """A human seat anyone may take with ``join``; other human seats are the creator's
    (the first) and invitations, which ``join`` never hands out."""

    @model_validator(mode="after")
    def _open_is_human(self) -> SeatSpec:
        if self.open and self.kind != "human":
            raise ValueError("only a human seat can be open to the public")
        return self


class CreateTable(BaseModel):
    model_config = _STRICT
    rules: Annotated[str, Field(min_length=1, max_length=400)] = "basic"
    seats: Annotated[list[SeatSpec], Field(min_length=2, max_length=8)]
    """Up to eight: 500 Rum with two decks seats five to eight (rum500_big)."""
    public: bool = False
    target: Annotated[int, Field(ge=1, le=100_000)] | None = None
    deals: Annotated[int, Field(ge=1, le=100)] | None = None
    timer: Annotated[float, Field(ge=1, le=3600)] | None = None
    spectator_chat: bool = False
    """Whether spectators may chat (seated players always may)."""

    @model_validator(mode="after")
    def _open_seats_are_public(self) -> CreateTable:
        if not self.public and any(s.open for s in self.seats):
            raise ValueError("a seat open to the public needs a public table")
        return self


class JoinTable(BaseModel):
    model_config = _STRICT
    name: Annotated[str, Field(max_length=MAX_NAME)] | None = None


# -- live tables ---------------------------------------------------------------------------
@dataclass(eq=False)
class Conn:
    ws: WebSocket
    messages: TokenBucket
    """Every message the client sends takes a token (``Settings.rate``, ``burst``)."""
    peer: str | None = None
    """The client's address (:func:`_peer`): a spectator's chat is counted by it."""
    seat: int = -1
    """-1 for a spectator."""
    over_limit: int = 0
    hinting: bool = False
    lang: str = "en"
    """The page's language, from its ``hello``: errors and hints to it come in it."""
    opened: float = field(default_factory=time.monotonic)
    reviews: TokenBucket | None = None
    """The connection's allowance of round reviews (web/reviews.py), made on first use."""
    review: asyncio.Task[None] | None = None
    """The review being worked out for this connection, if any."""
    dropped: bool = False
    """The client stopped reading; nothing more is sent to it (:meth:`Manager.send`)."""
    table: LiveTable | None = None
    """The table the connection said hello to."""
    address: str = ""
    """The client's address as the limits count it (:func:`~.limits.address_key`)."""

    @classmethod
    def new(cls, ws: WebSocket, s: Settings) -> Conn:
        now = time.monotonic()
        return cls(
            ws,
            messages=TokenBucket(s.burst, s.rate, last=now),
            peer=_peer(ws),
            opened=now,
            address=address_key(_peer(ws)),
        )

    def allow(self) -> bool:
        if self.messages.take(time.monotonic()):
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
    chat: deque[dict[str, Any]] = field(default_factory=lambda: deque(maxlen=CHAT_KEEP))
    options: dict[str, Any] = field(default_factory=dict)
    """The table's options from its creation (``spectator_chat``)."""
    turn_key: tuple[int, int, int] = (0, 0, 0)
    turn_started: float = field(default_factory=time.monotonic)
    away_since: dict[int, float] = field(default_factory=dict)
    driver: asyncio.Task[None] | None = None
    cache: dict[int, str] = field(default_factory=dict)
    """Serialized state message per seat for the current version."""
    record: tuple[int, str] | None = None
    """The exported match record and the version it was made at."""
    failed: str | None = None
    """Why the table stopped, if the engine could not go on."""
    resting: bool = False
    """The driver has nothing to do until something changes (web/residency.py)."""
    sockets: int = 0
    """Sockets open to the table, hello said or not: it must not leave memory."""
    last_active: float = field(default_factory=time.monotonic)
    """When anything last happened or asked for the table (for unloading)."""
    last_seen: float = field(default_factory=time.monotonic)
    """When someone was last connected (for expiry)."""
    lease: int | None = None
    """With many processes (web/cluster.py): this process's lease token if it owns the
    table and plays it; None for a replica that follows the owner."""
    remote: dict[str, Presence] = field(default_factory=dict)
    """Who is connected to the table through other processes, by node."""
    stale: bool = False
    """A replica with a newer version in the database than in memory."""
    owner_node: str | None = None
    """The node that last stored a move of a replica's table (its owner, as far as
    this process knows): when its last player leaves, the players here take it over."""
    chat_limit: AddressLimiter | None = None
    """Chat lines per seat, and per address for spectators (``Settings.chat_burst``,
    ``chat_rate``): a new socket brings no new lines.  Made on the first line."""
    creator: str = ""
    """The address that made the table, as the limits count it; empty for a table
    loaded from the store (the address is not stored)."""

    @property
    def bots_only(self) -> bool:
        """Every seat is a bot's: nobody plays at the table, people may only watch."""
        return _bots_only(self.seats)

    @property
    def client(self) -> str:
        """Who the table's bot moves are for in the thinkers' queue (web/thinking.py):
        its creator's address, else the table itself."""
        return self.creator or f"table:{self.id}"

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
        """Whether the seat has a connection here or through another process."""
        return any(c.seat == seat for c in self.conns) or any(
            seat in p.seats for p in self.remote.values()
        )

    def spectators(self) -> int:
        here = sum(1 for c in self.conns if c.seat < 0)
        return here + sum(p.spectators for p in self.remote.values())

    def info(self) -> dict[str, Any]:
        """The lobby-level facts about the table (no secrets, no cards).  One pass over
        the connections: a hello asks for it, and a table may have many spectators."""
        deadline = None
        if self.timer and not self.over and self.seats[self.state.current]["kind"] == "human":
            deadline = max(0.0, self.turn_started + self.timer - time.monotonic())
        seated = {c.seat for c in self.conns}.union(*(p.seats for p in self.remote.values()))
        return {
            "id": self.id,
            "rules": rules_spec(self.state.rules),
            "public": self.public,
            "timer": self.timer or None,
            "time_left": deadline,
            "failed": self.failed,
            "spectators": self.spectators(),
            "spectator_chat": bool(self.options.get("spectator_chat")),
            "seats": [
                {
                    "name": s["name"],
                    "kind": s["kind"],
                    "difficulty": s.get("difficulty"),
                    "open": _joinable(s),
                    "connected": s["kind"] == "bot" or i in seated,
                }
                for i, s in enumerate(self.seats)
            ],
        }


def _bots_only(seats: list[dict[str, Any]]) -> bool:
    return all(s["kind"] == "bot" for s in seats)


def _joinable(seat: dict[str, Any]) -> bool:
    """A seat ``join`` may hand out: a human seat opened to the public at creation and
    not taken yet.  The creator's seat and invitations never are;
    neither are the seats of tables stored before seats could be opened."""
    return seat["kind"] == "human" and bool(seat.get("open")) and not seat.get("claimed")


class Manager:
    """Every live table, the store, and the background drivers."""

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
        self.residency = Residency(self)
        self.closing: set[asyncio.Task[None]] = set()
        """Sockets being closed for reading too slowly (:meth:`send`)."""
        self.cluster = Cluster(self) if settings.cluster and not self.store.is_sqlite else None
        """Set when tables are shared with other processes (PostgreSQL, web/cluster.py)."""

    async def healthy(self) -> bool:
        """Whether the database answers within :data:`HEALTH_TIMEOUT` seconds and, with
        other processes, the notification connection is up."""
        if self.cluster is not None and not self.cluster.listening:
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
        """Load the tables that play by themselves; the others load on demand.  With
        other processes, the ones nobody holds are taken by the cluster's sweep."""
        if self.cluster is not None:
            await self.cluster.start()
        await self.residency.start(load=self.cluster is None)

    async def stop(self) -> None:
        await self.residency.stop()
        for live in self.tables.values():
            if live.driver:
                live.driver.cancel()
        for live in self.tables.values():
            if live.driver:
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await live.driver
        await self.thinker.close()
        await self.commits.drain()
        if self.cluster is not None:
            await self.cluster.stop()
        self.db_pool.shutdown(wait=True)
        self.builder.shutdown(wait=True)
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
            options=stored.options,
        )
        if stored.status == "failed":
            live.failed = stored.note
        if stored.updated:
            live.last_seen = min(live.last_seen, monotonic_clock(stored.updated))
        live.touch_turn()
        self.tables[live.id] = live
        return live

    async def _restore(self, stored: StoredTable) -> LiveTable:
        """A table from the database, with the end of its move log and its chat.

        Nobody is connected to a table that was not in memory, so every seated person
        counts as away from now on (their turns are played after the grace period).
        """
        try:
            rules = Rules.parse(stored.spec)
            await asyncio.get_running_loop().run_in_executor(self.builder, meld_table, rules)
            live = self._live(stored)
        except Exception as exc:
            raise await self._unreadable(stored, exc) from exc
        after = max(0, live.version - LOG_LENGTH)
        for row in await self.db(self.store.moves, live.id, after):
            live.log.append(_log_entry(row.seq, row.seat, row.text, row.auto))
        for c in await self.db(self.store.chat, live.id):
            live.chat.append(_chat_entry(c.seat, c.name, c.text))
        now = time.monotonic()
        for i, s in enumerate(live.seats):
            if s["kind"] == "human" and s.get("claimed"):
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

        With other processes the table is loaded as its owner if this process holds or
        can take its lease (``lease``: already taken), else as a replica that follows
        the owner; the lease is taken before the state is read, so an owner never
        starts from a state older than the last one stored.
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
                    await self.residency.make_room(_bots_only(stored.seats))
                    if self.cluster is not None and lease is None and not stored.over:
                        lease = await self.cluster.acquire(table_id)
                    if lease is not None:
                        stored = await self.db(self.store.load_table, table_id) or stored
                    live = await self._restore(stored)
                    live.lease = lease
                    if self.cluster is None or lease is not None:
                        self._start_driver(live)
                    else:
                        live.resting = True
                        await self.cluster.ask_presence(table_id)
            return live
        finally:
            self.loading.pop(table_id, None)

    # -- creating and joining ------------------------------------------------------------
    async def create(self, req: CreateTable, lang: str = "en", address: str = "") -> dict[str, Any]:
        """Make a table for the client at ``address`` (as the limits count it); a
        refusal (400) says why in ``lang`` where the catalog can."""
        try:
            rules = Rules.parse(req.rules)
            if req.deals is not None:
                rules = rules.with_options(deals=req.deals)
            elif req.target is not None:
                rules = rules.with_options(target_score=req.target)
        except RummyError as exc:
            raise HTTPException(400, rules_error_text(str(exc), lang)) from None
        try:
            check_rules(rules, len(req.seats), self.settings)
        except PolicyError as exc:
            raise HTTPException(400, str(exc)) from None
        # A new rule set's meld tables take up to half a second to build: in a thread,
        # so that the event loop goes on answering meanwhile (:attr:`builder`).
        await asyncio.get_running_loop().run_in_executor(self.builder, meld_table, rules)
        seats: list[dict[str, Any]] = []
        links: list[str | None] = []
        creator: int | None = None
        for i, spec in enumerate(req.seats):
            name = clean_text(spec.name or "", MAX_NAME)
            if spec.kind == "bot":
                name = name or f"Bot {i + 1} ({spec.difficulty})"
                seats.append({"kind": "bot", "name": name, "difficulty": spec.difficulty})
                links.append(None)
            else:
                # The first human seat not opened to the public is the creator's, claimed
                # at creation: a blank name must not leave it for ``join`` to give away.
                # An open seat has no secret, hence no link, until a join.
                if creator is None and not spec.open:
                    creator = i
                secret = None if spec.open else secrets.token_urlsafe(24)
                seats.append(
                    {
                        "kind": "human",
                        "name": name or f"Player {i + 1}",
                        "digest": None if secret is None else digest(secret),
                        "claimed": creator == i or (bool(name) and not spec.open),
                        "open": spec.open,
                    }
                )
                links.append(secret)
        try:
            state = new_game(rules, [s["name"] for s in seats], seed=secrets.randbits(63))
        except RummyError as exc:
            raise HTTPException(400, rules_error_text(str(exc), lang)) from None
        bots_only = _bots_only(seats)
        if bots_only:
            self._room_for_bots(address)
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
            options={"spectator_chat": req.spectator_chat},
        )
        await self.residency.make_room(bots_only)  # before the row: a refused table leaves none
        await self.db(self.store.create_table, stored)
        live = self._live(stored)
        live.creator = address
        if self.cluster is not None:
            live.lease = await self.cluster.acquire(table_id)
        self._start_driver(live)

        def seat_link(i: int) -> dict[str, Any]:
            return {"seat": i, "secret": links[i], "link": _link(table_id, i, links[i])}

        return {
            "id": table_id,
            "watch": f"/play/{table_id}",
            "creator": None if creator is None else seat_link(creator),
            "seats": [
                {**seat_link(i), "name": s["name"], "kind": s["kind"], "open": bool(s.get("open"))}
                for i, s in enumerate(seats)
            ],
        }

    def _room_for_bots(self, address: str) -> None:
        """Refuse a table of bots only past ``bot_tables_per_address`` in play from
        ``address`` (429) or ``max_bot_tables`` in play on the server (503): such a
        table is never idle while it plays, so it would hold its place in memory and
        its share of the pool for as long as its match lasts."""
        s = self.settings
        playing = [t for t in self.tables.values() if t.bots_only and not t.over and not t.failed]
        if sum(1 for t in playing if t.creator == address) >= s.bot_tables_per_address:
            raise HTTPException(
                429,
                f"your address already has {s.bot_tables_per_address} tables of bots only "
                "in play; wait until one is over",
            )
        if len(playing) >= s.max_bot_tables:
            raise server_full(s.max_bot_tables)

    async def join(self, live: LiveTable, name: str | None) -> dict[str, Any]:
        """Give the first seat opened to the public to whoever asks (the owner does,
        so two processes never give the same seat away)."""
        if self.cluster is not None and live.lease is None:
            done = await self.cluster.call(live, "join", {"name": name})
            if done is not None:
                return done
        async with live.lock:
            for i, s in enumerate(live.seats):
                if _joinable(s):
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
        await self._seats_changed(live)
        return {"seat": i, "secret": secret, "link": _link(live.id, i, secret)}

    async def _seats_changed(self, live: LiveTable) -> None:
        if self.cluster is not None:
            await self.cluster.seats_changed(live)
        await self.presence(live)

    async def claim(self, live: LiveTable, seat: int, name: str) -> bool:
        """Mark a seat whose link was used as claimed, with the name its holder gave
        (until the first move); whether anything changed.  The owner stores it."""
        info = live.seats[seat]
        if info.get("claimed") and not (name and name != info["name"] and live.version == 0):
            return False
        if self.cluster is not None and live.lease is None:
            done = await self.cluster.call(live, "claim", {"seat": seat, "name": name})
            if done is not None:
                return bool(done.get("changed"))
        async with live.lock:
            info["claimed"] = True
            renamed = bool(name) and name != info["name"]
            if renamed:
                info["name"] = name
                live.state.names[seat] = name
                live.cache.clear()
            await self.db(self.store.save_seats, live.id, live.seats, state_to_json(live.state))
        if self.cluster is not None:
            await self.cluster.seats_changed(live)
        return renamed

    def forwarded_handlers(self) -> dict[str, Callable[[LiveTable, dict[str, Any]], Any]]:
        """What the owner does for a request another process forwarded (web/cluster.py);
        the arguments come from that process, which checked the seat's secret."""

        async def move(live: LiveTable, a: dict[str, Any]) -> dict[str, Any]:
            intent = MoveIntent.model_validate(a["move"])
            await self.play(live, int(a["seat"]), intent, a.get("version"))
            return {}

        async def rematch(live: LiveTable, a: dict[str, Any]) -> dict[str, Any]:
            await self.rematch(live, int(a["seat"]), int(a["version"]))
            return {}

        async def join(live: LiveTable, a: dict[str, Any]) -> dict[str, Any]:
            return await self.join(live, a.get("name"))

        async def claim(live: LiveTable, a: dict[str, Any]) -> dict[str, Any]:
            return {"changed": await self.claim(live, int(a["seat"]), str(a.get("name", "")))}

        async def handover(live: LiveTable, a: dict[str, Any]) -> dict[str, Any]:
            assert self.cluster is not None
            return {"released": await self.cluster.hand_over(live)}

        return {
            "move": move,
            "rematch": rematch,
            "join": join,
            "claim": claim,
            "handover": handover,
        }

    async def follow(self, live: LiveTable, stored: StoredTable, rows: list[Any]) -> bool:
        """Bring a replica up to the stored table (web/cluster.py): its state, seats,
        the end of its log; whether anything changed."""
        async with live.lock:
            if stored.version < live.version:
                return False
            changed = stored.version > live.version or stored.seats != live.seats
            if changed:
                live.state = state_from_json(stored.state)
                live.version = stored.version
                live.seats = stored.seats
                for row in rows:
                    live.log.append(_log_entry(row.seq, row.seat, row.text, row.auto))
                live.cache.clear()
                live.touch_turn()
            if stored.status == "failed" and live.failed is None:
                live.failed = stored.note
                live.cache.clear()
                changed = True
        if changed:
            live.changed.set()
        return changed

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

        Raises :class:`ProtocolError` (stale version, not your turn, the table failed)
        or the engine's :class:`IllegalMoveError` / :class:`NotationError`; the state is
        then unchanged.  A replica (web/cluster.py) has the table's owner play it.
        """
        if self.cluster is not None and live.lease is None:
            if isinstance(intent, Move):  # a bot's move on a table this process lost
                raise ProtocolError("stale", "this process no longer plays this table")
            args = {"seat": seat, "move": intent.model_dump(exclude_none=True), "version": version}
            if await self.cluster.call(live, "move", args) is not None:
                return
        async with live.lock:
            if live.failed is not None:
                raise ProtocolError("table_failed", live.failed)
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
            try:
                new.apply(move)
            except RummyError:
                raise
            except Exception as exc:  # an engine bug: the table stops
                await self._mark_failed(live, f"the engine failed on {move}: {exc!r}", exc)
                raise ProtocolError("table_failed", live.failed or "") from None
            text = log_text(state, move)
            seq = live.version + 1
            await self._commit(
                live,
                MoveCommit(
                    table_id=live.id,
                    seq=seq,
                    seat=seat,
                    action=new.game.actions.encode(move),
                    text=text,
                    state=state_to_json(new),
                    over=new.is_over(),
                    auto=auto,
                    lease=live.lease,
                ),
            )
            live.state = new
            live.version = seq
            live.cache.clear()
            live.log.append(_log_entry(seq, seat, text, auto))
            live.touch_turn()
        live.changed.set()
        await self.broadcast(live)

    async def _commit(self, live: LiveTable, commit: MoveCommit) -> None:
        """Store one move; with many processes, a write refused for a lost lease turns
        the table into a replica and tells the client to try again on the new state."""
        try:
            await self.commits.commit(commit)
        except StaleWriteError:
            if self.cluster is None or commit.lease is None:
                raise
            self.cluster.spawn(self.cluster.demote(live))  # it waits for the lock
            raise ProtocolError("stale", "the table moved on; try again") from None

    async def rematch(self, live: LiveTable, seat: int, version: int) -> None:
        if self.cluster is not None and live.lease is None:
            args = {"seat": seat, "version": version}
            if await self.cluster.call(live, "rematch", args) is not None:
                return
        async with live.lock:
            if version != live.version:
                raise ProtocolError("stale", f"the game is at version {live.version}")
            if not live.over:
                raise ProtocolError("not_over", "a rematch starts once the match is over")
            old = live.state
            new = new_game(old.rules, list(old.names), seed=secrets.randbits(63))
            seq = live.version + 1
            await self._commit(
                live,
                MoveCommit(
                    table_id=live.id,
                    seq=seq,
                    seat=seat,
                    action=-1,
                    text="rematch",
                    state=state_to_json(new),
                    over=False,
                    lease=live.lease,
                ),
            )
            live.state = new
            live.version = seq
            live.cache.clear()
            live.log.append(_log_entry(seq, seat, "rematch", False))
            live.touch_turn()
        live.changed.set()
        await self.broadcast(live)

    async def auto_move(self, live: LiveTable, seat: int, version: int, bot_name: str) -> None:
        """A bot (or the auto-player) chooses from the seat's view and plays.

        The choice is made off the event loop by the thinker (web/thinking.py), with
        the bot's RNG seeded by the table's seed and version as it always was: the same
        position brings the same move, in a worker process or here.
        """
        state = live.state
        human = live.seats[seat]["kind"] == "human"
        seed = f"{state.seed}:{version}"
        factory = self.settings.bot_factory or make_bot
        move = await self.thinker.run(
            choose_move,
            factory,
            state_to_json(state),
            seat,
            bot_name,
            seed,
            urgent=human,
            client=live.client,
            tier=BOTS if live.bots_only else PEOPLE,
        )
        try:
            await self.play(live, seat, move, version, auto=human)
        except ProtocolError:  # the game moved on while the bot was thinking, or failed
            pass
        except IllegalMoveError as exc:
            # A bot bug.  Its RNG is seeded by the version, so asking it again would
            # bring the same move and stall the table: say so, and play a legal move.
            log.warning("table %s v%d: %s chose %s: %s", live.id, version, bot_name, move, exc)
            legal = RandomBot().choose(state.view(seat), random.Random(seed))
            with contextlib.suppress(ProtocolError, IllegalMoveError):
                await self.play(live, seat, legal, version, auto=human)

    def _start_driver(self, live: LiveTable) -> None:
        if live.driver is None or live.driver.done():
            live.driver = asyncio.get_running_loop().create_task(self._drive(live))

    async def _drive(self, live: LiveTable) -> None:
        """Play bots' turns; play a human's turn when their timer runs out or they have
        been away longer than the grace period.

        An engine error (a bot raising, ``apply`` raising, nobody able to move) stops
        the table for good (:meth:`_fail`): asked again, the engine would fail again,
        and a driver that retried would retry every second forever.  Only
        the store's errors are retried, with a growing pause.
        """
        s = self.settings
        pause = 1.0
        while live.failed is None:
            live.changed.clear()
            state = live.state
            version = live.version
            live.last_active = time.monotonic()
            if live.conns:
                live.last_seen = live.last_active
            timeout: float | None = None
            bot_name = AUTO_BOT
            if not live.over:
                seat = state.current
                info = live.seats[seat]
                if not state.legal_moves():
                    await self._fail(live, f"{info['name']} (seat {seat + 1}) has no legal move")
                    return
                now = time.monotonic()
                if info["kind"] == "bot":
                    timeout = s.bot_delay
                    # A difficulty is a bot name (make_bot), the same as in the terminal
                    # game, but hard counts its budget in CPU seconds here.
                    bot_name = server_bot(info.get("difficulty", "easy"), s.bot_cpu)
                else:
                    limits = []
                    if live.timer:
                        limits.append(live.turn_started + live.timer - now)
                    if seat in live.away_since:
                        limits.append(live.away_since[seat] + s.disconnect_grace - now)
                    if limits:
                        timeout = max(0.0, min(limits))
            live.resting = timeout is None
            try:
                if timeout is None:
                    await live.changed.wait()
                    continue
                await asyncio.wait_for(live.changed.wait(), timeout)
                continue
            except TimeoutError:
                pass
            finally:
                live.resting = False
            if live.version == version and not live.over:
                try:
                    await self.auto_move(live, state.current, version, bot_name)
                    pause = 1.0
                except asyncio.CancelledError:
                    raise
                except (SQLAlchemyError, StaleWriteError, OSError):
                    log.exception("table %s v%d: storing a move failed", live.id, version)
                    await asyncio.sleep(pause)
                    pause = min(60.0, pause * 2)
                except Exception as exc:
                    await self._fail(live, f"the {bot_name} bot failed", exc)
                    return

    async def _fail(self, live: LiveTable, reason: str, exc: BaseException | None = None) -> None:
        async with live.lock:
            await self._mark_failed(live, reason, exc)

    async def _mark_failed(self, live: LiveTable, reason: str, exc: BaseException | None) -> None:
        """Stop a table the engine cannot go on with; the caller holds its lock.

        The error is logged once, with its traceback.  The store gets a log row
        (:data:`~rummykit.web.store.FAILED`) and the table is marked over with it, so a
        restart does not drive it again; its players get a ``table_failed`` error and
        a state whose ``table.failed`` says why.  The reason told to players names no
        card: an exception's text could.
        """
        if live.failed is not None:
            return
        log.error("table %s v%d stopped: %s", live.id, live.version, reason, exc_info=exc)
        note = f"this table stopped because of an error in the game engine: {reason}"
        seat = -1 if live.over else live.state.current
        try:
            marked = await self.db(self.store.mark, live.id, live.version, FAILED, seat, note)
        except Exception:  # the store is down: the table stops here anyway
            log.exception("table %s: the store could not mark it failed", live.id)
            marked = False
        if marked:
            live.version += 1
            live.log.append(_log_entry(live.version, seat, note, True))
        live.failed = note
        live.cache.clear()
        live.changed.set()
        if marked and self.cluster is not None:
            with contextlib.suppress(Exception):
                await self.cluster.moved(live)
        await self.broadcast(live)
        await asyncio.gather(*(self.error(c, "table_failed", note) for c in list(live.conns)))

    # -- messages ------------------------------------------------------------------------------
    def state_message(self, live: LiveTable, seat: int, table: str | None = None) -> str:
        """The ``state`` message for one seat (-1: spectators), from that seat's view.

        The game and the log are built once per seat and version (``live.cache``); the
        table's lobby facts (who is connected, spectators, the clock) change between
        versions and are put in fresh: ``table`` is :func:`_table_json`, passed in when
        one broadcast sends it to many connections.
        """
        body = live.cache.get(seat)
        if body is None:
            view = live.state.view(seat if seat >= 0 else 0)
            game = view_payload(view, spectator=seat < 0, state=live.state)
            payload = {"game": game, "log": list(live.log)}
            body = json.dumps(payload, separators=(",", ":"))[1:-1]
            live.cache[seat] = body
        if table is None:
            table = _table_json(live)
        return f'{{"type":"state","version":{live.version},"table":{table},{body}}}'

    async def broadcast(self, live: LiveTable) -> None:
        """One ``state`` message to every connection: once per version, never per
        hello (re-sending it on every spectator's hello would make the cost grow with
        the square of the number of spectators)."""
        table = _table_json(live)
        conns = list(live.conns)
        await asyncio.gather(
            *(self.send(c, self.state_message(live, c.seat, table)) for c in conns)
        )

    async def presence(self, live: LiveTable, skip: Conn | None = None) -> None:
        """The light ``presence`` message (the table's lobby facts, no game) to every
        connection but ``skip``: a seat connected, left, was joined or renamed."""
        text = f'{{"type":"presence","table":{_table_json(live)}}}'
        await asyncio.gather(*(self.send(c, text) for c in list(live.conns) if c is not skip))

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
            await self._leave(conn.table, conn)
        with contextlib.suppress(Exception):
            await conn.ws.close(CLOSE_TOO_SLOW)

    async def send_json(self, conn: Conn, msg: dict[str, Any]) -> None:
        await self.send(conn, json.dumps(msg, separators=(",", ":")))

    async def error(self, conn: Conn, code: str, message: str, **extra: Any) -> None:
        """An ``error`` message; its text in the connection's language (the code, the
        machine's part, is the same in every language)."""
        message = error_text(code, message, conn.lang)
        await self.send_json(conn, {"type": "error", "code": code, "message": message, **extra})

    # -- the WebSocket session ----------------------------------------------------------------
    async def session(self, ws: WebSocket, table_id: str) -> None:
        await ws.accept()
        conn = Conn.new(ws, self.settings)
        try:
            live = await self.get(table_id)
        except Unavailable as exc:  # full, expired or unreadable (web/residency.py)
            await self.error(conn, exc.code, exc.message)
            await ws.close(exc.close_code)
            return
        if live is None:
            await self.error(conn, "not_found", "no such table")
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
                    refused = await self._hello(live, conn, msg)
                    if refused is not None:
                        await ws.close(refused)
                        return
                    joined = True
                    if live.failed is not None:
                        await self.error(conn, "table_failed", live.failed)
                    continue
                await self._dispatch(live, conn, msg)
        except WebSocketDisconnect:
            pass
        finally:
            live.sockets -= 1
            if conn.review is not None:
                conn.review.cancel()  # withdraws its requests from the thinkers' queue
            await self._leave(live, conn)

    async def _leave(self, live: LiveTable, conn: Conn) -> None:
        """Take a connection off its table (it closed, or was dropped for reading too
        slowly); a seat nobody holds any more counts as away from now on."""
        if conn not in live.conns:
            return
        live.conns.discard(conn)
        if self.cluster is not None:
            await self.cluster.announce(live)
        if conn.seat >= 0 and not live.connected(conn.seat):
            live.away_since[conn.seat] = time.monotonic()
            live.changed.set()
            await self.presence(live)

    async def _hello(self, live: LiveTable, conn: Conn, msg: Hello) -> int | None:
        """Seat the connection (or let it watch); None, or the close code refusing it.

        The newcomer alone gets the state; the others hear only of a seat that
        connected or was renamed, in a light ``presence`` message.
        """
        announce = False
        conn.lang = normalize(msg.lang) or "en"
        if msg.seat is not None:
            seat = msg.seat
            ok = self._secret_fits(live, seat, msg.secret)
            if not ok and self.cluster is not None and live.lease is None:
                # A replica's copy may not yet show a seat just joined through it (the
                # owner gave the seat out): read the table again before refusing.
                await self.cluster.refresh(live)
                ok = self._secret_fits(live, seat, msg.secret)
            if not ok:
                await self.error(conn, "bad_secret", "that seat's invitation link is not valid")
                return CLOSE_BAD_SECRET
            announce = not live.connected(seat)
            await self._make_room(live, seat)
            conn.seat = seat
            name = clean_text(msg.name or "", MAX_NAME)
            if await self.claim(live, seat, name):
                announce = True
            live.away_since.pop(seat, None)
            live.changed.set()
        elif live.spectators() >= self.settings.max_spectators:
            await self.error(
                conn,
                "spectators_full",
                f"this table has as many spectators as it allows "
                f"({self.settings.max_spectators}); try again later",
            )
            return CLOSE_SPECTATORS_FULL
        live.conns.add(conn)
        conn.table = live
        if self.cluster is not None:
            await self.cluster.announce(live)
            if conn.seat >= 0 and live.lease is None:
                self.cluster.spawn(self.cluster.take_over(live))
        await self.send_json(
            conn, {"type": "welcome", "protocol": PROTOCOL, "seat": conn.seat, "table": live.id}
        )
        for c in live.chat:
            await self.send_json(conn, c)
        await self.send(conn, self.state_message(live, conn.seat))
        if announce:
            await self.presence(live, skip=conn)
        return None

    @staticmethod
    def _secret_fits(live: LiveTable, seat: int, secret: str | None) -> bool:
        """Whether ``secret`` is the one given out for human seat ``seat``."""
        info = live.seats[seat] if seat < len(live.seats) else None
        stored = None if info is None else info.get("digest")
        return (
            info is not None
            and info["kind"] == "human"
            and isinstance(stored, str)  # an open seat nobody has joined has none
            and secret is not None
            and secrets.compare_digest(stored, digest(secret))
        )

    async def _make_room(self, live: LiveTable, seat: int) -> None:
        """A seat keeps at most ``max_seat_sockets`` connections, the newest: a seat's
        holder could otherwise open sockets without end, past the spectator cap."""
        mine = sorted((c for c in live.conns if c.seat == seat), key=lambda c: c.opened)
        for old in mine[: max(0, len(mine) - self.settings.max_seat_sockets + 1)]:
            live.conns.discard(old)
            await self.error(old, "replaced", "this seat was opened in another window")
            with contextlib.suppress(Exception):
                await old.ws.close(CLOSE_REPLACED)

    async def _dispatch(self, live: LiveTable, conn: Conn, msg: Any) -> None:
        if isinstance(msg, PingMsg):
            await self.send_json(conn, {"type": "pong", "version": live.version})
        elif isinstance(msg, Hello):
            await self.error(conn, "already_joined", "this connection has already said hello")
        elif isinstance(msg, ChatMsg):
            await self._chat(live, conn, msg)
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
        elif isinstance(msg, ReviewMsg):
            await self._review(live, conn, msg)

    async def _chat(self, live: LiveTable, conn: Conn, msg: ChatMsg) -> None:
        """A chat line to the table: from a seat, or from a spectator where the table
        allows it; a few lines at a time per seat, or per spectator's address, however
        many sockets they open (:attr:`LiveTable.chat_limit`)."""
        if conn.seat < 0 and not live.options.get("spectator_chat"):
            await self.error(conn, "chat_closed", "spectators cannot chat at this table")
            return
        text = clean_text(msg.text, MAX_CHAT)
        if not text:
            await self.error(conn, "empty_chat", "nothing to send")
            return
        if live.chat_limit is None:
            s = self.settings
            live.chat_limit = AddressLimiter(
                s.chat_rate * 60, burst=s.chat_burst, max_addresses=CHAT_SENDERS
            )
        sender = f"seat {conn.seat}" if conn.seat >= 0 else address_key(conn.peer)
        if not live.chat_limit.take(sender):
            await self.error(conn, "rate_limited", "too many chat lines; wait a few seconds")
            return
        name = live.seats[conn.seat]["name"] if conn.seat >= 0 else "spectator"
        entry = _chat_entry(conn.seat, name, text)
        live.chat.append(entry)
        await self.db(self.store.add_chat, live.id, conn.seat, name, text)
        if self.cluster is not None:
            await self.cluster.chat(live, entry)
        data = json.dumps(entry, separators=(",", ":"))
        await asyncio.gather(*(self.send(c, data) for c in list(live.conns)))

    async def _hint(self, live: LiveTable, conn: Conn, msg: HintMsg) -> None:
        """The hard bot's move and reason, worked out by the thinker off the event loop
        in the asking address's turn (web/thinking.py).  One hint at a time per seat
        and version: another tab's request meanwhile waits for the same answer, and
        costs nothing; a new one takes one of the address's ``hints_per_minute``."""
        state = live.state
        mine = state.current == conn.seat and not live.over and live.failed is None
        if msg.version != live.version or not mine:
            await self.error(conn, "no_hint", "a hint is for your own turn, on the current state")
            return
        if conn.hinting:
            await self.error(conn, "busy", "a hint is already being worked out")
            return
        key = (live.id, msg.version, conn.seat)
        pending = self.hints.get(key)
        if pending is None:
            if not self.hint_limit.allow(conn.address):
                wait = max(1, math.ceil(self.hint_limit.retry_after(conn.address)))
                await self.error(conn, "rate_limited", f"too many hints; try again in {wait} s")
                return
            pending = asyncio.ensure_future(
                self.thinker.run(
                    suggestion,
                    state_to_json(state),
                    conn.seat,
                    self.settings.hint_budget or self.settings.review_budget,
                    # the review's seed for this decision: the hint is its best move
                    decision_seed(REVIEW_SEED, len(state.history)),
                    client=conn.address,
                )
            )
            self.hints[key] = pending
            pending.add_done_callback(partial(self._hint_done, key))
        conn.hinting = True
        try:
            # shielded: one tab closing does not withdraw the hint the others wait for
            hint = await asyncio.shield(pending)
            await self.send_json(
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
        if self.hints.get(key) is done:
            del self.hints[key]
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
        n = msg.round
        if msg.seat is not None and msg.seat != conn.seat:
            await self.error(conn, "not_your_seat", "you can review your own seat only", round=n)
            return
        if n > len(live.state.results):
            await self.error(conn, "not_finished", f"round {n} is not finished", round=n)
            return
        if conn.review is not None and not conn.review.done():
            await self.error(conn, "busy", "a review is already being worked out", round=n)
            return
        now = time.monotonic()
        if conn.reviews is None:
            conn.reviews = self.reviewer.bucket(now)
        if not conn.reviews.take(now):
            wait = math.ceil(conn.reviews.wait(now))
            await self.error(
                conn, "rate_limited", f"too many reviews; try again in {wait} s", round=n
            )
            return
        # The state now: a rematch before the task starts must not take the round away.
        conn.review = asyncio.create_task(self._send_review(live.id, live.state, conn, n))

    async def _send_review(
        self, table_id: str, state: GameState, conn: Conn, round_no: int
    ) -> None:
        """Work the review out (web/reviews.py) and send it, or say why not."""

        async def progress(done: int, total: int) -> None:
            msg = {"type": "review_progress", "round": round_no, "done": done, "total": total}
            await self.send_json(conn, msg)

        try:
            payload = await self.reviewer.review(
                table_id, state, conn.seat, round_no, progress, conn.address
            )
        except ReviewBusy:
            await self.error(
                conn, "busy", "the server is reviewing other rounds; try again soon", round=round_no
            )
        except Exception as exc:
            log.error("table %s: the review of round %d failed", table_id, round_no, exc_info=exc)
            await self.error(conn, "review_failed", "the review could not be made", round=round_no)
        else:
            await self.send_json(conn, _reasons_in(payload, conn.lang))


def _reasons_in(payload: Any, lang: str) -> Any:
    """A review with every ``reason`` (a hint's reason) in ``lang``; a copy, so a
    review kept for other connections stays as it was."""
    if lang == "en":
        return payload
    if isinstance(payload, dict):
        return {
            k: hint_text(v, lang) if k == "reason" and isinstance(v, str) else _reasons_in(v, lang)
            for k, v in payload.items()
        }
    if isinstance(payload, list):
        return [_reasons_in(v, lang) for v in payload]
    return payload


def _log_entry(seq: int, seat: int, text: str, auto: bool) -> dict[str, Any]:
    return {"seq": seq, "seat": seat, "text": text, "auto": auto}


def _chat_entry(seat: int, name: str, text: str) -> dict[str, Any]:
    return {"type": "chat", "seat": seat, "name": name, "text": text}


def _link(table_id: str, seat: int, secret: str | None) -> str | None:
    return None if secret is None else f"/play/{table_id}#seat={seat}&key={secret}"


def _table_json(live: LiveTable) -> str:
    return json.dumps(live.info(), separators=(",", ":"))


def _peer(conn: HTTPConnection) -> str | None:
    """The client's address: the socket's peer (uvicorn replaces it with the
    X-Forwarded-For address only for proxies in ``--forwarded-allow-ips``)."""
    return conn.client.host if conn.client else None


async def _refuse(ws: WebSocket, close_code: int, code: str, message: str) -> None:
    """Accept, say why in an ``error``, and close with ``close_code``: a browser sees
    the close code, where a refused handshake would only show a failed connection."""
    await ws.accept()
    with contextlib.suppress(Exception):
        await ws.send_text(json.dumps({"type": "error", "code": code, "message": message}))
        await ws.close(close_code)


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

    app = FastAPI(
        title="rummykit",
        lifespan=lifespan,
        docs_url=None,
        redoc_url=None,
        openapi_url="/openapi.json" if settings.openapi else None,
    )
    tables_limit = AddressLimiter(
        settings.tables_per_minute, max_addresses=settings.limit_addresses
    )
    hosts = HostCheck(settings.allowed_hosts)
    app.add_middleware(
        Gate,
        hosts=hosts,
        max_body=settings.max_body,
        counted={"POST /api/tables": (tables_limit, "tables created")},
    )
    sockets_limit = AddressLimiter(
        settings.sockets_per_minute, max_addresses=settings.limit_addresses
    )
    records_limit = AddressLimiter(
        settings.record_per_minute, max_addresses=settings.limit_addresses
    )

    def mgr() -> Manager:
        return holder["m"]

    @app.exception_handler(RequestValidationError)
    async def invalid_request(_request: Request, exc: RequestValidationError) -> JSONResponse:
        """422 saying where and what, without echoing the input back: FastAPI's own
        answer repeats it, and a NaN in it cannot be encoded (a 500)."""
        detail = [
            {"loc": list(e.get("loc", ())), "msg": str(e.get("msg", "")), "type": e.get("type")}
            for e in exc.errors()
        ]
        return JSONResponse({"detail": detail}, 422)

    @app.exception_handler(Unavailable)
    async def unavailable(_request: Request, exc: Unavailable) -> JSONResponse:
        """A table that cannot come into memory: the server is full (503), the table
        expired or cannot be read (410); web/residency.py."""
        return JSONResponse({"detail": exc.message, "code": exc.code}, exc.status)

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
    async def healthz() -> JSONResponse:
        """200 while this process can serve: its database answers (and, with other
        processes, it hears their notices); else 503, so a proxy's health check takes
        a process cut off from PostgreSQL out of the rotation (docs/deploy.md)."""
        m = mgr()
        ok = await m.healthy()
        return JSONResponse({"ok": ok, "tables": len(m.tables)}, 200 if ok else 503)

    @app.get("/api/presets")
    async def presets(lang: str | None = None) -> list[dict[str, Any]]:
        """The presets, their titles, descriptions and summaries in ``lang``
        (``?lang=fr``; English by default).  ``source`` (the reference the rules follow)
        is for the docs and ``rummy rules``; a player reads the title and description."""
        lg = normalize(lang) or "en"
        sources = SOURCES_FR if lg == "fr" else PRESET_SOURCES
        return [
            {
                "name": n,
                "title": game_title(n, lg),
                "description": game_description(n, lg),
                "source": sources.get(n, ""),
                "spec": PRESETS[n].spec(),
                "players": [PRESETS[n].min_players, PRESETS[n].max_players],
                "example": _DECLARE_EXAMPLE
                if PRESETS[n].family is Family.INDIAN
                else _HOUSE_EXAMPLES[PRESETS[n].family is Family.GIN],
                "target": PRESETS[n].target_score,
                "deals": PRESETS[n].deals,
                "summary": rules_summary(PRESETS[n], lg),
            }
            for n in PRESETS
        ]

    @app.post("/api/tables")
    async def create(req: CreateTable, request: Request, lang: str | None = None) -> dict[str, Any]:
        """A new table; its address's allowance (``tables_per_minute``) was spent by
        the request, valid or not, before its body was read (web/gate.py)."""
        return await mgr().create(req, normalize(lang) or "en", address_key(_peer(request)))

    @app.get("/api/tables")
    async def public_tables(lang: str | None = None) -> list[dict[str, Any]]:
        """The public tables in play, each game by its title in ``lang``."""
        lg = normalize(lang) or "en"
        m = mgr()
        out = []
        for stored in await m.db(m.store.public_tables):
            try:
                live = await m.get(stored.id)
            except Unavailable:  # the server is full: list the tables in memory only
                continue
            if live is not None and not live.over:
                # how far the match is, so the lobby can tell a game in progress
                info = live.info()
                title = spec_title(info["rules"], lg)
                out.append(
                    {**info, "title": title, "version": live.version, "round": live.state.round_no}
                )
        return out

    async def _table(table_id: str) -> LiveTable:
        live = await mgr().get(table_id)
        if live is None:
            raise HTTPException(404, "no such table")
        return live

    @app.get("/api/tables/{table_id}")
    async def table_info(table_id: str, lang: str | None = None) -> dict[str, Any]:
        live = await _table(table_id)
        # the page's rules panel and the game's name, in its language (?lang=fr)
        lg = normalize(lang) or "en"
        info = live.info()
        return {
            **info,
            "version": live.version,
            "over": live.over,
            "summary": rules_summary(live.state.rules, lg),
            "title": spec_title(info["rules"], lg),
            "game": game_title(live.state.rules.name, lg),
        }

    @app.post("/api/tables/{table_id}/join")
    async def join(table_id: str, req: JoinTable) -> dict[str, Any]:
        live = await _table(table_id)
        if not live.public:
            raise HTTPException(403, "this table is by invitation only")
        return await mgr().join(live, req.name)

    @app.get("/api/tables/{table_id}/record")
    async def record(table_id: str, request: Request) -> Response:
        """The match record: limited per address, made once per version and off the
        event loop (a long match's takes half a second)."""
        peer = _peer(request)
        if not records_limit.allow(peer):
            wait = max(1, math.ceil(records_limit.retry_after(peer)))
            raise HTTPException(
                429,
                f"too many records downloaded from your address; try again in {wait} s",
                headers={"Retry-After": str(wait)},
            )
        live = await _table(table_id)
        if not live.over:
            # The record names the seed, which would reveal every hand and the stock.
            return JSONResponse(
                {"detail": "the record can be downloaded once the match is over"}, 409
            )
        version, state = live.version, live.state
        if live.record is None or live.record[0] != version:
            # a state is replaced on each move, never changed: safe to read in a thread
            live.record = (version, await asyncio.to_thread(export_record, state))
        return PlainTextResponse(
            live.record[1],
            headers={"Content-Disposition": f'attachment; filename="rummy-{table_id}.txt"'},
        )

    @app.websocket("/ws/{table_id}")
    async def ws(websocket: WebSocket, table_id: str) -> None:
        origin = websocket.headers.get("origin")
        host = websocket.headers.get("host")
        if not origin_allowed(origin, host, settings.allowed_origins, hosts):
            await _refuse(
                websocket, CLOSE_ORIGIN, "origin", "pages from that origin may not connect"
            )
            return
        if not sockets_limit.allow(_peer(websocket)):
            await _refuse(
                websocket,
                CLOSE_TOO_MANY_SOCKETS,
                "rate_limited",
                "too many connections from your address; try again in a minute",
            )
            return
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


def server_settings(
    database_url: str | None, environ: Mapping[str, str], **options: Any
) -> Settings:
    """The settings of a served process: each field from ``options`` (the flags) when
    given (not None), else from ``RUMMYKIT_<FIELD>`` in ``environ`` (web.config), else
    its default.  A bad variable raises ValueError naming it."""
    values = from_env(Settings, environ)
    values.update({k: v for k, v in options.items() if v is not None})
    values["database_url"] = database_url or values.get("database_url") or default_database_url()
    return Settings(**values)


def serve_main(
    host: str = "127.0.0.1",
    port: int = 8000,
    database_url: str | None = None,
    *,
    log_level: str = "info",
    **options: Any,
) -> None:  # pragma: no cover - runs a server until interrupted (tested as a subprocess)
    """Run the server until interrupted: what ``rummy serve`` calls.

    ``database_url`` None means ``$RUMMYKIT_DATABASE_URL`` or SQLite in the user's data
    directory; ``postgresql://user@host/db`` works as is.  ``options`` are
    :class:`Settings` fields (:func:`server_settings`).  ``host``, when it is a name,
    is served as one (``Settings.allowed_hosts``).  ``X-Forwarded-For`` names the
    client only from the proxies in ``Settings.forwarded_allow_ips`` (uvicorn's own
    ``$FORWARDED_ALLOW_IPS`` when that is empty); with none, the client is the
    socket's peer, whatever the headers say.
    """
    import uvicorn

    settings = server_settings(database_url, os.environ, **options)
    settings.allowed_hosts = (*settings.allowed_hosts, host)
    proxies = settings.forwarded_allow_ips or parse_list(os.environ.get("FORWARDED_ALLOW_IPS", ""))
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
        proxy_headers=bool(proxies),
        forwarded_allow_ips=list(proxies) or None,
    )

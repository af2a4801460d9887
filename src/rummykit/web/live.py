"""A table in memory: its seats, its state and version, who is connected.

The server is the authority.  Each table lives in memory as a :class:`LiveTable`
(the :class:`~rummykit.state.GameState`, its version, the connected clients) and in
the database through :class:`~rummykit.web.store.Store`.  Seats are :class:`Seat`
objects here; the store and the API see them as dicts (:meth:`Seat.to_dict`,
:meth:`LiveTable.info`), in the shape they always had.
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from dataclasses import dataclass, field
from typing import Any, Literal

from fastapi import WebSocket
from starlette.requests import HTTPConnection

from ..state import GameState, Phase
from .account_store import Account
from .limits import AddressLimiter, TokenBucket, address_key
from .protocol import rules_spec
from .settings import Settings
from .store import CHAT_KEEP

LOG_LENGTH = 40
"""Log lines a table keeps in memory and sends with each state."""

SeatKind = Literal["human", "bot"]


@dataclass(eq=True)
class Seat:
    """One seat of a table: a bot, or a human with the digest of their link's secret."""

    kind: SeatKind
    name: str
    difficulty: str | None = None
    """A bot's (``easy``, ``medium``, ``hard``); None for a human."""
    digest: str | None = None
    """The digest of the seat's secret; None for an open seat nobody has joined."""
    claimed: bool = False
    """Someone holds the seat (its link was used, or it was the creator's)."""
    open: bool | None = None
    """Opened to the public at creation; None for a seat stored before seats could be
    opened (such a seat is never handed out by ``join``)."""
    account: str | None = None
    """The id of the account that holds the seat (its name is the account's); None
    for a guest's seat and for bots."""
    extra: dict[str, Any] = field(default_factory=dict)
    """Stored keys this version does not know, kept as they were."""

    _KNOWN = frozenset({"kind", "name", "difficulty", "digest", "claimed", "open", "account"})

    @property
    def human(self) -> bool:
        return self.kind == "human"

    @property
    def joinable(self) -> bool:
        """A seat ``join`` may hand out: a human seat opened to the public at creation
        and not taken yet.  The creator's seat and invitations never are; neither are
        the seats of tables stored before seats could be opened."""
        return self.human and bool(self.open) and not self.claimed

    @classmethod
    def bot(cls, name: str, difficulty: str) -> Seat:
        return cls("bot", name, difficulty=difficulty)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Seat:
        """A stored seat (the ``seats`` column), whatever version stored it."""
        kind: SeatKind = "bot" if d.get("kind") == "bot" else "human"
        return cls(
            kind,
            str(d.get("name", "")),
            difficulty=d.get("difficulty"),
            digest=d.get("digest"),
            claimed=bool(d.get("claimed")),
            open=d.get("open"),
            account=d.get("account") if isinstance(d.get("account"), str) else None,
            extra={k: v for k, v in d.items() if k not in cls._KNOWN},
        )

    def to_dict(self) -> dict[str, Any]:
        """The stored form: the keys each kind of seat has always had."""
        if self.kind == "bot":
            out: dict[str, Any] = {"kind": "bot", "name": self.name}
            if self.difficulty is not None:
                out["difficulty"] = self.difficulty
        else:
            out = {
                "kind": "human",
                "name": self.name,
                "digest": self.digest,
                "claimed": self.claimed,
            }
            if self.open is not None:
                out["open"] = self.open
            if self.account is not None:
                out["account"] = self.account
        return {**out, **self.extra}


@dataclass
class Presence:
    """What one other process has connected at one table (web/cluster.py)."""

    seats: frozenset[int] = frozenset()
    spectators: int = 0


def seats_from(stored: list[dict[str, Any]]) -> list[Seat]:
    return [Seat.from_dict(s) for s in stored]


def seats_to(seats: list[Seat]) -> list[dict[str, Any]]:
    return [s.to_dict() for s in seats]


def bots_only(seats: list[Seat]) -> bool:
    return all(s.kind == "bot" for s in seats)


def peer(conn: HTTPConnection) -> str | None:
    """The client's address: the socket's peer (uvicorn replaces it with the
    X-Forwarded-For address only for proxies in ``--forwarded-allow-ips``)."""
    return conn.client.host if conn.client else None


def log_entry(seq: int, seat: int, text: str, auto: bool) -> dict[str, Any]:
    return {"seq": seq, "seat": seat, "text": text, "auto": auto}


def chat_entry(seat: int, name: str, text: str) -> dict[str, Any]:
    return {"type": "chat", "seat": seat, "name": name, "text": text}


@dataclass(eq=False)
class Conn:
    ws: WebSocket
    messages: TokenBucket
    """Every message the client sends takes a token (``Settings.rate``, ``burst``)."""
    peer: str | None = None
    """The client's address (:func:`peer`): a spectator's chat is counted by it."""
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
    """The client stopped reading; nothing more is sent to it (web/fanout.py)."""
    table: LiveTable | None = None
    """The table the connection said hello to."""
    address: str = ""
    """The client's address as the limits count it (:func:`~.limits.address_key`)."""
    account: Account | None = None
    """The account of the session cookie the socket came with (web/accounts.py)."""

    @classmethod
    def new(cls, ws: WebSocket, s: Settings) -> Conn:
        now = time.monotonic()
        return cls(
            ws,
            messages=TokenBucket(s.burst, s.rate, last=now),
            peer=peer(ws),
            opened=now,
            address=address_key(peer(ws)),
        )

    def allow(self) -> bool:
        if self.messages.take(time.monotonic()):
            return True
        self.over_limit += 1
        return False


@dataclass(eq=False)
class LiveTable:
    id: str
    seats: list[Seat]
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
    abandoned: int | None = None
    """The seat whose player abandoned the rated match (web/driver.py
    ``abandoned_at``): it is over, as their loss, until a rematch."""
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
        return bots_only(self.seats)

    @property
    def client(self) -> str:
        """Who the table's bot moves are for in the thinkers' queue (web/thinking.py):
        its creator's address, else the table itself."""
        return self.creator or f"table:{self.id}"

    @property
    def over(self) -> bool:
        """The match ended: played to its end, or abandoned."""
        return self.state.phase is Phase.OVER or self.abandoned is not None

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
        if self.timer and not self.over and self.seats[self.state.current].human:
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
            "rated": bool(self.options.get("rated")),
            "abandoned": self.abandoned,
            "seats": [
                {
                    "name": s.name,
                    "kind": s.kind,
                    "difficulty": s.difficulty,
                    "open": s.joinable,
                    "connected": s.kind == "bot" or i in seated,
                    "account": s.account is not None,
                }
                for i, s in enumerate(self.seats)
            ],
        }

"""Quick pairing's service: seeks made, asked after and withdrawn, and the pairer
that turns them into tables (docs/protocol.md "Quick pairing").

The queue is the database's (web/seek_store.py), so every server process on a
PostgreSQL database pairs from one queue, and a seek made on one process is paired
by whichever process's pairer reaches it.  A table is made through the table service
(web/service.py), as ``POST /api/tables`` makes one; each player then fetches their
seat link by polling their seek (HTTP: the link is in the database, so any process
answers, and a player needs no socket until their table exists).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from typing import Annotated, Any, Literal

from fastapi import HTTPException
from pydantic import BaseModel, ConfigDict, Field

from ..rules import PRESETS
from . import ratings
from .account_store import Account, AccountStore, SignedIn
from .accounts import AccountError, AddressAllowance
from .lobby import CreateTable, SeatSpec
from .protocol import MAX_NAME, clean_text
from .seek_store import NewSeek, SeekStore, SeekView, Taken
from .service import TableService
from .settings import Settings
from .store import Store, digest

log = logging.getLogger("rummykit.web")
Db = Callable[..., Awaitable[Any]]
BOT_LEVEL: Literal["medium"] = "medium"
"""The bots offered to a player nobody was found for."""


class SeekRequest(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, allow_inf_nan=False)
    game: Annotated[str, Field(min_length=1, max_length=64)]
    """A preset's name (``gin``), played as it is."""
    players: Annotated[int, Field(ge=2, le=8)] = 2
    timer: Annotated[float, Field(ge=1, le=3600)] | None = None
    rated: bool | None = None
    """None: rated when signed in; a guest's seek is casual."""
    bot: bool = False
    """Take medium bots for the other seats after ``pair_bot_after`` seconds alone."""
    name: Annotated[str, Field(max_length=MAX_NAME)] | None = None
    """A guest's name at the table (a signed-in player plays under their username)."""


def seek_json(token: str, v: SeekView) -> dict[str, Any]:
    return {
        "token": token,
        "status": v.status,
        "game": v.game,
        "players": v.players,
        "timer": v.timer or None,
        "rated": v.rated,
        "bot": v.bot,
        "waited": round(max(0.0, time.time() - v.created), 1),
        "table": v.table_id,
        "link": v.link,
    }


class Seeker:
    """Seeks, and this process's pairer."""

    def __init__(self, settings: Settings, store: Store, db: Db, service: TableService) -> None:
        self.settings = settings
        self.db = db
        self.service = service
        self.rows = SeekStore(store)
        self.accounts = AccountStore(store)
        self.per_address = AddressAllowance("seek", settings.seeks_per_minute, self.accounts, db)
        """``seeks_per_minute``, spent by web/gate.py before the body is read."""
        self.per_account = AddressAllowance(
            "seekacct", settings.seeks_per_account_minute, self.accounts, db
        )
        """``seeks_per_account_minute``, keyed by the account's id.  Both are counted
        in the database, one allowance over every process."""
        self.wake = asyncio.Event()
        self.task: asyncio.Task[None] | None = None

    # -- the players' requests ----------------------------------------------------------
    async def seek(self, req: SeekRequest, signed: SignedIn | None, address: str) -> dict[str, Any]:
        """Queue a seek for the player (signed in, else the guest at ``address``).

        The address's allowance (``seeks_per_minute``) was spent before the body was
        read (web/gate.py); an account's (``seeks_per_account_minute``) is spent
        here, by any seek, valid or not.  One seek a player (409 ``seek_held``)."""
        account = None if signed is None else signed.account
        if account is not None:
            wait = await self.per_account.take(account.id)
            if wait > 0:
                raise AccountError(
                    429, "seek_flood", "too many seeks from your account", max(1.0, wait)
                )
        game = req.game.strip().lower()
        preset = PRESETS.get(game)
        if preset is None:
            raise HTTPException(400, f"no game {req.game!r} (one of /api/presets)")
        if not preset.min_players <= req.players <= preset.max_players:
            raise HTTPException(
                400, f"{game} seats {preset.min_players} to {preset.max_players} players"
            )
        rated = account is not None if req.rated is None else req.rated
        if rated and account is None:
            raise AccountError(400, "rated_signed_out", "a rated seek is made signed in")
        rating = ratings.fresh()[0]
        if rated and account is not None:
            for g, mu, _sigma, _n in await self.db(self.accounts.ratings_of, account.id):
                if g == game:
                    rating = mu
        name = account.username if account else clean_text(req.name or "", MAX_NAME) or "Guest"
        token = secrets.token_urlsafe(24)
        new = NewSeek(
            id=digest(token),
            holder=f"account:{account.id}" if account else f"address:{address}",
            account_id=account.id if account else None,
            name=name,
            game=game,
            players=req.players,
            timer=req.timer or 0.0,
            rated=rated,
            bot=req.bot,
            rating=rating,
        )
        if not await self.db(self.rows.add, new, time.time(), self.settings.seek_ttl):
            raise AccountError(
                409, "seek_held", "you are already seeking a game; cancel that seek first"
            )
        self.wake.set()
        return await self.status(token)

    async def status(self, token: str) -> dict[str, Any]:
        """The seek, renewed if it waits; 404 when there is none (cancelled, expired)."""
        view = await self.db(self.rows.view, digest(token), time.time(), self.settings.seek_ttl)
        if view is None:
            raise HTTPException(404, "no such seek (cancelled, or it expired)")
        return seek_json(token, view)

    async def cancel(self, token: str) -> dict[str, Any]:
        """Withdraw a waiting seek; one being paired or paired stays (409 with it)."""
        done = await self.db(self.rows.cancel, digest(token), time.time())
        if done is None:
            raise HTTPException(404, "no such seek (cancelled, or it expired)")
        if done != "cancelled":
            raise AccountError(409, "seek_paired", "this seek is paired already; see its link")
        return {"token": token, "status": "cancelled"}

    # -- the pairer ---------------------------------------------------------------------
    def start(self) -> None:
        """Start this process's pairer; none with ``pair_every`` 0 (the process takes
        and answers seeks, and other processes pair them)."""
        if self.settings.pair_every > 0:
            self.task = asyncio.get_running_loop().create_task(self._run())

    async def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task
            self.task = None

    async def _run(self) -> None:
        while True:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.wake.wait(), self.settings.pair_every)
            self.wake.clear()
            try:
                await self.pair_once()
            except Exception:  # the database is away: the next pass tries again
                log.exception("the pairer's pass failed")

    async def pair_once(self) -> int:
        """One pass: expired seeks dropped, groups taken and seated; how many tables
        were made."""
        now = time.time()
        await self.db(self.rows.sweep, now)
        made = 0
        for taken in await self.db(self.rows.take, self.settings, now):
            if await self._seat(taken):
                made += 1
        return made

    async def _seat(self, taken: Taken) -> bool:
        """Make the group's table and give each player their seat's link; the seeks
        go back to the queue if the table cannot be made."""
        ids = [seek_id for seek_id, _, _ in taken.seats]
        order = list(range(len(taken.seats)))
        secrets.SystemRandom().shuffle(order)  # who sits first is chance's
        humans = [taken.seats[i] for i in order]
        holders: list[Account | None] = []
        for _seek_id, account_id, name in humans:
            holders.append(None if account_id is None else Account(account_id, name, 0.0))
        seats = [SeatSpec(kind="human", name=name) for _, _, name in humans]
        seats += [SeatSpec(kind="bot", difficulty=BOT_LEVEL) for _ in range(taken.group.bots)]
        holders += [None] * taken.group.bots
        rated = taken.rated and taken.group.bots == 0
        req = CreateTable(rules=taken.game, seats=seats, timer=taken.timer or None, rated=rated)
        try:
            made = await self.service.create(req, account=holders[0], holders=holders)
        except Exception:
            log.exception("a paired table could not be made; its seeks wait again")
            await self.db(self.rows.release, taken.claim, ids)
            return False
        links = {humans[i][0]: made["seats"][i]["link"] for i in range(len(humans))}
        now = time.time()
        return bool(
            await self.db(
                self.rows.seat, taken.claim, links, made["id"], now, self.settings.seek_keep
            )
        )

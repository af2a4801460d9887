"""The lobby's HTTP routes: presets, creating, listing and joining tables, records.

Request bodies are strict pydantic models (:class:`CreateTable`, :class:`JoinTable`);
the routes read the tables through the registry (web/manager.py) and change them
through the table service (web/service.py).
"""

from __future__ import annotations

import asyncio
import math
from collections.abc import Callable
from typing import TYPE_CHECKING, Annotated, Any, Literal

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import JSONResponse, PlainTextResponse, Response
from pydantic import BaseModel, ConfigDict, Field, model_validator

from ..i18n import game_description, game_title, normalize, rules_summary, spec_title
from ..i18n.games import PICKER
from ..i18n.rulebook_fr import SOURCES_FR
from ..notation import export_record
from ..rules import PRESET_SOURCES, PRESETS, Family
from .account_routes import signed_in
from .limits import AddressLimiter, address_key
from .live import LiveTable, peer
from .protocol import MAX_NAME
from .residency import Unavailable

if TYPE_CHECKING:
    from .manager import Manager

_HOUSE_EXAMPLES = {False: "multiple_melds=true", True: "knock_card=7, oklahoma=true"}
"""A house-rules example for the lobby, for rummy and for knock games (Gin)."""
_DECLARE_EXAMPLE = "first_drop=15, middle_drop=30"
"""...and for declaration games (Indian Rummy: pool 61's drops)."""

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
    rated: bool = False
    """A rated table (web/ratings.py): made signed in, a preset as it is, people only;
    each seat is taken by a signed-in player, and the match's result changes their
    ratings at that game."""

    @model_validator(mode="after")
    def _open_seats_are_public(self) -> CreateTable:
        if not self.public and any(s.open for s in self.seats):
            raise ValueError("a seat open to the public needs a public table")
        return self


class JoinTable(BaseModel):
    model_config = _STRICT
    name: Annotated[str, Field(max_length=MAX_NAME)] | None = None


def preset_list(lang: str | None) -> list[dict[str, Any]]:
    """The presets, their titles, descriptions and summaries in ``lang``; ``picker``
    is a preset's place among the front page's games (None: the custom table's only)."""
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
            "picker": PICKER.index(n) if n in PICKER else None,
        }
        for n in PRESETS
    ]


def lobby_routes(mgr: Callable[[], Manager], records_limit: AddressLimiter) -> APIRouter:
    """The lobby's routes; ``mgr`` gives the running server's manager (made by the
    app's lifespan), ``records_limit`` counts record downloads per address."""
    router = APIRouter()

    @router.get("/api/presets")
    async def presets(lang: str | None = None) -> list[dict[str, Any]]:
        """The presets, their titles, descriptions and summaries in ``lang``
        (``?lang=fr``; English by default).  ``source`` (the reference the rules follow)
        is for the docs and ``rummy rules``; a player reads the title and description."""
        return preset_list(lang)

    @router.post("/api/tables")
    async def create(req: CreateTable, request: Request, lang: str | None = None) -> dict[str, Any]:
        """A new table; its address's allowance (``tables_per_minute``) was spent by
        the request, valid or not, before its body was read (web/gate.py)."""
        m = mgr()
        signed = await signed_in(m, request)
        account = None if signed is None else signed.account
        return await m.service.create(
            req, normalize(lang) or "en", address_key(peer(request)), account
        )

    @router.get("/api/tables")
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

    @router.get("/api/tables/{table_id}")
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

    @router.post("/api/tables/{table_id}/join")
    async def join(table_id: str, req: JoinTable, request: Request) -> dict[str, Any]:
        """A public table's open seat; a signed-in player's under their username."""
        signed = await signed_in(mgr(), request)
        live = await _table(table_id)
        if not live.public:
            raise HTTPException(403, "this table is by invitation only")
        if signed is None:
            return await mgr().service.join(live, req.name)
        account = signed.account
        return await mgr().service.join(live, account.username, account.id)

    @router.get("/api/tables/{table_id}/record")
    async def record(table_id: str, request: Request) -> Response:
        """The match record: limited per address, made once per version and off the
        event loop (a long match's takes half a second)."""
        address = peer(request)
        if not records_limit.allow(address):
            wait = max(1, math.ceil(records_limit.retry_after(address)))
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

    return router

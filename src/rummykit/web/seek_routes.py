"""Quick pairing's HTTP routes (docs/protocol.md "Quick pairing"): ``/api/seek``.

A seek is made with ``POST /api/seek`` and answered with its token, which only its
player holds; the token is then sent in the :data:`SEEK_HEADER` header, never in the
address, so that access logs do not hold what fetches a seat link.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from fastapi import APIRouter, Header, HTTPException, Request

from .account_routes import signed_in
from .limits import address_key
from .live import peer
from .seeks import SeekRequest

if TYPE_CHECKING:
    from .manager import Manager

SEEK_HEADER = "x-seek-token"
SEEK_PATH = "/api/seek"


def seek_routes(mgr: Callable[[], Manager]) -> APIRouter:
    router = APIRouter()

    def token_of(token: str | None) -> str:
        if not token or len(token) > 64:
            raise HTTPException(404, "no such seek (cancelled, or it expired)")
        return token

    @router.post(SEEK_PATH, status_code=201)
    async def seek(req: SeekRequest, request: Request) -> dict[str, Any]:
        """Wait for opponents at a game; a signed-in player's seek is rated unless
        ``rated`` is false, a guest's is casual."""
        signed = await signed_in(mgr(), request)
        return await mgr().seeker.seek(req, signed, address_key(peer(request)))

    @router.get(SEEK_PATH)
    async def status(x_seek_token: str | None = Header(default=None)) -> dict[str, Any]:
        """The seek: ``waiting`` (renewed), ``pairing``, or ``paired`` with the seat's
        ``link``."""
        return await mgr().seeker.status(token_of(x_seek_token))

    @router.delete(SEEK_PATH)
    async def cancel(x_seek_token: str | None = Header(default=None)) -> dict[str, Any]:
        return await mgr().seeker.cancel(token_of(x_seek_token))

    return router

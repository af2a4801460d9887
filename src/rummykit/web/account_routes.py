"""The accounts' HTTP routes, the session cookie, and the CSRF token check.

``/api/account`` and its verbs (docs/accounts.md).  The session's id travels in the
cookie :data:`SESSION_COOKIE`: ``HttpOnly`` (the page's scripts never see it),
``SameSite=Lax`` (a page of another site cannot send it with a POST), and
``Secure`` behind TLS.  A request that changes anything and comes with a valid
session must also carry that session's CSRF token in :data:`CSRF_HEADER`, which the
page gets from ``GET /api/account`` (a page of another origin cannot read it); the
Origin check of every such request is web/gate.py's.
"""

from __future__ import annotations

import math
import secrets
from collections.abc import Callable
from typing import TYPE_CHECKING, Annotated, Any

from fastapi import APIRouter, Request, Response
from pydantic import BaseModel, ConfigDict, Field

from .account_store import SignedIn
from .accounts import MAX_PASSWORD, AccountError, NewSession
from .limits import address_key
from .live import peer
from .ratings import shown

if TYPE_CHECKING:
    from .manager import Manager

SESSION_COOKIE = "rummy_session"
CSRF_HEADER = "x-csrf-token"
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})

_STRICT = ConfigDict(extra="forbid", strict=True)
_Text = Annotated[str, Field(max_length=MAX_PASSWORD)]


class Credentials(BaseModel):
    model_config = _STRICT
    username: Annotated[str, Field(max_length=200)]
    password: _Text


class NewPassword(BaseModel):
    model_config = _STRICT
    old: _Text
    new: _Text


class Confirm(BaseModel):
    model_config = _STRICT
    password: _Text


def account_json(signed: SignedIn | NewSession) -> dict[str, Any]:
    """What the page is told of its own account: the name, when it was made, and the
    token its unsafe requests carry.  Nothing else (no id, no hash)."""
    return {
        "account": {"username": signed.account.username, "created": signed.account.created},
        "csrf": signed.csrf,
    }


async def signed_in(mgr: Manager, request: Request) -> SignedIn | None:
    """The account of the request's session cookie, or None for a guest.  A request
    that changes anything (not GET, HEAD, OPTIONS) with a valid session and without
    its CSRF token is refused (403 ``csrf``)."""
    signed = await mgr.accounts.signed_in(request.cookies.get(SESSION_COOKIE))
    if signed is not None and request.method not in SAFE_METHODS:
        token = request.headers.get(CSRF_HEADER, "")
        if not secrets.compare_digest(token.encode(), signed.csrf.encode()):
            raise AccountError(403, "csrf", "this request lacks its page's token; reload the page")
    return signed


def account_routes(mgr: Callable[[], Manager]) -> APIRouter:
    router = APIRouter()

    def secure(request: Request) -> bool:
        return mgr().settings.secure_cookies or request.url.scheme == "https"

    def set_session(request: Request, response: Response, new: NewSession) -> None:
        response.set_cookie(
            SESSION_COOKIE,
            new.session_id,
            max_age=math.ceil(mgr().settings.session_days * 86400),
            path="/",
            httponly=True,
            samesite="lax",
            secure=secure(request),
        )

    def clear_session(request: Request, response: Response) -> None:
        response.delete_cookie(
            SESSION_COOKIE, path="/", httponly=True, samesite="lax", secure=secure(request)
        )

    def address(request: Request) -> str:
        return address_key(peer(request))

    async def required(request: Request) -> SignedIn:
        signed = await signed_in(mgr(), request)
        if signed is None:
            raise AccountError(401, "signed_out", "sign in first")
        return signed

    @router.get("/api/account")
    async def me(request: Request) -> dict[str, Any]:
        """The signed-in account, its ratings and its CSRF token, or
        ``{"account": null}``."""
        signed = await signed_in(mgr(), request)
        if signed is None:
            return {"account": None}
        out = account_json(signed)
        rows = await mgr().db(mgr().service.rows.ratings_of, signed.account.id)
        out["account"]["ratings"] = {
            game: {"rating": shown(mu, sigma), "mu": mu, "sigma": sigma, "games": n}
            for game, mu, sigma, n in rows
        }
        return out

    @router.post("/api/account/signup", status_code=201)
    async def sign_up(req: Credentials, request: Request, response: Response) -> dict[str, Any]:
        old = request.cookies.get(SESSION_COOKIE)
        new = await mgr().accounts.sign_up(req.username, req.password, address(request), old)
        set_session(request, response, new)
        return account_json(new)

    @router.post("/api/account/signin")
    async def sign_in(req: Credentials, request: Request, response: Response) -> dict[str, Any]:
        old = request.cookies.get(SESSION_COOKIE)
        new = await mgr().accounts.sign_in(req.username, req.password, address(request), old)
        set_session(request, response, new)
        return account_json(new)

    @router.post("/api/account/signout")
    async def sign_out(request: Request, response: Response) -> dict[str, Any]:
        signed = await signed_in(mgr(), request)
        session_id = request.cookies.get(SESSION_COOKIE)
        if signed is not None and session_id:
            await mgr().accounts.sign_out(session_id)
        clear_session(request, response)
        return {"account": None}

    @router.post("/api/account/password")
    async def change_password(
        req: NewPassword, request: Request, response: Response
    ) -> dict[str, Any]:
        signed = await required(request)
        session_id = request.cookies.get(SESSION_COOKIE, "")
        new = await mgr().accounts.change_password(signed, req.old, req.new, session_id)
        set_session(request, response, new)
        return account_json(new)

    @router.post("/api/account/delete")
    async def delete(req: Confirm, request: Request, response: Response) -> dict[str, Any]:
        signed = await required(request)
        renamed = await mgr().accounts.delete(signed, req.password)
        await mgr().service.anonymise(renamed)
        clear_session(request, response)
        return {"account": None, "seats_renamed": len(renamed)}

    return router

"""What every request passes before the routes see it: the host it names, the
origin of a request that changes anything, the allowance of its client address, the
size of its body.

An ASGI middleware, outside FastAPI's routing, because FastAPI reads and parses a
whole body before a route's code runs (a 200 MB body to ``POST /api/tables`` costs
it some 675 MB of peak memory before validation refuses it), and a route counts only
the requests that reach it.  Here a body is refused once its declared or
received length passes ``max_body``, and a counted request (``POST /api/tables``,
``POST /api/seek``) spends its address's token before its body is read, valid or
not.  An allowance is awaited: one counted by this process is a bucket in memory
(:func:`counted_here`), one shared by every process a row of the database read and
written off the event loop (web/seeks.py's, through the manager's database threads).

A request that changes anything (any method but GET, HEAD and OPTIONS) from a
browser page of another origin is refused (403 ``cross_origin``) before its body is
read: the CSRF check every such request passes, signed in or not (docs/
accounts.md).  Browsers name the page's origin in ``Origin`` on every such request;
the check is web/origin.py's, the WebSocket's.  A request without ``Origin`` (a
command-line client) is refused only if ``Sec-Fetch-Site`` says a page of another
site sent it.
"""

from __future__ import annotations

import math
from collections.abc import Awaitable, Callable, Mapping

from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .limits import AddressLimiter, address_key
from .origin import HostCheck, origin_allowed

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})

Allowance = Callable[[str], Awaitable[float]]
"""Spends one of a client address's allowance (the address as
:func:`~.limits.address_key` gives it): 0 if it had one, else the seconds until it
has (nothing spent)."""


def counted_here(limiter: AddressLimiter) -> Allowance:
    """``limiter``'s allowance, counted by this process alone."""

    async def take(key: str) -> float:
        return 0.0 if limiter.take(key) else limiter.wait(key)

    return take


class BodyTooLarge(Exception):
    """The body passed the limit while it was being read."""


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", ()):
        if key == name:
            return str(value.decode("latin-1"))
    return None


def _peer(scope: Scope) -> str | None:
    client = scope.get("client")
    return str(client[0]) if client else None


class Gate:
    """ASGI middleware: a ``Host`` that ``hosts`` does not serve gets 400 (a WebSocket
    is refused before its handshake); a request listed in ``counted`` (``"POST
    /api/tables"``: its :data:`Allowance` and what it is, for the message) takes a
    token from its address first, 429 when there is none; a body over ``max_body``
    bytes gets 413 ``body_too_large``.  A body within the limit is read here and
    handed on whole, so the application sees it as usual."""

    def __init__(
        self,
        app: ASGIApp,
        *,
        hosts: HostCheck,
        max_body: int,
        counted: Mapping[str, tuple[Allowance, str]],
        origins: tuple[str, ...] = (),
    ) -> None:
        self.app = app
        self.origins = origins
        self.hosts = hosts
        self.max_body = max_body
        self.counted = counted

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = scope["type"]
        if kind not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        if not self.hosts.allows(_header(scope, b"host")):
            if kind == "websocket":
                await send({"type": "websocket.close", "code": 1008})
            else:
                detail = "this server does not answer to that host name"
                await JSONResponse({"detail": detail, "code": "bad_host"}, 400)(
                    scope, receive, send
                )
            return
        if kind == "websocket":
            await self.app(scope, receive, send)
            return
        if scope["method"] not in SAFE_METHODS and not self._same_origin(scope):
            detail = "a page of another origin may not send this request"
            await JSONResponse({"detail": detail, "code": "cross_origin"}, 403)(
                scope, receive, send
            )
            return
        limit = self.counted.get(f"{scope['method']} {scope['path']}")
        if limit is not None:
            take, what = limit
            left = await take(address_key(_peer(scope)))
            if left > 0:
                wait = max(1, math.ceil(left))
                detail = f"too many {what} from your address; try again in {wait} s"
                response = JSONResponse({"detail": detail}, 429, headers={"Retry-After": str(wait)})
                await response(scope, receive, send)
                return
        try:
            body = await self._body(scope, receive)
        except BodyTooLarge:
            detail = f"the request body is larger than {self.max_body} bytes"
            await JSONResponse({"detail": detail, "code": "body_too_large"}, 413)(
                scope, receive, send
            )
            return
        if body is None:  # the client went away before the body's end
            return
        sent = False

        async def replay() -> Message:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)

    def _same_origin(self, scope: Scope) -> bool:
        origin = _header(scope, b"origin")
        if origin is None:
            return _header(scope, b"sec-fetch-site") != "cross-site"
        return origin_allowed(origin, _header(scope, b"host"), self.origins, self.hosts)

    async def _body(self, scope: Scope, receive: Receive) -> bytes | None:
        """The whole body, at most ``max_body`` bytes (BodyTooLarge past them); None if
        the client disconnected first."""
        declared = _header(scope, b"content-length")
        if declared is not None and declared.strip().isdigit() and int(declared) > self.max_body:
            raise BodyTooLarge
        parts: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                return None
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.max_body:
                raise BodyTooLarge
            parts.append(chunk)
            if not message.get("more_body", False):
                return b"".join(parts)

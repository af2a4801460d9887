"""The web server's application: routes, middleware, and running it.

:func:`create_app` wires the parts together: the lobby's HTTP routes (web/lobby.py),
one WebSocket per client (web/session.py), the gate and the headers every answer
gets; its lifespan starts and stops the :class:`~rummykit.web.manager.Manager`, which
holds the tables.  :func:`serve` runs it (``rummy serve``, ``python -m rummykit.web``).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import math
import os
from collections.abc import AsyncIterator, Callable, Mapping
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles

from .account_routes import SESSION_COOKIE, account_routes
from .accounts import AccountError
from .collector import tune_gc, young_collections
from .config import given_flags, parse_list, server_settings
from .gate import Gate, counted_here
from .limits import AddressLimiter
from .live import peer
from .lobby import lobby_routes
from .manager import Manager
from .origin import HostCheck, origin_allowed
from .profile_routes import profile_routes
from .residency import Unavailable
from .seek_routes import SEEK_PATH, seek_routes
from .session import CLOSE_ORIGIN, CLOSE_TOO_MANY_SOCKETS, refuse
from .settings import Settings
from .store import Store

__all__ = ["create_app", "serve_main", "tune_gc"]

STATIC = Path(__file__).parent / "static"


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
        young = (
            asyncio.get_running_loop().create_task(young_collections(settings.young_gc))
            if settings.young_gc > 0
            else None
        )
        try:
            yield
        finally:
            if young is not None:
                young.cancel()
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

    def mgr() -> Manager:
        return holder["m"]

    app.add_middleware(
        Gate,
        hosts=hosts,
        max_body=settings.max_body,
        counted={
            "POST /api/tables": (counted_here(tables_limit), "tables created"),
            # in the database, over every process (web/seeks.py)
            f"POST {SEEK_PATH}": (lambda key: mgr().seeker.per_address.take(key), "seeks made"),
        },
        origins=settings.allowed_origins,
    )
    sockets_limit = AddressLimiter(
        settings.sockets_per_minute, max_addresses=settings.limit_addresses
    )
    records_limit = AddressLimiter(
        settings.record_per_minute, max_addresses=settings.limit_addresses
    )

    @app.exception_handler(RequestValidationError)
    async def invalid_request(_request: Request, exc: RequestValidationError) -> JSONResponse:
        """422 saying where and what, without echoing the input back: FastAPI's own
        answer repeats it, and a NaN in it cannot be encoded (a 500)."""
        detail = [
            {"loc": list(e.get("loc", ())), "msg": str(e.get("msg", "")), "type": e.get("type")}
            for e in exc.errors()
        ]
        return JSONResponse({"detail": detail}, 422)

    @app.exception_handler(AccountError)
    async def account_refused(_request: Request, exc: AccountError) -> JSONResponse:
        """A refused account request, or a request without its CSRF token: the
        status, a stable ``code`` the page words in its language, and when to retry."""
        headers = {"Retry-After": str(math.ceil(exc.retry_after))} if exc.retry_after else None
        return JSONResponse({"detail": exc.message, "code": exc.code}, exc.status, headers=headers)

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

    app.include_router(lobby_routes(mgr, records_limit))
    app.include_router(account_routes(mgr))
    app.include_router(seek_routes(mgr))
    pages_limit = AddressLimiter(settings.pages_per_minute, max_addresses=settings.limit_addresses)
    app.include_router(profile_routes(mgr, STATIC / "index.html", pages_limit))

    @app.websocket("/ws/{table_id}")
    async def ws(websocket: WebSocket, table_id: str) -> None:
        origin = websocket.headers.get("origin")
        host = websocket.headers.get("host")
        if not origin_allowed(origin, host, settings.allowed_origins, hosts):
            await refuse(
                websocket, CLOSE_ORIGIN, "origin", "pages from that origin may not connect"
            )
            return
        if not sockets_limit.allow(peer(websocket)):
            await refuse(
                websocket,
                CLOSE_TOO_MANY_SOCKETS,
                "rate_limited",
                "too many connections from your address; try again in a minute",
            )
            return
        signed = await mgr().accounts.signed_in(websocket.cookies.get(SESSION_COOKIE))
        account = None if signed is None else signed.account
        await mgr().sessions.run(websocket, table_id, account)

    return app


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


def serve(args: argparse.Namespace, environ: Mapping[str, str]) -> None:
    """Run the server that ``args`` (from :func:`~.config.add_serve_arguments`)
    describe, until interrupted.  Bad settings, from the flags or the ``RUMMYKIT_*``
    variables, raise ValueError naming the bad one before anything starts; so does a
    database that cannot be used (unreachable, or behind with ``--no-migrate``:
    web/schema.py), which is opened, and upgraded unless told not to, before the
    server listens."""
    options = given_flags(args, Settings)
    settings = server_settings(args.database, environ, **options)
    Store(settings.database_url, migrate=settings.migrate).close()
    serve_main(  # pragma: no cover - runs a server until interrupted
        args.host,
        args.port,
        args.database,
        log_level=args.log_level,
        **options,
    )

"""Play in the browser: ``rummy serve`` (see :func:`serve_main`, docs/protocol.md).

Outside the pure core: nothing in ``rummykit`` imports this package.  Its names load
on first use (PEP 562), so that ``rummy`` builds ``serve``'s flags from
:mod:`rummykit.web.settings` without importing the server and FastAPI.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .server import create_app, serve_main, tune_gc
    from .settings import Settings

__all__ = ["Settings", "create_app", "serve_main", "tune_gc"]


def __getattr__(name: str) -> Any:
    if name == "Settings":
        from .settings import Settings

        return Settings
    if name in __all__:
        from . import server

        return getattr(server, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

"""Play in the browser: ``rummy serve`` (see :func:`serve_main`, docs/protocol.md).

Outside the pure core: nothing in ``rummykit`` imports this package.
"""

from __future__ import annotations

from .server import Settings, create_app, serve_main, tune_gc

__all__ = ["Settings", "create_app", "serve_main", "tune_gc"]

"""``python -m rummykit.web [--host H] [--port P] [--database URL] [--SETTING VALUE ...]``:
the web server.  Every setting (``--tables-per-minute``, ``--max-spectators``, ...) can
also come from ``RUMMYKIT_<SETTING>`` in the environment; docs/protocol.md, "Limits"."""

from __future__ import annotations

import argparse
import os

from .config import add_flags, given_flags
from .server import Settings, serve_main, server_settings


def main(argv: list[str] | None = None) -> None:  # pragma: no cover - runs until killed
    p = argparse.ArgumentParser(prog="python -m rummykit.web", description=__doc__)
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=8000)
    p.add_argument("--database", default=None, help="SQLAlchemy URL (default: SQLite)")
    p.add_argument("--log-level", default="info")
    p.add_argument(
        "--forwarded-allow-ips",
        default=None,
        help="proxies trusted to name the client in X-Forwarded-For (uvicorn's option; "
        "default $FORWARDED_ALLOW_IPS or 127.0.0.1)",
    )
    add_flags(p, Settings, skip={"database_url"})
    a = p.parse_args(argv)
    options = given_flags(a, Settings)
    try:
        server_settings(a.database, os.environ, **options)  # a bad variable stops here
    except ValueError as exc:
        p.error(str(exc))
    serve_main(
        a.host,
        a.port,
        a.database,
        log_level=a.log_level,
        forwarded_allow_ips=a.forwarded_allow_ips,
        **options,
    )


if __name__ == "__main__":  # pragma: no cover
    main()

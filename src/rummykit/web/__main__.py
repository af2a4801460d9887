"""``python -m rummykit.web [--host H] [--port P] [--database URL]``: the web server."""

from __future__ import annotations

import argparse

from .server import serve_main


def main(argv: list[str] | None = None) -> None:  # pragma: no cover - runs until killed
    p = argparse.ArgumentParser(prog="python -m rummykit.web", description=__doc__)
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=8000)
    p.add_argument("--database", default=None, help="SQLAlchemy URL (default: SQLite)")
    p.add_argument("--bot-delay", type=float, default=0.6)
    p.add_argument("--disconnect-grace", type=float, default=60.0)
    p.add_argument("--log-level", default="info")
    a = p.parse_args(argv)
    serve_main(
        a.host,
        a.port,
        a.database,
        bot_delay=a.bot_delay,
        disconnect_grace=a.disconnect_grace,
        log_level=a.log_level,
    )


if __name__ == "__main__":  # pragma: no cover
    main()

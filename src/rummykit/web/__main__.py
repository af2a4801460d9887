"""``python -m rummykit.web [--host H] [--port P] [--database URL] [--SETTING VALUE ...]``:
the web server, the same as ``rummy serve``.  Every setting (``--tables-per-minute``,
``--max-spectators``, ...) can also come from ``RUMMYKIT_<SETTING>`` in the
environment; docs/protocol.md, "Limits"."""

from __future__ import annotations

import argparse
import os

from .config import add_serve_arguments, serve_settings
from .server import serve_main


def main(argv: list[str] | None = None) -> None:  # pragma: no cover - runs until killed
    p = argparse.ArgumentParser(prog="python -m rummykit.web", description=__doc__)
    add_serve_arguments(p)
    a = p.parse_args(argv)
    try:
        options = serve_settings(a, os.environ)  # a bad flag or variable stops here
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

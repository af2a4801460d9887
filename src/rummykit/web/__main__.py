"""``python -m rummykit.web [--host H] [--port P] [--database URL] [--SETTING VALUE ...]``:
the web server, the same as ``rummy serve``.  Every setting (``--tables-per-minute``,
``--max-spectators``, ...) can also come from ``RUMMYKIT_<SETTING>`` in the
environment; docs/protocol.md, "Limits"."""

from __future__ import annotations

import argparse
import os

from .config import add_serve_arguments
from .server import serve


def main(argv: list[str] | None = None) -> None:  # pragma: no cover - runs until killed
    p = argparse.ArgumentParser(prog="python -m rummykit.web", description=__doc__)
    add_serve_arguments(p)
    try:
        serve(p.parse_args(argv), os.environ)
    except ValueError as exc:  # a bad flag or variable: nothing has started
        p.error(str(exc))


if __name__ == "__main__":  # pragma: no cover
    main()

"""The WebSocket Origin check (issue 15, finding 6).

A browser lets any web site open a WebSocket to any server, and says which site did
in the ``Origin`` header.  Without a check, a stranger's page could open spectator
sockets (and chat) from its visitors' browsers.  The server's own page is allowed: its
origin names the host the browser asked for, which is the request's ``Host``.  So
are the origins the operator lists (``Settings.allowed_origins``), and a request with
no ``Origin`` at all, which no browser sends: command-line clients, bots, the tests.
"""

from __future__ import annotations

from collections.abc import Iterable
from urllib.parse import urlsplit

_DEFAULT_PORTS = {"http": 80, "ws": 80, "https": 443, "wss": 443}


def _netloc(host: str, port: int | None, scheme: str) -> str:
    if port is None or _DEFAULT_PORTS.get(scheme) == port:
        return host
    return f"{host}:{port}"


def normalize_origin(origin: str) -> str | None:
    """``scheme://host[:port]`` in lower case without a default port, or None when
    ``origin`` is not such a URL (``null``, which sandboxed pages send, included)."""
    try:
        parts = urlsplit(origin.strip().lower())
        port = parts.port
    except ValueError:
        return None
    if parts.scheme not in _DEFAULT_PORTS or not parts.hostname:
        return None
    host = f"[{parts.hostname}]" if ":" in parts.hostname else parts.hostname
    return f"{parts.scheme}://{_netloc(host, port, parts.scheme)}"


def _strip_default_port(host: str) -> str:
    for suffix in (":80", ":443"):
        if host.endswith(suffix):
            return host[: -len(suffix)]
    return host


def origin_allowed(origin: str | None, host: str | None, allowed: Iterable[str] = ()) -> bool:
    """May a WebSocket with this ``Origin`` header, sent to this ``Host``, connect?"""
    if origin is None:
        return True
    norm = normalize_origin(origin)
    if norm is None:
        return False
    if host:
        asked = host.strip().lower()
        if norm.split("://", 1)[1] in (asked, _strip_default_port(asked)):
            return True
    return norm in {normalize_origin(a) for a in allowed}

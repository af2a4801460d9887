"""The host names the server answers to, and the WebSocket Origin check.

A browser lets any web site open a WebSocket to any server, and says which site did
in the ``Origin`` header.  Without a check, a stranger's page could open spectator
sockets (and chat) from its visitors' browsers.  The server's own page is allowed: its
origin names the host the browser asked for, which is the request's ``Host``.  So
are the origins the operator lists (``Settings.allowed_origins``), and a request with
no ``Origin`` at all, which no browser sends: command-line clients, bots, the tests.

The ``Host`` header alone proves nothing, though: a stranger's page at
``evil.example`` whose name the stranger then points at this server's address (DNS
rebinding) reaches the server with ``Host: evil.example`` and a matching ``Origin``.
So the server answers only to the host names it serves (:class:`HostCheck`,
``Settings.allowed_hosts``), on every request and socket, and an origin must name
such a host as well as match ``Host``.  ``localhost`` and IP addresses are always
served: a rebinding needs a name the stranger controls, and a browser that asked
for an address or for ``localhost`` sends that, never the stranger's name.
"""

from __future__ import annotations

import ipaddress
import re
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


_NAME = re.compile(r"[a-z0-9_-]+(\.[a-z0-9_-]+)*")
"""A host name's labels (letters, digits, ``-`` and ``_``), dot-separated."""


def host_name(host: str) -> str | None:
    """The name in a ``Host`` header (``Name.Example.:8000``, ``[::1]:8000``): lower
    case, without port, brackets or final dot; None when it is not a host."""
    text = host.strip().lower()
    if text.startswith("["):
        name, sep, rest = text[1:].partition("]")
        if not sep or (rest and not (rest[0] == ":" and rest[1:].isdigit())):
            return None
        try:
            return str(ipaddress.IPv6Address(name))
        except ValueError:
            return None
    name, sep, port = text.partition(":")
    if sep and not port.isdigit():
        return None
    name = name.removesuffix(".")
    return name if _NAME.fullmatch(name) else None


def _is_address(name: str) -> bool:
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


class HostCheck:
    """The host names a server answers to: ``localhost``, any IP address, and the
    ``allowed`` names: ``play.example`` that name alone, ``.play.example`` that name
    and its subdomains, ``*`` any name (no check at all)."""

    def __init__(self, allowed: Iterable[str] = ()) -> None:
        self.names: set[str] = {"localhost"}
        self.suffixes: list[str] = []
        self.anything = False
        for entry in allowed:
            word = entry.strip().lower().removesuffix(".")
            if word == "*":
                self.anything = True
            elif word.startswith((".", "*.")):
                base = word.lstrip("*").lstrip(".")
                self.names.add(base)
                self.suffixes.append("." + base)
            elif word:
                self.names.add(host_name(word) or word)

    def allows_name(self, name: str) -> bool:
        """Whether ``name`` (as :func:`host_name` gives it) is served."""
        return (
            self.anything
            or name in self.names
            or name.endswith(tuple(self.suffixes))
            or _is_address(name)
        )

    def allows(self, host: str | None) -> bool:
        """Whether a request with this ``Host`` header is served.  None (no header: an
        HTTP/1.0 health check, never a browser) is; a malformed one is not."""
        if host is None or self.anything:
            return True
        name = host_name(host)
        return name is not None and self.allows_name(name)


def origin_allowed(
    origin: str | None,
    host: str | None,
    allowed: Iterable[str] = (),
    hosts: HostCheck | None = None,
) -> bool:
    """May a WebSocket with this ``Origin`` header, sent to this ``Host``, connect?
    Its own page may: an origin naming a host that ``hosts`` serves (by default
    ``localhost`` and IP addresses) and matching ``Host``; so may the ``allowed``
    origins."""
    if origin is None:
        return True
    norm = normalize_origin(origin)
    if norm is None:
        return False
    if norm in {normalize_origin(a) for a in allowed}:
        return True
    netloc = norm.split("://", 1)[1]
    name = host_name(netloc)
    if not host or name is None or not (hosts or HostCheck()).allows_name(name):
        return False
    asked = host.strip().lower()
    return netloc in (asked, _strip_default_port(asked))

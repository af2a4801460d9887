"""The server's settings from the environment and the command line.

Every field of :class:`~rummykit.web.settings.Settings` can be set by an environment
variable ``RUMMYKIT_<FIELD>`` (``RUMMYKIT_TABLES_PER_MINUTE=5``) and by a flag of
``python -m rummykit.web`` (``--tables-per-minute 5``); a flag wins over the
environment, and the environment over the default.  Both are derived from the
dataclass itself, so a new setting is settable without touching this module: ints,
floats, strings, booleans (``1``/``true``/``yes``/``on`` or ``0``/``false``/``no``/
``off``) and tuples of strings (comma-separated).
"""

from __future__ import annotations

import argparse
import dataclasses
import typing
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .settings import Settings

ENV_PREFIX = "RUMMYKIT_"
_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


def parse_bool(text: str) -> bool:
    word = text.strip().lower()
    if word in _TRUE:
        return True
    if word in _FALSE:
        return False
    raise ValueError(f"expected one of {sorted(_TRUE | _FALSE - {''})}, not {text!r}")


def parse_list(text: str) -> tuple[str, ...]:
    return tuple(part.strip() for part in text.split(",") if part.strip())


_PARSERS: dict[object, Callable[[str], Any]] = {
    int: int,
    float: float,
    str: str,
    bool: parse_bool,
    tuple[str, ...]: parse_list,
}


def env_name(field: str) -> str:
    return ENV_PREFIX + field.upper()


def flag_name(field: str) -> str:
    return "--" + field.replace("_", "-")


def parsers(cls: type) -> dict[str, Callable[[str], Any]]:
    """Each settable field of dataclass ``cls`` and how to read it from text."""
    hints = typing.get_type_hints(cls)
    return {
        f.name: _PARSERS[hints[f.name]]
        for f in dataclasses.fields(cls)
        if hints[f.name] in _PARSERS
    }


def from_env(cls: type, environ: Mapping[str, str]) -> dict[str, Any]:
    """The fields of ``cls`` that ``environ`` sets; a bad value raises ValueError
    naming the variable."""
    out: dict[str, Any] = {}
    for name, parse in parsers(cls).items():
        raw = environ.get(env_name(name))
        if raw is None:
            continue
        try:
            out[name] = parse(raw)
        except ValueError as exc:
            raise ValueError(f"{env_name(name)}: {exc}") from None
    return out


def add_flags(parser: argparse.ArgumentParser, cls: type, skip: set[str]) -> None:
    """A flag per field of ``cls`` (not in ``skip``), None when not given."""
    defaults = {f.name: f.default for f in dataclasses.fields(cls)}
    for name, parse in parsers(cls).items():
        if name in skip:
            continue
        default = defaults[name]
        shown = ",".join(default) if isinstance(default, tuple) else default
        parser.add_argument(
            flag_name(name),
            dest=name,
            type=parse,
            default=None,
            metavar=name.upper(),
            help=f"default {shown!r}; environment {env_name(name)}",
        )


def given_flags(args: argparse.Namespace, cls: type) -> dict[str, Any]:
    """The fields of ``cls`` set on the command line."""
    return {
        name: getattr(args, name) for name in parsers(cls) if getattr(args, name, None) is not None
    }


def add_serve_arguments(parser: argparse.ArgumentParser) -> None:
    """The arguments of ``rummy serve`` and ``python -m rummykit.web``: where to listen,
    the database, logging, and a flag per server setting (the trusted proxies,
    ``--forwarded-allow-ips``, and the served names, ``--allowed-hosts``, among them)."""
    from .settings import Settings

    parser.add_argument(
        "--host",
        default="127.0.0.1",
        help="address or name to listen on, also served as a host name (default: 127.0.0.1)",
    )
    parser.add_argument("--port", type=int, default=8000, help="port (default: 8000)")
    parser.add_argument(
        "--database",
        default=None,
        help="SQLAlchemy URL, e.g. postgresql://user:pw@host/db (default: SQLite in the "
        "user data directory, or $RUMMYKIT_DATABASE_URL)",
    )
    parser.add_argument("--log-level", default="info", help="uvicorn's (default: info)")
    parser.add_argument(
        "--no-migrate",
        dest="migrate",
        action="store_const",
        const=False,
        default=None,
        help="do not upgrade the database's schema at start; refuse one that is behind "
        "(run `rummy db upgrade` first); environment RUMMYKIT_MIGRATE=0",
    )
    add_flags(parser, Settings, skip={"database_url", "migrate"})


def server_settings(
    database_url: str | None, environ: Mapping[str, str], **options: Any
) -> Settings:
    """The settings of a served process: each field from ``options`` (the flags) when
    given (not None), else from ``RUMMYKIT_<FIELD>`` in ``environ``, else its default.
    A bad variable raises ValueError naming it."""
    from .settings import Settings
    from .store import default_database_url

    values = from_env(Settings, environ)
    values.update({k: v for k, v in options.items() if v is not None})
    values["database_url"] = database_url or values.get("database_url") or default_database_url()
    return Settings(**values)

"""Rummy in the terminal: a Textual game against the computer, and a replay viewer.

Outside the pure core: this package draws, reads the clock, runs bots in threads and
saves games under the user's data directory.  Nothing in the core imports it.  The
command line calls :func:`play_main` and :func:`replay_main`; Textual is imported only
when one of them runs.

>>> s = settings_from_options(rules="rami51", players=3, bots="hard,easy", name="Ann")
>>> s.rules.name, s.names(), s.bots
('rami51', ['Ann', 'Bob', 'Cleo'], ('hard', 'easy'))
>>> settings_from_options() is None  # no game flags: show the new-game screen
True
"""

from __future__ import annotations

import argparse
import os
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ..errors import RulesError
from ..i18n import LANGS, lang_from_env, normalize
from ..rules import Rules
from .lang import _, _n, error_words, set_lang
from .session import DEFAULT_BOT, DIFFICULTIES, GameSettings

__all__ = [
    "GameSettings",
    "add_play_arguments",
    "add_replay_arguments",
    "game_lang",
    "play_main",
    "replay_main",
    "settings_from_options",
]

_BOT_ALIASES = {"greedy": "easy", "expert": "medium", "ismcts": "hard"}
_GIN_HAND = re.compile(r"^\s*gin\s*(\((?P<options>.*)\))?\s*$", re.S)
_END_OPTION = re.compile(r"\b(deals|target_score)\s*=")


def table_spec(spec: str, end_given: bool = False) -> str:
    """The rules ``rummy play`` plays for ``spec``: Gin players expect a game to 100,
    so ``gin`` (with any options) plays the ``gin_match`` preset unless the spec or a
    flag (``end_given``) says how the match ends; one hand is ``--deals 1``.

    >>> table_spec("gin"), table_spec("gin(knock_card=8)"), table_spec("gin(deals=1)")
    ('gin_match', 'gin_match(knock_card=8)', 'gin(deals=1)')
    >>> table_spec("gin", end_given=True), table_spec("basic")
    ('gin', 'basic')
    """
    m = _GIN_HAND.match(spec)
    if m is None or end_given or _END_OPTION.search(m.group("options") or ""):
        return spec
    return "gin_match" + (f"({m.group('options')})" if m.group("options") is not None else "")


_DEFAULTS: dict[str, Any] = {
    "rules": None,
    "players": None,
    "bots": None,
    "name": None,
    "instant": False,
    "resume": False,
    "seed": None,
    "target": None,
    "deals": None,
    "lang": None,
}


def add_play_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the options of ``rummy play`` to a (sub)parser."""
    parser.add_argument(
        "--rules",
        help="rules spec, e.g. rami51 or 'basic(multiple_melds=true)'; gin plays a game to "
        "100 (gin_match), --deals 1 one hand",
    )
    parser.add_argument("--players", type=int, help="number of players, you included (2-6)")
    parser.add_argument(
        "--bots",
        help="difficulty of each computer player, e.g. hard,medium,easy (or one for all; "
        f"default: {DEFAULT_BOT})",
    )
    parser.add_argument("--name", help="your name")
    parser.add_argument("--target", type=int, help="play to this score")
    parser.add_argument("--deals", type=int, help="play this many deals instead of to a score")
    parser.add_argument("--seed", type=int, help="seed of the shuffle (to replay a deal)")
    parser.add_argument("--instant", action="store_true", help="bots move without pausing")
    parser.add_argument("--resume", action="store_true", help="continue the saved game")
    _add_lang(parser)


def _add_lang(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--lang",
        choices=LANGS,
        help="language of the game: en (English) or fr (French); default: $RUMMYKIT_LANG, "
        "else the locale ($LC_ALL, $LC_MESSAGES, $LANG), else English",
    )


def game_lang(value: str | None, environ: Mapping[str, str] | None = None) -> str:
    """The terminal game's language: ``--lang``, else ``RUMMYKIT_LANG``, else the
    locale, else English.

    >>> game_lang("fr", {}), game_lang(None, {"LANG": "fr_FR.UTF-8"}), game_lang(None, {})
    ('fr', 'fr', 'en')
    """
    return normalize(value) or lang_from_env(os.environ if environ is None else environ)


def add_replay_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the argument of ``rummy replay`` to a (sub)parser."""
    parser.add_argument("file", help="a game record (see docs/notation.md)")
    _add_lang(parser)


def _options(args: argparse.Namespace | Mapping[str, Any] | None, extra: Mapping[str, Any]) -> Any:
    merged = dict(_DEFAULTS)
    if isinstance(args, argparse.Namespace):
        merged.update({k: v for k, v in vars(args).items() if k in _DEFAULTS})
    elif args is not None:
        merged.update({k: v for k, v in args.items() if k in _DEFAULTS})
    unknown = set(extra) - set(_DEFAULTS)
    if unknown:
        raise TypeError(f"unknown play options: {', '.join(sorted(unknown))}")
    merged.update(extra)
    return argparse.Namespace(**merged)


def settings_from_options(
    args: argparse.Namespace | Mapping[str, Any] | None = None, /, **options: Any
) -> GameSettings | None:
    """The settings the flags ask for, or None when no flag chooses the game (then the
    app shows the new-game screen).  ``ValueError`` (with a message for the user) for
    bad flags."""
    o = _options(args, options)
    if o.rules is None and o.players is None and o.bots is None:
        return None
    end_given = o.target is not None or o.deals is not None
    rules = Rules.parse(table_spec(o.rules or "basic", end_given))
    if o.target is not None and o.deals is not None:
        raise ValueError(_("give --target or --deals, not both"))
    if o.target is not None:
        rules = rules.with_options(target_score=o.target)
    if o.deals is not None:
        rules = rules.with_options(deals=o.deals)
    bots = [b.strip().lower() for b in o.bots.split(",")] if o.bots else [DEFAULT_BOT]
    bots = [_BOT_ALIASES.get(b, b) for b in bots]
    for b in bots:
        if b not in DIFFICULTIES:
            known = ", ".join(DIFFICULTIES)
            raise ValueError(
                _("unknown bot difficulty {name} (known: {known})", name=repr(b), known=known)
            )
    players = (
        o.players
        if o.players is not None
        else (1 + len(bots) if o.bots else max(2, rules.min_players))
    )
    if len(bots) == 1:
        bots = bots * max(1, players - 1)
    if len(bots) != players - 1:
        given = _n("{n} bot", "{n} bots", len(bots))
        raise ValueError(
            _("--bots gives {bots} for {n} players (you + bots)", bots=given, n=players)
        )
    settings = GameSettings(rules, name=o.name or _("You"), bots=tuple(bots), seed=o.seed)
    try:
        settings.check()
    except RulesError as exc:
        raise RulesError(error_words(exc)) from None
    return settings


def play_main(args: argparse.Namespace | Mapping[str, Any] | None = None, /, **options: Any) -> int:
    """Run ``rummy play``; return the exit code.

    ``args`` is the parsed namespace of :func:`add_play_arguments` (or a mapping); keyword
    options override it.  Raises ``ValueError`` with a message for bad options before
    the app starts.
    """
    o = _options(args, options)
    lang = game_lang(o.lang)
    set_lang(lang)
    settings = settings_from_options(vars(o))
    initial = None
    if settings is None and (o.name or o.seed is not None):
        initial = GameSettings(Rules.preset("basic"), name=o.name or _("You"), seed=o.seed)
    from .app import RummyApp, run_app

    app = RummyApp(
        settings=settings,
        resume=bool(o.resume),
        instant=bool(o.instant),
        initial=initial,
        lang=lang,
    )
    return run_app(app)


def replay_main(path: str | Path, lang: str | None = None) -> int:
    """Run ``rummy replay FILE``; return the exit code.  ``ValueError`` (a
    :class:`~rummykit.errors.NotationError` for a bad record) before the app starts."""
    from ..notation import import_record
    from .session import replay_steps

    chosen = game_lang(lang)
    set_lang(chosen)
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ValueError(_("cannot read {path}: {error}", path=p, error=exc)) from None
    state = import_record(text)
    steps = replay_steps(state)
    from .app import RummyApp, run_app

    return run_app(RummyApp(replay=(steps, p.name), lang=chosen))

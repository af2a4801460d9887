"""The terminal game's language: English or French, chosen once when the app starts
(``rummy play --lang fr``, else ``RUMMYKIT_LANG``, else the locale).

The words are in :mod:`rummykit.i18n` (the French keyed by the English, as gettext
does); this module holds the app's choice, so the screens and the session's texts
can say ``_("Your hand")`` without passing the language everywhere.  It is the
terminal game's only setting of this kind; the core never reads it.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from textual.binding import Binding, BindingsMap

from .. import i18n

_lang = ["en"]


def set_lang(lang: str) -> None:
    """Choose the language (``en`` or ``fr``; anything else is English)."""
    _lang[0] = i18n.normalize(lang) or "en"


def lang() -> str:
    return _lang[0]


def _(text: str, **values: object) -> str:
    """``text`` in the app's language, ``{names}`` filled from ``values``."""
    return i18n.tr(_lang[0], text, **values)


def _n(one: str, other: str, n: int, **values: object) -> str:
    """``one`` or ``other`` by the count ``n``, in the app's language."""
    return i18n.trn(_lang[0], one, other, n, **values)


def error_words(exc: Exception) -> str:
    """An error's message for the person: a rules error in the app's language where
    the catalog has it."""
    from ..errors import RulesError

    if isinstance(exc, RulesError):
        return i18n.rules_error_text(str(exc), _lang[0])
    return str(exc)


def N_(text: str) -> str:
    """Mark a text for the catalog where it is defined (a key binding's description);
    :func:`_` translates it where it is shown."""
    return text


class LocalBindings:
    """Mixin for a screen whose key bindings' descriptions are in the app's language.

    Textual reads a class's ``BINDINGS`` when the class is made, and the language is
    chosen later, when the app starts; so in French a screen is made as a subclass of
    its class (one per class and language) that declares the same bindings with their
    descriptions translated.  Put it first among the bases."""

    def __new__(cls, *args: Any, **kwargs: Any) -> Any:
        return super().__new__(_localized(cls, _lang[0]))


_LOCALIZED: dict[tuple[type, str], type] = {}
"""The subclass :class:`LocalBindings` makes, by class and language."""


def _localized(cls: type, lang: str) -> type:
    """``cls`` with its bindings (its own and inherited, as Textual merges them: later
    classes replace a key's bindings) described in ``lang``."""
    if lang == "en" or cls.__dict__.get("_localized_in"):
        return cls
    made = _LOCALIZED.get((cls, lang))
    if made is None:
        keys: dict[str, list[Binding]] = {}
        for base in reversed(cls.__mro__):
            keys.update(BindingsMap(base.__dict__.get("BINDINGS", [])).key_to_bindings)
        bindings = [
            dataclasses.replace(b, description=i18n.tr(lang, b.description)) if b.description else b
            for key_bindings in keys.values()
            for b in key_bindings
        ]
        namespace = {
            "BINDINGS": bindings,
            "_localized_in": lang,
            "__module__": cls.__module__,
            "__qualname__": cls.__qualname__,
        }
        made = _LOCALIZED[cls, lang] = type(cls)(cls.__name__, (cls,), namespace)
    return made

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


def translate_bindings(node: Any) -> None:
    """The descriptions of a screen's key bindings in the app's language (Textual
    copies a class's bindings to each screen object: only this one changes)."""
    table = node._bindings.key_to_bindings
    for key, bindings in table.items():
        table[key] = [
            dataclasses.replace(b, description=_(b.description)) if b.description else b
            for b in bindings
        ]


def contract_words(text: str) -> str:
    """A Contract Rummy contract (``two sets and a run``) in the app's language."""
    from ..i18n.engine_fr import CONTRACTS_FR

    return CONTRACTS_FR.get(text, text) if _lang[0] == "fr" else text

"""The terminal game's own words in French, keyed by their English text (as gettext
does).  tests/test_i18n.py checks every text the terminal game translates is here, and
that nothing here is unused."""

from __future__ import annotations

FR: dict[str, str] = {
    "Wait: it is {who}'s turn.": "Attendez : c’est au tour de {who}.",
}

"""French and English for the terminal game and the server's texts.

Outside the pure core: the engine, the bots and the scorer keep making English with
stable codes (an :class:`~rummykit.errors.IllegalMoveError`'s ``rule``, a round's
``reason``), and the front ends translate here, at the edge.  Two catalogs:

- texts the engine and the server make (``engine_fr``): by rule or protocol code,
  English pattern to French template;
- the terminal game's own words (``ui_fr``), keyed by their English text as gettext
  does: ``tr("fr", "Your hand")``.  A test scans the terminal game for every text it
  translates and checks the French catalog has it, and has nothing else.

Cards keep their faces; in French the court cards are written V, D, R (valet, dame,
roi), as on the web page (``web/static/messages.js``).  No I/O, no global state.

>>> tr("fr", "Wait: it is {who}'s turn.", who="Bob")
"Attendez : c'est au tour de Bob."
>>> card_text(10 + 13 * 2, "fr"), card_name(11, "fr"), card_name(52, "en")
('V♥', 'dame de trèfle', 'joker')
>>> lang_from_env({"LANG": "fr_FR.UTF-8"}), lang_from_env({"LC_ALL": "C"})
('fr', 'en')
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from ..cards import JOKER, RANK_NAMES, SUIT_NAMES, display_face
from ..errors import IllegalMoveError
from ..results import RoundEnd
from ..rulebook import RULES_EN, render, rules_lines
from ..rules import Rules
from ..scoring import RoundResult, describe_round
from . import engine_fr
from .games import game_description, game_title, spec_title
from .rulebook_fr import RULES_FR
from .ui_fr import FR

LANGS = ("en", "fr")
"""The languages, English first (the default)."""

ENV_VARS = ("RUMMYKIT_LANG", "LC_ALL", "LC_MESSAGES", "LANG")
"""Where the default language is read, first found first."""

RANK_NAMES_FR = (
    "as", "deux", "trois", "quatre", "cinq", "six", "sept",
    "huit", "neuf", "dix", "valet", "dame", "roi",
)  # fmt: skip
SUIT_NAMES_FR = ("trèfle", "carreau", "cœur", "pique")

_COURT = re.compile(r"(?<!\w)([JQK])(?=[♣♦♥♠])")
_TEN = re.compile(r"(?<!\w)T(?=[♣♦♥♠])")
_ACE_AFTER_LE = re.compile(r"\ble (?=A(?:[♣♦♥♠]|[CDHS]\b))")
"""``le A♦`` is written ``l'A♦`` (l'as), in faces and in the notation alike."""
_COURT_FR = {"J": "V", "Q": "D", "K": "R"}


def normalize(value: str | None) -> str | None:
    """A supported language from a tag or a locale (``fr-FR``, ``fr_CA.UTF-8``), else None."""
    if not value:
        return None
    base = re.split(r"[-_.@]", value.strip(), maxsplit=1)[0].lower()
    return base if base in LANGS else None


def lang_from_env(environ: Mapping[str, str]) -> str:
    """The language from ``RUMMYKIT_LANG``, then the locale (``LC_ALL``, ``LC_MESSAGES``,
    ``LANG``), the first one set: its language if supported, else English."""
    for name in ENV_VARS:
        value = environ.get(name)
        if value:
            return normalize(value) or "en"
    return "en"


_CONTEXT = re.compile(r"[a-z_]+\|")


def tr(lang: str, text: str, **values: object) -> str:
    """``text`` (the English) in ``lang``, its ``{names}`` filled from ``values``.

    A text may start with a context, ``pile|Discard``, where one English word needs two
    French ones (the pile, *la défausse*, and the action, *défausser*); the context is
    not shown."""
    out = FR.get(text) if lang == "fr" else None
    if out is None:
        m = _CONTEXT.match(text)
        out = text[m.end() :] if m else text
    if values:
        out = out.format(**values)
    return elide(out) if lang == "fr" else out


def elide(text: str) -> str:
    """French elision before an ace's face: ``le A♦`` → ``l'A♦``."""
    return _ACE_AFTER_LE.sub("l'", text)


def trn(lang: str, one: str, other: str, n: int, **values: object) -> str:
    """``one`` or ``other`` by the count ``n`` (French counts 0 and 1 as singular),
    translated, ``{n}`` filled."""
    single = abs(n) < 2 if lang == "fr" else n == 1
    return tr(lang, one if single else other, n=n, **values)


def card_text(face: int, lang: str) -> str:
    """A face for people: ``10♥``, ``Q♠`` (``D♠`` in French), the joker's glyph."""
    text = display_face(face)
    return localize_cards(text, lang)


def localize_cards(text: str, lang: str) -> str:
    """Faces written in a text (``Q♠``, the notation's ``T♣``) as people read them in
    the language: ``10♣``, and in French ``D♠``.

    >>> localize_cards("discard T♣, meld Q♠ K♠ A♠", "en")
    'discard 10♣, meld Q♠ K♠ A♠'
    """
    text = _TEN.sub("10", text)
    if lang != "fr":
        return text
    return elide(_COURT.sub(lambda m: _COURT_FR[m[1]], text))


def card_name(face: int, lang: str) -> str:
    """A face in words: ``queen of clubs``, ``dame de trèfle``, ``joker``."""
    if face >= JOKER:
        return "joker"
    rank, suit = face % 13, face // 13
    if lang == "fr":
        return f"{RANK_NAMES_FR[rank]} de {SUIT_NAMES_FR[suit]}"
    return f"{RANK_NAMES[rank]} of {SUIT_NAMES[suit]}"


_CITATION = re.compile(r"\s*\((?:seed \d{3}|RULES-NOTES \d)[^()]*\)|\s*\[rule: \w+\]")
"""A seed or notes citation, ``(seed 000, 001)``, or a ``[rule: code]`` tail: kept in
logs, ``--json`` output and ``rummy rules``, never shown to a player."""


def plain_reason(message: str) -> str:
    """An engine message as a player reads it: without its citations and rule code.

    >>> plain_reason("a turn starts by drawing a card (seed 000, 001) [rule: draw_first]")
    'a turn starts by drawing a card'
    """
    return _CITATION.sub("", message)


def error_text(code: str, message: str, lang: str) -> str:
    """An error for people: a rule code (:class:`IllegalMoveError`) or a protocol code
    with its English message, in ``lang`` (the English if the code is unknown), with no
    seed citation or rule code in it."""
    if lang == "fr":
        fr = engine_fr.error_fr(code, message)
        if fr is not None:
            return localize_cards(plain_reason(fr), lang)
    return plain_reason(message)


def illegal_text(exc: IllegalMoveError, lang: str) -> str:
    """The reason an illegal move was refused, in ``lang``."""
    return error_text(exc.rule, exc.reason, lang)


def rules_error_text(message: str, lang: str) -> str:
    """A :class:`~rummykit.errors.RulesError`'s message in ``lang`` where the catalog
    has it (a player count, a number out of range), else as it is."""
    if lang == "fr":
        return engine_fr.match(engine_fr.RULES_SPEC, message) or message
    return message


def hint_text(reason: str, lang: str) -> str:
    """A hint's reason (:mod:`rummykit.bots.hints`) in ``lang``."""
    if lang == "fr":
        fr = engine_fr.hint_fr(reason)
        if fr is not None:
            return localize_cards(fr, lang)
    return reason


DEEP_DRAW: dict[str, tuple[str, str]] = {
    "en": ("took {card} and the {n} card above it", "took {card} and the {n} cards above it"),
    "fr": (
        "a pris le {card} et la carte au-dessus",
        "a pris le {card} et les {n} cartes au-dessus",
    ),
}
"""500 Rum's deep draw in a move log, one card above it or more: the terminal's log
and the web page's (whose ``mv.deep`` messages a test holds to these)."""


def deep_draw_text(card: str, above: int, lang: str) -> str:
    """A deep draw in words: ``took J♣ and the 2 cards above it``.

    >>> deep_draw_text("J♣", 2, "en"), deep_draw_text("A♣", 1, "fr")
    ('took J♣ and the 2 cards above it', "a pris l'A♣ et la carte au-dessus")
    """
    one, other = DEEP_DRAW["fr" if lang == "fr" else "en"]
    text = (one if above == 1 else other).format(card=card, n=above)
    return elide(text) if lang == "fr" else text


def note_text(note: str, lang: str) -> str:
    """A score note (``rummy: score doubled``) in ``lang``."""
    return engine_fr.note_fr(note) if lang == "fr" else note


def round_text(result: RoundResult, names: Sequence[str], lang: str) -> str:
    """How a round ended, one line (:func:`~rummykit.scoring.describe_round`), in ``lang``."""
    if lang != "fr":
        return describe_round(result, names)
    w = result.winner
    match result.reason:
        case RoundEnd.GIN if w is not None:
            return f"{names[w]} a fait gin"
        case RoundEnd.KNOCK:
            if w is None:
                return "frappe à égalité de cartes isolées : aucun point"
            if any(n.startswith("undercut") for n in result.players[w].notes):
                return f"{names[w]} a contré celui qui a frappé"
            return f"{names[w]} a frappé et gagné la donne"
        case RoundEnd.WALL:
            return "plus que deux cartes dans la pioche : la donne est nulle"
        case RoundEnd.WRONG_SHOW if w is not None:
            return f"déclaration fausse : {names[w]} gagne la donne"
    if result.went_out and w is not None:
        extra = " (rami !)" if result.rummy else ""
        return f"{names[w]} a fini{extra}"
    why = engine_fr.BLOCKED.get(result.reason, result.reason.replace("_", " "))
    return f"la manche est bloquée : {why}"


def rules_summary(rules: Rules, lang: str) -> list[str]:
    """The rules summary (:func:`rummykit.rulebook.rules_lines`) in ``lang``."""
    return render(rules_lines(rules), RULES_FR if lang == "fr" else RULES_EN)


__all__ = [
    "DEEP_DRAW",
    "ENV_VARS",
    "LANGS",
    "card_name",
    "card_text",
    "deep_draw_text",
    "error_text",
    "game_description",
    "game_title",
    "hint_text",
    "illegal_text",
    "lang_from_env",
    "localize_cards",
    "normalize",
    "note_text",
    "plain_reason",
    "round_text",
    "rules_error_text",
    "rules_summary",
    "spec_title",
    "tr",
    "trn",
]

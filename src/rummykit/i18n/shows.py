"""What a family shows (:mod:`rummykit.variants.show`), in English and French.

The families say what a player must see as message codes with parameters; this is
the one catalog the terminal game and the web page render them with, so a family's
status lines and keys read the same in both.  A code missing from the French catalog
falls back to the English, and one missing from both is shown as its code and
parameters (a family that adds a line is never silent).

>>> from rummykit.variants.show import StatusLine
>>> show_text(StatusLine("contract", {"n": 1, "deals": 7, "contract": "two sets"}), "fr")
'Donne 1 sur 7 : deux brelans'
>>> show_text(StatusLine("wild", {"card": 6, "ranks": 6}), "en")
'wild 7♣ (sevens wild)'
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache

from ..cards import face_of
from ..variants.show import StatusLine

SHOWS: dict[str, dict[str, str]] = {
    "en": {
        "contract": "Deal {n} of {deals}: {contract}",
        "wild": "wild {card} ({ranks} wild)",
        "count": "counts {n}",
        "count_after": "counts {n} after a discard",
        "deadwood": "deadwood {n}",
        "deadwood_after": "deadwood {n} after a discard",
        "key.knock": "knock (deadwood within the limit), or at the wall knock with the upcard",
        "key.pass": "pass: on the first upcard, at the wall, or when done laying melds and "
        "lay-offs",
        "key.lay_best": "after a knock: lay the melds (and lay-offs) that leave the least deadwood",
        "key.declare": "declare: every card in sequences and sets, with two sequences, one pure",
        "key.drop": "drop: leave the deal before drawing, for the drop's points",
        "key.buy": "buy the discard offered out of turn, with a penalty card from the stock",
        "key.decline": "pass: leave the discard offered out of turn",
    },
    "fr": {
        "contract": "Donne {n} sur {deals} : {contract}",
        "wild": "joker {card} (les {ranks} sont jokers)",
        "count": "compte {n}",
        "count_after": "compte {n} après la défausse",
        "deadwood": "isolées {n}",
        "deadwood_after": "isolées {n} après défausse",
        "key.knock": "frapper (cartes isolées dans la limite), ou au bout de la pioche "
        "frapper avec la carte retournée",
        "key.pass": "passer : sur la première carte retournée, au bout de la pioche, ou une "
        "fois combinaisons et ajouts posés",
        "key.lay_best": "après avoir frappé : poser les combinaisons (et ajouts) qui laissent "
        "le moins de cartes isolées",
        "key.declare": "déclarer : toutes les cartes en suites et brelans, dont deux suites, "
        "une pure",
        "key.drop": "abandonner : quitter la donne avant de piocher, pour les points de l'abandon",
        "key.buy": "acheter la défausse offerte hors tour, avec une carte de pénalité de la pioche",
        "key.decline": "passer : laisser la défausse offerte hors tour",
    },
}
"""Every code a family shows, by language."""

RANKS_PLURAL: dict[str, tuple[str, ...]] = {
    "en": ("aces", "twos", "threes", "fours", "fives", "sixes", "sevens", "eights",
           "nines", "tens", "jacks", "queens", "kings"),
    "fr": ("as", "deux", "trois", "quatre", "cinq", "six", "sept", "huit", "neuf", "dix",
           "valets", "dames", "rois"),
}  # fmt: skip
"""A rank in the plural (``sevens wild``), for a ``ranks`` parameter."""


def param_text(name: str, value: object, lang: str) -> str:
    """A parameter as :mod:`rummykit.variants.show` says to write it: a card id as its
    face, a rank by its name, a contract in words, anything else as it is."""
    from . import RANK_NAMES_FR, card_text
    from .engine_fr import CONTRACTS_FR

    if isinstance(value, bool) or not isinstance(value, int | str):
        return str(value)
    if name.endswith("card") and isinstance(value, int):
        return card_text(face_of(value), lang)
    if name == "ranks" and isinstance(value, int):
        return RANKS_PLURAL["fr" if lang == "fr" else "en"][value % 13]
    if name == "rank" and isinstance(value, int):
        from ..cards import RANK_NAMES

        return (RANK_NAMES_FR if lang == "fr" else RANK_NAMES)[value % 13]
    if name == "contract" and lang == "fr" and isinstance(value, str):
        return CONTRACTS_FR.get(value, value)
    return str(value)


def code_text(code: str, params: Mapping[str, object], lang: str) -> str:
    """The message ``code`` in ``lang``, its parameters written in: the English if the
    language lacks it, ``code (name=value, ...)`` if no catalog has it."""
    from . import elide

    template = SHOWS.get(lang, {}).get(code) or SHOWS["en"].get(code)
    values = {k: param_text(k, v, lang) for k, v in params.items()}
    if template is None:
        inside = ", ".join(f"{k}={v}" for k, v in values.items())
        return f"{code} ({inside})" if inside else code
    text = template.format(**values)
    return elide(text) if lang == "fr" else text


def show_text(line: StatusLine, lang: str) -> str:
    """A family's status line in ``lang``."""
    return code_text(line.code, line.params, lang)


def line_payload(line: StatusLine) -> dict[str, object]:
    """A status line for the web page: its code, parameters, whether it is about the
    player's own hand, and its text in both languages (the page shows the one in its
    own, unless its catalog words the code itself)."""
    en, fr = _both(line.code, tuple(line.params.items()))
    return {"code": line.code, "params": dict(line.params), "own": line.own, "text": en,
            "text_fr": fr}  # fmt: skip


@lru_cache(maxsize=1024)
def _both(code: str, params: tuple[tuple[str, object], ...]) -> tuple[str, str]:
    """A line's English and French (the same few lines come back on every move)."""
    values = dict(params)
    return code_text(code, values, "en"), code_text(code, values, "fr")


__all__ = ["RANKS_PLURAL", "SHOWS", "code_text", "line_payload", "param_text", "show_text"]

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

from collections.abc import Mapping, Sequence
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
        "knock_limit": "knock at {n}",
        "indian.take_or_drop": "draw from the stock (s) or take {card} (p), or drop (x) for "
        "{n} points",
        "indian.draw_or_drop": "draw from the stock (s), or drop (x) for {n} points",
        "gin.upcard": "take {card} (p) or pass (n)",
        "gin.both_passed": "both passed: draw from the stock (s)",
        "gin.wall_knock": "two stock cards left: knock with {card} (k) or pass (n, void hand)",
        "gin.wall_pass": "two stock cards left: pass (n); the hand is void",
        "gin.knock_discard": "discard (d) a card that leaves deadwood {limit} or less",
        "gin.lay_melds": "lay your melds (m, or b for the best ones), then n",
        "gin.lay_off": "lay off on {who}'s melds (l, or b for the best), then n",
        "gin.lay_melds_score": "lay your melds (m, or b for the best ones), then n to score",
        "gin.discard_or_knock": "discard (d), or knock (k): your deadwood can be {limit} or less",
        "gin.discard": "discard (d); knock (k) once your deadwood is {limit} or less",
        "indian.put_out": "you declared: select the card to put out and discard it (d)",
        "indian.discard_or_declare": "declare (k): your cards make two sequences, one pure; "
        "or discard (d)",
        "indian.discard": "discard (d); declare (k) once every card is in a meld",
        "contract.buy": "{who} drew from the stock: buy {card} with {n} penalty card(s) (b) or "
        "pass (n); {left} buy(s) left",
        "contract.going_down": "going down: lay the rest of {contract} (m)",
        "contract.go_down": "go down with {contract} (m), or discard (d)",
        "next.contract": "Next: deal {n} of {deals}, {contract}",
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
        "knock_limit": "frapper à {n}",
        "indian.take_or_drop": "piochez (s) ou prenez le {card} (p), ou abandonnez (x) pour "
        "{n} points",
        "indian.draw_or_drop": "piochez (s), ou abandonnez (x) pour {n} points",
        "gin.upcard": "prenez le {card} (p) ou passez (n)",
        "gin.both_passed": "tous deux ont passé : piochez (s)",
        "gin.wall_knock": "plus que deux cartes à piocher : frappez avec le {card} (k) ou "
        "passez (n, donne nulle)",
        "gin.wall_pass": "plus que deux cartes à piocher : passez (n) ; la donne est nulle",
        "gin.knock_discard": "défaussez (d) une carte qui laisse {limit} points isolés ou moins",
        "gin.lay_melds": "posez vos combinaisons (m, ou b pour les meilleures), puis n",
        "gin.lay_off": "ajoutez aux combinaisons de {who} (l, ou b pour le mieux), puis n",
        "gin.lay_melds_score": "posez vos combinaisons (m, ou b pour les meilleures), puis n "
        "pour compter",
        "gin.discard_or_knock": "défaussez (d), ou frappez (k) : vos cartes isolées peuvent "
        "faire {limit} ou moins",
        "gin.discard": "défaussez (d) ; frappez (k) dès que vos cartes isolées font {limit} "
        "ou moins",
        "indian.put_out": "vous avez déclaré : choisissez la carte à écarter et défaussez-la (d)",
        "indian.discard_or_declare": "déclarez (k) : vos cartes font deux suites, dont une "
        "pure ; ou défaussez (d)",
        "indian.discard": "défaussez (d) ; déclarez (k) quand toutes vos cartes sont en "
        "combinaisons",
        "contract.buy": "{who} a pioché : achetez {card} avec {n} carte(s) de pénalité (b) ou "
        "passez (n) ; achats restants : {left}",
        "contract.going_down": "descente : posez le reste du contrat, {contract} (m)",
        "contract.go_down": "descendez avec {contract} (m), ou défaussez (d)",
        "next.contract": "Ensuite : donne {n} sur {deals}, {contract}",
    },
}
"""Every code a family shows, by language.  ``next.<code>`` words a public status
line of the deal now starting, said ahead at the previous deal's end."""

RANKS_PLURAL: dict[str, tuple[str, ...]] = {
    "en": ("aces", "twos", "threes", "fours", "fives", "sixes", "sevens", "eights",
           "nines", "tens", "jacks", "queens", "kings"),
    "fr": ("as", "deux", "trois", "quatre", "cinq", "six", "sept", "huit", "neuf", "dix",
           "valets", "dames", "rois"),
}  # fmt: skip
"""A rank in the plural (``sevens wild``), for a ``ranks`` parameter."""


def param_text(name: str, value: object, lang: str, names: Sequence[str] = ()) -> str:
    """A parameter as :mod:`rummykit.variants.show` says to write it: a card id as its
    face, a rank by its name, a contract in words, a seat (``who``) by its name in
    ``names`` (the front end's), anything else as it is."""
    from . import RANK_NAMES_FR, card_text
    from .engine_fr import CONTRACTS_FR

    if isinstance(value, bool) or not isinstance(value, int | str):
        return str(value)
    if name == "who" and isinstance(value, int) and 0 <= value < len(names):
        return names[value]
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


def code_text(code: str, params: Mapping[str, object], lang: str, names: Sequence[str] = ()) -> str:
    """The message ``code`` in ``lang``, its parameters written in (a seat by its name
    in ``names``): the English if the language lacks it, ``code (name=value, ...)`` if
    no catalog has it."""
    from . import elide

    template = SHOWS.get(lang, {}).get(code) or SHOWS["en"].get(code)
    values = {k: param_text(k, v, lang, names) for k, v in params.items()}
    if template is None:
        inside = ", ".join(f"{k}={v}" for k, v in values.items())
        return f"{code} ({inside})" if inside else code
    text = template.format(**values)
    return elide(text) if lang == "fr" else text


def show_text(line: StatusLine, lang: str, names: Sequence[str] = ()) -> str:
    """A family's status line (or advice) in ``lang``, a seat by its name in ``names``."""
    return code_text(line.code, line.params, lang, names)


def line_payload(line: StatusLine) -> dict[str, object]:
    """A status line for the web page: its code, parameters, whether it is about the
    player's own hand, and its text in both languages (the page shows the one in its
    own, unless its catalog words the code itself); ``params_fr``, only if any, the
    parameters whose French words differ (a contract)."""
    en, fr, words = _both(line.code, tuple(line.params.items()))
    out = {"code": line.code, "params": dict(line.params), "own": line.own, "text": en,
           "text_fr": fr}  # fmt: skip
    if words:  # the parameters written in French words (a contract), for the page
        out["params_fr"] = dict(words)
    return out


@lru_cache(maxsize=1024)
def _both(
    code: str, params: tuple[tuple[str, object], ...]
) -> tuple[str, str, tuple[tuple[str, str], ...]]:
    """A line's English and French, and the words parameters whose French differs
    (the same few lines come back on every move)."""
    values = dict(params)
    words = tuple(
        (k, fr) for k, v in params if isinstance(v, str) and (fr := param_text(k, v, "fr")) != v
    )
    return code_text(code, values, "en"), code_text(code, values, "fr"), words


__all__ = ["RANKS_PLURAL", "SHOWS", "code_text", "line_payload", "param_text", "show_text"]

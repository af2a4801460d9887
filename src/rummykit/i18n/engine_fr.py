"""French for the texts the engine, the bots and the server make in English.

The engine raises :class:`~rummykit.errors.IllegalMoveError` with a stable ``rule``
code and an English sentence; it stays that way (the core knows no language).  This
module translates at the edge: for each rule code a list of ``(English pattern,
French template)`` pairs, the pattern's named groups filling the template, and a
plain French sentence (:data:`RULES`) for a message no pattern matches.  A test scans
the package for every rule code the engine can raise, so a new rule without French
fails it (tests/test_i18n.py).

The same is done for the server's protocol error codes, the hints' reasons, the
round-end lines and the score notes.  Nothing here does I/O.
"""

from __future__ import annotations

import re

from ..results import RoundEnd

Patterns = tuple[tuple[str, str], ...]

_N = r"(?P<n>-?\d+)"
_CARD = r"(?P<card>\S+)"

RULES: dict[str, str] = {
    # Rummikub (variants/rummikub.py)
    "tiles_turn": (
        "un tour de Rummikub pose des tuiles sur la table ou pioche une tuile : il n'y a "
        "pas de défausse"
    ),
    "pool_empty": "la pioche est vide : posez des tuiles ou passez",
    "turn_timer": "ces règles n'ont pas de minuteur de tour",
    "draw_not_pass": "qui ne pose rien pioche une tuile tant que la pioche en a",
    "unknown_arrangement": "ce n'est pas le code d'une disposition de la table",
    "table_tiles_stay": "toutes les tuiles de la table restent sur la table",
    "must_place_tile": "une pose place au moins une tuile du chevalet ; sinon, piochez",
    "tile_not_in_rack": "vous n'avez pas cette tuile sur votre chevalet",
    "joker_replacement": ("un joker ne change de place que remplacé par la tuile qu'il représente"),
    "first_meld_untouched": (
        "la première pose se fait avec vos propres tuiles : la table reste telle quelle jusque-là"
    ),
    "invalid_set": (
        "ce n'est pas une combinaison : une suite d'au moins trois nombres qui se suivent "
        "d'une couleur, ou un groupe de trois ou quatre couleurs d'un nombre"
    ),
    # the shared turn (state.py)
    "match_over": "la partie est finie",
    "draw_first": "un tour commence par piocher une carte",
    "one_draw_per_turn": "vous avez déjà pioché ce tour-ci",
    "knock_games_only": (
        "ces règles ne permettent ni de passer ni de frapper : un tour finit par une "
        "défausse, et une manche finit quand un joueur n'a plus de cartes"
    ),
    "unknown_move": "ce coup n'existe pas",
    "unknown_action": "ce numéro d'action n'existe pas",
    "not_listed": "ce numéro d'action ne nomme pas un coup permis maintenant",
    "pending_card_must_be_used": (
        "la carte que vous venez de prendre doit d'abord servir dans une combinaison"
    ),
    "card_not_in_hand": "vous n'avez pas cette carte",
    "opening_minimum": "votre ouverture n'atteint pas le minimum de points",
    "no_discard_of_taken_card": (
        "vous ne pouvez pas rejeter ce tour-ci la carte prise à la défausse"
    ),
    "unknown_meld": "cette combinaison n'existe pas",
    "one_meld_per_turn": "une seule combinaison par tour",
    "no_such_meld": "cette combinaison n'est pas sur la table",
    "layoff_after_own_meld": (
        "vous ne pouvez ajouter de cartes qu'après avoir posé une combinaison à vous"
    ),
    "invalid_layoff": "cette carte ne prolonge pas cette combinaison",
    "jokers_per_meld": "trop de jokers dans cette combinaison",
    "joker_swap": "ces règles ne permettent pas d'échanger les jokers",
    "joker_to_end": (
        "seul un joker au milieu d'une suite passe à un bout, contre la carte qu'il "
        "remplace (Parlett)"
    ),
    "closed_set": (
        "un brelan de quatre cartes qui contient un joker est fermé : son joker n'est "
        "jamais libéré (Kalooki)"
    ),
    "set_joker_both_suits": (
        "le joker d'un brelan de trois cartes n'est libéré qu'en donnant à la fois les deux "
        "couleurs manquantes (Kalooki)"
    ),
    "swap_after_opening": "vous ne pouvez échanger un joker qu'après avoir ouvert",
    "invalid_swap": "aucun joker de cette combinaison ne remplace cette carte",
    "swapped_joker_must_meld": (
        "le joker libéré doit servir ce tour-ci dans une nouvelle combinaison, et c'est impossible"
    ),
    "take_from_meld": (
        "ces règles ne permettent pas de prendre une carte dans une combinaison posée"
    ),
    "take_after_opening": ("vous ne pouvez prendre dans une combinaison qu'après avoir ouvert"),
    "take_from_meld_size": (
        "vous ne pouvez prendre que dans une combinaison de plus de trois cartes"
    ),
    "take_leaves_invalid_meld": "ce qui reste de la combinaison doit rester valable",
    "taken_card_must_meld": (
        "une carte prise dans une combinaison doit aussitôt servir dans une nouvelle "
        "combinaison, et celle-ci ne le peut pas"
    ),
    "stock_empty": "la pioche est vide et ne peut pas être reconstituée",
    "discard_empty": "la défausse est vide",
    "discard_pickup_must_use": (
        "une carte prise à la défausse doit aussitôt être posée ou ajoutée à une "
        "combinaison, et celle-ci ne peut pas l'être"
    ),
    "final_discard": "pour finir, vous devez garder une carte à défausser",
    "must_end_with_discard": (
        "après ce coup, vous ne pourriez plus finir le tour par une défausse permise"
    ),
    # 500 Rum (variants/rum500.py, variants/base.py)
    "deep_discard": "ces règles ne laissent prendre que la carte du dessus de la défausse",
    "deep_discard_must_use": (
        "une carte prise plus bas dans la défausse vient avec toutes celles qui la "
        "couvrent et doit aussitôt être posée ou ajoutée, et celle-ci ne peut pas l'être"
    ),
    # Gin (variants/gin.py)
    "discard_or_knock": (
        "après la pioche, défaussez une carte ou frappez (k) ; les combinaisons ne se "
        "posent qu'à la fin de la donne"
    ),
    "knocker_discards": (
        "vous avez frappé : défaussez d'abord une carte, puis posez vos combinaisons"
    ),
    "knocker_lays_melds": "vous avez frappé : posez vos combinaisons (m), puis passez (n)",
    "defender_lays_off": (
        "votre adversaire a frappé : ajoutez vos cartes à ses combinaisons, puis passez "
        "(n) ; vos propres combinaisons viennent ensuite"
    ),
    "defender_lays_melds": (
        "vos ajouts sont faits : posez vos propres combinaisons, puis passez (n)"
    ),
    "wall_knock_or_pass": (
        "la pioche est presque vide : frappez (k) avec la carte retournée, ou passez (n), "
        "ce qui annule la donne"
    ),
    "knock_limit": "vos cartes isolées dépassent la limite pour frapper",
    # the first upcard (variants/upcard.py)
    "upcard_passed": "la carte retournée a été refusée : piochez",
    "first_upcard": "la carte retournée est d'abord proposée : prenez-la ou passez (n)",
    # the web page's own checks (web/protocol.py)
    "not_a_meld": "ces cartes ne forment pas une combinaison permise par ces règles",
    "no_such_card": "cette combinaison n'a pas cette carte",
    "take_joker": "on ne prend pas un joker dans une combinaison : échangez-le",
    # Indian Rummy's declaration and drops (variants/indian.py)
    "drop_before_draw": "on ne peut abandonner qu'avant de piocher, au début d'un tour",
    "discard_or_declare": (
        "après la pioche, défaussez une carte ou déclarez (k) ; les combinaisons ne se "
        "montrent qu'à la déclaration"
    ),
    "declare_discard": (
        "vous avez déclaré : écartez votre carte en trop (défaussez-la) ; les 13 autres "
        "forment votre déclaration"
    ),
    "invalid_declaration": (
        "vous ne pouvez pas déclarer : aucune carte écartée ne laisse 13 cartes toutes en "
        "combinaisons avec deux suites, dont une pure"
    ),
    # Contract Rummy's contracts and buying (variants/contract.py)
    "contract": (
        "on ne descend qu'avec exactement le contrat de la donne, posé en un seul tour "
        "(Contract Rummy)"
    ),
    "contract_down": (
        "une fois descendu avec le contrat, on ne pose plus de combinaison, seulement des "
        "ajouts (Contract Rummy)"
    ),
    "contract_joined_runs": (
        "deux suites de la même couleur qui se prolongent bout à bout, comme 6-7-8-9 et "
        "10-V-D-R, ne peuvent pas faire partie toutes deux de la descente (Contract Rummy)"
    ),
    "contract_before_layoff": (
        "on n'ajoute qu'après être descendu avec le contrat de la donne (Contract Rummy)"
    ),
    "layoff_wait": (
        "vous êtes descendu ce tour-ci : ajoutez à partir du tour suivant (règle maison)"
    ),
    "last_deal_no_discard": (
        "à la dernière donne on ne sort pas en défaussant : posez ou ajoutez vos dernières "
        "cartes (règle maison)"
    ),
    "buy_or_pass": (
        "la défausse est proposée hors tour : achetez-la ou passez, puis le joueur dont "
        "c'est le tour continue (Contract Rummy)"
    ),
    "buy_when_offered": (
        "on n'achète la défausse que quand elle est proposée : après que le joueur dont "
        "c'est le tour a pioché, à chaque autre joueur qui a encore des achats "
        "(Contract Rummy)"
    ),
    # why a kind of move is refused now (bots/explain.py: a greyed button's reason)
    "no_meld_in_hand": "vos cartes ne forment aucune combinaison",
    "no_table_meld": "il n'y a encore aucune combinaison sur la table",
    "no_layoff_fits": "aucune de vos cartes ne prolonge une combinaison de la table",
    "no_table_joker": "il n'y a aucun joker à échanger sur la table",
    "no_swap_card": "vous n'avez aucune carte que remplace un joker de la table",
}
"""A French sentence for every rule code: the text of a message no pattern matches."""

_EVERYONE = {"both players": "les deux joueurs", "every player": "tous les joueurs"}

PATTERNS: dict[str, Patterns] = {
    "pending_card_must_be_used": (
        (
            r"the card you just took must be used in a meld first.*",
            RULES["pending_card_must_be_used"],
        ),
        (
            rf"use {_CARD} in a new meld first",
            "posez d'abord le {card} dans une nouvelle combinaison",
        ),
        (
            rf"use {_CARD} in a meld or a lay-off first",
            "posez d'abord le {card} dans une combinaison, ou ajoutez-le à l'une d'elles",
        ),
    ),
    "draw_first": (
        (r"a turn starts by drawing a card.*", RULES["draw_first"]),
        (
            r"the upcard was passed: draw from the stock first",
            "la carte retournée a été refusée : piochez d'abord",
        ),
        (
            r"the hand starts with the first upcard: take it or pass first",
            "la donne commence par la carte retournée : prenez-la ou passez d'abord",
        ),
    ),
    "unknown_move": ((r"not a move: (?P<what>.*)", "ce coup n'existe pas : {what}"),),
    "unknown_action": (
        (r"not an action number: (?P<what>.*)", "ce numéro d'action n'existe pas : {what}"),
        (
            r"action (?P<n>-?\d+) outside 0\.\.(?P<m>\d+)",
            "ce numéro d'action n'existe pas : {n} (les actions vont de 0 à {m})",
        ),
    ),
    "not_listed": (
        (
            r"action (?P<n>\d+) \(.*\) is not legal now",
            "l'action {n} ne nomme pas un coup permis maintenant",
        ),
    ),
    "card_not_in_hand": (
        (r"you do not hold that card", RULES["card_not_in_hand"]),
        (
            r"you do not hold the cards of that meld",
            "vous n'avez pas les cartes de cette combinaison",
        ),
        (r"you hold no joker", "vous n'avez pas de joker"),
    ),
    "table_tiles_stay": (
        (
            rf"the table's {_CARD} is not in the new arrangement.*",
            "le {card} de la table manque à la nouvelle disposition : toutes les tuiles de "
            "la table restent sur la table",
        ),
    ),
    "invalid_set": (
        (
            r"(?P<tiles>.+?) is not a set of tiles",
            "{tiles} n'est pas une combinaison de tuiles",
        ),
        (
            r"(?P<tiles>.+?) is not a set: a run of three.*",
            "{tiles} n'est pas une combinaison : une suite d'au moins trois nombres qui se "
            "suivent d'une couleur, ou un groupe de trois ou quatre couleurs d'un nombre",
        ),
    ),
    "tile_not_in_rack": (
        (
            rf"you have no {_CARD} on your rack to place",
            "vous n'avez pas de {card} sur votre chevalet",
        ),
    ),
    "opening_minimum": (
        (
            rf"a first meld is worth at least {_N} points \(this one (?P<v>-?\d+)\).*",
            "une première pose vaut au moins {n} points (celle-ci {v})",
        ),
        (
            rf"your opening melds must total {_N} points first.*",
            "vos combinaisons d'ouverture doivent d'abord totaliser {n} points",
        ),
        (
            rf"an opening must total at least {_N} points.*",
            "une ouverture doit totaliser au moins {n} points",
        ),
        (
            rf"the opening could not reach {_N} points after this",
            "après ce coup, l'ouverture ne pourrait plus atteindre {n} points",
        ),
    ),
    "no_such_meld": (
        (
            rf"there is no table meld number {_N} \(the table has (?P<m>\d+)\)",
            "il n'y a pas de combinaison numéro {n} sur la table (elle en a {m})",
        ),
        (rf"there is no table meld number {_N}", "il n'y a pas de combinaison numéro {n}"),
    ),
    "invalid_layoff": (
        (r"that card does not extend this meld", RULES["invalid_layoff"]),
        (r"the meld would not be valid", "la combinaison ne serait plus valable"),
    ),
    "jokers_per_meld": (
        (
            rf"a meld may hold at most {_N} joker\(s\).*",
            "une combinaison ne peut contenir que {n} joker(s) au plus",
        ),
    ),
    "invalid_swap": (
        (r"no joker in that meld stands for that card", RULES["invalid_swap"]),
        (r"give a natural card for the joker", "donnez une carte naturelle pour le joker"),
    ),
    "wall_knock_or_pass": (
        (
            rf"only {_N} cards are left in the stock: .*",
            "il ne reste que {n} cartes dans la pioche : frappez (k) avec la carte "
            "retournée, ou passez (n), ce qui annule la donne",
        ),
    ),
    "knock_limit": (
        (
            rf"discarding {_CARD} leaves deadwood (?P<left>\d+), above the knock limit "
            rf"(?P<limit>\d+)",
            "défausser {card} laisse {left} points isolés, plus que la limite pour "
            "frapper ({limit})",
        ),
        (
            rf"the cards left count {_N}, above the knock limit (?P<limit>\d+): lay your "
            r"melds first",
            "les cartes restantes comptent {n}, plus que la limite pour frapper "
            "({limit}) : posez d'abord vos combinaisons",
        ),
        (
            r"that meld is in no arrangement of your cards within the knock limit "
            r"(?P<limit>\d+)",
            "cette combinaison n'entre dans aucun arrangement de vos cartes qui tienne "
            "dans la limite pour frapper ({limit})",
        ),
        (
            r"you cannot knock now: your deadwood is (?P<d>\d+) and the knock limit is "
            r"(?P<limit>\d+)(?P<gin> \(gin only\))?",
            "vous ne pouvez pas frapper maintenant : vos cartes isolées font {d} et la "
            "limite pour frapper est {limit}{gin}",
        ),
    ),
    "upcard_passed": (
        (
            r"the upcard was passed by (?P<everyone>.+): draw from the stock",
            "la carte retournée a été refusée par {everyone} : piochez",
        ),
    ),
    "first_upcard": (
        (
            r"the first upcard is offered to (?P<everyone>.+) first: take it or pass \(n\)",
            "la carte retournée est d'abord proposée à {everyone} : prenez-la ou passez (n)",
        ),
    ),
    "contract": (
        (
            r"this deal's contract is (?P<contract>.+): you may go down only with exactly "
            r"those melds \(Contract Rummy\)",
            "le contrat de cette donne est {contract} : on ne descend qu'avec exactement ces "
            "combinaisons (Contract Rummy)",
        ),
        (
            r"after this you could not lay the rest of this deal's contract and still end "
            r"the turn \(Contract Rummy\)",
            "après ce coup vous ne pourriez plus poser le reste du contrat de la donne et "
            "finir le tour (Contract Rummy)",
        ),
        (
            r"lay the whole contract before you discard: .*",
            "posez tout le contrat avant de défausser : on descend en un seul tour "
            "(Contract Rummy)",
        ),
    ),
    "buy_or_pass": (
        (r"buy the discard or pass", "achetez la défausse ou passez"),
        (
            r"(?P<who>.+) is offered the discard out of turn: buy it or pass, then the "
            r"player in turn plays on \(Contract Rummy\)",
            "la défausse est proposée hors tour à {who} : achat ou passe, puis le joueur "
            "dont c'est le tour continue (Contract Rummy)",
        ),
    ),
    "invalid_declaration": (
        (r"you cannot declare: .*", RULES["invalid_declaration"]),
        (
            r"without (?P<card>\S+) the other 13 cards are not all in melds with two "
            r"sequences, one of them pure",
            "sans le {card}, les 13 autres cartes ne sont pas toutes en combinaisons avec "
            "deux suites, dont une pure",
        ),
    ),
}
"""The messages with parameters (or several per rule code), as pattern and template."""


def _contracts_fr() -> dict[str, str]:
    """Contract Rummy's contracts as ``variants.contract.describe`` words them, in
    French: ``two sets and a run`` is *deux brelans et une suite*."""
    en = ("no", "a", "two", "three", "four")
    sets_fr = ("", "un brelan", "deux brelans", "trois brelans", "quatre brelans")
    runs_fr = ("", "une suite", "deux suites", "trois suites", "quatre suites")
    out = {}
    for sets in range(5):
        for runs in range(5):
            if sets or runs:
                parts_en = [f"{en[sets]} set{'s' if sets > 1 else ''}"] if sets else []
                parts_en += [f"{en[runs]} run{'s' if runs > 1 else ''}"] if runs else []
                parts_fr = [x for x in (sets_fr[sets], runs_fr[runs]) if x]
                out[" and ".join(parts_en)] = " et ".join(parts_fr)
    return out


CONTRACTS_FR = _contracts_fr()
"""Each contract's words in French, keyed by the English."""

_GROUP_WORDS = {" (gin only)": " (gin seulement)", **_EVERYONE, **CONTRACTS_FR}

PROTOCOL: dict[str, str] = {
    "already_joined": "cette connexion s'est déjà présentée",
    "bad_json": "ce message n'est pas du JSON valable",
    "bad_message": "un message est un objet JSON avec un « type »",
    "bad_secret": "le lien d'invitation de cette place n'est pas valable",
    "busy": "une demande est déjà en cours ; réessayez bientôt",
    "chat_closed": "les spectateurs ne peuvent pas discuter à cette table",
    "empty_chat": "rien à envoyer",
    "hello_first": "envoyez d'abord « hello »",
    "invalid_message": "message mal formé",
    "no_hint": "un conseil se demande pendant votre tour, sur la position actuelle",
    "not_finished": "cette manche n'est pas finie",
    "not_found": "cette table n'existe pas",
    "not_over": "une revanche commence une fois la partie finie",
    "not_your_seat": "vous ne pouvez revoir que votre propre place",
    "not_your_turn": "ce n'est pas votre tour",
    "rated_needs_account": "connectez-vous pour jouer à une table classée",
    "notation": "ce coup est mal écrit",
    "rate_limited": "trop de messages ; ralentissez",
    "replaced": "cette place a été ouverte dans une autre fenêtre",
    "review_failed": "la revue n'a pas pu être faite",
    "spectator": (
        "les spectateurs ne peuvent pas jouer ; utilisez le lien d'invitation d'une place"
    ),
    "spectators_full": "trop de spectateurs à cette table",
    "stale": "la partie a avancé ; réessayez",
    "table_failed": "cette table a rencontré une erreur",
    "too_large": "message trop long",
    "unavailable": "le serveur de cette table ne répond pas ; réessayez",
    "unknown_type": "type de message inconnu",
    "origin": "cette page n'a pas le droit de se connecter ici",
    "server_full": "le serveur est plein ; réessayez plus tard",
    "expired": "cette table a expiré",
}
"""The server's own error codes (docs/protocol.md), one French sentence each."""

PROTOCOL_PATTERNS: dict[str, Patterns] = {
    "busy": (
        (r"a hint is already being worked out", "un conseil est déjà en préparation"),
        (r"a review is already being worked out", "une revue est déjà en préparation"),
        (
            r"the server is reviewing other rounds; try again soon",
            "le serveur fait la revue d'autres manches ; réessayez bientôt",
        ),
    ),
    "invalid_message": (
        (
            r"a deep draw takes 'count' cards, 2 or more",
            "une prise dans la défausse demande « count », 2 cartes ou plus",
        ),
        (r"a meld needs distinct cards", "une combinaison demande des cartes distinctes"),
        (r"this move needs a card", "ce coup demande une carte"),
        (r"a text move needs 'text'", "un coup écrit demande « text »"),
        (
            r"this move needs a table meld \('meld'\)",
            "ce coup demande une combinaison de la table (« meld »)",
        ),
    ),
    "not_finished": ((rf"round {_N} is not finished", "la manche {n} n'est pas finie"),),
    # a Rummikub play's set that is no set (notation.py), named as it was written
    "notation": (
        (
            r"'(?P<cards>[^']+)' is not a set \[rule: invalid_set\]",
            "{cards} n'est pas une combinaison : " + RULES["invalid_set"].split(" : ", 1)[1],
        ),
    ),
    "rate_limited": (
        (
            r"too many chat lines; wait a few seconds",
            "trop de messages de discussion ; attendez quelques secondes",
        ),
        (r"too many messages; disconnected", "trop de messages ; connexion coupée"),
        (r"too many messages; slow down", "trop de messages ; ralentissez"),
        (
            rf"too many reviews; try again in {_N} s",
            "trop de revues ; réessayez dans {n} s",
        ),
        (
            rf"too many hints; try again in {_N} s",
            "trop de conseils ; réessayez dans {n} s",
        ),
    ),
    "stale": (
        (rf"the game is at version {_N}", "la partie en est à la version {n}"),
        (
            rf"that move was based on version (?P<v>\d*); the game is at {_N}",
            "ce coup partait de la version {v} ; la partie en est à la version {n}",
        ),
        (r"the table moved on; try again", "la partie a avancé ; réessayez"),
        (r"another process plays this table now", "un autre serveur tient cette table"),
    ),
}


def match(patterns: Patterns, text: str) -> str | None:
    """The French of ``text`` by the first pattern that matches it whole, else None."""
    for pattern, template in patterns:
        m = re.fullmatch(pattern, text)
        if m is not None:
            groups = {k: _GROUP_WORDS.get(v, v) if v else "" for k, v in m.groupdict().items()}
            return template.format(**groups)
    return None


def error_fr(code: str, message: str) -> str | None:
    """The French of an error: a rule code or a protocol code and its English message;
    None for a code this catalog does not know."""
    if code in RULES:
        return match(PATTERNS.get(code, ()), message) or RULES[code]
    if code in PROTOCOL:
        return match(PROTOCOL_PATTERNS.get(code, ()), message) or PROTOCOL[code]
    return None


# -- hints (bots/hints.py) ------------------------------------------------------------------
_CARDS = r"(?P<cards>.+?)"

HINT_HEADS: Patterns = (
    (
        rf"take {_CARD} and the 1 card\(s\) above it",
        "prenez le {card} et la carte au-dessus",
    ),
    (
        rf"take {_CARD} and the {_N} card\(s\) above it",
        "prenez le {card} et les {n} carte(s) au-dessus",
    ),
    (rf"take {_CARD}", "prenez le {card}"),
    (r"draw from the stock", "piochez"),
    (r"draw a tile", "piochez une tuile"),
    (rf"meld {_CARDS}", "posez {cards}"),
    (rf"play {_CARDS}", "posez {cards}"),
    (rf"lay off {_CARD} on meld {_N}", "ajoutez le {card} à la combinaison {n}"),
    (
        rf"swap {_CARD} for the joker in meld {_N}",
        "échangez le {card} contre le joker de la combinaison {n}",
    ),
    (rf"discard {_CARD}", "défaussez le {card}"),
    (r"knock", "frappez"),
    (r"pass", "passez"),
)

_CHANGE: Patterns = (
    (
        r"lowers your deadwood from (?P<a>\d+) to (?P<b>\d+)",
        "vos cartes isolées passent de {a} à {b} points",
    ),
    (
        r"raises your deadwood from (?P<a>\d+) to (?P<b>\d+)",
        "vos cartes isolées montent de {a} à {b} points",
    ),
    (r"keeps your deadwood at (?P<a>\d+)", "vos cartes isolées restent à {a} points"),
)

HINT_TAILS: Patterns = (
    (r"the discard pile is empty", "la défausse est vide"),
    # Rummikub (bots/rummikub.py)
    (r"one more tile on your rack", "une tuile de plus sur votre chevalet"),
    (
        r"no play places a tile from your rack",
        "aucune pose ne place de tuile de votre chevalet",
    ),
    (
        r"the pool is empty and no play places a tile from your rack",
        "la pioche est vide et aucune pose ne place de tuile de votre chevalet",
    ),
    (r"(?P<p>\d+) points off your rack", "{p} points de moins sur votre chevalet"),
    (
        rf"{_CARD} on the discard pile does not help your hand",
        "le {card} de la défausse n'aide pas votre main",
    ),
    (
        r"0 of the (?P<m>\d+) unseen cards would meld with your hand",
        "aucune des {m} cartes encore cachées n'irait dans une combinaison de votre main",
    ),
    (
        r"1 of the (?P<m>\d+) unseen cards would meld with your hand",
        "une des {m} cartes encore cachées irait dans une combinaison de votre main",
    ),
    (
        r"(?P<n>\d+) of the (?P<m>\d+) unseen cards would meld with your hand",
        "{n} des {m} cartes encore cachées iraient dans une combinaison de votre main",
    ),
    (r"it goes out", "vous terminez la manche"),
    (
        r"(?P<p>\d+) points off your hand, (?P<a>\d+) left in deadwood",
        "{p} points de moins en main, {a} en cartes isolées",
    ),
    (r"one card fewer in your hand", "une carte de moins en main"),
    (r"a joker fits anywhere", "un joker va partout"),
    (
        r"(?P<n>\d+) points of your hand would then be in melds",
        "{n} points de votre main iraient alors en combinaisons",
    ),
    (rf"it completes a meld \({_CARDS}\)", "il complète une combinaison ({cards})"),
    (
        rf"it makes a pair with {_CARD} \(1 cards can complete it\)",
        "il forme une paire avec le {card} (1 carte peut la compléter)",
    ),
    (
        rf"it makes a run draw with {_CARD} \(1 cards can complete it\)",
        "il prépare une suite avec le {card} (1 carte peut la compléter)",
    ),
    (
        rf"it makes a pair with {_CARD} \((?P<n>\d+) cards can complete it\)",
        "il forme une paire avec le {card} ({n} cartes peuvent la compléter)",
    ),
    (
        rf"it makes a run draw with {_CARD} \((?P<n>\d+) cards can complete it\)",
        "il prépare une suite avec le {card} ({n} cartes peuvent la compléter)",
    ),
    (
        r"it raises your outs from (?P<a>\d+) to (?P<b>\d+)",
        "vos cartes utiles passent de {a} à {b}",
    ),
    (r"it keeps (?P<a>\d+) outs", "vos cartes utiles restent à {a}"),
    (r"it completes nothing", "il ne complète rien"),
    (
        r"it raises your deadwood least, from (?P<a>\d+) to (?P<b>\d+)",
        "c'est lui qui alourdit le moins vos cartes isolées, de {a} à {b} points",
    ),
    *_CHANGE,
    (rf"{_CARD} does not meld with your cards", "le {card} ne va avec aucune de vos cartes"),
    (r"you cannot knock, so the hand is void", "vous ne pouvez pas frapper : la donne est nulle"),
    (r"the hand ends void, with no knock", "la donne finit nulle, sans frapper"),
    (
        r"none of your loose cards fits the knocker's melds",
        "aucune de vos cartes isolées ne va sur les combinaisons de celui qui a frappé",
    ),
    (r"end your lay-offs here", "vos ajouts s'arrêtent là"),
    (r"nothing more to lay down", "plus rien à poser"),
    (
        r"your deadwood is within the limit, end the hand now",
        "vos cartes isolées sont dans la limite : finissez la donne maintenant",
    ),
)

HINT_WHOLE: Patterns = (
    (
        rf"take from meld {_N} to build a new meld",
        "prenez dans la combinaison {n} pour en former une nouvelle",
    ),
    (r"the strongest move found", "le meilleur coup trouvé"),
)

_PASSED = {"aces": "as", "kings": "rois", "queens": "dames", "jacks": "valets"}

HINT_MORE: Patterns = (
    (
        r"and nobody took the (?P<rank>\w+) thrown before",
        "et personne n'a pris les {rank} jetés avant",
    ),
    (r"and it fits no meld on the table", "et il ne va sur aucune combinaison de la table"),
)


def hint_fr(reason: str) -> str | None:
    """The French of a hint's reason (``head: why``), or None if some part is unknown."""
    whole = match(HINT_WHOLE, reason)
    if whole is not None:
        return whole
    head, sep, tail = reason.partition(": ")
    if not sep:
        return None
    head_fr = match(HINT_HEADS, head)
    if head_fr is None:
        return None
    tail_fr = match(HINT_TAILS, tail)
    if tail_fr is None:
        why, _, more = tail.partition(" and ")
        why_fr, more_fr = match(HINT_TAILS, why), _more_fr("and " + more)
        if why_fr is None or more_fr is None:
            return None
        tail_fr = f"{why_fr} {more_fr}"
    return f"{head_fr} : {tail_fr}"


def _more_fr(more: str) -> str | None:
    m = re.fullmatch(r"and nobody took the (?P<rank>\w+) thrown before", more)
    if m is not None:
        rank = m["rank"]
        return f"et personne n'a pris les {_PASSED.get(rank, rank.rstrip('s'))} jetés avant"
    return match(HINT_MORE, more)


# -- the end of a round (scoring.describe_round, the score notes) -----------------------------
NOTES: Patterns = (
    (r"lowest hand of a blocked round", "main la plus faible d'une manche bloquée"),
    (r"rummy: score doubled", "rami : score doublé"),
    (r"rummy: \+10", "rami : +10"),
    (r"opponent went rummy: doubled", "un adversaire a fait rami : doublé"),
    (r"opponent went rummy: \+10", "un adversaire a fait rami : +10"),
    (rf"never melded: \+{_N}", "n'a jamais posé : +{n}"),
    (
        r"out in one turn before anyone melded: (?P<n>[+-]\d+)",
        "fini en un tour avant que personne n'ait posé : {n}",
    ),
    (rf"gin: \+{_N}", "gin : +{n}"),
    (rf"undercut: \+{_N}", "contre : +{n}"),
    (rf"cards in hand -{_N}", "cartes en main -{n}"),
    (rf"melds \+{_N}", "combinaisons posées +{n}"),
    (rf"line bonus: {_N} x (?P<each>\d+)", "bonus de ligne : {n} × {each}"),
    (rf"game bonus: \+{_N}", "bonus de partie : +{n}"),
    (rf"shutout: doubled, \+{_N}", "blanchissage : doublé, +{n}"),
    (rf"wrong show: {_N}", "déclaration fausse : {n}"),
)


def note_fr(note: str) -> str:
    """A score note in French (the English note if it is not in the catalog)."""
    return match(NOTES, note) or note


# -- rules that cannot be played (rummykit.rules: RulesError, no codes) ----------------------
RULES_SPEC: Patterns = (
    (
        r"(?P<name>\S+) is for exactly (?P<lo>\d+) players, not (?P<n>\d+)",
        "{name} se joue à {lo} joueurs exactement, pas {n}",
    ),
    (
        r"(?P<name>\S+) is for (?P<lo>\d+) to (?P<hi>\d+) players, not (?P<n>\d+)",
        "{name} se joue de {lo} à {hi} joueurs, pas {n}",
    ),
    (
        r"(?P<name>\w+) must be an integer from (?P<lo>-?\d+) to (?P<hi>-?\d+), not (?P<v>.+)",
        "{name} doit être un nombre entier de {lo} à {hi}, pas {v}",
    ),
)
"""The rules errors a person can meet in the terminal game (a player count, a number
out of its range); the others name options and stay in English."""

BLOCKED: dict[RoundEnd, str] = {
    RoundEnd.RESTOCK_LIMIT: "la pioche a été refaite trop souvent",
    RoundEnd.TURN_LIMIT: "la limite de tours est atteinte",
    RoundEnd.NO_DRAW: "personne ne pouvait piocher",
}

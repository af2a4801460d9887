"""The French catalog of the rules summary: every code of
:func:`rummykit.rulebook.rules_lines` in Rami's words (combinaison, suite,
brelan/carré, poser, piocher, la pioche, la défausse).  The options are read once, by
``rules_lines``; this only words its sentences.  No I/O."""

from __future__ import annotations

from collections.abc import Sequence

from ..rulebook import Params, Wording
from .engine_fr import CONTRACTS_FR

SOURCES_FR: dict[str, str] = {
    "basic": "seed 001 « Rules For Rummy », règles standard ; chaque variante est une option",
    "classic": "seed 000, les règles classiques à points de pénalité",
    "cg101": "seed 002 « Card Game 101 #4: Rummy », en 150 points, le rami doublé",
    "rami51": "seed 003, le Rami français à deux jeux, avec jokers et ouverture de 51 points",
    "gin": "le Gin Rummy d'OpenSpiel (règles GRA) : frapper à 10, gin 25, contre 25",
    "gin_match": "une partie de Gin Rummy en 100 points, avec primes de partie, de ligne "
    "et de blanchissage",
    "rum500": "500 Rum (HowStuffWorks « How to Play 500 Rum »), de deux à quatre joueurs, "
    "en 500 points",
    "rum500_big": "500 Rum de cinq à huit joueurs avec deux jeux (même référence)",
    "kalooki": "Kalooki 40 (Ludopoli « Kalooki 40 Rules ») : deux jeux, quatre jokers, "
    "ouverture à 40",
    "kalooki_big": "Kalooki 40 de cinq ou six joueurs avec trois jeux (Wikipédia « Kalooki »)",
    "indian": "Indian Rummy à 13 cartes, aux points (RummyCulture, Playship) : joker coupé, "
    "abandons, plafond de 80",
    "indian_pool101": "Indian Rummy en pool 101 (Playship « Pool Rummy ») : éliminé à 101, "
    "abandons à 20 et 40",
    "indian_pool201": "Indian Rummy en pool 201 (Playship « Pool Rummy ») : éliminé à 201, "
    "abandons à 25 et 50",
    "indian_deals": "Indian Rummy en donnes : deux donnes, le plus petit total gagne "
    "(Playship « Indian Rummy »)",
    "contract": "Contract Rummy / Shanghai (Bicycle Cards, Wikipedia) : 7 contrats, achats",
    "contract_big": "Contract Rummy de cinq à huit joueurs avec trois jeux (Bicycle Cards)",
    "rummikub": "Rummikub (rummikub.org « Game Play ») : 106 tuiles, 14 chacun, première "
    "pose de 30",
}
""":data:`rummykit.rules.PRESET_SOURCES` in French (a test checks every preset has one)."""


def count_fr(n: int, noun: str, plural: str | None = None) -> str:
    """``n`` and the noun, singular for 0 and 1 as French counts."""
    return f"{n} {noun}" if abs(n) < 2 else f"{n} {plural or noun + 's'}"


def join_fr(clauses: Sequence[str]) -> str:
    if len(clauses) <= 1:
        return "".join(clauses)
    return ", ".join(clauses[:-1]) + " et " + clauses[-1]


def _cards(p: Params) -> str:
    decks = ("un jeu de 52 cartes", "deux jeux de 52 cartes", "trois jeux de 52 cartes")[
        p["decks"] - 1
    ]
    if p["jokers"]:
        decks += f" avec {count_fr(p['jokers'], 'joker')} chacun"
    size = (
        f"{p['hand_size']} cartes chacun"
        if p["hand_size"] is not None
        else "10 cartes chacun à 2 joueurs, 7 à 3-4, 6 à 5-6"
    )
    if p["deal_sizes"]:
        sizes = [str(n) for n in p["deal_sizes"]]
        size = f"{join_fr(sizes)} cartes chacun aux donnes 1 à {len(sizes)}"
    return f"Cartes : {decks} ; {size}."


def _melds(p: Params) -> str:
    sets = "brelans et carrés : 3-4 cartes de même valeur de couleurs différentes"
    if p["sets"] == "any":
        sets = "brelans et carrés : 3 cartes ou plus de même valeur (couleurs répétables)"
    ace = {
        "low": "l'as est bas seulement (A-2-3, pas D-R-A)",
        "high": "l'as est haut seulement (D-R-A, pas A-2-3)",
    }.get(p["ace"], "l'as est haut ou bas (A-2-3 ou D-R-A, jamais R-A-2)")
    return (
        f"Combinaisons : {sets} ; suites de {p['min_run']} cartes ou plus de la même "
        f"couleur ; {ace}."
    )


def _turn(melds: str) -> str:
    return (
        f"Tour : piocher ou prendre la carte du dessus de la défausse, {melds}, ajouter des "
        "cartes à n'importe quelle combinaison, défausser une carte pour finir le tour."
    )


def _opening(p: Params) -> str:
    scope = (
        "Les combinaisons d'ouverture de chaque joueur doivent"
        if p["each"]
        else "La première ouverture de la manche doit"
    )
    pure = " et comprendre une suite sans joker" if p["pure"] else ""
    return f"{scope} totaliser {p['minimum']} points{pure} (as 1 en bas ou 11, figures 10)."


def _points(p: Params) -> str:
    joker = f", jokers {p['joker']}" if p["joker"] is not None else ""
    return f"as {p['ace']}, figures 10{joker}"


def _gin_bonuses(p: Params) -> str:
    extras = []
    if p["game"]:
        extras.append(f"le gagnant ajoute {p['game']}")
    if p["line"]:
        extras.append(f"chaque joueur ajoute {p['line']} par donne gagnée")
    if p["shutout"]:
        extras.append("un blanchissage double le total du gagnant")
    return "À la fin, " + join_fr(extras) + "."


RULES_FR: dict[str, Wording] = {
    "source": lambda p: f"{p['name']} : {SOURCES_FR[p['name']]}.",
    "rummikub.tiles": lambda p: (
        "Tuiles : deux de chaque nombre de 1 à 13 en quatre couleurs"
        + (f" et {count_fr(p['jokers'], 'joker')}" if p["jokers"] else "")
        + f" ; {p['hand_size']} tuiles chacun, le reste forme la pioche."
    ),
    "rummikub.sets": "Combinaisons : suites d'au moins 3 nombres qui se suivent d'une "
    "couleur (1 ne suit jamais 13) ; groupes de 3 ou 4 couleurs différentes d'un nombre ; "
    "un joker remplace n'importe quelle tuile.",
    "rummikub.turn": "Tour : posez des tuiles de votre chevalet en réarrangeant toute la "
    "table à votre guise, chaque combinaison valide à la fin, ou piochez une tuile.",
    "rummikub.opening": lambda p: (
        "Pour l'ouverture, la première pose est faite de nouvelles combinaisons de vos "
        f"propres tuiles valant au moins {p['minimum']} points (les nombres des tuiles)"
        + (
            ", la table laissée telle quelle."
            if p["untouched"]
            else " ; ce tour-là peut réarranger la table."
        )
    ),
    "rummikub.joker": "Un joker de la table ne bouge que remplacé par la tuile qu'il "
    "représente, et il est rejoué dans le même tour.",
    "rummikub.timer": "Un tour dure au plus {seconds} secondes ; au-delà, les tuiles du "
    "tour reprennent leur place et le joueur pioche trois tuiles.",
    "rummikub.pool": "Pioche vide, qui ne pose rien passe ; quand tous ont passé à leur "
    "tour, le plus petit chevalet gagne.",
    "rummikub.scoring": lambda p: (
        "Score : chaque perdant marque moins la valeur de son chevalet (les nombres des "
        f"tuiles, un joker {p['joker']}) ; le gagnant marque le total."
    ),
    "cards": _cards,
    "melds": _melds,
    "jokers": lambda p: (
        "Les jokers remplacent n'importe quelle carte, "
        f"{count_fr(p['per_meld'], 'joker')} au plus par combinaison."
    ),
    "turn.multiple": _turn("poser autant de combinaisons que voulu"),
    "turn.once": _turn("poser une combinaison au plus"),
    "contracts": lambda p: (
        "Contrats : "
        + " ; ".join(f"donne {i}, {CONTRACTS_FR[w]}" for i, w in enumerate(p["contracts"], 1))
        + "."
    ),
    "contracts.going_down": "On ne descend qu'avec le contrat entier, en un seul tour ; "
    "ensuite on ne fait plus qu'ajouter des cartes, à n'importe quelle combinaison.",
    "buying": lambda p: (
        "Quand le joueur dont c'est le tour pioche, les autres, dans l'ordre "
        "du jeu, peuvent acheter la carte du dessus de la défausse en prenant avec elle "
        f"{count_fr(p['penalty'], 'carte')} de pénalité de la pioche "
        f"({count_fr(p['buys'], 'achat')} par donne chacun)."
    ),
    "last_deal_no_discard": "À la dernière donne, personne ne finit en défaussant.",
    "layoff_after_own_meld": "On ne peut ajouter de cartes qu'après avoir posé une "
    "combinaison à soi.",
    "final_discard": "Pour finir, il faut une dernière défausse.",
    "go_out_any_way": "On peut finir en posant ou en ajoutant sa dernière carte.",
    "must_use": "Une carte prise à la défausse doit aussitôt servir dans une combinaison.",
    "deep_discard": "On peut prendre n'importe quelle carte de la défausse, avec toutes "
    "celles posées dessus, si on la pose aussitôt en combinaison.",
    "no_throw_back": "La carte prise à la défausse ne peut pas être rejetée le même tour.",
    "joker_swap": "Après l'ouverture, on peut échanger un joker posé contre la carte qu'il "
    "remplace.",
    "swapped_joker": "Un joker libéré doit servir ce tour-ci dans une nouvelle combinaison.",
    "set_joker_both_suits": "Le joker d'un brelan ne se libère qu'avec les deux couleurs "
    "manquantes à la fois ; un brelan de quatre avec un joker est fermé.",
    "joker_to_end": "Une fois descendu, on peut mettre à la place d'un joker au milieu "
    "d'une suite la carte qu'il remplace : le joker passe à un bout.",
    "take_from_meld": "Après l'ouverture, on peut prendre une carte dans une combinaison de "
    "4 cartes ou plus pour en former une nouvelle.",
    "opening": _opening,
    "restock.none": "La manche finit quand la pioche est épuisée.",
    "restock.turn_over": "Quand la pioche est épuisée, la défausse est retournée pour "
    "former une nouvelle pioche.",
    "restock.shuffle": "Quand la pioche est épuisée, la défausse est mélangée pour former "
    "une nouvelle pioche.",
    "restock.shuffle_keep_top": "Quand la pioche est épuisée, la défausse, sauf sa carte du "
    "dessus, est mélangée pour former une nouvelle pioche.",
    "restock.limit": lambda p: (
        f"La manche est bloquée une fois la pioche refaite {count_fr(p['n'], 'fois', 'fois')}."
    ),
    "scoring.melds": lambda p: (
        "Score : chaque combinaison posée et chaque carte ajoutée "
        f"marquent pour celui qui les pose (as {p['ace']}, figures 10) ; les cartes restées en "
        "main comptent contre lui ; le plus haut total gagne."
    ),
    "scoring.winner": lambda p: (
        "Score : celui qui finit marque les cartes restées dans les "
        f"autres mains ({_points(p)}) ; le plus haut total gagne."
    ),
    "scoring.penalty": lambda p: (
        "Score : chacun des autres ajoute les cartes restées dans "
        f"sa main ({_points(p)}) ; le plus bas total gagne."
    ),
    "rummy.double": "Finir en un seul tour (rami) double le score.",
    "rummy.plus_ten": "Finir en un seul tour (rami) ajoute 10 points.",
    "never_melded": "Un joueur qui n'a jamais posé ajoute {n}.",
    "one_turn_out": "Finir en un seul tour avant que personne n'ait posé marque {n:+d}.",
    "end.deals": lambda p: f"La partie dure {count_fr(p['n'], 'donne')}.",
    "end.target": "La partie finit quand un score atteint {n}.",
    "indian.wild_cut": "Joker coupé : après la donne, la carte du dessous de la pioche est "
    "retournée ; toutes les cartes de sa valeur sont des jokers pour cette donne (les as, "
    "si c'est un joker imprimé).",
    "indian.melds": "Combinaisons : suites de 3 cartes ou plus de la même couleur (as bas ou "
    "haut, jamais R-A-2) et brelans ou carrés de même valeur en couleurs différentes ; les "
    "jokers remplacent n'importe quelle carte. Les combinaisons restent en main jusqu'à la "
    "déclaration.",
    "indian.turn": "Tour : piocher ou prendre la carte du dessus de la défausse, puis "
    "défausser, ou déclarer (k) et écarter la carte en trop (choisissez-la, d) : les 13 "
    "autres doivent toutes être en combinaisons, avec deux suites dont une pure (sans "
    "joker).",
    "indian.drop": "Abandon (x), avant de piocher : quitter la donne pour {first} points au "
    "premier tour, {middle} ensuite.",
    "indian.wrong_show": "Déclaration fausse : déclarer des cartes qui ne forment pas une "
    "déclaration valable coûte {n} points et fait quitter la donne ; le jeu vous prévient "
    "d'abord.",
    "indian.no_wrong_show": "Une déclaration qui n'est pas valable est refusée.",
    "indian.count": lambda p: (
        "À la déclaration, les autres comptent leurs cartes hors "
        "combinaison (as et figures 10, jokers 0), ou toutes leurs cartes sans deux suites "
        "dont une pure" + (f", {p['cap']} au plus" if p["cap"] is not None else "") + "."
    ),
    "indian.scoring.high": "Marque : celui qui déclare reçoit le compte de tous les autres ; "
    "le plus grand total gagne.",
    "indian.scoring.low": "Marque : chacun ajoute son propre compte ; le plus petit total gagne.",
    "indian.pool": "Pool : un joueur dont le total atteint {n} est éliminé ; le dernier "
    "joueur restant gagne.",
    "gin.melds": "Combinaisons : brelans et carrés de même valeur ; suites de 3 cartes ou "
    "plus de la même couleur ; l'as est bas seulement. Les combinaisons restent en main "
    "jusqu'à la fin de la donne.",
    "gin.upcard": "Première carte retournée : le non-donneur, puis le donneur, peut la "
    "prendre ou passer (n).",
    "gin.turn": "Tour : piocher ou prendre la carte du dessus de la défausse, puis "
    "défausser, ou frapper (k) quand les cartes hors combinaisons (cartes isolées : as 1, "
    "figures 10) font {limit} ou moins.",
    "gin.turn.oklahoma": "Tour : piocher ou prendre la carte du dessus de la défausse, puis "
    "défausser, ou frapper (k) quand les cartes hors combinaisons (cartes isolées : as 1, "
    "figures 10) font la valeur de la première carte retournée (un as : gin seulement) ou "
    "moins.",
    "gin.knock": "Frapper : défausser, poser ses combinaisons (m, ou a pour les meilleures), "
    "puis n. L'adversaire ajoute ses cartes à vos combinaisons (l) sauf si vous avez fait "
    "gin, puis pose les siennes.",
    "gin.scoring": "Score : celui qui frappe marque la différence de cartes isolées, plus "
    "{gin} pour un gin (aucune carte isolée) ; si l'adversaire en a moins, c'est lui qui "
    "marque la différence plus {undercut} (contre) ; à égalité, personne ne marque.",
    "gin.wall": "La donne est nulle quand une défausse laisse {n} cartes dans la pioche.",
    "gin.bonuses": _gin_bonuses,
}
"""Every code of :func:`rummykit.rulebook.rules_lines`, in French."""

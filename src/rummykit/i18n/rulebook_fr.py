"""The rules summary (:func:`rummykit.rulebook.rules_summary`) in French, sentence for
sentence: the same options read, the same facts told, in Rami's words (combinaison,
suite, brelan/carré, poser, piocher, la pioche, la défausse).  No I/O."""

from __future__ import annotations

from collections.abc import Sequence

from ..rules import (
    Ace,
    DiscardPickup,
    Family,
    OpeningScope,
    Restock,
    Rules,
    RummyBonus,
    Scoring,
    SetSuits,
    SwappedJoker,
)

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
}
""":data:`rummykit.rules.PRESET_SOURCES` in French (a test checks every preset has one)."""


def count_fr(n: int, noun: str, plural: str | None = None) -> str:
    """``n`` and the noun, singular for 0 and 1 as French counts."""
    return f"{n} {noun}" if abs(n) < 2 else f"{n} {plural or noun + 's'}"


def join_fr(clauses: Sequence[str]) -> str:
    if len(clauses) <= 1:
        return "".join(clauses)
    return ", ".join(clauses[:-1]) + " et " + clauses[-1]


def rules_summary_fr(rules: Rules) -> list[str]:
    out: list[str] = []
    source = SOURCES_FR.get(rules.name)
    if source:
        out.append(f"{rules.name} : {source}.")
    decks = ("un jeu de 52 cartes", "deux jeux de 52 cartes", "trois jeux de 52 cartes")[
        rules.decks - 1
    ]
    if rules.jokers:
        decks += f" avec {count_fr(rules.jokers, 'joker')} chacun"
    size = (
        f"{rules.hand_size} cartes chacun"
        if rules.hand_size is not None
        else "10 cartes chacun à 2 joueurs, 7 à 3-4, 6 à 5-6"
    )
    if rules.deal_sizes:
        sizes = rules.deal_sizes.split("/")
        size = f"{join_fr(sizes)} cartes chacun aux donnes 1 à {len(sizes)}"
    out.append(f"Cartes : {decks} ; {size}.")
    if rules.family is Family.GIN:
        return out + _knock_summary_fr(rules)
    if rules.family is Family.INDIAN:
        return out + _declare_summary_fr(rules)
    sets = "brelans et carrés : 3-4 cartes de même valeur de couleurs différentes"
    if rules.set_suits is SetSuits.ANY:
        sets = "brelans et carrés : 3 cartes ou plus de même valeur (couleurs répétables)"
    ace = {
        Ace.LOW: "l'as est bas seulement (A-2-3, pas D-R-A)",
        Ace.HIGH: "l'as est haut seulement (D-R-A, pas A-2-3)",
    }.get(rules.ace, "l'as est haut ou bas (A-2-3 ou D-R-A, jamais R-A-2)")
    out.append(
        f"Combinaisons : {sets} ; suites de {rules.min_run} cartes ou plus de la même "
        f"couleur ; {ace}."
    )
    if rules.jokers:
        out.append(
            "Les jokers remplacent n'importe quelle carte, "
            f"{count_fr(rules.jokers_per_meld, 'joker')} au plus par combinaison."
        )
    turn = ["piocher ou prendre la carte du dessus de la défausse"]
    turn.append(
        "poser autant de combinaisons que voulu"
        if rules.multiple_melds
        else "poser une combinaison au plus"
    )
    turn.append("ajouter des cartes à n'importe quelle combinaison")
    turn.append("défausser une carte pour finir le tour")
    out.append("Tour : " + ", ".join(turn) + ".")
    out.extend(_contract_lines_fr(rules))
    extras: list[str] = []
    if rules.layoff_after_own_meld and rules.family is not Family.CONTRACT:
        extras.append("on ne peut ajouter de cartes qu'après avoir posé une combinaison à soi")
    if rules.final_discard:
        extras.append("pour finir, il faut une dernière défausse")
    else:
        extras.append("on peut finir en posant ou en ajoutant sa dernière carte")
    if rules.discard_pickup is DiscardPickup.MUST_USE:
        extras.append("une carte prise à la défausse doit aussitôt servir dans une combinaison")
    if rules.deep_discard:
        extras.append(
            "on peut prendre n'importe quelle carte de la défausse, avec toutes celles "
            "posées dessus, si on la pose aussitôt en combinaison"
        )
    extras.append("la carte prise à la défausse ne peut pas être rejetée le même tour")
    if rules.joker_swap:
        extras.append(
            "après l'ouverture, on peut échanger un joker posé contre la carte qu'il remplace"
        )
        if rules.swapped_joker is SwappedJoker.MUST_MELD:
            extras.append("un joker libéré doit servir ce tour-ci dans une nouvelle combinaison")
        if rules.set_joker_both_suits:
            extras.append(
                "le joker d'un brelan ne se libère qu'avec les deux couleurs manquantes à la "
                "fois ; un brelan de quatre avec un joker est fermé"
            )
    if rules.joker_to_end:
        extras.append(
            "une fois descendu, on peut mettre à la place d'un joker au milieu d'une suite "
            "la carte qu'il remplace : le joker passe à un bout"
        )
    if rules.take_from_meld:
        extras.append(
            "après l'ouverture, on peut prendre une carte dans une combinaison de 4 cartes "
            "ou plus pour en former une nouvelle"
        )
    if rules.opening_minimum:
        scope = (
            "les combinaisons d'ouverture de chaque joueur doivent"
            if rules.opening_applies is OpeningScope.EACH_PLAYER
            else "la première ouverture de la manche doit"
        )
        pure = " et comprendre une suite sans joker" if rules.opening_pure_run else ""
        extras.append(
            f"{scope} totaliser {rules.opening_minimum} points{pure} "
            "(as 1 en bas ou 11, figures 10)"
        )
    out.extend(e[0].upper() + e[1:] + "." for e in extras)
    restock = {
        Restock.TURN_OVER: "la défausse est retournée pour former une nouvelle pioche",
        Restock.SHUFFLE: "la défausse est mélangée pour former une nouvelle pioche",
        Restock.SHUFFLE_KEEP_TOP: "la défausse, sauf sa carte du dessus, est mélangée pour "
        "former une nouvelle pioche",
    }[rules.restock]
    if rules.max_restocks == 0:
        out.append("La manche finit quand la pioche est épuisée.")
    else:
        out.append(f"Quand la pioche est épuisée, {restock}.")
    if rules.max_restocks:
        times = count_fr(rules.max_restocks, "fois", "fois")
        out.append(f"La manche est bloquée une fois la pioche refaite {times}.")
    ace_pts = f"as {rules.ace_points}"
    joker_pts = f", jokers {rules.joker_points}" if rules.jokers else ""
    if rules.meld_scoring:
        out.append(
            "Score : chaque combinaison posée et chaque carte ajoutée marquent pour celui "
            f"qui les pose ({ace_pts}, figures 10) ; les cartes restées en main comptent "
            "contre lui ; le plus haut total gagne."
        )
    elif rules.scoring is Scoring.WINNER_COLLECTS:
        out.append(
            "Score : celui qui finit marque les cartes restées dans les autres mains "
            f"({ace_pts}, figures 10{joker_pts}) ; le plus haut total gagne."
        )
    else:
        out.append(
            "Score : chacun des autres ajoute les cartes restées dans sa main "
            f"({ace_pts}, figures 10{joker_pts}) ; le plus bas total gagne."
        )
    if rules.rummy_bonus is RummyBonus.DOUBLE:
        out.append("Finir en un seul tour (rami) double le score.")
    elif rules.rummy_bonus is RummyBonus.PLUS_TEN:
        out.append("Finir en un seul tour (rami) ajoute 10 points.")
    if rules.never_melded_penalty:
        out.append(f"Un joueur qui n'a jamais posé ajoute {rules.never_melded_penalty}.")
    if rules.one_turn_out_bonus:
        out.append(
            "Finir en un seul tour avant que personne n'ait posé marque "
            f"{rules.one_turn_out_bonus:+d}."
        )
    out.append(_end_fr(rules))
    return out


def _contract_lines_fr(rules: Rules) -> list[str]:
    """:func:`rummykit.rulebook._contract_lines` in French."""
    from ..variants.contract import describe
    from .engine_fr import CONTRACTS_FR

    out: list[str] = []
    contracts = rules.contract_list()
    if contracts:
        each = [
            f"donne {i}, {CONTRACTS_FR[describe(contracts, i)]}"
            for i in range(1, len(contracts) + 1)
        ]
        out.append(f"Contrats : {' ; '.join(each)}.")
        out.append(
            "On ne descend qu'avec le contrat entier, en un seul tour ; ensuite on ne fait "
            "plus qu'ajouter des cartes, à n'importe quelle combinaison."
        )
    if rules.buys_per_round:
        out.append(
            "Quand le joueur dont c'est le tour pioche, les autres, dans l'ordre du jeu, "
            "peuvent acheter la carte du dessus de la défausse en prenant avec elle "
            f"{count_fr(rules.buy_penalty, 'carte')} de pénalité de la pioche "
            f"({count_fr(rules.buys_per_round, 'achat')} par donne chacun)."
        )
    if rules.last_deal_no_discard:
        out.append("À la dernière donne, personne ne finit en défaussant.")
    return out


def _end_fr(rules: Rules) -> str:
    if rules.deals is not None:
        return f"La partie dure {count_fr(rules.deals, 'donne')}."
    return f"La partie finit quand un score atteint {rules.target_score}."


def _knock_summary_fr(rules: Rules) -> list[str]:
    limit = (
        "la valeur de la première carte retournée (un as : gin seulement)"
        if rules.oklahoma
        else str(rules.knock_card)
    )
    out = [
        "Combinaisons : brelans et carrés de même valeur ; suites de 3 cartes ou plus de "
        "la même couleur ; l'as est bas seulement. Les combinaisons restent en main "
        "jusqu'à la fin de la donne.",
        "Première carte retournée : le non-donneur, puis le donneur, peut la prendre ou "
        "passer (n).",
        "Tour : piocher ou prendre la carte du dessus de la défausse, puis défausser, ou "
        "frapper (k) quand les cartes hors combinaisons (cartes isolées : as 1, figures "
        f"10) font {limit} ou moins.",
        "Frapper : défausser, poser ses combinaisons (m, ou a pour les meilleures), puis n. "
        "L'adversaire ajoute ses cartes à vos combinaisons (l) sauf si vous avez fait gin, "
        "puis pose les siennes.",
        "Score : celui qui frappe marque la différence de cartes isolées, plus "
        f"{rules.gin_bonus} pour un gin (aucune carte isolée) ; si l'adversaire en a moins, "
        f"c'est lui qui marque la différence plus {rules.undercut_bonus} (contre) ; à "
        "égalité, personne ne marque.",
    ]
    if rules.wall:
        out.append(
            f"La donne est nulle quand une défausse laisse {rules.wall} cartes dans la pioche."
        )
    out.append(_end_fr(rules))
    extras = []
    if rules.game_bonus:
        extras.append(f"le gagnant ajoute {rules.game_bonus}")
    if rules.line_bonus:
        extras.append(f"chaque joueur ajoute {rules.line_bonus} par donne gagnée")
    if rules.shutout_double:
        extras.append("un blanchissage double le total du gagnant")
    if extras:
        out.append("À la fin, " + join_fr(extras) + ".")
    return out


def _declare_summary_fr(rules: Rules) -> list[str]:
    """The declaration game (Indian Rummy), as :func:`rummykit.rulebook._declare_summary`."""
    out = []
    if rules.wild_cut:
        out.append(
            "Joker coupé : après la donne, la carte du dessous de la pioche est retournée ; "
            "toutes les cartes de sa valeur sont des jokers pour cette donne (les as, si "
            "c'est un joker imprimé)."
        )
    out += [
        "Combinaisons : suites de 3 cartes ou plus de la même couleur (as bas ou haut, "
        "jamais R-A-2) et brelans ou carrés de même valeur en couleurs différentes ; les "
        "jokers remplacent n'importe quelle carte. Les combinaisons restent en main "
        "jusqu'à la déclaration.",
        "Tour : piocher ou prendre la carte du dessus de la défausse, puis défausser, ou "
        "déclarer (k) et écarter la carte en trop (choisissez-la, d) : les 13 autres "
        "doivent toutes être en combinaisons, avec deux suites dont une pure (sans joker).",
    ]
    if rules.first_drop:
        out.append(
            f"Abandon (x), avant de piocher : quitter la donne pour {rules.first_drop} "
            f"points au premier tour, {rules.middle_drop} ensuite."
        )
    if rules.wrong_show:
        out.append(
            f"Déclaration fausse : déclarer des cartes qui ne forment pas une déclaration "
            f"valable coûte {rules.wrong_show} points et fait quitter la donne ; le jeu vous "
            "prévient d'abord."
        )
    else:
        out.append("Une déclaration qui n'est pas valable est refusée.")
    cap = f", {rules.max_hand_points} au plus" if rules.max_hand_points is not None else ""
    out.append(
        "À la déclaration, les autres comptent leurs cartes hors combinaison (as et "
        "figures 10, jokers 0), ou toutes leurs cartes sans deux suites dont une pure"
        f"{cap}."
    )
    if rules.scoring is Scoring.WINNER_COLLECTS:
        out.append(
            "Marque : celui qui déclare reçoit le compte de tous les autres ; le plus grand "
            "total gagne."
        )
    else:
        out.append("Marque : chacun ajoute son propre compte ; le plus petit total gagne.")
    if rules.elimination and rules.target_score is not None:
        out.append(
            f"Pool : un joueur dont le total atteint {rules.target_score} est éliminé ; le "
            "dernier joueur restant gagne."
        )
    elif rules.deals is not None:
        out.append(f"La partie dure {count_fr(rules.deals, 'donne')}.")
    return out

"""The games by the names players know them, with one plain line each, in English and
French: the one table both front ends name a preset from (the terminal's new-game
screen and saved-game chooser, the web lobby, the invitation and the table page).

A preset's id (``indian_pool101``) and its seed citation
(:data:`rummykit.rules.PRESET_SOURCES`) stay for ``rummy rules``, ``--json`` output,
logs and the docs; a player reads the title and the description.

>>> game_title("indian_pool101", "en"), game_title("gin_match", "fr")
('Indian Rummy, Pool 101', 'Gin Rummy, une partie en 100 points')
>>> spec_title("basic(multiple_melds=true)", "en")
'Basic Rummy (multiple_melds=true)'
"""

from __future__ import annotations

GAMES: dict[str, tuple[str, str, str, str]] = {
    "basic": (
        "Basic Rummy",
        "Rami simple",
        "Sets and runs; whoever goes out scores the cards left in the other hands. "
        "First to 100 wins.",
        "Brelans, carrés et suites ; qui finit marque les cartes restées dans les autres "
        "mains. Le premier à 100 gagne.",
    ),
    "classic": (
        "Classic Rummy",
        "Rami classique",
        "Sets and runs; the cards left in your hand count against you. "
        "At 100 the lowest total wins.",
        "Brelans, carrés et suites ; les cartes restées en main comptent contre vous. "
        "À 100, le plus petit total gagne.",
    ),
    "cg101": (
        "Rummy to 150",
        "Rami en 150 points",
        "Sets and runs; going out in one turn doubles the score. First to 150 wins.",
        "Brelans, carrés et suites ; finir d'un coup double les points. Le premier à 150 gagne.",
    ),
    "rami51": (
        "Rami 51",
        "Rami 51",
        "The French game: two decks with jokers, 13 cards, a first meld of 51 points. "
        "Lowest total wins.",
        "Le Rami français : deux jeux avec jokers, 13 cartes, une ouverture de 51 points. "
        "Le plus petit total gagne.",
    ),
    "gin_match": (
        "Gin Rummy, a game to 100",
        "Gin Rummy, une partie en 100 points",
        "Two players, ten cards each: knock with 10 or less unmatched, or go gin. "
        "First to 100 wins.",
        "Deux joueurs, dix cartes chacun : frappez avec 10 points isolés ou moins, ou "
        "faites gin. Le premier à 100 gagne.",
    ),
    "gin": (
        "Gin Rummy, one hand",
        "Gin Rummy, une seule donne",
        "One hand of Gin Rummy: knock with 10 or less unmatched, or go gin.",
        "Une seule donne de Gin Rummy : frappez avec 10 points isolés ou moins, ou faites gin.",
    ),
    "rum500": (
        "500 Rum",
        "Rami 500",
        "Melds score as you lay them, and any card of the discard pile may be taken. "
        "First to 500 wins.",
        "Les combinaisons marquent dès qu'elles sont posées, et toute carte de la défausse "
        "peut être prise. Le premier à 500 gagne.",
    ),
    "rum500_big": (
        "500 Rum, five to eight players",
        "Rami 500, de cinq à huit joueurs",
        "500 Rum with two decks for a big table. First to 500 wins.",
        "Le Rami 500 à deux jeux pour une grande table. Le premier à 500 gagne.",
    ),
    "kalooki": (
        "Kalooki 40",
        "Kalooki 40",
        "Two decks and four jokers, 13 cards, a first meld of 40 points. Lowest total wins.",
        "Deux jeux et quatre jokers, 13 cartes, une ouverture de 40 points. "
        "Le plus petit total gagne.",
    ),
    "kalooki_big": (
        "Kalooki 40, five or six players",
        "Kalooki 40, cinq ou six joueurs",
        "Kalooki 40 with three decks for a big table. Lowest total wins.",
        "Le Kalooki 40 à trois jeux pour une grande table. Le plus petit total gagne.",
    ),
    "indian": (
        "Indian Rummy, points",
        "Rami indien, aux points",
        "13 cards and a cut wild card: declare with two sequences, one of them pure. One deal.",
        "13 cartes et un joker coupé : déclarez avec deux séquences, dont une pure. Une donne.",
    ),
    "indian_pool101": (
        "Indian Rummy, Pool 101",
        "Rami indien, pool 101",
        "Indian Rummy deal after deal: reach 101 points and you are out. The last one in wins.",
        "Le rami indien donne après donne : à 101 points vous êtes éliminé. "
        "Le dernier en jeu gagne.",
    ),
    "indian_pool201": (
        "Indian Rummy, Pool 201",
        "Rami indien, pool 201",
        "Indian Rummy deal after deal: reach 201 points and you are out. The last one in wins.",
        "Le rami indien donne après donne : à 201 points vous êtes éliminé. "
        "Le dernier en jeu gagne.",
    ),
    "indian_deals": (
        "Indian Rummy, two deals",
        "Rami indien, deux donnes",
        "Two deals of Indian Rummy; the lowest total wins.",
        "Deux donnes de rami indien ; le plus petit total gagne.",
    ),
    "contract": (
        "Contract Rummy",
        "Rami à contrats",
        "Seven deals, each with its contract of sets and runs to lay down; buy discards "
        "out of turn. Lowest total wins.",
        "Sept donnes, chacune avec son contrat de brelans et de suites à poser ; achetez "
        "des cartes hors tour. Le plus petit total gagne.",
    ),
    "contract_big": (
        "Contract Rummy, five to eight players",
        "Rami à contrats, de cinq à huit joueurs",
        "Contract Rummy with three decks for a big table. Lowest total wins.",
        "Le rami à contrats à trois jeux pour une grande table. Le plus petit total gagne.",
    ),
    "rummikub": (
        "Rummikub",
        "Rummikub",
        "Numbered tiles on a table everyone may rearrange: play tiles or draw one; the "
        "first to empty the rack wins.",
        "Des tuiles numérotées sur une table que chacun peut réarranger : posez des tuiles "
        "ou piochez-en une ; le premier à vider son chevalet gagne.",
    ),
}
"""Per preset: the title in English and French, then the description in each (a test
checks every preset has its entry)."""

PICKER: tuple[str, ...] = (
    "basic",
    "classic",
    "cg101",
    "rami51",
    "kalooki",
    "gin_match",
    "rum500",
    "indian",
    "contract",
    "rummikub",
)
"""The games the web front page shows as tiles, in that order: each family's main
presets, as a newcomer would pick them.  The others (one hand of Gin, the big tables,
the Indian pools) are variants the custom table offers."""


def game_title(preset: str, lang: str) -> str:
    """The game a preset plays, by its name (the id itself for an unknown one)."""
    entry = GAMES.get(preset)
    if entry is None:
        return preset
    return entry[1] if lang == "fr" else entry[0]


def game_description(preset: str, lang: str) -> str:
    """The game in one plain line ("" for an unknown preset)."""
    entry = GAMES.get(preset)
    if entry is None:
        return ""
    return entry[3] if lang == "fr" else entry[2]


def spec_title(spec: str, lang: str) -> str:
    """A rules spec for people: the preset by its title, its house rules as written
    (``basic(multiple_melds=true)`` is ``Basic Rummy (multiple_melds=true)``)."""
    base, paren, rest = spec.partition("(")
    title = game_title(base.strip(), lang)
    return f"{title} ({rest}" if paren else title

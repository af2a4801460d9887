"""The terminal game's own words in French, keyed by their English text (as gettext
does; ``pile|Discard``: a context where one English word needs two French ones).
tests/test_i18n.py checks that every text the terminal game translates is here, with
the same ``{fields}``, and that nothing here is unused.

The words are Rami's: une combinaison (brelan, carré, suite), poser, ajouter (lay
off), piocher, la pioche, la défausse, défausser, le joker, l'ouverture; Gin's knock
is *frapper*, its deadwood *les cartes isolées* (as on the web page)."""

from __future__ import annotations

FR: dict[str, str] = {
    # -- counts and small words
    "{n} card": "{n} carte",
    "{n} cards": "{n} cartes",
    "{n} meld": "{n} combinaison",
    "{n} melds": "{n} combinaisons",
    "{n} lay-off": "{n} ajout",
    "{n} lay-offs": "{n} ajouts",
    "{n} joker": "{n} joker",
    "{n} jokers": "{n} jokers",
    "{n} deal": "{n} donne",
    "{n} deals": "{n} donnes",
    "{n} round": "{n} manche",
    "{n} rounds": "{n} manches",
    "{n} card left": "{n} carte restante",
    "{n} cards left": "{n} cartes restantes",
    "{n} selected": "{n} choisie(s)",
    " and ": " et ",
    "You": "Vous",
    "you": "vous",
    " (you)": " (vous)",
    "easy": "facile",
    "medium": "moyen",
    "hard": "fort",
    "suit": "par couleur",
    "rank": "par valeur",
    "melds": "en combinaisons",
    "empty": "vide",
    "none": "aucune",
    "bonus|none": "aucun",
    # -- the table screen; the key bar's words are short, as the English ones (all ten
    # of a Gin table fit 80 columns)
    "Stock": "Pioche",
    "Pile": "Prends",
    "Meld": "Pose",
    "Lay off": "Ajout",
    "Discard": "Jette",
    "Swap joker": "Échange le joker",
    "Take": "Prends dedans",
    "Knock": "Frappe",
    "Drop out of this deal for {n} points?": "Abandonner cette donne pour {n} points ?",
    "Drop for {n} points": "Abandonner pour {n} points",
    "Keep playing": "Continuer à jouer",
    "Pass": "Passe",
    "Buy": "Acheter",
    "Nobody draws now: buy the discard (b) or pass (n).": (
        "Personne ne pioche maintenant : achetez la défausse (b) ou passez (n)."
    ),
    "Best melds": "Meilleures combinaisons",
    "Clear": "Efface",
    "Hint": "Conseil",
    "Order": "Ordre",
    "Instant": "Instantané",
    "Help": "Aide",
    "Quit": "Fin",
    "pile|Stock": "Pioche",
    "pile|Discard": "Défausse",
    "Table": "Table",
    "Players": "Joueurs",
    "Log": "Journal",
    "Your hand": "Votre main",
    "Your hand · {cards} · by {order} (r)": "Votre main · {cards} · {order} (r)",
    "Table · {melds}": "Table · {melds}",
    "Select cards with the keys shown above them or by clicking; ? for help.": (
        "Choisissez vos cartes avec la touche au-dessus de chacune ou en cliquant ; ? pour l'aide."
    ),
    "· the match is over": "· la partie est finie",
    "Your turn: ": "À vous : ",
    "· {who} ({label}) is playing…": "· {who} ({label}) joue…",
    "draw from the stock (s)": "piochez (s)",
    "draw from the stock (s); {card} on the pile cannot be used now": (
        "piochez (s) ; le {card} de la défausse ne peut pas servir maintenant"
    ),
    "draw from the stock (s) or take {card} (p)": "piochez (s) ou prenez le {card} (p)",
    "use {card} in a meld now": "posez le {card} dans une combinaison maintenant",
    "opening {points}/{minimum} points: meld more before you discard": (
        "ouverture {points}/{minimum} points : posez encore avant de défausser"
    ),
    "meld (m) or discard (d); opening melds need {minimum}+": (
        "posez (m) ou défaussez (d) ; l'ouverture demande {minimum} points ou plus"
    ),
    "meld (m), lay off (l) or discard (d)": "posez (m), ajoutez (l) ou défaussez (d)",
    "The bot failed: {error}": "Le robot a échoué : {error}",
    "No hint: {error}": "Pas de conseil : {error}",
    "The bot tried an illegal move: {error}": "Le robot a tenté un coup interdit : {error}",
    "The match is over.": "La partie est finie.",
    "Wait: it is {who}'s turn.": "Attendez : c'est au tour de {who}.",
    "Not allowed: {reason}": "Interdit : {reason}",
    "You {did}.": "Vous {did}.",
    "Select exactly one card to {what}.": "Choisissez une seule carte à {what}.",
    "lay off": "ajouter",
    "discard": "défausser",
    "Take from the discard pile": "Prendre dans la défausse",
    "Which meld do you mean? (each joker stands for one card)": (
        "Quelle combinaison ? (chaque joker remplace une carte)"
    ),
    "Lay off {card} where?": "Ajouter le {card} où ?",
    "Select the one card to give for a joker.": (
        "Choisissez la carte à donner en échange d'un joker."
    ),
    "Swap which joker?": "Échanger quel joker ?",
    "Take which card?": "Prendre quelle carte ?",
    "Nothing to lay now: press n when you are done.": (
        "Rien à poser maintenant : appuyez sur n quand vous avez fini."
    ),
    "You laid {what}; n when done.": "Vous avez posé {what} ; n quand vous avez fini.",
    "Thinking of a hint…": "Recherche d'un conseil…",
    " (press {key})": " (touche {key})",
    "Hint: {reason}{press}": "Conseil : {reason}{press}",
    "Bots play instantly.": "Les robots jouent sans attendre.",
    "Bots play at a readable pace.": "Les robots jouent à un rythme lisible.",
    "Select one card, then click a meld to lay it off.": (
        "Choisissez une carte, puis cliquez sur une combinaison pour l'y ajouter."
    ),
    "There is no saved game to resume.": "Aucune partie sauvegardée à reprendre.",
    "Cannot start: {error}": "Impossible de commencer : {error}",
    "The saved game cannot be read.": "La partie sauvegardée est illisible.",
    "Could not save the game: {error}": "La partie n'a pas pu être sauvegardée : {error}",
    "Game saved to {path}; continue it with: rummy play --resume": (
        "Partie sauvegardée dans {path} ; pour la reprendre : rummy play --resume"
    ),
    "{game}: round {round}, turn {turn} (saved {when})": (
        "{game} : manche {round}, tour {turn} (sauvegardée le {when})"
    ),
    "Which saved game?": "Quelle partie sauvegardée ?",
    "The game's record is kept in {path}": "Le relevé de la partie est conservé dans {path}",
    "(no cards)": "(aucune carte)",
    "No melds on the table yet.": "Aucune combinaison sur la table.",
    "below ({n}):": "dessous ({n}) :",
    "  player          cards  score": "  joueur         cartes  score",
    # -- the hand arranged
    "{note}, deadwood {n}": "{note}, cartes isolées {n}",
    "({points} of {minimum} points to open)": "({points} des {minimum} points d'ouverture)",
    # -- the log and the moves in words (after a name: "Ann a pioché")
    "drew from the stock": "a pioché",
    "drew {card} from the stock": "a pioché le {card}",
    "took the upcard": "a pris la carte retournée",
    "took {card} from the discard pile": "a pris le {card} de la défausse",
    "take {card}, the top card": "prendre le {card}, la carte du dessus",
    "{card} (with the card above it)": "le {card} (avec la carte au-dessus)",
    "{card} (with the {n} cards above it)": "le {card} (avec les {n} cartes au-dessus)",
    "the top card, {card}": "la carte du dessus, le {card}",
    "draw from the stock (s), or take (p) {cards}": "piochez (s), ou prenez (p) {cards}",
    "take {card}, with {cards} above it": "prendre le {card}, avec {cards} au-dessus",
    "discarded {card}": "a défaussé le {card}",
    "melded {cards}": "a posé {cards}",
    "meld {n}": "combinaison {n}",
    "{joker} as {card}": "{joker} pour le {card}",
    "laid off {what} on {meld}": "a ajouté {what} à {meld}",
    "swapped {card} for the joker in {meld}": "a échangé le {card} contre le joker de {meld}",
    "took {card} from {meld}": "a pris le {card} dans {meld}",
    "passed": "a passé",
    "knocked": "a frappé",
    "move|played": "a joué",
    "Resumed: round {round}, turn {turn}.": "Reprise : manche {round}, tour {turn}.",
    "Round {n}: {who} deals.": "Manche {n} : {who} donne.",
    "Round {n}: {what}.": "Manche {n} : {what}.",
    # -- choosers and refusals before the engine is asked
    "meld {n} ({owner}: {cards})": "combinaison {n} ({owner} : {cards})",
    "{joker} as {card} on {meld}": "{joker} pour le {card} sur la {meld}",
    "{card} on {meld}": "{card} sur la {meld}",
    "give {card} for the joker in {meld}": "donner le {card} contre le joker de la {meld}",
    "take {card} from {meld}": "prendre le {card} dans la {meld}",
    "select the cards of the meld first": "choisissez d'abord les cartes de la combinaison",
    "{cards} is not a meld: a meld has at least three cards": (
        "{cards} n'est pas une combinaison : il faut au moins trois cartes"
    ),
    "{cards} is not a meld: at most {jokers} per meld": (
        "{cards} n'est pas une combinaison : {jokers} au plus par combinaison"
    ),
    "{cards} is not a meld: a set is one rank in different suits, a run "
    "is consecutive cards of one suit": (
        "{cards} n'est pas une combinaison : un brelan ou un carré réunit une valeur dans "
        "des couleurs différentes, une suite des cartes qui se suivent dans une couleur"
    ),
    "there is no meld on the table to lay off on": (
        "aucune combinaison sur la table où ajouter une carte"
    ),
    "{card} does not fit any meld on the table": (
        "le {card} ne va sur aucune combinaison de la table"
    ),
    "{card} does not fit meld {n}": "le {card} ne va pas sur la combinaison {n}",
    "there is no joker on the table to swap": "aucun joker sur la table à échanger",
    "select the natural card that a table joker stands for": (
        "choisissez la carte naturelle que remplace un joker de la table"
    ),
    "no joker on the table stands for {card}": "aucun joker de la table ne remplace le {card}",
    "there is no meld on the table to take from": "aucune combinaison sur la table où prendre",
    # -- the match in words
    "{deals}, high wins": "{deals}, le plus haut gagne",
    "{deals}, low wins": "{deals}, le plus bas gagne",
    "to {n}, high wins": "en {n}, le plus haut gagne",
    "to {n}, low wins": "en {n}, le plus bas gagne",
    "Round {n} of {deals}": "Manche {n} sur {deals}",
    "Round {n} · to {target}": "Manche {n} · en {target}",
    "highest score wins": "le plus haut score gagne",
    "lowest score wins": "le plus bas score gagne",
    # -- help
    "Help · {spec}": "Aide · {spec}",
    "On the screen": "À l'écran",
    "Rules of this game": "Les règles de ce jeu",
    "Esc: close": "Échap : fermer",
    "s / click Stock": "s / clic Pioche",
    "p / click Discard": "p / clic Défausse",
    "← → space": "← → espace",
    "c / Esc": "c / Échap",
    "l / click a meld": "l / clic combinaison",
    "draw from the stock": "piocher",
    "take the top card of the discard pile (500 Rum: or a deeper one)": (
        "prendre la carte du dessus de la défausse (500 Rum : ou une plus bas)"
    ),
    "select or unselect a card: the key shown above it (or click it)": (
        "choisir une carte ou la laisser : la touche au-dessus d'elle (ou un clic)"
    ),
    "move the card cursor, select the card under it": (
        "déplacer le curseur, choisir la carte dessous"
    ),
    "clear the selection": "annuler le choix des cartes",
    "meld the selected cards": "poser les cartes choisies",
    "lay off the selected card on a meld": "ajouter la carte choisie à une combinaison",
    "swap the selected card for the joker standing for it": (
        "échanger la carte choisie contre le joker qui la remplace"
    ),
    "take a card from a table meld (rami51)": (
        "prendre une carte dans une combinaison de la table (rami51)"
    ),
    "discard the selected card (ends your turn)": "défausser la carte choisie (fin du tour)",
    "hint: what the hard bot would play, and why": (
        "conseil : ce que jouerait le robot fort, et pourquoi"
    ),
    "show the hand by suit, by rank, or arranged into melds with the deadwood apart": (
        "montrer la main par couleur, par valeur, ou rangée en combinaisons, les cartes "
        "isolées à part"
    ),
    "show the whole discard pile": "montrer toute la défausse",
    "bots play instantly / at a readable pace": (
        "les robots jouent sans attendre / à un rythme lisible"
    ),
    "this help": "cette aide",
    "save the game and quit (rummy play --resume continues it)": (
        "sauvegarder et quitter (rummy play --resume reprend la partie)"
    ),
    "▶ the player to act · D the dealer · ✓ has opened (met the opening minimum)\n"
    "🃏(7♥) a joker standing for 7♥ · 2* the card you just drew · "
    "a highlighted meld number: the selected card fits there": (
        "▶ le joueur qui joue · D le donneur · ✓ a ouvert (a atteint le minimum "
        "d'ouverture)\n🃏(7♥) un joker qui remplace le 7♥ · 2* la carte que vous venez de "
        "piocher · un numéro de combinaison en couleur : la carte choisie y va"
    ),
    # -- dialogs
    "Cancel": "Annuler",
    "Close": "Fermer",
    "1-9 or Enter: choose · Esc: cancel": "1-9 ou Entrée : choisir · Échap : annuler",
    "Discard pile, top first ({cards})": "Défausse, du dessus vers le dessous ({cards})",
    "Continue": "Continuer",
    "Review": "Revue",
    "Review (r)": "Revue (r)",
    "Final standings": "Classement final",
    "Next deal": "Donne suivante",
    "{label} (Enter)": "{label} (Entrée)",
    "Play again": "Rejouer",
    "New settings": "Nouveaux réglages",
    "Play again (a)": "Rejouer (a)",
    "New settings (n)": "Nouveaux réglages (n)",
    "Quit (q)": "Quitter (q)",
    "place": "place",
    "player": "joueur",
    "score": "score",
    "You win!": "Vous gagnez !",
    "{who} won together.": "{who} gagnent ensemble.",
    "{who} won.": "{who} a gagné.",
    "Match over after {rounds}. {verdict}": "Partie finie après {rounds}. {verdict}",
    # -- the end of a round
    "  round {delta} · total {total}": "  manche {delta} · total {total}",
    "laid: {melds}": "posé : {melds}",
    "no cards left": "plus aucune carte",
    "{left}, {points} points:": "{left}, {points} points :",
    "Score by round": "Score par manche",
    "round": "manche",
    "bonus": "prime",
    "Running totals": "Totaux cumulés",
    # -- the review of a round
    "best": "meilleur",
    "good": "bon",
    "inaccuracy": "imprécision",
    "mistake": "erreur",
    "blunder": "gaffe",
    "turn": "tour",
    "played": "joué",
    "lost": "perdu",
    "label": "note",
    "Accuracy {accuracy}% over {n} decisions: {counts}": (
        "Précision {accuracy} % sur {n} décisions : {counts}"
    ),
    "Key moments": "Moments clés",
    "turn {n}: {played} ": "tour {n} : {played} ",
    ", {lost} points; better {reason}": ", {lost} points ; mieux : {reason}",
    "Review of round {n}: {name}": "Revue de la manche {n} : {name}",
    "Grading {n} decisions against the hard engine…": (
        "Évaluation de {n} décisions face au robot fort…"
    ),
    "The review failed: {error}": "La revue a échoué : {error}",
    " (the round: {n})": " (la manche : {n})",
    "Expected points after each decision{result}:": (
        "Points espérés après chaque décision{result} :"
    ),
    "from {low} to {high} points": "de {low} à {high} points",
    # -- the new-game screen
    "rummykit · new game": "rummykit · nouvelle partie",
    "Preset": "Règles",
    "Your name": "Votre nom",
    "Bots": "Robots",
    "Match": "Partie",
    "to a target score": "jusqu'à un score",
    "a number of deals": "un nombre de donnes",
    "House rules": "Règles maison",
    "Knock at": "Frapper à",
    "Gin bonus": "Prime de gin",
    "Undercut bonus": "Prime de contre",
    "Oklahoma: the first upcard's value sets the knock limit": (
        "Oklahoma : la première carte retournée fixe la limite pour frapper"
    ),
    "Ace": "As",
    "low only (A-2-3)": "bas seulement (A-2-3)",
    "high or low (Q-K-A too)": "haut ou bas (D-R-A aussi)",
    "high only (Q-K-A, not A-2-3)": "haut seulement (D-R-A, pas A-2-3)",
    "Rummy bonus": "Prime de rami",
    "double": "double",
    "plus ten": "plus dix",
    "Opening minimum": "Ouverture minimum",
    "any number of melds per turn": "autant de combinaisons que voulu par tour",
    "lay off only after your own first meld": (
        "ajouter seulement après avoir posé sa première combinaison"
    ),
    "you must discard to go out": "il faut défausser pour finir",
    "the card taken from the discard pile may be thrown back": (
        "la carte prise à la défausse peut y être rejetée"
    ),
    "a card taken from the discard pile must be used at once": (
        "une carte prise à la défausse doit servir aussitôt"
    ),
    "swap a table joker for the card it stands for": (
        "échanger un joker posé contre la carte qu'il remplace"
    ),
    "a joker freed by a swap must go into a new meld at once": (
        "un joker libéré par un échange doit aussitôt aller dans une nouvelle combinaison"
    ),
    "take a card from a table meld of 4+ cards": (
        "prendre une carte dans une combinaison posée de 4 cartes ou plus"
    ),
    "the opening must include a run without a joker": (
        "l'ouverture doit comprendre une suite sans joker"
    ),
    "Play": "Jeu",
    "Seed (optional)": "Graine (facultatif)",
    "bots play instantly": "les robots jouent sans attendre",
    "Start": "Commencer",
    "Resume": "Reprendre",
    "Start (ctrl+s)": "Commencer (ctrl+s)",
    "Resume saved game (ctrl+r)": "Reprendre la partie sauvegardée (ctrl+r)",
    "Quit (esc)": "Quitter (échap)",
    "the match length must be a positive whole number": (
        "la durée de la partie doit être un nombre entier positif"
    ),
    "{what} must be a whole number": "{what} : il faut un nombre entier",
    "the opening minimum must be a whole number (0 for none)": (
        "l'ouverture minimum doit être un nombre entier (0 pour aucune)"
    ),
    # -- replays
    "Next": "Suivant",
    "Back": "Retour",
    "Next turn": "Tour suivant",
    "Turn back": "Tour précédent",
    "replay|Start": "Début",
    "replay|End": "Fin",
    "Replay {title} ": "Relecture {title} ",
    "step {i}/{last} · round {n}": "étape {i}/{last} · manche {n}",
    "  score {n}  ({cards})": "  score {n}  ({cards})",
    "Match: {goal}; scores ": "Partie : {goal} ; scores ",
    # -- the command line
    "{n} bot": "{n} robot",
    "{n} bots": "{n} robots",
    "--bots gives {bots} for {n} players (you + bots)": (
        "--bots donne {bots} pour {n} joueurs (vous + les robots)"
    ),
    "cannot read {path}: {error}": "impossible de lire {path} : {error}",
    "give --target or --deals, not both": "donnez --target ou --deals, pas les deux",
    # -- Rummikub: the table's sets and the turn's editor
    "{n} tile": "{n} tuile",
    "{n} tiles": "{n} tuiles",
    "{n} set": "{n} combinaison",
    "{n} sets": "{n} combinaisons",
    "drew a tile": "a pioché une tuile",
    "drew {tile}": "a pioché {tile}",
    "placed {n} tile: {sets}": "a posé {n} tuile : {sets}",
    "placed {n} tiles: {sets}": "a posé {n} tuiles : {sets}",
    "Draw": "Piocher",
    "Play tiles": "Poser",
    "Select rack tiles by their keys, a table set with ↑ ↓; ? for help.": (
        "Choisissez les tuiles du chevalet par leurs touches, une combinaison avec ↑ ↓ ; ? : aide."
    ),
    "Move": "Placer",
    "New set": "Nouvelle",
    "Table tile": "Tuile de la table",
    "Split": "Scinder",
    "Join": "Réunir",
    "To rack": "Au chevalet",
    "Reset": "Annuler",
    "No sets on the table yet.": "Aucune combinaison sur la table pour l'instant.",
    "(a new set)": "(une nouvelle combinaison)",
    "Table · {sets}": "Table · {sets}",
    "edited: Enter plays, Backspace resets": ("modifiée : Entrée joue, Retour arrière annule"),
    "Your rack · {tiles} · {order} (r)": "Votre chevalet · {tiles} · {order} (r)",
    "by number": "par nombre",
    "by colour": "par couleur",
    "your first play is new sets of your own tiles worth {n}+ points; "
    "arrange them and press Enter, or draw (s)": (
        "votre première pose : de nouvelles combinaisons de vos tuiles valant {n}+ points ; "
        "disposez-les et appuyez sur Entrée, ou piochez (s)"
    ),
    "arrange the table and press Enter, or draw a tile (s)": (
        "disposez la table et appuyez sur Entrée, ou piochez une tuile (s)"
    ),
    "arrange the table and press Enter, or pass (s): the pool is empty": (
        "disposez la table et appuyez sur Entrée, ou passez (s) : la pioche est vide"
    ),
    "Choose a set of the table first (↑ ↓).": (
        "Choisissez d'abord une combinaison de la table (↑ ↓)."
    ),
    "Select tiles first (rack keys, or t on the table).": (
        "Choisissez d'abord des tuiles (touches du chevalet, ou t sur la table)."
    ),
    "Put the tile cursor ([ ]) inside a set to split it before that tile.": (
        "Placez le curseur ([ ]) dans une combinaison pour la scinder avant cette tuile."
    ),
    "Choose a set with another set after it to join them.": (
        "Choisissez une combinaison suivie d'une autre pour les réunir."
    ),
    "Only tiles placed this turn go back to the rack.": (
        "Seules les tuiles posées ce tour-ci reviennent au chevalet."
    ),
    "The turn is reset: the table and your rack as at its start.": (
        "Le tour est annulé : la table et votre chevalet comme à son début."
    ),
    "Hint: {reason}": "Conseil : {reason}",
    "Hint: no play fits; draw a tile (s).": (
        "Conseil : aucune pose possible ; piochez une tuile (s)."
    ),
    "select or unselect a tile of your rack: the key shown above it": (
        "choisir ou non une tuile du chevalet : la touche affichée au-dessus"
    ),
    "move the rack cursor, select the tile under it": (
        "déplacer le curseur du chevalet, choisir la tuile dessous"
    ),
    "↑ ↓": "↑ ↓",
    "choose a set of the table (past the last: a new set)": (
        "choisir une combinaison de la table (après la dernière : une nouvelle combinaison)"
    ),
    "move the tile cursor in the chosen set": "déplacer le curseur dans la combinaison choisie",
    "select or unselect the table tile under the cursor": (
        "choisir ou non la tuile de la table sous le curseur"
    ),
    "move the selected tiles into the chosen set": (
        "déplacer les tuiles choisies dans la combinaison choisie"
    ),
    "put the selected tiles in a new set": (
        "mettre les tuiles choisies dans une nouvelle combinaison"
    ),
    "split the chosen set before the tile cursor": (
        "scinder la combinaison choisie avant le curseur"
    ),
    "join the chosen set and the next one": "réunir la combinaison choisie et la suivante",
    "take the selected tiles placed this turn back to the rack": (
        "reprendre au chevalet les tuiles choisies posées ce tour-ci"
    ),
    "Backspace": "Retour arrière",
    "reset the turn: the table and rack as at its start": (
        "annuler le tour : la table et le chevalet comme à son début"
    ),
    "Enter": "Entrée",
    "submit the arrangement (the end of your turn)": (
        "jouer la disposition (la fin de votre tour)"
    ),
    "draw a tile instead of playing": "piocher une tuile au lieu de poser",
    "hint: the play that takes the most points off your rack": (
        "conseil : la pose qui ôte le plus de points de votre chevalet"
    ),
    "show the rack by colour or by number": "afficher le chevalet par couleur ou par nombre",
    "unknown bot difficulty {name} (known: {known})": (
        "niveau de robot inconnu {name} (connus : {known})"
    ),
    # -- Indian Rummy: the declaration, the drops and the wild cut
    "Declare": "Déclare",
    "Drop": "Abandon",
    "declared": "a déclaré",
    "dropped": "a abandonné",
    "counts {n}": "compte {n}",
    "after putting out {card}": "en écartant {card}",
    "(no two sequences with a pure one: every card counts)": (
        "(pas deux suites dont une pure : toutes les cartes comptent)"
    ),
    " · dropped ({n})": " · abandon ({n})",
    "Wrong show! Your cards are not all in melds with two sequences, one of them pure: "
    "declaring now costs {n} points.": (
        "Déclaration fausse ! Vos cartes ne sont pas toutes en combinaisons avec deux "
        "suites dont une pure : déclarer maintenant coûte {n} points."
    ),
    "Declare anyway ({n} points)": "Déclarer quand même ({n} points)",
    "Wrong show! Without {card} the other 13 cards are not a valid declaration: it costs "
    "{n} points.": (
        "Déclaration fausse ! Sans {card}, les 13 autres cartes ne forment pas une "
        "déclaration valable : elle coûte {n} points."
    ),
    "Put out {card} anyway ({n} points)": "Écarter {card} quand même ({n} points)",
    "Choose another card": "Choisir une autre carte",
    " · out": " · éliminé",
    # -- Contract Rummy: going down with the contract, buying out of turn
    "bought {card} and {n} penalty card out of turn": (
        "a acheté le {card} et {n} carte de pénalité hors tour"
    ),
    "bought {card} and {n} penalty cards out of turn": (
        "a acheté le {card} et {n} cartes de pénalité hors tour"
    ),
    "bought {card} out of turn": "a acheté le {card} hors tour",
}

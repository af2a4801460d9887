"""The rules of a game in short sentences, for people: the help screens and rules
panels of the terminal game and the web page both show them, so the two never
describe a rule differently.

:func:`rules_lines` reads the options once and says which sentences apply, as codes
with parameters (:class:`~rummykit.variants.show.RuleLine`); a catalog words them.
The English catalog is :data:`RULES_EN` here (the engine's own language, as its error
messages are), the French one ``i18n/rulebook_fr.py``; a test checks both word every
code.  :func:`rules_summary` is the English.  No I/O.

>>> from rummykit.rules import Rules
>>> [line.code for line in rules_lines(Rules.preset("gin"))][:3]
['source', 'cards', 'gin.melds']
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from .rules import PRESET_SOURCES, Family, Rules, RummyBonus, Scoring
from .variants.show import RuleLine

Params = Mapping[str, Any]
Wording = str | Callable[[Params], str]
"""A code's words in a catalog: a template its parameters fill, or a function of them
(for a sentence whose parts come and go with the options)."""


def count(n: int, noun: str) -> str:
    """``n`` and the noun, plural unless ``n`` is one (a new player read "1 cards").

    >>> count(1, "card"), count(0, "meld"), count(12, "deal")
    ('1 card', '0 melds', '12 deals')
    """
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def join_clauses(clauses: Sequence[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    if len(clauses) <= 1:
        return "".join(clauses)
    return ", ".join(clauses[:-1]) + " and " + clauses[-1]


def rules_lines(rules: Rules) -> list[RuleLine]:
    """The sentences that tell ``rules``, as codes with parameters, in order."""
    out: list[RuleLine] = []
    if rules.name in PRESET_SOURCES:
        out.append(RuleLine("source", {"name": rules.name}))
    if rules.family is Family.RUMMIKUB:
        return out + _tile_lines(rules)
    sizes = tuple(int(x) for x in rules.deal_sizes.split("/")) if rules.deal_sizes else ()
    out.append(
        RuleLine(
            "cards",
            {"decks": rules.decks, "jokers": rules.jokers, "hand_size": rules.hand_size,
             "deal_sizes": sizes},
        )
    )  # fmt: skip
    if rules.family is Family.GIN:
        return out + _knock_lines(rules)
    if rules.family is Family.INDIAN:
        return out + _declare_lines(rules)
    out.append(
        RuleLine(
            "melds",
            {"sets": rules.set_suits.value, "min_run": rules.min_run, "ace": rules.ace.value},
        )
    )
    if rules.jokers:
        out.append(RuleLine("jokers", {"per_meld": rules.jokers_per_meld}))
    out.append(RuleLine("turn.multiple" if rules.multiple_melds else "turn.once"))
    out.extend(_contract_lines(rules))
    flags = (
        (
            rules.layoff_after_own_meld and rules.family is not Family.CONTRACT,
            "layoff_after_own_meld",
        ),
        (rules.final_discard, "final_discard"),
        (not rules.final_discard, "go_out_any_way"),
        (rules.discard_pickup.value == "must_use", "must_use"),
        (rules.deep_discard, "deep_discard"),
        (True, "no_throw_back"),
        (rules.joker_swap, "joker_swap"),
        (rules.joker_swap and rules.swapped_joker.value == "must_meld", "swapped_joker"),
        (rules.joker_swap and rules.set_joker_both_suits, "set_joker_both_suits"),
        (rules.joker_to_end, "joker_to_end"),
        (rules.take_from_meld, "take_from_meld"),
    )
    out.extend(RuleLine(code) for on, code in flags if on)
    if rules.opening_minimum:
        opening = {
            "minimum": rules.opening_minimum,
            "each": rules.opening_applies.value == "each_player",
            "pure": rules.opening_pure_run,
        }
        out.append(RuleLine("opening", opening))
    if rules.max_restocks == 0:
        out.append(RuleLine("restock.none"))
    else:
        out.append(RuleLine(f"restock.{rules.restock.value}"))
    if rules.max_restocks:
        out.append(RuleLine("restock.limit", {"n": rules.max_restocks}))
    points = {"ace": rules.ace_points, "joker": rules.joker_points if rules.jokers else None}
    if rules.meld_scoring:
        out.append(RuleLine("scoring.melds", points))
    elif rules.scoring is Scoring.WINNER_COLLECTS:
        out.append(RuleLine("scoring.winner", points))
    else:
        out.append(RuleLine("scoring.penalty", points))
    if rules.rummy_bonus is not RummyBonus.NONE:
        out.append(RuleLine(f"rummy.{rules.rummy_bonus.value}"))
    if rules.never_melded_penalty:
        out.append(RuleLine("never_melded", {"n": rules.never_melded_penalty}))
    if rules.one_turn_out_bonus:
        out.append(RuleLine("one_turn_out", {"n": rules.one_turn_out_bonus}))
    out.append(_end_line(rules))
    return out


def _end_line(rules: Rules) -> RuleLine:
    if rules.deals is not None:
        return RuleLine("end.deals", {"n": rules.deals})
    return RuleLine("end.target", {"n": rules.target_score})


def _contract_lines(rules: Rules) -> list[RuleLine]:
    """Contract Rummy's contracts and buying."""
    from .variants.contract import describe  # (the variant needs the rules first)

    out: list[RuleLine] = []
    contracts = rules.contract_list()
    if contracts:
        words = tuple(describe(contracts, i) for i in range(1, len(contracts) + 1))
        out.append(RuleLine("contracts", {"contracts": words}))
        out.append(RuleLine("contracts.going_down"))
    if rules.buys_per_round:
        out.append(RuleLine("buying", {"penalty": rules.buy_penalty, "buys": rules.buys_per_round}))
    if rules.last_deal_no_discard:
        out.append(RuleLine("last_deal_no_discard"))
    return out


def _declare_lines(rules: Rules) -> list[RuleLine]:
    """The rest of a declaration game's (Indian Rummy's) sentences."""
    out = [RuleLine("indian.wild_cut")] if rules.wild_cut else []
    out += [RuleLine("indian.melds"), RuleLine("indian.turn")]
    if rules.first_drop:
        out.append(RuleLine("indian.drop", {"first": rules.first_drop,
                                             "middle": rules.middle_drop}))  # fmt: skip
    if rules.wrong_show:
        out.append(RuleLine("indian.wrong_show", {"n": rules.wrong_show}))
    else:
        out.append(RuleLine("indian.no_wrong_show"))
    out.append(RuleLine("indian.count", {"cap": rules.max_hand_points}))
    high = rules.scoring is Scoring.WINNER_COLLECTS
    out.append(RuleLine("indian.scoring.high" if high else "indian.scoring.low"))
    if rules.elimination and rules.target_score is not None:
        out.append(RuleLine("indian.pool", {"n": rules.target_score}))
    else:
        out.append(_end_line(rules))
    return out


def _tile_lines(rules: Rules) -> list[RuleLine]:
    """Rummikub's sentences (a tile game: no deck, no discard pile)."""
    out = [
        RuleLine("rummikub.tiles", {"jokers": 2 * rules.jokers, "hand_size": rules.hand_size}),
        RuleLine("rummikub.sets"),
        RuleLine("rummikub.turn"),
    ]
    if rules.opening_minimum:
        out.append(
            RuleLine(
                "rummikub.opening",
                {"minimum": rules.opening_minimum, "untouched": rules.first_meld_untouched},
            )
        )
    if rules.jokers:
        out.append(RuleLine("rummikub.joker"))
    if rules.turn_seconds is not None:
        out.append(RuleLine("rummikub.timer", {"seconds": rules.turn_seconds}))
    out.append(RuleLine("rummikub.pool"))
    out.append(RuleLine("rummikub.scoring", {"joker": rules.joker_points}))
    out.append(_end_line(rules))
    return out


def _knock_lines(rules: Rules) -> list[RuleLine]:
    """The rest of a knock game's (Gin Rummy's) sentences."""
    out = [RuleLine("gin.melds"), RuleLine("gin.upcard")]
    out.append(
        RuleLine("gin.turn.oklahoma")
        if rules.oklahoma
        else RuleLine("gin.turn", {"limit": rules.knock_card})
    )
    out.append(RuleLine("gin.knock"))
    out.append(RuleLine("gin.scoring", {"gin": rules.gin_bonus, "undercut": rules.undercut_bonus}))
    if rules.wall:
        out.append(RuleLine("gin.wall", {"n": rules.wall}))
    out.append(_end_line(rules))
    if rules.game_bonus or rules.line_bonus or rules.shutout_double:
        bonuses = {
            "game": rules.game_bonus,
            "line": rules.line_bonus,
            "shutout": rules.shutout_double,
        }
        out.append(RuleLine("gin.bonuses", bonuses))
    return out


def render(lines: Sequence[RuleLine], catalog: Mapping[str, Wording]) -> list[str]:
    """``lines`` in a catalog's words (a missing code is shown as the code)."""
    out = []
    for line in lines:
        wording = catalog.get(line.code, line.code)
        out.append(wording(line.params) if callable(wording) else wording.format(**line.params))
    return out


def rules_summary(rules: Rules) -> list[str]:
    """The rules of a game as short sentences for the help screen, in English."""
    return render(rules_lines(rules), RULES_EN)


# -- the English catalog -----------------------------------------------------------------
def _cards(p: Params) -> str:
    decks = ("one 52-card deck", "two 52-card decks", "three 52-card decks")[p["decks"] - 1]
    if p["jokers"]:
        decks += f" with {count(p['jokers'], 'joker')} each"
    size = (
        f"{p['hand_size']} cards each"
        if p["hand_size"] is not None
        else "10 cards each for 2 players, 7 for 3-4, 6 for 5-6"
    )
    if p["deal_sizes"]:
        sizes = [str(n) for n in p["deal_sizes"]]
        size = f"{join_clauses(sizes)} cards each in deals 1 to {len(sizes)}"
    return f"Cards: {decks}; {size}."


def _melds(p: Params) -> str:
    sets = "3-4 cards of one rank in different suits"
    if p["sets"] == "any":
        sets = "3+ cards of one rank (suits may repeat)"
    ace = {
        "low": "ace low only (A-2-3, not Q-K-A)",
        "high": "ace high only (Q-K-A, not A-2-3)",
    }.get(p["ace"], "ace high or low (A-2-3 or Q-K-A, never K-A-2)")
    return f"Melds: sets of {sets}; runs of {p['min_run']}+ cards in one suit; {ace}."


def _turn(melds: str) -> str:
    return (
        f"Turn: draw from the stock or take the top discard, {melds}, lay off on any meld, "
        "discard one card to end the turn."
    )


def _opening(p: Params) -> str:
    scope = "Each player's" if p["each"] else "The round's first"
    pure = " and include a run without a joker" if p["pure"] else ""
    return (
        f"{scope} opening melds must total {p['minimum']} points{pure} (ace 1 low or 11, faces 10)."
    )


def _points(p: Params) -> str:
    joker = f", jokers {p['joker']}" if p["joker"] is not None else ""
    return f"aces {p['ace']}, faces 10{joker}"


def _gin_bonuses(p: Params) -> str:
    extras = []
    if p["game"]:
        extras.append(f"the winner adds {p['game']}")
    if p["line"]:
        extras.append(f"each player adds {p['line']} per hand won")
    if p["shutout"]:
        extras.append("a shutout doubles the winner's total")
    return "At the end " + join_clauses(extras) + "."


RULES_EN: dict[str, Wording] = {
    "source": lambda p: f"{p['name']}: {PRESET_SOURCES[p['name']]}.",
    "rummikub.tiles": lambda p: (
        "Tiles: two of each number 1 to 13 in four colours"
        + (f" and {count(p['jokers'], 'joker')}" if p["jokers"] else "")
        + f"; {p['hand_size']} tiles each, the rest the pool."
    ),
    "rummikub.sets": "Sets: runs of 3+ numbers in a row of one colour (1 never follows 13); "
    "groups of 3-4 different colours of one number; a joker stands for any tile.",
    "rummikub.turn": "Turn: play tiles from your rack, rearranging the whole table as you "
    "like so that every set is valid at the end, or draw one tile.",
    "rummikub.opening": lambda p: (
        f"Your first meld is new sets of your own tiles worth {p['minimum']}+ points "
        "(the tiles' numbers)"
        + (
            ", the table left as it is."
            if p["untouched"]
            else "; that turn may rearrange the table."
        )
    ),
    "rummikub.joker": "A joker on the table moves only when the tile it stands for takes "
    "its place, and is played again that turn.",
    "rummikub.timer": "A turn lasts at most {seconds} seconds; past that the turn's tiles "
    "go back and the player draws three tiles.",
    "rummikub.pool": "With the pool empty a player who does not play passes; when everyone "
    "has passed in turn, the lowest rack wins.",
    "rummikub.scoring": lambda p: (
        "Scoring: each loser scores minus their rack (tiles at their numbers, a joker "
        f"{p['joker']}); the winner scores the total."
    ),
    "cards": _cards,
    "melds": _melds,
    "jokers": "Jokers stand for any card, at most {per_meld} per meld.",
    "turn.multiple": _turn("meld any number of times"),
    "turn.once": _turn("meld at most once"),
    "contracts": lambda p: (
        "Contracts: " + "; ".join(f"deal {i}, {w}" for i, w in enumerate(p["contracts"], 1)) + "."
    ),
    "contracts.going_down": "You go down only with the whole contract, in one turn; after "
    "that you lay off only, on any meld.",
    "buying": lambda p: (
        "When the player in turn draws from the stock, the others in turn "
        f"order may buy the top discard, taking {count(p['penalty'], 'penalty card')} from the "
        f"stock with it ({count(p['buys'], 'buy')} a deal each)."
    ),
    "last_deal_no_discard": "In the last deal nobody goes out by discarding.",
    "layoff_after_own_meld": "You may lay off only after laying down a meld of your own.",
    "final_discard": "Going out needs a final discard.",
    "go_out_any_way": "You may go out by melding or laying off your last card.",
    "must_use": "A card taken from the discard pile must be used in a meld at once.",
    "deep_discard": "You may take any card of the discard pile, with every card above it, "
    "if you meld it at once.",
    "no_throw_back": "The card taken from the discard pile cannot be thrown back the same turn.",
    "joker_swap": "After opening, swap a table joker for the card it stands for.",
    "swapped_joker": "A joker you free must go into a new meld that turn.",
    "set_joker_both_suits": "A set's joker is freed only by both missing suits at once; a "
    "set of four with a joker is closed.",
    "joker_to_end": "Once down, put the card a joker inside a run stands for in its place: "
    "the joker moves to an end.",
    "take_from_meld": "After opening, take a card from a meld of 4+ cards for a new meld.",
    "opening": _opening,
    "restock.none": "The round ends when the stock runs out.",
    "restock.turn_over": "When the stock runs out the discard pile is turned over to form a "
    "new stock.",
    "restock.shuffle": "When the stock runs out the discard pile is shuffled to form a new stock.",
    "restock.shuffle_keep_top": "When the stock runs out the discard pile but its top card "
    "is shuffled into a new stock.",
    "restock.limit": lambda p: f"The round ends blocked after {count(p['n'], 'restock')}.",
    "scoring.melds": lambda p: (
        "Scoring: every meld and lay-off scores its cards for whoever "
        f"lays it (aces {p['ace']}, faces 10); the cards left in a hand count against it; the "
        "highest total wins."
    ),
    "scoring.winner": lambda p: (
        "Scoring: whoever goes out scores the cards left in the "
        f"other hands ({_points(p)}); the highest total wins."
    ),
    "scoring.penalty": lambda p: (
        "Scoring: everyone else adds the cards left in their own "
        f"hand ({_points(p)}); the lowest total wins."
    ),
    "rummy.double": "Going out in one turn (rummy) doubles the score.",
    "rummy.plus_ten": "Going out in one turn (rummy) adds 10 points.",
    "never_melded": "A player who never melded adds {n}.",
    "one_turn_out": "Going out in one turn before anyone melded scores {n:+d}.",
    "end.deals": lambda p: f"The match lasts {count(p['n'], 'deal')}.",
    "end.target": "The match ends when a score reaches {n}.",
    "indian.wild_cut": "Wild card: after the deal the bottom card of the stock is turned "
    "up; every card of its rank is a joker this deal (aces, if it is a printed joker).",
    "indian.melds": "Melds: sequences of 3+ cards in one suit (ace low or high, never "
    "K-A-2) and sets of 3-4 cards of one rank in different suits; jokers stand for any "
    "card. Melds stay in your hand until you declare.",
    "indian.turn": "Turn: draw from the stock or take the top discard, then discard, or "
    "declare (k) and put out your extra card (select it, d): the other 13 must all be in "
    "melds, with two sequences, one of them pure (no joker).",
    "indian.drop": "Drop (x), before drawing: leave the deal for {first} points on your "
    "first turn, {middle} later.",
    "indian.wrong_show": "Wrong show: declaring cards that are not a valid show costs {n} "
    "points and takes you out of the deal; the game warns you first.",
    "indian.no_wrong_show": "A declaration that is not a valid show is refused.",
    "indian.count": lambda p: (
        "At a declaration the others count their ungrouped cards "
        "(aces and pictures 10, jokers 0), or every card without two sequences and a pure one"
        + (f", at most {p['cap']}" if p["cap"] is not None else "")
        + "."
    ),
    "indian.scoring.high": "Scoring: the declarer collects everyone's count; the highest "
    "total wins.",
    "indian.scoring.low": "Scoring: everyone adds their own count; the lowest total wins.",
    "indian.pool": "Pool: a player whose total reaches {n} is out; the last player left wins.",
    "gin.melds": "Melds: sets of 3-4 cards of one rank; runs of 3+ cards in one suit; ace "
    "low only. Melds stay in your hand until the hand ends.",
    "gin.upcard": "First upcard: the non-dealer, then the dealer, may take it or pass (n).",
    "gin.turn": "Turn: draw from the stock or take the top discard, then discard, or knock "
    "(k) when the cards outside your melds (deadwood: ace 1, faces 10) total {limit} or "
    "less.",
    "gin.turn.oklahoma": "Turn: draw from the stock or take the top discard, then discard, "
    "or knock (k) when the cards outside your melds (deadwood: ace 1, faces 10) total the "
    "first upcard's value (an ace: gin only) or less.",
    "gin.knock": "Knock: discard, lay your melds (m, or a for the best ones), then n. The "
    "other player lays off on your melds (l) unless you went gin, then lays melds.",
    "gin.scoring": "Scoring: the knocker scores the difference in deadwood, plus {gin} for "
    "gin (no deadwood); if the defender's deadwood is lower, the defender scores the "
    "difference plus {undercut} (undercut); equal scores nothing.",
    "gin.wall": "The hand is void when a discard leaves {n} cards in the stock.",
    "gin.bonuses": _gin_bonuses,
}
"""Every code of :func:`rules_lines`, in English."""

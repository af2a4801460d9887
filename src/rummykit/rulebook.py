"""The rules of a game in short sentences, for people: the help screens and rules
panels of the terminal game and the web page both show :func:`rules_summary`, so the
two never describe a rule differently.  Plain text, English; no I/O."""

from __future__ import annotations

from collections.abc import Sequence

from .rules import (
    PRESET_SOURCES,
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


def rules_summary(rules: Rules) -> list[str]:
    """The rules of a game as short sentences for the help screen."""
    out: list[str] = []
    source = PRESET_SOURCES.get(rules.name)
    if source:
        out.append(f"{rules.name}: {source}.")
    decks = ("one 52-card deck", "two 52-card decks", "three 52-card decks")[rules.decks - 1]
    if rules.jokers:
        decks += f" with {count(rules.jokers, 'joker')} each"
    size = (
        f"{rules.hand_size} cards each"
        if rules.hand_size is not None
        else "10 cards each for 2 players, 7 for 3-4, 6 for 5-6"
    )
    if rules.deal_sizes:
        sizes = rules.deal_sizes.split("/")
        size = f"{join_clauses(sizes)} cards each in deals 1 to {len(sizes)}"
    out.append(f"Cards: {decks}; {size}.")
    if rules.family is Family.GIN:
        return out + _knock_summary(rules)
    if rules.family is Family.INDIAN:
        return out + _declare_summary(rules)
    sets = "3-4 cards of one rank in different suits"
    if rules.set_suits is SetSuits.ANY:
        sets = "3+ cards of one rank (suits may repeat)"
    ace = {
        Ace.LOW: "ace low only (A-2-3, not Q-K-A)",
        Ace.HIGH: "ace high only (Q-K-A, not A-2-3)",
    }.get(rules.ace, "ace high or low (A-2-3 or Q-K-A, never K-A-2)")
    out.append(f"Melds: sets of {sets}; runs of {rules.min_run}+ cards in one suit; {ace}.")
    if rules.jokers:
        out.append(f"Jokers stand for any card, at most {rules.jokers_per_meld} per meld.")
    turn = ["draw from the stock or take the top discard"]
    turn.append("meld any number of times" if rules.multiple_melds else "meld at most once")
    turn.append("lay off on any meld")
    turn.append("discard one card to end the turn")
    out.append("Turn: " + ", ".join(turn) + ".")
    out.extend(_contract_lines(rules))
    extras: list[str] = []
    if (
        rules.layoff_after_own_meld and rules.family is not Family.CONTRACT
    ):  # (said with the contracts)
        extras.append("you may lay off only after laying down a meld of your own")
    if rules.final_discard:
        extras.append("going out needs a final discard")
    else:
        extras.append("you may go out by melding or laying off your last card")
    if rules.discard_pickup is DiscardPickup.MUST_USE:
        extras.append("a card taken from the discard pile must be used in a meld at once")
    if rules.deep_discard:
        extras.append(
            "you may take any card of the discard pile, with every card above it, "
            "if you meld it at once"
        )
    extras.append("the card taken from the discard pile cannot be thrown back the same turn")
    if rules.joker_swap:
        extras.append("after opening, swap a table joker for the card it stands for")
        if rules.swapped_joker is SwappedJoker.MUST_MELD:
            extras.append("a joker you free must go into a new meld that turn")
        if rules.set_joker_both_suits:
            extras.append(
                "a set's joker is freed only by both missing suits at once; "
                "a set of four with a joker is closed"
            )
    if rules.joker_to_end:
        extras.append(
            "once down, put the card a joker inside a run stands for in its place: the joker "
            "moves to an end"
        )
    if rules.take_from_meld:
        extras.append("after opening, take a card from a meld of 4+ cards for a new meld")
    if rules.opening_minimum:
        scope = (
            "each player's"
            if rules.opening_applies is OpeningScope.EACH_PLAYER
            else "the round's first"
        )
        pure = " and include a run without a joker" if rules.opening_pure_run else ""
        extras.append(
            f"{scope} opening melds must total {rules.opening_minimum} points{pure} "
            "(ace 1 low or 11, faces 10)"
        )
    out.extend(e[0].upper() + e[1:] + "." for e in extras)
    restock = {
        Restock.TURN_OVER: "the discard pile is turned over to form a new stock",
        Restock.SHUFFLE: "the discard pile is shuffled to form a new stock",
        Restock.SHUFFLE_KEEP_TOP: "the discard pile but its top card is shuffled into a new stock",
    }[rules.restock]
    if rules.max_restocks == 0:
        out.append("The round ends when the stock runs out.")
    else:
        out.append(f"When the stock runs out {restock}.")
    if rules.max_restocks:
        out.append(f"The round ends blocked after {count(rules.max_restocks, 'restock')}.")
    ace_pts = f"aces {rules.ace_points}"
    joker_pts = f", jokers {rules.joker_points}" if rules.jokers else ""
    if rules.meld_scoring:
        out.append(
            "Scoring: every meld and lay-off scores its cards for whoever lays it "
            f"({ace_pts}, faces 10); the cards left in a hand count against it; "
            "the highest total wins."
        )
    elif rules.scoring is Scoring.WINNER_COLLECTS:
        out.append(
            "Scoring: whoever goes out scores the cards left in the other hands "
            f"({ace_pts}, faces 10{joker_pts}); the highest total wins."
        )
    else:
        out.append(
            "Scoring: everyone else adds the cards left in their own hand "
            f"({ace_pts}, faces 10{joker_pts}); the lowest total wins."
        )
    if rules.rummy_bonus is RummyBonus.DOUBLE:
        out.append("Going out in one turn (rummy) doubles the score.")
    elif rules.rummy_bonus is RummyBonus.PLUS_TEN:
        out.append("Going out in one turn (rummy) adds 10 points.")
    if rules.never_melded_penalty:
        out.append(f"A player who never melded adds {rules.never_melded_penalty}.")
    if rules.one_turn_out_bonus:
        out.append(
            f"Going out in one turn before anyone melded scores {rules.one_turn_out_bonus:+d}."
        )
    if rules.deals is not None:
        out.append(f"The match lasts {count(rules.deals, 'deal')}.")
    else:
        out.append(f"The match ends when a score reaches {rules.target_score}.")
    return out


def _contract_lines(rules: Rules) -> list[str]:
    """Contract Rummy's contracts and buying, for :func:`rules_summary`."""
    from .variants.contract import describe  # (the variant needs the rules first)

    out: list[str] = []
    contracts = rules.contract_list()
    if contracts:
        each = [f"deal {i}, {describe(contracts, i)}" for i in range(1, len(contracts) + 1)]
        out.append(f"Contracts: {'; '.join(each)}.")
        out.append(
            "You go down only with the whole contract, in one turn; after that you lay "
            "off only, on any meld."
        )
    if rules.buys_per_round:
        out.append(
            "When the player in turn draws from the stock, the others in turn order may "
            f"buy the top discard, taking {count(rules.buy_penalty, 'penalty card')} from "
            f"the stock with it ({count(rules.buys_per_round, 'buy')} a deal each)."
        )
    if rules.last_deal_no_discard:
        out.append("In the last deal nobody goes out by discarding.")
    return out


def _declare_summary(rules: Rules) -> list[str]:
    """The rest of :func:`rules_summary` for a declaration game (Indian Rummy)."""
    out = []
    if rules.wild_cut:
        out.append(
            "Wild card: after the deal the bottom card of the stock is turned up; every card "
            "of its rank is a joker this deal (aces, if it is a printed joker)."
        )
    out += [
        "Melds: sequences of 3+ cards in one suit (ace low or high, never K-A-2) and sets "
        "of 3-4 cards of one rank in different suits; jokers stand for any card. Melds "
        "stay in your hand until you declare.",
        "Turn: draw from the stock or take the top discard, then discard, or declare (k) "
        "and put out your extra card (select it, d): the other 13 must all be in melds, "
        "with two sequences, one of them pure (no joker).",
    ]
    if rules.first_drop:
        out.append(
            f"Drop (x), before drawing: leave the deal for {rules.first_drop} points on your "
            f"first turn, {rules.middle_drop} later."
        )
    if rules.wrong_show:
        out.append(
            f"Wrong show: declaring cards that are not a valid show costs {rules.wrong_show} "
            "points and takes you out of the deal; the game warns you first."
        )
    else:
        out.append("A declaration that is not a valid show is refused.")
    cap = f", at most {rules.max_hand_points}" if rules.max_hand_points is not None else ""
    out.append(
        "At a declaration the others count their ungrouped cards (aces and pictures 10, "
        f"jokers 0), or every card without two sequences and a pure one{cap}."
    )
    if rules.scoring is Scoring.WINNER_COLLECTS:
        out.append("Scoring: the declarer collects everyone's count; the highest total wins.")
    else:
        out.append("Scoring: everyone adds their own count; the lowest total wins.")
    if rules.elimination and rules.target_score is not None:
        out.append(
            f"Pool: a player whose total reaches {rules.target_score} is out; the last "
            "player left wins."
        )
    elif rules.deals is not None:
        out.append(f"The match lasts {count(rules.deals, 'deal')}.")
    else:
        out.append(f"The match ends when a score reaches {rules.target_score}.")
    return out


def _knock_summary(rules: Rules) -> list[str]:
    """The rest of :func:`rules_summary` for a knock game (Gin Rummy)."""
    limit = (
        "the first upcard's value (an ace: gin only)" if rules.oklahoma else str(rules.knock_card)
    )
    out = [
        "Melds: sets of 3-4 cards of one rank; runs of 3+ cards in one suit; ace low only. "
        "Melds stay in your hand until the hand ends.",
        "First upcard: the non-dealer, then the dealer, may take it or pass (n).",
        "Turn: draw from the stock or take the top discard, then discard, or knock (k) "
        f"when the cards outside your melds (deadwood: ace 1, faces 10) total {limit} "
        "or less.",
        "Knock: discard, lay your melds (m, or a for the best ones), then n. The other "
        "player lays off on your melds (l) unless you went gin, then lays melds.",
        f"Scoring: the knocker scores the difference in deadwood, plus {rules.gin_bonus} "
        f"for gin (no deadwood); if the defender's deadwood is lower, the defender "
        f"scores the difference plus {rules.undercut_bonus} (undercut); equal scores nothing.",
    ]
    if rules.wall:
        out.append(f"The hand is void when a discard leaves {rules.wall} cards in the stock.")
    if rules.deals is not None:
        out.append(f"The match lasts {count(rules.deals, 'deal')}.")
    else:
        out.append(f"The match ends when a score reaches {rules.target_score}.")
    extras = []
    if rules.game_bonus:
        extras.append(f"the winner adds {rules.game_bonus}")
    if rules.line_bonus:
        extras.append(f"each player adds {rules.line_bonus} per hand won")
    if rules.shutout_double:
        extras.append("a shutout doubles the winner's total")
    if extras:
        out.append("At the end " + join_clauses(extras) + ".")
    return out

"""Seed 003, French Rami 51 (preset ``rami51``): two 54-card decks, 13 cards, 2-5
players, jokers (one per meld), meld values, the 51-point opening, taking cards from
table melds, joker swaps, penalty scoring and the lowest total winning.

Every test quotes the seed 003 passage (or RULES-NOTES item) it checks.
"""

from __future__ import annotations

import pytest

from helpers import (
    build,
    conserved,
    discard_move,
    draw,
    hand_faces,
    layoff_move,
    meld_index,
    meld_move,
    pile_faces,
    swap_move,
    take_move,
)
from rummykit import IllegalMoveError, Move, Rules, RulesError, new_game
from rummykit.cards import JOKER, face_of, parse_cards
from rummykit.events import Cut
from rummykit.moves import DISCARD, DRAW_DISCARD, DRAW_STOCK, LAYOFF, MELD, SWAP, TAKE
from rummykit.results import RoundEnd
from rummykit.scoring import card_value
from rummykit.state import GameState, Phase

OPENED = {"opened": [True, True], "melded": [True, True], "laid": [True, True]}
"""Both players have opened in an earlier turn."""


def melds_in(g: GameState) -> set[str]:
    return {g.game.melds.describe(m.a) for m in g.legal_moves() if m.kind == MELD}


# -- cards, players, deal --------------------------------------------------------------------


def test_two_decks_of_54() -> None:
    """003: "2 decks of 54 cards (Jokers included)."""
    r = Rules.preset("rami51")
    assert r.deck_size == 108 and (r.decks, r.jokers) == (2, 2)
    g = new_game(r, players=2, seed=1)
    assert conserved(g)
    every = [c for h in g.hands for c in range(108) if h >> c & 1] + g.stock + g.discard
    assert sum(face_of(c) == JOKER for c in every) == 4


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_thirteen_cards_each_for_two_to_five(players: int) -> None:
    """003: "Deal 13 cards to each player." "2 to 5 players." "Turn over the top card of
    the draw pile to start the discard pile."""
    g = new_game("rami51", players=players, seed=2)
    assert [g.hand_size(p) for p in range(players)] == [13] * players
    assert len(g.discard) == 1 and len(g.stock) == 108 - 13 * players - 1


@pytest.mark.parametrize("players", [1, 6])
def test_player_count_outside_two_to_five(players: int) -> None:
    """003: "2 to 5 players."""
    with pytest.raises(RulesError, match="2 to 5 players"):
        new_game("rami51", players=players)


# -- melds ------------------------------------------------------------------------------------


def test_run_and_set_definitions() -> None:
    """003: "A meld must have at least three cards ... A run: Consecutive cards of the same
    suit. (Example: Ace of clubs, 2 of clubs, 3 of clubs.) A set: Cards of the same rank
    and different suits. (Example: Ace of diamonds, Ace of hearts, Ace of clubs.)"""
    g = build("rami51", hands=["AC 2C 3C AD AH AD 7S 8S", "KS"], discard="7D", **OPENED)
    melds = melds_in(g)
    assert {"AC 2C 3C", "AC AD AH"} <= melds
    assert not any(d.count("AD") > 1 for d in melds)  # two AD are not "different suits"
    with pytest.raises(ValueError):
        meld_index(g, "AD AD AH")
    with pytest.raises(ValueError):
        meld_index(g, "7S 8S")
    sets = [s for s in g.game.melds.shapes if s.kind == 1]
    assert max(len(s.cells) for s in sets) == 4


def test_ace_high_or_low_but_not_both_in_one_meld() -> None:
    """003: "An Ace cannot be considered the highest and lowest card in the same meld ...
    the following meld is legal: Queen of Hearts, King of Hearts, Ace of Hearts. While the
    next meld is illegal: Queen of Hearts, King of Hearts, Ace of Hearts, Two of Hearts."
    (RULES-NOTES 1: K-A-2 is not valid either.)"""
    g = build("rami51", hands=["QH KH AH 2H 3H", "KS"], discard="7D", **OPENED)
    melds = melds_in(g)
    assert {"QH KH AH", "AH 2H 3H"} <= melds
    for bad in ("QH KH AH 2H", "KH AH 2H"):
        assert bad not in melds
        with pytest.raises(ValueError):
            meld_index(g, bad)
    g = build("rami51", hands=["2H 9C", "KS"], discard="7D", table=[(1, "QH KH AH")], **OPENED)
    assert not [m for m in g.legal_moves() if m.kind == LAYOFF]
    runs = [s for s in g.game.melds.shapes if s.kind == 0]
    assert max(len(s.cells) for s in runs) == 13  # never A..K..A (RULES-NOTES 3)


def test_at_most_one_joker_per_meld() -> None:
    """003: "The Joker is wild and therefore can represent any card, but there must be
    only one Joker in a meld. (Example: Jack of Hearts - Queen of Hearts - Joker)"."""
    g = build("rami51", hands=["JH QH JK JK 5C", "KS"], discard="7D", **OPENED)
    melds = melds_in(g)
    assert {"JK=TH JH QH", "JH QH JK=KH"} <= melds
    assert all(d.count("JK") <= 1 for d in melds)
    with pytest.raises(ValueError):
        meld_index(g, "JH JK=QH JK=KH")
    g = build("rami51", hands=["JK 9C 9D", "KS"], discard="7D",
              table=[(1, "5C JK=6C 7C")], **OPENED)  # fmt: skip
    assert not [m for m in g.legal_moves() if m.kind == LAYOFF]
    with pytest.raises(IllegalMoveError) as e:
        g.apply(layoff_move(g, 0, "JK=8C"))
    assert e.value.rule == "jokers_per_meld"


@pytest.mark.parametrize(
    ("meld", "points"),
    [
        ("AC 2C 3C", 6),  # "An Ace placed before a 2 is worth 1 point."
        ("QH KH AH", 31),  # "An Ace placed after a King is worth 11 points."
        ("AS AC AH", 33),  # "This meld is worth 33 points as each Ace is worth 11 points."
        ("4H 4S JK=4C", 12),  # "the Joker is worth 4 points as it represents a 4."
        ("JH QH JK=KH", 30),  # "Each Jack, Queen, or King is worth 10 points."
        ("8D 9D 10D", 27),  # "A card from 2 to 10 is worth its face value."
    ],
)
def test_meld_values(meld: str, points: int) -> None:
    """003, "The Values of the Cards in a Meld" (RULES-NOTES 1: an ace counts 1 before a 2
    and 11 after a king or in a set)."""
    g = build("rami51", hands=["KS", "KC"], discard="7D")
    assert g.game.melds.shapes[meld_index(g, meld)].points == points


# -- the 51-point opening ------------------------------------------------------------------------


def test_opening_with_one_meld_of_51() -> None:
    """003: "The first player to place a meld must have a combination that's worth at
    least 51 points." (10+10+10+10+11 = 51)"""
    g = build("rami51", hands=["9D 10D JD QD KD 2S", "KS"], discard="7D")
    assert not melds_in(g)  # 49 points
    with pytest.raises(IllegalMoveError) as e:
        g.apply(meld_move(g, "9D 10D JD QD KD"))
    assert e.value.rule == "opening_minimum"
    g = build("rami51", hands=["10C JC QC KC AC 2S", "KS"], discard="7D")
    assert melds_in(g) == {"TC JC QC KC AC"}
    g.apply(meld_move(g, "10C JC QC KC AC"))
    assert g.opened[0] and g.open_points == 51


def test_opening_with_several_melds_in_one_turn() -> None:
    """RULES-NOTES 8: "The first meld, or melds, laid down in one turn must total at least
    51 points by meld values"; no discard until the opening is complete."""
    g = build("rami51", hands=["10H JH QH KH 5S 5C 5D 2C 9S", "KS"], discard="7D")
    assert {"TH JH QH KH", "5C 5D 5S"} <= melds_in(g)
    g.apply(meld_move(g, "10H JH QH KH"))
    assert not g.opened[0] and g.open_points == 40
    assert [m.kind for m in g.legal_moves()] == [MELD]
    with pytest.raises(IllegalMoveError) as e:
        g.apply(discard_move("9S"))
    assert e.value.rule == "opening_minimum"
    g.apply(meld_move(g, "5S 5C 5D"))
    assert g.opened[0] and g.open_points == 55
    assert {m.kind for m in g.legal_moves()} == {DISCARD}


def test_a_first_meld_that_cannot_lead_to_51_is_not_legal() -> None:
    """RULES-NOTES 8 with the engine's obligation rule: a meld that starts an opening the
    player cannot complete this turn is not offered (10H JH QH = 30, + 5s = 45)."""
    g = build("rami51", hands=["10H JH QH 5S 5C 5D 2C 9S", "KS"], discard="7D")
    assert not melds_in(g)


def test_opening_applies_to_each_player_by_default() -> None:
    """RULES-NOTES 8: "Seed 003 says "the first player to place a meld"; most references
    apply the minimum to each player's first meld. Choose, document, and make it an
    option." Default: each player."""
    g = build("rami51", hands=["2S 3S 4S 9C", "KS"], discard="7D",
              table=[(1, "10C JC QC KC AC")])  # fmt: skip
    assert g.rules.opening_applies.value == "each_player"
    assert not melds_in(g)


def test_opening_option_first_meld_only() -> None:
    """003, literally: "The first player to place a meld must have a combination that's
    worth at least 51 points." (``opening_applies=first_meld``)"""
    spec = "rami51(opening_applies=first_meld)"
    g = build(spec, hands=["2S 3S 4S 9C", "KS"], discard="7D", table=[(1, "10C JC QC KC AC")])
    assert "2S 3S 4S" in melds_in(g)
    g.apply(meld_move(g, "2S 3S 4S"))
    assert g.opened[0]
    g = build(spec, hands=["2S 3S 4S 9C", "KS"], discard="7D")
    assert not melds_in(g)  # nobody has opened yet


def test_lay_off_only_after_opening() -> None:
    """003: "Note: The player can enlarge or modify an already placed meld." The engine
    lets a player do so once opened (``layoff_after_own_meld``, RULES-NOTES 8)."""
    g = build("rami51", hands=["8S 9C", "KS"], discard="7D", table=[(1, "5S 6S 7S")])
    assert not [m for m in g.legal_moves() if m.kind == LAYOFF]
    g = build("rami51", hands=["8S 9C", "KS"], discard="7D", table=[(1, "5S 6S 7S")], **OPENED)
    assert layoff_move(g, 0, "8S") in g.legal_moves()


# -- taking from table melds ---------------------------------------------------------------------


def test_take_from_meld_of_more_than_three_and_meld_at_once() -> None:
    """003: "A player can retrieve a card from the melds on the table if the following
    conditions are met: The card to be retrieved is immediately used to form a new meld.
    The meld they're retrieving the card from consists of more than three cards."
    (RULES-NOTES 9)"""
    g = build("rami51", hands=["8S 8D 2C 9S", "KS"], discard="7D",
              table=[(1, "5H 6H 7H 8H")], **OPENED)  # fmt: skip
    m = take_move(g, 0, "8H")
    assert m in g.legal_moves()
    g.apply(m)
    assert hand_faces(g, 0) == sorted(["2C", "8D", "8H", "8S", "9S"])
    assert pile_faces(g.table[0].cards) == ["5H", "6H", "7H"]
    # "immediately used": the next move must be a meld with the taken card.
    assert {g.game.melds.describe(x.a) for x in g.legal_moves()} == {"8D 8H 8S"}
    with pytest.raises(IllegalMoveError) as e:
        g.apply(discard_move("2C"))
    assert e.value.rule == "pending_card_must_be_used"
    g.apply(meld_move(g, "8H 8S 8D"))
    assert len(g.table) == 2 and g.pending == -1
    assert conserved(g)


def test_take_from_a_set_of_four() -> None:
    """003: "The meld they're retrieving the card from consists of more than three
    cards." RULES-NOTES 9: "what remains is still a valid meld"."""
    g = build("rami51", hands=["9H 10H 2C", "KS"], discard="7D",
              table=[(1, "JC JD JH JS")], **OPENED)  # fmt: skip
    g.apply(take_move(g, 0, "JH"))
    g.apply(meld_move(g, "9H 10H JH"))
    assert sorted(pile_faces(g.table[0].cards)) == ["JC", "JD", "JS"]


def test_no_take_from_a_meld_of_three() -> None:
    """003: "The meld they're retrieving the card from consists of more than three
    cards."""
    g = build("rami51", hands=["8S 8D 2C", "KS"], discard="7D",
              table=[(1, "6H 7H 8H")], **OPENED)  # fmt: skip
    assert not [m for m in g.legal_moves() if m.kind == TAKE]
    with pytest.raises(IllegalMoveError) as e:
        g.apply(take_move(g, 0, "8H"))
    assert e.value.rule == "take_from_meld_size"


def test_no_take_that_leaves_an_invalid_meld() -> None:
    """RULES-NOTES 9: "what remains is still a valid meld"; the engine takes only from the
    ends of a run, so a run is never split."""
    g = build("rami51", hands=["6S 6D 2C", "KS"], discard="7D",
              table=[(1, "5H 6H 7H 8H")], **OPENED)  # fmt: skip
    with pytest.raises(IllegalMoveError) as e:
        g.apply(take_move(g, 0, "6H"))
    assert e.value.rule == "take_leaves_invalid_meld"
    g = build("rami51", hands=["5S 5D 2C", "KS"], discard="7D",
              table=[(1, "2H 3H 4H 5H 6H 7H 8H")], **OPENED)  # fmt: skip
    assert take_move(g, 0, "5H") not in g.legal_moves()  # would split into two runs


def test_no_take_unless_the_card_makes_a_new_meld() -> None:
    """003: "The card to be retrieved is immediately used to form a new meld."""
    g = build("rami51", hands=["8S 2C 9D", "KS"], discard="7D",
              table=[(1, "5H 6H 7H 8H")], **OPENED)  # fmt: skip
    assert not [m for m in g.legal_moves() if m.kind == TAKE]
    with pytest.raises(IllegalMoveError) as e:
        g.apply(take_move(g, 0, "8H"))
    assert e.value.rule == "taken_card_must_meld"


# -- jokers -------------------------------------------------------------------------------------


def test_joker_swap_by_giving_the_represented_card() -> None:
    """003: "A player can retrieve a Joker if they are going to replace it with the card
    it was representing." Under ``swapped_joker=must_meld`` (the preset; RULES-NOTES 4)
    the freed joker must go into a new meld at once."""
    g = build("rami51", hands=["10D 2C 3C 9S", "KS"], discard="7D",
              table=[(1, "9D JK=10D JD")], **OPENED)  # fmt: skip
    assert g.rules.swapped_joker.value == "must_meld"
    assert swap_move(0, "10D") in g.legal_moves()
    g.apply(swap_move(0, "10D"))
    assert pile_faces(g.table[0].cards) == ["9D", "TD", "JD"]
    assert face_of(g.pending) == JOKER
    assert melds_in(g) == {"JK=AC 2C 3C", "2C 3C JK=4C"}
    assert not [m for m in g.legal_moves() if m.kind != MELD]
    g.apply(meld_move(g, "2C 3C JK=4C"))
    assert g.pending == -1


def test_joker_swap_not_offered_when_the_joker_cannot_be_melded() -> None:
    """RULES-NOTES 4: "Some references require the freed joker to be used in a new meld in
    the same turn" (``must_meld``)."""
    g = build("rami51", hands=["10D 2C 9S", "KS"], discard="7D",
              table=[(1, "9D JK=10D JD")], **OPENED)  # fmt: skip
    assert not [m for m in g.legal_moves() if m.kind == SWAP]
    with pytest.raises(IllegalMoveError) as e:
        g.apply(swap_move(0, "10D"))
    assert e.value.rule == "swapped_joker_must_meld"


def test_joker_swap_keep_option() -> None:
    """RULES-NOTES 4: "others let the player keep it" (``swapped_joker=keep``)."""
    g = build("rami51(swapped_joker=keep)", hands=["10D 2C 9S", "KS"], discard="7D",
              table=[(1, "9D JK=10D JD")], **OPENED)  # fmt: skip
    g.apply(swap_move(0, "10D"))
    assert g.pending == -1 and "JK" in hand_faces(g, 0)
    assert discard_move("9S") in g.legal_moves()


def test_joker_in_a_set_stands_for_one_suit() -> None:
    """RULES-NOTES 4: "A joker stands for one specific card once it is placed." A joker in
    the set 4H 4S JK=4C can be swapped only for the 4 of clubs."""
    table = [(1, "4H 4S JK=4C")]
    g = build("rami51", hands=["4D 9C 9D 9H", "KS"], discard="7D", table=table, **OPENED)
    assert not [m for m in g.legal_moves() if m.kind == SWAP]
    with pytest.raises(IllegalMoveError) as e:
        g.apply(swap_move(0, "4D"))
    assert e.value.rule == "invalid_swap"
    g = build("rami51", hands=["4C 9C 9D 9H", "KS"], discard="7D", table=table, **OPENED)
    assert swap_move(0, "4C") in g.legal_moves()


def test_swap_and_take_only_after_opening() -> None:
    """003 puts no condition on it; the engine allows swaps and takes once the player has
    opened (docs/rules.md), as the opening is the player's first placement on the table."""
    g = build("rami51", hands=["10D 8S 8D 2C 3C", "KS"], discard="7D",
              table=[(1, "9D JK=10D JD"), (1, "5H 6H 7H 8H")],
              opened=[False, True], melded=[False, True])  # fmt: skip
    assert not [m for m in g.legal_moves() if m.kind in (SWAP, TAKE)]
    with pytest.raises(IllegalMoveError) as e:
        g.apply(swap_move(0, "10D"))
    assert e.value.rule == "swap_after_opening"
    with pytest.raises(IllegalMoveError) as e:
        g.apply(take_move(g, 1, "8H"))
    assert e.value.rule == "take_after_opening"


# -- the turn ------------------------------------------------------------------------------------


def test_taken_discard_must_be_used_at_once() -> None:
    """RULES-NOTES 7: "In Rami and 500 Rum the taken card must be melded at once"
    (``discard_pickup=must_use``): the upcard may be taken only if it can be used."""
    g = build("rami51", hands=["10C JC QC AC 2D", "KS"], discard="5H KC", phase=Phase.DRAW)
    assert set(g.legal_moves()) == {Move(DRAW_STOCK), Move(DRAW_DISCARD)}
    draw(g, from_discard=True)
    assert melds_in(g) == {"TC JC QC KC AC"}
    assert [m.kind for m in g.legal_moves()] == [MELD]
    g = build("rami51", hands=["10C JC QC 9D 2D", "KS"], discard="5H KC", phase=Phase.DRAW)
    assert g.legal_moves() == [Move(DRAW_STOCK)]  # 10-J-Q-K is only 40 points
    with pytest.raises(IllegalMoveError) as e:
        draw(g, from_discard=True)
    assert e.value.rule == "discard_pickup_must_use"


def test_every_turn_ends_with_a_discard_including_the_last() -> None:
    """003: "If you're unable to place a meld, you have to discard one card into the
    discard pile." Read with RULES-NOTES 5 ("Rami sources mostly require the final
    discard"): a player goes out by discarding the last card."""
    g = build("rami51", hands=["3S 4S 5S", "KS"], discard="7D", **OPENED)
    assert {m.kind for m in g.legal_moves()} == {DISCARD}
    g = build("rami51", hands=["3S 4S 5S 9C", "KS"], discard="7D", **OPENED)
    g.apply(meld_move(g, "3S 4S 5S"))
    assert g.current == 0
    g.apply(discard_move("9C"))
    assert g.results[-1].winner == 0 and g.results[-1].reason is RoundEnd.OUT


def test_stock_exhausted_discard_pile_shuffled() -> None:
    """003: "If the draw pile is exhausted, the discard pile will be shuffled to form a
    new draw pile." (the whole pile; a new upcard restarts the discard pile as in the
    setup: "Turn over the top card of the draw pile to start the discard pile")"""
    g = build("rami51", hands=["3H 9C KD", "KS 2D"], discard="2C 3C 4C 5C", rest="discard",
              phase=Phase.DRAW)  # fmt: skip
    assert g.rules.restock.value == "shuffle"
    pile = list(g.discard)
    draw(g)
    drawn = [c for c in pile if g.hands[0] >> c & 1]
    assert len(g.discard) == 1 and sorted(g.stock + g.discard + drawn) == sorted(pile)
    assert conserved(g)


# -- scoring ------------------------------------------------------------------------------------


def test_card_values_in_hand() -> None:
    """003: "A card from 2 to 10 is worth its face value. Each Jack, Queen, or King is
    worth 10 points. An Ace is worth 11 points. A Joker is worth 20 points."""
    r = Rules.preset("rami51")
    assert [card_value(r, c) for c in parse_cards("2C 10D JH QS KC AD JK")] == [
        2, 10, 10, 10, 10, 11, 20,
    ]  # fmt: skip


ONE_TURN_OUT = "10H JH QH KH AH 2S 3S 4S 5S 7C 7D 7H 7S KD"
"""51 + 14 + 28 points of melds and a card to discard: out in one turn."""


def _out_in_one_turn(table: tuple[tuple[int, str], ...] = ()) -> tuple[int, ...]:
    g = build("rami51", hands=[ONE_TURN_OUT, "AS JK 9C", "KC QC"], discard="9D", table=table)
    for meld in ("10H JH QH KH AH", "2S 3S 4S 5S", "7C 7D 7H 7S"):
        g.apply(meld_move(g, meld))
    g.apply(discard_move("KD"))
    assert g.results[-1].winner == 0
    return g.results[-1].deltas


def test_penalties_never_melded_and_out_in_one_turn_first() -> None:
    """003: "Each one of the losing players must then tally the value of the cards they
    still have in their hand and add them to their score." "If a player fails to place at
    least one meld before a round ends, 100 points are automatically added to their
    score." "If a player manages to place down all of their cards in one turn before any
    other player places at least one meld, 200 points are deducted from that player's
    score." (AS JK 9C = 11 + 20 + 9; KC QC = 20)"""
    assert _out_in_one_turn() == (-200, 40 + 100, 20 + 100)


def test_no_minus_200_once_another_player_has_melded() -> None:
    """003: "... before any other player places at least one meld"."""
    deltas = _out_in_one_turn(table=((2, "5D 6D 7D"),))
    assert deltas == (0, 140, 20)


def test_no_minus_200_for_a_player_who_melded_before() -> None:
    """003: "place down all of their cards in one turn" - not if they had melded in an
    earlier turn."""
    g = build("rami51", hands=["3S 4S 5S KD", "AS JK 9C"], discard="9D",
              table=[(0, "10C JC QC KC AC")])  # fmt: skip
    g.apply(meld_move(g, "3S 4S 5S"))
    g.apply(discard_move("KD"))
    assert g.results[-1].deltas == (0, 140)


def test_winner_scores_nothing_and_scores_may_go_negative() -> None:
    """003: "That player is the winner of the round and no points are added to their
    score." "(Note: A player can have less than 0 points ...)"."""
    g = build("rami51", hands=[ONE_TURN_OUT, "KC"], discard="9D", scores=[150, 0])
    for meld in ("10H JH QH KH AH", "2S 3S 4S 5S", "7C 7D 7H 7S"):
        g.apply(meld_move(g, meld))
    g.apply(discard_move("KD"))
    assert g.scores == [-50, 110]


def test_lowest_total_wins_when_target_reached() -> None:
    """003: "A game of Rummy ends when a certain number of points is reached or surpassed
    by a player." "The player with the lowest score is the winner of the game."""
    target = Rules.preset("rami51").target_score
    assert target is not None
    g = build("rami51", hands=["3S 4S 5S KD", "KC 5C"], discard="9D", scores=[40, target - 15],
              **OPENED)  # fmt: skip
    g.apply(meld_move(g, "3S 4S 5S"))
    g.apply(discard_move("KD"))
    assert g.is_over() and g.scores == [40, target]
    assert g.result().winners == (0,)


def test_target_is_an_option() -> None:
    """003: "The players decide on that number before starting the game"."""
    assert Rules.parse("rami51(target_score=300)").target_score == 300
    g = build("rami51(target_score=300)", hands=["3S 4S 5S KD", "KC 5C"], discard="9D",
              scores=[40, 290], **OPENED)  # fmt: skip
    g.apply(meld_move(g, "3S 4S 5S"))
    g.apply(discard_move("KD"))
    assert g.is_over()
    assert not [m for m in g.legal_moves() if m.kind == DISCARD]


def test_cut_for_dealer_ignores_jokers() -> None:
    """Seed 003 names no way to choose the dealer, so seed 002's cut is used ("count aces
    as 1 ... kings as 13"); a joker has no rank and is left out of the cut pack
    (docs/rules.md, interpretation 1)."""
    for seed in range(30):
        g = new_game("rami51", players=5, seed=seed)
        cuts = [e.card for e in g.events if type(e) is Cut]
        assert len(cuts) >= 5
        assert all(face_of(c) != JOKER for c in cuts)


def test_round_blocked_when_no_draw_is_possible() -> None:
    """docs/rules.md, interpretation 6: the stock is empty and cannot be refilled (a
    one-card pile cannot be shuffled into a stock) and the upcard cannot be used under
    ``must_use``: the round ends as blocked and, under penalty scoring, everyone adds
    their hand (seed 003: "tally the value of the cards they still have in their hand"),
    plus 100 for never melding. Partial deck: the unnamed cards are left out."""
    g = build("rami51", hands=["3S 4S 5S KD 2C", "9H 4D"], rest="none",
              opened=[True, False], melded=[True, False])  # fmt: skip
    g.apply(discard_move("KD"))
    r = g.results[-1]
    assert r.reason is RoundEnd.NO_DRAW and not r.went_out
    assert r.deltas == (3 + 4 + 5 + 2, 9 + 4 + 100)

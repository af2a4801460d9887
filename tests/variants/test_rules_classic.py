"""Seed 000, the classic rules (preset ``classic``): one meld per turn, lay-offs on any
player's melds, no rearranging, the discard pile shuffled with a new upcard when the
stock runs out, losers' hands added to their own totals, lowest total wins.

Every test quotes the seed 000 passage it checks.
"""

from __future__ import annotations

import pytest

from helpers import (
    build,
    conserved,
    discard_move,
    draw,
    faces,
    hand_faces,
    layoff_move,
    meld_index,
    meld_move,
    pile_faces,
)
from rummykit import IllegalMoveError, Move, Rules, new_game
from rummykit.events import Restocked
from rummykit.moves import DISCARD, DRAW_DISCARD, DRAW_STOCK, LAYOFF, MELD, SWAP, TAKE
from rummykit.results import RoundEnd
from rummykit.state import Phase


def test_preset_follows_seed_000() -> None:
    r = Rules.preset("classic")
    assert not r.multiple_melds and not r.layoff_after_own_meld and not r.final_discard
    assert r.restock.value == "shuffle" and r.scoring.value == "penalty"
    assert not r.take_from_meld and not r.joker_swap


def test_play_starts_left_of_dealer_and_rotates_clockwise() -> None:
    """000: "Players take turns, rotating clockwise, starting with the person to the left
    of the dealer." and "In a two-player game, players alternate turns."""
    g = new_game("classic", players=3, seed=2, dealer=1)
    order = []
    for _ in range(4):
        order.append(g.current)
        draw(g)
        g.apply(next(m for m in g.legal_moves() if m.kind == DISCARD))
    assert order == [2, 0, 1, 2]
    g2 = new_game("classic", players=2, seed=2, dealer=0)
    seats = []
    for _ in range(3):
        seats.append(g2.current)
        draw(g2)
        g2.apply(next(m for m in g2.legal_moves() if m.kind == DISCARD))
    assert seats == [1, 0, 1]


def test_turn_starts_by_adding_a_card_from_either_pile() -> None:
    """000: "Each player must start his or her turn by adding a card to his or her hand.
    Players can choose to take the first card from the discard pile or the stock pile."""
    g = build("classic", hands=["3H 9C KD", "KS 2D"], discard="7D", stock="8S", phase=Phase.DRAW)
    assert set(g.legal_moves()) == {Move(DRAW_STOCK), Move(DRAW_DISCARD)}
    with pytest.raises(IllegalMoveError) as e:
        g.apply(discard_move("KD"))
    assert e.value.rule == "draw_first"
    draw(g)
    assert g.hand_size(0) == 4


def test_one_meld_per_turn() -> None:
    """000: "Players can only put down one meld per turn"."""
    g = build("classic", hands=["3S 4S 5S 6C 6D 6H KD", "KS"], discard="7D")
    g.apply(meld_move(g, "3S 4S 5S"))
    assert not [m for m in g.legal_moves() if m.kind == MELD]


def test_meld_after_drawing_if_the_player_has_one() -> None:
    """000: "After beginning his or her turn by drawing a card, a player may lay a valid
    set or run down if he or she has one."""
    g = build("classic", hands=["3S 4S 9C KD", "KS"], discard="7D", stock="5S", phase=Phase.DRAW)
    assert not [m for m in g.legal_moves() if m.kind == MELD]
    draw(g)
    assert meld_move(g, "3S 4S 5S") in g.legal_moves()


@pytest.mark.parametrize(
    "meld", ["10S 10D 10H", "6C 6S 6D 6H", "3S 4S 5S", "9H 10H JH QH"], ids=str
)
def test_seed_examples_are_valid_melds(meld: str) -> None:
    """000: "Example: 10 of spades, 10 of diamonds and 10 of hearts. Example: 6 of clubs,
    6 of spades, 6 of diamonds, and 6 of hearts. ... Example: 3 of spades, 4 of spades,
    and 5 of spades. Example: 9 of hearts, 10 of hearts, Jack of hearts, and Queen of
    hearts."""
    g = build("classic", hands=[meld + " KD", "KS"], discard="7D")
    assert meld_move(g, meld) in g.legal_moves()


def test_set_is_three_or_four_of_a_rank() -> None:
    """000: "A set, book or group is 3 or 4 same-ranking cards."""
    g = build("classic", hands=["6C 6S KD", "KS"], discard="7D")
    assert not [m for m in g.legal_moves() if m.kind == MELD]
    sets = [s for s in g.game.melds.shapes if s.kind == 1]
    assert {len(s.cells) for s in sets} == {3, 4}


def test_run_is_three_or_more_of_one_suit() -> None:
    """000: "A run or sequence is 3+ consecutive cards of a matching suit ... Consecutive
    cards of different suits do not constitute a valid sequence."""
    g = build("classic", hands=["5H 6S 7H 8H 9H 10D", "KS"], discard="7D")
    melds = {g.game.melds.describe(m.a) for m in g.legal_moves() if m.kind == MELD}
    assert melds == {"7H 8H 9H"}
    with pytest.raises(ValueError):
        meld_index(g, "5H 6S 7H")
    runs = [s for s in g.game.melds.shapes if s.kind == 0]
    assert min(len(s.cells) for s in runs) == 3
    assert max(len(s.cells) for s in runs) == 13  # A..K, ace low


def test_lay_off_examples() -> None:
    """000: "To a run of a 3 of spades, 4 of spades, and 5 of spades, a player could add a
    2 of spades to the beginning or a 6 of spades to the end. ... To a set of a 10 of
    spades, 10 of diamonds and 10 of hearts, a player could add a 10 of clubs."""
    g = build("classic", hands=["2S 6S 10C KD", "KS"], discard="7D",
              table=[(1, "3S 4S 5S"), (1, "10S 10D 10H")])  # fmt: skip
    legal = set(g.legal_moves())
    assert {layoff_move(g, 0, "2S"), layoff_move(g, 0, "6S"), layoff_move(g, 1, "10C")} <= legal
    g.apply(layoff_move(g, 0, "2S"))
    g.apply(layoff_move(g, 0, "6S"))
    g.apply(layoff_move(g, 1, "10C"))
    assert pile_faces(g.table[0].cards) == ["2S", "3S", "4S", "5S", "6S"]
    assert sorted(pile_faces(g.table[1].cards)) == faces("10C 10D 10H 10S")


def test_lay_off_on_any_players_melds_as_many_as_wanted() -> None:
    """000: "After melding, players can add on to runs or sets already melded by any
    player. Players can lay off as many cards per turn as they'd like." (own and others')"""
    g = build("classic", hands=["2S 9H 8H 7C 4C KD", "KS"], discard="7D",
              table=[(1, "3S 4S 5S"), (0, "10H JH QH")])  # fmt: skip
    g.apply(layoff_move(g, 0, "2S"))  # opponent's meld
    g.apply(layoff_move(g, 1, "9H"))  # own meld
    g.apply(layoff_move(g, 1, "8H"))
    assert hand_faces(g, 0) == faces("7C 4C KD")


def test_no_rearranging_melds() -> None:
    """000: "However, players may not rearrange any melds as they lay off. Example: If a
    set of the 6 of clubs, 6 of spades, 6 of diamonds, and 6 of hearts and a run of the 3
    of spades, 4 of spades, and 5 of spades are both on the table, a player couldn't move
    the 6 of spades from the set to the run in order to lay down a 7 of spades."""
    g = build("classic", hands=["7S KD 2C", "KS"], discard="7D",
              table=[(1, "6C 6S 6D 6H"), (1, "3S 4S 5S")])  # fmt: skip
    legal = g.legal_moves()
    assert not [m for m in legal if m.kind in (LAYOFF, TAKE, SWAP, MELD)]
    with pytest.raises(IllegalMoveError) as e:
        g.apply(layoff_move(g, 1, "7S"))
    assert e.value.rule == "invalid_layoff"
    with pytest.raises(IllegalMoveError) as e:
        g.apply(Move(TAKE, 0, 3 * 14 + 5))  # the 6 of spades from the set
    assert e.value.rule == "take_from_meld"


def test_melds_stay_on_the_table() -> None:
    """000: "That combination of cards then stays there." Melds persist through later
    turns with their owner and cards."""
    g = build("classic", hands=["3S 4S 5S KD 2C", "KS QH 9C"], discard="7D")
    g.apply(meld_move(g, "3S 4S 5S"))
    g.apply(discard_move("KD"))
    before = list(g.table)
    draw(g)
    g.apply(next(m for m in g.legal_moves() if m.kind == DISCARD))
    assert g.table == before and g.table[0].owner == 0


def test_cannot_discard_the_card_picked_up() -> None:
    """000: "If a player picked up the card from the discard pile at the beginning of his
    or her turn, that player may not discard the same card in the same turn."""
    g = build("classic", hands=["3H 9C KD", "KS"], discard="7D", phase=Phase.DRAW)
    draw(g, from_discard=True)
    assert discard_move("7D") not in g.legal_moves()


def test_turn_ends_with_a_discard() -> None:
    """000: "To signal that his or her turn is over, a player must discard a card from his
    or her hand to the discard pile."""
    g = build("classic", hands=["3S 4S 5S 9C KD", "KS"], discard="7D")
    g.apply(meld_move(g, "3S 4S 5S"))
    assert g.current == 0
    g.apply(discard_move("9C"))
    assert g.current == 1 and pile_faces(g.discard)[-1] == "9C"


def test_stock_runs_out_pile_shuffled_and_new_upcard() -> None:
    """000: "When the stock runs out, the discard pile is shuffled, turned face-down and
    the top card is turned face up next to it." The engine restocks when a player draws
    from the empty stock."""
    g = build("classic", hands=["3H 9C KD", "KS 2D"], discard="2C 3C 4C 5C", rest="discard",
              phase=Phase.DRAW)  # fmt: skip
    pile = list(g.discard)
    draw(g)
    drawn = [c for c in pile if g.hands[0] >> c & 1]
    assert len(drawn) == 1 and len(g.discard) == 1  # a new upcard
    assert sorted(g.stock + g.discard + drawn) == sorted(pile)
    assert g.stock + g.discard + drawn != pile and g.stock + g.discard + drawn != pile[::-1]
    assert Restocked(0) in g.events
    assert conserved(g)


def test_going_out_ends_the_round_immediately() -> None:
    """000: "The round immediately ends when a player gets rid of all cards in his or her
    hand, or "goes out." That player wins the round."""
    g = build("classic", hands=["3S 4S 5S", "6C 6D 6H KS"], discard="7D")
    g.apply(meld_move(g, "3S 4S 5S"))
    r = g.results[-1]
    assert r.went_out and r.winner == 0 and r.reason is RoundEnd.OUT


def test_penalty_scoring_losers_add_their_own_hands() -> None:
    """000: "Once the round ends with a player going out, total up the other players'
    cards ... Kings, Queens, Jacks, and 10s: 10 points." and "the other player's cards are
    totaled up and added to the previous round's total"; the winner adds nothing."""
    g = build("classic", hands=["3S 4S 5S", "KS QH JC 10D", "AC 7H"], discard="7D",
              scores=[10, 20, 30])  # fmt: skip
    g.apply(meld_move(g, "3S 4S 5S"))
    assert g.results[-1].deltas == (0, 40, 8)
    assert g.scores == [10, 60, 38]


def test_lowest_total_wins_once_someone_reaches_the_target() -> None:
    """000: "The rounds continue in this manner until one player reaches or goes over a
    target score and the rummy game is over. Then, the player with the lowest score
    wins."""
    g = build("classic", hands=["3S 4S 5S", "KS"], discard="7D", scores=[60, 90])
    g.apply(meld_move(g, "3S 4S 5S"))
    assert g.is_over()
    assert g.scores == [60, 100]  # "reaches": 100 is enough
    res = g.result()
    assert res.winners == (0,) and res.standings == (0, 1)


def test_below_the_target_rounds_continue() -> None:
    """000: "The rounds continue in this manner until one player reaches or goes over a
    target score"."""
    g = build("classic", hands=["3S 4S 5S", "9S"], discard="7D", scores=[60, 90])
    g.apply(meld_move(g, "3S 4S 5S"))
    assert not g.is_over() and g.scores == [60, 99] and g.round_no == 2


def test_blocked_round_everyone_adds_their_hand() -> None:
    """000: "total up the other players' cards" - in a round nobody went out (here seed
    001's restock limit, an option) every player adds their own hand
    (docs/rules.md, interpretation 8)."""
    g = build("classic(max_restocks=0)", hands=["KD 5C", "2C 4D", "9S"], discard="7H",
              rest="discard")  # fmt: skip
    g.apply(discard_move("KD"))
    r = g.results[-1]
    assert r.reason is RoundEnd.RESTOCK_LIMIT and r.winner is None
    assert r.deltas == (5, 6, 9)

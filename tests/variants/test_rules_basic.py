"""Seed 001 "Rules For Rummy": the standard rules (preset ``basic``) and every house rule
of its Variations, each an option that works with the preset.

Every test quotes the seed 001 passage it checks.
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
from rummykit import IllegalMoveError, Move, Rules, RulesError, new_game
from rummykit.cards import parse_cards
from rummykit.moves import DISCARD, DRAW_DISCARD, DRAW_STOCK, LAYOFF, MELD
from rummykit.results import RoundEnd
from rummykit.scoring import card_value, hand_value
from rummykit.state import Phase

# -- players and the turn ------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_two_to_six_players(players: int) -> None:
    """001: "best played with two players, but still works with up to six"."""
    g = new_game("basic", players=players, seed=1)
    assert conserved(g)
    assert len(g.hands) == players


@pytest.mark.parametrize("players", [1, 7])
def test_more_than_six_or_fewer_than_two_players_rejected(players: int) -> None:
    """001: "still works with up to six" (and a game needs an opponent)."""
    with pytest.raises(RulesError, match="2 to 6 players"):
        new_game("basic", players=players)


def test_turn_begins_with_a_draw_from_stock_or_discard_pile() -> None:
    """001: "To begin your turn, you must draw a card from either the stock pile or the
    discard pile and add it to your hand"."""
    g = build("basic", hands=["3H 4H 9C", "KS KC 2D"], discard="2C 7D", stock="8S 5C",
              phase=Phase.DRAW)  # fmt: skip
    assert set(g.legal_moves()) == {Move(DRAW_STOCK), Move(DRAW_DISCARD)}
    stock_try = g.clone()
    draw(stock_try)
    assert hand_faces(stock_try, 0) == faces("3H 4H 9C 8S")
    assert pile_faces(stock_try.stock[-1:]) == ["5C"]
    draw(g, from_discard=True)
    assert hand_faces(g, 0) == faces("3H 4H 9C 7D")
    assert pile_faces(g.discard) == ["2C"]
    assert g.phase is Phase.PLAY and g.current == 0


def test_melding_is_optional() -> None:
    """001: "If you have a valid set or run in your hand, the next part of your turn is
    when you can meld ... Remember, melding is optional."""
    g = build("basic", hands=["3H 4H 5H KD", "KS KC 2D"], discard="7D")
    legal = g.legal_moves()
    assert meld_move(g, "3H 4H 5H") in legal
    assert discard_move("KD") in legal and discard_move("3H") in legal
    g.apply(discard_move("3H"))
    assert g.current == 1 and g.phase is Phase.DRAW


def test_only_one_meld_per_turn() -> None:
    """001: "In the standard rule book, you are only allowed to lay down one meld per
    turn."""
    g = build("basic", hands=["3H 4H 5H 9C 9D 9S KD", "KS KC 2D"], discard="7D")
    assert {meld_move(g, "3H 4H 5H"), meld_move(g, "9C 9D 9S")} <= set(g.legal_moves())
    g.apply(meld_move(g, "3H 4H 5H"))
    assert not [m for m in g.legal_moves() if m.kind == MELD]
    with pytest.raises(IllegalMoveError) as e:
        g.apply(meld_move(g, "9C 9D 9S"))
    assert e.value.rule == "one_meld_per_turn"


def test_lay_off_after_melding_and_without_limit() -> None:
    """001: "Even if you have already melded in your current turn, you may still lay off.
    There is no limit to how many cards you can lay off in one turn."""
    g = build("basic", hands=["9C 9D 9H 4S 3S 8S KD", "KS KC 2D"], discard="7D",
              table=[(1, "5S 6S 7S")])  # fmt: skip
    g.apply(meld_move(g, "9C 9D 9H"))
    for card in ("4S", "3S", "8S"):
        m = layoff_move(g, 0, card)
        assert m in g.legal_moves()
        g.apply(m)
    assert pile_faces(g.table[0].cards) == ["3S", "4S", "5S", "6S", "7S", "8S"]
    assert hand_faces(g, 0) == faces("KD")
    g.apply(discard_move("KD"))
    assert g.current == 1


def test_lay_off_on_another_players_meld_without_own_meld() -> None:
    """001: "Laying off is when you add more cards to previous melds already out on the
    table" (the standard rules put no condition on it; the house rule below does)."""
    g = build("basic", hands=["8S KD 2C", "KS KC 2D"], discard="7D", table=[(1, "5S 6S 7S")])
    assert not g.melded[0]
    assert layoff_move(g, 0, "8S") in g.legal_moves()


def test_every_turn_ends_with_a_discard() -> None:
    """001: "At the end of every turn, one card must be discarded faced up in the discard
    pile." A turn passes only by discarding."""
    g = build("basic", hands=["3H 4H 5H 9C KD", "KS KC 2D"], discard="7D")
    g.apply(meld_move(g, "3H 4H 5H"))
    assert g.current == 0 and g.phase is Phase.PLAY
    assert {m.kind for m in g.legal_moves()} == {DISCARD}
    g.apply(discard_move("KD"))
    assert pile_faces(g.discard) == ["7D", "KD"]
    assert g.current == 1 and g.phase is Phase.DRAW


def test_cannot_discard_the_card_drawn_from_the_discard_pile_this_turn() -> None:
    """001: "if you chose to draw from the discard pile, you may not discard the same card
    you drew. You can discard it in later turns, but not within the same turn."""
    g = build("basic", hands=["3H 9C KD", "KS KC 2D"], discard="7D", stock="8S 4C",
              phase=Phase.DRAW)  # fmt: skip
    draw(g, from_discard=True)
    assert discard_move("7D") not in g.legal_moves()
    with pytest.raises(IllegalMoveError) as e:
        g.apply(discard_move("7D"))
    assert e.value.rule == "no_discard_of_taken_card"
    g.apply(discard_move("KD"))
    draw(g)  # player 1
    g.apply(discard_move("8S"))
    draw(g)  # player 0, a later turn
    assert discard_move("7D") in g.legal_moves()


def test_with_two_decks_the_other_copy_may_be_discarded() -> None:
    """001: "you may not discard the same card you drew" - the same physical card; with
    two decks (an option) the twin of the taken card is a different card
    (docs/rules.md, interpretation 9)."""
    g = build("basic(decks=2, max_players=4)", hands=["7D 3H 9C", "KS"], discard="7D",
              phase=Phase.DRAW)  # fmt: skip
    draw(g, from_discard=True)
    taken = g.taken
    g.apply(discard_move("7D"))
    assert g.discard[-1] != taken and g.hands[0] >> taken & 1


def test_may_discard_the_card_drawn_from_the_stock() -> None:
    """001: "If you drew from the stock pile, you may discard this in the same turn if
    you wish."""
    g = build("basic", hands=["3H 9C KD", "KS KC 2D"], discard="7D", stock="8S",
              phase=Phase.DRAW)  # fmt: skip
    draw(g)
    assert discard_move("8S") in g.legal_moves()


# -- the stock runs out ------------------------------------------------------------------------


def test_discard_pile_turned_over_without_shuffling() -> None:
    """001: "the discard pile becomes the new stock. Flip the faced up cards upside down
    and place them where your old stock pile used to be. Do not shuffle the cards."""
    g = build("basic", hands=["3H 9C KD", "KS KC 2D"], discard="2C 3C 4C 5C", rest="discard",
              phase=Phase.DRAW)  # fmt: skip
    assert not g.stock and conserved(g)
    pile = list(g.discard)
    rng_before = g.rng.getstate()
    draw(g)
    # The bottom card of the face-up pile is the top of the turned-over stock.
    assert g.hands[0] >> pile[0] & 1
    assert g.stock == pile[1:][::-1]
    assert g.discard == []
    assert g.restocks == 1
    assert g.rng.getstate() == rng_before  # nothing was shuffled
    assert conserved(g)


def test_no_restock_when_the_player_takes_the_discard() -> None:
    """001: "If the stock pile happens to run out of cards in a turn, and the player does
    not want to draw from the discard pile, then the discard pile becomes the new stock"
    (so a player who takes the upcard does not restock)."""
    g = build("basic", hands=["3H 9C KD", "KS KC 2D"], discard="2C 3C 4C 5C", rest="discard",
              phase=Phase.DRAW)  # fmt: skip
    assert Move(DRAW_DISCARD) in g.legal_moves()
    draw(g, from_discard=True)
    assert g.restocks == 0 and not g.stock
    assert hand_faces(g, 0) == faces("3H 9C KD 5C")


# -- going out and scoring ---------------------------------------------------------------------


def test_going_out_by_melding_stops_the_game_at_once() -> None:
    """001: "A player wins a hand by getting rid of all of their cards in their hand by
    either melding or laying off ... If a player goes out, the game immediately stops.
    Even if the opposing player(s) has valid runs or sets in their hand, they may not
    play them."""
    g = build("basic", hands=["3H 4H 5H", "9C 9D 9S KS"], discard="7D")
    g.apply(meld_move(g, "3H 4H 5H"))
    r = g.results[-1]
    assert r.went_out and r.winner == 0 and r.reason is RoundEnd.OUT
    # Player 1 never got to meld the nines: they count against them.
    assert r.players[1].hand_points == 9 * 3 + 10
    assert r.deltas == (37, 0)
    assert g.round_no == 2  # the next deal has started


def test_going_out_by_laying_off() -> None:
    """001: "getting rid of all of their cards in their hand by either melding or laying
    off. This is considered going out." No final discard is needed."""
    g = build("basic", hands=["8S", "KS 2D"], discard="7D", table=[(1, "5S 6S 7S")])
    g.apply(layoff_move(g, 0, "8S"))
    r = g.results[-1]
    assert r.winner == 0 and r.deltas == (12, 0)


def test_card_values_in_hand() -> None:
    """001: "Kings, Queens, and Jacks are all worth ten points. Numbered cards are worth
    their number value ... and aces are worth one point."""
    r = Rules.preset("basic")
    assert [card_value(r, c) for c in parse_cards("KS QD JC 10H 4C 7H AS")] == [
        10, 10, 10, 10, 4, 7, 1,
    ]  # fmt: skip
    assert hand_value(r, parse_cards("KS QD JC 10H 4C 7H AS")) == 52


def test_winner_collects_every_opponents_hand() -> None:
    """001: "all of the opposing player(s) add up the point value of the cards remaining
    in their hands ... All of the scores from the other players are added on to the
    winner's score."""
    g = build("basic", hands=["3H 4H 5H", "KS 2C", "AD 9H"], discard="7D", scores=[5, 7, 9])
    g.apply(meld_move(g, "3H 4H 5H"))
    assert g.results[-1].deltas == (22, 0, 0)
    assert g.scores == [27, 7, 9]


def test_match_ends_when_target_score_reached() -> None:
    """001: "you continue to play until ... the number of points have been reached"."""
    g = build("basic", hands=["3H 4H 5H", "KS"], discard="7D", scores=[90, 0])
    assert g.rules.target_score == 100
    g.apply(meld_move(g, "3H 4H 5H"))
    assert g.is_over()
    assert g.scores == [100, 0]
    assert g.result().winners == (0,)


def test_match_goes_on_below_target_with_next_dealer() -> None:
    """001: "you continue to play until ... the number of points have been reached"."""
    g = build("basic", hands=["3H 4H 5H", "KS"], discard="7D", scores=[80, 0], dealer=1)
    g.apply(meld_move(g, "3H 4H 5H"))
    assert not g.is_over()
    assert g.round_no == 2 and g.dealer == 0 and g.current == 1
    assert conserved(g)


def test_match_ends_after_the_number_of_deals() -> None:
    """001: "You can either choose a fixed number of deals to play up to, and once you
    reach that number of deals, the game is finished"."""
    g = build("basic(deals=2)", hands=["3H 4H 5H", "KS"], discard="7D")
    g.apply(meld_move(g, "3H 4H 5H"))
    assert not g.is_over() and g.round_no == 2
    g2 = build("basic(deals=2)", hands=["3H 4H 5H", "KS"], discard="7D", scores=[3, 50])
    g2.round_no = 2
    g2.apply(meld_move(g2, "3H 4H 5H"))
    assert g2.is_over()
    assert g2.scores == [13, 50]
    assert g2.result().winners == (1,)  # highest total wins when the winner collects


def test_deals_or_target_must_be_chosen_not_both() -> None:
    """001: "You can either choose a fixed number of deals ... or, you can set a target
    score. Whichever way you choose to play, this must be determined before you begin"."""
    assert Rules.parse("basic(deals=5)").target_score is None
    assert Rules.parse("basic(target_score=250)").deals is None
    with pytest.raises(RulesError, match="exactly one of target_score and deals"):
        Rules.parse("basic(deals=5, target_score=100)")
    with pytest.raises(RulesError, match="exactly one of target_score and deals"):
        Rules.parse("basic(target_score=none)")


# -- house rules (seed 001 "Variations") ---------------------------------------------------------


def test_house_rule_multiple_melds() -> None:
    """001: "you may want to allow players to lay down as many melds as they want in a
    single turn. This is called multiple melds."""
    g = build("basic(multiple_melds=true)", hands=["3H 4H 5H 9C 9D 9S 6C 6D 6H KD", "KS"],
              discard="7D")  # fmt: skip
    for meld in ("3H 4H 5H", "9C 9D 9S", "6C 6D 6H"):
        g.apply(meld_move(g, meld))
    assert len(g.table) == 3 and g.melds_this_turn == 3


def _rummy_position(spec: str, laid_before: bool = False) -> tuple[int, ...]:
    g = build(spec, hands=["3H 4H 5H", "KS 2C"], discard="7D",
              laid=[laid_before, False])  # fmt: skip
    g.apply(meld_move(g, "3H 4H 5H"))
    assert g.results[-1].rummy is (not laid_before and "rummy_bonus=none" not in spec)
    return g.results[-1].deltas


def test_house_rule_going_out_in_one_turn_doubles() -> None:
    """001: "if a player has not previously melded or laid off any cards in a game, and
    they achieved going out in a single turn, then they earn a special bonus. The bonus
    can either be doubling their score, or just simply adding an extra ten points."""
    assert _rummy_position("basic(rummy_bonus=double)") == (24, 0)
    assert _rummy_position("basic(rummy_bonus=double)", laid_before=True) == (12, 0)


def test_house_rule_going_out_in_one_turn_plus_ten() -> None:
    """001: "... or just simply adding an extra ten points."""
    assert _rummy_position("basic(rummy_bonus=plus_ten)") == (22, 0)
    assert _rummy_position("basic(rummy_bonus=plus_ten)", laid_before=True) == (12, 0)


def test_standard_rules_have_no_one_turn_bonus() -> None:
    """001 lists the bonus only among the house rules ("optional house rules for Rummy")."""
    assert Rules.preset("basic").rummy_bonus.value == "none"
    g = build("basic", hands=["3H 4H 5H", "KS 2C"], discard="7D")
    g.apply(meld_move(g, "3H 4H 5H"))
    assert g.results[-1].deltas == (12, 0)


def test_a_previous_lay_off_forfeits_the_bonus() -> None:
    """001: "if a player has not previously melded or laid off any cards" (laying off
    alone counts)."""
    g = build("basic(rummy_bonus=double)", hands=["3H 4H 5H", "KS 2C"], discard="7D",
              laid=[True, False], melded=[False, False])  # fmt: skip
    g.apply(meld_move(g, "3H 4H 5H"))
    assert not g.results[-1].rummy and g.results[-1].deltas == (12, 0)


def test_both_melding_house_rules_together() -> None:
    """001: "There are two ways you can alternate the rules for melding. You can play
    both in your game, or you can play just one."""
    g = build("basic(multiple_melds=true, rummy_bonus=double)",
              hands=["3H 4H 5H 9C 9D 9S KD", "KS 2C"], discard="7D")  # fmt: skip
    g.apply(meld_move(g, "3H 4H 5H"))
    g.apply(meld_move(g, "9C 9D 9S"))
    g.apply(discard_move("KD"))
    assert g.results[-1].rummy and g.results[-1].deltas == (24, 0)


def test_house_rule_lay_off_only_after_own_meld() -> None:
    """001: "you would not allow a player to lay off any cards on any other players' melds
    until that player has laid down at least one meld of their own."""
    spec = "basic(layoff_after_own_meld=true)"
    g = build(spec, hands=["8S 9C 9D 9H KD", "KS"], discard="7D", table=[(1, "5S 6S 7S")])
    assert not [m for m in g.legal_moves() if m.kind == LAYOFF]
    with pytest.raises(IllegalMoveError) as e:
        g.apply(layoff_move(g, 0, "8S"))
    assert e.value.rule == "layoff_after_own_meld"
    g.apply(meld_move(g, "9C 9D 9H"))  # own meld first, same turn
    assert layoff_move(g, 0, "8S") in g.legal_moves()


def test_house_rule_lay_off_allowed_once_melded_in_an_earlier_turn() -> None:
    """001: "until that player has laid down at least one meld of their own"."""
    g = build("basic(layoff_after_own_meld=true)", hands=["8S KD", "KS"], discard="7D",
              table=[(1, "5S 6S 7S"), (0, "9C 9D 9H")])  # fmt: skip
    assert layoff_move(g, 0, "8S") in g.legal_moves()


def test_aces_low_in_standard_rules() -> None:
    """001: "In the standard rules for Rummy, aces are low cards. They are worth one point
    and may only ever be used in a run of ace, two, and three."""
    g = build("basic", hands=["QH KH AH 2H 3H", "KS"], discard="7D")
    melds = {g.game.melds.describe(m.a) for m in g.legal_moves() if m.kind == MELD}
    assert "AH 2H 3H" in melds
    assert not any("KH AH" in d for d in melds)
    with pytest.raises(ValueError):
        meld_index(g, "QH KH AH")
    g2 = build("basic", hands=["AH KD", "KS"], discard="7D", table=[(1, "JH QH KH")])
    assert not [m for m in g2.legal_moves() if m.kind == LAYOFF]


def test_house_rule_ace_high_or_low() -> None:
    """001: "aces can either be a high card or a low card ... can be used in a run of
    ace, two, and three as well as queen, kind, and ace." K-A-2 turns the corner, which
    no reference allows (RULES-NOTES 1)."""
    g = build("basic(ace=high_or_low)", hands=["QH KH AH 2H 3H", "KS"], discard="7D")
    melds = {g.game.melds.describe(m.a) for m in g.legal_moves() if m.kind == MELD}
    assert {"AH 2H 3H", "QH KH AH"} <= melds
    for bad in ("KH AH 2H", "QH KH AH 2H", "KH AH 2H 3H"):
        with pytest.raises(ValueError):
            meld_index(g, bad)
    g2 = build("basic(ace=high_or_low)", hands=["AH KD", "KS"], discard="7D",
               table=[(1, "JH QH KH")])  # fmt: skip
    assert layoff_move(g2, 0, "AH", high_ace=True) in g2.legal_moves()


def test_house_rule_ace_high_or_low_worth_fifteen() -> None:
    """001: "In this case, the ace's point value becomes fifteen instead of one, even if
    it's used as a low card"."""
    r = Rules.parse("basic(ace=high_or_low)")
    assert r.ace_points == 15
    g = build(r, hands=["3H 4H 5H", "AS AC 2D"], discard="7D")
    g.apply(meld_move(g, "3H 4H 5H"))
    assert g.results[-1].deltas == (32, 0)


def test_house_rule_final_discard_required() -> None:
    """001: "you can change the rule so that in order for them to go out, they must make
    melds and/or lay offs as well as discard their final card."""
    spec = "basic(final_discard=true)"
    g = build(spec, hands=["3H 4H 5H", "KS"], discard="7D")
    assert [m.kind for m in g.legal_moves()] == [DISCARD] * 3
    with pytest.raises(IllegalMoveError) as e:
        g.apply(meld_move(g, "3H 4H 5H"))
    assert e.value.rule == "final_discard"
    g = build(spec, hands=["3H 4H 5H 9C", "KS"], discard="7D")
    g.apply(meld_move(g, "3H 4H 5H"))
    g.apply(discard_move("9C"))
    assert g.results[-1].winner == 0 and g.results[-1].reason is RoundEnd.OUT
    g = build(spec, hands=["8S", "KS"], discard="7D", table=[(1, "5S 6S 7S")])
    assert layoff_move(g, 0, "8S") not in g.legal_moves()


def test_house_rule_shuffle_on_restock() -> None:
    """001: "in more recent rules for Rummy, they suggest that you do shuffle ... You can
    play with or without shuffling." With ``restock=shuffle`` the pile is shuffled and a
    new upcard turned, as seed 000 describes."""
    g = build("basic(restock=shuffle)", hands=["3H 9C KD", "KS KC 2D"],
              discard="2C 3C 4C 5C", rest="discard", phase=Phase.DRAW)  # fmt: skip
    pile = list(g.discard)
    rng_before = g.rng.getstate()
    draw(g)
    drawn = [c for c in pile if g.hands[0] >> c & 1]
    assert len(drawn) == 1 and len(g.discard) == 1
    assert sorted(g.stock + g.discard + drawn) == sorted(pile)
    assert g.stock + g.discard + drawn != pile[::-1]  # not merely turned over
    assert g.rng.getstate() != rng_before
    assert g.restocks == 1 and conserved(g)


def test_house_rule_restock_limit_ends_the_round() -> None:
    """001: "set a limit on how many times a discard pile may be reused as a stock pile.
    Once that limit is up, the game ends, the players add up their points, and a new game
    begins." The limit is reached when the stock is empty at the start of a turn."""
    spec = "basic(max_restocks=1)"
    g = build(spec, hands=["KD 5C", "2C 4D"], discard="9S", rest="discard", restocks=1)
    g.apply(discard_move("KD"))
    r = g.results[-1]
    assert r.reason is RoundEnd.RESTOCK_LIMIT and not r.went_out
    # Blocked round under winner-collects scoring: the lowest hand (5) scores the
    # difference to each other hand (6 - 5); see docs/rules.md.
    assert r.winner == 0 and r.deltas == (1, 0)
    assert g.round_no == 2  # "a new game begins"


def test_blocked_round_with_a_shared_low_hand_scores_nothing() -> None:
    """001: "the players add up their points" - with a tie for the lowest hand nobody
    scores (docs/rules.md, interpretation 8)."""
    g = build("basic(max_restocks=1)", hands=["KD 5C", "2C 3D"], discard="9S",
              rest="discard", restocks=1)  # fmt: skip
    g.apply(discard_move("KD"))
    r = g.results[-1]
    assert r.reason is RoundEnd.RESTOCK_LIMIT and r.winner is None and r.deltas == (0, 0)


def test_house_rule_restock_limit_allows_reuse_until_reached() -> None:
    """001: "set a limit on how many times a discard pile may be reused as a stock pile"."""
    g = build("basic(max_restocks=2)", hands=["KD 5C", "2C 4D"], discard="9S",
              rest="discard", restocks=1)  # fmt: skip
    g.apply(discard_move("KD"))
    assert g.round_no == 1 and g.current == 1
    draw(g)
    assert g.restocks == 2


def test_house_rule_restock_limit_zero_never_reuses() -> None:
    """001: a limit on reuse; ``max_restocks=0`` never reuses the pile."""
    g = build("basic(max_restocks=0)", hands=["KD 5C", "2C 4D"], discard="9S",
              rest="discard")  # fmt: skip
    g.apply(discard_move("KD"))
    assert g.results[-1].reason is RoundEnd.RESTOCK_LIMIT


def test_turn_guard_ends_an_endless_round() -> None:
    """001: "They will keep drawing from the stock pile and discard the same card in that
    turn. This is cause the game to become endless." Besides the optional restock limit,
    the engine always caps a round at ``max_turns`` turns (RULES-NOTES 6: "Every engine
    also needs a guard against endless rounds")."""
    g = new_game("basic(max_turns=4)", players=2, seed=3)
    for _ in range(4):
        assert g.round_no == 1
        draw(g)
        g.apply(next(m for m in g.legal_moves() if m.kind == DISCARD))
    r = g.results[-1]
    assert r.reason is RoundEnd.TURN_LIMIT and not r.went_out
    assert g.round_no == 2 or g.is_over()

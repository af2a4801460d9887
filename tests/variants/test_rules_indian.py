"""Indian Rummy, 13 cards (presets ``indian``, ``indian_pool101``, ``indian_pool201``,
``indian_deals``), rule by rule.

The references, quoted below by their tags (docs/rules.md, "## Indian Rummy", lists
every option against them):

* RC: RummyCulture, "Common Terminologies"
  (support.rummyculture.com/support/solutions/articles/31000156199-common-terminologies);
* NG: Nexgen Playtech, "FAQ" (nexgenplaytech.com/home/faq), the point rummy rules;
* PS: Playship, "Pool Rummy" (www.playship.com/how-to-play/pool-rummy/);
* PI: Playship, "What is Indian Rummy" (www.playship.com/indian-rummy/);
* RB: RummyBaazi, "Pool Rummy - a variation for the adventure lovers"
  (www.rummybaazi.com/blog/rummy-games/pool-rummy-a-variation-for-the-adventure-lovers);
* TK: 1toking, "General rules" (www.1toking.com/rules).
"""

from __future__ import annotations

import pytest

from helpers import build, conserved, discard_move
from rummykit import IllegalMoveError, Move, Rules, RulesError, new_game
from rummykit.bots import RandomBot, play_match
from rummykit.cards import mask_of, parse_card, parse_cards
from rummykit.i18n import note_text, round_text
from rummykit.moves import DISCARD, DRAW_DISCARD, DRAW_STOCK, DROP, KNOCK
from rummykit.position import position_from_text, position_to_text
from rummykit.results import RoundEnd
from rummykit.state import GameState, Phase
from rummykit.variants import variant_for
from rummykit.variants.indian import HandSolver, declare_fields

IND = "indian"
SOLVER = HandSolver(Rules.preset(IND))


def hand(text: str) -> int:
    return mask_of(parse_cards(text))


def valid(text: str, wild: str = "") -> bool:
    return SOLVER.valid(hand(text), parse_card(wild) if wild else -1)


def points(text: str, wild: str = "") -> int:
    return SOLVER.points(hand(text), parse_card(wild) if wild else -1)


def with_wild(g: GameState, wild: str) -> GameState:
    """``g`` with the wild cut ``wild`` (written into its position and read back)."""
    return position_from_text(f"{position_to_text(g)} wild={wild}")


# A valid declaration with no wild card: pure A-2-3 of hearts, pure 5-8 of spades,
# a set of nines, and K-K with the printed joker.
DECLARATION = "AH 2H 3H 5S 6S 7S 8S 9C 9D 9H KC KD JK"


# -- cards and deal ---------------------------------------------------------------------
def test_two_decks_with_a_printed_joker_each_13_cards_2_to_6_players() -> None:
    """RB: "The game requires two packs of 53 cards each with 1 printed joker in each
    deck"; "Each player is dealt 13 cards"; PI: "This game is usually played between 2
    to 6 players"."""
    r = Rules.preset(IND)
    assert (r.decks, r.jokers, r.deck_size) == (2, 1, 106)
    assert (r.min_players, r.max_players, r.hand_size) == (2, 6, 13)
    for n in (2, 6):
        g = new_game(IND, players=n, seed=4)
        assert [g.hand_size(p) for p in range(n)] == [13] * n and conserved(g)
        assert len(g.discard) == 1  # RB: "The first card ... is placed in the open deck"
    assert variant_for(r).name == "indian"


def test_a_wild_rank_is_cut_after_the_deal_and_is_public() -> None:
    """RC: "Once the cards are distributed amongst the players, a wild card is selected at
    random"; NG: "the card kept under stock pile".  The cut is the bottom card of the
    shuffled stock, drawn by the game's seeded generator, and every view shows it."""
    for seed in range(5):
        g = new_game(IND, players=3, seed=seed)
        assert declare_fields(g).wild == g.stock[0]
        assert all(declare_fields(g.view(p)).wild == declare_fields(g).wild for p in range(3))
    seen = {declare_fields(new_game(IND, players=2, seed=s)).wild % 54 for s in range(40)}
    assert len(seen) > 20  # a different cut from deal to deal


def test_cards_of_the_wild_rank_are_jokers() -> None:
    """RC: "Both joker and wild card serves the same purpose. A joker/wildcard is used to
    replace the desired card to form a set or impure sequence"; NG: "Examples (Q♠ as a
    wild card): 6♦ 7♦ Q♠ 9♦" is an impure sequence, "5♦ 5♣ Q♠ Joker" a set."""
    # 4C stands in the diamonds and in the set of kings; any four works, both decks.
    assert valid("AH 2H 3H 6D 7D 4C 9D KC KD 4S 5S 6S 7S", wild="4H")
    assert not valid("AH 2H 3H 6D 7D 5C 9D KC KD 4S 5S 6S 7S", wild="4H")


def test_a_printed_joker_cut_makes_the_aces_wild() -> None:
    """RC: "In case the open joker is the printed joker, then all Aces are considered as
    wild card jokers"; TK: "If a printed Joker is selected, then Ace card is considered
    as the wildcard for that game"."""
    text = "2H 3H 4H 5S 6S 7S 9D AC 9H KC AD KS AS"  # AC fills 9s; AD, AS the kings
    assert valid(text, wild="JK")
    assert not valid(text)


def test_a_wild_card_in_its_own_place_keeps_a_sequence_pure() -> None:
    """NG: "To form a pure sequence, a player cannot use any Joker or wild card" in place
    of a card; a card of the wild rank in its natural place is that card (the usual
    reading: 6-7-8 of hearts with sevens wild is pure)."""
    assert valid("6H 7H 8H 2C JK 4C 9S 9D 9H QC QD QS QH", wild="7S")
    assert not valid("6H JK 8H 2C JK 4C 9S 9D 9H QC QD QS QH", wild="7S")  # none pure


# -- the declaration -----------------------------------------------------------------------
def test_a_declaration_needs_two_sequences_one_of_them_pure() -> None:
    """NG: "Minimum 2 sequences are required. One of these sequences must be pure (called
    First Life). The second sequence can be pure or impure (called Second Life). The rest
    of the cards need to be arranged in valid groups"."""
    assert valid(DECLARATION)
    # Only one sequence: the rest in sets.
    assert not valid("AH 2H 3H 9C 9D 9H KC KD KS 5C 5D 5S 7C")
    # A pure sequence and an impure one: valid; two impure ones: not.
    assert valid("AH 2H 3H 5S JK 7S 9C 9D 9H KC KD KS KH")
    assert not valid("AH JK 3H 5S JK 7S 9C 9D 9H KC KD KS KH")
    # Every card in a meld: one loose card spoils it.
    assert not valid("AH 2H 3H 5S 6S 7S 8S 9C 9D 9H KC KD 4D")


def test_sequences_run_ace_low_or_high_but_not_around_the_corner() -> None:
    """NG: "you can make a sequence as Q♠ K♠ A♠, as well as A♠ 2♠ 3♠. However, K♠ A♠ 2♠ is
    invalid"."""
    rest = "5S 6S 7S 9C 9D 9H 4C 4D 4H 8S"
    assert valid(f"QH KH AH {rest}")
    assert valid(f"AH 2H 3H {rest}")
    assert not valid(f"KH AH 2H {rest}")


def test_a_set_has_distinct_suits() -> None:
    """RB-quoted rule on iCalShare ("you cannot use the same card twice in a set"), and
    PS: "With two decks in use, you cannot use the same card twice in a set" (Rummyera):
    a set is one card of each of three or four suits."""
    assert not valid("AH 2H 3H 5S 6S 7S 8S 9C 9C 9H KC KD JK")
    assert valid("AH 2H 3H 5S 6S 7S 8S 9C 9S 9H KC KD JK")


def declarer(spec: str = IND) -> GameState:
    """Seat 1 to play with a valid declaration plus 4D; seat 2 holds a poor hand."""
    g = build(
        spec,
        hands=[DECLARATION + " 4D", "2C 4C 6C 8C TC 2D 4D 6D 8D TD QS 3S 4S"],
        discard="7D",
    )
    return with_wild(g, "JC")  # jacks wild: nobody holds one


def wrong_declarer(spec: str = IND, players: int = 2) -> GameState:
    """Seat 1 to play with no valid declaration (only one sequence, A-2-3 of hearts,
    survives any card out); the others hold poor hands."""
    others = ["2C 4C 6C 8C TC 2D 4D 6D 8D TD QS 3S 4S", "3C 5C 7C 9C 3D 5D 7D 9D QC QD 5S 7S 9S"]
    g = build(
        spec,
        hands=["AH 2H 3H 5S 6S 8S 9C 9D 9H KC KD 4D 2S TH", *others[: players - 1]],
        discard="7H",
    )
    return with_wild(g, "JC")


def test_declare_then_put_out_the_extra_card() -> None:
    """PI: "The objective of the game is to divide the 13 cards into 4 melds"; TK:
    "Finish : ... the card can be dropped into the finish slot ... Declare". Here the
    declaration is a knock (``k``) after the draw, then the 14th card goes out: any
    card, as at an online table, the show being judged once it is made."""
    g = declarer()
    assert Move(KNOCK) in g.legal_moves()
    g.apply(Move(KNOCK))
    assert g.phase is Phase.KNOCK
    outs = g.legal_moves()
    assert {m.kind for m in outs} == {DISCARD} and discard_move("4D") in outs
    assert discard_move("2H") in outs  # legal, but a wrong show (A-2-3 breaks)
    g.apply(discard_move("4D"))
    res = g.results[-1]
    assert res.reason is RoundEnd.DECLARE and res.winner == 0 and g.is_over()


def test_a_wrong_show_costs_80_and_the_other_player_wins() -> None:
    """RummyCulture, "Invalid Declaration": a player who declares with cards "not
    arranged in logical sequences ... ends up losing completely and his opponent wins";
    Rummytoday, "How Much Points Will You Lose on a Wrong Declaration?": "the player ...
    ends up losing 80 points which is also the maximum score a person can lose".  Points
    format: the winner collects the 80."""
    g = wrong_declarer()
    assert Rules.preset(IND).wrong_show == 80
    assert Move(KNOCK) in g.legal_moves()  # a wrong show is a legal act
    g.apply(Move(KNOCK))
    g.apply(discard_move("TH"))
    res = g.results[-1]
    assert res.reason is RoundEnd.WRONG_SHOW and res.winner == 1 and g.is_over()
    assert res.players[0].hand_points == 80 and res.players[0].notes == ("wrong show: 80",)
    assert res.deltas == (0, 80) and g.result().winners == (1,)
    names = ["Ann", "Bob"]
    assert round_text(res, names, "en") == "a wrong show: Bob wins the deal"
    assert round_text(res, names, "fr") == "déclaration fausse : Bob gagne la donne"
    assert note_text("wrong show: 80", "fr") == "déclaration fausse : 80"


@pytest.mark.parametrize("spec", ["indian_pool101", "indian_pool201", "indian_deals"])
def test_a_wrong_show_costs_80_in_pool_and_deals(spec: str) -> None:
    """Rummytoday (above): 80 points "irrelevant of the value of cards that he holds";
    Rummyera, "Points Rummy": "Wrong Show | Loss of 80 Points".  Pool and deals rummy
    add it to the declarer's total as they add a drop; the other player, who did not
    have to show, scores 0 for the deal."""
    g = wrong_declarer(spec)
    g.apply(Move(KNOCK))
    g.apply(discard_move("TH"))
    res = g.results[-1]
    assert res.reason is RoundEnd.WRONG_SHOW and res.deltas == (80, 0)
    assert g.scores[0] == 80


def test_after_a_wrong_show_the_others_play_on() -> None:
    """Rummytoday (above): "the game will still continue with the remaining players
    until a winner is ascertained".  The wrong declarer leaves the deal like a dropped
    player (skipped in turn, 80 at the end); the card put out stays on the pile."""
    g = wrong_declarer(IND, players=3)
    g.apply(Move(KNOCK))
    g.apply(discard_move("TH"))
    assert not g.results and declare_fields(g).dropped == (80, 0, 0)
    assert g.current == 1 and g.phase is Phase.DRAW and g.discard[-1] % 54 == parse_card("TH")
    g.apply(Move(DROP))  # seat 2 drops: seat 3 is left, and wins
    res = g.results[-1]
    assert res.reason is RoundEnd.DROP and res.winner == 2
    assert [p.hand_points for p in res.players] == [80, 40, 0]
    assert res.players[0].notes == ("wrong show: 80",)
    assert res.deltas == (0, 0, 120)


def test_beginners_may_have_a_wrong_show_refused() -> None:
    """``wrong_show=0``: the engine checks the show before it is made, as a practice
    table does, so an invalid declaration is refused with the rule named."""
    g = wrong_declarer("indian(wrong_show=0)")
    assert Move(KNOCK) not in g.legal_moves()
    with pytest.raises(IllegalMoveError) as e:
        g.apply(Move(KNOCK))
    assert e.value.rule == "invalid_declaration"
    g = declarer("indian(wrong_show=0)")
    g.apply(Move(KNOCK))
    outs = g.legal_moves()
    assert discard_move("4D") in outs and discard_move("2H") not in outs
    with pytest.raises(IllegalMoveError) as e:
        g.apply(discard_move("2H"))
    assert e.value.rule == "invalid_declaration"


# -- scoring -----------------------------------------------------------------------------
def test_card_values_and_jokers_count_zero() -> None:
    """PS: "Ace, King, Queen, Jack 10; Wild and Printed Joker 0; ... The numerical cards
    incur the points as their numerical value"."""
    assert SOLVER.full_count(hand("AS KD QC JH TH 9S 2C JK 7D"), parse_card("7C")) == 50 + 9 + 2


def test_only_ungrouped_cards_count_with_two_sequences_else_all() -> None:
    """NG: "The unmatched cards of the rest of the players are counted. Even if a player
    has valid groups but does not meet the basic requirement of two sequences (First Life
    and Second Life), all the 13 cards are counted as unmatched"."""
    assert points("AH 2H 3H 5S 6S 7S 8S 9C 9D 9H KC KD 4D") == 24  # K, K and 4 loose
    assert points("AH 2H 3H 9C 9D 9H KC KD KS 5C 5D 5S 2D") == 80  # one sequence: all
    assert points("AH 2H 3H 9C 9D 9H 2S 3S 4C 5C 5D 6S 2D") == 69  # all, under 80


def test_hand_counts_at_most_80() -> None:
    """RC: "Any player who does not meld any cards when a show is called ... gets 80
    points, this is known as a Full Count"; PS (Rummyera): "Maximum Loss (per round) 80
    Points"."""
    assert Rules.preset(IND).max_hand_points == 80
    no_sequence = "KC JC JC QD TD KD KH JH QS TS KS 9C 9H"
    assert SOLVER.full_count(hand(no_sequence), -1) == 128
    assert points(no_sequence) == 80


def test_points_format_winner_collects_the_others_counts() -> None:
    """PI: "Points Rummy ... there's only one deal or round in each game. Each point has a
    monetary value": the declarer collects the others' points (one deal)."""
    g = declarer()
    g.apply(Move(KNOCK))
    g.apply(discard_move("4D"))
    res = g.results[-1]
    loser = res.players[1].hand_points
    assert loser == 77  # no sequence at all: every card (under the cap)
    assert res.deltas == (loser, 0) and g.is_over() and g.result().winners == (0,)


# -- drops -------------------------------------------------------------------------------
def test_first_drop_20_middle_drop_40_and_the_others_play_on() -> None:
    """RC: "Players who drop out at the beginning of the game, also known as the First
    Drop, will get 20 points. Those players who make a Middle Drop ... will get 40
    points"."""
    g = new_game(IND, players=3, seed=5)
    first = g.current
    assert Move(DROP) in g.legal_moves()
    g.apply(Move(DROP))
    assert declare_fields(g).dropped[first] == 20 and g.current != first and g.phase is Phase.DRAW
    second = g.current
    g.apply(Move(DRAW_STOCK))
    assert Move(DROP) not in g.legal_moves()  # only before drawing
    with pytest.raises(IllegalMoveError) as e:
        g.apply(Move(DROP))
    assert e.value.rule == "drop_before_draw"
    g.apply(g.legal_moves()[0])
    third = g.current
    assert third not in (first, second)
    g.apply(Move(DRAW_STOCK))
    g.apply(g.legal_moves()[0])
    assert g.current == second  # the dropped seat is skipped
    g.apply(Move(DROP))  # second's second turn: a middle drop
    res = g.results[-1]
    assert res.reason is RoundEnd.DROP and res.winner == third
    assert [res.players[p].hand_points for p in (first, second, third)] == [20, 40, 0]
    assert res.deltas[third] == 60  # points format: the winner collects


def test_two_player_drop_ends_the_deal() -> None:
    """With two players a drop leaves one player in the deal, who wins it (RC's drop
    penalty goes to the winner)."""
    g = new_game(IND, players=2, seed=1)
    other = 1 - g.current
    g.apply(Move(DROP))
    res = g.results[-1]
    assert res.winner == other and res.deltas[other] == 20 and g.is_over()


def test_pool_101_eliminates_at_101_and_the_last_player_wins() -> None:
    """PS: "Players get eliminated as they reach 101 points in case of 101 pool rummy";
    RB: "the players left behind are declared the winners"; drops 20 and 40."""
    r = Rules.preset("indian_pool101")
    assert (r.target_score, r.elimination, r.first_drop, r.middle_drop) == (101, True, 20, 40)
    g = new_game("indian_pool101", players=3, seed=2)
    g.scores[:] = [90, 0, 0]
    while g.current != 0:  # seat 1 first-drops: 110, out
        g.apply(Move(DROP))
        if g.round_no > 1:
            break
    seat0_out = g.scores[0] >= 101
    if not seat0_out:
        g.apply(Move(DROP))
    assert g.scores[0] >= 101 and not g.is_over()
    # The next deal leaves the eliminated seat out: no cards, never to act.
    if g.round_no == 1:
        while g.round_no == 1:
            g.apply(Move(DROP))
    assert (
        declare_fields(g).dropped[0] == -1 and g.hands[0] == 0 and g.current != 0 and conserved(g)
    )
    assert declare_fields(g).dropped[g.dealer] == 0  # the deal passes to a seat still in
    # Play the rest with drops until one player is left.
    while not g.is_over():
        assert g.current != 0 and declare_fields(g).dropped[g.dealer] == 0
        g.apply(Move(DROP))
    alive = [p for p in range(3) if g.scores[p] < 101]
    assert len(alive) == 1 and g.result().winners == tuple(alive)


def test_pool_201_drops_25_and_50() -> None:
    """PS: "201: First Drop 25 points, Middle Drop 50 points"; out at 201."""
    r = Rules.preset("indian_pool201")
    assert (r.target_score, r.first_drop, r.middle_drop) == (201, 25, 50)
    g = new_game("indian_pool201", players=2, seed=3)
    g.apply(Move(DROP))
    assert sorted(g.scores) == [0, 25]


def test_deals_format_plays_a_fixed_number_of_deals() -> None:
    """PI: "Deals Rummy" is played over a fixed number of deals, the lowest total
    winning (``deals=2``; ``deals=3`` is the other usual length)."""
    r = Rules.preset("indian_deals")
    assert r.deals == 2 and r.target_score is None
    state, stats = play_match("indian_deals(deals=3)", 3, [RandomBot()] * 3, seed=7)
    assert stats.rounds == 3 and state.is_over()
    assert state.result().winners == tuple(
        p for p in range(3) if state.scores[p] == min(state.scores)
    )


def test_the_stock_is_refilled_from_the_pile_but_its_top_card() -> None:
    """TK: "When all the cards in the closed deck is used, cards from the open deck are
    all reshuffled and placed as the new closed deck, except the card that is recently in
    the open deck"."""
    assert Rules.preset(IND).restock.value == "shuffle_keep_top"


def test_taking_the_discard_is_a_draw() -> None:
    """TK: "A player, on their turn must pick a card from the open deck or closed
    deck"."""
    g = new_game(IND, players=2, seed=9)
    assert {Move(DRAW_STOCK), Move(DRAW_DISCARD)} <= set(g.legal_moves())


# -- options ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    "spec",
    [
        "basic(wild_cut=true)",
        "basic(first_drop=20, middle_drop=40)",
        "basic(max_hand_points=80)",
        "indian(meld_in_play=true)",
        "indian(first_drop=50)",
        "indian(first_drop=0)",
        "indian(elimination=true)",  # winner_collects: no penalty totals
        "indian_pool101(scoring=winner_collects)",
        "indian(deep_discard=true)",
    ],
)
def test_impossible_combinations_are_refused(spec: str) -> None:
    with pytest.raises(RulesError):
        Rules.parse(spec)


@pytest.mark.parametrize(
    "spec",
    [
        "indian(first_drop=0, middle_drop=0)",
        "indian(wild_cut=false)",
        "indian(max_hand_points=none)",
        "indian(decks=1, max_players=3)",
        "indian_pool101(target_score=61, first_drop=15, middle_drop=30)",
        "indian_deals(deals=3)",
        "indian(discard_taken_card=true)",
    ],
)
def test_every_indian_option_combines_and_plays(spec: str) -> None:
    r = Rules.parse(spec)
    assert Rules.parse(r.spec()) == r
    state, _stats = play_match(r, 3, [RandomBot()] * 3, seed=11)
    assert state.is_over()
    if not r.first_drop:
        assert all(res.reason is not RoundEnd.DROP for res in state.results)
    if not r.wild_cut:
        assert declare_fields(state).wild == -1

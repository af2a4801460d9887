"""Kalooki 40 (preset ``kalooki``), rule by rule.

The reference is Ludopoli, "Kalooki 40 Rules" (https://www.ludopoli.us/kalooki40_rules.aspx),
quoted as LUDO below; the joker exchange follows the Kalooki rules of equal-chance.co.uk
(http://equal-chance.co.uk/kalooki/index.html), quoted as EQUAL.  docs/rules.md lists
every option against them.  The preset is data only: Kalooki is played by the seeds'
turn (``variants/rummy.py``), with Rami's options set to Kalooki's values.
"""

from __future__ import annotations

import pytest

from helpers import build, conserved, discard_move, draw, meld_move, pile_faces, swap_move
from rummykit import IllegalMoveError, Move, Rules, RulesError, new_game
from rummykit.bots import make_bot, play_match
from rummykit.cards import JOKER, face_of, mask_of, parse_cards
from rummykit.melds import MeldTable, meld_table
from rummykit.moves import DISCARD, DRAW_DISCARD, DRAW_STOCK, LAYOFF, MELD, SWAP
from rummykit.results import RoundEnd
from rummykit.rules import Ace
from rummykit.scoring import card_value
from rummykit.state import GameState, Phase
from rummykit.variants import variant_for

K = "kalooki"
OPENED = {"opened": [True, True], "melded": [True, True], "laid": [True, True]}


def melds_in(g: GameState) -> set[str]:
    return {g.game.melds.describe(m.a) for m in g.legal_moves() if m.kind == MELD}


def test_two_decks_four_jokers_thirteen_cards() -> None:
    """LUDO: "Each game is played with two standard card decks plus 4 jokers"; "it is
    usually played with 2-4 players"; "each player receives 13 cards"."""
    r = Rules.preset(K)
    assert r.deck_size == 108 and (r.decks, r.jokers) == (2, 2)
    assert (r.min_players, r.max_players) == (2, 4)
    for n in (2, 4):
        g = new_game(K, players=n, seed=3)
        assert [g.hand_size(p) for p in range(n)] == [13] * n and conserved(g)
    assert variant_for(r).name == "rummy"


def test_opening_needs_40_points() -> None:
    """LUDO: "the minimum total value that is required to lay down melds for the first
    time - 40"; "three royal cards which are 10 points each, the ace is worth 11"."""
    g = build(K, hands=["9D 10D JD 2S 5C", "KS"], discard="7D")  # 29 points
    assert not melds_in(g)
    with pytest.raises(IllegalMoveError) as e:
        g.apply(meld_move(g, "9D 10D JD"))
    assert e.value.rule == "opening_minimum"
    g = build(K, hands=["JC QC KC AC 2S", "KS"], discard="7D")  # 10+10+10+11 = 41
    g.apply(meld_move(g, "JC QC KC AC"))
    assert g.opened[0] and g.open_points == 41


def test_a_joker_counts_as_the_card_it_stands_for() -> None:
    """LUDO: "the jokers get the value of the card they represent" (toward the 40)."""
    g = build(K, hands=["10H JK QH KH 3S", "KS"], discard="7D")
    g.apply(meld_move(g, "10H JK=JH QH KH"))
    assert g.opened[0] and g.open_points == 40


def test_taken_discard_must_be_used_at_once() -> None:
    """The card taken from the discard pile "can only be used in a meld in the same
    turn" (mybetinfo.com, "Kalooki 40 and rules for players"; ``must_use``): before the
    first meld, that means opening with it."""
    g = build(K, hands=["JC QC AC 2D 5S", "KS"], discard="5H KC", phase=Phase.DRAW)
    assert set(g.legal_moves()) == {Move(DRAW_STOCK), Move(DRAW_DISCARD)}
    draw(g, from_discard=True)
    assert [m.kind for m in g.legal_moves()] == [MELD]
    g = build(K, hands=["JC QC 9D 2D 5S", "KS"], discard="5H KC", phase=Phase.DRAW)
    assert g.legal_moves() == [Move(DRAW_STOCK)]  # J-Q-K is 30: no opening with it
    with pytest.raises(IllegalMoveError) as e:
        draw(g, from_discard=True)
    assert e.value.rule == "discard_pickup_must_use"


def test_joker_exchange() -> None:
    """EQUAL: "the players to hold the card the Joker represents in their hand may use
    it to release the Joker"; "The released Joker can be used to meld ... The player
    doesn't have the option of adding the Joker to the cards in their hand"."""
    g = build(K, hands=["10D 2C 3C 9S", "KS"], discard="7D",
              table=[(1, "9D JK=10D JD")], **OPENED)  # fmt: skip
    g.apply(swap_move(0, "10D"))
    assert pile_faces(g.table[0].cards) == ["9D", "TD", "JD"]
    assert face_of(g.pending) == JOKER
    assert not [m for m in g.legal_moves() if m.kind != MELD]


def test_a_set_joker_is_released_only_by_both_missing_suits() -> None:
    """EQUAL: "in a 3 card set that contains a Joker, the Joker may be released for equal
    ranking cards of both missing [suits] only.  By adding just one card of one missing
    suit, a closed 4 card set is formed, from which the Joker may never be released";
    cardgamesplanet.com, "Kalooki 51/40": "if the joker is in a set, both missing cards
    must be added to take the joker".  The swap names the card the joker stands for and
    gives the set's other missing suit with it; legal moves and validation agree, and
    the state is unchanged by a refusal.  (Rami 51 keeps seed 003's single card:
    tests/test_rules_rami51.py.)"""
    table = [(1, "4H 4S JK=4C")]
    one = build(K, hands=["4C 9C 9D 9H", "KS"], discard="7D", table=table, **OPENED)
    assert not [m for m in one.legal_moves() if m.kind == SWAP]
    before = one.clone()
    with pytest.raises(IllegalMoveError) as e:
        one.apply(swap_move(0, "4C"))
    assert e.value.rule == "set_joker_both_suits"
    assert one.table == before.table and one.hands == before.hands
    both = build(K, hands=["4C 4D 9C 9D 9H", "KS"], discard="7D", table=table, **OPENED)
    assert swap_move(0, "4C") in both.legal_moves()
    both.apply(swap_move(0, "4C"))
    assert sorted(pile_faces(both.table[0].cards)) == ["4C", "4D", "4H", "4S"]
    assert not both.game.melds.shapes[both.table[0].shape].njokers
    assert face_of(both.pending) == JOKER  # used in a new meld at once (9C 9D 9H JK)
    assert conserved(both)
    # a set of four holding a joker is closed: no swap, whatever the hand holds
    closed = build(K, hands=["4C 4D 9C 9D 9H", "KS"], discard="7D",
                   table=[(1, "4H 4S 4D JK=4C")], **OPENED)  # fmt: skip
    assert not [m for m in closed.legal_moves() if m.kind == SWAP]
    with pytest.raises(IllegalMoveError) as e:
        closed.apply(swap_move(0, "4C"))
    assert e.value.rule == "closed_set"
    # EQUAL: "In case a 3 card set contains two Jokers, players can add either one of
    # the missing suits, releasing one of the Jokers"
    two = build(K, hands=["4C 9C 9D 9H", "KS"], discard="7D",
                table=[(1, "4H JK=4C JK=4S")], **OPENED)  # fmt: skip
    assert swap_move(0, "4C") in two.legal_moves()
    # a run's joker is still released by the card it stands for (test_joker_exchange)
    assert Rules.preset(K).set_joker_both_suits and not Rules.preset("rami51").set_joker_both_suits


def test_set_joker_both_suits_needs_swaps_of_distinct_suits() -> None:
    """The option speaks of a set's missing suits and of releasing jokers: it needs
    joker swaps, jokers and sets of distinct suits."""
    with pytest.raises(RulesError, match="set_joker_both_suits"):
        Rules.parse("basic(set_joker_both_suits=true)")
    with pytest.raises(RulesError, match="set_joker_both_suits"):
        Rules.parse("kalooki(set_suits=any)")
    assert not Rules.parse("kalooki(set_joker_both_suits=false)").set_joker_both_suits


def test_each_ace_rule_has_its_own_shared_meld_catalogue() -> None:
    """The shared catalogue (:func:`~rummykit.melds.meld_table`) of each ace rule is the
    one built from it alone, whichever was asked for first in the process: ``ace=high``
    has Q-K-A and no A-2-3, ``ace=low`` the reverse (LUDO and rummyon.com, as in the
    test below), so a shared catalogue of the other rule offers the wrong runs."""
    for ace in Ace:
        rules = Rules.parse(f"{K}(ace={ace.value})")
        shared, fresh = meld_table(rules), MeldTable(rules)
        assert [shared.describe(i) for i in range(len(shared.shapes))] == [
            fresh.describe(i) for i in range(len(fresh.shapes))
        ], ace


def test_the_ace_is_high_or_low_and_high_only_is_an_option() -> None:
    """The references disagree on a low ace.  mybetinfo.com, "Kalooki 51, all the moves
    explained": "the Ace has 1 or 11 points", as LUDO's meld values (an ace 1 in A-2-3)
    and Pagat's Kaluki (Q-K-A and A-2-3, never K-A-2) have it: the preset's reading.
    rummyon.com, "Kalooki Rules": "the aces in this particular card game are seen with
    higher values": ``ace=high`` (Q-K-A only) is the other reading, an option."""
    hands = ["AC 2C 3C QH KH AH 9S", "KS"]
    g = build(K, hands=hands, discard="7D", **OPENED)
    assert {"AC 2C 3C", "QH KH AH"} <= melds_in(g)
    h = build(f"{K}(ace=high)", hands=hands, discard="7D", **OPENED)
    assert "QH KH AH" in melds_in(h) and "AC 2C 3C" not in melds_in(h)
    assert not any(s.positions[0] == 0 for s in h.game.melds.shapes if s.kind == 0)
    # no lay-off of a low ace either, and the solver counts A-2-3 as deadwood
    t = build(f"{K}(ace=high)", hands=["AS 9C", "KS"], discard="7D",
              table=[(1, "2S 3S 4S")], **OPENED)  # fmt: skip
    assert not [m for m in t.legal_moves() if m.kind == LAYOFF]
    from rummykit.solver import solver_for

    solver = solver_for(h.rules)
    cards = mask_of(parse_cards("AC 2C 3C"))
    assert solver.deadwood(cards) == 11 + 2 + 3
    assert solver_for(g.rules).deadwood(cards) == 0
    with pytest.raises(RulesError, match="ace=high"):
        Rules.parse("gin(ace=high)")


def test_two_jokers_in_one_meld() -> None:
    """EQUAL: "In case a 3 card set contains two Jokers": a meld may hold two jokers."""
    g = build(K, hands=["7C JK JK 10S 10D 10H", "KS"], discard="7D", **OPENED)
    assert {"7C JK=7D JK=7H", "JK=5C JK=6C 7C"} <= melds_in(g)
    assert not any(m.count("JK") > 2 for m in melds_in(g))


def test_going_out_discards_the_last_card() -> None:
    """LUDO: "The winner of the hand is the first player to lay down all of the cards in
    his hand ... They must then discard their last card onto the discard pile"."""
    g = build(K, hands=["3S 4S 5S", "KS"], discard="7D", **OPENED)
    assert {m.kind for m in g.legal_moves()} == {DISCARD}
    g = build(K, hands=["3S 4S 5S 9C", "KS"], discard="7D", **OPENED)
    g.apply(meld_move(g, "3S 4S 5S"))
    g.apply(discard_move("9C"))
    assert g.results[-1].winner == 0 and g.results[-1].reason is RoundEnd.OUT


def test_reshuffle_keeps_the_last_discard() -> None:
    """LUDO: "If the stock pile runs out of cards, the discard pile will be reshuffled to
    form a new stock pile, but the last card that was thrown out, will remain"."""
    g = build(K, hands=["3H 9C KD", "KS 2D"], discard="2C 3C 4C 5C", rest="discard",
              phase=Phase.DRAW)  # fmt: skip
    top = g.discard[-1]
    draw(g)
    assert g.discard == [top] and conserved(g)


def test_penalty_points() -> None:
    """LUDO: "all number cards are worth their value in penalty points ... Royal cards
    are worth 10 each, Ace = 11 and a joker is worth 15"; the lowest total wins."""
    r = Rules.preset(K)
    values = [card_value(r, c) for c in parse_cards("2C 10D JH QS KC AD JK")]
    assert values == [2, 10, 10, 10, 10, 11, 15]
    assert r.scoring.value == "penalty"


def test_bots_play_kalooki_legally() -> None:
    """A legality soak in the suite: 100 deals of random play and a few of each heuristic
    bot (benchmarks/legality.py plays thousands of each)."""
    for seed in range(110):
        n = 2 + seed % 3
        bot = "random" if seed < 100 else ("greedy", "expert")[seed % 2]
        play_match(f"{K}(deals=1)", n, [make_bot(bot) for _ in range(n)], seed)

"""Seed 002 "Card Game 101 #4: Rummy" (preset ``cg101``): the cut for dealer, 10/7/6
cards, the deal and play starting left of the dealer, ace always low, three ways to go
out, rummy doubling, reshuffling all but the top discard, played to 150.

Every test quotes the seed 002 passage (or RULES-NOTES item) it checks.
"""

from __future__ import annotations

import itertools
import random

import pytest

from helpers import (
    build,
    conserved,
    discard_move,
    draw,
    layoff_move,
    meld_index,
    meld_move,
    pile_faces,
    play_random,
    take_move,
)
from rummykit import IllegalMoveError, Rules, new_game
from rummykit.cards import deck, format_card, parse_cards
from rummykit.events import Cut, Deal
from rummykit.moves import DISCARD, MELD, TAKE
from rummykit.results import RoundEnd
from rummykit.scoring import card_value
from rummykit.state import Phase


def _cut_value(card: int) -> int:
    """002: "count aces as 1, jacks as 11, queens as 12, and kings as 13"."""
    return "A23456789TJQK".index(format_card(card)[0]) + 1


def test_preset_follows_seed_002() -> None:
    r = Rules.preset("cg101")
    assert (r.decks, r.jokers, r.min_players, r.max_players) == (1, 0, 2, 6)
    assert r.target_score == 150 and r.rummy_bonus.value == "double"
    assert r.restock.value == "shuffle_keep_top" and r.ace.value == "low"


def test_cut_for_dealer_high_card_deals_and_ties_cut_again() -> None:
    """002: "Each player draws one card from the deck. The player who draws the highest
    number gets to deal (for this purpose, count aces as 1, jacks as 11, queens as 12, and
    kings as 13). If two or more players tie for the highest number drawn, have the tying
    players re-draw from the deck." (RULES-NOTES 12)"""
    ties = recuts_twice = 0
    for players in range(2, 7):
        for seed in range(40):
            g = new_game("cg101", players=players, seed=seed)
            cuts = [(e.player, e.card) for e in g.events if type(e) is Cut]
            assert type(g.events[len(cuts)]) is Deal  # the cut comes before the deal
            assert len({c for _p, c in cuts}) == len(cuts)  # drawn from one pack
            contenders = list(range(players))
            i = 0
            rounds = 0
            while True:
                batch = cuts[i : i + len(contenders)]
                assert [p for p, _c in batch] == contenders
                values = {p: _cut_value(c) for p, c in batch}
                best = max(values.values())
                contenders = [p for p in contenders if values[p] == best]
                i += len(batch)
                rounds += 1
                if len(contenders) == 1:
                    break
            assert i == len(cuts)
            assert g.dealer == contenders[0]
            ties += rounds > 1
            recuts_twice += rounds > 2
    assert ties > 0 and recuts_twice > 0  # the scan did exercise re-cuts


def test_cut_ignores_a_given_dealer() -> None:
    """002: "The dealer can be selected by the players themselves"."""
    g = new_game("cg101", players=3, seed=0, dealer=2)
    assert g.dealer == 2 and not [e for e in g.events if type(e) is Cut]


@pytest.mark.parametrize(("players", "size"), [(2, 10), (3, 7), (4, 7), (5, 6), (6, 6)])
def test_cards_dealt_by_player_count(players: int, size: int) -> None:
    """002: "For 2 players: 10 cards/player; For 3-4 players: 7 cards/player; For 5-6
    players: 6 cards/player" and "Flip up the top card and place it next to the draw pile
    to begin the discard pile."""
    g = new_game("cg101", players=players, seed=4)
    assert [g.hand_size(p) for p in range(players)] == [size] * players
    assert len(g.discard) == 1
    assert len(g.stock) == 52 - players * size - 1
    assert conserved(g)


@pytest.mark.parametrize("dealer", [0, 1, 3])
def test_deal_starts_left_of_dealer_one_card_at_a_time(dealer: int) -> None:
    """002: "All these deals are carried out clockwise and starting with the player to the
    dealer's left." (RULES-NOTES 12: "Cards are dealt one at a time clockwise".) The deal
    is replayed from the state's seeded RNG."""
    n, seed = 4, 11
    g = new_game("cg101", players=n, seed=seed, dealer=dealer)
    rng = random.Random(seed)  # the engine shuffles by sorting on random keys
    cards = sorted(deck(), key=lambda _: rng.random())
    hands = [0] * n
    for _ in range(7):
        for k in range(n):
            hands[(dealer + 1 + k) % n] |= 1 << cards.pop()
    assert g.hands == hands
    assert g.discard == [cards.pop()]
    assert g.stock == cards


@pytest.mark.parametrize("dealer", [0, 2, 4])
def test_player_left_of_dealer_plays_first(dealer: int) -> None:
    """002: "The player to the left of the dealer is the first to play."""
    g = new_game("cg101", players=5, seed=1, dealer=dealer)
    assert g.current == (dealer + 1) % 5 and g.phase is Phase.DRAW


def test_dealer_rotates_left_after_each_hand() -> None:
    """RULES-NOTES 12: "The deal passes to the left after each hand." (seed 002's deal and
    first player are both "to the dealer's left")."""
    g = build("cg101", hands=["3S 4S 5S", "KS", "QS"], discard="7D", dealer=2, current=0)
    g.apply(meld_move(g, "3S 4S 5S"))
    assert g.round_no == 2 and g.dealer == 0 and g.current == 1
    g = new_game("cg101", players=3, seed=8)
    play_random(g, random.Random(8))
    dealers = [r.dealer for r in g.results]
    assert len(dealers) > 2
    assert all(b == (a + 1) % 3 for a, b in itertools.pairwise(dealers))


def test_ace_is_always_low() -> None:
    """002: "The ace is always low." and "Ace = 1 point"."""
    g = build("cg101", hands=["QH KH AH 2H 3H", "KS"], discard="7D")
    melds = {g.game.melds.describe(m.a) for m in g.legal_moves() if m.kind == MELD}
    assert "AH 2H 3H" in melds and not any("KH AH" in d for d in melds)
    for bad in ("QH KH AH", "KH AH 2H"):
        with pytest.raises(ValueError):
            meld_index(g, bad)
    assert card_value(g.rules, parse_cards("AS")[0]) == 1


def test_card_values() -> None:
    """002: "Ace = 1 point; 2-10 = face value; Jack, Queen, King = 10 points"."""
    r = Rules.preset("cg101")
    assert [card_value(r, c) for c in parse_cards("AS 2D 9C 10H JS QD KC")] == [
        1, 2, 9, 10, 10, 10, 10,
    ]  # fmt: skip


def test_sets_and_runs() -> None:
    """002: "A set is three or four cards of the same rank, and a run is three or more
    consecutive cards of the same suit." Examples: 3H 3S 3D (+3C); (4S) 5S 6S 7S (8S)."""
    g = build("cg101", hands=["3H 3S 3D 3C 4S 5S 6S 7S 8S", "KS"], discard="7D")
    melds = {g.game.melds.describe(m.a) for m in g.legal_moves() if m.kind == MELD}
    assert {"3D 3H 3S", "3C 3D 3H 3S", "5S 6S 7S", "4S 5S 6S 7S 8S"} <= melds


def test_multiple_melds_and_lay_offs_in_one_turn() -> None:
    """002: "After a card is drawn, the player will lay down any melds they have in their
    hand" and "A player may add multiple cards in their hand to their opponents' melds,
    provided they are all valid."""
    g = build("cg101", hands=["3H 4H 5H 9C 9D 9H 8S 9S KD", "KS"], discard="7D",
              table=[(1, "5S 6S 7S")])  # fmt: skip
    g.apply(meld_move(g, "3H 4H 5H"))
    g.apply(meld_move(g, "9C 9D 9H"))
    g.apply(layoff_move(g, 0, "8S"))
    g.apply(layoff_move(g, 0, "9S"))
    assert pile_faces(g.table[0].cards) == ["5S", "6S", "7S", "8S", "9S"]


def test_may_add_to_own_melds() -> None:
    """002, comment by the author: "Correction: a player may also add to their own melds
    in addition to adding to their opponents' melds."""
    g = build("cg101", hands=["8S KD", "KS"], discard="7D", table=[(0, "5S 6S 7S")])
    assert layoff_move(g, 0, "8S") in g.legal_moves()


def test_melds_cannot_be_moved_or_separated() -> None:
    """002: "Once a meld is laid down, it cannot be moved or separated."""
    g = build("cg101", hands=["8C 8D KD", "KS"], discard="7D", table=[(1, "5H 6H 7H 8H")])
    assert not [m for m in g.legal_moves() if m.kind == TAKE]
    with pytest.raises(IllegalMoveError) as e:
        g.apply(take_move(g, 0, "8H"))
    assert e.value.rule == "take_from_meld"


def test_cannot_discard_the_picked_up_card() -> None:
    """002: "If a player chooses to take the top card of the discard pile, that player
    cannot discard that card to end their turn"."""
    g = build("cg101", hands=["3H 9C KD", "KS"], discard="7D", phase=Phase.DRAW)
    draw(g, from_discard=True)
    assert discard_move("7D") not in g.legal_moves()
    assert {m for m in g.legal_moves() if m.kind == DISCARD} == {
        discard_move(c) for c in ("3H", "9C", "KD")
    }


def test_end_round_by_discarding_last_card() -> None:
    """002: "A player can end a round in three ways: by discarding their last card, ..."""
    g = build("cg101", hands=["3S 4S 5S 9C", "KS"], discard="7D")
    g.apply(meld_move(g, "3S 4S 5S"))
    g.apply(discard_move("9C"))
    r = g.results[-1]
    assert r.winner == 0 and r.reason is RoundEnd.OUT and r.deltas == (10 * 2, 0)  # rummy


def test_end_round_by_melding_last_card() -> None:
    """002: "... by including their last card in a meld, ..."""
    g = build("cg101", hands=["3S 4S 5S", "KS"], discard="7D", laid=[True, False])
    g.apply(meld_move(g, "3S 4S 5S"))
    assert g.results[-1].winner == 0 and g.results[-1].deltas == (10, 0)


def test_end_round_by_laying_off_last_card() -> None:
    """002: "... or by adding their last card to an opponent's meld."""
    g = build("cg101", hands=["8S", "KS"], discard="7D", table=[(1, "5S 6S 7S")],
              laid=[True, True])  # fmt: skip
    g.apply(layoff_move(g, 0, "8S"))
    assert g.results[-1].winner == 0 and g.results[-1].deltas == (10, 0)


def test_points_for_the_first_out_from_others_hands() -> None:
    """002: "That player will be awarded points based on the cards remaining in other
    players' hands"."""
    g = build("cg101", hands=["3S 4S 5S", "KS 5C", "2D 3C"], discard="7D",
              laid=[True, False, False])  # fmt: skip
    g.apply(meld_move(g, "3S 4S 5S"))
    assert g.results[-1].deltas == (20, 0, 0)


def test_rummy_doubles_the_score() -> None:
    """002: "If a player initially has no cards laid down, and runs out of cards by
    melding, adding and discarding all in one turn, that player goes "rummy". ... if a
    player goes rummy and the other players' cards add up to 20 points, the player who
    went rummy is awarded 40 points."""
    g = build("cg101", hands=["3H 4H 5H 9C 9D 9S 8S KD", "KS 5C", "2D 3C"], discard="7D",
              table=[(1, "5S 6S 7S")])  # fmt: skip
    g.apply(meld_move(g, "3H 4H 5H"))
    g.apply(meld_move(g, "9C 9D 9S"))
    g.apply(layoff_move(g, 0, "8S"))
    g.apply(discard_move("KD"))
    r = g.results[-1]
    assert r.rummy and r.deltas == (40, 0, 0)


def test_no_rummy_with_cards_already_laid_down() -> None:
    """002: "If a player initially has no cards laid down" - a player with a meld on the
    table from an earlier turn does not go rummy."""
    g = build("cg101", hands=["3H 4H 5H KD", "KS 5C", "2D 3C"], discard="7D",
              table=[(0, "JC QC KC")])  # fmt: skip
    g.apply(meld_move(g, "3H 4H 5H"))
    g.apply(discard_move("KD"))
    r = g.results[-1]
    assert not r.rummy and r.deltas == (20, 0, 0)


def test_reshuffle_all_but_the_top_discard() -> None:
    """002: "If the draw pile runs out, reshuffle the discard pile (minus its top card,
    which remains as the discard pile) to form a new draw pile."""
    g = build("cg101", hands=["3H 9C KD", "KS 2D"], discard="2C 3C 4C 5C", rest="discard",
              phase=Phase.DRAW)  # fmt: skip
    pile = list(g.discard)
    draw(g)
    drawn = [c for c in pile if g.hands[0] >> c & 1]
    assert g.discard == [pile[-1]] and pile_faces(g.discard) == ["5C"]
    assert sorted(g.stock + drawn) == sorted(pile[:-1])
    assert g.stock + drawn != pile[:-1] and g.stock + drawn != pile[-2::-1]  # shuffled
    assert conserved(g)


def test_first_to_150_wins() -> None:
    """002: "The objective of Rummy is to be the first player to reach 150 points." and
    "Once a player reaches or exceeds 150 points, that player wins the game."""
    g = build("cg101", hands=["3S 4S 5S", "KS"], discard="7D", scores=[140, 100],
              laid=[True, False])  # fmt: skip
    g.apply(meld_move(g, "3S 4S 5S"))
    assert g.is_over() and g.scores == [150, 100] and g.result().winners == (0,)


def test_below_150_a_new_round_begins() -> None:
    """002: "If no one has reached 150 points after the current round, begin a new
    round."""
    g = build("cg101", hands=["3S 4S 5S", "9S"], discard="7D", scores=[140, 100],
              laid=[True, False])  # fmt: skip
    g.apply(meld_move(g, "3S 4S 5S"))
    assert not g.is_over() and g.scores == [149, 100] and g.round_no == 2

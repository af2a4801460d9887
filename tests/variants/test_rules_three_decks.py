"""Three decks: Kalooki 40 and Contract Rummy for five players and more.

References: Bicycle Cards, "Contract Rummy" (https://bicyclecards.com/how-to-play/contract-rummy),
quoted as BC: "five or more players use a triple pack"; Wikipedia, "Kalooki"
(https://en.wikipedia.org/wiki/Kalooki), quoted as WP: its table of packs gives "3"
packs for "5-6" players.  The cards stay small ints: ``copy * 54 + face`` with a third
copy (ids 108..161), and meld search counts a face held up to three times.
"""

from __future__ import annotations

import random

import pytest

from helpers import build, conserved, meld_move
from rummykit import Rules, RulesError, new_game
from rummykit.bots import make_bot, play_match
from rummykit.cards import (
    MAX_CARDS,
    CardParseError,
    format_cards,
    mask_of,
    parse_card,
    parse_cards,
)
from rummykit.env.observation import encode_state, layout
from rummykit.melds import HandCounts
from rummykit.notation import export_record, import_record
from rummykit.position import position_from_text, position_to_text
from rummykit.serialize import state_from_json, state_to_json
from rummykit.solver import Solver


def test_a_face_has_three_physical_copies() -> None:
    """Three decks: three 7H are three different cards; a fourth is not a card."""
    cards = parse_cards("7H 7H 7H JK JK JK JK JK JK")
    assert cards == [32, 86, 140, 52, 53, 106, 107, 160, 161]
    assert format_cards(cards) == "7H 7H 7H JK JK JK JK JK JK"
    assert MAX_CARDS == 162
    with pytest.raises(CardParseError, match="too many copies"):
        parse_cards("7H 7H 7H 7H")
    counts = HandCounts.of(mask_of(parse_cards("7H 7H 7H 8H 8H JK JK JK")))
    assert counts.have1 == 1 << 32 | 1 << 33
    assert counts.have2 == 1 << 32 | 1 << 33 and counts.have3 == 1 << 32
    assert counts.jokers == 3


def test_kalooki_for_five_or_six_with_three_decks() -> None:
    """WP: "5-6" players, "3" packs; every other rule is Kalooki 40's (13 cards each,
    two jokers a deck, 40 to open)."""
    r = Rules.preset("kalooki_big")
    assert (r.decks, r.jokers, r.min_players, r.max_players) == (3, 2, 5, 6)
    assert r.deck_size == 162 and r.opening_minimum == 40 and r.hand_size == 13
    for n in (5, 6):
        g = new_game("kalooki_big", players=n, seed=n)
        assert [g.hand_size(p) for p in range(n)] == [13] * n and conserved(g)
        assert len(g.stock) == 162 - 13 * n - 1
    with pytest.raises(RulesError, match="5 to 6 players"):
        new_game("kalooki_big", players=4)


def test_contract_for_five_to_eight_with_three_decks() -> None:
    """BC: "Three to eight people can play"; "five or more players use a triple pack"."""
    r = Rules.preset("contract_big")
    assert (r.decks, r.jokers, r.min_players, r.max_players) == (3, 1, 5, 8)
    g = new_game("contract_big", players=8, seed=2)
    assert [g.hand_size(p) for p in range(8)] == [10] * 8 and conserved(g)
    assert len(g.stock) == 159 - 80 - 1
    with pytest.raises(RulesError, match="from 1 to 3"):
        Rules.parse("contract(decks=4)")


def test_a_set_of_three_identical_cards() -> None:
    """Contract Rummy's sets are of a rank, suits not considered (WP, "Contract
    rummy"): with three decks a set may be the three 7H, and the solver melds it."""
    g = build(
        "contract_big",
        hands=["7H 7H 7H 9S 9S 9S 2C 3C 4C 5C KD", "2H 3H 4S", "5S 6S 8D", "4H", "6D"],
    )
    assert meld_move(g, "7H 7H 7H") in g.legal_moves()
    g.apply(meld_move(g, "7H 7H 7H"))
    g.apply(meld_move(g, "9S 9S 9S"))
    assert g.opened[0] and conserved(g)
    solver = Solver(Rules.preset("contract_big"))
    hand = mask_of(parse_cards("7H 7H 7H 9S 9S 9S KD"))
    arranged = solver.arrange(hand)
    assert [solver.melds.describe(i) for i in arranged.shapes] == ["7H 7H 7H", "9S 9S 9S"]
    assert arranged.deadwood == 10


@pytest.mark.parametrize(("preset", "players"), [("kalooki_big", 6), ("contract_big", 8)])
@pytest.mark.parametrize("bot", ["random", "greedy", "expert"])
def test_bots_play_three_deck_games_legally(preset: str, players: int, bot: str) -> None:
    """Every bot plays a deal to the end, each move through ``apply`` (which refuses
    an illegal one); the legality soak (benchmarks/legality.py) plays thousands."""
    spec = f"{preset}(deals=1)"
    state, stats = play_match(spec, players, [make_bot(bot) for _ in range(players)], 5)
    assert state.is_over() and stats.rounds == 1 and conserved(state)


def test_saves_positions_records_and_observations_with_third_copies() -> None:
    """Cards of the third deck survive a save, a position and a game record; the
    observation counts a face held three times."""
    rng = random.Random(1)
    g = new_game("contract_big", players=5, seed=9)
    while not g.is_over() and not any(h >> 108 for h in g.hands):
        g.apply(rng.choice(g.legal_moves()))
    for _ in range(40):
        g.apply(rng.choice(g.legal_moves()))
    h = state_from_json(state_to_json(g))
    assert h.hands == g.hands and h.legal_moves() == g.legal_moves()
    pos = position_to_text(g)
    assert position_to_text(position_from_text(pos)) == pos
    again = import_record(export_record(g))
    assert again.history == g.history and again.hands == g.hands
    lay = layout("contract_big", 5)
    assert lay["hand"].high == 3.0
    k = build("kalooki_big", hands=["7H 7H 7H 2C", "3D", "4D", "5D", "6D"])
    at = layout("kalooki_big", 5)["hand"].start + parse_card("7H")
    assert encode_state(k, 0)[at] == 3.0

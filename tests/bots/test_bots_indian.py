"""The bots' Indian Rummy policy: hard looks one draw ahead (bots/indian.py) and
compares that move with the other draws or the least costly discards on samples.

Sets in Indian Rummy have distinct suits (RC: "a set ... of the same rank but different
suits"; tests/variants/test_rules_indian.py::test_a_set_has_distinct_suits), so with two decks a
second copy of a card the hand already holds can join no set beside the first.
"""

from __future__ import annotations

import random

import pytest

from helpers import build
from rummykit import Move
from rummykit.bots import make_bot, play_match
from rummykit.bots.hints import suggest
from rummykit.bots.indian import (
    SEARCH_TURNS,
    best_discard,
    indian_move,
    lookahead_discard,
    search_candidates,
    solver_of,
)
from rummykit.bots.ismcts import ISMCTSBot
from rummykit.bots.review import evaluate
from rummykit.cards import copy_of, parse_card
from rummykit.moves import DISCARD, DRAW_DISCARD, DRAW_STOCK, DROP, KNOCK
from rummykit.phase import Phase
from rummykit.position import position_from_text, position_to_text
from rummykit.results import RoundEnd
from rummykit.state import GameState
from rummykit.variants.indian import declare_fields


def two_queens_of_spades() -> GameState:
    """Seat 0 to discard, holding both queens of spades, with the six of clubs wild."""
    g = build(
        "indian(first_drop=0, middle_drop=0)",
        hands=[
            "5H TH QS JK 3C 4C 5C 9C KC 7D 8D 4H 4S QS",
            "2D 3D 4D 5D 6D 7S 8S 9S TS JS KS QD AD",
        ],
    )
    return position_from_text(f"{position_to_text(g)} wild=6C")


def test_hard_drops_the_second_copy_of_a_card_among_equal_counts() -> None:
    """Throwing the ten of hearts, the king of clubs or one of the two queens of spades
    leaves the same count (medium's measure, which then takes any of them); hard counts
    what the next draw can bring, and a queen of spades the hand already holds once
    brings least."""
    g = two_queens_of_spades()
    view = g.view(0)
    solver = solver_of(view)
    discards = [m for m in view.legal if m.kind == DISCARD]
    left = {
        face: solver.soft(view.hand & ~(1 << parse_card(face)), declare_fields(view).wild)
        for face in ("TH", "QS", "KC")
    }
    assert (
        len(set(left.values())) == 1
        and min(
            solver.soft(view.hand & ~(1 << c), declare_fields(view).wild)
            for c in range(108)
            if view.hand >> c & 1
        )
        == left["QS"]
    )
    assert best_discard(view, solver, discards).a in {parse_card(f) for f in left}
    assert lookahead_discard(view, solver, discards).a == parse_card("QS")
    # An iteration budget: a time budget holds one sample on a slow machine.
    assert make_bot("ismcts:20i").choose(view, random.Random(0)).a == parse_card("QS")


def wrong_shows(state: GameState) -> int:
    """Wrong shows in a played match (the score note of each wrong declarer)."""
    return sum(
        1 for res in state.results for p in res.players if any("wrong show" in n for n in p.notes)
    )


@pytest.mark.parametrize(
    ("bot", "preset"),
    [
        ("easy", "indian"),
        ("medium", "indian"),
        ("easy", "indian_pool101(deals=1)"),
        ("medium", "indian_pool101(deals=1)"),
        ("ismcts:2i", "indian"),
    ],
)
def test_bots_never_make_a_wrong_show(bot: str, preset: str) -> None:
    """A wrong show costs 80 (Rummyera, "Points Rummy": "Wrong Show | Loss of 80
    Points") and declaring is legal on every turn under the presets' ``wrong_show``:
    the bots declare only a valid hand, and put out a card that keeps it valid, over
    a soak of deals (and hands that reach a valid show do occur in it)."""
    declared = 0
    for seed in range(4 if bot.startswith("ismcts") else 16):
        players = 2 + seed % 3
        state, _stats = play_match(preset, players, [make_bot(bot) for _ in range(players)], seed)
        assert wrong_shows(state) == 0, (bot, preset, seed)
        declared += sum(1 for res in state.results if res.reason is RoundEnd.DECLARE)
    assert declared > 0


def test_the_hint_never_suggests_a_wrong_show() -> None:
    """The hint (the hard bot's move) never declares a hand that is not a valid show,
    though the move is legal; once declared, it names the card out that keeps the show
    valid, and says when none does."""
    g = build("indian", hands=["AH 2H 3H 5S 6S 8S 9C 9D 9H KC KD 4D 2S TH", "KS"])
    g = position_from_text(f"{position_to_text(g)} wild=JC")
    assert Move(KNOCK) in g.legal_moves()
    hint = suggest(g.view(0), budget=4)
    assert hint.move.kind == DISCARD
    g.apply(Move(KNOCK))
    hint = suggest(g.view(0), budget=4)
    assert "wrong" in hint.reason and "80" in hint.reason
    g = build("indian", hands=["AH 2H 3H 5S 6S 7S 8S 9C 9D 9H KC KD JK 4D", "KS"])
    g = position_from_text(f"{position_to_text(g)} wild=JC")
    assert suggest(g.view(0), budget=4).move == Move(KNOCK)
    g.apply(Move(KNOCK))
    hint = suggest(g.view(0), budget=4)
    assert hint.move == Move(DISCARD, parse_card("4D")) and "valid declaration" in hint.reason


def test_the_search_compares_the_lookahead_move_with_the_cheapest_discards() -> None:
    """Hard's Indian candidates: its lookahead move first, then the ``top_k`` discards
    leaving the lowest soft count; in the draw phase both draws, never a drop the
    heuristic did not choose; a valid declaration alone.  Its playouts stop after
    SEARCH_TURNS turns each; the review grades the same candidates."""
    g = two_queens_of_spades()
    view = g.view(0)
    solver = solver_of(view)
    wild = declare_fields(view).wild
    cands = search_candidates(view, random.Random(0), top_k=4)
    assert cands[0] == indian_move(view, random.Random(0), careful=True, lookahead=True)
    assert 2 <= len(cands) <= 5 and len(set(cands)) == len(cands)
    assert all(m.kind == DISCARD for m in cands)

    def left(m: Move) -> int:
        return solver.soft(view.hand & ~(1 << copy_of(view.hand, m.a)), wild)

    fourth = sorted(left(m) for m in view.legal if m.kind == DISCARD)[3]
    assert all(left(m) <= fourth for m in cands[1:])
    bot = ISMCTSBot(seconds=None, iterations=8)
    assert bot.candidates(view, random.Random(0)) == cands
    assert bot.playout_horizon(view.rules, 2) == SEARCH_TURNS * 2 * 2
    move = bot.choose(view, random.Random(0))
    assert move in cands and bot.last_iterations == 8
    assert evaluate(view, 8, 0).moves == tuple(cands)

    g.apply(Move(DISCARD, parse_card("QS")))  # the other player's draw phase
    view = g.view(1)
    assert view.phase is Phase.DRAW
    draws = search_candidates(view, random.Random(0), top_k=4)
    assert {Move(DRAW_STOCK), Move(DRAW_DISCARD)} <= set(draws)
    assert Move(DROP) not in draws[1:]


def test_a_valid_declaration_is_played_without_a_search() -> None:
    """Holding a valid show, hard declares at once: the search has nothing to compare."""
    g = build("indian", hands=["AH 2H 3H 5S 6S 7S 8S 9C 9D 9H KC KD JK 4D", "KS"])
    g = position_from_text(f"{position_to_text(g)} wild=JC")
    assert search_candidates(g.view(0), random.Random(0), top_k=4) == [Move(KNOCK)]
    bot = ISMCTSBot(seconds=None, iterations=8)
    assert bot.choose(g.view(0), random.Random(0)) == Move(KNOCK)
    assert bot.last_iterations == 0

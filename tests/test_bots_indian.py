"""The bots' Indian Rummy policy: hard looks one draw ahead (bots/indian.py).

Sets in Indian Rummy have distinct suits (RC: "a set ... of the same rank but different
suits"; tests/test_rules_indian.py::test_a_set_has_distinct_suits), so with two decks a
second copy of a card the hand already holds can join no set beside the first.
"""

from __future__ import annotations

import random

from helpers import build
from rummykit.bots import make_bot
from rummykit.bots.indian import best_discard, lookahead_discard, solver_of
from rummykit.cards import parse_card
from rummykit.moves import DISCARD
from rummykit.position import position_from_text, position_to_text


def test_hard_drops_the_second_copy_of_a_card_among_equal_counts() -> None:
    """Throwing the ten of hearts, the king of clubs or one of the two queens of spades
    leaves the same count (medium's measure, which then takes any of them); hard counts
    what the next draw can bring, and a queen of spades the hand already holds once
    brings least."""
    g = build(
        "indian(first_drop=0, middle_drop=0)",
        hands=[
            "5H TH QS JK 3C 4C 5C 9C KC 7D 8D 4H 4S QS",
            "2D 3D 4D 5D 6D 7S 8S 9S TS JS KS QD AD",
        ],
    )
    g = position_from_text(f"{position_to_text(g)} wild=6C")
    view = g.view(0)
    solver = solver_of(view)
    discards = [m for m in view.legal if m.kind == DISCARD]
    left = {
        face: solver.soft(view.hand & ~(1 << parse_card(face)), view.wild)
        for face in ("TH", "QS", "KC")
    }
    assert (
        len(set(left.values())) == 1
        and min(
            solver.soft(view.hand & ~(1 << c), view.wild) for c in range(108) if view.hand >> c & 1
        )
        == left["QS"]
    )
    assert best_discard(view, solver, discards).a in {parse_card(f) for f in left}
    assert lookahead_discard(view, solver, discards).a == parse_card("QS")
    assert make_bot("ismcts:0.1").choose(view, random.Random(0)).a == parse_card("QS")

"""One count of an Indian Rummy hand everywhere: the status line, Arrange and the round end.

A hand counts its cards left out of the melds of its best grouping with two sequences
and a pure one, wild cards and jokers 0, or every card without such a grouping, at
most 80 (Rummyculture, "Indian Rummy Rules": "the wild card joker or printed joker ...
value of zero"; "a pure sequence is mandatory ... two sequences"; Rummycircle, "Points
calculation": "maximum of 80 points").  :meth:`HandSolver.count` is that count; the
terminal's hand title and Arrange, the page's status count and Arrange, and the
engine's round-end scoring must all show it, and Arrange must lay out a grouping whose
loose cards add up to it.
"""

from __future__ import annotations

import random
import re
from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from helpers import build
from rummykit.cards import JOKER, face_of, format_cards, parse_card, parse_cards
from rummykit.rules import Rules
from rummykit.state import GameState, Phase
from rummykit.tui.hand import ordered_hand
from rummykit.tui.session import own_text
from rummykit.variants.indian import HandSolver, Indian, declare_fields, wild_rank
from rummykit.variants.show import Grouping
from rummykit.web.protocol import arrangement_payload, view_payload
from test_indian_solver import NONE, PURE, RUN, group_kind

RULES = Rules.preset("indian")
FULL = [copy * 54 + f for copy in (0, 1) for f in range(52)] + [52, 106]


def dense_hand(rng: random.Random, size: int) -> list[int]:
    """A hand rich in melds: three suits, eight ranks, both decks, printed jokers."""
    suits = rng.sample(range(4), 3)
    ranks = rng.sample(range(13), 8)
    pool = [copy * 54 + s * 13 + r for copy in (0, 1) for s in suits for r in ranks]
    return rng.sample([*pool, 52, 106], size)


def position(cards: list[int], wild: int) -> GameState:
    """Seat 0 holds ``cards`` (13, or 14 having drawn) with the wild cut ``wild``."""
    rest = [c for c in FULL if c not in cards and c != wild]
    other = random.Random(len(cards)).sample(rest, 13)
    g = build(
        "indian",
        hands=[format_cards(cards), format_cards(other)],
        phase=Phase.PLAY if len(cards) == 14 else Phase.DRAW,
    )
    g.family = replace(declare_fields(g), wild=wild)
    return g


def check_grouping(g: Grouping, hand: int, wild: int) -> None:
    """Every card once; each meld a set or sequence of its stand-ins; the loose cards'
    points add up to the count (below the cap)."""
    cards = [*g.cards] + ([g.out] if g.out >= 0 else [])
    assert sorted(cards) == sorted(c for c in FULL if hand >> c & 1)
    wr = wild_rank(wild)
    kinds = [group_kind(tuple(c for c, _f in meld), wr) for meld in g.melds]
    assert NONE not in kinds
    for meld in g.melds:
        faces = [f for _c, f in meld]
        assert all(f < JOKER for f in faces) and len(set(faces)) == len(faces)
        for c, f in meld:  # a card plays as itself unless it is a joker or wild
            assert face_of(c) == f or face_of(c) == JOKER or face_of(c) % 13 == wr
    runs = sum(k >= RUN for k in kinds)
    assert g.valid == (runs >= 2 and PURE in kinds)
    assert g.points == min(80, sum(g.card_points))


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32), st.sampled_from([13, 13, 14]))
def test_status_arrange_and_round_end_count_the_same(seed: int, size: int) -> None:
    rng = random.Random(seed)
    cards = dense_hand(rng, size)
    wild = rng.choice([-1, 52, rng.choice([c for c in FULL if c not in cards])])
    g = position(cards, wild)
    hand = g.hands[0]
    variant = g.game.variant
    assert isinstance(variant, Indian)
    solver: HandSolver = variant.solver
    count, out = solver.count(hand, wild, g.game.dealt)

    title = own_text(g, hand)  # the terminal's hand title
    assert re.fullmatch(rf"counts {count}( after a discard)?", title), (title, count)
    v = g.view(0)
    own = [line for line in view_payload(v)["status"] if line["own"]]
    assert [line["params"]["n"] for line in own] == [count]  # the page's status line
    arranged = arrangement_payload(v)  # the page's Arrange
    assert arranged is not None and arranged["deadwood_points"] == count
    assert arranged["out"] == out
    _order, _starts, note = ordered_hand(g, hand, "melds", 0)  # the terminal's Arrange
    assert f"counts {count}" in note, note
    grouping = solver.shown(hand, wild, g.game.dealt)
    check_grouping(grouping, hand, wild)
    assert grouping.points == count and grouping.out == out
    if size == 13:  # the round end: the engine's score of this hand
        result = variant.score(g, 1, "declare")
        assert result.players[0].hand_points == count
        assert result.wild == wild


def test_a_wild_card_counts_nothing_and_fills_a_sequence() -> None:
    """With sevens wild, 7♠ stands for 5♠ in 4♠ (7♠) 6♠: the hand counts its loose
    cards only, and Arrange shows the sequence with the stand-in (Rummyculture: "the
    wild card joker ... can be used to complete a sequence")."""
    g = position(parse_cards("AH 2H 3H 4S 6S 7S 9C 9D 9H KC 2D 8C 5D"), parse_card("7C"))
    solver = HandSolver(RULES)
    grouping = solver.arrange(g.hands[0], declare_fields(g).wild)
    melds = [[(format_cards([c]), format_cards([f])) for c, f in m] for m in grouping.melds]
    assert [("4S", "4S"), ("7S", "5S"), ("6S", "6S")] in melds
    assert grouping.valid and grouping.points == 10 + 2 + 8 + 5  # KC 2D 8C 5D
    assert solver.points(g.hands[0], declare_fields(g).wild) == grouping.points

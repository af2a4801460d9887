"""The meld solver is exact: it agrees with a brute-force search on small hands.

The brute force tries every set of disjoint melds the hand can make (by physical
cards, so two-deck copies and jokers are handled independently of the solver's
face-count bookkeeping) and keeps the least deadwood.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rummykit.cards import bits, deck, face_of, is_joker, mask_of, parse_cards
from rummykit.melds import HandCounts, MeldTable
from rummykit.rules import Rules
from rummykit.scoring import card_value
from rummykit.solver import Solver

SPECS = [
    "basic",
    "basic(ace=high_or_low)",
    "classic",
    "rami51",
    "rami51(set_suits=any)",
    "rami51(jokers_per_meld=2)",
    "basic(decks=2, jokers=2, max_players=5)",
    "rum500",  # 500 Rum: one deck, ace high or low
    "kalooki",  # Kalooki 40: two decks, four jokers, two a meld
    "kalooki_big",  # three decks: a face held three times
    "contract_big",  # three decks and sets of any suits: a set of three 7H
    "classic(decks=3, jokers=2, set_suits=any, jokers_per_meld=1, max_players=6)",
]


def brute_deadwood(rules: Rules, table: MeldTable, hand: int) -> int:
    """Least deadwood by trying every meld (as physical cards) recursively."""
    best = sum(card_value(rules, c) for c in bits(hand))
    seen: set[int] = set()

    def physical_options(mask: int, shape_index: int) -> list[int]:
        sh = table.shapes[shape_index]
        out: list[int] = []
        used = 0
        for i, face in enumerate(sh.cells):
            want_joker = bool(sh.joker_cells >> i & 1)
            for c in bits(mask & ~used):
                if is_joker(c) if want_joker else face_of(c) == face and not is_joker(c):
                    used |= 1 << c
                    break
            else:
                return []
            out.append(c)
        return [mask_of(out)]

    def rec(mask: int) -> None:
        nonlocal best
        if mask in seen:
            return
        seen.add(mask)
        value = sum(card_value(rules, c) for c in bits(mask))
        best = min(best, value)
        for idx in table.shapes_in(HandCounts.of(mask)):
            for used in physical_options(mask, idx):
                rec(mask & ~used)

    rec(hand)
    return best


@pytest.mark.parametrize("spec", SPECS)
@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), size=st.integers(1, 9))
def test_solver_matches_brute_force(spec: str, seed: int, size: int) -> None:
    rules = Rules.parse(spec)
    solver = Solver(rules)
    rng = random.Random(seed)
    cards = deck(rules.decks, rules.jokers)
    # bias towards dense hands: draw from a narrow window of faces half of the time
    if rng.random() < 0.5:
        suit_faces = [c for c in cards if is_joker(c) or face_of(c) % 13 < 6]
        cards = suit_faces
    hand = mask_of(rng.sample(cards, min(size, len(cards))))
    expected = brute_deadwood(rules, solver.melds, hand)
    assert solver.deadwood(hand) == expected
    arrangement = solver.arrange(hand)
    assert arrangement.deadwood == expected
    # the arrangement is real: its melds use disjoint cards of the hand
    left = HandCounts.of(hand)
    faces = sorted(face_of(c) for c in bits(hand))
    for idx in arrangement.shapes:
        sh = solver.melds.shapes[idx]
        for f in sh.naturals:
            faces.remove(f)
        for _ in range(sh.njokers):
            faces.remove(52)
    assert sorted(faces) == sorted(arrangement.deadwood_faces)
    assert sum(card_value(rules, f) for f in faces) == expected
    assert left.jokers >= 0


def test_seed_examples() -> None:
    """Seed 000's examples of melds: 6s as a set, 3-4-5 of spades as a run."""
    solver = Solver(Rules.preset("classic"))
    hand = mask_of(parse_cards("6C 6S 6D 6H 3S 4S 5S"))
    assert solver.deadwood(hand) == 0
    # "Consecutive cards of different suits do not constitute a valid sequence."
    assert solver.deadwood(mask_of(parse_cards("3S 4H 5S"))) == 12


def test_ace_high_run_only_with_option() -> None:
    """Seed 001: Q-K-A is a run only when aces may be high."""
    hand = mask_of(parse_cards("QH KH AH"))
    assert Solver(Rules.preset("basic")).deadwood(hand) == 21
    assert Solver(Rules.parse("basic(ace=high_or_low)")).deadwood(hand) == 0
    # seed 003: "Queen, King, Ace, Two" is not a meld; Q-K-A is, and the 2 is left
    rami = Solver(Rules.preset("rami51"))
    assert rami.deadwood(mask_of(parse_cards("QH KH AH 2H"))) == 2


def test_jokers_fill_gaps() -> None:
    """Seed 003: one joker per meld stands for any card."""
    rami = Solver(Rules.preset("rami51"))
    assert rami.deadwood(mask_of(parse_cards("5H 7H JK"))) == 0
    assert rami.deadwood(mask_of(parse_cards("5H 8H JK JK"))) == 53


@pytest.mark.parametrize(
    "spec", ["rami51", "basic(decks=2, jokers=2, max_players=5)", "gin", "contract_big"]
)
@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), size=st.integers(2, 15))
def test_without_a_card_equals_a_fresh_solve(spec: str, seed: int, size: int) -> None:
    """``Solver.without`` skips the search for cards a best arrangement leaves loose;
    for every card of random hands it must equal solving the rest from scratch."""
    rules = Rules.parse(spec)
    solver = Solver(rules)
    fresh = Solver(rules)
    cards = deck(rules.decks, rules.jokers)
    hand = mask_of(random.Random(seed).sample(cards, size))
    after = solver.without(hand)
    for c in bits(hand):
        assert after(c) == fresh.deadwood(hand & ~(1 << c))

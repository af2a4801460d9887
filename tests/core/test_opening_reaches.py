"""The opening search's cut: ``MeldTable.opening_reaches`` tells whether a hand's melds
can total a number of points, and pruning the search by it changes no legal list.

The opening minimum (seed 003: "la première pose doit totaliser au moins 51 points";
Kalooki 40 the same at 40) makes a meld legal only if the turn can still reach the
minimum, which ``GameState.finishable`` decides by searching the turn ahead; a branch
whose hand cannot reach it by :meth:`MeldTable.opening_reaches` is cut there.
"""

from __future__ import annotations

import random

import pytest

from rummykit import new_game
from rummykit.cards import JOKER, bits, face_of, mask_of, parse_cards
from rummykit.melds import HandCounts, MeldTable
from rummykit.moves import MELD
from rummykit.rules import Rules
from rummykit.state import GameState


def packings_best(t: MeldTable, hand: int) -> int:
    """The most points of melds laid one after another from ``hand`` (physical cards),
    every order and choice tried: the definition, by brute force."""
    best = 0
    for i in t.shapes_in(HandCounts.of(hand)):
        sh = t.shapes[i]
        rest = hand
        for cell, face in enumerate(sh.cells):
            want = JOKER if sh.joker_cells >> cell & 1 else face
            pick = next(c for c in bits(rest) if face_of(c) == want)  # held: shapes_in
            rest &= ~(1 << pick)
        best = max(best, sh.points + packings_best(t, rest))
    return best


@pytest.mark.parametrize("preset", ["rami51", "kalooki"])
def test_opening_reaches_the_best_packing_and_no_more(preset: str) -> None:
    """Seed 003's opening counts the melds laid: a hand reaches the best total of
    disjoint melds (by brute force over small hands of the preset's pack) and not one
    point more, asked in either order (answers are remembered between questions)."""
    rules = Rules.preset(preset)
    t = MeldTable(rules)
    g = new_game(preset, players=2, seed=0)
    pack = list(g.game.pack)
    rng = random.Random(7)
    checked = 0
    for _ in range(150):
        hand = 0
        for c in rng.sample(pack, rng.randint(4, 9)):
            hand |= 1 << c
        want = packings_best(t, hand)
        counts = HandCounts.of(hand)
        if rng.random() < 0.5:
            assert t.opening_reaches(counts, want), bin(hand)
            assert not t.opening_reaches(counts, want + 1), bin(hand)
        else:
            assert not t.opening_reaches(counts, want + 1), bin(hand)
            assert t.opening_reaches(counts, want), bin(hand)
        assert t.opening_reaches(counts, max(0, want - 7))
        checked += want > 0
    assert checked > 20  # hands with melds were tried, not only empty ones


@pytest.mark.parametrize(("preset", "players"), [("rami51", 4), ("rami51", 2), ("kalooki", 3)])
def test_pruned_opening_search_lists_the_same_moves(
    preset: str, players: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Over random states, the legal list with the bound equals the list of the full
    search (the bound never cuts a turn that could be finished)."""
    states: list[GameState] = []
    for seed in range(6):
        g = new_game(f"{preset}(deals=1)", players=players, seed=seed)
        rng = random.Random(seed)
        while not g.is_over() and len(states) < 400 * (seed + 1):
            legal = g.legal_moves()
            states.append(g.clone())
            melds = [m for m in legal if m.kind == MELD]
            g.apply(rng.choice(melds) if melds and rng.random() < 0.7 else rng.choice(legal))
    pruned = [s.clone().legal_moves() for s in states]
    monkeypatch.setattr(GameState, "_opening_out_of_reach", lambda self: False)
    full = [s.clone().legal_moves() for s in states]
    assert pruned == full
    assert sum(1 for s in states if s.opening_in_progress()) > 10


def test_combinations_of_a_set_and_a_run_share_no_card() -> None:
    """A card counts once: K♠ in a set of kings and in J-Q-K♠ gives 30, not 60."""
    t = MeldTable(Rules.preset("rami51"))
    hand = mask_of(parse_cards("KS KH KD QS JS"))
    assert t.opening_reaches(HandCounts.of(hand), 30)
    assert not t.opening_reaches(HandCounts.of(hand), 31)


def test_a_long_hand_is_answered_within_the_search_bound() -> None:
    """500 Rum accepts an opening minimum and lets a deep draw make a long hand: the
    question is answered within :data:`OPENING_NODES` sub-hands, and a hand the bound
    cuts short is "not out of reach", so the turn's own search decides."""
    from rummykit.melds import OPENING_NODES

    rules = Rules.parse("rum500(opening_minimum=50)")
    t = MeldTable(rules)
    pack = list(new_game("rum500(opening_minimum=50)", players=2, seed=0).game.pack)
    hand = 0
    for c in random.Random(1).sample(pack, 40):
        hand |= 1 << c
    assert t.opening_reaches(HandCounts.of(hand), 10**6)  # cut short: not out of reach
    assert len(t._opening_memo) <= OPENING_NODES

"""Rummikub's legality soak: every bot name plays whole deals of the ``rummikub``
preset, two to four players, and never makes an illegal move (``play_match`` applies
each move with ``GameState.apply``, which raises on any illegal one); every state on
the way passes the invariant checker, saves round-trip and a view shows no other rack.
``benchmarks/legality.py --presets rummikub`` is the long run."""

from __future__ import annotations

import random

import pytest

from rummykit.bots import make_bot, play_match
from rummykit.invariants import check_state
from rummykit.moves import ARRANGE
from rummykit.serialize import state_from_json, state_to_json
from rummykit.state import new_game

BOT_NAMES = ("random", "greedy", "expert", "easy", "medium", "hard")


def soak(bot: str, deals: int) -> int:
    actions = 0
    for seed in range(deals):
        n = 2 + seed % 3
        state, stats = play_match("rummikub", n, [make_bot(bot) for _ in range(n)], seed)
        assert state.is_over() and stats.rounds == 1
        actions += stats.actions
    return actions


@pytest.mark.parametrize("bot", BOT_NAMES)
def test_every_bot_plays_legal_deals(bot: str) -> None:
    assert soak(bot, 1 if bot == "random" else 3) > 0


@pytest.mark.slow
@pytest.mark.parametrize("bot", BOT_NAMES)
def test_every_bot_plays_many_legal_deals(bot: str) -> None:
    assert soak(bot, 40) > 0


@pytest.mark.slow
def test_the_solver_bots_place_more_than_random() -> None:
    """The greedy bot places the most tiles it is offered: it goes out in fewer turns."""
    turns = {}
    for bot in ("random", "greedy"):
        total = 0
        for seed in range(3):
            state, _ = play_match("rummikub", 2, [make_bot(bot), make_bot(bot)], seed)
            total += state.turn
        turns[bot] = total
    assert turns["greedy"] < turns["random"]


def test_random_play_keeps_every_invariant() -> None:
    """At every state of random deals: the invariant checker passes, the save loads
    back byte for byte, and a seat's view holds no other seat's rack."""
    rng = random.Random(33)
    for seed in range(1):
        g = new_game("rummikub", 3, seed=seed)
        while not g.is_over():
            check_state(g)
            saved = state_to_json(g)
            assert state_to_json(state_from_json(saved)) == saved
            v = g.view(g.current)
            assert v.hand == g.hands[g.current]
            # no rack tile is ever shown: a seat knows nothing of another's rack
            assert all(v.known[q] == 0 for q in range(3) if q != g.current)
            legal = g.legal_moves()
            plays = [m for m in legal if m.kind == ARRANGE]
            g.apply(rng.choice(plays) if plays and rng.random() < 0.7 else legal[0])

"""The observation encoder: fixed shape, and nothing a player cannot see."""

from __future__ import annotations

import random
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rummykit import new_game
from rummykit.cards import bits, face_of
from rummykit.env.episode import ENV_PRESETS
from rummykit.env.observation import encode, encode_state, layout, observation_size
from rummykit.rules import PRESETS, Rules
from rummykit.state import GameState
from rummykit.view import determinize, unseen_cards

SETUPS = [
    (name, n)
    for name, r in PRESETS.items()
    if name in ENV_PRESETS
    for n in sorted({r.min_players, 4, r.max_players})
    if r.min_players <= n <= r.max_players
] + [("rami51(opening_minimum=40)", 3)]


def played(spec: str, players: int, seed: int, moves: int) -> GameState:
    """A match after up to ``moves`` random legal actions (it may reach a later round)."""
    g = new_game(spec, players=players, seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        if g.is_over():
            break
        g.apply_action(rng.choice(g.legal_actions()))
    return g


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    setup=st.sampled_from(SETUPS),
    seed=st.integers(0, 10_000),
    moves=st.integers(0, 250),
    data=st.data(),
)
def test_hidden_cards_do_not_change_the_observation(
    setup: tuple[str, int], seed: int, moves: int, data: st.DataObject
) -> None:
    spec, n = setup
    g = played(spec, n, seed, moves)
    p = data.draw(st.integers(0, n - 1), label="player")
    v = g.view(p)
    other = determinize(v, random.Random(seed + 1))
    assert other.view(p) == v
    x = encode(v)
    assert x.shape == (observation_size(spec, n),) and x.dtype == np.float32
    assert np.array_equal(encode(other.view(p)), x)
    # The environments' fast path reads the state itself, not a view: it must give
    # the same vector, and so must not see the hidden cards either.
    assert np.array_equal(encode_state(g, p), x)
    assert np.array_equal(encode_state(other, p), x)
    lay = layout(spec, n)
    low, high = lay.bounds()
    assert (low <= x).all() and (x <= high).all()
    # Every card is counted once in its section.
    assert x[lay["hand"].slice].sum() == v.hand.bit_count()
    assert x[lay["discard_pile"].slice].sum() == len(v.discard)
    assert x[lay["table_by_owner"].slice].sum() == sum(len(tm.cards) for tm in v.table)
    assert (
        x[lay["known"].slice].sum() == sum(k.bit_count() for k in v.known) - v.known[p].bit_count()
    )
    # The hidden cards do move (when they have two places to go), so the check compares
    # genuinely different states.
    places = [q for q in range(n) if q != p and g.hands[q] != g.known[q]] + [-1] * bool(g.stock)
    if len(places) >= 2 and len(unseen_cards(v)) >= 6:
        samples = [determinize(v, random.Random(seed + k)) for k in range(10)]
        assert any(d.hands != g.hands for d in samples)


def test_own_hand_and_seat_change_the_observation() -> None:
    g = played("rami51", 4, seed=3, moves=40)
    lay = layout("rami51", 4)
    xs = [encode(g.view(p)) for p in range(4)]
    for p in range(4):
        hand = xs[p][lay["hand"].slice]
        faces = np.bincount([face_of(c) for c in bits(g.hands[p])], minlength=53)
        assert np.array_equal(hand, faces.astype(np.float32))
        assert xs[p][lay["current"].start + (g.current - p) % 4] == 1.0
    assert not np.array_equal(xs[0], xs[1])


def test_layout_is_contiguous_and_fills_in_place() -> None:
    for spec, n in SETUPS:
        lay = layout(spec, n)
        stop = 0
        for s in lay:
            assert s.start == stop and s.width > 0
            stop = s.stop
        assert stop == lay.size == observation_size(Rules.parse(spec), n)
    g = played("gin", 2, seed=8, moves=30)
    out = np.full(observation_size("gin", 2), 7.0, dtype=np.float32)
    assert encode(g.view(1), out) is out
    assert np.array_equal(out, encode(g.view(1)))
    assert encode_state(g, 0, out) is out
    assert np.array_equal(out, encode(g.view(0)))
    # A strided ``out`` (a column of a batch) is filled too, through a copy.
    batch = np.full((observation_size("gin", 2), 2), 7.0, dtype=np.float32)
    assert encode(g.view(1), batch[:, 1]) is not None
    assert np.array_equal(batch[:, 1], encode(g.view(1))) and (batch[:, 0] == 7.0).all()


def test_encode_state_rejects_a_seat_the_game_does_not_have() -> None:
    g = new_game("gin", seed=1)
    for seat in (-1, 2):
        with pytest.raises(ValueError, match="no player"):
            encode_state(g, seat)


def test_layout_needs_players_without_a_game() -> None:
    with pytest.raises(ValueError, match="players"):
        layout("gin")
    assert layout(new_game("basic", players=3).game).players == 3


def test_missing_rl_packages_name_the_extra() -> None:
    code = (
        "import sys\n"
        "sys.modules['pettingzoo'] = None\n"
        "try:\n"
        "    import rummykit.env\n"
        "except ImportError as exc:\n"
        "    print(exc)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert "pip install 'rummykit[rl]'" in out.stdout and "pettingzoo" in out.stdout

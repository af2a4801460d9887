"""Rummikub in the environments: its fixed space of numbered listed moves
(:mod:`rummykit.variants.rummikub_actions`), its mask, episodes, seeding and hidden tiles."""

from __future__ import annotations

import random
import warnings
from collections import Counter

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from rummykit.cards import JOKER
from rummykit.env import aec
from rummykit.env.episode import ENV_PRESETS, Episode
from rummykit.env.observation import encode, layout
from rummykit.env.single import RummyEnv
from rummykit.errors import IllegalMoveError
from rummykit.moves import ARRANGE, DRAW_STOCK, PASS
from rummykit.phase import Phase
from rummykit.state import GameState
from rummykit.variants.rummikub import (
    arrangement_shapes,
    shape_faces,
    solver_play,
    table_shapes,
)
from rummykit.variants.rummikub_actions import ListedActions
from rummykit.view import determinize, make_view


def walk(players: int, seed: int, moves: int = 400) -> list[GameState]:
    """The states of a deal of random numbered moves (clones, the first to the last)."""
    ep = Episode("rummikub", players)
    ep.start(seed)
    rng = random.Random(seed)
    out = [ep.state.clone()]
    assert ep.listed is not None
    while not ep.over and len(out) < moves:
        ep.act(rng.choice(sorted(ep.listed.legal(ep.state))))
        out.append(ep.state.clone())
    return out


def test_rummikub_has_an_environment_with_a_fixed_space() -> None:
    assert "rummikub" in ENV_PRESETS
    for players in (2, 3, 4):
        e = aec.raw_env(rules="rummikub", players=players)
        assert e.action_spaces["player_0"].n == 11_498
        assert e.observation_spaces["player_0"]["action_mask"].shape == (11_498,)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_numbers_name_exactly_the_legal_list_and_keep_their_meaning(players: int) -> None:
    """At every state of random deals: the numbered moves are the legal list, each
    number does what it says whatever the position (the draw, the pass, the solver's
    play, a new set of shape s, one tile of face f added to table set k)."""
    states = walk(players, seed=players)
    assert states[-1].is_over()
    for s in states[:-1]:
        listed = s.game.agent_actions
        assert isinstance(listed, ListedActions)
        numbered = listed.legal(s)
        assert set(numbered.values()) == set(s.legal_moves())
        t = s.game.melds
        old = Counter(table_shapes(s))
        for number, move in numbered.items():
            if number in (0, 1):
                assert move.kind == (DRAW_STOCK if number == 0 else PASS)
                assert (number == 0) == bool(s.stock)
                continue
            assert move.kind == ARRANGE
            shapes = arrangement_shapes(move.a, t)
            assert shapes is not None
            new = Counter(shapes)
            if number == 2:
                assert sorted(solver_play(s, table_shapes(s))) == list(shapes)
            elif number < listed.add_base:
                assert new - old == Counter([number - 3]) and not old - new
                assert listed.describe(number).startswith("new set ")
            else:
                k, rest = divmod(number - listed.add_base, 104)
                face, joker = divmod(rest, 2)
                grown = (new - old).most_common()
                (before,) = (old - new).elements()
                assert before == s.table[k].shape and len(grown) == 1
                added = Counter(shape_faces(t, grown[0][0])) - Counter(shape_faces(t, before))
                assert added == Counter([JOKER if joker else face])


def test_illegal_numbers_raise_and_change_nothing() -> None:
    ep = Episode("rummikub", 2)
    ep.start(3)
    assert ep.listed is not None
    before = ep.state.clone()
    bad = next(a for a in range(ep.action_size) if a not in ep.listed.legal(ep.state))
    for action in (bad, ep.action_size, -1):
        with pytest.raises(IllegalMoveError):
            ep.act(action)
    assert ep.state.history == before.history and ep.state.hands == before.hands
    assert ep.listed.describe(1) == "pass" and ep.listed.describe(2) == "the solver's play"
    assert ep.listed.describe(ep.listed.add_base + 3 * 104 + 2 * 2 + 1) == (
        "add a joker as 3C to table set 3"
    )


def test_the_observation_shows_the_table_rack_counts_and_flags() -> None:
    """The phase entry of TILES is its own (not the next section's), and the
    sections hold the table's sets, the rack, the rack sizes, the pool and the
    opened flags."""
    for s in walk(3, seed=5, moves=60)[1:]:
        if s.is_over() or not any(s.opened):
            continue
        lay = layout(s.rules, 3)
        t = s.game.melds
        for p in range(3):
            x = encode(make_view(s, p))
            phase = x[lay["phase"].slice]
            assert phase.sum() == 1 and phase[Phase.TILES] == 1
            assert x[lay["current"].slice].sum() == 1
            assert x[lay["current"].start + (s.current - p) % 3] == 1
            assert x[lay["hand"].slice].sum() == s.hands[p].bit_count()
            tiles = sum(len(tm.cards) for tm in s.table)
            jokers = sum(t.shapes[tm.shape].njokers for tm in s.table)
            assert x[lay["table_by_owner"].slice].sum() == tiles
            # Each set's block: the faces its tiles stand for, and its jokers counted.
            assert x[lay["table_melds"].slice].sum() == tiles + jokers
            sizes = x[lay["hand_sizes"].slice] * 14
            assert [round(v) for v in sizes] == [s.hands[(p + r) % 3].bit_count() for r in range(3)]
            assert x[lay["stock"].start] == pytest.approx(len(s.stock) / 106)
            opened = x[lay["opened"].slice]
            assert list(opened) == [float(s.opened[(p + r) % 3]) for r in range(3)]
        return
    raise AssertionError("no state with a first meld down")  # pragma: no cover


def test_hidden_tiles_change_neither_the_observation_nor_the_mask() -> None:
    """Other racks and the pool's order, dealt anew, give the player the same vector
    and the same legal numbers (the mask reads the rack and the table only)."""
    for s in walk(2, seed=8, moves=80)[::8]:
        if s.is_over():
            continue
        p = s.current
        other = determinize(s.view(p), random.Random(1))
        assert other.hands[1 - p] != s.hands[1 - p] or not s.stock
        assert np.array_equal(encode(make_view(other, p)), encode(make_view(s, p)))
        listed = s.game.agent_actions
        assert isinstance(listed, ListedActions)
        assert listed.legal(other) == listed.legal(s)


def play(e: aec.raw_env, seed: int) -> list[bytes]:
    e.reset(seed=seed)
    rng = np.random.default_rng(seed)
    seen = []
    for _ in e.agent_iter(5000):
        obs, _, terminated, truncated, _ = e.last()
        seen.append(obs["observation"].tobytes() + obs["action_mask"].tobytes())
        e.step(
            None if terminated or truncated else int(rng.choice(np.flatnonzero(obs["action_mask"])))
        )
    return seen


def test_random_episodes_end_and_a_seed_replays_them() -> None:
    e = aec.env(rules="rummikub", players=3)
    first = play(e, 4)
    assert not e.agents  # the episode ended, every agent done
    assert play(e, 4) == first == play(aec.env(rules="rummikub", players=3), 4)
    assert play(e, 5) != first


def test_the_gymnasium_env_plays_rummikub_against_bots() -> None:
    e = gymnasium.make("rummykit/Rummikub-v0")
    assert e.unwrapped.rules.name == "rummikub"
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=".*infinity.*")
        check_env(e.unwrapped)
    runs = []
    for _ in range(2):
        env = RummyEnv(rules="rummikub", players=3, opponents=["easy", "random"])
        obs, info = env.reset(seed=2)
        rng = np.random.default_rng(2)
        trace = [obs["observation"].tobytes()]
        done = False
        while not done:
            legal = np.flatnonzero(info["action_mask"])
            obs, _, terminated, truncated, info = env.step(int(rng.choice(legal)))
            trace.append(obs["observation"].tobytes())
            done = terminated or truncated
        assert terminated
        runs.append(trace)
    assert runs[0] == runs[1]

"""The PettingZoo AEC environment: PettingZoo's own checks, seeding, rewards, errors."""

from __future__ import annotations

import random
import warnings
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pettingzoo.test import api_test, seed_test
from pettingzoo.utils import wrappers

from rummykit.env import aec
from rummykit.env.episode import ENV_PRESETS
from rummykit.env.observation import encode
from rummykit.env.rewards import margins
from rummykit.errors import IllegalMoveError
from rummykit.rules import PRESETS, Rules
from rummykit.state import GameState
from rummykit.view import determinize, make_view

SETUPS = [
    (name, n)
    for name, r in PRESETS.items()
    if name in ENV_PRESETS
    for n in sorted({r.min_players, 4, r.max_players})
    if r.min_players <= n <= r.max_players
]


@pytest.mark.parametrize(("rules", "players"), SETUPS)
def test_pettingzoo_api_and_seed_tests(rules: str, players: int) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(aec.env(rules=rules, players=players), num_cycles=40)
        seed_test(lambda: aec.env(rules=rules, players=players), num_cycles=40)


@pytest.mark.parametrize(
    ("rules", "players", "episode"),
    [
        ("gin", 2, "round"),
        ("basic", 3, "round"),
        ("gin_match", 2, "match"),
        # Contract Rummy: the buy window hands the turn to a player out of turn.
        ("contract", 4, "round"),
    ],
)
def test_api_test_through_whole_episodes(rules: str, players: int, episode: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(aec.env(rules=rules, players=players, episode=episode), num_cycles=5000)


def play(
    e: Any, seed: int, policy_seed: int, limit: int = 100_000
) -> tuple[list[bytes], list[float], list[str]]:
    """Play random legal actions to the end; the observations, rewards and agents seen."""
    e.reset(seed=seed)
    rng = np.random.default_rng(policy_seed)
    obs_seen: list[bytes] = []
    rewards: list[float] = []
    agents: list[str] = []
    for agent in e.agent_iter(limit):
        obs, reward, terminated, truncated, _ = e.last()
        obs_seen.append(obs["observation"].tobytes() + obs["action_mask"].tobytes())
        rewards.append(reward)
        agents.append(agent)
        if terminated or truncated:
            e.step(None)
        else:
            e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return obs_seen, rewards, agents


def test_reset_with_a_seed_replays_the_episode() -> None:
    e = aec.env(rules="rami51(opening_minimum=40)", players=3)
    first = play(e, seed=11, policy_seed=1)
    again = play(e, seed=11, policy_seed=1)
    other = play(aec.env(rules="rami51(opening_minimum=40)", players=3), 11, 1)
    assert first == again == other
    assert first[0] != play(e, seed=12, policy_seed=1)[0]
    # Unseeded resets continue from the seed: the same sequence of deals each time.
    e.reset(seed=5)
    e.reset()
    after_seed = e.observe("player_0")["observation"]
    e.reset(seed=5)
    e.reset()
    assert np.array_equal(e.observe("player_0")["observation"], after_seed)


def test_options_survive_reset_with_a_seed() -> None:
    e = aec.env(rules="gin_match", players=2, reward="win_loss", episode="match")
    for seed in (1, 2):
        _, rewards, agents = play(e, seed=seed, policy_seed=seed)
        raw = e.unwrapped
        assert raw.rules == Rules.parse("gin_match") and len(raw.possible_agents) == 2
        assert raw._episode.rounds > 1  # a whole match, not one deal
        final = rewards[-2:]  # each agent's last(), on its dead step
        assert sorted(final) in ([-1.0, 1.0], [0.0, 0.0])
        assert set(rewards[:-2]) <= {0.0}
        assert len(set(agents)) == 2


def test_round_margin_rewards_follow_the_score() -> None:
    # Penalty scoring: the player who goes out scores 0 and must get the best reward.
    e = aec.env(rules="rami51(opening_minimum=40)", players=4)
    play(e, seed=3, policy_seed=3)
    result = e.unwrapped._episode.state.results[-1]
    expected = margins(Rules.parse("rami51"), result.deltas)
    final = {a: r for a, r in zip(e.possible_agents, expected, strict=True)}
    assert sum(final.values()) == pytest.approx(0.0)
    if result.went_out:
        assert max(final, key=lambda a: final[a]) == f"player_{result.winner}"
    # The rewards each agent collected in the episode add up to its margin.
    e.reset(seed=3)
    totals = dict.fromkeys(e.possible_agents, 0.0)
    rng = np.random.default_rng(3)
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, _ = e.last()
        totals[agent] += reward
        if terminated or truncated:
            e.step(None)
        else:
            e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert totals == pytest.approx(final)


def test_illegal_actions_raise_and_change_nothing() -> None:
    e = aec.env(rules="gin", players=2)
    e.reset(seed=4)
    before = e.observe(e.agent_selection)
    illegal = int(np.flatnonzero(before["action_mask"] == 0)[0])
    with pytest.raises(IllegalMoveError) as err:
        e.step(illegal)
    assert isinstance(err.value, ValueError) and err.value.rule
    for bad in (2.0, "1", True, e.unwrapped.action_spaces["player_0"].n):
        with pytest.raises(IllegalMoveError):
            e.step(bad)
    after = e.observe(e.agent_selection)
    assert np.array_equal(before["observation"], after["observation"])
    e.step(np.int64(np.flatnonzero(after["action_mask"])[0]))  # numpy ints are fine


def test_max_cycles_truncates_every_agent() -> None:
    e = aec.env(rules="basic", players=3, max_cycles=4)
    e.reset(seed=1)
    moves = dict.fromkeys(e.possible_agents, 0)
    truncated_seen = []
    for agent in e.agent_iter(1000):
        obs, _, terminated, truncated, _ = e.last()
        if terminated or truncated:
            truncated_seen.append(truncated)
            e.step(None)
            continue
        moves[agent] += 1
        e.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert max(moves.values()) == 4 and truncated_seen == [True] * 3 and not e.agents


def test_bad_options_are_refused() -> None:
    with pytest.raises(ValueError, match="reward"):
        aec.raw_env(reward="points")
    with pytest.raises(ValueError, match="episode"):
        aec.raw_env(episode="hand")
    with pytest.raises(ValueError, match="render_mode"):
        aec.raw_env(render_mode="rgb_array")
    with pytest.raises(ValueError, match="players"):
        aec.raw_env(rules="gin", players=3)


def test_render_shows_only_public_information() -> None:
    e = aec.raw_env(rules="rami51(opening_minimum=40)", players=4, render_mode="ansi")
    e.reset(seed=2)
    rng = random.Random(2)
    for _ in range(120):
        e.step(rng.choice(e._episode.state.legal_actions()))
        if e.terminations["player_0"]:
            break
    text = e.render()
    assert isinstance(text, str) and "player_" in text
    state = e._episode.state
    # A state with every hidden card dealt differently renders the same.
    e._episode.state = determinize(state.view(0), random.Random(9))
    assert e._episode.state.hands != state.hands
    assert e.render() == text
    e.close()


def test_human_render_prints_the_public_table(capsys: pytest.CaptureFixture[str]) -> None:
    e = aec.env(rules="gin", players=2, render_mode="human")
    e.reset(seed=3)
    obs = e.observe(e.agent_selection)
    e.step(int(np.flatnonzero(obs["action_mask"])[0]))
    out = capsys.readouterr().out
    assert out.startswith("round 1, turn ") and "discard pile" in out
    assert aec.env(rules="gin", players=2).unwrapped.render() is None  # no render mode


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(setup=st.sampled_from(SETUPS), seed=st.integers(0, 10_000))
def test_every_observation_is_the_views_encoding(setup: tuple[str, int], seed: int) -> None:
    """The env encodes straight from the state (no view built): each agent's vector
    must still be exactly ``encode`` of its view, and the mask exactly its legal
    actions, at every step of random games."""
    rules, players = setup
    e = aec.raw_env(rules=rules, players=players)
    e.reset(seed=seed)
    rng = random.Random(seed)
    state = e._episode.state
    for _ in range(300):
        state = e._episode.state
        for i, agent in enumerate(e.possible_agents):
            obs = e.observe(agent)
            assert np.array_equal(obs["observation"], encode(make_view(state, i)))
            expected = np.zeros(e._episode.action_size, dtype=np.int8)
            if state.current == i and not state.is_over():
                expected[legal_numbers(e, state)] = 1
            assert np.array_equal(obs["action_mask"], expected)
        if all(e.terminations.values()) or all(e.truncations.values()):
            break
        e.step(rng.choice(legal_numbers(e, state)))


def legal_numbers(e: Any, state: GameState) -> list[int]:
    """The legal action numbers: the engine's, or where the family numbers its listed
    moves itself (Rummikub), those, which must name exactly the legal list."""
    listed = e._episode.listed
    if listed is None:
        return state.legal_actions()
    numbered = listed.legal(state)
    assert set(numbered.values()) == set(state.legal_moves())
    return sorted(numbered)


def test_env_keeps_the_standard_order_checks() -> None:
    """``env()``'s wrapper shortcuts ``last`` and ``step`` after a reset only: before
    one, through a whole episode and after it, it does what PettingZoo's own wrapper
    does (same errors, same observations)."""

    def trace(e: Any) -> list[object]:
        out: list[object] = []
        for call in (e.last, lambda: e.step(0)):
            try:
                call()
            except Exception as exc:  # the error itself is compared
                out.append((type(exc), str(exc)))
        e.reset(seed=3)
        rng = random.Random(3)
        while e.agents:
            obs, reward, terminated, truncated, _ = e.last()
            out += [e.agent_selection, obs["observation"].tobytes(), reward, terminated]
            if terminated or truncated:
                e.step(None)
            else:
                e.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
        e.step(None)  # after the end: a warning, nothing else
        out.append(list(e.agents))
        return out

    fast = aec.env(rules="gin", players=2)
    assert isinstance(fast, wrappers.OrderEnforcingWrapper) and str(fast) == "rummykit_v0"
    standard = wrappers.OrderEnforcingWrapper(aec.raw_env(rules="gin", players=2))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert trace(fast) == trace(standard)

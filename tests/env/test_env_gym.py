"""The Gymnasium single-learner environment and its registered ids."""

from __future__ import annotations

import warnings
from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import rummykit.env
from rummykit.env.registration import IDS
from rummykit.env.single import RummyEnv
from rummykit.errors import IllegalMoveError


@pytest.mark.parametrize("env_id", sorted(IDS))
def test_every_registered_id_passes_check_env(
    env_id: str, capsys: pytest.CaptureFixture[str]
) -> None:
    e = gymnasium.make(env_id)
    with warnings.catch_warnings():
        # Gymnasium warns about the unbounded score entries of the Box; they are meant.
        warnings.filterwarnings("ignore", message=".*infinity.*")
        check_env(e.unwrapped)
    assert e.unwrapped.rules.name == IDS[env_id]["rules"]
    assert "player_0" in capsys.readouterr().out  # the "human" render printed the table


def run(e: Any, seed: int, policy_seed: int) -> tuple[list[bytes], list[float], int]:
    """Random legal actions to the end of the episode: observations, rewards, steps."""
    obs, info = e.reset(seed=seed)
    rng = np.random.default_rng(policy_seed)
    seen = [obs["observation"].tobytes()]
    rewards: list[float] = []
    for steps in range(1, 100_000):  # noqa: B007 - returned
        assert np.array_equal(obs["action_mask"], info["action_mask"])
        assert info["action_mask"] is not obs["action_mask"]  # two arrays, not one shared
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        obs, reward, terminated, truncated, info = e.step(action)
        seen.append(obs["observation"].tobytes())
        rewards.append(float(reward))
        if terminated or truncated:
            break
    return seen, rewards, steps


def test_reset_with_a_seed_replays_the_episode_bots_included() -> None:
    e = gymnasium.make("rummykit/Rami51-v0", players=3, opponents=["easy", "random"])
    first = run(e, seed=21, policy_seed=0)
    assert first == run(e, seed=21, policy_seed=0)
    assert first[0] != run(e, seed=22, policy_seed=0)[0]


def test_rewards_sum_to_the_learners_margin() -> None:
    e = RummyEnv(rules="gin", opponents="random")
    _, rewards, _ = run(e, seed=5, policy_seed=5)
    state = e._episode.state
    mine, theirs = state.results[-1].deltas[e.seat], state.results[-1].deltas[1 - e.seat]
    assert sum(rewards) == pytest.approx((mine - theirs) / 2 / 100)
    assert all(r == 0.0 for r in rewards[:-1])


def test_random_seat_and_options_survive_reset() -> None:
    e = RummyEnv(rules="basic", players=3, seat="random", reward="win_loss", opponents="random")
    seats = set()
    for seed in range(12):
        _, info = e.reset(seed=seed)
        seats.add(info["seat"])
        assert e._episode.current == info["seat"] and e.opponents == ("random", "random")
    assert seats == {0, 1, 2}
    _, rewards, _ = run(e, seed=3, policy_seed=3)
    assert rewards[-1] in (-1.0, 0.0, 1.0) and set(rewards[:-1]) <= {0.0}


def test_illegal_actions_penalize_or_raise() -> None:
    e = RummyEnv(rules="gin", illegal_penalty=-0.5)
    obs, _ = e.reset(seed=2)
    bad = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    after, reward, terminated, truncated, info = e.step(bad)
    assert reward == -0.5 and not terminated and not truncated and info["illegal"]
    assert np.array_equal(after["observation"], obs["observation"])
    strict = RummyEnv(rules="gin", illegal="raise")
    strict.reset(seed=2)
    with pytest.raises(IllegalMoveError):
        strict.step(bad)


def test_max_cycles_truncates_the_learner() -> None:
    # Truncated at the learner's 5th step, or sooner if a bot's seat made 5 moves first.
    for players in (2, 4):
        e = RummyEnv(rules="rami51", players=players, max_cycles=5)
        obs, _ = e.reset(seed=1)
        for step in range(1, 6):
            action = int(np.flatnonzero(obs["action_mask"])[0])
            obs, _, terminated, truncated, _ = e.step(action)
            assert not terminated
            assert truncated == (step == 5 or max(e._episode.moves) == 5)
            if truncated:
                break
        assert truncated


def test_bad_options_are_refused() -> None:
    for kwargs in (
        {"seat": 2},
        {"opponents": ["easy", "easy"]},
        {"illegal": "ignore"},
        {"opponents": "grandmaster"},
        {"render_mode": "rgb_array"},
    ):
        with pytest.raises(ValueError):
            RummyEnv(rules="gin", **kwargs)


def test_import_registers_each_id_once() -> None:
    before = dict(gymnasium.registry)
    rummykit.env.register()
    assert dict(gymnasium.registry) == before
    assert {"rummykit/Gin-v0", "rummykit/Rami51-v0", "rummykit/Basic-v0"} <= set(before)


def test_vectorized_through_make_vec() -> None:
    v = gymnasium.make_vec("rummykit/Gin-v0", num_envs=3, vectorization_mode="sync")
    obs, info = v.reset(seed=0)
    assert obs["observation"].shape == (3, 1363) and info["action_mask"].shape == (3, 4126)
    rng = np.random.default_rng(0)
    ends = 0
    for _ in range(150):
        # After an episode ends, the next step resets that env (its action is ignored).
        actions = [int(rng.choice(np.flatnonzero(m))) if m.any() else 0 for m in obs["action_mask"]]
        obs, _, terminated, _, info = v.step(np.array(actions))
        ends += int(terminated.sum())
        assert all(m.any() for m, t in zip(obs["action_mask"], terminated, strict=True) if not t)
    assert ends > 0
    v.close()

"""The PettingZoo AEC environment: every seat of a rummykit match is an agent.

Agents are ``player_0`` .. ``player_{n-1}`` (engine seats 0..n-1).  The agent to act
is the engine's current player; a turn is several actions (draw, melds, discard), so
the same agent is often selected several times in a row, as in PettingZoo's other
turn-based card games.  Everything is documented in ``docs/env.md``; in short:

* ``observe(agent)`` is ``{"observation": float32 vector, "action_mask": int8 vector}``:
  the vector encodes only that agent's :class:`~rummykit.view.PlayerView`
  (:mod:`rummykit.env.observation`), the mask is 1 on its legal action numbers
  (:class:`~rummykit.moves.ActionSpace`) and all zero when it is not its turn.
* ``step(action)`` with an illegal action raises
  :class:`~rummykit.errors.IllegalMoveError` (a ``ValueError`` naming the broken
  rule) and changes nothing: the mask says what is legal, and a silent penalty would
  hide a bug in the caller's masking.
* Rewards are signed so that higher is better under any scoring
  (:mod:`rummykit.env.rewards`).

>>> e = env(rules="gin", players=2)
>>> e.reset(seed=7)
>>> obs, reward, terminated, truncated, info = e.last()
>>> e.agent_selection, obs["observation"].shape, int(obs["action_mask"].sum())
('player_1', (1363,), 2)
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from ..rules import Rules
from .episode import Episode, Observation
from .observation import layout
from .render import render

DEFAULT_RULES = "rami51(opening_minimum=40)"
DEFAULT_MAX_CYCLES = 10_000
RENDER_MODES = ("ansi", "human")


def observation_space(rules: Rules, players: int, actions: int) -> spaces.Dict:
    """The Dict space both environments use.  The vector's bounds come from its
    layout; a few entries have no upper bound (scores, which can also go negative
    with Rami's bonus for going out in one turn)."""
    low, high = layout(rules, players).bounds()
    return spaces.Dict(
        {
            "observation": spaces.Box(low, high, dtype=np.float32),
            "action_mask": spaces.Box(0, 1, shape=(actions,), dtype=np.int8),
        }
    )


class raw_env(AECEnv[str, Observation, int]):  # type: ignore[misc]  # (untyped base)
    """A rummykit match as a PettingZoo AEC environment (see the module doc).

    ``rules`` is a preset name, a spec string or a :class:`~rummykit.rules.Rules`;
    ``reward`` is ``"round_margin"``, ``"match"`` or ``"win_loss"``; ``episode`` is
    ``"round"`` (one deal) or ``"match"``; ``max_cycles`` truncates the episode once
    any one agent has made that many moves.
    """

    metadata = {  # noqa: RUF012 - PettingZoo reads it as a plain class attribute
        "name": "rummykit_v0",
        "render_modes": list(RENDER_MODES),
        "is_parallelizable": False,
        "render_fps": 1,
    }

    def __init__(
        self,
        rules: Rules | str = DEFAULT_RULES,
        players: int = 4,
        reward: str = "round_margin",
        render_mode: str | None = None,
        max_cycles: int = DEFAULT_MAX_CYCLES,
        episode: str = "round",
    ) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(f"unknown render_mode {render_mode!r} (known: ansi, human)")
        self.render_mode = render_mode
        self._episode = Episode(rules, players, reward, episode, max_cycles)
        self.rules = self._episode.rules
        self.possible_agents = [f"player_{i}" for i in range(players)]
        actions = self._episode.action_size
        self.observation_spaces = {
            a: observation_space(self.rules, players, actions) for a in self.possible_agents
        }
        self.action_spaces = {a: spaces.Discrete(actions) for a in self.possible_agents}
        self._seeder: np.random.Generator | None = None
        self._index = {a: i for i, a in enumerate(self.possible_agents)}

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new match.  ``seed`` fixes it and every later unseeded reset; no
        constructor option changes.  ``options`` is accepted for the API and unused."""
        if seed is not None or self._seeder is None:
            self._seeder, _ = seeding.np_random(seed)
        self._episode.start(int(self._seeder.integers(2**63)))
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._skip_agent_selection = None
        self.agent_selection = self.possible_agents[self._episode.current]

    def observe(self, agent: str) -> Observation:
        return self._episode.observe(self._index[agent])

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        ep = self._episode
        gained = ep.act(action)  # raises on an illegal action, before any change
        self._cumulative_rewards[agent] = 0.0
        rewards = self.rewards
        agents = self.possible_agents
        if gained is None:
            for a in rewards:
                rewards[a] = 0.0
        else:
            for i, a in enumerate(agents):
                rewards[a] = gained[i]
            self._accumulate_rewards()  # (all-zero rewards would add nothing)
        if ep.over:
            for a in self.agents:
                self.terminations[a] = True
        elif ep.truncated:
            for a in self.agents:
                self.truncations[a] = True
        else:
            self.agent_selection = agents[ep.state.current]
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        """The public table as text (never a hand): returned for ``"ansi"``, printed
        for ``"human"``."""
        return render(self.render_mode, self._episode.state, self.possible_agents)

    def close(self) -> None:
        """Nothing to release: the env holds no files, windows or processes."""


class OrderEnforcing(wrappers.OrderEnforcingWrapper):  # type: ignore[misc]  # (untyped base)
    """PettingZoo's order-enforcing wrapper, with its two per-action calls made direct.

    The standard wrapper reaches every attribute of the env through ``__getattr__``
    checks, and ``last()`` reads five of them per action: a quarter of a step.  Once
    the env has been reset those checks can only pass, so ``last()`` and ``step()`` go
    straight to the env then; before a reset, or with no agents left, they take the
    standard path and raise or warn exactly as it does.  Everything else is the
    standard wrapper's.
    """

    def last(self, observe: bool = True) -> tuple[Any, ...]:
        if self._has_reset:
            return self.env.last(observe)  # type: ignore[no-any-return]
        return super().last(observe)  # type: ignore[no-any-return]

    def step(self, action: int | None) -> None:
        if self._has_reset and self.env.agents:
            self._has_updated = True
            self.env.step(action)
        else:
            super().step(action)

    def __str__(self) -> str:
        return str(self.env)


def env(**kwargs: Any) -> AECEnv[str, Observation, int]:
    """:class:`raw_env` behind PettingZoo's order-enforcing wrapper (``reset`` before
    ``step``, and so on), as PettingZoo's own ``env()`` constructors do
    (:class:`OrderEnforcing`: the same checks, cheaper per action)."""
    return OrderEnforcing(raw_env(**kwargs))


__all__ = ["DEFAULT_RULES", "OrderEnforcing", "env", "observation_space", "raw_env"]

"""A Gymnasium environment: one learner against rummykit's bots.

The learner holds one seat (``seat=0``, or ``"random"`` for a new seat each episode);
the other seats are played by bots named as :func:`rummykit.bots.make_bot` knows them
(``"easy"``, ``"medium"``, ``"random"``, ``"ismcts:200i"``, ...), one name for all or
a list with one per opponent.  ``step`` plays the learner's action and then the bots'
moves until the learner is to act again or the episode ends, so every observation is
the learner's, with its legal actions in both ``obs["action_mask"]`` and
``info["action_mask"]``.

*Illegal actions.*  Single-agent learners and Gymnasium's own ``check_env`` often
step actions they have not masked, so by default (``illegal="penalty"``) an illegal
action changes nothing and earns ``illegal_penalty`` (-1 unless set), with
``info["illegal"]`` naming the broken rule; ``illegal="raise"`` raises
:class:`~rummykit.errors.IllegalMoveError` as the PettingZoo env does.  Every step,
illegal ones included, counts towards ``max_cycles``.

*Seeding.*  ``reset(seed=s)`` fixes the deal, the learner's seat and every bot's
random choices, so the same seed and the same actions replay the episode exactly.

>>> import gymnasium
>>> import rummykit.env
>>> e = gymnasium.make("rummykit/Gin-v0")
>>> obs, info = e.reset(seed=1)
>>> obs["observation"].shape, bool((obs["action_mask"] == info["action_mask"]).all())
((1363,), True)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, SupportsFloat

import gymnasium
import numpy as np
from gymnasium import spaces

from ..bots import Bot, make_bot
from ..errors import IllegalMoveError
from ..rules import Rules
from ..view import make_view
from .aec import DEFAULT_MAX_CYCLES, RENDER_MODES, observation_space
from .episode import Episode, Observation
from .render import render

ILLEGAL = ("penalty", "raise")


class RummyEnv(gymnasium.Env[dict[str, Any], np.int64]):
    """One seat of a rummykit match for a single learner (see the module doc)."""

    metadata = {"render_modes": list(RENDER_MODES), "render_fps": 1}  # noqa: RUF012

    def __init__(
        self,
        rules: Rules | str = "gin",
        players: int = 2,
        seat: int | str = 0,
        opponents: str | Sequence[str] = "easy",
        reward: str = "round_margin",
        episode: str = "round",
        illegal: str = "penalty",
        illegal_penalty: float = -1.0,
        render_mode: str | None = None,
        max_cycles: int = DEFAULT_MAX_CYCLES,
    ) -> None:
        self._episode = Episode(rules, players, reward, episode, max_cycles)
        self.rules = self._episode.rules
        if seat != "random" and not (isinstance(seat, int) and 0 <= seat < players):
            raise ValueError(f"seat must be 0..{players - 1} or 'random', not {seat!r}")
        names = [opponents] * (players - 1) if isinstance(opponents, str) else list(opponents)
        if len(names) != players - 1:
            raise ValueError(f"{players - 1} opponents needed, {len(names)} given")
        if illegal not in ILLEGAL:
            raise ValueError(f"unknown illegal {illegal!r} (known: penalty, raise)")
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(f"unknown render_mode {render_mode!r} (known: ansi, human)")
        self.render_mode = render_mode
        self.players = players
        self.seat_option = seat
        self.opponents = tuple(names)
        self._bots: list[Bot] = [make_bot(name) for name in names]
        self.illegal = illegal
        self.illegal_penalty = float(illegal_penalty)
        self.max_cycles = max_cycles
        self.observation_space = observation_space(self.rules, players, self._episode.action_size)
        self.action_space = spaces.Discrete(self._episode.action_size)
        self.seat = 0 if seat == "random" else int(seat)
        self._by_seat: dict[int, tuple[Bot, random.Random]] = {}
        self._steps = 0
        self._agents = [f"player_{i}" for i in range(players)]

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        """Deal a new episode.  ``options`` is accepted for the API and unused: no
        constructor option changes on reset."""
        super().reset(seed=seed)
        rng = self.np_random
        while True:
            self.seat = (
                int(rng.integers(self.players)) if self.seat_option == "random" else self.seat
            )
            others = [p for p in range(self.players) if p != self.seat]
            self._by_seat = {
                p: (bot, random.Random(int(rng.integers(2**63))))
                for p, bot in zip(others, self._bots, strict=True)
            }
            self._episode.start(int(rng.integers(2**63)))
            self._steps = 0
            self._play_bots()
            # A deal that ends before the learner's first move (a bot going out at
            # once) teaches nothing and has no legal action to offer: deal again.
            if not self._episode.over:
                break
        obs = self._observe()
        return obs, self._info(obs)

    def _play_bots(self) -> float:
        """Let the bots move until the learner is to act or the episode ends; the
        learner's reward from those moves."""
        ep = self._episode
        gained = 0.0
        seat = self.seat
        while not ep.over and not ep.truncated and ep.current != seat:
            p = ep.current
            bot, rng = self._by_seat[p]
            rewards = ep.act_move(bot.choose(make_view(ep.state, p), rng))
            if rewards is not None:
                gained += rewards[seat]
        return gained

    def step(
        self, action: int | np.integer[Any]
    ) -> tuple[Observation, SupportsFloat, bool, bool, dict[str, Any]]:
        ep = self._episode
        self._steps += 1
        info: dict[str, Any] | None = None
        try:
            rewards = ep.act(action)
        except IllegalMoveError as exc:
            if self.illegal == "raise":
                raise
            reward = self.illegal_penalty
            info = {"illegal": exc.rule}
        else:
            reward = rewards[self.seat] if rewards is not None else 0.0
            reward += self._play_bots()
        terminated = ep.over
        truncated = not terminated and (ep.truncated or self._steps >= self.max_cycles)
        if self.render_mode == "human":
            self.render()
        obs = self._observe()
        out_info = self._info(obs)
        if info:
            out_info.update(info)
        return obs, reward, terminated, truncated, out_info

    def _observe(self) -> Observation:
        return self._episode.observe(self.seat)

    def _info(self, obs: Observation) -> dict[str, Any]:
        """The info dict, its mask a copy of the observation's (copying is cheaper
        than listing the legal actions again; each is still its own array)."""
        return {"action_mask": obs["action_mask"].copy(), "seat": self.seat}

    def render(self) -> str | None:
        """The public table as text (never a hand): returned for ``"ansi"``, printed
        for ``"human"``."""
        return render(self.render_mode, self._episode.state, self._agents)

    def close(self) -> None:
        """Nothing to release: the env holds no files, windows or processes."""


__all__ = ["ILLEGAL", "RummyEnv"]

"""The research interface: rummykit games as PettingZoo and Gymnasium environments.

This subpackage is the only part of rummykit that needs numpy, gymnasium and
pettingzoo; they come with the optional ``rl`` extra, so the engine itself stays
dependency-light.  Importing it without them fails with a message naming the extra.

* :func:`env` / :func:`raw_env`: a PettingZoo AEC environment, one agent per seat
  (:mod:`rummykit.env.aec`);
* :class:`RummyEnv`: a Gymnasium environment for one learner against bots, registered
  as ``rummykit/Gin-v0``, ``rummykit/Rami51-v0``, ``rummykit/Basic-v0`` and one id per
  preset (:data:`IDS`);
* :func:`encode`, :func:`encode_state`, :func:`layout`, :func:`observation_size`: one
  player's view as a fixed-shape vector (:mod:`rummykit.env.observation`).

``docs/env.md`` documents observations, actions, rewards and seeding.
"""

from __future__ import annotations

try:
    import gymnasium as _gymnasium  # noqa: F401
    import numpy as _numpy  # noqa: F401
    import pettingzoo as _pettingzoo  # noqa: F401
except ImportError as exc:  # pragma: no cover - the rl extra is installed for tests
    raise ImportError(
        f"rummykit.env needs numpy, gymnasium and pettingzoo ({exc.name} is missing): "
        "pip install 'rummykit[rl]'"
    ) from exc

from .aec import env, raw_env
from .observation import Layout, Section, encode, encode_state, layout, observation_size
from .registration import IDS, register
from .single import RummyEnv

register()

__all__ = [
    "IDS", "Layout", "RummyEnv", "Section", "encode", "encode_state", "env", "layout",
    "observation_size", "raw_env",
]  # fmt: skip

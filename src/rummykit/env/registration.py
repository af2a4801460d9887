"""Gymnasium ids for the single-learner environment, registered on ``import rummykit.env``.

One id per preset, named after it; each fixes the rules and a player count, and any
other :class:`~rummykit.env.single.RummyEnv` option can be passed to
``gymnasium.make``:

>>> import gymnasium
>>> e = gymnasium.make("rummykit/Rami51-v0", players=3, opponents="random")
>>> e.unwrapped.players, e.unwrapped.opponents
(3, ('random', 'random'))
"""

from __future__ import annotations

from typing import Any

import gymnasium

ENTRY_POINT = "rummykit.env.single:RummyEnv"

IDS: dict[str, dict[str, Any]] = {
    "rummykit/Basic-v0": {"rules": "basic", "players": 2},
    "rummykit/Classic-v0": {"rules": "classic", "players": 2},
    "rummykit/CG101-v0": {"rules": "cg101", "players": 2},
    "rummykit/Rami51-v0": {"rules": "rami51", "players": 4},
    "rummykit/Gin-v0": {"rules": "gin", "players": 2},
    "rummykit/GinMatch-v0": {"rules": "gin_match", "players": 2, "episode": "match"},
    "rummykit/Rummikub-v0": {"rules": "rummikub", "players": 2},
}
"""Each id and the options it fixes (the rest keep :class:`RummyEnv`'s defaults)."""


def register() -> None:
    """Register every id once (importing twice, or reloading, registers nothing new)."""
    for env_id, kwargs in IDS.items():
        if env_id not in gymnasium.registry:
            gymnasium.register(id=env_id, entry_point=ENTRY_POINT, kwargs=kwargs)


__all__ = ["IDS", "register"]

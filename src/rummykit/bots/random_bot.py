"""A bot that plays uniformly at random among its legal moves."""

from __future__ import annotations

import random

from ..moves import Move
from ..view import PlayerView
from .base import Bot


class RandomBot(Bot):
    """Picks uniformly among ``view.legal``: a baseline and a fuzzer for the engine.

    >>> from rummykit import new_game
    >>> g = new_game("basic", players=2, seed=1)
    >>> view = g.view(g.current)
    >>> RandomBot().choose(view, random.Random(0)) in view.legal
    True
    """

    name = "random"

    def choose(self, view: PlayerView, rng: random.Random) -> Move:
        legal = view.legal
        if not legal:
            raise ValueError(f"player {view.player} has no move: it is not their turn")
        return rng.choice(legal)

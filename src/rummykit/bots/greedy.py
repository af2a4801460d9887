"""``greedy`` (difficulty ``easy``): melds and lays off as soon as it can.

It takes the top discard only when that card goes straight into a meld, lays down
the meld that leaves the least deadwood, lays off anything that fits, and discards
the card whose loss leaves the least deadwood (the costliest one on a tie).
"""

from __future__ import annotations

import random

from ..moves import Move
from ..rules import Family
from ..view import PlayerView
from .base import Bot
from .indian import indian_move
from .rummikub import easy_move
from .tactics import greedy_move


class GreedyBot(Bot):
    name = "greedy"

    def choose(self, view: PlayerView, rng: random.Random) -> Move:
        if view.rules.family is Family.RUMMIKUB:  # (bots/rummikub.py)
            return easy_move(view)
        if view.rules.family is Family.INDIAN:  # Indian Rummy (bots/indian.py)
            return indian_move(view, rng, careful=False)
        return greedy_move(view, view.game.solver, rng)

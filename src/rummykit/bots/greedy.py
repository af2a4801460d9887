"""``greedy`` (difficulty ``easy``): melds and lays off as soon as it can.

It takes the top discard only when that card goes straight into a meld, lays down
the meld that leaves the least deadwood, lays off anything that fits, and discards
the card whose loss leaves the least deadwood (the costliest one on a tie).
"""

from __future__ import annotations

import random

from ..moves import DISCARD, DRAW_DISCARD, DRAW_STOCK, LAYOFF, MELD, Move
from ..state import Phase
from ..view import PlayerView
from .base import Bot
from .tactics import (
    SolverCache,
    best_layoff,
    best_meld,
    discard_choice,
    draw_gain,
    knock_game_move,
    pass_if_done,
)


class GreedyBot(Bot):
    name = "greedy"

    def __init__(self) -> None:
        self.solvers = SolverCache()

    def choose(self, view: PlayerView, rng: random.Random) -> Move:
        legal = view.legal
        solver = self.solvers.get(view)
        if view.phase is Phase.DRAW:
            take = Move(DRAW_DISCARD)
            if take in legal and draw_gain(view, solver) > 0:
                return take
            return Move(DRAW_STOCK) if Move(DRAW_STOCK) in legal else legal[0]
        special = knock_game_move(view, solver)
        if special is not None:
            return special
        meld = best_meld(view, solver)
        if meld is not None:
            return meld
        layoff = best_layoff(view, solver)
        if layoff is not None:
            return layoff
        if any(m.kind == DISCARD for m in legal):
            return discard_choice(view, solver)
        done = pass_if_done(legal)
        if done is not None:
            return done
        # Obligations (a pending card) leave only melds or lay-offs that use it.
        for kind in (MELD, LAYOFF):
            for m in legal:
                if m.kind == kind:
                    return m
        return legal[rng.randrange(len(legal))]

"""Rummikub's bots: the play that places the most tiles, else the draw.

The legal list of a Rummikub turn (``variants/rummikub.py``) holds the draw (the pass
once the pool is empty), each set of the rack's own tiles, each single tile added to a
table set and the solver's arrangement that places the most tiles
(``variants/rummikub_solver.py``).  Every bot name plays from that list:

* ``random`` plays any listed move (its own module, unchanged);
* ``greedy`` (easy) and ``expert`` (medium) play the listed arrangement that places the
  most tiles, then the most points (a joker 30): the solver's, by construction, unless
  a single set or tile ties it;
* ``ismcts`` (hard) plays as ``expert``: a search's playouts would ask the solver at
  every turn of every sample, far beyond a move's budget, until the playouts have a
  cheap play generator of their own.
"""

from __future__ import annotations

import random
from collections import Counter

from ..moves import ARRANGE, Move
from ..variants.rummikub import arrangement_shapes, shape_faces, tile_value
from ..view import PlayerView


def placed(view: PlayerView, move: Move) -> Counter[int]:
    """The tiles (faces) ``move`` places from the rack: none for a draw or a pass."""
    if move.kind != ARRANGE:
        return Counter()
    t = view.game.melds
    shapes = arrangement_shapes(move.a, t) or ()
    new: Counter[int] = Counter()
    for s in shapes:
        new.update(shape_faces(t, s))
    for tm in view.table:
        new.subtract(shape_faces(t, tm.shape))
    return +new


def rummikub_move(view: PlayerView, rng: random.Random) -> Move:
    """The listed play that places the most tiles, then the most points; else the first
    listed move (the draw, or the pass)."""
    jp = view.rules.joker_points

    def worth(m: Move) -> tuple[int, int]:
        tiles = placed(view, m)
        return sum(tiles.values()), sum(tile_value(f, jp) * n for f, n in tiles.items())

    return max(view.legal, key=worth)  # max keeps the first of equals: the draw

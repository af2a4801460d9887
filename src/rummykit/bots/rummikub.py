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

The hint and the game review grade a Rummikub move for the same reason without
playouts (:func:`rummykit.bots.review.evaluate`): a move is worth the points it takes
off the rack (:func:`placed_points`), and :func:`explain` says so in words.
"""

from __future__ import annotations

import random
from collections import Counter

from ..cards import display_face, format_face
from ..moves import ARRANGE, DRAW_STOCK, PASS, Move
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


def placed_points(view: PlayerView, move: Move) -> int:
    """The points of the tiles ``move`` places (a joker ``joker_points``): what it takes
    off the rack, which the round charges a player who has not gone out."""
    jp = view.rules.joker_points
    return sum(tile_value(f, jp) * n for f, n in placed(view, move).items())


def explain(view: PlayerView, move: Move, unicode: bool = True) -> str:
    """One line saying what ``move`` does for the rack (a hint's or a review's reason)."""
    fmt = display_face if unicode else format_face
    if move.kind == DRAW_STOCK:
        if any(m.kind == ARRANGE for m in view.legal):
            return "draw a tile: one more tile on your rack"
        return "draw a tile: no play places a tile from your rack"
    if move.kind == PASS:
        return "pass: the pool is empty and no play places a tile from your rack"
    tiles = placed(view, move)
    faces = " ".join(fmt(f) for f in sorted(tiles.elements()))
    if view.hand.bit_count() == tiles.total():
        return f"play {faces}: it goes out"
    return f"play {faces}: {placed_points(view, move)} points off your rack"


def rummikub_move(view: PlayerView, rng: random.Random) -> Move:
    """The listed play that places the most tiles, then the most points; else the first
    listed move (the draw, or the pass)."""
    jp = view.rules.joker_points

    def worth(m: Move) -> tuple[int, int]:
        tiles = placed(view, m)
        return sum(tiles.values()), sum(tile_value(f, jp) * n for f, n in tiles.items())

    return max(view.legal, key=worth)  # max keeps the first of equals: the draw

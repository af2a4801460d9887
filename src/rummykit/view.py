"""What one player may know, and full states sampled consistently with it.

A :class:`PlayerView` holds the player's own hand, everything public (the table, the
whole discard pile, which every player saw being built, hand sizes, scores) and the
cards others are *known* to hold because they took them face up (from the discard
pile, a table meld, or a joker swap).  It never holds another hand or the stock order.
When the view's player is to act, it carries their legal moves, so a bot needs
nothing else.

:func:`determinize` turns a view back into a full :class:`GameState` by dealing the
unseen cards at random into the other hands and the stock, which is what
information-set search needs; given per-player card weights (the opponent model of
:mod:`rummykit.bots.inference`) it deals the likelier cards to each hand more often.

This module is where bots and front ends find both.  The view itself is built in
:mod:`rummykit.player_view`, below the state machine, and :func:`determinize`, which
builds a state, lives with the state in :mod:`rummykit.state`: so neither of those
imports the other, and this one imports both: no import circle.

>>> from rummykit import new_game
>>> g = new_game("basic", players=3, seed=5)
>>> v = g.view(1)
>>> v.hand == g.hands[1], v.hand_sizes, v.stock_size
(True, (7, 7, 7), 30)
>>> import random
>>> d = determinize(v, random.Random(1))
>>> d.hands[1] == g.hands[1], d.discard == g.discard, len(d.stock) == len(g.stock)
(True, True, True)
"""

from __future__ import annotations

from .player_view import (
    CardWeights,
    PlayerView,
    RoundMoves,
    make_view,
    unseen_cards,
    unseen_faces,
)
from .state import determinize

__all__ = [
    "CardWeights",
    "PlayerView",
    "RoundMoves",
    "determinize",
    "make_view",
    "unseen_cards",
    "unseen_faces",
]

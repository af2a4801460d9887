"""Hints: the move the game review grades best, with a reason a person can read.

>>> import random
>>> from rummykit import new_game
>>> g = new_game("basic", players=2, seed=4)
>>> hint = suggest(g.view(g.current), budget=20)
>>> hint.move in g.legal_moves(), isinstance(hint.reason, str)
(True, True)
"""

from __future__ import annotations

from dataclasses import dataclass

from ..moves import Move
from ..view import PlayerView
from .reasons import explain, why
from .review import default_budget, evaluate

__all__ = ["Hint", "explain", "suggest", "why"]


@dataclass(frozen=True)
class Hint:
    move: Move
    reason: str


def suggest(
    view: PlayerView,
    *,
    budget: int | None = None,
    seed: int = 0,
    unicode: bool = True,
) -> Hint:
    """The best move of the review's evaluation of this view, and why.

    The hint and the game review are one evaluation
    (:func:`rummykit.bots.review.evaluate`: the hard bot's candidates, in expected
    points on paired samples): asked with the review's ``budget`` (None: its default
    for the game, :func:`~rummykit.bots.review.default_budget`) and the seed the review
    gives the position (:func:`~rummykit.bots.review.decision_seed`), the move
    suggested is the one the review grades best.  Deterministic for a seed."""
    if not view.legal:
        raise ValueError("it is not this player's turn")
    if len(view.legal) == 1:
        move = view.legal[0]
    else:
        if budget is None:
            budget = default_budget(view.rules, len(view.hand_sizes))
        move = evaluate(view, budget, seed).best
    return Hint(move, why(view, move, unicode))

"""How a round ends: the vocabulary the state, the variants, scoring and every front end
share (like python-chess's ``Termination``).

A :class:`RoundEnd` is a :class:`~enum.StrEnum` whose values are the words saved games,
positions and the web protocol write, so a saved ``"reason": "drop"`` loads as
``RoundEnd.DROP`` and saves back byte for byte.  Code tests a reason by identity
(``reason is RoundEnd.DROP``) or with ``match``, never by comparing text.

>>> RoundEnd("wrong_show") is RoundEnd.WRONG_SHOW, str(RoundEnd.WRONG_SHOW)
(True, 'wrong_show')
"""

from __future__ import annotations

from enum import StrEnum


class RoundEnd(StrEnum):
    """Why a round ended."""

    OUT = "out"
    """A player went out (draw-meld-discard games and Contract Rummy)."""
    KNOCK = "knock"
    """Gin: a knock scored (the knocker's or, undercut, the defender's hand)."""
    GIN = "gin"
    """Gin: a knock with no deadwood."""
    DECLARE = "declare"
    """Indian Rummy: a valid declaration."""
    DROP = "drop"
    """Indian Rummy: the others dropped; the one player left wins the deal."""
    WRONG_SHOW = "wrong_show"
    """Indian Rummy: a wrong show left one player in the deal."""
    WALL = "wall"
    """The stock reached the wall with nobody out: the hand is void."""
    RESTOCK_LIMIT = "restock_limit"
    """Blocked: the stock was restocked as often as the rules allow."""
    NO_DRAW = "no_draw"
    """Blocked: nobody could draw."""
    TURN_LIMIT = "turn_limit"
    """Blocked: the turn guard was reached."""
    REPEATED = "repeated"
    """A discard threw the upcard back a second time in a row (``repeat_void``): the
    hand is void."""
    UPCARD_LIMIT = "upcard_limit"
    """The discard pile was drawn from ``max_upcard_draws`` times: the hand is void."""


__all__ = ["RoundEnd"]

"""The phases of a turn and the pending-card markers: the vocabulary every layer shares.

They live below the state machine, the variants and the views so that each of those
can name a phase without importing the others (so the state, knock and view modules
form no import circle).  A variant that needs a phase of its own adds
a member here (after the others: the values are what saves hold) and names it in its
``own_phases``; :mod:`rummykit.variants` binds each phase to its move generator.
"""

from __future__ import annotations

from enum import IntEnum

NO_CARD = -1
PENDING_MELD = 1
"""The pending card must go into a new meld (taken from a meld, freed joker)."""
PENDING_USE = 2
"""The pending card must be melded or laid off (taken discard under must_use)."""


class Phase(IntEnum):
    DRAW = 0
    PLAY = 1
    OVER = 2
    FIRST_UPCARD = 3
    """Gin: take the first upcard or pass (see :mod:`rummykit.variants.gin`)."""
    KNOCK = 4
    """Gin: the knocker discards, lays melds, passes."""
    LAYOFF = 5
    """Gin: the defender lays off, passes, lays melds, passes."""
    WALL = 6
    """Gin: two stock cards left; knock with the upcard or pass (void hand)."""
    BUY = 7
    """Contract Rummy: the player in turn drew from the stock; ``current`` is the
    player offered the top discard, who buys it or passes (see
    :mod:`rummykit.variants.contract`)."""
    TILES = 8
    """Rummikub: the turn plays tiles (a new arrangement of the table), draws one tile,
    or, with the pool empty, passes (see :mod:`rummykit.variants.rummikub`)."""

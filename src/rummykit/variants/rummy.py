"""The draw-meld-discard rummies of the four seeds (basic, classic, cg101, rami51).

Their turn is the state machine's own: draw from the stock or the discard pile, meld,
lay off, swap jokers and take from melds as the rules allow, then discard (or go out).
Every difference between the seeds is a :class:`~rummykit.rules.Rules` option read by
the shared primitives, so this family overrides no hook: it is the base
:class:`~rummykit.variants.base.Variant` under its own name, listed last in the
registry because every rules object it is given can be played this way.
"""

from __future__ import annotations

from ..rules import Family
from .base import Variant


class Rummy(Variant):
    """Seeds 000 to 003: melds laid in play, scored by the cards left in hand."""

    name = Family.RUMMY
    aliases = ("Rummy", "Basic Rummy", "Rami", "Kalooki")

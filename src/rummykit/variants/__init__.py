"""The variants: the one place that lists every family of rummy the engine plays.

A variant is data, its :class:`~rummykit.rules.Rules` options, plus a small module of
hooks (a :class:`Variant` subclass).  :func:`variant_for` picks the first family in
:data:`VARIANTS` whose ``applies`` accepts the rules, and the
:class:`~rummykit.game.Game` binds it once per rules and player count.  docs/variants.md
says how to add one.

>>> from rummykit.rules import Rules
>>> variant_for(Rules.preset("gin")).name, variant_for(Rules.preset("rami51")).name
('gin', 'rummy')
"""

from __future__ import annotations

from ..rules import Rules
from .base import MoveGenerator, Variant
from .contract import Contract
from .gin import Gin
from .indian import Indian
from .rum500 import Rum500
from .rummy import Rummy

VARIANTS: tuple[type[Variant], ...] = (Gin, Indian, Rum500, Contract, Rummy)
"""Every family, most specific first: the last one applies to any rules."""


def variant_for(rules: Rules) -> Variant:
    """The hooks of the family these rules belong to."""
    for family in VARIANTS:
        if family.applies(rules):
            return family(rules)
    raise AssertionError("the last variant applies to every rules")  # pragma: no cover


__all__ = [
    "VARIANTS",
    "Contract",
    "Gin",
    "Indian",
    "MoveGenerator",
    "Rum500",
    "Rummy",
    "Variant",
    "variant_for",
]

"""The variants: the one place that lists every family of rummy the engine plays.

A variant is data, its :class:`~rummykit.rules.Rules` options, plus a small module of
hooks (a :class:`Variant` subclass).  The rules name their family
(:attr:`Rules.family <rummykit.rules.Rules.family>`), :func:`variant_for` gives that
family's hooks, and the :class:`~rummykit.game.Game` binds them once per rules and
player count.  :func:`find_variant` finds a family by its name or an alias, as
python-chess's ``find_variant`` does.  docs/variants.md says how to add one.

>>> from rummykit.rules import Rules
>>> variant_for(Rules.preset("gin")).name, variant_for(Rules.preset("rami51")).name
(<Family.GIN: 'gin'>, <Family.RUMMY: 'rummy'>)
>>> find_variant("gin rummy") is Gin, find_variant("Shanghai").name
(True, <Family.CONTRACT: 'contract'>)
"""

from __future__ import annotations

import re

from ..rules import Family, Rules
from .base import MoveGenerator, Variant
from .contract import Contract
from .gin import Gin
from .indian import Indian
from .rum500 import Rum500
from .rummikub import Rummikub
from .rummy import Rummy

VARIANTS: tuple[type[Variant], ...] = (Gin, Indian, Rum500, Contract, Rummikub, Rummy)
"""Every family, one variant each."""

_BY_FAMILY: dict[Family, type[Variant]] = {v.name: v for v in VARIANTS}


def _key(name: str) -> str:
    """A name as looked up: case, spaces, hyphens and underscores do not count."""
    return re.sub(r"[\s_-]+", " ", name.strip().lower())


_BY_NAME: dict[str, type[Variant]] = {
    _key(alias): v for v in VARIANTS for alias in (v.name.value, *v.aliases)
}


def variant_for(rules: Rules) -> Variant:
    """The hooks of the family these rules belong to."""
    return _BY_FAMILY[rules.family](rules)


def find_variant(name: str) -> type[Variant]:
    """The variant named ``name``: a family (``"gin"``) or one of its aliases
    (``"Gin Rummy"``), in any case; :class:`ValueError` for an unknown name."""
    try:
        return _BY_NAME[_key(name)]
    except KeyError:
        known = ", ".join(v.name.value for v in VARIANTS)
        raise ValueError(f"unknown variant {name!r} (families: {known})") from None


__all__ = [
    "VARIANTS",
    "Contract",
    "Gin",
    "Indian",
    "MoveGenerator",
    "Rum500",
    "Rummikub",
    "Rummy",
    "Variant",
    "find_variant",
    "variant_for",
]

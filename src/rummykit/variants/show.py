"""What a family shows a player, as data: message codes with parameters, never words.

A family (a :class:`~rummykit.variants.base.Variant`) says once what a player must see
of it: its status lines (the contract in force, the wild cut, what the player's own
hand counts), its extra actions with their keys, and its rules summary
(:func:`rummykit.rulebook.rules_lines`).  The front ends render every line the same
way, through the catalogs of :mod:`rummykit.i18n.shows` (English and French), so a
family's options are told in one place and a new line needs no front-end change.

Parameters are plain values.  By convention a parameter's name says how a catalog
writes it: a name ending in ``card`` is a card id (written as its face in the
language), ``rank`` a rank index, ``ranks`` a rank index written in the plural
(``sevens``), ``contract`` a contract's words (:func:`~rummykit.variants.contract.describe`),
anything else as it is.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

Param = int | str | bool
"""A line's parameter: a number, a code or a flag (never text for people)."""


@dataclass(frozen=True, slots=True)
class StatusLine:
    """One thing a family shows on the table: a message code and its parameters.

    ``own``: the line is about the viewer's own hand (the terminal writes it in the
    hand's title, the page after its advice); else it is public, the same for every
    seat (the terminal's status bar, the page's line under the table)."""

    code: str
    params: Mapping[str, Param] = field(default_factory=dict)
    own: bool = False


@dataclass(frozen=True, slots=True)
class Action:
    """An action only some families have: the terminal's action name, its key, the
    code of the help text that says what it does, and the kind of move it makes (-1:
    several, as laying the best melds does).  The name is also what the family calls
    the move (Indian Rummy's knock is a declaration)."""

    name: str
    key: str
    help: str
    kind: int = -1


@dataclass(frozen=True, slots=True)
class RuleLine:
    """One sentence of a rules summary: its code and parameters (see
    :func:`rummykit.rulebook.rules_lines`)."""

    code: str
    params: Mapping[str, object] = field(default_factory=dict)


__all__ = ["Action", "Param", "RuleLine", "StatusLine"]

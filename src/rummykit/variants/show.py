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
``who`` a seat (written as its player's name), anything else as it is.  A turn's
advice (:meth:`~rummykit.variants.base.Variant.advice`) is a :class:`StatusLine` too.
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


@dataclass(frozen=True)
class Grouping:
    """A hand laid out as its family counts it (Indian Rummy's
    :meth:`~rummykit.variants.indian.HandSolver.arrange`, every other family's
    :meth:`~rummykit.variants.base.Variant.layout`): the melds, each cell a card and
    the face it plays as (a joker's or wild card's stand-in, else its own face), then
    the loose cards.  ``card_points`` gives each card
    of :attr:`cards` what it counts; they add up to ``points`` unless the hand is
    capped at ``max_hand_points``.  ``valid``: the melds hold two sequences, one pure,
    so only the loose cards count (else every card does).  ``out``: the card a hand
    holding one card over the deal would put out (-1: none)."""

    melds: tuple[tuple[tuple[int, int], ...], ...]
    loose: tuple[int, ...]
    card_points: tuple[int, ...]
    points: int
    valid: bool
    out: int = -1

    @property
    def cards(self) -> tuple[int, ...]:
        """The melds' cards in order, then the loose ones."""
        return (*(c for meld in self.melds for c, _f in meld), *self.loose)

"""The chance and bookkeeping events of a match, as the state records them in
:attr:`GameState.events <rummykit.state.GameState.events>`: small frozen records with a
common base, :class:`Event`.

On the wire (saved games, the web protocol) an event is ``[kind, player, values]``, a
word, a seat (-1 for none) and a list of small ints, as it always was:
:meth:`Event.wire` writes it and :func:`event_from_wire` reads it back.

>>> e = Cut(1, 40)
>>> e.wire(), event_from_wire("cut", 1, (40,)) == e
(('cut', 1, (40,)), True)
>>> Bonus(-1, (0, 2)).wire()
('bonus', -1, (0, 2))
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened to ``player`` (a seat; -1 for nobody)."""

    player: int

    kind: ClassVar[str] = ""
    """The event's word on the wire."""

    @property
    def values(self) -> tuple[int, ...]:
        """The event's numbers on the wire (cards, points, counts)."""
        return ()

    def wire(self) -> tuple[str, int, tuple[int, ...]]:
        """``(kind, player, values)``: the form saved games and the protocol write."""
        return (self.kind, self.player, self.values)

    @classmethod
    def from_values(cls, player: int, values: tuple[int, ...]) -> Event:
        """The event of this kind with ``values`` (the inverse of :attr:`values`);
        :class:`ValueError` for the wrong count of values."""
        if values:
            raise ValueError(f"a {cls.kind} event has no values")
        return cls(player)


@dataclass(frozen=True, slots=True)
class _OneCard(Event):
    card: int

    @property
    def values(self) -> tuple[int, ...]:
        return (self.card,)

    @classmethod
    def from_values(cls, player: int, values: tuple[int, ...]) -> Event:
        if len(values) != 1:
            raise ValueError(f"a {cls.kind} event has one value")
        return cls(player, values[0])


@dataclass(frozen=True, slots=True)
class Cut(_OneCard):
    """``player`` cut ``card`` to choose the first dealer (seed 002)."""

    kind: ClassVar[str] = "cut"


@dataclass(frozen=True, slots=True)
class Deal(Event):
    """A round was dealt; ``player`` is its dealer."""

    kind: ClassVar[str] = "deal"


@dataclass(frozen=True, slots=True)
class Laid(Event):
    """``player``'s meld or lay-off scored ``points`` as it was laid (``meld_scoring``)."""

    points: int
    kind: ClassVar[str] = "laid"

    @property
    def values(self) -> tuple[int, ...]:
        return (self.points,)

    @classmethod
    def from_values(cls, player: int, values: tuple[int, ...]) -> Event:
        if len(values) != 1:
            raise ValueError("a laid event has one value")
        return cls(player, values[0])


@dataclass(frozen=True, slots=True)
class Restocked(Event):
    """The stock was rebuilt from the discard pile in ``player``'s turn."""

    kind: ClassVar[str] = "restock"


@dataclass(frozen=True, slots=True)
class RoundOver(Event):
    """A round ended; ``player`` won it (-1: nobody)."""

    kind: ClassVar[str] = "round"


@dataclass(frozen=True, slots=True)
class Bought(_OneCard):
    """``player`` bought the discard ``card`` out of turn (Contract Rummy)."""

    kind: ClassVar[str] = "buy"


@dataclass(frozen=True, slots=True)
class Bonus(Event):
    """Gin's match bonuses were added: ``player`` won the match (-1: nobody) and
    ``won`` counts each seat's hands won (line bonuses)."""

    won: tuple[int, ...]
    kind: ClassVar[str] = "bonus"

    @property
    def values(self) -> tuple[int, ...]:
        return self.won

    @classmethod
    def from_values(cls, player: int, values: tuple[int, ...]) -> Event:
        return cls(player, tuple(values))


EVENT_KINDS: dict[str, type[Event]] = {
    e.kind: e for e in (Cut, Deal, Laid, Restocked, RoundOver, Bought, Bonus)
}
"""Every kind of event, by its word on the wire."""


def event_from_wire(kind: str, player: int, values: tuple[int, ...]) -> Event:
    """The event saved as ``[kind, player, values]``; :class:`ValueError` for a kind
    or a count of values no event has."""
    try:
        cls = EVENT_KINDS[kind]
    except (KeyError, TypeError):
        raise ValueError(f"{str(kind)[:30]!r} is not a kind of event") from None
    return cls.from_values(player, values)


__all__ = [
    "EVENT_KINDS",
    "Bonus",
    "Bought",
    "Cut",
    "Deal",
    "Event",
    "Laid",
    "Restocked",
    "RoundOver",
    "event_from_wire",
]

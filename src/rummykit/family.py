"""A family's own per-deal fields, declared once by its variant module.

Most of a :class:`~rummykit.state.GameState` is what every family of rummy shares
(hands, piles, the table, the turn).  What only one family has (Contract Rummy's buys)
is a :class:`FamilyFields` record: a frozen slots dataclass of ints and per-seat tuples
of ints, subclassed in the family's variant module, which names it as its
:meth:`~rummykit.variants.Variant.family_type`.  The state holds one as
``state.family`` and replaces it when a field changes; being frozen, a clone or a view
shares it and copies nothing.

Everything generic reads the declaration instead of naming fields, as python-chess's
``ThreeCheckBoard`` carries its own ``remaining_checks`` through ``copy()`` and the FEN:
a saved state's JSON (:meth:`FamilyFields.to_json`, keys are the field names), a
position's ``key=value`` fields (:meth:`FamilyFields.to_position`), and the invariant
checker (:meth:`FamilyFields.check`).  The base record has no fields: a family without
fields of its own saves and writes exactly what it did before records existed.

>>> FamilyFields.fresh(2), FamilyFields.json_keys(), FamilyFields().to_json()
(FamilyFields(), frozenset(), {})
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import TYPE_CHECKING, Any, ClassVar, Protocol, Self

if TYPE_CHECKING:
    from .rules import Rules
    from .state import GameState


class PositionReader(Protocol):
    """What a family's fields read a position with (:mod:`rummykit.position`)."""

    @property
    def n(self) -> int:
        """The number of seats."""
        ...

    @property
    def extras(self) -> Mapping[str, str]:
        """Every ``key=value`` field of the position, the shared ones too."""
        ...

    @property
    def rules(self) -> Rules:
        """The position's rules."""
        ...

    def number(self, key: str, default: int, lo: int = 0) -> int:
        """A whole number from ``lo`` (absent: ``default``)."""
        ...

    def seat(self, key: str, text: str | None, default: int = -1) -> int:
        """A seat written from 1 (``text`` None: ``default``), as a 0-based index."""
        ...

    def error(self, message: str, key: str) -> Exception:
        """The error to raise for the malformed field ``key``."""
        ...


@dataclass(frozen=True, slots=True)
class FamilyFields:
    """The fields a family adds to the shared state; this base adds none."""

    position_keys: ClassVar[tuple[str, ...]] = ()
    """The ``key=value`` fields of a position that hold these fields, in the order
    they are written (after the shared ones)."""
    position_names: ClassVar[Mapping[str, str]] = {}
    """The position key of a field, where the two names differ (for error messages)."""
    position_after: ClassVar[str] = ""
    """The shared key after which :attr:`position_keys` are written ("": last)."""
    json_after: ClassVar[str] = ""
    """The shared key of a saved state after which the fields are written ("": last),
    so that saves keep the order they have always had."""
    saved_by_all: ClassVar[bool] = False
    """Every game's saves hold these fields (at a new deal's values where they are not
    the game's own), as they always have: a loader drops them there."""
    json_optional: ClassVar[bool] = False
    """A save may leave these fields out (they load at a new deal's values), and
    another family's save may hold them at those values, as saves always could."""

    @classmethod
    def fresh(cls, seats: int) -> Self:
        """The fields at the start of a deal for ``seats`` players."""
        return cls()

    # -- JSON --------------------------------------------------------------------------
    @classmethod
    def json_keys(cls) -> frozenset[str]:
        """The keys a saved state holds for these fields: their names."""
        return frozenset(f.name for f in fields(cls))

    def to_json(self) -> dict[str, Any]:
        """The fields as JSON values: a tuple as a list."""
        out: dict[str, Any] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            out[f.name] = list(value) if type(value) is tuple else value
        return out

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> Self:
        """The fields as saved in ``d`` (which holds every key of :meth:`json_keys`):
        a list becomes a tuple, anything else is kept as it is for :meth:`check` to
        judge, as every field of a loaded state is judged."""
        values = {}
        for f in fields(cls):
            value = d[f.name]
            values[f.name] = tuple(value) if type(value) is list else value
        return cls(**values)

    # -- positions ---------------------------------------------------------------------
    def to_position(self) -> dict[str, str]:
        """The ``key=value`` fields as written (only those that differ from
        :meth:`position_defaults` are)."""
        return {}

    @classmethod
    def position_defaults(cls, rules: Rules, seats: int) -> dict[str, str]:
        """The value of each of :attr:`position_keys` when a position leaves it out."""
        return {}

    @classmethod
    def from_position(cls, reader: PositionReader) -> Self:
        """The fields a position's ``key=value`` fields give; raise the reader's
        error for a malformed value."""
        return cls.fresh(reader.n)

    # -- invariants --------------------------------------------------------------------
    def check(self, state: GameState) -> None:
        """Raise :class:`~rummykit.fields.StateFormatError` unless these fields
        are of a state the engine could have reached (``state`` holds them)."""

"""The checks a loaded field must pass, and the error a failed one raises.

:mod:`rummykit.invariants` checks whole states with these; a family's own record
(:mod:`rummykit.family`) checks its fields with them too.  They need nothing of the
state, so the variants import them without importing the state.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any, cast

from .cards import deck, mask_of
from .errors import RummyError


class StateFormatError(RummyError):
    """A saved state or position that is not a state rummykit can play from.

    ``field`` names the state field that is wrong (``"hands[1]"``, ``"current"``...),
    or is empty when the document as a whole is malformed.
    """

    def __init__(self, message: str, field: str = "") -> None:
        super().__init__(f"{field}: {message}" if field else message)
        self.field = field
        self.reason = message


@lru_cache(maxsize=8)
def deck_mask(decks: int, jokers: int) -> int:
    """Every physical card of the deck as one bitmask."""
    return mask_of(deck(decks, jokers))


def expect_int(value: Any, field: str, lo: int, hi: int) -> int:
    """``value`` if it is a plain int (not a bool or a float) in ``lo..hi``."""
    if type(value) is not int:
        raise StateFormatError(f"expected an integer, not {shown_value(value)}", field)
    if not lo <= value <= hi:
        raise StateFormatError(f"{shown_value(value)} is outside {lo}..{hi}", field)
    return value


def shown_value(value: Any) -> str:
    """A short description of a bad value for a message (never a 4,000-digit number)."""
    text = repr(value)
    return text if len(text) <= 24 else f"{text[:20]}..."


def expect_seq(
    value: Any, kind: type[list[Any]] | type[tuple[Any, ...]], field: str, length: int | None = None
) -> Sequence[Any]:
    """``value``, if it is a ``kind`` (list or tuple) of ``length`` items."""
    if type(value) is not kind:
        raise StateFormatError(f"expected a {kind.__name__}, not {shown_value(value)}", field)
    if length is not None and len(value) != length:
        raise StateFormatError(f"expected {length} entries, not {len(value)}", field)
    return cast(Sequence[Any], value)

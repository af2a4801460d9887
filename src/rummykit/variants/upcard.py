"""The first-upcard option, which any family may switch on (``first_upcard_option``):
before the first draw of a hand the upcard is offered to each player in turn from the
dealer's left, who takes it or passes; once everyone passed, the first player draws
from the stock.  Gin plays it as standard (OpenSpiel's ``gin_rummy``, the GRA rules);
the seed games may add it as a house rule.

The option's two counters, ``upcard_passes`` and ``upcard_draws``, are plain ints of
the shared state and its views (every family may have the option, and a discard draw
counts on the engine's hot path, where replacing a frozen record would cost more than
the draw).  This module is what knows them: their moves, their invariants, and the
names a saved state and a position give them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from ..errors import IllegalMoveError
from ..fields import StateFormatError, expect_int
from ..moves import DRAW_DISCARD, DRAW_STOCK, PASS, Move
from ..phase import Phase

if TYPE_CHECKING:
    from ..family import PositionReader
    from ..state import GameState

UPCARD_FIELDS: Mapping[str, str] = {"upcard_passes": "passes", "upcard_draws": "draws"}
"""The counters' state fields (a saved state's keys, in the order saved) and the
position's ``key=value`` field that holds each."""


def first_upcard_moves(state: GameState) -> list[Move]:
    """Take the first upcard or pass, each player in turn from the dealer's left (with
    two: the non-dealer, then the dealer); once everyone passed, the first player draws
    from the stock.  Under ``discard_pickup=must_use`` the upcard may be taken only if
    it can be used at once, as in a normal draw."""
    if state.upcard_passes >= state.num_players:
        return [Move(DRAW_STOCK)]
    if state.may_take_upcard():
        return [Move(DRAW_DISCARD), Move(PASS)]
    return [Move(PASS)]


def pass_upcard(state: GameState) -> None:
    """The player passes the upcard to the next seat."""
    state.upcard_passes += 1
    state.set_phase(state.phase, (state.current + 1) % state.num_players)


def phase_error(state: GameState, kind: int) -> IllegalMoveError | None:
    everyone = "both players" if state.num_players == 2 else "every player"
    if state.upcard_passes >= state.num_players:
        if kind == DRAW_STOCK:
            return None
        if kind in (DRAW_DISCARD, PASS):
            return IllegalMoveError(
                "upcard_passed",
                f"the upcard was passed by {everyone}: draw from the stock",
            )
        return IllegalMoveError("draw_first", "the upcard was passed: draw from the stock first")
    if kind in (DRAW_DISCARD, PASS):
        return None
    if kind == DRAW_STOCK:
        return IllegalMoveError(
            "first_upcard",
            f"the first upcard is offered to {everyone} first: take it or pass (n)",
        )
    return IllegalMoveError(
        "draw_first", "the hand starts with the first upcard: take it or pass first"
    )


def upcard_position(s: GameState) -> dict[str, str]:
    """The counters' ``key=value`` fields of a position, as written."""
    return {"passes": str(s.upcard_passes), "draws": str(s.upcard_draws)}


def read_upcard_position(s: GameState, reader: PositionReader) -> None:
    """Set the counters from a position's ``key=value`` fields (absent: 0)."""
    s.upcard_passes = reader.number("passes", 0)
    s.upcard_draws = reader.number("draws", 0)


def check_upcard(s: GameState) -> None:
    """Raise :class:`~rummykit.fields.StateFormatError` unless the counters fit
    the rules and the phase: no more passes than seats (none without the option), the
    first upcard offered from the dealer's left on, and fewer draws than the limit
    until the hand ends."""

    rules = s.rules
    n = len(s.names)
    passes = expect_int(s.upcard_passes, "upcard_passes", 0, n if rules.first_upcard_option else 0)
    if s.phase is Phase.FIRST_UPCARD and (s.turn != 1 or s.current != (s.dealer + 1 + passes) % n):
        raise StateFormatError("the first upcard goes to the dealer's left, then on", "current")
    limit = rules.max_upcard_draws
    over = s.phase is Phase.OVER
    expect_int(
        s.upcard_draws, "upcard_draws", 0, 0 if limit is None else limit - (0 if over else 1)
    )

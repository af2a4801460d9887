"""The first-upcard option, which any family may switch on (``first_upcard_option``):
before the first draw of a hand the upcard is offered to each player in turn from the
dealer's left, who takes it or passes; once everyone passed, the first player draws
from the stock.  Gin plays it as standard (OpenSpiel's ``gin_rummy``, the GRA rules);
the seed games may add it as a house rule.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..errors import IllegalMoveError
from ..moves import DRAW_DISCARD, DRAW_STOCK, PASS, Move

if TYPE_CHECKING:
    from ..state import GameState


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

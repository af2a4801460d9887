"""Rummikub's action space for learning agents: the listed moves, each by a fixed number.

A Rummikub play is the table's whole new arrangement, and the engine's own action
numbers (``arrange_base + code``) run to hundreds of digits: no mask could list them.
An agent instead chooses among the moves ``legal_moves()`` lists (the module
docstring of :mod:`rummykit.variants.rummikub` says which), each named by what it does,
so that every number means the same thing in every position:

====================================  ================================================
number                                move
====================================  ================================================
0                                     draw a tile
1                                     pass (the pool is empty)
2                                     the solver's play: the most tiles placed, the
                                      table rearranged (before the first meld: the
                                      most points of new sets)
3 + ``s``                             lay the new set of catalogue shape ``s``
                                      (:attr:`MeldTable.shapes`) from the rack alone
``add_base + (k * 52 + f) * 2 + j``   add one tile to the table's set ``k`` (its index
                                      in ``state.table``, the observation's
                                      ``table_melds`` block ``k``): face ``f`` (0..51),
                                      a natural tile (``j = 0``) or a joker standing
                                      for ``f`` (``j = 1``)
====================================  ================================================

with ``add_base = 3 + len(shapes)``: 7,855 shapes and 35 table sets make 11,498
numbers for the ``rummikub`` preset.  Several numbers may name one arrangement (the
solver's play may be a new set, or one tile added); each is legal exactly when that
arrangement is, so the moves the legal numbers name are exactly the legal list.
Rearrangements beyond one tile are reached only through the solver's play: that is
the price of a fixed space (docs/env.md, "Rummikub's actions").
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from ..cards import format_face
from ..errors import IllegalMoveError
from ..melds import MeldTable
from ..moves import DRAW_STOCK, PASS, Move
from ..phase import Phase

if TYPE_CHECKING:
    from ..game import Game
    from ..state import GameState

DRAW_NUMBER = 0
"""The number of the draw."""
PASS_NUMBER = 1
"""The number of the pass (the pool is empty)."""
SOLVER_NUMBER = 2
"""The number of the solver's play."""
NEW_SET_BASE = 3
"""New set of shape ``s`` of the rack's tiles alone: ``NEW_SET_BASE + s``."""


def add_tile_base(t: MeldTable) -> int:
    """Where the numbers of single tiles added to a table set start: the tile that
    adds the face ``f`` (0..51) to the table's set ``k`` (its index in
    ``state.table``) is ``add_tile_base + (k * 52 + f) * 2``, plus one when the tile
    is a joker standing for ``f``."""
    return NEW_SET_BASE + len(t.shapes)


NumberedPlays = Callable[["GameState"], Iterable[tuple[int, Move]]]
"""The plays the legal list is made of, each with its number, unchecked
(:func:`rummykit.variants.rummikub.numbered_plays`)."""


class ListedActions:
    """The numbered listed moves of one game (rules and player count)."""

    def __init__(self, game: Game, plays: NumberedPlays) -> None:
        self.melds = game.melds
        self.add_base = add_tile_base(game.melds)
        self.size = self.add_base + game.max_table * 52 * 2
        """How many action numbers there are (the mask's length)."""
        self.plays = plays

    def legal(self, state: GameState) -> dict[int, Move]:
        """The legal action numbers of the player to act, each with its move (empty
        when the match is over).  Built from the state's legal list, so a number is
        legal exactly when the move it names is listed."""
        if state.phase is not Phase.TILES:
            return {}
        out: dict[int, Move] = {}
        listed_plays = set()
        for m in state.legal_moves():
            if m.kind == DRAW_STOCK:
                out[DRAW_NUMBER] = m
            elif m.kind == PASS:
                out[PASS_NUMBER] = m
            else:
                listed_plays.add(m)
        if listed_plays:
            for number, m in self.plays(state):
                if m in listed_plays:
                    out[number] = m
        return out

    def move(self, state: GameState, action: int, legal: dict[int, Move] | None = None) -> Move:
        """The legal move numbered ``action`` (``legal``: :meth:`legal` of ``state``,
        if the caller has it); :class:`IllegalMoveError` if there is none
        (``unknown_action`` outside the space, ``not_listed`` otherwise)."""
        if not 0 <= action < self.size:
            raise IllegalMoveError("unknown_action", f"action {action} outside 0..{self.size - 1}")
        found = (self.legal(state) if legal is None else legal).get(action)
        if found is None:
            raise IllegalMoveError(
                "not_listed", f"action {action} ({self.describe(action)}) is not legal now"
            )
        return found

    def describe(self, action: int) -> str:
        """What the number ``action`` does, in words (the same in every position)."""
        if action == DRAW_NUMBER:
            return "draw a tile"
        if action == PASS_NUMBER:
            return "pass"
        if action == SOLVER_NUMBER:
            return "the solver's play"
        if action < self.add_base:
            return f"new set {self.melds.describe(action - NEW_SET_BASE)}"
        k, rest = divmod(action - self.add_base, 104)
        face, joker = divmod(rest, 2)
        tile = f"a joker as {format_face(face)}" if joker else format_face(face)
        return f"add {tile} to table set {k}"


__all__ = [
    "DRAW_NUMBER", "NEW_SET_BASE", "PASS_NUMBER", "SOLVER_NUMBER", "ListedActions",
    "NumberedPlays", "add_tile_base",
]  # fmt: skip

"""Moves: frozen records with a stable int encoding for action masks.

Moves name faces, not physical copies: with two decks, the two 7♥ are the same to
the player, so ``legal_moves()`` lists each choice once and the engine picks the copy
(the card with an obligation first, then the lowest id).

A move is a small named tuple ``(kind, a, b, c)``:

============  =================================  ==========================
kind          a                                   b, c
============  =================================  ==========================
DRAW_STOCK    -                                   -
DRAW_DISCARD  -                                   -
DISCARD       face                                -
MELD          shape index (see :mod:`melds`)      -
LAYOFF        table meld number                   cell code, 1 if a joker
SWAP          table meld number                   face given for the joker
TAKE          table meld number                   cell code of the card taken
PASS          -                                   -
KNOCK         -                                   -
DROP          -                                   -
BUY           -                                   -
ARRANGE       the table's new arrangement's code      -
TIMEOUT       -                                   -
============  =================================  ==========================

A *cell code* is ``suit * 14 + position``: the run position (0..13, 13 is a high
ace) or, in a set, the rank.

>>> m = Move(DISCARD, 12)
>>> ActionSpace(meld_shapes=329, max_table=17).encode(m)
14
"""

from __future__ import annotations

from typing import NamedTuple

from .cards import NUM_FACES

DRAW_STOCK = 0
DRAW_DISCARD = 1
DISCARD = 2
MELD = 3
LAYOFF = 4
SWAP = 5
TAKE = 6
PASS = 7
"""Gin: decline the first upcard, stop laying off or melding, or let a hand at the wall end."""
KNOCK = 8
"""Gin: end the hand with deadwood within the knock limit."""
DRAW_DEEP = 9
"""500 Rum: take the top ``a`` cards of the discard pile (``a`` >= 2); the deepest of
them must be used at once."""

DROP = 10
"""Indian Rummy: leave the deal before drawing, for the first or middle drop penalty."""

BUY = 11
"""Contract Rummy: buy the top discard out of turn, with a penalty card from the stock."""

ARRANGE = 12
"""Rummikub: the turn's play, as the table's whole new arrangement (``a`` is its code:
:func:`rummykit.variants.rummikub.arrangement_code`); the tiles placed are what it
holds beyond the table before the turn."""

TIMEOUT = 13
"""Rummikub with a turn timer: the player's time ran out; nothing of the turn stands
and the player draws the penalty tiles (the front end plays it: the engine has no
clock)."""

KIND_NAMES = (
    "draw_stock", "draw_discard", "discard", "meld", "layoff", "swap", "take", "pass", "knock",
    "draw_deep", "drop", "buy", "arrange", "timeout",
)  # fmt: skip
CELL_CODES = 56


class Move(NamedTuple):
    kind: int
    a: int = 0
    b: int = 0
    c: int = 0


DISCARD_MOVES: tuple[Move, ...] = tuple(Move(DISCARD, f) for f in range(NUM_FACES))
"""The discard of each face, built once: move generation hands these out."""


DRAW_STOCK_MOVE = Move(DRAW_STOCK)
DRAW_DISCARD_MOVE = Move(DRAW_DISCARD)


class LegalMoves(list[Move]):
    """A legal-move list that also carries the moves by action number.

    The state caches one of these per position; generators that know the action
    numbers cheaply (Gin's discards) fill :attr:`numbered` themselves.
    """

    __slots__ = ("numbered",)
    numbered: dict[int, Move]


def cell_code(suit: int, pos: int) -> int:
    return suit * 14 + pos


def code_suit_pos(code: int) -> tuple[int, int]:
    return divmod(code, 14)


class ActionSpace:
    """The bijection between moves and ints ``0 <= a < size`` for one rules object.

    Layout: draw stock, draw discard, 53 discards (faces, joker last), one action per
    meld shape, then lay-offs, swaps and takes per table meld slot, then pass and knock,
    then (only when the rules allow deep draws: ``deep_draws`` is the deck's size) one
    action per number of cards a deep draw takes, then (only when the rules allow drops)
    the drop, then (only when ``buy``: Contract Rummy's buying) the buy, then (only
    when ``arrange`` is the number of set shapes: Rummikub) the timeout (only with
    ``timeout``, the turn timer) and one action per arrangement of the table,
    ``arrange_base + code``, so every other game keeps its numbers.
    A code is a number of up to ``max_table`` digits in base ``arrange + 1``, so a
    Rummikub action space is far too large to list (:attr:`listable` is False).
    """

    def __init__(
        self,
        meld_shapes: int,
        max_table: int,
        deep_draws: int = 0,
        drops: bool = False,
        buy: bool = False,
        arrange: int = 0,
        timeout: bool = False,
    ) -> None:
        self.meld_base = 2 + NUM_FACES
        self.layoff_base = self.meld_base + meld_shapes
        self.swap_base = self.layoff_base + max_table * CELL_CODES * 2
        self.take_base = self.swap_base + max_table * 52
        self.pass_action = self.take_base + max_table * CELL_CODES
        self.knock_action = self.pass_action + 1
        self.deep_base = self.knock_action + 1
        """The action of a deep draw of ``a`` cards is ``deep_base + a - 2``."""
        deep_end = self.deep_base + max(0, deep_draws - 1)
        self.drop_action = deep_end if drops else -1
        """The drop's action number, or -1 when the rules have no drops."""
        self.turn_openers = range(self.deep_base, deep_end + (1 if drops else 0))
        """The actions past the two draws that open a turn (deep draws, the drop), for
        :func:`~rummykit.state.round_start_of`; empty in most games."""
        self.buy_action = self.turn_openers.stop if buy else -1
        """The buy's action number, or -1 when the rules have no buying."""
        self.timeout_action = self.turn_openers.stop + (1 if buy else 0) if timeout else -1
        """The timeout's action number (Rummikub's turn timer), or -1 without a timer."""
        self.arrange_base = self.turn_openers.stop + (1 if buy else 0) + (1 if timeout else 0)
        """The action of the arrangement whose code is ``c`` is ``arrange_base + c``."""
        self.size = self.arrange_base + ((arrange + 1) ** max_table if arrange else 0)
        self.listable = not arrange
        """Every action can be listed (an action mask is a list of this size)."""
        if arrange:
            # Every Rummikub turn is one action: a draw, a pass or an arrangement.
            self.turn_openers = range(self.pass_action, self.size)
        self.meld_shapes = meld_shapes
        self.max_table = max_table

    def encode(self, m: Move) -> int:
        kind = m.kind
        if kind == DRAW_STOCK:
            return 0
        if kind == DRAW_DISCARD:
            return 1
        if kind == DISCARD:
            return 2 + m.a
        if kind == MELD:
            return self.meld_base + m.a
        if kind == LAYOFF:
            return self.layoff_base + (m.a * CELL_CODES + m.b) * 2 + m.c
        if kind == SWAP:
            return self.swap_base + m.a * 52 + m.b
        if kind == TAKE:
            return self.take_base + m.a * CELL_CODES + m.b
        if kind == DRAW_DEEP:
            return self.deep_base + m.a - 2
        if kind == DROP:
            return self.drop_action
        if kind == BUY:
            return self.buy_action if self.buy_action >= 0 else self.size
        if kind == ARRANGE:
            return self.arrange_base + m.a if self.size > self.arrange_base else self.size
        if kind == TIMEOUT:
            return self.timeout_action if self.timeout_action >= 0 else self.size
        return self.pass_action if kind == PASS else self.knock_action

    def decode(self, action: int) -> Move:
        if not 0 <= action < self.size:
            raise ValueError(f"action {action} outside 0..{self.size - 1}")
        if action == 0:
            return Move(DRAW_STOCK)
        if action == 1:
            return Move(DRAW_DISCARD)
        if action < self.meld_base:
            return Move(DISCARD, action - 2)
        if action < self.layoff_base:
            return Move(MELD, action - self.meld_base)
        if action < self.swap_base:
            slot, rest = divmod(action - self.layoff_base, CELL_CODES * 2)
            return Move(LAYOFF, slot, rest >> 1, rest & 1)
        if action < self.take_base:
            slot, face = divmod(action - self.swap_base, 52)
            return Move(SWAP, slot, face)
        if action == self.pass_action:
            return Move(PASS)
        if action == self.knock_action:
            return Move(KNOCK)
        if action == self.drop_action:
            return Move(DROP)
        if action == self.buy_action:
            return Move(BUY)
        if action >= self.arrange_base:
            return Move(ARRANGE, action - self.arrange_base)
        if action == self.timeout_action:
            return Move(TIMEOUT)
        if action >= self.deep_base:
            return Move(DRAW_DEEP, action - self.deep_base + 2)
        slot, code = divmod(action - self.take_base, CELL_CODES)
        return Move(TAKE, slot, code)

"""A Rummikub turn edited in the terminal, with no Textual in it.

A Rummikub play is the table's whole new arrangement (``Move(ARRANGE, code)``), and
the engine checks only the end of the turn.  The steps in between (tiles moved from
the rack or from a set to another set, a set split or two joined, the turn reset) are
the front end's: :class:`TurnEdit` keeps them as lists of physical tiles, so the
screen can show every step, and hands the engine the arrangement when the person
submits.  A set's validity is the engine's own set check
(:func:`~rummykit.variants.rummikub.set_shape`), never a copy of the rules.

>>> from rummykit.rules import Rules
>>> from rummykit.state import GameState
>>> s = GameState.new(Rules.preset("rummikub"), ["Ann", "Bob"], 1)
>>> e = TurnEdit(s, 0)
>>> e.sets, e.rack.bit_count()
([], 14)
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from ..cards import JOKER, bits, face_of, format_face
from ..errors import IllegalMoveError
from ..melds import MeldTable
from ..moves import Move
from ..state import GameState
from ..variants.rummikub import play_from_sets, set_shape


def set_tokens(tiles: Sequence[int], unicode: bool = False) -> list[str]:
    """A set's tiles in tile notation, in order (a joker ``JK``: its place says what
    it stands for); with ``unicode``, the suits' and the joker's symbols (``5♥``), as
    the engine then names a set that is not one."""
    return [format_face(face_of(c), unicode) for c in tiles]


def shape_of(t: MeldTable, tiles: Sequence[int]) -> int | None:
    """The engine's shape of these tiles in this order, or None if they are not a set."""
    if not tiles:
        return None
    try:
        return set_shape(t, set_tokens(tiles))
    except IllegalMoveError:
        return None


def arranged(t: MeldTable, tiles: Sequence[int]) -> list[int]:
    """The tiles of a set in the order the set reads: the numbers in order, each
    joker where the engine's set check accepts it (the highest place first, so a joker
    ends a run rather than starting it); the numbers in order, jokers last, when no
    place makes a set."""
    naturals = sorted((c for c in tiles if face_of(c) != JOKER), key=_tile_key)
    jokers = [c for c in tiles if face_of(c) == JOKER]
    if not jokers:
        return naturals
    n = len(tiles)
    for spots in reversed(list(combinations(range(n), len(jokers)))):
        order: list[int] = []
        rest = iter(naturals)
        free = iter(jokers)
        for i in range(n):
            order.append(next(free) if i in spots else next(rest))
        if shape_of(t, order) is not None:
            return order
    return naturals + jokers


def _tile_key(card: int) -> tuple[int, int]:
    f = face_of(card)
    return (f % 13, f // 13)


class TurnEdit:
    """The table and rack as the person is arranging them during their turn.

    ``sets`` are lists of tiles (card ids), ``rack`` the tiles not placed; ``selected``
    holds tiles of either.  Every step keeps the tiles: none is lost or doubled, and
    the engine decides at the end whether the arrangement is a legal play.
    """

    def __init__(self, state: GameState, seat: int) -> None:
        self.t = state.game.melds
        self.start_sets = [list(tm.cards) for tm in state.table]
        self.start_rack = state.hands[seat]
        self.sets: list[list[int]] = []
        self.rack = 0
        self.selected: set[int] = set()
        self.reset()

    def reset(self) -> None:
        """The table and rack as at the turn's start, nothing selected."""
        self.sets = [list(s) for s in self.start_sets]
        self.rack = self.start_rack
        self.selected = set()

    @property
    def changed(self) -> bool:
        return self.rack != self.start_rack or self.sets != self.start_sets

    def placed(self) -> list[int]:
        """The rack's tiles now on the table."""
        return list(bits(self.start_rack & ~self.rack))

    def valid(self, index: int) -> bool:
        """Whether set ``index`` is a set, by the engine's set check."""
        return shape_of(self.t, self.sets[index]) is not None

    def move_selected(self, target: int | None) -> int:
        """Move the selected tiles into set ``target`` (a new set at the end if None or
        past the last), arranged as a set reads; return the index of the set they are
        in (sets emptied by the move are removed)."""
        if not self.selected:
            return -1
        moving = [c for s in self.sets for c in s if c in self.selected]
        moving += [c for c in bits(self.rack) if c in self.selected]
        if target is None or target >= len(self.sets):
            self.sets.append([])
            target = len(self.sets) - 1
        goal = self.sets[target]
        for s in self.sets:
            if s is not goal:
                s[:] = [c for c in s if c not in self.selected]
        for c in moving:
            self.rack &= ~(1 << c)
        goal[:] = arranged(self.t, goal + [c for c in moving if c not in goal])
        self.selected = set()
        self.sets = [s for s in self.sets if s]
        return next(i for i, s in enumerate(self.sets) if s is goal)

    def to_rack(self) -> int:
        """Put the selected tiles placed this turn back on the rack (a tile of the
        table at the turn's start stays on the table); return how many moved."""
        back = {c for c in self.selected if self.start_rack >> c & 1 and not self.rack >> c & 1}
        for s in self.sets:
            s[:] = [c for c in s if c not in back]
        for c in back:
            self.rack |= 1 << c
        self.sets = [s for s in self.sets if s]
        self.selected -= back
        return len(back)

    def split(self, index: int, at: int) -> bool:
        """Split set ``index`` before its tile ``at`` into two sets (the second right
        after the first); False if ``at`` is not inside the set."""
        if not 0 <= index < len(self.sets) or not 0 < at < len(self.sets[index]):
            return False
        tiles = self.sets[index]
        self.sets[index : index + 1] = [tiles[:at], tiles[at:]]
        return True

    def join(self, index: int) -> bool:
        """Join set ``index`` and the next one into one set, arranged as a set reads;
        False if there is no next set."""
        if not 0 <= index < len(self.sets) - 1:
            return False
        both = self.sets[index] + self.sets[index + 1]
        self.sets[index : index + 2] = [arranged(self.t, both)]
        return True

    def move(self) -> Move:
        """The play this arrangement is (``Move(ARRANGE, code)``); the engine's
        :class:`IllegalMoveError` ``invalid_set``, naming the set, if one is not a set."""
        return play_from_sets(self.t, [set_tokens(s, unicode=True) for s in self.sets])

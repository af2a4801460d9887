"""The hard Rummikub bot's playouts: a round played on, fast, from a sampled state.

A :class:`~rummykit.state.GameState` lists its legal moves at every turn's start, and
Rummikub's list asks the solver for its best arrangement (tens of milliseconds on a
crowded table), so a playout on the state would afford a handful of turns a second.
A playout here runs on a light copy instead: racks as tile counts per face, the table
as runs (colour, lowest, highest) and groups (number, colours, jokers), the pool as
the sample's tiles in draw order.  Its players play what fits without rearranging
(:func:`quick_play`: runs, groups, a joker completing two thirds of a set, then tiles
that extend a set; before a first meld, new sets worth the opening minimum), else
draw, the easy level's kind of play at a fraction of its cost.  Nothing here sees more
than the sample: the search deals the sample from the bot's view.

A playout may first play a few turns by the expert's own rule on the sample's tiles
(:meth:`Playout.play_expert`): the solver rearranges the table as ``medium`` does, at
about a millisecond a turn or more on a crowded table, where a light turn costs tens of
microseconds; played to the round's end it is the round ``medium`` would play.

The round ends as the engine ends it (a rack emptied, or a round of passes with the
pool empty) and is scored by :func:`~rummykit.variants.rummikub.round_deltas`; a
playout cut at its horizon is scored as a blocked round would be, the lowest rack
taking the differences.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from ..cards import JOKER, bits, copy_of, face_of
from ..melds import RUN, SET, MeldTable
from ..moves import ARRANGE, Move
from ..rules import Rules
from ..variants.rummikub import arrangement_shapes, round_deltas
from .rummikub import Turn, expert_shapes, placed_faces

if TYPE_CHECKING:
    from ..state import GameState

TURNS = 200
"""Turns a playout plays at most: a whole round's worth (106 tiles, at least one
placed or drawn a turn but for passes), so a playout is cut short only in a long
blocked end."""

J = JOKER
"""A rack's joker count sits at this index of its counts."""

Run = list[int]
"""A run on the light table: ``[colour, lowest number, highest number]`` (0 to 12)."""
Group = list[int]
"""A group: ``[number, mask of its natural colours, jokers]``."""


Rack = list[int]
"""A rack: ``[faces held once or twice, faces held twice, jokers]``, the first two
as masks of faces (bit ``colour * 13 + number - 1``)."""

LOW13 = (1 << 13) - 1


def rack_of(mask: int) -> Rack:
    """The light rack of a rack of tiles (a mask of cards)."""
    one = two = jokers = 0
    for c in bits(mask):
        f = face_of(c)
        if f == JOKER:
            jokers += 1
        elif one >> f & 1:
            two |= 1 << f
        else:
            one |= 1 << f
    return [one, two, jokers]


def take(r: Rack, mask: int) -> None:
    """Remove one tile of each face of ``mask`` (all held) from ``r``."""
    both = mask & r[1]
    r[1] &= ~both
    r[0] &= ~(mask & ~both)


def add(r: Rack, face: int) -> None:
    """Put one tile of ``face`` on ``r``."""
    if face == JOKER:
        r[2] += 1
    elif r[0] >> face & 1:
        r[1] |= 1 << face
    else:
        r[0] |= 1 << face


def tiles(r: Rack) -> int:
    return r[0].bit_count() + r[1].bit_count() + r[2]


class Table:
    """The light table: its runs and groups."""

    __slots__ = ("ext", "groups", "runs")

    def __init__(self, runs: list[Run], groups: list[Group]) -> None:
        self.runs = runs
        self.groups = groups
        self.ext = -1
        """The faces that extend a set (:meth:`extensions`), or -1 once the table
        changed."""

    def extensions(self) -> int:
        """The mask of the faces that extend one of the sets."""
        ext = 0
        for colour, lo, hi in self.runs:
            if lo > 0:
                ext |= 1 << (13 * colour + lo - 1)
            if hi < 12:
                ext |= 1 << (13 * colour + hi + 1)
        for number, mask, jokers in self.groups:
            if mask.bit_count() + jokers < 4:
                for s in range(4):
                    if not mask >> s & 1:
                        ext |= 1 << (13 * s + number)
        return ext

    @classmethod
    def of_shapes(cls, t: MeldTable, shapes: Iterable[int]) -> Table:
        runs: list[Run] = []
        groups: list[Group] = []
        for s in shapes:
            sh = t.shapes[s]
            if sh.kind == RUN:
                runs.append([sh.cells[0] // 13, sh.cells[0] % 13, sh.cells[-1] % 13])
            else:
                mask = jokers = 0
                for i, f in enumerate(sh.cells):
                    if sh.joker_cells >> i & 1:
                        jokers += 1
                    else:
                        mask |= 1 << (f // 13)
                groups.append([sh.cells[0] % 13, mask, jokers])
        return cls(runs, groups)

    def copy(self) -> Table:
        return Table([r[:] for r in self.runs], [g[:] for g in self.groups])


def _segments(x: int) -> Iterable[tuple[int, int]]:
    """The maximal runs of set bits of ``x``: ``(lowest bit, length)``."""
    while x:
        lo = (x & -x).bit_length() - 1
        y = x >> lo
        n = (y ^ (y + 1)).bit_length() - 1
        yield lo, n
        x &= ~(((1 << n) - 1) << lo)


NewSet = tuple[int, int, int, int]
"""A set the playout lays: ``(RUN, colour, lowest, highest)`` or ``(SET, number,
colours mask, jokers)``."""


def _take_runs(r: Rack, sets: list[NewSet]) -> None:
    """Take every maximal run of three or more natural tiles, one copy at a time."""
    found = True
    while found:
        found = False
        one = r[0]
        for colour in range(4):
            x = one >> (13 * colour) & LOW13
            if not x & x >> 1 & x >> 2:
                continue
            for lo, n in _segments(x):
                if n >= 3:
                    take(r, ((1 << n) - 1) << (13 * colour + lo))
                    sets.append((RUN, colour, lo, lo + n - 1))
                    found = True


def _take_groups(r: Rack, sets: list[NewSet]) -> None:
    """Take every group of three or four colours of one number, one copy at a time."""
    while True:
        one = r[0]
        a, b, c, d = (one >> (13 * k) & LOW13 for k in range(4))
        three = (a & b & (c | d)) | (c & d & (a | b))
        if not three:
            return
        for number, _n in _segments(three):
            for k in range(number, number + _n):
                colours = sum(1 << s for s in range(4) if one >> (13 * s + k) & 1)
                take(r, sum(1 << (13 * s + k) for s in range(4) if colours >> s & 1))
                sets.append((SET, k, colours, 0))


def _joker_sets(r: Rack, sets: list[NewSet]) -> None:
    """Each joker completes two thirds of a set: two tiles of a colour one or two
    numbers apart (a run of three), else two colours of a number (a group)."""
    while r[2]:
        one = r[0]
        for colour in range(4):
            x = one >> (13 * colour) & LOW13
            pair = x & x >> 1
            if pair:
                n = (pair & -pair).bit_length() - 1
                lo = n if n + 2 < 13 else n - 1
                take(r, 3 << (13 * colour + n))
                sets.append((RUN, colour, lo, lo + 2))
                break
            gap = x & x >> 2
            if gap:
                n = (gap & -gap).bit_length() - 1
                take(r, 5 << (13 * colour + n))
                sets.append((RUN, colour, n, n + 2))
                break
        else:
            a, b, c, d = (one >> (13 * k) & LOW13 for k in range(4))
            two = (a & (b | c | d)) | (b & (c | d)) | (c & d)
            if not two:
                return
            k = (two & -two).bit_length() - 1
            colours = [s for s in range(4) if one >> (13 * s + k) & 1][:2]
            take(r, sum(1 << (13 * s + k) for s in colours))
            sets.append((SET, k, sum(1 << s for s in colours), 1))
        r[2] -= 1


def _set_points(kind: int, a: int, b: int, d: int) -> int:
    """A new set's value for a first meld (a joker the number it stands for)."""
    if kind == RUN:
        return sum(range(b + 1, d + 2))
    return (b.bit_count() + d) * (a + 1)


def quick_play(r: Rack, table: Table, opened: bool, minimum: int) -> bool:
    """Play what fits from the rack ``r`` onto ``table`` (both changed in place)
    without rearranging; whether anything was placed (if not: draw)."""
    trial = r[:]
    sets: list[NewSet] = []
    _take_runs(trial, sets)
    _take_groups(trial, sets)
    _joker_sets(trial, sets)
    if not opened and (not sets or sum(_set_points(*s) for s in sets) < minimum):
        return False
    r[:] = trial
    if sets:
        table.ext = -1
    for kind, a, b, d in sets:
        if kind == RUN:
            table.runs.append([a, b, d])
        else:
            table.groups.append([a, b, d])
    return _extend(r, table) + len(sets) > 0 if opened else True


def _extend(r: Rack, table: Table) -> int:
    """Add each natural tile of ``r`` that extends a run or group, and the jokers when
    they are all that is left (the rack then goes out); the tiles added."""
    if table.ext < 0:
        table.ext = table.extensions()
    if not r[0] & table.ext and not (r[2] and not r[0]):
        return 0
    added = 0
    grown = True
    while grown:
        grown = False
        for run in table.runs:
            colour, lo, hi = run
            base = 13 * colour
            one = r[0]
            if lo > 0 and one >> (base + lo - 1) & 1:
                take(r, 1 << (base + lo - 1))
                run[1] = lo - 1
                added += 1
                grown = True
            if hi < 12 and one >> (base + hi + 1) & 1:
                take(r, 1 << (base + hi + 1))
                run[2] = hi + 1
                added += 1
                grown = True
        for group in table.groups:
            number, mask, jokers = group
            if mask.bit_count() + jokers >= 4:
                continue
            one = r[0]
            for s in range(4):
                if not mask >> s & 1 and one >> (13 * s + number) & 1:
                    take(r, 1 << (13 * s + number))
                    group[1] = mask = mask | 1 << s
                    added += 1
                    grown = True
                    break
    if added:
        table.ext = -1
    if r[2] and not r[0]:
        for run in table.runs:
            while r[2] and run[2] - run[1] < 12:
                r[2] -= 1
                added += 1
                if run[2] < 12:
                    run[2] += 1
                else:
                    run[1] -= 1
    return added


def rack_value(r: Rack, joker_points: int) -> int:
    """A rack's value at the round's end: its numbers, a joker ``joker_points``."""
    total = r[2] * joker_points
    for mask in (r[0], r[1]):
        for k in range(4):
            x = mask >> (13 * k) & LOW13
            while x:
                low = x & -x
                total += low.bit_length()
                x ^= low
    return total


class Playout:
    """A sampled round's light copy, from which each candidate play is played out."""

    __slots__ = (
        "cards", "current", "jp", "minimum", "old", "opened", "racks", "rules", "stock",
        "stock_cards", "t", "table",
    )  # fmt: skip

    def __init__(
        self,
        t: MeldTable,
        rules: Rules,
        racks: list[int],
        shapes: Iterable[int],
        stock: list[int],
        opened: list[bool],
        current: int,
    ) -> None:
        self.t = t
        self.rules = rules
        self.jp = rules.joker_points
        self.minimum = rules.opening_minimum
        self.cards = list(racks)
        self.racks = [rack_of(r) for r in racks]
        self.old = tuple(shapes)
        self.table = Table.of_shapes(t, self.old)
        self.stock_cards = list(stock)
        self.stock = [face_of(c) for c in stock]
        self.opened = opened[:]
        self.current = current

    @classmethod
    def of_state(cls, s: GameState) -> Playout:
        """The light copy of a (sampled) state, its current player to act."""
        return cls(
            s.game.melds,
            s.rules,
            s.hands,
            [tm.shape for tm in s.table],
            s.stock,
            s.opened,
            s.current,
        )

    def play_move(
        self,
        move: Move,
        horizon: int,
        expert_turns: int = 0,
        stop: Callable[[], bool] | None = None,
    ) -> list[int]:
        """:meth:`play` of a Rummikub move (a play, the draw or the pass)."""
        shapes = arrangement_shapes(move.a, self.t) if move.kind == ARRANGE else None
        if expert_turns:
            return self.play_expert(shapes, horizon, expert_turns, stop)
        return self.play(shapes, horizon)

    def play_expert(
        self,
        shapes: Iterable[int] | None,
        horizon: int,
        expert_turns: int,
        stop: Callable[[], bool] | None = None,
    ) -> list[int]:
        """:meth:`play`, the first ``expert_turns`` turns after the move played by the
        expert's own rule (:func:`~rummykit.bots.rummikub.expert_shapes`: the solver's
        arrangement, which rearranges the table, with its hold-backs) on the sample's
        tiles, the rest by the light players.  The light players place fewer tiles a
        turn than the expert, so a playout of theirs alone lasts longer than the round
        it stands for; the expert's turns play the near future as it is played.
        ``stop`` (the searcher's deadline) cuts the playout short where it is, as at
        its horizon: an expert's turn costs milliseconds."""
        n = len(self.cards)
        t = self.t
        hands = self.cards[:]
        stock = self.stock_cards[:]
        opened = self.opened[:]
        p = self.current
        table = tuple(sorted(self.old))
        passes = 0

        def lay(p: int, new: Iterable[int]) -> None:
            nonlocal table
            new = tuple(sorted(new))
            for face, k in placed_faces(t, table, new).items():
                for _ in range(k):
                    hands[p] &= ~(1 << copy_of(hands[p], face))
            table = new

        if shapes is None:
            if stock:
                hands[p] |= 1 << stock.pop()
            else:
                passes = 1
        else:
            lay(p, shapes)
            opened[p] = True
            if not hands[p]:
                return self._deltas([rack_of(h) for h in hands], p)
        for _ in range(min(expert_turns, horizon)):
            if stop is not None and stop():
                return self._deltas([rack_of(h) for h in hands], None)
            p = (p + 1) % n
            others = tuple(h.bit_count() for q, h in enumerate(hands) if q != p)
            turn = Turn(t, self.rules, table, hands[p], opened[p], others, len(stock), {})
            new = expert_shapes(turn)
            if new is not None and sorted(new) != list(table):
                lay(p, new)
                opened[p] = True
                passes = 0
                if not hands[p]:
                    return self._deltas([rack_of(h) for h in hands], p)
            elif stock:
                hands[p] |= 1 << stock.pop()
            else:
                passes += 1
                if passes >= n:
                    return self._deltas([rack_of(h) for h in hands], None)
        light = [rack_of(h) for h in hands]
        faces = [face_of(c) for c in stock]
        left = horizon - min(expert_turns, horizon)
        return self._play_on(light, Table.of_shapes(t, table), faces, opened, p, passes, left)

    def play(self, shapes: Iterable[int] | None, horizon: int) -> list[int]:
        """Score deltas of the round after the player to act ends the turn with the
        table as ``shapes`` (None: draw or pass), played on for at most ``horizon``
        turns."""
        racks = [r[:] for r in self.racks]
        stock = self.stock[:]
        opened = self.opened[:]
        p = self.current
        passes = 0
        if shapes is None:
            table = self.table.copy()
            if stock:
                add(racks[p], stock.pop())
            else:
                passes = 1
        else:
            shapes = list(shapes)
            table = Table.of_shapes(self.t, shapes)
            r = racks[p]
            for face, k in placed_faces(self.t, self.old, shapes).items():
                for _ in range(k):
                    if face == JOKER:
                        r[2] -= 1
                    else:
                        take(r, 1 << face)
            opened[p] = True
            if not tiles(r):
                return self._deltas(racks, p)
        return self._play_on(racks, table, stock, opened, p, passes, horizon)

    def _play_on(
        self,
        racks: list[Rack],
        table: Table,
        stock: list[int],
        opened: list[bool],
        p: int,
        passes: int,
        horizon: int,
    ) -> list[int]:
        """The light players' turns after player ``p``'s, at most ``horizon`` of them
        (the arguments are changed in place); the round's score deltas."""
        n = len(racks)
        for _ in range(horizon):
            p = (p + 1) % n
            r = racks[p]
            if quick_play(r, table, opened[p], self.minimum):
                opened[p] = True
                passes = 0
                if not tiles(r):
                    return self._deltas(racks, p)
            elif stock:
                add(r, stock.pop())
            else:
                passes += 1
                if passes >= n:
                    break
        return self._deltas(racks, None)

    def _deltas(self, racks: list[Rack], winner: int | None) -> list[int]:
        return round_deltas([rack_value(c, self.jp) for c in racks], winner)[1]

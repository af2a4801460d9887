"""The Rummikub solver: the arrangement of table and rack that places the most tiles.

After J. N. van Rijn, F. W. Takes and J. K. Vis, "The Complexity of Rummikub Problems"
(BNAIC 2015, arXiv:1604.07553): a dynamic programme over the values 1 to 13 whose
state holds, per colour, how long each of the (at most two, one per copy) runs that
reach the current value already is (0, 1, 2, or 3 and more: a run may close only at 0
or 3), with the groups of each value chosen as the value is passed.  The paper's
programme maximises the score of one hand; here it also places every table tile
(a table tile must end in a set) and counts only the rack's tiles in the objective.

Jokers.  The rack's jokers are free: any cell of any run or group.  A joker already on
the table keeps standing for what it stood for (the rule of
:func:`~rummykit.variants.rummikub.play_error`: it moves only when its tile replaces
it), so the programme treats it as a tile of that face that must stay in a run (a
run's joker) or as a wild tile of that number that must stay in a group (a group's
joker).  The solver therefore never frees a table joker: a play that does is legal
(``apply`` accepts it) but is not proposed.

The programme runs value by value and, within a value, colour by colour, so a step
chooses one colour's runs and group tiles: a state is the four colours' run lengths,
the rack jokers used so far, and the group tiles of the value so far (how many
colours give one and how many two).  At the end of a value the groups are formed, or
the state dies.  States are packed into ints and each layer keeps the best score per
state with a back pointer, from which the arrangement is rebuilt as catalogue shapes.

>>> from rummykit.rules import Rules
>>> from rummykit.melds import meld_table
>>> from rummykit.cards import parse_cards, mask_of
>>> t = meld_table(Rules.preset("rummikub"))
>>> rack = mask_of(parse_cards("5H 6H 7H 7C 7S JK 2D"))
>>> sol = solve(t, (), rack)
>>> sol.placed, [t.describe(s) for s in sol.shapes]
(6, ['JK=4H 5H 6H', '7C 7H 7S'])
"""

from __future__ import annotations

import heapq
from collections.abc import Sequence
from functools import cache
from itertools import combinations, combinations_with_replacement
from operator import itemgetter
from typing import NamedTuple

from ..cards import JOKER, bits
from ..melds import RUN, SET, MeldTable

TILES = "tiles"
POINTS = "points"
_BIG = 1000


class Solution(NamedTuple):
    """An arrangement the solver found: its sets' shapes (sorted), the rack tiles it
    places and their value (numbers, a joker ``joker_points``)."""

    shapes: tuple[int, ...]
    placed: int
    value: int


_STOP, _NAT, _PIN, _FREE = 0, 1, 2, 3
_BITS = 6
"""Bits of one colour's run lengths in a packed state (at most 35 multisets)."""
_MASK = (1 << _BITS) - 1
_RUNS = 4 * _BITS
"""Where the rack jokers used (2 bits), then the value's one-tile colours (3 bits) and
two-tile colours (2 bits), start in a packed state."""


@cache
def _slot_sets(k: int) -> tuple[tuple[int, ...], ...]:
    """Every multiset of ``k`` run lengths (0, 1, 2, 3 and more), as sorted tuples.
    A colour has two run slots per value (two copies of a tile), and one more per
    joker in play: three runs may cover one value when a joker is its third tile."""
    return tuple(combinations_with_replacement(range(4), k))  # sorted, in order


@cache
def _slot_index(k: int) -> dict[tuple[int, ...], int]:
    return {p: i for i, p in enumerate(_slot_sets(k))}


@cache
def _short(k: int) -> tuple[int, ...]:
    """Per multiset: its runs of one or two tiles, which must grow at the next value."""
    return tuple(sum(1 for x in p if x in (1, 2)) for p in _slot_sets(k))


@cache
def _empty(k: int) -> tuple[int, ...]:
    """Per multiset: its empty slots (where a run may start)."""
    return tuple(p.count(0) for p in _slot_sets(k))


def _slot_acts(length: int) -> tuple[int, ...]:
    """What a run slot may do at the next value: stop (only empty, or 3 long and
    more), or take that value's tile (natural, pinned table joker, rack joker)."""
    return (_STOP, _NAT, _PIN, _FREE) if length in (0, 3) else (_NAT, _PIN, _FREE)


@cache
def _colour_options(
    k: int, slots: int, naturals: int, pinned: int
) -> tuple[tuple[int, int, int, int, tuple[int, ...]], ...]:
    """A colour's choices for its run slots at one value, given its natural tiles there
    and its table jokers pinned to that face (all must be used): ``(new multiset,
    naturals used, rack jokers used, runs started, act of each slot)``."""
    lengths = _slot_sets(k)[slots]
    index = _slot_index(k)
    out: dict[tuple[int, int, int, int], tuple[int, int, int, int, tuple[int, ...]]] = {}
    combos: list[tuple[int, ...]] = [()]
    for x in lengths:
        combos = [(*c, a) for c in combos for a in _slot_acts(x)]
    for acts in combos:
        nat = acts.count(_NAT)
        if nat > naturals or acts.count(_PIN) != pinned:
            continue
        free = acts.count(_FREE)
        new = tuple(
            sorted(0 if a == _STOP else min(x + 1, 3) for x, a in zip(lengths, acts, strict=True))
        )
        started = sum(1 for x, a in zip(lengths, acts, strict=True) if x == 0 and a != _STOP)
        key = (index[new], nat, free, started)
        if key not in out:
            out[key] = (index[new], nat, free, started, acts)
    return tuple(out.values())


Split = tuple[tuple[tuple[int, ...], int], ...]
"""A value's groups: each as the colours it takes, by index into the colours with two
tiles there and then those with one, and its jokers."""


@cache
def _group_split(ones: int, twos: int, jokers: int) -> Split | None:
    """How the value's group tiles form groups (:data:`Split`), or None if they cannot:
    ``twos`` colours give two tiles, ``ones`` colours one, and ``jokers`` are wild.
    Each group holds distinct colours, a natural tile at least, three or four tiles,
    so a colour's two tiles go to two groups; the fewest groups are used, and more
    than two only when the tiles are too many for two (nine or more: both copies of
    every colour and a joker).

    >>> _group_split(1, 2, 1)  # two colours twice, one once, a joker: two groups of three
    (((0, 1), 1), ((0, 1, 2), 0))
    >>> _group_split(0, 4, 1)  # every colour twice and a joker: nine tiles, three groups
    (((0, 1, 2), 0), ((0, 1, 3), 0), ((2, 3), 1))
    """
    both = tuple(range(twos))
    one = tuple(range(twos, twos + ones))
    if ones == twos == jokers == 0:
        return ()
    if twos == 0 and ones >= 1 and 3 <= ones + jokers <= 4:
        return ((one, jokers),)
    for x in range(ones + 1):
        for ja in range(jokers + 1):
            na, nb = twos + x, twos + ones - x
            jb = jokers - ja
            if na >= 1 and nb >= 1 and 3 <= na + ja <= 4 and 3 <= nb + jb <= 4:
                return ((both + one[:x], ja), (both + one[x:], jb))
    for n in range(3, (2 * twos + ones + jokers) // 3 + 1):
        found = _split_into(n, twos, ones, jokers)
        if found is not None:
            return found
    return None


def _split_into(n: int, twos: int, ones: int, jokers: int) -> Split | None:
    """:func:`_group_split` into exactly ``n`` groups, by trying each colour's groups
    in turn (a handful of colours, so the search is tiny; its answers are cached)."""
    cols: list[list[int]] = [[] for _ in range(n)]

    def jokers_for() -> list[int] | None:
        need = [3 - len(c) for c in cols]
        if any(not c or len(c) > 4 for c in cols) or sum(max(0, k) for k in need) > jokers:
            return None
        given = [max(0, k) for k in need]
        spare = jokers - sum(given)
        for i, c in enumerate(cols):
            more = min(spare, 4 - len(c) - given[i])
            given[i] += more
            spare -= more
        return given if spare == 0 else None

    def place(colour: int) -> Split | None:
        if colour == twos + ones:
            given = jokers_for()
            return None if given is None else tuple(zip(map(tuple, cols), given, strict=True))
        choices = combinations(range(n), 2) if colour < twos else ((g,) for g in range(n))
        for groups in choices:
            for g in groups:
                cols[g].append(colour)
            found = place(colour + 1)
            for g in groups:
                cols[g].pop()
            if found is not None:
                return found
        return None

    return place(0)


def _counts(t: MeldTable, shapes: Sequence[int]) -> tuple[list[int], list[int], list[int]]:
    """Per face, the table's natural tiles and its run jokers pinned there; per number,
    its group jokers."""
    nat = [0] * 52
    pin = [0] * 52
    wild = [0] * 13
    for s in shapes:
        sh = t.shapes[s]
        for i, f in enumerate(sh.cells):
            if not sh.joker_cells >> i & 1:
                nat[f] += 1
            elif sh.kind == RUN:
                pin[f] += 1
            else:
                wild[f % 13] += 1
    return nat, pin, wild


def solve(
    t: MeldTable,
    table: Sequence[int],
    rack: int,
    objective: str = TILES,
    joker_points: int = 30,
    beam: int | None = None,
) -> Solution:
    """The arrangement of the ``table``'s sets (shapes) and tiles of ``rack`` (a mask
    of tiles) that places every table tile and the most rack tiles (``objective``
    ``tiles``: most tiles, then most value; ``points``: most value, then most tiles).
    The table alone is always a solution, so one is always found.

    ``beam``: keep at most this many states per step, the best scores first (the
    programme is then a beam search, fast on a crowded table but not sure to find
    the best play, though what it finds is always a valid arrangement); None
    keeps every state (exact)."""
    tab_nat, pinned, wild = _counts(t, table)
    rack_nat = [0] * 52
    free = 0
    for c in bits(rack):
        f = c % 54
        if f >= JOKER:
            free += 1
        else:
            rack_nat[f] += 1
    by_tiles = objective == TILES
    w_joker = _BIG + joker_points if by_tiles else joker_points * _BIG + 1

    k = 2 + min(2, free + sum(pinned) + sum(wild))
    short_of = _short(k)
    closed = [all(x in (0, 3) for x in p) for p in _slot_sets(k)]
    zero = _slot_index(k)[(0,) * k]
    start = sum(zero << (_BITS * c) for c in range(4))
    used_at, ones_at, twos_at = _RUNS, _RUNS + 2, _RUNS + 5
    runs_mask = (1 << _RUNS) - 1
    layer: dict[int, int] = {start: 0}
    back: list[dict[int, tuple[int, int]]] = []
    for v in range(13):
        gw = wild[v]
        for c in range(4):
            f = c * 13 + v
            tn, rn, pj = tab_nat[f], rack_nat[f], pinned[f]
            avail = tn + rn
            w_nat = _BIG + v + 1 if by_tiles else (v + 1) * _BIG + 1
            # A run may start here only if a natural tile of the colour is here or at
            # one of the next two values (two jokers at most stand in between).
            opens = avail > 0 or any(
                tab_nat[c * 13 + u] + rack_nat[c * 13 + u] for u in range(v + 1, min(v + 3, 13))
            )
            # A run of one or two tiles must grow at the next value.
            ahead = tab_nat[f + 1] + rack_nat[f + 1] + pinned[f + 1] if v < 12 else -5
            later = sum(1 for d in range(c + 1, 4) if tab_nat[d * 13 + v] + rack_nat[d * 13 + v])
            shift = _BITS * c
            keep = runs_mask & ~(_MASK << shift)
            nxt: dict[int, int] = {}
            ptr: dict[int, tuple[int, int]] = {}
            # Per run-slot multiset, its options here that may start a run, with the
            # group tile counts each leaves room for (every table tile placed).
            step: dict[int, list[tuple[int, int, int, int, int, range]]] = {}
            for state, score in layer.items():
                slots = state >> shift & _MASK
                opts = step.get(slots)
                if opts is None:
                    opts = step[slots] = [
                        (
                            i,
                            new,
                            nat,
                            fj,
                            short_of[new],
                            range(max(0, tn - nat), min(2, avail - nat) + 1),
                        )
                        for i, (new, nat, fj, started, _acts) in enumerate(
                            _colour_options(k, slots, avail, pj)
                        )
                        if opens or not started
                    ]
                used = state >> used_at & 3
                ones = state >> ones_at & 7
                twos = state >> twos_at & 7
                base_state = state & keep
                for i, new, nat, fj, short, groups in opts:
                    jokers_left = free - used - fj
                    if jokers_left < 0 or (short and short > ahead + jokers_left):
                        continue
                    for g in groups:
                        placed = nat + g - tn
                        o, w = ones, twos
                        if g == 1:
                            o += 1
                        elif g == 2:
                            w += 1
                        if (o or w or gw) and o + w + later + jokers_left + gw < 3:
                            continue  # too few tiles left at this value to make its group
                        ns = (
                            base_state | new << shift | (used + fj) << used_at
                            | o << ones_at | w << twos_at
                        )  # fmt: skip
                        sc = score + placed * w_nat + fj * w_joker
                        if nxt.get(ns, -1) < sc:
                            nxt[ns] = sc
                            ptr[ns] = (state, i * 3 + g)
            if beam is not None and len(nxt) > beam:
                nxt = dict(heapq.nlargest(beam, nxt.items(), key=itemgetter(1)))
            back.append(ptr)
            layer = nxt
        # the value's groups
        nxt = {}
        ptr = {}
        for state, score in layer.items():
            used = state >> used_at & 3
            ones = state >> ones_at & 7
            twos = state >> twos_at & 7
            base_state = state & runs_mask
            for fg in range(free - used + 1):
                if _group_split(ones, twos, gw + fg) is None:
                    continue
                ns = base_state | (used + fg) << used_at
                sc = score + fg * w_joker
                if nxt.get(ns, -1) < sc:
                    nxt[ns] = sc
                    ptr[ns] = (state, fg)
        # A state that used more rack jokers for no more score is dominated.
        best_by_runs: dict[int, int] = {}
        for ns in sorted(nxt, key=lambda x: x >> used_at):
            sc = nxt[ns]
            seen = best_by_runs.get(ns & runs_mask)
            if seen is not None and seen >= sc:
                del nxt[ns]
                del ptr[ns]
            else:
                best_by_runs[ns & runs_mask] = sc
        back.append(ptr)
        layer = nxt
    best_state, best = -1, -1
    for state, score in layer.items():
        if score > best and all(closed[state >> (_BITS * c) & _MASK] for c in range(4)):
            best_state, best = state, score
    assert best_state >= 0, "the table itself is an arrangement"
    return _rebuild(t, k, back, best_state, tab_nat, rack_nat, pinned, wild, joker_points)


def _rebuild(
    t: MeldTable,
    k: int,
    back: list[dict[int, tuple[int, int]]],
    state: int,
    tab_nat: list[int],
    rack_nat: list[int],
    pinned: list[int],
    wild: list[int],
    joker_points: int,
) -> Solution:
    """The arrangement the back pointers lead to, as shapes."""
    choices: list[tuple[int, int]] = []  # per step: (pre-state, choice), first step first
    for ptr in reversed(back):
        prev, choice = ptr[state]
        choices.append((prev, choice))
        state = prev
    choices.reverse()
    slots: list[list[list[tuple[int, bool]]]] = [[[] for _ in range(k)] for _ in range(4)]
    shapes: list[int] = []
    placed = value = 0
    step = 0
    for v in range(13):
        group_tiles: list[tuple[int, int]] = []  # (colour, tiles given to groups)
        for c in range(4):
            pre, choice = choices[step]
            step += 1
            f = c * 13 + v
            i, g = divmod(choice, 3)
            _new, nat, fj, _started, acts = _colour_options(
                k, pre >> (_BITS * c) & _MASK, tab_nat[f] + rack_nat[f], pinned[f]
            )[i]
            runs = sorted(slots[c], key=lambda r: min(len(r), 3))
            for run, act in zip(runs, acts, strict=True):
                if act == _STOP:
                    if run:
                        shapes.append(_run_shape(t, c, run))
                        run.clear()
                else:
                    run.append((f, act != _NAT))
            slots[c] = runs
            n_placed = nat + g - tab_nat[f]
            placed += n_placed + fj
            value += n_placed * (v + 1) + fj * joker_points
            if g:
                group_tiles.append((c, g))
        _pre, fg = choices[step]
        step += 1
        placed += fg
        value += fg * joker_points
        jokers = wild[v] + fg
        ones = [c for c, g in group_tiles if g == 1]
        twos = [c for c, g in group_tiles if g == 2]
        split = _group_split(len(ones), len(twos), jokers)
        assert split is not None
        colours = twos + ones
        for taken, j in split:
            shapes.append(_group_shape(t, v, [colours[i] for i in taken], j))
    for c in range(4):
        for run in slots[c]:
            if run:
                shapes.append(_run_shape(t, c, run))
    return Solution(tuple(sorted(shapes)), placed, value)


def _run_shape(t: MeldTable, colour: int, run: list[tuple[int, bool]]) -> int:
    faces = tuple(f for f, _j in run)
    jm = sum(1 << i for i, (_f, j) in enumerate(run) if j)
    shape = t.find(RUN, colour, faces, jm)
    assert shape >= 0, (faces, jm)
    return shape


def _group_shape(t: MeldTable, number: int, colours: list[int], jokers: int) -> int:
    """A group of ``colours`` and ``jokers`` jokers standing for its lowest missing
    colours (the one way an arrangement writes it)."""
    missing = [s for s in range(4) if s not in colours][:jokers]
    pairs = sorted([(s, False) for s in colours] + [(s, True) for s in missing])
    cells = tuple(s * 13 + number for s, _j in pairs)
    jm = sum(1 << i for i, (_s, j) in enumerate(pairs) if j)
    shape = t.find(SET, number, cells, jm)
    assert shape >= 0, (cells, jm)
    return shape

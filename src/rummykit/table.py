"""Melds on the table, and the ways a turn may change them.

A :class:`TableMeld` is a placed meld: its owner, its current shape (an index into
:class:`~rummykit.melds.MeldTable`) and the physical card in each cell.  Jokers keep
the cell they were placed in, so each stands for one fixed card.  Every change (lay
off, swap, take) builds a new shape and looks it up in the catalogue, so "is this
still a valid meld?" has one answer everywhere: the shape exists.
"""

from __future__ import annotations

from typing import NamedTuple

from .cards import is_joker, make_face
from .melds import ACE_HIGH, RUN, MeldTable, pos_rank
from .moves import cell_code


class TableMeld(NamedTuple):
    owner: int
    shape: int
    cards: tuple[int, ...]


def layoff_cells(t: MeldTable, tm: TableMeld) -> list[tuple[int, int, int]]:
    """Cells a card could be added to: ``(cell code, represented face, insert index)``.

    Runs grow at either end (seed 000: "add a 2 of spades to the beginning or a 6 of
    spades to the end"); sets take a missing suit.  Whether the grown meld is valid
    (joker limit, ace rules, set size) is left to the catalogue lookup.
    """
    s = t.shapes[tm.shape]
    out: list[tuple[int, int, int]] = []
    if s.kind == RUN:
        suit = s.key
        lo, hi = s.positions[0], s.positions[-1]
        if lo > 0:
            out.append((cell_code(suit, lo - 1), make_face(suit, lo - 1), 0))
        top = ACE_HIGH if t.high_ace else 12
        if hi < top:
            p = hi + 1
            out.append((cell_code(suit, p), make_face(suit, pos_rank(p)), len(s.cells)))
    else:
        rank = s.key
        for suit in range(4):
            out.append((cell_code(suit, rank), make_face(suit, rank), -1))
    return out


class LayoffOption(NamedTuple):
    """One way to grow a shape: the cell code, the represented face, and the shapes
    after adding a natural card or a joker there (-1 where that is not a meld)."""

    code: int
    face: int
    natural_shape: int
    joker_shape: int
    at: int
    """Where the card goes in the grown meld's cells."""


def layoff_options(t: MeldTable, shape: int) -> tuple[LayoffOption, ...]:
    """Every lay-off a shape allows, memoised on the catalogue (a hot path)."""
    cache = t.layoff_cache
    opts = cache.get(shape)
    if opts is None:
        probe = TableMeld(-1, shape, ())
        found: list[LayoffOption] = []
        for code, face, index in layoff_cells(t, probe):
            nat, at = grown_shape(t, probe, face, index, False)
            jok, at_j = grown_shape(t, probe, face, index, True)
            if nat >= 0 or jok >= 0:
                found.append(LayoffOption(code, face, nat, jok, at if nat >= 0 else at_j))
        opts = tuple(found)
        cache[shape] = opts
    return opts


def grown_shape(t: MeldTable, tm: TableMeld, face: int, index: int, joker: bool) -> tuple[int, int]:
    """The shape after adding ``face`` (as a natural or a joker) at ``index``.

    Returns ``(shape index or -1, insert index)``; sets insert in suit order, naturals
    before jokers of the same suit.
    """
    s = t.shapes[tm.shape]
    cells = list(s.cells)
    flags = [bool(s.joker_cells >> i & 1) for i in range(len(cells))]
    if index < 0:
        index = 0
        while index < len(cells) and (
            cells[index] < face or (cells[index] == face and (joker or not flags[index]))
        ):
            index += 1
    cells.insert(index, face)
    flags.insert(index, joker)
    jm = sum(1 << i for i, f in enumerate(flags) if f)
    return t.find(s.kind, s.key, tuple(cells), jm), index


def shrunk_shape(t: MeldTable, tm: TableMeld, index: int) -> int:
    """The shape after removing the card at ``index``, or -1 if that is not a meld.

    Only an end card of a run can go: taking from the middle would leave two pieces
    (RULES-NOTES 9: "what remains is still a valid meld").
    """
    s = t.shapes[tm.shape]
    if s.kind == RUN and index not in (0, len(s.cells) - 1):
        return -1
    cells = s.cells[:index] + s.cells[index + 1 :]
    jm = 0
    j = 0
    for i in range(len(s.cells)):
        if i == index:
            continue
        if s.joker_cells >> i & 1:
            jm |= 1 << j
        j += 1
    return t.find(s.kind, s.key, cells, jm)


def joker_cells(t: MeldTable, tm: TableMeld) -> list[tuple[int, int]]:
    """``(cell index, represented face)`` of every joker in the meld."""
    s = t.shapes[tm.shape]
    return [(i, s.cells[i]) for i in range(len(s.cells)) if is_joker(tm.cards[i])]


def joker_swaps(t: MeldTable, tm: TableMeld, both_suits: bool) -> list[tuple[int, int, int]]:
    """``(cell index, face it stands for, second face or -1)`` of every joker a swap may
    release: by the card it stands for, and under ``both_suits`` (Kalooki) with the
    set's other missing suit too when the set has three cards and one joker; a set of
    four holding a joker is closed (equal-chance.co.uk, "Kalooki": "By adding just one
    card of one missing suit, a closed 4 card set is formed, from which the Joker may
    never be released").  A set of three with two jokers releases one for the card it
    stands for, leaving a set of three with one joker."""
    cells = joker_cells(t, tm)
    s = t.shapes[tm.shape]
    if not both_suits or s.kind == RUN or not cells:
        return [(i, f, -1) for i, f in cells]
    if len(s.cells) > 3:
        return []
    if len(cells) == 1:
        ((i, f),) = cells
        other = next(make_face(x, s.key) for x in range(4) if make_face(x, s.key) not in s.cells)
        return [(i, f, other)]
    return [(i, f, -1) for i, f in cells]


def joker_to_end(t: MeldTable, tm: TableMeld) -> list[tuple[int, int, int, int]]:
    """``(cell index, face it stands for, grown shape, new joker index)`` for every joker
    inside a run (not at an end) that the card it stands for may replace, the joker
    moving to an end (Parlett's Contract Rummy, ``joker_to_end``): to the high end, or
    the low end when the run cannot grow upward (it ends at the top, or the catalogue
    has no such run)."""
    s = t.shapes[tm.shape]
    if s.kind != RUN:
        return []
    out = []
    last = len(s.cells) - 1
    for idx, face in joker_cells(t, tm):
        if idx in (0, last):
            continue
        jm = s.joker_cells & ~(1 << idx)
        for _code, end_face, at in layoff_cells(t, tm)[::-1]:  # the high end first
            cells = list(s.cells)
            cells.insert(at, end_face)
            grown_jm = (jm << 1 if at == 0 else jm) | 1 << at
            shape = t.find(RUN, s.key, tuple(cells), grown_jm)
            if shape >= 0:
                out.append((idx, face, shape, at))
                break
    return out


def cell_index(t: MeldTable, tm: TableMeld, code: int) -> int:
    """The index of the cell with this code, or -1."""
    s = t.shapes[tm.shape]
    for i, face in enumerate(s.cells):
        pos = s.positions[i]
        if cell_code(face // 13, pos) == code:
            return i
    return -1

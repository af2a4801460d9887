"""Meld shapes: every meld the rules allow, numbered once, found in a hand fast.

A *shape* is a meld described by faces, not physical cards: "hearts run from 5 to 8
with a joker standing for the 7", or "set of kings: clubs, hearts, joker as spades".
:class:`MeldTable` enumerates every shape the rules allow, in a fixed order, so a
shape's index is a stable action number.  Finding the shapes a hand can make is the
hot path of move generation, so it works on bitmasks:

* runs live inside one suit, so the hand's 13-bit suit mask (plus a 14th bit for a
  high ace) indexes a memo of the runs it contains;
* sets live inside one rank, so only ranks with enough cards (jokers included) are
  looked at.

Positions in a run are 0..12 for ace..king and 13 for an ace played high.

>>> from rummykit.rules import Rules
>>> from rummykit.cards import parse_cards, mask_of
>>> t = MeldTable(Rules.preset("basic"))
>>> len(t.shapes)
329
>>> hand = HandCounts.of(mask_of(parse_cards("3H 4H 5H 6H 9S 9C 9D")))
>>> [t.describe(i) for i in t.shapes_in(hand)]
['3H 4H 5H', '3H 4H 5H 6H', '4H 5H 6H', '9C 9D 9S']
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from itertools import combinations, product
from typing import Any, NamedTuple

from .cards import FACES_PER_DECK, format_face, make_face
from .rules import Ace, Rules, SetSuits

RUN = 0
SET = 1
ACE_HIGH = 13
"""Run position of an ace played above the king."""

SUIT_BITS = 0x1FFF


def pos_rank(pos: int) -> int:
    return 0 if pos == ACE_HIGH else pos


def meld_value(kind: int, pos_or_rank: int) -> int:
    """A card's value inside a meld, used for the opening minimum (seed 003).

    An ace counts 1 before a two, 11 after a king or in a set; faces count 10.

    >>> meld_value(RUN, 0), meld_value(RUN, 13), meld_value(SET, 0), meld_value(RUN, 11)
    (1, 11, 11, 10)
    """
    if kind == RUN:
        if pos_or_rank == 0:
            return 1
        if pos_or_rank == ACE_HIGH:
            return 11
    elif pos_or_rank == 0:
        return 11
    return 10 if pos_or_rank >= 9 else pos_or_rank + 1


class Shape(NamedTuple):
    """One meld by faces.  ``cells`` are the represented faces in order (runs low to
    high, sets by suit); ``joker_cells`` is a bitmask of the cells filled by jokers.

    ``positions`` are run positions (0..13) for runs and the rank for every cell of a set.
    """

    kind: int
    key: int
    """The suit of a run, the rank of a set."""
    positions: tuple[int, ...]
    cells: tuple[int, ...]
    joker_cells: int
    naturals: tuple[int, ...]
    """The natural faces needed, sorted, repeated for a face needed twice."""
    njokers: int
    points: int


class HandCounts(NamedTuple):
    """What meld search needs of a hand: the faces held once or more, twice or more and
    three times (:data:`~rummykit.cards.MAX_DECKS` decks), and the number of jokers."""

    have1: int
    have2: int
    have3: int
    jokers: int

    @staticmethod
    def of(mask: int) -> HandCounts:
        first = mask & _DECK
        second = mask >> FACES_PER_DECK & _DECK
        third = mask >> 2 * FACES_PER_DECK
        jokers = (first >> 52).bit_count() + (second >> 52).bit_count()
        faces1 = first & _FACES
        faces2 = second & _FACES
        if not third:  # (one or two decks)
            return HandCounts(faces1 | faces2, faces1 & faces2, 0, jokers)
        faces3 = third & _FACES
        return HandCounts(
            faces1 | faces2 | faces3,
            faces1 & faces2 | faces3 & (faces1 | faces2),
            faces1 & faces2 & faces3,
            jokers + (third >> 52).bit_count(),
        )


_DECK = (1 << FACES_PER_DECK) - 1
_FACES = (1 << 52) - 1


class MeldTable:
    """Every meld shape the rules allow, with fast lookup from a hand.

    Built once per rules object and shared by every state of a match (clones too).
    """

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        """The rules it was built for; only the fields of :func:`shape_key` shape it."""
        self.longest = rules.max_meld_size or 14
        self.k = rules.jokers_per_meld if rules.jokers else 0
        self.high_ace = rules.ace is not Ace.LOW
        """An ace may be played above the king (position 13)."""
        self.low_ace = rules.ace is not Ace.HIGH
        """An ace may be played below the two (position 0)."""
        self.any_suits = rules.set_suits is SetSuits.ANY
        self.copies = rules.decks
        self.shapes: list[Shape] = []
        self.index: dict[tuple[int, int, tuple[int, ...], int], int] = {}
        # runs: identical local structure per suit
        self._run_windows: list[tuple[int, int, list[tuple[int, int]]]] = []
        local_runs: list[tuple[int, int, int]] = []  # (lo, hi, joker position mask)
        top = ACE_HIGH if self.high_ace else 12
        for lo in range(0 if self.low_ace else 1, top + 1):
            for hi in range(lo + rules.min_run - 1, top + 1):
                if lo == 0 and hi == ACE_HIGH:
                    continue  # seed 003: an ace is never high and low in one meld
                window = list(range(lo, hi + 1))
                entries: list[tuple[int, int]] = []
                for nj in range(min(self.k, len(window) - 1) + 1):
                    for js in combinations(window, nj):
                        jm = sum(1 << p for p in js)
                        entries.append((len(local_runs), jm))
                        local_runs.append((lo, hi, jm))
                wmask = sum(1 << p for p in window)
                self._run_windows.append((wmask, lo, entries))
        self.runs_per_suit = len(local_runs)
        for suit in range(4):
            for lo, hi, jm in local_runs:
                positions = tuple(range(lo, hi + 1))
                self._add(RUN, suit, positions, jm >> lo)  # position bits -> cell bits
        self.set_base = len(self.shapes)
        # sets: natural suit multiset + joker suit multiset per rank
        local_sets: list[tuple[tuple[int, ...], tuple[int, ...]]] = []
        seen_sets: set[tuple[tuple[int, ...], tuple[int, ...]]] = set()
        max_copy = self.copies if self.any_suits else 1
        for counts in product(range(max_copy + 1), repeat=4):
            size = sum(counts)
            if not 3 <= size <= 4 * max_copy:
                continue
            suits = tuple(s for s in range(4) for _ in range(counts[s]))
            for nj in range(min(self.k, size - 1) + 1):
                for jidx in sorted(set(combinations(range(size), nj))):
                    jsuits = tuple(suits[i] for i in jidx)
                    natural = list(suits)
                    for s in jsuits:
                        natural.remove(s)
                    key = (tuple(natural), jsuits)
                    if key not in seen_sets:
                        seen_sets.add(key)
                        local_sets.append(key)
        self.sets_per_rank = len(local_sets)
        self._local_sets = local_sets
        for rank in range(13):
            for nat, js in local_sets:
                suits = tuple(sorted(nat + js))
                jm = 0
                remaining = list(js)
                for i, s in enumerate(suits):
                    if s in remaining:
                        # fill jokers into the last cells of each suit
                        later = suits[i + 1 :].count(s)
                        if later < remaining.count(s):
                            jm |= 1 << i
                            remaining.remove(s)
                self._add(SET, rank, suits, jm)
        self._run_memo: dict[int, tuple[tuple[int, int], ...]] = {}
        self.layoff_cache: dict[int, tuple[Any, ...]] = {}
        """Per shape, the ways it can grow (filled by :func:`rummykit.table.layoff_options`)."""
        self._set_memo: dict[tuple[int, ...], tuple[tuple[int, int], ...]] = {}
        self._natural_masks: list[int] | None = None
        """Per shape, its natural faces as a mask (:meth:`opening_reaches`; built on first use)."""
        self._opening_memo: dict[tuple[int, ...], int] = {}
        self._opening_left = 0

    def _add(self, kind: int, key: int, positions: tuple[int, ...], jm: int) -> None:
        if kind == RUN:
            cells = tuple(make_face(key, pos_rank(p)) for p in positions)
            points = sum(meld_value(RUN, p) for p in positions)
            shape_positions = positions
        else:
            cells = tuple(make_face(s, key) for s in positions)  # positions = suits here
            points = meld_value(SET, key) * len(positions)
            shape_positions = (key,) * len(positions)
        naturals = tuple(sorted(c for i, c in enumerate(cells) if not jm >> i & 1))
        shape = Shape(kind, key, shape_positions, cells, jm, naturals, jm.bit_count(), points)
        self.index[(kind, key, cells, jm)] = len(self.shapes)
        self.shapes.append(shape)

    # -- lookup -----------------------------------------------------------------------
    def find(self, kind: int, key: int, cells: tuple[int, ...], joker_cells: int) -> int:
        """The index of a shape, or -1."""
        return self.index.get((kind, key, cells, joker_cells), -1)

    def _runs_for(self, m: int) -> tuple[tuple[int, int], ...]:
        """(local run index, jokers needed) for every run a 14-bit suit mask allows."""
        out: list[tuple[int, int]] = []
        k = self.k
        longest = self.longest
        for wmask, _lo, entries in self._run_windows:
            if wmask.bit_count() > longest:
                continue  # may grow that long by lay-offs, but not be laid at once
            holes = wmask & ~m
            if holes.bit_count() > k:
                continue
            for local, jm in entries:
                if holes & ~jm == 0:
                    out.append((local, jm.bit_count()))
        res = tuple(out)
        self._run_memo[m] = res
        return res

    def _sets_for(self, counts: tuple[int, ...]) -> tuple[tuple[int, int], ...]:
        out: list[tuple[int, int]] = []
        for local, (nat, js) in enumerate(self._local_sets):
            if all(nat.count(s) <= counts[s] for s in range(4)):
                out.append((local, len(js)))
        res = tuple(out)
        self._set_memo[counts] = res
        return res

    def opening_reaches(self, hand: HandCounts, target: int) -> bool:
        """Whether melds of ``hand``, laid together (no card in two melds), can total
        ``target`` points (:func:`meld_value`).  The opening search
        (``GameState.finishable``) stops a branch whose opening cannot reach the
        minimum by this, without laying a meld.

        >>> from rummykit.rules import Rules
        >>> from rummykit.cards import parse_cards, mask_of
        >>> t = MeldTable(Rules.preset("rami51"))
        >>> hand = HandCounts.of(mask_of(parse_cards("KS KH KD QS JS 2C 9H")))
        >>> t.opening_reaches(hand, 30), t.opening_reaches(hand, 31)
        (True, False)
        """
        if target <= 0:
            return True
        self._opening_left = OPENING_NODES
        try:
            return self._opening_best(hand, target) >= target
        except _OutOfNodes:
            return True  # not shown out of reach: the caller's own search decides

    def _opening_best(self, hand: HandCounts, target: int) -> int:
        """The most points melds of ``hand`` can total if that is under ``target``;
        otherwise some total of at least ``target`` (the search stops there).

        A packing search over the hand's counts: its lowest meldable card is laid in
        one of the shapes that hold it, or left out.  Exact results are remembered
        across calls (the same sub-hands recur within a turn's search and across a
        search's samples), up to :data:`OPENING_MEMO` of them."""
        memo = self._opening_memo
        got = memo.get(hand)
        if got is not None:
            return got
        self._opening_left -= 1
        if self._opening_left < 0:
            raise _OutOfNodes
        masks = self._natural_masks
        if masks is None:
            masks = self._natural_masks = [
                sum(1 << f for f in set(s.naturals)) for s in self.shapes
            ]
        found = self.shapes_in(hand)
        union = 0
        for i in found:
            union |= masks[i]
        best = 0
        if found:
            low = union & -union
            shapes = self.shapes
            for i in found:
                if masks[i] & low or not masks[i]:
                    sh = shapes[i]
                    got = sh.points + self._opening_best(_without(hand, sh), target - sh.points)
                    if got > best:
                        best = got
                        if best >= target:
                            return best  # a lower bound only: not remembered
            if low:
                got = self._opening_best(_without_face(hand, low), target)
                if got > best:
                    best = got
                    if best >= target:
                        return best
        if len(memo) >= OPENING_MEMO:
            memo.clear()
        memo[tuple(hand)] = best  # a plain tuple of ints: out of the collector's sight
        return best

    def shapes_in(self, hand: HandCounts) -> list[int]:
        """Indices of every shape the hand can lay down, in index order."""
        have1, have2, have3, nj = hand
        out: list[int] = []
        per = self.runs_per_suit
        high = self.high_ace
        memo = self._run_memo
        for suit in range(4):
            m = (have1 >> (13 * suit)) & SUIT_BITS
            if not m:
                continue
            if high and m & 1:
                m |= 1 << ACE_HIGH
            entries = memo.get(m)
            if entries is None:
                entries = self._runs_for(m)
            base = suit * per
            for local, need in entries:
                if need <= nj:
                    out.append(base + local)
        jmin = min(nj, self.k)
        smemo = self._set_memo
        sbase = self.set_base
        sper = self.sets_per_rank
        for rank in range(13):
            c0 = have1 >> rank & 1
            c1 = have1 >> (rank + 13) & 1
            c2 = have1 >> (rank + 26) & 1
            c3 = have1 >> (rank + 39) & 1
            if self.any_suits:
                c0 += (have2 >> rank & 1) + (have3 >> rank & 1)
                c1 += (have2 >> (rank + 13) & 1) + (have3 >> (rank + 13) & 1)
                c2 += (have2 >> (rank + 26) & 1) + (have3 >> (rank + 26) & 1)
                c3 += (have2 >> (rank + 39) & 1) + (have3 >> (rank + 39) & 1)
            if c0 + c1 + c2 + c3 + jmin < 3:
                continue
            key = (c0, c1, c2, c3)
            sentries = smemo.get(key)
            if sentries is None:
                sentries = self._sets_for(key)
            base = sbase + rank * sper
            for local, need in sentries:
                if need <= nj:
                    out.append(base + local)
        return out

    def shapes_in_mask(self, mask: int) -> list[int]:
        """:meth:`shapes_in` for a hand given as a bitmask of physical cards."""
        return self.shapes_in(HandCounts.of(mask))

    def describe(self, index: int) -> str:
        """The shape in card notation; jokers as ``JK=7H``."""
        s = self.shapes[index]
        return " ".join(
            ("JK=" + format_face(c)) if s.joker_cells >> i & 1 else format_face(c)
            for i, c in enumerate(s.cells)
        )


def shape_key(rules: Rules) -> tuple[int, Ace, bool, int, int, int]:
    """The options a :class:`MeldTable` depends on: jokers a meld may hold, where an
    ace may go (below the two, above the king or both), sets of any suits, decks, the
    shortest run and the longest meld laid at once.  Rule sets that differ only
    elsewhere (points, scoring, turns) share one table."""
    return (
        rules.jokers_per_meld if rules.jokers else 0,
        rules.ace,
        rules.set_suits is SetSuits.ANY,
        rules.decks,
        rules.min_run,
        rules.max_meld_size or 14,
    )


MELD_TABLES = 16
"""Catalogues :func:`meld_table` keeps by default (:func:`keep_meld_tables`)."""

_tables: OrderedDict[tuple[int, Ace, bool, int, int, int], MeldTable] = OrderedDict()
_tables_cap = [MELD_TABLES]
_tables_lock = threading.Lock()


def keep_meld_tables(count: int) -> None:
    """Keep at most ``count`` catalogues (least recently used forgotten first): one
    of three decks and two jokers a meld holds about 20 MB.  A match holds on to its
    own through its :class:`~rummykit.game.Game` as long as it lives."""
    with _tables_lock:
        _tables_cap[0] = max(1, count)
        while len(_tables) > _tables_cap[0]:
            _tables.popitem(last=False)


def meld_table_built(rules: Rules) -> bool:
    """Whether :func:`meld_table` has ``rules``' catalogue at hand (no build needed)."""
    with _tables_lock:
        return shape_key(rules) in _tables


def meld_table(rules: Rules) -> MeldTable:
    """The shared catalogue for a rules object.

    A catalogue is a pure function of :func:`shape_key`; its memos only ever add
    entries that any other caller would compute the same way, so sharing it between
    matches changes no result and saves rebuilding it (10 ms for Rami, half a second
    for three decks) for every new match.  Safe to call from several threads: two
    first calls may both build it, and one is kept.
    """
    key = shape_key(rules)
    with _tables_lock:
        table = _tables.get(key)
        if table is not None:
            _tables.move_to_end(key)
            return table
    table = MeldTable(rules)
    with _tables_lock:
        table = _tables.setdefault(key, table)
        _tables.move_to_end(key)
        while len(_tables) > _tables_cap[0]:
            _tables.popitem(last=False)
    return table


OPENING_MEMO = 1 << 14
"""Sub-hands :meth:`MeldTable.opening_reaches` remembers per catalogue before it starts
again (about 3 MB)."""


OPENING_NODES = 20_000
"""Sub-hands one :meth:`MeldTable.opening_reaches` question may search (a few tens of
milliseconds): a long hand (500 Rum's deep draws under an opening minimum) would
otherwise take minutes, and past it the answer is "not shown out of reach"."""


class _OutOfNodes(Exception):
    """:data:`OPENING_NODES` spent (only exact answers are remembered)."""


def _without_face(hand: HandCounts, bit: int) -> HandCounts:
    """``hand`` less one copy of the face whose bit is ``bit``."""
    have1, have2, have3, jokers = hand
    if have3 & bit:
        return HandCounts(have1, have2, have3 ^ bit, jokers)
    if have2 & bit:
        return HandCounts(have1, have2 ^ bit, have3, jokers)
    return HandCounts(have1 ^ bit, have2, have3, jokers)


def _without(hand: HandCounts, shape: Shape) -> HandCounts:
    """``hand`` less the cards of ``shape`` (held: the shape is one of the hand's)."""
    for face in shape.naturals:
        hand = _without_face(hand, 1 << face)
    return HandCounts(hand.have1, hand.have2, hand.have3, hand.jokers - shape.njokers)

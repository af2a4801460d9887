"""The exact meld solver: the arrangement of a hand that leaves the least deadwood.

Deadwood is the value of the cards left out of melds, counted as the rules count a
hand at the end of a round (:func:`rummykit.scoring.card_value`).

Two algorithms, one answer:

* **one deck, no jokers** (Basic Rummy, Gin): runs live inside one suit, so the
  least deadwood a suit's 13-bit mask leaves with runs alone comes from a table
  built once; sets live inside one rank, so only ranks holding three or more cards
  need branching (keep none, one of the 3-card sets, or all four).  A typical
  10-card hand costs four table lookups.
* **anything else** (two or three decks, jokers): a depth-first search that takes the
  lowest natural card left and either leaves it as deadwood or puts it in one of the
  melds the hand can make whose lowest card it is, memoised on the rest of the hand
  (kept as face-count bit planes, :func:`_remove`).

The general search is exponential in the hand's size: a 60-card 500 Rum hand (deep
draws) or a 52-card hand of three decks takes millions of nodes.  Every search is
therefore bounded by construction: past :data:`BUDGET` units of work (a unit is one
meld tried at one node) it gives up and completes the arrangement greedily
(:meth:`Solver._fallback`), an upper bound on the least deadwood that the
:class:`Arrangement` marks ``exact=False``.  Hands of the presets' sizes stay far
below the budget and get the exact answer.

>>> from rummykit.rules import Rules
>>> from rummykit.cards import parse_cards, mask_of
>>> s = Solver(Rules.preset("basic"))
>>> s.deadwood(mask_of(parse_cards("AH 2H 3H 4H 7S 7D 7C 9C KD QS")))
29
>>> a = s.arrange(mask_of(parse_cards("AH 2H 3H 4H 7S 7D 7C 9C KD QS")))
>>> [s.melds.describe(i) for i in a.shapes], a.deadwood
(['7C 7D 7S', 'AH 2H 3H 4H'], 29)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

from .cards import face_of
from .melds import ACE_HIGH, RUN, HandCounts, MeldTable, meld_table
from .rules import Family, Rules, SetSuits
from .scoring import card_value

SUIT = 0x1FFF

SET_CHOICES: tuple[tuple[int, ...], ...] = tuple(
    tuple(sub for sub in range(16) if sub & ~held == 0 and sub.bit_count() >= 3)
    for held in range(16)
)
"""For each 4-bit mask of the suits holding a rank, the sets (as suit masks) it allows."""


@dataclass(frozen=True)
class Arrangement:
    """A best arrangement: melds (shape indices), the deadwood cards and their value."""

    shapes: tuple[int, ...]
    deadwood_faces: tuple[int, ...]
    deadwood: int
    exact: bool = True
    """False when the search ran out of budget: then ``deadwood`` is an upper bound."""


BUDGET = 2_000_000
"""Units of work (a meld tried at a search node) one search may spend by default:
about a second in the worst shapes measured (three decks, two jokers a meld), while a
13-card Rami hand needs a few thousand."""


LARGE_HAND = 24
"""Cards past which a hand's search gets only :data:`LARGE_BUDGET`: no deal of the
presets is this long, only deep draws and house rules make one, and a bot asks
about such a hand once per card it could discard."""

LARGE_BUDGET = 20_000
"""Units of work one search of a hand of more than :data:`LARGE_HAND` cards may spend
(tens of milliseconds)."""


class OutOfBudget(Exception):
    """Raised inside the general search when its allowance is spent."""


class Solver:
    """An exact minimum-deadwood solver for one rules object.

    Its meld catalogue is ``melds`` if given, else the one :func:`meld_table` shares
    among all the rule sets with the same melds: three decks' catalogue takes more than
    half a second to build, the rest of a solver some 30 ms."""

    def __init__(self, rules: Rules, melds: MeldTable | None = None, budget: int = BUDGET) -> None:
        self.rules = rules
        self.budget = budget
        """Units of work each :attr:`deadwood` or :meth:`arrange` call may spend ..."""
        self.large_budget = min(budget, LARGE_BUDGET)
        """... and for a hand of more than :data:`LARGE_HAND` cards."""
        self._spent = 0
        self._allowance = budget
        self.melds = melds if melds is not None else meld_table(rules)
        self.face_value = [card_value(rules, f) for f in range(53)]
        self.simple = rules.decks == 1 and rules.jokers == 0
        if self.simple:
            self._rank_value = self.face_value[:13]
            self._suit_table = self._build_suit_table()
        # general search: for each face, the shapes whose lowest natural face it is
        self._by_low: list[list[tuple[int, int, int, int, int, int]]] = [[] for _ in range(53)]
        """Per face, ``(once, extra, twice, jokers, value, index)`` of the shapes whose
        lowest natural face it is: the faces it takes once or more, those it takes
        more than once in the :func:`_remove` layout, those it takes twice or more."""
        longest_set, longest_run = _useful_lengths(rules)
        for i, sh in enumerate(self.melds.shapes):
            if len(sh.cells) > (longest_run if sh.kind == RUN else longest_set):
                continue  # two shorter melds hold the same cards (see _useful_lengths)
            low = min(sh.naturals)
            once = twice = thrice = 0
            for f in sh.naturals:
                bit = 1 << f
                if twice & bit:
                    thrice |= bit
                elif once & bit:
                    twice |= bit
                once |= bit
            value = sum(self.face_value[f] for f in sh.naturals) + sh.njokers * self.face_value[52]
            extra = twice | thrice << THIRD
            self._by_low[low].append((once, extra, twice, sh.njokers, value, i))
        self._memo: dict[tuple[int, int, int], tuple[int, int]] = {}
        self.deadwood: Callable[[int], int] = (
            self._simple_deadwood if self.simple else self._general
        )
        """The least deadwood value of a hand (a bitmask of physical cards).  Bound here
        to the one-deck table or the general search: Gin calls it on every turn, and the
        binding saves a call."""

    # -- the one-deck table ------------------------------------------------------------
    def _build_suit_table(self) -> list[int]:
        """Least deadwood of each 13-bit suit mask using runs only."""
        high = self.melds.high_ace
        runs_by_low: list[list[int]] = [[] for _ in range(13)]
        for lo in range(14 if high else 13):
            for hi in range(lo + 2, (ACE_HIGH if high else 12) + 1):
                if lo == 0 and (hi == ACE_HIGH or not self.melds.low_ace):
                    continue
                m = 0
                for p in range(lo, hi + 1):
                    m |= 1 << (0 if p == ACE_HIGH else p)
                runs_by_low[(m & -m).bit_length() - 1].append(m)
        value = self._rank_value
        table = [0] * (1 << 13)
        for m in range(1, 1 << 13):
            low = (m & -m).bit_length() - 1
            best = table[m & (m - 1)] + value[low]
            for r in runs_by_low[low]:
                if r & m == r:
                    v = table[m & ~r]
                    if v < best:
                        best = v
            table[m] = best
        return table

    def _simple_deadwood(self, hand: int) -> int:
        a = hand & SUIT
        b = (hand >> 13) & SUIT
        c = (hand >> 26) & SUIT
        d = (hand >> 39) & SUIT
        t = self._suit_table
        triples = (a & b & (c | d)) | (c & d & (a | b))
        if not triples:
            return t[a] + t[b] + t[c] + t[d]
        if triples.bit_count() > SIMPLE_SET_RANKS:
            return self._general(hand)
        return self._sets_then_runs(a, b, c, d, triples)

    def _sets_then_runs(self, a: int, b: int, c: int, d: int, triples: int) -> int:
        """Branch on the lowest rank held in three or more suits: no set, or a set of
        three or four of its suits (see :data:`SET_CHOICES`); then the next such rank."""
        t = self._suit_table
        low = triples & -triples
        rest = triples ^ low
        held = (
            (1 if a & low else 0)
            | (2 if b & low else 0)
            | (4 if c & low else 0)
            | (8 if d & low else 0)
        )
        if rest:
            best = self._sets_then_runs(a, b, c, d, rest)
            for sub in SET_CHOICES[held]:
                v = self._sets_then_runs(
                    a & ~low if sub & 1 else a,
                    b & ~low if sub & 2 else b,
                    c & ~low if sub & 4 else c,
                    d & ~low if sub & 8 else d,
                    rest,
                )
                if v < best:
                    best = v
            return best
        best = t[a] + t[b] + t[c] + t[d]
        for sub in SET_CHOICES[held]:
            v = (
                t[a & ~low if sub & 1 else a]
                + t[b & ~low if sub & 2 else b]
                + t[c & ~low if sub & 4 else c]
                + t[d & ~low if sub & 8 else d]
            )
            if v < best:
                best = v
        return best

    # -- the general search ------------------------------------------------------------------
    def _search(self, have1: int, more: int, jokers: int) -> tuple[int, int]:
        """(least deadwood, shape index of the first meld or -1 for 'deadwood').

        ``have1`` holds the faces held at least once, ``more`` those held twice and,
        shifted by :data:`THIRD`, three times (see :func:`_remove`)."""
        key = (have1, more, jokers)
        hit = self._memo.get(key)
        if hit is not None:
            return hit
        if not have1:
            res = (jokers * self.face_value[52], -2)
            self._memo[key] = res
            return res
        low_bit = have1 & -have1
        f = low_bit.bit_length() - 1
        entries = self._by_low[f]
        self._spent += len(entries) + 1
        if self._spent > self._allowance:
            raise OutOfBudget
        # leave one copy of f as deadwood (its last plane loses it)
        if more & low_bit:
            top = low_bit << THIRD if more >> THIRD & low_bit else low_bit
            best = self.face_value[f] + self._search(have1, more ^ top, jokers)[0]
        else:
            best = self.face_value[f] + self._search(have1 ^ low_bit, more, jokers)[0]
        choice = -1
        for once, extra, twice, nj, _value, idx in entries:
            if once & ~have1 or extra & ~more or nj > jokers:
                continue
            v = self._search(*_remove(have1, more, once, extra, twice), jokers - nj)[0]
            if v < best:
                best = v
                choice = idx
        res = (best, choice)
        self._memo[key] = res
        return res

    def _general(self, hand: int) -> int:
        have1, have2, have3, jokers = HandCounts.of(hand)
        more = have2 | have3 << THIRD
        budget = self.budget if hand.bit_count() <= LARGE_HAND else self.large_budget
        try:
            return self._bounded(have1, more, jokers, budget)[0]
        except OutOfBudget:
            return self._fallback(have1, more, jokers, budget, [], [])

    def _bounded(self, have1: int, more: int, jokers: int, budget: int) -> tuple[int, int]:
        """:meth:`_search` with ``budget`` units of work; :class:`OutOfBudget` past it.

        Only finished nodes enter the memo, so a search given up leaves it valid."""
        if len(self._memo) > 200_000:
            self._memo.clear()
        self._allowance = self._spent + budget
        return self._search(have1, more, jokers)

    def _fallback(
        self, have1: int, more: int, jokers: int, budget: int, shapes: list[int], left: list[int]
    ) -> int:
        """The deadwood of an arrangement found without the full search (appended to
        ``shapes`` and ``left``): the lowest card goes into the most valuable meld that
        holds it (or stays loose) until at most :data:`TAIL_CARDS` natural cards are
        left, which the exact search gets one more budget for; greedily to the end if
        that runs out too.  At most two budgets and a greedy pass in all."""
        total = 0
        tail = True
        while have1:
            if (
                tail
                and have1.bit_count()
                + (more & _FACE_BITS).bit_count()
                + (more >> THIRD).bit_count()
                <= TAIL_CARDS
            ):
                tail = False
                try:
                    self._bounded(have1, more, jokers, budget)
                except OutOfBudget:
                    pass
                else:
                    return total + self._trace(have1, more, jokers, shapes, left)
            low_bit = have1 & -have1
            f = low_bit.bit_length() - 1
            best = None
            for e in self._by_low[f]:
                once, extra, _twice, nj, value, _idx = e
                if once & ~have1 or extra & ~more or nj > jokers:
                    continue
                if best is None or value > best[4]:
                    best = e
            if best is None:
                left.append(f)
                total += self.face_value[f]
                have1, more = _remove(have1, more, low_bit)
                continue
            once, extra, twice, nj, _v, idx = best
            shapes.append(idx)
            have1, more = _remove(have1, more, once, extra, twice)
            jokers -= nj
        left.extend([52] * jokers)
        return total + jokers * self.face_value[52]

    def _trace(self, have1: int, more: int, jokers: int, shapes: list[int], left: list[int]) -> int:
        """Follow the memoised choices of a finished search of this hand (appended to
        ``shapes`` and ``left``); its least deadwood."""
        total, _ = self._search(have1, more, jokers)
        while have1:
            _, choice = self._search(have1, more, jokers)
            low_bit = have1 & -have1
            if choice < 0:
                left.append(low_bit.bit_length() - 1)
                have1, more = _remove(have1, more, low_bit)
                continue
            once, extra, twice, nj, _v, idx = next(
                e for e in self._by_low[low_bit.bit_length() - 1] if e[5] == choice
            )
            shapes.append(idx)
            have1, more = _remove(have1, more, once, extra, twice)
            jokers -= nj
        left.extend([52] * jokers)
        return total

    # -- public API ----------------------------------------------------------------------------
    def arrange(self, hand: int) -> Arrangement:
        """A best arrangement of the hand: which melds to make, and what is left
        (``exact=False``: a good one, the search having run out of its budget)."""
        have1, have2, have3, jokers = HandCounts.of(hand)
        more = have2 | have3 << THIRD
        shapes: list[int] = []
        left: list[int] = []
        budget = self.budget if hand.bit_count() <= LARGE_HAND else self.large_budget
        try:
            self._bounded(have1, more, jokers, budget)
        except OutOfBudget:
            total = self._fallback(have1, more, jokers, budget, shapes, left)
            return Arrangement(tuple(shapes), tuple(left), total, exact=False)
        total = self._trace(have1, more, jokers, shapes, left)
        return Arrangement(tuple(shapes), tuple(left), total)

    def without(self, hand: int) -> Callable[[int], int]:
        """``after(card)``: the least deadwood of ``hand`` once ``card`` is taken out.

        A discard decision asks this for every card of the hand.  For a card that a
        best arrangement of the hand leaves loose it costs no search: that
        arrangement, minus the card, is an arrangement of the rest, so the rest leaves
        at most ``D - value``; and any arrangement of the rest, plus the card loose,
        is one of the hand, so it leaves at least that.  Only cards the arrangement
        melds are searched.  (The one-deck table is cheap enough to ask directly.)

        >>> from rummykit.rules import Rules
        >>> from rummykit.cards import parse_cards, mask_of, parse_card
        >>> s = Solver(Rules.preset("rami51"))
        >>> hand = mask_of(parse_cards("AH 2H 3H 4H 7S 7D 7C 9C KD"))
        >>> after = s.without(hand)
        >>> after(parse_card("KD")), after(parse_card("AH")), after(parse_card("7S"))
        (9, 19, 33)
        """
        deadwood = self.deadwood
        if self.simple:
            return lambda card: deadwood(hand & ~(1 << card))
        best = self.arrange(hand)
        loose = set(best.deadwood_faces)
        value = self.face_value
        total = best.deadwood

        def after(card: int) -> int:
            face = face_of(card)
            if face in loose:
                return total - value[face]
            return deadwood(hand & ~(1 << card))

        return after


def _useful_lengths(rules: Rules) -> tuple[int, int]:
    """The longest set and run the general search needs to try.

    Deadwood counts only what is left out of melds, so a meld that splits into two
    valid melds adds nothing: with ``contracts`` (Contract Rummy: sets of any suits,
    runs of ``min_run`` or more, up to ``jokers_per_meld`` jokers each) a set of six or
    more splits into two sets of three or more, and a run of ``2 * min_run`` or more
    into two runs, each part keeping at least one natural card and at most the jokers
    it had.  Skipping them keeps the search small for the long hands buying makes.
    Every other game tries every shape (its bots' arrangements stay as they were)."""
    if rules.family is not Family.CONTRACT or rules.set_suits is not SetSuits.ANY:
        return 99, 99
    return 5, 2 * rules.min_run - 1


SIMPLE_SET_RANKS = 6
"""Ranks held three times or more that the one-deck table branches on (six ways each,
:meth:`Solver._sets_then_runs`); a hand with more (only deep draws and long house-rule
hands make one) goes to the general search and its budget."""

TAIL_CARDS = 24
"""Natural cards left at which a search given up is tried once more exactly."""

THIRD = 64
"""Where ``more`` keeps the faces held three times: above every face's bit."""
_FACE_BITS = (1 << THIRD) - 1


def _remove(have1: int, more: int, once: int, extra: int = 0, twice: int = 0) -> tuple[int, int]:
    """Take one copy of each face in ``once``, a second of each in ``twice`` and a third
    of each in ``thrice`` (``extra`` is ``twice | thrice << THIRD``).

    Counts are nested bit planes: ``have1`` the faces held at least once, ``more`` those
    held at least twice (``have2``) and, shifted by :data:`THIRD`, three times
    (``have3``); the taken ones nest the same way, each within what is held.  A face is
    left at least K times where it was held K more times than taken, so::

        have1' = have1 & ~once | have2 & ~twice | have3 & ~thrice
        have2' = have2 & ~once | have3 & ~twice
        have3' = have3 & ~once

    With one or two decks ``have3`` is 0 and this is the two-plane bookkeeping; the
    shifted layout keeps the memo key and the fit test (``extra & ~more``) as short as
    they were before three decks.
    """
    if more >> THIRD:
        rest = more & ~extra
        return (
            have1 & ~once | rest & _FACE_BITS | rest >> THIRD,
            more & ~(once | once << THIRD) | more >> THIRD & ~twice,
        )
    return have1 & ~once | more & ~extra, more & ~once


@lru_cache(maxsize=16)
def solver_for(rules: Rules) -> Solver:
    """The shared solver for a rules object (its tables and memo are pure caches)."""
    return Solver(rules, meld_table(rules))

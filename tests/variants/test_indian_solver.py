"""Indian Rummy's hand solver against a brute force written from the definitions.

:class:`~rummykit.variants.indian.HandSolver` searches cleverly (lowest face first,
jokers only as gaps or to reach three cards, memos); the brute force below tries every
way of splitting a hand into groups and checks each group against the definitions in
docs/rules.md ("## Indian Rummy"): a set is three or four cards of one rank and
distinct suits, a sequence three or more of one suit in a row (ace low or high, not
both), jokers standing for any card; a sequence is pure when no joker stands in it (a
card of the wild rank in its own place is itself).  Both must agree on whether a hand
is a valid declaration and on what it counts.
"""

from __future__ import annotations

import itertools
import random
from functools import cache

import pytest

from rummykit import Rules
from rummykit.cards import JOKER, face_of, mask_of
from rummykit.variants.indian import HandSolver, wild_rank

RULES = Rules.preset("indian")
SOLVER = HandSolver(RULES)
NONE, SET, RUN, PURE = 0, 1, 2, 3


def value(card: int, wr: int) -> int:
    f = face_of(card)
    if f == JOKER or f % 13 == wr:
        return 0
    r = f % 13
    return 10 if r == 0 or r >= 9 else r + 1


def group_kind(cards: tuple[int, ...], wr: int) -> int:
    """The best kind the cards can form (PURE > RUN > SET), or NONE."""
    size = len(cards)
    if size < 3:
        return NONE
    best = NONE
    wilds = [c for c in cards if face_of(c) != JOKER and face_of(c) % 13 == wr]
    fixed = [c for c in cards if c not in wilds]
    for k in range(len(wilds) + 1):
        for as_natural in itertools.combinations(wilds, k):
            naturals = [face_of(c) for c in fixed if face_of(c) != JOKER] + [
                face_of(c) for c in as_natural
            ]
            jokers = size - len(naturals)
            if not naturals:
                continue
            ranks = {f % 13 for f in naturals}
            suits = [f // 13 for f in naturals]
            if len(ranks) == 1 and len(set(suits)) == len(suits) and size <= 4:
                best = max(best, SET)
            if len(set(suits)) == 1 and len(ranks) == len(naturals):
                for high in (False, True):
                    pos = sorted((13 if high and r == 0 else r) for r in ranks)
                    if high and 0 not in ranks:
                        continue
                    # Some window of ``size`` places within 0..13 holds them all.
                    if max(0, pos[-1] - size + 1) <= min(pos[0], 13 - size + 1):
                        best = max(best, PURE if jokers == 0 else RUN)
    return best


def brute(cards: list[int], wr: int) -> tuple[bool, int]:
    """(valid declaration, the hand's count before the cap) by trying every grouping."""
    cards = sorted(cards)

    @cache
    def best(rest: tuple[int, ...], runs: int, pure: int) -> int:
        if not rest:
            return 0 if runs >= 2 and pure else 1 << 20
        first, others = rest[0], rest[1:]
        out = value(first, wr) + best(others, runs, pure)
        for k in range(2, len(others) + 1):
            for combo in itertools.combinations(others, k):
                kind = group_kind((first, *combo), wr)
                if kind == NONE:
                    continue
                left = tuple(c for c in others if c not in combo)
                r = min(2, runs + (kind >= RUN))
                out = min(out, best(left, r, pure or kind == PURE))
        return out

    loose = best(tuple(cards), 0, 0)
    valid = _all_grouped(tuple(cards), wr)
    if loose >= 1 << 20:
        loose = sum(value(c, wr) for c in cards)
    return valid, loose


def _all_grouped(cards: tuple[int, ...], wr: int) -> bool:
    @cache
    def go(rest: tuple[int, ...], runs: int, pure: int) -> bool:
        if not rest:
            return runs >= 2 and bool(pure)
        first, others = rest[0], rest[1:]
        for k in range(2, len(others) + 1):
            for combo in itertools.combinations(others, k):
                kind = group_kind((first, *combo), wr)
                if kind == NONE:
                    continue
                left = tuple(c for c in others if c not in combo)
                if go(left, min(2, runs + (kind >= RUN)), pure or kind == PURE):
                    return True
        return False

    return go(cards, 0, 0)


def random_hand(rng: random.Random, size: int) -> tuple[list[int], int]:
    """A hand dense in melds: few suits and ranks, both decks, printed jokers."""
    suits = rng.sample(range(4), 2)
    ranks = rng.sample(range(13), 6)
    pool = [copy * 54 + s * 13 + r for copy in (0, 1) for s in suits for r in ranks]
    pool += [52, 106]
    cards = rng.sample(pool, size)
    wild = rng.choice([-1, 52, rng.choice(pool)])
    return cards, wild


@pytest.mark.parametrize("seed", range(12))
def test_solver_agrees_with_brute_force(seed: int) -> None:
    rng = random.Random(f"indian-brute-{seed}")
    for _ in range(25):
        size = rng.choice((6, 7, 8, 9))
        cards, wild = random_hand(rng, size)
        wr = wild_rank(wild)
        valid, loose = brute(cards, wr)
        hand = mask_of(cards)
        assert SOLVER.valid(hand, wild) == valid, (cards, wild)
        assert SOLVER.points(hand, wild) == min(80, loose), (cards, wild)


@pytest.mark.parametrize("seed", range(6))
def test_declarable_is_valid_without_some_card(seed: int) -> None:
    """``declarable`` (one search, one card spare) answers as trying ``valid`` without
    each card of the hand in turn, on dense hands of 7 to 14 cards."""
    rng = random.Random(f"indian-declarable-{seed}")
    agreed = 0
    for _ in range(150):
        cards, wild = random_hand(rng, rng.choice((7, 10, 13, 14)))
        hand = mask_of(cards)
        fresh = HandSolver(RULES)
        slow = any(fresh.valid(hand & ~(1 << c), wild) for c in cards)
        assert fresh.declarable(hand, wild) == slow, (cards, wild)
        agreed += slow
    assert agreed > 5  # some hands can declare, so both answers are tested

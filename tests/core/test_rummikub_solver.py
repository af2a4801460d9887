"""The Rummikub solver (van Rijn, Takes and Vis 2015's dynamic programme, with jokers):
cross-checked against brute force on small positions, and every arrangement it returns
is valid, keeps every table tile and adds only rack tiles (hypothesis)."""

from __future__ import annotations

import random
from collections import Counter
from functools import cache
from itertools import combinations, product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rummykit.cards import JOKER, deck, mask_of, parse_cards
from rummykit.melds import MeldTable, meld_table
from rummykit.rules import Rules
from rummykit.variants.rummikub import canonical_shapes, joker_tokens, rack_faces, shape_faces
from rummykit.variants.rummikub_solver import POINTS, solve

T = meld_table(Rules.preset("rummikub"))
PACK = deck(2, 1)


def faces_of(t: MeldTable, shapes: tuple[int, ...] | list[int]) -> Counter[int]:
    out: Counter[int] = Counter()
    for s in shapes:
        out.update(shape_faces(t, s))
    return out


@cache
def _by_lowest() -> dict[int, tuple[int, ...]]:
    """Per face, the canonical shapes whose lowest natural tile is that face."""
    canon = canonical_shapes(T)
    out: dict[int, list[int]] = {}
    for i, sh in enumerate(T.shapes):
        if canon[i]:
            out.setdefault(min(sh.naturals), []).append(i)
    return {f: tuple(v) for f, v in out.items()}


def partitions(tiles: Counter[int]) -> bool:
    """Whether ``tiles`` (faces, jokers as JOKER) split exactly into valid sets."""
    naturals = [f for f in tiles if f != JOKER and tiles[f] > 0]
    if not naturals:
        return tiles[JOKER] == 0
    low = min(naturals)
    for s in _by_lowest().get(low, ()):
        need = Counter(shape_faces(T, s))
        if all(tiles[f] >= n for f, n in need.items()) and partitions(tiles - need):
            return True
    return False


def brute_best(table: list[int], rack: int) -> int:
    """The most rack tiles placeable with every table tile kept (any arrangement)."""
    base = faces_of(T, table)
    rack_list = sorted(rack_faces(rack).elements())
    best = 0
    seen: set[tuple[int, ...]] = set()
    for size in range(len(rack_list), 0, -1):
        for subset in _sub_multisets(rack_list, size):
            if subset in seen:
                continue
            seen.add(subset)
            if partitions(base + Counter(subset)):
                return size
    return best


def _sub_multisets(items: list[int], size: int) -> list[tuple[int, ...]]:
    return sorted(set(combinations(items, size)))


def check_arrangement(table: list[int], rack: int, shapes: tuple[int, ...]) -> Counter[int]:
    """The solution is canonical sets holding every table tile, the table's jokers still
    standing for what they stood for, plus tiles of the rack: return those."""
    canon = canonical_shapes(T)
    assert all(canon[s] for s in shapes)
    new, old = faces_of(T, shapes), faces_of(T, table)
    assert not old - new, "a table tile left the table"
    placed = new - old
    assert not placed - rack_faces(rack), "a tile not on the rack"
    old_tokens = Counter(tok for s in table for tok in joker_tokens(T, s))
    new_tokens = Counter(tok for s in shapes for tok in joker_tokens(T, s))
    assert not old_tokens - new_tokens, "a table joker stands for another tile"
    return placed


def test_the_papers_kind_of_hand() -> None:
    """A hand alone (an empty table): runs and groups with a joker."""
    rack = mask_of(parse_cards("5H 6H 7H 7C 7S JK 2D"))
    sol = solve(T, (), rack)
    assert sol.placed == 6 and check_arrangement([], rack, sol.shapes) == rack_faces(
        mask_of(parse_cards("5H 6H 7H 7C 7S JK"))
    )


def test_three_runs_cover_one_value_with_a_joker() -> None:
    """Two copies of a tile and a joker standing for a third: three runs through one
    value, so the programme keeps a run slot per joker."""
    table = [
        T.find(0, 3, (39 + 1, 39 + 2, 39 + 3), 0),  # 2S 3S 4S
        T.find(0, 3, (39 + 2, 39 + 3, 39 + 4, 39 + 5), 0),  # 3S 4S 5S 6S
        T.find(0, 3, (39 + 3, 39 + 4, 39 + 5), 1),  # JK=4S 5S 6S
    ]
    assert min(table) >= 0
    sol = solve(T, table, 0)
    assert sol.placed == 0 and faces_of(T, sol.shapes) == faces_of(T, table)


def random_position(rng: random.Random, table_tiles: int, rack_tiles: int, jokers: bool):
    """A valid table (a random hand's best arrangement) and a rack from the rest."""
    pack = PACK if jokers else [c for c in PACK if c % 54 < 52]
    cards = rng.sample(pack, table_tiles + rack_tiles)
    table = list(solve(T, (), mask_of(cards[:table_tiles])).shapes)
    return table, mask_of(cards[table_tiles:])


def brute_force_check(seed: int, count: int) -> int:
    """Compare the programme with brute force on ``count`` random small positions (a
    few table sets, a rack of up to six tiles, rack jokers included); the number of
    positions checked (those without a table joker)."""
    rng = random.Random(seed)
    checked = 0
    for i in range(count):
        table, rack = random_position(rng, rng.randint(6, 16), rng.randint(3, 6), i % 3 == 0)
        if any(T.shapes[s].njokers for s in table):
            continue  # the solver never frees a table joker; brute force would
        sol = solve(T, table, rack)
        check_arrangement(table, rack, sol.shapes)
        assert sol.placed == brute_best(table, rack), (table, rack)
        checked += 1
    return checked


def test_brute_force_agrees_on_small_positions() -> None:
    assert brute_force_check(33, 30) > 15


@pytest.mark.slow
def test_brute_force_agrees_on_many_small_positions() -> None:
    assert brute_force_check(34, 400) > 250


def test_points_objective_places_the_most_value() -> None:
    rng = random.Random(7)
    for _ in range(40):
        table, rack = random_position(rng, 20, 14, True)
        by_tiles, by_points = solve(T, table, rack), solve(T, table, rack, POINTS)
        assert by_points.value >= by_tiles.value and by_tiles.placed >= by_points.placed
        check_arrangement(table, rack, by_points.shapes)


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    table_tiles=st.integers(0, 60),
    rack_tiles=st.integers(0, 14),
)
def test_every_arrangement_is_valid_and_keeps_the_table(
    seed: int, table_tiles: int, rack_tiles: int
) -> None:
    table, rack = random_position(random.Random(seed), table_tiles, rack_tiles, True)
    sol = solve(T, table, rack, beam=3000)
    placed = check_arrangement(table, rack, sol.shapes)
    assert sol.placed == sum(placed.values())
    assert sol.value == sum(30 if f == JOKER else f % 13 + 1 for f in placed.elements())


def test_three_groups_of_one_number_stay_on_the_table() -> None:
    """Both copies of every colour of a number and a joker make three groups (the
    official rules: a group is three or four tiles of one number in different colours),
    as a four-handed deal of the legality soak left on the table (seed 971): the table
    is an arrangement, so the solver keeps it and places what the rack adds."""
    kings = [12 + 13 * colour for colour in range(4)]
    c, d, h, s = kings
    table = [
        T.find(1, 12, (c, h, s), 0),
        T.find(1, 12, (c, d, s), 0),
        T.find(1, 12, (c, d, h), 1),  # the joker stands for the second K of one colour
    ]
    assert min(table) >= 0
    sol = solve(T, table, 0)
    assert sol.placed == 0 and faces_of(T, sol.shapes) == faces_of(T, table)
    rack = mask_of(parse_cards("QH JH 2C"))
    sol = solve(T, table, rack)
    placed = check_arrangement(table, rack, sol.shapes)
    assert placed == rack_faces(mask_of(parse_cards("QH JH")))  # J-Q-K of hearts


def _splits_by_brute_force(ones: int, twos: int, jokers: int) -> bool:
    """Whether the tiles (two of each of ``twos`` colours, one of each of ``ones``, and
    ``jokers``) can be dealt into groups of three or four distinct colours with a
    natural tile each: every way of dealing them into up to four groups tried."""
    tiles = [c for c in range(twos) for _ in range(2)] + list(range(twos, twos + ones))
    total = len(tiles) + jokers
    for n in range(0 if total == 0 else 1, 5):
        for deal in product(range(n), repeat=len(tiles)):
            groups = [[t for t, g in zip(tiles, deal, strict=True) if g == i] for i in range(n)]
            if any(not g or len(set(g)) < len(g) or len(g) > 4 for g in groups):
                continue
            lo = sum(max(0, 3 - len(g)) for g in groups)
            hi = sum(4 - len(g) for g in groups)
            if lo <= jokers <= hi:
                return True
    return total == 0


def test_group_splits_agree_with_brute_force() -> None:
    from rummykit.variants.rummikub_solver import _group_split

    for twos in range(5):
        for ones in range(5 - twos):
            for jokers in range(5):
                split = _group_split(ones, twos, jokers)
                assert (split is not None) == _splits_by_brute_force(ones, twos, jokers)
                if split is None:
                    continue
                used = Counter(i for taken, _ in split for i in taken)
                assert used == Counter(
                    {i: 2 for i in range(twos)} | {twos + i: 1 for i in range(ones)}
                )
                assert sum(j for _, j in split) == jokers
                for taken, j in split:
                    assert taken and len(set(taken)) == len(taken) and 3 <= len(taken) + j <= 4

"""Brute-force cross-checks of meld finding and lay-off generation.

The validator below is written from the rule texts alone and shares no code with
:mod:`rummykit.melds`: it takes a multiset of natural cards plus some jokers and
lists every way they form a meld.  Enumerating every sub-multiset of a small hand
gives the set of melds the hand can lay, which must equal what
``MeldTable.shapes_in`` returns (compared at face level as ``(kind, cells,
joker_cells)``).  Lay-offs are checked the same way: a card (or a joker) may be laid
off on a table meld exactly when adding it gives a valid meld that keeps every card
of the old one in its cell.

Rules checked (all through the validator):

* seed 000: "A run or sequence is 3+ consecutive cards of a matching suit";
  "A set, book or group is 3 or 4 same-ranking cards";
* seed 003: "A set: Cards of the same rank and different suits" (RULES-NOTES 2;
  ``set_suits=any`` lets a two-deck set repeat a suit, each face at most twice);
* seed 001: aces "may only ever be used in a run of ace, two, and three" (ace low);
  the house rule "queen, kind, and ace" (ace high or low);
* seed 003: "an Ace cannot be placed before the 2 and after the King at the same
  time" (no wrap-around, no A..K..A; RULES-NOTES 3: at most 13 cards);
* seed 003: "there must be only one Joker in a meld" (``jokers_per_meld``);
* seed 003 meld values: "An Ace placed before a 2 is worth 1 point. An Ace placed
  after a King is worth 11 points. Each Ace used in a set meld is worth 11 points.
  A Joker is worth the value of the card it represents."
* seed 000 lay-offs: "add a 2 of spades to the beginning or a 6 of spades to the
  end"; "add a 10 of clubs" to a set; "players may not rearrange any melds".
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations, combinations_with_replacement, product

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from rummykit import LAYOFF, GameState, Phase, Rules, new_game
from rummykit.cards import (
    FACES_PER_DECK,
    JOKER,
    face_of,
    is_joker,
    mask_of,
    parse_cards,
    parse_face,
)
from rummykit.melds import HandCounts, MeldTable
from rummykit.rules import Ace, SetSuits
from rummykit.table import TableMeld

RUN, SET = 0, 1

SPECS = [
    "basic",
    "basic(ace=high_or_low)",
    "rami51",
    "rami51(set_suits=any)",
    "rami51(jokers_per_meld=2, ace=low)",
    "basic(jokers=2, jokers_per_meld=2, ace=high_or_low)",
    "rum500",  # 500 Rum: one deck, ace high or low
    "kalooki",  # Kalooki 40: two decks, four jokers, two a meld
    "contract",  # Contract Rummy: runs of four or more, sets of any suits, two jokers
]

Meld = tuple[int, tuple[int, ...], int]
"""(kind, represented faces in order, bitmask of the cells held by jokers)"""


# -- the independent validator ---------------------------------------------------------
def joker_limit(rules: Rules) -> int:
    return rules.jokers_per_meld if rules.jokers else 0


def run_interpretations(rules: Rules, naturals: list[int], jokers: int) -> set[Meld]:
    """Every run the naturals plus ``jokers`` jokers form.  Positions 1..13 are A..K
    with the ace low; an ace played high is position 14."""
    size = len(naturals) + jokers
    if not naturals or not max(3, rules.min_run) <= size <= 13:  # Contract Rummy: 4+
        return set()
    suits = {f // 13 for f in naturals}
    ranks = [f % 13 for f in naturals]
    if len(suits) != 1 or len(set(ranks)) != len(ranks):
        return set()
    suit = suits.pop()
    high_ok = rules.ace is Ace.HIGH_OR_LOW
    choices = [[1, 14] if r == 0 and high_ok else [r + 1] for r in ranks]
    out: set[Meld] = set()
    for positions in product(*choices):
        held = set(positions)
        top = 14 if high_ok else 13
        for lo in range(1, top - size + 2):
            window = range(lo, lo + size)
            if not held <= set(window):
                continue
            if 1 in window and 14 in window:
                continue  # seed 003: never before the 2 and after the king at once
            cells = tuple(suit * 13 + (p - 1) % 13 for p in window)
            jm = sum(1 << i for i, p in enumerate(window) if p not in held)
            out.add((RUN, cells, jm))
    return out


def set_interpretations(rules: Rules, naturals: list[int], jokers: int) -> set[Meld]:
    size = len(naturals) + jokers
    if not naturals or len({f % 13 for f in naturals}) != 1:
        return set()
    rank = naturals[0] % 13
    per_suit = rules.decks if rules.set_suits is SetSuits.ANY else 1
    if not 3 <= size <= 4 * per_suit:
        return set()
    have = Counter(f // 13 for f in naturals)
    if any(c > per_suit for c in have.values()):
        return set()
    out: set[Meld] = set()
    for joker_suits in combinations_with_replacement(range(4), jokers):
        total = have + Counter(joker_suits)
        if any(c > per_suit for c in total.values()):
            continue
        # cells in suit order; within one suit the naturals come before the jokers
        cells: list[int] = []
        jm = 0
        for s in range(4):
            for i in range(total[s]):
                if i >= have[s]:
                    jm |= 1 << len(cells)
                cells.append(s * 13 + rank)
        out.add((SET, tuple(cells), jm))
    return out


def interpretations(rules: Rules, naturals: list[int], jokers: int) -> set[Meld]:
    if jokers > joker_limit(rules):
        return set()
    return run_interpretations(rules, naturals, jokers) | set_interpretations(
        rules, naturals, jokers
    )


def brute_melds(rules: Rules, faces: list[int], jokers: int) -> set[Meld]:
    """Every meld some sub-multiset of the hand forms."""
    counts = Counter(faces)
    distinct = sorted(counts)
    out: set[Meld] = set()
    for picks in product(*(range(counts[f] + 1) for f in distinct)):
        naturals = [f for f, k in zip(distinct, picks, strict=True) for _ in range(k)]
        if len(naturals) + min(jokers, joker_limit(rules)) < 3:
            continue
        for j in range(min(jokers, joker_limit(rules)) + 1):
            out |= interpretations(rules, naturals, j)
    return out


def meld_points(meld: Meld) -> int:
    """Seed 003 meld values, a joker worth the card it stands for."""
    kind, cells, _jm = meld
    total = 0
    for i, f in enumerate(cells):
        r = f % 13
        if r == 0:
            if kind == SET:
                total += 11
            else:
                total += 11 if i > 0 else 1  # an ace after another card is high
        else:
            total += 10 if r >= 9 else r + 1
    return total


# -- building hands -----------------------------------------------------------------------
def physical(faces: list[int], jokers: int) -> int:
    """A hand bitmask: repeated faces take the second deck's copy."""
    mask = 0
    for f in faces:
        mask |= 1 << (f + FACES_PER_DECK if mask >> f & 1 else f)
    for j in (52, 53, 106, 107)[:jokers]:
        mask |= 1 << j
    return mask


@st.composite
def small_hands(draw: st.DrawFn, rules: Rules) -> tuple[list[int], int]:
    """Up to 8 cards drawn from a few suits and a window of ranks (wrapping past the
    king, so K-A-2 candidates come up), each face at most once per deck."""
    suits = draw(st.lists(st.integers(0, 3), min_size=1, max_size=4, unique=True))
    lo = draw(st.integers(0, 12))
    width = draw(st.integers(1, 5))
    pool = [s * 13 + (lo + i) % 13 for s in suits for i in range(width)]
    max_jokers = min(rules.decks * rules.jokers, 3)
    jokers = draw(st.integers(0, max_jokers))
    faces = draw(st.lists(st.sampled_from(pool), min_size=3 - min(jokers, 1), max_size=8 - jokers))
    counts = Counter(faces)
    faces = [f for f in sorted(counts) for _ in range(min(counts[f], rules.decks))]
    return faces, jokers


_TABLES: dict[str, MeldTable] = {}


def table_for(spec: str) -> MeldTable:
    if spec not in _TABLES:
        _TABLES[spec] = MeldTable(Rules.parse(spec))
    return _TABLES[spec]


def shape_meld(t: MeldTable, i: int) -> Meld:
    sh = t.shapes[i]
    return (sh.kind, sh.cells, sh.joker_cells)


# -- melds in a hand ----------------------------------------------------------------------
@pytest.mark.parametrize("spec", SPECS)
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_shapes_in_matches_brute_force(spec: str, data: st.DataObject) -> None:
    rules = Rules.parse(spec)
    t = table_for(spec)
    faces, jokers = data.draw(small_hands(rules))
    found = t.shapes_in(HandCounts.of(physical(faces, jokers)))
    assert len(found) == len(set(found)) and found == sorted(found)
    engine = {shape_meld(t, i) for i in found}
    event(f"melds found: {min(len(engine), 5)}")
    assert engine == brute_melds(rules, faces, jokers)
    for i in found:
        sh = t.shapes[i]
        kind, cells, jm = shape_meld(t, i)
        assert sh.njokers == jm.bit_count()
        assert sorted(sh.naturals) == sorted(c for k, c in enumerate(cells) if not jm >> k & 1)
        assert sh.points == meld_points((kind, cells, jm))
        assert t.find(kind, sh.key, cells, jm) == i


def faces_of(text: str) -> list[int]:
    return [parse_face(t) for t in text.split()]


def test_validator_follows_the_seeds() -> None:
    """The oracle itself, on the seeds' own examples."""
    basic = Rules.parse("basic")
    high = Rules.parse("basic(ace=high_or_low)")
    rami = Rules.parse("rami51")
    any_suit = Rules.parse("rami51(set_suits=any)")
    f = faces_of
    # seed 000: "Example: 3 of spades, 4 of spades, and 5 of spades."
    assert interpretations(basic, f("3S 4S 5S"), 0) == {(RUN, tuple(f("3S 4S 5S")), 0)}
    # seed 000: "Example: 10 of spades, 10 of diamonds and 10 of hearts."
    assert interpretations(basic, f("TS TD TH"), 0) == {(SET, tuple(f("TD TH TS")), 0)}
    # seed 000: "Consecutive cards of different suits do not constitute a valid sequence."
    assert not interpretations(basic, f("3S 4H 5S"), 0)
    # seed 001: aces "may only ever be used in a run of ace, two, and three"
    assert interpretations(basic, f("AH 2H 3H"), 0)
    assert not interpretations(basic, f("QH KH AH"), 0)
    # seed 001 house rule: "a run of ace, two, and three as well as queen, kind, and ace"
    assert interpretations(high, f("QH KH AH"), 0) == {(RUN, tuple(f("QH KH AH")), 0)}
    # seed 003: "Queen of Hearts, King of Hearts, Ace of Hearts" legal, "... Two of Hearts"
    # not; no wrap-around K-A-2 either (RULES-NOTES 1)
    assert interpretations(rami, f("QH KH AH"), 0)
    assert not interpretations(rami, f("QH KH AH 2H"), 0)
    assert not interpretations(rami, f("KH AH 2H"), 0)
    # RULES-NOTES 3: at most 13 cards, A..K or 2..A but never A..K..A
    assert interpretations(rami, f("AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH"), 0)
    assert not interpretations(rami, f("AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH"), 0)
    # seed 003: "Jack of Hearts – Queen of Hearts – Joker"; "only one Joker in a meld"
    assert interpretations(rami, f("JH QH"), 1) == {
        (RUN, tuple(f("JH QH KH")), 0b100),
        (RUN, tuple(f("TH JH QH")), 0b001),
    }
    assert not interpretations(rami, f("JH QH"), 2)
    # seed 003: a set has "different suits"; RULES-NOTES 2: the option allows repeats
    assert not interpretations(rami, f("7H 7H 7S"), 0)
    assert interpretations(any_suit, f("7H 7H 7S"), 0) == {(SET, tuple(f("7H 7H 7S")), 0)}
    # seed 003 meld values: "Ace of Spades, Ace of Clubs, Ace of Hearts ... worth 33
    # points"; "4 of Hearts, 4 of Spades, Joker ... the Joker is worth 4 points"
    assert meld_points((SET, tuple(f("AC AH AS")), 0)) == 33
    assert meld_points((SET, tuple(f("4C 4H 4S")), 0b001)) == 12
    assert meld_points((RUN, tuple(f("AH 2H 3H")), 0)) == 6
    assert meld_points((RUN, tuple(f("QH KH AH")), 0)) == 31


DENSE_HANDS = [
    ("basic", "AH 2H 3H 4H 5H QH KH AS AC AD 3S 3C"),
    ("basic(ace=high_or_low)", "AH 2H 3H JH QH KH AS AC AD KS KC KD"),
    ("rami51", "AH 2H 3H 4H QH KH AS AC JK JK 7D 8D"),
    ("rami51", "5S 5S 6S 7S 9S TS 5H 5D 5C JK"),
    ("rami51(set_suits=any)", "9H 9H 9S 9S 9C TH JH KH JK JK"),
    ("rami51(jokers_per_meld=2, ace=low)", "AD 2D 4D 6D 7D KD KC JK JK JK"),
]


@pytest.mark.parametrize(("spec", "hand"), DENSE_HANDS)
def test_shapes_in_dense_hands(spec: str, hand: str) -> None:
    """Hands full of overlapping runs and sets, every subset enumerated."""
    rules = Rules.parse(spec)
    t = table_for(spec)
    cards = parse_cards(hand)
    faces = [face_of(c) for c in cards if not is_joker(c)]
    jokers = sum(map(is_joker, cards))
    engine = {shape_meld(t, i) for i in t.shapes_in(HandCounts.of(mask_of(cards)))}
    assert engine == brute_melds(rules, faces, jokers)
    assert len(engine) >= 5


@pytest.mark.parametrize("spec", SPECS)
def test_catalogue_is_exactly_the_valid_melds(spec: str) -> None:
    """Every shape of the catalogue is valid and distinct, and every valid meld of the
    validator (over whole melds, not hands) is in it: the catalogue is the rules."""
    rules = Rules.parse(spec)
    t = table_for(spec)
    catalogue = [shape_meld(t, i) for i in range(len(t.shapes))]
    assert len(set(catalogue)) == len(catalogue)
    for kind, cells, jm in catalogue:
        naturals = [c for k, c in enumerate(cells) if not jm >> k & 1]
        assert (kind, cells, jm) in interpretations(rules, naturals, jm.bit_count())
    expected: set[Meld] = set()
    k = joker_limit(rules)
    for suit in range(4):  # every run: a window of positions and joker cells
        for size in range(3, 14):
            for lo in range(1, 16 - size):
                window = list(range(lo, lo + size))
                for nj in range(min(k, size - 1) + 1):
                    for holes in combinations(range(size), nj):
                        nat = [suit * 13 + (p - 1) % 13 for i, p in enumerate(window)
                               if i not in holes]  # fmt: skip
                        expected |= {m for m in interpretations(rules, nat, nj) if m[0] == RUN}
    per_suit = rules.decks if rules.set_suits is SetSuits.ANY else 1
    for rank in range(13):  # every set: a multiset of natural suits and some jokers
        for counts in product(range(per_suit + 1), repeat=4):
            nat = [s * 13 + rank for s in range(4) for _ in range(counts[s])]
            for nj in range(k + 1):
                expected |= {m for m in interpretations(rules, nat, nj) if m[0] == SET}
    assert set(catalogue) == expected


# -- lay-offs -------------------------------------------------------------------------------
_BASE: dict[str, GameState] = {}


def play_state(spec: str, hand: int, table: list[TableMeld]) -> GameState:
    """Player 0 to play (after the draw, nothing pending, already opened)."""
    if spec not in _BASE:
        _BASE[spec] = new_game(spec, players=Rules.parse(spec).min_players, seed=0)
    s = _BASE[spec].clone()
    s.phase = Phase.PLAY
    s.current = 0
    others = [0] * (s.num_players - 1)  # Contract Rummy seats three at least
    s.hands = [hand, *others]
    s.known = [0, *others]
    s.stock = []
    s.discard = []
    s.table = table
    s.melded = [True] * s.num_players
    s.opened = [True] * s.num_players
    s.laid = [True] * s.num_players
    s.taken = -1
    s.pending = -1
    s.pending_kind = 0
    s.melds_this_turn = 0
    s._legal = None
    return s


def cell_code(meld: Meld, index: int) -> int:
    """suit * 14 + run position (0..12, 13 for a high ace) or, in a set, the rank."""
    kind, cells, _ = meld
    f = cells[index]
    if kind == SET:
        return (f // 13) * 14 + f % 13
    pos = f % 13
    if pos == 0 and index > 0:
        pos = 13  # an ace after another card of the run is high
    return (f // 13) * 14 + pos


def brute_layoffs(rules: Rules, hand_faces: set[int], table: list[Meld]) -> set[tuple[int, ...]]:
    out: set[tuple[int, ...]] = set()
    for slot, old in enumerate(table):
        kind, cells, jm = old
        naturals = [c for k, c in enumerate(cells) if not jm >> k & 1]
        nj = jm.bit_count()
        for card in hand_faces:
            joker = card == JOKER
            grown = (
                interpretations(rules, naturals, nj + 1)
                if joker
                else interpretations(rules, [*naturals, card], nj)
            )
            for new in grown:
                if new[0] != kind:
                    continue
                for i in range(len(new[1])):
                    is_j = bool(new[2] >> i & 1)
                    if is_j != joker or (not joker and new[1][i] != card):
                        continue
                    rest = new[1][:i] + new[1][i + 1 :]
                    low = new[2] & ((1 << i) - 1)
                    rest_jm = low | (new[2] >> (i + 1)) << i
                    if rest == cells and rest_jm == jm:
                        out.add((slot, cell_code(new, i), int(joker)))
    return out


@pytest.mark.parametrize("spec", SPECS)
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_layoffs_match_brute_force(spec: str, data: st.DataObject) -> None:
    rules = Rules.parse(spec)
    t = table_for(spec)
    n = len(t.shapes)
    shapes = data.draw(st.lists(st.integers(0, n - 1), min_size=1, max_size=3))
    used: Counter[int] = Counter()
    table: list[TableMeld] = []
    melds: list[Meld] = []
    jokers_left = list((52, 53, 106, 107)[: rules.decks * rules.jokers])
    for i in shapes:
        sh = t.shapes[i]
        need = Counter(sh.naturals)
        if any(used[f] + k > rules.decks for f, k in need.items()) or sh.njokers > len(jokers_left):
            continue
        cards: list[int] = []
        for k, f in enumerate(sh.cells):
            if sh.joker_cells >> k & 1:
                cards.append(jokers_left.pop())
            else:
                cards.append(f + FACES_PER_DECK * used[f])
                used[f] += 1
        table.append(TableMeld(1, i, tuple(cards)))
        melds.append(shape_meld(t, i))
    # a hand of the remaining cards, with faces near the table melds' ends
    near = sorted(
        {(c // 13) * 13 + (c % 13 + d) % 13 for m in melds for c in m[1] for d in (-1, 0, 1)}
    )
    free = [f for f in near if used[f] < rules.decks]
    picked = data.draw(st.lists(st.sampled_from(free), max_size=6)) if free else []
    hand = 0
    for f in picked:
        if used[f] < rules.decks:
            hand |= 1 << (f + FACES_PER_DECK * used[f])
            used[f] += 1
    with_joker: bool = data.draw(st.booleans())
    if jokers_left and with_joker:
        hand |= 1 << jokers_left.pop()
    filler = [f for f in range(52) if used[f] < rules.decks and f not in near]
    for f in filler[: max(0, 3 - hand.bit_count())]:
        hand |= 1 << (f + FACES_PER_DECK * used[f])  # keep 3+ cards: no going-out limits
    s = play_state(spec, hand, table)
    engine = {(m.a, m.b, m.c) for m in s.legal_moves() if m.kind == LAYOFF}
    event(f"lay-offs: {min(len(engine), 3)}")
    hand_faces = {JOKER if is_joker(c) else face_of(c) for c in range(108) if hand >> c & 1}
    assert engine == brute_layoffs(rules, hand_faces, melds)

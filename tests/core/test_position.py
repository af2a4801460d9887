"""Positions as one line of text (docs/notation.md, "Positions"; issue #15, "A public,
readable position format"): the documented examples, the round trip over random play
in every preset, and an error naming the field for each way a position can be wrong."""

from __future__ import annotations

import doctest
import random
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import Phase as Stage
from hypothesis import strategies as st

from helpers import hang_guard
from rummykit import GameState, Move, Phase, Rules, new_game
from rummykit.cards import deck, parse_cards
from rummykit.invariants import check_state
from rummykit.moves import DISCARD, KNOCK, MELD, PASS
from rummykit.position import (
    MAX_POSITION_CHARS,
    PositionError,
    position_from_text,
    position_to_text,
)

DOC = Path(__file__).resolve().parents[2] / "docs" / "notation.md"


def _section() -> str:
    text = DOC.read_text(encoding="utf-8")
    return text[text.index("\n# Positions") :]


def _doc_positions() -> list[str]:
    """Every position in a ``text`` block of the docs' Positions section."""
    blocks = re.findall(r"```text\n(.*?)```", _section(), re.S)
    return [line for block in blocks for line in block.splitlines() if ":" not in line.split()[0]]


# -- the documentation -------------------------------------------------------------------
@pytest.mark.parametrize("text", _doc_positions())
def test_documented_positions_are_canonical(text: str) -> None:
    """Each example reads, has a legal move, and is written back unchanged."""
    g = position_from_text(text)
    assert g.legal_moves()
    count = text.split()[4].isdigit()
    assert position_to_text(g, stock_order=not count) == text


def test_documented_python_example_runs() -> None:
    parser = doctest.DocTestParser()
    test = parser.get_doctest(_section(), {}, "notation.md#positions", str(DOC), 0)
    assert test.examples
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test)
    assert runner.summarize(verbose=False).failed == 0


DOCUMENTED_ERRORS = {
    "rules: unknown preset 'bsic' (known: basic, cg101, classic, contract, contract_big, "
    "gin, gin_match, indian, indian_deals, indian_pool101, indian_pool201, kalooki, "
    "kalooki_big, rami51, rum500, rum500_big, rummikub)": (
        "bsic 3H4H5H/KS - 7D 47 1p -/- 0,0 dealer=2"
    ),
    "stock: 10 cards, but 47 are named nowhere else": "basic 3H4H5H/KS - 7D 10 1p -/- 0,0 dealer=2",
    "hands: no 7S left in the deck for this": "basic 7S7S/KS - 7D 48 1p -/- 0,0 dealer=2",
    "table: meld 1 ('5H6H8H') is no meld these rules allow; write runs from low to high": (
        "basic 3H/KS 1:5H6H8H 7D 45 1p -/- 0,0 dealer=2"
    ),
    "active: the player to act has no legal move": (
        "rami51 3S4S5SKD2C/9C9H2D7S+9D - 4C 97 2p -/- 0,0 dealer=1 taken=9D pending=9D:use"
    ),
}


def test_documented_errors_are_the_errors_raised() -> None:
    """The error lines in the docs are what position_from_text says for these inputs."""
    block = _section().split("## What is checked")[1]
    listed = re.findall(r"```text\n(.*?)```", block, re.S)[0].strip().splitlines()
    assert sorted(listed) == sorted(DOCUMENTED_ERRORS)
    for message, text in DOCUMENTED_ERRORS.items():
        with pytest.raises(PositionError) as err:
            position_from_text(text)
        assert str(err.value) == message


# -- the round trip over random play -------------------------------------------------------
CASES = [
    (spec, n)
    for spec in (
        "basic",
        "classic",
        "cg101",
        "rami51",
        "gin",
        "gin_match",
        "gin(oklahoma=true)",
        "rum500",
        "rum500_big",
        "kalooki",
        "kalooki_big",
        "contract",
        "contract_big",
    )
    for n in sorted({Rules.parse(spec).min_players, Rules.parse(spec).max_players})
]
ROUND_TRIP = settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    phases=[Stage.explicit, Stage.reuse, Stage.generate],  # a seed is already minimal
)


def assert_round_trip(g: GameState) -> None:
    """The issue's property: the text read back writes the same text and has the
    same legal moves (in the same order with one deck; with two, copies of a face
    may trade places, which reorders the list but not what it holds)."""
    text = position_to_text(g)
    h = position_from_text(text)
    assert position_to_text(h) == text
    assert sorted(h.legal_moves()) == sorted(g.legal_moves())
    if g.rules.decks == 1:
        assert h.legal_moves() == g.legal_moves()
        assert h.hands == g.hands and h.stock == g.stock and h.table == g.table
    counted = position_to_text(g, stock_order=False)
    assert position_to_text(position_from_text(counted), stock_order=False) == counted


@pytest.mark.parametrize(("spec", "players"), CASES)
@ROUND_TRIP
@given(seed=st.integers(0, 10**6), moves=st.integers(0, 400))
def test_round_trip_after_random_play(spec: str, players: int, seed: int, moves: int) -> None:
    """Issue #15: ``position_from_text(position_to_text(s))`` writes the same text and
    has the same legal moves, for states reached by random play in every preset (every
    phase: Gin's first upcard, knock, lay-off, wall and a finished match included)."""
    g = new_game(spec, players=players, seed=seed)
    rng = random.Random(seed)
    for done in range(moves):
        if done % 25 == 0 or g.phase not in (Phase.DRAW, Phase.PLAY):
            assert_round_trip(g)
        if g.is_over():
            break
        g.apply(rng.choice(g.legal_moves()))
    assert_round_trip(g)


def test_round_trip_reaches_every_gin_phase() -> None:
    """The random Gin deals above do meet the wall and the knock phases: the same
    walk, with knocks preferred, checked at every state."""
    seen = set()
    for seed in range(12):
        g = new_game("gin", seed=seed)
        rng = random.Random(seed)
        while True:
            assert_round_trip(g)
            seen.add(g.phase)
            if g.is_over():
                break
            legal = g.legal_moves()
            knock = [m for m in legal if m.kind in (KNOCK, MELD)]
            g.apply(knock[0] if knock and rng.random() < 0.5 else rng.choice(legal))
    # Contract Rummy's buying: see test_rules_contract; Rummikub's turn: test_rules_rummikub
    assert seen == set(Phase) - {Phase.BUY, Phase.TILES}


# -- reading -------------------------------------------------------------------------------
def test_stock_as_a_count_is_the_unnamed_cards_shuffled_by_the_seed() -> None:
    """docs/notation.md: the unnamed cards in deck order, shuffled by
    random.Random(seed).shuffle; the state's generator continues from there."""
    text = "basic 3H4H5H/KS - 7D 47 1p -/- 0,0 dealer=2"
    named = set(parse_cards("3H 4H 5H KS 7D"))
    for seed in (0, 5):
        g = position_from_text(text + (f" seed={seed}" if seed else ""))
        expected = [c for c in deck() if c not in named]
        rng = random.Random(seed)
        rng.shuffle(expected)
        assert g.stock == expected
        assert g.rng.random() == rng.random()
    assert position_from_text(text).stock != position_from_text(text + " seed=5").stock


def test_two_decks_name_faces_and_take_the_copies_in_turn() -> None:
    g = position_from_text("rami51 7H7H/KSJK 2:JK=7H8H9H/1:ASJK=2S3S - 98 1p mol/mol 0,0 dealer=2")
    assert g.hands[0] == 1 << 32 | 1 << (32 + 54)  # both 7H, the first deck's first
    with pytest.raises(PositionError, match="no 7H left") as err:
        position_from_text("rami51 7H7H/7HKS - 4C 103 1p -/- 0,0 dealer=2")
    assert err.value.field == "hands"


def test_a_taken_card_melded_since_is_marked_out() -> None:
    """Two decks: seat 1 drew 6C from the pile and melded it; the 6C still in hand is
    the other copy and may be discarded (found by the round trip over random play)."""
    text = "rami51 6C9D+KD/5H2S 1:5C6C7C/2:AHJK=2H3H 4D 96 1p mol/mol 0,0 dealer=2 turn=3"
    g = position_from_text(text + " taken=6C:out melds=1")
    assert Move(DISCARD, parse_cards("6C")[0]) in g.legal_moves()
    assert g.taken in g.table[0].cards
    assert position_to_text(g, stock_order=False) == text + " taken=6C:out melds=1"
    held = text.replace("6C9D+KD", "6C9D+6CKD").replace(" 96 ", " 95 ")
    h = position_from_text(held.replace("1:5C6C7C", "1:8C9CTC") + " taken=6C")
    assert h.known[0] >> h.taken & 1  # the known copy is the one drawn
    assert Move(DISCARD, parse_cards("6C")[0]) in h.legal_moves()  # the other one


def test_writer_marks_known_cards_empty_hands_and_the_end() -> None:
    g = position_from_text("basic +7D9C/2CKDKS - 8D 46 2d -/- 0,0 dealer=1")
    assert position_to_text(g, stock_order=False).split()[1] == "+9C7D/2CKDKS"
    knocked = position_from_text(
        "gin -/AD3D5HJHQHKH4S5S6S8S 1:2H3H4H/1:7C7D7S/1:9C9D9S/1:JCQCKC 2C 29 2l mol/- 0,0 "
        "dealer=2 turn=9 melds=4 knocker=1"
    )
    assert position_to_text(knocked, stock_order=False).split()[1].startswith("-/")
    over = new_game("gin", seed=3)
    rng = random.Random(3)
    while not over.is_over():
        over.apply(rng.choice(over.legal_moves()))
    assert position_to_text(over).split()[5] == "x"
    assert_round_trip(over)


def test_any_order_of_a_set_and_friendly_cards() -> None:
    """A set may list its suits in any order; input takes 10, lower case and suit
    symbols; the writer puts everything back in canonical form."""
    g = position_from_text("basic 10h3♥/ks 1:qsQcqd 7d 45 1p mol/- 0,0 dealer=2")
    assert position_to_text(g, stock_order=False) == (
        "basic 3HTH/KS 1:QCQDQS 7D 45 1p mol/- 0,0 dealer=2"
    )


BASIC = "basic 3H4H5H/KS - 7D 47 1p -/- 0,0 dealer=2"
GIN = "gin 2H3H4H7S7D7C9C9D9S2CKD/AS2S3S4S5S6S8S5HTSJS - 8H 30 1p -/- 0,0 dealer=2"

BAD = {
    # (position, the field the error names)
    "too few fields": ("basic 3H/KS - 7D", ""),
    "bad rules": ("basic(nope=1) 3H4H5H/KS - 7D 47 1p -/- 0,0 dealer=2", "rules"),
    "rules too long": ("basic(" + "," * 5000 + ") 3H/KS - 7D 49 1p -/- 0,0 dealer=2", "rules"),
    "seven players in basic": ("basic 3H/4H/5H/6H/7H/8H/9H - 7D 44 1p -/-/-/-/-/-/- "
                               "0,0,0,0,0,0,0 dealer=2", "hands"),
    "bad card": (BASIC.replace("3H4H5H", "3H4Z5H"), "hands"),
    "a known part with nothing after +": (BASIC.replace("3H4H5H", "3H4H5H+"), "hands"),
    "a dash before +": (BASIC.replace("3H4H5H", "-+3H4H5H"), "hands"),
    "empty hand while playing": (BASIC.replace("/KS", "/-").replace(" 47 ", " 48 "), "hands"),
    "meld not allowed": ("basic 3H/KS 1:5H6H8H 7D 45 1p -/- 0,0 dealer=2", "table"),
    "meld without an owner": ("basic 3H/KS 5H6H7H 7D 45 1p -/- 0,0 dealer=2", "table"),
    "meld owner past the seats": ("basic 3H/KS 3:5H6H7H 7D 45 1p -/- 0,0 dealer=2", "table"),
    "meld owner not a number": ("basic 3H/KS x:5H6H7H 7D 45 1p -/- 0,0 dealer=2", "table"),
    "bare joker in a meld": ("rami51 3H/KS 1:5HJK7H 7D 101 1p mol/- 0,0 dealer=2", "table"),
    "joker for a joker": ("rami51 3H/KS 1:5HJK=JK7H 7D 101 1p mol/- 0,0 dealer=2", "table"),
    "run high to low": ("basic 3H/KS 1:7H6H5H 7D 45 1p mol/- 0,0 dealer=2", "table"),
    "melds in a Gin game before a knock": (GIN.replace(" - 8H 30", " 1:QCQDQS 8H 27"), "table"),
    "bad discard": (BASIC.replace(" 7D ", " 7X "), "discard"),
    "stock count wrong": (BASIC.replace(" 47 ", " 46 "), "stock"),
    "stock count of 20 digits": (BASIC.replace(" 47 ", " " + "9" * 20 + " "), "stock"),
    "stock missing cards": (BASIC.replace(" 47 ", " 2C "), "stock"),
    "stock with a bad card": (BASIC.replace(" 47 ", " 2Z "), "stock"),
    "seat past the table": (BASIC.replace(" 1p ", " 3p "), "active"),
    "unknown phase": (BASIC.replace(" 1p ", " 1z "), "active"),
    "first upcard in basic": (BASIC.replace(" 1p ", " 1u "), "active"),
    "knock phase in basic": (BASIC.replace(" 1p ", " 1k "), "active"),
    "melds before the draw": ("basic 3H/KS 1:5H6H7H 7D 46 1d mol/- 0,0 dealer=2 melds=1",
                              "active"),
    "taken before the draw": (BASIC.replace(" 1p ", " 1d ") + " taken=3H", "taken"),
    "flags for one seat": (BASIC.replace(" -/- ", " - "), "flags"),
    "unknown flag": (BASIC.replace(" -/- ", " x/- "), "flags"),
    "flags out of order": (BASIC.replace(" -/- ", " lm/- "), "flags"),
    "one score": (BASIC.replace(" 0,0 ", " 0 "), "scores"),
    "score not a number": (BASIC.replace(" 0,0 ", " 0,x "), "scores"),
    "score too large": (BASIC.replace(" 0,0 ", " 0,9999999999999 "), "scores"),
    "no dealer": (BASIC.replace(" dealer=2", ""), "dealer"),
    "dealer past the seats": (BASIC.replace("dealer=2", "dealer=3"), "dealer"),
    "dealer of 400 digits": (BASIC.replace("dealer=2", "dealer=" + "1" * 400), "dealer"),
    "unknown key": (BASIC + " colour=red", "colour"),
    "not key=value": (BASIC + " red", "red"),
    "key twice": (BASIC + " turn=2 turn=3", "turn"),
    "round 0": (BASIC + " round=0", "round"),
    "turn not a number": (BASIC + " turn=x", "turn"),
    "turn past the limit": (BASIC + " turn=1002", "turn"),
    "restocks past the turn": (BASIC + " turn=2 restocks=3", "restocks"),
    "taken card not held": (BASIC + " taken=7D", "taken"),
    "taken not a card": (BASIC + " taken=ZZ", "taken"),
    "taken somewhere odd": (BASIC + " taken=3H:left", "taken"),
    "taken out but in the stock": (BASIC + " taken=2C:out", "taken"),
    "pending of no kind": (BASIC + " pending=3H:now", "pending"),
    "pending not held": (BASIC + " pending=7D:meld", "pending"),
    "more melds than the table": (BASIC + " melds=1", "melds"),
    "opening without melds": (BASIC + " opening=10", "opening"),
    "pure not 0 or 1": (BASIC + " pure=2", "pure"),
    "pure without melds": (BASIC + " pure=1", "opening"),
    "laid at start but not now": (BASIC + " laid_at_start=1", "laid_at_start"),
    "knocker in basic": (BASIC + " knocker=1", "knocker"),
    "stage while playing": (BASIC + " stage=1", "stage"),
    "limit in basic": (BASIC + " limit=3", "limit"),
    "Gin limit not the knock card": (GIN + " limit=3", "limit"),
    "passes in basic": (BASIC + " passes=1", "passes"),
    "draws in basic": (BASIC + " draws=1", "draws"),
    "repeated in basic": (BASIC + " repeated=1", "repeated"),
    "seed not a number": (BASIC + " seed=x", "seed"),
    "first upcard to the dealer": (GIN.replace("2CKD/", "2C/").replace(" 30 1p ", " 31 2u "),
                                   "active"),
    "knock phase, another seat to act": (GIN.replace(" 1p ", " 2k ") + " knocker=1",
                                         "knocker"),
    "dead end": (DOCUMENTED_ERRORS["active: the player to act has no legal move"], "active"),
}  # fmt: skip


@pytest.mark.parametrize(("text", "field"), BAD.values(), ids=BAD.keys())
def test_every_bad_field_is_named(text: str, field: str) -> None:
    """Each wrong position raises PositionError (a RummyError) naming its field."""
    with hang_guard(), pytest.raises(PositionError) as err:
        position_from_text(text)
    assert err.value.field == field, str(err.value)


def test_positions_that_are_not_text_or_too_long() -> None:
    with pytest.raises(PositionError, match="text"):
        position_from_text(b"basic")  # type: ignore[arg-type]
    with hang_guard(), pytest.raises(PositionError, match="8,000"):
        position_from_text(BASIC + " " * MAX_POSITION_CHARS)


def test_a_read_position_passes_the_loaders_checks() -> None:
    """One validator for both readers: what a position builds, check_state accepts."""
    check_state(position_from_text(GIN))
    g = position_from_text(GIN)
    assert Move(KNOCK) in g.legal_moves() and Move(PASS) not in g.legal_moves()


def test_the_tests_build_positions_through_the_position_format() -> None:
    """Issue #15: tests/support/helpers.build writes a position and reads it; what it builds
    is a checked state whose text reads back the same.  Only rest="none" (a partial
    deck, which no position may be) leaves cards out afterwards."""
    from helpers import build, conserved

    g = build("rami51", hands=["2C 3C 4C 9D", "9H 4D"], table=[(1, "5H JK=6H 7H 8H")],
              discard="7D", taken="2C", opened=[True, True])  # fmt: skip
    check_state(g)
    assert g.pending == g.taken and g.known[0] == 1 << g.taken
    assert position_to_text(position_from_text(position_to_text(g))) == position_to_text(g)
    partial = build("classic", hands=["3H 9C", "KS"], discard="7D", rest="none")
    assert not partial.stock and not conserved(partial)

"""Every rule set that :class:`Rules` accepts can be played to the end (issue #15,
finding 1), and every one it refuses raises :class:`RulesError` naming the option.

The findings, each reproduced here: ``rami51(first_upcard_option=true)`` left a player
holding 14 cards with no legal move; ``rami51(max_upcard_draws=1,
never_melded_penalty=-1000)`` made ``new_game`` recurse until RecursionError (probing
whether the upcard could be taken ended the round on lists the probe shared with the
real state); ``basic(target_score=1000000000000)`` was a match that never ends.
Then a hypothesis test draws rule sets from the whole option space and plays random
matches for every allowed player count.
"""

from __future__ import annotations

import dataclasses
import random
import time
from enum import StrEnum
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from helpers import conserved
from rummykit import PRESETS, Rules, RulesError, new_game
from rummykit.moves import DRAW_DISCARD, PASS, Move
from rummykit.results import RoundEnd
from rummykit.rules import MAX_SPEC_LENGTH
from rummykit.state import Phase


def _play_out(spec: str | Rules, players: int, seed: int) -> int:
    """Random legal moves until the match is over; the number of moves."""
    g = new_game(spec, players=players, seed=seed)
    rng = random.Random(seed)
    moves = 0
    while not g.is_over():
        legal = g.legal_moves()
        assert legal, f"no legal move in phase {g.phase.name} for seat {g.current}"
        g.apply(rng.choice(legal))
        moves += 1
    assert conserved(g)
    return moves


# -- the findings ---------------------------------------------------------------------------
@pytest.mark.parametrize("players", [2, 3, 5])
def test_first_upcard_option_in_rami51_is_playable(players: int) -> None:
    """Taking the first upcard under ``discard_pickup=must_use`` is offered only when
    the card can be used at once (as for any draw from the pile, RULES-NOTES 7), and
    with more than two players each seat in turn may take or pass it."""
    spec = "rami51(first_upcard_option=true)"
    for seed in range(6):
        g = new_game(spec, players=players, seed=seed)
        assert g.phase is Phase.FIRST_UPCARD
        if Move(DRAW_DISCARD) in g.legal_moves():
            g.apply(Move(DRAW_DISCARD))
            assert g.legal_moves(), "the player who took the first upcard must be able to go on"
        _play_out(spec, players, seed)


def test_first_upcard_passes_go_round_the_table() -> None:
    g = new_game("basic(first_upcard_option=true)", players=4, seed=2)
    first = g.current
    seen = []
    for _ in range(4):
        seen.append(g.current)
        g.apply(Move(PASS))
    assert seen == [(first + k) % 4 for k in range(4)]
    assert g.current == first and [m.kind for m in g.legal_moves()] == [0]  # draw stock


def test_upcard_limit_probe_does_not_end_the_round() -> None:
    """``max_upcard_draws=1``: taking the upcard voids the hand; checking whether it may
    be taken must not play the void on the real state (it recursed to RecursionError,
    or with a positive penalty silently scored three rounds inside ``new_game``)."""
    g = new_game("rami51(max_upcard_draws=1)", players=3, seed=1)
    assert g.round_no == 1 and g.results == [] and g.scores == [0, 0, 0]
    assert Move(DRAW_DISCARD) in g.legal_moves()
    g.apply(Move(DRAW_DISCARD))
    assert g.round_no == 2 and g.results[-1].reason is RoundEnd.UPCARD_LIMIT
    with pytest.raises(RulesError, match="never_melded_penalty must be an integer from 0"):
        new_game("rami51(max_upcard_draws=1, never_melded_penalty=-1000)", players=2)


def test_match_to_an_unreachable_target_is_refused() -> None:
    with pytest.raises(RulesError, match="target_score must be an integer from 1 to 10000"):
        Rules.parse("basic(target_score=1000000000000)")


def test_the_deal_guard_ends_a_match_that_scores_nothing() -> None:
    """Void Gin hands score nothing, so a match to a target could go on for ever; the
    ``max_deals`` guard (like ``max_turns`` for a round) ends it."""
    g = new_game("gin_match(max_deals=3, max_upcard_draws=1)", seed=4)
    rng = random.Random(4)
    while not g.is_over():
        g.apply(rng.choice(g.legal_moves()))
    assert len(g.results) <= 3 and g.round_no == len(g.results)


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("basic(oklahoma=true)", "oklahoma sets the knock limit: it needs a knock_card"),
        ("rami51(opening_minimum=200)", "opening_minimum 200 is more than any hand"),
        ("rami51(never_melded_penalty=-1)", "never_melded_penalty must be an integer from 0"),
        ("basic(ace_points=-3)", "ace_points must be an integer from 0 to 100"),
        ("basic(max_turns=100000)", "max_turns must be an integer from 4 to 10000"),
        ("basic(max_deals=0)", "max_deals must be an integer from 1 to 10000"),
        ("gin(gin_bonus=-25)", "gin_bonus must be an integer from 0 to 1000"),
        ("gin(wall=-2)", "wall must be an integer from 0 to 50"),
        ("gin(max_upcard_draws=0)", "max_upcard_draws must be an integer from 1 to 1000"),
        ("basic(deals=" + "9" * 5000 + ")", "too long|expected an integer"),
    ],
)
def test_out_of_range_numbers_are_refused_by_name(spec: str, message: str) -> None:
    with pytest.raises(RulesError, match=message):
        Rules.parse(spec)


def test_rules_built_directly_are_checked_too() -> None:
    with pytest.raises(RulesError, match="multiple_melds must be a bool"):
        Rules(multiple_melds="no")  # type: ignore[arg-type]
    with pytest.raises(RulesError, match="decks must be an integer"):
        Rules(decks=True)
    with pytest.raises(RulesError, match="target_score must be an integer"):
        Rules(target_score=100.0)  # type: ignore[arg-type]


# -- the parser: linear time, bounded input, its own error ------------------------------------
def _parse_time(text: str) -> float:
    start = time.perf_counter()
    with pytest.raises(RulesError):
        Rules.parse(text)
    return time.perf_counter() - start


def test_spec_parser_is_linear_in_whitespace() -> None:
    """Issue #15, finding 5: 20k spaces took 1.4 s and 100k more than 15 s.  A run of
    spaces the length of the cap must cost about what a tenth of it costs (quadratic
    would be 100 times more); counted relative to each other, not against a clock."""
    small = min(_parse_time("basic" + " " * 400 + "x") for _ in range(5))
    large = min(_parse_time("basic" + " " * 4000 + "x") for _ in range(5))
    assert large < 30 * small + 0.002


@pytest.mark.parametrize(
    "text",
    [
        " " * 100_000,
        "basic" + " " * 100_000 + "x",
        "basic(" + "a=1," * 20_000 + ")",
        "{" + " " * 100_000 + "}",
    ],
    ids=["spaces", "spaces-inside", "options", "json"],
)
def test_spec_input_is_capped(text: str) -> None:
    with pytest.raises(RulesError, match=f"too long: .*at most {MAX_SPEC_LENGTH}"):
        Rules.parse(text)


@pytest.mark.parametrize(
    ("parse", "text"),
    [
        (Rules.parse, "basic(deals=" + "9" * 4200 + ")"),
        (Rules.from_json, '{"preset": "basic", "deals": ' + "9" * 4090 + "}"),
        (Rules.from_toml, "deals = " + "9" * 4080),
        (Rules.from_json, '{"preset": "basic", "deals": NaN}'),
        (Rules.from_json, '{"preset": "basic", "deals": Infinity}'),
        (Rules.from_json, '{"preset": "basic", "deals": 1e400}'),
        (Rules.from_json, '{"preset": "basic", "deals": 1e300}'),
        (Rules.from_json, "[" * 3000),
        (Rules.from_toml, "a = " + "[" * 3000),
        (Rules.from_json, '{"preset": ["basic"]}'),
        (Rules.from_toml, "[rules]\ndeals = {a = 1}"),
    ],
    ids=[
        "spec-digits",
        "json-digits",
        "toml-digits",
        "nan",
        "infinity",
        "1e400",
        "1e300",
        "json-nesting",
        "toml-nesting",
        "preset-list",
        "toml-table",
    ],
)
def test_huge_or_odd_numbers_raise_rules_error(parse: Any, text: str) -> None:
    """Issue #15, finding 5: a 5,000-digit number raised a plain ValueError."""
    with pytest.raises(RulesError):
        parse(text)


def test_number_past_pythons_digit_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    """Python refuses integers of more than ``sys.get_int_max_str_digits()`` digits
    with a plain ValueError.  The length cap keeps such text out today; with the cap
    raised, the parsers must still answer RulesError."""
    import sys

    from rummykit import rules as rules_module

    monkeypatch.setattr(rules_module, "MAX_SPEC_LENGTH", 10**6)
    digits = "9" * (sys.get_int_max_str_digits() + 1)
    for parse, text in (
        (Rules.parse, f"basic(deals={digits})"),
        (Rules.from_json, f'{{"preset": "basic", "deals": {digits}}}'),
        (Rules.from_toml, f"deals = {digits}"),
    ):
        with pytest.raises(RulesError):
            parse(text)


# -- the whole option space ---------------------------------------------------------------
_FIELDS = {f.name: f for f in dataclasses.fields(Rules) if f.name != "name"}
_GUARDS = {"max_turns", "max_deals"}
"""Drawn small so that each random match stays short; their large values are checked
for acceptance above.  A match is bounded by max_deals * max_turns turns."""


def _value(name: str, current: Any) -> st.SearchStrategy[Any]:
    if name == "max_turns":
        return st.integers(4, 40)
    if name == "max_deals":
        return st.integers(1, 3)
    if isinstance(current, bool):
        return st.booleans()
    if isinstance(current, StrEnum):
        return st.sampled_from(list(type(current)))
    small = st.integers(-3, 60)
    wide = st.one_of(small, st.integers(-(10**6), 10**13))
    if "None" in str(_FIELDS[name].type):
        return st.one_of(st.none(), wide)
    return wide


@st.composite
def rule_sets(draw: st.DrawFn) -> tuple[str, dict[str, Any]]:
    preset = draw(st.sampled_from(sorted(PRESETS)))
    base = Rules.preset(preset)
    names = draw(
        st.lists(st.sampled_from(sorted(_FIELDS.keys() - _GUARDS)), max_size=6, unique=True)
    )
    options = {n: draw(_value(n, getattr(base, n))) for n in names}
    for guard in _GUARDS:
        options[guard] = draw(_value(guard, getattr(base, guard)))
    return preset, options


@settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
@given(rule_sets(), st.integers(0, 2**32 - 1))
def test_every_accepted_rule_set_plays_to_the_end(
    drawn: tuple[str, dict[str, Any]], seed: int
) -> None:
    """Accepted sets play random matches to the end for every allowed player count with
    no engine error; refused sets raise RulesError (never another exception)."""
    preset, options = drawn
    try:
        rules = Rules.preset(preset).with_options(**options)
    except RulesError:
        return
    for players in range(rules.min_players, rules.max_players + 1):
        _play_out(rules, players, seed)

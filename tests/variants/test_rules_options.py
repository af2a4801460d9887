"""The rules object: presets, the spec language, JSON/TOML, every option with every
preset, and impossible combinations rejected with a clear :class:`RulesError`.

RULES-NOTES: "where the references disagree, make the choice a rules option"; seed 001:
"The following are flexible, optional house rules for Rummy you can play instead of the
standard rules" - so every option must combine with every preset.
"""

from __future__ import annotations

import dataclasses
import json
import random
from enum import StrEnum
from typing import Any

import pytest

from rummykit import PRESETS, Rules, RulesError, new_game
from rummykit.rules import (
    Ace,
    DiscardPickup,
    OpeningScope,
    Restock,
    RummyBonus,
    Scoring,
    SetSuits,
    SwappedJoker,
)

ALL_OPTIONS = [f.name for f in dataclasses.fields(Rules) if f.name != "name"]
SEED_PRESETS = ["basic", "classic", "cg101", "rami51"]
"""The presets of the four seeds; knock-game presets (Gin) have their own tests."""
KNOCK_OPTIONS = {
    "knock_card", "meld_in_play", "first_upcard_option", "oklahoma", "gin_bonus",
    "undercut_bonus", "wall", "discard_taken_card", "repeat_void", "max_upcard_draws",
    "max_meld_size", "game_bonus", "line_bonus", "shutout_double",
}  # fmt: skip
"""Options of knock games (RULES-NOTES, Gin Rummy); several of them need the Gin preset's
two players and ``meld_in_play=false``, so they are tested with the knock games."""
DECLARE_OPTIONS = {
    "declare", "wild_cut", "first_drop", "middle_drop", "max_hand_points", "elimination",
    "wrong_show",
}  # fmt: skip
"""Options of declaration games (Indian Rummy): they need ``meld_in_play=false`` and
each other, so tests/variants/test_rules_indian.py combines them with the Indian presets."""
TILE_OPTIONS = {"free_table", "first_meld_untouched", "turn_seconds"}
"""Rummikub's options: its tiles and sets are fixed (two decks, ace low, sets of distinct
colours), so tests/variants/test_rules_rummikub.py combines them with its preset."""
OPTION_NAMES = [n for n in ALL_OPTIONS if n not in KNOCK_OPTIONS | DECLARE_OPTIONS | TILE_OPTIONS]


def _toml_value(v: Any) -> str:
    if v is None:
        return '"none"'
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    return json.dumps(str(v))


def _to_toml(r: Rules) -> str:
    lines = ["[rules]", f'preset = "{r.name}"']
    lines += [f"{k} = {_toml_value(v)}" for k, v in r.changed_options().items()]
    return "\n".join(lines) + "\n"


def _round_trips(r: Rules) -> None:
    assert Rules.parse(r.spec()) == r
    assert Rules.from_json(r.to_json()) == r
    assert Rules.parse(r.to_json()) == r  # JSON objects are specs too
    assert Rules.from_toml(_to_toml(r)) == r


def _alternatives(r: Rules, name: str) -> list[tuple[Any, dict[str, Any]]]:
    """Values of ``name`` other than ``r``'s, each with companion options it needs."""
    current = getattr(r, name)
    if name == "last_deal_no_discard":  # a contract game's house rule
        return [(True, {"contracts": "ss/sr", **_contract_companions(r)})]
    if name == "joker_to_end":  # a swap that moves the joker: jokers, no freeing swap
        return [(True, {"jokers": r.jokers or 2, "joker_swap": False})]
    if name == "set_joker_both_suits" and not (r.joker_swap and r.jokers):
        return [(True, {"joker_swap": True, "jokers": r.jokers or 2})]
    if isinstance(current, bool):
        return [(not current, {})]
    if isinstance(current, StrEnum):
        out: list[tuple[Any, dict[str, Any]]] = []
        for v in type(current):
            if v is current:
                continue
            companions = {"decks": 2} if v is SetSuits.ANY and r.decks == 1 else {}
            out.append((v, companions))
        return out
    special: dict[str, list[tuple[Any, dict[str, Any]]]] = {  # every non-bool, non-enum option
        "decks": [(2, {})] if r.decks == 1 else [(1, {"max_players": 3})],
        "jokers": [(2 if r.jokers == 0 else 0, {})],
        "min_players": [(3, {})],
        "max_players": [(4, {})],
        "hand_size": [(7, {})] if r.hand_size is None else [(None, {}), (9, {})],
        "jokers_per_meld": [(2 if r.jokers_per_meld == 1 else 1, {})],
        "opening_minimum": [(40, {})],
        "max_restocks": [(2, {}), (0, {})] if r.max_restocks is None else [(None, {})],
        "max_turns": [(500, {})],
        "max_deals": [(2, {})],
        "ace_points": [(5, {})],
        "joker_points": [(25, {})],
        "never_melded_penalty": [(50, {})],
        "one_turn_out_bonus": [(-50, {})],
        "target_score": [(250, {})],
        "deals": [(3, {})],
        "min_run": [(4, {})],
        "buy_penalty": [(2, {})],
        "contracts": [("ss/sr", _contract_companions(r))],
        "deal_sizes": [("7/6", {"contracts": "ss/sr", **_contract_companions(r)})],
        "buys_per_round": [(2, {"contracts": "ss/sr", **_contract_companions(r)})],
    }
    return special.get(name, [])


def _contract_companions(r: Rules) -> dict[str, Any]:
    """What a preset must change to take contracts (Contract Rummy's going down replaces
    an opening minimum, and a taken discard is kept in hand)."""
    if not r.opening_minimum:
        return {}
    return {
        "opening_minimum": 0,
        "take_from_meld": False,
        "discard_pickup": DiscardPickup.FREE,
        "swapped_joker": SwappedJoker.KEEP,
    }


CASES = [
    (preset, name, value, companions)
    for preset in SEED_PRESETS
    for name in OPTION_NAMES
    for value, companions in _alternatives(PRESETS[preset], name)
]


def _render(v: Any) -> str:
    if v is None:
        return "none"
    if isinstance(v, bool):
        return str(v).lower()
    return str(v)


def test_every_rummy_option_is_covered() -> None:
    """Every option has alternatives here (and a row in docs/rules.md)."""
    missing = [n for p in SEED_PRESETS for n in OPTION_NAMES if not _alternatives(PRESETS[p], n)]
    assert not missing, f"add these options to _alternatives and docs/rules.md: {missing}"


@pytest.mark.parametrize(
    ("preset", "name", "value", "companions"),
    CASES,
    ids=[f"{p}-{n}={_render(v)}" for p, n, v, _c in CASES],
)
def test_every_option_settable_with_every_preset(
    preset: str, name: str, value: Any, companions: dict[str, Any]
) -> None:
    opts = {name: _render(value), **{k: _render(v) for k, v in companions.items()}}
    spec = f"{preset}({', '.join(f'{k}={v}' for k, v in opts.items())})"
    moot = PRESETS[preset].replaced({name: value, **companions}).inert_options()
    if name in moot:  # an option that would change nothing is refused (test_rules_effect.py)
        with pytest.raises(RulesError, match=f"{name} changes nothing in {preset}"):
            Rules.parse(spec)
        return
    r = Rules.parse(spec)
    assert getattr(r, name) == value
    assert r.name == preset
    _round_trips(r)
    # the game runs: a few random moves from the deal
    g = new_game(r, players=r.min_players, seed=1)
    rng = random.Random(1)
    for _ in range(30):
        if g.is_over():
            break
        g.apply(rng.choice(g.legal_moves()))


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_preset_by_name_and_round_trip(preset: str) -> None:
    r = Rules.parse(preset)
    assert r is PRESETS[preset] or r == PRESETS[preset]
    assert r.spec() == preset and r.changed_options() == {}
    _round_trips(r)
    assert Rules.from_json(json.dumps({"preset": preset})) == r
    assert Rules.from_toml(f'preset = "{preset}"\n') == r  # a top-level table works too


def test_spec_language_is_forgiving_about_case_and_spaces() -> None:
    r = Rules.parse("  RAMI51 ( opening_minimum = 40 ,  ace = 'LOW' ) ")
    assert r.name == "rami51" and r.opening_minimum == 40 and r.ace is Ace.LOW
    assert Rules.parse("basic(multiple_melds=yes)").multiple_melds
    assert not Rules.parse("cg101(multiple_melds=off)").multiple_melds


def test_combined_options_round_trip() -> None:
    r = Rules.parse(
        "basic(multiple_melds=true, ace=high_or_low, final_discard=true, "
        "layoff_after_own_meld=true, rummy_bonus=plus_ten, restock=shuffle, "
        "max_restocks=2, deals=4)"
    )
    assert r.deals == 4 and r.target_score is None and r.ace_points == 15
    _round_trips(r)
    assert r.spec().startswith("basic(") and "deals=4" in r.spec()


def test_ace_high_or_low_sets_fifteen_points_unless_given() -> None:
    """001: "the ace's point value becomes fifteen instead of one"."""
    assert Rules.parse("basic(ace=high_or_low)").ace_points == 15
    assert Rules.parse("cg101(ace=high_or_low)").ace_points == 15
    assert Rules.parse("basic(ace=high_or_low, ace_points=1)").ace_points == 1
    assert Rules.parse("rami51(ace=high_or_low)").ace_points == 11  # Rami keeps 11


def test_options_are_json_ready() -> None:
    opts = Rules.preset("rami51").options()
    assert set(opts) == set(ALL_OPTIONS)
    assert json.loads(json.dumps(opts)) == opts
    assert opts["ace"] == "high_or_low" and opts["hand_size"] == 13


def test_rules_are_frozen_values() -> None:
    r = Rules.preset("basic")
    with pytest.raises(dataclasses.FrozenInstanceError):
        r.decks = 2  # type: ignore[misc]
    assert hash(r) == hash(Rules.parse("basic"))


def test_enum_values_documented() -> None:
    for enum in (Ace, Scoring, Restock, RummyBonus, SetSuits, SwappedJoker, DiscardPickup,
                 OpeningScope):  # fmt: skip
        assert all(isinstance(v.value, str) for v in enum)


# -- rejected ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        # too many players for the deck
        ("basic(hand_size=13)", r"4 players need 54 cards .* the deck has 52"),
        ("basic(max_players=9)", r"max_players must be an integer from 2 to 8, not 9"),
        ("basic(max_players=8, hand_size=7)", r"8 players need 58 cards"),
        ("rami51(decks=1)", r"5 players need 67 cards .* the deck has 54"),
        ("rami51(jokers=0, hand_size=21)", r"5 players need 107 cards .* has 104"),
        # set_suits=any with one deck
        ("basic(set_suits=any)", "set_suits=any needs two decks"),
        ("rami51(decks=1, max_players=3, set_suits=any)", "set_suits=any needs two decks"),
        # both or neither of target_score and deals
        ("basic(deals=5, target_score=100)", "set exactly one of target_score and deals"),
        ("basic(target_score=none)", "set exactly one of target_score and deals"),
        ("cg101(deals=none)", None),  # deals=none keeps the target: fine
        # unknown option
        (
            "basic(players=9)",
            r"unknown option 'players' \(did you mean min_players or max_players\?\)$",
        ),
        ("basic(no_such_option=1)", r"unknown option 'no_such_option'$"),
        ("basic(name=x)", "unknown option 'name'"),
        ("basic(Multiple_Melds=true)", "unknown option 'Multiple_Melds'"),
        # bad values
        ("basic(ace=sideways)", r"bad value 'sideways' for ace: expected one of low, high_or_low"),
        ("basic(multiple_melds=maybe)", "expected true or false"),
        ("basic(decks=three)", "bad value 'three' for decks: expected an integer"),
        ("basic(max_restocks=lots)", "expected an integer or none"),
        ("basic(decks=none)", "expected an integer"),
        ("basic(decks=4)", "decks must be an integer from 1 to 3, not 4"),
        ("basic(jokers=3)", "jokers must be an integer from 0 to 2, not 3"),
        ("basic(min_players=1)", "min_players must be an integer from 2 to 8, not 1"),
        ("basic(min_players=5, max_players=4)", "player range 5..4 is impossible"),
        ("basic(hand_size=0)", "hand_size must be an integer from 1 to 52, not 0"),
        ("basic(jokers_per_meld=3)", "jokers_per_meld must be an integer from 0 to 2"),
        ("basic(deals=0)", "deals must be an integer from 1 to 1000, not 0"),
        ("basic(target_score=0)", "target_score must be an integer from 1 to 10000"),
        ("basic(max_restocks=-1)", "max_restocks must be an integer from 0 to 100"),
        ("basic(max_turns=3)", "max_turns must be an integer from 4 to 10000"),
        ("rami51(opening_minimum=-5)", "opening_minimum must be an integer from 0 to 1000"),
        # malformed specs
        ("poker", r"unknown preset 'poker' \(known: basic, cg101, classic, "),
        ("basic(", "malformed rules spec"),
        ("basic(multiple_melds)", "malformed option 'multiple_melds': expected key=value"),
        ("basic(ace=low, ace=low)", "option 'ace' given twice"),
        ("{not json", "bad rules JSON"),
    ],
)
def test_impossible_or_malformed_rules_rejected(spec: str, message: str | None) -> None:
    if message is None:
        Rules.parse(spec)
        return
    with pytest.raises(RulesError, match=message):
        Rules.parse(spec)


def test_rules_error_is_a_value_error() -> None:
    with pytest.raises(ValueError):
        Rules.parse("basic(decks=4)")


def test_direct_construction_is_checked_too() -> None:
    with pytest.raises(RulesError, match="set_suits=any needs two decks"):
        Rules(set_suits=SetSuits.ANY)
    with pytest.raises(RulesError, match="players need"):
        dataclasses.replace(Rules.preset("basic"), hand_size=20)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[1, 2]", "rules JSON must be an object"),
        ('{"preset": 3}', "preset must be a string"),
        ('{"preset": "basic", "decks": "two"}', "expected an integer"),
        ('{"preset": "basic", "decks": true}', "expected an integer"),
        ('{"preset": "basic", "multiple_melds": 2}', "expected true or false"),
        ('{"preset": "basic", "colour": "red"}', "unknown option 'colour'"),
    ],
)
def test_bad_json(text: str, message: str) -> None:
    with pytest.raises(RulesError, match=message):
        Rules.from_json(text)


def test_json_accepts_native_values() -> None:
    r = Rules.from_json('{"preset": "rami51", "opening_minimum": 40, "joker_swap": false, '
                        '"max_restocks": null, "deals": 3}')  # fmt: skip
    assert r.opening_minimum == 40 and not r.joker_swap and r.deals == 3


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[rules\npreset = 1", "bad rules TOML"),
        ("rules = 3", r"\[rules\] must be a table"),
        ('[rules]\npreset = "basic"\nace = "diagonal"', "bad value 'diagonal' for ace"),
    ],
)
def test_bad_toml(text: str, message: str) -> None:
    with pytest.raises(RulesError, match=message):
        Rules.from_toml(text)


def test_toml_with_rules_table() -> None:
    r = Rules.from_toml('[rules]\npreset = "cg101"\ntarget_score = 200\nmultiple_melds = false\n')
    assert r.name == "cg101" and r.target_score == 200 and not r.multiple_melds


# -- player counts ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("spec", "players"),
    [("basic", 1), ("basic", 7), ("classic", 7), ("cg101", 7), ("rami51", 6), ("rami51", 1),
     ("basic(max_players=4)", 5), ("rami51(min_players=3)", 2)],
)  # fmt: skip
def test_new_game_rejects_player_counts_outside_the_preset(spec: str, players: int) -> None:
    r = Rules.parse(spec)
    with pytest.raises(RulesError, match=f"is for {r.min_players} to {r.max_players} players"):
        new_game(spec, players=players)
    with pytest.raises(RulesError):
        new_game(r, players=["x"] * players)


def test_new_game_rejects_a_dealer_outside_the_table() -> None:
    with pytest.raises(RulesError, match=r"dealer must be a seat 0\.\.2"):
        new_game("basic", players=3, dealer=3)


def test_new_game_with_names() -> None:
    g = new_game("classic", players=["Ann", "Bob", "Cy"], seed=0)
    assert g.names == ["Ann", "Bob", "Cy"] and g.num_players == 3


def test_a_bare_preset_is_the_preset_itself() -> None:
    """A spec with no options, or ``with_options()`` with none, gives the preset's own
    frozen object: nothing to copy or check again, so that starting a new game of a
    preset (200 Gin hands in ``benchmarks/engine_ab.py``) costs no rules work."""
    for name, preset in PRESETS.items():
        assert Rules.parse(name) is preset
        assert Rules.parse(f" {name.upper()}() ") is preset
        assert preset.with_options() is preset
        assert new_game(name, preset.min_players).rules is preset

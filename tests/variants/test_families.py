"""Every rules object names its family (``Rules.family``), the variant that plays it is
that family's, and a family is found by its name or an alias (``find_variant``, as in
python-chess)."""

from __future__ import annotations

import random

import pytest

from rummykit import Rules, RulesError
from rummykit.game import Game
from rummykit.phase import Phase
from rummykit.rules import PRESETS, Family
from rummykit.state import new_game
from rummykit.variants import (
    VARIANTS,
    Contract,
    Gin,
    Indian,
    Rum500,
    Rummikub,
    Rummy,
    find_variant,
    variant_for,
)

EXPECTED = {
    "basic": Family.RUMMY, "classic": Family.RUMMY, "cg101": Family.RUMMY,
    "rami51": Family.RUMMY, "kalooki": Family.RUMMY, "kalooki_big": Family.RUMMY,
    "gin": Family.GIN, "gin_match": Family.GIN, "rum500": Family.RUM500,
    "rum500_big": Family.RUM500, "indian": Family.INDIAN, "indian_pool101": Family.INDIAN,
    "indian_pool201": Family.INDIAN, "indian_deals": Family.INDIAN,
    "contract": Family.CONTRACT, "contract_big": Family.CONTRACT,
    "rummikub": Family.RUMMIKUB,
}  # fmt: skip


def test_every_preset_names_its_family() -> None:
    assert {name: rules.family for name, rules in PRESETS.items()} == EXPECTED


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_the_game_plays_a_preset_with_its_familys_variant(name: str) -> None:
    rules = PRESETS[name]
    variant = new_game(name, rules.min_players, seed=1).game.variant
    assert variant.name is rules.family
    assert type(variant) is find_variant(rules.family)


def test_an_option_that_makes_a_family_moves_the_rules_into_it() -> None:
    assert Rules.parse("basic(meld_scoring=true)").family is Family.RUM500
    assert Rules.parse("basic(deep_discard=true)").family is Family.RUM500
    assert type(variant_for(Rules.parse("basic(deep_discard=true)"))) is Rum500


def test_contracts_are_refused_in_a_declaration_game() -> None:
    """The families are exclusive: no rules are both Indian Rummy and Contract Rummy."""
    with pytest.raises(RulesError, match="contracts are for draw-meld-discard games"):
        Rules.parse("indian(contracts=ss/sr)")


@pytest.mark.parametrize(
    ("name", "variant"),
    [
        ("gin", Gin), ("Gin Rummy", Gin), ("gin_rummy", Gin), ("GIN-RUMMY", Gin),
        ("indian", Indian), ("Indian Rummy", Indian), ("13 card rummy", Indian),
        ("contract", Contract), ("Shanghai", Contract), ("contract rummy", Contract),
        ("rum500", Rum500), ("500 Rum", Rum500), ("rummy 500", Rum500),
        ("rummy", Rummy), (" Basic Rummy ", Rummy), ("kalooki", Rummy),
        ("rummikub", Rummikub), ("Rummy-O", Rummikub), ("rummycube", Rummikub),
    ],
)  # fmt: skip
def test_a_variant_is_found_by_its_name_or_an_alias(name: str, variant: type) -> None:
    assert find_variant(name) is variant


def test_every_name_and_alias_finds_one_variant_only() -> None:
    seen: dict[str, str] = {}
    for v in VARIANTS:
        for alias in (v.name, *v.aliases):
            key = " ".join(alias.lower().replace("_", " ").replace("-", " ").split())
            assert seen.setdefault(key, v.name) == v.name, alias
    assert {v.name for v in VARIANTS} == set(Family)


def test_an_unknown_variant_name_is_refused_naming_the_families() -> None:
    with pytest.raises(ValueError, match=r"unknown variant 'canasta'.*gin"):
        find_variant("canasta")


def test_the_phase_values_are_the_saved_ones() -> None:
    """Saves write a phase by name and positions by word, but the numbers index the
    game's per-phase tables: they never move."""
    assert [(p.name, p.value) for p in Phase] == [
        ("DRAW", 0), ("PLAY", 1), ("OVER", 2), ("FIRST_UPCARD", 3), ("KNOCK", 4),
        ("LAYOFF", 5), ("WALL", 6), ("BUY", 7), ("TILES", 8),
    ]  # fmt: skip


def test_each_family_names_the_phases_it_plays() -> None:
    assert Rummy.own_phases == Rum500.own_phases == {Phase.FIRST_UPCARD}
    assert Gin.own_phases == {Phase.FIRST_UPCARD, Phase.KNOCK, Phase.LAYOFF, Phase.WALL}
    assert Indian.own_phases == {Phase.KNOCK}
    assert Contract.own_phases == {Phase.FIRST_UPCARD, Phase.BUY}
    assert Rummikub.own_phases == {Phase.TILES}
    shared = {Phase.DRAW, Phase.PLAY, Phase.OVER}
    assert all(not v.own_phases & shared for v in VARIANTS)
    assert all(v.turn_phase in v.own_phases | {Phase.DRAW} for v in VARIANTS)
    assert set().union(*(v.own_phases for v in VARIANTS)) == set(Phase) - shared


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_the_game_hands_a_phases_moves_to_the_variant_by_membership(name: str) -> None:
    game = Game.shared(PRESETS[name], PRESETS[name].min_players)
    assert game.variant_phase == tuple(p in type(game.variant).own_phases for p in Phase)


@pytest.mark.parametrize(("spec", "players"), [("gin", 2), ("indian", 3), ("contract", 3)])
def test_a_random_match_visits_only_its_familys_phases(spec: str, players: int) -> None:
    allowed = {Phase.DRAW, Phase.PLAY, Phase.OVER} | find_variant(spec).own_phases
    seen: set[Phase] = set()
    g = new_game(spec, players, seed=3)
    rng = random.Random(3)
    for _ in range(3000):
        if g.is_over():
            break
        seen.add(g.phase)
        g.apply(rng.choice(g.legal_moves()))
    assert {Phase.DRAW, Phase.PLAY} <= seen <= allowed, seen

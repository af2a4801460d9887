"""Every accepted option changes the game: the walk over every option of every preset.

An option that changes nothing misleads a player who sets it (``joker_points`` in
Indian Rummy, where jokers count 0; ``layoff_after_own_meld=false`` in Contract Rummy,
where lay-offs wait for going down whatever it says).  :meth:`Rules.inert_options` is
the one table of which options apply to which games; a change to an option it lists is
refused with an error naming the option and the game.  The walk checks both sides of
that table, for every preset, every option and several values of each:

* an option the table lists is refused, by name and game, and a game played with it
  forced in (``Rules.replaced``, one value an option) plays exactly as the preset
  does: the same legal moves, moves, scores and results, seed for seed;
* an option it does not list is accepted and round-trips through the spec.
"""

from __future__ import annotations

import dataclasses
import functools
import random
from enum import StrEnum
from typing import Any

import pytest

from rummykit import PRESETS, Rules, RulesError, new_game
from rummykit.moves import DROP, KNOCK, LAYOFF, MELD
from rummykit.rules import _BOUNDS, _OPTIONAL
from rummykit.variants.indian import declare_fields

OPTIONS = [f.name for f in dataclasses.fields(Rules) if f.name != "name"]
SEEDS = (0, 1)
ACTIONS = 300
"""A trace follows the first actions of a seeded match: a change that could matter
shows in the legal moves long before this."""


def alternatives(r: Rules, name: str) -> list[Any]:
    """Values of option ``name`` other than ``r``'s: the other booleans and enum values,
    numbers at and near both ends of their range, ``none`` for an optional number, and
    contract words."""
    current = getattr(r, name)
    if isinstance(current, bool):
        return [not current]
    if isinstance(current, StrEnum):
        return [v for v in type(current) if v != current]
    if name in _BOUNDS:
        lo, hi = _BOUNDS[name]
        out: list[Any] = [v for v in dict.fromkeys((lo, lo + 1, 5, hi)) if v != current]
        if name in _OPTIONAL and current is not None:
            out.append(None)
        return out
    return {"contracts": ["ss/sr"], "deal_sizes": ["7/6"]}.get(name, [])


def render(v: Any) -> str:
    if v is None:
        return "none"
    return str(v).lower() if isinstance(v, bool) else str(v)


def trace(r: Rules, players: int, seed: int) -> list[Any]:
    """What a seeded match shows in its first :data:`ACTIONS` actions: the deal, each
    legal list and move (a random one, melds, lay-offs and declarations first so that
    deals end), the results and the scores."""
    g = new_game(r, players, seed=seed)
    rng = random.Random(seed)
    out: list[Any] = [tuple(g.hands), declare_fields(g).wild]
    for _ in range(ACTIONS):
        if g.is_over():
            break
        legal = g.legal_moves()
        busy = [m for m in legal if m.kind in (KNOCK, MELD, LAYOFF)]
        pick = busy if busy and rng.random() < 0.8 else [m for m in legal if m.kind != DROP]
        move = (pick or legal)[rng.randrange(len(pick or legal))]
        out.append((g.current, tuple(legal), move))
        g.apply(move)
    out.append([(res.reason, res.deltas, [p.notes for p in res.players]) for res in g.results])
    out.append((tuple(g.scores), g.is_over()))
    return out


@functools.cache
def preset_trace(preset: str, seed: int) -> list[Any]:
    """:func:`trace` of the preset itself, at its fewest players (played once)."""
    r = PRESETS[preset]
    return trace(r, r.min_players, seed)


CASES = [(p, n) for p in PRESETS for n in OPTIONS]


@pytest.mark.parametrize(("preset", "name"), CASES, ids=[f"{p}-{n}" for p, n in CASES])
def test_an_accepted_option_changes_the_game(preset: str, name: str) -> None:
    base = PRESETS[preset]
    players = base.min_players
    traced = False
    for value in alternatives(base, name):
        spec = f"{preset}({name}={render(value)})"
        try:
            forced = base.replaced({name: value})
        except RulesError:
            continue  # an impossible value, refused for its own reason
        if name not in forced.inert_options():
            r = Rules.parse(spec)
            assert getattr(r, name) == value and Rules.parse(r.spec()) == r
            continue
        with pytest.raises(RulesError) as e:
            Rules.parse(spec)
        assert f"{name} changes nothing in {preset}" in str(e.value)
        if not traced:  # one value played is enough: the table's reason covers them all
            traced = True
            for seed in SEEDS:
                assert trace(forced, players, seed) == preset_trace(preset, seed), (spec, seed)


def test_the_reported_options_are_refused() -> None:
    """Indian Rummy counts jokers and wild cards 0 (Playship, "Pool Rummy": "Wild and
    Printed Joker 0"), so ``joker_points`` cannot matter; in Contract Rummy "Once a
    player has gone down ... he may not create any new sets or runs" and lays off only
    then (Wikipedia, "Contract rummy"), so ``layoff_after_own_meld=false`` cannot."""
    for spec, words in (
        ("indian(joker_points=10)", "joker_points changes nothing in indian"),
        ("indian_pool101(joker_points=10)", "joker_points changes nothing in indian_pool101"),
        (
            "contract(layoff_after_own_meld=false)",
            "layoff_after_own_meld changes nothing in contract",
        ),
        ("basic(buy_penalty=2)", "buy_penalty changes nothing in basic"),
        ("indian_deals(elimination=true)", "elimination changes nothing in indian_deals"),
    ):
        with pytest.raises(RulesError, match=words):
            Rules.parse(spec)
    # The same options where they do apply.
    assert Rules.parse("rami51(joker_points=25)").joker_points == 25
    assert Rules.parse("basic(layoff_after_own_meld=true)").layoff_after_own_meld
    assert Rules.parse("basic(jokers=2, joker_points=5)").joker_points == 5


def test_a_knock_game_refuses_a_longer_run() -> None:
    """A knock counts runs of three or more, so under ``min_run=4`` a player could
    knock and then find no legal move in the knock phase: the option is refused in
    knock games."""
    with pytest.raises(RulesError, match="min_run"):
        Rules.parse("gin(min_run=4)")


def test_a_saved_game_with_an_option_that_changes_nothing_still_loads() -> None:
    """Tables, saves and records written before such options were refused keep loading:
    the loaders read a saved spec as it is (``Rules.parse(saved=True)``), and it plays
    exactly as the preset does; only a new game refuses the option."""
    from rummykit.notation import export_record, import_record
    from rummykit.serialize import state_from_json, state_to_json

    with pytest.raises(RulesError, match="joker_points"):
        Rules.parse("basic(joker_points=5)")
    old = Rules.parse("basic(joker_points=5)", saved=True)
    g = new_game(old, players=2, seed=3)
    g.apply(g.legal_moves()[0])
    assert state_from_json(state_to_json(g)).rules == old
    assert import_record(export_record(g)).history == g.history

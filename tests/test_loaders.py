"""The two loaders of outside states: a saved state (JSON) and a position (text).

A reloaded state is the state that was saved, as every seat sees it; and both loaders
refuse what no play could reach, with the same typed errors, whatever the damage.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import Phase as Stage
from hypothesis import strategies as st

from rummykit import GameState, Phase, new_game
from rummykit.cards import mask_of, parse_cards
from rummykit.moves import DISCARD, MELD
from rummykit.position import PositionError, position_from_text
from rummykit.rules import PRESETS
from rummykit.serialize import (
    StateFormatError,
    state_from_dict,
    state_from_json,
    state_to_dict,
    state_to_json,
)

SETTINGS = settings(
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    # A failing seed is already minimal: shrinking would replay whole games.
    phases=[Stage.explicit, Stage.reuse, Stage.generate],
)


def _move(g: GameState, r: random.Random) -> None:
    """A random legal move, biased to melds and discards so that rounds end."""
    legal = g.legal_moves()
    active = [m for m in legal if m.kind >= MELD]
    if active and r.random() < 0.7:
        g.apply(r.choice(active))
        return
    discards = [m for m in legal if m.kind == DISCARD]
    g.apply(r.choice(discards if discards and r.random() < 0.5 else legal))


def _same_for_every_seat(g: GameState, h: GameState) -> None:
    for p in range(g.num_players):
        assert h.view(p) == g.view(p), f"seat {p} sees another state after a reload"
    assert h.legal_moves() == g.legal_moves()


@pytest.mark.parametrize("preset", sorted(PRESETS))
@settings(SETTINGS, max_examples=2)
@given(seed=st.integers(min_value=0, max_value=2**32 - 1))
def test_reloaded_state_shows_every_seat_the_same(preset: str, seed: int) -> None:
    """At every move of a short random match (two deals, each cut at 40 turns, so the
    match's end and the second deal's window are reached), every seat's view and the
    legal moves of the state saved and loaded back are those of the state itself."""
    r = random.Random(seed)
    rules = PRESETS[preset]
    players = r.randint(rules.min_players, min(rules.max_players, rules.min_players + 1))
    g = new_game(f"{preset}(deals=2, max_turns=40)", players=players, seed=seed)
    for _ in range(400):
        _same_for_every_seat(g, state_from_dict(state_to_dict(g)))
        if g.is_over():
            break
        _move(g, r)


def test_gin_knock_at_the_wall_reloads_with_its_round() -> None:
    """Seed 000 (Gin): at the wall the player to act may knock with the upcard instead
    of drawing, so that turn has no draw and the round's moves cannot be counted back
    from the turn number: the saved state says where the round begins."""
    g = new_game("gin_match", seed=56)
    r = random.Random(56)
    while True:
        at_wall = g.phase is Phase.WALL
        g.apply(r.choice(g.legal_moves()))
        if at_wall and g.phase is Phase.KNOCK:
            break
    h = state_from_json(state_to_json(g))
    assert (len(g.history), g.round_start) == (1862, 1749)
    assert h.round_start == g.round_start
    _same_for_every_seat(g, h)


def test_saves_before_format_3_find_their_round_in_the_history() -> None:
    """A save written before ``round_start`` was stored (the web server's database
    holds such states) loads, its round found by walking back over the turns."""
    g = new_game("rami51", players=3, seed=4)
    r = random.Random(4)
    while g.round_no == 1 or g.phase is not Phase.PLAY:
        _move(g, r)
    d = state_to_dict(g)
    del d["round_start"]
    d["format"] = 2
    h = state_from_dict(d)
    assert h.round_start == g.round_start > 0
    _same_for_every_seat(g, h)
    d["format"] = 3
    with pytest.raises(StateFormatError, match="missing fields: round_start"):
        state_from_dict(d)


# -- one invariant check for both loaders ------------------------------------------------
DEAD_END = "rum500 2D7S3S4SKD+9D/5S9C9H2C - 4C 41 1p -/- 0,0 dealer=2 taken=9D pending=9D:use"
"""Seed 500 ("500 Rum", the deep draw): the deepest card taken must be used at once;
here nothing in the hand can meld with the 9D, so the player to act has no move."""


def test_a_dead_end_is_refused_by_both_loaders() -> None:
    """The same 500 Rum position, written as text and saved as JSON, is refused by both
    loaders for the same reason: the player to act has no legal move (the JSON is the
    saved state of a playable position with two of the hand's cards swapped away)."""
    with pytest.raises(PositionError) as by_text:
        position_from_text(DEAD_END)
    playable = position_from_text(DEAD_END.replace("2D7S", "9C9H").replace("9C9H2C", "2D7S2C"))
    d = state_to_dict(playable)
    nines, others = mask_of(parse_cards("9C 9H")), mask_of(parse_cards("2D 7S"))
    d["hands"] = [d["hands"][0] ^ nines ^ others, d["hands"][1] ^ nines ^ others]
    with pytest.raises(StateFormatError) as by_json:
        state_from_dict(d)
    assert by_json.value.reason == by_text.value.reason == "the player to act has no legal move"
    assert (by_json.value.field, by_text.value.field) == ("current", "active")


@pytest.mark.parametrize("field", ["buys", "buy_turn"])
def test_a_contract_save_without_its_buying_fields_is_refused(field: str) -> None:
    """A Contract Rummy save must hold both buying fields (``buys_per_round``)."""
    d = state_to_dict(new_game("contract", players=3, seed=1))
    del d[field]
    with pytest.raises(StateFormatError, match=f"missing fields: {field}"):
        state_from_dict(d)

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
from rummykit.moves import DISCARD, MELD
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

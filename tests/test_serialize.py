"""A state saved as JSON loads back exactly, and a damaged save never loads."""

from __future__ import annotations

import json
import random

import pytest

from rummykit import new_game
from rummykit.serialize import (
    StateFormatError,
    state_from_dict,
    state_from_json,
    state_to_dict,
    state_to_json,
)

PRESETS = ["basic", "classic", "cg101", "rami51", "gin", "gin_match"]


@pytest.mark.parametrize("preset", PRESETS)
def test_round_trip_mid_game_continues_identically(preset: str) -> None:
    g = new_game(preset, players=2, seed=5)
    rng = random.Random(5)
    for _ in range(60):
        if g.is_over():
            break
        g.apply(rng.choice(g.legal_moves()))
    h = state_from_json(state_to_json(g))
    assert state_to_dict(h) == state_to_dict(g)
    assert h.legal_moves() == g.legal_moves()
    # both continue the same way, chance included
    r1, r2 = random.Random(9), random.Random(9)
    for _ in range(80):
        if g.is_over():
            break
        m = r1.choice(g.legal_moves())
        assert m == r2.choice(h.legal_moves())
        g.apply(m)
        h.apply(m)
    assert state_to_dict(h) == state_to_dict(g)


def _saved() -> dict[str, object]:
    g = new_game("basic", players=2, seed=1)
    g.apply(g.legal_moves()[0])
    return state_to_dict(g)


@pytest.mark.parametrize(
    "damage",
    [
        lambda d: d.update(format=99),
        lambda d: d.pop("hands"),
        lambda d: d.update(rules="nonsense(("),
        lambda d: d.update(phase="DANCING"),
        lambda d: d.update(rng="x"),
        lambda d: d["rng"].__setitem__(1, "not base64!"),
        lambda d: d["rng"].__setitem__(1, d["rng"][1][:-8]),  # words missing
        lambda d: d.update(table=[[0, 1]]),
        lambda d: d.update(results=[{"round_no": 1}]),
        lambda d: d.update(stock=d["stock"][:-1]),  # a card lost
        lambda d: d.update(discard=d["discard"] + d["discard"]),  # a card twice
        lambda d: d.update(current=7),
        lambda d: d.update(history=["a"]),
    ],
)
def test_damaged_saves_are_refused(damage: object) -> None:
    d = _saved()
    damage(d)  # type: ignore[operator]
    with pytest.raises(StateFormatError):
        state_from_dict(d)


@pytest.mark.parametrize("text", ["", "[]", "{", "null", '{"format": 1}'])
def test_bad_json_is_refused(text: str) -> None:
    with pytest.raises(StateFormatError):
        state_from_json(text)


def test_saved_state_is_plain_json() -> None:
    d = json.loads(state_to_json(new_game("rami51", players=3, seed=2)))
    assert d["rules"] == "rami51" and len(d["hands"]) == 3


def test_format_1_saves_still_load() -> None:
    """Format 1 wrote the RNG's words as numbers; saves of that kind load unchanged."""
    g = new_game("cg101", players=3, seed=4)
    g.apply(g.legal_moves()[0])
    old = state_to_dict(g)
    version, internal, gauss = g.rng.getstate()
    old.update(format=1, rng=[version, list(internal), gauss])
    h = state_from_dict(json.loads(json.dumps(old)))
    assert state_to_dict(h) == state_to_dict(g)
    assert h.rng.random() == g.rng.random()


def test_saved_state_is_small() -> None:
    """The RNG's 625 words are stored as base64, not as decimal numbers."""
    assert len(state_to_json(new_game("basic", players=2, seed=3))) < 4_500  # format 1: 7,423

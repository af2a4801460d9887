"""Saves and positions written by an earlier engine (tests/core/fixtures) load, and save
back byte for byte: the typed round ends, events, contracts and phases change what the
engine holds, never what it writes."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from rummykit.position import position_from_text, position_to_text
from rummykit.results import RoundEnd
from rummykit.serialize import state_from_json, state_to_json

STORED: dict[str, Any] = json.loads(
    (Path(__file__).parent / "fixtures" / "saves-ca0e4cd.json").read_text(encoding="utf-8")
)
MATCHES: dict[str, Any] = STORED["matches"]
POSITIONS: dict[str, Any] = STORED["positions"]


@pytest.mark.parametrize("name", sorted(MATCHES))
def test_a_stored_match_loads_and_saves_back_identically(name: str) -> None:
    saved = MATCHES[name]
    state = state_from_json(saved["state"])
    assert state_to_json(state) == saved["state"]
    written = [r["reason"] for r in json.loads(saved["state"])["results"]]
    assert [r.reason.value for r in state.results] == written
    assert all(type(r.reason) is RoundEnd for r in state.results)


def test_the_stored_matches_end_rounds_in_all_but_one_way() -> None:
    """The fixture covers every round end a random or greedy match reaches."""
    reasons = {RoundEnd(r) for saved in MATCHES.values() for r in saved["reasons"]}
    assert set(RoundEnd) - reasons == {RoundEnd.NO_DRAW}


@pytest.mark.parametrize("name", sorted(POSITIONS))
def test_a_stored_state_and_position_load_and_save_back_identically(name: str) -> None:
    saved = POSITIONS[name]
    state = state_from_json(saved["state"])
    assert state_to_json(state) == saved["state"]
    assert position_to_text(position_from_text(saved["position"])) == saved["position"]
    assert position_to_text(state) == saved["position"]

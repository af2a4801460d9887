"""A match's events are frozen records (:mod:`rummykit.events`) with a common base; on
the wire they stay ``[kind, player, values]``, so saves read and write as before."""

from __future__ import annotations

import dataclasses
import json

import pytest

from rummykit import new_game
from rummykit.bots import make_bot, play_match
from rummykit.events import (
    EVENT_KINDS,
    Bonus,
    Bought,
    Cut,
    Deal,
    Event,
    Laid,
    Restocked,
    RoundOver,
    event_from_wire,
)
from rummykit.serialize import state_from_json, state_to_dict, state_to_json

SAMPLES: list[Event] = [
    Cut(1, 40), Deal(0), Laid(2, 35), Restocked(1), RoundOver(-1), Bought(2, 17),
    Bonus(0, (3, 1)),
]  # fmt: skip


def test_every_kind_has_a_sample_and_its_word_on_the_wire() -> None:
    assert {type(e) for e in SAMPLES} == set(EVENT_KINDS.values())
    assert sorted(EVENT_KINDS) == ["bonus", "buy", "cut", "deal", "laid", "restock", "round"]


@pytest.mark.parametrize("event", SAMPLES, ids=lambda e: e.kind)
def test_an_event_reads_back_from_its_wire_form(event: Event) -> None:
    kind, player, values = event.wire()
    assert event_from_wire(kind, player, values) == event
    assert isinstance(event, Event) and dataclasses.is_dataclass(event)
    with pytest.raises(dataclasses.FrozenInstanceError):
        event.player = 5  # type: ignore[misc]
    assert not hasattr(event, "__dict__")  # slots


@pytest.mark.parametrize(
    ("kind", "values"), [("cut", ()), ("deal", (1,)), ("laid", (1, 2)), ("party", ())]
)
def test_a_wire_event_of_the_wrong_shape_is_refused(kind: str, values: tuple[int, ...]) -> None:
    with pytest.raises(ValueError):
        event_from_wire(kind, 0, values)


@pytest.mark.parametrize(
    ("spec", "players", "kinds"),
    [
        ("cg101(deals=1)", 3, {Cut, Deal, RoundOver}),
        ("rum500(deals=1)", 2, {Deal, Laid, RoundOver}),
        ("contract(deals=1)", 3, {Deal, Bought, RoundOver}),
        ("gin_match(target_score=10)", 2, {Deal, RoundOver, Bonus}),
    ],
)
def test_a_match_records_typed_events_that_save_as_lists(
    spec: str, players: int, kinds: set[type[Event]]
) -> None:
    state, _ = play_match(spec, players, [make_bot("greedy") for _ in range(players)], seed=2)
    assert kinds <= {type(e) for e in state.events}
    saved = state_to_dict(state)["events"]
    assert saved == [[e.kind, e.player, list(e.values)] for e in state.events]
    assert json.loads(state_to_json(state))["events"] == saved
    assert state_from_json(state_to_json(state)).events == state.events


def test_the_first_dealer_is_named_by_the_deal_event() -> None:
    g = new_game("basic", 3, seed=5, dealer=2)
    assert g.events == [Deal(2)]

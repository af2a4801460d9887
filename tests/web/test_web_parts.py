"""The server's parts on their own: seats as stored, and forwarded requests."""

from __future__ import annotations

from typing import Any

import pytest

from rummykit.web.forwarded import (
    ClaimRequest,
    HandoverRequest,
    JoinRequest,
    MoveRequest,
    RematchRequest,
    decode,
    encode,
)
from rummykit.web.live import Seat
from rummykit.web.protocol import MoveIntent

STORED_SEATS: list[dict[str, Any]] = [
    {"kind": "bot", "name": "Bot 1 (easy)", "difficulty": "easy"},
    {"kind": "human", "name": "Ann", "digest": "ab12", "claimed": True, "open": False},
    {"kind": "human", "name": "Player 3", "digest": None, "claimed": False, "open": True},
    # stored before seats could be opened: no ``open`` key
    {"kind": "human", "name": "Bo", "digest": "cd34", "claimed": False},
    # a key this version does not know is kept
    {"kind": "human", "name": "Cy", "digest": "ef", "claimed": True, "open": False, "x": 1},
]


@pytest.mark.parametrize("stored", STORED_SEATS)
def test_a_stored_seat_reads_and_writes_back_as_it_was(stored: dict[str, Any]) -> None:
    assert Seat.from_dict(stored).to_dict() == stored
    assert list(Seat.from_dict(stored).to_dict()) == list(stored)


def test_only_an_open_unclaimed_human_seat_is_joinable() -> None:
    joinable = [Seat.from_dict(s).joinable for s in STORED_SEATS]
    assert joinable == [False, False, True, False, False]


@pytest.mark.parametrize(
    "request_",
    [
        MoveRequest(seat=1, move=MoveIntent(kind="discard", card=5), version=3),
        MoveRequest(seat=0, move=MoveIntent(kind="meld", cards=[1, 2, 3]), version=0),
        RematchRequest(seat=0, version=7),
        JoinRequest(name="Bo"),
        JoinRequest(),
        ClaimRequest(seat=2, name=""),
        HandoverRequest(),
    ],
)
def test_a_forwarded_request_reads_back_as_sent(request_: Any) -> None:
    kind, args = encode(request_)
    assert kind == request_.kind and "kind" not in args
    assert decode(kind, args) == request_


@pytest.mark.parametrize(
    ("kind", "args"),
    [("bogus", {}), ("move", {"seat": 0}), ("claim", {"seat": -1}), ("join", {"x": 1})],
)
def test_a_forwarded_request_that_is_not_one_is_refused(kind: str, args: Any) -> None:
    with pytest.raises(ValueError):
        decode(kind, args)

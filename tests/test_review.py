"""The game review (issue #16, part 2): grading a player's decisions against the hard
engine in points, labels, accuracy, key moments, reproducibility and bad input."""

from __future__ import annotations

import pytest

from rummykit.bots import make_bot, play_match
from rummykit.bots.review import (
    LABEL_NAMES,
    RoundReview,
    label_for,
    review_round,
)
from rummykit.errors import NotationError
from rummykit.notation import export_record
from rummykit.state import GameState


def easy_round(seed: int = 3, rules: str = "basic(deals=1)") -> GameState:
    state, _ = play_match(rules, 2, [make_bot("easy"), make_bot("easy")], seed=seed)
    return state


def test_same_seed_same_review_from_state_or_record() -> None:
    """Issue #16: every result is reproducible from the record and a seed."""
    g = easy_round()
    a = review_round(g, 0, 1, seed=7, budget=8)
    b = review_round(export_record(g), 0, 1, seed=7, budget=8)
    assert a == b and a.to_dict() == b.to_dict()


def test_review_summary_is_consistent() -> None:
    g = easy_round()
    rv = review_round(g, 1, 1, budget=8)
    assert isinstance(rv, RoundReview) and rv.decisions
    assert sum(rv.counts.values()) == len(rv.decisions)
    for d in rv.decisions:
        assert d.lost >= 0 and d.label == label_for(d.lost) and d.label in LABEL_NAMES
        assert d.best_points >= d.played_points
    # The series has one point per decision and ends with the round's real result.
    assert len(rv.series) == len(rv.decisions) + 1 and rv.series[-1][1] == rv.result


@pytest.mark.parametrize(
    ("player", "round_no", "message"),
    [(2, 1, "player must be a seat 0..1"), (-1, 1, "player"), (0, 2, "round must be 1..1")],
)
def test_seat_or_round_out_of_range(player: int, round_no: int, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        review_round(easy_round(), player, round_no, budget=4)


def test_malformed_record_is_a_notation_error() -> None:
    with pytest.raises(NotationError):
        review_round("[Rules nonsense", 0, 1)

"""The paired strength benchmark (benchmarks/search_gain.py, issue #16): the points
share of duplicate deals and its interval."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

from paired import share_interval
from search_gain import main, play_pair


def test_share_interval_narrows_with_more_deals_and_holds_the_share() -> None:
    ours, total = [30.0, 20.0, 25.0, 35.0], [50.0, 40.0, 45.0, 55.0]
    share, low, high = share_interval(ours, total)
    assert share == pytest.approx(110 / 190)
    assert low < share < high
    _s, low4, high4 = share_interval(ours * 4, total * 4)
    assert high4 - low4 < high - low
    # A bot that scores every point has share 1 and no spread.
    assert share_interval([10.0, 20.0], [10.0, 20.0]) == (1.0, 1.0, 1.0)


def test_a_deal_is_played_from_both_seats() -> None:
    """Against itself a bot holds each hand once per seat: the deal's points are the
    same whichever way round, so the two sides' totals are equal."""
    ours, theirs, wins, losses = play_pair(("gin(deals=1)", "easy", "easy", 3))
    assert ours == theirs and wins == losses


def test_penalty_rules_are_refused(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--rules", "rami51(deals=1)", "--deals", "1"])
    assert "winner-collects" in capsys.readouterr().err

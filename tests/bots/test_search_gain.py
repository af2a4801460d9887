"""The paired strength benchmark (benchmarks/search_gain.py): the points share of
duplicate deals and its interval, in every family."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

from paired import share_interval
from search_gain import SUITE, compare, main, measure, merge, play_deal, play_pair, round_rules


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


@pytest.mark.parametrize(("rules", "players"), [("rami51(deals=1)", 2), ("contract", 3)])
def test_a_deal_is_played_from_every_seat(rules: str, players: int) -> None:
    """Against itself a bot's points equal the mean opponent's over the seatings, in
    penalty games and with more than two players too."""
    ours, theirs, wins, losses = play_deal(rules, players, "easy", "easy", 5)
    assert ours == pytest.approx(theirs)
    # The same round each time: the seat that did best is "ours" in one seating.
    assert wins <= 1 and losses <= players - 1


def test_contract_deals_cycle_through_the_contracts() -> None:
    specs = {round_rules("contract", seed) for seed in range(7)}
    assert len(specs) == 7
    assert round_rules("contract", 7) == round_rules("contract", 0)
    assert round_rules("basic(deals=1)", 3) == "basic(deals=1)"


def test_under_penalty_scoring_the_points_charged_to_the_others_count_for_the_bot() -> None:
    """``greedy`` melds and goes out where ``random`` rarely does, so the random bot
    is charged the most: the greedy bot's share is high."""
    row = measure("rami51(deals=1)", 2, "greedy", "random", 3, 11, workers=1)
    assert row["share"] > 0.8 and row["margin"] > 0  # type: ignore[operator]


def test_the_suite_covers_every_family(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert {label for label, _r, _n in SUITE} >= {
        "basic",
        "gin",
        "rami51",
        "rum500",
        "kalooki",
        "indian",
        "contract",
    }
    out = tmp_path / "suite"
    main(["--suite", "--families", "basic,contract", "--bot", "easy", "--deals", "1",
          "--workers", "1", "--out", str(out)])  # fmt: skip
    rows = json.loads(out.with_suffix(".json").read_text())["rows"]
    assert [r["label"] for r in rows] == ["basic", "contract"]
    assert "contract" in capsys.readouterr().out


def test_two_runs_on_the_same_deals_compare_deal_by_deal(tmp_path: Path) -> None:
    """``--compare``: a run against itself gains nothing; a bot against a weaker
    opponent, compared with the same bot against itself, gains on every deal."""
    same = tmp_path / "same"
    weaker = tmp_path / "weaker"
    main(["--rules", "basic(deals=1)", "--bot", "easy", "--against", "easy", "--deals", "3",
          "--workers", "1", "--out", str(same)])  # fmt: skip
    main(["--rules", "basic(deals=1)", "--bot", "easy", "--against", "random", "--deals", "3",
          "--workers", "1", "--out", str(weaker)])  # fmt: skip
    a, b = (json.loads(p.with_suffix(".json").read_text()) for p in (same, weaker))
    (row,) = compare(a, a)
    assert row["deals"] == 3 and row["margin_gain"] == 0
    (row,) = compare(a, b)
    assert row["margin_gain"] > 0 and row["share_after"] > row["share_before"]


def test_a_run_and_its_continuation_merge_into_the_run_over_all_their_deals() -> None:
    """``--merge``: a run on deals 40-42 and its continuation on 43-44 summarize as the
    run on all five; runs of other bots, or sharing a deal, are refused."""
    whole = measure("gin(deals=1)", 2, "greedy", "random", 5, 40, workers=1)
    first = measure("gin(deals=1)", 2, "greedy", "random", 3, 40, workers=1)
    rest = measure("gin(deals=1)", 2, "greedy", "random", 2, 43, workers=1)
    (row,) = merge([first, rest])
    for key in ("share", "share_ci95", "margin", "margin_ci95", "points", "round_wins"):
        assert row[key] == pytest.approx(whole[key]), key
    assert row["deals"] == 5 and row["seeds"] == [(40, 42), (43, 44)]
    with pytest.raises(SystemExit, match="share deals"):
        merge([first, whole])
    other = measure("gin(deals=1)", 2, "random", "random", 2, 43, workers=1)
    with pytest.raises(SystemExit, match="differ"):
        merge([first, other])

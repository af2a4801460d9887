"""The bots' calibration (benchmarks/bot_ratings.py): which deals it plays in which
order, so that a run stopped by its budget is balanced within each class of pairings;
what it reports of a pairing; and what it ships."""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

import bot_ratings
from bot_ratings import LEVELS, jobs, pairing, ship

from rummykit.rules import Rules
from rummykit.tournament import MatchRecord


def played(todo: list[Any]) -> Counter[tuple[str, ...]]:
    """Whole deals played of each pairing (a pairing keyed in the levels' order)."""
    return Counter(tuple(sorted(lineup, key=LEVELS.index)) for _, lineup, _, _ in todo[::2])


@pytest.mark.parametrize(("count", "cheap"), [(5, 50), (7, 20), (4, 4), (6, 3)])
def test_every_stop_is_balanced_within_each_class(count: int, cheap: int) -> None:
    todo = jobs("basic", 0, LEVELS, count, seed=3, cheap=cheap)
    for (spec, (a, b), seed, k), second in zip(todo[::2], todo[1::2], strict=True):
        assert second == (spec, (b, a), seed, k)  # one deal from each seat
    for cut in range(0, len(todo) + 1, 2):
        done = played(todo[:cut])
        easy_hard, medium_hard = done["easy", "hard"], done["medium", "hard"]
        cheap_done = done["easy", "medium"]
        assert easy_hard - medium_hard in (0, 1)
        if easy_hard == medium_hard:
            # n rounds of the costly pairings: the cheap one has played its share
            # of n - 1 to n of them
            n = easy_hard
            assert -(-max(n - 1, 0) * cheap // count) <= cheap_done
            assert cheap_done <= -(-n * cheap // count)
    assert played(todo) == {
        ("easy", "medium"): cheap,
        ("easy", "hard"): count,
        ("medium", "hard"): count,
    }


def test_the_preset_is_played_at_its_own_length_unless_told() -> None:
    assert {spec for spec, *_ in jobs("gin_match", 0, LEVELS, 1, 1)} == {"gin_match"}
    assert {spec for spec, *_ in jobs("basic", 1, LEVELS, 1, 1)} == {"basic(deals=1)"}
    assert played(jobs("gin", 0, ("easy", "medium"), 2, 1, 9)) == {("easy", "medium"): 9}


def record(seed: int, lineup: tuple[str, str], scores: tuple[int, int]) -> MatchRecord:
    best = max(scores)
    return MatchRecord(
        seed, lineup, scores, tuple(i for i, s in enumerate(scores) if s == best), ()
    )


@pytest.mark.parametrize(("game", "sign"), [("gin", 1), ("classic", -1)])
def test_a_pairing_reports_the_first_levels_wins_and_lead(game: str, sign: int) -> None:
    """The lead is positive when the first level is ahead: more points where the winner
    collects, fewer in a penalty game (``classic``)."""
    rules = Rules.parse(game)
    recs = [
        record(1, ("easy", "medium"), (10, 30)),
        record(1, ("medium", "easy"), (30, 10)),
        record(2, ("easy", "medium"), (40, 0)),
        record(2, ("medium", "easy"), (20, 20)),
        record(3, ("easy", "hard"), (0, 99)),
    ]
    args = argparse.Namespace(seed=1, bootstrap=50)
    got = pairing(rules, LEVELS, ("medium", "easy"), recs, args)
    assert got["matches"] == 4
    # the highest total "wins" in these records whichever way the game scores
    assert got["first_wins"] == pytest.approx((0 + 0 + 1 + 0.5) / 4, abs=1e-3)
    assert got["lead"] == pytest.approx(sign * (-20 - 20 + 40 + 0) / 4)
    assert got["wins_low"] <= got["first_wins"] <= got["wins_high"]
    assert got["lead_low"] <= got["lead"] <= got["lead_high"]
    assert pairing(rules, LEVELS, ("easy", "hard"), recs[:4], args) == {"matches": 0}


def payload(command: str, game: str, hard_cpu: float = 1.0) -> dict[str, Any]:
    row = {"rating": 20.0, "low": 18.0, "high": 22.0, "matches": 120, "mu": 26.0}
    few = {"rating": 15.0, "low": 9.0, "high": 20.0, "matches": 16, "mu": 31.0}
    return {
        "command": command,
        "args": {"hard_cpu": hard_cpu},
        "games": {game: {"levels": {"easy": row, "hard": few}}},
    }


def test_runs_are_shipped_together(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bot_ratings, "SHIPPED", tmp_path / "bot_ratings.json")
    ship(payload("run gin", "gin"), payload("run basic", "basic"))
    shipped = json.loads((tmp_path / "bot_ratings.json").read_text())
    assert shipped["measured"] == "run gin; run basic"
    assert shipped["hard_cpu"] == 1.0
    # hard's 16 matches are too few to place it (SHIP_MATCHES): left out, not shown
    # below a weaker level measured longer
    assert shipped["games"] == {
        g: {"easy": {"rating": 20.0, "low": 18.0, "high": 22.0, "matches": 120}}
        for g in ("gin", "basic")
    }
    with pytest.raises(SystemExit, match="--hard-cpu differ"):
        ship(payload("a", "gin"), payload("b", "basic", hard_cpu=0.5))

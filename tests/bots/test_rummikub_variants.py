"""The Rummikub settings benchmark (benchmarks/rummikub_variants.py): the bots its
specs build, and a deal played from both seats."""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

from rummikub_variants import ExpertSettings, build, main, play_deal

from rummykit.bots import ISMCTSBot, make_bot, play_match
from rummykit.bots.rummikub import DANGER, FAR, JOKER_GAIN


def test_the_expert_at_its_own_settings_plays_medium_s_moves() -> None:
    """``expert_shapes`` at medium's thresholds is medium: the same moves all round."""
    spec = f"expert:danger={DANGER},far={FAR},joker_gain={JOKER_GAIN}"
    bot = build(spec)
    assert isinstance(bot, ExpertSettings)
    g1, s1 = play_match("rummikub(deals=1)", 2, [bot, make_bot("medium")], seed=3)
    g2, s2 = play_match("rummikub(deals=1)", 2, [make_bot("medium"), make_bot("medium")], seed=3)
    assert g1.scores == g2.scores and s1.actions == s2.actions


def test_a_setting_changes_the_play() -> None:
    """Holding the jokers always (a gain no play reaches) leaves some deal's play
    different from medium's: the keywords reach the expert's rule."""
    games = [
        play_match("rummikub(deals=1)", 2, [build("expert:joker_gain=99"), make_bot("medium")], s)
        for s in range(8)
    ]
    plain = [
        play_match("rummikub(deals=1)", 2, [make_bot("medium"), make_bot("medium")], s)
        for s in range(8)
    ]
    assert any(a[1].actions != b[1].actions for a, b in zip(games, plain, strict=True))


def test_search_specs_build_the_tiles_search() -> None:
    bot = build("search:ms=200,k=3,h=3,z=0.5")
    assert isinstance(bot, ISMCTSBot)
    assert (bot.seconds, bot.clock, bot.tiles_search) == (0.2, "cpu", True)
    assert (bot.expert_turns, bot.tiles_horizon, bot.deviate_z) == (3, 3, 0.5)
    assert isinstance(build("ismcts:1cpu"), ISMCTSBot)


def test_a_deal_is_played_from_both_seats(tmp_path: Path) -> None:
    """Against itself a bot wins one game of the two and its margins cancel."""
    assert play_deal("medium", "medium", 4) == (1.0, 0)
    out = tmp_path / "same"
    main(["medium", "medium", "--deals", "2", "--out", str(out)])
    doc = json.loads(out.with_suffix(".json").read_text())
    assert doc["win_rate"] == 0.5 and doc["margin"] == 0

"""The Gin style scan (benchmarks/gin_style.py) that chose ``gin.HARD``."""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

from gin_style import STYLES, main, measure

from rummykit.bots.gin import HARD, MEDIUM, GinStyle


def test_medium_against_itself_is_parity_deal_by_deal() -> None:
    """Each deal is played from both seats, so a style against itself nets zero."""
    row = measure(MEDIUM, 4, 5000, 1)
    assert row["share"] == 0.5 and row["margin"] == 0.0


def test_a_different_style_plays_different_hands() -> None:
    """Never taking the upcard is a different player: the deals do not all net zero."""
    row = measure(GinStyle(draw_margin=1000.0, wait_deadwood=0), 6, 5000, 1)
    assert row["points"] != [0.0, 0.0] and row["margin"] != 0.0


def test_the_scan_ends_with_hard_and_writes_its_rows(tmp_path: Path) -> None:
    assert STYLES[0][1] == MEDIUM and STYLES[-1][1] == HARD
    out = tmp_path / "styles"
    main(["--deals", "2", "--workers", "1", "--only", "0,1", "--out", str(out)])
    doc = json.loads(Path(f"{out}.json").read_text())
    assert [r["label"] for r in doc["rows"]] == [STYLES[0][0], STYLES[1][0]]
    assert doc["command"].startswith("python benchmarks/gin_style.py")

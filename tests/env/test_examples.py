"""The examples run end to end (briefly: these check the plumbing, not the strength)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("numpy")
pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def test_train_gin_runs_and_writes_its_curve(tmp_path: Path) -> None:
    out = tmp_path / "curve.json"
    svg = tmp_path / "curve.svg"
    args = ["--minutes", "0.02", "--check-minutes", "0.01", "--check-hands", "4"]
    args += ["--eval-hands", "3", "--batch", "2", "--seed", "3", "--out", str(out)]
    args += ["--svg", str(svg)]
    done = subprocess.run(
        [sys.executable, str(EXAMPLES / "train_gin.py"), *args],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    result = json.loads(out.read_text())
    assert result["env"] == "rummykit/Gin-v0"
    assert result["training_hands"] > 0
    curve = result["curve"]
    assert len(curve) >= 2
    assert curve[0]["training_hands"] == 0
    assert curve[-1]["training_hands"] == result["training_hands"]
    assert [p["cpu_minutes"] for p in curve] == sorted(p["cpu_minutes"] for p in curve)
    assert [r["opponent"] for r in result["final"]] == ["random", "easy"]
    for r in result["final"]:
        assert r["hands"] == 6  # three deals, each from both seats
        assert r["decided"] == r["wins"] + (r["decided"] - r["wins"]) <= r["hands"]
        lo, hi = r["won_share_95"]
        assert 0.0 <= lo <= r["won_share"] <= hi <= 1.0
    text = svg.read_text()
    assert text.startswith("<svg") and text.rstrip().endswith("</svg>")
    assert text.count("<path") >= 2
    # --replot draws the same plot again from the JSON, without training.
    again = tmp_path / "again.svg"
    replot = [sys.executable, str(EXAMPLES / "train_gin.py"), "--replot", str(out)]
    subprocess.run([*replot, "--svg", str(again)], check=True, timeout=120)
    assert again.read_text() == text

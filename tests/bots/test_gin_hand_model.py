"""The opponent-model diagnostic (benchmarks/gin_hand_model.py): real and sampled
hidden Gin hands counted alike, and the rejection table read from them."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

from gin_hand_model import BANDS, MIN_SAMPLED, SAMPLES, STAGES, count, keep_table, main, mean


def test_every_position_is_counted_once_real_and_once_per_sample() -> None:
    true, sampled = count(4, 300)
    assert len(true) == len(sampled) == STAGES + 1
    assert all(len(row) == BANDS for row in true + sampled)
    for t, x in zip(true, sampled, strict=True):
        assert sum(x) == SAMPLES * sum(t)
    assert sum(true[0]) > 0 and sum(map(sum, true)) > 10


def test_the_most_under_sampled_band_is_always_kept() -> None:
    many = 10 * MIN_SAMPLED
    true = [[many, many, 0], [0, 0, 0]]
    sampled = [[many, 4 * many, MIN_SAMPLED - 1], [many, many, many]]
    table = keep_table(true, sampled)
    assert table[0][0] == 1.0  # as common as sampled: the best ratio
    assert table[0][1] == pytest.approx(0.25, abs=0.01)  # sampled four times as often
    assert table[0][2] == 1.0  # too rarely sampled to judge
    assert all(0.0 <= p <= 1.0 for row in table for p in row)
    assert mean([0, 2, 0]) == 7.5


def test_a_run_writes_the_counts_and_the_table(tmp_path: Path) -> None:
    out = tmp_path / "model"
    main(["--hands", "3", "--seed", "7", "--out", str(out)])
    doc = json.loads(out.with_suffix(".json").read_text())
    assert len(doc["keep"]) == STAGES + 1 and doc["command"].endswith("--seed 7")

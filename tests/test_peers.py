"""Cross-engine checks against OpenSpiel and RLCard (marker ``peers``).

Not part of ``make test``: the peers are installed only in the benchmark environment,
so ``make peers`` runs these there.  Without them the tests skip.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

pyspiel = pytest.importorskip("pyspiel")
pytest.importorskip("rlcard")

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
import gin_crosscheck  # noqa: E402

from rummykit.rules import Rules  # noqa: E402

pytestmark = pytest.mark.peers


def test_same_legal_moves_and_returns_as_openspiel() -> None:
    game = pyspiel.load_game("gin_rummy")
    utils = pyspiel.gin_rummy.GinRummyUtils(13, 4, 10)
    mirror = gin_crosscheck.Mirror(pyspiel, utils, Rules.preset("gin"))
    rng = random.Random(11)
    notes = []
    for _ in range(300):
        _compared, bad, note = gin_crosscheck.play_hand(pyspiel, game, mirror, rng)
        if bad:
            notes.append(note)
    assert notes == []


def test_same_least_deadwood_as_openspiel_and_rlcard() -> None:
    utils = pyspiel.gin_rummy.GinRummyUtils(13, 4, 10)
    report = gin_crosscheck.deadwood_check(pyspiel, utils, 2000, seed=5)
    assert report["mismatches"] == 0, report["examples"]

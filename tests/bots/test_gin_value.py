"""The learned-evaluation experiment (benchmarks/gin_value.py): what the network reads
of a position, that its fit learns, and that the search plays by it."""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

from gin_value import FEATURES, encode, fit, forward, generate, leaf_value, main, position

from rummykit import new_game
from rummykit.bots import make_bot
from rummykit.cards import bits
from rummykit.state import GameState, Phase
from rummykit.variants.gin import deadwood_shown


def _draw_state() -> GameState:
    """A Gin hand some turns in, a player about to draw."""
    g = new_game("gin(deals=1)", 2, 7)
    rng = random.Random(0)
    while g.phase is not Phase.DRAW or len(g.discard) < 3:
        g.apply(make_bot("medium").choose(g.view(g.current), rng))
    return g


def test_the_input_is_both_hands_the_pile_and_the_deadwood() -> None:
    s = _draw_state()
    x = encode([position(s)])[0]
    assert x.shape == (FEATURES,)
    me, them = s.hands[s.current], s.hands[1 - s.current]
    assert list(np.nonzero(x[:52])[0]) == sorted(bits(me))
    assert list(np.nonzero(x[52:104])[0]) == sorted(bits(them))
    assert list(np.nonzero(x[104:156])[0]) == [s.discard[-1]]
    assert list(np.nonzero(x[156:208])[0]) == sorted(s.discard[:-1])
    assert x[210] * 50 == pytest.approx(deadwood_shown(s.game, me))


def test_positions_are_labelled_with_the_margin_of_the_player_to_draw() -> None:
    x, y, groups = generate(3, 50)
    assert len(x) == len(y) == len(groups) > 0 and set(groups) == {50, 51, 52}
    for deal in (50, 51, 52):
        labels = y[groups == deal]
        # two players: each label is one margin, seen from one side or the other
        assert len({abs(float(v)) for v in labels}) == 1


def test_the_fit_learns_a_function_it_can_represent() -> None:
    rng = np.random.default_rng(1)
    x = rng.random((100_000, 10)).astype(np.float32)
    y = (2 * x[:, 0] - x[:, 3]).astype(np.float32)
    held = (x[90_000:], y[90_000:])
    w, errors = fit(x[:90_000], y[:90_000], held, [16], 4, 0)
    assert min(errors) < 0.01 * float(held[1].var())  # nearly all the variance explained
    assert errors[-1] < errors[0]
    assert float(((forward(w, held[0])[0] - held[1]) ** 2).mean()) == pytest.approx(min(errors))


def test_the_leaf_value_scores_the_first_draw_after_its_turns() -> None:
    g = _draw_state()
    w = {"W1": np.zeros((FEATURES, 2), np.float32), "b1": np.ones(2, np.float32),
         "W2": np.ones((2, 1), np.float32), "b2": np.zeros(1, np.float32)}  # fmt: skip
    value = leaf_value(w, 1)
    assert value(g, 0) is None  # a turn of the playout first
    scored = value(g, 2)
    # the network reads 2 units of 25 points for the player to draw: 0.5 in rewards
    assert scored is not None and scored[g.current] == pytest.approx(0.5)
    assert sum(scored) == pytest.approx(0.0)


def test_a_small_run_writes_its_fit_and_its_search(tmp_path: Path) -> None:
    out = tmp_path / "gv"
    weights = tmp_path / "w.npz"
    main(["--hands", "40", "--epochs", "1", "--deals", "1", "--turns", "0",
          "--iterations", "4", "--weights", str(weights), "--out", str(out)])  # fmt: skip
    doc = json.loads(out.with_suffix(".json").read_text())
    assert doc["fit"]["positions"] > 100 and len(doc["search"]) == 1
    assert doc["search"][0]["deals"] == 1 and weights.exists()

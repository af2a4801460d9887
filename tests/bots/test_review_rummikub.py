"""Rummikub's hint and game review: one evaluation (the points a move takes off the
rack, :func:`rummykit.bots.review.placed_evaluation`), a hint well within its second,
and the review through the terminal's record, the command line and the web's workers."""

from __future__ import annotations

import io
import json
import random
import time
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from rummykit.bots import make_bot, play_match
from rummykit.bots.hints import suggest, why
from rummykit.bots.review import (
    LABEL_NAMES,
    decision_points,
    decision_seed,
    grade,
    review_decision,
    review_round,
)
from rummykit.bots.rummikub import placed_points
from rummykit.cli import main
from rummykit.i18n import engine_fr, hint_text
from rummykit.moves import ARRANGE, DRAW_STOCK
from rummykit.serialize import state_to_json
from rummykit.state import GameState, new_game
from rummykit.tui.lang import set_lang
from rummykit.tui.review_screen import review_body
from rummykit.tui.session import Match
from rummykit.web.reviews import grade_decision, plan_review


def played(seed: int = 2, players: int = 2, last: str = "medium") -> GameState:
    """A one-round match of ``medium`` bots, the last seat played by ``last``."""
    bots = [make_bot("medium") for _ in range(players - 1)] + [make_bot(last)]
    state, _ = play_match("rummikub(deals=1)", players, bots, seed=seed)
    return state


def test_the_hint_is_graded_best_and_no_grade_contradicts_it() -> None:
    """At decision points of a round: the hinted move is graded best with no loss; any
    other listed move loses exactly the points it places fewer than the hint's, and
    its label is the one those points earn (best only when they are under half a
    point, which whole tile points never are but for a tie)."""
    state = played()
    points, _ = decision_points(state, 0, 1)
    assert len(points) > 5
    checked = 0
    for point in points[::3]:
        s = point.state
        v = s.view(s.current)
        hint = suggest(v, seed=decision_seed(5, point.index))
        assert hint.move in v.legal and hint.reason == why(v, hint.move)
        d = review_decision(s, hint.move, seed=5, index=point.index)
        assert (d.label, d.shown, d.lost, d.reason) == ("best", 0.0, 0.0, hint.reason)
        best = placed_points(v, hint.move)
        assert best == max(placed_points(v, m) for m in v.legal)
        for m in v.legal[:6]:
            other = review_decision(s, m, seed=5, index=point.index)
            lost = float(best - placed_points(v, m))
            assert other.lost == lost and other.error == 0.0
            assert (other.label, other.shown) == grade(lost, 0.0)
            assert (other.label == "best") == (lost == 0.0)
            checked += 1
    assert checked > 10


def test_a_rummikub_hint_costs_well_under_a_second() -> None:
    """The hint reads the listed moves of the view (one solver search, made when the
    view is built) and runs no playouts: view and hint together stay under a second
    of CPU in positions of a long round, crowded tables included."""
    state = played(seed=4, players=4)
    points, _ = decision_points(state, 1, 1)
    worst = 0.0
    for point in points:
        s = point.state.clone()
        start = time.process_time()
        suggest(s.view(s.current))
        worst = max(worst, time.process_time() - start)
    assert points and worst < 1.0, worst


def _render(table: Any) -> str:
    console = Console(width=120, record=True, file=io.StringIO())
    console.print(table)
    return console.export_text()


def test_review_of_a_rummikub_terminal_record(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``rummy review`` reads the terminal game's record of a Rummikub round and gives
    the engine's review; the terminal's review screen renders it."""
    monkeypatch.setenv("COLUMNS", "200")
    g = played(seed=3, last="random")  # the reviewed seat misses plays: key moments
    path = tmp_path / "game.rummy"
    path.write_text(Match(g, ["medium", None], human=1).record(), encoding="utf-8")
    code = main(["review", str(path), "--workers", "1", "--json"])
    out, err = capsys.readouterr()
    assert code == 0, err
    data = json.loads(out)
    rv = review_round(g, 1, 1, unicode=False)
    assert data == rv.to_dict() and data["decisions"]
    assert {d["label"] for d in data["decisions"]} <= set(LABEL_NAMES)
    text = _render(review_body(review_round(g, 1, 1)))
    assert "accuracy" in text.lower()
    set_lang("fr")
    try:
        french = _render(review_body(review_round(g, 1, 1)))
    finally:
        set_lang("en")
    assert "points off your rack" not in french and "draw a tile" not in french
    assert "chevalet" in french, french


def test_review_through_the_webs_workers() -> None:
    """The web's review plans a round and grades its decisions in workers from saved
    states and action numbers (a Rummikub play's is a big int): the same grades as the
    engine's review."""
    g = played(seed=6)
    plan = plan_review(state_to_json(g), 0, 1)
    assert plan.points
    rv = review_round(g, 0, 1, seed=0)
    by_index = {d.index: d for d in rv.decisions}
    for index, state_json, action in plan.points:
        d = grade_decision(state_json, action, index, 0, rv.budget)
        assert d == by_index[index]


def test_every_rummikub_reason_comes_out_in_french() -> None:
    """Every listed move's reason, in positions of random deals, has French."""
    rng = random.Random(7)
    seen = set()
    for seed in range(3):
        g = new_game("rummikub", 2, seed=seed)
        for _ in range(80):
            if g.is_over():
                break
            v = g.view(g.current)
            for move in v.legal[:25]:
                for unicode in (False, True):
                    reason = why(v, move, unicode)
                    assert engine_fr.hint_fr(reason) is not None, reason
                    assert hint_text(reason, "fr") != reason
                    seen.add(reason.partition(" ")[0] + str(move.kind))
            g.apply(rng.choice(g.legal_moves()))
    assert {f"draw{DRAW_STOCK}", f"play{ARRANGE}"} <= seen
    assert hint_text("play 7♥ 8♥ 9♥: 24 points off your rack", "fr") == (
        "posez 7♥ 8♥ 9♥ : 24 points de moins sur votre chevalet"
    )
    assert hint_text("draw a tile: no play places a tile from your rack", "fr") == (
        "piochez une tuile : aucune pose ne place de tuile de votre chevalet"
    )

"""The game review (issue #16, part 2): grading a player's decisions against the hard
engine in points, labels, accuracy, key moments, reproducibility, ``rummy review`` on
the records of every front end, and bad input."""

from __future__ import annotations

import dataclasses
import io
import json
import random
import time
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from helpers import build
from rummykit import new_game
from rummykit.bots import make_bot, play_match
from rummykit.bots.hints import suggest
from rummykit.bots.indian import playout_move
from rummykit.bots.ismcts import REWARD_SCALE, indian_solver, rewards
from rummykit.bots.review import (
    CONFIDENCE_Z,
    LABEL_NAMES,
    LABELS,
    PointsSearch,
    RoundReview,
    count_decisions,
    decision_points,
    decision_seed,
    default_budget,
    grade,
    label_for,
    margin,
    match_start,
    review_decision,
    review_round,
    shown_loss,
    summarise,
)
from rummykit.cards import parse_face
from rummykit.cli import main
from rummykit.errors import NotationError
from rummykit.moves import DISCARD, DROP, KNOCK, Move
from rummykit.notation import export_record
from rummykit.rules import Rules
from rummykit.state import GameState, Phase
from rummykit.tui.review_screen import review_body
from rummykit.tui.session import Match
from rummykit.variants.indian import declare_fields


def played_round(bot: str = "easy", seed: int = 3, rules: str = "basic(deals=1)") -> GameState:
    state, _ = play_match(rules, 2, [make_bot(bot), make_bot(bot)], seed=seed)
    return state


@pytest.mark.parametrize(
    ("preset", "players"), [("basic", 3), ("classic", 2), ("rami51", 4), ("gin", 2)]
)
def test_margin_is_the_searchs_reward_in_points(preset: str, players: int) -> None:
    """The review sums the hard search's rewards times REWARD_SCALE as points of
    margin; that holds only while the reward is the unsquashed margin, so this fails
    if the search's reward stops being the scoring's margin."""
    state = new_game(preset, players=players, seed=1)
    deltas = [30, 0, 12, 7][:players]
    reward = rewards(state, deltas)
    for p in range(players):
        assert reward[p] * REWARD_SCALE == pytest.approx(margin(state.rules, deltas, p))


# -- the grading ------------------------------------------------------------------------------

# Gin, seat 0 to discard with three made melds (K♠ K♥ K♦, 5♣ 6♣ 7♣, 2♦ 3♦ 4♦), a loose
# 9♥ and the Q♠ just drawn: throwing the Q♠ leaves 9 deadwood and a knock.
GIN_HAND = "KS KH KD 5C 6C 7C 2D 3D 4D 9H QS"


def gin_position() -> GameState:
    return build("gin", hands=[GIN_HAND, "2C 3C 4C 7D 7H 7S 9C 9S JD QC"], discard="8H", stock="AS")


@pytest.mark.parametrize("face", ["6C", "KD"])
def test_breaking_a_made_meld_for_nothing_is_a_blunder(face: str) -> None:
    """Issue #16: a constructed position with a known blunder (breaking a made meld
    for nothing, here a run or a set of kings instead of the loose queen) is flagged,
    with the better move and a reason in words."""
    d = review_decision(gin_position(), Move(DISCARD, parse_face(face)), budget=24, seed=1)
    assert d.label == "blunder" and d.lost >= 10
    assert d.best_move in (Move(DISCARD, parse_face("QS")), Move(DISCARD, parse_face("9H")))
    assert d.reason.startswith("discard ") and "completes nothing" in d.reason
    assert d.samples == 24 and d.played_points < d.best_points


def test_the_right_discard_is_best() -> None:
    d = review_decision(gin_position(), Move(DISCARD, parse_face("QS")), budget=24, seed=1)
    assert d.label in ("best", "good") and d.best_move.kind == DISCARD


def test_racing_plays_the_searchs_samples_and_drops_only_settled_candidates() -> None:
    """The review's search (``PointsSearch.racing``) plays the hard search's own
    samples, in order, for every candidate it keeps; a candidate it drops has played
    a prefix of them, and the move played is never dropped."""
    g = played_round()
    points, _last = decision_points(g, 0, 1)
    dropped = 0
    for p in points[:12]:
        view = p.state.view(p.state.current)
        rng = random.Random(p.index)
        cands = PointsSearch(64).candidates(view, rng)
        if p.move not in cands:
            cands.append(p.move)
        seed = rng.getrandbits(64)
        racer = PointsSearch(64)
        cols = racer.racing(view, cands, cands.index(p.move), seed)
        rows = PointsSearch(64).paired(view, cands, seed)
        n = racer.last_iterations
        assert 0 < n <= len(rows) and len(cols[cands.index(p.move)]) == n
        for c, col in enumerate(cols):
            assert col == [r[c] for r in rows][: len(col)]
            dropped += len(col) < n
    assert dropped  # the race did drop some candidates in these decisions


def test_default_budget_and_bad_budget() -> None:
    d = review_decision(gin_position(), Move(DISCARD, parse_face("6C")))
    assert d.label == "blunder" and 0 < d.samples <= default_budget(Rules.preset("gin"), 2)
    with pytest.raises(ValueError, match="budget must be at least 1"):
        review_round(played_round(), 0, 1, budget=0)


def test_a_match_with_a_chosen_dealer_replays() -> None:
    """A match whose first dealer was chosen, not cut for, replays from its record."""
    g = GameState.new("basic(deals=1)", ["Ann", "Bob"], 11, dealer=1)
    bots, rng = make_bot("easy"), random.Random(0)
    while not g.is_over():
        g.apply(bots.choose(g.view(g.current), rng))
    assert match_start(g).dealer == 1
    rv = review_round(export_record(g), 1, 1, budget=4)
    assert len(rv.decisions) == count_decisions(g, 1, 1) > 0


def test_a_position_without_history_cannot_be_replayed() -> None:
    g = gin_position()
    g.seed = None
    with pytest.raises(ValueError, match="no seed"):
        match_start(g)


def test_an_illegal_move_is_refused() -> None:
    with pytest.raises(ValueError, match="not a legal move"):
        review_decision(gin_position(), Move(DISCARD, parse_face("AS")), budget=4)


def test_a_round_played_by_hard_grades_mostly_best_or_good() -> None:
    """Issue #16: the hard bot's own round, reviewed by the same engine, is mostly best
    or good (small budgets: the bot searched 24 samples a move, the review 24)."""
    g = played_round("ismcts:24i", seed=4, rules="gin(deals=1)")
    rv = review_round(g, 0, 1, budget=24, seed=5)
    assert len(rv.decisions) >= 5
    assert rv.counts["best"] + rv.counts["good"] >= 0.8 * len(rv.decisions), rv.counts
    assert rv.counts["blunder"] == 0 and rv.accuracy >= 80


def test_same_seed_same_review_from_state_record_or_workers() -> None:
    """Issue #16: every result is reproducible from the record and a seed, whether the
    decisions are graded in one process or two."""
    g = played_round()
    a = review_round(g, 0, 1, seed=7, budget=8)
    b = review_round(export_record(g), 0, 1, seed=7, budget=8, workers=2)
    assert a == b and a.to_dict() == b.to_dict()
    c = review_round(g, 0, 1, seed=8, budget=8)
    assert c.to_dict() != a.to_dict()  # the seed matters: the samples differ


def test_a_limit_grades_a_spread_of_the_decisions_in_one_process_or_two() -> None:
    """The web server grades at most ``review_max_decisions`` decisions of a round,
    spread over it; ``review_round(limit=)`` reproduces that review from the record,
    graded in one process or two."""
    g = played_round()
    n = count_decisions(g, 0, 1)
    assert n > 4
    a = review_round(g, 0, 1, seed=7, budget=4, limit=4)
    b = review_round(export_record(g), 0, 1, seed=7, budget=4, limit=4, workers=2)
    assert a == b and len(a.decisions) == 4
    every = [d.index for d in review_round(g, 0, 1, seed=7, budget=4).decisions]
    kept = [d.index for d in a.decisions]
    assert set(kept) <= set(every) and kept[0] == every[0] and kept[-1] == every[-1]
    assert (
        review_round(g, 0, 1, seed=7, budget=4, limit=n).to_dict()
        == review_round(g, 0, 1, seed=7, budget=4).to_dict()
    )
    with pytest.raises(ValueError, match="limit"):
        review_round(g, 0, 1, budget=4, limit=0)


def test_review_summary_is_consistent() -> None:
    g = played_round()
    seen: list[tuple[int, int]] = []
    rv = review_round(g, 1, 1, budget=8, progress=lambda d, t: seen.append((d, t)))
    assert isinstance(rv, RoundReview) and rv.decisions
    n = len(rv.decisions)
    assert n == count_decisions(g, 1, 1)
    assert seen == [(i, n) for i in range(n + 1)]
    assert sum(rv.counts.values()) == n and list(rv.counts) == list(LABEL_NAMES)
    for d in rv.decisions:
        assert d.lost >= 0 and d.best_points >= d.played_points
        assert d.label == label_for(shown_loss(d))
        assert shown_loss(d) == max(0.0, d.lost - CONFIDENCE_Z * d.error)
        assert d.candidates[0][1] == d.best_points
    # One point per decision, then the round's real result.
    assert len(rv.series) == n + 1 and rv.series[-1][1] == rv.result
    # Key moments: the largest losses, moves the samples cannot tell from the best left out.
    ranked = sorted(rv.decisions, key=lambda d: (-d.lost, d.index))
    key = [d.index for d in ranked if d.label != "best"][:3]
    assert [k.index for k in rv.key_moments] == key
    data = json.loads(json.dumps(rv.to_dict()))
    assert data["round"] == 1 and len(data["decisions"]) == n


def test_a_progress_callback_stops_the_review() -> None:
    """A front end cancels a review by raising from its progress callback (the
    terminal game does when its review screen is closed)."""
    calls: list[int] = []

    def progress(done: int, _total: int) -> None:
        calls.append(done)
        if done == 2:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        review_round(played_round(), 0, 1, budget=4, progress=progress)
    assert calls == [0, 1, 2]


@pytest.mark.parametrize(
    ("player", "round_no", "message"),
    [(2, 1, "player must be a seat 0..1"), (-1, 1, "player"), (0, 2, "round must be 1..1")],
)
def test_seat_or_round_out_of_range(player: int, round_no: int, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        review_round(played_round(), player, round_no, budget=4)


def test_malformed_record_is_a_notation_error() -> None:
    with pytest.raises(NotationError):
        review_round("[Rules nonsense", 0, 1)


# -- rummy review -----------------------------------------------------------------------------


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_review_of_a_terminal_game_record(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The terminal game's record names the person's seat (``[Bots "easy, -"]``): the
    review is theirs by default."""
    monkeypatch.setenv("COLUMNS", "200")
    g = played_round()
    path = tmp_path / "game.rummy"
    path.write_text(Match(g, ["easy", None], human=1).record(), encoding="utf-8")
    code, out, err = run(capsys, "review", str(path), "--budget", "4", "--workers", "1", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["player"] == 1 and data["round"] == 1 and data["budget"] == 4
    assert data == review_round(g, 1, 1, budget=4, unicode=False).to_dict()
    code, out, err = run(capsys, "review", str(path), "--budget", "4", "--workers", "1")
    assert code == 0, err
    assert f"Review of {g.names[1]}, round 1" in out and "accuracy" in out
    assert "expected points" in out
    # --limit: the web server's capped review, reproduced from the record
    argv = ("review", str(path), "--budget", "4", "--workers", "1", "--limit", "3", "--json")
    code, out, err = run(capsys, *argv)
    assert code == 0, err
    assert json.loads(out) == review_round(g, 1, 1, budget=4, unicode=False, limit=3).to_dict()
    assert len(json.loads(out)["decisions"]) == 3
    code, out, err = run(capsys, "review", str(path), "--limit", "0")
    assert code == 2 and "--limit must be at least 1" in err


def test_review_of_a_web_game_record(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """The web game's record endpoint writes the same notation."""
    from fastapi.testclient import TestClient

    from rummykit.web import Settings, create_app

    settings = Settings(
        database_url=f"sqlite:///{tmp_path / 'web.db'}",
        bot_delay=0.0,
        bot_workers=0,
        allowed_hosts=("testserver",),  # the TestClient's Host
    )
    seats = [{"kind": "bot", "difficulty": "easy"}, {"kind": "bot", "difficulty": "easy"}]
    with TestClient(create_app(settings)) as c:
        t = c.post("/api/tables", json={"rules": "basic", "deals": 1, "seats": seats}).json()
        deadline = time.monotonic() + 30
        while (r := c.get(f"/api/tables/{t['id']}/record")).status_code != 200:
            assert time.monotonic() < deadline, r.text
            time.sleep(0.05)
    path = tmp_path / "web.rummy"
    path.write_bytes(r.content)
    name = t["seats"][1]["name"]
    argv = ("review", str(path), "--player", name, "--round", "1", "--seed", "2", "--budget", "4")
    code, out, err = run(capsys, *argv, "--workers", "1", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["player"] == 1 and data["name"] == name and data["seed"] == 2
    assert data["decisions"]


def test_review_of_a_tournament_record(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``rummy tournament --records DIR`` writes one record per match played (deals
    times rotations), which ``rummy review`` reads; a seat is chosen by its bot's name."""
    monkeypatch.setenv("COLUMNS", "200")
    folder = tmp_path / "records"
    argv = ["tournament", "--rules", "basic(deals=1)", "--players", "3", "--bots", "greedy,easy"]
    code, _out, err = run(capsys, *argv, "--games", "2", "--records", str(folder), "--json")
    assert code == 0, err
    files = sorted(p.name for p in folder.iterdir())
    assert len(files) == 2 * 3  # 2 deals, 3 rotations of greedy-easy-greedy
    assert files[0] == "deal-1-rotation-1-greedy-easy-greedy.rummy"
    path = folder / "deal-2-rotation-2-easy-greedy-greedy.rummy"
    code, out, err = run(capsys, "review", str(path), "--player", "greedy", "--budget", "4",
                         "--workers", "1")  # fmt: skip
    assert code == 0, err
    assert "Review of greedy, round 1 of basic(deals=1)" in out and "accuracy" in out
    assert review_round(path.read_text(encoding="utf-8"), 1, 1, budget=4).decisions


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--player", "3"), "--player must be a seat 1..2 or a name"),
        (("--player", "Zed"), "--player must be a seat 1..2 or a name"),
        (("--round", "2"), "round must be 1..1"),
        (("--round", "0"), "round must be 1..1"),
        (("--budget", "0"), "--budget must be at least 1"),
        (("--workers", "0"), "--workers must be at least 1"),
        (("--seed", "x"), "invalid int value"),
    ],
)
def test_review_bad_options_are_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, args: tuple[str, ...], message: str
) -> None:
    path = tmp_path / "game.rummy"
    path.write_text(export_record(played_round()), encoding="utf-8")
    check_one_line_error(run(capsys, "review", str(path), *args), message)


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (None, "cannot read"),
        (
            '[Rules "basic"]\n[Players "A, B"]\n[Seed "1"]\n\nRound 1\n1. A: draw sideways\n',
            "line 6",
        ),
        (b"\xff\xfe", "cannot read"),
    ],
)
def test_review_bad_record_is_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, content: Any, message: str
) -> None:
    path = tmp_path / "bad.rummy"
    if isinstance(content, str):
        path.write_text(content, encoding="utf-8")
    elif isinstance(content, bytes):
        path.write_bytes(content)
    check_one_line_error(run(capsys, "review", str(path)), message)


def check_one_line_error(result: tuple[int, str, str], message: str) -> None:
    code, out, err = result
    assert code == 2 and out == ""
    assert err.startswith("rummy: error: ") and err.count("\n") == 1, err
    assert message in err and "Traceback" not in err


# -- one evaluation: the hint, the labels, the accuracy ---------------------------------------

HINT_CASES = [
    ("basic", 2),
    ("gin", 2),
    ("rum500", 2),
    ("rami51", 4),
    ("kalooki", 3),
    ("contract", 3),
    ("indian", 2),
    ("indian_pool101", 3),
]


@pytest.mark.parametrize(("preset", "players"), HINT_CASES)
def test_the_hinted_move_is_graded_best(preset: str, players: int) -> None:
    """Issue 28 ("At the table" 3): moves the hint suggested were then graded
    "blunder, 20.0 points".  The hint and the review are one evaluation: at the
    review's budget and the seed it gives the position, the move ``suggest`` returns
    is labelled best, with no loss, in positions of every family."""
    bots = [make_bot("medium") for _ in range(players)]
    state, _ = play_match(f"{preset}(deals=1)", players, bots, seed=2)
    points, _ = decision_points(state, 0, 1)
    assert points
    for point in points[:: max(1, len(points) // 3)][:3]:
        s = point.state
        hint = suggest(s.view(s.current), budget=12, seed=decision_seed(5, point.index))
        d = review_decision(s, hint.move, seed=5, budget=12, index=point.index)
        assert (d.label, d.shown, d.lost, d.reason) == ("best", 0.0, 0.0, hint.reason), (
            point.index,
            d,
        )


def test_a_label_never_contradicts_its_loss() -> None:
    """Issue 28: a move labelled "best" showed "lost 10.2±6.1".  One function gives
    the label and the loss shown: best shows no loss; any other label shows a loss
    within its own limits; and the terminal's table prints no loss for a best move."""
    assert grade(10.2, 6.1) == ("best", 0.0)
    lows = dict(zip(LABEL_NAMES, (0.0, *(limit for _, limit in LABELS[:-1])), strict=True))
    for lost in (0.0, 0.3, 0.7, 1.9, 2.5, 4.0, 7.0, 12.0, 25.0, 60.0):
        for error in (0.0, 0.2, 1.0, 3.0, 6.1, 20.0):
            label, shown = grade(lost, error)
            assert (label == "best") == (shown == 0.0)
            assert label == label_for(shown) and lows[label] <= shown <= lost
    d = review_decision(gin_position(), Move(DISCARD, parse_face("6C")), budget=24, seed=1)
    best = dataclasses.replace(d, lost=10.2, error=6.1, label="best", shown=0.0)
    rv = summarise(gin_position(), 0, 1, 1, 24, [best], 0)
    text = _render(review_body(rv))
    assert "10.2" not in text and "6.1" not in text


def test_accuracy_agrees_with_the_summary() -> None:
    """Issue 28: "Accuracy 88.3%" sat above "No decision cost you anything".  The
    accuracy counts the loss the labels show, so a round with no key moment (every
    decision best, however noisy its raw estimate) is 100%, and one with a key moment
    is under 100%."""
    g = gin_position()
    d = review_decision(g, Move(DISCARD, parse_face("6C")), budget=24, seed=1)
    noisy = [
        dataclasses.replace(d, lost=lost, error=error, label=label, shown=shown)
        for lost, error in ((10.2, 6.1), (3.0, 2.0), (0.4, 0.0))
        for label, shown in [grade(lost, error)]
    ]
    rv = summarise(g, 0, 1, 1, 24, noisy, 0)
    assert {x.label for x in rv.decisions} == {"best"}
    assert rv.key_moments == () and rv.accuracy == 100.0
    rv = summarise(g, 0, 1, 1, 24, [*noisy, d], 0)
    assert rv.key_moments and rv.accuracy < 100.0
    assert rv.key_moments[0].lost == d.shown


def _render(table: Any) -> str:
    console = Console(width=120, record=True, file=io.StringIO())
    console.print(table)
    return console.export_text()


@pytest.mark.parametrize(("preset", "players"), [("indian", 2), ("indian_pool101", 4)])
def test_indian_review_playouts_play_legal_moves(preset: str, players: int) -> None:
    """The review's Indian Rummy playouts (issue 28: 139 s for 10 decisions) play a
    cheap link-counting player with unchecked moves: every move it makes must be legal,
    and a declaration valid, from random positions to the round's end."""
    for seed in range(6):
        g = new_game(preset, players=players, seed=seed)
        rng = random.Random(seed)
        for _ in range(rng.randrange(0, 30)):  # a random position of the round
            if g.phase is Phase.OVER or g.round_no > 1:
                break
            moves = [m for m in g.legal_moves() if m.kind != DROP]
            g.apply(rng.choice(moves or g.legal_moves()))
        steps = 0
        while g.round_no == 1 and g.phase is not Phase.OVER and steps < 400:
            move = playout_move(g, indian_solver(g))
            assert move in g.legal_moves(), (seed, steps, move)
            if move.kind == KNOCK:
                assert indian_solver(g).declarable(g.hands[g.current], declare_fields(g).wild)
            g.apply(move)
            steps += 1
        assert g.round_no > 1 or g.phase is Phase.OVER

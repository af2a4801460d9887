"""The GameState API, without JSON: ends of matches, results, actions.

* A finished match has no legal moves and refuses every move (``match_over``).
* ``result()`` raises before the end; at the end its standings and winners follow the
  scoring scheme (seed 001: the winner collects, "continue to play until the number
  of deals has been played or the number of points have been reached"; seed 000 and
  seed 003: "the player with the lowest score wins"), ties giving several winners.
* ``apply_action`` and ``legal_actions`` agree with ``apply`` and ``legal_moves``.
* A deals-limited match ends after exactly ``deals`` rounds (seed 001: "choose a
  fixed number of deals to play up to, and once you reach that number of deals, the
  game is finished"); a target-score match ends at the first round that brings a
  score to the target (seed 000: "until one player reaches or goes over a target
  score"; seed 002: "Once a player reaches or exceeds 150 points").
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from rummykit import (
    DISCARD,
    DRAW_STOCK,
    MELD,
    GameState,
    IllegalMoveError,
    Move,
    Phase,
    RulesError,
    new_game,
)
from rummykit.results import RoundEnd
from rummykit.rules import Scoring

PRESETS = ("basic", "classic", "cg101", "rami51")


def snap(s: GameState) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in vars(s).items():
        if k in ("_legal", "game", "rng"):
            continue
        out[k] = tuple(v) if isinstance(v, list) else v
    out["rng"] = s.rng.getstate()
    return out


def step(s: GameState, r: random.Random) -> None:
    """One move, preferring melds and lay-offs so that rounds end."""
    legal = s.legal_moves()
    active = [m for m in legal if m.kind >= MELD]
    s.apply(r.choice(active) if active and r.random() < 0.9 else r.choice(legal))


def play_out(s: GameState, seed: int, limit: int = 20_000) -> GameState:
    r = random.Random(seed)
    for _ in range(limit):
        if s.is_over():
            return s
        step(s, r)
    raise AssertionError("match did not end")


@pytest.fixture(scope="module")
def finished() -> dict[str, GameState]:
    return {p: play_out(new_game(f"{p}(deals=2)", players=3, seed=4), 4) for p in PRESETS}


@pytest.mark.parametrize("preset", PRESETS)
def test_over_state_has_no_moves(preset: str, finished: dict[str, GameState]) -> None:
    s = finished[preset]
    assert s.phase is Phase.OVER and s.is_over()
    assert s.legal_moves() == [] and s.legal_actions() == []
    assert not any(s.action_mask())
    before = snap(s)
    for move in (Move(DRAW_STOCK), Move(DISCARD, 0)):
        with pytest.raises(IllegalMoveError) as exc:
            s.apply(move)
        assert exc.value.rule == "match_over"
    with pytest.raises(IllegalMoveError):
        s.apply_action(0)
    assert snap(s) == before


@pytest.mark.parametrize("preset", PRESETS)
def test_result_raises_before_the_end(preset: str) -> None:
    s = new_game(preset, players=2, seed=1)
    with pytest.raises(RulesError):
        s.result()
    s.apply(s.legal_moves()[0])
    with pytest.raises(RulesError):
        s.result()


@pytest.mark.parametrize("preset", PRESETS)
def test_result_of_a_played_match(preset: str, finished: dict[str, GameState]) -> None:
    s = finished[preset]
    res = s.result()
    assert res.rounds == len(s.results) == 2
    assert res.scores == tuple(s.scores)
    assert sorted(res.standings) == list(range(3))
    high_wins = s.rules.scoring is Scoring.WINNER_COLLECTS
    ordered = [s.scores[p] for p in res.standings]
    assert ordered == sorted(s.scores, reverse=high_wins)
    best = max(s.scores) if high_wins else min(s.scores)
    assert res.winners == tuple(p for p in range(3) if s.scores[p] == best)
    assert res.standings[0] in res.winners


@pytest.mark.parametrize(
    ("preset", "scores", "standings", "winners"),
    [
        # winner collects (seed 001): highest total first; ties keep seat order
        ("basic", [30, 55, 55, 10], (1, 2, 0, 3), (1, 2)),
        ("cg101", [150, 20, 150], (0, 2, 1), (0, 2)),
        ("basic", [0, 0], (0, 1), (0, 1)),
        # penalty (seed 000, seed 003: "The player with the lowest score is the winner")
        ("classic", [104, 37, 37, 80], (1, 2, 3, 0), (1, 2)),
        ("rami51", [-50, 120, 510], (0, 1, 2), (0,)),
        ("rami51", [500, 500, 500], (0, 1, 2), (0, 1, 2)),
    ],
)
def test_result_ties_and_order(
    preset: str, scores: list[int], standings: tuple[int, ...], winners: tuple[int, ...]
) -> None:
    s = new_game(preset, players=len(scores), seed=2)
    s.scores = list(scores)
    s.phase = Phase.OVER
    s.current = -1
    s._legal = None
    res = s.result()
    assert res.standings == standings
    assert res.winners == winners
    assert res.scores == tuple(scores)


@pytest.mark.parametrize("preset", PRESETS)
def test_apply_action_matches_apply(preset: str) -> None:
    s = new_game(preset, players=3, seed=9)
    r = random.Random(9)
    acts = s.game.actions
    for _ in range(60):
        if s.is_over():
            break
        legal = s.legal_moves()
        actions = s.legal_actions()
        assert actions == [acts.encode(m) for m in legal]
        assert [acts.decode(a) for a in actions] == legal
        mask = s.action_mask()
        assert [i for i, ok in enumerate(mask) if ok] == sorted(actions)
        for a in actions:
            by_action = s.clone()
            by_action.apply_action(a)
            by_move = s.clone()
            by_move.apply(acts.decode(a))
            assert snap(by_action) == snap(by_move)
        # an action outside the mask is refused with the state unchanged
        before = snap(s)
        illegal = next(a for a in range(acts.size) if not mask[a])
        with pytest.raises(IllegalMoveError):
            s.apply_action(illegal)
        for bad in (-1, acts.size):
            with pytest.raises(IllegalMoveError) as exc:
                s.apply_action(bad)
            assert exc.value.rule == "unknown_action"
        assert snap(s) == before
        step(s, r)


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("deals", [1, 3])
def test_deals_limited_match_ends_after_exactly_deals_rounds(preset: str, deals: int) -> None:
    for seed in (1, 2):
        s = new_game(f"{preset}(deals={deals})", players=2, seed=seed)
        r = random.Random(seed)
        rounds_seen = 0
        while not s.is_over():
            step(s, r)
            if len(s.results) > rounds_seen:
                rounds_seen = len(s.results)
                assert s.is_over() == (rounds_seen == deals)
        assert len(s.results) == deals == s.round_no
        assert s.result().rounds == deals
        assert s.scores == [sum(res.deltas[p] for res in s.results) for p in range(2)]


@pytest.mark.parametrize("preset", PRESETS)
def test_target_score_match_ends_at_the_target(preset: str) -> None:
    s = new_game(f"{preset}(target_score=40)", players=2, seed=3)
    r = random.Random(3)
    rounds_seen = 0
    while not s.is_over():
        step(s, r)
        if len(s.results) > rounds_seen:
            rounds_seen = len(s.results)
            reached = max(s.scores) >= 40
            assert s.is_over() == reached
    assert max(s.scores) >= 40


def test_turn_limit_ends_a_blocked_round() -> None:
    """RULES-NOTES 6: a guard against endless rounds; ``max_turns`` turns end the round,
    scored as blocked (no one went out)."""
    s = new_game("basic(deals=1, max_turns=6)", players=2, seed=5)
    while not s.is_over():
        legal = s.legal_moves()
        discard = [m for m in legal if m.kind in (DRAW_STOCK, DISCARD)]
        s.apply(discard[-1] if discard else legal[0])
    (res,) = s.results
    assert res.reason is RoundEnd.TURN_LIMIT and not res.went_out


@pytest.mark.parametrize("spec", ["basic(target_score=60)", "gin_match", "rami51(deals=2)"])
def test_views_carry_the_round_s_moves_and_loads_find_the_round(spec: str) -> None:
    """A view holds the current round's moves (issue #16's opponent model reads them),
    not the whole match's, which cost a third of the speed through views; a loaded
    state finds where its round began from the history alone."""
    import random

    from rummykit.serialize import state_from_json, state_to_json
    from rummykit.state import round_start_of

    g = new_game(spec, players=2, seed=5)
    rng = random.Random(5)
    rounds_seen = set()
    while not g.is_over():
        start = g.round_start
        assert g.view(0).history == tuple(g.history[start:])
        assert round_start_of(g) == start
        if g.round_no not in rounds_seen:
            rounds_seen.add(g.round_no)
            assert state_from_json(state_to_json(g)).round_start == start
        g.apply(rng.choice(g.legal_moves()))
    assert len(rounds_seen) >= 2

"""The bot interface: bots see only PlayerViews, and RandomBot plays only legal moves."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import fields

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rummykit import GameState, Move, PlayerView, determinize, new_game
from rummykit.bots import BOTS, Bot, RandomBot, make_bot, play_match
from rummykit.rules import PRESETS
from rummykit.view import make_view

PRESET_NAMES = sorted(PRESETS)


def seats(preset: str, wanted: int) -> int:
    """``wanted`` players, or the nearest count the preset allows (Gin is two-handed)."""
    rules = PRESETS[preset]
    return max(rules.min_players, min(wanted, rules.max_players))


def _advance(state: GameState, actions: int, seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(actions):
        if state.is_over():
            return
        state.apply(rng.choice(state.legal_moves()))


class SpyBot(RandomBot):
    """A RandomBot that records what it is given."""

    def __init__(self) -> None:
        self.seen: list[object] = []

    def choose(self, view: PlayerView, rng: random.Random) -> Move:
        self.seen.append(view)
        return super().choose(view, rng)


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_bots_receive_only_views_of_their_own_seat(preset: str) -> None:
    bots = [SpyBot() for _ in range(seats(preset, 3))]
    _state, stats = play_match(f"{preset}(deals=1)", len(bots), bots, seed=5)
    assert sum(len(b.seen) for b in bots) == stats.actions
    for seat, bot in enumerate(bots):
        assert len(bot.seen) == stats.actions_per_seat[seat]
        for view in bot.seen:
            assert type(view) is PlayerView
            assert view.player == seat == view.current
            assert view.my_turn and view.legal
            # Nothing in the view is the state itself or the stock (only its size).
            assert not any(isinstance(v, GameState) for v in vars(view).values())
            assert isinstance(view.stock_size, int)


def test_random_bot_depends_only_on_the_view() -> None:
    """Two states that differ only in hidden cards (other hands, the stock order) give
    the same view, hence the same choice."""
    for preset in PRESET_NAMES:
        # Random drops end an Indian deal within a few turns: play it without them.
        spec = f"{preset}(first_drop=0, middle_drop=0)" if PRESETS[preset].first_drop else preset
        state = new_game(spec, players=seats(preset, 3), seed=11)
        _advance(state, 40, seed=2)
        p = state.current
        view = state.view(p)
        other = determinize(view, random.Random(99))
        assert other.stock != state.stock or other.hands != state.hands
        assert other.view(p) == view
        bot = RandomBot()
        assert bot.choose(other.view(p), random.Random(3)) == bot.choose(view, random.Random(3))


def test_view_is_a_snapshot_with_exactly_the_declared_fields() -> None:
    """make_view fills the frozen dataclass directly; it must match the declaration."""
    state = new_game("rami51", players=2, seed=4)
    _advance(state, 25, seed=4)
    view = make_view(state, state.current)
    assert set(vars(view)) == {f.name for f in fields(PlayerView)}
    assert PlayerView(**vars(view)) == view
    legal = view.legal
    state.apply(legal[0])
    assert view.legal == legal  # later moves do not change an earlier view
    with pytest.raises(AttributeError):
        view.hand = 0  # type: ignore[misc]
    with pytest.raises(ValueError, match="no player"):
        make_view(state, 7)


def test_random_bot_is_uniform_over_legal_moves() -> None:
    state = new_game("basic", players=2, seed=3)
    state.apply(state.legal_moves()[0])  # draw: now a choice of melds/discards
    view = state.view(state.current)
    assert len(view.legal) >= 5
    rng = random.Random(0)
    draws = 700 * len(view.legal)
    counts = Counter(RandomBot().choose(view, rng) for _ in range(draws))
    assert set(counts) == set(view.legal)
    assert all(600 <= c <= 800 for c in counts.values())


def test_random_bot_refuses_a_view_without_moves() -> None:
    state = new_game("basic", players=2, seed=3)
    idle = (state.current + 1) % 2
    with pytest.raises(ValueError, match="not their turn"):
        RandomBot().choose(state.view(idle), random.Random(0))


@pytest.mark.parametrize("preset", PRESET_NAMES)
@pytest.mark.parametrize("players", [2, 4])
def test_every_random_bot_move_is_legal(preset: str, players: int) -> None:
    """Random bots through views, every move checked against the engine's legal moves,
    over several one-deal matches of each preset (seeds 000-003 via the presets)."""
    bot = RandomBot()
    for seed in range(3):
        state = new_game(f"{preset}(deals=1)", players=seats(preset, players), seed=seed)
        rng = random.Random(seed)
        while not state.is_over():
            move = bot.choose(state.view(state.current), rng)
            assert move in state.legal_moves()
            state.apply(move)
        assert len(state.results) == 1


@settings(max_examples=12, deadline=None)
@given(preset=st.sampled_from(PRESET_NAMES), players=st.integers(2, 5), seed=st.integers(0, 10**6))
def test_random_matches_end_with_consistent_counts(preset: str, players: int, seed: int) -> None:
    players = seats(preset, players)
    state, stats = play_match(f"{preset}(deals=1)", players, [RandomBot()] * players, seed)
    assert state.is_over()
    assert stats.actions == len(state.history) == sum(stats.actions_per_seat)
    assert stats.rounds == len(state.results) == 1
    assert 1 <= stats.turns <= stats.actions


def test_full_matches_and_determinism() -> None:
    for preset in PRESET_NAMES:
        n = seats(preset, 2)
        a, stats_a = play_match(preset, n, [RandomBot()] * n, seed=1)
        b, stats_b = play_match(preset, n, [RandomBot()] * n, seed=1)
        assert a.is_over() and a.history == b.history and stats_a == stats_b
        assert stats_a.rounds == len(a.results) >= 1
        target, deals = a.rules.target_score, a.rules.deals
        if target is not None:
            assert max(a.scores) >= target
        else:
            assert stats_a.rounds == deals


def test_play_match_checks_its_arguments() -> None:
    with pytest.raises(ValueError, match="3 players need 3 bots"):
        play_match("basic", 3, [RandomBot()], seed=0)
    with pytest.raises(RuntimeError, match="did not end within 10 actions"):
        play_match("basic", 2, [RandomBot(), RandomBot()], seed=0, max_actions=10)


def test_bot_registry() -> None:
    assert isinstance(make_bot(" Random "), RandomBot)
    assert all(issubclass(cls, Bot) and cls.name == name for name, cls in BOTS.items())
    with pytest.raises(ValueError, match="unknown bot 'nope'"):
        make_bot("nope")
    with pytest.raises(TypeError):
        Bot()  # type: ignore[abstract]

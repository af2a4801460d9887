"""rummykit's presets as OpenSpiel games (marker ``peers``: ``make peers`` runs these in
the benchmark environment, where OpenSpiel is installed; elsewhere they skip)."""

from __future__ import annotations

import random
from typing import Any

import pytest

pyspiel = pytest.importorskip("pyspiel")
np = pytest.importorskip("numpy")
pytest.importorskip("rummykit.env.observation")

from rummykit.bots import make_bot  # noqa: E402
from rummykit.openspiel import PREFIX, register, utilities  # noqa: E402
from rummykit.rules import PRESETS  # noqa: E402

ENV_PRESETS = list(PRESETS)
"""Every preset (Rummikub's actions are its numbered listed moves: Game.agent_actions)."""

pytestmark = pytest.mark.peers

register()


def _load(preset: str, **params: Any) -> Any:
    return pyspiel.load_game(PREFIX + preset, {"seed": 5, **params})


def _play_randomly(state: Any, rng: random.Random, moves: int) -> Any:
    """``state`` after up to ``moves`` uniformly random actions (stops at the end)."""
    for _ in range(moves):
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
    return state


def _play_out(state: Any, bot: str, rng: random.Random) -> Any:
    """``state`` played to the end by a rummykit bot in every seat (random Gin hands
    rarely end in a knock), each move chosen from the acting player's view only."""
    bots = [make_bot(bot) for _ in range(state.num_players())]
    while not state.is_terminal():
        p = state.current_player()
        engine = state.engine
        move = bots[p].choose(engine.view(p), rng)
        state.apply_action(action_of(engine, move))
    return state


def action_of(engine: Any, move: Any) -> int:
    """The OpenSpiel action of a listed move: its engine number, or its number among
    the family's numbered moves (Rummikub)."""
    listed = engine.game.agent_actions
    if listed is None:
        return int(engine.game.actions.encode(move))
    return min(a for a, m in listed.legal(engine).items() if m == move)


def test_register_names_every_preset_once() -> None:
    names = register()
    assert names == [PREFIX + p for p in ENV_PRESETS]
    assert register() == names  # a second call registers nothing new
    assert set(names) <= set(pyspiel.registered_names())


@pytest.mark.parametrize("preset", list(ENV_PRESETS))
def test_openspiel_random_simulation(preset: str) -> None:
    game = _load(preset)
    assert game.num_players() == max(2, PRESETS[preset].min_players)
    game_type = game.get_type()
    assert game_type.chance_mode == pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC
    assert game_type.utility == pyspiel.GameType.Utility.ZERO_SUM
    # OpenSpiel's own checks: clones, legal-action masks, unique action strings, the
    # tensors' sizes, returns within the utility bounds and summing to zero, the length
    # within max_game_length.  (No serialization: a sampled-stochastic game would need
    # the game's generator state, which OpenSpiel asks of C++ games only.)
    pyspiel.random_sim_test(game, num_sims=4, serialize=False, verbose=False)


@pytest.mark.parametrize(("preset", "players"), [("basic", 4), ("rami51", 3), ("rummikub", 4)])
def test_random_simulation_with_more_players(preset: str, players: int) -> None:
    game = _load(preset, players=players)
    assert game.num_players() == players
    pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)


@pytest.mark.parametrize("preset", list(ENV_PRESETS))
def test_rounds_are_played_as_the_environments_play_them(preset: str) -> None:
    """The same rules as a round episode of rummykit.env, so the same tensors."""
    from rummykit.env.episode import Episode as EnvEpisode
    from rummykit.env.observation import encode

    game = _load(preset)
    state = game.new_initial_state()
    assert state.engine.rules == EnvEpisode(preset, game.num_players()).play_rules
    _play_randomly(state, random.Random(6), 25)
    # (A drop can end an Indian round inside 25 moves: then look from seat 0.)
    p = 0 if state.is_terminal() else state.current_player()
    assert state.observation_tensor(p) == encode(state.engine.view(p)).tolist()


def test_bad_parameters_are_refused() -> None:
    with pytest.raises(ValueError, match="for exactly 2 players"):
        _load("gin", players=3)
    with pytest.raises(ValueError, match="unknown option"):
        _load("basic", rules="no_such_rule=1")


def test_house_rules_parameter() -> None:
    game = _load("rami51", players=3, rules="opening_minimum=40")
    state = game.new_initial_state()
    assert state.engine.rules.opening_minimum == 40
    assert state.engine.rules.max_deals == 1


def test_same_seed_same_deals_and_clone_keeps_the_future() -> None:
    a = _load("basic").new_initial_state()
    b = _load("basic").new_initial_state()
    assert str(a) == str(b)
    rng = random.Random(1)
    _play_randomly(a, rng, 30)
    c = a.clone()
    assert str(c) == str(a)
    # The clone draws the same stock cards: its generator and stock are copies.
    for _ in range(20):
        if a.is_terminal():
            break
        action = rng.choice(a.legal_actions())
        a.apply_action(action)
        c.apply_action(action)
        assert str(c) == str(a)
    # ...but it is a copy: moves on one do not reach the other.
    if not c.is_terminal():
        c.apply_action(c.legal_actions()[0])
        assert str(c) != str(a)


def test_returns_are_the_round_margin() -> None:
    rng = random.Random(3)
    for preset in ("basic", "classic", "gin"):
        game = _load(preset)
        seen_nonzero = False
        for _ in range(5):
            state = _play_out(game.new_initial_state(), "easy", rng)
            assert state.is_terminal()
            assert state.current_player() == pyspiel.PlayerId.TERMINAL
            engine = state.engine
            deltas = engine.results[0].deltas
            sign = -1 if preset == "classic" else 1
            margin = sign * (deltas[0] - deltas[1])
            assert state.returns() == [margin, -margin] == utilities(engine)
            seen_nonzero |= margin != 0
        assert seen_nonzero, preset


def test_returns_sum_to_zero_with_three_players() -> None:
    state = _play_randomly(_load("rami51", players=3).new_initial_state(), random.Random(2), 10**6)
    returns = state.returns()
    deltas = state.engine.results[0].deltas
    score = [-d for d in deltas]
    assert returns[0] == pytest.approx(score[0] - (score[1] + score[2]) / 2)
    assert sum(returns) == pytest.approx(0.0)


def _tensors(state: Any, player: int) -> tuple[list[float], list[float], str, str]:
    return (
        state.observation_tensor(player),
        state.information_state_tensor(player),
        state.observation_string(player),
        state.information_state_string(player),
    )


@pytest.mark.parametrize("preset", ["gin", "rami51", "rummikub"])
def test_hidden_cards_do_not_change_a_players_tensors(preset: str) -> None:
    """At every state of OpenSpiel's random simulations, the state resampled from the
    acting player's information state (other hands and the stock dealt anew) gives that
    player the same tensors, strings and legal actions; the other player's tensors
    differ at some states (so the comparison can fail)."""
    game = _load(preset)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    failures: list[str] = []
    counts = {"checked": 0, "hidden_moved": 0, "other_differs": 0}

    def check(state: Any) -> None:  # exceptions cannot cross OpenSpiel's C++: collect
        if state.is_terminal():
            return
        player = state.current_player()
        other = (player + 1) % game.num_players()
        resampled = state.resample_from_infostate(player, sampler)
        counts["checked"] += 1
        counts["hidden_moved"] += resampled.engine.hands[other] != state.engine.hands[other]
        theirs = resampled.observation_tensor(other)
        counts["other_differs"] += theirs != state.observation_tensor(other)
        if resampled.engine.hands[player] != state.engine.hands[player]:
            failures.append(f"own hand changed: {state}")
        if _tensors(resampled, player) != _tensors(state, player):
            failures.append(f"player {player}'s tensors changed: {state}")
        if resampled.legal_actions() != state.legal_actions():
            failures.append(f"legal actions changed: {state}")

    pyspiel.random_sim_test(
        game, num_sims=2, serialize=False, verbose=False, state_checker_fn=check
    )
    assert failures == []
    assert counts["checked"] > 50
    assert counts["hidden_moved"] > counts["checked"] // 2
    assert counts["other_differs"] > 0


def test_information_state_string_has_perfect_recall() -> None:
    """The player's own stock draws are in their information state, not the other's."""
    state = _load("gin").new_initial_state()
    rng = random.Random(4)
    while not state.is_terminal():
        player = state.current_player()
        actions = state.legal_actions()
        action = 0 if 0 in actions else rng.choice(actions)
        state.apply_action(action)
        if action == 0:
            break
    mine = state.information_state_string(player)
    theirs = state.information_state_string(1 - player)
    assert f"{player}:0+" in mine
    assert f"{player}:0+" not in theirs
    assert f"{player}:0" in theirs


def test_ismcts_plays_a_gin_hand_against_random() -> None:
    """OpenSpiel's information-set MCTS, which resamples hidden cards through
    ``resample_from_infostate``, plays whole hands against a random bot."""
    from open_spiel.python.algorithms import ismcts, mcts

    game = _load("gin")
    rs = np.random.RandomState(0)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rs)
    search = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=8, random_state=rs)
    rand = pyspiel.make_uniform_random_bot(1, 3)
    state = game.new_initial_state()
    moves = 0
    while not state.is_terminal():  # (ISMCTSBot has no restart_at for evaluate_bots)
        bot = (search, rand)[state.current_player()]
        action = bot.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
        moves += 1
    returns = state.returns()
    assert moves > 10
    assert returns[0] == -returns[1]


def test_rl_environment_episodes_with_random_agents() -> None:
    """OpenSpiel's RL environment runs on the game and serves the tensors."""
    from open_spiel.python import rl_environment
    from open_spiel.python.algorithms import random_agent

    game = _load("gin")
    env = rl_environment.Environment(game)
    size = env.observation_spec()["info_state"][0]
    actions = env.action_spec()["num_actions"]
    agents = [random_agent.RandomAgent(p, actions) for p in range(2)]
    for _ in range(3):
        step = env.reset()
        while not step.last():
            p = step.observations["current_player"]
            assert len(step.observations["info_state"][p]) == size
            out = agents[p].step(step)
            step = env.step([out.action])
        assert sum(step.rewards) == pytest.approx(0.0)


def test_rummikub_actions_are_the_numbered_listed_moves() -> None:
    """Rummikub's OpenSpiel actions are the environments' numbers: a fixed space of
    11,498, the legal ones naming exactly the legal list, each printed by its meaning;
    bots play whole rounds through them and the returns are the round margin."""
    game = _load("rummikub")
    assert game.num_distinct_actions() == 11_498
    state = game.new_initial_state()
    rng = random.Random(7)
    while not state.is_terminal():
        engine = state.engine
        listed = engine.game.agent_actions.legal(engine)
        assert state.legal_actions() == sorted(listed)
        assert set(listed.values()) == set(engine.legal_moves())
        p = state.current_player()
        text = state.action_to_string(p, state.legal_actions()[0])
        assert text in (f"p{p} draw a tile", f"p{p} pass")
        state.apply_action(rng.choice(state.legal_actions()))
    state = _play_out(game.new_initial_state(), "easy", rng)
    deltas = state.engine.results[0].deltas
    assert state.returns() == [deltas[0] - deltas[1], deltas[1] - deltas[0]]

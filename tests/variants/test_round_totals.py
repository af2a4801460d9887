"""The rows of a match's score history add up to its standings, in every preset.

A player reading the round summary and the standings must see the same numbers: the
round rows (every point a round gave, 500 Rum's melds scored as they were laid
included) and the match-end bonuses (Gin's game, line and shutout bonuses, typed as
``PlayerScore.bonus`` in the last round's result) sum to ``scores``.  HowStuffWorks,
"How to Play 500 Rum": melds and lay-offs "count to your score", cards left in hand
against it; Pagat, "Gin Rummy": the game bonus, a box per hand won and the shutout
are part of the final score.
"""

from __future__ import annotations

import pytest

from rummykit import Rules
from rummykit.bots import make_bot, play_match
from rummykit.rules import PRESETS


def _totals_add_up(preset: str, bot: str, seed: int) -> None:
    rules = Rules.preset(preset)
    n = rules.min_players
    state, _stats = play_match(preset, n, [make_bot(bot) for _ in range(n)], seed)
    assert state.is_over()
    rows = [sum(r.players[p].delta for r in state.results) for p in range(n)]
    assert rows == list(state.scores), (preset, seed)
    bonus = [sum(r.players[p].bonus for r in state.results) for p in range(n)]
    assert all(b == 0 for r in state.results[:-1] for b in (ps.bonus for ps in r.players))
    if not (rules.game_bonus or rules.line_bonus or rules.shutout_double):
        assert bonus == [0] * n


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_round_rows_add_up_to_the_standings(preset: str) -> None:
    """Over random matches of every preset, the rounds' deltas (match-end bonuses
    included) sum to the final scores."""
    for seed in range(2):
        _totals_add_up(preset, "random", seed)


@pytest.mark.parametrize("preset", ["rum500", "gin_match"])
def test_round_rows_add_up_with_greedy_play(preset: str) -> None:
    """The same with the greedy bot, which melds (500 Rum) and knocks (Gin) far more."""
    for seed in range(3):
        _totals_add_up(preset, "greedy", seed)


def test_a_match_bonus_survives_saving() -> None:
    """The typed bonus is saved with the result and read back (a saved state without one
    has no ``bonus`` field, as before)."""
    from rummykit.serialize import state_from_json, state_to_dict, state_to_json

    state, _ = play_match("gin_match", 2, [make_bot("greedy"), make_bot("random")], 1)
    again = state_from_json(state_to_json(state))
    assert again.results == state.results and any(ps.bonus for ps in again.results[-1].players)
    d = state_to_dict(state)
    assert all("bonus" not in ps for r in d["results"][:-1] for ps in r["players"])

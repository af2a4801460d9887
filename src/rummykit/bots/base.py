"""The bot interface and the match driver.

:func:`play_match` is the only place that holds the full state: for every action it
builds ``state.view(seat)`` for the seat to act and hands the bot that view and the
seat's own random generator.  (It calls :func:`~rummykit.view.make_view`, which is
what ``GameState.view`` returns, directly: the method's deferred import costs about
as much as half the view itself.)
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from ..moves import Move
from ..rules import Rules
from ..state import GameState, new_game
from ..view import PlayerView, make_view

MAX_ACTIONS = 2_000_000
"""Guard for :func:`play_match`: a match still going after this many actions is an error."""


class Bot(ABC):
    """A player.  Subclasses implement :meth:`choose`; they may keep their own memory
    between calls but learn about the game only from the views they are given."""

    name: ClassVar[str] = "bot"

    @abstractmethod
    def choose(self, view: PlayerView, rng: random.Random) -> Move:
        """One of ``view.legal`` (the view is of the seat to act)."""


@dataclass(frozen=True)
class MatchStats:
    """Counts for one match played by :func:`play_match`."""

    actions: int
    """Player actions (draws, melds, lay-offs, swaps, takes, discards)."""
    turns: int
    """Turns in which a player acted, over all rounds."""
    rounds: int
    actions_per_seat: tuple[int, ...]


def play_match(
    rules: Rules | str,
    players: int | list[str],
    bots: Sequence[Bot],
    seed: int,
    *,
    max_actions: int = MAX_ACTIONS,
) -> tuple[GameState, MatchStats]:
    """Play a whole match, ``bots[k]`` in seat ``k``; return the final state and counts.

    The deal uses ``seed``; each seat's bot gets its own generator derived from it, so
    the same seed and bots replay the same match.  A move the bot returns that is not
    legal raises :class:`~rummykit.errors.IllegalMoveError`; so does a match that has
    not ended after ``max_actions`` actions (``RuntimeError``).
    """
    state = new_game(rules, players, seed)
    n = state.num_players
    if len(bots) != n:
        raise ValueError(f"{n} players need {n} bots, not {len(bots)}")
    master = random.Random(seed)
    rngs = [random.Random(master.getrandbits(64)) for _ in range(n)]
    per_seat = [0] * n
    actions = 0
    turns = 0
    last_turn = (-1, -1)
    while not state.is_over():
        if actions >= max_actions:
            raise RuntimeError(f"the match did not end within {max_actions} actions")
        seat = state.current
        turn = (state.round_no, state.turn)
        if turn != last_turn:
            turns += 1
            last_turn = turn
        move = bots[seat].choose(make_view(state, seat), rngs[seat])
        state.apply(move)
        per_seat[seat] += 1
        actions += 1
    return state, MatchStats(actions, turns, len(state.results), tuple(per_seat))

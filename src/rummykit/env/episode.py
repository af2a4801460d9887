"""One episode of play and its bookkeeping, shared by the PettingZoo and Gymnasium envs.

Both environments need the same things from the engine: start a match from a seed,
apply a move, notice when a round or the match ends, turn the points into rewards,
count moves for truncation and build each seat's observation.  Keeping that here
means the two envs cannot drift apart in what an episode or a reward is.

*Round episodes.*  With ``episode="round"`` an episode is one deal.  The engine's
state would deal the next round as soon as one is scored, so the episode plays under
the same rules with ``max_deals=1``: the match then ends with that round, and the
final observation shows the hands as they were scored.  Match-end bonuses (Gin's
game, line and shutout bonuses) belong to a whole match and are switched off for a
single round; nothing else about the rules changes.
"""

from __future__ import annotations

import operator

import numpy as np
import numpy.typing as npt

from ..errors import IllegalMoveError
from ..moves import Move
from ..rules import PRESETS, Rules
from ..state import Game, GameState
from .observation import Vector, encode_state, observation_size
from .rewards import REWARDS, margins, win_loss

EPISODES = ("round", "match")

Mask = npt.NDArray[np.int8]
Observation = dict[str, npt.NDArray[np.float32] | Mask]


def has_action_space(rules: Rules) -> bool:
    """Whether the environments can play ``rules``: every action fits a fixed-size mask,
    the engine's numbers or, where they cannot all be listed, the family's own
    (:attr:`Game.agent_actions <rummykit.game.Game.agent_actions>`: Rummikub's agents
    choose among the listed moves by fixed numbers, docs/env.md, "Rummikub's
    actions")."""
    game = Game.shared(rules, rules.min_players)
    return game.actions.listable or game.agent_actions is not None


ENV_PRESETS = tuple(name for name, rules in PRESETS.items() if has_action_space(rules))
"""The presets the environments play (every preset)."""


def parse_rules(rules: Rules | str) -> Rules:
    return Rules.parse(rules) if isinstance(rules, str) else rules


class Episode:
    """A match being played for an environment: the engine state plus episode flags."""

    def __init__(
        self,
        rules: Rules | str,
        players: int,
        reward: str = "round_margin",
        episode: str = "round",
        max_cycles: int = 10_000,
    ) -> None:
        self.rules = parse_rules(rules)
        self.rules.check_players(players)
        if not has_action_space(self.rules):  # pragma: no cover - every family has one
            raise ValueError(f"{self.rules.name}: no fixed-size action space for agents")
        if reward not in REWARDS:
            raise ValueError(f"unknown reward {reward!r} (known: {', '.join(REWARDS)})")
        if episode not in EPISODES:
            raise ValueError(f"unknown episode {episode!r} (known: {', '.join(EPISODES)})")
        if max_cycles < 1:
            raise ValueError("max_cycles must be at least 1")
        self.players = players
        self.reward = reward
        self.episode = episode
        self.max_cycles = max_cycles
        self.play_rules = self.rules.one_round() if episode == "round" else self.rules
        self.game = Game.shared(self.play_rules, players)
        self.listed = self.game.agent_actions
        """The family's numbered moves (Rummikub), or None: the engine's numbers."""
        self.action_size = self.game.actions.size if self.listed is None else self.listed.size
        self.observation_size = observation_size(self.play_rules, players)
        self.state = GameState.new(self.play_rules, players, 0)
        self._listed_now: dict[int, Move] | None = None
        self.moves = [0] * players
        self.rounds = 0
        self.truncated = False

    def start(self, seed: int) -> None:
        """A new match dealt from ``seed`` (the cut for dealer included)."""
        self.state = GameState.new(self.play_rules, self.players, seed)
        self._listed_now = None
        self.moves = [0] * self.players
        self.rounds = 0
        self.truncated = False

    @property
    def over(self) -> bool:
        return self.state.is_over()

    @property
    def current(self) -> int:
        return self.state.current

    def act(self, action: object) -> list[float] | None:
        """Apply the action numbered ``action`` for the seat to act.

        Returns each seat's reward for it, or None when it earned nobody anything.
        An illegal or malformed action raises :class:`IllegalMoveError` (a
        ``ValueError`` naming the rule it breaks) and changes nothing.
        """
        if type(action) is int:  # the usual case, which needs none of the checks below
            number = action
        elif isinstance(action, (bool, np.bool_)):
            raise IllegalMoveError("unknown_action", f"not an action number: {action!r}")
        else:
            try:
                number = operator.index(action)  # type: ignore[arg-type]
            except TypeError:
                raise IllegalMoveError(
                    "unknown_action", f"not an action number: {action!r}"
                ) from None
        seat = self.state.current
        if self.listed is None:
            self.state.apply_action(number)
        else:
            self.state.apply(self.listed.move(self.state, number, self._numbered()))
        return self._after(seat)

    def _numbered(self) -> dict[int, Move]:
        """The family's legal numbers now (:attr:`listed`), kept until the next move:
        the mask and the action that follows it read the same dict."""
        numbered = self._listed_now
        if numbered is None:
            assert self.listed is not None
            numbered = self._listed_now = self.listed.legal(self.state)
        return numbered

    def act_move(self, move: Move) -> list[float] | None:
        """Apply a :class:`Move` (a bot's choice); otherwise as :meth:`act`."""
        seat = self.state.current
        self.state.apply(move)
        return self._after(seat)

    def _after(self, seat: int) -> list[float] | None:
        s = self.state
        self._listed_now = None
        self.moves[seat] += 1
        rewards = None
        if len(s.results) > self.rounds:
            self.rounds = len(s.results)
            if self.reward == "round_margin":
                rewards = margins(self.rules, s.results[-1].deltas)
        if s.is_over():
            if self.reward == "match":
                rewards = margins(self.rules, s.scores)
            elif self.reward == "win_loss":
                rewards = win_loss(self.rules, s.scores)
        elif self.moves[seat] >= self.max_cycles:
            self.truncated = True
        return rewards

    def mask(self, seat: int) -> Mask:
        """The seat's legal actions as 0/1 (all zero when it is not to act)."""
        mask = np.zeros(self.action_size, dtype=np.int8)
        s = self.state
        if s.current == seat:
            legal = s.legal_actions() if self.listed is None else list(self._numbered())
            mask.put(legal, 1)  # ``put`` skips fancy indexing's checks
        return mask

    def vector(self, seat: int, out: Vector | None = None) -> Vector:
        """The seat's encoded view, straight from the state (no view is built)."""
        return encode_state(self.state, seat, out)

    def observe(self, seat: int) -> Observation:
        """The seat's observation: the encoded view and the action mask, both new arrays."""
        return {"observation": self.vector(seat), "action_mask": self.mask(seat)}


__all__ = [
    "ENV_PRESETS", "EPISODES", "Episode", "Mask", "Observation", "has_action_space", "parse_rules",
]  # fmt: skip

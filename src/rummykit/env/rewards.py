"""Rewards for learning agents, from the points the rules score.

Rummy scores two ways: under ``winner_collects`` a higher total is better, under
``penalty`` a lower one (a player adds their own hand).  Every reward here is signed
so that *higher is better* for the learner whatever the scoring, the same convention
as the search bot's playout rewards: both take the core's
:func:`rummykit.scoring.margins`.

A *margin* is a player's points minus the mean of the others' points: it sums to zero
over the table, so a seat cannot gain by everyone scoring, and in two-player games it
is the difference of the two scores.  Margins are divided by
:data:`REWARD_SCALE` to keep typical rewards near -1..1.

>>> from rummykit.rules import Rules
>>> margins(Rules.parse("gin"), [25, 0])
[0.25, -0.25]
>>> margins(Rules.parse("rami51"), [0, 40, 140, 60])   # penalty: the 0 is best
[0.8, 0.2666..., -1.0666..., -0.0]
>>> win_loss(Rules.parse("rami51"), [0, 40, 140, 60]), win_loss(Rules.parse("gin"), [0, 0])
([1.0, -1.0, -1.0, -1.0], [0.0, 0.0])
"""

from __future__ import annotations

from collections.abc import Sequence

from .. import scoring
from ..rules import Rules, Scoring

REWARD_SCALE = 100.0
"""Points per unit of reward: a 100-point margin is a reward of 1."""

REWARDS = ("round_margin", "match", "win_loss")
"""The reward schemes the environments offer (see ``docs/env.md``)."""


def sign(rules: Rules) -> float:
    """+1 where more points are better (winner collects), -1 under penalty scoring."""
    return 1.0 if rules.scoring is Scoring.WINNER_COLLECTS else -1.0


def margins(rules: Rules, points: Sequence[int]) -> list[float]:
    """Per seat: its points minus the others' mean, signed and scaled."""
    return [m / REWARD_SCALE for m in scoring.margins(rules, points)]


def win_loss(rules: Rules, points: Sequence[int]) -> list[float]:
    """+1 for the one best total, -1 for every other seat; 0 for seats sharing the
    best (a tie, such as a blocked round where nobody scores)."""
    s = sign(rules)
    good = [s * p for p in points]
    best = max(good)
    shared = good.count(best) > 1
    return [(0.0 if shared else 1.0) if g == best else -1.0 for g in good]


__all__ = ["REWARDS", "REWARD_SCALE", "margins", "sign", "win_loss"]

"""Ratings: one per account and game, updated when a rated match ends.

A rating is openskill's Plackett-Luce model (``openskill``): a skill ``mu`` and its
uncertainty ``sigma``, 25 and 25/3 for a newcomer; what is shown is the cautious
estimate ``mu - 3 sigma`` (openskill's ordinal), which starts at 0 and rises as
results come in.  Why openskill (docs/accounts.md, "Ratings"): rummy is played by two
to six, and Plackett-Luce rates any number of players from their places in one
update, ties included, where Elo and Glicko-2 rate pairs; it is Bayesian like
TrueSkill without TrueSkill's patent, MIT-licensed, typed and maintained.

The game is the preset a rated table plays, as it is (``gin``, ``rami51``,
``indian_pool101``): a rated table plays a preset without house rules, so that one
rating means one game.  Pure computation here; the rows are web/account_store.py's
and the match's end is web/service.py's.

The bots' ratings are fixed (:func:`bot_ratings`): measured by
``benchmarks/bot_ratings.py``, which rates bot-against-bot results exactly as
:func:`updated` rates people's, and shipped in ``bot_ratings.json`` beside this
module.  Games with a bot are never rated: the figures only say what a level means.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from functools import cache
from importlib import resources
from typing import Any

from openskill.models import PlackettLuce

from ..rules import Rules, Scoring

MODEL = PlackettLuce()
"""openskill's defaults: mu 25, sigma 25/3, beta 25/6, tau 25/300."""


def places(rules: Rules, scores: Sequence[int]) -> list[int]:
    """Each seat's place, 1 the best, equal totals sharing one: the highest total is
    best when the winner collects, the lowest in penalty games."""
    sign = -1 if rules.scoring is Scoring.WINNER_COLLECTS else 1
    keyed = [sign * s for s in scores]
    return [1 + sum(1 for other in keyed if other < mine) for mine in keyed]


def abandoned_places(rules: Rules, scores: Sequence[int], seat: int) -> list[int]:
    """The places of a match that ``seat`` abandoned (docs/accounts.md, "Abandoned
    games"): that seat last, alone; the others in the order of their totals so far,
    as :func:`places` ranks them."""
    ranked = iter(places(rules, [s for i, s in enumerate(scores) if i != seat]))
    return [len(scores) if i == seat else next(ranked) for i in range(len(scores))]


def updated(
    ratings: Sequence[tuple[float, float]], ranks: Sequence[int]
) -> list[tuple[float, float]]:
    """The ``(mu, sigma)`` of each seat after a match with these places."""
    teams = [[MODEL.rating(mu=mu, sigma=sigma)] for mu, sigma in ratings]
    out = MODEL.rate(teams, ranks=[float(r) for r in ranks])
    return [(team[0].mu, team[0].sigma) for team in out]


def shown(mu: float, sigma: float) -> float:
    """The rating a player sees: ``mu - 3 sigma``, to one decimal."""
    return round(mu - 3.0 * sigma, 1)


def flags(addresses: dict[int, set[str]]) -> list[str]:
    """What is suspicious about a rated match, from the client addresses each seat was
    connected from at its end: ``same_address`` when two seats share one (one person
    may be playing two accounts against each other; or two people share a network).
    Flagged matches are rated all the same, and kept for an operator to look at."""
    seen: set[str] = set()
    for held in addresses.values():
        if held & seen:
            return ["same_address"]
        seen |= held
    return []


def fresh() -> tuple[float, float]:
    """A newcomer's ``(mu, sigma)``."""
    r = MODEL.rating()
    return r.mu, r.sigma


@cache
def _measured() -> dict[str, Any]:
    text = resources.files(__package__).joinpath("bot_ratings.json").read_text("utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


def bot_ratings(game: str) -> list[dict[str, Any]]:
    """The bots' fixed ratings at ``game``, easiest first: ``{difficulty, rating, low,
    high}``, the shown rating and its 95% interval as measured; [] for a game not
    measured."""
    levels: dict[str, dict[str, Any]] = _measured()["games"].get(game, {})
    order = ("easy", "medium", "hard")
    return [
        {"difficulty": lv, "rating": r["rating"], "low": r["low"], "high": r["high"]}
        for lv, r in sorted(levels.items(), key=lambda kv: order.index(kv[0]))
    ]


def all_bot_ratings() -> dict[str, list[dict[str, Any]]]:
    """:func:`bot_ratings` of every game measured."""
    return {game: bot_ratings(game) for game in sorted(_measured()["games"])}

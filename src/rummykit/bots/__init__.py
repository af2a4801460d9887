"""Bots: players that see only a :class:`~rummykit.view.PlayerView`.

A bot is given the view of the seat to act (its own hand, the public cards and its
legal moves) plus its own :class:`random.Random`, and returns one of
``view.legal``.  It never receives the :class:`~rummykit.state.GameState`, so it
cannot see other hands or the order of the stock.

>>> from rummykit.bots import RandomBot, play_match
>>> state, stats = play_match("basic(deals=1)", 2, [RandomBot(), RandomBot()], seed=3)
>>> state.is_over(), stats.rounds, stats.actions == sum(stats.actions_per_seat)
(True, 1, True)
"""

from __future__ import annotations

from .base import Bot, MatchStats, play_match
from .expert import ExpertBot
from .greedy import GreedyBot
from .ismcts import ISMCTSBot
from .random_bot import RandomBot

BOTS: dict[str, type[Bot]] = {
    RandomBot.name: RandomBot,
    GreedyBot.name: GreedyBot,
    ExpertBot.name: ExpertBot,
    ISMCTSBot.name: ISMCTSBot,
}
"""Bots by the name the command line uses."""

DIFFICULTIES: dict[str, str] = {"easy": "greedy", "medium": "expert", "hard": "ismcts"}
"""The difficulty names the games use, and the bot each one means."""


def make_bot(name: str) -> Bot:
    """A new bot by name or difficulty (see :data:`BOTS`, :data:`DIFFICULTIES`).

    ``ismcts:0.5`` searches at most 0.5 s per move, ``ismcts:200i`` at most 200
    iterations, ``ismcts:1cpu`` at most one second of its own CPU time (for
    tournaments on a busy machine), and ``ismcts:1x2`` one second on two worker
    processes.  ``ValueError`` for an unknown name.

    >>> type(make_bot("hard")).__name__, make_bot("ismcts:200i").iterations
    ('ISMCTSBot', 200)
    >>> make_bot("ismcts:1cpu").clock
    'cpu'
    """
    key, _, arg = name.strip().lower().partition(":")
    key = DIFFICULTIES.get(key, key)
    if key not in BOTS:
        known = ", ".join(sorted(BOTS) + sorted(DIFFICULTIES))
        raise ValueError(f"unknown bot {name!r} (known: {known})")
    if key != ISMCTSBot.name or not arg:
        if arg:
            raise ValueError(f"bot {key!r} takes no parameter")
        return BOTS[key]()
    try:
        budget, _, workers = arg.partition("x")
        n_workers = int(workers) if workers else 1
        if budget.endswith("i"):
            return ISMCTSBot(seconds=None, iterations=int(budget[:-1]), workers=n_workers)
        clock = "cpu" if budget.endswith("cpu") else "wall"
        seconds = float(budget.removesuffix("cpu").rstrip("s"))
        return ISMCTSBot(seconds=seconds, workers=n_workers, clock=clock)
    except ValueError:
        raise ValueError(
            f"bad ismcts budget {arg!r}: use seconds (0.5), CPU seconds (1cpu), "
            "iterations (200i), optional xWORKERS"
        ) from None


__all__ = [
    "BOTS", "DIFFICULTIES", "Bot", "ExpertBot", "GreedyBot", "ISMCTSBot", "MatchStats",
    "RandomBot", "make_bot", "play_match",
]  # fmt: skip

"""Bots for tests/web/test_web_capacity.py, in a module of their own so that the server's
bot worker processes can import them (they are given by name, pickled by reference)."""

from __future__ import annotations

import os
import random
from pathlib import Path

from rummykit.bots import Bot, GreedyBot
from rummykit.moves import Move
from rummykit.view import PlayerView

PID_DIR = "RUMMYKIT_TEST_PID_DIR"
"""Where :class:`PidBot` writes down the process that chose each move."""


class RaisingBot(Bot):
    """A bot with a bug that raises: asked again, it raises again."""

    name = "raising"

    def choose(self, view: PlayerView, rng: random.Random) -> Move:
        raise RuntimeError("a bot bug")


class PidBot(GreedyBot):
    """The easy bot, which notes the process id and niceness it ran with."""

    def choose(self, view: PlayerView, rng: random.Random) -> Move:
        folder = Path(os.environ[PID_DIR])
        (folder / str(os.getpid())).write_text(str(os.nice(0)))
        return super().choose(view, rng)


def raising(name: str) -> Bot:
    return RaisingBot()


def pid_bot(name: str) -> Bot:
    return PidBot()

"""The driver: a task per table this process owns that plays the bots' turns, and a
human's turn when their timer runs out or they stayed away too long.

It submits its moves through the table service (web/service.py) as a client's are
submitted, so a bot's move is checked, committed and told like anyone's.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import time
from typing import Protocol

from sqlalchemy.exc import SQLAlchemyError

from ..bots import RandomBot, make_bot
from ..errors import IllegalMoveError
from ..moves import Move
from ..serialize import state_to_json
from .live import LiveTable
from .protocol import MoveIntent, ProtocolError
from .settings import Settings
from .store import StaleWriteError
from .thinking import BOTS, PEOPLE, Thinker, choose_move, server_bot

log = logging.getLogger("rummykit.web")

AUTO_BOT = "easy"
"""What plays for a human whose timer ran out or who stayed away."""
ABANDON = "abandon"
"""What the driver does, in place of a bot, when a rated match's player is gone."""


def abandoned_at(live: LiveTable, seat: int, grace: float) -> float | None:
    """When (``time.monotonic()``) the player at ``seat``, whose turn it is, abandons
    a rated match: ``grace`` seconds after both their turn's time ran out (its start
    without a turn timer) and they went away; None while they are connected, and at a
    casual table, where an absent player's turns are played for them instead."""
    if not live.options.get("rated") or seat not in live.away_since:
        return None
    due = live.turn_started + (live.timer or 0.0)
    return max(due, live.away_since[seat]) + grace


class Playing(Protocol):
    """The table service as the driver sees it."""

    async def play(
        self,
        live: LiveTable,
        seat: int,
        intent: MoveIntent | Move,
        version: int | None,
        *,
        auto: bool = False,
    ) -> None: ...

    async def fail(
        self, live: LiveTable, reason: str, exc: BaseException | None = None
    ) -> None: ...

    async def abandon(self, live: LiveTable, seat: int, version: int) -> None: ...


class Driver:
    """Starts and runs the tables' driver tasks."""

    def __init__(self, settings: Settings, thinker: Thinker, service: Playing) -> None:
        self.settings = settings
        self.thinker = thinker
        self.service = service

    def start(self, live: LiveTable) -> None:
        if live.driver is None or live.driver.done():
            live.driver = asyncio.get_running_loop().create_task(self.drive(live))

    async def auto_move(self, live: LiveTable, seat: int, version: int, bot_name: str) -> None:
        """A bot (or the auto-player) chooses from the seat's view and plays.

        The choice is made off the event loop by the thinker (web/thinking.py), with
        the bot's RNG seeded by the table's seed and version as it always was: the same
        position brings the same move, in a worker process or here.
        """
        state = live.state
        human = live.seats[seat].human
        seed = f"{state.seed}:{version}"
        factory = self.settings.bot_factory or make_bot
        move = await self.thinker.run(
            choose_move,
            factory,
            state_to_json(state),
            seat,
            bot_name,
            seed,
            urgent=human,
            client=live.client,
            tier=BOTS if live.bots_only else PEOPLE,
        )
        try:
            await self.service.play(live, seat, move, version, auto=human)
        except ProtocolError:  # the game moved on while the bot was thinking, or failed
            pass
        except IllegalMoveError as exc:
            # A bot bug.  Its RNG is seeded by the version, so asking it again would
            # bring the same move and stall the table: say so, and play a legal move.
            log.warning("table %s v%d: %s chose %s: %s", live.id, version, bot_name, move, exc)
            legal = RandomBot().choose(state.view(seat), random.Random(seed))
            with contextlib.suppress(ProtocolError, IllegalMoveError):
                await self.service.play(live, seat, legal, version, auto=human)

    async def drive(self, live: LiveTable) -> None:
        """Play bots' turns; play a human's turn when their timer runs out or they have
        been away longer than the grace period; end a rated match its player abandoned
        (:func:`abandoned_at`).

        An engine error (a bot raising, ``apply`` raising, nobody able to move) stops
        the table for good (the service's ``fail``): asked again, the engine would fail
        again, and a driver that retried would retry every second forever.  Only
        the store's errors are retried, with a growing pause.
        """
        s = self.settings
        pause = 1.0
        while live.failed is None:
            live.changed.clear()
            state = live.state
            version = live.version
            live.last_active = time.monotonic()
            if live.conns:
                live.last_seen = live.last_active
            timeout: float | None = None
            bot_name = AUTO_BOT
            if not live.over:
                seat = state.current
                info = live.seats[seat]
                if not state.legal_moves():
                    await self.service.fail(
                        live, f"{info.name} (seat {seat + 1}) has no legal move"
                    )
                    return
                now = time.monotonic()
                if info.kind == "bot":
                    timeout = s.bot_delay
                    # A difficulty is a bot name (make_bot), the same as in the terminal
                    # game, but hard counts its budget in CPU seconds here.
                    bot_name = server_bot(info.difficulty or "easy", s.bot_cpu)
                elif (gone := abandoned_at(live, seat, s.abandon_grace)) is not None:
                    timeout = max(0.0, gone - now)
                    bot_name = ABANDON
                else:
                    limits = []
                    if live.timer:
                        limits.append(live.turn_started + live.timer - now)
                    if seat in live.away_since:
                        limits.append(live.away_since[seat] + s.disconnect_grace - now)
                    if limits:
                        timeout = max(0.0, min(limits))
            live.resting = timeout is None
            try:
                if timeout is None:
                    await live.changed.wait()
                    continue
                await asyncio.wait_for(live.changed.wait(), timeout)
                continue
            except TimeoutError:
                pass
            finally:
                live.resting = False
            if live.version == version and not live.over:
                try:
                    if bot_name == ABANDON:
                        await self.service.abandon(live, state.current, version)
                        continue
                    await self.auto_move(live, state.current, version, bot_name)
                    pause = 1.0
                except asyncio.CancelledError:
                    raise
                except (SQLAlchemyError, StaleWriteError, OSError):
                    log.exception("table %s v%d: storing a move failed", live.id, version)
                    await asyncio.sleep(pause)
                    pause = min(60.0, pause * 2)
                except Exception as exc:
                    await self.service.fail(live, f"the {bot_name} bot failed", exc)
                    return

    async def stop_all(self, tables: list[LiveTable]) -> None:
        """Cancel the drivers of ``tables`` and wait until they have stopped."""
        for live in tables:
            if live.driver:
                live.driver.cancel()
        for live in tables:
            if live.driver:
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await live.driver

"""Bot thinking off the event loop: a bounded pool of processes, shared fairly.

A bot's decision is CPU-bound Python.  In a thread of the server it holds the GIL,
and five six-seat tables of ``hard`` bots took everyone's ping from 1 ms to 257 ms
(issue 15, finding 3).  So every decision (the bots', the auto-player's for an absent
person, and the hard bot's hints) is sent to a :class:`Thinker`: a small pool of
worker processes, one fewer than the machine's cores by default, each running at a
lower scheduling priority (``nice``), so the operating system gives the event loop
the CPU whenever both want it.

A decision travels as data, not as objects: the state's JSON, the seat, the bot's
name and the seed of its RNG.  The worker rebuilds the state and hands the bot that
seat's :class:`~rummykit.view.PlayerView` only, as everywhere else.  The seed is the
one the server always used (the table's seed and version), so a bot chooses the same
move in the pool as in process.

Fairness: requests wait in one priority queue and at most as many run as there are
workers.  A table's driver waits for its own decision before it asks for another, so
each table has at most one request queued, and first-come-first-served among them
is round robin between tables.  Requests a person is waiting for (hints, a move
played for someone away) go ahead of the bots' own moves.  The hard bot's budget is
counted in CPU seconds (:func:`server_bot`), so a crowded pool does not make it weaker,
only slower.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import multiprocessing
import os
import pickle
import random
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from functools import partial
from typing import Any, TypeVar

from ..bots import DIFFICULTIES, Bot
from ..bots.hints import Hint, suggest
from ..moves import Move
from ..serialize import state_from_json

log = logging.getLogger("rummykit.web")

T = TypeVar("T")
BotFactory = Callable[[str], Bot]
"""Makes a bot from its name (:func:`rummykit.bots.make_bot`)."""

URGENT = 0
"""Priority of work a person is waiting for: hints, moves for an absent player."""
NORMAL = 1
"""Priority of the bots' own moves."""


def default_workers() -> int:
    """One fewer worker than the machine has cores (at least one): the server's event
    loop keeps a core of its own."""
    return max(1, (os.cpu_count() or 1) - 1)


def server_bot(difficulty: str, hard_cpu: float) -> str:
    """The bot that plays a difficulty on the server.

    ``hard`` searches for at most ``hard_cpu`` seconds of its own CPU time: on a busy
    server a wall-clock budget would be eaten by waiting for the CPU and the bot would
    play weaker; a CPU budget keeps its strength and caps what one move may cost.

    >>> server_bot("hard", 0.5), server_bot("easy", 0.5)
    ('ismcts:0.5cpu', 'easy')
    """
    if DIFFICULTIES.get(difficulty) == "ismcts":
        return f"ismcts:{hard_cpu:g}cpu"
    return difficulty


def choose_move(factory: BotFactory, state_json: str, seat: int, bot: str, seed: str) -> Move:
    """The move ``bot`` chooses for ``seat``, seeing only that seat's view (runs in a
    worker)."""
    view = state_from_json(state_json).view(seat)
    return factory(bot).choose(view, random.Random(seed))


def suggestion(state_json: str, seat: int, budget: int) -> Hint:
    """The hard bot's suggestion for ``seat``, with its reason (runs in a worker)."""
    return suggest(state_from_json(state_json).view(seat), budget=budget)


def _lower_priority(nice: int) -> None:
    """Worker start-up: yield the CPU to the server's event loop."""
    with contextlib.suppress(AttributeError, OSError):
        os.nice(nice)


def crosses_processes(fn: Callable[..., Any]) -> bool:
    """Whether ``fn`` can be sent to a worker process (pickled by reference)."""
    try:
        pickle.dumps(fn)
    except (pickle.PicklingError, AttributeError, TypeError):
        return False
    return True


class Thinker:
    """Runs decisions on ``workers`` processes (0: one thread of this process, for
    tests and for factories that cannot be pickled), first come first served, urgent
    requests first."""

    def __init__(self, workers: int, nice: int = 10) -> None:
        self.workers = workers
        self.nice = nice
        self.slots = max(1, workers)
        self.pool: Executor | None = None
        self.thread = ThreadPoolExecutor(1, thread_name_prefix="rummy-bot")
        self.queue: asyncio.PriorityQueue[tuple[int, int, Callable[[], Any], bool, Any]] = (
            asyncio.PriorityQueue()
        )
        self.order = itertools.count()
        self.runners: list[asyncio.Task[None]] = []
        self.decisions = 0
        """Requests answered (for tests and benchmarks)."""

    def _pool(self) -> Executor:
        """The worker processes, started on first use.  Spawned, not forked: the
        server has threads (the database's, uvicorn's), and a forked child would
        inherit their locks in whatever state they were."""
        if self.pool is None:
            self.pool = ProcessPoolExecutor(
                self.workers,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=_lower_priority,
                initargs=(self.nice,),
            )
        return self.pool

    async def run(self, fn: Callable[..., T], *args: Any, urgent: bool = False) -> T:
        """``fn(*args)`` in a worker once its turn comes; raises what ``fn`` raises.

        ``fn`` and the arguments cross to another process, so they must pickle; a
        callable argument that cannot (a test's lambda) makes the call run in this
        process's bot thread instead.  Cancelling the caller withdraws the request.
        """
        if not self.runners:
            self.runners = [asyncio.create_task(self._runner()) for _ in range(self.slots)]
        local = self.workers == 0 or not all(
            crosses_processes(a) for a in (fn, *args) if callable(a)
        )
        done: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        job = partial(fn, *args)
        self.queue.put_nowait((URGENT if urgent else NORMAL, next(self.order), job, local, done))
        return await done

    async def _runner(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            _, _, job, local, done = await self.queue.get()
            if done.done():  # withdrawn: the table was unloaded or the server is stopping
                continue
            try:
                result = await self._execute(loop, job, local)
            except asyncio.CancelledError:
                done.cancel()
                raise
            except Exception as exc:
                if not done.done():
                    done.set_exception(exc)
            else:
                self.decisions += 1
                if not done.done():
                    done.set_result(result)

    async def _execute(
        self, loop: asyncio.AbstractEventLoop, job: Callable[[], Any], local: bool
    ) -> Any:
        if local:
            return await loop.run_in_executor(self.thread, job)
        pool = self._pool()
        try:
            return await loop.run_in_executor(pool, job)
        except BrokenProcessPool:
            # A worker died (killed, out of memory): every later request would fail on
            # the broken pool, so start a new one (unless another runner already did)
            # and try this request once more.
            if self.pool is pool:
                log.error("a bot worker process died; starting a new pool")
                self.pool = None
                pool.shutdown(wait=False, cancel_futures=True)
            return await loop.run_in_executor(self._pool(), job)

    async def close(self) -> None:
        """Stop the runners and the workers; requests still waiting are cancelled (a
        decision already running finishes first)."""
        for task in self.runners:
            task.cancel()
        for task in self.runners:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        self.runners = []
        while not self.queue.empty():
            self.queue.get_nowait()[4].cancel()
        if self.pool is not None:
            await asyncio.to_thread(self.pool.shutdown, True, cancel_futures=True)
        await asyncio.to_thread(self.thread.shutdown, True, cancel_futures=True)

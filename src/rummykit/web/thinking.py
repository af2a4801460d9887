"""Bot thinking off the event loop: a bounded pool of processes, shared fairly.

A bot's decision is CPU-bound Python.  In a thread of the server it holds the GIL,
and five six-seat tables of ``hard`` bots take everyone's ping from 1 ms to 257 ms.
So every decision (the bots', the auto-player's for an absent
person, and the hard bot's hints) is sent to a :class:`Thinker`: a small pool of
worker processes, one fewer than the machine's cores by default, each running at a
lower scheduling priority (``nice``), so the operating system gives the event loop
the CPU whenever both want it.

A decision travels as data, not as objects: the state's JSON, the seat, the bot's
name and the seed of its RNG.  The worker rebuilds the state and hands the bot that
seat's :class:`~rummykit.view.PlayerView` only, as everywhere else.  The seed is the
one the server always used (the table's seed and version), so a bot chooses the same
move in the pool as in process.

Fairness: each request names the client it is for (the address of the person asking
for a hint or a review, the address that made the table for a bot's move) and one of
two tiers: work for a table with a person at it (:data:`PEOPLE`), and the moves of
tables of bots only (:data:`BOTS`).  Each client has its own queue, and the clients of
a tier are served in turn (round robin), so a client flooding the pool with hints or
reviews gets one turn in as many as there are clients waiting, and a person's bot
opponent waits for at most one request of each other client.  The bots-only tier gets
one turn in :data:`BOTS_TURN` while people's work waits: a stranger's tables of bots
slow a person's opponent by one decision at most, and are slowed, not stopped.
Within one client's queue, a move played for a person who is away goes first, then
first come first served.  A table's driver waits for its own decision before it asks
for another, so each table has at most one request queued.  The hard bot's budget is
counted in CPU seconds (:func:`server_bot`), so a crowded pool does not make it
weaker, only slower.

Workers die with the server: each watches, from a thread, that its parent is still
the process that started it (:func:`_start_worker`), and exits when it is not, so a
server killed without warning (SIGKILL, out of memory) leaves no worker behind.
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import itertools
import logging
import multiprocessing
import os
import pickle
import random
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
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
"""Priority, within its client's queue, of a move played for a person who is away."""
NORMAL = 1
"""Priority of everything else (first come first served within a client's queue)."""
PEOPLE = 0
"""Tier of work for a table with a person at it: hints, reviews, their opponents'
moves and moves for absent people."""
BOTS = 1
"""Tier of the moves of tables of bots only: run when no person's work waits."""
BOTS_TURN = 8
"""While people's work waits, one request in this many is a table of bots' (when one
waits): people's opponents come first, and tables of bots are slowed, not stopped."""
PARENT_CHECK = 0.5
"""Seconds between a worker's checks that the server that started it still lives."""


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


def suggestion(state_json: str, seat: int, budget: int, seed: int = 0) -> Hint:
    """The hint for ``seat``, with its reason (runs in a worker): the review's
    evaluation of the position at ``seed`` and, with ``budget`` 0, at the review's
    budget for the game."""
    return suggest(state_from_json(state_json).view(seat), budget=budget or None, seed=seed)


def _start_worker(nice: int, parent: int) -> None:
    """Worker start-up: yield the CPU to the server's event loop, and exit once the
    server (pid ``parent``) is gone (:func:`_watch_parent`)."""
    with contextlib.suppress(AttributeError, OSError):
        os.nice(nice)
    threading.Thread(target=_watch_parent, args=(parent,), daemon=True).start()


def _watch_parent(parent: int, every: float = PARENT_CHECK) -> None:
    """Exit this process as soon as its parent is not ``parent`` any more.

    A dead parent's children are given to another process (init or a subreaper), so
    ``os.getppid()`` changes within a check of the parent's death.  The pool's own
    pipes cannot tell: every worker holds both ends of the call queue, so a worker
    blocked reading it would wait for ever.  ``os._exit``: nothing of a worker's
    needs cleaning up, and the interpreter's exit would wait for the pool's threads.
    """
    while os.getppid() == parent:
        time.sleep(every)
    os._exit(0)


def crosses_processes(fn: Callable[..., Any]) -> bool:
    """Whether ``fn`` can be sent to a worker process (pickled by reference)."""
    try:
        pickle.dumps(fn)
    except (pickle.PicklingError, AttributeError, TypeError):
        return False
    return True


@dataclass(order=True)
class _Request:
    priority: int
    order: int
    job: Callable[[], Any] = field(compare=False)
    local: bool = field(compare=False)
    done: asyncio.Future[Any] = field(compare=False)


class FairQueue:
    """Requests by tier, then client: :data:`PEOPLE`'s first, with one turn in
    :data:`BOTS_TURN` for :data:`BOTS`' while both wait; within a tier its clients in
    turn (round robin), each client's own requests by priority then first come first
    served.  Pure bookkeeping: :class:`Thinker` does the waiting."""

    def __init__(self) -> None:
        self.tiers: list[OrderedDict[str, list[_Request]]] = [OrderedDict(), OrderedDict()]
        self.size = 0
        self.passed = 0
        """People's requests served in a row while a table of bots' waited."""

    def put(self, tier: int, client: str, request: _Request) -> None:
        heapq.heappush(self.tiers[tier].setdefault(client, []), request)
        self.size += 1

    def get(self) -> _Request:
        """The next request (raises IndexError if there is none)."""
        people, bots = self.tiers
        if not people and not bots:
            raise IndexError("no request waits")
        if people and (not bots or self.passed < BOTS_TURN - 1):
            self.passed = self.passed + 1 if bots else 0
            clients = people
        else:
            self.passed = 0
            clients = bots
        client, queue = clients.popitem(last=False)
        request = heapq.heappop(queue)
        if queue:
            clients[client] = queue  # the client's turn comes again after the others
        self.size -= 1
        return request

    def __len__(self) -> int:
        return self.size

    def waiting(self, tier: int, client: str) -> int:
        """Requests of ``client`` in ``tier`` not answered yet nor withdrawn."""
        return sum(1 for r in self.tiers[tier].get(client, ()) if not r.done.done())


class Thinker:
    """Runs decisions on ``workers`` processes (0: one thread of this process, for
    tests and for factories that cannot be pickled), fairly between clients
    (:class:`FairQueue`), people's tables before tables of bots only."""

    def __init__(self, workers: int, nice: int = 10) -> None:
        self.workers = workers
        self.nice = nice
        self.slots = max(1, workers)
        self.pool: Executor | None = None
        self.thread = ThreadPoolExecutor(1, thread_name_prefix="rummy-bot")
        self.queue = FairQueue()
        self.ready = asyncio.Semaphore(0)
        """Counts the requests in :attr:`queue`: a runner takes one to take a request."""
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
                initializer=_start_worker,
                initargs=(self.nice, os.getpid()),
            )
        return self.pool

    async def run(
        self,
        fn: Callable[..., T],
        *args: Any,
        urgent: bool = False,
        client: str = "",
        tier: int = PEOPLE,
    ) -> T:
        """``fn(*args)`` in a worker once its turn comes; raises what ``fn`` raises.

        ``client`` is who the request is for (an address; a table's id if nobody is
        known) and ``tier`` :data:`PEOPLE` or :data:`BOTS`; ``urgent`` puts it first
        among its client's own.  ``fn`` and the arguments cross to another process,
        so they must pickle; a callable argument that cannot (a test's lambda) makes
        the call run in this process's bot thread instead.  Cancelling the caller
        withdraws the request.
        """
        if not self.runners:
            self.runners = [asyncio.create_task(self._runner()) for _ in range(self.slots)]
        local = self.workers == 0 or not all(
            crosses_processes(a) for a in (fn, *args) if callable(a)
        )
        done: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        priority = URGENT if urgent else NORMAL
        self.queue.put(
            tier, client, _Request(priority, next(self.order), partial(fn, *args), local, done)
        )
        self.ready.release()
        return await done

    async def _runner(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            await self.ready.acquire()
            request = self.queue.get()
            job, local, done = request.job, request.local, request.done
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
        while self.queue:
            self.queue.get().done.cancel()
        if self.pool is not None:
            await asyncio.to_thread(self.pool.shutdown, True, cancel_futures=True)
        await asyncio.to_thread(self.thread.shutdown, True, cancel_futures=True)

"""Group commit: the moves of many tables share one database transaction.

Every accepted move must be on disk before anyone hears of it, and a commit costs far
more than the few rows it writes.  So moves do not each take a transaction: a move
joins the batch that is waiting, and one flush writes the whole batch
(:meth:`~rummykit.web.store.Store.commit_moves`) while the next batch gathers.  Under
light load a batch is one move and nothing waits longer than before; under heavy load
a commit is shared by dozens of tables.  A move's :meth:`GroupCommit.commit` returns
only once its transaction has committed, so the crash guarantee is unchanged.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

from .store import MoveCommit, Store

Runner = Callable[..., Awaitable[Any]]
"""Runs a blocking store call off the event loop: ``await run(fn, *args)``."""


class GroupCommit:
    """Batches :class:`MoveCommit` writes from concurrent tables into transactions."""

    def __init__(self, store: Store, run: Runner) -> None:
        self.store = store
        self.run = run
        self.pending: list[tuple[MoveCommit, asyncio.Future[None]]] = []
        self.flusher: asyncio.Task[None] | None = None
        self.transactions = 0
        """How many transactions were committed (to tell batching at work)."""

    async def commit(self, commit: MoveCommit) -> None:
        """Store ``commit``; return once it is durable, or raise the store's error."""
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.pending.append((commit, done))
        if self.flusher is None or self.flusher.done():
            self.flusher = asyncio.create_task(self._flush())
        await done

    async def drain(self) -> None:
        """Wait until every move handed over so far is written (at shutdown)."""
        while self.flusher is not None and not self.flusher.done():
            await asyncio.wait([self.flusher])

    async def _flush(self) -> None:
        while self.pending:
            batch, self.pending = self.pending, []
            try:
                await self.run(self.store.commit_moves, [c for c, _ in batch])
                self.transactions += 1
            except Exception as exc:
                if len(batch) == 1:
                    _settle(batch[0][1], exc)
                    continue
                # The transaction rolled back as a whole; alone, each move that is
                # not at fault lands, and only the faulty one reports its error.
                for commit, done in batch:
                    try:
                        await self.run(self.store.commit_move, commit)
                        self.transactions += 1
                    except Exception as one:
                        _settle(done, one)
                    else:
                        _settle(done, None)
                continue
            for _, done in batch:
                _settle(done, None)


def _settle(done: asyncio.Future[None], error: BaseException | None) -> None:
    if done.done():  # the waiting move was cancelled (the server is stopping)
        return
    if error is None:
        done.set_result(None)
    else:
        done.set_exception(error)

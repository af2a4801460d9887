"""The cyclic garbage collector in a serving process.

A collection runs in whichever thread allocated past the threshold, and holds the
interpreter until it ends: every table waits for it.  What a serving process does
about that (docs/benchmarks.md, "The 1,000-table tail"):

* :func:`tune_gc` moves what is alive at start-up out of the collector's sight and
  raises the young threshold;
* :func:`young_collections` collects the young generation from the event loop, a
  little at a time, before it grows to a long pause;
* :func:`out_of_sight` builds a large, long-lived structure (a new rule set's meld
  catalogue) with the collector off, and then freezes it, so that no collection
  scans its hundreds of thousands of objects, in the builder's thread or later.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
from collections.abc import Iterator

GC_THRESHOLDS = (50_000, 20, 10)
"""The collector's thresholds for a serving process (CPython's default: 700, 10, 10)."""


def tune_gc() -> None:
    """Keep the cyclic garbage collector from pausing a busy server.

    With 1,000 live tables the process tracks some 450,000 objects, and with CPython's
    default thresholds a full collection ran every ten seconds or so and stopped the
    event loop for about 250 ms: that was the whole tail of the move latency in
    ``benchmarks/load.py``.  Every object alive at this call (modules, the app) is
    moved out of the collector's sight (:func:`gc.freeze`), and a young collection
    waits for 50,000 net new container objects instead of 700.  A move's objects are
    replaced by the next move's within seconds, so almost none survives long enough to
    be promoted and rescanned; garbage cycles are still collected, in rarer batches.
    """
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


async def young_collections(every: float) -> None:
    """Collect the young generation every ``every`` seconds from the event loop.

    CPython starts a young collection when the container objects made, less those
    freed (old ones included), pass the threshold.  A busy server frees an old object
    for almost every one it makes (each move replaces its table's state), so that
    count hardly grows: between collections the young generation swelled to more
    than 100,000 objects (the connections' pending reads, the moves' payloads), and
    each collection stopped every table for 50 to 90 ms of CPU, which was the tail
    of ``benchmarks/load.py``.  Collected every 0.1 s it holds a tenth of a second's
    objects, and a pause costs about 1 ms.

    The middle generation is left to CPython.  Collected every second as well, it
    held the second's survivors (the tables' new states, alive until their next
    move): 1,000 tables then paused 23-35 ms of CPU every second, against one
    60 ms collection in 30 s when left alone (docs/benchmarks.md).

    While the collector is off (:func:`out_of_sight`) nothing is collected: the
    objects being built are frozen when the build ends."""
    while True:
        await asyncio.sleep(every)
        if gc.isenabled():
            gc.collect(0)


@contextlib.contextmanager
def out_of_sight() -> Iterator[None]:
    """Run the body with the collector off, then freeze every tracked object.

    Building three decks' meld catalogue makes some 200,000 container objects that
    live as long as the catalogue: with the collector on, they set off young,
    middle and full collections in the builder's thread, each holding the
    interpreter (135 ms for the middle one, 330 ms for a full one, measured with the
    default limits' attack in ``benchmarks/abuse.py``), and later full collections
    scanned them again.  Frozen, they are never scanned, and are still freed by
    reference counting when the catalogue is dropped (it holds no cycle).  The
    freeze takes the other objects alive then too, as :func:`tune_gc` does at
    start-up: a serving process's moves make no reference cycles
    (``tests/web/test_web_loop.py``), so little that could be garbage is kept.

    When the collector is already off (a test turned it off), the body runs as it is.
    """
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        gc.enable()

"""The cyclic garbage collector in a serving process.

A collection runs in whichever thread allocated past the threshold, and holds the
interpreter until it ends: every table waits for it.  What a serving process does
about that (docs/benchmarks.md, "The 1,000-table tail"):

* :func:`tune_gc` moves what is alive at start-up out of the collector's sight and
  raises the young threshold;
* :func:`young_collections` collects the young generation from the event loop, a
  little at a time, before it grows to a long pause;
* :func:`out_of_sight` builds a large, long-lived structure (a new rule set's meld
  catalogue) with the collector off, so that no collection starts in the builder's
  thread while it allocates hundreds of thousands of objects.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
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

    While the collector is off (:func:`out_of_sight`) nothing is collected."""
    while True:
        await asyncio.sleep(every)
        if gc.isenabled():
            gc.collect(0)


_untrack = ctypes.PYFUNCTYPE(None, ctypes.py_object)(("PyObject_GC_UnTrack", ctypes.pythonapi))
"""CPython's ``PyObject_GC_UnTrack``: the object leaves the collector's lists."""


def untrack_immutable(kinds: tuple[type, ...]) -> int:
    """Take out of the collector's sight the young objects of ``kinds`` that hold
    nothing it tracks; return how many.

    ``kinds`` are tuple types without instance attributes (``tuple`` itself, a
    :class:`~typing.NamedTuple`).  Such an object cannot be part of a reference cycle
    once everything it holds is untracked, and CPython applies this very rule to plain
    tuples, but only when a collection scans them, and never to a tuple subclass.
    A meld catalogue's shapes are a named tuple: left tracked, each of them was
    rescanned by every middle and full collection for as long as its rule set lived.
    Objects made before those they hold come first in the young generation, so one
    pass untracks almost all; a further pass takes what the first left behind."""
    young = [o for o in gc.get_objects(generation=0) if type(o) in kinds]
    untracked = 0
    while young:
        left = []
        for o in young:
            if any(map(gc.is_tracked, o)):
                left.append(o)
            else:
                _untrack(o)
        if len(left) == len(young):
            break
        untracked += len(young) - len(left)
        young = left
    return untracked


@contextlib.contextmanager
def out_of_sight(immutable: tuple[type, ...] = ()) -> Iterator[None]:
    """Run the body with the collector off, then untrack its young ``immutable``
    objects (:func:`untrack_immutable`).

    Building three decks' meld catalogue makes some 230,000 container objects: with
    the collector on, they set off young, middle and full collections in the builder's
    thread, each holding the interpreter (135 ms for the middle one, 330 ms for a full
    one, measured with the default limits' attack in ``benchmarks/abuse.py``).  Off,
    none runs during the build, and untracked after it, none of the catalogue's
    tuples and shapes is ever scanned: before, the next young round in the event loop
    scanned them all (20-40 ms), and the middle and full ones rescanned the shapes.
    Nothing is frozen: a freeze would keep for good whatever garbage cycles exist at
    that moment, and repeated builds would pile them up.

    When the collector is already off (a test turned it off), it stays off.
    """
    was_on = gc.isenabled()
    gc.disable()
    try:
        yield
        if immutable:
            untrack_immutable(immutable)
    finally:
        if was_on:
            gc.enable()

"""Group commit of the web server's moves, on a real SQLite database.

The guarantee of the web issue ("kill the server ... no accepted move lost") rests on
one rule: a move is acknowledged only after the transaction holding it has committed.
Batching many tables' moves into one transaction must keep that rule, and one bad
write must not take the other tables' moves down with it.
"""

from __future__ import annotations

import asyncio
import subprocess
import sys
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy.exc import IntegrityError

from rummykit.serialize import state_to_json
from rummykit.state import new_game
from rummykit.web.commits import GroupCommit
from rummykit.web.store import MoveCommit, StaleWriteError, Store, StoredTable


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    s = Store(f"sqlite:///{tmp_path / 'rummy.db'}")
    state = state_to_json(new_game("basic", players=2, seed=1))
    for i in range(20):
        s.create_table(StoredTable(f"t{i}", "basic", [], False, 0.0, 0, state, False))
    yield s
    s.close()


def _group(store: Store) -> tuple[GroupCommit, ThreadPoolExecutor]:
    pool = ThreadPoolExecutor(1)

    async def run(fn: Callable[..., Any], *args: Any) -> Any:
        return await asyncio.get_running_loop().run_in_executor(pool, partial(fn, *args))

    return GroupCommit(store, run), pool


def _move(table: str, seq: int) -> MoveCommit:
    return MoveCommit(table, seq, 0, 5, f"move {seq}", f"state {table} {seq}", False)


def test_concurrent_moves_share_transactions_and_all_land(store: Store) -> None:
    group, pool = _group(store)

    async def play() -> None:
        for seq in (1, 2, 3):
            await asyncio.gather(*(group.commit(_move(f"t{i}", seq)) for i in range(20)))

    asyncio.run(play())
    pool.shutdown()
    assert group.transactions < 60  # 60 moves, fewer commits
    for i in range(20):
        assert [r.seq for r in store.moves(f"t{i}")] == [1, 2, 3]
        stored = store.load_table(f"t{i}")
        assert stored is not None and (stored.version, stored.state) == (3, f"state t{i} 3")


def test_a_bad_write_fails_alone(store: Store) -> None:
    """A stale version and a duplicate log entry in one batch with good moves: the good
    moves land, each bad one gets its own error, and its table is unchanged."""
    group, pool = _group(store)
    store.commit_move(_move("t0", 1))

    async def play() -> list[BaseException | None]:
        moves = [_move("t1", 1), _move("t2", 5), _move("t0", 1), _move("t3", 1)]
        return await asyncio.gather(*(group.commit(m) for m in moves), return_exceptions=True)

    results = asyncio.run(play())
    pool.shutdown()
    assert results[0] is None and results[3] is None
    assert isinstance(results[1], StaleWriteError)
    assert "not at version 4" in str(results[1])
    assert isinstance(results[2], IntegrityError)
    versions = {t: store.load_table(t).version for t in ("t0", "t1", "t2", "t3")}  # type: ignore[union-attr]
    assert versions == {"t0": 1, "t1": 1, "t2": 0, "t3": 1}
    assert store.moves("t2") == []


def test_tune_gc_freezes_and_raises_thresholds() -> None:
    """``rummy serve`` keeps the collector from pausing the event loop (see tune_gc)."""
    code = (
        "import gc; from rummykit.web import tune_gc; tune_gc(); "
        "print(gc.get_threshold(), gc.get_freeze_count() > 1000)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "(50000, 20, 10) True"


def test_the_event_loop_collects_the_young_generation_often() -> None:
    """A served process collects its young generation every ``young_gc`` seconds, so
    no young collection has more than a moment's objects to scan (see
    young_collections): young containers made here are gone from the young count
    once the task has run, with the automatic collections out of the way."""
    import asyncio
    import gc

    from rummykit.web.collector import young_collections

    async def scenario() -> int:
        old = gc.get_threshold()
        gc.set_threshold(1_000_000, 20, 10)
        try:
            made = [[] for _ in range(5000)]
            assert gc.get_count()[0] >= 5000
            task = asyncio.get_running_loop().create_task(young_collections(0.01))
            deadline = asyncio.get_running_loop().time() + 30
            while gc.get_count()[0] >= 5000:
                assert asyncio.get_running_loop().time() < deadline
                await asyncio.sleep(0.005)
            task.cancel()
            return len(made)
        finally:
            gc.set_threshold(*old)

    assert asyncio.run(scenario()) == 5000


def test_a_large_build_runs_with_the_collector_off_and_freezes_nothing() -> None:
    """A new rule set's catalogue is built with the collector off (out_of_sight): no
    collection starts in the builder's thread.  Nothing is frozen, so garbage cycles
    alive at that moment are still collected later; with the collector already off,
    it stays off."""
    import gc

    from rummykit.web.collector import out_of_sight

    collections = sum(s["collections"] for s in gc.get_stats())
    frozen = gc.get_freeze_count()
    with out_of_sight():
        assert not gc.isenabled()
        built = [(i, [i]) for i in range(200_000)]  # four young thresholds' worth
        during = sum(s["collections"] for s in gc.get_stats())
    assert during == collections  # none started while building
    assert gc.isenabled() and len(built) == 200_000
    assert gc.get_freeze_count() == frozen
    gc.disable()
    try:
        with out_of_sight():
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()

"""The web server's capacity under abuse (issue 15, findings 1 and 3): an engine error
stops its table once and for good; bots think in a bounded pool of lower-priority
processes that serves people first; idle tables leave memory and come back unchanged;
the table cap evicts or refuses; abandoned tables expire; start-up loads only the
tables that play by themselves.

Real servers on loopback (uvicorn in a thread of this process, so a test can look at
the manager and inject a failure), real SQLite files, and the throwaway PostgreSQL
cluster for the store's queries.  Bot speed under load is measured by
``benchmarks/abuse.py``, not here.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import random
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed

import capacity_bots
from rummykit import new_game
from rummykit.bots import GreedyBot
from rummykit.moves import DISCARD, Move
from rummykit.serialize import state_from_json, state_to_json
from rummykit.state import GameState
from rummykit.web import Settings
from rummykit.web.store import EXPIRED, FAILED, Store, StoredTable
from rummykit.web.thinking import Thinker
from web_helpers import Client, ServerThread, postgres_cluster, wait_for

TWO_PEOPLE = [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}]


def settings(db: Path, **kw: Any) -> Settings:
    opts: dict[str, Any] = {
        "database_url": f"sqlite:///{db}",
        "bot_delay": 0.0,
        "bot_workers": 0,
        "rate": 10_000,
        "burst": 10_000,
        "hint_budget": 10,
    }
    opts.update(kw)
    return Settings(**opts)


def manager(server: ServerThread) -> Any:
    """The server's :class:`~rummykit.web.server.Manager` (set by the app's lifespan)."""
    app: Any = server.server.config.app
    return app.state.manager


def create(base: str, seats: list[dict[str, Any]], **kw: Any) -> dict[str, Any]:
    r = httpx.post(
        base + "/api/tables", json={"rules": "basic", "deals": 1, "seats": seats, **kw}, timeout=10
    )
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


def info(base: str, t: dict[str, Any]) -> httpx.Response:
    return httpx.get(f"{base}/api/tables/{t['id']}", timeout=10)


def hello(base: str, t: dict[str, Any], seat: int | None = None) -> Client:
    """A client that has said hello (to play ``seat``, or to watch) and has a state."""
    c = Client(base, t["id"])
    msg: dict[str, Any] = {"type": "hello"}
    if seat is not None:
        msg.update(seat=seat, secret=t["seats"][seat]["secret"])
    c.send(msg)
    c.until(lambda m: m["type"] == "state")
    return c


def errors_about(caplog: pytest.LogCaptureFixture, table_id: str) -> list[str]:
    return [
        r.getMessage()
        for r in caplog.records
        if r.name == "rummykit.web" and r.levelno >= logging.ERROR and table_id in r.getMessage()
    ]


def catch_up(c: Client, version: int) -> None:
    """Read until ``c`` has the state of ``version`` or later."""
    assert c.state is not None
    if c.state["version"] < version:
        c.until(lambda m: m["type"] == "state" and m["version"] >= version)


def play_turns(clients: dict[int, Client], moves: int) -> int:
    """Play ``moves`` moves (each seat's last legal move); return the final version."""
    c0 = next(iter(clients.values()))
    assert c0.state is not None
    for _ in range(moves):
        g = c0.state["game"]
        if g["phase"] == "over":
            break
        v = c0.state["version"]
        mover = clients[g["current"]]
        catch_up(mover, v)
        text = mover.state["game"]["legal"][-1]["text"]  # type: ignore[index]
        mover.send({"type": "move", "version": v, "move": {"kind": "text", "text": text}})
        c0.until(lambda m, v=v: m["type"] == "state" and m["version"] > v)
    version: int = c0.state["version"]
    return version


# -- finding 1: an engine error stops its table once and for good -------------------------------
def test_a_bot_that_raises_fails_its_table_once_and_for_good(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Issue 15, finding 1: "its bot driver raises and retries every second forever,
    even after a restart".  Now the table is marked failed in the store, its clients
    are told, the driver stops, and the error is logged once."""
    caplog.set_level(logging.ERROR, logger="rummykit.web")
    s = settings(tmp_path / "w.db", bot_factory=capacity_bots.raising)
    with ServerThread(s) as server:
        t = create(server.base, [{"kind": "bot"}, {"kind": "bot"}])
        watcher = hello(server.base, t)
        error = watcher.until(lambda m: m["type"] == "error")
        assert error["code"] == "table_failed" and "bot failed" in error["message"]
        assert watcher.state is not None and watcher.state["table"]["failed"] == error["message"]
        live = manager(server).tables[t["id"]]
        wait_for(lambda: live.driver.done(), "the driver to stop")
        assert info(server.base, t).json()["failed"] == error["message"]
        watcher.close()
    assert len(errors_about(caplog, t["id"])) == 1
    with ServerThread(s) as server:  # a restart neither loads nor drives it
        assert httpx.get(server.base + "/healthz").json()["tables"] == 0
        again = info(server.base, t).json()
        assert again["failed"] == error["message"] and not again["over"]
        live = manager(server).tables[t["id"]]
        wait_for(lambda: live.driver.done(), "the driver to stop at once")
    assert len(errors_about(caplog, t["id"])) == 1
    store = Store(s.database_url)
    try:
        stored = store.load_table(t["id"])
        assert stored is not None and stored.status == "failed" and stored.over
        assert store.moves(t["id"])[-1].action == FAILED
    finally:
        store.close()


def _without_a_legal_move(state_json: str) -> str:
    """The state with the stock and the discard pile all in the hand of the player to
    draw: nothing can be drawn, so nothing is legal.  Injected, because the lead's
    rules fix makes the rule sets that reached such states unplayable at creation."""
    d = json.loads(state_json)
    p = d["current"]
    d["hands"][p] |= sum(1 << c for c in d["stock"] + d["discard"])
    d["stock"], d["discard"] = [], []
    return json.dumps(d)


def _table_with_a_doctored_state(s: Settings, doctor: Callable[[str], str]) -> dict[str, Any]:
    """A table of Ann and a bot, created on a server that then stops, whose saved state
    ``doctor`` rewrites in the database (as damage, or an old release, would)."""
    with ServerThread(s) as server:
        t = create(server.base, [{"kind": "human", "name": "Ann"}, {"kind": "bot"}])
    store = Store(s.database_url)
    stored = store.load_table(t["id"])
    assert stored is not None
    store.save_seats(t["id"], stored.seats, doctor(stored.state))
    store.close()
    return t


def test_a_position_with_no_legal_move_fails_the_table_instead_of_offering_nothing(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Issue 15, finding 1: "A human seat gets legal: []" and a bot seat's driver
    raises forever.  The loader refuses a saved state whose player to act has no legal
    move (``rummykit.invariants.check_state``), so such a table fails the first time it
    is loaded, once, and says why."""
    caplog.set_level(logging.ERROR, logger="rummykit.web")
    s = settings(tmp_path / "w.db")
    t = _table_with_a_doctored_state(s, _without_a_legal_move)
    with ServerThread(s) as server:
        for _ in range(2):
            r = info(server.base, t)
            assert r.status_code == 410 and r.json()["code"] == "table_failed"
        assert Client(server.base, t["id"]).recv()["code"] == "table_failed"
    with ServerThread(s) as server:
        assert httpx.get(server.base + "/healthz").json()["tables"] == 0
    assert len(errors_about(caplog, t["id"])) == 1
    store = Store(s.database_url)
    stored = store.load_table(t["id"])
    store.close()
    assert stored is not None and stored.status == "failed"
    assert "the player to act has no legal move" in stored.note


def test_a_table_whose_saved_game_cannot_be_read_fails_once(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A state the loader refuses (damaged, or a rule set refused since it was saved)
    answered 500 on every request and stopped the server's start-up; now the table is
    marked failed the first time, logged once, and refused clearly after."""
    caplog.set_level(logging.ERROR, logger="rummykit.web")
    s = settings(tmp_path / "w.db")
    t = _table_with_a_doctored_state(s, lambda state: state.replace('"hands":[', '"hands":[-1,'))
    with ServerThread(s) as server:
        for _ in range(2):
            r = info(server.base, t)
            assert r.status_code == 410 and r.json()["code"] == "table_failed"
        c = Client(server.base, t["id"])
        assert c.recv()["code"] == "table_failed"
        with pytest.raises(ConnectionClosed) as closed:
            c.recv()
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4404
    assert len(errors_about(caplog, t["id"])) == 1
    store = Store(s.database_url)
    again = store.load_table(t["id"])
    store.close()
    assert again is not None and again.status == "failed" and "cannot be read" in again.note


def test_an_engine_error_on_a_person_s_move_fails_the_table(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``apply`` raising something that is not a rules error (the RecursionError of
    finding 1) stops the table instead of dropping the socket; nothing is half-done."""
    caplog.set_level(logging.ERROR, logger="rummykit.web")
    armed = threading.Event()
    real = GameState.apply

    def apply(self: GameState, move: Move) -> None:
        if armed.is_set() and move.kind == DISCARD:
            raise RecursionError("maximum recursion depth exceeded")
        real(self, move)

    monkeypatch.setattr(GameState, "apply", apply)
    with ServerThread(settings(tmp_path / "w.db")) as server:
        t = create(server.base, TWO_PEOPLE)
        clients = {0: hello(server.base, t, 0), 1: hello(server.base, t, 1)}
        v = play_turns(clients, 1)  # the first player draws
        g = clients[0].state["game"]  # type: ignore[index]
        mover = clients[g["current"]]
        catch_up(mover, v)
        legal = mover.state["game"]["legal"]  # type: ignore[index]
        discard = next(m["text"] for m in legal if m["kind"] == "discard")
        armed.set()
        mover.send({"type": "move", "version": v, "move": {"kind": "text", "text": discard}})
        error = mover.until(lambda m: m["type"] == "error" and m["code"] == "table_failed")
        assert "engine" in error["message"]
        other = clients[1 - g["current"]]
        other.until(lambda m: m["type"] == "state" and m["table"]["failed"])
        assert other.state is not None and other.state["game"]["hand"]  # the hands are as they were
        for c in clients.values():
            c.close()
        assert info(server.base, t).json()["failed"]
    assert len(errors_about(caplog, t["id"])) == 1


# -- finding 3: bot thinking off the event loop ---------------------------------------------
def test_bots_think_in_lower_priority_processes_and_choose_as_they_always_did(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 15, finding 3: five all-hard tables took everyone's ping from 1 ms to
    257 ms, because bots thought in the server's own process.  Now every decision, and
    the hint, runs in the pool's worker, at a lower priority; and the bot's move is
    still the one its RNG, seeded by the table's seed and version, gives."""
    pids = tmp_path / "pids"
    pids.mkdir()
    monkeypatch.setenv(capacity_bots.PID_DIR, str(pids))
    db = tmp_path / "w.db"
    s = settings(db, bot_workers=1, bot_nice=3, bot_factory=capacity_bots.pid_bot)
    with ServerThread(s) as server:
        t = create(server.base, [{"kind": "human", "name": "Ann"}, {"kind": "bot"}])
        ann = hello(server.base, t, 0)
        hinted = False
        while ann.state["version"] < 12 and ann.state["game"]["phase"] != "over":  # type: ignore[index]
            g = ann.state["game"]  # type: ignore[index]
            v = ann.state["version"]  # type: ignore[index]
            if g["current"] != 0:
                ann.until(lambda m, v=v: m["type"] == "state" and m["version"] > v)
                continue
            if not hinted:
                ann.send({"type": "hint", "version": v})
                h = ann.until(lambda m: m["type"] in ("hint", "error"))
                assert h["type"] == "hint" and h["reason"], h
                hinted = True
            text = g["legal"][-1]["text"]
            ann.send({"type": "move", "version": v, "move": {"kind": "text", "text": text}})
            ann.until(lambda m, v=v: m["type"] == "state" and m["version"] > v)
        ann.close()
        assert manager(server).thinker.decisions >= 3
    workers = {int(p.name): int(p.read_text()) for p in pids.iterdir()}
    assert workers and os.getpid() not in workers
    assert all(nice >= os.nice(0) + 3 for nice in workers.values())
    store = Store(f"sqlite:///{db}")
    try:
        stored = store.load_table(t["id"])
        assert stored is not None
        final = state_from_json(stored.state)
        g = new_game(final.rules, list(final.names), seed=final.seed)
        bot_moves = 0
        for row in store.moves(t["id"]):
            if row.seat == 1:
                rng = random.Random(f"{final.seed}:{row.seq - 1}")
                expected = GreedyBot().choose(g.view(1), rng)
                assert g.game.actions.encode(expected) == row.action
                bot_moves += 1
            g.apply_action(row.action)
        assert bot_moves >= 2
    finally:
        store.close()


def test_the_thinker_serves_people_first_then_tables_in_turn() -> None:
    """Decisions are queued fairly: first come first served (each table has at most
    one waiting), hints and moves for absent people ahead of the bots' own, and a
    request whose table went away is dropped unrun."""

    async def main() -> list[str]:
        thinker = Thinker(0)
        gate = threading.Event()
        order: list[str] = []
        busy = asyncio.create_task(thinker.run(gate.wait, 30))
        while thinker.queue:
            await asyncio.sleep(0.01)
        a = asyncio.create_task(thinker.run(order.append, "table A"))
        b = asyncio.create_task(thinker.run(order.append, "table B"))
        gone = asyncio.create_task(thinker.run(order.append, "unloaded table"))
        hint = asyncio.create_task(thinker.run(order.append, "hint", urgent=True))
        await asyncio.sleep(0.05)
        gone.cancel()
        gate.set()
        await asyncio.gather(busy, a, b, hint)
        await thinker.close()
        return order

    assert asyncio.run(main()) == ["hint", "table A", "table B"]


# -- finding 3: tables in memory ----------------------------------------------------------
def test_idle_tables_leave_memory_and_come_back_unchanged(tmp_path: Path) -> None:
    """Issue 15, finding 3: "Nothing is ever evicted".  A table nobody is at, with
    nothing to play, leaves memory; it loads again on demand with every move."""
    s = settings(tmp_path / "w.db", idle_unload=0.2, sweep_every=0.05, disconnect_grace=0.2)
    with ServerThread(s) as server:
        tables = manager(server).tables
        t = create(server.base, TWO_PEOPLE)
        wait_for(lambda: t["id"] not in tables, "the idle table to be unloaded")
        clients = {0: hello(server.base, t, 0), 1: hello(server.base, t, 1)}
        assert t["id"] in tables
        v = play_turns(clients, 4)
        assert v == 4
        for c in clients.values():
            c.close()
        # both are away: their turns are played for them to the end of the deal, and the
        # finished table leaves memory too
        wait_for(lambda: t["id"] not in tables, "the finished table to be unloaded")
        again = info(server.base, t).json()
        assert again["over"] and again["version"] > v
        assert t["id"] in tables
        log = hello(server.base, t).state["log"]  # type: ignore[index]
        assert log[-1]["seq"] == again["version"]
        assert [e["seq"] for e in log] == list(range(log[0]["seq"], again["version"] + 1))


def test_the_table_cap_unloads_the_least_recently_used_idle_table_or_refuses(
    tmp_path: Path,
) -> None:
    s = settings(tmp_path / "w.db", max_tables=2)
    with ServerThread(s) as server:
        tables = manager(server).tables
        t1 = create(server.base, TWO_PEOPLE)
        t2 = create(server.base, TWO_PEOPLE)
        w1, w2 = hello(server.base, t1), hello(server.base, t2)  # watched: both busy
        body = {"rules": "basic", "seats": TWO_PEOPLE}
        full = httpx.post(server.base + "/api/tables", json=body)
        assert full.status_code == 503 and full.json()["code"] == "server_full"
        w1.close()

        def third() -> bool:
            r = httpx.post(server.base + "/api/tables", json=body)
            assert r.status_code in (200, 503), r.text
            if r.status_code == 200:
                made.append(r.json())
            return r.status_code == 200

        made: list[dict[str, Any]] = []
        wait_for(third, "room for a third table once t1 is idle")
        t3 = made[0]
        assert set(tables) == {t2["id"], t3["id"]}
        assert info(server.base, t1).status_code == 200  # back on demand; t3 made room
        assert set(tables) == {t1["id"], t2["id"]}
        w1 = hello(server.base, t1)
        # every table in memory is watched: a socket to another one is refused
        c = Client(server.base, t3["id"])
        assert c.recv()["code"] == "server_full"
        with pytest.raises(ConnectionClosed) as closed:
            c.recv()
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1013
        for w in (w1, w2):
            w.close()


def test_start_up_loads_only_the_tables_that_play_by_themselves(tmp_path: Path) -> None:
    """Issue 15, finding 3: "every unfinished table is reloaded at start-up"."""
    s = settings(tmp_path / "w.db")
    with ServerThread(s) as server:
        people = [create(server.base, TWO_PEOPLE) for _ in range(2)]
        bots = create(server.base, [{"kind": "human", "name": "Ann"}, {"kind": "bot"}])
        timed = create(server.base, TWO_PEOPLE, timer=60)
    with ServerThread(s) as server:
        tables = manager(server).tables
        assert set(tables) == {bots["id"], timed["id"]}
        assert info(server.base, people[0]).status_code == 200  # the others on demand
        assert people[0]["id"] in tables
    with ServerThread(settings(tmp_path / "w.db", max_tables=1)) as server:
        assert len(manager(server).tables) == 1


def test_abandoned_tables_expire_and_are_not_loaded_again(tmp_path: Path) -> None:
    """Abandoned tables expire, whether in memory (a bot table nobody watches) or
    not (a table people left); a watched table does not, however old."""
    s = settings(
        tmp_path / "w.db", idle_unload=0.1, sweep_every=0.05, abandon_after=1.0, bot_delay=60.0
    )
    store = Store(s.database_url)

    def status(t: dict[str, Any]) -> str:
        stored = store.load_table(t["id"])
        assert stored is not None
        return stored.status

    try:
        with ServerThread(s) as server:
            tables = manager(server).tables
            watched = create(server.base, TWO_PEOPLE)
            spectator = hello(server.base, watched)
            left = create(server.base, TWO_PEOPLE)
            bots = create(server.base, [{"kind": "bot"}, {"kind": "bot"}])  # thinks slowly
            wait_for(lambda: status(left) == "expired", "the table people left to expire")
            wait_for(lambda: status(bots) == "expired", "the unwatched bot table to expire")
            assert bots["id"] not in tables and left["id"] not in tables
            gone = info(server.base, left)
            assert gone.status_code == 410 and gone.json()["code"] == "expired"
            assert status(watched) == "active" and info(server.base, watched).status_code == 200
            spectator.close()
        assert store.moves(left["id"])[-1].action == EXPIRED
        with ServerThread(s) as server:
            assert bots["id"] not in manager(server).tables
            c = Client(server.base, left["id"])
            assert c.recv()["code"] == "expired"
            with pytest.raises(ConnectionClosed) as closed:
                c.recv()
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 4404
    finally:
        store.close()


# -- the store's queries, on SQLite and PostgreSQL --------------------------------------------
@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.web_slow)])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    if request.param == "sqlite":
        s = Store(f"sqlite:///{tmp_path / 'store.db'}")
        yield s
        s.close()
    else:
        with postgres_cluster() as url:
            s = Store(url)
            yield s
            s.close()


def _table(table_id: str, kinds: list[str], timer: float = 0.0, over: bool = False) -> StoredTable:
    state = new_game("basic", len(kinds), seed=1)
    seats = [{"kind": k, "name": f"P{i}"} for i, k in enumerate(kinds)]
    return StoredTable(table_id, "basic", seats, False, timer, 0, state_to_json(state), over)


def test_the_store_marks_failed_and_expired_tables_in_its_existing_columns(store: Store) -> None:
    """No new column: a failed or expired table is a row of the move log (actions
    FAILED and EXPIRED) that marks it over; an existing database keeps working."""
    for table_id, kinds, timer, over in [
        ("people", ["human", "human"], 0.0, False),
        ("bots", ["human", "bot"], 0.0, False),
        ("timed", ["human", "human"], 30.0, False),
        ("done", ["human", "human"], 0.0, True),
    ]:
        store.create_table(_table(table_id, kinds, timer, over))
        time.sleep(0.01)  # distinct ``updated`` times, for the order below
    assert store.drivable(10) == ["timed", "bots"]
    assert store.drivable(1) == ["timed"]
    later = time.time() + 60
    assert {i for i, _ in store.expirable(later, later, 10)} == {"people", "bots", "timed", "done"}
    assert {i for i, _ in store.expirable(0.0, later, 10)} == {"done"}
    assert store.mark("people", 0, FAILED, 1, "why it stopped")
    assert not store.mark("people", 0, EXPIRED, -1, "stale")  # it is at version 1 now
    failed = store.load_table("people")
    assert failed is not None and failed.status == "failed" and failed.note == "why it stopped"
    assert failed.over and failed.version == 1
    assert failed.state == _table("people", ["human", "human"]).state  # kept as it was
    assert store.mark("done", 0, EXPIRED, -1, "the table expired")
    assert store.load_table("done").status == "expired"  # type: ignore[union-attr]
    assert store.load_table("bots").status == "active"  # type: ignore[union-attr]
    assert {i for i, _ in store.expirable(later, later, 10)} == {"people", "bots", "timed"}
    assert store.drivable(10) == ["timed", "bots"]  # failed and expired tables are over
    store.touch("bots", later)
    assert store.load_table("bots").updated == pytest.approx(later)  # type: ignore[union-attr]
    store.touch("bots", 0.0)  # never backwards
    assert store.load_table("bots").updated == pytest.approx(later)  # type: ignore[union-attr]

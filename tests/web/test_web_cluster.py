"""Many server processes on one PostgreSQL database (issue #18, web/cluster.py).

Two servers share a throwaway PostgreSQL cluster: each runs in a thread of this
process (its own event loop, manager and connections) or, to be killed for real, as a
child process.  A client may reach either server; exactly one of them owns a table.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from sqlalchemy import create_engine, text

from rummykit.web import Settings, cluster
from rummykit.web.leases import Leases
from rummykit.web.store import MoveCommit, StaleWriteError, Store, normalize_url
from test_web_crash import play, sync
from web_helpers import Client, ServerProcess, ServerThread, postgres_cluster, postmaster_pid

pytestmark = pytest.mark.web_slow


@pytest.fixture(scope="module")
def pg() -> Iterator[str]:
    with postgres_cluster() as url:
        yield url


def settings(url: str, node: str, **kw: Any) -> Settings:
    base: dict[str, Any] = {"bot_delay": 0.0, "bot_workers": 0, "lease_seconds": 3.0}
    return Settings(database_url=url, node_id=node, **{**base, **kw})


def sql(url: str, query: str, **params: Any) -> list[Any]:
    engine = create_engine(normalize_url(url))
    try:
        with engine.begin() as conn:
            res = conn.execute(text(query), params)
            return list(res.all()) if res.returns_rows else []
    finally:
        engine.dispose()


def owner(url: str, table_id: str) -> str | None:
    rows = sql(url, "SELECT node FROM leases WHERE table_id = :t", t=table_id)
    return str(rows[0][0]) if rows else None


def log_seqs(url: str, table_id: str) -> list[int]:
    rows = sql(url, "SELECT seq FROM moves WHERE table_id = :t ORDER BY seq", t=table_id)
    return [int(r[0]) for r in rows]


def hello(base: str, table_id: str, seat: int | None = None, secret: str | None = None) -> Client:
    c = Client(base, table_id)
    c.send({"type": "hello", "seat": seat, "secret": secret})
    c.until(lambda m: m["type"] == "welcome")
    c.until(lambda m: m["type"] == "state")
    return c


def play_own_turns(c: Client, moves: int, rng: random.Random) -> list[int]:
    """Play ``moves`` of the client's own moves (waiting through the bot's), each
    judged by whichever process owns the table; the versions they produced."""
    made: list[int] = []
    while len(made) < moves:
        state = c.state
        assert state is not None
        g = state["game"]
        if g["phase"] == "over":
            break
        if g["current"] != g["seat"] or not g["legal"]:
            c.until(lambda m, v=state["version"]: m["type"] == "state" and m["version"] > v)
            continue
        v = state["version"]
        text_move = rng.choice(g["legal"])["text"]
        c.send({"type": "move", "version": v, "move": {"kind": "text", "text": text_move}})
        c.until(lambda m, v=v: m["type"] == "state" and m["version"] > v)
        made.append(v + 1)
    return made


def play_turns(clients: dict[int, Client], moves: int, rng: random.Random) -> list[int]:
    """Play ``moves`` moves of people only, each by the client whose turn it is; the
    versions they made (one after the other: nobody else moves)."""
    start = sync(clients)
    return list(range(start + 1, max(start, play(clients, moves, rng)) + 1))


def test_a_move_sent_to_another_process_is_played_by_the_owner(pg: str) -> None:
    """Issue #18: "A move sent to a process that does not own the table is forwarded
    to the owner ...; the client sees no difference".  Ann sits at the owner, Bob at
    the other process: Bob's moves are forwarded, and every move reaches each of them
    through their own process (fan-out by notices)."""
    with ServerThread(settings(pg, "alpha")) as a, ServerThread(settings(pg, "beta")) as b:
        body = {"rules": "basic", "seats": [{"name": "Ann"}, {"name": "Bob"}]}
        t = httpx.post(a.base + "/api/tables", json=body).json()
        ann = hello(a.base, t["id"], 0, t["seats"][0]["secret"])
        bob = hello(b.base, t["id"], 1, t["seats"][1]["secret"])
        try:
            made = play_turns({0: ann, 1: bob}, 10, random.Random(3))
            assert len(made) == 10
            # An illegal move is refused with the engine's rule, as by the owner itself:
            # Bob knocks at the start of his turn, before drawing.
            rng = random.Random(4)
            for _ in range(6):
                sync({0: ann, 1: bob})
                g = bob.state["game"]  # type: ignore[index]
                if g["current"] == 1 and g["phase"] == "draw":
                    break
                play_turns({0: ann, 1: bob}, 1, rng)
            st = bob.state
            assert st is not None and st["game"]["current"] == 1 and st["game"]["phase"] == "draw"
            bob.send({"type": "move", "version": st["version"], "move": {"kind": "knock"}})
            err = bob.until(lambda m: m["type"] == "error")
            assert err["code"] == "draw_first" and "drawing" in err["message"]
            assert err["version"] == st["version"]
            assert owner(pg, t["id"]) == "alpha"  # Ann is seated there: no handover
            # Once Ann leaves, Bob's process takes the table (ownership follows the
            # players who are still there).
            ann.close()
            wait_owner(pg, t["id"], "beta", bob)
        finally:
            ann.close()
            bob.close()
        seqs = log_seqs(pg, t["id"])
        assert seqs == list(range(1, len(seqs) + 1)) and set(made) <= set(seqs)


def test_a_table_goes_to_the_process_where_its_player_sits(pg: str) -> None:
    """Ownership follows the players (web/cluster.py): created on alpha, played by a
    person connected to beta, the table is handed to beta, which then plays it
    (its bot too) without forwarding anything."""
    with ServerThread(settings(pg, "alpha")) as a, ServerThread(settings(pg, "beta")) as b:
        t, c = made_here_played_there(pg, a, b, [{"name": "Ann"}, {"kind": "bot"}])
        try:
            wait_owner(pg, t["id"], "beta", c)
            made = play_own_turns(c, 6, random.Random(3))
            assert len(made) == 6 and owner(pg, t["id"]) == "beta"
        finally:
            c.close()
        seqs = log_seqs(pg, t["id"])
        assert seqs == list(range(1, len(seqs) + 1)) and set(made) <= set(seqs)
        tokens = sql(pg, "SELECT token FROM leases WHERE table_id = :t", t=t["id"])
        assert tokens[0][0] == 2  # one change of owner, one new token


def test_a_table_is_handed_over_by_an_owner_that_answers_late(
    pg: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An owner busy past the replica's wait (here every answer takes 0.5 s against a
    wait of 0.2 s) still lets the table go, and the replica, which stopped waiting for
    the answer, finds the lease given up on its next look and takes it: ownership
    follows the player on a busy machine.  No bot or timer plays this table, so no
    failover sweep would move it otherwise."""
    slow_answer = 0.5
    hand_over = cluster.Cluster.hand_over

    async def busy(self: cluster.Cluster, live: Any) -> bool:
        await asyncio.sleep(slow_answer)
        return await hand_over(self, live)

    monkeypatch.setattr(cluster.Cluster, "hand_over", busy)
    monkeypatch.setattr(cluster, "CALL_TIMEOUT", 0.2)
    with ServerThread(settings(pg, "alpha")) as a, ServerThread(settings(pg, "beta")) as b:
        t, c = made_here_played_there(pg, a, b, [{"name": "Ann"}, {"name": "Bob"}])
        try:
            wait_owner(pg, t["id"], "beta", c)
        finally:
            c.close()
        tokens = sql(pg, "SELECT token FROM leases WHERE table_id = :t", t=t["id"])
        assert tokens[0][0] == 2  # one change of owner


def test_chat_presence_and_joins_cross_processes(pg: str) -> None:
    """A chat line said on one process reaches a spectator on the other; a seat joined
    through a replica is given out once (the owner decides)."""
    with ServerThread(settings(pg, "alpha")) as a, ServerThread(settings(pg, "beta")) as b:
        body = {
            "rules": "basic",
            "public": True,
            "seats": [{"name": "Ann"}, {"kind": "human", "open": True}],
        }
        t = httpx.post(a.base + "/api/tables", json=body).json()
        ann = hello(a.base, t["id"], 0, t["seats"][0]["secret"])
        watcher = hello(b.base, t["id"])
        try:
            joined = httpx.post(b.base + f"/api/tables/{t['id']}/join", json={"name": "Bo"})
            assert joined.status_code == 200, joined.text
            again = httpx.post(a.base + f"/api/tables/{t['id']}/join", json={"name": "Cy"})
            assert again.status_code == 409
            bo = hello(b.base, t["id"], joined.json()["seat"], joined.json()["secret"])
            ann.send({"type": "chat", "text": "hello from alpha"})
            line = watcher.until(lambda m: m["type"] == "chat")
            assert line["text"] == "hello from alpha" and line["name"] == "Ann"
            # Bo is connected through beta: alpha's page shows the seat connected.
            shown = ann.until(
                lambda m: (
                    m["type"] in ("presence", "state")
                    and m["table"]["seats"][1]["connected"]
                    and m["table"]["seats"][1]["name"] == "Bo"
                )
            )
            assert shown["table"]["spectators"] == 1
            bo.close()
        finally:
            ann.close()
            watcher.close()


def test_a_seat_joined_elsewhere_is_let_in_by_a_replica_that_heard_nothing(pg: str) -> None:
    """A replica whose copy of the table does not yet show a seat just given out (its
    notice is late, or lost) reads the table again before calling the link invalid."""
    with ServerThread(settings(pg, "alpha")) as a, ServerThread(settings(pg, "beta")) as b:
        body = {
            "rules": "basic",
            "public": True,
            "seats": [{"name": "Ann"}, {"kind": "human", "open": True}],
        }
        t = httpx.post(a.base + "/api/tables", json=body).json()
        ann = hello(a.base, t["id"], 0, t["seats"][0]["secret"])
        watcher = hello(b.base, t["id"])  # beta now holds a replica of the table
        cluster = b.server.config.app.state.manager.cluster
        cluster._on_notice = lambda channel, payload: None  # beta hears nothing more
        try:
            joined = httpx.post(a.base + f"/api/tables/{t['id']}/join", json={"name": "Bo"})
            assert joined.status_code == 200, joined.text
            seat, secret = joined.json()["seat"], joined.json()["secret"]
            bo = hello(b.base, t["id"], seat, secret)
            bo.close()
            # and a wrong secret is still refused after the second look
            forger = Client(b.base, t["id"])
            forger.send({"type": "hello", "seat": seat, "secret": "not-the-secret"})
            refused = forger.recv(20)
            forger.close()
            assert refused["type"] == "error" and refused["code"] == "bad_secret"
        finally:
            ann.close()
            watcher.close()


def test_a_process_that_lost_its_lease_cannot_write(pg: str) -> None:
    """Issue #18: "a process that loses its lease stops writing for that table".  The
    token is checked in the same UPDATE that bumps the version."""
    store = Store(pg)
    try:
        body = {"rules": "basic", "seats": [{"kind": "bot"}, {"kind": "bot"}]}
        with ServerThread(settings(pg, "alpha", bot_delay=0.05)) as a:
            t = httpx.post(a.base + "/api/tables", json=body).json()
            time.sleep(0.3)
            # Another process takes the table as if alpha's lease had run out.
            sql(
                pg,
                "UPDATE leases SET node = 'thief', token = token + 1, "
                "until = extract(epoch from clock_timestamp()) + 60 WHERE table_id = :t",
                t=t["id"],
            )
            time.sleep(0.3)
            frozen = store.versions([t["id"]])[t["id"]]
            time.sleep(1.0)
            assert store.versions([t["id"]])[t["id"]] == frozen  # alpha wrote nothing more
        seqs = log_seqs(pg, t["id"])
        assert seqs == list(range(1, frozen + 1))
        # The store itself refuses a write with an old token, and takes the new one.
        loaded = store.load_table(t["id"])
        assert loaded is not None
        (token,) = sql(pg, "SELECT token FROM leases WHERE table_id = :t", t=t["id"])[0]

        def commit(lease: int) -> None:
            store.commit_moves(
                [MoveCommit(t["id"], frozen + 1, 0, -1, "x", loaded.state, False, lease=lease)]
            )

        with pytest.raises(StaleWriteError, match="lease"):
            commit(token - 1)
        commit(token)
        assert store.versions([t["id"]])[t["id"]] == frozen + 1
    finally:
        store.close()


def test_leases_are_taken_once_and_fence_the_old_owner(pg: str) -> None:
    store = Store(pg)
    try:
        a = Leases(store.engine, "a", 0.5)
        b = Leases(store.engine, "b", 0.5)
        first = a.acquire("t-lease")
        assert first is not None and b.acquire("t-lease") is None
        owned = a.owner("t-lease")
        assert owned is not None and owned.node == "a" and not owned.expired
        assert a.renew({"t-lease": first}) == set()
        time.sleep(0.7)
        second = b.acquire("t-lease")
        assert second == first + 1
        assert a.renew({"t-lease": first}) == {"t-lease"}  # a learns it lost the table
        b.release("t-lease", second)
        released = b.owner("t-lease")
        assert released is not None and released.expired
        assert a.acquire("t-lease") == second + 1  # tokens never repeat
    finally:
        store.close()


def made_here_played_there(
    url: str, a: ServerThread, b: ServerThread, seats: list[dict[str, str]]
) -> tuple[dict[str, Any], Client]:
    """A basic table made on ``a`` (the node alpha, which owns it), and its first
    seat's player connected through ``b``."""
    t = httpx.post(a.base + "/api/tables", json={"rules": "basic", "seats": seats}).json()
    assert owner(url, t["id"]) == "alpha"
    return t, hello(b.base, t["id"], 0, t["seats"][0]["secret"])


def wait_owner(url: str, table_id: str, node: str, c: Client, timeout: float = 30) -> None:
    """Wait until ``node`` holds the table's lease, reading what ``c`` is sent
    meanwhile; past ``timeout`` seconds fail, naming the lease row.  A handover takes
    seconds on a quiet machine; once, beside the whole suite on two cores, it took
    more than 10, so the wait is a generous one."""
    end = time.monotonic() + timeout
    query = "SELECT node, token, until FROM leases WHERE table_id = :t"
    while True:
        lease = sql(url, query, t=table_id)  # one row: the node holding it first
        if lease and lease[0][0] == node:
            return
        assert time.monotonic() < end, f"the table did not go to {node}: {lease}"
        drain(c, 0.1)


def drain(c: Client, seconds: float = 0.2) -> None:
    """Read what the client was sent for a while (a client that never reads holds its
    table's broadcasts back once the socket's buffers are full)."""
    end = time.monotonic() + seconds
    with contextlib.suppress(TimeoutError):
        while time.monotonic() < end:
            c.recv(max(0.01, end - time.monotonic()))


PACE = ["--bot-delay", "0.05", "--lease-seconds", "2"]
"""Bots quick enough to finish a Gin deal in seconds; leases short enough that a
takeover after a kill is well inside the issue's 5 s."""


def test_sigkill_of_the_owner_hands_its_tables_over(pg: str) -> None:
    """Issue #18: "SIGKILL a process that owns tables.  Another process takes those
    tables over within 5 s. No acknowledged move is lost ... bot tables go on"."""
    # three tables of bots from one address: past the default per-address cap
    more = ["--bot-tables-per-address", "3"]
    a = ServerProcess(pg, args=[*PACE, *more, "--node-id", "killed"]).start()
    b = ServerProcess(pg, args=[*PACE, *more, "--node-id", "survivor"]).start()
    a_base, b_base = a.base, b.base
    try:
        # A Gin deal ends at the wall (some 35 moves), or at an early knock in a dozen
        # (a one-deal table could end before the kill); a basic round of two easy bots
        # can run to hundreds of moves.  Three deals: a few seconds.
        body = {"rules": "gin", "deals": 3, "seats": [{"kind": "bot"}, {"kind": "bot"}]}
        ids = [httpx.post(a_base + "/api/tables", json=body).json()["id"] for _ in range(3)]
        watcher = hello(b_base, ids[0])  # the survivor follows one of them for a client
        time.sleep(0.5)
        assert all(owner(pg, i) == "killed" for i in ids)
        seen = watcher.state["version"] if watcher.state else 0
        a.kill()
        killed_at = time.monotonic()
        before = {i: len(log_seqs(pg, i)) for i in ids}
        while any(owner(pg, i) != "survivor" for i in ids):
            assert time.monotonic() - killed_at < 5.0, "tables not taken over within 5 s"
            drain(watcher, 0.1)
        # The bot tables play on to the end under their new owner; the log has no gap.
        end = time.monotonic() + 60
        while True:
            over = sql(pg, "SELECT count(*) FROM tables WHERE over AND id = ANY(:ids)", ids=ids)
            if over and over[0][0] == len(ids):
                break
            assert time.monotonic() < end, "the tables did not finish"
            drain(watcher)
        for i in ids:
            seqs = log_seqs(pg, i)
            assert seqs == list(range(1, len(seqs) + 1)) and len(seqs) > before[i]
        # The client following the survivor saw the game go on past the kill.
        assert watcher.state is not None and watcher.state["version"] > seen + 1
        watcher.close()
    finally:
        a.stop()
        b.stop()


def test_a_people_only_table_outlives_its_owner(pg: str) -> None:
    """No bot seat, no timer: the cluster's sweep does not adopt such a table, but the
    process following it for a connected player takes it once the dead owner's lease
    runs out, plays on for the player who was connected to the dead process (after the
    grace period), and the connected player's moves go on being accepted."""
    a = ServerProcess(pg, args=[*PACE, "--node-id", "owner"]).start()
    a_base = a.base
    try:
        with ServerThread(settings(pg, "follower", disconnect_grace=0.5)) as b:
            body = {"rules": "basic(deals=1)", "seats": [{"name": "Ann"}, {"name": "Bob"}]}
            t = httpx.post(a_base + "/api/tables", json=body).json()
            # Bob sits at the owner first, so the table stays there when Ann sits down.
            bob = hello(a_base, t["id"], 1, t["seats"][1]["secret"])
            ann = hello(b.base, t["id"], 0, t["seats"][0]["secret"])
            time.sleep(0.3)
            assert owner(pg, t["id"]) == "owner"
            a.kill()
            bob.close()
            made = play_own_turns(ann, 4, random.Random(8))  # Bob's turns played for him
            assert len(made) == 4
            assert owner(pg, t["id"]) == "follower"
            seqs = log_seqs(pg, t["id"])
            assert seqs == list(range(1, len(seqs) + 1)) and set(made) <= set(seqs)
            ann.close()
    finally:
        a.stop()


def test_healthz_fails_when_the_database_is_gone() -> None:
    """A process cut off from PostgreSQL answers /healthz with 503, so the proxy's
    health check (docs/deploy.md) sends no more clients to it; it answered 200 while
    it could serve nobody (a gap the deployment's review found)."""
    import os
    import signal

    with postgres_cluster() as url, ServerThread(settings(url, "cut-off")) as srv:
        assert httpx.get(srv.base + "/healthz").json()["ok"] is True
        pid = postmaster_pid(url)
        assert pid is not None
        os.kill(pid, signal.SIGKILL)
        end = time.monotonic() + 10
        while (r := httpx.get(srv.base + "/healthz", timeout=5)).status_code != 503:
            assert time.monotonic() < end, "still healthy without a database"
            time.sleep(0.2)
        assert r.json()["ok"] is False

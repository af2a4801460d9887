"""Crash safety: the server is killed with SIGKILL mid-game and restarted; the game
continues from its last accepted move.  Against SQLite and against a throwaway
PostgreSQL cluster the test starts itself (issue 6, "A crash test")."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from rummykit import new_game
from rummykit.serialize import state_from_json
from rummykit.web.store import Store
from web_helpers import Client, ServerProcess, postgres_cluster

pytestmark = pytest.mark.web_slow


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'crash.db'}"
    else:
        with postgres_cluster() as url:
            yield url


def join(base: str, t: dict[str, Any], seat: int) -> Client:
    c = Client(base, t["id"])
    c.send({"type": "hello", "seat": seat, "secret": t["seats"][seat]["secret"]})
    c.until(lambda m: m["type"] == "welcome")
    c.until(lambda m: m["type"] == "state")
    return c


def sync(clients: dict[int, Client]) -> int:
    """Read until every client has the newest state; return its version."""
    v: int = max(c.state["version"] for c in clients.values() if c.state)
    for c in clients.values():
        assert c.state is not None
        if c.state["version"] < v:
            c.until(lambda m, v=v: m["type"] == "state" and m["version"] >= v)
    return v


def play(clients: dict[int, Client], n: int, rng: random.Random) -> int:
    """Make ``n`` accepted moves; return the version the last one produced."""
    version = -1
    for _ in range(n):
        v = sync(clients)
        g = next(iter(clients.values())).state["game"]  # type: ignore[index]
        if g["phase"] == "over":
            break
        c = clients[g["current"]]
        legal = c.state["game"]["legal"]  # type: ignore[index]
        c.send(
            {
                "type": "move",
                "version": v,
                "move": {"kind": "text", "text": rng.choice(legal)["text"]},
            }
        )
        c.until(lambda m, v=v: m["type"] == "state" and m["version"] > v)
        version = v + 1
    return version


def test_sigkill_loses_no_accepted_move(database_url: str) -> None:
    rng = random.Random(5)
    server = ServerProcess(database_url).start()
    try:
        body = {"rules": "rami51", "seats": [{"name": "Ann"}, {"name": "Bob"}]}
        t = httpx.post(server.base + "/api/tables", json=body).json()
        clients = {0: join(server.base, t, 0), 1: join(server.base, t, 1)}
        accepted = play(clients, 15, rng)
        assert sync(clients) == accepted
        hands = {s: c.state["game"]["hand"] for s, c in clients.items()}  # type: ignore[index]
        # one more move in flight while the server dies
        g = clients[0].state["game"]  # type: ignore[index]
        mover = clients[g["current"]]
        text = mover.state["game"]["legal"][0]["text"]  # type: ignore[index]
        mover.send({"type": "move", "version": accepted, "move": {"kind": "text", "text": text}})
        server.kill()
        for c in clients.values():
            c.close()
        server = ServerProcess(database_url, port=server.port).start()
        clients = {0: join(server.base, t, 0), 1: join(server.base, t, 1)}
        v = clients[0].state["version"]  # type: ignore[index]
        assert v in (accepted, accepted + 1), "an accepted move was lost (or one invented)"
        if v == accepted:
            for s, c in clients.items():
                assert c.state["game"]["hand"] == hands[s]  # type: ignore[index]
        final = play(clients, 10, rng)
        sync(clients)
        assert final == v + 10
        for c in clients.values():
            c.close()
    finally:
        server.stop()
    # the log is complete and replays to the stored state
    store = Store(database_url)
    try:
        rows = store.moves(t["id"])
        assert [r.seq for r in rows] == list(range(1, final + 1))
        stored = store.load_table(t["id"])
        assert stored is not None and stored.version == final
        saved = state_from_json(stored.state)
        g = new_game(saved.rules, list(saved.names), seed=saved.seed)
        for r in rows:
            g.apply_action(r.action)
        assert g.hands == saved.hands and g.stock == saved.stock and g.table == saved.table
    finally:
        store.close()

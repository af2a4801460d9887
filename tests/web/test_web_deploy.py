"""The server behind a real reverse proxy (issue #18): Debian's HAProxy runs the
configuration docs/deploy.md shows, in front of real ``python -m rummykit.web``
processes on loopback, and scripted players connect through it only."""

from __future__ import annotations

import contextlib
import json
import random
import subprocess
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import create_engine, text
from websockets.exceptions import ConnectionClosed, WebSocketException
from websockets.sync.client import connect
from websockets.typing import Origin

from rummykit.web.store import Store, normalize_url
from web_helpers import (
    Client,
    ServerProcess,
    haproxy,
    haproxy_binary,
    postgres_cluster,
    proxy_config,
    server_processes,
)

GIN = {"rules": "gin", "deals": 1}
"""Short matches: one deal of Gin is some 100 moves of random play."""
OPEN = ["--rate", "1000", "--burst", "1000", "--tables-per-minute", "0"]
OPEN += ["--sockets-per-minute", "0"]
"""Per-client limits out of the way: every scripted player comes from 127.0.0.1 and
moves as fast as it can."""


class Seat(threading.Thread):
    """A scripted person at one seat, playing through the proxy.

    Whenever it is its turn it sends a random legal move; when its socket closes (its
    server died) it reconnects through the proxy and says ``hello`` again, as the web
    page does.  It remembers every move of its seat that a ``state`` showed in the
    table's log, i.e. every move the server acknowledged, by sequence number.  It stops
    once the match is over, or at ``deadline`` (monotonic).
    """

    def __init__(
        self, base: str, table: dict[str, Any], seat: int, deadline: float, think: float = 0.0
    ) -> None:
        super().__init__(daemon=True)
        self.think = think
        """Seconds it waits before each move, so that a match lasts a while."""
        self.base = base
        self.table_id: str = table["id"]
        self.seat = seat
        self.secret: str = table["seats"][seat]["secret"]
        self.deadline = deadline
        self.rng = random.Random(f"{self.table_id}/{seat}")
        self.acked: dict[int, str] = {}
        """Sequence number -> text of this seat's moves seen in a state's log."""
        self.sent = 0
        self.connections = 0
        self.finished = False
        self.error: BaseException | None = None

    def run(self) -> None:
        try:
            while not self.finished and time.monotonic() < self.deadline:
                try:
                    self._session()
                except TimeoutError:
                    raise  # a stalled table, not a closed socket
                except (OSError, WebSocketException):
                    time.sleep(0.2)  # the page waits a moment before reconnecting too
        except BaseException as e:  # reported by the test
            self.error = e

    def _session(self) -> None:
        c = Client(self.base, self.table_id)
        self.connections += 1
        try:
            c.send({"type": "hello", "seat": self.seat, "secret": self.secret})
            while time.monotonic() < self.deadline:
                m = c.recv(timeout=20.0)
                if m["type"] == "error" and m["code"] not in ("stale", "not_your_turn"):
                    raise AssertionError(f"seat {self.seat} of {self.table_id}: {m}")
                if m["type"] != "state":
                    continue
                for entry in m["log"]:
                    if entry["seat"] == self.seat:
                        self.acked[entry["seq"]] = entry["text"]
                g = m["game"]
                if g["phase"] == "over":
                    self.finished = True
                    return
                if g["current"] == self.seat and g["legal"]:
                    time.sleep(self.think)
                    text = self.rng.choice(g["legal"])["text"]
                    move = {"kind": "text", "text": text}
                    c.send({"type": "move", "version": m["version"], "move": move})
                    self.sent += 1
        finally:
            c.close()


def create(base: str, seats: list[dict[str, Any]]) -> dict[str, Any]:
    r = httpx.post(base + "/api/tables", json={**GIN, "seats": seats}, timeout=10)
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


def check_log(store: Store, table_id: str, seats: list[Seat]) -> int:
    """The table's stored moves are numbered 1..N without a gap, N is its version,
    and every move a player saw acknowledged is stored as that seat's move; N."""
    rows = store.moves(table_id)
    stored = store.load_table(table_id)
    assert stored is not None
    assert [r.seq for r in rows] == list(range(1, stored.version + 1))
    by_seq = {r.seq: r for r in rows}
    for s in seats:
        assert s.acked, f"seat {s.seat} saw none of its moves acknowledged"
        for seq, said in s.acked.items():
            row = by_seq.get(seq)
            assert row is not None, f"acknowledged move {seq} of {table_id} is not stored"
            assert (row.seat, row.text) == (s.seat, said), (seq, row.seat, row.text)
    return stored.version


def join_all(seats: list[Seat], deadline: float) -> None:
    for s in seats:
        s.join(max(0.1, deadline - time.monotonic()))
    for s in seats:
        assert s.error is None, f"seat {s.seat} of {s.table_id}: {s.error!r}"
        assert s.finished, f"seat {s.seat} of {s.table_id} did not see the match end"


# -- the proxy configuration ---------------------------------------------------------------
def test_the_guides_proxy_configuration_is_valid_haproxy(tmp_path: Path) -> None:
    cfg = tmp_path / "haproxy.cfg"
    cfg.write_text(proxy_config(8080, ["127.0.0.1:8001", "http://127.0.0.1:8002"]))
    text = cfg.read_text()
    assert "bind 127.0.0.1:8080" in text and "bind :80" not in text
    assert "server web1 127.0.0.1:8001\n" in text and "server web2 127.0.0.1:8002\n" in text
    assert "server web3" not in text  # the guide's three servers are replaced, not kept
    res = subprocess.run([str(haproxy_binary()), "-c", "-f", str(cfg)], capture_output=True)
    assert res.returncode == 0, res.stdout.decode() + res.stderr.decode()


def test_a_guide_without_a_server_line_is_refused(tmp_path: Path) -> None:
    doc = tmp_path / "deploy.md"
    doc.write_text("```haproxy\nfrontend f\n    bind :80\n```\n")
    with pytest.raises(ValueError, match="no server line"):
        proxy_config(8080, ["127.0.0.1:8001"], doc)


# -- one process behind the proxy --------------------------------------------------------------
@pytest.mark.web_slow
def test_a_match_is_played_through_the_proxy(tmp_path: Path) -> None:
    """WebSockets pass through HAProxy both ways, and the log is whole."""
    url = f"sqlite:///{tmp_path / 'proxy.db'}"
    server = ServerProcess(url, args=OPEN).start()
    try:
        with haproxy([server.address]) as base:
            t = create(base, [{"name": "Ann"}, {"name": "Bob"}])
            deadline = time.monotonic() + 60
            seats = [Seat(base, t, i, deadline) for i in (0, 1)]
            for s in seats:
                s.start()
            join_all(seats, deadline)
            info = httpx.get(f"{base}/api/tables/{t['id']}", timeout=10).json()
            assert info["over"] is True
            record = httpx.get(f"{base}/api/tables/{t['id']}/record", timeout=10)
            assert record.status_code == 200 and "gin" in record.text.lower()
            # The proxy passes Host on: the game's own page (the proxy's origin) may
            # open a socket, another site's may not.
            assert _origin_close(base, t["id"], base) is None
            assert _origin_close(base, t["id"], "http://elsewhere.example") == 4003
    finally:
        server.stop()
    store = Store(url)
    try:
        assert check_log(store, t["id"], seats) == info["version"]
    finally:
        store.close()
    assert sum(s.sent for s in seats) >= info["version"]


@pytest.mark.web_slow
def test_limits_by_client_address_see_the_address_behind_the_proxy(tmp_path: Path) -> None:
    """HAProxy names the client in X-Forwarded-For and the server believes it from
    127.0.0.1, the proxy docs/deploy.md's unit names (``--forwarded-allow-ips``): two
    clients on different loopback addresses have a bucket each, not one shared by
    everyone."""
    url = f"sqlite:///{tmp_path / 'limits.db'}"
    args = ["--tables-per-minute", "1", "--forwarded-allow-ips", "127.0.0.1"]
    server = ServerProcess(url, args=args).start()
    body = {**GIN, "seats": [{"name": "Ann"}, {"kind": "bot"}]}

    def create_from(address: str) -> int:
        transport = httpx.HTTPTransport(local_address=address)
        with httpx.Client(transport=transport, timeout=10) as http:
            return http.post(base + "/api/tables", json=body).status_code

    try:
        with haproxy([server.address]) as base:
            assert create_from("127.0.0.2") == 200
            assert create_from("127.0.0.2") == 429  # that address's one table a minute
            assert create_from("127.0.0.3") == 200  # another address has its own
    finally:
        server.stop()


@pytest.mark.web_slow
def test_the_proxy_spreads_clients_and_skips_a_dead_server(tmp_path: Path) -> None:
    """Round robin puts every other table on each server; once one is killed, every
    new request and WebSocket is answered by the other (redispatch, health checks)."""
    servers = [ServerProcess(f"sqlite:///{tmp_path / f'{i}.db'}", args=OPEN) for i in (1, 2)]
    try:
        for s in servers:
            s.launch()
        for s in servers:
            s.ready()
        with haproxy([s.address for s in servers]) as base:
            made = [create(base, [{"name": "Ann"}, {"kind": "bot"}]) for _ in range(4)]
            counts = [httpx.get(s.base + "/healthz").json()["tables"] for s in servers]
            assert counts == [2, 2], counts
            servers[0].kill()
            for _ in range(10):  # at once: a refused connection is retried on the other
                assert httpx.get(base + "/healthz", timeout=5).status_code == 200
            time.sleep(1.5)  # by now the health checks took it out of the rotation
            for _ in range(10):
                assert httpx.get(base + "/healthz", timeout=5).status_code == 200
            live = next(t for t in made if _lives_on(servers[1], t["id"]))
            c = Client(base, live["id"])
            try:
                c.send({"type": "hello"})
                assert c.until(lambda m: m["type"] == "state")["table"]["id"] == live["id"]
            finally:
                c.close()
    finally:
        for s in servers:
            s.stop()


def _origin_close(base: str, table_id: str, origin: str) -> int | None:
    """The close code of a socket opened from a page at ``origin`` (None: welcomed)."""
    url = base.replace("http://", "ws://") + f"/ws/{table_id}"
    with connect(url, origin=Origin(origin), open_timeout=10) as ws:
        try:
            ws.send(json.dumps({"type": "hello"}))
            while True:
                if json.loads(ws.recv(timeout=10))["type"] == "welcome":
                    return None
        except ConnectionClosed as closed:  # refused at once, or after an error message
            return closed.rcvd.code if closed.rcvd else None


def _lives_on(server: ServerProcess, table_id: str) -> bool:
    with contextlib.suppress(httpx.HTTPError):
        return httpx.get(f"{server.base}/api/tables/{table_id}").status_code == 200
    return False


# -- three processes on one PostgreSQL database -------------------------------------------
NODES = ["web1", "web2", "web3"]
PACE = ["--bot-delay", "0.3", "--bot-workers", "0"]
"""Bots move every 0.3 s (a Gin deal of two easy bots is some 35 moves: about 10 s), so
the tables are still being played when a process is killed."""
THINK = 0.1
"""Seconds a scripted person waits before each move (two of them: some 100 moves)."""
TAKEOVER = 5.0
"""Issue #18: another process takes a dead owner's tables within 5 s."""


class Tables:
    """The facts the deployment test reads straight from PostgreSQL, for some tables."""

    def __init__(self, url: str, ids: list[str]) -> None:
        self.engine = create_engine(normalize_url(url))
        self.ids = ids

    def _rows(self, query: str) -> dict[str, Any]:
        with self.engine.begin() as conn:
            return {r[0]: r[1] for r in conn.execute(text(query), {"ids": self.ids})}

    def versions(self) -> dict[str, int]:
        return self._rows("SELECT id, version FROM tables WHERE id = ANY(:ids)")

    def over(self) -> dict[str, bool]:
        return self._rows("SELECT id, over FROM tables WHERE id = ANY(:ids)")

    def owners(self) -> dict[str, str]:
        """Each table's owning process, by its lease (no row: nobody's)."""
        return self._rows("SELECT table_id, node FROM leases WHERE table_id = ANY(:ids)")

    def close(self) -> None:
        self.engine.dispose()


@pytest.mark.web_slow
def test_three_processes_behind_the_proxy_survive_the_death_of_one() -> None:
    """Issue #18's deployment: a throwaway PostgreSQL, three server processes, HAProxy
    in front, six tables (two of bots only, two of a person and a bot, two of two
    people) played through the proxy with clients spread over the processes; the
    process owning the most tables is killed with SIGKILL mid-play.  Its tables are
    taken over within 5 s, its clients reconnect through the proxy, every table
    finishes, and each log is numbered 1..N with every acknowledged move in it."""
    with (
        postgres_cluster() as url,
        server_processes(url, NODES, [*OPEN, *PACE]) as servers,
        haproxy([s.address for s in servers]) as base,
    ):
        deadline = time.monotonic() + 60
        bot, person = {"kind": "bot"}, {"name": "Ann"}
        kinds = [[bot, bot]] * 2 + [[person, bot]] * 2 + [[person, {"name": "Bob"}]] * 2
        made = [create(base, spec) for spec in kinds]
        ids = [t["id"] for t in made]
        bot_only = set(ids[:2])
        seats = {
            t["id"]: [Seat(base, t, n, deadline, THINK) for n, s in enumerate(spec) if s != bot]
            for t, spec in zip(made, kinds, strict=True)
        }
        players = [p for ps in seats.values() for p in ps]
        db = Tables(url, ids)
        try:
            # Round robin gave each process two of the tables to create, and own.
            owners = db.owners()
            assert sorted(Counter(owners.values()).values()) == [2, 2, 2], owners
            for p in players:
                p.start()
            # Some moves everywhere, then the owner of the most unfinished tables (one
            # of them a table of bots only) is killed.
            while min(db.versions().values()) < 6:
                assert time.monotonic() < deadline - 40, "the tables did not start"
                time.sleep(0.05)
            owners = db.owners()
            unfinished = {i for i, over in db.over().items() if not over}
            counts = Counter(owners[i] for i in unfinished)
            candidates = [n for n in counts if any(owners[i] == n for i in unfinished & bot_only)]
            assert candidates, "the tables of bots finished before the kill: slow them down"
            victim = max(candidates, key=lambda n: counts[n])
            orphans = {i for i in unfinished if owners[i] == victim}
            before = db.versions()
            playing = sum(not p.finished for p in players)
            servers[NODES.index(victim)].kill()
            killed = time.monotonic()

            # The survivors take every unfinished table of the dead process within 5 s.
            took: dict[str, float] = {}
            while len(took) < len(orphans):
                now, over = db.owners(), db.over()
                for i in orphans - took.keys():
                    if now.get(i) not in (None, victim) or over[i]:
                        took[i] = time.monotonic() - killed
                late = orphans - took.keys()
                assert time.monotonic() - killed < TAKEOVER + 1, f"not taken over: {late}"
                time.sleep(0.05)
            assert max(took.values()) < TAKEOVER, took
            print(f"\nkilled {victim}; its tables taken over after {sorted(took.values())} s")

            # Every table, its bots' and its people's, plays on to the end of the match.
            join_all(players, deadline)
            while not all(db.over().values()):
                assert time.monotonic() < deadline, f"not finished: {db.over()}"
                time.sleep(0.1)
            after = db.versions()
        finally:
            db.close()
        assert all(after[i] > before[i] for i in orphans), "a dead owner's table stopped"
        back = sum(p.connections - 1 for p in players)
        # The proxy spread the seats' first sockets over the processes in turn (two
        # each): with five or more still playing, one was surely on the victim.
        assert back >= 1 or playing < len(players) - 1, "no client came back after the kill"
        print(f"{back} clients reconnected; final versions {sorted(after.values())}")
        for i in ids:  # through the proxy, as a person would fetch it
            assert httpx.get(f"{base}/api/tables/{i}/record", timeout=10).status_code == 200
        store = Store(url)
        try:
            for i in ids:
                assert check_log(store, i, seats[i]) == after[i]
        finally:
            store.close()

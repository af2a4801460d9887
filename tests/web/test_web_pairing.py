"""Quick pairing (issue #32): seeks, the rating window, the bot, the queue in the
database (a process that dies loses nobody), the limits on seeking, and nobody paired
twice when several processes pair from one PostgreSQL queue."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from rummykit.web import Settings
from rummykit.web.account_routes import CSRF_HEADER, SESSION_COOKIE
from rummykit.web.account_store import AccountStore
from rummykit.web.pairing import Group, Waiting, match, window
from rummykit.web.protocol import PROTOCOL
from rummykit.web.seek_routes import SEEK_HEADER
from rummykit.web.seek_store import NewSeek, SeekStore
from rummykit.web.store import Store, digest
from test_web_accounts import accounts_client, plant, rows, sign_up
from web_helpers import postgres_cluster

FAST = {"pair_every": 0.05, "seeks_per_minute": 0, "seeks_per_account_minute": 0}


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "web.db"


@pytest.fixture
def client(db: Path) -> Iterator[TestClient]:
    with accounts_client(db, **FAST) as c:
        yield c


def seek(c: TestClient, csrf: str | None = None, **body: Any) -> Any:
    headers = {CSRF_HEADER: csrf} if csrf else {}
    return c.post("/api/seek", json={"game": "gin", **body}, headers=headers)


def poll(c: TestClient, token: str) -> Any:
    return c.get("/api/seek", headers={SEEK_HEADER: token})


def paired(c: TestClient, token: str, within: float = 10.0) -> dict[str, Any]:
    """The seek once paired (polled as the page does)."""
    end = time.monotonic() + within
    while time.monotonic() < end:
        r = poll(c, token)
        assert r.status_code == 200, r.text
        if r.json()["status"] == "paired":
            data: dict[str, Any] = r.json()
            return data
        time.sleep(0.02)
    raise AssertionError("not paired in time")


def w(i: str, rating: float = 25.0, created: float = 0.0, **kw: Any) -> Waiting:
    spec: dict[str, Any] = {"game": "gin", "players": 2, "timer": 0.0, "rated": True,
                            "bot": False, **kw}  # fmt: skip
    return Waiting(i, spec["game"], spec["players"], spec["timer"], spec["rated"], rating,
                   created, spec["bot"])  # fmt: skip


# -- who is paired with whom ----------------------------------------------------------------
def test_the_window_widens_with_the_wait_up_to_its_most() -> None:
    s = Settings()
    assert [window(s, t) for t in (0, 4.9, 5, 25, 49.9, 50, 1000)] == [2, 2, 3, 7, 11, 12, 12]


def test_ratings_pair_within_every_members_window() -> None:
    s = Settings()
    # 5 apart: no pair at once; after 15 s each accepts 5
    far = [w("a", 20.0, 0.0), w("b", 25.0, 0.0)]
    assert match(s, far, 1.0) == []
    assert match(s, far, 15.0) == [Group(("a", "b"))]
    # the newcomer's narrow window holds the old seek back from them
    assert match(s, [w("a", 20.0, 0.0), w("b", 25.0, 99.0)], 100.0) == []
    # the longest waiting first, with the nearest rating
    group = match(s, [w("a", 25.0, 0.0), w("b", 28.0, 1.0), w("c", 26.0, 2.0)], 10.0)
    assert group == [Group(("a", "c"))]
    # three players: all three within the narrowest window
    three = [w(x, r, 0.0, players=3) for x, r in (("a", 25.0), ("b", 26.5), ("c", 27.5))]
    assert match(s, three, 1.0) == []
    assert match(s, three, 5.0) == [Group(("a", "b", "c"))]


def test_pools_never_mix_and_casual_seeks_pair_in_order() -> None:
    s = Settings()
    mixed = [
        w("rated", 25.0, 0.0),
        w("casual", 25.0, 1.0, rated=False),
        w("rami", 25.0, 2.0, game="rami51"),
        w("timed", 25.0, 3.0, timer=30.0),
        w("three", 25.0, 4.0, players=3),
    ]
    assert match(s, mixed, 100.0) == []
    casual = [w("a", 0.0, 0.0, rated=False), w("b", 30.0, 1.0, rated=False),
              w("c", 60.0, 2.0, rated=False)]  # fmt: skip
    assert match(s, casual, 3.0) == [Group(("a", "b"))]


def test_a_seek_that_opted_in_gets_bots_after_the_wait() -> None:
    s = Settings(pair_bot_after=30.0)
    alone = [w("a", 25.0, 0.0, bot=True, players=3), w("b", 25.0, 0.0)]
    assert match(s, alone, 29.0) == []
    assert match(s, alone, 30.0) == [Group(("a",), bots=2)]


# -- over HTTP ------------------------------------------------------------------------------
def test_two_signed_in_players_get_a_rated_table_each_with_their_seat(
    client: TestClient, db: Path
) -> None:
    ann_csrf = sign_up(client, "Ann")["csrf"]
    ann = client.cookies[SESSION_COOKIE]
    r = seek(client, ann_csrf, timer=30.0)
    assert r.status_code == 201, r.text
    mine = r.json()
    assert mine["status"] == "waiting" and mine["rated"] is True and mine["link"] is None
    client.cookies.clear()
    bob_csrf = sign_up(client, "Bob")["csrf"]
    bob_token = seek(client, bob_csrf, timer=30.0).json()["token"]
    a, b = paired(client, mine["token"]), paired(client, bob_token)
    assert a["table"] == b["table"] and a["link"] != b["link"]
    info = client.get(f"/api/tables/{a['table']}").json()
    assert info["rated"] is True and info["timer"] == 30.0
    assert sorted(s["name"] for s in info["seats"]) == ["Ann", "Bob"]
    held = rows(db, "SELECT a.username, s.seat FROM account_seats s JOIN accounts a "
                    "ON a.id = s.account_id")  # fmt: skip
    seat_of = {name: seat for name, seat in held}
    for who, got in (("Ann", a), ("Bob", b)):
        assert got["link"].startswith(f"/play/{a['table']}#seat={seat_of[who]}&key=")
    # the link seats its player: the secret in it opens the seat
    plant(client, ann)
    secret = a["link"].split("key=")[1]
    with client.websocket_connect(f"/ws/{a['table']}") as ws:
        seat = seat_of["Ann"]
        ws.send_text(json.dumps({"type": "hello", "seat": seat, "secret": secret}))
        assert ws.receive_json() == {
            "type": "welcome", "protocol": PROTOCOL, "seat": seat, "table": a["table"]
        }  # fmt: skip
    # paired: the player may seek again; the paired seek can no longer be cancelled
    assert client.delete("/api/seek", headers={SEEK_HEADER: mine["token"], CSRF_HEADER: ann_csrf}
                         ).status_code == 409  # fmt: skip


def test_a_rated_seek_carries_the_players_rating_at_that_game(client: TestClient, db: Path) -> None:
    csrf = sign_up(client, "Ann")["csrf"]
    ann = rows(db, "SELECT id FROM accounts")[0][0]
    store = Store(f"sqlite:///{db}")
    try:  # Ann won a Gin hand against an account of nobody's
        AccountStore(store).rate("t" * 12, 1, "gin", [ann, "x" * 32], [1, 2])
        mu = AccountStore(store).ratings_of(ann)[0][1]
    finally:
        store.close()
    assert mu > 25
    seek(client, csrf)
    assert rows(db, "SELECT game, rated, rating FROM seeks") == [("gin", 1, mu)]
    token = seek(client, csrf, game="rami51")  # one at a time
    assert token.status_code == 409
    client.cookies.clear()
    seek(client, name="G", game="rami51")  # a guest's: casual, at a newcomer's 25
    assert ("rami51", 0, 25.0) in rows(db, "SELECT game, rated, rating FROM seeks")


def test_guests_seek_casual_and_are_never_paired_with_rated_seeks(
    client: TestClient, db: Path
) -> None:
    r = seek(client, rated=True)
    assert r.status_code == 400 and r.json()["code"] == "rated_signed_out"
    guest = seek(client, name="Zoé <b>").json()
    assert guest["rated"] is False
    csrf = sign_up(client, "Ann")["csrf"]
    rated = seek(client, csrf).json()
    time.sleep(0.3)  # passes of the pairer: a rated seek and a casual one stay apart
    assert poll(client, guest["token"]).json()["status"] == "waiting"
    assert poll(client, rated["token"]).json()["status"] == "waiting"
    assert client.delete("/api/seek", headers={SEEK_HEADER: rated["token"], CSRF_HEADER: csrf}
                         ).json()["status"] == "cancelled"  # fmt: skip
    casual = seek(client, csrf, rated=False).json()
    a, b = paired(client, guest["token"]), paired(client, casual["token"])
    info = client.get(f"/api/tables/{a['table']}").json()
    assert a["table"] == b["table"] and info["rated"] is False
    assert sorted(s["name"] for s in info["seats"]) == ["Ann", "Zoé <b>"]


def test_bad_seeks_are_refused(client: TestClient) -> None:
    assert seek(client, game="chess").status_code == 400
    assert seek(client, players=5).status_code == 400  # Gin seats two
    assert seek(client, players=True).status_code == 422
    assert seek(client, timer=0.5).status_code == 422
    assert poll(client, "nope").status_code == 404
    assert client.get("/api/seek").status_code == 404


def test_a_player_holds_one_seek_at_a_time(client: TestClient) -> None:
    csrf = sign_up(client, "Ann")["csrf"]
    first = seek(client, csrf).json()
    again = seek(client, csrf, game="rami51")
    assert again.status_code == 409 and again.json()["code"] == "seek_held"
    client.cookies.clear()
    guest = seek(client, name="G").json()
    other = seek(client, name="H", game="rami51")  # the same address: the same guest
    assert other.status_code == 409 and other.json()["code"] == "seek_held"
    headers = {SEEK_HEADER: guest["token"]}
    assert client.delete("/api/seek", headers=headers).json()["status"] == "cancelled"
    assert client.delete("/api/seek", headers=headers).status_code == 404
    assert seek(client, name="H", game="rami51").status_code == 201
    assert poll(client, first["token"]).json()["status"] == "waiting"


def test_seek_flooding_is_limited_per_address_cancelled_or_not(db: Path) -> None:
    with accounts_client(db, **{**FAST, "seeks_per_minute": 3}) as c:
        for _ in range(3):
            r = seek(c, name="G")
            assert r.status_code == 201, r.text
            c.delete("/api/seek", headers={SEEK_HEADER: r.json()["token"]})
        r = seek(c, name="G")
        assert r.status_code == 429 and int(r.headers["Retry-After"]) >= 1
        assert "seeks" in r.json()["detail"]
    # counted in the database, the address kept as a digest: a restart does not refill
    assert rows(db, "SELECT kind, address FROM address_limits") == [("seek", digest("testclient"))]
    with accounts_client(db, **{**FAST, "seeks_per_minute": 3}) as c:
        assert seek(c, name="G").status_code == 429


def test_seek_flooding_is_limited_per_account(db: Path) -> None:
    with accounts_client(db, **{**FAST, "seeks_per_account_minute": 2}) as c:
        csrf = sign_up(c, "Ann")["csrf"]
        for _ in range(2):
            token = seek(c, csrf).json()["token"]
            c.delete("/api/seek", headers={SEEK_HEADER: token, CSRF_HEADER: csrf})
        r = seek(c, csrf)
        assert r.status_code == 429 and r.json()["code"] == "seek_flood"
        assert int(r.headers["Retry-After"]) >= 1
        # another account at the same address is not held back
        c.cookies.clear()
        other = sign_up(c, "Bob")["csrf"]
        assert seek(c, other).status_code == 201


def test_a_seek_nobody_asks_after_expires(db: Path) -> None:
    with accounts_client(db, **{**FAST, "seek_ttl": 0.3}) as c:
        token = seek(c, name="G").json()["token"]
        for _ in range(4):  # each poll keeps it
            time.sleep(0.15)
            assert poll(c, token).json()["status"] == "waiting"
        time.sleep(0.6)
        assert poll(c, token).status_code == 404
        assert rows(db, "SELECT count(*) FROM seeks") == [(0,)]
        assert seek(c, name="G").status_code == 201  # the address holds nothing now


def test_a_player_who_opted_in_is_seated_with_medium_bots(db: Path) -> None:
    with accounts_client(db, **{**FAST, "pair_bot_after": 0.2}) as c:
        csrf = sign_up(c, "Ann")["csrf"]
        token = seek(c, csrf, game="basic", players=3, bot=True).json()["token"]
        got = paired(c, token)
        info = c.get(f"/api/tables/{got['table']}").json()
        assert info["rated"] is False  # bots are not rated
        kinds = sorted((s["kind"], s.get("difficulty")) for s in info["seats"])
        assert kinds == [("bot", "medium"), ("bot", "medium"), ("human", None)]


def test_seeks_outlive_their_process_and_any_process_pairs_them(db: Path) -> None:
    """The first server stops (as a killed one would: its pairer never ran on the
    seek); the seek is still queued, paired by the next server, and its player
    fetches the link from there."""
    with accounts_client(db, **{**FAST, "pair_every": 0}) as c:  # no pairer
        first = seek(c, name="G").json()["token"]
        time.sleep(0.2)
    assert rows(db, "SELECT status FROM seeks") == [("waiting",)]
    with accounts_client(db, **FAST) as c:
        csrf = sign_up(c, "Ann")["csrf"]
        second = seek(c, csrf, rated=False).json()["token"]
        assert paired(c, first)["table"] == paired(c, second)["table"]


def test_a_lapsed_claim_is_paired_again_and_its_late_pairer_seats_nobody(db: Path) -> None:
    store = Store(f"sqlite:///{db}")
    try:
        queue = SeekStore(store)
        s = Settings(pair_claim=10.0)
        for i in range(2):
            new = NewSeek(f"s{i}", f"address:{i}", None, f"P{i}", "gin", 2, 0.0, False, False, 25)
            assert queue.add(new, 100.0, 60.0)
        (dead,) = queue.take(s, 101.0)  # its process dies before the table is made
        assert queue.take(s, 105.0) == []  # the claim holds
        view = queue.view("s0", 105.0, 60.0)
        assert view is not None and view.status == "pairing"
        assert queue.cancel("s0", 105.0) == "pairing"
        (again,) = queue.take(s, 112.0)  # lapsed: taken again
        assert again.claim != dead.claim
        assert not queue.seat(dead.claim, {"s0": "late", "s1": "late"}, "t1", 113.0, 300.0)
        assert queue.seat(again.claim, {"s0": "L0", "s1": "L1"}, "t2", 113.0, 300.0)
        got = [queue.view(f"s{i}", 114.0, 60.0) for i in range(2)]
        assert [(v.link, v.table_id) for v in got if v] == [("L0", "t2"), ("L1", "t2")]
    finally:
        store.close()


# -- several processes on one PostgreSQL queue ----------------------------------------------
@pytest.mark.web_slow
def test_on_postgresql_concurrent_pairers_pair_nobody_twice_and_lose_nobody() -> None:
    """Four pairers (threads, each with its own connections, as processes would) take
    from one queue of 240 seeks at once, in two pools, until it is empty; every seek
    is seated exactly once."""
    with postgres_cluster() as url:
        store = Store(url)
        try:
            now = time.time()
            queue = SeekStore(store)
            ids = []
            for i in range(240):
                rated = i % 2 == 0
                new = NewSeek(f"s{i:03d}", f"address:{i}", None, f"P{i}", "gin", 2, 0.0,
                              rated, False, 25.0 + (i % 7) * 0.2)  # fmt: skip
                assert queue.add(new, now + i * 1e-4, 600.0)
                ids.append(new.id)
            settings = Settings(pair_batch=24)
            barrier = threading.Barrier(4)
            seated: list[tuple[str, str]] = []
            lock = threading.Lock()
            errors: list[BaseException] = []

            def pairer(n: int) -> None:
                try:
                    mine = SeekStore(store)
                    barrier.wait()
                    idle = 0
                    while idle < 3:
                        taken = mine.take(settings, time.time())
                        idle = 0 if taken else idle + 1
                        for t in taken:
                            table = f"t{n}-{t.claim}"
                            links = {seek_id: table for seek_id, _, _ in t.seats}
                            assert mine.seat(t.claim, links, table[:32], time.time(), 600.0)
                            with lock:
                                seated.extend((seek_id, table) for seek_id in links)
                except BaseException as exc:  # pragma: no cover - reported below
                    errors.append(exc)

            threads = [threading.Thread(target=pairer, args=(n,)) for n in range(4)]
            for th in threads:
                th.start()
            for th in threads:
                th.join(timeout=120)
            assert not errors, errors
            assert sorted(s for s, _ in seated) == sorted(ids)  # each once, none lost
            tables: dict[str, list[str]] = {}
            for seek_id, table in seated:
                tables.setdefault(table, []).append(seek_id)
            assert all(len(v) == 2 for v in tables.values())
            for pair in tables.values():  # pools kept: two rated or two casual
                assert len({int(x[1:]) % 2 for x in pair}) == 1
            with store.session() as s:
                from sqlalchemy import text

                statuses = s.execute(text("SELECT status, count(*) FROM seeks GROUP BY 1"))
                assert dict(statuses.all()) == {"paired": 240}
        finally:
            store.close()


def test_a_seek_with_an_unknown_field_is_refused(client: TestClient) -> None:
    r = client.post("/api/seek", content=json.dumps({"game": "gin", "x": 1}))
    assert r.status_code == 422

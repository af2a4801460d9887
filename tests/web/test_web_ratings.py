"""Ratings (issue #32): a rated Gin hand between two signed-in players changes both
players' ratings exactly as openskill computes from the result, once; what may not be
rated is refused.  In process, like test_web_accounts."""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from openskill.models import PlackettLuce

from rummykit.rules import Rules
from rummykit.web.account_routes import CSRF_HEADER, SESSION_COOKIE
from rummykit.web.account_store import Account, AccountStore
from rummykit.web.ratings import flags, places, shown
from rummykit.web.store import Store
from rummykit.web.usernames import username_keys
from test_web_accounts import accounts_client, plant, rows, sign_up
from test_web_api import until
from web_helpers import postgres_cluster


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "web.db"


def rated_table(c: TestClient, csrf: str, **body: Any) -> Any:
    return c.post(
        "/api/tables",
        json={"rules": "gin", "seats": [{}, {}], "rated": True, **body},
        headers={CSRF_HEADER: csrf},
    )


def newer(ws: Any, version: int) -> dict[str, Any]:
    """The first state after ``version`` on this socket; an error fails the test."""
    while True:
        m: dict[str, Any] = ws.receive_json()
        assert m["type"] != "error", m
        if m["type"] == "state" and m["version"] > version:
            return m


def play_out(socks: dict[int, Any], states: dict[int, dict[str, Any]]) -> dict[str, Any]:
    """Both seats (their sockets, their latest states) play their first legal move in
    turn until the match is over."""
    for _ in range(2000):
        version = max(int(m["version"]) for m in states.values())
        for seat, m in states.items():
            if m["version"] < version:
                states[seat] = newer(socks[seat], m["version"])
        state = states[0]
        if state["game"]["phase"] == "over":
            return state
        seat = state["game"]["current"]
        mine = states[seat]
        move = {"kind": "text", "text": mine["game"]["legal"][0]["text"]}
        socks[seat].send_text(json.dumps({"type": "move", "version": version, "move": move}))
        states[seat] = newer(socks[seat], version)
    raise AssertionError("the match did not end")


def test_a_rated_gin_hand_changes_both_ratings_as_openskill_does(db: Path) -> None:
    """Both players on one server (one client, a cookie each in turn)."""
    with accounts_client(db) as c:
        ann_csrf = sign_up(c, "Ann")["csrf"]
        ann = c.cookies[SESSION_COOKIE]
        c.cookies.clear()
        sign_up(c, "Bob")
        bob = c.cookies[SESSION_COOKIE]
        plant(c, ann)
        r = rated_table(c, ann_csrf)
        assert r.status_code == 200, r.text
        t = r.json()
        assert c.get(f"/api/tables/{t['id']}").json()["rated"] is True
        with c.websocket_connect(f"/ws/{t['id']}") as a:
            a.send_text(json.dumps({"type": "hello", "seat": 0}))
            first = {0: until(a, lambda m: m["type"] == "state")}
            plant(c, bob)
            with c.websocket_connect(f"/ws/{t['id']}") as b:
                hello = {"type": "hello", "seat": 1, "secret": t["seats"][1]["secret"]}
                b.send_text(json.dumps(hello))
                first[1] = until(b, lambda m: m["type"] == "state")
                end = play_out({0: a, 1: b}, first)
        assert [s["name"] for s in end["table"]["seats"]] == ["Ann", "Bob"]
        scores = end["game"]["scores"]
        ranks = places(Rules.preset("gin"), scores)
        model = PlackettLuce()
        expected = model.rate([[model.rating()], [model.rating()]], ranks=ranks)
        for cookie, seat in ((ann, 0), (bob, 1)):
            plant(c, cookie)
            got = c.get("/api/account").json()["account"]["ratings"]["gin"]
            mu, sigma = expected[seat][0].mu, expected[seat][0].sigma
            assert got["games"] == 1
            assert got["mu"] == pytest.approx(mu) and got["sigma"] == pytest.approx(sigma)
            assert got["rating"] == shown(mu, sigma)
        if ranks[0] != ranks[1]:  # a winner and a loser: the ratings moved apart
            winner = ranks.index(1)
            assert expected[winner][0].mu > 25 > expected[1 - winner][0].mu
        ((result,),) = rows(db, "SELECT result FROM rated_matches")
        # both players came from the test client's one address: rated, and flagged
        assert json.loads(result)["flags"] == ["same_address"]
        assert [seat["place"] for seat in json.loads(result)["seats"]] == ranks
    # the same result again (a second process, a retry) counts nothing
    store = Store(f"sqlite:///{db}")
    try:
        ids = [r[0] for r in rows(db, "SELECT id FROM accounts ORDER BY username")]
        again = AccountStore(store).rate(t["id"], end["version"], "gin", ids, ranks)
        assert again is None
        assert {g for _, g in rows(db, "SELECT account_id, games FROM ratings")} == {1}
    finally:
        store.close()


def test_what_cannot_be_rated_is_refused(db: Path) -> None:
    with accounts_client(db) as ann, accounts_client(db) as guest:
        assert (
            guest.post(
                "/api/tables", json={"rules": "gin", "seats": [{}, {}], "rated": True}
            ).status_code
            == 400
        )  # a guest cannot make one
        csrf = sign_up(ann, "Ann")["csrf"]
        for body in (
            {"rules": "gin(knock_card=7)"},
            {"rules": "gin_match", "target": 50},
            {"rules": "gin", "seats": [{}, {"kind": "bot"}]},
        ):
            assert rated_table(ann, csrf, **body).status_code == 400, body
        t = rated_table(ann, csrf, seats=[{}, {"open": True}], public=True).json()
        r = guest.post(f"/api/tables/{t['id']}/join", json={"name": "Guest"})
        assert r.status_code == 403  # a guest may not take a rated seat ...
        t = rated_table(ann, csrf).json()
        with guest.websocket_connect(f"/ws/{t['id']}") as ws:  # ... nor a rated invitation
            ws.send_text(
                json.dumps({"type": "hello", "seat": 1, "secret": t["seats"][1]["secret"]})
            )
            assert ws.receive_json()["code"] == "rated_needs_account"


def test_two_seats_from_one_address_are_flagged() -> None:
    assert flags({0: {"1.2.3.4"}, 1: {"5.6.7.8"}}) == []
    assert flags({0: {"1.2.3.4"}, 1: {"5.6.7.8", "1.2.3.4"}}) == ["same_address"]
    assert flags({0: {"2001:db8::/64"}, 2: {"2001:db8::/64"}}) == ["same_address"]
    assert flags({}) == []


@pytest.mark.web_slow
def test_on_postgresql_a_result_counts_once_and_none_is_lost() -> None:
    """Processes applying results at once (threads here, each with its own
    connections): the same match from two of them counts once; three matches of the
    same newcomers all count (their rating rows, made by one, are read FOR UPDATE by
    the others, which try again)."""
    with postgres_cluster() as url:
        store = Store(url)
        try:
            rows_ = AccountStore(store)
            ids = []
            for name in ("Ann", "Bob"):
                account = Account(name.lower() * 8, name, 1.0)
                assert rows_.create(account, username_keys(name), name.lower(), "h")
                ids.append(account.id)
            barrier = threading.Barrier(4)
            got: list[object] = []

            def apply(table: str) -> None:
                barrier.wait()
                got.append(AccountStore(store).rate(table, 9, "gin", ids, [1, 2]))

            threads = [threading.Thread(target=apply, args=(t,)) for t in ("t1", "t1", "t2", "t3")]
            for th in threads:
                th.start()
            for th in threads:
                th.join(timeout=60)
            assert sum(1 for g in got if g is not None) == 3 and len(got) == 4
            model = PlackettLuce()
            a, b = model.rating(), model.rating()
            for _ in range(3):
                [[a], [b]] = model.rate([[a], [b]], ranks=[1, 2])
            (ann_rating, ann_games), (bob_rating, bob_games) = [
                ((mu, sigma), n) for _, mu, sigma, n in (rows_.ratings_of(i)[0] for i in ids)
            ]
            assert ann_games == bob_games == 3
            assert ann_rating == pytest.approx((a.mu, a.sigma))
            assert bob_rating == pytest.approx((b.mu, b.sigma))
        finally:
            store.close()

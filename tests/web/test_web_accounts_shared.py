"""What two server processes on one PostgreSQL database must agree on about accounts
(docs/accounts.md): an account name's back-off after wrong passwords, an address's
allowance of sign-ins and sign-ups, an address's and an account's allowance of
quick-pairing seeks, and the ``same_address`` flag of a rated match whose two seats
are served by different processes.  Real processes (``python -m
rummykit.web``), as deployed."""

from __future__ import annotations

import json
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx
import pytest

from rummykit.web.account_routes import CSRF_HEADER, SESSION_COOKIE
from rummykit.web.account_store import AccountStore
from rummykit.web.seek_routes import SEEK_HEADER
from rummykit.web.store import Store, digest
from test_web_accounts import CHEAP, PASSWORD
from test_web_players import sql_rows
from web_helpers import Client, postgres_cluster, server_processes

pytestmark = pytest.mark.web_slow

ARGS = [
    *(f"--{k.replace('_', '-')}={v}" for k, v in CHEAP.items()),
    "--tables-per-minute=0", "--sockets-per-minute=0", "--bot-workers=0",
]  # fmt: skip


def sign_in(base: str, password: str) -> httpx.Response:
    with httpx.Client(base_url=base) as web:
        return web.post("/api/account/signin", json={"username": "ann", "password": password})


def test_wrong_passwords_on_two_processes_back_off_on_both() -> None:
    """The free wrong passwords are spent on one process, the next one on the other:
    the name waits on both, and the right password is refused on either while it
    does."""
    args = [*ARGS, "--signin-free-failures=2", "--signin-backoff=60"]
    with postgres_cluster() as url, server_processes(url, ["web1", "web2"], args) as (a, b):
        with httpx.Client(base_url=a.base) as web:
            r = web.post("/api/account/signup", json={"username": "Ann", "password": PASSWORD})
            assert r.status_code == 201, r.text
        assert sign_in(a.base, "guess one").status_code == 401  # free
        assert sign_in(b.base, "guess two").status_code == 401  # free, on the other
        assert sign_in(a.base, "guess three").status_code == 401  # now waits 60 s
        for server in (a, b):
            r = sign_in(server.base, PASSWORD)
            assert r.status_code == 429 and r.json()["code"] == "signin_backoff", server.base
            assert 50 <= int(r.headers["retry-after"]) <= 60
        (row,) = sql_rows(url, "SELECT key, failures FROM signin_failures")
        assert row[1] == 3 and "ann" not in row[0]  # the name is kept as a digest


def test_an_address_has_one_allowance_of_sign_ins_and_sign_ups_over_two_processes() -> None:
    """An address's sign-ins (right or wrong) and sign-ups, alternating between the
    two processes, are refused (429 ``rate_limited``) on both once the allowance is
    spent over them together; the address is kept as a digest."""
    per_minute, signups = 4, 2
    args = [*ARGS, f"--signin-per-minute={per_minute}", f"--signups-per-minute={signups}"]
    with postgres_cluster() as url, server_processes(url, ["web1", "web2"], args) as (a, b):
        servers = [a, b]
        made = []
        for i in range(signups):
            with httpx.Client(base_url=servers[i % 2].base) as web:
                body = {"username": f"Ann{i}", "password": PASSWORD}
                made.append(web.post("/api/account/signup", json=body).status_code)
        assert made == [201] * signups
        for server in servers:
            with httpx.Client(base_url=server.base) as web:
                body = {"username": "Cid", "password": PASSWORD}
                r = web.post("/api/account/signup", json=body)
                assert r.status_code == 429 and r.json()["code"] == "rate_limited", server.base
                assert 1 <= int(r.headers["retry-after"]) <= 60 // signups
        answers = [sign_in(servers[i % 2].base, "guess").status_code for i in range(per_minute)]
        assert answers == [401] * per_minute
        for server in servers:
            r = sign_in(server.base, PASSWORD)
            assert r.status_code == 429 and r.json()["code"] == "rate_limited", server.base
            assert 1 <= int(r.headers["retry-after"]) <= 60 // per_minute
        kept = sql_rows(url, "SELECT kind, address FROM address_limits ORDER BY kind")
        assert [kind for kind, _ in kept] == ["signin", "signup"]
        assert kept[0][1] == kept[1][1] and "127.0.0.1" not in kept[0][1]


def seek_and_cancel(web: httpx.Client, csrf: str | None = None) -> httpx.Response:
    """A seek at Gin (a guest's as ``G``), withdrawn at once if it was made: one seek
    a player may wait at a time, and a cancelled one counts all the same."""
    headers = {CSRF_HEADER: csrf} if csrf else {}
    r = web.post("/api/seek", json={"game": "gin", "name": "G"}, headers=headers)
    if r.status_code == 201:
        gone = web.delete("/api/seek", headers={**headers, SEEK_HEADER: r.json()["token"]})
        assert gone.status_code == 200, gone.text
    return r


def test_an_address_and_an_account_have_one_allowance_of_seeks_over_two_processes() -> None:
    """An account's seeks, then guests' seeks from the same address, alternating
    between the two processes: the account is refused on both (429 ``seek_flood``)
    once ``seeks_per_account_minute`` are spent over the two together, and the
    address (429) once ``seeks_per_minute`` are, the account's seeks, refused ones
    too, counted in it.  Both are kept as digests."""
    per_address, per_account = 10, 3
    args = [
        *ARGS,
        f"--seeks-per-minute={per_address}",
        f"--seeks-per-account-minute={per_account}",
    ]
    with postgres_cluster() as url, server_processes(url, ["web1", "web2"], args) as (a, b):
        with httpx.Client(base_url=a.base) as web:
            r = web.post("/api/account/signup", json={"username": "Ann", "password": PASSWORD})
            assert r.status_code == 201, r.text
            session, csrf = web.cookies[SESSION_COOKIE], r.json()["csrf"]
        ann = [httpx.Client(base_url=s.base, cookies={SESSION_COOKIE: session}) for s in (a, b)]
        guests = [httpx.Client(base_url=s.base) for s in (a, b)]
        try:
            made = [seek_and_cancel(ann[i % 2], csrf).status_code for i in range(per_account)]
            assert made == [201] * per_account
            for web in ann:
                r = seek_and_cancel(web, csrf)
                assert r.status_code == 429 and r.json()["code"] == "seek_flood", web.base_url
                assert 1 <= int(r.headers["retry-after"]) <= 60 // per_account
            # the address spent one a seek above, refused or not
            left = per_address - per_account - 2
            made = [seek_and_cancel(guests[i % 2]).status_code for i in range(left)]
            assert made == [201] * left
            for web in guests:
                r = seek_and_cancel(web)
                assert r.status_code == 429 and "seeks" in r.json()["detail"], web.base_url
                assert 1 <= int(r.headers["retry-after"]) <= 60 // per_address
        finally:
            for web in ann + guests:
                web.close()
        (account,) = sql_rows(url, "SELECT id FROM accounts")
        kept = dict(sql_rows(url, "SELECT kind, address FROM address_limits"))
        assert set(kept) == {"seek", "seekacct"}
        assert kept["seekacct"] == digest(account[0]) and "127.0.0.1" not in kept["seek"]


def test_takes_at_once_from_many_connections_are_each_counted() -> None:
    """Sixteen threads on two stores (two processes' connection pools) take at the
    same moment from one address's allowance of ten: exactly ten are allowed, the
    others told when the next comes."""
    with postgres_cluster() as url:
        stores = [Store(url), Store(url)]
        try:
            rows = [AccountStore(s) for s in stores]
            start = threading.Barrier(16)

            def take(i: int) -> list[float]:
                start.wait()
                return [rows[i % 2].address_take("signin", "e" * 64, 500.0, 10.0) for _ in range(3)]

            with ThreadPoolExecutor(16) as pool:
                waits = [w for got in pool.map(take, range(16)) for w in got]
        finally:
            for s in stores:
                s.close()
    assert sorted(waits)[:11] == [0.0] * 10 + [6.0]
    assert set(waits) == {0.0, 6.0}


def seated(
    base: str, web: httpx.Client, table: str, seat: int, secret: str | None
) -> tuple[Client, dict[str, Any]]:
    """The seat taken by the signed-in ``web`` on ``base``: its socket and first state."""
    sock = Client(base, table, {SESSION_COOKIE: web.cookies[SESSION_COOKIE]})
    sock.send({"type": "hello", "seat": seat, **({"secret": secret} if secret else {})})
    return sock, sock.until(lambda m: m["type"] == "state")


def play_out(socks: list[Client], states: list[dict[str, Any]]) -> dict[str, Any]:
    """Each seat plays its first legal move in turn until the match is over."""
    for _ in range(2000):
        version = max(int(m["version"]) for m in states)
        for i, m in enumerate(states):
            if m["version"] < version:
                states[i] = socks[i].until(
                    lambda m, v=version: m["type"] == "state" and m["version"] >= v
                )
        game = states[0]["game"]
        if game["phase"] == "over":
            return states[0]
        seat = game["current"]
        move = {"kind": "text", "text": states[seat]["game"]["legal"][0]["text"]}
        socks[seat].send({"type": "move", "version": version, "move": move})
        states[seat] = socks[seat].until(
            lambda m, v=version: m["type"] == "state" and m["version"] > v
        )
    raise AssertionError("the match did not end")


def test_two_seats_from_one_address_on_two_processes_are_flagged() -> None:
    """Ann's socket on one process, Bob's on the other, both from this machine's
    address: whichever process ends the match sees both seats' addresses, and flags
    it."""
    with postgres_cluster() as url, server_processes(url, ["web1", "web2"], ARGS) as (a, b):
        webs, csrfs = [], []
        for name in ("Ann", "Bob"):
            web = httpx.Client(base_url=a.base)
            r = web.post("/api/account/signup", json={"username": name, "password": PASSWORD})
            assert r.status_code == 201, r.text
            webs.append(web)
            csrfs.append(r.json()["csrf"])
        body = {"rules": "gin", "seats": [{}, {}], "rated": True}
        r = webs[0].post("/api/tables", json=body, headers={CSRF_HEADER: csrfs[0]})
        assert r.status_code == 200, r.text
        t = r.json()
        ann = seated(a.base, webs[0], t["id"], 0, None)
        bob = seated(b.base, webs[1], t["id"], 1, t["seats"][1]["secret"])
        socks = [ann[0], bob[0]]
        try:
            end = play_out(socks, [ann[1], bob[1]])
        finally:
            for s in socks:
                s.close()
            for web in webs:
                web.close()
        assert end["game"]["phase"] == "over"
        (result,) = sql_rows(url, "SELECT result FROM rated_matches")
        assert json.loads(result[0])["flags"] == ["same_address"]
        seen = sql_rows(url, "SELECT seat, address FROM seat_addresses ORDER BY seat")
        assert [seat for seat, _ in seen] == [0, 1]
        assert seen[0][1] == seen[1][1] and "127.0.0.1" not in seen[0][1]

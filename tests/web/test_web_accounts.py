"""Accounts (issue #32, accounts and security): signing up, in and out, passwords,
deletion, seats under usernames; and each abuse case: session fixation, CSRF from
another origin, brute-force sign-in, confusable usernames, XSS through usernames,
reading another player's hidden data.

In process (FastAPI's TestClient) against a real SQLite file, like test_web_api.
Passwords are hashed with cheap argon2id parameters except where the defaults are
the point."""

from __future__ import annotations

import json
import random
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text
from starlette.websockets import WebSocketDisconnect

from rummykit.web.account_routes import CSRF_HEADER, SESSION_COOKIE
from rummykit.web.account_store import AccountStore
from rummykit.web.limits import TokenBucket
from rummykit.web.store import Store, digest
from rummykit.web.usernames import UsernameError, clean_username, username_keys
from test_web_api import create, hello, make_client, until

CHEAP = {
    "password_time_cost": 1, "password_memory_kib": 1024, "password_parallelism": 1,
    "signups_per_minute": 0, "signin_per_minute": 0,
}  # fmt: skip
"""argon2id parameters that hash in a millisecond, and no limit per address, for the
tests that are not about them."""
PASSWORD = "correct horse battery"
STATIC = Path(__file__).resolve().parents[2] / "src" / "rummykit" / "web" / "static"


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "web.db"


def accounts_client(db: Path, **kw: Any) -> TestClient:
    return make_client(db, **{**CHEAP, **kw})


@pytest.fixture
def client(db: Path) -> Iterator[TestClient]:
    with accounts_client(db) as c:
        yield c


def sign_up(c: TestClient, name: str = "Ann", password: str = PASSWORD) -> dict[str, Any]:
    r = c.post("/api/account/signup", json={"username": name, "password": password})
    assert r.status_code == 201, r.text
    data: dict[str, Any] = r.json()
    return data


def sign_in(c: TestClient, name: str = "Ann", password: str = PASSWORD, **kw: Any) -> Any:
    return c.post("/api/account/signin", json={"username": name, "password": password}, **kw)


def me(c: TestClient) -> Any:
    return c.get("/api/account").json()["account"]


def names(state: dict[str, Any]) -> list[str]:
    """The players' names in a state message."""
    return [s["name"] for s in state["table"]["seats"]]


def plant(c: TestClient, session_id: str) -> None:
    """Put ``session_id`` in the browser's cookie, in place of whatever it had."""
    c.cookies.clear()
    c.cookies.set(SESSION_COOKIE, session_id, domain="testserver.local")


def rows(db: Path, sql: str) -> list[Any]:
    engine = create_engine(f"sqlite:///{db}")
    try:
        with engine.connect() as conn:
            return list(conn.execute(text(sql)).all())
    finally:
        engine.dispose()


# -- the account's life ---------------------------------------------------------------------
def test_sign_up_in_and_out_with_an_httponly_lax_cookie(client: TestClient, db: Path) -> None:
    assert me(client) is None
    made = sign_up(client, "Ann")
    assert made["account"]["username"] == "Ann" and len(made["csrf"]) >= 40
    cookie = client.cookies[SESSION_COOKIE]
    assert len(cookie) >= 40
    got = client.get("/api/account").json()
    assert got["csrf"] == made["csrf"]  # the same token: the page reads it once
    assert got["account"] == {**made["account"], "ratings": {}}  # no id, no hash
    out = client.post("/api/account/signout", headers={CSRF_HEADER: made["csrf"]})
    assert out.status_code == 200 and me(client) is None
    assert rows(db, "SELECT count(*) FROM sessions") == [(0,)]
    r = sign_in(client, "ann")  # the username is looked up case-folded
    assert r.status_code == 200 and r.json()["account"]["username"] == "Ann"
    header = r.headers["set-cookie"]
    assert "HttpOnly" in header and "SameSite=lax" in header and "Path=/" in header
    assert "Secure" not in header  # plain HTTP: a Secure cookie would not come back


def test_passwords_are_argon2id_hashes_and_sessions_digests(db: Path) -> None:
    with make_client(db) as c:  # the default parameters
        sign_up(c, "Ann")
        session = c.cookies[SESSION_COOKIE]
    ((stored,),) = rows(db, "SELECT password FROM accounts")
    assert stored.startswith("$argon2id$v=19$m=65536,t=3,p=4$") and PASSWORD not in stored
    assert rows(db, "SELECT id FROM sessions") == [(digest(session),)]


def test_the_cookie_is_secure_behind_tls_or_when_told(db: Path) -> None:
    with accounts_client(db) as c:
        c.base_url = c.base_url.copy_with(scheme="https")  # TLS, as uvicorn reports it
        r = c.post("/api/account/signup", json={"username": "Ann", "password": PASSWORD})
        assert "Secure" in r.headers["set-cookie"]
    with accounts_client(db, secure_cookies=True) as c:
        assert "Secure" in sign_in(c).headers["set-cookie"]


def test_bad_usernames_and_passwords_are_refused_with_codes(client: TestClient) -> None:
    for name, code in [
        ("ab", "username_length"),
        ("x" * 25, "username_length"),
        ("Ann Lee", "username_chars"),
        ("_ann", "username_chars"),
        ("ann!", "username_chars"),
        ("an\u200bn", "username_chars"),  # zero-width space
        ("ann\u202e", "username_chars"),  # right-to-left override
        ("an\u0335n", "username_chars"),  # a combining mark NFKC cannot compose
    ]:
        r = client.post("/api/account/signup", json={"username": name, "password": PASSWORD})
        assert r.status_code == 400 and r.json()["code"] == code, (name, r.text)
    r = client.post("/api/account/signup", json={"username": "Ann", "password": "short"})
    assert r.status_code == 400 and r.json()["code"] == "password_length"
    assert me(client) is None


def test_change_password_ends_every_other_session(db: Path) -> None:
    with accounts_client(db) as a, accounts_client(db) as b:
        csrf = sign_up(a, "Ann")["csrf"]
        assert sign_in(b).status_code == 200
        old_cookie = a.cookies[SESSION_COOKIE]
        wrong = a.post(
            "/api/account/password",
            json={"old": "not it at all", "new": "a new password"},
            headers={CSRF_HEADER: csrf},
        )
        assert wrong.status_code == 403 and wrong.json()["code"] == "bad_password"
        r = a.post(
            "/api/account/password",
            json={"old": PASSWORD, "new": "a new password"},
            headers={CSRF_HEADER: csrf},
        )
        assert r.status_code == 200, r.text
        assert a.cookies[SESSION_COOKIE] != old_cookie and r.json()["csrf"] != csrf
        assert me(a)["username"] == "Ann"
        assert me(b) is None  # the other browser is signed out
        assert sign_in(b).status_code == 401
        assert sign_in(b, password="a new password").status_code == 200


# -- seats under usernames; guests as before -------------------------------------------------
def test_a_signed_in_creator_and_joiner_sit_under_their_usernames(db: Path) -> None:
    with accounts_client(db) as ann, accounts_client(db) as bob, accounts_client(db) as guest:
        csrf = sign_up(ann, "Ann")["csrf"]
        seats = [{"name": "Mallory"}, {"open": True}, {"open": True}]
        r = ann.post(
            "/api/tables",
            json={"rules": "basic", "deals": 1, "seats": seats, "public": True},
            headers={CSRF_HEADER: csrf},
        )
        assert r.status_code == 200, r.text
        t = r.json()
        assert t["seats"][0]["name"] == "Ann"  # not the name typed in the form
        bob_csrf = sign_up(bob, "Bob")["csrf"]
        joined = bob.post(
            f"/api/tables/{t['id']}/join", json={"name": "Ann"}, headers={CSRF_HEADER: bob_csrf}
        )
        assert joined.status_code == 200 and joined.json()["seat"] == 1
        assert guest.post(f"/api/tables/{t['id']}/join", json={"name": "Ann"}).status_code == 200
        info = guest.get(f"/api/tables/{t['id']}").json()
        # a guest may call themselves anything; only accounts' seats say so
        assert [(s["name"], s["account"]) for s in info["seats"]] == [
            ("Ann", True),
            ("Bob", True),
            ("Ann", False),
        ]
        stored = rows(db, "SELECT account_id, seat FROM account_seats ORDER BY seat")
        assert [seat for _, seat in stored] == [0, 1]


def test_an_invitation_opened_signed_in_takes_the_username(client: TestClient, db: Path) -> None:
    t = create(client, [{"name": "Host"}, {}])  # a guest's table, as today
    with accounts_client(db) as bob:
        sign_up(bob, "Bob")
        with bob.websocket_connect(f"/ws/{t['id']}") as ws:
            ws.send_text(
                json.dumps(
                    {"type": "hello", "seat": 1, "secret": t["seats"][1]["secret"], "name": "Ann"}
                )
            )
            s = until(ws, lambda m: m["type"] == "state")
            assert names(s) == ["Host", "Bob"]
        info = bob.get(f"/api/tables/{t['id']}").json()
        assert [x["account"] for x in info["seats"]] == [False, True]
        # the seat is the account's now: no link needed from another browser
        with accounts_client(db) as elsewhere:
            assert sign_in(elsewhere, "Bob").status_code == 200
            with elsewhere.websocket_connect(f"/ws/{t['id']}") as ws:
                ws.send_text(json.dumps({"type": "hello", "seat": 1}))
                assert until(ws, lambda m: m["type"] == "welcome")["seat"] == 1


def test_guests_play_as_before(client: TestClient) -> None:
    t = create(client, [{"name": "Zoé"}, {"kind": "bot"}])
    assert "set-cookie" not in client.get("/api/account").headers
    with client.websocket_connect(f"/ws/{t['id']}") as ws:
        s = hello(ws, t, 0)
        assert names(s)[0] == "Zoé"
    assert client.get(f"/api/tables/{t['id']}").json()["seats"][0]["account"] is False


# -- deleting an account ---------------------------------------------------------------------
def test_deleting_an_account_anonymises_its_seats_and_frees_the_name(db: Path) -> None:
    with accounts_client(db) as ann:
        csrf = sign_up(ann, "Ann")["csrf"]
        r = ann.post(
            "/api/tables",
            json={"rules": "basic", "deals": 1, "seats": [{}, {"name": "Guest"}]},
            headers={CSRF_HEADER: csrf},
        )
        t = r.json()
        with ann.websocket_connect(f"/ws/{t['id']}") as ws:
            ws.send_text(json.dumps({"type": "hello", "seat": 0}))
            until(ws, lambda m: m["type"] == "state")
            ws.send_text(json.dumps({"type": "chat", "text": "hi, I am Ann"}))
            until(ws, lambda m: m["type"] == "chat")
        refused = ann.post(
            "/api/account/delete", json={"password": "wrong one!"}, headers={CSRF_HEADER: csrf}
        )
        assert refused.status_code == 403 and me(ann)["username"] == "Ann"
        r = ann.post(
            "/api/account/delete", json={"password": PASSWORD}, headers={CSRF_HEADER: csrf}
        )
        assert r.status_code == 200 and r.json()["seats_renamed"] == 1
        assert me(ann) is None
        info = ann.get(f"/api/tables/{t['id']}").json()
        assert [(s["name"], s["account"]) for s in info["seats"]] == [
            ("Anonymous 1", False),
            ("Guest", False),
        ]
        with ann.websocket_connect(f"/ws/{t['id']}") as ws:
            s = hello(ws)
            assert names(s) == ["Anonymous 1", "Guest"]
    for table in ("accounts", "account_keys", "sessions", "account_seats", "ratings"):
        assert rows(db, f"SELECT count(*) FROM {table}") == [(0,)], table
    ((seats, state),) = rows(db, "SELECT seats, state FROM tables")
    assert "Ann" not in seats and json.loads(state)["names"] == ["Anonymous 1", "Guest"]
    assert rows(db, "SELECT name, text FROM chat") == [("Anonymous 1", "hi, I am Ann")]
    with accounts_client(db) as c:  # the game as another server process reads it
        assert sign_in(c).status_code == 401
        with c.websocket_connect(f"/ws/{t['id']}") as ws:
            assert names(hello(ws))[0] == "Anonymous 1"
        sign_up(c, "Ann")  # the name is free again


# -- abuse: session fixation -----------------------------------------------------------------
def test_a_planted_session_id_is_never_adopted(client: TestClient, db: Path) -> None:
    """An attacker who sets the victim's cookie before sign-in (a sibling subdomain, a
    shared computer) gains nothing: the server makes a new id at every sign-in and
    never accepts one it did not make."""
    csrf = sign_up(client, "Ann")["csrf"]
    client.post("/api/account/signout", headers={CSRF_HEADER: csrf})
    plant(client, "planted-by-the-attacker-0123456789abcdef")
    assert me(client) is None  # an id the server did not make means nothing
    assert sign_in(client).status_code == 200
    issued = client.cookies[SESSION_COOKIE]
    assert issued != "planted-by-the-attacker-0123456789abcdef"
    with accounts_client(db) as attacker:
        plant(attacker, "planted-by-the-attacker-0123456789abcdef")
        assert me(attacker) is None


def test_a_sign_in_ends_the_session_the_browser_came_with(db: Path) -> None:
    """Login fixation the other way: the attacker plants their own valid session; the
    victim's sign-in replaces it (the attacker's id dies), and two sign-ins never
    share an id."""
    with accounts_client(db) as mallory, accounts_client(db) as victim:
        sign_up(mallory, "Mallory")
        planted = mallory.cookies[SESSION_COOKIE]
        csrf = sign_up(victim, "Victim")["csrf"]
        victim.post("/api/account/signout", headers={CSRF_HEADER: csrf})
        plant(victim, planted)
        assert sign_in(victim, "Victim").status_code == 200
        assert victim.cookies[SESSION_COOKIE] != planted
        assert me(victim)["username"] == "Victim"
        assert me(mallory) is None  # the planted id was ended by the sign-in
        first = victim.cookies[SESSION_COOKIE]
        assert sign_in(victim, "Victim").status_code == 200
        assert victim.cookies[SESSION_COOKIE] != first
        plant(victim, first)
        assert me(victim) is None


# -- abuse: CSRF -----------------------------------------------------------------------------
EVIL = {"origin": "https://evil.example"}


def test_state_changing_requests_from_another_origin_are_refused(
    client: TestClient, db: Path
) -> None:
    csrf = sign_up(client, "Ann")["csrf"]
    with_token = {**EVIL, CSRF_HEADER: csrf}
    for path, body in [
        ("/api/account/signout", None),
        ("/api/account/password", {"old": PASSWORD, "new": "hijacked password"}),
        ("/api/account/delete", {"password": PASSWORD}),
        ("/api/account/signin", {"username": "Ann", "password": PASSWORD}),  # login CSRF
        ("/api/account/signup", {"username": "Evil", "password": PASSWORD}),
        ("/api/tables", {"seats": [{}, {}]}),
    ]:
        r = client.post(path, json=body, headers=with_token)
        assert r.status_code == 403 and r.json()["code"] == "cross_origin", (path, r.text)
        # a browser that hides Origin still says where the request came from
        r = client.post(path, json=body, headers={"sec-fetch-site": "cross-site"})
        assert r.status_code == 403 and r.json()["code"] == "cross_origin", path
    # a form of another site cannot send JSON: a text body is not an account request
    form = json.dumps({"username": "Evil", "password": PASSWORD})
    r = client.post("/api/account/signup", content=form, headers={"content-type": "text/plain"})
    assert r.status_code == 422
    assert me(client)["username"] == "Ann"
    assert sign_in(client).status_code == 200  # the password was not changed
    assert rows(db, "SELECT count(*) FROM tables") == [(0,)]
    assert rows(db, "SELECT username FROM accounts") == [("Ann",)]


def test_a_signed_in_request_needs_its_session_s_token(client: TestClient, db: Path) -> None:
    csrf = sign_up(client, "Ann")["csrf"]
    same = {"origin": "http://testserver"}
    for token in (None, "", "x" * 43, csrf[:-1] + ("A" if csrf[-1] != "A" else "B")):
        headers = same if token is None else {**same, CSRF_HEADER: token}
        r = client.post("/api/account/delete", json={"password": PASSWORD}, headers=headers)
        assert r.status_code == 403 and r.json()["code"] == "csrf", r.text
        r = client.post("/api/tables", json={"seats": [{}, {}]}, headers=headers)
        assert r.status_code == 403 and r.json()["code"] == "csrf"
    assert me(client)["username"] == "Ann"
    assert rows(db, "SELECT count(*) FROM tables") == [(0,)]
    ok = client.post("/api/tables", json={"seats": [{}, {}]}, headers={**same, CSRF_HEADER: csrf})
    assert ok.status_code == 200 and ok.json()["seats"][0]["name"] == "Ann"
    # another account's token is no good either
    with accounts_client(db) as bob:
        bob_csrf = sign_up(bob, "Bob")["csrf"]
    r = client.post("/api/account/signout", headers={**same, CSRF_HEADER: bob_csrf})
    assert r.status_code == 403 and me(client)["username"] == "Ann"


def test_the_websocket_keeps_its_origin_check_with_a_session(client: TestClient) -> None:
    t = create(client, [{}, {}])
    sign_up(client, "Ann")
    with client.websocket_connect(f"/ws/{t['id']}", headers=EVIL) as ws:
        ws.send_text(json.dumps({"type": "hello", "seat": 0}))
        err = ws.receive_json()
        assert err["code"] == "origin"
        with pytest.raises(WebSocketDisconnect) as exc:
            ws.receive_json()
        assert exc.value.code == 4003


# -- abuse: brute-force sign-in --------------------------------------------------------------
def test_wrong_passwords_back_off_per_account(db: Path) -> None:
    with accounts_client(
        db, signin_free_failures=3, signin_backoff=2.0, signin_backoff_max=8.0
    ) as c:
        sign_up(c, "Ann")
        backoff = c.app.state.manager.accounts.backoff  # type: ignore[attr-defined]
        now = [1000.0]
        backoff.clock = lambda: now[0]
        for _ in range(3):  # the free ones
            assert sign_in(c, password="guess guess").status_code == 401
        assert sign_in(c, password="guess guess").status_code == 401  # waits 2 s now
        r = sign_in(c)  # even the right password waits
        assert r.status_code == 429 and r.json()["code"] == "signin_backoff"
        assert r.headers["retry-after"] == "2"
        now[0] += 2
        assert sign_in(c, password="guess guess").status_code == 401  # then 4 s
        now[0] += 3.9
        assert sign_in(c).status_code == 429
        now[0] += 0.1
        for wait in (8, 8):  # then 8 s, the cap
            assert sign_in(c, password="guess guess").status_code == 401
            assert sign_in(c).headers["retry-after"] == str(wait)
            now[0] += wait
        assert sign_in(c, "ANN").status_code == 200  # the same account, any case
        assert sign_in(c, password="guess guess").status_code == 401  # reset: free again
        # the back-off holds for names that do not exist, too (no enumeration)
        for _ in range(4):
            assert sign_in(c, "nobody", "guess guess").status_code == 401
        assert sign_in(c, "nobody", "guess guess").json()["code"] == "signin_backoff"
        # a password change's check counts the same way
        csrf = c.get("/api/account").json()["csrf"]
        for _ in range(4):
            c.post(
                "/api/account/password",
                json={"old": "guess guess", "new": "whatever it is"},
                headers={CSRF_HEADER: csrf},
            )
        r = c.post(
            "/api/account/password",
            json={"old": PASSWORD, "new": "whatever it is"},
            headers={CSRF_HEADER: csrf},
        )
        assert r.status_code == 429 and r.json()["code"] == "signin_backoff"


def test_sign_ins_and_sign_ups_are_limited_per_address(db: Path) -> None:
    with accounts_client(db, signin_per_minute=3, signups_per_minute=1) as c:
        sign_up(c, "Ann")
        r = c.post("/api/account/signup", json={"username": "Bob", "password": PASSWORD})
        assert r.status_code == 429 and r.json()["code"] == "rate_limited"
        assert int(r.headers["retry-after"]) >= 1
        for name in ("Ann", "Bob", "Cid"):  # right or wrong, each counts
            sign_in(c, name)
        r = sign_in(c)
        assert r.status_code == 429 and r.json()["code"] == "rate_limited"
        assert 1 <= int(r.headers["retry-after"]) <= 20
    # counted in the database, the address kept as a digest: a restart does not refill
    kept = rows(db, "SELECT kind, address FROM address_limits ORDER BY kind")
    assert kept == [("signin", digest("testclient")), ("signup", digest("testclient"))]
    with accounts_client(db, signin_per_minute=3, signups_per_minute=1) as c:
        assert sign_in(c).status_code == 429


def test_an_address_allowance_in_the_database_is_a_token_bucket(tmp_path: Path) -> None:
    """The shared count (``address_limits``) decides as :class:`TokenBucket` does, and
    waits as long, whichever of two stores on one database (two processes) takes:
    15 a minute, at times and on stores drawn at random (the figures are exact in
    binary, so the two agree to the last bit).  Kinds and addresses have their own
    buckets, a refusal spends nothing, and the sweep forgets only full buckets."""
    url = f"sqlite:///{tmp_path / 'limits.db'}"
    stores = [Store(url), Store(url)]
    try:
        one, other = (AccountStore(s) for s in stores)
        bucket = TokenBucket(15.0, 15.0 / 60.0, last=1000.0)
        draw = random.Random(32)
        now, refused = 1000.0, 0
        for _ in range(300):
            now += draw.choice([0.0, 0.0, 1.0, 2.0, 3.0, 4.0, 9.0])
            expected = 0.0 if bucket.take(now) else bucket.wait(now)
            refused += expected > 0
            got = draw.choice([one, other]).address_take("signin", "a" * 64, now, 15.0)
            assert got == expected, now
        assert 30 <= refused <= 270  # both answers were tried, many times
        # a minute on, the bucket is full again, row or not; another kind, another
        # address have their own: 15 at once each, then a wait of one interval
        now += 60.0
        for kind, address in (("signin", "a" * 64), ("signup", "a" * 64), ("signin", "b" * 64)):
            takes = [one.address_take(kind, address, now, 15.0) for _ in range(16)]
            assert takes == [*[0.0] * 15, 4.0], (kind, address)
        # under one a minute: one at a time
        assert one.address_take("signup", "c" * 64, now, 0.5) == 0.0
        assert one.address_take("signup", "c" * 64, now + 60, 0.5) == 60.0
        assert one.forget_address_limits(now + 59) == 0
        assert one.forget_address_limits(now + 60.5) == 3  # the 15-a-minute ones
        assert one.address_take("signin", "b" * 64, now + 61, 15.0) == 0.0
        assert other.forget_address_limits(now + 200) == 2
        assert rows(tmp_path / "limits.db", "SELECT * FROM address_limits") == []
    finally:
        for s in stores:
            s.close()


# -- abuse: confusable usernames -------------------------------------------------------------
@pytest.mark.parametrize(
    "squat",
    [
        "alice",  # case
        "ALICE",
        "AIice",  # capital i for the l
        "a1ice",  # digit one for the l
        "Ａｌｉｃｅ",  # fullwidth: NFKC makes it Alice itself
        "\u0410\u04c0\u0456\u0441\u0435",  # all Cyrillic: А Ӏ (palochka) і с е
    ],
)
def test_a_look_alike_of_a_taken_name_is_refused(client: TestClient, squat: str) -> None:
    sign_up(client, "Alice")
    r = client.post("/api/account/signup", json={"username": squat, "password": PASSWORD})
    assert r.status_code == 409 and r.json()["code"] == "username_taken", (squat, r.text)


def test_mixed_scripts_are_refused_and_distinct_names_allowed(db: Path) -> None:
    with accounts_client(db, signups_per_minute=0) as c:
        sign_up(c, "Alice")
        r = c.post("/api/account/signup", json={"username": "\u0430lice", "password": PASSWORD})
        assert r.status_code == 400 and r.json()["code"] == "username_scripts"  # Cyrillic а
        for name in ("Alicia", "Élise", "Ольга", "Αλέξης", "小明明", "bob_99"):
            sign_up(c, name)


def test_username_keys_meet_for_look_alikes_only() -> None:
    def clash(a: str, b: str) -> bool:
        return bool(username_keys(clean_username(a)) & username_keys(clean_username(b)))

    for a, b in [
        ("modern", "rnodern"),
        ("bob", "B0B"),
        ("paypal", "PAYPAL"),
        ("Ann", "ann"),
        ("oleg", "01eg"),
    ]:
        assert clash(a, b), (a, b)
    for a, b in [("alice", "alicia"), ("bob", "rob"), ("ann", "anne"), ("élise", "elise")]:
        assert not clash(a, b), (a, b)
    assert clean_username(" Ａｎｎ ") == "Ann"
    with pytest.raises(UsernameError):
        clean_username("ﬀoo\u0000")


# -- abuse: XSS through usernames ------------------------------------------------------------
def test_markup_cannot_be_a_username_and_the_page_never_parses_names_as_html(
    client: TestClient,
) -> None:
    for name in (
        "<script>alert(1)</script>",
        "<img src=x onerror=alert(1)>",
        'ann"><b>',
        "ann'--",
        "javascript:alert(1)",
        "ann&lt;",
    ):
        r = client.post("/api/account/signup", json={"username": name, "password": PASSWORD})
        assert r.status_code == 400 and r.json()["code"] in {"username_chars", "username_length"}
    # the page builds elements with textContent only (web/static/dom.js): no script
    # assigns HTML, so a name (a guest's may hold any text) is never markup
    sinks = re.compile(r"innerHTML|outerHTML|insertAdjacentHTML|document\.write|DOMParser")
    for js in STATIC.glob("*.js"):
        assert not sinks.search(js.read_text(encoding="utf-8")), js.name
    assert "script-src 'self'" in client.get("/").headers["content-security-policy"]


# -- abuse: another player's hidden data -----------------------------------------------------
def test_an_account_reaches_only_its_own_seat_and_data(db: Path) -> None:
    with accounts_client(db) as ann, accounts_client(db) as bob:
        csrf = sign_up(ann, "Ann")["csrf"]
        sign_up(bob, "Bob")
        t = ann.post(
            "/api/tables",
            json={"rules": "basic", "deals": 1, "seats": [{}, {"kind": "bot"}]},
            headers={CSRF_HEADER: csrf},
        ).json()
        # Bob's session is no key to Ann's seat
        with bob.websocket_connect(f"/ws/{t['id']}") as ws:
            ws.send_text(json.dumps({"type": "hello", "seat": 0}))
            err = ws.receive_json()
            assert err["code"] == "bad_secret"
            with pytest.raises(WebSocketDisconnect) as exc:
                ws.receive_json()
            assert exc.value.code == 4403
        with bob.websocket_connect(f"/ws/{t['id']}") as ws:  # watching hides the hands
            s = hello(ws)
            assert s["game"]["seat"] == -1 and not s["game"].get("hand")
        with ann.websocket_connect(f"/ws/{t['id']}") as ws:  # Ann's own, by her account
            ws.send_text(json.dumps({"type": "hello", "seat": 0}))
            s = until(ws, lambda m: m["type"] == "state")
            assert s["game"]["seat"] == 0 and s["game"]["hand"]
        # what the API tells of an account is its own name, to itself
        body = json.dumps([ann.get("/api/account").json(), bob.get("/api/account").json()])
        assert "Bob" in body and "Ann" in body
        ((ann_id,),) = rows(db, "SELECT id FROM accounts WHERE username = 'Ann'")
        public = json.dumps(
            [bob.get(f"/api/tables/{t['id']}").json(), bob.get("/api/tables").json()]
        )
        assert ann_id not in public and "argon2" not in public
        for answer in (bob.get("/api/account").text, ann.get("/api/account").text):
            assert ann_id not in answer and "argon2" not in answer
        # a signed-out browser with Ann's old cookie value gets nothing
        old = ann.cookies[SESSION_COOKIE]
        ann.post("/api/account/signout", headers={CSRF_HEADER: csrf})
        with accounts_client(db) as thief:
            plant(thief, old)
            assert me(thief) is None
            with thief.websocket_connect(f"/ws/{t['id']}") as ws:
                ws.send_text(json.dumps({"type": "hello", "seat": 0}))
                assert ws.receive_json()["code"] == "bad_secret"


def test_a_session_ends_after_session_days_and_the_sweep_deletes_it(db: Path) -> None:
    with accounts_client(db, session_days=0.5 / 86400) as c:  # half a second
        sign_up(c, "Ann")
        assert me(c)["username"] == "Ann"
        time.sleep(0.6)
        assert me(c) is None
        assert rows(db, "SELECT count(*) FROM sessions") == [(1,)]
        c.portal.call(c.app.state.manager.residency.sweep)  # type: ignore[union-attr,attr-defined]
        assert rows(db, "SELECT count(*) FROM sessions") == [(0,)]
        assert sign_in(c).status_code == 200

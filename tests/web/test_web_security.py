"""The web server against strangers (issue 15): seats belong to whoever was given
them, each client address and connection is limited, a hello costs one message,
chat is bounded, and no frame or body, however malformed, crashes a handler.

In process (FastAPI's TestClient) against a real SQLite file, like test_web_api."""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from rummykit.web import session as web_session
from rummykit.web.store import CHAT_KEEP, Store
from test_web_api import create, hello, make_client, move, until
from test_web_browser import CHROMIUM, browser, custom_table, new_page, server, state

__all__ = ["browser", "server"]  # fixtures of the browser test, for the lobby's test

WS = Any


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "web.db"


@pytest.fixture
def client(db: Path) -> Any:
    with make_client(db) as c:
        yield c


def say_hello(ws: WS, t: dict[str, Any] | None = None, seat: int | None = None) -> None:
    msg: dict[str, Any] = {"type": "hello"}
    if t is not None and seat is not None:
        msg.update(seat=seat, secret=t["seats"][seat]["secret"])
    ws.send_text(json.dumps(msg))


def refused(ws: WS) -> tuple[dict[str, Any], int]:
    """The error a refused socket gets, and its close code."""
    err: dict[str, Any] = ws.receive_json()
    assert err["type"] == "error", err
    with pytest.raises(WebSocketDisconnect) as exc:
        ws.receive_json()
    return err, exc.value.code


def drain_until_pong(ws: WS) -> list[dict[str, Any]]:
    """Every message up to the answer to a ping sent now."""
    ws.send_text('{"type": "ping"}')
    got = []
    while True:
        m: dict[str, Any] = ws.receive_json()
        if m["type"] == "pong":
            return got
        got.append(m)


# -- finding 2: seats ----------------------------------------------------------------------
def test_join_never_takes_the_creator_s_unnamed_seat(client: TestClient) -> None:
    """Issue 15, finding 2: the creator left the name blank, and ``join`` handed seat 0
    and a new secret to a stranger; the creator's own link then got ``bad_secret``."""
    r = client.post(
        "/api/tables", json={"seats": [{"kind": "human"}, {"kind": "bot"}], "public": True}
    )
    assert r.status_code == 200, r.text
    t = r.json()
    assert t["creator"]["seat"] == 0 and t["creator"]["secret"] == t["seats"][0]["secret"]
    stranger = client.post(f"/api/tables/{t['id']}/join", json={})
    assert stranger.status_code == 409, stranger.text
    assert not any(s["open"] for s in client.get(f"/api/tables/{t['id']}").json()["seats"])
    with client.websocket_connect(f"/ws/{t['id']}") as ws:
        assert hello(ws, t, 0)["game"]["seat"] == 0  # the creator's link still works


def test_join_never_takes_an_invited_seat_only_an_open_one(client: TestClient) -> None:
    """Issue 15, finding 2: an invited friend's unnamed seat could be taken by
    ``join``.  Only seats opened to the public at creation are handed out."""
    seats = [{"kind": "human", "name": "Ann"}, {"kind": "human"}, {"kind": "human", "open": True}]
    t = create(client, seats, public=True)
    assert t["seats"][1]["secret"] and t["seats"][2]["secret"] is None
    listed = client.get(f"/api/tables/{t['id']}").json()["seats"]
    assert [s["open"] for s in listed] == [False, False, True]
    j = client.post(f"/api/tables/{t['id']}/join", json={"name": "Cy"})
    assert j.status_code == 200 and j.json()["seat"] == 2
    assert client.post(f"/api/tables/{t['id']}/join", json={}).status_code == 409
    with (
        client.websocket_connect(f"/ws/{t['id']}") as friend,
        client.websocket_connect(f"/ws/{t['id']}") as joiner,
    ):
        assert hello(friend, t, 1)["game"]["seat"] == 1  # the invitation still works
        s = hello(joiner, {"seats": [{}, {}, {"secret": j.json()["secret"]}]}, 2)
        assert s["table"]["seats"][2]["name"] == "Cy"


def test_an_open_seat_is_human_on_a_public_table_and_has_no_secret_before_a_join(
    client: TestClient,
) -> None:
    bot = client.post("/api/tables", json={"seats": [{}, {"kind": "bot", "open": True}]})
    assert bot.status_code == 422 and "human" in bot.text
    private = client.post("/api/tables", json={"seats": [{}, {"open": True}]})
    assert private.status_code == 422 and "public" in private.text
    t = create(client, [{}, {"open": True}], public=True)
    for secret in ("", "x" * 32):
        with client.websocket_connect(f"/ws/{t['id']}") as ws:
            ws.send_text(json.dumps({"type": "hello", "seat": 1, "secret": secret}))
            err, code = refused(ws)
            assert err["code"] == "bad_secret" and code == 4403


def test_tables_stored_before_open_seats_hand_out_no_seat(db: Path) -> None:
    """A table stored before seats could be opened has no ``open`` mark: its unclaimed
    seats may be someone's invitation, so ``join`` leaves them alone."""
    with make_client(db) as c:
        t = create(c, [{"name": "Ann"}, {}], public=True)
    store = Store(f"sqlite:///{db}")
    stored = store.load_table(t["id"])
    assert stored is not None
    legacy = [{k: v for k, v in seat.items() if k != "open"} for seat in stored.seats]
    legacy[0]["claimed"] = legacy[1]["claimed"] = False  # as a blank name left them
    store.save_seats(t["id"], legacy, stored.state)
    store.close()
    with make_client(db) as c:
        assert c.post(f"/api/tables/{t['id']}/join", json={}).status_code == 409
        with c.websocket_connect(f"/ws/{t['id']}") as ws:
            assert hello(ws, t, 0)["game"]["seat"] == 0


# -- finding 3: limits per client address ------------------------------------------------
def test_tables_per_minute_per_address_answer_429(db: Path) -> None:
    """Issue 15, finding 3: 3,000 tables were created in 19 s from one address."""
    with make_client(db, tables_per_minute=3) as c:
        body = {"seats": [{}, {"kind": "bot"}]}
        assert [c.post("/api/tables", json=body).status_code for _ in range(3)] == [200] * 3
        r = c.post("/api/tables", json=body)
        assert r.status_code == 429
        assert "too many tables" in r.json()["detail"]
        assert 1 <= int(r.headers["retry-after"]) <= 20  # a token every 20 s
        assert c.get("/healthz").json()["tables"] == 3


def test_sockets_per_minute_per_address_close_with_4429(db: Path) -> None:
    with make_client(db, sockets_per_minute=2) as c:
        t = create(c, [{}, {"kind": "bot"}])
        for _ in range(2):
            with c.websocket_connect(f"/ws/{t['id']}") as ws:
                hello(ws)
        with c.websocket_connect(f"/ws/{t['id']}") as ws:
            say_hello(ws)
            err, code = refused(ws)
            assert err["code"] == "rate_limited" and code == 4429


# -- finding 3: one state per version, a cap on spectators ---------------------------------
def test_a_spectator_s_hello_sends_no_state_to_the_others(client: TestClient) -> None:
    """Issue 15, finding 3: each hello re-sent the whole state to every connection, so
    N spectators cost N^2 state messages.  Now a hello sends the newcomer its state;
    the others get nothing, and each version reaches each connection once."""
    t = create(client, [{}, {}])
    n = 8
    with client.websocket_connect(f"/ws/{t['id']}") as player:
        s = hello(player, t, 0)
        watchers = []
        try:
            for _ in range(n):
                w = client.websocket_connect(f"/ws/{t['id']}").__enter__()
                watchers.append(w)
                assert hello(w)["version"] == 0
            seen = drain_until_pong(player)
            assert [m["type"] for m in seen] == []
            assert client.get(f"/api/tables/{t['id']}").json()["spectators"] == n
            # one accepted move: exactly one state to each connection
            first = watchers[0]
            other = watchers[1]
            if s["game"]["current"] != 0:
                with client.websocket_connect(f"/ws/{t['id']}") as p1:
                    hello(p1, t, 1)
                    move(p1, 0, kind="draw_stock")
                    until(p1, lambda m: m["type"] == "state" and m["version"] == 1)
            else:
                move(player, 0, kind="draw_stock")
            for ws in (player, first, other):
                states = [m for m in drain_until_pong(ws) if m["type"] == "state"]
                assert [m["version"] for m in states] == [1], [m["version"] for m in states]
        finally:
            for w in watchers:
                w.__exit__(None, None, None)


def test_a_seat_s_arrival_is_a_light_presence_message(client: TestClient) -> None:
    t = create(client, [{}, {}])
    with client.websocket_connect(f"/ws/{t['id']}") as a:
        hello(a, t, 0)
        with client.websocket_connect(f"/ws/{t['id']}") as b:
            hello(b, t, 1)
            (p,) = drain_until_pong(a)
            assert p["type"] == "presence" and set(p) == {"type", "table"}
            assert p["table"]["seats"][1]["connected"]
            b.close()  # inside the block: leaving it would cancel the server's handler
            p = until(a, lambda m: m["type"] == "presence")
            assert not p["table"]["seats"][1]["connected"]


def test_spectators_per_table_are_capped(db: Path) -> None:
    with make_client(db, max_spectators=2) as c:
        t = create(c, [{}, {}])
        with (
            c.websocket_connect(f"/ws/{t['id']}") as w1,
            c.websocket_connect(f"/ws/{t['id']}") as w2,
        ):
            hello(w1)
            hello(w2)
            with c.websocket_connect(f"/ws/{t['id']}") as w3:
                say_hello(w3)
                err, code = refused(w3)
                assert err["code"] == "spectators_full" and code == 4503
            with c.websocket_connect(f"/ws/{t['id']}") as seated:  # players still come in
                assert hello(seated, t, 0)["game"]["seat"] == 0
        with c.websocket_connect(f"/ws/{t['id']}") as w4:  # room again
            assert hello(w4)["game"]["seat"] == -1


def test_a_seat_keeps_its_newest_connections_only(db: Path) -> None:
    """Without a cap per seat, anyone could create a table and open sockets on their
    own seat without end, past the spectator cap."""
    with make_client(db, max_seat_sockets=1) as c:
        t = create(c, [{}, {}])
        with c.websocket_connect(f"/ws/{t['id']}") as old:
            hello(old, t, 0)
            with c.websocket_connect(f"/ws/{t['id']}") as new:
                assert hello(new, t, 0)["game"]["seat"] == 0
                err, code = refused(old)
                assert err["code"] == "replaced" and code == 4409
                assert drain_until_pong(new) == []  # the seat stayed connected
        assert c.get(f"/api/tables/{t['id']}").json()["seats"][0]["connected"] is False


# -- finding 3: chat ---------------------------------------------------------------------------
def chat(ws: WS, text: str) -> None:
    ws.send_text(json.dumps({"type": "chat", "text": text}))


def test_chat_is_rate_limited_per_seat(db: Path) -> None:
    with make_client(db, chat_burst=3, chat_rate=0.001) as c:
        t = create(c, [{}, {}])
        with c.websocket_connect(f"/ws/{t['id']}") as a:
            hello(a, t, 0)
            for i in range(5):
                chat(a, f"line {i}")
            got = drain_until_pong(a)
            lines = [m["text"] for m in got if m["type"] == "chat"]
            errors = [m["code"] for m in got if m["type"] == "error"]
            assert lines == ["line 0", "line 1", "line 2"] and errors == ["rate_limited"] * 2


def test_spectators_chat_only_where_the_table_allows_it(client: TestClient) -> None:
    closed = create(client, [{}, {}])
    with client.websocket_connect(f"/ws/{closed['id']}") as w:
        hello(w)
        chat(w, "hello from the rail")
        assert [m.get("code") for m in drain_until_pong(w)] == ["chat_closed"]
    open_ = create(client, [{}, {}], spectator_chat=True)
    assert client.get(f"/api/tables/{open_['id']}").json()["spectator_chat"] is True
    with client.websocket_connect(f"/ws/{open_['id']}") as w:
        hello(w)
        chat(w, "hello from the rail")
        (m,) = drain_until_pong(w)
        assert m == {"type": "chat", "seat": -1, "name": "spectator", "text": "hello from the rail"}


def test_stored_chat_is_bounded_per_table(client: TestClient, db: Path) -> None:
    """Issue 15, finding 3: every line was kept forever (20 sockets in 10 s stored
    3,840 rows).  The store keeps the last CHAT_KEEP lines of each table."""
    t = create(client, [{}, {}])
    other = create(client, [{}, {}])
    with (
        client.websocket_connect(f"/ws/{t['id']}") as a,
        client.websocket_connect(f"/ws/{other['id']}") as b,
    ):
        hello(a, t, 0)
        hello(b, other, 0)
        chat(b, "kept")
        for i in range(CHAT_KEEP + 15):
            chat(a, f"line {i}")
        drain_until_pong(a)
        drain_until_pong(b)
    store = Store(f"sqlite:///{db}")
    rows = store.chat(t["id"], limit=10_000)
    assert len(rows) == CHAT_KEEP
    assert rows[0].text == "line 15" and rows[-1].text == f"line {CHAT_KEEP + 14}"
    assert [r.text for r in store.chat(other["id"])] == ["kept"]
    store.close()


# -- finding 6: WebSocket input ------------------------------------------------------------------
MALFORMED = [
    "[" * 5000,
    "{" * 3000,
    '{"a":' * 1500,
    "1" * 5000,
    json.dumps({"type": "move", "move": {"kind": "pass"}})[:-1]
    + ', "version": '
    + "9" * 5000
    + "}",
    '{"type": "move", "version": NaN, "move": {"kind": "pass"}}',
    '{"type": "move", "version": Infinity, "move": {"kind": "pass"}}',
    '{"type": "move", "version": 1e999, "move": {"kind": "pass"}}',
    "NaN",
    "-Infinity",
    "null",
    "true",
    '"hello"',
    "12",
    "[]",
    "",
    " ",
    "\x00",
    '{"type": ["hello"]}',
    '{"type": {"hello": 1}}',
    '{"type": null}',
    '{"type": "move", "version": true, "move": {"kind": "pass"}}',
    '{"type": "move", "version": 0.0, "move": {"kind": "pass"}}',
    '{"type": "move", "version": "0", "move": {"kind": "pass"}}',
    '{"type": "move", "version": 0, "move": "pass"}',
    '{"type": "move", "version": 0, "move": {"kind": "discard", "card": true}}',
    '{"type": "move", "version": 0, "move": {"kind": "meld", "cards": "1,2,3"}}',
    '{"type": "move", "version": 0, "move": {"kind": "meld", "cards": [1.0, 2, 3]}}',
    '{"type": "move", "version": 0, "move": {"kind": "take", "meld": false, "index": 0}}',
    '{"type": "move", "version": 0, "move": {"kind": "text", "text": 5}}',
    '{"type": "move", "version": 0, "move": {"kind": "pass"}, "id": 7}',
    '{"type": "hint", "version": false}',
    '{"type": "rematch", "version": []}',
    '{"type": "chat", "text": 1}',
    '{"type": "chat", "text": ["a"]}',
    '{"type": "hello", "seat": "0"}',
    '{"type": "hello", "seat": true, "secret": "x"}',
    '{"type": "hello", "name": 3}',
]


def _is_json(raw: str) -> bool:
    """Valid JSON as the standard has it (no NaN, no number too long to convert)."""
    try:
        json.loads(raw, parse_constant=lambda c: 1 / 0)
    except (ValueError, ZeroDivisionError):
        return False
    return True


ERROR_CODES = {"bad_json", "invalid_message", "bad_message", "unknown_type", "already_joined"}


@pytest.mark.parametrize("joined", [False, True])
def test_malformed_frames_get_an_error_and_the_socket_stays(
    client: TestClient, caplog: pytest.LogCaptureFixture, joined: bool
) -> None:
    """Issue 15, finding 6: ``"["*5000`` or a 5,000-digit number raised out of the
    parser, dropped the socket without a close code and logged a traceback; ``"version":
    true`` was read as 1.  Every frame now gets one error, before and after hello, and
    nothing is logged."""
    caplog.set_level(logging.DEBUG)
    t = create(client, [{}, {}])
    with client.websocket_connect(f"/ws/{t['id']}") as ws:
        if joined:
            hello(ws, t, 0)
        for raw in MALFORMED:
            ws.send_text(raw)
            m = ws.receive_json()
            assert m["type"] == "error", (raw[:60], m)
            assert m["code"] in ERROR_CODES | ({"hello_first"} if not joined else set()), (
                raw[:60],
                m,
            )
            if joined and raw.startswith('{"type": "move"') and _is_json(raw):
                assert m["code"] == "invalid_message", (raw[:60], m)
        ws.send_text('{"type": "ping"}')
        if not joined:
            assert ws.receive_json()["code"] == "hello_first"
            hello(ws)
            ws.send_text('{"type": "ping"}')
        assert ws.receive_json()["type"] == "pong"
    assert client.get(f"/api/tables/{t['id']}").json()["version"] == 0
    tracebacks = [r for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR]
    assert tracebacks == []


def test_types_are_strict_a_bool_is_not_a_version(client: TestClient) -> None:
    """Issue 15, finding 6: ``"version": true`` was read as version 1 (and ``false``
    as 0): a move at version 0 sent with ``false`` was played."""
    t = create(client, [{}, {}])
    current = client.get(f"/api/tables/{t['id']}").json()
    with client.websocket_connect(f"/ws/{t['id']}") as ws:
        seat = hello(ws)["game"]["current"]
    with client.websocket_connect(f"/ws/{t['id']}") as ws:
        assert hello(ws, t, seat)["version"] == current["version"] == 0
        for version in (False, 0.0, "0"):
            msg = {"type": "move", "version": version, "move": {"kind": "draw_stock"}}
            ws.send_text(json.dumps(msg))
            err = ws.receive_json()
            assert err["code"] == "invalid_message" and "version" in err["message"], err
        assert drain_until_pong(ws) == []
    assert client.get(f"/api/tables/{t['id']}").json()["version"] == 0


# -- finding 6: the Origin check ------------------------------------------------------------------
@pytest.mark.parametrize(
    "origin", ["https://evil.example", "http://testserver.evil.example", "null", "file://"]
)
def test_a_foreign_origin_is_refused_with_4003(client: TestClient, origin: str) -> None:
    """Issue 15, finding 6: any web site could open spectator sockets and chat."""
    t = create(client, [{}, {}])
    with client.websocket_connect(f"/ws/{t['id']}", headers={"origin": origin}) as ws:
        say_hello(ws)
        err, code = refused(ws)
        assert err["code"] == "origin" and code == 4003
    assert client.get(f"/api/tables/{t['id']}").json()["spectators"] == 0


def test_the_own_origin_configured_ones_and_none_are_allowed(db: Path) -> None:
    with make_client(db, allowed_origins=("https://play.example:8443",)) as c:
        t = create(c, [{}, {}])
        for headers in (
            {},
            {"origin": "http://testserver"},
            {"origin": "HTTPS://Play.Example:8443"},
        ):
            with c.websocket_connect(f"/ws/{t['id']}", headers=headers) as ws:
                assert hello(ws)["game"]["seat"] == -1
        with c.websocket_connect(
            f"/ws/{t['id']}", headers={"origin": "https://play.example"}
        ) as ws:
            say_hello(ws)
            assert refused(ws)[1] == 4003


# -- finding 6: HTTP input ---------------------------------------------------------------------
@pytest.mark.parametrize(
    "body",
    [
        '{"seats": [{}, {}], "timer": NaN}',
        '{"seats": [{}, {}], "timer": Infinity}',
        '{"seats": [{}, {}], "timer": -Infinity}',
        '{"seats": [{}, {}], "target": NaN}',
        '{"seats": NaN}',
        '{"seats": [{}, NaN]}',
        '{"seats": [{"name": NaN}, {}]}',
        '{"seats": [{}, {}], "surprise": NaN}',
        '{"seats": [{}, {}], "deals": true}',
        '{"seats": [{}, {}], "deals": 2.0}',
        '{"seats": [{}, {}], "public": "yes"}',
        '{"seats": [{}, {}], "timer": "30"}',
        '{"seats": [{}, {}], "rules": 5}',
    ],
)
def test_nan_anywhere_or_a_loose_type_in_a_body_gets_422(client: TestClient, body: str) -> None:
    """Issue 15, finding 6: ``"timer": NaN`` answered 500 (the 422 answer echoed the NaN,
    which cannot be encoded)."""
    r = client.post("/api/tables", content=body, headers={"content-type": "application/json"})
    assert r.status_code == 422, r.text
    assert r.json()["detail"][0]["msg"]
    assert client.get("/healthz").json()["tables"] == 0


def test_nan_in_a_join_and_unparsable_bodies_never_answer_500(client: TestClient) -> None:
    t = create(client, [{}, {}], public=True)
    headers = {"content-type": "application/json"}
    join = f"/api/tables/{t['id']}/join"
    assert client.post(join, content='{"name": NaN}', headers=headers).status_code == 422
    for body in ["[" * 5000, '{"seats": ' + "1" * 5000 + "}", "{", "\xff"]:
        r = client.post("/api/tables", content=body, headers=headers)
        assert r.status_code in (400, 422), (body[:20], r.status_code)
    assert client.get("/healthz").json()["tables"] == 1


def test_the_timer_still_takes_whole_seconds(client: TestClient) -> None:
    t = create(client, [{}, {}], timer=30)
    assert client.get(f"/api/tables/{t['id']}").json()["timer"] == 30


def test_openapi_json_is_off_unless_asked_for(client: TestClient, db: Path) -> None:
    """Issue 15, finding 6: /openapi.json was served although the docs pages are off."""
    assert client.get("/openapi.json").status_code == 404
    assert client.get("/docs").status_code == 404
    with make_client(db.with_name("other.db"), openapi=True) as c:
        assert c.get("/openapi.json").json()["info"]["title"] == "rummykit"


def test_close_codes_are_distinct() -> None:
    codes = [
        web_session.CLOSE_ORIGIN,
        web_session.CLOSE_BAD_SECRET,
        web_session.CLOSE_NOT_FOUND,
        web_session.CLOSE_REPLACED,
        web_session.CLOSE_TOO_MANY_SOCKETS,
        web_session.CLOSE_SPECTATORS_FULL,
    ]
    assert len(set(codes)) == len(codes) and all(4000 <= c < 5000 for c in codes)


# -- the lobby page ------------------------------------------------------------------------------
@pytest.mark.web_slow
@pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="chromium is not installed")
def test_the_lobby_opens_a_seat_to_anyone_and_a_stranger_takes_that_one(
    server: Any, browser: Any
) -> None:
    """Issue 15, finding 2, in the browser: the lobby's "anyone (public)" seat is the
    one a stranger's Join button takes; the creator keeps seat 0, and sees the
    stranger arrive through a ``presence`` message (no new state)."""
    a = new_page(browser)
    a.goto(server.base + "/")
    custom_table(a)
    a.fill("#my-name", "Ann")
    a.select_option(".seat-kind", "open")
    a.click("#create-btn")  # no invitation to hand out: straight to my seat
    a.wait_for_function("window.rummy && window.rummy.state !== null", timeout=15000)
    mine = state(a)
    assert mine["game"]["seat"] == 0 and mine["table"]["seats"][1]["open"]
    b = new_page(browser)
    b.goto(server.base + "/")
    b.click(".join")
    b.wait_for_function("window.rummy && window.rummy.state !== null", timeout=15000)
    assert state(b)["game"]["seat"] == 1
    a.wait_for_function("window.rummy.state.table.seats[1].connected", timeout=15000)
    assert state(a)["version"] == mine["version"] and state(a)["game"]["seat"] == 0
    assert not state(a)["table"]["seats"][1]["open"]
    for p in (a, b):
        p.context.close()


@pytest.mark.web_slow
def test_a_spectator_that_stops_reading_cannot_freeze_the_table(tmp_path: Path) -> None:
    """A broadcast waits for every send: a socket that never reads filled its buffers
    and then froze a 4-bot table for good (found after issue 15: version 1,480 for 25
    s).  Now the client is disconnected after ``send_timeout`` and the table plays
    on to the end while a reading spectator follows it."""
    import contextlib
    import socket
    import time

    import httpx
    from websockets.sync.client import connect

    from rummykit.web import Settings
    from web_helpers import Client, ServerThread

    settings = Settings(
        database_url=f"sqlite:///{tmp_path / 'slow.db'}",
        bot_delay=0.0,
        bot_workers=0,
        send_timeout=1.0,
    )
    with ServerThread(settings) as srv:
        # quick bots, to fill the socket's buffers sooner
        body = {"rules": "rami51(deals=200)", "seats": [{"kind": "bot", "difficulty": "easy"}] * 4}
        t = httpx.post(srv.base + "/api/tables", json=body).json()
        sock = socket.socket()
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 2048)  # before connecting
        sock.connect(("127.0.0.1", srv.port))
        stalled = connect(f"ws://127.0.0.1:{srv.port}/ws/{t['id']}", sock=sock, legacy=True)
        stalled.send(json.dumps({"type": "hello"}))  # and never reads again
        watcher = Client(srv.base, t["id"])
        watcher.send({"type": "hello"})
        end = time.monotonic() + 90
        while httpx.get(srv.base + f"/api/tables/{t['id']}").json()["spectators"] > 1:
            assert time.monotonic() < end, "the stalled client was never dropped"
            reading = time.monotonic() + 0.5  # the watcher keeps reading, as a page does
            with contextlib.suppress(TimeoutError):
                while time.monotonic() < reading:
                    watcher.recv(0.2)
        # Dropped (its buffers were full, so the table had been waiting on it): the
        # table plays on, and the reading spectator sees it.
        assert watcher.state is not None
        v = watcher.state["version"]
        watcher.until(lambda m: m["type"] == "state" and m["version"] > v + 20, timeout=30)
        watcher.close()
        stalled.close()

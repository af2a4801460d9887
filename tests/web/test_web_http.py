"""HTTP hygiene against strangers (issue 27, findings 7, 8, 10 and 11): a body's size
is checked before it is read, the server answers only to the host names it serves
(DNS rebinding), a client address comes from X-Forwarded-For only through a
configured proxy, and chat lines are counted per seat or address, not per socket.

Real servers: FastAPI's TestClient on a real SQLite file, uvicorn in a thread on
127.0.0.1 for the raw HTTP cases, and ``python -m rummykit.web`` as a child process
for the forwarded headers (only the served command line decides whom to trust)."""

from __future__ import annotations

import json
import socket
from pathlib import Path
from typing import Any

import httpx
import pytest
from starlette.websockets import WebSocketDisconnect

from rummykit.web import Settings
from test_web_api import create, hello, make_client
from web_helpers import ServerProcess, ServerThread

BODY = {"rules": "basic", "deals": 1, "seats": [{}, {"kind": "bot"}]}


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "web.db"


def open_settings(db: Path, **kw: Any) -> Settings:
    opts: dict[str, Any] = {
        "database_url": f"sqlite:///{db}", "bot_delay": 0.0, "bot_workers": 0,
        "tables_per_minute": 0, "sockets_per_minute": 0,
    }  # fmt: skip
    opts.update(kw)
    return Settings(**opts)


def raw_post(port: int, head: dict[str, str], parts: list[bytes]) -> tuple[int, dict[str, Any]]:
    """POST ``/api/tables`` over a plain socket: the headers, then ``parts`` as they
    are (no terminating chunk, no more than they hold), then the server's answer.  A
    server that waits for the rest of the body never answers: the read times out
    (a generous bound, 10 s)."""
    lines = ["POST /api/tables HTTP/1.1", f"Host: 127.0.0.1:{port}"]
    lines += [f"{k}: {v}" for k, v in head.items()]
    with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
        s.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
        for p in parts:
            s.sendall(p)
        data = b""
        while b"\r\n\r\n" not in data:
            data += s.recv(65536)
        top, _, rest = data.partition(b"\r\n\r\n")
        length = next(
            int(line.split(b":", 1)[1])
            for line in top.split(b"\r\n")
            if line.lower().startswith(b"content-length:")
        )
        while len(rest) < length:
            rest += s.recv(65536)
    return int(top.split()[1]), json.loads(rest[:length])


def chunk(data: bytes) -> bytes:
    return f"{len(data):x}\r\n".encode() + data + b"\r\n"


# -- finding 7: the body limit --------------------------------------------------------------
def test_a_declared_huge_body_is_refused_413_before_it_is_read(db: Path) -> None:
    """Issue 27, finding 7: a 200 MB body to ``POST /api/tables`` was read and parsed
    whole (peak memory +400 MB).  Claiming 200 MB and sending 1 KiB gets its answer
    at once: nothing waits for the rest."""
    with ServerThread(open_settings(db)) as srv:
        head = {"Content-Type": "application/json", "Content-Length": str(200 * 2**20)}
        status, body = raw_post(srv.port, head, [b" " * 1024])
        assert status == 413, body
        assert body["code"] == "body_too_large" and "16384 bytes" in body["detail"]
        assert httpx.get(srv.base + "/healthz").json()["tables"] == 0


def test_a_chunked_body_is_cut_off_at_the_limit(db: Path) -> None:
    """Without Content-Length (chunked), the body is counted as it comes: 20 KiB of a
    body without end gets 413, though the body never ends."""
    with ServerThread(open_settings(db)) as srv:
        head = {"Content-Type": "application/json", "Transfer-Encoding": "chunked"}
        status, body = raw_post(srv.port, head, [chunk(b" " * 4096) for _ in range(5)])
        assert status == 413 and body["code"] == "body_too_large", body


def test_a_body_within_the_limit_is_served_and_the_limit_is_a_setting(db: Path) -> None:
    small = json.dumps(BODY).encode()
    with ServerThread(open_settings(db, max_body=len(small))) as srv:
        head = {"Content-Type": "application/json", "Transfer-Encoding": "chunked"}
        status, body = raw_post(srv.port, head, [chunk(small), b"0\r\n\r\n"])
        assert status == 200 and body["id"], body
        r = httpx.post(srv.base + "/api/tables", content=small + b" ")
        assert r.status_code == 413


def test_refused_and_invalid_creations_count_against_the_address_s_tables(db: Path) -> None:
    """Issue 27, finding 7: only valid requests were counted, so one address could
    send bodies to parse without end.  Each attempt takes a token: a body too large
    (413), an invalid one (422), and then a valid one is over the limit."""
    with make_client(db, tables_per_minute=2) as c:
        too_big = c.post(
            "/api/tables", content=b" " * 20000, headers={"content-type": "application/json"}
        )
        assert too_big.status_code == 413
        assert c.post("/api/tables", json={"seats": "no"}).status_code == 422
        r = c.post("/api/tables", json=BODY)
        assert r.status_code == 429 and "too many tables" in r.json()["detail"]
        assert int(r.headers["retry-after"]) >= 1
        assert c.get("/healthz").json()["tables"] == 0


# -- finding 8: allowed hosts ---------------------------------------------------------------
def test_a_rebound_host_name_is_refused_on_http_and_websocket(db: Path) -> None:
    """Issue 27, finding 8: with ``Host: evil.example:PORT`` and ``Origin:
    http://evil.example:PORT`` (a page whose name the attacker pointed at this server:
    DNS rebinding) the Origin check passed, as it trusted the Host header."""
    with make_client(db) as c:
        t = create(c, [{}, {}])
        evil = {"host": "evil.example:8000", "origin": "http://evil.example:8000"}
        r = c.get(f"/api/tables/{t['id']}", headers=evil)
        assert r.status_code == 400 and r.json()["code"] == "bad_host"
        assert c.post("/api/tables", json=BODY, headers=evil).status_code == 400
        with (
            pytest.raises(WebSocketDisconnect),
            c.websocket_connect(f"/ws/{t['id']}", headers=evil) as ws,
        ):
            hello(ws)
        assert c.get(f"/api/tables/{t['id']}").json()["spectators"] == 0


def test_loopback_ip_addresses_and_listed_hosts_are_served(db: Path) -> None:
    with make_client(db, allowed_hosts=("testserver", "play.example", ".rummy.example")) as c:
        t = create(c, [{}, {}])
        for host in (
            "testserver", "localhost:8000", "127.0.0.1:8000", "[::1]:8000", "10.1.2.3",
            "PLAY.example:443", "play.example.", "rummy.example", "eu.rummy.example",
        ):  # fmt: skip
            r = c.get(f"/api/tables/{t['id']}", headers={"host": host})
            assert r.status_code == 200, (host, r.text)
        for host in ("evil.example", "play.example.evil", "xrummy.example", "", "a b", "[::1"):
            r = c.get(f"/api/tables/{t['id']}", headers={"host": host})
            assert r.status_code == 400, host
        ws_headers = {"host": "play.example:8443", "origin": "https://play.example:8443"}
        with c.websocket_connect(f"/ws/{t['id']}", headers=ws_headers) as ws:
            assert hello(ws)["game"]["seat"] == -1


def test_the_origin_must_name_an_allowed_host_as_well_as_the_request_s_host() -> None:
    """The page's origin is compared with the allowed hosts, not with the Host header
    alone: a rebound name fails even when Origin and Host agree."""
    from rummykit.web.origin import HostCheck, origin_allowed

    hosts = HostCheck(("play.example",))
    assert origin_allowed("http://play.example:8000", "play.example:8000", (), hosts)
    assert origin_allowed("http://127.0.0.1:8000", "127.0.0.1:8000", (), hosts)
    assert not origin_allowed("http://evil.example:8000", "evil.example:8000", (), hosts)
    assert not origin_allowed("http://10.6.6.6:8000", "127.0.0.1:8000", (), hosts)
    assert origin_allowed("https://evil.example", "evil.example", ("https://evil.example",))
    assert origin_allowed(None, "evil.example", (), hosts)  # no browser sent it


def test_a_real_server_refuses_a_foreign_host_header(db: Path) -> None:
    with ServerThread(open_settings(db)) as srv:
        assert httpx.get(srv.base + "/healthz").status_code == 200
        r = httpx.get(srv.base + "/healthz", headers={"Host": f"evil.example:{srv.port}"})
        assert r.status_code == 400 and r.json()["code"] == "bad_host"
        r = httpx.get(f"http://localhost:{srv.port}/healthz")
        assert r.status_code == 200


def test_the_name_a_server_listens_on_is_served(tmp_path: Path) -> None:
    """``rummy serve --host NAME`` answers to NAME without listing it."""
    name = socket.gethostname().lower()
    try:
        address = socket.gethostbyname(name)
    except OSError:
        pytest.skip(f"{name} does not resolve")
    if address != "127.0.0.1" or name == "localhost":
        pytest.skip(f"{name} is not another name of 127.0.0.1")
    url = f"sqlite:///{tmp_path / 'named.db'}"
    server = ServerProcess(url, args=["--host", name, "--bot-workers", "0"]).start()
    try:
        for host, status in ((name, 200), ("other.example", 400)):
            r = httpx.get(server.base + "/healthz", headers={"Host": f"{host}:{server.port}"})
            assert r.status_code == status, host
    finally:
        server.stop()


# -- finding 10: forwarded headers ------------------------------------------------------------
def _create_as(base: str, forwarded_for: str) -> int:
    headers = {"X-Forwarded-For": forwarded_for}
    return httpx.post(base + "/api/tables", json=BODY, headers=headers, timeout=10).status_code


def test_a_forged_x_forwarded_for_does_not_change_the_address_without_a_proxy(
    tmp_path: Path,
) -> None:
    """Issue 27, finding 10: uvicorn believed X-Forwarded-For from 127.0.0.1 by
    default, so a local client could claim a new address, and a fresh bucket, per
    request.  With no proxy configured the header is ignored."""
    url = f"sqlite:///{tmp_path / 'fwd.db'}"
    server = ServerProcess(url, args=["--tables-per-minute", "1", "--bot-workers", "0"]).start()
    try:
        assert _create_as(server.base, "203.0.113.1") == 200
        assert _create_as(server.base, "203.0.113.2") == 429  # the same peer, 127.0.0.1
    finally:
        server.stop()


def test_a_configured_proxy_names_the_client(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'proxy.db'}"
    args = ["--tables-per-minute", "1", "--bot-workers", "0", "--forwarded-allow-ips", "127.0.0.1"]
    server = ServerProcess(url, args=args).start()
    try:
        assert _create_as(server.base, "203.0.113.1") == 200
        assert _create_as(server.base, "203.0.113.1") == 429
        assert _create_as(server.base, "203.0.113.2") == 200  # another client behind it
    finally:
        server.stop()


# -- finding 11: chat per seat or address ---------------------------------------------------------
def _chat_results(ws: Any, lines: list[str]) -> list[str]:
    """What became of each line: ``"ok"`` (echoed back) or the error's code."""
    out = []
    for text in lines:
        ws.send_text(json.dumps({"type": "chat", "text": text}))
        while True:
            m = ws.receive_json()
            if m["type"] == "chat" and m["text"] == text:
                out.append("ok")
                break
            if m["type"] == "error":
                out.append(m["code"])
                break
    return out


def test_reconnecting_brings_a_seat_no_more_chat_lines(db: Path) -> None:
    """Issue 27, finding 11: each new socket came with a full allowance of chat lines,
    so a player could reconnect for five more as often as they liked."""
    with make_client(db, chat_burst=3, chat_rate=0.001) as c:
        t = create(c, [{}, {}])
        with c.websocket_connect(f"/ws/{t['id']}") as a:
            hello(a, t, 0)
            assert _chat_results(a, ["a1", "a2"]) == ["ok", "ok"]
        with c.websocket_connect(f"/ws/{t['id']}") as b, c.websocket_connect(f"/ws/{t['id']}") as d:
            hello(b, t, 0)
            hello(d, t, 0)
            assert _chat_results(b, ["b1"]) == ["ok"]
            assert _chat_results(d, ["d1"]) == ["rate_limited"]
        with c.websocket_connect(f"/ws/{t['id']}") as e:  # the other seat has its own
            hello(e, t, 1)
            assert _chat_results(e, ["e1", "e2", "e3", "e4"]) == ["ok"] * 3 + ["rate_limited"]


def test_reconnecting_brings_a_spectator_s_address_no_more_chat_lines(db: Path) -> None:
    with make_client(db, chat_burst=2, chat_rate=0.001) as c:
        t = create(c, [{}, {}], spectator_chat=True)
        for expected in (["ok", "ok", "rate_limited"], ["rate_limited"]):
            with c.websocket_connect(f"/ws/{t['id']}") as ws:
                hello(ws)
                assert _chat_results(ws, ["x"] * len(expected)) == expected

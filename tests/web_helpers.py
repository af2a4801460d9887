"""Helpers for the web tests: servers on loopback ports, a throwaway PostgreSQL
cluster, and a small synchronous WebSocket client."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import uvicorn
from websockets.sync.client import ClientConnection, connect

from rummykit.web import Settings, create_app

PG_BIN = max(
    (p.parent for p in Path("/usr/lib/postgresql").glob("*/bin/initdb")),
    key=lambda p: int(p.parent.name) if p.parent.name.isdigit() else 0,
    default=Path("/usr/lib/postgresql/15/bin"),
)
"""The newest Debian PostgreSQL server binaries installed."""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_http(url: str, timeout: float = 20.0) -> None:
    end = time.monotonic() + timeout
    while True:
        try:
            if httpx.get(url, timeout=1.0).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        if time.monotonic() > end:
            raise TimeoutError(f"{url} did not answer")
        time.sleep(0.05)


class ServerThread:
    """uvicorn in a thread of the test process (so coverage sees the server code)."""

    def __init__(self, settings: Settings) -> None:
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        config = uvicorn.Config(
            create_app(settings), host="127.0.0.1", port=self.port, log_level="warning",
            ws_max_size=65536,
        )  # fmt: skip
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def __enter__(self) -> ServerThread:
        self.thread.start()
        wait_http(self.base + "/healthz")
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)


class ServerProcess:
    """``python -m rummykit.web`` as a child process, to be killed for real."""

    def __init__(self, database_url: str, port: int | None = None) -> None:
        self.port = port or free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.database_url = database_url
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> ServerProcess:
        cmd = [
            sys.executable, "-m", "rummykit.web", "--port", str(self.port),
            "--database", self.database_url, "--bot-delay", "0", "--log-level", "warning",
        ]  # fmt: skip
        self.proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        try:
            wait_http(self.base + "/healthz")
        except TimeoutError:
            self.proc.kill()
            err = self.proc.communicate()[1].decode(errors="replace")
            raise RuntimeError(f"server did not start: {err[-2000:]}") from None
        return self

    def kill(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=10)

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:  # pragma: no cover
                self.proc.kill()
                self.proc.wait()


@contextlib.contextmanager
def postgres_cluster() -> Iterator[str]:
    """A throwaway PostgreSQL cluster on a free loopback port; yields its URL.

    PostgreSQL refuses to run as root, so as root the cluster belongs to the
    ``postgres`` system user (or ``nobody``).  The directory is removed afterwards.
    """
    if not (PG_BIN / "initdb").exists():
        subprocess.run(
            ["apt-get", "install", "-y", "postgresql-15"], check=True, capture_output=True
        )
    tmp = Path(tempfile.mkdtemp(prefix="rummy-pg-"))
    data = tmp / "data"
    port = free_port()
    prefix: list[str] = []
    if os.geteuid() == 0:
        user = "postgres"
        try:
            import pwd

            pwd.getpwnam(user)
        except KeyError:  # pragma: no cover
            user = "nobody"
        shutil.chown(tmp, user)
        os.chmod(tmp, 0o700)
        prefix = ["runuser", "-u", user, "--"]
    try:
        subprocess.run(
            [*prefix, str(PG_BIN / "initdb"), "-D", str(data), "-U", "rummy", "-A", "trust",
             "--no-sync", "-E", "UTF8"],
            check=True, capture_output=True,
        )  # fmt: skip
        opts = f"-c listen_addresses=127.0.0.1 -p {port} -k {tmp} -c fsync=off"
        subprocess.run(
            [*prefix, str(PG_BIN / "pg_ctl"), "-D", str(data), "-o", opts, "-w", "-l",
             str(tmp / "log"), "start"],
            check=True, capture_output=True,
        )  # fmt: skip
        try:
            yield f"postgresql://rummy@127.0.0.1:{port}/postgres"
        finally:
            subprocess.run(
                [*prefix, str(PG_BIN / "pg_ctl"), "-D", str(data), "-m", "immediate", "stop"],
                capture_output=True,
            )
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


class Client:
    """One WebSocket client: sends JSON, remembers every message it got."""

    def __init__(self, base: str, table_id: str) -> None:
        url = base.replace("http://", "ws://") + f"/ws/{table_id}"
        conn = connect(url, max_size=2**22, open_timeout=10, legacy=True)
        assert isinstance(conn, ClientConnection)
        self.ws = conn
        self.messages: list[dict[str, Any]] = []
        self.state: dict[str, Any] | None = None

    def send(self, msg: dict[str, Any] | str) -> None:
        self.ws.send(msg if isinstance(msg, str) else json.dumps(msg))

    def recv(self, timeout: float = 10.0) -> dict[str, Any]:
        msg: dict[str, Any] = json.loads(self.ws.recv(timeout=timeout))
        self.messages.append(msg)
        if msg["type"] == "state":
            self.state = msg
        return msg

    def until(self, pred: Any, timeout: float = 20.0) -> dict[str, Any]:
        end = time.monotonic() + timeout
        while True:
            msg = self.recv(max(0.01, end - time.monotonic()))
            if pred(msg):
                return msg

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.ws.close()

"""Helpers for the web tests: servers on loopback ports, a throwaway PostgreSQL
cluster, HAProxy in front of server processes, and a small synchronous WebSocket
client."""

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
from collections.abc import Callable, Iterator, Sequence
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


def wait_for(done: Callable[[], bool], what: str, timeout: float = 30.0) -> None:
    """Poll ``done`` until it holds; past ``timeout`` seconds fail, naming ``what``."""
    end = time.monotonic() + timeout
    while not done():
        if time.monotonic() > end:
            raise AssertionError(f"gave up waiting for {what}")
        time.sleep(0.02)


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
    """``python -m rummykit.web`` as a child process, to be killed for real.

    ``args`` go on the command line after the defaults (``--node-id web1``).  The
    process leads its own process group, so :meth:`kill` takes its bot workers down
    with it, as a machine losing power would.  Its stderr goes to a file (a pipe that
    nobody reads would stall a server that logs a lot); :meth:`log` reads it.
    """

    def __init__(
        self, database_url: str, port: int | None = None, args: Sequence[str] = ()
    ) -> None:
        self.port = port or free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.address = f"127.0.0.1:{self.port}"
        self.database_url = database_url
        self.args = list(args)
        self.proc: subprocess.Popen[bytes] | None = None
        self._stderr: Path | None = None

    def launch(self) -> ServerProcess:
        """Start the process without waiting for it (:meth:`ready` waits)."""
        cmd = [
            sys.executable, "-m", "rummykit.web", "--port", str(self.port),
            "--database", self.database_url, "--bot-delay", "0", "--log-level", "warning",
            *self.args,
        ]  # fmt: skip
        fd, name = tempfile.mkstemp(prefix="rummy-server-", suffix=".log")
        self._stderr = Path(name)
        with os.fdopen(fd, "wb") as err:
            self.proc = subprocess.Popen(
                cmd, stdout=subprocess.DEVNULL, stderr=err, start_new_session=True
            )
        return self

    def ready(self) -> ServerProcess:
        """Wait until the server answers ``/healthz``; raise with its stderr if not."""
        assert self.proc is not None
        try:
            wait_http(self.base + "/healthz")
        except TimeoutError:
            self.proc.kill()
            self.proc.wait()
            raise RuntimeError(f"server did not start: {self.log()[-2000:]}") from None
        return self

    def start(self) -> ServerProcess:
        return self.launch().ready()

    def log(self) -> str:
        """What the process wrote to stderr so far."""
        if self._stderr is None or not self._stderr.exists():
            return ""
        return self._stderr.read_text(errors="replace")

    def kill(self) -> None:
        """SIGKILL the process and its group (its bot workers)."""
        assert self.proc is not None
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait(timeout=10)

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:  # pragma: no cover
                self.proc.kill()
                self.proc.wait()
        if self.proc is not None:  # the group's leftovers (bot workers), if any
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.proc.pid, signal.SIGKILL)
        if self._stderr is not None:
            self._stderr.unlink(missing_ok=True)
            self._stderr = None


@contextlib.contextmanager
def server_processes(
    database_url: str, nodes: Sequence[str], args: Sequence[str] = ()
) -> Iterator[list[ServerProcess]]:
    """One server process per node id (``--node-id``), all on one database, started
    side by side as a service manager would (the first to start migrates a new
    database while the others wait: docs/database.md); yields them and stops those
    still running afterwards."""
    servers = [ServerProcess(database_url, args=["--node-id", n, *args]) for n in nodes]
    try:
        for s in servers:
            s.launch()
        for s in servers:
            s.ready()
        yield servers
    finally:
        for s in servers:
            s.stop()


HAPROXY = Path("/usr/sbin/haproxy")
"""Debian's HAProxy (``apt-get install haproxy``; the Makefile's ``browser`` target)."""
DEPLOY_DOC = Path(__file__).resolve().parents[2] / "docs" / "deploy.md"
"""The deployment guide: its ``haproxy`` block is the configuration the tests run."""
HAPROXY_GLOBAL = """global
    nbthread 1
    maxconn 2000

"""
"""What the tests put before the guide's sections instead of Debian's ``global``
section (no user switch, chroot or syslog: the proxy runs in the foreground as the
test's user and writes to a file)."""


def haproxy_binary() -> Path:
    """Debian's HAProxy, installed first if it is missing (as ``make browser`` does)."""
    if not HAPROXY.exists():
        subprocess.run(["apt-get", "install", "-y", "-qq", "haproxy"], check=True)
    return HAPROXY


def proxy_config(port: int, backends: Sequence[str], doc: Path = DEPLOY_DOC) -> str:
    """docs/deploy.md's HAProxy configuration with its ``bind`` on loopback ``port``
    and one ``server`` line per backend (``host:port`` or ``http://host:port``) in
    place of the guide's, so the configuration the guide shows is the one tested."""
    text = doc.read_text()
    start = text.index("```haproxy\n") + len("```haproxy\n")
    block = text[start : text.index("```", start)]
    out: list[str] = []
    server_opts: str | None = None
    listed = False  # this backend's servers are listed already
    for line in block.splitlines():
        words = line.split()
        if words[:1] == ["backend"]:
            listed = False
            out.append(line)
        elif words[:1] == ["bind"]:
            indent = line[: len(line) - len(line.lstrip())]
            out.append(f"{indent}bind 127.0.0.1:{port}")
        elif words[:1] == ["server"]:
            if not listed:
                listed = True
                indent = line[: len(line) - len(line.lstrip())]
                server_opts = " ".join(words[3:])
                for i, b in enumerate(backends, 1):
                    addr = b.split("://", 1)[-1].rstrip("/")
                    out.append(f"{indent}server web{i} {addr} {server_opts}".rstrip())
        else:
            out.append(line)
    if server_opts is None:
        raise ValueError(f"{doc} has no server line in its haproxy block")
    return HAPROXY_GLOBAL + "\n".join(out) + "\n"


@contextlib.contextmanager
def haproxy(backends: Sequence[str]) -> Iterator[str]:
    """Debian's HAProxy in the foreground (``-db``: no daemon, no system service) on a
    free loopback port, balancing over ``backends`` with docs/deploy.md's
    configuration (WebSockets passed through, health checks on ``/healthz``,
    redispatch); yields its base URL once it answers ``/healthz``.  The process is
    killed and its directory removed afterwards."""
    tmp = Path(tempfile.mkdtemp(prefix="rummy-haproxy-"))
    port = free_port()
    cfg = tmp / "haproxy.cfg"
    cfg.write_text(proxy_config(port, backends))
    base = f"http://127.0.0.1:{port}"
    with (tmp / "log").open("wb") as log:
        proc = subprocess.Popen(
            [str(haproxy_binary()), "-f", str(cfg), "-db"], stdout=log, stderr=subprocess.STDOUT
        )
    try:
        end = time.monotonic() + 20
        while True:
            if proc.poll() is not None:
                raise RuntimeError(f"haproxy stopped: {(tmp / 'log').read_text()[-2000:]}")
            try:
                if httpx.get(base + "/healthz", timeout=1.0).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > end:
                raise TimeoutError(f"haproxy did not answer: {(tmp / 'log').read_text()}")
            time.sleep(0.05)
        yield base
    finally:
        proc.kill()
        proc.wait()
        shutil.rmtree(tmp, ignore_errors=True)


def postmaster_pid(url: str) -> int | None:
    """The PostgreSQL server's process id: the parent of our own backend (Linux)."""
    from sqlalchemy import create_engine, text

    from rummykit.web.store import normalize_url

    engine = create_engine(normalize_url(url))
    try:
        with engine.connect() as conn:
            backend = int(conn.execute(text("SELECT pg_backend_pid()")).scalar_one())
        stat = Path(f"/proc/{backend}/stat").read_text()
        return int(stat.rsplit(")", 1)[1].split()[1])
    except (OSError, ValueError, IndexError):
        return None
    finally:
        engine.dispose()


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

    def __init__(self, base: str, table_id: str, cookies: dict[str, str] | None = None) -> None:
        url = base.replace("http://", "ws://") + f"/ws/{table_id}"
        headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in (cookies or {}).items())}
        conn = connect(
            url,
            max_size=2**22,
            open_timeout=10,
            legacy=True,
            additional_headers=headers if cookies else None,
        )
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

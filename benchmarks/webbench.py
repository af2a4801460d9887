"""What the web benchmarks share (``load.py``, ``abuse.py``): the server in a child
process on loopback, scripted players over WebSockets, percentiles and CPU time.

The server runs as ``python -c SERVER PORT DATABASE_URL SETTINGS_JSON``; settings this
version of :class:`~rummykit.web.Settings` does not have are left out, so a benchmark
can ask for limits to be off without knowing which limits exist.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import socket
import subprocess
import sys
import time
from collections import deque
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect

SERVER = """
import dataclasses, json, sys, uvicorn
from rummykit.web import Settings, create_app, tune_gc
wanted = json.loads(sys.argv[3])
known = {f.name for f in dataclasses.fields(Settings)}
s = Settings(database_url=sys.argv[2], **{k: v for k, v in wanted.items() if k in known})
app = create_app(s)
tune_gc()
uvicorn.run(app, host="127.0.0.1", port=int(sys.argv[1]), log_level="error",
            ws_max_size=65536, backlog=4096)
"""
UNLIMITED: dict[str, Any] = {
    "rate": 1e6,
    "burst": 1e6,
    "tables_per_minute": 0,
    "sockets_per_minute": 0,
    "max_tables": 1_000_000,
    "max_bot_tables": 1_000_000,
    "bot_tables_per_address": 1_000_000,
    "hints_per_minute": 0,
}
"""Settings that take the per-client limits out of the way: every client of a
benchmark comes from 127.0.0.1."""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def server(database_url: str, settings: dict[str, Any]) -> Iterator[tuple[str, int]]:
    """A server in a child process; yields its base URL and process id."""
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-c", SERVER, str(port), database_url, json.dumps(settings)]
    )
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(400):
            try:
                if httpx.get(base + "/healthz", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.05)
        else:
            raise RuntimeError("the server did not start")
        yield base, proc.pid
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def cpu_seconds(pid: int) -> tuple[float, float]:
    """CPU seconds (user + system) of process ``pid`` and of its children, from
    ``/proc`` (Linux); NaN elsewhere."""
    tick = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100

    def stat(p: Path) -> tuple[int, float]:
        fields = p.read_text().rsplit(")", 1)[1].split()
        return int(fields[1]), (int(fields[11]) + int(fields[12])) / tick

    proc = Path("/proc")
    if not proc.is_dir():
        return float("nan"), float("nan")
    own = stat(proc / str(pid) / "stat")[1]
    children = 0.0
    for entry in proc.iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError, ValueError, IndexError):
                parent, seconds = stat(entry / "stat")
                if parent == pid:
                    children += seconds
    return own, children


def percentile_ms(sorted_seconds: list[float], p: float) -> float:
    """The ``p`` quantile (0..1) of sorted latencies, in milliseconds."""
    n = len(sorted_seconds)
    return sorted_seconds[min(n - 1, int(p * n))] * 1000 if n else float("nan")


class Stats:
    """What the scripted players measured, while ``measuring`` is set."""

    def __init__(self) -> None:
        self.latencies: list[float] = []
        """Seconds from sending a move to receiving the state that includes it."""
        self.pings: list[float] = []
        """Seconds from a ping to its pong."""
        self.errors = 0
        self.measuring = False


async def _pinger(ws: ClientConnection, sent: deque[float], every: float, stop: float) -> None:
    while time.monotonic() + every < stop:
        await asyncio.sleep(every)
        sent.append(time.perf_counter())
        await ws.send('{"type":"ping"}')


async def player(
    base: str,
    table: dict[str, Any],
    seat: int,
    stats: Stats,
    stop: float,
    pause: tuple[float, float] = (0.0, 0.0),
    ping_every: float | None = None,
) -> None:
    """Play ``seat`` until ``stop`` (monotonic): answer each state where it is this
    seat's turn with a random legal move after a pause drawn from ``pause`` seconds; seat
    0 asks for a rematch once the match is over.  With ``ping_every``, also ping."""
    rng = random.Random(seat * 7919 + hash(table["id"]) % 1000)
    url = base.replace("http", "ws") + f"/ws/{table['id']}"
    async with connect(url, max_size=2**22, open_timeout=60, ping_interval=None) as ws:
        secret = table["seats"][seat]["secret"]
        await ws.send(json.dumps({"type": "hello", "seat": seat, "secret": secret}))
        pings: deque[float] = deque()
        pinger = None
        if ping_every:
            pinger = asyncio.create_task(_pinger(ws, pings, ping_every, stop))
        sent_at: float | None = None
        sent_version = -1
        thinking: asyncio.Task[None] | None = None

        async def move(v: int, legal: list[dict[str, Any]], wait: float) -> None:
            # A person's pause runs beside the reading loop, so pongs are read on time.
            nonlocal sent_at, sent_version
            if wait:
                await asyncio.sleep(wait)
            text = rng.choice(legal)["text"]
            msg = {"type": "move", "version": v, "move": {"kind": "text", "text": text}}
            await ws.send(json.dumps(msg))
            sent_at, sent_version = time.perf_counter(), v

        try:
            while time.monotonic() < stop:
                try:
                    left = max(0.01, stop - time.monotonic())
                    raw = await asyncio.wait_for(ws.recv(), timeout=left)
                except TimeoutError:
                    break
                msg = json.loads(raw)
                if msg["type"] == "pong":
                    if pings:
                        took = time.perf_counter() - pings.popleft()
                        if stats.measuring:
                            stats.pings.append(took)
                    continue
                if msg["type"] == "error":
                    stats.errors += 1
                    sent_at = None
                    continue
                if msg["type"] != "state":
                    continue
                v = msg["version"]
                if sent_at is not None and v > sent_version:
                    if stats.measuring:
                        stats.latencies.append(time.perf_counter() - sent_at)
                    sent_at = None
                g = msg["game"]
                if sent_at is not None or (thinking is not None and not thinking.done()):
                    continue
                if g["phase"] == "over":
                    if seat == 0:
                        await ws.send(json.dumps({"type": "rematch", "version": v}))
                        sent_at, sent_version = time.perf_counter(), v
                    continue
                if g["current"] == seat and g["legal"]:
                    if pause[1] > 0:
                        wait = rng.uniform(*pause)
                        thinking = asyncio.create_task(move(v, g["legal"], wait))
                    else:
                        await move(v, g["legal"], 0.0)
        finally:
            for task in (pinger, thinking):
                if task is not None:
                    task.cancel()
                    with contextlib.suppress(asyncio.CancelledError, Exception):
                        await task


async def create_tables(
    base: str, body: dict[str, Any], count: int, parallel: int = 50
) -> list[dict[str, Any]]:
    """``count`` tables made with ``POST /api/tables`` and ``body``."""
    limits = httpx.Limits(max_connections=parallel)
    async with httpx.AsyncClient(base_url=base, limits=limits, timeout=60) as http:
        sem = asyncio.Semaphore(parallel)

        async def make() -> dict[str, Any]:
            async with sem:
                r = await http.post("/api/tables", json=body)
                r.raise_for_status()
                data: dict[str, Any] = r.json()
                return data

        return list(await asyncio.gather(*(make() for _ in range(count))))

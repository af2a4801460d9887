"""What N spectators cost the web server (issue 15, finding 3: each spectator's hello
re-sent the whole state to every connection, so 500 spectators cost 4.4 CPU-seconds).

A server in a child process (limits off, the spectator cap raised to N), one table of
two people, N spectators saying hello one after another, then one move.  Reported:
the server's CPU seconds for the hellos and for the move, and how many ``state``
messages the spectators received in all (N for the hellos plus N for the move is one
per connection and version).

    python benchmarks/spectators.py                  # 500 spectators
    python benchmarks/spectators.py --spectators 200
    PYTHONPATH=/path/to/old/src python benchmarks/spectators.py --out spectators-before
"""

from __future__ import annotations

import argparse
import asyncio
import json
import platform
import tempfile
from pathlib import Path
from typing import Any

import httpx
from webbench import UNLIMITED, cpu_seconds, server
from websockets.asyncio.client import ClientConnection, connect

RESULTS = Path(__file__).parent / "results"


async def _watch(ws: ClientConnection, counts: dict[str, int], done: asyncio.Event) -> None:
    async for raw in ws:
        kind = json.loads(raw)["type"]
        counts[kind] = counts.get(kind, 0) + 1
        if kind == "state" and counts[kind] >= 2:
            done.set()


async def run(base: str, pid: int, spectators: int) -> dict[str, Any]:
    ws_base = base.replace("http://", "ws://")
    async with httpx.AsyncClient(base_url=base) as http:
        body = {"rules": "basic", "seats": [{"name": "A"}, {"name": "B"}]}
        t = (await http.post("/api/tables", json=body)).json()
    url = f"{ws_base}/ws/{t['id']}"
    players = []
    for seat in (0, 1):
        ws = await connect(url, max_size=2**22)
        await ws.send(
            json.dumps({"type": "hello", "seat": seat, "secret": t["seats"][seat]["secret"]})
        )
        players.append(ws)
    first: dict[str, Any] = {}
    for ws in players:
        while (first := json.loads(await ws.recv()))["type"] != "state":
            pass
    cpu0 = sum(cpu_seconds(pid))
    socks: list[ClientConnection] = []
    counts: list[dict[str, int]] = []
    dones: list[asyncio.Event] = []
    tasks = []
    for _ in range(spectators):
        ws = await connect(url, max_size=2**22)
        await ws.send('{"type": "hello"}')
        while True:
            kind = json.loads(await ws.recv())["type"]
            if kind == "state":
                break
        c: dict[str, int] = {"state": 1}
        done = asyncio.Event()
        socks.append(ws)
        counts.append(c)
        dones.append(done)
        tasks.append(asyncio.create_task(_watch(ws, c, done)))
    await asyncio.sleep(1.0)  # whatever the hellos sent to the others arrives
    cpu1 = sum(cpu_seconds(pid))
    after_hellos = sum(c.get("state", 0) for c in counts)
    # one move: the player to act draws
    move = {"type": "move", "version": first["version"], "move": {"kind": "draw_stock"}}
    await players[first["game"]["current"]].send(json.dumps(move))
    await asyncio.wait_for(asyncio.gather(*(d.wait() for d in dones)), 60)
    await asyncio.sleep(0.5)
    cpu2 = sum(cpu_seconds(pid))
    for task in tasks:
        task.cancel()
    for ws in [*socks, *players]:
        await ws.close()
    return {
        "spectators": spectators,
        "hello_cpu_s": round(cpu1 - cpu0, 3),
        "move_cpu_s": round(cpu2 - cpu1, 3),
        "states_after_hellos": after_hellos,
        "states_after_move": sum(c.get("state", 0) for c in counts),
    }


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--spectators", type=int, default=500)
    p.add_argument("--out", default="spectators", help="results/OUT.json")
    a = p.parse_args()
    settings = {**UNLIMITED, "max_spectators": a.spectators + 10}
    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite:///{tmp}/spectators.db"
        with server(url, settings) as (base, pid):
            result = asyncio.run(run(base, pid, a.spectators))
    result["machine"] = f"{platform.machine()}, {platform.python_version()}"
    print(json.dumps(result, indent=1))
    (RESULTS / f"{a.out}.json").write_text(json.dumps(result, indent=1) + "\n")


if __name__ == "__main__":
    main()

"""What a round review costs on the web server (issue 16, part 2).

A server in a child process (its default settings: one worker process per core but
one, the engine's default review budget) and two tables: a person (a seeded random
player) against the easy bot, whose first round is reviewed, and a table of two easy
bots watched by a spectator.  Measured: the review's wall time from the request to the
answer, its decisions and progress messages, and how the bots' table went on meanwhile
(its moves and the longest wait between two of them), which is what "a review cannot
starve other tables" means in numbers.

    python benchmarks/web_review.py [--rules 'basic(max_restocks=1)'] [--seed 1]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from websockets.sync.client import connect

sys.path.insert(0, str(Path(__file__).resolve().parent))
from webbench import UNLIMITED, cpu_seconds, server

OUT = Path(__file__).resolve().parent / "results" / "web_review.json"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rules", default="basic(max_restocks=1)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--decisions", type=int, nargs=2, default=(35, 45), metavar=("MIN", "MAX"))
    ap.add_argument("--out", type=Path, default=OUT)
    args = ap.parse_args()
    db = Path(tempfile.mkdtemp()) / "web.db"
    with server(f"sqlite:///{db}", {**UNLIMITED, "bot_delay": 0.0}) as (base, pid):
        ws_base = base.replace("http://", "ws://")
        rng = random.Random(args.seed)
        for _attempt in range(50):  # a round with about 40 decisions of the person's
            human = [{"kind": "human"}, {"kind": "bot", "difficulty": "easy"}]
            body = {"rules": args.rules, "deals": 2, "seats": human}
            a = httpx.post(base + "/api/tables", json=body).json()
            player = connect(f"{ws_base}/ws/{a['id']}", max_size=2**22, legacy=True)
            hello = {"type": "hello", "seat": 0, "secret": a["seats"][0]["secret"]}
            player.send(json.dumps(hello))
            s = next_state(player)
            decisions = 0
            while not s["game"]["results"]:
                g = s["game"]
                if g["current"] == 0 and g["legal"]:
                    decisions += len(g["legal"]) > 1
                    text = rng.choice(g["legal"])["text"]
                    move = {"kind": "text", "text": text}
                    player.send(json.dumps({"type": "move", "version": s["version"], "move": move}))
                s = next_state(player)
            if args.decisions[0] <= decisions <= args.decisions[1]:
                break
            player.close()
        bots = [{"kind": "bot", "difficulty": "easy"}] * 2
        b = httpx.post(
            base + "/api/tables", json={"rules": args.rules, "deals": 100, "seats": bots}
        )
        watcher = connect(f"{ws_base}/ws/{b.json()['id']}", max_size=2**22, legacy=True)
        watcher.send(json.dumps({"type": "hello"}))
        next_state(watcher)
        load = os.getloadavg()[0]  # other work on the machine slows the wall clock
        cpu0 = cpu_seconds(pid)
        start = time.perf_counter()
        player.send(json.dumps({"type": "review", "round": 1}))
        progress = 0
        review: dict[str, Any] | None = None
        bot_moves: list[float] = []
        while review is None:
            for m in drain(player):
                if m["type"] == "review_progress":
                    progress += 1
                elif m["type"] in ("review", "error"):
                    review = m
            bot_moves += [time.perf_counter() for m in drain(watcher) if m["type"] == "state"]
        seconds = time.perf_counter() - start
        cpu1 = cpu_seconds(pid)
        player.close()
        watcher.close()
    assert review["type"] == "review", review
    gaps = [y - x for x, y in zip([start, *bot_moves], bot_moves, strict=False)]
    result = {
        "rules": args.rules,
        "decisions": len(review["decisions"]),
        "budget": review["budget"],
        "review_seconds": round(seconds, 2),
        "progress_messages": progress,
        "accuracy": review["accuracy"],
        "server_cpu_seconds": round(cpu1[0] - cpu0[0], 2),
        "workers_cpu_seconds": round(cpu1[1] - cpu0[1], 2),
        "bot_table_moves_meanwhile": len(bot_moves),
        "bot_table_longest_wait_s": round(max(gaps, default=seconds), 2),
        "load_average_1min": round(load, 2),
        "cores": os.cpu_count(),
    }
    print(json.dumps(result, indent=2))
    args.out.write_text(json.dumps(result, indent=2) + "\n")


def next_state(ws: Any) -> dict[str, Any]:
    while True:
        m: dict[str, Any] = json.loads(ws.recv(timeout=60))
        if m["type"] == "state":
            return m


def drain(ws: Any) -> list[dict[str, Any]]:
    """The messages that arrive within a moment."""
    out = []
    try:
        while True:
            out.append(json.loads(ws.recv(timeout=0.01)))
    except TimeoutError:
        return out


if __name__ == "__main__":
    main()

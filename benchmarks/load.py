"""Load benchmark for the web server: many concurrent tables of scripted WebSocket
clients on loopback (issue 6: "1,000 concurrent tables at p99 under 50 ms").

The server runs as a child process (SQLite in a temporary directory unless
``--database`` is given; bots off, throttling off).  Every table has two scripted
players who answer each state where it is their turn with a random legal move, as
fast as they can; a finished match is followed by a rematch.  Latency is the time
from sending a move to receiving the state that includes it.  The clients run in
this process, so on a small machine they compete with the server for the CPU.

    python benchmarks/load.py                       # 10, 100 and 1000 tables
    python benchmarks/load.py --tables 200 --seconds 10
    python benchmarks/load.py --tables 1000 --think 2   # players think ~2 s per move
    python benchmarks/load.py --tables 1000 --think 2 --repeat 5 --out load-1000x5
"""

from __future__ import annotations

import argparse
import asyncio
import datetime
import json
import os
import platform
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table
from webbench import UNLIMITED, Stats, create_tables, percentile_ms, player, server

from rummykit.web import tune_gc

RESULTS = Path(__file__).parent / "results"


async def run(
    base: str, tables: int, seconds: float, warmup: float, think: float
) -> dict[str, Any]:
    stats = Stats()
    body = {"rules": "basic", "deals": 1, "seats": [{"name": "A"}, {"name": "B"}]}
    made = await create_tables(base, body, tables)
    start = time.monotonic()
    stop = start + warmup + seconds
    tasks = [
        asyncio.create_task(player(base, t, seat, stats, stop, (0.5 * think, 1.5 * think)))
        for t in made
        for seat in (0, 1)
    ]
    await asyncio.sleep(warmup)
    tune_gc()
    stats.measuring = True
    t0 = time.monotonic()
    await asyncio.gather(*tasks, return_exceptions=True)
    elapsed = time.monotonic() - t0
    lat = sorted(stats.latencies)
    n = len(lat)
    return {
        "tables": tables,
        "think_s": think,
        "seconds": round(elapsed, 2),
        "moves": n,
        "moves_per_s": round(n / elapsed, 1) if elapsed else 0.0,
        "p50_ms": round(percentile_ms(lat, 0.50), 2),
        "p99_ms": round(percentile_ms(lat, 0.99), 2),
        "mean_ms": round(statistics.fmean(lat) * 1000, 2) if n else None,
        "errors": stats.errors,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--tables", default="10,100,1000", help="comma-separated table counts")
    ap.add_argument("--seconds", type=float, default=15.0, help="measured time per run")
    ap.add_argument("--warmup", type=float, default=3.0)
    ap.add_argument(
        "--think", default="0", help="comma-separated mean seconds a player waits before a move"
    )
    ap.add_argument("--repeat", type=int, default=1, help="run each case this many times")
    ap.add_argument("--database", default=None, help="SQLAlchemy URL (default: temporary SQLite)")
    ap.add_argument("--out", default="load", help="write results/<OUT>.json (default: load)")
    ap.add_argument("--no-write", action="store_true", help="do not write the JSON")
    args = ap.parse_args()
    console = Console()
    rows = []
    runs = [
        (int(n), float(k))
        for k in args.think.split(",")
        for n in args.tables.split(",")
        for _ in range(args.repeat)
    ]
    for count, think in runs:
        tmp = tempfile.mkdtemp(prefix="rummy-load-")
        url = args.database or f"sqlite:///{tmp}/load.db"
        with server(url, {"bot_delay": 0, **UNLIMITED}) as (base, _pid):
            row = asyncio.run(run(base, count, args.seconds, args.warmup, think))
        row["database"] = "sqlite" if url.startswith("sqlite") else url.split(":")[0]
        rows.append(row)
        console.print(row)
    table = Table(title="rummykit web server under load (loopback, scripted clients)")
    for col in ("tables", "think s", "moves/s", "p50 ms", "p99 ms", "moves", "errors", "database"):
        table.add_column(col, justify="right")
    for r in rows:
        table.add_row(
            str(r["tables"]), f"{r['think_s']:g}", f"{r['moves_per_s']:.0f}", f"{r['p50_ms']:.1f}",
            f"{r['p99_ms']:.1f}", str(r["moves"]), str(r["errors"]), r["database"],
        )  # fmt: skip
    console.print(table)
    if not args.no_write:
        out = RESULTS / f"{args.out}.json"
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(
            json.dumps(
                {
                    "date": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
                    "python": platform.python_version(),
                    "cpus": os.cpu_count(),
                    "runs": rows,
                },
                indent=2,
            )
            + "\n"
        )
        console.print(f"wrote {out}")


if __name__ == "__main__":
    main()

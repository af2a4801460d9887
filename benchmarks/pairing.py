"""Quick-pairing benchmark (issue #32): N clients seek a Gin game at once across
several server processes on one throwaway PostgreSQL cluster.

Each client is a signed-up account (an account, not a guest: every client comes
from 127.0.0.1, and a guest's seek is held per address).  Clients sign up on the
processes in turn; then, all at once, each makes a rated seek on its process and
polls it on the *next* process every ``--poll`` seconds until it is paired, so
every link crosses processes through the database.  Reported:

* time to pairing, p50 and p99: server-side from the seek's row to its table's row
  (``tables.created - seeks.created``), and client-side from the seek's POST to the
  poll that brings the link (so it includes up to ``--poll`` of polling);
* CPU per pairing (one table made): the server processes (with their children) and
  PostgreSQL, over the seeking phase, which includes the clients' polls;
* a check: every client got exactly one link, each table seats two of them, each
  account holds one seat, and the queue holds nobody waiting at the end.

    python benchmarks/pairing.py --clients 200
    python benchmarks/pairing.py --clients 1000 --processes 3 --poll 1
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import httpx
from load import cpu_total, servers
from results_file import write_results
from rich.console import Console
from rich.table import Table
from webbench import UNLIMITED, percentile_ms

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "support"))
from web_helpers import postgres_cluster, postmaster_pid

SETTINGS: dict[str, Any] = {
    "bot_delay": 0, "bot_workers": 0, **UNLIMITED,
    "seeks_per_minute": 0, "seeks_per_account_minute": 0, "signups_per_minute": 0,
    "signin_per_minute": 0, "password_time_cost": 1, "password_memory_kib": 1024,
    "password_parallelism": 1,
}  # fmt: skip
"""No limits per client (all come from 127.0.0.1), cheap password hashes (the sign-ups
are set-up, not measured), the pairing settings as shipped."""
PASSWORD = "a benchmark password"


async def sign_up(c: httpx.AsyncClient, base: str, i: int) -> str:
    """A new account for client ``i``; its CSRF token (the cookie stays in ``c``)."""
    r = await c.post(base + "/api/account/signup",
                     json={"username": f"p{i:05d}", "password": PASSWORD})  # fmt: skip
    r.raise_for_status()
    return str(r.json()["csrf"])


async def seek(
    c: httpx.AsyncClient, i: int, csrf: str, bases: list[str], args: argparse.Namespace
) -> dict[str, Any]:
    """Seek on the client's process, poll on the next until paired."""
    home, other = bases[i % len(bases)], bases[(i + 1) % len(bases)]
    start = time.monotonic()
    r = await c.post(home + "/api/seek", json={"game": "gin"}, headers={"x-csrf-token": csrf})
    r.raise_for_status()
    token = r.json()["token"]
    polls = 0
    while time.monotonic() - start < args.timeout:
        await asyncio.sleep(args.poll)
        polls += 1
        r = await c.get(other + "/api/seek", headers={"x-seek-token": token})
        r.raise_for_status()
        got = r.json()
        if got["status"] == "paired":
            return {"client": i, "seconds": time.monotonic() - start, "link": got["link"],
                    "table": got["table"], "polls": polls}  # fmt: skip
    return {"client": i, "seconds": None, "link": None, "table": None, "polls": polls}


async def run(bases: list[str], pids: list[int], args: argparse.Namespace) -> dict[str, Any]:
    limits = httpx.Limits(max_connections=None, max_keepalive_connections=None)
    clients = [httpx.AsyncClient(timeout=120, limits=limits) for _ in range(args.clients)]
    try:
        csrfs = []
        for start in range(0, args.clients, 50):  # set-up, fifty at a time
            batch = range(start, min(args.clients, start + 50))
            csrfs += await asyncio.gather(
                *(sign_up(clients[i], bases[i % len(bases)], i) for i in batch)
            )
        # fresh connections, the sessions' cookies kept: the server closes a
        # connection idle for 5 s (uvicorn's keep-alive), as the set-up's may be
        for i, old in enumerate(clients):
            clients[i] = httpx.AsyncClient(timeout=120, limits=limits, cookies=old.cookies)
            await old.aclose()
        before = cpu_total(pids[:-1]), cpu_total(pids[-1:])
        t0 = time.monotonic()
        results = await asyncio.gather(
            *(seek(clients[i], i, csrfs[i], bases, args) for i in range(args.clients))
        )
        wall = time.monotonic() - t0
        after = cpu_total(pids[:-1]), cpu_total(pids[-1:])
    finally:
        for c in clients:
            await c.aclose()
    return {"results": results, "wall_s": wall,
            "server_cpu_s": after[0] - before[0], "db_cpu_s": after[1] - before[1]}  # fmt: skip


def check(url: str, results: list[dict[str, Any]]) -> dict[str, Any]:
    """Nobody paired twice or lost: from the clients' answers and the database."""
    from sqlalchemy import create_engine, text

    from rummykit.web.store import normalize_url

    lost = [r["client"] for r in results if r["link"] is None]
    by_table: dict[str, list[int]] = {}
    for r in results:
        if r["table"]:
            by_table.setdefault(r["table"], []).append(r["client"])
    links = [r["link"] for r in results if r["link"]]
    engine = create_engine(normalize_url(url))
    try:
        with engine.connect() as conn:
            q = conn.execute
            statuses = dict(q(text("SELECT status, count(*) FROM seeks GROUP BY 1")).all())
            seats = q(text("SELECT account_id, count(*) FROM account_seats GROUP BY 1")).all()
            waits = [
                float(w)
                for (w,) in q(
                    text(
                        "SELECT t.created - s.created FROM seeks s "
                        "JOIN tables t ON t.id = s.table_id"
                    )
                )
            ]
            rated = q(text("SELECT count(*) FROM tables WHERE options LIKE '%rated%'")).scalar()
    finally:
        engine.dispose()
    return {
        "lost": lost,
        "tables": len(by_table),
        "tables_not_two": sum(1 for v in by_table.values() if len(v) != 2),
        "links_distinct": len(set(links)) == len(links),
        "accounts_seated_twice": sum(1 for _, n in seats if n != 1),
        "accounts_seated": len(seats),
        "seek_statuses": statuses,
        "rated_tables": int(rated or 0),
        "server_waits": sorted(waits),
    }


def report(console: Console, row: dict[str, Any]) -> None:
    table = Table(title="quick pairing: clients seeking Gin at once (loopback, PostgreSQL)")
    cols = ("processes", "clients", "tables", "server p50 ms", "server p99 ms",
            "client p50 ms", "client p99 ms", "server CPU ms/pairing", "db CPU ms/pairing",
            "lost", "paired twice")  # fmt: skip
    for col in cols:
        table.add_column(col, justify="right")
    table.add_row(
        str(row["processes"]), str(row["clients"]), str(row["tables"]),
        f"{row['server_p50_ms']:.0f}", f"{row['server_p99_ms']:.0f}",
        f"{row['client_p50_ms']:.0f}", f"{row['client_p99_ms']:.0f}",
        f"{row['server_cpu_ms_per_pairing']:.1f}", f"{row['db_cpu_ms_per_pairing']:.1f}",
        str(row["lost"]), str(row["paired_twice"]),
    )  # fmt: skip
    console.print(table)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--clients", type=int, default=200, help="clients seeking at once (even)")
    ap.add_argument("--processes", type=int, default=3, help="server processes")
    ap.add_argument("--poll", type=float, default=0.5, help="seconds between a client's polls")
    ap.add_argument("--timeout", type=float, default=120.0, help="seconds a client waits at most")
    ap.add_argument("--out", default="pairing", help="benchmarks/results/<out>.json")
    ap.add_argument("--no-write", action="store_true")
    args = ap.parse_args(argv)
    if args.clients < 2 or args.clients % 2:
        ap.error("--clients must be an even number, 2 or more")
    console = Console(width=180)
    with postgres_cluster() as url, servers(url, args.processes, SETTINGS) as procs:
        pg = postmaster_pid(url)
        pids = [pid for _, pid in procs] + ([pg] if pg else [])
        bases = [base for base, _ in procs]
        out = asyncio.run(run(bases, pids, args))
        facts = check(url, out["results"])
    results = out["results"]
    client_s = sorted(r["seconds"] for r in results if r["seconds"] is not None)
    waits = facts.pop("server_waits")
    lost = facts.pop("lost")
    tables = max(1, facts["tables"])
    row = {
        "processes": args.processes,
        "clients": args.clients,
        "poll_s": args.poll,
        "tables": facts["tables"],
        "wall_s": round(out["wall_s"], 2),
        "server_p50_ms": percentile_ms(waits, 0.5),
        "server_p99_ms": percentile_ms(waits, 0.99),
        "server_max_ms": percentile_ms(waits, 1.0),
        "client_p50_ms": percentile_ms(client_s, 0.5),
        "client_p99_ms": percentile_ms(client_s, 0.99),
        "server_cpu_ms_per_pairing": out["server_cpu_s"] * 1000 / tables,
        "db_cpu_ms_per_pairing": out["db_cpu_s"] * 1000 / tables,
        "mean_polls": statistics.fmean(r["polls"] for r in results),
        "lost": len(lost),
        "lost_clients": lost,
        "paired_twice": facts["tables_not_two"]
        + facts["accounts_seated_twice"]
        + (0 if facts["links_distinct"] else 1),
        **facts,
        "load_average": os.getloadavg()[0],
    }
    report(console, row)
    ok = row["lost"] == 0 and row["paired_twice"] == 0 and facts["tables"] * 2 == args.clients
    console.print(
        "check: " + ("every client paired once, nobody lost" if ok else f"FAILED {facts}")
    )
    if not args.no_write:
        console.print(f"wrote {write_results(args.out, {'cpus': os.cpu_count(), 'run': row})}")
    if not ok:
        raise SystemExit(1)


if __name__ == "__main__":
    main()

"""Load benchmark for the web server: many concurrent tables of scripted WebSocket
clients on loopback (issue 6: "1,000 concurrent tables at p99 under 50 ms"; issue
#18: many processes on one PostgreSQL database).

The server runs as a child process (SQLite in a temporary directory unless
``--database`` is given; bots off, throttling off).  Every table has two scripted
players who answer each state where it is their turn with a random legal move, as
fast as they can; a finished match is followed by a rematch.  Latency is the time
from sending a move to receiving the state that includes it.  The clients run in
this process, so on a small machine they compete with the server for the CPU.

With ``--processes N`` (N >= 2) each case is run three times in the same run: one
process on SQLite, one process on a throwaway PostgreSQL cluster, and N processes on
another throwaway cluster.  With N processes the tables are created on the processes
in turn (so each process owns its share) and a table's second player connects to the
next process: half the moves are forwarded to the owner and every state reaches the
second player through the other process's LISTEN/NOTIFY fan-out.  The cost of that is
the latency and the CPU per move over the one-process PostgreSQL row.  CPU is read
from /proc for the server processes (with their children) and for PostgreSQL.

``--failover`` (with ``--processes``): tables of two bots, all owned by one process,
play on N processes; that process is killed with SIGKILL, and the time from the kill
to the first move another process stores for each table is reported.  The throwaway
clusters run with ``fsync=off``, like the tests' (see docs/deploy.md on what that
leaves out).

    python benchmarks/load.py                       # 10, 100 and 1000 tables
    python benchmarks/load.py --tables 200 --seconds 10
    python benchmarks/load.py --tables 1000 --think 2   # players think ~2 s per move
    python benchmarks/load.py --tables 1000 --think 2 --repeat 5 --out load-1000x5
    python benchmarks/load.py --processes 3 --tables 10,100 --failover
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import signal
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from results_file import write_results
from rich.console import Console
from rich.table import Table
from webbench import UNLIMITED, Stats, cpu_seconds, create_tables, percentile_ms, player, server

from rummykit.web import tune_gc

# The throwaway PostgreSQL cluster is the tests' (tests/support/web_helpers.py), not a copy.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "support"))
from web_helpers import postgres_cluster, postmaster_pid

SETTINGS: dict[str, Any] = {"bot_delay": 0, "bot_workers": 0, **UNLIMITED}
"""The servers' settings: no bot delay, no bot worker processes, no client limits."""
FAILOVER_DELAY = 0.05
"""Seconds a bot waits before each move in the failover runs: the tables keep playing
for minutes instead of finishing before the kill."""


@contextlib.contextmanager
def servers(url: str, count: int, settings: dict[str, Any]) -> Iterator[list[tuple[str, int]]]:
    """``count`` server processes on one database, node ids ``load1``...; yields each
    one's base URL and process id."""
    with contextlib.ExitStack() as stack:
        yield [
            stack.enter_context(server(url, {**settings, "node_id": f"load{i + 1}"}))
            for i in range(count)
        ]


def cpu_total(pids: list[int]) -> float:
    """CPU seconds of these processes and their children."""
    return sum(sum(cpu_seconds(p)) for p in pids)


async def run(
    bases: list[str],
    pids: list[int],
    db_pid: int | None,
    tables: int,
    seconds: float,
    warmup: float,
    think: float,
    together: bool = False,
) -> dict[str, Any]:
    """One case: ``tables`` tables spread over the servers at ``bases``, each table's
    second player on the process after its owner's.  Each seat's moves are measured
    apart: with several processes seat 1's are the forwarded ones.  ``together``: both
    players on the process after the creator's, as a proxy that sends a table's
    sockets to one process places them; the table is then handed over to them."""
    seat_stats = (Stats(), Stats())
    body = {"rules": "basic", "deals": 1, "seats": [{"name": "A"}, {"name": "B"}]}
    n = len(bases)
    shares = [tables // n + (k < tables % n) for k in range(n)]
    made = [
        (k, t)
        for k, base in enumerate(bases)
        for t in await create_tables(base, body, shares[k])
    ]  # fmt: skip
    start = time.monotonic()
    stop = start + warmup + seconds
    pause = (0.5 * think, 1.5 * think)
    tasks = [
        asyncio.create_task(
            player(
                bases[(k + (1 if together else seat)) % n], t, seat, seat_stats[seat], stop, pause
            )
        )
        for k, t in made
        for seat in (0, 1)
    ]
    await asyncio.sleep(warmup)
    tune_gc()
    for stats in seat_stats:
        stats.measuring = True
    cpu0 = cpu_total(pids)
    db0 = cpu_total([db_pid]) if db_pid else float("nan")
    t0 = time.monotonic()
    await asyncio.gather(*tasks, return_exceptions=True)
    elapsed = time.monotonic() - t0
    cpu = cpu_total(pids) - cpu0
    db = cpu_total([db_pid]) - db0 if db_pid else float("nan")
    lat = sorted(seat_stats[0].latencies + seat_stats[1].latencies)
    by_seat = [sorted(s.latencies) for s in seat_stats]
    moves = len(lat)
    return {
        "tables": tables,
        "think_s": think,
        "seconds": round(elapsed, 2),
        "moves": moves,
        "moves_per_s": round(moves / elapsed, 1) if elapsed else 0.0,
        "p50_ms": round(percentile_ms(lat, 0.50), 2),
        "p99_ms": round(percentile_ms(lat, 0.99), 2),
        "p50_ms_by_seat": [round(percentile_ms(s, 0.50), 2) for s in by_seat],
        "p99_ms_by_seat": [round(percentile_ms(s, 0.99), 2) for s in by_seat],
        "mean_ms": round(statistics.fmean(lat) * 1000, 2) if moves else None,
        "server_cpu_ms_per_move": round(cpu / moves * 1000, 3) if moves else None,
        "db_cpu_ms_per_move": round(db / moves * 1000, 3) if moves and db_pid else None,
        "errors": sum(s.errors for s in seat_stats),
    }


def case(
    url: str, processes: int, tables: int, args: argparse.Namespace, think: float
) -> dict[str, Any]:
    """Run one case on ``processes`` servers sharing the database at ``url``."""
    db_pid = None if url.startswith("sqlite") else postmaster_pid(url)
    with servers(url, processes, SETTINGS) as procs:
        bases = [b for b, _ in procs]
        pids = [p for _, p in procs]
        row = asyncio.run(
            run(bases, pids, db_pid, tables, args.seconds, args.warmup, think, args.together)
        )  # fmt: skip
    row["database"] = "sqlite" if url.startswith("sqlite") else url.split(":")[0]
    row["processes"] = processes
    row["together"] = bool(args.together) and processes > 1
    # The machine's load over the last minute as the case ends: on a shared machine
    # the other work it shows is in every figure of the row.
    row["load_average"] = round(os.getloadavg()[0], 2)
    return row


def failover(processes: int, tables: int) -> dict[str, Any]:
    """Kill the process that owns ``tables`` tables of bots; how long until another
    process stores each table's next move, and until it holds its lease."""
    from sqlalchemy import create_engine, text

    from rummykit.web.store import normalize_url

    settings = {**SETTINGS, "bot_delay": FAILOVER_DELAY}
    body = {"rules": "basic", "deals": 100, "seats": [{"kind": "bot"}, {"kind": "bot"}]}
    with postgres_cluster() as url, servers(url, processes, settings) as procs:
        (base, victim_pid), victim = procs[0], "load1"
        ids = [t["id"] for t in asyncio.run(create_tables(base, body, tables))]
        engine = create_engine(normalize_url(url))

        def query(sql: str, **params: Any) -> dict[str, Any]:
            with engine.connect() as conn:
                rows = conn.execute(text(sql), {"ids": ids, **params}).all()
            return {r[0]: r[1] for r in rows}

        def owners() -> dict[str, Any]:
            return query("SELECT table_id, node FROM leases WHERE table_id = ANY(:ids)")

        def moved_since(t: float) -> dict[str, Any]:
            """Each table's first move stored at or after ``t`` (the storing process's
            clock, this machine's): a move the victim was committing as it died
            carries an earlier time."""
            return query(
                "SELECT table_id, min(at) FROM moves WHERE table_id = ANY(:ids) AND at >= :t"
                " GROUP BY table_id",
                t=t,
            )

        try:
            played = "SELECT id, version FROM tables WHERE id = ANY(:ids) AND version >= 10"
            wait_for(lambda: len(query(played)) == len(ids), 30, "the bot tables to play")
            owned = [i for i, node in owners().items() if node == victim]
            os.kill(victim_pid, signal.SIGKILL)
            killed, killed_at = time.monotonic(), time.time()
            leased: dict[str, float] = {}
            while len(leased) < len(owned) and time.monotonic() - killed < 30:
                now, o = time.monotonic() - killed, owners()
                for i in owned:
                    if i not in leased and o.get(i) not in (None, victim):
                        leased[i] = now
                time.sleep(0.01)
            wait_for(lambda: set(owned) <= moved_since(killed_at).keys(), 10, "the tables to move")
            first = sorted(at - killed_at for i, at in moved_since(killed_at).items() if i in owned)
        finally:
            engine.dispose()
    lease = sorted(leased.values())
    return {
        "processes": processes,
        "tables": len(owned),
        "taken_over": len(first),
        "first_move_s": [round(first[0], 2), round(first[-1], 2)] if first else None,
        "lease_s": [round(lease[0], 2), round(lease[-1], 2)] if lease else None,
    }


def wait_for(done: Callable[[], bool], timeout: float, what: str) -> None:
    end = time.monotonic() + timeout
    while not done():
        if time.monotonic() > end:
            raise TimeoutError(f"waited {timeout} s for {what}")
        time.sleep(0.05)


def report(console: Console, rows: list[dict[str, Any]]) -> None:
    table = Table(title="rummykit web server under load (loopback, scripted clients)")
    cols = ("setup", "tables", "think s", "moves/s", "p50 ms", "p99 ms", "server CPU ms/move")
    for col in (*cols, "db CPU ms/move", "moves", "errors", "load"):
        table.add_column(col, justify="right")
    for r in rows:
        table.add_row(
            setup(r), str(r["tables"]), f"{r['think_s']:g}", f"{r['moves_per_s']:.0f}",
            f"{r['p50_ms']:.1f}", f"{r['p99_ms']:.1f}", _ms(r.get("server_cpu_ms_per_move")),
            _ms(r.get("db_cpu_ms_per_move")), str(r["moves"]), str(r["errors"]),
            f"{r.get('load_average', float('nan')):.1f}",
        )  # fmt: skip
    console.print(table)


def setup(row: dict[str, Any]) -> str:
    n = row.get("processes", 1)
    players = ", players together" if row.get("together") else ""
    return f"{n} process{'es' if n > 1 else ''}, {row['database']}{players}"


def _ms(value: float | None) -> str:
    return "" if value is None else f"{value:.2f}"


def costs(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """What forwarding and fan-out add per move: each many-process row against the
    one-process PostgreSQL row of the same case."""
    out = []
    for r in rows:
        if r.get("processes", 1) < 2:
            continue
        ref = next(
            (
                b
                for b in rows
                if b.get("processes", 1) == 1 and b["database"] == r["database"]
                and (b["tables"], b["think_s"]) == (r["tables"], r["think_s"])
            ),
            None,
        )  # fmt: skip
        if ref is None:
            continue
        cpu, ref_cpu = r["server_cpu_ms_per_move"], ref["server_cpu_ms_per_move"]
        out.append(
            {
                "tables": r["tables"],
                "think_s": r["think_s"],
                "processes": r["processes"],
                "extra_p50_ms": round(r["p50_ms"] - ref["p50_ms"], 2),
                "extra_p99_ms": round(r["p99_ms"] - ref["p99_ms"], 2),
                # The owner's player's moves, and the other player's, forwarded.
                "owner_side_p50_ms": r["p50_ms_by_seat"][0],
                "forwarded_p50_ms": r["p50_ms_by_seat"][1],
                "extra_server_cpu_ms_per_move": (
                    round(cpu - ref_cpu, 3) if cpu is not None and ref_cpu is not None else None
                ),
            }
        )
    return out


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--tables", default="10,100,1000", help="comma-separated table counts")
    ap.add_argument("--seconds", type=float, default=15.0, help="measured time per run")
    ap.add_argument("--warmup", type=float, default=3.0)
    ap.add_argument(
        "--think", default="0", help="comma-separated mean seconds a player waits before a move"
    )
    ap.add_argument("--repeat", type=int, default=1, help="run each case this many times")
    ap.add_argument(
        "--database",
        default=None,
        help="SQLAlchemy URL (default: temporary SQLite); one process only",
    )
    ap.add_argument(
        "--processes",
        type=int,
        default=1,
        help="N >= 2: N processes on PostgreSQL beside one on SQLite and one on PostgreSQL",
    )
    ap.add_argument(
        "--failover",
        action="store_true",
        help="with --processes: time the takeover of a killed owner's bot tables",
    )
    ap.add_argument(
        "--together",
        action="store_true",
        help="with --processes: both players of a table on one process (not its creator), "
        "as a proxy hashing the table's path places them",
    )
    ap.add_argument(
        "--failover-tables", type=int, default=5, help="bot tables the killed process owns"
    )
    ap.add_argument("--out", default=None, help="write results/<OUT>.json (default: load, or "
                    "load-cluster with --processes)")  # fmt: skip
    ap.add_argument("--no-write", action="store_true", help="do not write the JSON")
    args = ap.parse_args(argv)
    if args.processes < 1 or (args.processes == 1 and args.failover):
        ap.error("--processes must be 1, or 2 or more (with --failover: 2 or more)")
    if args.processes > 1 and args.database:
        ap.error("--database is for one process; --processes starts its own PostgreSQL")
    console = Console(width=None if sys.stdout.isatty() else 150)
    rows = []
    runs = [
        (int(n), float(k))
        for k in args.think.split(",")
        for n in args.tables.split(",")
        for _ in range(args.repeat)
    ]
    for count, think in runs:
        setups: list[tuple[str | None, int]] = [(args.database, 1)]
        if args.processes > 1:
            setups += [("postgresql", 1), ("postgresql", args.processes)]
        for db, processes in setups:
            with contextlib.ExitStack() as stack:
                if db == "postgresql":
                    url = stack.enter_context(postgres_cluster())
                else:
                    tmp = stack.enter_context(tempfile.TemporaryDirectory(prefix="rummy-load-"))
                    url = db or f"sqlite:///{tmp}/load.db"
                row = case(url, processes, count, args, think)
            rows.append(row)
            console.print(row)
    report(console, rows)
    extra = costs(rows)
    for c in extra:
        cpu = c["extra_server_cpu_ms_per_move"]
        console.print(
            f"{c['processes']} processes, {c['tables']} tables: forwarding and fan-out add "
            f"{c['extra_p50_ms']:+.1f} ms at p50, {c['extra_p99_ms']:+.1f} ms at p99 and "
            f"{'?' if cpu is None else f'{cpu:+.2f}'} server CPU ms per move; p50 of a "
            f"forwarded move {c['forwarded_p50_ms']:.1f} ms, of the owner's player's "
            f"{c['owner_side_p50_ms']:.1f} ms"
        )
    takeover = None
    if args.failover:
        takeover = failover(args.processes, args.failover_tables)
        console.print(
            f"failover: {takeover['taken_over']} of {takeover['tables']} tables of a killed "
            f"process moved on {takeover['first_move_s']} s after the kill (first and last); "
            f"leases taken after {takeover['lease_s']} s"
        )
    if not args.no_write:
        name = args.out or ("load-cluster" if args.processes > 1 else "load")
        payload = {"cpus": os.cpu_count(), "runs": rows, "cluster_cost": extra}
        if takeover is not None:
            payload["failover"] = takeover
        console.print(f"wrote {write_results(name, payload)}")


if __name__ == "__main__":
    main()

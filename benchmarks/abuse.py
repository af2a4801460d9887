"""Abuse benchmark: do tables of hard bots slow down the people at other tables?
(issue 15, finding 3: five six-seat all-hard bot tables took everyone's ping from
1 ms to 257 ms).  Goal: with 20 six-seat all-hard tables on 2 cores, the people's
move p99 at most doubles.

Each case starts a fresh server in a child process (SQLite in a temporary directory,
the server's own bot settings, per-address limits off since every client is
127.0.0.1), creates ``--bot-tables`` tables of six ``hard`` bots, which start playing
at once, and ``--human-tables`` tables of two scripted people.  A person answers
each turn with a random legal move after a pause of 0.5 to 2 s and pings the server
every second.  Measured after a warm-up: a move's latency (sent until the state that
includes it arrives) and a ping's (until its pong).

Cases, in one run so that they can be compared:

* ``people only``: no bot tables, the baseline;
* ``+ bots, pool``: the bot tables, thinking in the server's pool of lower-priority
  processes (the default);
* ``+ bots, in process`` (unless ``--no-in-process``): the same tables with the bots
  thinking in a thread of the server process (``bot_workers=0``), as before issue 15;
* ``huge arrangement`` (issue 27, finding 1): no bot tables; one client creates
  tables of 52-card three-deck hands (a server with its rules policy off) and says
  hello as their creator, one after another, each hello asking for the arrangement;
* ``many distinct specs`` (finding 4): no bot tables; one client creates tables of
  three-deck rule sets, each new (points, shortest run, longest meld), one after
  another, each asking for new meld tables;
* ``a long match's reviews`` (finding 3): no bot tables; one client plays out the
  longest round the default rules policy admits on both seats of a table, then asks
  for its review from two sockets a seat, again as soon as each is answered or
  refused (``--only review`` runs it alone after the baseline).

    python benchmarks/abuse.py                        # 20 bot tables, 40 s a case
    python benchmarks/abuse.py --bot-tables 5 --duration 20 --no-in-process

``--hint-flood`` measures instead whether a hint flood starves the people's bots
(issue 27, finding 2): ``--human-tables`` people each play a ``medium`` bot, with and
without a stranger (another loopback address, 127.0.0.2) whose three tabs on one seat
ask for hints without pause: once with no hint limit (``hints_per_minute`` 0, so the
pool's fairness alone is measured), once with the default limit.  Reported: the
bots' answer time (from the state where the bot is to act to the state with its move,
``bot_delay`` included) and the people's ping.  Goal: p99 at most doubles.

    python benchmarks/abuse.py --hint-flood --human-tables 4 --duration 40

``--opponents`` measures whether a stranger's tables of bots slow a person's ``hard``
opponent (issue 27, finding 5): ``--human-tables`` people each play a ``hard`` bot,
with and without ``--bot-tables`` six-seat tables of hard bots made by another address.

    python benchmarks/abuse.py --opponents --bot-tables 30 --human-tables 2 --duration 60
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import tempfile
import time
from typing import Any

import httpx
from results_file import write_results
from rich.console import Console
from rich.table import Table
from webbench import UNLIMITED, Stats, cpu_seconds, create_tables, percentile_ms, player, server
from websockets.asyncio.client import connect

from rummykit.web.settings import Settings

GOAL = 2.0
"""The people's move p99 with the bot tables, over the baseline, at most."""
PAUSE = (0.5, 2.0)
"""Seconds a scripted person takes for a move."""
BOT_SEATS = 6
CRAFTED = (
    "kalooki(decks=3, jokers=2, jokers_per_meld=2, hand_size=52, max_players=2, "
    "multiple_melds=true)"
)
"""Issue 27's rules: one hello of their creator held the event loop for 54 s (the
rules policy refuses them; the case runs with it off)."""
ADMITTED = "kalooki(hand_size=15, max_players=2, jokers_per_meld=2, multiple_melds=true)"
"""The largest hands and the most jokers the default rules policy admits: 15 cards of
two decks and four jokers a seat."""
FLOODER = "127.0.0.2"
"""The attackers' address (the hint flooder's too): another client than the people
(127.0.0.1)."""
NO_POLICY = {
    "policy_max_hand": 0, "policy_cards_per_seat": 0, "policy_max_turns": 0,
    "policy_max_restocks": 0, "policy_max_buys": 0, "policy_max_deals": 0,
}  # fmt: skip


def attacker(base: str) -> httpx.AsyncClient:
    """The attacker's HTTP client, from :data:`FLOODER`: another address than the
    people's, so that with the default limits each is counted on its own."""
    transport = httpx.AsyncHTTPTransport(local_address=FLOODER)
    return httpx.AsyncClient(base_url=base, timeout=120, transport=transport)


async def huge_arrangements(base: str, stop: float, rules: str = CRAFTED) -> int:
    """Crafted tables and their creator's hello, one after another, until ``stop``;
    a creation the server refuses (429: the address's tables a minute) is tried again
    at once, and counts as an attack."""
    done = 0
    seats = [{"name": "A"}, {"name": "B"}]
    async with attacker(base) as http:
        while time.monotonic() < stop:
            r = await http.post("/api/tables", json={"rules": rules, "seats": seats})
            done += 1
            if r.status_code == 429:
                continue
            t = r.json()
            url = base.replace("http://", "ws://") + f"/ws/{t['id']}"
            async with connect(
                url, max_size=2**22, open_timeout=120, local_addr=(FLOODER, 0)
            ) as ws:
                secret = t["seats"][0]["secret"]
                await ws.send(json.dumps({"type": "hello", "seat": 0, "secret": secret}))
                while json.loads(await ws.recv())["type"] != "state":
                    pass
    return done


async def admitted_arrangements(base: str, stop: float) -> int:
    """:func:`huge_arrangements` with the largest hands the default policy admits."""
    return await huge_arrangements(base, stop, ADMITTED)


async def distinct_specs(base: str, stop: float) -> int:
    """Tables of a new three-deck rule set each, one after another, until ``stop``;
    the ones the server refuses (429: ``new_rule_sets_per_minute`` spent) count too."""
    done = 0
    seats = [{"name": f"P{i}"} for i in range(5)]
    async with attacker(base) as http:
        while time.monotonic() < stop:
            spec = f"contract_big(ace_points={done % 100}, min_run={3 + done % 4}, " + (
                f"max_meld_size={8 + done // 4 % 40})"
            )
            r = await http.post("/api/tables", json={"rules": spec, "seats": seats})
            if r.status_code != 429:
                r.raise_for_status()
            done += 1
    return done


LONG = "basic(decks=2, set_suits=any, max_turns=1000, max_restocks=10, deals=3)"
"""Issue 27's long-match rules (``max_turns=10000, max_restocks=100``) cut to what the
default rules policy admits."""
REVIEW_TABS = 2
"""Sockets the attacker opens on each of its two seats to ask for reviews."""


LONG_TABLE = "long-round"
LONG_SECRETS = ("seat-zero-secret-of-the-attacker", "seat-one-secret-of-the-attacker")


def prepare_long_round(database_url: str) -> None:
    """Store a table of :data:`LONG` whose first round two players have played out by
    drawing and discarding at random, never melding, so that it ends at the turn
    limit; both seats are the attacker's (:data:`LONG_SECRETS`).  Played before the
    server starts: over the WebSocket, at the limits' message rate, it took minutes.
    The server loads it from the database at the first hello, as after a restart."""
    from rummykit.moves import LAYOFF, MELD
    from rummykit.serialize import state_to_json
    from rummykit.state import new_game
    from rummykit.web.live import Seat, seats_to
    from rummykit.web.store import Store, StoredTable, digest

    state = new_game(LONG, ["A", "B"], seed=27)
    rng = random.Random(27)
    while not state.results:
        legal = state.legal_moves()
        quiet = [m for m in legal if m.kind not in (MELD, LAYOFF)]
        state.apply(rng.choice(quiet or legal))
    seats = [Seat("human", n, digest=digest(k), claimed=True, open=False)
             for n, k in zip("AB", LONG_SECRETS, strict=True)]  # fmt: skip
    store = Store(database_url)
    try:
        table = StoredTable(LONG_TABLE, LONG, seats_to(seats), False, 0.0,
                            len(state.history), state_to_json(state), False)  # fmt: skip
        store.create_table(table)
    finally:
        store.close()


async def long_reviews(base: str, stop: float) -> int:
    """The longest round the default policy admits, played out
    (:func:`prepare_long_round`), reviewed from :data:`REVIEW_TABS` sockets a seat,
    each asking again as soon as it is answered or refused, until ``stop``: every
    answer counts."""
    url = base.replace("http://", "ws://") + f"/ws/{LONG_TABLE}"
    done = 0

    async def asker(seat: int) -> None:
        nonlocal done
        async with connect(url, max_size=2**24, open_timeout=120, local_addr=(FLOODER, 0)) as ws:
            secret = LONG_SECRETS[seat]
            await ws.send(json.dumps({"type": "hello", "seat": seat, "secret": secret}))
            while time.monotonic() < stop:
                await ws.send(json.dumps({"type": "review", "round": 1}))
                while time.monotonic() < stop:
                    try:
                        left = max(0.01, stop - time.monotonic())
                        msg = json.loads(await asyncio.wait_for(ws.recv(), timeout=left))
                    except TimeoutError:
                        return
                    if msg["type"] == "review" or (
                        msg["type"] == "error" and msg.get("round") == 1
                    ):
                        done += 1
                        break

    await asyncio.gather(*(asker(seat) for seat in (0, 1) for _ in range(REVIEW_TABS)))
    return done


ATTACKS = {
    "huge": huge_arrangements,
    "admitted": admitted_arrangements,
    "specs": distinct_specs,
    "review": long_reviews,
}


async def bot_versions(base: str, tables: list[dict[str, Any]]) -> int:
    """The bot tables' versions added up: how many moves they have played."""
    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        rs = await asyncio.gather(*(http.get(f"/api/tables/{t['id']}") for t in tables))
    return sum(int(r.json()["version"]) for r in rs if r.status_code == 200)


async def measure(
    base: str,
    pid: int,
    bot_tables: int,
    human_tables: int,
    seconds: float,
    warmup: float,
    attack: str | None = None,
) -> dict[str, Any]:
    hard = {"rules": "basic", "seats": [{"kind": "bot", "difficulty": "hard"}] * BOT_SEATS}
    bots = await create_tables(base, hard, bot_tables)
    people = {"rules": "basic", "deals": 1, "seats": [{"name": "A"}, {"name": "B"}]}
    humans = await create_tables(base, people, human_tables)
    stats = Stats()
    stop = time.monotonic() + warmup + seconds
    tasks = [
        asyncio.create_task(player(base, t, seat, stats, stop, PAUSE, ping_every=1.0))
        for t in humans
        for seat in (0, 1)
    ]
    if attack is not None:
        tasks.append(asyncio.create_task(ATTACKS[attack](base, stop)))
    await asyncio.sleep(warmup)
    stats.measuring = True
    t0 = time.monotonic()
    cpu0 = cpu_seconds(pid)
    played0 = await bot_versions(base, bots)
    done = await asyncio.gather(*tasks, return_exceptions=True)
    elapsed = time.monotonic() - t0
    cpu1 = cpu_seconds(pid)
    played = await bot_versions(base, bots) - played0
    moves, pings = sorted(stats.latencies), sorted(stats.pings)
    return {
        "bot_tables": bot_tables,
        "human_tables": human_tables,
        "seconds": round(elapsed, 1),
        "moves": len(moves),
        "move_p50_ms": round(percentile_ms(moves, 0.50), 2),
        "move_p99_ms": round(percentile_ms(moves, 0.99), 2),
        "move_max_ms": round(moves[-1] * 1000, 2) if moves else None,
        "pings": len(pings),
        "ping_p50_ms": round(percentile_ms(pings, 0.50), 2),
        "ping_p99_ms": round(percentile_ms(pings, 0.99), 2),
        "bot_moves_per_s": round(played / elapsed, 2) if elapsed else 0.0,
        "server_cpu_s": round(cpu1[0] - cpu0[0], 2),
        "bot_workers_cpu_s": round(cpu1[1] - cpu0[1], 2),
        "errors": stats.errors,
        "attacks": done[-1] if attack is not None else None,
    }


async def person_vs_bot(
    base: str, stop: float, answers: list[float], pings: list[float], difficulty: str = "medium"
) -> None:
    """A person against a bot: a random legal move after 0.5-2 s, a ping a second;
    appends the bot's answer times and the pings' round trips."""
    bot = {"kind": "bot", "difficulty": difficulty}
    body = {"rules": "basic", "seats": [{"kind": "human"}, bot]}
    table = (await create_tables(base, body, 1))[0]
    url = base.replace("http", "ws") + f"/ws/{table['id']}"
    rng = random.Random(table["id"])
    async with connect(url, max_size=2**22, open_timeout=60, ping_interval=None) as ws:
        await ws.send(
            json.dumps({"type": "hello", "seat": 0, "secret": table["seats"][0]["secret"]})
        )
        thinking: set[asyncio.Task[None]] = set()

        async def play(version: int, legal: list[dict[str, Any]]) -> None:
            await asyncio.sleep(rng.uniform(0.5, 2.0))
            move = {"kind": "text", "text": rng.choice(legal)["text"]}
            await ws.send(json.dumps({"type": "move", "version": version, "move": move}))

        bot_since: float | None = None
        ping_at = time.perf_counter() + 1.0
        sent_ping: float | None = None
        while time.monotonic() < stop:
            try:
                raw = await asyncio.wait_for(ws.recv(), timeout=0.2)
            except TimeoutError:
                raw = None
            now = time.perf_counter()
            if sent_ping is None and now >= ping_at:
                await ws.send(json.dumps({"type": "ping"}))
                sent_ping = now
            if raw is None:
                continue
            msg = json.loads(raw)
            if msg["type"] == "pong" and sent_ping is not None:
                pings.append(now - sent_ping)
                sent_ping, ping_at = None, now + 1.0
            if msg["type"] != "state":
                continue
            if bot_since is not None:
                answers.append(now - bot_since)
                bot_since = None
            g = msg["game"]
            if g["phase"] == "over":
                await ws.send(json.dumps({"type": "rematch", "version": msg["version"]}))
            elif g["current"] == 1:
                bot_since = now
            elif g["legal"]:  # the person's pause runs beside the reading loop
                task = asyncio.create_task(play(msg["version"], g["legal"]))
                thinking.add(task)
                task.add_done_callback(thinking.discard)


async def flood_hints(base: str, stop: float, tabs: int = 3) -> int:
    """A stranger's table of two people, ``tabs`` sockets on the seat to act asking for
    hints without pause; returns the hints answered."""
    async with httpx.AsyncClient(
        base_url=base, timeout=60, transport=httpx.AsyncHTTPTransport(local_address=FLOODER)
    ) as http:
        r = await http.post("/api/tables", json={"rules": "basic", "seats": [{}, {}]})
        r.raise_for_status()
        table = r.json()
    url = base.replace("http", "ws") + f"/ws/{table['id']}"
    got = [0]
    async with connect(url, local_addr=(FLOODER, 0)) as watch:
        await watch.send(json.dumps({"type": "hello"}))
        while (msg := json.loads(await watch.recv()))["type"] != "state":
            pass
    seat = msg["game"]["current"]  # nobody moves: the seat to act stays the same
    hello = {"type": "hello", "seat": seat, "secret": table["seats"][seat]["secret"]}

    async def tab() -> None:
        async with connect(url, max_size=2**22, local_addr=(FLOODER, 0)) as ws:
            await ws.send(json.dumps(hello))
            version = 0
            while time.monotonic() < stop:
                msg = json.loads(await ws.recv())
                if msg["type"] == "state":
                    version = msg["version"]
                elif msg["type"] == "hint":
                    got[0] += 1
                elif msg["type"] == "error":  # refused: ask again at the message limit's pace
                    await asyncio.sleep(1 / Settings.rate)
                else:
                    continue
                await ws.send(json.dumps({"type": "hint", "version": version}))

    await asyncio.gather(*(tab() for _ in range(tabs)), return_exceptions=True)
    return got[0]


async def measure_flood(
    base: str,
    people: int,
    seconds: float,
    warmup: float,
    flood: bool,
    difficulty: str = "medium",
    bot_tables: int = 0,
) -> dict[str, Any]:
    if bot_tables:  # a stranger's tables of six hard bots, on another address
        hard = {"rules": "basic", "seats": [{"kind": "bot", "difficulty": "hard"}] * BOT_SEATS}
        async with httpx.AsyncClient(
            base_url=base, timeout=60, transport=httpx.AsyncHTTPTransport(local_address=FLOODER)
        ) as http:
            for _ in range(bot_tables):
                (await http.post("/api/tables", json=hard)).raise_for_status()
    stop = time.monotonic() + warmup + seconds
    answers: list[float] = []
    pings: list[float] = []
    tasks = [
        asyncio.create_task(person_vs_bot(base, stop, answers, pings, difficulty))
        for _ in range(people)
    ]
    flooder = asyncio.create_task(flood_hints(base, stop)) if flood else None
    await asyncio.sleep(warmup)
    answers.clear()
    pings.clear()
    await asyncio.gather(*tasks, return_exceptions=True)
    hints = await flooder if flooder is not None else 0
    answers.sort()
    pings.sort()
    return {
        "people": people,
        "bot_answers": len(answers),
        "bot_p50_ms": round(percentile_ms(answers, 0.50), 1),
        "bot_p99_ms": round(percentile_ms(answers, 0.99), 1),
        "bot_max_ms": round(answers[-1] * 1000, 1) if answers else None,
        "pings": len(pings),
        "ping_p99_ms": round(percentile_ms(pings, 0.99), 2),
        "hints": hints,
    }


def hint_flood(args: argparse.Namespace, console: Console) -> None:
    """The ``--hint-flood`` and ``--opponents`` comparisons (the module's docstring)."""
    rows = []
    limited = {**UNLIMITED, "hints_per_minute": Settings.hints_per_minute}
    difficulty = "hard" if args.opponents else "medium"
    cases: tuple[tuple[str, bool, dict[str, Any], int], ...] = (
        ("people only", False, UNLIMITED, 0),
        ("+ hint flood, no hint limit", True, UNLIMITED, 0),
        (f"+ hint flood, {Settings.hints_per_minute:g} hints/min", True, limited, 0),
    )
    if args.opponents:
        cases = (
            ("people only", False, UNLIMITED, 0),
            (f"+ {args.bot_tables} tables of hard bots", False, UNLIMITED, args.bot_tables),
        )
    for name, flood, settings, bot_tables in cases:
        tmp = tempfile.mkdtemp(prefix="rummy-abuse-")
        with server(f"sqlite:///{tmp}/abuse.db", settings) as (base, _pid):
            row = asyncio.run(
                measure_flood(
                    base,
                    args.human_tables,
                    args.duration,
                    args.warmup,
                    flood,
                    difficulty,
                    bot_tables,
                )
            )
        row["case"] = name
        rows.append(row)
        console.print(row)
    for r in rows:
        r["bot_p99_ratio"] = round(r["bot_p99_ms"] / rows[0]["bot_p99_ms"], 2)
        r["ping_p99_ratio"] = round(r["ping_p99_ms"] / rows[0]["ping_p99_ms"], 2)
    beside = (
        f"{args.bot_tables} six-seat tables of hard bots"
        if args.opponents
        else "a stranger's hint flood (3 tabs)"
    )
    table = Table(
        title=f"People's {difficulty} bots beside {beside} ({os.cpu_count()} cores; "
        f"{args.human_tables} people, {args.duration:g} s)"
    )
    cols = ("case", "bot answers", "bot p50 ms", "bot p99 ms", "× base", "bot max ms",
            "ping p99 ms", "× base", "hints")  # fmt: skip
    for col in cols:
        table.add_column(col, justify="left" if col == "case" else "right")
    for r in rows:
        table.add_row(
            r["case"], str(r["bot_answers"]), f"{r['bot_p50_ms']:.0f}", f"{r['bot_p99_ms']:.0f}",
            f"{r['bot_p99_ratio']:.2f}", f"{r['bot_max_ms']}", f"{r['ping_p99_ms']:.1f}",
            f"{r['ping_p99_ratio']:.2f}", str(r["hints"]),
        )  # fmt: skip
    console.print(table)
    met = all(r["bot_p99_ratio"] <= GOAL and r["ping_p99_ratio"] <= GOAL for r in rows[1:])
    console.print(
        f"goal: bot and ping p99 at most {GOAL:g}× the baseline: {'met' if met else 'NOT met'}"
    )
    if not args.no_write:
        flag = f"--opponents --bot-tables {args.bot_tables}" if args.opponents else "--hint-flood"
        out = write_results(
            "abuse_opponents" if args.opponents else "abuse_hint_flood",
            {
                "command": f"python benchmarks/abuse.py {flag} "
                f"--human-tables {args.human_tables} --duration {args.duration:g}",
                "cpus": os.cpu_count(),
                "goal_p99_ratio": GOAL,
                "met": met,
                "runs": rows,
            },
        )
        console.print(f"wrote {out}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--bot-tables", type=int, default=20, help="six-seat all-hard tables")
    ap.add_argument("--human-tables", type=int, default=20, help="tables of two people")
    ap.add_argument("--duration", type=float, default=40.0, help="measured seconds a case")
    ap.add_argument("--warmup", type=float, default=5.0)
    ap.add_argument("--no-in-process", action="store_true", help="skip the in-process case")
    ap.add_argument("--no-loop-cases", action="store_true", help="skip the issue 27 cases")
    ap.add_argument("--no-write", action="store_true", help="do not write results/abuse.json")
    ap.add_argument(
        "--only",
        nargs="+",
        metavar="ATTACK",
        choices=sorted(ATTACKS),
        help="after the baseline, run only these issue 27 cases ("
        + ", ".join(sorted(ATTACKS))
        + ")",
    )
    ap.add_argument(
        "--limits",
        choices=("off", "default"),
        default="off",
        help="the server's per-address limits: off (every client of a benchmark is on "
        "loopback), or the defaults, the attacker on its own address",
    )
    ap.add_argument("--hint-flood", action="store_true", help="the hint flood case instead")
    ap.add_argument(
        "--opponents", action="store_true", help="people's hard bots beside --bot-tables instead"
    )
    args = ap.parse_args()
    console = Console(width=170)  # the table is wide; do not fold it in a log file
    if args.hint_flood or args.opponents:
        hint_flood(args, console)
        return
    cases: list[tuple[str, int, dict[str, Any], str | None]] = [
        ("people only", 0, {}, None),
        ("+ bots, pool", args.bot_tables, {}, None),
    ]
    if not args.no_in_process:
        cases.append(("+ bots, in process", args.bot_tables, {"bot_workers": 0}, None))
    if not args.no_loop_cases:
        cases.append(("largest admitted hands", 0, {}, "admitted"))
        cases.append(("huge arrangement (policy off)", 0, NO_POLICY, "huge"))
        cases.append(("many distinct specs", 0, {}, "specs"))
        cases.append(("a long match's reviews", 0, {}, "review"))
    if args.only:
        cases = [cases[0]] + [c for c in cases if c[3] in args.only]
    rows = []
    for name, count, extra, attack in cases:
        tmp = tempfile.mkdtemp(prefix="rummy-abuse-")
        limits = UNLIMITED if args.limits == "off" else {}
        url = f"sqlite:///{tmp}/abuse.db"
        if attack == "review":
            prepare_long_round(url)
        with server(url, {**limits, **extra}) as (base, pid):
            row = asyncio.run(
                measure(base, pid, count, args.human_tables, args.duration, args.warmup, attack)
            )
        row["case"] = name
        rows.append(row)
        console.print(row)
    base_p99 = rows[0]["move_p99_ms"]
    base_ping = rows[0]["ping_p99_ms"]
    for r in rows:
        r["move_p99_ratio"] = round(r["move_p99_ms"] / base_p99, 2)
        r["ping_p99_ratio"] = round(r["ping_p99_ms"] / base_ping, 2)
    table = Table(
        title=f"People's latency beside {args.bot_tables} six-seat all-hard bot tables "
        f"({os.cpu_count()} cores; {args.human_tables} tables of 2 people, a move every "
        f"{PAUSE[0]:g}-{PAUSE[1]:g} s, a ping a second)"
    )
    cols = ("case", "bot tables", "attacks", "moves", "move p50 ms", "move p99 ms", "× base",
            "ping p50 ms", "ping p99 ms", "× base", "bot moves/s", "server CPU s",
            "bot CPU s", "errors")  # fmt: skip
    for col in cols:
        table.add_column(col, justify="left" if col == "case" else "right")
    for r in rows:
        table.add_row(
            r["case"], str(r["bot_tables"]), str(r["attacks"] or "-"), str(r["moves"]),
            f"{r['move_p50_ms']:.1f}",
            f"{r['move_p99_ms']:.1f}", f"{r['move_p99_ratio']:.2f}", f"{r['ping_p50_ms']:.1f}",
            f"{r['ping_p99_ms']:.1f}", f"{r['ping_p99_ratio']:.2f}", f"{r['bot_moves_per_s']:.1f}",
            f"{r['server_cpu_s']:.1f}", f"{r['bot_workers_cpu_s']:.1f}", str(r["errors"]),
        )  # fmt: skip
    console.print(table)
    pool = rows[1]["move_p99_ratio"]
    verdict = "met" if pool <= GOAL else "NOT met"
    console.print(
        f"goal: move p99 at most {GOAL:g}× the baseline with bots: {pool:.2f}× ({verdict})"
    )
    for r in rows[2:]:
        ok = "met" if r["move_p99_ratio"] <= GOAL else "NOT met"
        console.print(f"{r['case']}: move p99 {r['move_p99_ratio']:.2f}× the baseline ({ok})")
    if not args.no_write:
        out = write_results(
            "abuse",
            {
                "command": "python benchmarks/abuse.py "
                f"--bot-tables {args.bot_tables} --human-tables {args.human_tables} "
                f"--duration {args.duration:g}"
                + (" --no-in-process" if args.no_in_process else "")
                + (" --no-loop-cases" if args.no_loop_cases else "")
                + f" --limits {args.limits}",
                "cpus": os.cpu_count(),
                "goal_move_p99_ratio": GOAL,
                "met": pool <= GOAL,
                "runs": rows,
            },
        )
        console.print(f"wrote {out}")


if __name__ == "__main__":
    main()

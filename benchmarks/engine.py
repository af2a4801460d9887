"""Engine benchmark: random playouts of whole matches, per preset and player count.

For every preset at 2 and 4 players it plays the same fixed set of matches (seeds
0..G-1) several times and reports the median of

* **actions/s** and **games/s** through :func:`rummykit.bots.play_match` with
  :class:`~rummykit.bots.RandomBot` in every seat, so every action builds the
  acting player's :class:`~rummykit.view.PlayerView` (the way every bot plays);
* **engine actions/s** for the same matches driven directly on the state
  (``legal_moves`` + ``apply``, no views): the cost of the rules alone.

Both drivers make the same random choices, so they play identical matches (checked).
The goal is at least 30,000 actions/s for basic with 2 players through views.

    python benchmarks/engine.py            # full run (about 1-2 minutes), writes results
    python benchmarks/engine.py --quick    # smoke run: one repetition of a few matches
    python benchmarks/engine.py --presets rum500,kalooki   # some presets only
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import random
import statistics
import sys
import time
from importlib import metadata
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from rummykit import new_game
from rummykit.bots import RandomBot, play_match

PRESETS = (
    "basic", "classic", "cg101", "rami51", "rum500", "kalooki", "indian", "indian_pool101",
    "indian_pool201", "indian_deals", "contract", "kalooki_big", "contract_big", "rummikub",
)  # fmt: skip
PLAYERS = (2, 4)
PRESET_PLAYERS = {"contract": (3, 4), "kalooki_big": (5, 6), "contract_big": (5, 8)}
"""Player counts of presets that cannot seat two (Contract Rummy: three or four; the
three-deck games: five and more)."""
GOAL = ("basic", 2, 30_000)
"""Preset, players and actions/s the view-driven playouts should reach."""

GAMES: dict[tuple[str, int], int] = {
    # Matches per repetition, about one second each on a 2020s laptop core.  Matches of
    # random bots are long: basic 2p averages ~5,500 actions, rami51 2p ~1,700 but
    # each action costs ~6x more (two decks, jokers, the 51-point opening search).
    ("basic", 2): 10,
    ("basic", 4): 24,
    ("classic", 2): 12,
    ("classic", 4): 16,
    ("cg101", 2): 6,
    ("cg101", 4): 16,
    ("rami51", 2): 6,
    ("rami51", 4): 12,
    ("rum500", 2): 6,
    ("rum500", 4): 6,
    ("kalooki", 2): 6,
    ("kalooki", 4): 12,
    # Indian Rummy: random players drop often, so a deal is short (5-15 actions), and
    # the deal itself is much of the cost.
    ("indian", 2): 2000,
    ("indian", 4): 1000,
    ("indian_pool101", 2): 500,
    ("indian_pool101", 4): 200,
    ("indian_pool201", 2): 400,
    ("indian_pool201", 4): 150,
    ("indian_deals", 2): 1000,
    ("indian_deals", 4): 500,
    ("contract", 3): 2,
    ("contract", 4): 2,
    ("kalooki_big", 5): 6,
    ("kalooki_big", 6): 6,
    ("contract_big", 5): 2,
    ("contract_big", 8): 2,
    # Rummikub: a random deal is 60-90 turns, each listing its moves with a solver
    # search.  The solver keeps its last 64 plays; three deals a run are more positions
    # than that, so the engine driver, replaying the views' deals, finds none kept.
    ("rummikub", 2): 3,
    ("rummikub", 4): 3,
}
QUICK_GAMES = 2
REPS = 5
RESULTS = Path(__file__).resolve().parent / "results"


def run_views(preset: str, players: int, games: int) -> tuple[float, int]:
    """Seconds and actions to play ``games`` matches through views and RandomBots."""
    actions = 0
    start = time.perf_counter()
    for seed in range(games):
        _state, stats = play_match(preset, players, [RandomBot() for _ in range(players)], seed)
        actions += stats.actions
    return time.perf_counter() - start, actions


def run_engine(preset: str, players: int, games: int) -> tuple[float, int]:
    """The same matches driven on the state directly: no views, no bots."""
    actions = 0
    start = time.perf_counter()
    for seed in range(games):
        state = new_game(preset, players, seed)
        master = random.Random(seed)  # the per-seat generators play_match derives
        rngs = [random.Random(master.getrandbits(64)) for _ in range(players)]
        while not state.is_over():
            state.apply(rngs[state.current].choice(state.legal_moves()))
            actions += 1
    return time.perf_counter() - start, actions


def machine_info() -> dict[str, Any]:
    try:
        version = metadata.version("rummykit")
    except metadata.PackageNotFoundError:  # pragma: no cover - run from a bare checkout
        version = "unknown"
    info: dict[str, Any] = {
        "python": sys.version.split()[0],
        "implementation": platform.python_implementation(),
        "platform": platform.platform(),
        "machine": platform.machine(),
        "processor": platform.processor() or None,
        "cpu_count": os.cpu_count(),
        "date": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        "rummykit": version,
    }
    if hasattr(os, "getloadavg"):
        info["load_average_at_start"] = [round(x, 2) for x in os.getloadavg()]
    return info


def bench(preset: str, players: int, games: int, reps: int) -> dict[str, Any]:
    view_runs: list[tuple[float, int]] = []
    engine_runs: list[tuple[float, int]] = []
    for _ in range(reps):  # interleaved, so a change in machine load hits both alike
        view_runs.append(run_views(preset, players, games))
        engine_runs.append(run_engine(preset, players, games))
    actions = view_runs[0][1]
    if any(a != actions for _t, a in view_runs + engine_runs):
        raise SystemExit(f"{preset} {players}p: the two drivers played different matches")
    view_secs = statistics.median(t for t, _a in view_runs)
    engine_secs = statistics.median(t for t, _a in engine_runs)
    return {
        "preset": preset,
        "players": players,
        "games": games,
        "repetitions": reps,
        "actions": actions,
        "actions_per_game": actions / games,
        "median_seconds": view_secs,
        "actions_per_second": actions / view_secs,
        "games_per_second": games / view_secs,
        "engine_median_seconds": engine_secs,
        "engine_actions_per_second": actions / engine_secs,
        "view_overhead": view_secs / engine_secs - 1,
        "seconds_per_repetition": [round(t, 4) for t, _a in view_runs],
        "engine_seconds_per_repetition": [round(t, 4) for t, _a in engine_runs],
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="smoke run: 1 repetition, 2 games")
    parser.add_argument("--reps", type=int, default=None, help=f"repetitions (default {REPS})")
    parser.add_argument("--out", type=Path, default=None, help="JSON output file")
    parser.add_argument(
        "--presets", default=",".join(PRESETS), help="comma-separated presets (default: all)"
    )
    args = parser.parse_args(argv)
    reps = args.reps or (1 if args.quick else REPS)
    out: Path = args.out or RESULTS / ("engine-quick.json" if args.quick else "engine.json")
    console = Console()
    info = machine_info()
    console.print(
        f"rummykit {info['rummykit']} engine benchmark: Python {info['python']}, "
        f"{info['platform']}, {info['cpu_count']} CPUs; median of {reps} repetition(s)"
    )
    rows: list[dict[str, Any]] = []
    start = time.perf_counter()
    for preset in args.presets.split(","):
        for players in PRESET_PLAYERS.get(preset, PLAYERS):
            games = QUICK_GAMES if args.quick else GAMES[preset, players]
            with console.status(f"{preset}, {players} players, {games} matches x {reps}"):
                rows.append(bench(preset, players, games, reps))
    total = time.perf_counter() - start

    table = Table(
        title="Random playouts (RandomBot through PlayerViews)",
        caption="engine acts/s: same matches without views or bots; views: their extra cost",
    )
    table.add_column("rules")
    for name in ("matches", "acts/match", "acts/s", "matches/s", "engine acts/s"):
        table.add_column(name, justify="right")
    table.add_column("views", justify="right")
    for r in rows:
        table.add_row(
            f"{r['preset']} {r['players']}p",
            str(r["games"]),
            f"{r['actions_per_game']:,.0f}",
            f"{r['actions_per_second']:,.0f}",
            f"{r['games_per_second']:,.2f}",
            f"{r['engine_actions_per_second']:,.0f}",
            f"{r['view_overhead']:+.0%}",
        )
    console.print(table)

    g_preset, g_players, g_target = GOAL
    goal_rate = next(
        (
            r["actions_per_second"]
            for r in rows
            if r["preset"] == g_preset and r["players"] == g_players
        ),
        None,
    )
    met = goal_rate is not None and goal_rate >= g_target
    shown = "not measured" if goal_rate is None else f"{goal_rate:,.0f}"
    console.print(
        f"goal: {g_preset} {g_players}p >= {g_target:,} actions/s through views: "
        f"{shown} ({'met' if met else 'NOT met'}); total {total:.0f} s"
    )
    result = {
        "benchmark": "engine random playouts",
        "machine": info,
        "quick": args.quick,
        "repetitions": reps,
        "total_seconds": round(total, 2),
        "goal": {
            "preset": g_preset,
            "players": g_players,
            "actions_per_second": g_target,
            "measured": goal_rate,
            "met": met,
        },
        "results": rows,
    }
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(result, indent=2) + "\n")
    console.print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

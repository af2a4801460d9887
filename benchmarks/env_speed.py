"""Environment speed: rummykit's PettingZoo env against RLCard's gin-rummy env, one run.

Run inside ``.venv-bench`` (the only place rlcard is installed); peers that do not
import are skipped with a note.  Every env is stepped with random legal actions for a
fixed wall-clock budget, several times, and the median rate is reported:

* **rummykit AEC** (``rummykit.env.env``, the order-enforcing wrapper PettingZoo users
  get, and ``raw_env``): one ``last()`` (which builds the acting agent's observation
  vector and action mask) and one ``step()`` per action, the action drawn from the
  mask (read as booleans, see docs/env.md).  Gin, then every preset at 2 and 4 players;
* **rummykit engine only**: ``legal_actions()`` + ``apply_action()`` on the state, no
  views or observations: the ceiling the env's own work sits on;
* **RLCard** ``rlcard.make("gin-rummy")``: ``step()`` with an action drawn from the
  state's ``legal_actions`` (RLCard builds its observation inside ``step``);
* **PettingZoo** ``gin_rummy_v4`` (RLCard-backed), when the installed PettingZoo still
  ships it.

Then the cost of one observation vector in microseconds, over positions sampled from
random play: building the view and encoding it (:func:`rummykit.env.observation.encode`),
and encoding straight from the state (:func:`~rummykit.env.observation.encode_state`,
what the envs do).

    .venv-bench/bin/python benchmarks/env_speed.py           # full run (about 2 minutes)
    .venv-bench/bin/python benchmarks/env_speed.py --quick   # smoke run

Prints a table and writes ``benchmarks/results/env_speed.json``.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

import numpy as np
from results_file import write_results
from rich.console import Console
from rich.table import Table

from rummykit import new_game
from rummykit.env import env, raw_env
from rummykit.env.observation import encode, encode_state
from rummykit.rules import PRESETS
from rummykit.state import GameState

GOAL_RATIO = 10.0
"""Issue #17: the AEC env on Gin at least 10x RLCard's gin-rummy env steps/s."""


def timed(
    runners: dict[str, Callable[[float], int]], budget: float, repeats: int
) -> dict[str, float]:
    """Median steps/s of each ``runner(budget)`` (which returns the steps it made).

    The runners take turns, one run each per repeat, so a change in the machine's load
    (it may be shared) falls on all of them alike and the ratios stay fair."""
    rates: dict[str, list[float]] = {name: [] for name in runners}
    for _ in range(repeats):
        for name, run in runners.items():
            t = time.perf_counter()
            steps = run(budget)
            rates[name].append(steps / (time.perf_counter() - t))
    return {name: statistics.median(r) for name, r in rates.items()}


def aec_runner(make: Callable[[], Any], seed: int) -> Callable[[float], int]:
    def run(budget: float) -> int:
        e = make()
        e.reset(seed=seed)
        rng = random.Random(seed)
        steps = 0
        end = time.perf_counter() + budget
        while time.perf_counter() < end:
            for _ in range(200):
                obs, _, terminated, truncated, _ = e.last()
                if terminated or truncated:
                    if not e.agents or all(e.terminations.values()):
                        e.reset()
                    else:
                        e.step(None)
                    continue
                # Read as booleans: numpy finds the nonzero entries of an int8 array
                # about ten times slower (5 us for Gin's 4,126 actions).
                legal = obs["action_mask"].view(np.bool_).nonzero()[0]
                e.step(int(legal[rng.randrange(len(legal))]))
                steps += 1
        return steps

    return run


def engine_runner(spec: str, players: int, seed: int) -> Callable[[float], int]:
    def run(budget: float) -> int:
        rng = random.Random(seed)
        game = seed
        s = new_game(spec, players=players, seed=game)
        steps = 0
        end = time.perf_counter() + budget
        while time.perf_counter() < end:
            for _ in range(200):
                if s.is_over() or s.round_no > 1:
                    game += 1
                    s = new_game(spec, players=players, seed=game)
                legal = s.legal_actions()
                s.apply_action(legal[rng.randrange(len(legal))])
                steps += 1
        return steps

    return run


def rlcard_runner(seed: int) -> Callable[[float], int] | str:
    try:
        import rlcard
    except ImportError as exc:
        return f"not installed ({exc.name})"

    def run(budget: float) -> int:
        e = rlcard.make("gin-rummy", config={"seed": seed})
        rng = random.Random(seed)
        steps = 0
        state, _ = e.reset()
        end = time.perf_counter() + budget
        while time.perf_counter() < end:
            for _ in range(200):
                if e.is_over():
                    state, _ = e.reset()
                legal = list(state["legal_actions"])
                state, _ = e.step(legal[rng.randrange(len(legal))])
                steps += 1
        return steps

    return run


def pettingzoo_gin_runner(seed: int) -> Callable[[float], int] | str:
    try:
        from pettingzoo.classic import gin_rummy_v4
    except Exception as exc:  # ImportError, or PettingZoo's deprecation error
        import pettingzoo

        return f"PettingZoo {pettingzoo.__version__} has no gin_rummy_v4 ({type(exc).__name__})"
    return aec_runner(gin_rummy_v4.env, seed)


def sampled_states(spec: str, players: int, count: int, seed: int) -> list[tuple[GameState, int]]:
    """Positions from random play, each with the seat whose view is encoded."""
    rng = random.Random(seed)
    out = []
    game = seed
    s = new_game(spec, players=players, seed=game)
    while len(out) < count:
        if s.is_over():
            game += 1
            s = new_game(spec, players=players, seed=game)
        s.apply_action(rng.choice(s.legal_actions()))
        if rng.random() < 0.05:
            out.append((s.clone(), rng.randrange(players)))
    return out


def encode_cost(spec: str, players: int, quick: bool) -> tuple[float, float, float]:
    """Mean µs to build a view, to encode it, and to encode the same seat straight
    from the state, over sampled positions."""
    states = sampled_states(spec, players, 50 if quick else 400, seed=1)
    views = [s.view(p) for s, p in states]  # also warms the rules' caches (Gin's solver)
    for v in views:
        encode(v)
    loops = 3 if quick else 20
    t = time.perf_counter()
    for _ in range(loops):
        for s, p in states:
            s.view(p)
    view_us = (time.perf_counter() - t) / (loops * len(states)) * 1e6
    t = time.perf_counter()
    for _ in range(loops):
        for v in views:
            encode(v)
    enc_us = (time.perf_counter() - t) / (loops * len(views)) * 1e6
    t = time.perf_counter()
    for _ in range(loops):
        for s, p in states:
            encode_state(s, p)
    state_us = (time.perf_counter() - t) / (loops * len(states)) * 1e6
    return view_us, enc_us, state_us


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="smoke run: short budgets")
    parser.add_argument("--repeats", type=int, default=None, help="runs per figure (5)")
    parser.add_argument("--budget", type=float, default=None, help="seconds per run (1.0)")
    args = parser.parse_args(argv)
    repeats = args.repeats or (1 if args.quick else 5)
    budget = args.budget or (0.2 if args.quick else 1.0)
    console = Console()

    runners: dict[str, Callable[[float], int]] = {}
    skipped: dict[str, str] = {}

    def add(name: str, runner: Callable[[float], int] | str) -> None:
        if isinstance(runner, str):
            skipped[name] = runner
        else:
            runners[name] = runner

    add("rummykit AEC env(), gin 2p", aec_runner(lambda: env(rules="gin", players=2), 0))
    add("rummykit AEC raw_env, gin 2p", aec_runner(lambda: raw_env(rules="gin", players=2), 0))
    add("rummykit engine only, gin 2p", engine_runner("gin", 2, 0))
    add("RLCard gin-rummy", rlcard_runner(0))
    add("PettingZoo gin_rummy_v4", pettingzoo_gin_runner(0))
    for name, rules in PRESETS.items():
        if name == "gin":
            continue
        for n in (2, 4):
            if rules.min_players <= n <= rules.max_players:
                label = f"rummykit AEC env(), {name} {n}p"
                add(label, aec_runner(lambda r=name, k=n: env(rules=r, players=k), 0))
    with console.status(f"{len(runners)} envs x {repeats} runs of {budget:g} s"):
        rates = timed(runners, budget, repeats)
    rows: list[dict[str, Any]] = [{"env": k, "steps_per_s": v} for k, v in rates.items()]
    rows += [{"env": k, "steps_per_s": None, "note": v} for k, v in skipped.items()]

    costs = []
    for name, rules in PRESETS.items():
        for n in (2, 4):
            if rules.min_players <= n <= rules.max_players:
                with console.status(f"encode {name} {n}p"):
                    view_us, enc_us, state_us = encode_cost(name, n, args.quick)
                costs.append(
                    {
                        "rules": name,
                        "players": n,
                        "view_us": view_us,
                        "encode_us": enc_us,
                        "encode_state_us": state_us,
                    }
                )

    by_name = {r["env"]: r["steps_per_s"] for r in rows}
    rlcard_rate = by_name.get("RLCard gin-rummy")
    ours = by_name["rummykit AEC env(), gin 2p"]
    ratio = ours / rlcard_rate if rlcard_rate else None

    table = Table(title="Environment steps/s, random legal actions (same machine, same run)")
    table.add_column("env")
    table.add_column("steps/s", justify="right")
    table.add_column("vs RLCard", justify="right")
    for r in rows:
        rate = r["steps_per_s"]
        if rate is None:
            table.add_row(r["env"], "skipped", r["note"])
        else:
            rel = f"{rate / rlcard_rate:.2f}x" if rlcard_rate else "-"
            table.add_row(r["env"], f"{rate:,.0f}", rel)
    console.print(table)
    cost_table = Table(
        title="One observation (µs, mean): the view and its encoding, or straight from the state"
    )
    for col in ("rules", "players", "view µs", "encode µs", "encode_state µs"):
        cost_table.add_column(col, justify="right" if "µs" in col else "left")
    for c in costs:
        cost_table.add_row(
            c["rules"],
            str(c["players"]),
            f"{c['view_us']:.1f}",
            f"{c['encode_us']:.1f}",
            f"{c['encode_state_us']:.1f}",
        )
    console.print(cost_table)
    if ratio is not None:
        verdict = "met" if ratio >= GOAL_RATIO else "NOT met"
        console.print(
            f"Goal (gin AEC env >= {GOAL_RATIO:g}x RLCard gin-rummy): {ratio:.2f}x, {verdict}"
        )
    path = write_results(
        "env_speed" if not args.quick else "env_speed-quick",
        {
            "repeats": repeats,
            "budget_s": budget,
            "steps": rows,
            "observation_cost": costs,
            "gin_ratio_vs_rlcard": ratio,
            "goal_ratio": GOAL_RATIO,
        },
    )
    console.print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

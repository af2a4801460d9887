"""Gin Rummy side by side: rummykit against OpenSpiel and RLCard in one run.

Run by ``make bench`` inside ``.venv-bench`` (the only place open-spiel and rlcard are
installed).  Each figure is the median of ``--repeats`` runs on identical inputs:

* **least deadwood**, hands per second, on the same lists of 10-card hands (random,
  and "dense" hands from five ranks): rummykit's solver, OpenSpiel's C++
  ``GinRummyUtils.min_deadwood`` called from Python, and RLCard's
  ``get_best_meld_clusters`` plus the deadwood of the best cluster;
* **random play**, whole hands and player actions per second: random legal actions
  through each engine's own Python API (rummykit ``legal_actions``/``apply_action``,
  OpenSpiel ``gin_rummy`` with chance outcomes sampled in Python, RLCard's
  ``gin-rummy`` environment with random agents).

Prints a table with ratios and writes ``benchmarks/results/peers.json``.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from results_file import write_results
from rich.console import Console
from rich.table import Table

from rummykit import new_game
from rummykit.rules import Rules
from rummykit.solver import solver_for

OS_TO_OUR_SUIT = (3, 0, 1, 2)  # OpenSpiel suits s c d h -> rummykit C D H S indices
RL_SUIT = {3: 0, 2: 1, 1: 2, 0: 3}  # rummykit suit -> RLCard suit (S H D C)


def median_rate(fn: Callable[[], float], repeats: int) -> float:
    return statistics.median(fn() for _ in range(repeats))


def hand_lists(count: int, seed: int) -> dict[str, list[list[int]]]:
    """OpenSpiel-numbered 10-card hands: random, and dense (five ranks)."""
    rng = random.Random(seed)
    random_hands = [rng.sample(range(52), 10) for _ in range(count)]
    dense = []
    for _ in range(count):
        ranks = rng.sample(range(13), 5)
        pool = [s * 13 + r for s in range(4) for r in ranks]
        dense.append(rng.sample(pool, 10))
    return {"random": random_hands, "dense": dense}


def our_mask(os_hand: list[int]) -> int:
    return sum(1 << (OS_TO_OUR_SUIT[c // 13] * 13 + c % 13) for c in os_hand)


def deadwood_rates(hands: list[list[int]], repeats: int) -> dict[str, float]:
    import pyspiel
    from rlcard.games.gin_rummy.utils import melding
    from rlcard.games.gin_rummy.utils.utils import get_card, get_deadwood_value

    solver = solver_for(Rules.preset("gin"))
    masks = [our_mask(h) for h in hands]
    utils = pyspiel.gin_rummy.GinRummyUtils(13, 4, 10)
    rl_hands = []
    for h in hands:
        cards = []
        for c in h:
            face = OS_TO_OUR_SUIT[c // 13] * 13 + c % 13
            cards.append(get_card(RL_SUIT[face // 13] * 13 + face % 13))
        rl_hands.append(cards)

    def ours() -> float:
        f = solver.deadwood
        t = time.perf_counter()
        for m in masks:
            f(m)
        return len(masks) / (time.perf_counter() - t)

    def openspiel() -> float:
        f = utils.min_deadwood
        t = time.perf_counter()
        for h in hands:
            f(h)
        return len(hands) / (time.perf_counter() - t)

    rl_sample = rl_hands[: max(200, len(rl_hands) // 20)]

    def rlcard() -> float:
        t = time.perf_counter()
        for cards in rl_sample:
            clusters = melding.get_best_meld_clusters(hand=cards)
            min(
                (
                    sum(get_deadwood_value(c) for c in cards if not any(c in m for m in cl))
                    for cl in clusters
                ),
                default=sum(get_deadwood_value(c) for c in cards),
            )
        return len(rl_sample) / (time.perf_counter() - t)

    return {
        "rummykit": median_rate(ours, repeats),
        "openspiel": median_rate(openspiel, repeats),
        "rlcard": median_rate(rlcard, repeats),
    }


def play_rates(hands: int, repeats: int, seed: int) -> dict[str, dict[str, float]]:
    import pyspiel
    import rlcard
    from rlcard.agents import RandomAgent

    rules = Rules.preset("gin")

    def ours() -> tuple[float, float]:
        rng = random.Random(seed)
        actions = 0
        t = time.perf_counter()
        for i in range(hands):
            s = new_game(rules, 2, seed=seed + i)
            while not s.is_over():
                legal = s.legal_actions()
                s.apply_action(legal[rng.randrange(len(legal))])
                actions += 1
        dt = time.perf_counter() - t
        return hands / dt, actions / dt

    game = pyspiel.load_game("gin_rummy")

    def openspiel() -> tuple[float, float]:
        rng = random.Random(seed)
        actions = 0
        t = time.perf_counter()
        for _ in range(hands):
            s = game.new_initial_state()
            while not s.is_terminal():
                if s.is_chance_node():
                    outcomes = s.chance_outcomes()
                    s.apply_action(outcomes[rng.randrange(len(outcomes))][0])
                else:
                    legal = s.legal_actions()
                    s.apply_action(legal[rng.randrange(len(legal))])
                    actions += 1
        dt = time.perf_counter() - t
        return hands / dt, actions / dt

    env = rlcard.make("gin-rummy", config={"seed": seed})
    env.set_agents([RandomAgent(num_actions=env.num_actions) for _ in range(2)])
    rl_hands = max(20, hands // 10)

    def rl() -> tuple[float, float]:
        actions = 0
        t = time.perf_counter()
        for _ in range(rl_hands):
            trajectories, _ = env.run(is_training=False)
            actions += sum((len(tr) - 1) // 2 for tr in trajectories)
        dt = time.perf_counter() - t
        return rl_hands / dt, actions / dt

    out: dict[str, dict[str, float]] = {}
    for name, fn in (("rummykit", ours), ("openspiel", openspiel), ("rlcard", rl)):
        runs = [fn() for _ in range(repeats)]
        out[name] = {
            "hands_per_s": statistics.median(r[0] for r in runs),
            "actions_per_s": statistics.median(r[1] for r in runs),
        }
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    count = 2_000 if args.quick else 20_000
    games = 100 if args.quick else 500
    repeats = 3 if args.quick else args.repeats
    lists = hand_lists(count, args.seed)
    dead = {kind: deadwood_rates(h, repeats) for kind, h in lists.items()}
    play = play_rates(games, repeats, args.seed)
    console = Console()
    table = Table(title="Gin Rummy: rummykit vs OpenSpiel vs RLCard (same machine, same run)")
    for col in ("measure", "rummykit", "OpenSpiel", "RLCard", "vs OpenSpiel", "vs RLCard"):
        table.add_column(col, justify="left" if col == "measure" else "right")
    rows: list[dict[str, Any]] = []
    for kind, r in dead.items():
        rows.append({"measure": f"least deadwood, {kind} hands/s", **r})
    for key, label in (("hands_per_s", "random hands/s"), ("actions_per_s", "random actions/s")):
        rows.append({"measure": label, **{k: v[key] for k, v in play.items()}})
    for row in rows:
        row["ratio_openspiel"] = row["rummykit"] / row["openspiel"]
        row["ratio_rlcard"] = row["rummykit"] / row["rlcard"]
        table.add_row(
            row["measure"],
            f"{row['rummykit']:,.0f}",
            f"{row['openspiel']:,.0f}",
            f"{row['rlcard']:,.0f}",
            f"{row['ratio_openspiel']:.2f}x",
            f"{row['ratio_rlcard']:.1f}x",
        )
    console.print(table)
    write_results("peers", {"quick": args.quick, "repeats": repeats, "rows": rows})
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

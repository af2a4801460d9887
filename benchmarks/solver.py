"""Meld-solver speed: least-deadwood hands per second, and Rami latency percentiles.

Run with ``make bench`` (or ``python benchmarks/solver.py [--quick]``).  Prints a
table and writes ``benchmarks/results/solver.json``.

* 10 and 11 random cards from one 52-card deck, ace low (the Gin Rummy deadwood
  problem), as random hands and as "dense" hands drawn from 6 ranks so that sets
  and runs overlap; figures are the median of several runs.
* 14 random cards from Rami 51's 108-card deck with 4 jokers: latency per hand with
  the solver's memo cleared before every hand, p50/p99/max.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from results_file import write_results
from rich.console import Console
from rich.table import Table

from rummykit.cards import deck, mask_of
from rummykit.rules import Rules
from rummykit.solver import Solver


def hand_list(rules: Rules, size: int, count: int, seed: int, dense: bool) -> list[int]:
    rng = random.Random(seed)
    cards = deck(rules.decks, rules.jokers)
    if dense:
        ranks = set(rng.sample(range(13), 6))
        cards = [c for c in cards if c % 54 >= 52 or (c % 54) % 13 in ranks]
    return [mask_of(rng.sample(cards, size)) for _ in range(count)]


def rate(solver: Solver, hands: list[int], repeats: int) -> float:
    """Median hands per second over ``repeats`` passes."""
    rates = []
    for _ in range(repeats):
        f = solver.deadwood
        t = time.perf_counter()
        for h in hands:
            f(h)
        rates.append(len(hands) / (time.perf_counter() - t))
    return statistics.median(rates)


def latencies(solver: Solver, hands: list[int]) -> list[float]:
    out = []
    for h in hands:
        solver._memo.clear()
        t = time.perf_counter()
        solver.deadwood(h)
        out.append(time.perf_counter() - t)
    return sorted(out)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--quick", action="store_true", help="a smoke run with few hands")
    args = ap.parse_args(argv)
    count = 5_000 if args.quick else 100_000
    repeats = 3 if args.quick else 5
    gin = Rules.parse("basic")
    solver = Solver(gin)
    rows = []
    for size in (10, 11):
        for dense in (False, True):
            hands = hand_list(gin, size, count, seed=size, dense=dense)
            rows.append(
                {
                    "case": f"{size} cards, one deck, {'dense' if dense else 'random'}",
                    "hands_per_s": rate(solver, hands, repeats),
                }
            )
    rami = Rules.preset("rami51")
    rsolver = Solver(rami)
    lat = latencies(rsolver, hand_list(rami, 14, 300 if args.quick else 3000, 51, False))
    rami_row = {
        "case": "14 cards, rami51 (108 cards, 4 jokers)",
        "p50_ms": 1000 * lat[len(lat) // 2],
        "p99_ms": 1000 * lat[int(len(lat) * 0.99)],
        "max_ms": 1000 * lat[-1],
        "hands_per_s": len(lat) / sum(lat),
    }
    table = Table(title="Meld solver (least deadwood), pure Python")
    table.add_column("case")
    table.add_column("hands/s", justify="right")
    table.add_column("p50 ms", justify="right")
    table.add_column("p99 ms", justify="right")
    for r in rows:
        table.add_row(r["case"], f"{r['hands_per_s']:,.0f}", "", "")
    table.add_row(
        rami_row["case"],
        f"{rami_row['hands_per_s']:,.0f}",
        f"{rami_row['p50_ms']:.3f}",
        f"{rami_row['p99_ms']:.3f}",
    )
    Console().print(table)
    write_results("solver", {"quick": args.quick, "one_deck": rows, "rami51": rami_row})
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

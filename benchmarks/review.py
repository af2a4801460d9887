"""Game review speed: CPU seconds to review 40 decisions, in every preset family.

Run with ``python benchmarks/review.py [--budget N] [--workers K] [--only FAMILY]
[--self-review]``.  Prints a table and writes ``benchmarks/results/review.json``.

Issue 28 asks that a 40-decision round cost at most 15 CPU-seconds in every preset
family.  For each family the benchmark plays one-round matches between ``medium``
bots (quick to play; the positions are ordinary ones) and reviews, with
:func:`rummykit.bots.review.review_round` at the game's default budget, the first
seat-round of 40 to 60 decisions; where the family's rounds are shorter (Indian
Rummy's, Gin's), it reviews seat-rounds of successive matches until 40 decisions are
graded.  It reports the CPU seconds of this process and its workers per 40
decisions, and the wall clock.

``--self-review`` also grades four rounds of the hard bot's own play (basic, 32
samples for the bot and the review) by the review's labels and by the raw loss, the
figure behind the review's confidence-bound labels (docs/bots.md, "Game review").
"""

from __future__ import annotations

import argparse
import os
import resource
import time
from typing import Any

from results_file import write_results
from rich.console import Console
from rich.table import Table

from rummykit.bots import make_bot, play_match
from rummykit.bots.review import (
    LABEL_NAMES,
    count_decisions,
    default_budget,
    family,
    label_for,
    review_round,
)
from rummykit.state import GameState

CASES = [
    ("basic", 2),
    ("classic", 2),
    ("cg101", 2),
    ("gin", 2),
    ("rum500", 2),
    ("rami51", 4),
    ("kalooki", 4),
    ("contract", 4),
    ("indian", 2),
    ("indian_pool101", 4),
    ("indian_pool201", 3),
    ("indian_deals", 2),
    ("rummikub", 2),
    ("rummikub", 4),
]
"""(preset, players): every preset family, Indian Rummy's pool and deals formats, and
the four-handed games at four."""

TARGET_DECISIONS = 40
GOAL_CPU_SECONDS = 15.0
MAX_DECISIONS = 60
"""A seat-round longer than this is passed over: a round that reaches the turn limit
can hold a thousand decisions, which is not a game anyone reviews."""


def _cpu() -> float:
    """CPU seconds of this process and of its finished child processes (the review's
    workers end with it)."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def rounds_to_review(preset: str, players: int, seeds: int) -> list[tuple[GameState, int, int]]:
    """(final state, seat, round) of one-round matches: the first seat-round with 40 to
    60 decisions, else seat-rounds of successive matches (each the longest of its
    match under 60) until they hold 40 decisions together."""
    picked: list[tuple[GameState, int, int]] = []
    total = 0
    for seed in range(seeds):
        bots = [make_bot("medium") for _ in range(players)]
        state, _ = play_match(f"{preset}(deals=1)", players, bots, seed)
        counts = [(count_decisions(state, seat, 1), seat) for seat in range(players)]
        fits = [(n, seat) for n, seat in counts if n <= MAX_DECISIONS]
        if not fits:
            continue
        n, seat = max(fits)
        if n >= TARGET_DECISIONS:
            return [(state, seat, 1)]
        if n:
            picked.append((state, seat, 1))
            total += n
        if total >= TARGET_DECISIONS:
            return picked
    if not picked:
        raise SystemExit(f"no {preset} round under {MAX_DECISIONS} decisions in {seeds} matches")
    return picked


def run_case(
    preset: str, players: int, budget: int | None, workers: int, seeds: int
) -> dict[str, Any]:
    picked = rounds_to_review(preset, players, seeds)
    rules = picked[0][0].rules
    budget = budget or default_budget(rules, players)
    wall = time.perf_counter()
    cpu = _cpu()
    reviews = [
        review_round(state, seat, round_no, budget=budget, workers=workers, seed=1)
        for state, seat, round_no in picked
    ]
    wall = time.perf_counter() - wall
    cpu = _cpu() - cpu
    decisions = [d for rv in reviews for d in rv.decisions]
    n = max(1, len(decisions))
    samples = [d.samples for d in decisions if d.samples]
    counts = dict.fromkeys(LABEL_NAMES, 0)
    for d in decisions:
        counts[d.label] += 1
    return {
        "preset": preset,
        "family": family(rules),
        "players": players,
        "budget": budget,
        "rounds": [[state.seed, seat] for state, seat, _ in picked],
        "decisions": len(decisions),
        "seconds": round(wall, 2),
        "cpu_seconds": round(cpu, 2),
        "cpu_seconds_for_40": round(cpu / n * TARGET_DECISIONS, 1),
        "seconds_for_40": round(wall / n * TARGET_DECISIONS, 1),
        "mean_samples": round(sum(samples) / len(samples), 1) if samples else 0,
        "accuracy": round(sum(rv.accuracy * len(rv.decisions) for rv in reviews) / n, 1),
        "counts": counts,
    }


def hard_self_review(rounds: int = 4, budget: int = 32) -> dict[str, Any]:
    """How the hard bot's own rounds grade (basic, seat 0, the bot and the review at
    ``budget`` samples): the share of decisions labelled best or good by the loss the
    samples show with confidence (the review's labels) and by the raw loss."""
    raw = confident = total = 0
    for seed in range(1, rounds + 1):
        bots = [make_bot(f"ismcts:{budget}i"), make_bot(f"ismcts:{budget}i")]
        state, _ = play_match("basic(deals=1)", 2, bots, seed)
        rv = review_round(state, 0, 1, budget=budget, seed=seed)
        for d in rv.decisions:
            total += 1
            raw += label_for(d.lost) in ("best", "good")
            confident += d.label in ("best", "good")
    return {
        "rounds": rounds,
        "budget": budget,
        "decisions": total,
        "best_or_good_by_confident_loss": confident,
        "best_or_good_by_raw_loss": raw,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument(
        "--budget", type=int, help="samples per decision (default: the review's, per game)"
    )
    ap.add_argument("--workers", type=int, default=1, help="review worker processes")
    ap.add_argument("--seeds", type=int, default=30, help="matches searched for rounds")
    ap.add_argument("--quick", action="store_true", help="a small budget, to check it runs")
    ap.add_argument("--only", help="presets, comma-separated (default: every one of CASES)")
    ap.add_argument("--out", default="review", help="results/<out>.json")
    ap.add_argument(
        "--self-review", action="store_true", help="also grade 4 of the hard bot's own rounds"
    )
    args = ap.parse_args()
    budget = 8 if args.quick else args.budget
    load = os.getloadavg()[0]  # the machine may be shared: say how busy it was
    only = set(args.only.split(",")) if args.only else None
    cases = [(p, n) for p, n in CASES if only is None or p in only]
    rows = []
    for p, n in cases:
        rows.append(run_case(p, n, budget, args.workers, args.seeds))
        print(p, rows[-1]["cpu_seconds_for_40"], "CPU s for 40", flush=True)
    table = Table(title=f"Game review, {args.workers} worker(s), {os.cpu_count()} cores")
    cols = ("preset", "players", "budget", "decisions", "samples", "CPU s", "CPU s for 40")
    for col in (*cols, "wall s for 40", "accuracy"):
        table.add_column(col, justify="left" if col == "preset" else "right")
    for r in rows:
        table.add_row(
            r["preset"],
            str(r["players"]),
            str(r["budget"]),
            str(r["decisions"]),
            f"{r['mean_samples']:.0f}",
            f"{r['cpu_seconds']:.1f}",
            f"{r['cpu_seconds_for_40']:.1f}",
            f"{r['seconds_for_40']:.1f}",
            f"{r['accuracy']:.1f}",
        )
    Console(width=120).print(table)
    worst = max(rows, key=lambda r: r["cpu_seconds_for_40"])
    Console(width=120).print(
        f"most CPU for 40 decisions: {worst['cpu_seconds_for_40']:.1f} s ({worst['preset']}; "
        f"goal {GOAL_CPU_SECONDS:.0f} s); load average {load:.1f} at the start"
    )
    extra: dict[str, Any] = {}
    if args.self_review:
        extra["hard_self_review"] = own = hard_self_review()
        n = own["decisions"]
        Console(width=120).print(
            f"hard's own rounds: {own['best_or_good_by_confident_loss']} of {n} decisions "
            f"best or good ({own['best_or_good_by_raw_loss']} by the raw loss)"
        )
    if not args.quick:
        path = write_results(
            args.out,
            {
                "workers": args.workers,
                "cores": os.cpu_count(),
                "load_average_at_start": round(load, 2),
                "goal_cpu_seconds_for_40": GOAL_CPU_SECONDS,
                "cases": rows,
                **extra,
            },
        )
        print(f"wrote {path}")


if __name__ == "__main__":
    main()

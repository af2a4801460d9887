"""Game review speed: seconds to review a round, and per decision, on two workers.

Run with ``python benchmarks/review.py [--budget N] [--workers K] [--self-review]``.  Prints
a table and writes ``benchmarks/results/review.json``.

Issue #16 asks for a 40-decision round reviewed in at most 30 s on two cores.  For
each preset the benchmark plays matches between ``medium`` bots (quick to play; the
positions are ordinary ones), picks the round and seat with the most decisions among
the first seeds, reviews it with :func:`rummykit.bots.review.review_round`, and
reports the wall time, the time per decision and the time that rate gives for 40
decisions.  Rami 51 with four players is the costly case (long legal lists, four
hands to play out per sample), so it sets the default budget.

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
from rummykit.bots.review import count_decisions, default_budget, label_for, review_round
from rummykit.state import GameState

CASES = [("basic", 2), ("gin", 2), ("rami51", 4)]
"""(preset, players): the two-player games and the four-player Rami."""

TARGET_DECISIONS = 40
GOAL_SECONDS = 30.0


def _cpu() -> float:
    """CPU seconds of this process and of its finished child processes (the review's
    workers end with it)."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def long_round(preset: str, players: int, seeds: int) -> tuple[GameState, int, int, int]:
    """(final state, seat, round, decisions): the first seat-round of one-round matches
    with 40 to 60 decisions, else the longest under 60 among ``seeds`` matches (a round
    that reaches the turn limit can hold a thousand, which is not a game anyone
    reviews)."""
    best: tuple[GameState, int, int, int] | None = None
    for seed in range(seeds):
        rules = f"{preset}(deals=1)"
        state, _ = play_match(rules, players, [make_bot("medium") for _ in range(players)], seed)
        for seat in range(players):
            n = count_decisions(state, seat, 1)
            if n <= 60 and (best is None or n > best[3]):
                best = (state, seat, 1, n)
        if best is not None and best[3] >= TARGET_DECISIONS:
            break
    if best is None:
        raise SystemExit(f"no {preset} round under 60 decisions in {seeds} matches")
    return best


def run_case(
    preset: str, players: int, budget: int | None, workers: int, seeds: int
) -> dict[str, Any]:
    state, seat, round_no, _n = long_round(preset, players, seeds)
    budget = budget or default_budget(state.rules, players)
    wall = time.perf_counter()
    cpu = _cpu()
    rv = review_round(state, seat, round_no, budget=budget, workers=workers, seed=1)
    wall = time.perf_counter() - wall
    cpu = _cpu() - cpu
    per = wall / max(1, len(rv.decisions))
    # On a machine shared with other work the wall clock overstates the time; the CPU
    # seconds of this process and its workers, spread over the workers, do not.
    idle = cpu / workers / max(1, len(rv.decisions))
    samples = [d.samples for d in rv.decisions if d.samples]
    return {
        "preset": preset,
        "players": players,
        "budget": budget,
        "seed_of_match": state.seed,
        "seat": seat,
        "decisions": len(rv.decisions),
        "seconds": round(wall, 2),
        "cpu_seconds": round(cpu, 2),
        "seconds_per_decision": round(per, 3),
        "seconds_for_40": round(per * TARGET_DECISIONS, 1),
        "idle_seconds_for_40": round(idle * TARGET_DECISIONS, 1),
        "mean_samples": round(sum(samples) / len(samples), 1) if samples else 0,
        "accuracy": round(rv.accuracy, 1),
        "counts": rv.counts,
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
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--seeds", type=int, default=20, help="matches searched for a long round")
    ap.add_argument("--quick", action="store_true", help="a small budget, to check it runs")
    ap.add_argument("--only", help="one preset of basic, gin, rami51")
    ap.add_argument("--out", default="review", help="results/<out>.json")
    ap.add_argument(
        "--self-review", action="store_true", help="also grade 4 of the hard bot's own rounds"
    )
    args = ap.parse_args()
    budget = 8 if args.quick else args.budget
    load = os.getloadavg()[0]  # the machine may be shared: say how busy it was
    cases = [(p, n) for p, n in CASES if args.only in (None, p)]
    rows = [run_case(p, n, budget, args.workers, args.seeds) for p, n in cases]
    table = Table(title=f"Game review on {args.workers} workers, {os.cpu_count()} cores")
    cols = ("preset", "players", "budget", "decisions", "seconds", "s/decision", "s for 40")
    for col in (*cols, "idle s for 40", "samples"):
        table.add_column(col, justify="left" if col == "preset" else "right")
    for r in rows:
        table.add_row(
            r["preset"],
            str(r["players"]),
            str(r["budget"]),
            str(r["decisions"]),
            f"{r['seconds']:.1f}",
            f"{r['seconds_per_decision']:.3f}",
            f"{r['seconds_for_40']:.1f}",
            f"{r['idle_seconds_for_40']:.1f}",
            f"{r['mean_samples']:.0f}",
        )
    Console(width=110).print(table)
    worst = max(r["seconds_for_40"] for r in rows)
    idle = max(r["idle_seconds_for_40"] for r in rows)
    Console(width=110).print(
        f"slowest projection for 40 decisions: {worst:.1f} s on the wall clock, {idle:.1f} s "
        f"from CPU time on {args.workers} idle cores (goal {GOAL_SECONDS:.0f} s); "
        f"load average {load:.1f} at the start"
    )
    extra: dict[str, Any] = {}
    if args.self_review:
        extra["hard_self_review"] = own = hard_self_review()
        n = own["decisions"]
        Console(width=110).print(
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
                "goal_seconds_for_40": GOAL_SECONDS,
                "cases": rows,
                **extra,
            },
        )
        print(f"wrote {path}")


if __name__ == "__main__":
    main()

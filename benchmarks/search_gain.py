"""What the search adds: a bot against another on single-round duplicate deals.

Each deal (``seed + i``) is played once per seat of the measured bot, the other seats
held by the opponent bot, so every seat's cards are played by both and the luck of the
deal cancels out (two players: the deal twice, seats swapped).  Reported: the first
bot's *points share* against an average opponent with a 95% interval over the deals
(:func:`paired.share_interval`), its mean margin a round, and its round wins and
losses.  Under winner-collects scoring the share is the bot's points over its points
plus the mean opponent's; under penalty scoring (points are charged, lower is
better) it is the mean opponent's charge over both charges.  50% is parity.  An
iteration budget (``ismcts:100i``) makes a run independent of the machine's load;
``ismcts:1cpu`` measures the bot as it plays.

    python benchmarks/search_gain.py --bot ismcts:100i --against medium --deals 200 \\
        --seed 1000 --rules "gin(deals=1)"
    python benchmarks/search_gain.py --suite --bot ismcts:0.2cpu --deals 20 --out hard_strength
    python benchmarks/search_gain.py --merge results/a.json results/b.json   # one run

``--suite`` runs every family (:data:`SUITE`: basic, Gin, Rami 51, 500 Rum, Kalooki,
Indian Rummy, Contract Rummy) on single rounds and prints one table; Contract Rummy's
deal ``i`` plays the ``i % 7``-th contract of the match as its own round.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from paired import Z95, share_interval
from results_file import write_results
from rich.console import Console
from rich.table import Table

from rummykit.bots import Bot, make_bot, play_match
from rummykit.rules import Rules, Scoring

SUITE: tuple[tuple[str, str, int], ...] = (
    ("basic", "basic(deals=1)", 2),
    ("gin", "gin(deals=1)", 2),
    ("rami51", "rami51(deals=1)", 2),
    ("rum500", "rum500(deals=1)", 2),
    ("kalooki", "kalooki(deals=1)", 2),
    ("indian", "indian(deals=1)", 2),
    ("contract", "contract", 3),
)
"""Every family once: its label, its single-round rules and its players.  Contract
Rummy needs three players; its rules are :func:`round_rules`' per deal."""


def round_rules(rules: str, seed: int) -> str:
    """The rules of deal ``seed``: as given, but a bare ``contract`` plays one of its
    seven contracts (``seed % 7``) as a single round, so the deals cover them all."""
    if rules != "contract":
        return rules
    r = Rules.parse("contract")
    k = seed % len(r.contracts.split("/"))
    contract = r.contracts.split("/")[k]
    size = r.deal_sizes.split("/")[k]
    return f"contract(deals=1,contracts={contract},deal_sizes={size})"


def play_deal(
    rules: str, players: int, ours: str | Callable[[], Bot], theirs: str, seed: int
) -> tuple[float, ...]:
    """One deal with ``ours`` in each seat in turn, ``theirs`` in the others: our
    points, the mean opponent's (both in the share's sense, see the module), our round
    wins and our losses (a round whose best score another seat beats).  ``ours`` is a
    bot's name, or a function that makes a new bot (one built in code, as
    ``gin_value.py`` builds its search with a network)."""
    make_ours = (lambda: make_bot(ours)) if isinstance(ours, str) else ours
    spec = round_rules(rules, seed)
    sign = 1 if Rules.parse(spec).scoring is Scoring.WINNER_COLLECTS else -1
    mine = total_theirs = 0.0
    wins = losses = 0
    for seat in range(players):
        bots = [make_ours() if p == seat else make_bot(theirs) for p in range(players)]
        g, _ = play_match(spec, players, bots, seed=seed)
        others = [g.scores[p] for p in range(players) if p != seat]
        if sign > 0:
            mine += g.scores[seat]
            total_theirs += statistics.fmean(others)
        else:  # penalty: what is charged to the others counts for us
            mine += statistics.fmean(others)
            total_theirs += g.scores[seat]
        gains = [sign * s for s in g.scores]
        best_other = max(gains[p] for p in range(players) if p != seat)
        wins += gains[seat] > best_other
        losses += gains[seat] < best_other
    return mine, total_theirs, wins, losses


def play_pair(args: tuple[str, str, str, int]) -> tuple[float, ...]:
    """One two-player deal from both seats (:func:`play_deal`)."""
    rules, ours, theirs, seed = args
    return play_deal(rules, 2, ours, theirs, seed)


def _play(args: tuple[str, int, str, str, int]) -> tuple[float, ...]:
    return play_deal(*args)


def measure(
    rules: str, players: int, bot: str, against: str, deals: int, seed: int, workers: int
) -> dict[str, object]:
    """Play ``deals`` deals and summarize them (the JSON row of one rule set)."""
    jobs = [(rules, players, bot, against, seed + i) for i in range(deals)]
    start = time.perf_counter()
    if workers > 1:
        with ProcessPoolExecutor(workers) as pool:
            pairs = list(pool.map(_play, jobs))
    else:
        pairs = [_play(j) for j in jobs]
    seconds = time.perf_counter() - start
    return {
        "rules": rules, "players": players, "bot": bot, "against": against,
        "deals": deals, "rounds": deals * players, "seed": seed,
        **summary([(p[0], p[1]) for p in pairs], players),
        "round_wins": sum(int(p[2]) for p in pairs), "round_losses": sum(int(p[3]) for p in pairs),
        "seconds": seconds, "per_deal": [[p[0], p[1]] for p in pairs],
    }  # fmt: skip


def summary(per_deal: list[tuple[float, float]], players: int) -> dict[str, object]:
    """The share of the points and the margin a round, each with its 95% interval, of
    deals given as (our points, the others' points)."""
    ours = [float(a) for a, _b in per_deal]
    total = [float(a + b) for a, b in per_deal]
    share, low, high = share_interval(ours, total)
    margins = [(a - b) / players for a, b in per_deal]  # a round, per seating
    mean = statistics.fmean(margins)
    half = Z95 * statistics.stdev(margins) / len(margins) ** 0.5 if len(margins) > 1 else 0.0
    return {
        "share": share, "share_ci95": [low, high],
        "margin": mean, "margin_ci95": [mean - half, mean + half],
        "points": [sum(ours), sum(total) - sum(ours)],
    }  # fmt: skip


def merge(runs: list[dict[str, Any]]) -> list[dict[str, object]]:
    """Runs of the same bots and rules on different deals (results files of
    :func:`main`, say a first run and its continuation from a later seed), rule set by
    rule set, summarized as one run over all their deals.  Refuses runs of different
    bots, rules or players, and runs that share a deal."""
    groups: dict[str, list[dict[str, Any]]] = {}
    for run in runs:
        for row in run.get("rows", [run]):
            groups.setdefault(row.get("label", row["rules"]), []).append(row)
    out: list[dict[str, object]] = []
    for label, rows in groups.items():
        first = rows[0]
        same = ("rules", "players", "bot", "against")
        if any(tuple(r[k] for k in same) != tuple(first[k] for k in same) for r in rows):
            raise SystemExit(f"{label}: the runs differ in {', '.join(same)}")
        seeds = [s for r in rows for s in range(r["seed"], r["seed"] + r["deals"])]
        if len(seeds) != len(set(seeds)):
            raise SystemExit(f"{label}: the runs share deals")
        per_deal = [(x[0], x[1]) for r in rows for x in r["per_deal"]]
        out.append({
            "label": label, "rules": first["rules"], "players": first["players"],
            "bot": first["bot"], "against": first["against"], "deals": len(per_deal),
            "seeds": sorted((r["seed"], r["seed"] + r["deals"] - 1) for r in rows),
            **summary(per_deal, first["players"]),
            "round_wins": sum(r["round_wins"] for r in rows),
            "round_losses": sum(r["round_losses"] for r in rows),
        })  # fmt: skip
    return out


def compare(before: dict[str, Any], after: dict[str, Any]) -> list[dict[str, object]]:
    """Two runs on the same deals (two results files of :func:`main`), rule set by
    rule set: each run's share, and the paired difference of their margins a round,
    deal by deal, with its 95% interval (the deals' luck cancels out of it)."""
    rows_a = before.get("rows", [before])
    rows_b = {r.get("label", r["rules"]): r for r in after.get("rows", [after])}
    out: list[dict[str, object]] = []
    for a in rows_a:
        b = rows_b.get(a.get("label", a["rules"]))
        if b is None or b["seed"] != a["seed"]:
            continue
        n = min(len(a["per_deal"]), len(b["per_deal"]))
        k = a["players"]
        diffs = [
            ((y[0] - y[1]) - (x[0] - x[1])) / k
            for x, y in zip(a["per_deal"][:n], b["per_deal"][:n], strict=True)
        ]
        mean = statistics.fmean(diffs)
        half = Z95 * statistics.stdev(diffs) / n**0.5 if n > 1 else float("inf")
        out.append({
            "label": a.get("label", a["rules"]), "deals": n,
            "share_before": a["share"], "share_after": b["share"],
            "margin_gain": mean, "margin_gain_ci95": [mean - half, mean + half],
        })  # fmt: skip
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--bot", default="hard", help="the bot measured (e.g. ismcts:100i)")
    ap.add_argument("--against", default="medium")
    ap.add_argument("--rules", default="gin(deals=1)", help="single-round rules")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--suite", action="store_true", help="every family (SUITE), not --rules")
    ap.add_argument("--families", default="", help="with --suite: a comma list of its labels")
    ap.add_argument("--deals", type=int, default=200, help="deals per rule set")
    ap.add_argument("--seed", type=int, default=1000)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--out", default="search_gain")
    ap.add_argument(
        "--compare",
        nargs=2,
        metavar=("BEFORE", "AFTER"),
        help="two results files: the paired gain of the second, play nothing",
    )
    ap.add_argument(
        "--merge",
        nargs="+",
        metavar="RUN",
        help="results files of one bot on different deals: their union, play nothing",
    )
    args = ap.parse_args(argv)
    if args.merge:
        for row in merge([json.loads(Path(f).read_text()) for f in args.merge]):
            low, high = row["share_ci95"]  # type: ignore[misc]
            mlow, mhigh = row["margin_ci95"]  # type: ignore[misc]
            print(
                f"{row['label']}: {row['bot']} vs {row['against']}, {row['deals']} deals "
                f"(seeds {row['seeds']}), share {row['share']:.1%} ({low:.1%}-{high:.1%}), "
                f"margin a round {row['margin']:+.1f} ({mlow:+.1f} to {mhigh:+.1f}), "
                f"rounds won {row['round_wins']}, lost {row['round_losses']}"
            )
        return 0
    if args.compare:
        before, after = (json.loads(Path(f).read_text()) for f in args.compare)
        for row in compare(before, after):
            low, high = row["margin_gain_ci95"]  # type: ignore[misc]
            print(
                f"{row['label']}: {row['deals']} deals, share {row['share_before']:.1%} -> "
                f"{row['share_after']:.1%}, margin a round {row['margin_gain']:+.2f} "
                f"({low:+.2f} to {high:+.2f})"
            )
        return 0
    if args.suite:
        wanted = set(args.families.split(",")) if args.families else None
        runs = [(label, r, n) for label, r, n in SUITE if wanted is None or label in wanted]
    else:
        runs = [(args.rules, args.rules, args.players)]
    table = Table(title=f"{args.bot} vs {args.against}, single rounds, {args.deals} deals each")
    for col in ("rules", "players", "points share", "95% CI", "margin a round", "95% CI",
                "round wins", "losses", "seconds"):  # fmt: skip
        table.add_column(col, justify="right")
    rows = []
    for label, rules, players in runs:
        row = measure(rules, players, args.bot, args.against, args.deals, args.seed, args.workers)
        row["label"] = label
        rows.append(row)
        print(f"{label}: {row['share']:.1%} in {row['seconds']:.0f} s", file=sys.stderr, flush=True)
        low, high = row["share_ci95"]  # type: ignore[misc]
        mlow, mhigh = row["margin_ci95"]  # type: ignore[misc]
        table.add_row(
            label, str(players), f"{row['share']:.1%}", f"{low:.1%}-{high:.1%}",
            f"{row['margin']:+.1f}", f"{mlow:+.1f} to {mhigh:+.1f}",
            str(row["round_wins"]), str(row["round_losses"]), f"{row['seconds']:.0f}",
        )  # fmt: skip
    Console(width=150).print(table)
    given = sys.argv[1:] if argv is None else argv
    payload: dict[str, object] = {"command": "python benchmarks/search_gain.py " + " ".join(given)}
    payload.update(rows[0] if not args.suite else {"rows": rows})
    write_results(args.out, payload)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""Contract Rummy's play: the contract-aware bots against deadwood play, duplicate deals.

    python benchmarks/contract_play.py --matches 100

Two measures, each over whole seven-deal matches of ``contract`` (three and four
seats in turn, seeds from ``--seed``):

* **Pairings.**  Each match is played once per rotation of the two bots round the
  table (``tournament.lineups``), so both hold every seat's cards.  Reported: the
  first bot's penalty points a deal less the second's (lower is better: penalty
  scoring), averaged per seed with a 95% interval, and its share of match wins (a
  tie split).  ``expert-deadwood`` is :class:`ExpertBot` with ``contract_aware=False``:
  the expert as it played Contract Rummy before, valuing hands by deadwood.
* **Same-bot tables.**  Each bot alone at the table: how many deals end at the turn
  limit (nobody went out) and the seconds a deal takes.  The figures before the
  contract play are this script run on the older package with ``--pairings ""``
  (``PYTHONPATH=<old checkout>/src``): its ``greedy`` and ``expert`` played by deadwood.

Prints a table and writes ``benchmarks/results/contract_play.json``.
"""

from __future__ import annotations

import argparse
import math
import statistics
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from results_file import write_results
from rich.console import Console
from rich.table import Table

from rummykit.bots import Bot, ExpertBot, make_bot, play_match
from rummykit.results import RoundEnd
from rummykit.tournament import lineups

PAIRINGS = "expert-expert-deadwood,greedy-expert-deadwood,expert-greedy"
ALONE = "greedy,expert"


def bot(name: str) -> Bot:
    if name == "expert-deadwood":
        return ExpertBot(contract_aware=False)
    return make_bot(name)


def pair_seed(args: tuple[str, str, str, int]) -> dict[str, Any]:
    """One seed's matches, one per rotation: the first bot's points a deal less the
    second's, and its share of the match wins."""
    preset, a, b, seed = args
    players = 3 + seed % 2
    gaps: list[float] = []
    wins = 0.0
    for lineup in lineups(players, [a, b]):
        state, stats = play_match(preset, players, [bot(n) for n in lineup], seed)
        mine = [state.scores[i] for i, n in enumerate(lineup) if n == a]
        theirs = [state.scores[i] for i, n in enumerate(lineup) if n == b]
        gaps.append((statistics.mean(mine) - statistics.mean(theirs)) / stats.rounds)
        low = min(state.scores)
        winners = [lineup[i] for i, s in enumerate(state.scores) if s == low]
        wins += winners.count(a) / len(winners)
    return {"gap": statistics.mean(gaps), "wins": wins, "matches": len(gaps)}


def alone_seed(args: tuple[str, str, int]) -> dict[str, Any]:
    """One match with ``name`` in every seat: deals, deals at the turn limit, seconds."""
    preset, name, seed = args
    players = 3 + seed % 2
    start = time.perf_counter()
    state, stats = play_match(preset, players, [bot(name) for _ in range(players)], seed)
    limit = sum(r.reason is RoundEnd.TURN_LIMIT for r in state.results)
    return {"deals": stats.rounds, "limit": limit, "seconds": time.perf_counter() - start}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--matches", type=int, default=100, help="seeds per pairing and bot")
    ap.add_argument("--seed", type=int, default=7000)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--preset", default="contract")
    ap.add_argument("--pairings", default=PAIRINGS, help="comma list of A-B (A: a bot name)")
    ap.add_argument("--alone", default=ALONE, help="comma list of bots for same-bot tables")
    ap.add_argument("--out", default="contract_play")
    args = ap.parse_args(argv)
    seeds = range(args.seed, args.seed + args.matches)
    started = time.perf_counter()
    pairs: list[dict[str, Any]] = []
    alone: list[dict[str, Any]] = []
    with ProcessPoolExecutor(args.workers) as pool:
        for pairing in filter(None, args.pairings.split(",")):
            a, _, b = pairing.partition("-")
            rows = list(pool.map(pair_seed, [(args.preset, a, b, s) for s in seeds]))
            gaps = [r["gap"] for r in rows]
            mean = statistics.mean(gaps)
            half = 1.96 * statistics.stdev(gaps) / math.sqrt(len(gaps)) if len(gaps) > 1 else 0.0
            matches = sum(r["matches"] for r in rows)
            pairs.append(
                {
                    "bot": a,
                    "against": b,
                    "seeds": len(rows),
                    "matches": matches,
                    "points_per_deal": round(mean, 2),
                    "ci95": [round(mean - half, 2), round(mean + half, 2)],
                    "match_wins": round(sum(r["wins"] for r in rows) / matches, 4),
                }
            )
        for name in filter(None, args.alone.split(",")):
            rows = list(pool.map(alone_seed, [(args.preset, name, s) for s in seeds]))
            deals = sum(r["deals"] for r in rows)
            alone.append(
                {
                    "bot": name,
                    "deals": deals,
                    "turn_limit": sum(r["limit"] for r in rows),
                    "seconds_per_deal": round(sum(r["seconds"] for r in rows) / deals, 3),
                }
            )
    console = Console()
    t = Table(title=f"{args.preset}: points a deal against the other bot (lower is better)")
    for col in ("bot", "against", "matches", "points a deal", "95% CI", "match wins"):
        t.add_column(col, justify="right")
    for p in pairs:
        lo, hi = p["ci95"]
        t.add_row(
            p["bot"],
            p["against"],
            str(p["matches"]),
            f"{p['points_per_deal']:+.1f}",
            f"{lo:+.1f} to {hi:+.1f}",
            f"{100 * p['match_wins']:.1f}%",
        )
    console.print(t)
    t = Table(title=f"{args.preset}: one bot in every seat")
    for col in ("bot", "deals", "at the turn limit", "seconds a deal"):
        t.add_column(col, justify="right")
    for r in alone:
        t.add_row(r["bot"], str(r["deals"]), str(r["turn_limit"]), f"{r['seconds_per_deal']:.3f}")
    console.print(t)
    path = write_results(
        args.out,
        {
            "args": vars(args),
            "pairings": pairs,
            "alone": alone,
            "seconds": round(time.perf_counter() - started, 1),
        },
    )
    console.print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

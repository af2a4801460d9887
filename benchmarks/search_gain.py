"""What the search adds: a bot against another on single-round duplicate deals.

Issue #16 asks that ``hard`` take at least 58% of the points against ``medium`` at Gin.
Each deal (``seed + i``) is played twice with the seats swapped, so both bots hold the
same cards once each and the luck of the deal cancels out.  Reported: the first bot's
share of all points scored (winner-collects rules only: in a penalty game points are
charged, not won), with a 95% interval over the deals (:func:`paired.share_interval`),
and its round wins and losses.  An iteration budget (``ismcts:100i``) makes a run
independent of the machine's load; ``ismcts:1cpu`` measures the bot as it plays.

    python benchmarks/search_gain.py --bot ismcts:100i --against medium --deals 200 \\
        --seed 1000 --rules "gin(deals=1)"
"""

from __future__ import annotations

import argparse
import sys
import time
from concurrent.futures import ProcessPoolExecutor

from paired import share_interval
from results_file import write_results
from rich.console import Console
from rich.table import Table

from rummykit.bots import make_bot, play_match
from rummykit.rules import Rules, Scoring


def play_pair(args: tuple[str, str, str, int]) -> tuple[int, int, int, int]:
    """One deal from both seats: our points, theirs, our round wins, our losses."""
    rules, ours, theirs, seed = args
    mine = total_theirs = wins = losses = 0
    for seat in (0, 1):
        bots = [make_bot(ours), make_bot(theirs)]
        if seat:
            bots.reverse()
        g, _ = play_match(rules, 2, bots, seed=seed)
        a, b = g.scores[seat], g.scores[1 - seat]
        mine += a
        total_theirs += b
        wins += a > b
        losses += a < b
    return mine, total_theirs, wins, losses


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--bot", default="hard", help="the bot measured (e.g. ismcts:100i)")
    ap.add_argument("--against", default="medium")
    ap.add_argument("--rules", default="gin(deals=1)", help="two-player, winner collects")
    ap.add_argument("--deals", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1000)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--out", default="search_gain")
    args = ap.parse_args(argv)
    if Rules.parse(args.rules).scoring is not Scoring.WINNER_COLLECTS:
        ap.error("points shares need winner-collects rules")
    jobs = [(args.rules, args.bot, args.against, args.seed + i) for i in range(args.deals)]
    start = time.perf_counter()
    with ProcessPoolExecutor(args.workers) as pool:
        pairs = list(pool.map(play_pair, jobs))
    seconds = time.perf_counter() - start
    ours = [float(p[0]) for p in pairs]
    total = [float(p[0] + p[1]) for p in pairs]
    share, low, high = share_interval(ours, total)
    wins = sum(p[2] for p in pairs)
    losses = sum(p[3] for p in pairs)
    table = Table(title=f"{args.bot} vs {args.against}, {args.rules}, {args.deals} deals")
    for col in ("points share", "95% CI", "round wins", "losses", "points", "seconds"):
        table.add_column(col, justify="right")
    table.add_row(
        f"{share:.1%}", f"{low:.1%}-{high:.1%}", str(wins), str(losses),
        f"{sum(ours):.0f}-{sum(total) - sum(ours):.0f}", f"{seconds:.0f}",
    )  # fmt: skip
    Console().print(table)
    given = sys.argv[1:] if argv is None else argv
    write_results(
        args.out,
        {
            "command": "python benchmarks/search_gain.py " + " ".join(given),
            "bot": args.bot, "against": args.against, "rules": args.rules,
            "deals": args.deals, "seed": args.seed, "share": share, "share_ci95": [low, high],
            "round_wins": wins, "round_losses": losses,
            "points": [sum(ours), sum(total) - sum(ours)], "seconds": seconds,
        },
    )  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

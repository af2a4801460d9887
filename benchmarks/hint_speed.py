"""What a hint costs in every preset: CPU seconds of ``hints.suggest`` at its default
budget (the review's, ``review.default_budget``), as the front ends ask it.

For each preset, at its fewest and most players (capped by ``--max-players``), the
positions are the turns of ``--matches`` one-round matches of ``medium`` bots: every
``--every``-th decision with more than one legal move is hinted.  Reported: the
number of hints, their mean, 95th percentile and largest CPU time; the goal is a
hint within one second in every preset.

    python benchmarks/hint_speed.py --matches 2 --every 4
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time

from results_file import write_results
from rich.console import Console
from rich.table import Table

from rummykit import new_game
from rummykit.bots import make_bot
from rummykit.bots.hints import suggest
from rummykit.rules import PRESETS


def hint_times(preset: str, players: int, matches: int, every: int, seed: int) -> list[float]:
    """CPU seconds of each hint asked in ``matches`` one-round matches of ``preset``."""
    out: list[float] = []
    bot = make_bot("medium")
    for k in range(matches):
        g = new_game(f"{preset}(deals=1)", players, seed + k)
        rng = random.Random(seed + k)
        decisions = 0
        actions = 0
        while not g.is_over() and actions < 2000:
            view = g.view(g.current)
            if len(view.legal) > 1:
                decisions += 1
                if decisions % every == 0:
                    start = time.process_time()
                    suggest(view)
                    out.append(time.process_time() - start)
            g.apply(bot.choose(view, rng))
            actions += 1
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--presets", default="", help="comma list (default: every preset)")
    ap.add_argument("--matches", type=int, default=2)
    ap.add_argument("--every", type=int, default=4, help="hint every n-th decision")
    ap.add_argument("--max-players", type=int, default=4)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", default="hint_speed")
    args = ap.parse_args(argv)
    presets = args.presets.split(",") if args.presets else sorted(PRESETS)
    table = Table(title="hint CPU seconds at the default budget")
    for col in ("preset", "players", "hints", "mean", "p95", "max", "≤ 1 s"):
        table.add_column(col, justify="right")
    rows = []
    for preset in presets:
        rules = PRESETS[preset]
        counts = sorted(
            {rules.min_players, max(rules.min_players, min(rules.max_players, args.max_players))}
        )
        for players in counts:
            times = sorted(hint_times(preset, players, args.matches, args.every, args.seed))
            if not times:
                continue
            p95 = times[min(len(times) - 1, int(0.95 * len(times)))]
            row = {
                "preset": preset, "players": players, "hints": len(times),
                "mean": statistics.fmean(times), "p95": p95, "max": times[-1],
            }  # fmt: skip
            rows.append(row)
            table.add_row(
                preset, str(players), str(len(times)), f"{row['mean']:.3f}", f"{p95:.3f}",
                f"{times[-1]:.3f}", "yes" if times[-1] <= 1.0 else "NO",
            )  # fmt: skip
            print(f"{preset} {players}p: max {times[-1]:.2f} s", file=sys.stderr, flush=True)
    Console(width=120).print(table)
    given = sys.argv[1:] if argv is None else argv
    write_results(
        args.out, {"command": "python benchmarks/hint_speed.py " + " ".join(given), "rows": rows}
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

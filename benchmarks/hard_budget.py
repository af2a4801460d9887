"""Whether ``hard`` answers within its budget: CPU seconds of each of its moves, in
every preset, as the server plays it (``ismcts:<budget>cpu``).

For each preset, at its fewest and most players (capped by ``--max-players``), one
single round is played with ``hard`` in seat 0 and ``medium`` in the other seats
(``--matches`` rounds from consecutive seeds).  Every decision of seat 0 with more
than one legal move is timed with the process's CPU clock, around ``choose`` as the
server calls it: the search's own deadline plus what it does before and after (its
candidates, the last playout, the choice).  Reported: the moves, their mean, median,
95th percentile and largest CPU time, and how many went over the budget by more than
``--slack`` (the last playout that straddles the deadline is allowed for).

    python benchmarks/hard_budget.py --presets gin,rami51 --budget 1.0

prints a table and writes ``benchmarks/results/hard_budget.json``.
"""

from __future__ import annotations

import argparse
import time

import per_preset

from rummykit.bots import make_bot


def move_times(preset: str, players: int, matches: int, budget: float, seed: int) -> list[float]:
    """CPU seconds of each of seat 0's decisions by ``hard`` in ``matches`` rounds."""
    out: list[float] = []
    hard = make_bot(f"ismcts:{budget:g}cpu")
    medium = make_bot("medium")
    for g, view, rng in per_preset.decisions(preset, players, matches, seed):
        if g.current == 0 and len(view.legal) > 1:
            start = time.process_time()
            move = hard.choose(view, rng)
            out.append(time.process_time() - start)
        else:
            move = (hard if g.current == 0 else medium).choose(view, rng)
        g.apply(move)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--presets", default="", help="comma list (default: every preset)")
    ap.add_argument("--matches", type=int, default=1)
    ap.add_argument("--budget", type=float, default=1.0, help="hard's CPU seconds a move")
    ap.add_argument("--slack", type=float, default=0.1, help="allowed over the budget (s)")
    ap.add_argument("--max-players", type=int, default=4)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", default="hard_budget")
    args = ap.parse_args(argv)
    per_preset.run(
        title=f"hard's CPU seconds a move at a budget of {args.budget:g} s", what="moves",
        presets=args.presets, max_players=args.max_players, limit=args.budget + args.slack,
        name=args.out, argv=argv,
        measure=lambda preset, players: move_times(
            preset, players, args.matches, args.budget, args.seed
        ),
    )  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

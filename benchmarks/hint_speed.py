"""What a hint costs in every preset: CPU seconds of ``hints.suggest`` at its default
budget (the review's, ``review.default_budget``), as the front ends ask it.

For each preset, at its fewest and most players (capped by ``--max-players``), the
positions are the turns of ``--matches`` one-round matches of ``medium`` bots: every
``--every``-th decision with more than one legal move is hinted.  Reported: the
number of hints, their mean, median, 95th percentile and largest CPU time, and how
many took over a second: the goal is a hint within one second in every preset.

    python benchmarks/hint_speed.py --matches 2 --every 4
"""

from __future__ import annotations

import argparse
import time

import per_preset

from rummykit.bots import make_bot
from rummykit.bots.hints import suggest


def hint_times(preset: str, players: int, matches: int, every: int, seed: int) -> list[float]:
    """CPU seconds of each hint asked in ``matches`` one-round matches of ``preset``."""
    out: list[float] = []
    bot = make_bot("medium")
    asked = 0
    for g, view, rng in per_preset.decisions(preset, players, matches, seed):
        if len(view.legal) > 1:
            asked += 1
            if asked % every == 0:
                start = time.process_time()
                suggest(view)
                out.append(time.process_time() - start)
        g.apply(bot.choose(view, rng))
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
    per_preset.run(
        title="hint CPU seconds at the default budget", what="hints", presets=args.presets,
        max_players=args.max_players, limit=1.0, name=args.out, argv=argv,
        measure=lambda preset, players: hint_times(
            preset, players, args.matches, args.every, args.seed
        ),
    )  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""How good a Gin opponent's hand really is, against the hands the search samples.

The opponent model (``rummykit.bots.inference``) weighs each unseen card by the
public signals, card by card; it cannot say that a player keeps the cards that fit.
At every decision of a hand of ``medium`` against itself, this script measures the
hidden hand's deadwood as it is and as :data:`SAMPLES` samples of the model deal it,
per stage (cards drawn from the stock so far, the last :data:`STAGES` or more) and per
band of :data:`BAND` points.  The samples are far worse than the real hands: after
ten draws, about 40 points of deadwood against 20.

It also writes the table a rejection sampler would keep samples by: per stage and
band, the real rate over the sampled rate, scaled so the most under-sampled band is
always kept (bands sampled fewer than :data:`MIN_SAMPLED` times are always kept).  A
search that dealt its samples so (each kept with that probability, else dealt again,
up to 20 times) measured weaker, not stronger (docs/bots.md, "A sharper opponent
model at Gin"), so the table is a record, not part of the bot.

    python benchmarks/gin_hand_model.py --hands 1500 --seed 2000000

prints the means per stage and writes ``benchmarks/results/gin_hand_model.json``.
"""

from __future__ import annotations

import argparse
import random

from results_file import write_results
from rich.console import Console
from rich.table import Table

from rummykit import new_game
from rummykit.bots import make_bot
from rummykit.bots.inference import card_weights
from rummykit.state import Phase
from rummykit.variants.gin import deadwood_shown
from rummykit.view import determinize

STAGES = 20
BAND = 5
BANDS = 13
"""Bands of deadwood 0-4, 5-9, ..., 60 and more."""
SAMPLES = 8
"""Samples dealt per position."""
MIN_SAMPLED = 20


def count(hands: int, seed: int) -> tuple[list[list[int]], list[list[int]]]:
    """Per stage and band: the hidden hands as they were, and as sampled."""
    true = [[0] * BANDS for _ in range(STAGES + 1)]
    sampled = [[0] * BANDS for _ in range(STAGES + 1)]
    for deal in range(seed, seed + hands):
        s = new_game("gin(deals=1)", 2, deal)
        rng = random.Random(deal)
        start = len(s.stock)
        while not s.is_over():
            if s.phase is Phase.DRAW:
                me = s.current
                v = s.view(me)
                stage = min(STAGES, start - v.stock_size)
                weights = card_weights(v)
                band = deadwood_shown(s.game, s.hands[1 - me]) // BAND
                true[stage][min(BANDS - 1, band)] += 1
                for _ in range(SAMPLES):
                    x = determinize(v, rng, weights)
                    band = deadwood_shown(x.game, x.hands[1 - me]) // BAND
                    sampled[stage][min(BANDS - 1, band)] += 1
            s.apply(make_bot("medium").choose(s.view(s.current), rng))
    return true, sampled


def keep_table(true: list[list[int]], sampled: list[list[int]]) -> list[list[float]]:
    """Per stage and band, the probability of keeping a sample (see the module)."""
    table = []
    for t, x in zip(true, sampled, strict=True):
        nt, nx = sum(t) + len(t), sum(x) + len(x)
        ratio = [
            ((a + 1) / nt) / ((b + 1) / nx) if b >= MIN_SAMPLED else 0.0
            for a, b in zip(t, x, strict=True)
        ]
        top = max(ratio) or 1.0
        table.append([
            round(min(1.0, r / top), 3) if b >= MIN_SAMPLED else 1.0
            for r, b in zip(ratio, x, strict=True)
        ])  # fmt: skip
    return table


def mean(counts: list[int]) -> float:
    """The mean deadwood of a stage's counts, each band at its middle."""
    return sum((b * BAND + BAND / 2) * c for b, c in enumerate(counts)) / max(1, sum(counts))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--hands", type=int, default=1500)
    ap.add_argument("--seed", type=int, default=2_000_000)
    ap.add_argument("--out", default="gin_hand_model")
    args = ap.parse_args(argv)
    true, sampled = count(args.hands, args.seed)
    table = keep_table(true, sampled)
    command = f"python benchmarks/gin_hand_model.py --hands {args.hands} --seed {args.seed}"
    out = Table(title=f"The hidden Gin hand's deadwood, real and sampled ({args.hands} hands)")
    for col in ("stock draws", "positions", "real", "sampled", "samples kept"):
        out.add_column(col, justify="right")
    for stage, (t, x, row) in enumerate(zip(true, sampled, table, strict=True)):
        kept = sum(p * c for p, c in zip(row, x, strict=True)) / max(1, sum(x))
        label = f"{stage}+" if stage == STAGES else str(stage)
        out.add_row(label, str(sum(t)), f"{mean(t):.1f}", f"{mean(x):.1f}", f"{kept:.0%}")
    Console(width=100).print(out)
    write_results(args.out, {"command": command, "true": true, "sampled": sampled, "keep": table})
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

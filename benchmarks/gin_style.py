"""Gin styles against ``medium``: where ``gin.HARD``'s constants come from.

A style (:class:`rummykit.bots.gin.GinStyle`: how long to wait for gin, how much an
upcard must gain to be taken, how much the outs weigh) is played by an
:class:`~rummykit.bots.expert.ExpertBot` against ``medium`` (``gin.MEDIUM``) on
single-hand duplicate deals (:func:`search_gain.play_deal`: deal ``seed + i`` twice,
seats swapped).  Each row is the style's points share against ``medium`` with its 95%
interval, and its mean margin a hand.  The expert's hands cost about a millisecond,
so a thousand deals a style take some seconds.

    python benchmarks/gin_style.py --deals 1000 --seed 5000

The search that ``hard`` runs keeps its starting moves unless another measures better,
so the best style against ``medium`` is where it starts (docs/bots.md, "The search
against medium at Gin").
"""

from __future__ import annotations

import argparse
import sys
from concurrent.futures import ProcessPoolExecutor
from functools import partial

from results_file import write_results
from rich.console import Console
from rich.table import Table
from search_gain import play_deal, summary

from rummykit.bots import ExpertBot
from rummykit.bots.gin import HARD, MEDIUM, GinStyle

RULES = "gin(deals=1)"

STYLES: tuple[tuple[str, GinStyle], ...] = (
    ("medium", MEDIUM),
    *((f"wait {d}", GinStyle(wait_deadwood=d)) for d in (0, 2, 4, 6, 8, 10)),
    *((f"wait while {s} in stock", GinStyle(wait_stock=s)) for s in (6, 14, 18)),
    *((f"draw margin {m:g}", GinStyle(draw_margin=m)) for m in (0.0, 1.0, 2.0, 5.0)),
    *((f"outs {w:g}", GinStyle(outs_weight=w)) for w in (0.5, 1.0, 2.5, 4.0)),
    ("wait 8, margin 5", GinStyle(wait_deadwood=8, draw_margin=5.0)),
    ("hard: wait 8, margin 4, outs 2", HARD),
)
"""The scan, one constant at a time from ``medium``'s, then the combinations."""


def play(style: GinStyle, seed: int) -> tuple[float, ...]:
    """Deal ``seed`` from both seats: the style's points, ``medium``'s, wins, losses."""
    return play_deal(RULES, 2, partial(ExpertBot, gin_style=style), "medium", seed)


def measure(style: GinStyle, deals: int, seed: int, workers: int) -> dict[str, object]:
    """One style's row over ``deals`` deals from ``seed``."""
    seeds = range(seed, seed + deals)
    with ProcessPoolExecutor(workers) as pool:
        pairs = list(pool.map(partial(play, style), seeds, chunksize=16))
    return {**summary([(p[0], p[1]) for p in pairs], 2), "deals": deals, "seed": seed}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--deals", type=int, default=1000, help="deals a style (each played twice)")
    ap.add_argument("--seed", type=int, default=5000)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--only", default="", help="a comma list of row numbers (0 = medium)")
    ap.add_argument("--out", default="gin_style", help="results/<OUT>.json")
    args = ap.parse_args(argv)
    chosen = [STYLES[int(i)] for i in args.only.split(",")] if args.only else list(STYLES)
    table = Table(title=f"Gin styles against medium, {args.deals} duplicate deals each")
    for col in ("style", "points share", "95% CI", "margin a hand", "95% CI"):
        table.add_column(col, justify="right")
    rows = []
    for label, style in chosen:
        row = {"label": label, "style": repr(style)}
        row.update(measure(style, args.deals, args.seed, args.workers))
        rows.append(row)
        low, high = row["share_ci95"]  # type: ignore[misc]
        mlow, mhigh = row["margin_ci95"]  # type: ignore[misc]
        table.add_row(
            label, f"{row['share']:.1%}", f"{low:.1%}-{high:.1%}",
            f"{row['margin']:+.2f}", f"{mlow:+.2f} to {mhigh:+.2f}",
        )  # fmt: skip
    Console(width=120).print(table)
    given = sys.argv[1:] if argv is None else argv
    command = "python benchmarks/gin_style.py " + " ".join(given)
    write_results(args.out, {"command": command, "rules": RULES, "rows": rows})
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
